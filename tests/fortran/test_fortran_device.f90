! Fortran tests of the device forms (docs/API.md, "Hosts on the GPU") through the type-bound
! procedures that take a device address as type(c_ptr), as a CUDA Fortran or OpenACC host
! gives it. On a CPU context every one of them is refused with OPSPLIT_ERROR_UNSUPPORTED
! naming the host form, before its other arguments. On a CUDA context (the arrays from
! cudaMalloc, bound here as a plain C function): a field, an ODE batch's states, a PCPD
! replica, LIFE cells and lava substates go in through the device forms and come back
! through the host forms unchanged, and the other way round; a lava grid stepped from
! device arrays gives the host path's bits; a host array given to a device form is
! INVALID_ARGUMENT. Runs on the backend OPSPLIT_BACKEND names.
! Fixed-size arrays only: the sanitizer build's leak check counts the main program's
! allocatables, which the runtime never frees.
program test_fortran_device
  use opsplit
  use test_checks
  implicit none
  interface
    integer(c_int) function cudaMalloc(pointer, bytes) bind(C, name='cudaMalloc')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: pointer
      integer(c_size_t), value :: bytes
    end function cudaMalloc
    integer(c_int) function cudaFree(pointer) bind(C, name='cudaFree')
      import :: c_int, c_ptr
      type(c_ptr), value :: pointer
    end function cudaFree
    integer(c_int) function cudaMemcpy(to, from, bytes, kind) bind(C, name='cudaMemcpy')
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: to, from
      integer(c_size_t), value :: bytes
      integer(c_int), value :: kind
    end function cudaMemcpy
  end interface
  integer(c_int), parameter :: to_device = 1, to_host = 2  ! cudaMemcpyHostToDevice, DeviceToHost
  integer, parameter :: lr = 12, lc = 17                   ! the lava grid: not square, so that a transposed layout shows
  integer, parameter :: nsys = 6, neq = 3, sites_n = 8192  ! the device array: sites_n bytes, the largest

  type(opsplit_context_t) :: ctx
  type(c_ptr) :: device
  real(c_double), target :: altitude(lr, lc), thickness(lr, lc), temperature(lr, lc), back(lr, lc), want(lr, lc)
  real(c_double), target :: y(nsys, neq), y_back(nsys, neq), y_aos(neq, nsys), values(5, 4, 3), values_back(5, 4, 3)
  integer(c_int8_t), target :: cells(9, 11), cells_back(9, 11), sites(sites_n), sites_back(sites_n)
  integer :: r, c, stat

  call ctx%create(OPSPLIT_BACKEND_AUTO)
  do c = 1, lc
    do r = 1, lr
      altitude(r, c) = 900.0_c_double - 3.0_c_double * r + 0.25_c_double * mod(c, 5)
      thickness(r, c) = merge(1.5_c_double + 0.1_c_double * c, 0.0_c_double, r >= 3 .and. r <= 6 .and. c >= 5 .and. c <= 9)
      temperature(r, c) = merge(1360.0_c_double, 0.0_c_double, thickness(r, c) > 0.0_c_double)
    end do
  end do
  y = reshape([(0.125_c_double * r, r = 1, nsys * neq)], [nsys, neq])
  values = reshape([(0.5_c_double * r, r = 1, 60)], [5, 4, 3])
  cells = 0_c_int8_t
  cells(4:6, 5) = 1_c_int8_t
  cells(8, 8:10) = 1_c_int8_t
  sites = 0_c_int8_t
  sites(1:sites_n:7) = 1_c_int8_t

  if (ctx%cuda_device() < 0) then
    call refused_on_the_cpu()
  else
    call check(cudaMalloc(device, int(sites_n, c_size_t)) == 0, 'cudaMalloc')
    call round_trips()
    call lava_from_device_arrays(OPSPLIT_CA_SCIARA_FV2)
    call lava_from_device_arrays(OPSPLIT_CA_SCIARA_FV3)
    call check(cudaFree(device) == 0, 'cudaFree')
  end if
  call ctx%destroy()
  call report_checks()

contains

  ! UNSUPPORTED naming the host form, whatever the address (here a host array's).
  subroutine expect_unsupported(stat, host_form)
    integer, intent(in) :: stat
    character(len=*), intent(in) :: host_form
    call check(stat == OPSPLIT_ERROR_UNSUPPORTED, host_form // '_device on a CPU context: UNSUPPORTED')
    call check(index(opsplit_last_error(), 'use ' // host_form) > 0, host_form // '_device: the message names it')
  end subroutine expect_unsupported

  subroutine refused_on_the_cpu()
    type(opsplit_field_t) :: field
    type(opsplit_ode_t) :: ode
    type(opsplit_pcpd_t) :: pcpd
    type(opsplit_ca_t) :: life, flow
    call field%create(ctx, 5, 4, 3, 1)
    call field%upload_device(c_loc(values), OPSPLIT_LAYOUT_PLANAR, stat=stat)
    call expect_unsupported(stat, 'opsplit_field_upload')
    call field%download_device(c_null_ptr, OPSPLIT_LAYOUT_PLANAR, stat=stat)
    call expect_unsupported(stat, 'opsplit_field_download')
    call ode%create(ctx, neq, nsys, 1_c_int)
    call ode%set_state_device(c_loc(y), OPSPLIT_ODE_SOA, stat=stat)
    call expect_unsupported(stat, 'opsplit_ode_set_state')
    call ode%get_state_device(c_loc(y), OPSPLIT_ODE_SOA, stat=stat)
    call expect_unsupported(stat, 'opsplit_ode_get_state')
    call ode%set_parameters_device(c_loc(y), OPSPLIT_ODE_SOA, stat=stat)
    call expect_unsupported(stat, 'opsplit_ode_set_parameters')
    call ode%get_parameters_device(c_loc(y), OPSPLIT_ODE_SOA, stat=stat)
    call expect_unsupported(stat, 'opsplit_ode_get_parameters')
    call ode%wrap_state_device(c_loc(y), stat=stat)
    call expect_unsupported(stat, 'opsplit_ode_set_state')
    call ode%wrap_parameters_device(c_loc(y), stat=stat)
    call expect_unsupported(stat, 'opsplit_ode_set_parameters')
    call ode%results_device(result=c_loc(y), stat=stat)
    call expect_unsupported(stat, 'opsplit_ode_get_results')
    call pcpd%create(ctx, OPSPLIT_PCPD_MULTISPIN, sites_n, 2)
    call pcpd%set_lattice_device(1, c_loc(sites), stat=stat)
    call expect_unsupported(stat, 'opsplit_pcpd_set_lattice')
    call pcpd%get_lattice_device(1, c_loc(sites), stat=stat)
    call expect_unsupported(stat, 'opsplit_pcpd_get_lattice')
    call life%create(ctx, OPSPLIT_CA_LIFE, 9, 11)
    call life%set_cells_device(c_loc(cells), stat=stat)
    call expect_unsupported(stat, 'opsplit_ca_set_cells')
    call life%get_cells_device(c_loc(cells), stat=stat)
    call expect_unsupported(stat, 'opsplit_ca_get_cells')
    call flow%create(ctx, OPSPLIT_CA_SCIARA_FV2, lr, lc)
    call flow%set_substate_device('altitude', c_loc(altitude), stat=stat)
    call expect_unsupported(stat, 'opsplit_ca_set_substate')
    call flow%get_substate_device('no_such_substate', c_null_ptr, stat=stat)  ! refused before its name
    call expect_unsupported(stat, 'opsplit_ca_get_substate')
    call flow%get_substate('altitude', back)
    call check(all(back == 0.0_c_double), 'a refused device form changed nothing')
    call flow%destroy()
    call life%destroy()
    call pcpd%destroy()
    call ode%destroy()
    call field%destroy()
  end subroutine refused_on_the_cpu

  ! In through a device form, out through the host form, and the other way round.
  subroutine round_trips()
    type(opsplit_field_t) :: field
    type(opsplit_ode_t) :: ode
    type(opsplit_pcpd_t) :: pcpd
    type(opsplit_ca_t) :: life
    call field%create(ctx, 5, 4, 3, 1)
    call put(c_loc(values), 8 * 60)
    call field%upload_device(device, OPSPLIT_LAYOUT_PLANAR)
    call field%download(values_back)
    call check(all(values_back == values), 'field: upload_device, download')
    call field%upload(2.0_c_double * values)
    call field%download_device(device, OPSPLIT_LAYOUT_PLANAR)
    call take(c_loc(values_back), 8 * 60)
    call check(all(values_back == 2.0_c_double * values), 'field: upload, download_device')

    call ode%create(ctx, neq, nsys)
    call put(c_loc(y), 8 * nsys * neq)
    call ode%set_state_device(device, OPSPLIT_ODE_SOA)
    call ode%get_state(y_back, OPSPLIT_ODE_SOA)
    call check(all(y_back == y), 'ODE: set_state_device (SOA), get_state')
    y_aos = transpose(y) + 1.0_c_double  ! (gfortran 12 passes transpose(y) + 1 with the shape of y)
    call ode%set_state(y_aos)           ! AOS: y(neq, nsys)
    call ode%get_state_device(device, OPSPLIT_ODE_SOA)
    call take(c_loc(y_back), 8 * nsys * neq)
    call check(all(y_back == y + 1.0_c_double), 'ODE: set_state (AOS), get_state_device (SOA)')
    call ode%wrap_state_device(device)
    call ode%get_state(y_back, OPSPLIT_ODE_SOA)
    call check(all(y_back == y + 1.0_c_double), 'ODE: a wrapped array is the state')
    call ode%wrap_state_device(c_null_ptr)

    call pcpd%create(ctx, OPSPLIT_PCPD_MULTISPIN, sites_n, 2)
    call put(c_loc(sites), sites_n)
    call pcpd%set_lattice_device(2, device)
    call pcpd%get_lattice(2, sites_back)
    call check(all(sites_back == sites), 'PCPD: set_lattice_device, get_lattice (replica 2)')
    call pcpd%set_lattice(1, 1_c_int8_t - sites)
    call pcpd%get_lattice_device(1, device)
    call take(c_loc(sites_back), sites_n)
    call check(all(sites_back == 1_c_int8_t - sites), 'PCPD: set_lattice, get_lattice_device (replica 1)')

    call life%create(ctx, OPSPLIT_CA_LIFE, 9, 11)
    call put(c_loc(cells), 99)
    call life%set_cells_device(device)
    call life%get_cells(cells_back)
    call check(all(cells_back == cells), 'LIFE: set_cells_device, get_cells')
    call life%step(1)
    call life%get_cells_device(device)
    call take(c_loc(cells_back), 99)
    call check(all(cells_back(5, 4:6) == 1_c_int8_t) .and. all(cells_back(7:9, 9) == 1_c_int8_t) .and. &
               count(cells_back == 1_c_int8_t) == 6, 'LIFE: both blinkers turned, read from the device')
    call life%set_cells_device(c_loc(cells), stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'LIFE: a host array to set_cells_device')
    call check(index(opsplit_last_error(), 'cells is host memory') > 0, 'its message')
    call life%destroy()
    call pcpd%destroy()
    call ode%destroy()
    call field%destroy()
  end subroutine round_trips

  ! A lava grid set from device arrays and stepped: the host path's bits, and a bad
  ! value refused as set_substate refuses it.
  subroutine lava_from_device_arrays(model)
    integer(c_int), intent(in) :: model
    type(opsplit_ca_t) :: host_path, device_path
    character(len=11), parameter :: names(3) = [character(len=11) :: 'altitude', 'thickness', 'temperature']
    integer :: k
    call host_path%create(ctx, model, lr, lc)
    call device_path%create(ctx, model, lr, lc)
    call host_path%set_substate('altitude', altitude)
    call host_path%set_substate('thickness', thickness)
    call host_path%set_substate('temperature', temperature)
    call put(c_loc(altitude), 8 * lr * lc)
    call device_path%set_substate_device('altitude', device)
    call put(c_loc(thickness), 8 * lr * lc)
    call device_path%set_substate_device('thickness', device)
    call put(c_loc(temperature), 8 * lr * lc)
    call device_path%set_substate_device('temperature', device)
    call host_path%step(25)
    call device_path%step(25)
    do k = 1, 3
      call host_path%get_substate(trim(names(k)), want)
      call device_path%get_substate_device(trim(names(k)), device)
      call take(c_loc(back), 8 * lr * lc)
      call check(all(back == want), 'lava: ' // trim(names(k)) // ' after 25 steps from device arrays')
    end do
    call check(any(back /= temperature), 'lava: the steps changed the temperature')
    back = thickness
    back(1, 4) = 1.0_c_double  ! the sink ring holds no lava
    call put(c_loc(back), 8 * lr * lc)
    call device_path%set_substate_device('thickness', device, stat=stat)
    call check(stat == OPSPLIT_ERROR_INVALID_ARGUMENT, 'lava: thickness on the sink ring refused')
    call check(index(opsplit_last_error(), 'thickness at (0, 3) is 1: the outermost ring') > 0, &
               'lava: the message names the cell 0-based (row, col)')
    call device_path%get_substate('thickness', back)
    call host_path%get_substate('thickness', want)
    call check(all(back == want), 'lava: a refused set changed nothing')
    call host_path%destroy()
    call device_path%destroy()
  end subroutine lava_from_device_arrays

  subroutine put(host, bytes)
    type(c_ptr), intent(in) :: host
    integer, intent(in) :: bytes
    call check(cudaMemcpy(device, host, int(bytes, c_size_t), to_device) == 0, 'cudaMemcpy to the device')
  end subroutine put

  subroutine take(host, bytes)
    type(c_ptr), intent(in) :: host
    integer, intent(in) :: bytes
    call check(cudaMemcpy(host, device, int(bytes, c_size_t), to_host) == 0, 'cudaMemcpy to the host')
  end subroutine take

end program test_fortran_device
