! A Fortran 90 fixture: ! comments, an OpenMP directive, and lines that
! start with c, which cloc's Fortran 77 rule takes for comments.
program hello
  implicit none
  integer :: i ! trailing comment: code
!$omp parallel do
  do i = 1, 3
     print *, i
  end do

contains
  subroutine s()
  end subroutine s
end program hello
