! A Fortran host code using an installed opsplit: 10 steps of 1D no-flux diffusion on
! 8 cells through the module's derived types; the sum must be conserved.
program consumer
  use opsplit
  implicit none
  type(opsplit_context_t) :: ctx
  type(opsplit_field_t) :: field
  type(opsplit_rd_t) :: rd
  real(c_double) :: c(8), initial(8), before, after, downloaded
  integer :: i

  c = [(real(i * i, c_double), i = 1, 8)]
  initial = c
  before = sum(c)

  call ctx%create(OPSPLIT_BACKEND_CPU)
  call field%create(ctx, 8, 1, 1, 1)
  call field%upload(c)
  call rd%create(ctx, 1)                      ! NOFLUX on every face by default
  call rd%set_diffusion(1, 1.0_c_double)
  call rd%step(field, 0.5_c_double * rd%max_stable_dt(field), 10)
  after = field%component_sum(1)
  call field%download(c)
  downloaded = sum(c)
  call rd%destroy()
  call field%destroy()
  call ctx%destroy()

  if (abs(after - before) > 1e-13_c_double * abs(before) .or. &
      abs(downloaded - before) > 1e-13_c_double * abs(before)) then
    print '(a,3es24.16)', 'fortran consumer: the sum is not conserved:', before, after, downloaded
    error stop 1
  end if
  if (c(1) <= initial(1) .or. c(8) >= initial(8)) then  ! the ends move toward the mean
    print '(a,8es12.4)', 'fortran consumer: the field did not diffuse:', c
    error stop 1
  end if
  print '(a)', 'fortran consumer ok'
end program consumer
