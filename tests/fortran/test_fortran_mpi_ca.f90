! Fortran tests of opsplit_mpi_ca_attach on 1, 2 and 4 processes: a 30 x 40 cone with a
! vent at its top, SCIARA-fv2 and -fv3, split over a Cartesian communicator made in
! Fortran (MPI_Dims_create, not periodic); each process's block, placed by
! ca%get_place, equals the same cells of the whole grid stepped alone, bit for bit, and
! the volumes are the whole grid's. Attaching twice fails through stat on every process
! and leaves the grid as it was; the lava reaches more than one block. Then LIFE on a
! torus over a periodic communicator (life_torus). Runs on the backend OPSPLIT_BACKEND
! names.
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
  integer :: lava_here, blocks_with_lava
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
    ! The lava crossed a border: at least two blocks hold some (fluid or solidified).
    lava_here = 0
    do s = 2, 4, 2
      call mine%get_substate(trim(names(s)), part)
      if (any(part > 0)) lava_here = 1
    end do
    call mpi_allreduce(lava_here, blocks_with_lava, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
    call check(blocks_with_lava >= min(nproc, 2), 'the lava reached more than one block')
    call whole%get_volumes(vw(1), vw(2), vw(3), vw(4))
    call mine%get_volumes(vm(1), vm(2), vm(3), vm(4))
    call check(all(transfer(vw, 1_c_int64_t, 4) == transfer(vm, 1_c_int64_t, 4)) .and. vm(2) > 0, &
               'the volumes are the whole grid''s')
    deallocate(part)
    call whole%destroy()
    call mine%destroy()
  end do
  call life_torus()
  call ctx%destroy()
  call report_checks()
  call mpi_finalize(ierr)
contains

  ! LIFE on a torus of 24 x 64 dims(2) cells over a periodic communicator of the same
  ! dims (each block 64 columns wide: a block with an east neighbour has whole words):
  ! a soup and two gliders placed across the cuts by place_rle at whole-grid places;
  ! after 100 generations each block equals the whole grid's cells and the populations
  ! agree.
  subroutine life_torus()
    integer, parameter :: lr = 24
    integer :: lc, lcart, lcoords(2), lcount(2), lfirst(2), i, j
    logical :: lperiods(2)
    integer(c_int8_t), allocatable :: all_cells(:, :), got_cells(:, :), block(:, :)
    type(opsplit_ca_t) :: lw, lm
    integer(c_int64_t) :: pw, pm, place(4)
    character(len=*), parameter :: glider = 'x = 3, y = 3' // achar(10) // 'bo$2bo$3o!'
    lc = 64 * dims(2)
    lperiods = .true.
    call mpi_cart_create(MPI_COMM_WORLD, 2, dims, lperiods, .false., lcart, ierr)
    call mpi_cart_coords(lcart, rank, 2, lcoords, ierr)
    lcount(1) = lr / dims(1)
    if (lcoords(1) < mod(lr, dims(1))) lcount(1) = lcount(1) + 1
    lfirst(1) = 1 + lcoords(1) * (lr / dims(1)) + min(lcoords(1), mod(lr, dims(1)))
    lcount(2) = 64
    lfirst(2) = 1 + 64 * lcoords(2)
    allocate(all_cells(lr, lc), got_cells(lr, lc), block(lcount(1), lcount(2)))
    do j = 1, lc
      do i = 1, lr
        all_cells(i, j) = int(merge(1, 0, mod(i * 7 + j * 13 + i * j, 5) == 0), c_int8_t)
      end do
    end do
    call lw%create(ctx, OPSPLIT_CA_LIFE, lr, lc)
    call lm%create(ctx, OPSPLIT_CA_LIFE, lcount(1), lcount(2))
    call lw%set_cells(all_cells)
    block = all_cells(lfirst(1):lfirst(1) + lcount(1) - 1, lfirst(2):lfirst(2) + lcount(2) - 1)
    call lm%set_cells(block)
    call opsplit_mpi_ca_attach(lm, lcart, stat)
    call check(stat == OPSPLIT_SUCCESS, 'a LIFE block attached')
    call lm%get_place(place(1), place(2), place(3), place(4))
    call check(place(1) == lfirst(1) .and. place(2) == lfirst(2) .and. place(3) == lr .and. place(4) == lc, &
               'the LIFE block''s place')
    call lw%place_rle(glider, 11, 62)
    call lm%place_rle(glider, 11, 62)
    call lw%place_rle(glider, 23, 30)
    call lm%place_rle(glider, 23, 30)
    call lw%step(100)
    call lm%step(100)
    call lw%get_cells(got_cells)
    call lm%get_cells(block)
    call check(all(block == got_cells(lfirst(1):lfirst(1) + lcount(1) - 1, lfirst(2):lfirst(2) + lcount(2) - 1)), &
               'the LIFE block equals the whole torus''s cells')
    pw = lw%population()
    pm = lm%population()
    call check(pw == pm .and. pm > 0, 'the populations agree')
    call lw%destroy()
    call lm%destroy()
    call mpi_comm_free(lcart, ierr)
  end subroutine life_torus
end program test_fortran_mpi_ca
