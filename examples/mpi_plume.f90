! The full operator-split pattern from a Fortran MPI host: a 3D advection-diffusion-
! chemistry problem decomposed over processes, transport by an opsplit field attached to
! the host's Cartesian communicator (opsplit_mpi_field_attach), chemistry by an ODE batch
! of this process's cells, and a picture of the global field assembled on rank 0.
!
!   mpirun -np P mpi_plume [NX NY NZ [STEPS]]
!
! NX x NY x NZ cells (default 16 x 96 x 64), STEPS steps of dt = 1 minute (default 120).
! x is the vertical column (NX levels 0.5 km apart, no-flux at the ground and the top),
! y and z the horizontal axes (1 km cells, periodic). x is not split: the processes form
! a 1 x PY x PZ grid (MPI_Dims_create over y and z, MPI_Cart_create periodic in y and z),
! each holding a block of whole columns, the first blocks of an axis one cell larger
! where the cells do not divide evenly. Every axis split over processes needs at least 2
! cells a process (the library refuses a block of one cell along a split axis).
!
! Species NO, NO2, O3 (ppm) with the photostationary cycle NO2 -> NO + O3 (j = 0.35 /min)
! and NO + O3 -> NO2 (k = 26.6 /ppm/min), built through opsplit_mechanism_t; both NOx =
! NO + NO2 and Ox = O3 + NO2 are conserved by the chemistry. They start uniform and in
! photostationary balance (40 ppb O3, 10 ppb NO2); a stack emits 0.5 ppm/min of NO into
! one cell at level 2 (global cell (2, NY/8 + 1, NZ/2 + 1)), given as a source only on the
! process that holds it, in its local indices. Transport: diffusion 0.02 km^2/min for
! every species (7-point stencil) and a uniform wind of 0.5 km/min along y and 0.125
! km/min along z (first-order upwind). Each step is Lie splitting: opsplit_rd_step for dt
! (collective: the halo exchange is inside it), then the chemistry of every local cell
! from t to t + dt as one ODE batch (RODAS4, rtol 1e-6, atol 1e-10, keep_step), moved
! between the field and the batch through one host array: the field's PLANAR layout
! c(nx, ny, nz, 3) is the batch's SOA layout y(ncells, 3).
!
! Checks, after every step, of the global totals (each process's compensated sums, then
! MPI_Allreduce): Ox within DRIFT_LIMIT (relative) of its start, NOx within DRIFT_LIMIT
! of its start plus the emitted NO (dt * rate per step: opsplit_rd_add_source adds
! rate * dt to its cell each step). Why 1e-12: in exact arithmetic both balances are
! exact. The chemistry keeps every linear invariant at any tolerance: a Rosenbrock stage
! combines f = S r and solves with 1/(gamma h) - J, J = S dr/dy, so every increment lies
! in the span of the stoichiometric matrix S, and NOx and Ox are vectors w with w^T S = 0
! (rtol and atol do not enter; clipping negatives, off here, would break it). The upwind
! and diffusion fluxes cancel in pairs, and the periodic and no-flux faces let nothing
! out. What is left is rounding: each step rounds a cell's values in the transport update
! and in RODAS4's stages (1.2 internal steps a call on average, 57 at most beside the
! stack), fewer than 40 times on average, each by at most 1.1e-16 relative. Even with
! every rounding of the same sign, 120 steps would move the totals by less than
! 40 x 120 x 1.1e-16 = 5e-13; with random signs by ~1e-18, so what shows is the rounding
! of the totals themselves (measured: 1.9e-16 at most, on 1, 2, 3 and 4 processes). A
! real leak (a lost halo, a source given twice or never, a wrong face) moves a total by
! one cell's value or more: ~1e-5 of it here.
!
! Output (rank 0): a table of the totals, the timings (the slowest process), the totals
! summed again in global order from the gathered column sums (the same bits on any
! number of processes), a checksum of everything gathered, and mpi_plume.png in the
! current directory: NO2 at the stack's level, 4 pixels a cell, y across and z upward,
! gathered onto rank 0 with MPI_Gatherv. The distributed field step equals the
! one-process run bit for bit and the chemistry is per cell, so the picture, the
! checksum and the global-order totals are the same bits on any number of processes
! (CTest example_mpi_plume compares 1, 2 and 4). Exit 1 if a check fails, 2 on bad
! arguments; an opsplit failure on one process prints its message and aborts all
! (MPI_Abort), since the others would wait in the next collective call.
program mpi_plume
  use mpi
  use opsplit
  use png_slice, only: png_slice_write
  use opsplit_mpi
  use, intrinsic :: iso_fortran_env, only: error_unit, int64
  implicit none


  integer(c_int), parameter :: ns = 3, no = 1, no2 = 2, o3 = 3  ! species = field components
  character(len=3), parameter :: names(ns) = ['NO ', 'NO2', 'O3 ']
  real(c_double), parameter :: j_no2 = 0.35_c_double, k_no_o3 = 26.6_c_double  ! /min, /ppm/min
  real(c_double), parameter :: o3_start = 0.04_c_double, no2_start = 0.01_c_double  ! ppm
  real(c_double), parameter :: no_start = j_no2 * no2_start / (k_no_o3 * o3_start)   ! balance
  real(c_double), parameter :: emission = 0.5_c_double                               ! ppm/min
  real(c_double), parameter :: diffusion = 0.02_c_double, wind_y = 0.5_c_double, wind_z = 0.125_c_double
  real(c_double), parameter :: hx = 0.5_c_double, hy = 1.0_c_double, hz = 1.0_c_double  ! km
  real(c_double), parameter :: dt = 1.0_c_double                                     ! min
  real(c_double), parameter :: drift_limit = 1e-12_c_double
  integer, parameter :: zoom = 4  ! pixels a cell side

  integer :: nx = 16, ny = 96, nz = 64, steps = 120
  integer :: ierr, rank, nproc, cart, stat, a, step, r, i, j, k, level, src(3), ncells, every
  integer :: dims(3), coords(3), first(3), local(3), extent(3)
  logical :: periods(3), mine
  integer, allocatable :: blocks(:, :), counts(:), displs(:)
  real(c_double), allocatable, target :: c(:, :, :, :)
  real(c_double), pointer, contiguous :: y(:, :)
  real(c_double), allocatable :: packed(:, :, :), gathered(:), global(:, :, :), picture(:, :)
  real(c_double) :: sums(ns), totals(ns), nox0, ox0, nox, ox, emitted, drift_nox, drift_ox
  real(c_double) :: worst_nox = 0, worst_ox = 0, no2_max, no2_max_all, stable_dt, lo, hi
  real(c_double) :: t0, t1, seconds(4), slowest(4), ordered(ns)
  integer(c_int), allocatable :: result(:)
  integer(int64) :: hash(2)
  character(len=32) :: arg
  type(opsplit_context_t) :: ctx
  type(opsplit_field_t) :: field
  type(opsplit_rd_t) :: rd
  type(opsplit_mechanism_t) :: mech
  type(opsplit_ode_t) :: ode

  call mpi_init(ierr)
  call mpi_comm_size(MPI_COMM_WORLD, nproc, ierr)
  do a = 1, command_argument_count()
    call get_command_argument(a, arg)
    select case (a)
    case (1)
      read (arg, *, iostat=stat) nx
    case (2)
      read (arg, *, iostat=stat) ny
    case (3)
      read (arg, *, iostat=stat) nz
    case (4)
      read (arg, *, iostat=stat) steps
    case default
      stat = 1
    end select
    if (stat /= 0) steps = -1
  end do
  if (nx < 2 .or. ny < 2 .or. nz < 2 .or. steps < 1 .or. command_argument_count() == 1 .or. &
      command_argument_count() == 2) then
    call mpi_comm_rank(MPI_COMM_WORLD, rank, ierr)
    if (rank == 0) write (error_unit, '(a)') 'usage: mpirun -np P mpi_plume [NX NY NZ (each >= 2) [STEPS >= 1]]'
    call mpi_finalize(ierr)
    stop 2
  end if

  ! The process grid: x whole, y and z split; periodic along y and z like the model's faces.
  extent = [nx, ny, nz]
  dims = [1, 0, 0]
  call mpi_dims_create(nproc, 3, dims, ierr)
  periods = [.false., .true., .true.]
  call mpi_cart_create(MPI_COMM_WORLD, 3, dims, periods, .false., cart, ierr)
  call mpi_comm_rank(cart, rank, ierr)
  call mpi_cart_coords(cart, rank, 3, coords, ierr)
  do a = 1, 3
    local(a) = extent(a) / dims(a)
    first(a) = coords(a) * local(a) + min(coords(a), mod(extent(a), dims(a))) + 1
    if (coords(a) < mod(extent(a), dims(a))) local(a) = local(a) + 1
  end do
  ncells = local(1) * local(2) * local(3)
  level = 2
  src = [level, ny / 8 + 1, nz / 2 + 1]
  mine = all(src >= first .and. src < first + local)

  allocate(c(local(1), local(2), local(3), ns), result(ncells))
  c(:, :, :, no) = no_start
  c(:, :, :, no2) = no2_start
  c(:, :, :, o3) = o3_start
  ! The batch's SOA view of the same storage: y(cell, species), cell = i + nx (j - 1 + ny_local (k - 1)).
  y(1:ncells, 1:ns) => c

  call ctx%create(OPSPLIT_BACKEND_AUTO, stat=stat)
  call check('ctx%create')

  ! Transport: this process's block of the global field, attached to the process grid.
  call field%create(ctx, local(1), local(2), local(3), ns, stat=stat)
  call check('field%create')
  call field%set_spacing(hx, hy, hz, stat=stat)
  call check('field%set_spacing')
  call field%upload(c, stat=stat)
  call check('field%upload')
  call opsplit_mpi_field_attach(field, cart, stat=stat)
  call check('opsplit_mpi_field_attach')
  call rd%create(ctx, ns, stat=stat)
  call check('rd%create')
  call rd%set_stencil(OPSPLIT_STENCIL_7POINT, stat=stat)
  call check('rd%set_stencil')
  do r = 1, ns
    call rd%set_diffusion(r, diffusion, stat=stat)
    call check('rd%set_diffusion')
    do a = OPSPLIT_FACE_YLO, OPSPLIT_FACE_ZHI  ! x faces keep NOFLUX
      call rd%set_boundary(a, r, OPSPLIT_BC_PERIODIC, stat=stat)
      call check('rd%set_boundary')
    end do
  end do
  call rd%set_velocity(2_c_int, wind_y, stat=stat)
  call check('rd%set_velocity')
  call rd%set_velocity(3_c_int, wind_z, stat=stat)
  call check('rd%set_velocity')
  if (mine) then
    call rd%add_source(no, src(1) - first(1) + 1, src(2) - first(2) + 1, src(3) - first(3) + 1, emission, stat=stat)
    call check('rd%add_source')
  end if
  stable_dt = rd%max_stable_dt(field, stat=stat)
  call check('rd%max_stable_dt')
  if (dt > stable_dt) then
    if (rank == 0) write (error_unit, '(a,f6.3,a)') 'mpi_plume: dt = 1 min exceeds the stable ', stable_dt, ' min'
    call mpi_abort(cart, 1, ierr)
  end if

  ! Chemistry: one system per local cell, the species in the field's component order.
  call mech%create(ctx, stat=stat)
  call check('mech%create')
  do r = 1, ns
    call mech%add_species(names(r), stat=stat)
    call check('mech%add_species')
  end do
  call mech%add_reaction([no2], [no, o3], stat=stat)
  call check('mech%add_reaction')
  call mech%set_rate(1_c_int, OPSPLIT_RATE_CONSTANT, j_no2, stat=stat)
  call check('mech%set_rate')
  call mech%add_reaction([no, o3], [no2], stat=stat)
  call check('mech%add_reaction')
  call mech%set_rate(2_c_int, OPSPLIT_RATE_CONSTANT, k_no_o3, stat=stat)
  call check('mech%set_rate')
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

  if (rank == 0) then
    print '(a,3(i0,a),i0,a,3(i0,a),i0,a,a)', 'mpi_plume: ', nx, ' x ', ny, ' x ', nz, ' cells on ', nproc, &
        ' processes (', dims(1), ' x ', dims(2), ' x ', dims(3), '), ', steps, ' steps of 1 min, backend ', &
        trim(merge('CUDA', 'CPU ', ctx%backend() == OPSPLIT_BACKEND_CUDA))
    print '(a6,a8,2a22,2a11,a12)', 'step', 't (min)', 'NOx total (ppm)', 'Ox total (ppm)', 'NOx drift', &
        'Ox drift', 'NO2 max'
  end if
  call reduce_totals()
  nox0 = totals(no) + totals(no2)
  ox0 = totals(o3) + totals(no2)
  every = max(1, steps / 6)
  seconds = 0
  call mpi_barrier(cart, ierr)
  t0 = mpi_wtime()
  do step = 1, steps
    ! Transport (collective: the halo exchange is inside the step).
    t1 = mpi_wtime()
    call rd%step(field, dt, 1, stat=stat)
    call check('rd%step')
    seconds(1) = seconds(1) + (mpi_wtime() - t1)
    ! The field's cells into the batch: the PLANAR c(nx, ny, nz, 3) is the SOA y(ncells, 3).
    t1 = mpi_wtime()
    call field%download(c, stat=stat)
    call check('field%download')
    call ode%set_state(y, OPSPLIT_ODE_SOA, stat=stat)
    call check('ode%set_state')
    seconds(2) = seconds(2) + (mpi_wtime() - t1)
    ! Chemistry (local: each process its own cells).
    t1 = mpi_wtime()
    call ode%integrate((step - 1) * dt, step * dt, stat=stat)
    if (stat /= OPSPLIT_SUCCESS) then  ! the message first: the next call's success clears it
      write (error_unit, '(a,i0,a)') 'mpi_plume: process ', rank, ': ode%integrate failed: ' // &
          opsplit_status_text(int(stat, c_int)) // ': ' // opsplit_last_error()
      call ode%results(result, stat=stat)
      if (stat == OPSPLIT_SUCCESS) write (error_unit, '(a,i0,a)') '  ', count(result /= OPSPLIT_ODE_OK), &
          ' cells failed'
      call mpi_abort(cart, 1, ierr)
    end if
    seconds(3) = seconds(3) + (mpi_wtime() - t1)
    ! And back.
    t1 = mpi_wtime()
    call ode%get_state(y, OPSPLIT_ODE_SOA, stat=stat)
    call check('ode%get_state')
    call field%upload(c, stat=stat)
    call check('field%upload')
    seconds(2) = seconds(2) + (mpi_wtime() - t1)

    call reduce_totals()
    emitted = step * dt * emission
    nox = totals(no) + totals(no2)
    ox = totals(o3) + totals(no2)
    drift_nox = abs(nox - (nox0 + emitted)) / (nox0 + emitted)
    drift_ox = abs(ox - ox0) / ox0
    worst_nox = max(worst_nox, drift_nox)
    worst_ox = max(worst_ox, drift_ox)
    if (rank == 0 .and. (mod(step, every) == 0 .or. step == steps)) &
      print '(i6,f8.1,2es22.14,2es11.2,es12.4)', step, step * dt, nox, ox, drift_nox, drift_ox, no2_max_all
  end do
  seconds(4) = mpi_wtime() - t0
  call mpi_reduce(seconds, slowest, 4, MPI_DOUBLE_PRECISION, MPI_MAX, 0, cart, ierr)

  ! Gather onto rank 0, per column (j, k): NO2 at the stack's level and the column sums of
  ! NO, NO2 and O3 (summed up the column in the same order on any number of processes).
  allocate(packed(local(2), local(3), 1 + ns))
  do k = 1, local(3)
    do j = 1, local(2)
      packed(j, k, 1) = c(level, j, k, no2)
      do r = 1, ns
        packed(j, k, 1 + r) = 0
        do i = 1, local(1)
          packed(j, k, 1 + r) = packed(j, k, 1 + r) + c(i, j, k, r)
        end do
      end do
    end do
  end do
  allocate(blocks(4, 0:nproc - 1), counts(0:nproc - 1), displs(0:nproc - 1))
  call mpi_gather([first(2), local(2), first(3), local(3)], 4, MPI_INTEGER, blocks, 4, MPI_INTEGER, 0, cart, ierr)
  if (rank == 0) then
    counts = blocks(2, :) * blocks(4, :) * (1 + ns)
    displs(0) = 0
    do r = 1, nproc - 1
      displs(r) = displs(r - 1) + counts(r - 1)
    end do
    allocate(gathered(sum(counts)))
  else
    allocate(gathered(1))
  end if
  call mpi_gatherv(packed, size(packed), MPI_DOUBLE_PRECISION, gathered, counts, displs, MPI_DOUBLE_PRECISION, 0, &
                   cart, ierr)

  if (rank == 0) then
    ! Each process's block into the global (y, z) arrays.
    allocate(global(ny, nz, 1 + ns))
    do r = 0, nproc - 1
      global(blocks(1, r):blocks(1, r) + blocks(2, r) - 1, blocks(3, r):blocks(3, r) + blocks(4, r) - 1, :) = &
          reshape(gathered(displs(r) + 1:displs(r) + counts(r)), [blocks(2, r), blocks(4, r), 1 + ns])
    end do
    do r = 1, ns
      ordered(r) = sum_in_order(global(:, :, 1 + r))
    end do
    hash = checksum(global)
    ! The picture: NO2 at the stack's level, zoom x zoom pixels a cell, y across, z upward.
    allocate(picture(zoom * ny, zoom * nz))
    do k = 1, zoom * nz
      do j = 1, zoom * ny
        picture(j, k) = global((j - 1) / zoom + 1, (k - 1) / zoom + 1, 1)
      end do
    end do
    lo = minval(global(:, :, 1))
    hi = maxval(global(:, :, 1))
    if (png_slice_write('mpi_plume.png' // c_null_char, picture, int(zoom * ny, c_int), int(zoom * nz, c_int), &
                        lo, hi) /= 0) call mpi_abort(cart, 1, ierr)
    print '(a,f7.3,a,f7.3,a,f7.3,a,f7.3,a)', 'transport ', slowest(1), ' s, field <-> batch ', slowest(2), &
        ' s, chemistry ', slowest(3), ' s, ', slowest(4), ' s in all (each the slowest process)'
    print '(a,3es24.16)', 'totals in global order (NO, NO2, O3):', ordered
    print '(a,2z8.8)', 'checksum ', hash
    print '(a,i0,a,i0,a,i0,a,es10.3,a,es10.3,a)', 'wrote mpi_plume.png: NO2 at level ', level, ', ', zoom * ny, &
        ' x ', zoom * nz, ' pixels (y across, z up), ', lo, ' (dark blue) to ', hi, ' ppm (yellow)'
    print '(a,es9.2,a,es9.2,a,es8.1,a)', 'NOx drift ', worst_nox, ' Ox drift ', worst_ox, ' (limit ', drift_limit, ')'
  end if

  call ode%destroy(stat=stat)
  call check('ode%destroy')
  call rd%destroy(stat=stat)
  call check('rd%destroy')
  call field%destroy(stat=stat)
  call check('field%destroy')
  call ctx%destroy(stat=stat)
  call check('ctx%destroy')
  nullify(y)
  deallocate(c, result, packed, blocks, counts, displs, gathered)  ! a main program's allocatables
  if (allocated(global)) deallocate(global, picture)                 ! are not freed for it
  call mpi_comm_free(cart, ierr)
  call mpi_finalize(ierr)
  ! Every process has the same totals (MPI_Allreduce), so all exit alike.
  if (.not. (worst_nox <= drift_limit .and. worst_ox <= drift_limit)) then
    if (rank == 0) write (error_unit, '(a,es8.1)') 'mpi_plume: the NOx or Ox total drifted beyond ', drift_limit
    stop 1
  end if

contains

  ! Aborts every process when the last opsplit call (its stat) failed: a collective call
  ! fails on all of them together, but a local one (the chemistry) would leave the others
  ! waiting in the next step.
  subroutine check(what)
    character(len=*), intent(in) :: what
    if (stat == OPSPLIT_SUCCESS) return
    write (error_unit, '(a,i0,a)') 'mpi_plume: process ', rank, ': ' // what // ' failed: ' // &
        opsplit_status_text(int(stat, c_int)) // ': ' // opsplit_last_error()
    call mpi_abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine check

  ! totals(:): the species' sums over the global field (each process's compensated sums
  ! added by MPI_Allreduce); no2_max_all: the largest NO2 anywhere.
  subroutine reduce_totals()
    integer :: s
    do s = 1, ns
      sums(s) = neumaier(y(:, s))
    end do
    call mpi_allreduce(sums, totals, ns, MPI_DOUBLE_PRECISION, MPI_SUM, cart, ierr)
    no2_max = maxval(y(:, no2))
    call mpi_allreduce(no2_max, no2_max_all, 1, MPI_DOUBLE_PRECISION, MPI_MAX, cart, ierr)
  end subroutine reduce_totals

  ! Neumaier's compensated sum: a plain sum's rounding (~1e-13 relative over 10^5 cells)
  ! would hide the state's own drift.
  real(c_double) function neumaier(v)
    real(c_double), intent(in) :: v(:)
    real(c_double) :: lost, next
    integer :: n
    neumaier = 0
    lost = 0
    do n = 1, size(v)
      next = neumaier + v(n)
      if (abs(neumaier) >= abs(v(n))) then
        lost = lost + ((neumaier - next) + v(n))
      else
        lost = lost + ((v(n) - next) + neumaier)
      end if
      neumaier = next
    end do
    neumaier = neumaier + lost
  end function neumaier

  ! A global array's sum in its own (y fastest) order: the same on any number of processes.
  real(c_double) function sum_in_order(v)
    real(c_double), intent(in) :: v(:, :)
    sum_in_order = neumaier(reshape(v, [size(v)]))
  end function sum_in_order

  ! Two 31-bit polynomial hashes of the values' bits (their two 32-bit halves), in
  ! array order: equal checksums mean (all but surely) the same bits.
  function checksum(v) result(h)
    real(c_double), intent(in) :: v(:, :, :)
    integer(int64) :: h(2)
    integer(int64), parameter :: p = 2147483647_int64, m(2) = [1000003_int64, 998244353_int64]
    real(c_double) :: flat(size(v))
    integer(int64) :: bits, half
    integer :: n, s, b
    flat = reshape(v, [size(v)])
    h = 0
    do n = 1, size(flat)
      bits = transfer(flat(n), bits)
      do b = 0, 32, 32
        half = ibits(bits, b, 32)
        do s = 1, 2
          h(s) = mod(h(s) * m(s) + half, p)
        end do
      end do
    end do
  end function checksum

end program mpi_plume
