! A premixed methane/air flame in a tube from Fortran: an operator-split toy in which the
! host diffuses heat and species and opsplit burns every cell with GRI-Mech 3.0.
!
!   flame_tube_fortran [NCELLS [STEPS [MECHANISM.yaml]]]
!
! MECHANISM.yaml defaults to the data folder's mechanisms/gri30.yaml (found by the C
! helper examples/example_data.c: data/ of the source tree, or share/opsplit of an
! installed example, or $OPSPLIT_DATA_DIR).
! A tube of NCELLS cells (default 64) of DX = 0.2 mm at 1 atm, filled with stoichiometric
! CH4/air (CH4:1, O2:2, N2:7.52) at 300 K; the first eighth holds the products of
! complete combustion (CO2:1, H2O:2, N2:7.52) at 2300 K, which ignite the mixture next to
! them. STEPS steps (default 40) of Lie splitting, each:
!  * host transport: one explicit (forward Euler, flux form) step of diffusion of T and
!    of the 53 mass fractions with one constant diffusivity D = 1e-4 m^2/s (a unity Lewis
!    number; roughly the thermal diffusivity of the gas at 1000 K), zero-gradient ends,
!    dt = 0.4 DX^2 / D (the stable limit is 0.5);
!  * chemistry: opsplit_ode_integrate(t, t + dt) on every cell with the
!    CONSTANT_PRESSURE reactor (adiabatic, state y(1) = T, y(2:54) = mass fractions,
!    parameter P; RODAS4, rtol 1e-6, atol 1e-12, each cell keeping its step).
! A toy, not a flame code: no gas expansion or flow (every cell keeps its mass; the
! diffusion acts on mass fractions as if the density were uniform), one diffusivity for
! everything, T diffused in place of the enthalpy. It still carries a flame that moves
! into the fresh gas at a speed set by the chemistry and D.
!
! Backend: AUTO (CUDA when a GPU is usable; OPSPLIT_BACKEND=cpu|cuda chooses). The CUDA
! reactor takes at most 64 equations (GRI's 54 fit); a larger mechanism is refused when the
! batch is created (OPSPLIT_ERROR_UNSUPPORTED): the program then says so and goes on with
! a CPU context (the mechanism is loaded again there: a handle belongs to its context).
!
! Checks (exit code 1 when one fails):
!  * the chemistry keeps each element: the moles of C, H, O and N atoms summed over the
!    tube, sum over cells and species of a_ek Y_k / W_k (a: atoms per molecule, read from
!    the mechanism file's `composition:` lines; W: molar masses), change in no chemistry
!    step by more than 1e-12 relative (every reaction is balanced, and a Rosenbrock step
!    keeps linear invariants up to rounding: measured 3e-16). The diffusion keeps them
!    too (flux form, no flux through the ends): the drift over the whole run is printed;
!  * the flame moves into the fresh gas: its front (where T falls through 1250 K) moves
!    right by at least STEPS/10 cells, and the burned region (the cells above 1250 K)
!    grows. (Measured: 9.3 cells in 40 steps, 0.29 m/s. Heat conduction alone, without
!    the chemistry, moves that point by 0.3 cells in 40 steps, then back, while the
!    hottest cell cools to 1980 K.)
!  * the hottest cell at the end is between 1800 and 2600 K (adiabatic flame
!    temperature of stoichiometric CH4/air from 300 K: about 2225 K).
! Writes flame_tube_f.png in the current directory: against x, T (blue) and T at the
! start (red) as (T - 300 K) / (2300 K - 300 K), and the CH4 (orange) and CO2 (green) mass
! fractions over their fresh-gas and complete-combustion values.
program flame_tube_fortran
  use opsplit
  use example_data, only: data_folder
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

  integer, parameter :: nel = 4
  character(len=1), parameter :: element_names(nel) = ['C', 'H', 'O', 'N']
  real(c_double), parameter :: pressure = 101325, t_fresh = 300, t_hot = 2300, t_front = 1250
  real(c_double), parameter :: dx = 2e-4_c_double, diffusivity = 1e-4_c_double
  real(c_double), parameter :: element_limit = 1e-12_c_double

  integer :: ncells = 64, steps = 40, every, step, c, stat, burned0, burned, backend
  integer(c_int) :: ns, neq
  integer(c_int) :: ich4, io2, in2, ico2, ih2o
  integer(int64) :: start, finish, rate, ticks, chemistry_ticks = 0
  real(c_double) :: dt, t, front0, front, drift, worst_drift = 0, run_drift, t_max
  real(c_double) :: before(nel), after(nel), initial(nel)
  real(c_double), allocatable :: y(:, :), flux(:, :), W(:), per_mole(:, :), params(:, :), x(:), t_start(:), &
      series(:, :), fresh(:), products(:)
  integer(c_int), allocatable :: result(:)
  integer(c_int64_t), allocatable :: accepted(:), rejected(:)
  character(len=4096) :: path
  type(opsplit_context_t) :: ctx
  type(opsplit_mechanism_t) :: gas
  type(opsplit_ode_t) :: ode

  if (command_argument_count() > 3) call usage()
  if (command_argument_count() >= 1) ncells = integer_argument(1)
  if (command_argument_count() >= 2) steps = integer_argument(2)
  if (command_argument_count() >= 3) then
    call get_command_argument(3, path, status=stat)
    if (stat /= 0) call usage()
  else
    path = data_folder('mechanisms/gri30.yaml')
    if (len_trim(path) == 0) call usage()
    path = trim(path) // '/mechanisms/gri30.yaml'
  end if
  if (ncells < 16 .or. steps < 1) call usage()
  print '(a)', 'mechanism ' // trim(path)
  every = max(1, steps / 8)

  call ctx%create(OPSPLIT_BACKEND_AUTO, stat=stat)
  call check('ctx%create')
  backend = ctx%backend(stat=stat)
  call check('ctx%backend')
  call gas%load_yaml(ctx, path, 'gri30', stat=stat)
  call check('gas%load_yaml(' // trim(path) // ')')
  call gas%counts(nspecies=ns, stat=stat)
  call check('gas%counts')
  neq = ns + 1
  call ode%create(ctx, neq, ncells, 1_c_int, stat=stat)
  if (stat == OPSPLIT_ERROR_UNSUPPORTED .and. backend == OPSPLIT_BACKEND_CUDA) then
    print '(a)', 'CUDA refused the batch (' // opsplit_last_error() // '); running on the CPU'
    call gas%destroy(stat=stat)
    call check('gas%destroy')
    call ctx%destroy(stat=stat)
    call check('ctx%destroy')
    call ctx%create(OPSPLIT_BACKEND_CPU, stat=stat)
    call check('ctx%create')
    backend = ctx%backend(stat=stat)
    call check('ctx%backend')
    call gas%load_yaml(ctx, path, 'gri30', stat=stat)
    call check('gas%load_yaml(' // trim(path) // ')')
    call ode%create(ctx, neq, ncells, 1_c_int, stat=stat)
  end if
  call check('ode%create')
  allocate(y(neq, ncells), flux(neq, 0:ncells), W(ns), per_mole(nel, ns), params(1, ncells), x(ncells), &
           t_start(ncells), series(ncells, 4), fresh(ns), products(ns), result(ncells), accepted(ncells), &
           rejected(ncells))
  call gas%molar_masses(W, stat=stat)
  call check('gas%molar_masses')
  call read_composition(trim(path))
  ich4 = species('CH4')
  io2 = species('O2')
  in2 = species('N2')
  ico2 = species('CO2')
  ih2o = species('H2O')

  ! Mass fractions from moles: Y_k = n_k W_k / sum_j n_j W_j.
  fresh = 0
  fresh([ich4, io2, in2]) = [1.0_c_double, 2.0_c_double, 7.52_c_double] * W([ich4, io2, in2])
  fresh = fresh / sum(fresh)
  products = 0
  products([ico2, ih2o, in2]) = [1.0_c_double, 2.0_c_double, 7.52_c_double] * W([ico2, ih2o, in2])
  products = products / sum(products)
  do c = 1, ncells
    x(c) = (c - 0.5_c_double) * dx * 1e3_c_double  ! mm
    if (c <= ncells / 8) then
      y(1, c) = t_hot
      y(2:, c) = products
    else
      y(1, c) = t_fresh
      y(2:, c) = fresh
    end if
  end do
  t_start = y(1, :)
  params = pressure

  call ode%set_reactor(gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE, stat=stat)
  call check('ode%set_reactor')
  call gas%destroy(stat=stat)  ! the batch holds its own copy
  call check('gas%destroy')
  call ode%set_tolerances(1e-6_c_double, 1e-12_c_double, stat=stat)
  call check('ode%set_tolerances')
  call ode%set_keep_step(.true., stat=stat)
  call check('ode%set_keep_step')
  call ode%set_parameters(params, OPSPLIT_ODE_AOS, stat=stat)
  call check('ode%set_parameters')

  dt = 0.4_c_double * dx**2 / diffusivity
  print '(a,i0,a,f0.1,a,i0,a,es9.2,a,a)', 'flame_tube_fortran: GRI-Mech 3.0, ', ncells, ' cells over ', &
      ncells * dx * 1e3_c_double, ' mm, ', steps, ' steps of ', dt, ' s, backend ', &
      trim(merge('CUDA', 'CPU ', backend == OPSPLIT_BACKEND_CUDA))
  print '(a6,a10,a12,a8,a11,a12,a15)', 'step', 't (ms)', 'front (mm)', 'burned', 'T max (K)', 'steps/cell', &
      'element drift'
  t = 0
  initial = elements()
  front0 = front_position()
  burned0 = count(y(1, :) > t_front)
  print '(i6,f10.3,f12.3,i8,f11.1,a12,es15.2)', 0, 0.0, front0, burned0, maxval(y(1, :)), '-', 0.0
  call system_clock(start, rate)
  do step = 1, steps
    call diffuse()
    before = elements()
    call system_clock(ticks)
    call ode%set_state(y, OPSPLIT_ODE_AOS, stat=stat)
    call check('ode%set_state')
    call ode%integrate(t, t + dt, stat=stat)
    if (stat /= OPSPLIT_SUCCESS) then  ! the message first: the next call's success clears it
      write (error_unit, '(a)') 'flame_tube_fortran: ode%integrate failed: ' // &
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
    call ode%results(accepted=accepted, rejected=rejected, stat=stat)
    call check('ode%results')
    call system_clock(finish)
    chemistry_ticks = chemistry_ticks + (finish - ticks)
    t = t + dt
    after = elements()
    drift = maxval(abs(after - before) / before)
    worst_drift = max(worst_drift, drift)
    if (mod(step, every) == 0 .or. step == steps) &
      print '(i6,f10.3,f12.3,i8,f11.1,f12.1,es15.2)', step, t * 1e3_c_double, front_position(), &
          count(y(1, :) > t_front), maxval(y(1, :)), real(sum(accepted + rejected), c_double) / ncells, drift
  end do
  call system_clock(finish)
  front = front_position()
  burned = count(y(1, :) > t_front)
  t_max = maxval(y(1, :))
  run_drift = maxval(abs(elements() - initial) / initial)

  series(:, 1) = (y(1, :) - t_fresh) / (t_hot - t_fresh)
  series(:, 2) = y(1 + ich4, :) / fresh(ich4)
  series(:, 3) = y(1 + ico2, :) / products(ico2)
  series(:, 4) = (t_start - t_fresh) / (t_hot - t_fresh)
  if (png_plot_lines('flame_tube_f.png' // c_null_char, 640_c_int, 400_c_int, int(ncells, c_int), x, 4_c_int, &
                     series, 0_c_int) /= 0) stop 1

  print '(a,f6.2,a,f6.2,a)', 'chemistry ', real(chemistry_ticks, c_double) / rate, ' s, ', &
      real(finish - start, c_double) / rate, ' s in all'
  print '(a,f0.2,a,f0.2,a,f0.3,a)', 'flame front ', front0, ' -> ', front, ' mm: ', &
      (front - front0) / (t * 1e3_c_double), ' m/s (the toy''s speed, not a laminar flame speed)'
  print '(a,i0,a,i0,a,f7.1,a)', 'burned cells ', burned0, ' -> ', burned, ', T max ', t_max, ' K'
  print '(a,es9.2,a,es8.1,a,es9.2)', 'element drift per chemistry step ', worst_drift, ' (limit ', element_limit, &
      '), over the run ', run_drift
  print '(a)', 'wrote flame_tube_f.png (x in mm; T blue, T at the start red, both (T - 300 K) / 2000 K; ' // &
      'CH4 orange over its fresh value, CO2 green over its complete-combustion value)'

  call ode%destroy(stat=stat)
  call check('ode%destroy')
  call ctx%destroy(stat=stat)
  call check('ctx%destroy')
  deallocate(y, flux, W, per_mole, params, x, t_start, series, fresh, products, result, accepted, rejected)
  ! (a main program's allocatables are not freed for it: the leak checker would see them)

  if (.not. (worst_drift <= element_limit)) then
    write (error_unit, '(a,es8.1)') 'flame_tube_fortran: a chemistry step changed an element total by more than ', &
        element_limit
    stop 1
  end if
  if (.not. (front - front0 >= 0.1_c_double * steps * dx * 1e3_c_double .and. burned > burned0)) then
    write (error_unit, '(a)') 'flame_tube_fortran: the flame did not move into the fresh gas'
    stop 1
  end if
  if (.not. (t_max >= 1800 .and. t_max <= 2600)) then
    write (error_unit, '(a)') 'flame_tube_fortran: the hottest cell is outside 1800 to 2600 K'
    stop 1
  end if
  print '(a)', 'checks passed'

contains

  subroutine usage()
    write (error_unit, '(a)') 'usage: flame_tube_fortran [NCELLS >= 16 [STEPS >= 1 [MECHANISM.yaml]]]'
    stop 2
  end subroutine usage



  integer function integer_argument(i)
    integer, intent(in) :: i
    character(len=32) :: arg
    integer :: status
    call get_command_argument(i, arg)
    read (arg, *, iostat=status) integer_argument
    if (status /= 0) integer_argument = -1
  end function integer_argument

  ! Stops with code 1 when the last opsplit call (its stat) failed.
  subroutine check(what)
    character(len=*), intent(in) :: what
    if (stat == OPSPLIT_SUCCESS) return
    write (error_unit, '(a)') 'flame_tube_fortran: ' // what // ' failed: ' // &
        opsplit_status_text(int(stat, c_int)) // ': ' // opsplit_last_error()
    stop 1
  end subroutine check

  ! The 1-based number of a species of the loaded mechanism.
  integer(c_int) function species(name)
    character(len=*), intent(in) :: name
    species = gas%find_species(name, stat=stat)
    call check('gas%find_species(' // name // ')')
  end function species

  ! per_mole(e, k) = atoms of element e in species k / W_k (mol/kg), from the
  ! `composition: {C: 1, H: 4}` line that follows each species' `- name:` in the
  ! Cantera YAML file (the C API gives molar masses, not compositions).
  subroutine read_composition(file)
    character(len=*), intent(in) :: file
    character(len=1024) :: line, current
    character(len=64) :: pair
    integer :: unit, status, k, e, colon, comma, open_at, close_at
    real(c_double) :: atoms
    logical :: found(ns)
    per_mole = 0
    found = .false.
    current = ''
    open (newunit=unit, file=file, status='old', action='read', iostat=status)
    if (status /= 0) then
      write (error_unit, '(a)') 'flame_tube_fortran: cannot read ' // file
      stop 1
    end if
    do
      read (unit, '(a)', iostat=status) line
      if (status /= 0) exit
      line = adjustl(line)
      if (line(1:7) == '- name:') then
        current = adjustl(line(8:))
      else if (line(1:12) == 'composition:' .and. current /= '') then
        k = gas%find_species(trim(current), stat=status)
        if (status /= OPSPLIT_SUCCESS) cycle  ! not a species of this phase
        open_at = index(line, '{')
        close_at = index(line, '}')
        if (open_at == 0 .or. close_at < open_at) cycle  ! not the flow style {El: n, ...}
        line = line(open_at + 1:close_at - 1) // ','
        do while (len_trim(line) > 0)
          comma = index(line, ',')
          pair = line(1:comma - 1)
          line = adjustl(line(comma + 1:))
          colon = index(pair, ':')
          read (pair(colon + 1:), *, iostat=status) atoms
          if (colon == 0 .or. status /= 0) cycle
          do e = 1, nel
            if (trim(adjustl(pair(1:colon - 1))) == element_names(e)) per_mole(e, k) = atoms / W(k)
          end do
        end do
        found(k) = .true.
        current = ''
      end if
    end do
    close (unit)
    if (.not. all(found)) then
      write (error_unit, '(a)') 'flame_tube_fortran: no composition for some species in ' // file
      stop 1
    end if
  end subroutine read_composition

  ! The moles of each element over the tube (every cell holding unit mass).
  function elements() result(total)
    real(c_double) :: total(nel)
    integer :: cell
    total = 0
    do cell = 1, ncells
      total = total + matmul(per_mole, y(2:, cell))
    end do
  end function elements

  ! One forward-Euler step of d(u)/dt = D d2u/dx2 for T and every mass fraction, in flux
  ! form: what leaves a cell enters its neighbour; nothing crosses the ends.
  subroutine diffuse()
    integer :: face
    flux(:, 0) = 0
    flux(:, ncells) = 0
    do face = 1, ncells - 1
      flux(:, face) = (dt * diffusivity / dx**2) * (y(:, face + 1) - y(:, face))
    end do
    y = y + flux(:, 1:ncells) - flux(:, 0:ncells - 1)
  end subroutine diffuse

  ! x (mm) where T falls through t_front last along the tube (linear between cells).
  real(c_double) function front_position()
    integer :: cell
    front_position = x(1)
    do cell = ncells - 1, 1, -1
      if (y(1, cell) >= t_front .and. y(1, cell + 1) < t_front) then
        front_position = x(cell) + (x(cell + 1) - x(cell)) * (y(1, cell) - t_front) / (y(1, cell) - y(1, cell + 1))
        return
      end if
    end do
  end function front_position

end program flame_tube_fortran
