! The seed 000 problems (Molnar et al. 2011, Table 1) and seed 003's 3D Cahn-Hilliard
! from Fortran, through the opsplit module, writing PNG pictures of the middle z-plane
! with the examples' C helper png_slice_write (libpng).
!
!   seed_problems_fortran PROBLEM [N [STEPS]]
!   PROBLEM: diffusion | turing | precipitation | advection | cahn_hilliard
! N^3 cells (default 64), STEPS steps (default 2000), 4 pictures <problem>_f_<step>.png.
program seed_problems_fortran
  use opsplit
  use png_slice, only: png_slice_write
  implicit none


  character(len=32) :: problem, arg
  integer :: n = 64, steps = 2000, frame, ncomp, shown, done, target
  real(c_double) :: h, dt, lo, hi, s
  real(c_double), allocatable :: c(:, :, :, :), noise(:, :, :, :)
  character(len=64) :: path
  type(opsplit_context_t) :: ctx
  type(opsplit_field_t) :: field
  type(opsplit_rd_t) :: rd

  if (command_argument_count() < 1) stop 'usage: seed_problems_fortran PROBLEM [N [STEPS]]'
  call get_command_argument(1, problem)
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *) n
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg)
    read (arg, *) steps
  end if

  select case (trim(problem))
  case ('turing')
    ncomp = 2
  case ('precipitation')
    ncomp = 3
  case ('diffusion', 'advection', 'cahn_hilliard')
    ncomp = 1
  case default
    stop 'PROBLEM: diffusion | turing | precipitation | advection | cahn_hilliard'
  end select
  shown = merge(3, 1, problem == 'precipitation')
  allocate(c(n, n, n, ncomp), noise(n, n, n, ncomp))
  call random_number(noise)
  noise = 2 * noise - 1

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call rd%create(ctx, ncomp)
  call rd%set_stencil(OPSPLIT_STENCIL_19POINT)
  h = 1.0_c_double
  dt = 0.02_c_double
  lo = 0.0_c_double
  hi = 0.0_c_double  ! lo == hi: each picture's own range
  select case (trim(problem))
  case ('diffusion')
    call rd%set_diffusion(1, 1.0_c_double)
    call sphere(c(:, :, :, 1), 20.0_c_double)
  case ('turing')
    h = 6.2e-3_c_double
    dt = 5e-4_c_double
    call rd%set_reaction(OPSPLIT_REACTION_TURING)
    call rd%set_diffusion(1, 5e-5_c_double)
    call rd%set_diffusion(2, 5e-3_c_double)
    c = 1 + 5e-4_c_double * noise
  case ('precipitation')
    call rd%set_reaction(OPSPLIT_REACTION_PRECIPITATION)
    call rd%set_diffusion(1, 1.0_c_double)
    call rd%set_diffusion(2, 1.0_c_double)
    call rd%set_boundary(OPSPLIT_FACE_XLO, 1, OPSPLIT_BC_DIRICHLET, 10.0_c_double)
    c(:, :, :, 1) = 0
    c(:, :, :, 2) = 1
    c(:, :, :, 3) = -1
  case ('advection')
    h = 100.0_c_double
    dt = 5.0_c_double
    call rd%set_diffusion(1, 100.0_c_double)
    call rd%set_velocity(1, 5.0_c_double)
    call rd%set_velocity(2, 1.0_c_double)
    call rd%set_velocity(3, 0.0_c_double, amplitude=5.0_c_double, angular_frequency=1.0_c_double / 500)
    call rd%add_source(1, n / 8, n / 2, n / 2, 10.0_c_double)
    c = 0
  case ('cahn_hilliard')
    call rd%set_cahn_hilliard(1, 1.0_c_double, 1.0_c_double, 1.0_c_double, 1.0_c_double)
    c = 0.1_c_double * noise
  end select
  call field%create(ctx, n, n, n, ncomp, OPSPLIT_FLOAT64)
  call field%set_spacing(h, h, h)
  call field%upload(c)
  if (problem == 'cahn_hilliard') dt = 0.9_c_double * rd%max_stable_dt(field)

  done = 0
  do frame = 0, 4
    target = steps * frame / 4
    if (target > done) call rd%step(field, dt, target - done)
    done = target
    call field%download(c)
    s = field%component_sum(shown)
    write (path, '(a,a,i0,a)') trim(problem), '_f_', target, '.png'
    if (png_slice_write(trim(path) // c_null_char, c(:, :, n / 2, shown), int(n, c_int), int(n, c_int), &
                        lo, hi) /= 0) stop 'png_slice_write failed'
    print '(a,i8,a,es14.6,a,a)', 'step ', target, '  sum ', s, '  ', trim(path)
  end do

  call rd%destroy()
  call field%destroy()
  call ctx%destroy()
  deallocate(c, noise)  ! a main program's allocatables are not freed for it

contains

  subroutine sphere(v, r)
    real(c_double), intent(out) :: v(:, :, :)
    real(c_double), intent(in) :: r
    integer :: i, j, k
    real(c_double) :: m
    m = (size(v, 1) + 1) / 2.0_c_double
    do k = 1, size(v, 3)
      do j = 1, size(v, 2)
        do i = 1, size(v, 1)
          v(i, j, k) = merge(1.0_c_double, 0.0_c_double, (i - m)**2 + (j - m)**2 + (k - m)**2 <= r * r)
        end do
      end do
    end do
  end subroutine sphere

end program seed_problems_fortran
