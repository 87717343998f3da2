\ A Forth fixture: backslash comments and ( parenthesised ) ones.
: square ( n -- n*n ) dup * ;
( a comment
  over two lines )
: cube dup square * ;
  ( indented comment )
