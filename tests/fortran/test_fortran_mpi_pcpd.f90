! Fortran tests of module opsplit_mpi on 1, 2 and 4 processes: a PCPD ensemble spread
! over MPI_COMM_WORLD (from `use mpi`: the communicator an old host already has) equals
! the single-process ensemble bit for bit (this process's replicas, 1-based through
! replicas(), and the whole series); bad input through stat on every process, no hang:
! an L that differs between processes, an ensemble created twice, another process's
! replica. Runs on the backend OPSPLIT_BACKEND names.
program test_fortran_mpi_pcpd
  use mpi
  use opsplit
  use opsplit_mpi
  use test_checks
  implicit none
  integer, parameter :: n = 8192, nr = 7
  type(opsplit_context_t) :: ctx
  type(opsplit_pcpd_t) :: d, s, bad
  integer(c_int8_t) :: qd(n), qs(n)
  real(c_double) :: md(8), ms(8), ed(8), es(8), td(8), ts(8)
  integer(c_int64_t) :: first, count, r
  integer :: ierr, rank, nproc, stat, other

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call opsplit_mpi_pcpd_create(d, ctx, MPI_COMM_WORLD, OPSPLIT_PCPD_MULTISPIN, n, nr)
  call s%create(ctx, OPSPLIT_PCPD_MULTISPIN, n, nr)
  call d%set_probabilities(0.2_c_double, 0.5_c_double)
  call s%set_probabilities(0.2_c_double, 0.5_c_double)
  call d%set_points_per_decade(2)  ! 0, 1, 3.16, 10, 31.6: 4 points by t = 30
  call s%set_points_per_decade(2)
  call d%initialize(42, 0.6_c_double)
  call s%initialize(42, 0.6_c_double)
  call d%run(30.0_c_double)
  call s%run(30.0_c_double)

  call d%replicas(first, count)
  call check(first == int(rank, c_int64_t) * nr / nproc + 1, 'first replica, 1-based')
  call check(count == int(rank + 1, c_int64_t) * nr / nproc - (first - 1), 'replica count')
  do r = first, first + count - 1
    call d%get_lattice(int(r), qd)
    call s%get_lattice(int(r), qs)
    call check(all(qd == qs), 'the same lattices as one process')
  end do
  call check(d%series_length() == s%series_length() .and. d%series_length() <= 8, 'series length')
  call d%get_series(OPSPLIT_PCPD_PAIR_DENSITY, md(1:d%series_length()), td(1:d%series_length()), &
                    ed(1:d%series_length()))
  call s%get_series(OPSPLIT_PCPD_PAIR_DENSITY, ms(1:s%series_length()), ts(1:s%series_length()), &
                    es(1:s%series_length()))
  call check(all(md(1:d%series_length()) == ms(1:s%series_length())), 'the same series means')
  call check(all(ed(1:d%series_length()) == es(1:s%series_length())), 'the same standard errors')

  ! Bad input on every process.
  call opsplit_mpi_pcpd_create(d, ctx, MPI_COMM_WORLD, OPSPLIT_PCPD_MULTISPIN, n, nr, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'created twice')
  call check(index(opsplit_last_error(), 'already holds') > 0, 'created twice: the message')
  if (nproc > 1) then
    call opsplit_mpi_pcpd_create(bad, ctx, MPI_COMM_WORLD, OPSPLIT_PCPD_MULTISPIN, n * (1 + rank), nr, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. .not. bad%created(), 'L differs between processes')
    call check(index(opsplit_last_error(), 'different') > 0, 'L differs: the message')
    other = int(mod(rank + 1, nproc) * nr / nproc) + 1
    call d%get_lattice(other, qd, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'another process''s replica')
  end if
  call check(d%time() == 30.0_c_double, 'the time after the refusals')

  call d%destroy()
  call s%destroy()
  call ctx%destroy()
  call mpi_finalize(ierr)
  call report_checks()
end program test_fortran_mpi_pcpd
