! A Fortran host on the GPU through OpenACC (docs/API.md, "Hosts on the GPU"): its
! concentrations c(ncells, 3) live in device memory (an OpenACC data region), its
! transport is an OpenACC loop, and opsplit's chemistry works in that device array in
! place: host_data use_device gives its device address, opsplit_ode_t%wrap_state_device
! takes it. Nothing goes through host memory in the time loop.
!
!   gpu_host_openacc [NCELLS [STEPS]]
!
! The chemistry is the NO2 photostationary state (NO2 -> NO + O3 at j = 0.5 /min, NO + O3
! -> NO2 at k = 0.3 /(ppm min)), in ppm and minutes, on a periodic ring advected upwind at
! Courant 0.5 with a plume of NO2 in the first quarter. Checks: the nitrogen total
! (NO + NO2) and the odd-oxygen total (NO2 + O3) over the ring are invariants of both the
! chemistry and the flux-form transport and must stay within 1e-12; far from the plume
! the state must reach the photostationary ratio [NO][O3]/[NO2] = j/k to 1e-6. Writes
! gpu_host_openacc.png (NO, NO2, O3 in cell NCELLS/2 + 1).
!
! Build (examples/CMakeLists.txt does it where gfortran can offload): gfortran -fopenacc
! -foffload=nvptx-none -foffload-options=nvptx-none=-march=sm_80 (Debian's
! gcc-12-offload-nvptx). The opsplit context is made before the first OpenACC construct,
! so that libgomp adopts the CUDA context opsplit uses (the device's primary one).
program gpu_host_openacc
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

  integer(c_int), parameter :: ns = 3, no = 1, no2 = 2, o3 = 3
  real(c_double), parameter :: j_photolysis = 0.5_c_double, k_titration = 0.3_c_double
  real(c_double), parameter :: dt = 1.0_c_double, courant = 0.5_c_double, drift_limit = 1e-12_c_double
  type(opsplit_context_t) :: ctx
  type(opsplit_mechanism_t) :: mech
  type(opsplit_ode_t) :: ode
  integer :: ncells, steps, step, stat
  integer(c_int) :: r
  character(len=32) :: arg
  real(c_double), allocatable :: c(:, :), c_new(:, :), times(:), series(:, :)
  real(c_double) :: n0, o0, n1, o1, ratio, observed(3)

  ncells = 20000
  steps = 60
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) ncells
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) steps
  end if

  ! opsplit first: its context is the one OpenACC will use.
  call ctx%create(OPSPLIT_BACKEND_CUDA, stat=stat)
  call check('context', stat)
  call mech%create(ctx, stat=stat)
  call check('mechanism', stat)
  call mech%add_species('NO', stat=stat)
  call mech%add_species('NO2', stat=stat)
  call mech%add_species('O3', stat=stat)
  call mech%add_reaction([no2], [no, o3], index=r, stat=stat)
  call mech%set_rate(r, OPSPLIT_RATE_CONSTANT, j_photolysis, stat=stat)
  call mech%add_reaction([no, o3], [no2], index=r, stat=stat)
  call mech%set_rate(r, OPSPLIT_RATE_CONSTANT, k_titration, stat=stat)
  call check('the mechanism', stat)
  call ode%create(ctx, ns, ncells, 0_c_int, stat=stat)
  call check('ode', stat)
  call ode%set_mechanism(mech, stat=stat)
  call ode%set_tolerances(1e-10_c_double, 1e-14_c_double, stat=stat)
  call ode%set_keep_step(.true., stat=stat)
  call check('ode settings', stat)

  allocate (c(ncells, ns), c_new(ncells, ns), times(0:steps), series(0:steps, ns))
  c(:, no) = 0.01_c_double
  c(:, no2) = 0.02_c_double
  c(:, o3) = 0.04_c_double
  c(1:ncells / 4, no2) = 0.2_c_double
  c_new = 0
  n0 = sum(c(:, no) + c(:, no2))
  o0 = sum(c(:, no2) + c(:, o3))
  series(0, :) = c(ncells / 2 + 1, :)
  times(0) = 0

  !$acc data copy(c) create(c_new, observed)
  do step = 1, steps
    call advect(ncells, c, c_new)
    call chemistry(ncells, c_new, (step - 1) * dt, step * dt)
    call copy_back(ncells, c_new, c)
    call observe(ncells, c, ncells / 2 + 1, observed)
    !$acc update self(observed)
    series(step, :) = observed
    times(step) = step * dt
  end do
  ! Back to the batch's own storage while c_new is still on the device (it copies it).
  call ode%wrap_state_device(c_null_ptr, stat=stat)
  call check('unwrap', stat)
  !$acc end data

  n1 = sum(c(:, no) + c(:, no2))
  o1 = sum(c(:, no2) + c(:, o3))
  ratio = c(ncells, no) * c(ncells, o3) / c(ncells, no2)
  print '(a, i0, a, i0, a)', 'gpu_host_openacc: ', ncells, ' cells, ', steps, ' steps; chemistry in the OpenACC arrays'
  print '(a, es10.3, a, es10.3, a, es10.3)', 'nitrogen drift ', abs(n1 - n0) / n0, ', odd oxygen drift ', &
      abs(o1 - o0) / o0, ', [NO][O3]/[NO2] far from the plume / (j/k) - 1 = ', ratio / (j_photolysis / k_titration) - 1
  if (png_plot_lines('gpu_host_openacc.png' // c_null_char, 640_c_int, 400_c_int, int(steps + 1, c_int), times, &
                     int(ns, c_int), series, 1_c_int) /= 0) stop 1
  print '(a)', 'wrote gpu_host_openacc.png (NO blue, NO2 orange, O3 green; ppm, log scale)'
  if (.not. (abs(n1 - n0) / n0 <= drift_limit .and. abs(o1 - o0) / o0 <= drift_limit)) then
    print '(a)', 'gpu_host_openacc: a total drifted beyond 1e-12'
    stop 1
  end if
  if (.not. abs(ratio / (j_photolysis / k_titration) - 1) <= 1e-6_c_double) then
    print '(a)', 'gpu_host_openacc: the photostationary state was not reached'
    stop 1
  end if
  call ode%destroy()
  call mech%destroy()
  call ctx%destroy()

contains

  subroutine check(what, status)
    character(len=*), intent(in) :: what
    integer, intent(in) :: status
    if (status /= OPSPLIT_SUCCESS) then
      print '(a, a, a, a)', 'gpu_host_openacc: ', what, ' failed: ', opsplit_last_error()
      stop 1
    end if
  end subroutine check

  ! Flux-form upwind on the ring, on the device.
  subroutine advect(n, c, c_new)
    integer, intent(in) :: n
    real(c_double), intent(in) :: c(n, ns)
    real(c_double), intent(out) :: c_new(n, ns)
    integer :: i, s
    !$acc parallel loop collapse(2) present(c, c_new)
    do s = 1, ns
      do i = 1, n
        c_new(i, s) = c(i, s) + courant * (c(modulo(i - 2, n) + 1, s) - c(i, s))
      end do
    end do
  end subroutine advect

  ! opsplit integrates every cell in the device array itself (explicit shape: GCC 12
  ! takes no allocatable in use_device). c(n, ns) is opsplit's SOA layout. Wrapping the
  ! same array again each step is a pointer check, no copy.
  subroutine chemistry(n, c, t0, t1)
    integer, intent(in) :: n
    real(c_double), target, intent(inout) :: c(n, ns)
    real(c_double), intent(in) :: t0, t1
    integer :: stat
    !$acc host_data use_device(c)
    call ode%wrap_state_device(c_loc(c), stat=stat)
    !$acc end host_data
    call check('wrap_state_device', stat)
    call ode%integrate(t0, t1, stat=stat)
    call check('integrate', stat)
  end subroutine chemistry

  ! One cell's values into out(ns), on the device (an update of a row of c would be a
  ! strided section, which GCC 12's runtime does not update).
  subroutine observe(n, c, cell, out)
    integer, intent(in) :: n, cell
    real(c_double), intent(in) :: c(n, ns)
    real(c_double), intent(out) :: out(ns)
    integer :: s
    !$acc parallel loop present(c, out)
    do s = 1, ns
      out(s) = c(cell, s)
    end do
  end subroutine observe

  subroutine copy_back(n, from, to)
    integer, intent(in) :: n
    real(c_double), intent(in) :: from(n, ns)
    real(c_double), intent(out) :: to(n, ns)
    integer :: i, s
    !$acc parallel loop collapse(2) present(from, to)
    do s = 1, ns
      do i = 1, n
        to(i, s) = from(i, s)
      end do
    end do
  end subroutine copy_back
end program gpu_host_openacc
