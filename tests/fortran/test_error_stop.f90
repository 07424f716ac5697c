! Without stat, a failed call writes "opsplit: <message>" to error_unit and stops the
! program with error stop. CTest expects that message and a non-zero exit.
program test_error_stop
  use opsplit
  implicit none
  type(opsplit_context_t) :: ctx
  type(opsplit_field_t) :: field
  type(opsplit_rd_t) :: rd
  real(c_double) :: limit

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  call field%create(ctx, 8, 1, 1, 1)
  call rd%create(ctx, 1)
  call rd%set_diffusion(1, 1.0_c_double)
  limit = rd%max_stable_dt(field)
  call rd%step(field, 2.0_c_double * limit, 1)  ! no stat: must stop here
  print '(a)', 'continued after a failed call'
  call rd%destroy()
  call field%destroy()
  call ctx%destroy()
end program test_error_stop
