! Operator splitting with an ODE batch from Fortran: the host's time loop on a 1D
! periodic ring of cells, y(neq, ncells) in the host's own (Fortran, = OPSPLIT_ODE_AOS)
! order; the host advects, opsplit integrates the chemistry of every cell. The same run
! as examples/ode_transport.c, with the POLLU network (Verwer 1994; 20 species, 25
! reactions, ppm and minutes) built here through opsplit_mechanism_t.
!
!   ode_transport_fortran [NCELLS [STEPS]]
!
! NCELLS cells (default 16), STEPS steps of dt = 1 minute (default 30). Each step is Lie
! splitting: first-order upwind advection at Courant number 0.5, then the chemistry from
! t to t + dt (RODAS4, rtol 1e-6, atol 1e-10, keep_step). Start: POLLU's initial state,
! plus 3x the NO and NO2 at a tenth of that NO in the first quarter of the ring.
! Checks that the nitrogen and sulfur totals over the ring stay within DRIFT_LIMIT of
! their start (both are conserved by every reaction and by the periodic upwind scheme;
! examples/ode_transport.c explains the limit). Writes ode_transport_f.csv and
! ode_transport_f.png (O3, NO, NO2, HNO3, PAN in cell NCELLS/2 + 1) in the current
! directory. Every opsplit call passes stat; a failure prints its status and message
! and stops with code 1.
program ode_transport_fortran
  use opsplit
  use, intrinsic :: iso_fortran_env, only: error_unit, int64
  implicit none

  interface
    function png_plot_lines(path, width, height, npoints, x, nseries, y, log_y) &
        bind(C, name="png_plot_lines") result(rc)
      import :: c_char, c_double, c_int
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int), value :: width, height, npoints
      real(c_double), intent(in) :: x(*)
      integer(c_int), value :: nseries
      real(c_double), intent(in) :: y(*)
      integer(c_int), value :: log_y
      integer(c_int) :: rc
    end function png_plot_lines
  end interface

  integer :: r0  ! the implied-do index of the tables below
  integer(c_int), parameter :: ns = 20, nr = 25
  character(len=4), parameter :: names(ns) = [character(len=4) :: 'NO2', 'NO', 'O3P', 'O3', 'HO2', 'OH', &
      'HCHO', 'CO', 'ALD', 'MEO2', 'C2O3', 'CO2', 'PAN', 'CH3O', 'HNO3', 'O1D', 'SO2', 'SO4', 'NO3', 'N2O5']
  ! Reaction r: reactants(:, r) -> products(:, r), 1-based species, 0 = none; rate k(r).
  integer(c_int), parameter :: reactants(2, nr) = reshape([ &
      1, 0,   2, 4,   5, 2,   7, 0,   7, 0,   7, 6,   9, 0,   9, 6,   11, 2,  11, 1,  13, 0,  10, 2,  14, 0, &
      1, 6,   3, 0,   4, 0,   4, 0,   16, 0,  16, 0,  17, 6,  19, 0,  19, 0,  1, 4,   19, 1,  20, 0], [2, nr])
  integer(c_int), parameter :: products(3, nr) = reshape([ &
      2, 3, 0,    1, 0, 0,    1, 6, 0,    5, 5, 8,    8, 0, 0,    5, 8, 0,    10, 5, 8,   11, 0, 0, &
      1, 10, 12,  13, 0, 0,   11, 1, 0,   14, 1, 0,   7, 5, 0,    15, 0, 0,   4, 0, 0,    16, 0, 0, &
      3, 0, 0,    6, 6, 0,    3, 0, 0,    18, 5, 0,   2, 0, 0,    1, 3, 0,    19, 0, 0,   20, 0, 0, &
      19, 1, 0], [3, nr])
  real(c_double), parameter :: k(nr) = [0.35_c_double, 26.6_c_double, 1.23e4_c_double, 8.6e-4_c_double, &
      8.2e-4_c_double, 1.5e4_c_double, 1.3e-4_c_double, 2.4e4_c_double, 1.65e4_c_double, 9.0e3_c_double, &
      2.2e-2_c_double, 1.2e4_c_double, 1.88_c_double, 1.63e4_c_double, 4.8e6_c_double, 3.5e-4_c_double, &
      1.75e-2_c_double, 1.0e8_c_double, 4.44e11_c_double, 1.24e3_c_double, 2.1_c_double, 5.78_c_double, &
      4.74e-2_c_double, 1.78e3_c_double, 3.12_c_double]
  real(c_double), parameter :: y0(ns) = [0.0_c_double, 0.2_c_double, 0.0_c_double, 0.04_c_double, &
      0.0_c_double, 0.0_c_double, 0.1_c_double, 0.3_c_double, 0.01_c_double, (0.0_c_double, r0 = 10, 16), &
      0.007_c_double, (0.0_c_double, r0 = 18, 20)]
  ! Atoms per molecule: NO2, NO, PAN, HNO3, NO3 and N2O5 (two) hold nitrogen; SO2, SO4 sulfur.
  real(c_double), parameter :: nitrogen(ns) = [1, 1, (0, r0 = 3, 12), 1, 0, 1, 0, 0, 0, 1, 2]
  real(c_double), parameter :: sulfur(ns) = [(0, r0 = 1, 16), 1, 1, 0, 0]
  real(c_double), parameter :: drift_limit = 1e-12_c_double  ! as in ode_transport.c
  integer, parameter :: shown(5) = [4, 2, 1, 15, 13]          ! O3, NO, NO2, HNO3, PAN
  real(c_double), parameter :: dt = 1.0_c_double, courant = 0.5_c_double

  integer :: ncells = 16, steps = 30, observed, step, c, r, stat, csv, backend
  integer(int64) :: ticks, start, finish, rate
  real(c_double) :: t, n0, s0, drift_n, drift_s, worst_n = 0, worst_s = 0, chemistry_s = 0
  real(c_double), allocatable :: y(:, :), outflow(:, :), times(:), series(:, :)
  integer(c_int), allocatable :: result(:)
  character(len=32) :: arg
  type(opsplit_context_t) :: ctx
  type(opsplit_mechanism_t) :: mech
  type(opsplit_ode_t) :: ode

  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *, iostat=stat) ncells
    if (stat /= 0) ncells = -1
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *, iostat=stat) steps
    if (stat /= 0) steps = -1
  end if
  if (ncells < 4 .or. steps < 1) then
    write (error_unit, '(a)') 'usage: ode_transport_fortran [NCELLS >= 4 [STEPS >= 1]]'
    stop 2
  end if
  observed = ncells / 2 + 1  ! the C example's cell ncells/2
  allocate(y(ns, ncells), outflow(ns, ncells), times(0:steps), series(0:steps, 5), result(ncells))
  do c = 1, ncells
    y(:, c) = y0
    if (c <= ncells / 4) then
      y(2, c) = 3 * y0(2)
      y(1, c) = 0.1_c_double * y(2, c)
    end if
  end do

  call ctx%create(OPSPLIT_BACKEND_AUTO, stat=stat)
  call check('ctx%create')
  backend = ctx%backend(stat=stat)
  call check('ctx%backend')
  call mech%create(ctx, stat=stat)
  call check('mech%create')
  do c = 1, ns
    call mech%add_species(names(c), stat=stat)
    call check('mech%add_species(' // trim(names(c)) // ')')
  end do
  do r = 1, nr
    call mech%add_reaction(pack(reactants(:, r), reactants(:, r) > 0), pack(products(:, r), products(:, r) > 0), &
                           stat=stat)
    call check('mech%add_reaction')
    call mech%set_rate(r, OPSPLIT_RATE_CONSTANT, k(r), stat=stat)
    call check('mech%set_rate')
  end do
  call ode%create(ctx, ns, ncells, stat=stat)
  call check('ode%create')
  call ode%set_mechanism(mech, stat=stat)
  call check('ode%set_mechanism')
  call mech%destroy(stat=stat)  ! the batch holds its own copy
  call check('mech%destroy')
  call ode%set_tolerances(1e-6_c_double, 1e-10_c_double, stat=stat)
  call check('ode%set_tolerances')
  call ode%set_keep_step(.true., stat=stat)
  call check('ode%set_keep_step')

  open (newunit=csv, file='ode_transport_f.csv', status='replace', action='write', iostat=stat)
  if (stat /= 0) then
    write (error_unit, '(a)') 'ode_transport_fortran: cannot write ode_transport_f.csv'
    stop 1
  end if
  write (csv, '(a)', advance='no') 'time_min'
  do c = 1, ns
    write (csv, '(a)', advance='no') ',' // trim(names(c))
  end do
  write (csv, '(a)') ''

  print '(a,i0,a,i0,a,a)', 'ode_transport_fortran: POLLU on a ring of ', ncells, ' cells, ', steps, &
      ' steps of 1 min, Courant 0.5, backend ', trim(merge('CUDA', 'CPU ', backend == OPSPLIT_BACKEND_CUDA))
  print '(a8,3a13,2a11)', 't (min)', 'O3', 'NO', 'NO2', 'N drift', 'S drift'
  n0 = total(nitrogen)
  s0 = total(sulfur)
  call system_clock(start, rate)
  do step = 0, steps
    t = step * dt
    if (step > 0) then
      ! Lie splitting. Transport in flux form: what leaves cell c-1 enters cell c.
      outflow = courant * y
      y = y - outflow + cshift(outflow, -1, dim=2)
      call system_clock(ticks)
      call ode%set_state(y, OPSPLIT_ODE_AOS, stat=stat)
      call check('ode%set_state')
      call ode%integrate(t - dt, t, stat=stat)
      if (stat /= OPSPLIT_SUCCESS) then  ! the message first: the next call's success clears it
        write (error_unit, '(a)') 'ode_transport_fortran: ode%integrate failed: ' // &
            opsplit_status_text(int(stat, c_int)) // ': ' // opsplit_last_error()
        call ode%results(result, stat=stat)
        if (stat == OPSPLIT_SUCCESS) then
          do c = 1, ncells
            if (result(c) /= OPSPLIT_ODE_OK) write (error_unit, '(a,i0,a,i0)') '  cell ', c, ': result ', result(c)
          end do
        end if
        stop 1
      end if
      call ode%get_state(y, OPSPLIT_ODE_AOS, stat=stat)
      call check('ode%get_state')
      call system_clock(finish)
      chemistry_s = chemistry_s + real(finish - ticks, c_double) / rate
    end if
    drift_n = abs(total(nitrogen) - n0) / n0
    drift_s = abs(total(sulfur) - s0) / s0
    worst_n = max(worst_n, drift_n)
    worst_s = max(worst_s, drift_s)
    times(step) = t
    series(step, :) = y(shown, observed)
    write (csv, '(a)', advance='no') number(t)
    do c = 1, ns
      write (csv, '(a)', advance='no') ',' // number(y(c, observed))
    end do
    write (csv, '(a)') ''
    if (mod(step, 10) == 0 .or. step == steps) &
      print '(f8.1,3es13.5,2es11.2)', t, y(4, observed), y(2, observed), y(1, observed), drift_n, drift_s
  end do
  call system_clock(finish)
  close (csv)
  if (png_plot_lines('ode_transport_f.png' // c_null_char, 640_c_int, 400_c_int, int(steps + 1, c_int), times, &
                     5_c_int, series, 1_c_int) /= 0) stop 1

  print '(a,f6.3,a,f6.3,a)', 'chemistry ', chemistry_s, ' s, ', real(finish - start, c_double) / rate, ' s in all'
  print '(a)', 'wrote ode_transport_f.csv and ode_transport_f.png (O3 blue, NO orange, NO2 green, HNO3 red, ' // &
      'PAN purple; ppm, log scale)'
  print '(a,es9.2,a,es9.2)', 'nitrogen drift ', worst_n, ' sulfur drift ', worst_s
  call ode%destroy(stat=stat)
  call check('ode%destroy')
  call ctx%destroy(stat=stat)
  call check('ctx%destroy')
  if (.not. (worst_n <= drift_limit .and. worst_s <= drift_limit)) then
    write (error_unit, '(a,es8.1)') 'ode_transport_fortran: the nitrogen or sulfur total drifted beyond ', drift_limit
    stop 1
  end if
  deallocate(y, outflow, times, series, result)  ! a main program's allocatables are not freed for it

contains

  ! Stops with code 1 when the last opsplit call (its stat) failed.
  subroutine check(what)
    character(len=*), intent(in) :: what
    if (stat == OPSPLIT_SUCCESS) return
    write (error_unit, '(a)') 'ode_transport_fortran: ' // what // ' failed: ' // &
        opsplit_status_text(int(stat, c_int)) // ': ' // opsplit_last_error()
    stop 1
  end subroutine check

  ! The atoms over the ring, with Neumaier's compensated sum (a plain sum's rounding
  ! would hide the state's own drift; see ode_transport.c).
  real(c_double) function total(atoms)
    real(c_double), intent(in) :: atoms(ns)
    real(c_double) :: lost, term, next
    integer :: i, j
    total = 0
    lost = 0
    do j = 1, size(y, 2)
      do i = 1, ns
        term = atoms(i) * y(i, j)
        next = total + term
        if (abs(total) >= abs(term)) then
          lost = lost + ((total - next) + term)
        else
          lost = lost + ((term - next) + total)
        end if
        total = next
      end do
    end do
    total = total + lost
  end function total

  ! A value for the CSV, without the blanks of a fixed-width edit descriptor.
  function number(v) result(s)
    real(c_double), intent(in) :: v
    character(len=:), allocatable :: s
    character(len=24) :: buffer
    write (buffer, '(es16.9)') v
    s = trim(adjustl(buffer))
  end function number

end program ode_transport_fortran
