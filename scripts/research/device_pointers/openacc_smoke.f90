program acc_smoke
  use iso_c_binding
  implicit none
  interface
    subroutine probe_init() bind(C)
    end subroutine
    subroutine describe(what, p, bytes) bind(C)
      import :: c_char, c_ptr, c_size_t
      character(kind=c_char), intent(in) :: what(*)
      type(c_ptr), value :: p
      integer(c_size_t), value :: bytes
    end subroutine
  end interface
  integer, parameter :: n = 1000
  real(c_double), target :: y(n)
  integer :: i
  call probe_init()

  y = 1.0d0
  !$acc data copy(y)
  !$acc parallel loop
  do i = 1, n
    y(i) = y(i) * 2.0d0 + i
  end do
  !$acc host_data use_device(y)
  call describe("openacc host_data y"//c_null_char, c_loc(y), int(8*n, c_size_t))
  !$acc end host_data
  !$acc end data
  call describe("openacc host y"//c_null_char, c_loc(y), int(8*n, c_size_t))
  print *, 'y(1), y(n) =', y(1), y(n), ' expected', 3.0d0, 2.0d0 + n
end program
