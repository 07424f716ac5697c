! Fortran tests of PCPD ensembles through opsplit_pcpd_t: sites(L) in and out with
! 1-based replicas (a lone particle set in replica 2 is read back there, and a lattice
! of one particle stays one particle: an absorbing state), a series whose first point
! is the full lattice and whose times are the log-spaced points, the same bits from the
! same seed in two ensembles, the seed given as the bits of C's uint64_t, and bad input
! through stat (a wrong array size, replica 0, a MULTISPIN d that is no k / 2^n, an
! L MULTISPIN refuses) leaving the ensemble as it was. Runs on the backend
! OPSPLIT_BACKEND names. Fixed-size arrays only (the sanitizer build's leak check).
program test_fortran_pcpd
  use opsplit
  use test_checks
  implicit none
  integer, parameter :: n = 8192, nr = 3
  type(opsplit_context_t) :: ctx
  type(opsplit_pcpd_t) :: e, twin, bad
  integer(c_int8_t) :: sites(n), other(n), wrong(n + 1)
  real(c_double) :: mean(4), times(4), error(4), short(3)
  integer :: stat, r

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call e%create(ctx, OPSPLIT_PCPD_MULTISPIN, n, nr)
  call check(e%created(), 'create')
  call check(e%series_length() == 1, 'the series starts with time 0')
  call e%get_series(OPSPLIT_PCPD_DENSITY, mean(1:1), times(1:1), error(1:1))
  call check(times(1) == 0.0_c_double .and. mean(1) == 1.0_c_double .and. error(1) == 0.0_c_double, 'full start')

  ! A lone particle in replica 2 (1-based): read back there, never more or fewer.
  sites = 0
  sites(100) = 1
  call e%set_lattice(2, sites)
  call e%get_lattice(2, other)
  call check(all(other == sites), 'set_lattice / get_lattice, replica 2')
  call e%get_lattice(1, other)
  call check(all(other == 1), 'replica 1 untouched')
  call e%set_probabilities(0.2_c_double, 0.5_c_double)
  call e%set_points_per_decade(1)
  call e%run(100.0_c_double)
  call check(e%time() == 100.0_c_double, 'time')
  call e%get_lattice(2, other)
  call check(count(other == 1) == 1, 'one particle stays one particle')
  call check(e%series_length() == 4, 'points at 0, 1, 10, 100')
  call e%get_series(OPSPLIT_PCPD_SURVIVING, mean, times)
  call check(all(times == [0.0_c_double, 1.0_c_double, 10.0_c_double, 100.0_c_double]), 'series times')
  ! Set at time 0, the lone particle is the series' start: replica 2 never survives.
  call check(mean(1) == 2.0_c_double / 3 .and. mean(4) <= 2.0_c_double / 3, 'replica 2 never survives')

  ! The same seed (a uint64_t with its top bit set), the same bits.
  call twin%create(ctx, OPSPLIT_PCPD_MULTISPIN, int(n, c_int64_t), int(nr, c_int64_t))
  call e%initialize(-7_c_int64_t, 0.5_c_double)
  call twin%initialize(-7_c_int64_t, 0.5_c_double)
  call twin%set_probabilities(0.2_c_double, 0.5_c_double)
  call e%run(30.0_c_double)
  call twin%run(30.0_c_double)
  call bad%create(ctx, OPSPLIT_PCPD_MULTISPIN, n, nr)
  call bad%initialize(2026, 1.0_c_double)  ! a default-integer seed
  call check(bad%time() == 0.0_c_double, 'initialize with a default integer')
  call bad%destroy()
  do r = 1, nr
    call e%get_lattice(r, sites)
    call twin%get_lattice(r, other)
    call check(all(sites == other), 'the same seed, the same lattice')
  end do

  ! Bad input through stat; nothing changes.
  call e%get_lattice(1, sites)
  call e%get_lattice(1, wrong, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'sites of the wrong size')
  call check(index(opsplit_last_error(), 'L is 8192') > 0, 'the message names L')
  call e%set_lattice(0, sites, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'replica 0 (1-based)')
  call e%set_probabilities(0.1_c_double, 0.3_c_double, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'MULTISPIN d = 0.3')
  call e%get_series(OPSPLIT_PCPD_DENSITY, mean(1:3), error(1:2), stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'times of another size')
  call e%get_series(OPSPLIT_PCPD_DENSITY, short, stat=stat)
  call check(stat == OPSPLIT_SUCCESS, 'a shorter series')
  call bad%create(ctx, OPSPLIT_PCPD_MULTISPIN, 1000, 1, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. .not. bad%created(), 'MULTISPIN L = 1000')
  call bad%create(ctx, OPSPLIT_PCPD_MULTISPIN32, 2048, 1, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. .not. bad%created(), 'MULTISPIN32 L = 2048')
  call bad%create(ctx, OPSPLIT_PCPD_MULTISPIN32, 4096, 1, stat=stat)
  call check(stat == OPSPLIT_SUCCESS .and. bad%created(), 'MULTISPIN32 L = 4096')
  call bad%destroy()
  call e%get_lattice(1, other)
  call check(all(sites == other), 'the lattice after the refusals')
  call check(e%time() == 30.0_c_double, 'the time after the refusals')

  call e%destroy()
  call e%destroy()
  call twin%destroy()
  call ctx%destroy()
  call report_checks()
end program test_fortran_pcpd
