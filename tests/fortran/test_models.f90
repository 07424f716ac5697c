! Fortran tests of the model terms through opsplit_rd_t: every new type-bound procedure
! is called with 1-based indices and its effect checked against an exact result
! (an Euler recurrence, an emission budget, a conservation law, an energy formula),
! and bad 1-based indices come back through stat. OPSPLIT_BACKEND picks the backend.
program test_models
  use opsplit
  use test_checks
  use, intrinsic :: ieee_arithmetic, only: ieee_is_nan
  implicit none

  integer, parameter :: nx = 8, ny = 6, nz = 4
  type(opsplit_context_t) :: ctx

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call linear_terms_and_clock()
  call emission_with_wind()
  call cahn_hilliard_energy_and_mass()
  call reaction_parameters_and_conservation()
  call errors_through_stat()
  call ctx%destroy()

  call report_checks()

contains

  ! Uniform fields: diffusion does nothing, so component 1 decays as (1 + rate dt)^n and
  ! component 2 grows by source * t.
  subroutine linear_terms_and_clock()
    type(opsplit_field_t) :: f
    type(opsplit_rd_t) :: rd
    real(c_double) :: c(nx, ny, nz, 2), dt1
    call f%create(ctx, nx, ny, nz, 2, OPSPLIT_FLOAT64)
    call rd%create(ctx, 2)
    call rd%set_diffusion(1, 0.1_c_double)
    call rd%set_linear(1, -0.5_c_double, 0.0_c_double)
    call rd%set_linear(2, 0.0_c_double, 3.0_c_double)
    call rd%set_time(1.0_c_double)
    c = 1.0_c_double
    call f%upload(c)
    call rd%step(f, 0.1_c_double, 10)
    call f%download(c)
    call check(maxval(abs(c(:, :, :, 1) - 0.95_c_double**10)) < 1e-14_c_double, 'linear decay')
    call check(maxval(abs(c(:, :, :, 2) - 4.0_c_double)) < 1e-14_c_double, 'linear source')
    call check(abs(rd%time() - 2.0_c_double) < 1e-14_c_double, 'the clock advanced by 10 steps of 0.1')
    ! Retardation divides the transport: the stable dt doubles with R = 2; immobile: no limit.
    dt1 = rd%max_stable_dt(f)
    call rd%set_retardation(1, 2.0_c_double)
    call check(abs(rd%max_stable_dt(f) - 2 * dt1) < 1e-14_c_double * dt1, 'R = 2 doubles the stable dt')
    call rd%set_mobile(1, .false.)
    call check(rd%max_stable_dt(f) > huge(dt1), 'nothing moves: no limit')
    call rd%destroy()
    call f%destroy()
  end subroutine linear_terms_and_clock

  ! Periodic faces: the sum grows by exactly rate * t whatever the wind does; a shear
  ! wind (u_x varies with y only) has zero divergence, so a constant component stays.
  subroutine emission_with_wind()
    type(opsplit_field_t) :: f, wind
    type(opsplit_rd_t) :: rd
    real(c_double) :: c(nx, ny, nz, 2), w(nx, ny, nz, 3), lo, hi, before, after, dt
    integer :: j, face
    call f%create(ctx, nx, ny, nz, 2, OPSPLIT_FLOAT64)
    call wind%create(ctx, nx, ny, nz, 3, OPSPLIT_FLOAT64)
    call rd%create(ctx, 2)
    do face = OPSPLIT_FACE_XLO, OPSPLIT_FACE_ZHI
      call rd%set_boundary(face, 1, OPSPLIT_BC_PERIODIC)
      call rd%set_boundary(face, 2, OPSPLIT_BC_PERIODIC)
    end do
    w = 0.0_c_double
    do j = 1, ny
      w(:, j, :, 1) = 0.4_c_double * sin(6.283185307179586_c_double * j / ny)
    end do
    call wind%upload(w)
    call rd%set_velocity_field(wind)
    call rd%set_velocity(3, 0.1_c_double, amplitude=0.2_c_double, angular_frequency=0.5_c_double)
    call rd%set_diffusion(1, 0.05_c_double)
    call rd%add_source(1, 2, 3, 4, 1.5_c_double)
    c(:, :, :, 1) = 0.0_c_double
    c(:, :, :, 2) = 0.625_c_double
    call f%upload(c)
    before = f%component_sum(1)
    dt = rd%max_stable_dt(f)
    call rd%step(f, dt, 50)
    after = f%component_sum(1)
    call check(abs(after - before - 1.5_c_double * 50 * dt) < 1e-12_c_double, 'emission budget')
    call f%component_min_max(2, lo, hi)
    call check(abs(lo - 0.625_c_double) < 1e-15_c_double .and. abs(hi - 0.625_c_double) < 1e-15_c_double, &
               'a constant stays constant in a divergence-free wind')
    call f%download(c)
    call check(c(2, 3, 4, 1) > 0.0_c_double, 'the source cell is (2,3,4), 1-based')
    call rd%clear_velocity_field()
    call rd%clear_sources()
    before = f%component_sum(1)
    call rd%step(f, dt, 5)
    call check(abs(f%component_sum(1) - before) < 1e-12_c_double, 'no sources after clear_sources')
    call rd%destroy()
    call wind%destroy()
    call f%destroy()
  end subroutine emission_with_wind

  subroutine cahn_hilliard_energy_and_mass()
    type(opsplit_field_t) :: f
    type(opsplit_rd_t) :: rd
    real(c_double) :: c(nx, ny, nz), e0, e1, m0
    integer :: i
    call f%create(ctx, nx, ny, nz, 1, OPSPLIT_FLOAT64)
    call rd%create(ctx, 1)
    call rd%set_cahn_hilliard(1, 1.0_c_double, 1.0_c_double, 1.0_c_double, 0.5_c_double)
    c = 0.3_c_double
    call f%upload(c)
    ! Uniform: cells * (-b/2 phi^2 + u/4 phi^4).
    e0 = rd%free_energy(f, 1)
    call check(abs(e0 - nx * ny * nz * (-0.045_c_double + 0.25_c_double * 0.3_c_double**4)) < 1e-12_c_double, &
               'free energy of a uniform state')
    do i = 1, nx
      c(i, :, :) = 0.3_c_double + 0.05_c_double * cos(0.9_c_double * i)
    end do
    call f%upload(c)
    m0 = f%component_sum(1)
    e0 = rd%free_energy(f, 1)
    call rd%step(f, 0.5_c_double * rd%max_stable_dt(f), 200)
    e1 = rd%free_energy(f, 1)
    call check(e1 < e0, 'the free energy fell')
    call check(abs(f%component_sum(1) - m0) < 1e-12_c_double, 'mass is conserved')
    call rd%destroy()
    call f%destroy()
  end subroutine cahn_hilliard_energy_and_mass

  ! Gray-Scott with F = k = 0 moves mass from u to v only: sum(u) + sum(v) is conserved.
  subroutine reaction_parameters_and_conservation()
    type(opsplit_field_t) :: f
    type(opsplit_rd_t) :: rd
    real(c_double) :: c(nx, ny, nz, 2), s0
    call f%create(ctx, nx, ny, nz, 2, OPSPLIT_FLOAT64)
    call rd%create(ctx, 2)
    call rd%set_reaction(OPSPLIT_REACTION_TURING)
    call check(rd%reaction_parameter('gamma') == 26.0_c_double, 'TURING gamma defaults to the seed''s 26')
    call rd%set_reaction(OPSPLIT_REACTION_GRAY_SCOTT)
    call rd%set_reaction_parameter('F', 0.0_c_double)
    call rd%set_reaction_parameter('k', 0.0_c_double)
    call check(rd%reaction_parameter('F') == 0.0_c_double, 'F was set')
    call rd%set_diffusion(1, 0.2_c_double)
    call rd%set_diffusion(2, 0.1_c_double)
    call random_number(c)
    call f%upload(c)
    s0 = f%component_sum(1) + f%component_sum(2)
    call rd%step(f, 0.5_c_double, 40)
    call check(abs(f%component_sum(1) + f%component_sum(2) - s0) < 1e-11_c_double, 'u + v conserved')
    call check(abs(f%component_sum(2) - sum(c(:, :, :, 2))) > 1e-3_c_double, 'the reaction ran')
    call rd%destroy()
    call f%destroy()
  end subroutine reaction_parameters_and_conservation

  subroutine errors_through_stat()
    type(opsplit_field_t) :: f, never
    type(opsplit_rd_t) :: rd
    real(c_double) :: lo, hi, v
    integer :: stat
    call f%create(ctx, nx, ny, nz, 2, OPSPLIT_FLOAT64)
    call rd%create(ctx, 2)
    call rd%set_linear(3, 1.0_c_double, 0.0_c_double, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'comp=3') > 0, &
               'set_linear comp 3 of 2')
    call rd%set_retardation(1, 0.0_c_double, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'factor=0') > 0, &
               'retardation 0 is refused')
    call rd%set_mobile(3, .false., stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_mobile comp 3 of 2')
    call rd%set_cahn_hilliard(0, 1.0_c_double, 1.0_c_double, 1.0_c_double, 1.0_c_double, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), '1-based') > 0, &
               'set_cahn_hilliard comp 0')
    call rd%set_velocity(4, 1.0_c_double, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'axis=4') > 0, &
               'set_velocity axis 4')
    call rd%set_velocity_field(never, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_HANDLE, 'set_velocity_field with a field never created')
    call rd%set_velocity_field(f, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'ncomp=2') > 0, &
               'set_velocity_field with 2 components')
    call rd%add_source(1, 0, 1, 1, 1.0_c_double, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), 'negative') > 0, &
               'add_source at i = 0 (1-based)')
    v = rd%reaction_parameter('gamma', stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. ieee_is_nan(v), 'LINEAR has no gamma')
    call rd%set_reaction_parameter('gamma', 1.0_c_double, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. index(opsplit_last_error(), '"gamma"') > 0, &
               'set_reaction_parameter of an unknown name')
    v = rd%free_energy(f, 1, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. ieee_is_nan(v), 'free energy without Cahn-Hilliard')
    call f%component_min_max(3, lo, hi, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT .and. ieee_is_nan(lo), 'component_min_max comp 3 of 2')
    call rd%set_reaction(7, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_reaction 7')
    call rd%destroy()
    call f%destroy()
  end subroutine errors_through_stat

end program test_models
