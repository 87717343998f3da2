C     A Fortran 77 fixture.
c     lower-case c comment
*     star comment
      PROGRAM MAIN
      INTEGER I
      ! bang comment
      DO 10 I = 1, 3
         PRINT *, I
   10 CONTINUE

      END
