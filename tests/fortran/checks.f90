! The Fortran tests' bookkeeping: check() counts a condition that must hold, and
! report_checks() prints the counts and stops with an error when any failed.
module test_checks
  implicit none
  private
  public :: check, report_checks
  integer :: npassed = 0, nfailed = 0

contains

  subroutine check(condition, what)
    logical, intent(in) :: condition
    character(len=*), intent(in) :: what
    if (condition) then
      npassed = npassed + 1
    else
      nfailed = nfailed + 1
      print '(a,a)', 'FAILED: ', what
    end if
  end subroutine check

  subroutine report_checks()
    print '(i0,a,i0,a)', npassed, ' passed, ', nfailed, ' failed'
    if (nfailed > 0) error stop 1
  end subroutine report_checks

end module test_checks
