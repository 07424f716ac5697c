! The pair contact process with diffusion near its critical point from Fortran
! (opsplit_pcpd_t), as examples/pcpd_decay.c: replicas of an L-site lattice from the full
! start, the particle and pair densities at 10 points a decade, the effective exponent
! delta_eff = -d ln rho / d ln t between successive points, written to pcpd_decay_f.csv
! and drawn log-log in pcpd_decay_f.png (log10 rho blue, log10 pair density orange,
! against log10 t); delta_eff over the last decade printed.
!
!   pcpd_decay_fortran [L [REPLICAS [SWEEPS]]]     (defaults 65536, 64, 10000)
! At d = 0.25, p = 0.125141 (the seed's p_c), MULTISPIN, seed 2026. The backend is AUTO.
program pcpd_decay_fortran
  use opsplit
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
  integer, parameter :: max_points = 256
  type(opsplit_context_t) :: ctx
  type(opsplit_pcpd_t) :: e
  integer(c_int64_t) :: n_sites, replicas, n
  real(c_double) :: sweeps, delta
  real(c_double), allocatable :: t(:), rho(:), rho_se(:), pairs(:), x(:), y(:, :)
  character(len=32) :: arg
  integer :: k, k0, unit

  n_sites = 65536
  replicas = 64
  sweeps = 1.0e4_c_double
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) n_sites
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) replicas
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    read (arg, *) sweeps
  end if

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call e%create(ctx, OPSPLIT_PCPD_MULTISPIN, n_sites, replicas)
  call e%set_probabilities(0.125141_c_double, 0.25_c_double)
  call e%initialize(2026_c_int64_t, 1.0_c_double)
  call e%run(sweeps)
  n = min(e%series_length(), int(max_points, c_int64_t))
  allocate (t(n), rho(n), rho_se(n), pairs(n))
  call e%get_series(OPSPLIT_PCPD_DENSITY, rho, t, rho_se)
  call e%get_series(OPSPLIT_PCPD_PAIR_DENSITY, pairs)

  open (newunit=unit, file='pcpd_decay_f.csv', status='replace', action='write')
  write (unit, '(a)') 't,rho,rho_se,pairs,delta_eff'
  do k = 1, int(n)
    if (k >= 3) then
      delta = -log(rho(k) / rho(k - 1)) / log(t(k) / t(k - 1))
      write (unit, '(es16.9,",",es16.9,",",es10.3,",",es16.9,",",f9.6)') t(k), rho(k), rho_se(k), pairs(k), delta
    else
      write (unit, '(es16.9,",",es16.9,",",es10.3,",",es16.9,",")') t(k), rho(k), rho_se(k), pairs(k)
    end if
  end do
  close (unit)

  ! log-log: the points from t = 1 on (the series' second point), x = log10 t.
  allocate (x(n - 1), y(n - 1, 2))
  x = log10(t(2:n))
  y(:, 1) = rho(2:n)
  y(:, 2) = pairs(2:n)
  if (png_plot_lines('pcpd_decay_f.png' // c_null_char, 640_c_int, 480_c_int, int(n - 1, c_int), x, 2_c_int, y, &
                     1_c_int) /= 0) stop 1

  ! delta_eff over the last decade.
  k0 = int(n)
  do while (k0 > 2 .and. t(k0) > t(n) / 10 * 1.0001_c_double)
    k0 = k0 - 1
  end do
  delta = -log(rho(n) / rho(k0)) / log(t(n) / t(k0))
  print '(a,i0,a,i0,a,es9.3,a,f9.6,a,es8.2,a,es8.2,a,f7.4)', 'pcpd_decay_fortran: L = ', n_sites, ', ', replicas, &
      ' replicas, t = ', t(n), ': rho = ', rho(n), ' +- ', rho_se(n), ', delta_eff from t = ', t(k0), ' = ', delta
  print '(a)', 'wrote pcpd_decay_f.csv and pcpd_decay_f.png (density blue, pair density orange; log-log)'
  call e%destroy()
  call ctx%destroy()
end program pcpd_decay_fortran
