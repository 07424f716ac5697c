! The groundwater module through CSDMS's Fortran BMI (bmi-fortran's bmif_2_0), driven as
! a framework drives any model: a class(bmi) variable allocated as opsplit_gw_bmi. The
! setup file (argument 1) is tests/data/groundwater/setup/decay.yaml: A -> B at k = 1e-5
! 1/s in four cells, A0 = 1, 2, 3, 4 mmol/L, one hour a step. Built where pkg-config
! finds bmif (not Debian's or PyPI's: not in CI).
program test_bmi_fortran
  use bmif_2_0
  use opsplit_bmif, only: opsplit_gw_bmi
  use opsplit, only: opsplit_last_error
  implicit none
  class(bmi), allocatable :: model
  character(len=4096) :: setup
  character(len=BMI_MAX_VAR_NAME), pointer :: names(:)
  character(len=BMI_MAX_TYPE_NAME) :: type
  character(len=BMI_MAX_UNITS_NAME) :: units
  double precision :: c(8), at(2), now, step, porosity(4)
  real :: c_float(8)
  integer :: count(1), nbytes, g, failures
  failures = 0
  allocate(opsplit_gw_bmi :: model)
  call get_command_argument(1, setup)
  call check(model%initialize('/nonexistent/setup.yaml') == BMI_FAILURE, 'a missing file')
  call check(index(opsplit_last_error(), '/nonexistent/setup.yaml') > 0, 'is named: ' // opsplit_last_error())
  call check(model%initialize(trim(setup)) == BMI_SUCCESS, 'initialize')
  call check(model%get_output_var_names(names) == BMI_SUCCESS, 'output names')
  call check(size(names) == 15, 'fifteen outputs')
  call check(names(1) == 'Concentrations', 'the first output')
  call check(model%get_var_type('Nothing', type) == BMI_FAILURE, 'an unknown name')
  call check(type == '', 'gives no type')
  call check(model%get_grid_type(7, type) == BMI_FAILURE, 'an unknown grid')
  call check(model%get_var_type('Concentrations', type) == BMI_SUCCESS, 'type')
  call check(type == 'double precision', 'Concentrations are double precision')
  call check(model%get_var_type('Status', type) == BMI_SUCCESS .and. type == 'integer', 'Status is integer')
  call check(model%get_var_units('Temperature', units) == BMI_SUCCESS .and. units == 'degC', 'degC')
  call check(model%get_var_nbytes('Concentrations', nbytes) == BMI_SUCCESS .and. nbytes == 64, 'nbytes')
  call check(model%get_time_step(step) == BMI_SUCCESS .and. step == 3600d0, 'the step')
  do g = 1, 5
    call check(model%update() == BMI_SUCCESS, 'update')
  end do
  call check(model%get_current_time(now) == BMI_SUCCESS .and. now == 5 * 3600d0, 'five hours')
  call check(model%get_value_double('Concentrations', c) == BMI_SUCCESS, 'get_value_double')
  do g = 1, 4
    call check(abs(c(g) - 1d-3 * g * exp(-1d-5 * now)) < 1d-8 * 1d-3 * g, 'A decays exactly')
    call check(abs(c(g) + c(4 + g) - 1d-3 * g) < 1d-12 * 1d-3 * g, 'A + B conserved')
  end do
  call check(model%get_value_float('Concentrations', c_float) == BMI_SUCCESS, 'get_value_float')
  call check(all(c_float == real(c)), 'the float values are the doubles')
  call check(model%get_value_at_indices_double('Concentrations', at, [8, 3]) == BMI_SUCCESS, 'at indices')
  call check(at(1) == c(8) .and. at(2) == c(3), 'indices are 1-based into the flattened array')
  call check(model%get_value_int('GridCellCount', count) == BMI_SUCCESS .and. count(1) == 4, 'GridCellCount')
  porosity = 0.3d0
  call check(model%set_value_double('Porosity', porosity) == BMI_SUCCESS, 'set porosity')
  call check(model%set_value_at_indices_double('Porosity', [2], [0.45d0]) == BMI_SUCCESS, 'set one porosity')
  call check(model%get_value_double('Porosity', porosity) == BMI_SUCCESS, 'get porosity')
  call check(porosity(1) == 0.3d0 .and. porosity(2) == 0.45d0, 'the porosities set')
  call check(model%set_value_at_indices_double('Porosity', [2], [1.5d0]) == BMI_FAILURE, 'porosity 1.5 refused')
  call check(index(opsplit_last_error(), 'POROSITY') > 0, 'and named: ' // opsplit_last_error())
  call check(model%set_value_int('GridCellCount', count) == BMI_FAILURE, 'an output is not set')
  call check(model%get_value_double('Concentrations', c(1:4)) == BMI_FAILURE, 'a short array is refused')
  call check(model%update_until(now - 1d0) == BMI_FAILURE, 'not back in time')
  call check(model%finalize() == BMI_SUCCESS, 'finalize')
  if (failures > 0) error stop 1
  print '(a)', 'test_bmi_fortran: all passed'
contains
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      print '(2a)', 'FAILED: ', what
    end if
  end subroutine check
end program test_bmi_fortran
