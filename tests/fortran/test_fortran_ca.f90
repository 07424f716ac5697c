! Fortran tests of CA grids through opsplit_ca_t: cells(rows, cols) with 1-based
! indices, a glider placed from RLE moving one cell down and right every 4 generations
! across the torus' edge, a blinker's period on a closed grid, HighLife's rule, and bad
! input through stat (a wrong array shape, a bad rule, a pattern outside the grid) leaving
! the grid as it was. A lava grid (SCIARA_FV2, 7 x 9: not square, so that a transposed
! layout shows): altitude(rows, cols) in and out, vents at 1-based cells (the index
! returned 1-based), run_until, time, the volumes' mass balance, the vent's cell holding
! lava at (row, col) in Fortran indexing and at [row - 1][col - 1] in C's row-major
! order, and bad input through stat. Runs on the backend OPSPLIT_BACKEND names.
! Fixed-size arrays only: the sanitizer build's leak check counts the main program's
! allocatables, which the runtime never frees.
program test_fortran_ca
  use opsplit
  use test_checks
  implicit none
  integer, parameter :: lr = 7, lc = 9       ! the lava grid's rows and columns
  integer, parameter :: vr = 3, vc = 6       ! its vent, 1-based
  type(opsplit_context_t) :: ctx
  type(opsplit_ca_t) :: ca, flow, flow3
  integer(c_int8_t) :: cells(9, 11), expected(9, 11), wrong(11, 9)
  integer(c_int64_t) :: rows, cols
  integer :: stat, k, vent, r, c
  real(c_double), target :: altitude(lr, lc), values(lr, lc), before(lr, lc), row_major(lc, lr)
  real(c_double) :: transposed(lc, lr), value, t, emitted, lava, solidified, lost
  character(len=*), parameter :: glider = 'x = 3, y = 3, rule = B3/S23' // achar(10) // 'bob$2bo$3o!'

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call ca%create(ctx, OPSPLIT_CA_LIFE, 9, 11)
  call check(ca%created(), 'create')
  call ca%get_shape(rows, cols)
  call check(rows == 9 .and. cols == 11, 'get_shape')

  ! A glider with its box's top-left at row 2, column 8 (1-based): after 4 k generations
  ! the same shape at (2 + k, 8 + k), wrapped.
  call ca%place_rle(glider, 2, 8)
  call check(ca%population() == 5, 'population of a glider')
  do k = 1, 12
    call ca%step(4)
    call ca%get_cells(cells)
    call place_glider(expected, 2 + k, 8 + k)
    call check(all(cells == expected), 'glider after 4 k generations')
  end do
  call check(ca%steps() == 48_c_int64_t, 'steps')

  ! A blinker on a closed grid: period 2; set_cells with a Fortran array.
  call ca%set_boundary(OPSPLIT_CA_CLOSED)
  cells = 0_c_int8_t
  cells(4:6, 5) = 1_c_int8_t
  call ca%set_cells(cells)
  call ca%step(1)
  call ca%get_cells(expected)
  call check(all(expected(5, 4:6) == 1_c_int8_t) .and. count(expected == 1_c_int8_t) == 3, 'blinker turns')
  call ca%step(1_c_int64_t)
  call ca%get_cells(expected)
  call check(all(expected == cells), 'blinker returns after 2 generations')

  ! Bad input through stat: nothing changes.
  call ca%get_cells(wrong, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'get_cells with a (cols, rows) array')
  call check(index(opsplit_last_error(), 'cells is (11, 9), the grid (9, 11)') > 0, 'its message')
  call ca%set_rule('B3/S2q', stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a Hensel rule')
  call ca%place_rle(glider, 9, 11, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a glider past the closed grid''s corner')
  call ca%place_rle(glider, 0, 1, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'row 0')
  call ca%load_rle('/nonexistent/opsplit/glider.rle', 1, 1, stat=stat)
  call check(stat == OPSPLIT_ERROR_IO, 'load_rle of a missing file')
  call check(index(opsplit_last_error(), '/nonexistent/opsplit/glider.rle') > 0, 'its message names the file')
  call ca%get_cells(expected)
  call check(all(expected == cells), 'the grid after the refused calls')

  ! HighLife: B36/S23 makes a birth of six neighbours; Conway's rule does not.
  call ca%set_rule('B36/S23')
  cells = 0_c_int8_t
  cells(4, 4:6) = 1_c_int8_t
  cells(6, 4:6) = 1_c_int8_t   ! (5, 5) has 6 live neighbours
  call ca%set_cells(cells)
  call ca%step(1)
  call ca%get_cells(expected)
  call check(expected(5, 5) == 1_c_int8_t, 'B36: birth on 6')
  call ca%set_rule('B3/S23')
  call ca%set_cells(cells)
  call ca%step(1)
  call ca%get_cells(expected)
  call check(expected(5, 5) == 0_c_int8_t, 'B3: no birth on 6')

  ! ---- a lava grid ----
  call flow%create(ctx, OPSPLIT_CA_SCIARA_FV2, lr, lc)
  call flow%get_shape(rows, cols)
  call check(rows == lr .and. cols == lc, 'lava: get_shape')
  do c = 1, lc
    do r = 1, lr
      altitude(r, c) = 100.0_c_double + 0.5_c_double * r + 0.25_c_double * c
    end do
  end do
  call flow%set_substate('altitude', altitude)
  values = -1.0_c_double
  call flow%get_substate('altitude', values)
  call check(all(values == altitude), 'lava: altitude round trip')
  ! C's row-major order through the bind(C) interface: values(r, c) is [r - 1][c - 1].
  call check(opsplit_ca_get_substate(flow%c_handle(), 'altitude' // c_null_char, c_loc(row_major), &
                                     OPSPLIT_CA_ROW_MAJOR) == OPSPLIT_SUCCESS, 'lava: the C call')
  call check(all(transpose(row_major) == altitude), 'lava: row-major is the transpose')
  call flow%get_parameter('Pclock', value)
  call check(value == 60.0_c_double, 'lava: Pclock defaults to 60 s')
  call flow%get_parameter('Psigma', value)
  call check(value == 5.68e-8_c_double, 'lava: Psigma defaults to 5.68e-8')
  call flow%set_parameter('Pcool', 9.0_c_double)
  call flow%set_cells_computed(OPSPLIT_CA_ACTIVE_REGION)

  ! Vents at 1-based cells; the index comes back 1-based. Row 1, row lr, column 1 and
  ! column lc are the outermost ring: refused.
  vent = -1
  call flow%add_vent(vr, vc, [2.0_c_double], 600.0_c_double, vent)
  call check(vent == 1, 'lava: the first vent is number 1')
  call flow%add_vent(2, 2, [0.0_c_double, 0.0_c_double], 60.0_c_double, vent)
  call check(vent == 2, 'lava: the second vent is number 2')
  call flow%add_vent(lr - 1, lc - 1, [0.0_c_double], 60.0_c_double)   ! no vent argument
  call flow%add_vent(1, 2, [1.0_c_double], 60.0_c_double, vent, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. vent == 0, 'lava: a vent on row 1 (the ring)')
  call check(index(opsplit_last_error(), '(0, 1)') > 0, 'lava: its message names the 0-based cell')
  call flow%add_vent(lr, 2, [1.0_c_double], 60.0_c_double, vent, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: a vent on row lr (the ring)')
  call flow%add_vent(2, lc, [1.0_c_double], 60.0_c_double, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: a vent on column lc (the ring)')
  call flow%add_vent(0, 0, [1.0_c_double], 60.0_c_double, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: a vent outside the grid')
  call flow%add_vent(vr, vc, [1.0_c_double, -1.0_c_double], 60.0_c_double, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: a negative rate')
  call flow%add_vent(vr, vc, [1.0_c_double], 0.0_c_double, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: slot_seconds 0')
  call flow%add_vent(vr, vc, values(1, 1:0), 60.0_c_double, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: no slot')
  call flow%add_vent(lr - 1, 2, [0.0_c_double], 60.0_c_double, vent)
  call check(vent == 4, 'lava: the refused vents were not added')

  ! Bad input through stat; nothing changes.
  call flow%set_substate('depth', altitude, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: an unknown substate')
  call check(index(opsplit_last_error(), '"depth" is not a SCIARA-fv2 substate') > 0, 'lava: its message')
  call flow%get_substate('altitude', transposed, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: get_substate with a (cols, rows) array')
  call check(index(opsplit_last_error(), 'values is (9, 7), the grid (7, 9)') > 0, 'lava: its message')
  values = 0.0_c_double
  values(1, 4) = 1.0_c_double
  call flow%set_substate('thickness', values, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: thickness on the ring')
  call flow%set_substate('lost', values, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: lost is read-only')
  call flow%set_parameter('Pr_Tsol', 1.5_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: a relaxation rate above 1')
  call flow%get_parameter('Pfoo', value, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. value /= value, 'lava: an unknown parameter (NaN)')
  call flow%set_cells_computed(5_c_int, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: cells computed 5')
  call flow%set_boundary(OPSPLIT_CA_PERIODIC, stat)
  call check(stat == OPSPLIT_ERROR_UNSUPPORTED, 'lava: no torus')
  call flow%set_rule('B3/S23', stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: set_rule is LIFE''s')
  call flow%load_substate('altitude', 'no/such/opsplit/altitude.stt', stat)
  call check(stat == OPSPLIT_ERROR_IO, 'lava: load_substate of a missing file')
  call flow%load_parameters('no/such/opsplit/PARAMETERS.cfg', stat)
  call check(stat == OPSPLIT_ERROR_IO, 'lava: load_parameters of a missing file')
  call flow%load_vents('no/such/opsplit/VENTS.stt', 'no/such/opsplit/EMISSIONS_RATE.stt', stat)
  call check(stat == OPSPLIT_ERROR_IO, 'lava: load_vents of missing files')
  call flow%run_until(ieee_nan(), stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: run_until NaN')
  call flow%get_substate('altitude', values)
  call check(all(values == altitude), 'lava: the altitude after the refused calls')
  call flow%get_substate('thickness', values)
  call check(all(values == 0.0_c_double), 'lava: no lava before the run')
  call flow%get_time(t)
  call check(t == 0.0_c_double .and. flow%steps() == 0_c_int64_t, 'lava: time 0 before the run')

  ! 2 m^3/s for 600 s: 1200 m^3, all on the grid, solidified or lost.
  call flow%run_until(600.0_c_double)
  call flow%get_time(t)
  call check(t == 600.0_c_double, 'lava: time 600 s')
  call check(flow%steps() == 10_c_int64_t, 'lava: 10 steps of 60 s')
  call flow%get_volumes(emitted, lava, solidified, lost)
  call check(abs(emitted - 1200.0_c_double) <= 1e-9_c_double * 1200.0_c_double, 'lava: 1200 m^3 emitted')
  call check(abs(emitted - (lava + solidified + lost)) <= 1e-12_c_double * emitted, 'lava: mass balance')
  call check(lava > 0.0_c_double, 'lava: fluid lava on the grid')
  call flow%get_substate('thickness', values)
  call check(values(vr, vc) > 0.0_c_double, 'lava: the vent''s cell holds lava at (row, col)')
  call check(all(values(1, :) == 0.0_c_double) .and. all(values(lr, :) == 0.0_c_double) .and. &
             all(values(:, 1) == 0.0_c_double) .and. all(values(:, lc) == 0.0_c_double), 'lava: none on the ring')
  call check(opsplit_ca_get_substate(flow%c_handle(), 'thickness' // c_null_char, c_loc(row_major), &
                                     OPSPLIT_CA_ROW_MAJOR) == OPSPLIT_SUCCESS, 'lava: thickness through C')
  call check(row_major(vc, vr) == values(vr, vc) .and. all(transpose(row_major) == values), &
             'lava: C''s [row - 1][col - 1] is Fortran''s (row, col)')
  before = values
  call flow%get_substate('temperature', values)
  call check(values(vr, vc) > 1143.0_c_double .and. values(vr, vc) <= 1360.0_c_double, &
             'lava: the vent''s cell between PTsol and PTvent')
  ! Pclock is fixed once stepped: refused, the grid unchanged.
  call flow%set_parameter('Pclock', 30.0_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: Pclock after a step')
  call flow%run_until(600.0_c_double)
  call check(flow%steps() == 10_c_int64_t, 'lava: run_until a time reached takes no step')
  call flow%get_substate('thickness', values)
  call check(all(values == before), 'lava: thickness after the refused calls')

  ! A LIFE grid refuses the lava calls.
  call ca%run_until(60.0_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'LIFE: run_until')
  call check(index(opsplit_last_error(), 'this grid is LIFE') > 0, 'LIFE: its message')
  call ca%get_time(t, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. t /= t, 'LIFE: get_time (NaN)')
  call ca%get_volumes(emitted, lava, solidified, lost, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. emitted /= emitted, 'LIFE: get_volumes (NaN)')
  call ca%add_vent(2, 2, [1.0_c_double], 60.0_c_double, vent, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. vent == 0, 'LIFE: add_vent')
  call ca%set_parameter('Pc', 5.0_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'LIFE: set_parameter')
  call ca%set_cells_computed(OPSPLIT_CA_ALL_CELLS, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'LIFE: set_cells_computed')
  call ca%get_substate('altitude', values, stat)   ! a (7, 9) array for the (9, 11) grid
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'LIFE: get_substate')
  call check(ca%steps() == 52_c_int64_t, 'LIFE: its generations unchanged')

  ! SCIARA_FV3: the thesis' parameters, fv2's names refused, momentum substates, its
  ! adaptive clock ending run_until at its time, the emission the schedule's integral.
  call flow3%create(ctx, OPSPLIT_CA_SCIARA_FV3, lr, lc)
  call flow3%get_parameter('Ptmax', value)
  call check(value == 120.0_c_double, 'fv3: Ptmax 120 s')
  call flow3%get_parameter('Pcool', value)
  call check(value == 1.507_c_double, 'fv3: Pcool (delta) 1.507')
  call flow3%set_parameter('Pclock', 60.0_c_double, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'fv3: Pclock is fv2''s')
  call flow3%set_substate('altitude', altitude)
  call flow3%add_vent(vr, vc, [2.0_c_double], 600.0_c_double, vent)
  call flow3%run_until(900.5_c_double)
  call flow3%get_time(t)
  call check(t == 900.5_c_double, 'fv3: run_until ends at its time')
  call check(flow3%steps() > 15_c_int64_t, 'fv3: steps of at most r Ptmax = 60 s')
  call flow3%get_volumes(emitted, lava, solidified, lost)
  call check(abs(emitted - 1200.0_c_double) <= 1e-12_c_double * 1200.0_c_double, 'fv3: 1200 m^3 emitted')
  call check(abs(emitted - (lava + solidified + lost)) <= 1e-12_c_double * emitted, 'fv3: mass balance')
  call flow3%get_substate('momentum_x', values)
  call check(any(values /= 0.0_c_double), 'fv3: moving lava has momentum')
  call flow3%get_substate('momentum_y', values)
  call flow%get_substate('momentum_y', values, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'fv2: no momentum substate')
  call flow3%destroy()

  call flow%destroy()
  call flow%destroy()
  call check(.not. flow%created(), 'lava: destroy is idempotent')
  call flow%get_time(t, stat)
  call check(stat == OPSPLIT_ERROR_INVALID_HANDLE, 'lava: a destroyed grid')

  call ca%destroy()
  call ca%destroy()
  call check(.not. ca%created(), 'destroy is idempotent')
  call ctx%destroy()
  call report_checks()

contains

  real(c_double) function ieee_nan()
    use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
    ieee_nan = ieee_value(0.0_c_double, ieee_quiet_nan)
  end function ieee_nan

  ! The glider bob$2bo$3o with its box's top-left at (r, c) on the 9 x 11 torus.
  subroutine place_glider(grid, r, c)
    integer(c_int8_t), intent(out) :: grid(:, :)
    integer, intent(in) :: r, c
    grid = 0_c_int8_t
    call set_cell(grid, r, c + 1)
    call set_cell(grid, r + 1, c + 2)
    call set_cell(grid, r + 2, c)
    call set_cell(grid, r + 2, c + 1)
    call set_cell(grid, r + 2, c + 2)
  end subroutine place_glider

  subroutine set_cell(grid, r, c)
    integer(c_int8_t), intent(inout) :: grid(:, :)
    integer, intent(in) :: r, c
    grid(modulo(r - 1, size(grid, 1)) + 1, modulo(c - 1, size(grid, 2)) + 1) = 1_c_int8_t
  end subroutine set_cell

end program test_fortran_ca
