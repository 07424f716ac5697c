! Fortran tests of opsplit_mpi_ca_attach on 1, 2 and 4 processes: a 30 x 40 cone with a
! vent at its top, SCIARA-fv2 and -fv3, split over a Cartesian communicator made in
! Fortran (MPI_Dims_create, not periodic); each process's block, placed by
! ca%get_place, equals the same cells of the whole grid stepped alone, bit for bit, and
! the volumes are the whole grid's. Attaching twice fails through stat on every process
! and leaves the grid as it was. Runs on the backend OPSPLIT_BACKEND names.
program test_fortran_mpi_ca
  use mpi
  use opsplit
  use opsplit_mpi
  use test_checks
  implicit none
  integer, parameter :: n1 = 30, n2 = 40
  type(opsplit_context_t) :: ctx
  type(opsplit_ca_t) :: whole, mine
  real(c_double) :: z(n1, n2), got(n1, n2)
  real(c_double), allocatable :: part(:, :)
  integer :: ierr, rank, nproc, cart, stat, r, c, a, m, s
  integer :: dims(2), coords(2), count(2)
  integer(c_int64_t) :: first_row, first_col, global_rows, global_cols
  integer, parameter :: extent(2) = [n1, n2]
  integer(c_int) :: model
  logical :: periods(2), same
  real(c_double) :: vw(4), vm(4)
  character(len=11), parameter :: names(7) = [character(len=11) :: 'altitude', 'thickness', 'temperature', &
                                               'solidified', 'lost', 'momentum_x', 'momentum_y']

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  dims = 0
  call mpi_dims_create(nproc, 2, dims, ierr)
  periods = .false.
  call mpi_cart_create(MPI_COMM_WORLD, 2, dims, periods, .false., cart, ierr)
  call mpi_cart_coords(cart, rank, 2, coords, ierr)
  do c = 1, n2
    do r = 1, n1
      z(r, c) = 200.0d0 - 3.0d0 * sqrt(real((r - 12)**2 + (c - 17)**2, c_double))
    end do
  end do
  do a = 1, 2  ! the cells split as evenly as can be, the first blocks larger
    count(a) = extent(a) / dims(a)
    if (coords(a) < mod(extent(a), dims(a))) count(a) = count(a) + 1
  end do

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  do m = 1, 2
    model = OPSPLIT_CA_SCIARA_FV2
    if (m == 2) model = OPSPLIT_CA_SCIARA_FV3
    call whole%create(ctx, model, n1, n2)
    call mine%create(ctx, model, count(1), count(2))
    call opsplit_mpi_ca_attach(mine, cart, stat)
    call check(stat == OPSPLIT_SUCCESS, 'attach')
    call mine%get_place(first_row, first_col, global_rows, global_cols)
    call check(global_rows == n1 .and. global_cols == n2, 'the whole grid''s shape')
    allocate(part(count(1), count(2)))
    part = z(first_row:first_row + count(1) - 1, first_col:first_col + count(2) - 1)
    call whole%set_substate('altitude', z)
    call mine%set_substate('altitude', part)
    call whole%add_vent(12, 17, [15.0_c_double, 5.0_c_double], 1800.0_c_double)
    call mine%add_vent(12, 17, [15.0_c_double, 5.0_c_double], 1800.0_c_double)
    ! A second attach fails everywhere and changes nothing.
    call opsplit_mpi_ca_attach(mine, cart, stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a second attach is refused')
    call whole%step(250)
    call mine%step(250)
    same = .true.
    do s = 1, merge(7, 5, m == 2)
      call whole%get_substate(trim(names(s)), got)
      call mine%get_substate(trim(names(s)), part)
      same = same .and. all(transfer(part, 1_c_int64_t, size(part)) == &
                            transfer(got(first_row:first_row + count(1) - 1, first_col:first_col + count(2) - 1), &
                                     1_c_int64_t, size(part)))
    end do
    call check(same, 'the block equals the whole grid''s cells, bit for bit')
    call whole%get_volumes(vw(1), vw(2), vw(3), vw(4))
    call mine%get_volumes(vm(1), vm(2), vm(3), vm(4))
    call check(all(transfer(vw, 1_c_int64_t, 4) == transfer(vm, 1_c_int64_t, 4)) .and. vm(2) > 0, &
               'the volumes are the whole grid''s')
    deallocate(part)
    call whole%destroy()
    call mine%destroy()
  end do
  call ctx%destroy()
  call report_checks()
  call mpi_finalize(ierr)
end program test_fortran_mpi_ca
