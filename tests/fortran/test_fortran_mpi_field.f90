! Fortran tests of opsplit_mpi_field_attach on 1, 2 and 4 processes: a 3D field split
! over a Cartesian communicator made in Fortran (MPI_Dims_create, MPI_Cart_create; x
! periodic across the processes), stepped with the 19-point stencil, equals the same
! cells of the whole field stepped alone, bit for bit; attaching it twice fails through
! stat on every process and leaves it as it was. Runs on the backend OPSPLIT_BACKEND names.
program test_fortran_mpi_field
  use mpi
  use opsplit
  use opsplit_mpi
  use test_checks
  implicit none
  integer, parameter :: n1 = 12, n2 = 10, n3 = 8
  type(opsplit_context_t) :: ctx
  type(opsplit_field_t) :: whole, mine
  type(opsplit_rd_t) :: rd
  real(c_double) :: global(n1, n2, n3), after(n1, n2, n3)
  real(c_double), allocatable :: part(:, :, :)
  integer :: ierr, rank, nproc, cart, stat, i, j, k, a
  integer :: dims(3), coords(3), first(3), count(3)
  integer, parameter :: extent(3) = [n1, n2, n3]
  logical :: periods(3)
  real(c_double) :: dt

  call mpi_init(ierr)
  call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  dims = [0, 0, 1]
  call mpi_dims_create(nproc, 3, dims, ierr)
  periods = [.true., .false., .false.]
  call mpi_cart_create(MPI_COMM_WORLD, 3, dims, periods, .false., cart, ierr)
  call mpi_cart_coords(cart, rank, 3, coords, ierr)
  do k = 1, n3
    do j = 1, n2
      do i = 1, n1
        global(i, j, k) = sin(0.3d0 * i + 0.5d0 * j) + 0.1d0 * k
      end do
    end do
  end do
  ! This process's block: the cells split as evenly as can be, the first ones larger.
  do a = 1, 3
    count(a) = extent(a) / dims(a)
    first(a) = coords(a) * count(a) + min(coords(a), mod(extent(a), dims(a))) + 1
    if (coords(a) < mod(extent(a), dims(a))) count(a) = count(a) + 1
  end do
  allocate(part(count(1), count(2), count(3)))
  part = global(first(1):first(1) + count(1) - 1, first(2):first(2) + count(2) - 1, first(3):first(3) + count(3) - 1)

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call whole%create(ctx, n1, n2, n3, 1_c_int)
  call mine%create(ctx, count(1), count(2), count(3), 1_c_int)
  call whole%upload(global)
  call mine%upload(part)
  call opsplit_mpi_field_attach(mine, cart)
  call rd%create(ctx, 1_c_int)
  call rd%set_stencil(OPSPLIT_STENCIL_19POINT)
  call rd%set_diffusion(1_c_int, 1.0_c_double)
  call rd%set_boundary(OPSPLIT_FACE_XLO, 1_c_int, OPSPLIT_BC_PERIODIC)
  call rd%set_boundary(OPSPLIT_FACE_XHI, 1_c_int, OPSPLIT_BC_PERIODIC)
  dt = 0.5_c_double * rd%max_stable_dt(whole)
  call rd%step(whole, dt, 25)
  call rd%step(mine, dt, 25)
  call whole%download(after)
  call mine%download(part)
  call check(all(part == after(first(1):first(1) + count(1) - 1, first(2):first(2) + count(2) - 1, &
                               first(3):first(3) + count(3) - 1)), 'the subdomain equals the one-process run')

  call opsplit_mpi_field_attach(mine, cart, stat=stat)
  call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'attached twice')
  call check(index(opsplit_last_error(), 'already attached') > 0, 'attached twice: the message')
  call rd%step(mine, dt, 1, stat=stat)
  call check(stat == OPSPLIT_SUCCESS, 'usable after the refusal')

  call rd%destroy()
  call mine%destroy()
  call whole%destroy()
  call ctx%destroy()
  call mpi_comm_free(cart, ierr)
  call mpi_finalize(ierr)
  call report_checks()
end program test_fortran_mpi_field
