! The README's Fortran example: 100 steps of 3D diffusion of a point source.
program hello
  use opsplit
  implicit none
  type(opsplit_context_t) :: ctx
  type(opsplit_field_t) :: f
  type(opsplit_rd_t) :: rd
  real(c_double) :: c(32, 32, 32) = 0
  c(17, 17, 17) = 1                              ! 1-based: the same cell as C's c[16][16][16]
  call ctx%create()                              ! AUTO: CUDA if there is a GPU; errors stop with a message
  call f%create(ctx, 32, 32, 32, 1)
  call f%upload(c)
  call rd%create(ctx, 1)
  call rd%set_diffusion(1, 1.0_c_double)         ! component 1
  call rd%step(f, 0.9_c_double * rd%max_stable_dt(f), 100)
  call f%download(c)
  print '(a, f8.6, a, f18.15)', 'centre ', c(17, 17, 17), ', total ', f%component_sum(1)
  call rd%destroy(); call f%destroy(); call ctx%destroy()
end program hello
