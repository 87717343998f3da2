//JOB1    JOB (ACCT),'NAME'
//* a comment
//STEP1   EXEC PGM=IEFBR14

//DD1     DD DSN=X.Y,DISP=SHR
//
//AFTER   the end of the job: not counted as code
