! Fortran tests of the groundwater reaction module through opsplit_gw_t: a decay chain
! A -> B with B immobile in PhreeqcRM's Fortran layout c(nxyz, ncomponents), against
! the analytic solution per cell (porosity and saturation differ, so B's moles, not
! its concentration, must be what the module keeps), the moles conserved, a cell left
! out by the mapping not written, and bad input through stat (a wrong shape, a
! porosity above 1) leaving the module as it was; A's linear isotherm gives
! R = 1 + rho_b Kd / theta per cell. Runs on the backend OPSPLIT_BACKEND
! names. Fixed-size arrays only (the sanitizer build's leak check). Then the setup file
! (argument 1: tests/data/groundwater/setup/decay.yaml) through BMI: five updates of its
! hour against the exact decay, the clock, names, and a wrong-sized array refused.
program test_fortran_groundwater
  use opsplit
  use test_checks
  implicit none
  integer, parameter :: n = 4
  real(c_double), parameter :: k = 1.0e-5_c_double, dt = 3600.0_c_double
  type(opsplit_context_t) :: ctx
  type(opsplit_mechanism_t) :: mech
  type(opsplit_gw_t) :: gw
  integer(c_int) :: a, b, ncomponents, nimmobile, status(n)
  integer(c_int64_t) :: nxyz, nchem
  real(c_double) :: c(n, 1), sorbed(n, 1), porosity(n), saturation(n), moles0(2), moles1(2), wrong(n + 1, 1)
  real(c_double) :: water, expected_a, expected_b_moles, bulk(n), retardation(n, 1)
  integer :: stat, g
  type(opsplit_gw_t) :: bmi
  character(len=4096) :: setup
  real(c_double) :: both(2 * n), a0, start, now, end, step, short(n)
  integer(c_int) :: cells(1)

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call mech%create(ctx)
  call mech%add_species('A', a)
  call mech%add_species('B', b)
  call mech%add_reaction([a], [b])
  call mech%set_rate(1, OPSPLIT_RATE_CONSTANT, k)
  call gw%create(ctx, mech%c_handle(), int(n, c_int64_t))
  call check(gw%created(), 'create')
  call gw%set_mobile(int(b), .false.)
  call gw%counts(nxyz, nchem, ncomponents, nimmobile)
  call check(nxyz == n .and. nchem == n .and. ncomponents == 1 .and. nimmobile == 1, 'counts')
  call gw%set_tolerances(1.0e-10_c_double, 1.0e-20_c_double)
  call gw%set_units(OPSPLIT_GW_MOL_PER_L, OPSPLIT_GW_PER_L_CELL)
  porosity = [0.1_c_double, 0.2_c_double, 0.3_c_double, 0.4_c_double]
  saturation = [1.0_c_double, 0.5_c_double, 0.25_c_double, 1.0_c_double]
  call gw%set_property(OPSPLIT_GW_POROSITY, porosity)
  call gw%set_property(OPSPLIT_GW_SATURATION, saturation)
  call gw%set_mapping([0_c_int, 1_c_int, 2_c_int, -1_c_int])
  c(:, 1) = [1.0e-3_c_double, 2.0e-3_c_double, 3.0e-3_c_double, 4.0e-3_c_double]
  sorbed(:, 1) = 0.0_c_double
  call gw%set_concentrations(c)
  call gw%set_immobile(sorbed)
  call gw%moles(moles0)
  call gw%run(dt)
  call gw%moles(moles1)
  c = -7.0_c_double
  call gw%get_concentrations(c)
  call gw%get_immobile(sorbed)
  call gw%status(status)
  do g = 1, n - 1
    water = porosity(g) * saturation(g)
    expected_a = 1.0e-3_c_double * g * exp(-k * dt)
    expected_b_moles = (1.0e-3_c_double * g - expected_a) * water  ! per litre of cell: volume 1
    call check(abs(c(g, 1) - expected_a) < 1.0e-9_c_double * expected_a, 'A decays in cell ' // char(48 + g))
    call check(abs(sorbed(g, 1) - expected_b_moles) < 1.0e-8_c_double * expected_b_moles, 'B moles in cell ' // &
               char(48 + g))
    call check(status(g) == OPSPLIT_ODE_OK, 'status')
  end do
  call check(c(n, 1) == -7.0_c_double, 'the left-out cell is not written')
  call check(status(n) == OPSPLIT_GW_CELL_NOT_RUN, 'the left-out cell did not run')
  call check(abs(sum(moles1) - sum(moles0)) < 1.0e-12_c_double * sum(moles0), 'moles conserved')

  ! Bad input through stat, the module unchanged.
  call gw%set_concentrations(wrong, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a wrong shape is refused')
  call check(index(opsplit_last_error(), 'shape') > 0, 'and named: ' // opsplit_last_error())
  porosity(2) = 1.5_c_double
  call gw%set_property(OPSPLIT_GW_POROSITY, porosity, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'porosity 1.5 is refused')
  call gw%get_property(OPSPLIT_GW_POROSITY, porosity)
  call check(porosity(2) == 0.2_c_double, 'the porosity stays')
  call gw%run(dt)

  ! A linear isotherm on A: R = 1 + bulk density x Kd / (porosity x saturation).
  call gw%set_isotherm(int(a), OPSPLIT_GW_ISOTHERM_LINEAR, 0.25_c_double, 0.0_c_double)
  bulk = 1.6_c_double
  call gw%set_property(OPSPLIT_GW_BULK_DENSITY, bulk)
  retardation = -7.0_c_double
  call gw%get_retardation(retardation)
  do g = 1, n - 1
    water = porosity(g) * saturation(g)
    call check(abs(retardation(g, 1) - (1.0_c_double + 1.6_c_double * 0.25_c_double / water)) < 1.0e-14_c_double * &
               retardation(g, 1), 'R of a linear isotherm in cell ' // char(48 + g))
  end do
  call check(retardation(n, 1) == -7.0_c_double, 'the left-out cell has no R written')
  call gw%set_isotherm(int(b), OPSPLIT_GW_ISOTHERM_LINEAR, 0.25_c_double, 0.0_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'an immobile species takes no isotherm')
  call gw%set_isotherm(0, OPSPLIT_GW_ISOTHERM_LINEAR, 0.25_c_double, 0.0_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'species 0 is not in 1..2') > 0, &
             'species 0 is refused, named 1-based: ' // opsplit_last_error())

  call gw%destroy()
  call gw%destroy()
  call check(.not. gw%created(), 'destroy is idempotent')
  call mech%destroy()

  ! The setup file through BMI: A -> B at k in four cells, one hour a step.
  call get_command_argument(1, setup)
  call bmi%load_yaml(ctx, setup)
  call check(bmi%created(), 'load_yaml: ' // trim(setup))
  do g = 1, 5
    call bmi%update()
  end do
  call bmi%times(start, now, end, step)
  call check(start == 0.0_c_double .and. step == dt .and. now == 5 * dt, 'the clock advanced five steps')
  call bmi%get_value('Concentrations', both)
  do g = 1, n
    a0 = 1.0e-3_c_double * g
    call check(abs(both(g) - a0 * exp(-k * now)) < 1.0e-8_c_double * a0, 'BMI: A decays in cell ' // char(48 + g))
    call check(abs(both(g) + both(n + g) - a0) < 1.0e-12_c_double * a0, 'BMI: A + B conserved in cell ' // char(48 + g))
  end do
  call bmi%get_value('GridCellCount', cells)
  call check(cells(1) == n, 'GridCellCount')
  call check(bmi%var_count(OPSPLIT_GW_BMI_INPUT) == 11 .and. bmi%var_count(OPSPLIT_GW_BMI_OUTPUT) == 15, 'var counts')
  call check(bmi%var_name(OPSPLIT_GW_BMI_INPUT, 1) == 'Concentrations', 'the first input')
  call check(bmi%species_name(2) == 'B', 'species 2 is B')
  call bmi%set_value('Concentrations', short, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'has 8 values') > 0, &
             'a short array is refused: ' // opsplit_last_error())
  call bmi%update_until(now - 1.0_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'update_until cannot go back')
  call bmi%destroy()
  call ctx%destroy()
  call report_checks()
end program test_fortran_groundwater
