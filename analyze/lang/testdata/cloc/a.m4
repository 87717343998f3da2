dnl a comment line
dnl
AC_INIT([x], [1])
  dnl indented: code for cloc
dnl	
AC_OUTPUT
