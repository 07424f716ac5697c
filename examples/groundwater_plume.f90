! A chlorinated-solvent plume in a 2D aquifer, driven the way a MODFLOW-style Fortran host
! drives its reaction module: every step the host moves the dissolved species (here by an
! opsplit field: advection by the seepage velocity, dispersion, each species retarded by
! its own sorption), then hands the concentrations to the groundwater module
! (opsplit_gw_t) for the chemistry of every cell, and takes them back. The chemistry is
! the reductive dechlorination chain PCE -> TCE -> DCE -> VC -> ethene, first order, under
! a DNAPL source zone that holds PCE at a fixed concentration (a constant-concentration
! boundary, as MT3D's ICBUND < 0 cells).
!
!   groundwater_plume [NX [NY [YEARS]]]
!
! NX x NY cells of 5 m (default 200 x 80: 1 km x 400 m, 1 m thick), YEARS years (default
! 10) in steps of a month. Sorption: linear isotherms (Kd = foc x Koc, foc 0.001), whose retardation
! factors R = 1 + rho_b Kd / porosity the module computes (opsplit_gw_get_retardation)
! and the field applies (opsplit_rd_set_retardation). Decay acts on the dissolved and the
! sorbed solvent alike, so in the dissolved concentrations that the module sees, species
! i decays at k_i and feeds species i+1 with yield R_i / R_{i+1} (the sorbed parent's
! decay shows up dissolved in the daughter). Prints a line a year (the dissolved moles of each
! species in the aquifer and how far each plume reaches) and writes groundwater_plume.png:
! the four plumes at the end, stacked PCE, TCE, DCE, VC from the top, each scaled to its
! own largest concentration. It stops with an error if VC, the least sorbed, has not
! run ahead of PCE. Every opsplit call stops the program with its message when
! it fails (no stat given).
program groundwater_plume
  use opsplit
  use png_slice, only: png_slice_write
  implicit none

  integer, parameter :: ns = 4
  real(c_double), parameter :: h = 5.0_c_double, day = 86400.0_c_double, dt = 365.0_c_double / 12 * day
  real(c_double), parameter :: thickness = 1.0_c_double  ! m: each cell holds h x h x 1 m of aquifer
  real(c_double), parameter :: porosity = 0.3_c_double, bulk_density = 1.8_c_double  ! -, kg/L
  real(c_double), parameter :: velocity = 0.2_c_double / day, dispersivity = 5.0_c_double  ! m/s, m
  real(c_double), parameter :: source_pce = 0.5e-3_c_double  ! mol/L (about 80 mg/L)
  character(len=3), parameter :: names(ns) = ['PCE', 'TCE', 'DCE', 'VC ']
  ! First-order rates (1/day) and organic-carbon partition coefficients (L/kg).
  real(c_double), parameter :: rate(ns) = [0.002_c_double, 0.0015_c_double, 0.001_c_double, 0.0007_c_double] / day
  real(c_double), parameter :: koc(ns) = [265.0_c_double, 94.0_c_double, 36.0_c_double, 19.0_c_double]
  real(c_double), parameter :: foc = 0.001_c_double
  character(len=32) :: arg
  integer :: nx = 200, ny = 80, years = 10, steps, step, i, j, s, cell, source_x, source_y
  integer(c_int) :: species(ns), reaction
  integer(c_int64_t) :: substeps
  real(c_double) :: retardation(ns), moles(ns), stable, reach(ns)
  real(c_double), allocatable :: c(:, :), r(:, :), picture(:)
  logical, allocatable :: source(:)
  type(opsplit_context_t) :: ctx
  type(opsplit_mechanism_t) :: mech
  type(opsplit_gw_t) :: gw
  type(opsplit_field_t) :: field
  type(opsplit_rd_t) :: rd

  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) nx
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) ny
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    read (arg, *) years
  end if
  if (nx < 20 .or. ny < 8 .or. years < 1) error stop 'usage: groundwater_plume [NX >= 20 [NY >= 8 [YEARS >= 1]]]'
  allocate(c(nx * ny, ns), r(nx * ny, ns), picture(nx * (ns * ny + ns - 1)), source(nx * ny))

  ! The retardation factors the isotherms give (the module computes the same below).
  retardation = 1.0_c_double + bulk_density * foc * koc / porosity

  ! The chain, in the dissolved concentrations (mol/L) the module integrates.
  call ctx%create()
  call mech%create(ctx)
  do s = 1, ns
    call mech%add_species(trim(names(s)), species(s))
  end do
  do s = 1, ns - 1
    call mech%add_reaction([species(s)], [species(s + 1)], product_yields=[retardation(s) / retardation(s + 1)], &
                           index=reaction)
    call mech%set_rate(reaction, OPSPLIT_RATE_CONSTANT, rate(s))
  end do
  call mech%add_reaction([species(ns)], [integer(c_int) ::], index=reaction)  ! to ethene, not followed
  call mech%set_rate(reaction, OPSPLIT_RATE_CONSTANT, rate(ns))

  ! The module: one chemistry cell per grid cell, the aquifer's porosity and bulk density,
  ! mol/L, and each solvent's linear isotherm.
  call gw%create(ctx, mech%c_handle(), int(nx * ny, c_int64_t))
  call gw%set_units(OPSPLIT_GW_MOL_PER_L, OPSPLIT_GW_PER_L_CELL)
  call gw%set_tolerances(1.0e-6_c_double, 1.0e-15_c_double)
  r(:, 1) = porosity
  call gw%set_property(OPSPLIT_GW_POROSITY, r(:, 1))
  r(:, 1) = bulk_density
  call gw%set_property(OPSPLIT_GW_BULK_DENSITY, r(:, 1))
  r(:, 1) = h * h * thickness * 1000.0_c_double  ! litres: the moles below are the aquifer's
  call gw%set_property(OPSPLIT_GW_VOLUME, r(:, 1))
  do s = 1, ns
    call gw%set_isotherm(int(species(s)), OPSPLIT_GW_ISOTHERM_LINEAR, foc * koc(s), 0.0_c_double)
  end do
  call gw%get_retardation(r)
  do s = 1, ns
    if (abs(r(1, s) - retardation(s)) > 1.0e-12_c_double * retardation(s)) error stop 'unexpected retardation'
  end do

  ! Transport: the four species on one field, water flowing along x, the inflow (x low)
  ! clean, the other faces open or closed (NOFLUX: zero gradient, the flow carries mass out).
  call field%create(ctx, nx, ny, 1, int(ns, c_int))
  call field%set_spacing(h, h, h)
  call rd%create(ctx, int(ns, c_int))
  call rd%set_velocity(1_c_int, velocity)
  do s = 1, ns
    call rd%set_diffusion(int(s, c_int), dispersivity * velocity)
    call rd%set_retardation(int(s, c_int), retardation(s))
    call rd%set_boundary(OPSPLIT_FACE_XLO, int(s, c_int), OPSPLIT_BC_DIRICHLET, 0.0_c_double)
  end do
  stable = rd%max_stable_dt(field)
  substeps = ceiling(dt / (0.9_c_double * stable), c_int64_t)

  ! The source zone: 3 x 5 cells a fifth of the way down the aquifer, on its axis.
  source_x = nx / 5
  source_y = ny / 2
  source = .false.
  do j = source_y - 2, source_y + 2
    do i = source_x - 1, source_x + 1
      source((j - 1) * nx + i) = .true.
    end do
  end do
  c = 0.0_c_double
  where (source) c(:, 1) = source_pce

  print '(i0, " x ", i0, " cells of ", f3.1, " m, ", i0, " years in steps of a month (", i0, " transport steps each)")', &
    nx, ny, h, years, substeps
  print '(a, 4f7.2)', 'retardation factors PCE TCE DCE VC:', retardation
  print '(a)', ' year  dissolved moles PCE, TCE, DCE, VC       reach (m, 1e-3 of the source) PCE TCE DCE VC'
  steps = 12 * years
  call field%upload(c, OPSPLIT_LAYOUT_PLANAR)
  do step = 1, steps
    call rd%step(field, dt / real(substeps, c_double), substeps)
    call field%download(c, OPSPLIT_LAYOUT_PLANAR)  ! c(cell, species): the module's layout too
    call gw%set_concentrations(c)
    call gw%run(dt)
    call gw%get_concentrations(c)
    where (source) c(:, 1) = source_pce  ! the DNAPL keeps its cells at PCE's dissolution limit
    call field%upload(c, OPSPLIT_LAYOUT_PLANAR)
    if (mod(step, 12) == 0) then
      call gw%moles(moles)
      do s = 1, ns
        reach(s) = 0
        do cell = 1, nx * ny
          if (c(cell, s) > 1.0e-3_c_double * source_pce) &
            reach(s) = max(reach(s), (mod(cell - 1, nx) + 1 - source_x) * h)  ! columns 1-based
        end do
      end do
      print '(f5.1, 4es10.3, 4f8.0)', step / 12.0_c_double, moles, reach
    end if
  end do

  ! Less sorbing, each daughter's plume runs ahead of its parent's (VC the farthest).
  if (reach(4) <= reach(1)) error stop 'groundwater_plume: VC should reach farther than PCE'

  ! The picture: the four plumes stacked (PCE on top), one blank row between them, each
  ! scaled to its own largest value (png_slice's rows run upward: VC is written first).
  picture = 0.0_c_double
  do s = 1, ns
    cell = (ns - s) * (ny + 1) * nx
    if (maxval(c(:, s)) > 0) picture(cell + 1:cell + nx * ny) = c(:, s) / maxval(c(:, s))
  end do
  if (png_slice_write('groundwater_plume.png' // c_null_char, picture, int(nx, c_int), &
                      int(ns * ny + ns - 1, c_int), 0.0_c_double, 1.0_c_double) /= 0) &
    error stop 'groundwater_plume: the picture was not written'
  print '(a)', 'wrote groundwater_plume.png'
  deallocate(c, r, picture, source)  ! the main program's arrays are not freed at its end
  call rd%destroy()
  call field%destroy()
  call gw%destroy()
  call mech%destroy()
  call ctx%destroy()
end program groundwater_plume
