! The air-quality run of examples/air_quality.c from Fortran: MOZART TS1 read at run time
! from of MICM own configuration files (tests/data/micm/v0/TS1: 209 species, 547
! reactions), every species carried on an opsplit field by the wind and diffusion, the
! emissions of a city as sources, and an opsplit ODE batch for the chemistry of every cell
! under the diurnal sun of KPP (Lie splitting, 10-minute steps from 06:00).
!
!   air_quality_fortran [N [HOURS [CONFIG]]]
!
! N x N cells of 4 km (default 24), HOURS hours (default 2), the MICM configuration
! (default tests/data/micm/v0/TS1/config.json in the repository). The start and the inputs
! (temperature, pressure, air density, noon photolysis scaled by the sun, aerosol
! surfaces, user-defined rates) are the initial_conditions.csv of MICM beside it. The state
! lives in the array of the host y(nspecies, N*N): the interleaved layout and the AOS
! layout are both that order, so a step hands it from transport to chemistry and back
! without copies of its own. Prints a line per hour (O3 and NO2 in the city and 60 km
! downwind, ppb) and writes air_quality_f_o3.png (the O3 map at the end) in the current
! directory. Every opsplit call stops the program with its message when it fails (no stat
! given).
program air_quality_fortran
  use opsplit
  use png_slice, only: png_slice_write
  implicit none


  real(c_double), parameter :: per_molecule_cm3 = 1e6_c_double / 6.02214076e23_c_double  ! mol/m^3
  real(c_double), parameter :: cell = 4000.0_c_double, dt = 600.0_c_double, start_hour = 6.0_c_double
  character(len=4096) :: config = AIR_QUALITY_MECHANISM, arg
  integer :: n = 24, hours = 2, steps_per_hour, step, city_x, city_y, city, far, e, dx, dy, face
  integer(c_int) :: nspecies, nparams, s, o3, no2, q
  integer(c_int64_t) :: substeps
  real(c_double) :: hour, stable, ppb, sun
  real(c_double), allocatable :: y(:, :), params(:, :), base(:), o3_map(:)
  logical, allocatable :: photolysis(:)
  type(opsplit_context_t) :: ctx
  type(opsplit_mechanism_t) :: mech
  type(opsplit_field_t) :: field
  type(opsplit_rd_t) :: rd
  type(opsplit_ode_t) :: ode
  ! The citys emissions in molecules/cm^3/s (as the C examples): NO, NO2, formaldehyde,
  ! alkanes, toluene, propene, ethene.
  character(len=8), parameter :: emitted(7) = [character(len=8) :: 'NO', 'NO2', 'CH2O', 'BIGALK', 'TOLUENE', &
                                                'C3H6', 'C2H4']
  real(c_double), parameter :: rate(7) = [2e8_c_double, 2e7_c_double, 1e7_c_double, 5e7_c_double, 2e7_c_double, &
                                          2e7_c_double, 2e7_c_double]

  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) hours
  end if
  if (command_argument_count() >= 3) call get_command_argument(3, config)
  if (n < 8 .or. hours < 1) error stop 'usage: air_quality_fortran [N >= 8 [HOURS >= 1 [CONFIG]]]'

  call ctx%create()
  call mech%load_micm(ctx, trim(config))
  call mech%counts(nspecies=nspecies, nparams=nparams)
  o3 = mech%find_species('O3')
  no2 = mech%find_species('NO2')
  allocate(y(nspecies, n * n), params(nparams, n * n), base(nparams), photolysis(nparams), o3_map(n * n))

  ! of MICM initial conditions beside the configuration, in every cell; the inputs named
  ! PHOTO.x are the ones the sun scales.
  call micm_conditions(config(1:index(config, '/', back=.true.)) // 'initial_conditions.csv', y(:, 1))
  y = spread(y(:, 1), 2, n * n)
  do q = 1, nparams
    photolysis(q) = index(mech%parameter_name(q), 'PHOTO.') == 1
  end do

  ! Transport: all species on one field, periodic, the same wind and diffusion for all.
  call field%create(ctx, n, n, 1, nspecies)
  call field%set_spacing(cell, cell, cell)
  call rd%create(ctx, nspecies)
  do s = 1, nspecies
    call rd%set_diffusion(s, 200.0_c_double)
    do face = OPSPLIT_FACE_XLO, OPSPLIT_FACE_XLO + 5
      call rd%set_boundary(int(face, c_int), s, OPSPLIT_BC_PERIODIC)
    end do
  end do
  call rd%set_velocity(1_c_int, 4.0_c_double)
  call rd%set_velocity(2_c_int, 1.0_c_double)
  city_x = n / 4 + 1
  city_y = n / 3 + 1
  do e = 1, size(emitted)
    s = mech%find_species(trim(emitted(e)))
    do dx = -1, 1
      do dy = -1, 1
        call rd%add_source(s, city_x + dx, city_y + dy, 1, rate(e) * per_molecule_cm3)
      end do
    end do
  end do
  call field%upload(y, OPSPLIT_LAYOUT_INTERLEAVED)
  stable = rd%max_stable_dt(field)
  substeps = ceiling(dt / (0.9_c_double * stable), c_int64_t)

  ! Chemistry: every cell a system, atol 1 molecule/cm^3 in of MICM units.
  call ode%create(ctx, nspecies, n * n, nparams)
  call ode%set_mechanism(mech)
  call ode%set_tolerances(1e-3_c_double, per_molecule_cm3)
  call ode%set_keep_step(.true.)

  print '(i0, " x ", i0, " cells of 4 km, TS1 (", i0, " species)")', n, n, nspecies
  print '(a)', ' hour   SUN   O3 city  NO2 city  O3 downwind  NO2 downwind (ppb)'
  steps_per_hour = nint(3600.0_c_double / dt)
  city = (city_y - 1) * n + city_x
  far = (city_y - 1) * n + modulo(city_x - 1 + 15, n) + 1
  ppb = 1e9_c_double / base(3)  ! M, the air density (parameters TEMP, PRESS, M come first)
  do step = 0, hours * steps_per_hour - 1
    hour = start_hour + step * dt / 3600.0_c_double
    call rd%step(field, dt / real(substeps, c_double), substeps)
    call field%download(y, OPSPLIT_LAYOUT_INTERLEAVED)
    sun = kpp_sun(hour + 0.5_c_double * dt / 3600.0_c_double)
    do q = 1, nparams
      params(q, :) = merge(base(q) * sun, base(q), photolysis(q))
    end do
    call ode%set_state(y)
    call ode%set_parameters(params)
    call ode%integrate(0.0_c_double, dt)
    call ode%get_state(y)
    call field%upload(y, OPSPLIT_LAYOUT_INTERLEAVED)
    if (mod(step + 1, steps_per_hour) == 0) then
      hour = hour + dt / 3600.0_c_double
      print '(f5.1, f6.2, 2f10.2, f13.2, f14.2)', hour, kpp_sun(hour), y(o3, city) * ppb, y(no2, city) * ppb, &
        y(o3, far) * ppb, y(no2, far) * ppb
    end if
  end do
  o3_map = y(o3, :) * ppb
  if (png_slice_write('air_quality_f_o3.png' // c_null_char, o3_map, int(n, c_int), int(n, c_int), 0.0_c_double, &
                      0.0_c_double) /= 0) error stop 'air_quality_fortran: the picture was not written'
  print '(a)', 'wrote air_quality_f_o3.png'
  deallocate(y, params, base, photolysis, o3_map)  ! the main program arrays are not freed at its end
  call ode%destroy()
  call rd%destroy()
  call field%destroy()
  call mech%destroy()
  call ctx%destroy()

contains

  ! Update_SUN of KPP at `hours` local time.
  real(c_double) function kpp_sun(hours)
    real(c_double), intent(in) :: hours
    real(c_double) :: t, tau
    t = modulo(hours, 24.0_c_double)
    kpp_sun = 0
    if (t < 4.5_c_double .or. t > 19.5_c_double) return
    tau = (2.0_c_double * t - 24.0_c_double) / 15.0_c_double
    tau = sign(tau * tau, tau)
    kpp_sun = 0.5_c_double * (1.0_c_double + cos(acos(-1.0_c_double) * tau))
  end function kpp_sun

  ! of MICM initial_conditions.csv ("KEY,value[,value]" lines): CONC.x into values (the
  ! start of each species, others 0); ENV.temperature, ENV.pressure and ENV.air_density into
  ! base(1:3) (TEMP, PRESS, M); SURF.x,radius,number into SURF.xs two inputs; any other
  ! KEY that names an input (PHOTO.x, USER.x) into base.
  subroutine micm_conditions(path, values)
    character(len=*), intent(in) :: path
    real(c_double), intent(out) :: values(:)
    character(len=512) :: line, key, rest
    real(c_double) :: first, second
    integer :: unit, ios, comma, k, st
    open (newunit=unit, file=path, status='old', action='read', iostat=ios)
    if (ios /= 0) error stop 'air_quality_fortran: cannot read initial_conditions.csv beside the configuration'
    values = 0
    base = 0
    do
      read (unit, '(a)', iostat=ios) line
      if (ios /= 0) exit
      comma = index(line, ',')
      if (comma == 0) cycle
      key = line(1:comma - 1)
      rest = line(comma + 1:)
      comma = index(rest, ',')
      second = 0
      if (comma > 0) then
        read (rest(1:comma - 1), *) first
        read (rest(comma + 1:), *) second
      else
        read (rest, *) first
      end if
      if (key(1:5) == 'CONC.') then
        k = mech%find_species(trim(key(6:)), stat=st)
        if (st == OPSPLIT_SUCCESS) values(k) = first
      else if (key == 'ENV.temperature') then
        base(1) = first
      else if (key == 'ENV.pressure') then
        base(2) = first
      else if (key == 'ENV.air_density') then
        base(3) = first
      else if (key(1:5) == 'SURF.') then
        call set_base(trim(key) // '.effective radius [m]', first)
        call set_base(trim(key) // '.particle number concentration [# m-3]', second)
      else
        call set_base(trim(key), first)
      end if
    end do
    close (unit)
  end subroutine micm_conditions

  ! base of the input called name, when the mechanism has one.
  subroutine set_base(name, value)
    character(len=*), intent(in) :: name
    real(c_double), intent(in) :: value
    integer :: st
    q = mech%find_parameter(name, stat=st)
    if (st == OPSPLIT_SUCCESS) base(q) = value
  end subroutine set_base

end program air_quality_fortran
