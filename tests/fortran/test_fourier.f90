! Fortran tests of the opsplit module, through its derived types only.
!
! A discrete periodic Fourier mode is an exact eigenvector of the periodic 7- and
! 19-point Laplacians: after n forward-Euler steps it is the initial mode times G**n,
! G = 1 + D*dt*L(theta), with L the stencil's symbol. The tests compare the library's
! result with that, check the 1-based component indices, both precisions and the
! layouts, and the error handling through stat.
!
! The backend is OPSPLIT_BACKEND_AUTO, so the environment variable OPSPLIT_BACKEND
! (cpu|cuda) picks it; the program says which it got and checks it got what was asked.

module test_fourier_support
  use opsplit
  implicit none
  private
  public :: progress_record, count_and_cancel

  ! What the progress callback saw; reached through its `user` pointer.
  type :: progress_record
    integer :: calls = 0
    real(c_double) :: last_fraction = -1.0_c_double
    logical :: names_step = .true.
  end type progress_record

contains

  ! Counts its calls; asks to cancel on the third.
  function count_and_cancel(fraction, what, user) bind(C) result(cancel)
    real(c_double), value :: fraction
    type(c_ptr), value :: what
    type(c_ptr), value :: user
    integer(c_int) :: cancel
    type(progress_record), pointer :: record
    call c_f_pointer(user, record)
    record%calls = record%calls + 1
    record%last_fraction = fraction
    record%names_step = record%names_step .and. opsplit_c_string(what) == 'opsplit_rd_step'
    cancel = 0
    if (record%calls >= 3) cancel = 1
  end function count_and_cancel

end module test_fourier_support

program test_fourier
  use opsplit
  use test_fourier_support
  use test_checks
  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
  implicit none

  real(c_double), parameter :: pi = acos(-1.0_c_double)
  real(c_double), parameter :: cubic(3) = [1.0_c_double, 1.0_c_double, 1.0_c_double]
  real(c_double), parameter :: stretched(3) = [1.0_c_double, 1.5_c_double, 0.75_c_double]
  type(opsplit_context_t) :: ctx
  integer(c_int) :: backend
  character(len=32) :: wanted
  integer :: wanted_status

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  backend = ctx%backend()
  call get_environment_variable('OPSPLIT_BACKEND', wanted, status=wanted_status)
  if (wanted_status /= 0) wanted = ''
  print '(a,a,a,a,a)', 'backend: ', backend_name(backend), ' (OPSPLIT_BACKEND=', trim(wanted), ')'
  if (wanted == 'cpu') call check(backend == OPSPLIT_BACKEND_CPU, 'OPSPLIT_BACKEND=cpu gives a CPU context')
  if (backend == OPSPLIT_BACKEND_CPU) call check(ctx%cuda_device() == -1, 'a CPU context has no GPU')
  if (backend == OPSPLIT_BACKEND_CUDA) call check(ctx%cuda_device() >= 0, 'a CUDA context has its GPU')
  if (wanted == 'cuda') call check(backend == OPSPLIT_BACKEND_CUDA, 'OPSPLIT_BACKEND=cuda gives a CUDA context')

  call fourier_case('7-point, cubic cells, k=(1,1,1)', OPSPLIT_STENCIL_7POINT, cubic, [1, 1, 1])
  call fourier_case('7-point, cubic cells, k=(2,3,1)', OPSPLIT_STENCIL_7POINT, cubic, [2, 3, 1])
  call fourier_case('7-point, h=(1,1.5,0.75), k=(1,1,1)', OPSPLIT_STENCIL_7POINT, stretched, [1, 1, 1])
  call fourier_case('19-point, cubic cells, k=(1,1,1)', OPSPLIT_STENCIL_19POINT, cubic, [1, 1, 1])
  call fourier_case('19-point, cubic cells, k=(2,1,1)', OPSPLIT_STENCIL_19POINT, cubic, [2, 1, 1])
  call fourier_case('19-point, h=(1,1.5,0.75), k=(1,1,1)', OPSPLIT_STENCIL_19POINT, stretched, [1, 1, 1])
  call components_and_layouts()
  call float32_field()
  call errors_through_stat()
  call progress_cancels()

  call ctx%destroy()
  call check(.not. ctx%created(), 'the context is gone after destroy')

  call report_checks()

contains

  function backend_name(b) result(name)
    integer(c_int), intent(in) :: b
    character(len=:), allocatable :: name
    select case (b)
    case (OPSPLIT_BACKEND_CPU)
      name = 'CPU'
    case (OPSPLIT_BACKEND_CUDA)
      name = 'CUDA'
    case default
      name = 'unknown'
    end select
  end function backend_name

  ! The symbol of the stencil for the mode with angles theta (rad per cell):
  ! 7-point: sum_a (2 cos(theta_a) - 2)/h_a^2. 19-point:
  ! sum_a 2 f_a (cos(theta_a) - 1) + sum_{a<b} 4 e_ab (cos(theta_a) cos(theta_b) - 1),
  ! e_ab = (1/h_a^2 + 1/h_b^2)/12, f_a = 1/h_a^2 - 2 sum_{b/=a} e_ab.
  real(c_double) function symbol(stencil, h, theta)
    integer(c_int), intent(in) :: stencil
    real(c_double), intent(in) :: h(3), theta(3)
    real(c_double) :: e(3, 3), f
    integer :: a, b
    e = 0.0_c_double
    if (stencil == OPSPLIT_STENCIL_19POINT) then
      do a = 1, 3
        do b = 1, 3
          if (a /= b) e(a, b) = (1.0_c_double / h(a)**2 + 1.0_c_double / h(b)**2) / 12.0_c_double
        end do
      end do
    end if
    symbol = 0.0_c_double
    do a = 1, 3
      f = 1.0_c_double / h(a)**2 - 2.0_c_double * sum(e(a, :))
      symbol = symbol + 2.0_c_double * f * (cos(theta(a)) - 1.0_c_double)
      do b = a + 1, 3
        symbol = symbol + 4.0_c_double * e(a, b) * (cos(theta(a)) * cos(theta(b)) - 1.0_c_double)
      end do
    end do
  end function symbol

  ! The largest |symbol| over all modes: it sits at a corner, every cos(theta_a) = +-1.
  real(c_double) function spectral_radius(stencil, h)
    integer(c_int), intent(in) :: stencil
    real(c_double), intent(in) :: h(3)
    integer :: corner, a
    real(c_double) :: theta(3)
    spectral_radius = 0.0_c_double
    do corner = 1, 7
      do a = 1, 3
        theta(a) = merge(pi, 0.0_c_double, btest(corner, a - 1))
      end do
      spectral_radius = max(spectral_radius, -symbol(stencil, h, theta))
    end do
  end function spectral_radius

  ! c(i,j,k) = cos(2 pi kx (i-1)/nx) cos(2 pi ky (j-1)/ny) cos(2 pi kz (k-1)/nz)
  subroutine fourier_mode(k, c)
    integer, intent(in) :: k(3)
    real(c_double), intent(out) :: c(:, :, :)
    integer :: i, j, l, n(3)
    n = shape(c)
    do l = 1, n(3)
      do j = 1, n(2)
        do i = 1, n(1)
          c(i, j, l) = cos(2.0_c_double * pi * real(k(1) * (i - 1), c_double) / real(n(1), c_double)) &
                     * cos(2.0_c_double * pi * real(k(2) * (j - 1), c_double) / real(n(2), c_double)) &
                     * cos(2.0_c_double * pi * real(k(3) * (l - 1), c_double) / real(n(3), c_double))
        end do
      end do
    end do
  end subroutine fourier_mode

  function angles(k, n) result(theta)
    integer, intent(in) :: k(3), n(3)
    real(c_double) :: theta(3)
    theta = 2.0_c_double * pi * real(k, c_double) / real(n, c_double)
  end function angles

  ! 100 steps of dt = 0.9 max_stable_dt of one periodic mode on a 32x24x16 grid (big
  ! enough that G**100 stays well above the 1e-12 tolerance: the mode is really seen).
  subroutine fourier_case(label, stencil, h, k)
    character(len=*), intent(in) :: label
    integer(c_int), intent(in) :: stencil
    real(c_double), intent(in) :: h(3)
    integer, intent(in) :: k(3)
    integer, parameter :: n(3) = [32, 24, 16], nsteps = 100
    real(c_double), parameter :: diffusion = 0.7_c_double
    type(opsplit_field_t) :: field
    type(opsplit_rd_t) :: rd
    real(c_double), allocatable :: c0(:, :, :), c(:, :, :)
    real(c_double) :: dt, limit, g, growth, err
    integer(c_int) :: face
    integer :: taken

    allocate(c0(n(1), n(2), n(3)), c(n(1), n(2), n(3)))
    call fourier_mode(k, c0)
    call field%create(ctx, n(1), n(2), n(3), 1, OPSPLIT_FLOAT64)
    call field%set_spacing(h(1), h(2), h(3))
    call field%upload(c0)
    call rd%create(ctx, 1)
    call rd%set_stencil(stencil)
    call rd%set_steps_per_pass(4)  ! fused passes where the backend can: the same bits as single steps
    call rd%set_diffusion(1, diffusion)
    do face = OPSPLIT_FACE_XLO, OPSPLIT_FACE_ZHI
      call rd%set_boundary(face, 1, OPSPLIT_BC_PERIODIC)
    end do
    limit = rd%max_stable_dt(field)
    call check(abs(limit - 2.0_c_double / (diffusion * spectral_radius(stencil, h))) <= 1e-14_c_double * limit, &
               label // ': max_stable_dt = 2/(D * the largest |symbol|)')
    dt = 0.9_c_double * limit
    call rd%step(field, dt, nsteps)
    taken = rd%steps_per_pass_taken()
    call check(taken >= 1 .and. taken <= 4, label // ': the call took 1 to 4 steps a pass (the binding reads it)')
    c = -1.0_c_double
    call field%download(c)

    g = 1.0_c_double + diffusion * dt * symbol(stencil, h, angles(k, n))
    growth = g**nsteps
    err = maxval(abs(c - c0 * growth)) / maxval(abs(c0))
    print '(a,a,es10.3,a,es10.3)', label, ': G**100 =', growth, ', max error / max amplitude =', err
    call check(err <= 1e-12_c_double, label // ': the mode decays by G**100')
    call check(growth > 1e-7_c_double, label // ': G**100 is far above the tolerance (a real test)')

    call rd%destroy()
    call field%destroy()
  end subroutine fourier_case

  ! Two components; only the second diffuses and only it is periodic: any slip between
  ! the 1-based Fortran and the 0-based C index shows. Upload INTERLEAVED c(ncomp,nx,ny,nz),
  ! download PLANAR c(nx,ny,nz,ncomp).
  subroutine components_and_layouts()
    integer, parameter :: n(3) = [8, 6, 4], nsteps = 10
    integer, parameter :: k(3) = [1, 1, 1]
    real(c_double), parameter :: diffusion = 0.5_c_double
    type(opsplit_field_t) :: field
    type(opsplit_rd_t) :: rd
    real(c_double) :: mode(n(1), n(2), n(3)), second(n(1), n(2), n(3))
    real(c_double) :: interleaved(2, n(1), n(2), n(3)), planar(n(1), n(2), n(3), 2)
    real(c_double) :: dt, growth
    integer(c_int64_t) :: nx, ny, nz
    integer :: mx, my, mz
    integer(c_int) :: ncomp, face

    call fourier_mode(k, mode)
    second = 2.0_c_double + mode  ! a mean that must be kept, plus the mode
    interleaved(1, :, :, :) = 1.0_c_double + 0.25_c_double * mode
    interleaved(2, :, :, :) = second
    call field%create(ctx, int(n(1), c_int64_t), int(n(2), c_int64_t), int(n(3), c_int64_t), 2)
    call field%get_shape(nx, ny, nz, ncomp)
    call check(nx == n(1) .and. ny == n(2) .and. nz == n(3) .and. ncomp == 2, 'get_shape (int64)')
    call field%get_shape(mx, my, mz, ncomp)
    call check(mx == n(1) .and. my == n(2) .and. mz == n(3) .and. ncomp == 2, 'get_shape (default integer)')
    call check(field%precision() == OPSPLIT_FLOAT64, 'precision defaults to FLOAT64')
    call field%upload(interleaved, OPSPLIT_LAYOUT_INTERLEAVED)

    call rd%create(ctx, 2)
    call rd%set_diffusion(2, diffusion)
    do face = OPSPLIT_FACE_XLO, OPSPLIT_FACE_ZHI
      call rd%set_boundary(face, 2, OPSPLIT_BC_PERIODIC)
    end do
    dt = 0.5_c_double * rd%max_stable_dt(field)
    call rd%step(field, dt, int(nsteps, c_int64_t))
    call field%download(planar, OPSPLIT_LAYOUT_PLANAR)

    call check(all(planar(:, :, :, 1) == interleaved(1, :, :, :)), 'component 1 (no diffusion) is unchanged')
    growth = (1.0_c_double + diffusion * dt * symbol(OPSPLIT_STENCIL_7POINT, cubic, angles(k, n)))**nsteps
    call check(maxval(abs(planar(:, :, :, 2) - (2.0_c_double + growth * mode))) <= 1e-12_c_double, &
               'component 2 (periodic, diffusing) decays by G**10 around its mean')
    call check(abs(field%component_sum(2) - sum(planar(:, :, :, 2))) <= 1e-12_c_double * sum(planar(:, :, :, 2)), &
               'component_sum(2) is the sum of component 2')
    call check(abs(field%component_sum(1) - sum(planar(:, :, :, 1))) <= 1e-12_c_double * sum(planar(:, :, :, 1)), &
               'component_sum(1) is the sum of component 1')

    call rd%destroy()
    call field%destroy()
  end subroutine components_and_layouts

  subroutine float32_field()
    type(opsplit_field_t) :: field
    real(c_float) :: values(60), back(5, 4, 3)
    real(c_double) :: wrong(60)
    integer :: i, status
    values = [(real(i, c_float) * 0.5_c_float, i = 1, 60)]
    call field%create(ctx, 5, 4, 3, 1, OPSPLIT_FLOAT32)
    call check(field%precision() == OPSPLIT_FLOAT32, 'a FLOAT32 field says so')
    call field%upload(values)
    call field%download(back)
    call check(all(reshape(back, [60]) == values), 'FLOAT32 upload (rank 1) / download (rank 3) round trip')
    call check(abs(field%component_sum(1) - 915.0_c_double) <= 1e-12_c_double, 'FLOAT32 component_sum')
    wrong = 1.0_c_double
    call field%upload(wrong, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a real(c_double) array for a FLOAT32 field is refused')
    call check(index(opsplit_last_error(), 'FLOAT32') > 0, 'the message names the field''s precision')
    call field%download(back)
    call check(all(reshape(back, [60]) == values), 'the refused upload changed nothing')
    call field%destroy()
  end subroutine float32_field

  subroutine errors_through_stat()
    integer, parameter :: n(3) = [8, 6, 4]
    type(opsplit_field_t) :: field, other
    type(opsplit_rd_t) :: rd
    type(opsplit_context_t) :: extra
    real(c_double) :: c0(n(1), n(2), n(3)), c(n(1), n(2), n(3)), flat(n(1) * n(2), n(3))
    real(c_double) :: too_small(n(1), n(2), n(3) - 1)
    real(c_float) :: single(n(1), n(2), n(3))
    real(c_double) :: limit, s, growth
    integer :: status
    integer(c_int) :: face
    character(len=:), allocatable :: message

    call check(opsplit_status_text(OPSPLIT_ERROR_INVALID_ARGUMENT) == 'OPSPLIT_ERROR_INVALID_ARGUMENT', &
               'opsplit_status_text')
    call fourier_mode([1, 2, 1], c0)
    call field%create(ctx, n(1), n(2), n(3), 1, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'field create with stat')
    call field%upload(c0, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. opsplit_last_error() == '', 'success leaves an empty message')
    call rd%create(ctx, 1, stat=status)
    call rd%set_diffusion(1, 1.0_c_double, stat=status)
    do face = OPSPLIT_FACE_XLO, OPSPLIT_FACE_ZHI
      call rd%set_boundary(face, 1, OPSPLIT_BC_PERIODIC, 0.0_c_double, stat=status)
    end do
    limit = rd%max_stable_dt(field, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. limit > 0.0_c_double, 'max_stable_dt with stat')

    ! dt above the limit: refused, the field unchanged.
    call rd%step(field, 1.5_c_double * limit, 5, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'dt above max_stable_dt gives INVALID_ARGUMENT')
    message = opsplit_last_error()
    call check(index(message, 'exceeds') > 0, 'its message says the dt exceeds the limit: ' // message)
    call field%download(c)
    call check(all(c == c0), 'the refused step left the field as it was')

    ! A Fortran-side failure after a C one reports itself, not the C message.
    call rd%step(field, 1.5_c_double * limit, 5, stat=status)
    call rd%set_diffusion(0, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_diffusion refuses comp=0 (1-based)')
    message = opsplit_last_error()
    call check(index(message, 'comp=0') > 0 .and. index(message, 'exceeds') == 0, &
               'its message is the Fortran one: ' // message)
    call rd%set_diffusion(2, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_diffusion refuses comp=2 of 1')
    call rd%set_boundary(OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_NOFLUX, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_boundary refuses comp=0')
    s = field%component_sum(0, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. ieee_is_nan(s), &
               'component_sum refuses comp=0 (NaN result)')
    ! ... and a C failure after a Fortran-side one reports the C message.
    call rd%set_stencil(5, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. &
               index(opsplit_last_error(), 'opsplit_rd_set_stencil') > 0, 'a bad stencil is refused by C')
    call rd%set_steps_per_pass(0, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. &
               index(opsplit_last_error(), 'is not in [1, 16]') > 0, 'steps per pass 0 is refused by C')

    ! Arrays of the wrong kind or size.
    single = 1.0_c_float
    call field%upload(single, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a real(c_float) array for a FLOAT64 field is refused')
    message = opsplit_last_error()
    call check(index(message, 'opsplit_field_t%upload') > 0 .and. index(message, 'FLOAT64') > 0, &
               'its message: ' // message)
    call field%download(too_small, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), '192') > 0, &
               'a download array of the wrong size is refused: ' // opsplit_last_error())
    call field%upload(c0(:, :, 1:n(3) - 1), stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'an upload array of the wrong size is refused')
    call field%upload(c0, 7, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'layout') > 0, &
               'a bad layout is refused')

    ! Objects and contexts.
    call field%create(ctx, 2, 2, 2, 1, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'create on a field that holds a handle is refused')
    call extra%create(OPSPLIT_BACKEND_CPU, stat=status)
    call other%create(extra, 4, 1, 1, 1, stat=status)
    call extra%destroy(stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. extra%created(), &
               'destroying a context with a live field is refused')
    call other%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS .and. .not. other%created(), 'field destroy')
    call other%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS .and. .not. other%created(), 'field destroy twice is fine')
    call other%destroy()
    call other%set_spacing(1.0_c_double, 1.0_c_double, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'a destroyed field gives INVALID_HANDLE')
    call extra%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS, 'then the context goes')
    call extra%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS, 'context destroy twice is fine')

    ! The field still works after all that: a rank-2 upload, 10 good steps.
    flat = reshape(c0, shape(flat))
    call field%upload(flat, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'the field still takes uploads')
    call rd%step(field, 0.5_c_double * limit, 10, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'and steps')
    call field%download(c, stat=status)
    growth = (1.0_c_double + 0.5_c_double * limit * symbol(OPSPLIT_STENCIL_7POINT, cubic, angles([1, 2, 1], n)))**10
    call check(maxval(abs(c - growth * c0)) <= 1e-12_c_double, 'and steps right')

    call rd%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS, 'rd destroy')
    call rd%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS .and. .not. rd%created(), 'rd destroy twice is fine')
    call rd%set_diffusion(0, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'a destroyed rd gives INVALID_HANDLE')
    call field%destroy()
    call field%destroy()
  end subroutine errors_through_stat

  ! A callback that cancels on its third call stops a 100-step call with CANCELLED.
  subroutine progress_cancels()
    type(opsplit_field_t) :: field
    type(opsplit_rd_t) :: rd
    type(progress_record), target :: record
    real(c_double) :: c(16)
    integer :: i, status
    c = [(real(i, c_double), i = 1, 16)]
    call field%create(ctx, 16, 1, 1, 1)
    call field%upload(c)
    call rd%create(ctx, 1)
    call rd%set_diffusion(1, 1.0_c_double)
    call ctx%set_progress_callback(c_funloc(count_and_cancel), c_loc(record))
    call rd%step(field, 0.25_c_double, 100, stat=status)
    call check(status == OPSPLIT_ERROR_CANCELLED, 'a callback returning 1 cancels the step')
    call check(record%calls == 3 .and. record%names_step, 'the callback ran 3 times, named opsplit_rd_step')
    call check(index(opsplit_last_error(), 'cancelled') > 0, 'the message says so: ' // opsplit_last_error())
    call check(abs(field%component_sum(1) - 136.0_c_double) <= 1e-12_c_double, 'no-flux sum kept when cancelled')
    call ctx%set_progress_callback(c_null_funptr)
    call rd%step(field, 0.25_c_double, 10, stat=status)
    call check(status == OPSPLIT_SUCCESS .and. record%calls == 3, 'a removed callback is not called')
    call rd%destroy()
    call field%destroy()
  end subroutine progress_cancels

end program test_fourier
