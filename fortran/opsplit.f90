! opsplit: the Fortran module on top of the C ABI (include/opsplit/core.h, field.h,
! mechanism.h, ode.h, ca.h, pcpd.h).
!
! Two layers:
!  * every C function under its own name through a bind(C) interface: handles are
!    type(c_ptr) (by value where C takes the handle, by reference where C takes a
!    pointer to it), enums are integer(c_int) named constants with the C names and
!    values, int64_t is integer(c_int64_t), host arrays are type(c_ptr), function
!    pointers type(c_funptr), strings NUL-terminated character(kind=c_char) arrays;
!  * one derived type per handle kind (opsplit_context_t, opsplit_field_t, opsplit_rd_t,
!    opsplit_mechanism_t, opsplit_ode_t, opsplit_ca_t, opsplit_pcpd_t) with type-bound
!    procedures taking Fortran arrays and 1-based component, species, reaction,
!    parameter, row, column, vent and replica indices.
!    Every one of them ends in an optional `stat`: when present it receives the status;
!    when absent and the call failed, "opsplit: <message>" goes to error_unit and the
!    program stops with `error stop`. `destroy` is idempotent. There is no final
!    procedure: intrinsic assignment copies the handle, so a finalizer of one copy
!    would free the object under the other; call destroy.
!
! opsplit_last_error() gives the message of the last failed call: the C library's
! thread-local message, or the message of a failure the Fortran wrappers found
! themselves (array kind or size, 1-based index). The Fortran-side message is module
! state, not thread-local.
module opsplit
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: error_unit
  use, intrinsic :: ieee_arithmetic, only: ieee_value, ieee_quiet_nan
  implicit none

  private :: error_unit, ieee_value, ieee_quiet_nan

  ! ---- enums of core.h -----------------------------------------------------
  ! opsplit_status
  integer(c_int), parameter :: OPSPLIT_SUCCESS = 0
  integer(c_int), parameter :: OPSPLIT_ERROR_INVALID_ARGUMENT = 1
  integer(c_int), parameter :: OPSPLIT_ERROR_INVALID_HANDLE = 2
  integer(c_int), parameter :: OPSPLIT_ERROR_OUT_OF_MEMORY = 3
  integer(c_int), parameter :: OPSPLIT_ERROR_BACKEND_UNAVAILABLE = 4
  integer(c_int), parameter :: OPSPLIT_ERROR_UNSUPPORTED = 5
  integer(c_int), parameter :: OPSPLIT_ERROR_NUMERICAL = 6
  integer(c_int), parameter :: OPSPLIT_ERROR_IO = 7
  integer(c_int), parameter :: OPSPLIT_ERROR_PARSE = 8
  integer(c_int), parameter :: OPSPLIT_ERROR_DEVICE = 9
  integer(c_int), parameter :: OPSPLIT_ERROR_CANCELLED = 10
  integer(c_int), parameter :: OPSPLIT_ERROR_INTERNAL = 11
  integer(c_int), parameter :: OPSPLIT_ERROR_COMMUNICATION = 12
  ! opsplit_backend
  integer(c_int), parameter :: OPSPLIT_BACKEND_AUTO = 0
  integer(c_int), parameter :: OPSPLIT_BACKEND_CPU = 1
  integer(c_int), parameter :: OPSPLIT_BACKEND_CUDA = 2
  ! opsplit_precision
  integer(c_int), parameter :: OPSPLIT_FLOAT64 = 0
  integer(c_int), parameter :: OPSPLIT_FLOAT32 = 1

  ! ---- enums of field.h ----------------------------------------------------
  ! opsplit_layout
  integer(c_int), parameter :: OPSPLIT_LAYOUT_PLANAR = 0       ! [comp][z][y][x]: c(nx,ny,nz,ncomp)
  integer(c_int), parameter :: OPSPLIT_LAYOUT_INTERLEAVED = 1  ! [z][y][x][comp]: c(ncomp,nx,ny,nz)
  ! opsplit_stencil
  integer(c_int), parameter :: OPSPLIT_STENCIL_7POINT = 7
  integer(c_int), parameter :: OPSPLIT_STENCIL_19POINT = 19
  ! opsplit_face
  integer(c_int), parameter :: OPSPLIT_FACE_XLO = 0
  integer(c_int), parameter :: OPSPLIT_FACE_XHI = 1
  integer(c_int), parameter :: OPSPLIT_FACE_YLO = 2
  integer(c_int), parameter :: OPSPLIT_FACE_YHI = 3
  integer(c_int), parameter :: OPSPLIT_FACE_ZLO = 4
  integer(c_int), parameter :: OPSPLIT_FACE_ZHI = 5
  ! opsplit_bc
  integer(c_int), parameter :: OPSPLIT_BC_NOFLUX = 0
  integer(c_int), parameter :: OPSPLIT_BC_DIRICHLET = 1
  integer(c_int), parameter :: OPSPLIT_BC_PERIODIC = 2
  ! opsplit_reaction
  integer(c_int), parameter :: OPSPLIT_REACTION_LINEAR = 0
  integer(c_int), parameter :: OPSPLIT_REACTION_TURING = 1
  integer(c_int), parameter :: OPSPLIT_REACTION_GRAY_SCOTT = 2
  integer(c_int), parameter :: OPSPLIT_REACTION_PRECIPITATION = 3

  ! ---- enums of mechanism.h ------------------------------------------------
  ! opsplit_rate_kind (T = p(param) in kelvin, R = 8.31446261815324 J/(mol K))
  integer(c_int), parameter :: OPSPLIT_RATE_CONSTANT = 0   ! k = A
  integer(c_int), parameter :: OPSPLIT_RATE_ARRHENIUS = 1  ! k = A * T**b * exp(-Ea / (R T))
  integer(c_int), parameter :: OPSPLIT_RATE_PARAMETER = 2  ! k = A * p(param)
  ! opsplit_mechanism_kind
  integer(c_int), parameter :: OPSPLIT_MECHANISM_BUILT = 0  ! species and reactions added through the API
  integer(c_int), parameter :: OPSPLIT_MECHANISM_GAS = 1    ! an ideal gas loaded from a Cantera YAML file

  ! ---- enums of ode.h ------------------------------------------------------
  ! opsplit_ode_layout
  integer(c_int), parameter :: OPSPLIT_ODE_AOS = 0  ! [sys][eq]: y(neq, nsys)
  integer(c_int), parameter :: OPSPLIT_ODE_SOA = 1  ! [eq][sys]: y(nsys, neq)
  ! opsplit_ode_method
  integer(c_int), parameter :: OPSPLIT_ODE_RKCK45 = 0
  integer(c_int), parameter :: OPSPLIT_ODE_RKC = 1
  integer(c_int), parameter :: OPSPLIT_ODE_ROSENBROCK = 2
  integer(c_int), parameter :: OPSPLIT_ODE_ROS3 = 3
  ! opsplit_reactor_kind (opsplit_ode_set_reactor)
  integer(c_int), parameter :: OPSPLIT_REACTOR_ISOTHERMAL_CONCENTRATIONS = 0  ! y = C; params T
  integer(c_int), parameter :: OPSPLIT_REACTOR_ISOTHERMAL_MASS_FRACTIONS = 1  ! y = Y; params T, P
  integer(c_int), parameter :: OPSPLIT_REACTOR_CONSTANT_PRESSURE = 2          ! y = (T, Y); params P
  integer(c_int), parameter :: OPSPLIT_REACTOR_CONSTANT_VOLUME = 3            ! y = (T, Y); params density
  ! opsplit_ode_jacobian (opsplit_ode_set_jacobian)
  integer(c_int), parameter :: OPSPLIT_ODE_JACOBIAN_ANALYTIC = 0
  integer(c_int), parameter :: OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE = 1
  ! opsplit_ode_result
  integer(c_int), parameter :: OPSPLIT_ODE_OK = 0
  integer(c_int), parameter :: OPSPLIT_ODE_TOO_MANY_STEPS = 1
  integer(c_int), parameter :: OPSPLIT_ODE_STEP_TOO_SMALL = 2
  integer(c_int), parameter :: OPSPLIT_ODE_NONFINITE = 3
  integer(c_int), parameter :: OPSPLIT_ODE_RHS_FAILED = 4

  ! ---- enums of ca.h -------------------------------------------------------
  ! opsplit_ca_model
  integer(c_int), parameter :: OPSPLIT_CA_LIFE = 0
  integer(c_int), parameter :: OPSPLIT_CA_SCIARA_FV2 = 1
  integer(c_int), parameter :: OPSPLIT_CA_SCIARA_FV3 = 2
  ! opsplit_ca_order
  integer(c_int), parameter :: OPSPLIT_CA_ROW_MAJOR = 0     ! cells[r * cols + c]
  integer(c_int), parameter :: OPSPLIT_CA_COLUMN_MAJOR = 1  ! Fortran cells(rows, cols)
  ! opsplit_ca_boundary
  integer(c_int), parameter :: OPSPLIT_CA_CLOSED = 0
  integer(c_int), parameter :: OPSPLIT_CA_PERIODIC = 1
  ! opsplit_ca_cells (opsplit_ca_set_cells_computed)
  integer(c_int), parameter :: OPSPLIT_CA_ACTIVE_REGION = 0
  integer(c_int), parameter :: OPSPLIT_CA_ALL_CELLS = 1

  ! ---- enums of pcpd.h -----------------------------------------------------
  ! opsplit_pcpd_algorithm
  integer(c_int), parameter :: OPSPLIT_PCPD_EXACT = 0
  integer(c_int), parameter :: OPSPLIT_PCPD_MULTISPIN = 1
  integer(c_int), parameter :: OPSPLIT_PCPD_MULTISPIN32 = 2
  ! opsplit_pcpd_quantity
  integer(c_int), parameter :: OPSPLIT_PCPD_DENSITY = 0
  integer(c_int), parameter :: OPSPLIT_PCPD_PAIR_DENSITY = 1
  integer(c_int), parameter :: OPSPLIT_PCPD_SURVIVING = 2

  ! ---- the C functions -----------------------------------------------------
  interface
    ! core.h
    subroutine opsplit_get_version(major, minor, patch) bind(C, name="opsplit_get_version")
      import :: c_int
      integer(c_int), intent(out) :: major, minor, patch
    end subroutine opsplit_get_version

    function opsplit_status_string(status) bind(C, name="opsplit_status_string") result(text)
      import :: c_int, c_ptr
      integer(c_int), value :: status
      type(c_ptr) :: text
    end function opsplit_status_string

    function opsplit_last_error_message() bind(C, name="opsplit_last_error_message") result(text)
      import :: c_ptr
      type(c_ptr) :: text
    end function opsplit_last_error_message

    function opsplit_cuda_available() bind(C, name="opsplit_cuda_available") result(available)
      import :: c_int
      integer(c_int) :: available
    end function opsplit_cuda_available

    function opsplit_context_create(backend, ctx) bind(C, name="opsplit_context_create") result(status)
      import :: c_int, c_ptr
      integer(c_int), value :: backend
      type(c_ptr), intent(out) :: ctx
      integer(c_int) :: status
    end function opsplit_context_create

    function opsplit_context_create_on_device(cuda_device, ctx) &
        bind(C, name="opsplit_context_create_on_device") result(status)
      import :: c_int, c_ptr
      integer(c_int), value :: cuda_device
      type(c_ptr), intent(out) :: ctx
      integer(c_int) :: status
    end function opsplit_context_create_on_device

    function opsplit_context_destroy(ctx) bind(C, name="opsplit_context_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: ctx
      integer(c_int) :: status
    end function opsplit_context_destroy

    function opsplit_context_get_backend(ctx, backend) &
        bind(C, name="opsplit_context_get_backend") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), intent(out) :: backend
      integer(c_int) :: status
    end function opsplit_context_get_backend

    function opsplit_context_get_cuda_device(ctx, device) &
        bind(C, name="opsplit_context_get_cuda_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), intent(out) :: device
      integer(c_int) :: status
    end function opsplit_context_get_cuda_device

    function opsplit_context_set_num_threads(ctx, nthreads) &
        bind(C, name="opsplit_context_set_num_threads") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: nthreads
      integer(c_int) :: status
    end function opsplit_context_set_num_threads

    function opsplit_context_set_cuda_stream(ctx, stream) &
        bind(C, name="opsplit_context_set_cuda_stream") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      type(c_ptr), value :: stream
      integer(c_int) :: status
    end function opsplit_context_set_cuda_stream

    function opsplit_context_synchronize(ctx) bind(C, name="opsplit_context_synchronize") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int) :: status
    end function opsplit_context_synchronize

    function opsplit_context_set_progress_callback(ctx, fn, user) &
        bind(C, name="opsplit_context_set_progress_callback") result(status)
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: ctx
      type(c_funptr), value :: fn
      type(c_ptr), value :: user
      integer(c_int) :: status
    end function opsplit_context_set_progress_callback

    ! field.h
    function opsplit_field_create(ctx, nx, ny, nz, ncomp, precision, field) &
        bind(C, name="opsplit_field_create") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int64_t), value :: nx, ny, nz
      integer(c_int), value :: ncomp
      integer(c_int), value :: precision
      type(c_ptr), intent(out) :: field
      integer(c_int) :: status
    end function opsplit_field_create

    function opsplit_field_destroy(field) bind(C, name="opsplit_field_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: field
      integer(c_int) :: status
    end function opsplit_field_destroy

    function opsplit_field_set_spacing(field, hx, hy, hz) &
        bind(C, name="opsplit_field_set_spacing") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: field
      real(c_double), value :: hx, hy, hz
      integer(c_int) :: status
    end function opsplit_field_set_spacing

    function opsplit_field_get_spacing(field, hx, hy, hz) &
        bind(C, name="opsplit_field_get_spacing") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: field
      real(c_double), intent(out) :: hx, hy, hz
      integer(c_int) :: status
    end function opsplit_field_get_spacing

    function opsplit_field_get_shape(field, nx, ny, nz, ncomp) &
        bind(C, name="opsplit_field_get_shape") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: field
      integer(c_int64_t), intent(out) :: nx, ny, nz
      integer(c_int), intent(out) :: ncomp
      integer(c_int) :: status
    end function opsplit_field_get_shape

    function opsplit_field_get_precision(field, precision) &
        bind(C, name="opsplit_field_get_precision") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: field
      integer(c_int), intent(out) :: precision
      integer(c_int) :: status
    end function opsplit_field_get_precision

    function opsplit_field_upload(field, host, layout) bind(C, name="opsplit_field_upload") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: field
      type(c_ptr), value :: host
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_field_upload

    function opsplit_field_download(field, host, layout) bind(C, name="opsplit_field_download") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: field
      type(c_ptr), value :: host
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_field_download

    ! comp is 0-based here, as in C.
    function opsplit_field_component_sum(field, comp, sum) &
        bind(C, name="opsplit_field_component_sum") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: field
      integer(c_int), value :: comp
      real(c_double), intent(out) :: sum
      integer(c_int) :: status
    end function opsplit_field_component_sum

    function opsplit_rd_create(ctx, ncomp, rd) bind(C, name="opsplit_rd_create") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: ncomp
      type(c_ptr), intent(out) :: rd
      integer(c_int) :: status
    end function opsplit_rd_create

    function opsplit_rd_destroy(rd) bind(C, name="opsplit_rd_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: rd
      integer(c_int) :: status
    end function opsplit_rd_destroy

    function opsplit_rd_set_stencil(rd, stencil) bind(C, name="opsplit_rd_set_stencil") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: rd
      integer(c_int), value :: stencil
      integer(c_int) :: status
    end function opsplit_rd_set_stencil

    function opsplit_rd_set_diffusion(rd, comp, coefficient) &
        bind(C, name="opsplit_rd_set_diffusion") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      integer(c_int), value :: comp
      real(c_double), value :: coefficient
      integer(c_int) :: status
    end function opsplit_rd_set_diffusion

    function opsplit_rd_set_boundary(rd, face, comp, bc, value) &
        bind(C, name="opsplit_rd_set_boundary") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      integer(c_int), value :: face
      integer(c_int), value :: comp
      integer(c_int), value :: bc
      real(c_double), value :: value
      integer(c_int) :: status
    end function opsplit_rd_set_boundary

    function opsplit_rd_max_stable_dt(rd, field, dt) bind(C, name="opsplit_rd_max_stable_dt") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      type(c_ptr), value :: field
      real(c_double), intent(out) :: dt
      integer(c_int) :: status
    end function opsplit_rd_max_stable_dt

    function opsplit_rd_step(rd, field, dt, nsteps) bind(C, name="opsplit_rd_step") result(status)
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: rd
      type(c_ptr), value :: field
      real(c_double), value :: dt
      integer(c_int64_t), value :: nsteps
      integer(c_int) :: status
    end function opsplit_rd_step

    ! comp is 0-based here, as in C.
    function opsplit_field_component_min_max(field, comp, min, max) &
        bind(C, name="opsplit_field_component_min_max") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: field
      integer(c_int), value :: comp
      real(c_double), intent(out) :: min, max
      integer(c_int) :: status
    end function opsplit_field_component_min_max

    function opsplit_rd_set_reaction(rd, kind) bind(C, name="opsplit_rd_set_reaction") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: rd
      integer(c_int), value :: kind
      integer(c_int) :: status
    end function opsplit_rd_set_reaction

    ! name: a NUL-terminated string (trim(name) // c_null_char).
    function opsplit_rd_set_reaction_parameter(rd, name, value) &
        bind(C, name="opsplit_rd_set_reaction_parameter") result(status)
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: rd
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), value :: value
      integer(c_int) :: status
    end function opsplit_rd_set_reaction_parameter

    function opsplit_rd_get_reaction_parameter(rd, name, value) &
        bind(C, name="opsplit_rd_get_reaction_parameter") result(status)
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: rd
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), intent(out) :: value
      integer(c_int) :: status
    end function opsplit_rd_get_reaction_parameter

    function opsplit_rd_set_linear(rd, comp, rate, source) bind(C, name="opsplit_rd_set_linear") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      integer(c_int), value :: comp
      real(c_double), value :: rate, source
      integer(c_int) :: status
    end function opsplit_rd_set_linear

    function opsplit_rd_set_cahn_hilliard(rd, comp, m, b, u, kappa) &
        bind(C, name="opsplit_rd_set_cahn_hilliard") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      integer(c_int), value :: comp
      real(c_double), value :: m, b, u, kappa
      integer(c_int) :: status
    end function opsplit_rd_set_cahn_hilliard

    ! axis is 0-based here (0 = x), as in C.
    function opsplit_rd_set_velocity(rd, axis, constant, amplitude, angular_frequency, phase) &
        bind(C, name="opsplit_rd_set_velocity") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      integer(c_int), value :: axis
      real(c_double), value :: constant, amplitude, angular_frequency, phase
      integer(c_int) :: status
    end function opsplit_rd_set_velocity

    function opsplit_rd_set_velocity_field(rd, velocity) bind(C, name="opsplit_rd_set_velocity_field") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: rd
      type(c_ptr), value :: velocity
      integer(c_int) :: status
    end function opsplit_rd_set_velocity_field

    ! comp, i, j, k are 0-based here, as in C.
    function opsplit_rd_add_source(rd, comp, i, j, k, rate) bind(C, name="opsplit_rd_add_source") result(status)
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: rd
      integer(c_int), value :: comp
      integer(c_int64_t), value :: i, j, k
      real(c_double), value :: rate
      integer(c_int) :: status
    end function opsplit_rd_add_source

    function opsplit_rd_clear_sources(rd) bind(C, name="opsplit_rd_clear_sources") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: rd
      integer(c_int) :: status
    end function opsplit_rd_clear_sources

    function opsplit_rd_set_time(rd, t) bind(C, name="opsplit_rd_set_time") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      real(c_double), value :: t
      integer(c_int) :: status
    end function opsplit_rd_set_time

    function opsplit_rd_get_time(rd, t) bind(C, name="opsplit_rd_get_time") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      real(c_double), intent(out) :: t
      integer(c_int) :: status
    end function opsplit_rd_get_time

    function opsplit_rd_free_energy(rd, field, comp, energy) bind(C, name="opsplit_rd_free_energy") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      type(c_ptr), value :: field
      integer(c_int), value :: comp
      real(c_double), intent(out) :: energy
      integer(c_int) :: status
    end function opsplit_rd_free_energy

    ! mechanism.h. Species, reaction and parameter indices are 0-based here, as in C;
    ! name: a NUL-terminated string (trim(name) // c_null_char). An output C allows to be
    ! NULL is a scalar here: pass a variable.
    function opsplit_mechanism_create(ctx, mech) bind(C, name="opsplit_mechanism_create") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ctx
      type(c_ptr), intent(out) :: mech
      integer(c_int) :: status
    end function opsplit_mechanism_create

    function opsplit_mechanism_destroy(mech) bind(C, name="opsplit_mechanism_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: mech
      integer(c_int) :: status
    end function opsplit_mechanism_destroy

    function opsplit_mechanism_add_species(mech, name, index) &
        bind(C, name="opsplit_mechanism_add_species") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: mech
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: index
      integer(c_int) :: status
    end function opsplit_mechanism_add_species

    function opsplit_mechanism_find_species(mech, name, index) &
        bind(C, name="opsplit_mechanism_find_species") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: mech
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: index
      integer(c_int) :: status
    end function opsplit_mechanism_find_species

    ! name receives a C string owned by the mechanism (opsplit_c_string(name) copies it).
    function opsplit_mechanism_get_species_name(mech, index, name) &
        bind(C, name="opsplit_mechanism_get_species_name") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), value :: index
      type(c_ptr), intent(out) :: name
      integer(c_int) :: status
    end function opsplit_mechanism_get_species_name

    ! reactants, products: c_loc of integer(c_int) arrays (c_null_ptr when their count is
    ! 0); the coefficient arrays: c_loc of integer(c_int) arrays or c_null_ptr (all 1).
    function opsplit_mechanism_add_reaction(mech, nreactants, reactants, reactant_coefficients, nproducts, &
                                            products, product_coefficients, index) &
        bind(C, name="opsplit_mechanism_add_reaction") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), value :: nreactants
      type(c_ptr), value :: reactants, reactant_coefficients
      integer(c_int), value :: nproducts
      type(c_ptr), value :: products, product_coefficients
      integer(c_int), intent(out) :: index
      integer(c_int) :: status
    end function opsplit_mechanism_add_reaction

    ! The same with real product yields: c_loc of a real(c_double) array or c_null_ptr.
    function opsplit_mechanism_add_reaction_yields(mech, nreactants, reactants, reactant_coefficients, &
                                                   nproducts, products, product_yields, index) &
        bind(C, name="opsplit_mechanism_add_reaction_yields") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), value :: nreactants
      type(c_ptr), value :: reactants, reactant_coefficients
      integer(c_int), value :: nproducts
      type(c_ptr), value :: products, product_yields
      integer(c_int), intent(out) :: index
      integer(c_int) :: status
    end function opsplit_mechanism_add_reaction_yields

    function opsplit_mechanism_set_rate(mech, reaction, kind, A, b, Ea, param) &
        bind(C, name="opsplit_mechanism_set_rate") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: mech
      integer(c_int), value :: reaction
      integer(c_int), value :: kind
      real(c_double), value :: A, b, Ea
      integer(c_int), value :: param
      integer(c_int) :: status
    end function opsplit_mechanism_set_rate

    function opsplit_mechanism_name_parameter(mech, param, name) &
        bind(C, name="opsplit_mechanism_name_parameter") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: mech
      integer(c_int), value :: param
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int) :: status
    end function opsplit_mechanism_name_parameter

    function opsplit_mechanism_set_rate_expression(mech, reaction, expression) &
        bind(C, name="opsplit_mechanism_set_rate_expression") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: mech
      integer(c_int), value :: reaction
      character(kind=c_char), intent(in) :: expression(*)
      integer(c_int) :: status
    end function opsplit_mechanism_set_rate_expression

    function opsplit_mechanism_set_rate_species_sum(mech, reaction, n, species) &
        bind(C, name="opsplit_mechanism_set_rate_species_sum") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), value :: reaction, n
      integer(c_int), intent(in) :: species(*)
      integer(c_int) :: status
    end function opsplit_mechanism_set_rate_species_sum

    function opsplit_mechanism_get_counts(mech, nspecies, nreactions, nparams) &
        bind(C, name="opsplit_mechanism_get_counts") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), intent(out) :: nspecies, nreactions, nparams
      integer(c_int) :: status
    end function opsplit_mechanism_get_counts

    ! y, ydot: nspecies values; params: at least nparams values (c_null_ptr when 0);
    ! jacobian: nspecies*nspecies values, jacobian(i, j) = d ydot_i / d y_j, or c_null_ptr.
    function opsplit_mechanism_evaluate(mech, y, params, ydot, jacobian) &
        bind(C, name="opsplit_mechanism_evaluate") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      type(c_ptr), value :: y, params, ydot, jacobian
      integer(c_int) :: status
    end function opsplit_mechanism_evaluate

    ! equation receives a C string owned by the mechanism (opsplit_c_string(equation)
    ! copies it); reaction is 0-based here, as in C.
    function opsplit_mechanism_get_reaction_equation(mech, reaction, equation) &
        bind(C, name="opsplit_mechanism_get_reaction_equation") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), value :: reaction
      type(c_ptr), intent(out) :: equation
      integer(c_int) :: status
    end function opsplit_mechanism_get_reaction_equation

    ! kind: OPSPLIT_MECHANISM_BUILT or OPSPLIT_MECHANISM_GAS.
    function opsplit_mechanism_get_kind(mech, kind) bind(C, name="opsplit_mechanism_get_kind") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), intent(out) :: kind
      integer(c_int) :: status
    end function opsplit_mechanism_get_kind

    ! Gas mechanisms, in SI units with moles (mol/m^3, Pa, kg/mol, J). path and phase:
    ! NUL-terminated strings (trim(path) // c_null_char); phase c_null_char alone (C's "")
    ! loads the file's first phase. Arrays are c_loc of real(c_double) arrays of nspecies
    ! values (nreactions for rates of progress); an output array C allows to be NULL may
    ! be c_null_ptr. The scalar outputs of opsplit_mechanism_mixture_properties are
    ! scalars here: pass variables.
    function opsplit_mechanism_load_yaml(ctx, path, phase, mech) &
        bind(C, name="opsplit_mechanism_load_yaml") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), intent(in) :: path(*), phase(*)
      type(c_ptr), intent(out) :: mech
      integer(c_int) :: status
    end function opsplit_mechanism_load_yaml

    ! thermo_path c_null_char alone (C's ""): no thermo file (C also takes NULL).
    function opsplit_mechanism_load_chemkin(ctx, mech_path, thermo_path, mech) &
        bind(C, name="opsplit_mechanism_load_chemkin") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), intent(in) :: mech_path(*), thermo_path(*)
      type(c_ptr), intent(out) :: mech
      integer(c_int) :: status
    end function opsplit_mechanism_load_chemkin

    function opsplit_mechanism_load_kpp(ctx, path, mech) bind(C, name="opsplit_mechanism_load_kpp") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: mech
      integer(c_int) :: status
    end function opsplit_mechanism_load_kpp

    function opsplit_mechanism_load_micm(ctx, path, mech) bind(C, name="opsplit_mechanism_load_micm") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: mech
      integer(c_int) :: status
    end function opsplit_mechanism_load_micm

    ! name receives a C string owned by the mechanism (opsplit_c_string(name) copies it).
    function opsplit_mechanism_get_parameter_name(mech, param, name) &
        bind(C, name="opsplit_mechanism_get_parameter_name") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), value :: param
      type(c_ptr), intent(out) :: name
      integer(c_int) :: status
    end function opsplit_mechanism_get_parameter_name

    function opsplit_mechanism_find_parameter(mech, name, index) &
        bind(C, name="opsplit_mechanism_find_parameter") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: mech
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: index
      integer(c_int) :: status
    end function opsplit_mechanism_find_parameter

    function opsplit_mechanism_get_molar_masses(mech, molar_masses) &
        bind(C, name="opsplit_mechanism_get_molar_masses") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      type(c_ptr), value :: molar_masses
      integer(c_int) :: status
    end function opsplit_mechanism_get_molar_masses

    function opsplit_mechanism_species_thermo(mech, T, cp_R, h_RT, s_R) &
        bind(C, name="opsplit_mechanism_species_thermo") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: mech
      real(c_double), value :: T
      type(c_ptr), value :: cp_R, h_RT, s_R
      integer(c_int) :: status
    end function opsplit_mechanism_species_thermo

    function opsplit_mechanism_mixture_properties(mech, T, P, Y, density, cp, cv, enthalpy, internal_energy) &
        bind(C, name="opsplit_mechanism_mixture_properties") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: mech
      real(c_double), value :: T, P
      type(c_ptr), value :: Y
      real(c_double), intent(out) :: density, cp, cv, enthalpy, internal_energy
      integer(c_int) :: status
    end function opsplit_mechanism_mixture_properties

    function opsplit_mechanism_concentrations(mech, T, P, Y, concentrations) &
        bind(C, name="opsplit_mechanism_concentrations") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: mech
      real(c_double), value :: T, P
      type(c_ptr), value :: Y, concentrations
      integer(c_int) :: status
    end function opsplit_mechanism_concentrations

    function opsplit_mechanism_net_production_rates(mech, T, concentrations, wdot) &
        bind(C, name="opsplit_mechanism_net_production_rates") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: mech
      real(c_double), value :: T
      type(c_ptr), value :: concentrations, wdot
      integer(c_int) :: status
    end function opsplit_mechanism_net_production_rates

    function opsplit_mechanism_rates_of_progress(mech, T, concentrations, forward, reverse) &
        bind(C, name="opsplit_mechanism_rates_of_progress") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: mech
      real(c_double), value :: T
      type(c_ptr), value :: concentrations, forward, reverse
      integer(c_int) :: status
    end function opsplit_mechanism_rates_of_progress

    ! ode.h. Host arrays are c_loc of real(c_double) arrays in the named layout
    ! (OPSPLIT_ODE_AOS: y(neq, nsys); OPSPLIT_ODE_SOA: y(nsys, neq)); results are c_loc of
    ! nsys values (integer(c_int) result, integer(c_int64_t) counts) or c_null_ptr.
    function opsplit_ode_create(ctx, neq, nsys, nparam, ode) bind(C, name="opsplit_ode_create") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: neq
      integer(c_int64_t), value :: nsys
      integer(c_int), value :: nparam
      type(c_ptr), intent(out) :: ode
      integer(c_int) :: status
    end function opsplit_ode_create

    function opsplit_ode_destroy(ode) bind(C, name="opsplit_ode_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: ode
      integer(c_int) :: status
    end function opsplit_ode_destroy

    function opsplit_ode_get_shape(ode, neq, nsys, nparam) bind(C, name="opsplit_ode_get_shape") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ode
      integer(c_int), intent(out) :: neq
      integer(c_int64_t), intent(out) :: nsys
      integer(c_int), intent(out) :: nparam
      integer(c_int) :: status
    end function opsplit_ode_get_shape

    function opsplit_ode_set_mechanism(ode, mech) bind(C, name="opsplit_ode_set_mechanism") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: mech
      integer(c_int) :: status
    end function opsplit_ode_set_mechanism

    function opsplit_ode_set_reactor(ode, mech, kind) bind(C, name="opsplit_ode_set_reactor") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: mech
      integer(c_int), value :: kind
      integer(c_int) :: status
    end function opsplit_ode_set_reactor

    function opsplit_ode_set_jacobian(ode, jacobian) bind(C, name="opsplit_ode_set_jacobian") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      integer(c_int), value :: jacobian
      integer(c_int) :: status
    end function opsplit_ode_set_jacobian

    ! system is 0-based; jacobian may be c_null_ptr.
    function opsplit_ode_evaluate(ode, system, t, y, ydot, jacobian) bind(C, name="opsplit_ode_evaluate") &
        result(status)
      import :: c_int, c_int64_t, c_double, c_ptr
      type(c_ptr), value :: ode
      integer(c_int64_t), value :: system
      real(c_double), value :: t
      type(c_ptr), value :: y, ydot, jacobian
      integer(c_int) :: status
    end function opsplit_ode_evaluate

    ! rhs, jacobian: c_funloc of bind(C) functions with the interfaces opsplit_ode_rhs_fn
    ! and opsplit_ode_jacobian_fn (jacobian may be c_null_funptr: finite differences).
    function opsplit_ode_set_rhs_callback(ode, rhs, jacobian, user) &
        bind(C, name="opsplit_ode_set_rhs_callback") result(status)
      import :: c_int, c_ptr, c_funptr
      type(c_ptr), value :: ode
      type(c_funptr), value :: rhs, jacobian
      type(c_ptr), value :: user
      integer(c_int) :: status
    end function opsplit_ode_set_rhs_callback

    function opsplit_ode_set_method(ode, method) bind(C, name="opsplit_ode_set_method") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      integer(c_int), value :: method
      integer(c_int) :: status
    end function opsplit_ode_set_method

    function opsplit_ode_set_tolerances(ode, rtol, atol) bind(C, name="opsplit_ode_set_tolerances") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: ode
      real(c_double), value :: rtol, atol
      integer(c_int) :: status
    end function opsplit_ode_set_tolerances

    ! atol: c_loc of neq real(c_double) values.
    function opsplit_ode_set_absolute_tolerances(ode, atol) &
        bind(C, name="opsplit_ode_set_absolute_tolerances") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: atol
      integer(c_int) :: status
    end function opsplit_ode_set_absolute_tolerances

    function opsplit_ode_set_initial_step(ode, h0) bind(C, name="opsplit_ode_set_initial_step") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: ode
      real(c_double), value :: h0
      integer(c_int) :: status
    end function opsplit_ode_set_initial_step

    function opsplit_ode_set_max_steps(ode, max_steps) bind(C, name="opsplit_ode_set_max_steps") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ode
      integer(c_int64_t), value :: max_steps
      integer(c_int) :: status
    end function opsplit_ode_set_max_steps

    function opsplit_ode_set_keep_step(ode, keep) bind(C, name="opsplit_ode_set_keep_step") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      integer(c_int), value :: keep
      integer(c_int) :: status
    end function opsplit_ode_set_keep_step

    function opsplit_ode_set_clip_negative(ode, clip) bind(C, name="opsplit_ode_set_clip_negative") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      integer(c_int), value :: clip
      integer(c_int) :: status
    end function opsplit_ode_set_clip_negative

    function opsplit_ode_set_state(ode, y, layout) bind(C, name="opsplit_ode_set_state") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: y
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_set_state

    function opsplit_ode_get_state(ode, y, layout) bind(C, name="opsplit_ode_get_state") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: y
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_get_state

    function opsplit_ode_set_parameters(ode, params, layout) bind(C, name="opsplit_ode_set_parameters") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: params
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_set_parameters

    function opsplit_ode_get_parameters(ode, params, layout) bind(C, name="opsplit_ode_get_parameters") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: params
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_get_parameters

    function opsplit_ode_integrate(ode, t0, t1) bind(C, name="opsplit_ode_integrate") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: ode
      real(c_double), value :: t0, t1
      integer(c_int) :: status
    end function opsplit_ode_integrate

    function opsplit_ode_get_results(ode, result, accepted, rejected, rhs_evaluations, jacobian_evaluations) &
        bind(C, name="opsplit_ode_get_results") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: result, accepted, rejected, rhs_evaluations, jacobian_evaluations
      integer(c_int) :: status
    end function opsplit_ode_get_results

    ! ---- ca.h ----
    function opsplit_ca_create(ctx, model, rows, cols, ca) bind(C, name="opsplit_ca_create") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: model
      integer(c_int64_t), value :: rows, cols
      type(c_ptr), intent(out) :: ca
      integer(c_int) :: status
    end function opsplit_ca_create

    function opsplit_ca_destroy(ca) bind(C, name="opsplit_ca_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: ca
      integer(c_int) :: status
    end function opsplit_ca_destroy

    function opsplit_ca_get_shape(ca, rows, cols) bind(C, name="opsplit_ca_get_shape") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ca
      integer(c_int64_t), intent(out) :: rows, cols
      integer(c_int) :: status
    end function opsplit_ca_get_shape

    function opsplit_ca_get_place(ca, first_row, first_col, global_rows, global_cols) &
        bind(C, name="opsplit_ca_get_place") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ca
      integer(c_int64_t), intent(out) :: first_row, first_col, global_rows, global_cols
      integer(c_int) :: status
    end function opsplit_ca_get_place

    function opsplit_ca_set_boundary(ca, boundary) bind(C, name="opsplit_ca_set_boundary") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ca
      integer(c_int), value :: boundary
      integer(c_int) :: status
    end function opsplit_ca_set_boundary

    ! rule: a NUL-terminated string (trim(rule) // c_null_char).
    function opsplit_ca_set_rule(ca, rule) bind(C, name="opsplit_ca_set_rule") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: rule(*)
      integer(c_int) :: status
    end function opsplit_ca_set_rule

    ! cells: rows * cols values, c_loc of an integer(c_int8_t) array.
    function opsplit_ca_set_cells(ca, cells, order) bind(C, name="opsplit_ca_set_cells") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ca, cells
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_set_cells

    function opsplit_ca_get_cells(ca, cells, order) bind(C, name="opsplit_ca_get_cells") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ca, cells
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_get_cells

    ! rle: a NUL-terminated string; row and col 0-based.
    function opsplit_ca_place_rle(ca, rle, row, col) bind(C, name="opsplit_ca_place_rle") result(status)
      import :: c_int, c_int64_t, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: rle(*)
      integer(c_int64_t), value :: row, col
      integer(c_int) :: status
    end function opsplit_ca_place_rle

    ! path: a NUL-terminated string; row and col 0-based.
    function opsplit_ca_load_rle(ca, path, row, col) bind(C, name="opsplit_ca_load_rle") result(status)
      import :: c_int, c_int64_t, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int64_t), value :: row, col
      integer(c_int) :: status
    end function opsplit_ca_load_rle

    function opsplit_ca_step(ca, nsteps) bind(C, name="opsplit_ca_step") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ca
      integer(c_int64_t), value :: nsteps
      integer(c_int) :: status
    end function opsplit_ca_step

    function opsplit_ca_get_steps(ca, steps) bind(C, name="opsplit_ca_get_steps") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ca
      integer(c_int64_t), intent(out) :: steps
      integer(c_int) :: status
    end function opsplit_ca_get_steps

    function opsplit_ca_get_population(ca, population) bind(C, name="opsplit_ca_get_population") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ca
      integer(c_int64_t), intent(out) :: population
      integer(c_int) :: status
    end function opsplit_ca_get_population

    ! Lava grids (SCIARA_FV2, SCIARA_FV3). name, path: NUL-terminated strings; values: rows * cols
    ! values, c_loc of a real(c_double) array.
    function opsplit_ca_set_substate(ca, name, values, order) bind(C, name="opsplit_ca_set_substate") &
        result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: values
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_set_substate

    function opsplit_ca_get_substate(ca, name, values, order) bind(C, name="opsplit_ca_get_substate") &
        result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: values
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_get_substate

    function opsplit_ca_load_substate(ca, name, path) bind(C, name="opsplit_ca_load_substate") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: name(*), path(*)
      integer(c_int) :: status
    end function opsplit_ca_load_substate

    function opsplit_ca_set_parameter(ca, name, value) bind(C, name="opsplit_ca_set_parameter") result(status)
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), value :: value
      integer(c_int) :: status
    end function opsplit_ca_set_parameter

    function opsplit_ca_get_parameter(ca, name, value) bind(C, name="opsplit_ca_get_parameter") result(status)
      import :: c_int, c_ptr, c_char, c_double
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: name(*)
      real(c_double), intent(out) :: value
      integer(c_int) :: status
    end function opsplit_ca_get_parameter

    function opsplit_ca_load_parameters(ca, path) bind(C, name="opsplit_ca_load_parameters") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: path(*)
      integer(c_int) :: status
    end function opsplit_ca_load_parameters

    ! row and col 0-based; rates: nslots values (c_loc of a real(c_double) array); vent:
    ! c_loc of an integer(c_int64_t) receiving the 0-based index, or c_null_ptr.
    function opsplit_ca_add_vent(ca, row, col, rates, nslots, slot_seconds, vent) &
        bind(C, name="opsplit_ca_add_vent") result(status)
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: ca
      integer(c_int64_t), value :: row, col
      type(c_ptr), value :: rates
      integer(c_int64_t), value :: nslots
      real(c_double), value :: slot_seconds
      type(c_ptr), value :: vent
      integer(c_int) :: status
    end function opsplit_ca_add_vent

    function opsplit_ca_load_vents(ca, vents_path, rates_path) bind(C, name="opsplit_ca_load_vents") &
        result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: vents_path(*), rates_path(*)
      integer(c_int) :: status
    end function opsplit_ca_load_vents

    function opsplit_ca_run_until(ca, t_sim) bind(C, name="opsplit_ca_run_until") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: ca
      real(c_double), value :: t_sim
      integer(c_int) :: status
    end function opsplit_ca_run_until

    function opsplit_ca_get_time(ca, t_sim) bind(C, name="opsplit_ca_get_time") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: ca
      real(c_double), intent(out) :: t_sim
      integer(c_int) :: status
    end function opsplit_ca_get_time

    function opsplit_ca_get_volumes(ca, emitted, lava, solidified, lost) bind(C, name="opsplit_ca_get_volumes") &
        result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: ca
      real(c_double), intent(out) :: emitted, lava, solidified, lost
      integer(c_int) :: status
    end function opsplit_ca_get_volumes

    function opsplit_ca_set_cells_computed(ca, cells) bind(C, name="opsplit_ca_set_cells_computed") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ca
      integer(c_int), value :: cells
      integer(c_int) :: status
    end function opsplit_ca_set_cells_computed

    ! ---- pcpd.h ----
    function opsplit_pcpd_create(ctx, algorithm, L, replicas, pcpd) bind(C, name="opsplit_pcpd_create") &
        result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ctx
      integer(c_int), value :: algorithm
      integer(c_int64_t), value :: L, replicas
      type(c_ptr), intent(out) :: pcpd
      integer(c_int) :: status
    end function opsplit_pcpd_create

    function opsplit_pcpd_destroy(pcpd) bind(C, name="opsplit_pcpd_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: pcpd
      integer(c_int) :: status
    end function opsplit_pcpd_destroy

    function opsplit_pcpd_set_probabilities(pcpd, p, d) bind(C, name="opsplit_pcpd_set_probabilities") &
        result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: pcpd
      real(c_double), value :: p, d
      integer(c_int) :: status
    end function opsplit_pcpd_set_probabilities

    !> seed: C's uint64_t, passed as the bits of an integer(c_int64_t).
    function opsplit_pcpd_initialize(pcpd, seed, density) bind(C, name="opsplit_pcpd_initialize") result(status)
      import :: c_int, c_int64_t, c_ptr, c_double
      type(c_ptr), value :: pcpd
      integer(c_int64_t), value :: seed
      real(c_double), value :: density
      integer(c_int) :: status
    end function opsplit_pcpd_initialize

    function opsplit_pcpd_set_points_per_decade(pcpd, points) bind(C, name="opsplit_pcpd_set_points_per_decade") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int), value :: points
      integer(c_int) :: status
    end function opsplit_pcpd_set_points_per_decade

    function opsplit_pcpd_run(pcpd, t_end) bind(C, name="opsplit_pcpd_run") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: pcpd
      real(c_double), value :: t_end
      integer(c_int) :: status
    end function opsplit_pcpd_run

    function opsplit_pcpd_get_time(pcpd, time) bind(C, name="opsplit_pcpd_get_time") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: pcpd
      real(c_double), intent(out) :: time
      integer(c_int) :: status
    end function opsplit_pcpd_get_time

    function opsplit_pcpd_get_series_length(pcpd, length) bind(C, name="opsplit_pcpd_get_series_length") &
        result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int64_t), intent(out) :: length
      integer(c_int) :: status
    end function opsplit_pcpd_get_series_length

    function opsplit_pcpd_get_series(pcpd, quantity, length, times, mean, standard_error) &
        bind(C, name="opsplit_pcpd_get_series") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int), value :: quantity
      integer(c_int64_t), value :: length
      type(c_ptr), value :: times, mean, standard_error
      integer(c_int) :: status
    end function opsplit_pcpd_get_series

    function opsplit_pcpd_get_lattice(pcpd, replica, sites) bind(C, name="opsplit_pcpd_get_lattice") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int64_t), value :: replica
      type(c_ptr), value :: sites
      integer(c_int) :: status
    end function opsplit_pcpd_get_lattice

    function opsplit_pcpd_set_lattice(pcpd, replica, sites) bind(C, name="opsplit_pcpd_set_lattice") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int64_t), value :: replica
      type(c_ptr), value :: sites
      integer(c_int) :: status
    end function opsplit_pcpd_set_lattice

    function opsplit_pcpd_get_replicas(pcpd, first, count) bind(C, name="opsplit_pcpd_get_replicas") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int64_t), intent(out) :: first, count
      integer(c_int) :: status
    end function opsplit_pcpd_get_replicas
  end interface

  ! The C library's strlen, to read its NUL-terminated strings.
  interface
    function c_strlen(s) bind(C, name="strlen") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen
  end interface
  private :: c_strlen

  ! The shape of a progress callback (opsplit_progress_fn): write it as a bind(C)
  ! function in a module and pass c_funloc(it). `what` is a C string
  ! (opsplit_c_string(what) reads it); a non-zero result cancels the running call.
  abstract interface
    function opsplit_progress_fn(fraction, what, user) bind(C) result(cancel)
      import :: c_double, c_ptr, c_int
      real(c_double), value :: fraction
      type(c_ptr), value :: what
      type(c_ptr), value :: user
      integer(c_int) :: cancel
    end function opsplit_progress_fn
  end interface

  ! The shapes of an ODE batch's host right-hand side and its Jacobian
  ! (opsplit_ode_rhs_fn, opsplit_ode_jacobian_fn; CPU backend only): write them as bind(C)
  ! functions in a module, with the batch's sizes in the shapes (y(n, neq),
  ! params(n, nparam), jacobian(n, neq, neq): jacobian(s, i, j) = d ydot_i / d y_j of
  ! system s), and pass c_funloc(them). The n systems are each at their own time t(s).
  ! Return 0 on success, > 0 for a recoverable failure (the step is retried smaller),
  ! < 0 for a fatal one (those systems stop with OPSPLIT_ODE_RHS_FAILED).
  abstract interface
    function opsplit_ode_rhs_fn(n, t, y, ydot, params, user) bind(C) result(status)
      import :: c_int, c_int64_t, c_double, c_ptr
      integer(c_int64_t), value :: n
      real(c_double), intent(in) :: t(n), y(n, *)
      real(c_double), intent(out) :: ydot(n, *)
      real(c_double), intent(in) :: params(n, *)
      type(c_ptr), value :: user
      integer(c_int) :: status
    end function opsplit_ode_rhs_fn

    function opsplit_ode_jacobian_fn(n, t, y, jacobian, params, user) bind(C) result(status)
      import :: c_int, c_int64_t, c_double, c_ptr
      integer(c_int64_t), value :: n
      real(c_double), intent(in) :: t(n), y(n, *)
      real(c_double), intent(out) :: jacobian(n, *)
      real(c_double), intent(in) :: params(n, *)
      type(c_ptr), value :: user
      integer(c_int) :: status
    end function opsplit_ode_jacobian_fn
  end interface

  ! ---- the derived types ---------------------------------------------------
  type :: opsplit_context_t
    private
    type(c_ptr) :: handle = c_null_ptr
  contains
    procedure :: create => context_create
    procedure :: create_on_device => context_create_on_device
    procedure :: destroy => context_destroy
    procedure :: backend => context_backend
    procedure :: cuda_device => context_cuda_device
    procedure :: set_num_threads => context_set_num_threads
    procedure :: set_cuda_stream => context_set_cuda_stream
    procedure :: synchronize => context_synchronize
    procedure :: set_progress_callback => context_set_progress_callback
    procedure :: created => context_created
    procedure :: c_handle => context_c_handle
  end type opsplit_context_t

  type :: opsplit_field_t
    private
    type(c_ptr) :: handle = c_null_ptr
  contains
    procedure, private :: field_create_i4
    procedure, private :: field_create_i8
    generic :: create => field_create_i4, field_create_i8
    procedure :: destroy => field_destroy
    procedure :: set_spacing => field_set_spacing
    procedure :: get_spacing => field_get_spacing
    procedure, private :: field_get_shape_i4
    procedure, private :: field_get_shape_i8
    generic :: get_shape => field_get_shape_i4, field_get_shape_i8
    procedure :: precision => field_precision
    procedure :: component_sum => field_component_sum
    procedure :: component_min_max => field_component_min_max
    procedure, private :: field_upload_r8, field_upload_r4
    generic :: upload => field_upload_r8, field_upload_r4
    procedure, private :: field_download_r8, field_download_r4
    generic :: download => field_download_r8, field_download_r4
    procedure :: created => field_created
    procedure :: c_handle => field_c_handle
  end type opsplit_field_t

  type :: opsplit_rd_t
    private
    type(c_ptr) :: handle = c_null_ptr
    integer(c_int) :: ncomp = 0
  contains
    procedure :: create => rd_create
    procedure :: destroy => rd_destroy
    procedure :: set_stencil => rd_set_stencil
    procedure :: set_diffusion => rd_set_diffusion
    procedure :: set_boundary => rd_set_boundary
    procedure :: max_stable_dt => rd_max_stable_dt
    procedure, private :: rd_step_i4
    procedure, private :: rd_step_i8
    generic :: step => rd_step_i4, rd_step_i8
    procedure :: set_reaction => rd_set_reaction
    procedure :: set_reaction_parameter => rd_set_reaction_parameter
    procedure :: reaction_parameter => rd_reaction_parameter
    procedure :: set_linear => rd_set_linear
    procedure :: set_cahn_hilliard => rd_set_cahn_hilliard
    procedure :: set_velocity => rd_set_velocity
    procedure :: set_velocity_field => rd_set_velocity_field
    procedure :: clear_velocity_field => rd_clear_velocity_field
    procedure :: add_source => rd_add_source
    procedure :: clear_sources => rd_clear_sources
    procedure :: set_time => rd_set_time
    procedure :: time => rd_time
    procedure :: free_energy => rd_free_energy
    procedure :: created => rd_created
    procedure :: c_handle => rd_c_handle
  end type opsplit_rd_t

  type :: opsplit_mechanism_t
    private
    type(c_ptr) :: handle = c_null_ptr
  contains
    procedure :: create => mechanism_create
    procedure :: destroy => mechanism_destroy
    procedure :: add_species => mechanism_add_species
    procedure :: find_species => mechanism_find_species
    procedure :: species_name => mechanism_species_name
    procedure :: add_reaction => mechanism_add_reaction
    procedure :: set_rate => mechanism_set_rate
    procedure :: name_parameter => mechanism_name_parameter
    procedure :: find_parameter => mechanism_find_parameter
    procedure :: load_kpp => mechanism_load_kpp
    procedure :: load_micm => mechanism_load_micm
    procedure :: parameter_name => mechanism_parameter_name
    procedure :: set_rate_expression => mechanism_set_rate_expression
    procedure :: set_rate_species_sum => mechanism_set_rate_species_sum
    procedure :: counts => mechanism_counts
    procedure :: evaluate => mechanism_evaluate
    procedure :: load_yaml => mechanism_load_yaml
    procedure :: load_chemkin => mechanism_load_chemkin
    procedure :: kind => mechanism_kind
    procedure :: equation => mechanism_equation
    procedure :: molar_masses => mechanism_molar_masses
    procedure :: species_thermo => mechanism_species_thermo
    procedure :: mixture_properties => mechanism_mixture_properties
    procedure :: concentrations => mechanism_concentrations
    procedure :: net_production_rates => mechanism_net_production_rates
    procedure :: rates_of_progress => mechanism_rates_of_progress
    procedure :: created => mechanism_created
    procedure :: c_handle => mechanism_c_handle
  end type opsplit_mechanism_t

  type :: opsplit_ode_t
    private
    type(c_ptr) :: handle = c_null_ptr
    integer(c_int) :: neq = 0
    integer(c_int64_t) :: nsys = 0
    integer(c_int) :: nparam = 0
  contains
    procedure, private :: ode_create_i4
    procedure, private :: ode_create_i8
    generic :: create => ode_create_i4, ode_create_i8
    procedure :: destroy => ode_destroy
    procedure, private :: ode_shape_i4
    procedure, private :: ode_shape_i8
    generic :: shape => ode_shape_i4, ode_shape_i8
    generic :: get_shape => ode_shape_i4, ode_shape_i8  ! as opsplit_field_t's
    procedure :: set_mechanism => ode_set_mechanism
    procedure :: set_reactor => ode_set_reactor
    procedure :: set_jacobian => ode_set_jacobian
    procedure, private :: ode_evaluate_i4
    procedure, private :: ode_evaluate_i8
    generic :: evaluate => ode_evaluate_i4, ode_evaluate_i8
    procedure :: set_rhs_callback => ode_set_rhs_callback
    procedure :: set_method => ode_set_method
    procedure :: set_tolerances => ode_set_tolerances
    procedure :: set_absolute_tolerances => ode_set_absolute_tolerances
    procedure :: set_initial_step => ode_set_initial_step
    procedure, private :: ode_set_max_steps_i4
    procedure, private :: ode_set_max_steps_i8
    generic :: set_max_steps => ode_set_max_steps_i4, ode_set_max_steps_i8
    procedure :: set_keep_step => ode_set_keep_step
    procedure :: set_clip_negative => ode_set_clip_negative
    procedure :: set_state => ode_set_state
    procedure :: get_state => ode_get_state
    procedure :: set_parameters => ode_set_parameters
    procedure :: get_parameters => ode_get_parameters
    procedure :: integrate => ode_integrate
    procedure :: results => ode_results
    procedure :: created => ode_created
    procedure :: c_handle => ode_c_handle
  end type opsplit_ode_t

  !> A CA grid (ca.h): LIFE cells as integer(c_int8_t) arrays cells(rows, cols), lava
  !> substates as real(c_double) arrays values(rows, cols), indices 1-based.
  type :: opsplit_ca_t
    private
    type(c_ptr) :: handle = c_null_ptr
    integer(c_int64_t) :: rows = 0, cols = 0
  contains
    procedure, private :: ca_create_i4
    procedure, private :: ca_create_i8
    generic :: create => ca_create_i4, ca_create_i8
    procedure :: destroy => ca_destroy
    procedure :: get_shape => ca_get_shape
    procedure :: get_place => ca_get_place
    procedure :: set_boundary => ca_set_boundary
    procedure :: set_rule => ca_set_rule
    procedure :: set_cells => ca_set_cells
    procedure :: get_cells => ca_get_cells
    procedure :: place_rle => ca_place_rle
    procedure :: load_rle => ca_load_rle
    procedure, private :: ca_step_i4
    procedure, private :: ca_step_i8
    generic :: step => ca_step_i4, ca_step_i8
    procedure :: steps => ca_steps
    procedure :: population => ca_population
    procedure :: set_substate => ca_set_substate
    procedure :: get_substate => ca_get_substate
    procedure :: load_substate => ca_load_substate
    procedure :: set_parameter => ca_set_parameter
    procedure :: get_parameter => ca_get_parameter
    procedure :: load_parameters => ca_load_parameters
    procedure :: add_vent => ca_add_vent
    procedure :: load_vents => ca_load_vents
    procedure :: run_until => ca_run_until
    procedure :: get_time => ca_get_time
    procedure :: get_volumes => ca_get_volumes
    procedure :: set_cells_computed => ca_set_cells_computed
    procedure :: created => ca_created
    procedure :: c_handle => ca_c_handle
  end type opsplit_ca_t

  !> A PCPD ensemble (pcpd.h): replicas 1 .. n (1-based), lattices as integer(c_int8_t)
  !> arrays sites(L), series as real(c_double) arrays of the series' length.
  type :: opsplit_pcpd_t
    private
    type(c_ptr) :: handle = c_null_ptr
    integer(c_int64_t) :: L = 0
  contains
    procedure, private :: pcpd_create_i4
    procedure, private :: pcpd_create_i8
    generic :: create => pcpd_create_i4, pcpd_create_i8
    procedure :: destroy => pcpd_destroy
    procedure :: set_probabilities => pcpd_set_probabilities
    procedure, private :: pcpd_initialize_i4
    procedure, private :: pcpd_initialize_i8
    generic :: initialize => pcpd_initialize_i4, pcpd_initialize_i8
    procedure :: set_points_per_decade => pcpd_set_points_per_decade
    procedure :: run => pcpd_run
    procedure :: time => pcpd_time
    procedure :: series_length => pcpd_series_length
    procedure :: get_series => pcpd_get_series
    procedure :: get_lattice => pcpd_get_lattice
    procedure :: set_lattice => pcpd_set_lattice
    procedure :: replicas => pcpd_replicas
    procedure :: adopt => pcpd_adopt
    procedure :: created => pcpd_created
    procedure :: c_handle => pcpd_c_handle
  end type opsplit_pcpd_t

  ! The implementations are reached through the types only.
  private :: context_create, context_create_on_device, context_destroy, context_backend, context_cuda_device, &
             context_set_num_threads, context_set_cuda_stream, context_synchronize, &
             context_set_progress_callback, context_created, context_c_handle
  private :: field_create_i4, field_create_i8, field_create_impl, field_destroy, field_set_spacing, &
             field_get_spacing, field_get_shape_i4, field_get_shape_i8, field_precision, &
             field_component_sum, field_component_min_max, field_transfer, field_created, field_c_handle
  private :: field_upload_r8, field_upload_r4, field_download_r8, field_download_r4
  private :: rd_create, rd_destroy, rd_set_stencil, rd_set_diffusion, rd_set_boundary, &
             rd_max_stable_dt, rd_step_i4, rd_step_i8, rd_step_impl, rd_bad_component, rd_created, &
             rd_c_handle, rd_set_reaction, rd_set_reaction_parameter, rd_reaction_parameter, rd_set_linear, &
             rd_set_cahn_hilliard, rd_set_velocity, rd_set_velocity_field, rd_clear_velocity_field, &
             rd_add_source, rd_clear_sources, rd_set_time, rd_time, rd_free_energy
  private :: mechanism_create, mechanism_destroy, mechanism_add_species, mechanism_find_species, &
             mechanism_species_name, mechanism_add_reaction, mechanism_set_rate, mechanism_counts, &
             mechanism_name_parameter, mechanism_set_rate_expression, mechanism_find_parameter, mechanism_load_kpp, &
             mechanism_set_rate_species_sum, mechanism_load_micm, mechanism_parameter_name, &
             mechanism_evaluate, mechanism_created, mechanism_c_handle, mechanism_known_counts, &
             mechanism_bad_species, mechanism_load_yaml, mechanism_load_chemkin, mechanism_kind, mechanism_equation, &
             mechanism_molar_masses, mechanism_species_thermo, mechanism_mixture_properties, &
             mechanism_concentrations, mechanism_net_production_rates, mechanism_rates_of_progress, &
             mechanism_bad_size
  private :: ode_create_i4, ode_create_i8, ode_create_impl, ode_destroy, ode_shape_i4, ode_shape_i8, &
             ode_set_mechanism, ode_set_reactor, ode_set_jacobian, ode_evaluate_i4, ode_evaluate_i8, &
             ode_set_rhs_callback, ode_set_method, ode_set_tolerances, &
             ode_set_absolute_tolerances, ode_set_initial_step, ode_set_max_steps_i4, ode_set_max_steps_i8, &
             ode_set_keep_step, ode_set_clip_negative, ode_set_state, ode_get_state, ode_set_parameters, &
             ode_get_parameters, ode_transfer, ode_integrate, ode_results, ode_bad_size, ode_created, ode_c_handle
  private :: ca_create_i4, ca_create_i8, ca_destroy, ca_get_shape, ca_get_place, ca_set_boundary, ca_set_rule, ca_set_cells, &
             ca_get_cells, ca_transfer, ca_place_rle, ca_load_rle, ca_step_i4, ca_step_i8, ca_steps, ca_population, ca_created, &
             ca_c_handle, ca_set_substate, ca_get_substate, ca_substate_transfer, ca_load_substate, ca_set_parameter, &
             ca_get_parameter, ca_load_parameters, ca_add_vent, ca_load_vents, ca_run_until, ca_get_time, &
             ca_get_volumes, ca_set_cells_computed
  private :: pcpd_create_i4, pcpd_create_i8, pcpd_destroy, pcpd_set_probabilities, pcpd_initialize_i4, &
             pcpd_initialize_i8, &
             pcpd_set_points_per_decade, pcpd_run, pcpd_time, pcpd_series_length, pcpd_get_series, pcpd_get_lattice, &
             pcpd_set_lattice, pcpd_lattice_size, pcpd_created, pcpd_c_handle, pcpd_replicas, pcpd_adopt
  private :: finish, fortran_failure, already_created, precision_name, itoa, quiet_nan, values_at, int_flag

  ! Where a zero-size array's address goes: C refuses NULL even where it reads or
  ! writes no value (an ODE batch's parameters with nparam = 0).
  real(c_double), target, save, private :: no_values(1) = 0.0_c_double

  ! The last failure the wrappers found themselves (see opsplit_last_error).
  character(len=:), allocatable, private, save :: fortran_message
  logical, private, save :: fortran_message_current = .false.

contains

  ! ---- strings and errors ----------------------------------------------------

  !> A Fortran copy of a NUL-terminated C string ('' for a null pointer).
  function opsplit_c_string(text) result(s)
    type(c_ptr), intent(in) :: text
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer(c_size_t) :: n
    integer :: i
    if (.not. c_associated(text)) then
      s = ''
      return
    end if
    n = c_strlen(text)
    call c_f_pointer(text, chars, [n])
    allocate(character(len=int(n)) :: s)
    do i = 1, int(n)
      s(i:i) = chars(i)
    end do
  end function opsplit_c_string

  !> The name of a status ("OPSPLIT_ERROR_INVALID_ARGUMENT").
  function opsplit_status_text(status) result(s)
    integer(c_int), intent(in) :: status
    character(len=:), allocatable :: s
    s = opsplit_c_string(opsplit_status_string(status))
  end function opsplit_status_text

  !> The message of the last failed call ('' after a success): the C library's
  !> message, or that of a failure found by the Fortran wrappers.
  function opsplit_last_error() result(s)
    character(len=:), allocatable :: s
    s = opsplit_c_string(opsplit_last_error_message())
    if (len(s) == 0 .and. fortran_message_current) s = fortran_message
  end function opsplit_last_error

  ! Every wrapper ends here, once. `message` is given for a failure found on the
  ! Fortran side. With stat: stat = status. Without: a failure stops the program.
  subroutine finish(status, stat, message)
    integer(c_int), intent(in) :: status
    integer, intent(out), optional :: stat
    character(len=*), intent(in), optional :: message
    character(len=:), allocatable :: text
    if (present(message)) then
      call fortran_failure(message)
    else
      fortran_message_current = .false.
    end if
    if (present(stat)) then
      stat = int(status)
    else if (status /= OPSPLIT_SUCCESS) then
      text = opsplit_last_error()
      if (len(text) == 0) text = opsplit_status_text(status)
      write(error_unit, '(a)') 'opsplit: ' // text
      error stop
    end if
  end subroutine finish

  ! Records a failure found on the Fortran side. The C message is emptied first (a
  ! successful C call leaves it empty; destroying a NULL handle is a documented no-op),
  ! so that a C message from an earlier failure cannot mask this one.
  subroutine fortran_failure(message)
    character(len=*), intent(in) :: message
    type(c_ptr) :: none
    integer(c_int) :: ignored
    none = c_null_ptr
    ignored = opsplit_context_destroy(none)
    fortran_message = message
    fortran_message_current = .true.
  end subroutine fortran_failure

  ! create() on an object that already holds a handle is refused (it would leak it).
  logical function already_created(handle, who, stat)
    type(c_ptr), intent(in) :: handle
    character(len=*), intent(in) :: who
    integer, intent(out), optional :: stat
    already_created = c_associated(handle)
    if (already_created) call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, &
        who // ': this object already holds a handle; destroy it before creating another')
  end function already_created

  function itoa(i) result(s)
    integer(c_int64_t), intent(in) :: i
    character(len=:), allocatable :: s
    character(len=24) :: buffer
    write(buffer, '(i0)') i
    s = trim(buffer)
  end function itoa

  function precision_name(precision) result(s)
    integer(c_int), intent(in) :: precision
    character(len=:), allocatable :: s
    select case (precision)
    case (OPSPLIT_FLOAT64)
      s = 'OPSPLIT_FLOAT64 (real(c_double))'
    case (OPSPLIT_FLOAT32)
      s = 'OPSPLIT_FLOAT32 (real(c_float))'
    case default
      s = 'precision ' // itoa(int(precision, c_int64_t))
    end select
  end function precision_name

  real(c_double) function quiet_nan()
    quiet_nan = ieee_value(0.0_c_double, ieee_quiet_nan)
  end function quiet_nan

  ! The address C receives for a contiguous real(c_double) array of any rank: its own, or
  ! that of no_values when it has no values (c_loc of a zero-size array is not allowed).
  ! No intent: C may write through the address.
  type(c_ptr) function values_at(array)
    real(c_double), contiguous, target :: array(..)
    values_at = c_loc(no_values)
    if (size(array) > 0) values_at = c_loc(array)
  end function values_at

  integer(c_int) function int_flag(flag)
    logical, intent(in) :: flag
    int_flag = 0
    if (flag) int_flag = 1
  end function int_flag

  ! ---- opsplit_context_t -----------------------------------------------------

  !> backend: OPSPLIT_BACKEND_AUTO (default), _CPU or _CUDA.
  subroutine context_create(this, backend, stat)
    class(opsplit_context_t), intent(inout) :: this
    integer(c_int), intent(in), optional :: backend
    integer, intent(out), optional :: stat
    integer(c_int) :: which
    if (already_created(this%handle, 'opsplit_context_t%create', stat)) return
    which = OPSPLIT_BACKEND_AUTO
    if (present(backend)) which = backend
    call finish(opsplit_context_create(which, this%handle), stat)
  end subroutine context_create

  !> A CUDA context on device `device` (the CUDA ordinal, 0-based as in CUDA).
  subroutine context_create_on_device(this, device, stat)
    class(opsplit_context_t), intent(inout) :: this
    integer(c_int), intent(in) :: device
    integer, intent(out), optional :: stat
    if (already_created(this%handle, 'opsplit_context_t%create_on_device', stat)) return
    call finish(opsplit_context_create_on_device(device, this%handle), stat)
  end subroutine context_create_on_device

  !> Refused while fields or models made from the context are alive. Idempotent.
  subroutine context_destroy(this, stat)
    class(opsplit_context_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_context_destroy(this%handle), stat)
  end subroutine context_destroy

  !> The backend the context runs on (OPSPLIT_BACKEND_CPU or _CUDA); -1 on failure.
  integer(c_int) function context_backend(this, stat)
    class(opsplit_context_t), intent(in) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    context_backend = -1
    status = opsplit_context_get_backend(this%handle, context_backend)
    if (status /= OPSPLIT_SUCCESS) context_backend = -1
    call finish(status, stat)
  end function context_backend

  !> The GPU of a CUDA context (0-based, as CUDA numbers them); -1 for a CPU context
  !> or on failure.
  integer(c_int) function context_cuda_device(this, stat)
    class(opsplit_context_t), intent(in) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    context_cuda_device = -1
    status = opsplit_context_get_cuda_device(this%handle, context_cuda_device)
    if (status /= OPSPLIT_SUCCESS) context_cuda_device = -1
    call finish(status, stat)
  end function context_cuda_device

  !> OpenMP threads of the context's CPU work; 0 restores the OpenMP default.
  subroutine context_set_num_threads(this, nthreads, stat)
    class(opsplit_context_t), intent(in) :: this
    integer(c_int), intent(in) :: nthreads
    integer, intent(out), optional :: stat
    call finish(opsplit_context_set_num_threads(this%handle, nthreads), stat)
  end subroutine context_set_num_threads

  !> CUDA contexts only: order the work on the host's cudaStream_t (c_null_ptr: the
  !> context's own stream).
  subroutine context_set_cuda_stream(this, stream, stat)
    class(opsplit_context_t), intent(in) :: this
    type(c_ptr), intent(in) :: stream
    integer, intent(out), optional :: stat
    call finish(opsplit_context_set_cuda_stream(this%handle, stream), stat)
  end subroutine context_set_cuda_stream

  subroutine context_synchronize(this, stat)
    class(opsplit_context_t), intent(in) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_context_synchronize(this%handle), stat)
  end subroutine context_synchronize

  !> fn: c_funloc of a function with the interface opsplit_progress_fn, or c_null_funptr
  !> to remove the callback; user (default c_null_ptr) is handed to it.
  !> (fn is by value: gfortran 12 passes a c_funloc(f) actual by reference through a
  !> .rodata constant, a text relocation in a PIE.)
  subroutine context_set_progress_callback(this, fn, user, stat)
    class(opsplit_context_t), intent(in) :: this
    type(c_funptr), value :: fn
    type(c_ptr), intent(in), optional :: user
    integer, intent(out), optional :: stat
    type(c_ptr) :: data
    data = c_null_ptr
    if (present(user)) data = user
    call finish(opsplit_context_set_progress_callback(this%handle, fn, data), stat)
  end subroutine context_set_progress_callback

  logical function context_created(this)
    class(opsplit_context_t), intent(in) :: this
    context_created = c_associated(this%handle)
  end function context_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function context_c_handle(this)
    class(opsplit_context_t), intent(in) :: this
    context_c_handle = this%handle
  end function context_c_handle

  ! ---- opsplit_field_t -------------------------------------------------------

  !> nx*ny*nz cells (ny = nz = 1 for 1D, nz = 1 for 2D) of ncomp components;
  !> precision OPSPLIT_FLOAT64 (default) or OPSPLIT_FLOAT32. Contents start at zero.
  subroutine field_create_i4(this, ctx, nx, ny, nz, ncomp, precision, stat)
    class(opsplit_field_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer, intent(in) :: nx, ny, nz
    integer(c_int), intent(in) :: ncomp
    integer(c_int), intent(in), optional :: precision
    integer, intent(out), optional :: stat
    call field_create_impl(this, ctx, int(nx, c_int64_t), int(ny, c_int64_t), int(nz, c_int64_t), &
                           ncomp, precision, stat)
  end subroutine field_create_i4

  subroutine field_create_i8(this, ctx, nx, ny, nz, ncomp, precision, stat)
    class(opsplit_field_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int64_t), intent(in) :: nx, ny, nz
    integer(c_int), intent(in) :: ncomp
    integer(c_int), intent(in), optional :: precision
    integer, intent(out), optional :: stat
    call field_create_impl(this, ctx, nx, ny, nz, ncomp, precision, stat)
  end subroutine field_create_i8

  subroutine field_create_impl(this, ctx, nx, ny, nz, ncomp, precision, stat)
    class(opsplit_field_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int64_t), intent(in) :: nx, ny, nz
    integer(c_int), intent(in) :: ncomp
    integer(c_int), intent(in), optional :: precision
    integer, intent(out), optional :: stat
    integer(c_int) :: kind
    if (already_created(this%handle, 'opsplit_field_t%create', stat)) return
    kind = OPSPLIT_FLOAT64
    if (present(precision)) kind = precision
    call finish(opsplit_field_create(ctx%handle, nx, ny, nz, ncomp, kind, this%handle), stat)
  end subroutine field_create_impl

  !> Idempotent: a second call (or one on a field never created) does nothing.
  subroutine field_destroy(this, stat)
    class(opsplit_field_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_field_destroy(this%handle), stat)
  end subroutine field_destroy

  subroutine field_set_spacing(this, hx, hy, hz, stat)
    class(opsplit_field_t), intent(in) :: this
    real(c_double), intent(in) :: hx, hy, hz
    integer, intent(out), optional :: stat
    call finish(opsplit_field_set_spacing(this%handle, hx, hy, hz), stat)
  end subroutine field_set_spacing

  subroutine field_get_spacing(this, hx, hy, hz, stat)
    class(opsplit_field_t), intent(in) :: this
    real(c_double), intent(out) :: hx, hy, hz
    integer, intent(out), optional :: stat
    call finish(opsplit_field_get_spacing(this%handle, hx, hy, hz), stat)
  end subroutine field_get_spacing

  !> nx, ny, nz as integer(c_int64_t); ncomp.
  subroutine field_get_shape_i8(this, nx, ny, nz, ncomp, stat)
    class(opsplit_field_t), intent(in) :: this
    integer(c_int64_t), intent(out) :: nx, ny, nz
    integer(c_int), intent(out) :: ncomp
    integer, intent(out), optional :: stat
    call finish(opsplit_field_get_shape(this%handle, nx, ny, nz, ncomp), stat)
  end subroutine field_get_shape_i8

  !> nx, ny, nz as default integers (refused if one does not fit); ncomp.
  subroutine field_get_shape_i4(this, nx, ny, nz, ncomp, stat)
    class(opsplit_field_t), intent(in) :: this
    integer, intent(out) :: nx, ny, nz
    integer(c_int), intent(out) :: ncomp
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: n(3)
    integer(c_int) :: status
    nx = 0
    ny = 0
    nz = 0
    status = opsplit_field_get_shape(this%handle, n(1), n(2), n(3), ncomp)
    if (status == OPSPLIT_SUCCESS .and. maxval(n) > huge(nx)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_field_t%get_shape: the shape (' // &
                  itoa(n(1)) // ', ' // itoa(n(2)) // ', ' // itoa(n(3)) // &
                  ') does not fit default integers; pass integer(c_int64_t) nx, ny, nz')
      return
    end if
    nx = int(n(1))
    ny = int(n(2))
    nz = int(n(3))
    call finish(status, stat)
  end subroutine field_get_shape_i4

  !> OPSPLIT_FLOAT64 or OPSPLIT_FLOAT32; -1 on failure.
  integer(c_int) function field_precision(this, stat)
    class(opsplit_field_t), intent(in) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_field_get_precision(this%handle, field_precision)
    if (status /= OPSPLIT_SUCCESS) field_precision = -1
    call finish(status, stat)
  end function field_precision

  !> The plain sum of component comp (1-based) over all cells; NaN on failure.
  real(c_double) function field_component_sum(this, comp, stat)
    class(opsplit_field_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: nx, ny, nz
    integer(c_int) :: ncomp, status
    field_component_sum = quiet_nan()
    status = opsplit_field_get_shape(this%handle, nx, ny, nz, ncomp)
    if (status == OPSPLIT_SUCCESS .and. (comp < 1 .or. comp > ncomp)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_field_t%component_sum: comp=' // &
                  itoa(int(comp, c_int64_t)) // ' is not in [1, ' // itoa(int(ncomp, c_int64_t)) // &
                  '] (components are 1-based in Fortran)')
      return
    end if
    if (status == OPSPLIT_SUCCESS) status = opsplit_field_component_sum(this%handle, comp - 1, field_component_sum)
    if (status /= OPSPLIT_SUCCESS) field_component_sum = quiet_nan()
    call finish(status, stat)
  end function field_component_sum

  !> The smallest and largest value of component comp (1-based); NaN when it holds one.
  subroutine field_component_min_max(this, comp, min, max, stat)
    class(opsplit_field_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    real(c_double), intent(out) :: min, max
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: nx, ny, nz
    integer(c_int) :: ncomp, status
    min = quiet_nan()
    max = min
    status = opsplit_field_get_shape(this%handle, nx, ny, nz, ncomp)
    if (status == OPSPLIT_SUCCESS .and. (comp < 1 .or. comp > ncomp)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_field_t%component_min_max: comp=' // &
                  itoa(int(comp, c_int64_t)) // ' is not in [1, ' // itoa(int(ncomp, c_int64_t)) // &
                  '] (components are 1-based in Fortran)')
      return
    end if
    if (status == OPSPLIT_SUCCESS) status = opsplit_field_component_min_max(this%handle, comp - 1, min, max)
    call finish(status, stat)
  end subroutine field_component_min_max

  ! upload/download of every kind and rank: checks the array's kind against the field's
  ! precision and its size against nx*ny*nz*ncomp, then hands its address to C.
  subroutine field_transfer(this, verb, host, nvalues, array_precision, layout, stat)
    class(opsplit_field_t), intent(in) :: this
    character(len=*), intent(in) :: verb
    type(c_ptr), intent(in) :: host
    integer(c_int64_t), intent(in) :: nvalues
    integer(c_int), intent(in) :: array_precision
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: nx, ny, nz, expected
    integer(c_int) :: ncomp, field_kind, order, status
    order = OPSPLIT_LAYOUT_PLANAR
    if (present(layout)) order = layout
    status = opsplit_field_get_precision(this%handle, field_kind)
    if (status == OPSPLIT_SUCCESS) status = opsplit_field_get_shape(this%handle, nx, ny, nz, ncomp)
    if (status /= OPSPLIT_SUCCESS) then
      call finish(status, stat)
      return
    end if
    if (array_precision /= field_kind) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_field_t%' // verb // ': the array is ' // &
                  precision_name(array_precision) // ' but the field is ' // precision_name(field_kind))
      return
    end if
    expected = nx * ny * nz * int(ncomp, c_int64_t)
    if (nvalues /= expected) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_field_t%' // verb // ': the array has ' // &
                  itoa(nvalues) // ' values but the field has nx*ny*nz*ncomp = ' // itoa(nx) // '*' // &
                  itoa(ny) // '*' // itoa(nz) // '*' // itoa(int(ncomp, c_int64_t)) // ' = ' // &
                  itoa(expected))
      return
    end if
    if (verb == 'upload') then
      status = opsplit_field_upload(this%handle, host, order)
    else
      status = opsplit_field_download(this%handle, host, order)
    end if
    call finish(status, stat)
  end subroutine field_transfer

  ! The specifics of the generic upload and download: arrays of real(c_double) or
  ! real(c_float) of any rank (assumed-rank, Fortran 2018), in the layout's order
  ! (PLANAR: c(nx,ny,nz,ncomp) or any shape of that size; INTERLEAVED: c(ncomp,nx,ny,nz)).
  ! A non-contiguous actual argument is copied in (and out) by the compiler.
  subroutine field_upload_r8(this, array, layout, stat)
    class(opsplit_field_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: array(..)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    type(c_ptr) :: host
    host = c_null_ptr
    if (size(array) > 0) host = c_loc(array)
    call field_transfer(this, 'upload', host, size(array, kind=c_int64_t), OPSPLIT_FLOAT64, layout, stat)
  end subroutine field_upload_r8

  subroutine field_upload_r4(this, array, layout, stat)
    class(opsplit_field_t), intent(in) :: this
    real(c_float), intent(in), contiguous, target :: array(..)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    type(c_ptr) :: host
    host = c_null_ptr
    if (size(array) > 0) host = c_loc(array)
    call field_transfer(this, 'upload', host, size(array, kind=c_int64_t), OPSPLIT_FLOAT32, layout, stat)
  end subroutine field_upload_r4

  subroutine field_download_r8(this, array, layout, stat)
    class(opsplit_field_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: array(..)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    type(c_ptr) :: host
    host = c_null_ptr
    if (size(array) > 0) host = c_loc(array)
    call field_transfer(this, 'download', host, size(array, kind=c_int64_t), OPSPLIT_FLOAT64, layout, stat)
  end subroutine field_download_r8

  subroutine field_download_r4(this, array, layout, stat)
    class(opsplit_field_t), intent(in) :: this
    real(c_float), intent(inout), contiguous, target :: array(..)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    type(c_ptr) :: host
    host = c_null_ptr
    if (size(array) > 0) host = c_loc(array)
    call field_transfer(this, 'download', host, size(array, kind=c_int64_t), OPSPLIT_FLOAT32, layout, stat)
  end subroutine field_download_r4
  logical function field_created(this)
    class(opsplit_field_t), intent(in) :: this
    field_created = c_associated(this%handle)
  end function field_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function field_c_handle(this)
    class(opsplit_field_t), intent(in) :: this
    field_c_handle = this%handle
  end function field_c_handle

  ! ---- opsplit_rd_t ----------------------------------------------------------

  !> A reaction-diffusion model for fields of ncomp components (defaults: 7-point
  !> stencil, zero diffusion, NOFLUX on every face).
  subroutine rd_create(this, ctx, ncomp, stat)
    class(opsplit_rd_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: ncomp
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    if (already_created(this%handle, 'opsplit_rd_t%create', stat)) return
    status = opsplit_rd_create(ctx%handle, ncomp, this%handle)
    if (status == OPSPLIT_SUCCESS) this%ncomp = ncomp
    call finish(status, stat)
  end subroutine rd_create

  !> Idempotent: a second call (or one on a model never created) does nothing.
  subroutine rd_destroy(this, stat)
    class(opsplit_rd_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_rd_destroy(this%handle)
    if (.not. c_associated(this%handle)) this%ncomp = 0
    call finish(status, stat)
  end subroutine rd_destroy

  !> OPSPLIT_STENCIL_7POINT or OPSPLIT_STENCIL_19POINT.
  subroutine rd_set_stencil(this, stencil, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: stencil
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_set_stencil(this%handle, stencil), stat)
  end subroutine rd_set_stencil

  ! True (after reporting it) when the 1-based comp is out of range. A model not created
  ! passes: C then reports the handle.
  logical function rd_bad_component(this, comp, who, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    character(len=*), intent(in) :: who
    integer, intent(out), optional :: stat
    rd_bad_component = c_associated(this%handle) .and. (comp < 1 .or. comp > this%ncomp)
    if (rd_bad_component) &
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_rd_t%' // who // ': comp=' // &
                  itoa(int(comp, c_int64_t)) // ' is not in [1, ' // itoa(int(this%ncomp, c_int64_t)) // &
                  '] (components are 1-based in Fortran)')
  end function rd_bad_component

  !> The diffusion coefficient (finite, >= 0) of component comp (1-based).
  subroutine rd_set_diffusion(this, comp, coefficient, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    real(c_double), intent(in) :: coefficient
    integer, intent(out), optional :: stat
    if (rd_bad_component(this, comp, 'set_diffusion', stat)) return
    call finish(opsplit_rd_set_diffusion(this%handle, comp - 1, coefficient), stat)
  end subroutine rd_set_diffusion

  !> The condition bc (OPSPLIT_BC_*) on face (OPSPLIT_FACE_*) for component comp
  !> (1-based); value (default 0) is the Dirichlet face value.
  subroutine rd_set_boundary(this, face, comp, bc, value, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: face
    integer(c_int), intent(in) :: comp
    integer(c_int), intent(in) :: bc
    real(c_double), intent(in), optional :: value
    integer, intent(out), optional :: stat
    real(c_double) :: v
    if (rd_bad_component(this, comp, 'set_boundary', stat)) return
    v = 0.0_c_double
    if (present(value)) v = value
    call finish(opsplit_rd_set_boundary(this%handle, face, comp - 1, bc, v), stat)
  end subroutine rd_set_boundary

  !> The largest stable forward-Euler dt for this field (+Inf without diffusion);
  !> NaN on failure.
  real(c_double) function rd_max_stable_dt(this, field, stat)
    class(opsplit_rd_t), intent(in) :: this
    class(opsplit_field_t), intent(in) :: field
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_rd_max_stable_dt(this%handle, field%handle, rd_max_stable_dt)
    if (status /= OPSPLIT_SUCCESS) rd_max_stable_dt = quiet_nan()
    call finish(status, stat)
  end function rd_max_stable_dt

  !> nsteps forward-Euler steps of size dt (a default integer or integer(c_int64_t)).
  subroutine rd_step_i4(this, field, dt, nsteps, stat)
    class(opsplit_rd_t), intent(in) :: this
    class(opsplit_field_t), intent(in) :: field
    real(c_double), intent(in) :: dt
    integer, intent(in) :: nsteps
    integer, intent(out), optional :: stat
    call rd_step_impl(this, field, dt, int(nsteps, c_int64_t), stat)
  end subroutine rd_step_i4

  subroutine rd_step_i8(this, field, dt, nsteps, stat)
    class(opsplit_rd_t), intent(in) :: this
    class(opsplit_field_t), intent(in) :: field
    real(c_double), intent(in) :: dt
    integer(c_int64_t), intent(in) :: nsteps
    integer, intent(out), optional :: stat
    call rd_step_impl(this, field, dt, nsteps, stat)
  end subroutine rd_step_i8

  subroutine rd_step_impl(this, field, dt, nsteps, stat)
    class(opsplit_rd_t), intent(in) :: this
    class(opsplit_field_t), intent(in) :: field
    real(c_double), intent(in) :: dt
    integer(c_int64_t), intent(in) :: nsteps
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_step(this%handle, field%handle, dt, nsteps), stat)
  end subroutine rd_step_impl

  !> The reaction kind (OPSPLIT_REACTION_*); resets its parameters to their defaults.
  subroutine rd_set_reaction(this, kind, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: kind
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_set_reaction(this%handle, kind), stat)
  end subroutine rd_set_reaction

  !> A parameter of the reaction kind by name ('gamma', 'F', 'k1', ...).
  subroutine rd_set_reaction_parameter(this, name, value, stat)
    class(opsplit_rd_t), intent(in) :: this
    character(len=*), intent(in) :: name
    real(c_double), intent(in) :: value
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_set_reaction_parameter(this%handle, trim(name) // c_null_char, value), stat)
  end subroutine rd_set_reaction_parameter

  !> The value of a reaction parameter; NaN on failure.
  real(c_double) function rd_reaction_parameter(this, name, stat)
    class(opsplit_rd_t), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_rd_get_reaction_parameter(this%handle, trim(name) // c_null_char, rd_reaction_parameter)
    if (status /= OPSPLIT_SUCCESS) rd_reaction_parameter = quiet_nan()
    call finish(status, stat)
  end function rd_reaction_parameter

  !> dc/dt += rate*c + source for component comp (1-based).
  subroutine rd_set_linear(this, comp, rate, source, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    real(c_double), intent(in) :: rate, source
    integer, intent(out), optional :: stat
    if (rd_bad_component(this, comp, 'set_linear', stat)) return
    call finish(opsplit_rd_set_linear(this%handle, comp - 1, rate, source), stat)
  end subroutine rd_set_linear

  !> dc/dt += m Lap(-b c + u c^3 - kappa Lap c) for component comp (1-based); m = 0 removes it.
  subroutine rd_set_cahn_hilliard(this, comp, m, b, u, kappa, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    real(c_double), intent(in) :: m, b, u, kappa
    integer, intent(out), optional :: stat
    if (rd_bad_component(this, comp, 'set_cahn_hilliard', stat)) return
    call finish(opsplit_rd_set_cahn_hilliard(this%handle, comp - 1, m, b, u, kappa), stat)
  end subroutine rd_set_cahn_hilliard

  !> Uniform velocity along axis 1/2/3 (x/y/z): constant + amplitude*sin(angular_frequency*t
  !> + phase); the oscillating part defaults to none.
  subroutine rd_set_velocity(this, axis, constant, amplitude, angular_frequency, phase, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: axis
    real(c_double), intent(in) :: constant
    real(c_double), intent(in), optional :: amplitude, angular_frequency, phase
    integer, intent(out), optional :: stat
    real(c_double) :: a, w, p
    if (c_associated(this%handle) .and. (axis < 1 .or. axis > 3)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_rd_t%set_velocity: axis=' // &
                  itoa(int(axis, c_int64_t)) // ' is not 1 (x), 2 (y) or 3 (z)')
      return
    end if
    a = 0.0_c_double
    w = 0.0_c_double
    p = 0.0_c_double
    if (present(amplitude)) a = amplitude
    if (present(angular_frequency)) w = angular_frequency
    if (present(phase)) p = phase
    call finish(opsplit_rd_set_velocity(this%handle, axis - 1, constant, a, w, p), stat)
  end subroutine rd_set_velocity

  !> A per-cell velocity: a field of 3 components (u_x, u_y, u_z), copied now.
  subroutine rd_set_velocity_field(this, velocity, stat)
    class(opsplit_rd_t), intent(in) :: this
    class(opsplit_field_t), intent(in) :: velocity
    integer, intent(out), optional :: stat
    if (.not. c_associated(velocity%handle)) then
      call finish(OPSPLIT_ERROR_INVALID_HANDLE, stat, &
                  'opsplit_rd_t%set_velocity_field: velocity was not created (clear_velocity_field removes one)')
      return
    end if
    call finish(opsplit_rd_set_velocity_field(this%handle, velocity%handle), stat)
  end subroutine rd_set_velocity_field

  subroutine rd_clear_velocity_field(this, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_set_velocity_field(this%handle, c_null_ptr), stat)
  end subroutine rd_clear_velocity_field

  !> A point source dc/dt += rate in cell (i, j, k) of component comp, all 1-based.
  subroutine rd_add_source(this, comp, i, j, k, rate, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    integer, intent(in) :: i, j, k
    real(c_double), intent(in) :: rate
    integer, intent(out), optional :: stat
    if (rd_bad_component(this, comp, 'add_source', stat)) return
    call finish(opsplit_rd_add_source(this%handle, comp - 1, int(i - 1, c_int64_t), int(j - 1, c_int64_t), &
                                      int(k - 1, c_int64_t), rate), stat)
  end subroutine rd_add_source

  subroutine rd_clear_sources(this, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_clear_sources(this%handle), stat)
  end subroutine rd_clear_sources

  !> The model's clock (advanced by every completed step).
  subroutine rd_set_time(this, t, stat)
    class(opsplit_rd_t), intent(in) :: this
    real(c_double), intent(in) :: t
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_set_time(this%handle, t), stat)
  end subroutine rd_set_time

  real(c_double) function rd_time(this, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_rd_get_time(this%handle, rd_time)
    if (status /= OPSPLIT_SUCCESS) rd_time = quiet_nan()
    call finish(status, stat)
  end function rd_time

  !> The Cahn-Hilliard free energy of component comp (1-based); NaN on failure.
  real(c_double) function rd_free_energy(this, field, comp, stat)
    class(opsplit_rd_t), intent(in) :: this
    class(opsplit_field_t), intent(in) :: field
    integer(c_int), intent(in) :: comp
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    rd_free_energy = quiet_nan()
    if (rd_bad_component(this, comp, 'free_energy', stat)) return
    status = opsplit_rd_free_energy(this%handle, field%handle, comp - 1, rd_free_energy)
    if (status /= OPSPLIT_SUCCESS) rd_free_energy = quiet_nan()
    call finish(status, stat)
  end function rd_free_energy

  logical function rd_created(this)
    class(opsplit_rd_t), intent(in) :: this
    rd_created = c_associated(this%handle)
  end function rd_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function rd_c_handle(this)
    class(opsplit_rd_t), intent(in) :: this
    rd_c_handle = this%handle
  end function rd_c_handle

  ! ---- opsplit_mechanism_t ---------------------------------------------------

  !> An empty mechanism (species and reactions are added one by one).
  subroutine mechanism_create(this, ctx, stat)
    class(opsplit_mechanism_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer, intent(out), optional :: stat
    if (already_created(this%handle, 'opsplit_mechanism_t%create', stat)) return
    call finish(opsplit_mechanism_create(ctx%handle, this%handle), stat)
  end subroutine mechanism_create

  !> Idempotent: a second call (or one on a mechanism never created) does nothing. An
  !> ODE batch keeps its own copy of an attached mechanism.
  subroutine mechanism_destroy(this, stat)
    class(opsplit_mechanism_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_mechanism_destroy(this%handle), stat)
  end subroutine mechanism_destroy

  ! The counts of a created mechanism, for the Fortran-side checks; .false. when there
  ! are none to check against (not created, or C refused the handle: the call that
  ! follows then reports it).
  logical function mechanism_known_counts(this, nspecies, nreactions, nparams)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(out) :: nspecies, nreactions, nparams
    nspecies = 0
    nreactions = 0
    nparams = 0
    mechanism_known_counts = c_associated(this%handle)
    if (mechanism_known_counts) mechanism_known_counts = &
        opsplit_mechanism_get_counts(this%handle, nspecies, nreactions, nparams) == OPSPLIT_SUCCESS
  end function mechanism_known_counts

  ! True (after reporting it) when a 1-based species index of `which` (reactants or
  ! products of add_reaction) is not in [1, nspecies].
  logical function mechanism_bad_species(species, which, nspecies, stat)
    integer(c_int), intent(in) :: species(:)
    character(len=*), intent(in) :: which
    integer(c_int), intent(in) :: nspecies
    integer, intent(out), optional :: stat
    integer :: i
    mechanism_bad_species = .false.
    do i = 1, size(species)
      if (species(i) < 1 .or. species(i) > nspecies) then
        mechanism_bad_species = .true.
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%add_reaction: ' // which // &
                    '(' // itoa(int(i, c_int64_t)) // ')=' // itoa(int(species(i), c_int64_t)) // &
                    ' is not a species in [1, ' // itoa(int(nspecies, c_int64_t)) // &
                    '] (species are 1-based in Fortran)')
        return
      end if
    end do
  end function mechanism_bad_species

  !> Adds a species (a unique name of 1 to 64 bytes; trailing blanks are not part of
  !> it); index receives its 1-based number (0 on failure): species are numbered in the
  !> order they are added and are the equations of an ODE batch in that order.
  subroutine mechanism_add_species(this, name, index, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    character(len=*), intent(in) :: name
    integer(c_int), intent(out), optional :: index
    integer, intent(out), optional :: stat
    integer(c_int) :: status, i
    i = -1
    status = opsplit_mechanism_add_species(this%handle, trim(name) // c_null_char, i)
    if (present(index)) then
      index = 0
      if (status == OPSPLIT_SUCCESS) index = i + 1
    end if
    call finish(status, stat)
  end subroutine mechanism_add_species

  !> The 1-based number of the species called name; 0 (and a failure) when there is none.
  integer(c_int) function mechanism_find_species(this, name, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: stat
    integer(c_int) :: status, i
    i = -1
    status = opsplit_mechanism_find_species(this%handle, trim(name) // c_null_char, i)
    mechanism_find_species = 0
    if (status == OPSPLIT_SUCCESS) mechanism_find_species = i + 1
    call finish(status, stat)
  end function mechanism_find_species

  !> The name of species index (1-based); '' on failure.
  function mechanism_species_name(this, index, stat) result(name)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: index
    integer, intent(out), optional :: stat
    character(len=:), allocatable :: name
    integer(c_int) :: nspecies, nreactions, nparams, status
    type(c_ptr) :: text
    name = ''
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (index < 1 .or. index > nspecies) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%species_name: index=' // &
                    itoa(int(index, c_int64_t)) // ' is not a species in [1, ' // &
                    itoa(int(nspecies, c_int64_t)) // '] (species are 1-based in Fortran)')
        return
      end if
    end if
    text = c_null_ptr
    status = opsplit_mechanism_get_species_name(this%handle, index - 1, text)
    if (status == OPSPLIT_SUCCESS) name = opsplit_c_string(text)
    call finish(status, stat)
  end function mechanism_species_name

  !> Adds a reaction: reactants(:) and products(:) are 1-based species numbers (either may
  !> be empty, not both; a species listed twice on one side adds up, a species on both
  !> sides is a catalyst), with their stoichiometric coefficients (same sizes; default
  !> all 1). product_yields instead of product_coefficients gives real yields (each in
  !> (0, 1000]: lumped mechanisms' "0.39 HO2"). index receives the reaction's 1-based
  !> number (0 on failure). The reaction has no rate until set_rate gives it one.
  subroutine mechanism_add_reaction(this, reactants, products, reactant_coefficients, product_coefficients, &
                                    index, stat, product_yields)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: reactants(:), products(:)
    integer(c_int), intent(in), optional :: reactant_coefficients(:), product_coefficients(:)
    integer(c_int), intent(out), optional :: index
    integer, intent(out), optional :: stat
    real(c_double), intent(in), optional :: product_yields(:)
    integer(c_int), allocatable, target :: r(:), p(:), rc(:), pc(:)
    real(c_double), allocatable, target :: py(:)
    type(c_ptr) :: r_at, p_at, rc_at, pc_at, py_at
    integer(c_int) :: nspecies, nreactions, nparams, status, i
    if (present(index)) index = 0
    if (present(product_yields)) then
      if (present(product_coefficients)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%add_reaction: ' // &
                    'give product_coefficients or product_yields, not both')
        return
      end if
      if (size(product_yields) /= size(products)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%add_reaction: ' // &
                    'product_yields has ' // itoa(size(product_yields, kind=c_int64_t)) // &
                    ' values but products has ' // itoa(size(products, kind=c_int64_t)))
        return
      end if
    end if
    if (present(reactant_coefficients)) then
      if (size(reactant_coefficients) /= size(reactants)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%add_reaction: ' // &
                    'reactant_coefficients has ' // itoa(size(reactant_coefficients, kind=c_int64_t)) // &
                    ' values but reactants has ' // itoa(size(reactants, kind=c_int64_t)))
        return
      end if
    end if
    if (present(product_coefficients)) then
      if (size(product_coefficients) /= size(products)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%add_reaction: ' // &
                    'product_coefficients has ' // itoa(size(product_coefficients, kind=c_int64_t)) // &
                    ' values but products has ' // itoa(size(products, kind=c_int64_t)))
        return
      end if
    end if
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (mechanism_bad_species(reactants, 'reactants', nspecies, stat)) return
      if (mechanism_bad_species(products, 'products', nspecies, stat)) return
    end if
    ! 0-based copies for C; an empty list is NULL there.
    r = reactants - 1
    p = products - 1
    r_at = c_null_ptr
    p_at = c_null_ptr
    rc_at = c_null_ptr
    pc_at = c_null_ptr
    if (size(r) > 0) r_at = c_loc(r)
    if (size(p) > 0) p_at = c_loc(p)
    if (present(reactant_coefficients)) then
      rc = reactant_coefficients
      if (size(rc) > 0) rc_at = c_loc(rc)
    end if
    if (present(product_coefficients)) then
      pc = product_coefficients
      if (size(pc) > 0) pc_at = c_loc(pc)
    end if
    i = -1
    if (present(product_yields)) then
      py_at = c_null_ptr
      py = product_yields
      if (size(py) > 0) py_at = c_loc(py)
      status = opsplit_mechanism_add_reaction_yields(this%handle, int(size(r), c_int), r_at, rc_at, &
                                                     int(size(p), c_int), p_at, py_at, i)
    else
      status = opsplit_mechanism_add_reaction(this%handle, int(size(r), c_int), r_at, rc_at, int(size(p), c_int), &
                                              p_at, pc_at, i)
    end if
    if (present(index) .and. status == OPSPLIT_SUCCESS) index = i + 1
    call finish(status, stat)
  end subroutine mechanism_add_reaction

  !> The rate constant of reaction `reaction` (1-based), kind OPSPLIT_RATE_*:
  !>   CONSTANT   k = A                            (b, Ea, param not used)
  !>   ARRHENIUS  k = A * T**b * exp(-Ea / (R T)),  T = p(param) in kelvin, Ea in J/mol
  !>   PARAMETER  k = A * p(param)                 (b, Ea not used)
  !> with p the per-system parameters and param 1-based (required by ARRHENIUS and
  !> PARAMETER; b and Ea default to 0).
  subroutine mechanism_set_rate(this, reaction, kind, A, b, Ea, param, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: reaction
    integer(c_int), intent(in) :: kind
    real(c_double), intent(in) :: A
    real(c_double), intent(in), optional :: b, Ea
    integer(c_int), intent(in), optional :: param
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams, which
    real(c_double) :: exponent, energy
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (reaction < 1 .or. reaction > nreactions) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%set_rate: reaction=' // &
                    itoa(int(reaction, c_int64_t)) // ' is not in [1, ' // itoa(int(nreactions, c_int64_t)) // &
                    '] (reactions are 1-based in Fortran)')
        return
      end if
    end if
    which = 0
    if (kind == OPSPLIT_RATE_ARRHENIUS .or. kind == OPSPLIT_RATE_PARAMETER) then
      if (.not. present(param)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, &
                    'opsplit_mechanism_t%set_rate: an ARRHENIUS or PARAMETER rate needs param')
        return
      end if
      if (param < 1) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%set_rate: param=' // &
                    itoa(int(param, c_int64_t)) // ' is not >= 1 (parameters are 1-based in Fortran)')
        return
      end if
      which = param - 1
    end if
    exponent = 0.0_c_double
    energy = 0.0_c_double
    if (present(b)) exponent = b
    if (present(Ea)) energy = Ea
    call finish(opsplit_mechanism_set_rate(this%handle, reaction - 1, kind, A, exponent, energy, which), stat)
  end subroutine mechanism_set_rate

  !> Names per-system parameter param (1-based) for rate expressions: 'TEMP', 'M', or a
  !> name with an index such as 'J(4)' (mechanism.h says what names may be).
  subroutine mechanism_name_parameter(this, param, name, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: param
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: stat
    if (param < 1) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%name_parameter: param=' // &
                  itoa(int(param, c_int64_t)) // ' is not >= 1 (parameters are 1-based in Fortran)')
      return
    end if
    call finish(opsplit_mechanism_name_parameter(this%handle, param - 1, trim(name) // c_null_char), stat)
  end subroutine mechanism_name_parameter

  !> Sets reaction (1-based)'s rate constant to an expression over the named parameters,
  !> as mechanism files write it: '8.0E-12*EXP(-2060./TEMP)', 'J(4)*0.5'. A text that is
  !> no such expression is OPSPLIT_ERROR_PARSE with its column (mechanism.h).
  subroutine mechanism_set_rate_expression(this, reaction, expression, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: reaction
    character(len=*), intent(in) :: expression
    integer, intent(out), optional :: stat
    if (reaction < 1) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%set_rate_expression: reaction=' // &
                  itoa(int(reaction, c_int64_t)) // ' is not >= 1 (reactions are 1-based in Fortran)')
      return
    end if
    call finish(opsplit_mechanism_set_rate_expression(this%handle, reaction - 1, trim(expression) // c_null_char), stat)
  end subroutine mechanism_set_rate_expression

  !> Multiplies reaction's rate (1-based) by the sum of the values of species (1-based
  !> numbers; an empty list removes the factor): MCM's RO2.
  subroutine mechanism_set_rate_species_sum(this, reaction, species, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: reaction, species(:)
    integer, intent(out), optional :: stat
    integer(c_int) :: zero_based(max(size(species), 1))
    if (reaction < 1) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%set_rate_species_sum: reaction=' // &
                  itoa(int(reaction, c_int64_t)) // ' is not >= 1 (reactions are 1-based in Fortran)')
      return
    end if
    zero_based = 0
    zero_based(1:size(species)) = species - 1
    call finish(opsplit_mechanism_set_rate_species_sum(this%handle, reaction - 1, int(size(species), c_int), &
                                                       zero_based), stat)
  end subroutine mechanism_set_rate_species_sum

  !> The numbers of species and reactions, and nparams: how many per-system parameters
  !> the rates read (the largest 1-based param used, 0 when none). 0 on failure.
  subroutine mechanism_counts(this, nspecies, nreactions, nparams, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(out), optional :: nspecies, nreactions, nparams
    integer, intent(out), optional :: stat
    integer(c_int) :: counts(3), status
    counts = 0
    status = opsplit_mechanism_get_counts(this%handle, counts(1), counts(2), counts(3))
    if (status /= OPSPLIT_SUCCESS) counts = 0
    if (present(nspecies)) nspecies = counts(1)
    if (present(nreactions)) nreactions = counts(2)
    if (present(nparams)) nparams = counts(3)
    call finish(status, stat)
  end subroutine mechanism_counts

  !> dy/dt of one system (ydot, nspecies values) at y (nspecies values) with params (at
  !> least nparams values; may be empty when nparams is 0), and optionally the Jacobian
  !> jacobian(i, j) = d ydot_i / d y_j (nspecies x nspecies), on the host.
  subroutine mechanism_evaluate(this, y, params, ydot, jacobian, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: y(:), params(:)
    real(c_double), intent(inout), contiguous, target :: ydot(:)
    real(c_double), intent(inout), contiguous, target, optional :: jacobian(:, :)
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams
    type(c_ptr) :: params_at, jacobian_at
    character(len=*), parameter :: who = 'opsplit_mechanism_t%evaluate: '
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (size(y) /= nspecies .or. size(ydot) /= nspecies) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, who // 'y has ' // itoa(size(y, kind=c_int64_t)) // &
                    ' values and ydot ' // itoa(size(ydot, kind=c_int64_t)) // ', the mechanism has nspecies = ' // &
                    itoa(int(nspecies, c_int64_t)))
        return
      end if
      if (size(params) < nparams) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, who // 'params has ' // &
                    itoa(size(params, kind=c_int64_t)) // ' values but the rates read nparams = ' // &
                    itoa(int(nparams, c_int64_t)))
        return
      end if
      if (present(jacobian)) then
        if (any(shape(jacobian) /= nspecies)) then
          call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, who // 'jacobian has shape (' // &
                      itoa(size(jacobian, 1, kind=c_int64_t)) // ', ' // itoa(size(jacobian, 2, kind=c_int64_t)) // &
                      ') but the mechanism needs (nspecies, nspecies) = (' // itoa(int(nspecies, c_int64_t)) // &
                      ', ' // itoa(int(nspecies, c_int64_t)) // ')')
          return
        end if
      end if
    end if
    params_at = c_null_ptr
    if (size(params) > 0) params_at = c_loc(params)
    jacobian_at = c_null_ptr
    if (present(jacobian)) jacobian_at = values_at(jacobian)
    call finish(opsplit_mechanism_evaluate(this%handle, values_at(y), params_at, values_at(ydot), jacobian_at), stat)
  end subroutine mechanism_evaluate

  ! ---- opsplit_mechanism_t: gas mechanisms (SI units with moles) -------------

  !> Loads the ideal-gas phase `phase` (absent or '': the file's first phase) of a
  !> Cantera YAML file: its species in the phase's order, NASA-7 thermodynamics and its
  !> reactions. A loaded mechanism is read-only (add_species, add_reaction and set_rate
  !> fail with OPSPLIT_ERROR_UNSUPPORTED). A file that cannot be read gives
  !> OPSPLIT_ERROR_IO, a malformed entry OPSPLIT_ERROR_PARSE, a feature opsplit does not
  !> implement OPSPLIT_ERROR_UNSUPPORTED; the object then stays as it was (not created).
  !> Trailing blanks of path and phase are not part of them. Like create, refused on an
  !> object that already holds a mechanism.
  subroutine mechanism_load_yaml(this, ctx, path, phase, stat)
    class(opsplit_mechanism_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    character(len=*), intent(in) :: path
    character(len=*), intent(in), optional :: phase
    integer, intent(out), optional :: stat
    type(c_ptr) :: loaded
    integer(c_int) :: status
    if (already_created(this%handle, 'opsplit_mechanism_t%load_yaml', stat)) return
    loaded = c_null_ptr
    if (present(phase)) then
      status = opsplit_mechanism_load_yaml(ctx%handle, trim(path) // c_null_char, trim(phase) // c_null_char, loaded)
    else
      status = opsplit_mechanism_load_yaml(ctx%handle, trim(path) // c_null_char, c_null_char, loaded)
    end if
    if (status == OPSPLIT_SUCCESS) this%handle = loaded
    call finish(status, stat)
  end subroutine mechanism_load_yaml

  !> Loads a CHEMKIN-II mechanism file (ELEMENTS, SPECIES, REACTIONS, optionally THERMO)
  !> with the NASA-7 entries of thermo_path (absent or '': only the mechanism file's own
  !> THERMO section; its entries come first). What is read and the errors are those of
  !> opsplit_mechanism_load_chemkin (mechanism.h): IO for a file that cannot be read,
  !> PARSE for a malformed entry, UNSUPPORTED for a keyword opsplit does not implement,
  !> with the file and line in the message; the object then stays as it was (not
  !> created). Trailing blanks of the paths are not part of them. Like create, refused on
  !> an object that already holds a mechanism.
  subroutine mechanism_load_chemkin(this, ctx, mech_path, thermo_path, stat)
    class(opsplit_mechanism_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    character(len=*), intent(in) :: mech_path
    character(len=*), intent(in), optional :: thermo_path
    integer, intent(out), optional :: stat
    type(c_ptr) :: loaded
    integer(c_int) :: status
    if (already_created(this%handle, 'opsplit_mechanism_t%load_chemkin', stat)) return
    loaded = c_null_ptr
    if (present(thermo_path)) then
      status = opsplit_mechanism_load_chemkin(ctx%handle, trim(mech_path) // c_null_char, &
                                              trim(thermo_path) // c_null_char, loaded)
    else
      status = opsplit_mechanism_load_chemkin(ctx%handle, trim(mech_path) // c_null_char, c_null_char, loaded)
    end if
    if (status == OPSPLIT_SUCCESS) this%handle = loaded
    call finish(status, stat)
  end subroutine mechanism_load_chemkin

  !> Loads a KPP mechanism (the .def or .kpp file and its #INCLUDEs) as a built
  !> mechanism; the fixed species and TEMP, SUN, CFACTOR become named parameters
  !> (find_parameter gives each one's 1-based number). mechanism.h says what it reads.
  subroutine mechanism_load_kpp(this, ctx, path, stat)
    class(opsplit_mechanism_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: stat
    type(c_ptr) :: loaded
    integer(c_int) :: status
    if (already_created(this%handle, 'opsplit_mechanism_t%load_kpp', stat)) return
    loaded = c_null_ptr
    status = opsplit_mechanism_load_kpp(ctx%handle, trim(path) // c_null_char, loaded)
    if (status == OPSPLIT_SUCCESS) this%handle = loaded
    call finish(status, stat)
  end subroutine mechanism_load_kpp

  !> Loads a MICM mechanism configuration (a v1 YAML/JSON file, or a v0 config.json or
  !> its directory) as a built mechanism: parameters 1-3 are TEMP (K), PRESS (Pa) and M
  !> (air density, mol m-3), then the reactions' inputs as MICM names them
  !> ('PHOTO.jo2_b', ...; parameter_name and find_parameter). mechanism.h says what it reads.
  subroutine mechanism_load_micm(this, ctx, path, stat)
    class(opsplit_mechanism_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: stat
    type(c_ptr) :: loaded
    integer(c_int) :: status
    if (already_created(this%handle, 'opsplit_mechanism_t%load_micm', stat)) return
    loaded = c_null_ptr
    status = opsplit_mechanism_load_micm(ctx%handle, trim(path) // c_null_char, loaded)
    if (status == OPSPLIT_SUCCESS) this%handle = loaded
    call finish(status, stat)
  end subroutine mechanism_load_micm

  !> The name of parameter param (1-based); '' when it has none or on failure.
  function mechanism_parameter_name(this, param, stat) result(name)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: param
    integer, intent(out), optional :: stat
    character(len=:), allocatable :: name
    integer(c_int) :: status
    type(c_ptr) :: text
    name = ''
    text = c_null_ptr
    status = opsplit_mechanism_get_parameter_name(this%handle, param - 1, text)
    if (status == OPSPLIT_SUCCESS) name = opsplit_c_string(text)
    call finish(status, stat)
  end function mechanism_parameter_name

  !> The 1-based number of the parameter called name; 0 (and a failure) when none is.
  integer(c_int) function mechanism_find_parameter(this, name, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(out), optional :: stat
    integer(c_int) :: status, i
    i = -1
    status = opsplit_mechanism_find_parameter(this%handle, trim(name) // c_null_char, i)
    mechanism_find_parameter = 0
    if (status == OPSPLIT_SUCCESS) mechanism_find_parameter = i + 1
    call finish(status, stat)
  end function mechanism_find_parameter

  !> OPSPLIT_MECHANISM_BUILT (made by create and built through the API) or
  !> OPSPLIT_MECHANISM_GAS (made by load_yaml or load_chemkin); -1 on failure.
  integer(c_int) function mechanism_kind(this, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status, which
    which = -1
    status = opsplit_mechanism_get_kind(this%handle, which)
    mechanism_kind = -1
    if (status == OPSPLIT_SUCCESS) mechanism_kind = which
    call finish(status, stat)
  end function mechanism_kind

  !> Reaction `reaction` (1-based) as text ("2 O + M <=> O2 + M"; built reactions read
  !> "A + B => C"); '' on failure.
  function mechanism_equation(this, reaction, stat) result(equation)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: reaction
    integer, intent(out), optional :: stat
    character(len=:), allocatable :: equation
    integer(c_int) :: nspecies, nreactions, nparams, status
    type(c_ptr) :: text
    equation = ''
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (reaction < 1 .or. reaction > nreactions) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%equation: reaction=' // &
                    itoa(int(reaction, c_int64_t)) // ' is not in [1, ' // itoa(int(nreactions, c_int64_t)) // &
                    '] (reactions are 1-based in Fortran)')
        return
      end if
    end if
    text = c_null_ptr
    status = opsplit_mechanism_get_reaction_equation(this%handle, reaction - 1, text)
    if (status == OPSPLIT_SUCCESS) equation = opsplit_c_string(text)
    call finish(status, stat)
  end function mechanism_equation

  ! True (after reporting it) when array `what` of wrapper `who` has `got` values where
  ! the mechanism has `expected` (its `count_name`: nspecies or nreactions).
  logical function mechanism_bad_size(who, what, got, expected, count_name, stat)
    character(len=*), intent(in) :: who, what, count_name
    integer(c_int64_t), intent(in) :: got
    integer(c_int), intent(in) :: expected
    integer, intent(out), optional :: stat
    mechanism_bad_size = got /= int(expected, c_int64_t)
    if (mechanism_bad_size) &
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%' // who // ': ' // what // ' has ' // &
                  itoa(got) // ' values but the mechanism has ' // count_name // ' = ' // &
                  itoa(int(expected, c_int64_t)))
  end function mechanism_bad_size

  !> The molar masses W(nspecies) in kg/mol of a gas mechanism.
  subroutine mechanism_molar_masses(this, W, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: W(:)
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (mechanism_bad_size('molar_masses', 'W', size(W, kind=c_int64_t), nspecies, 'nspecies', stat)) return
    end if
    call finish(opsplit_mechanism_get_molar_masses(this%handle, values_at(W)), stat)
  end subroutine mechanism_molar_masses

  !> The standard-state cp/R, h/(RT) and s/R of every species at T (K) of a gas
  !> mechanism, each nspecies values (each optional).
  subroutine mechanism_species_thermo(this, T, cp_R, h_RT, s_R, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    real(c_double), intent(in) :: T
    real(c_double), intent(inout), contiguous, target, optional :: cp_R(:), h_RT(:), s_R(:)
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams
    type(c_ptr) :: at(3)
    character(len=*), parameter :: who = 'species_thermo'
    at = c_null_ptr
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (present(cp_R)) then
        if (mechanism_bad_size(who, 'cp_R', size(cp_R, kind=c_int64_t), nspecies, 'nspecies', stat)) return
      end if
      if (present(h_RT)) then
        if (mechanism_bad_size(who, 'h_RT', size(h_RT, kind=c_int64_t), nspecies, 'nspecies', stat)) return
      end if
      if (present(s_R)) then
        if (mechanism_bad_size(who, 's_R', size(s_R, kind=c_int64_t), nspecies, 'nspecies', stat)) return
      end if
    end if
    if (present(cp_R)) at(1) = values_at(cp_R)
    if (present(h_RT)) at(2) = values_at(h_RT)
    if (present(s_R)) at(3) = values_at(s_R)
    call finish(opsplit_mechanism_species_thermo(this%handle, T, at(1), at(2), at(3)), stat)
  end subroutine mechanism_species_thermo

  !> The ideal-gas mixture of a gas mechanism at T (K), P (Pa) and mass fractions
  !> Y(nspecies) (used as given, not normalized): density (kg/m^3), cp and cv
  !> (J/(kg K)), enthalpy and internal_energy (J/kg), each optional; NaN on failure.
  subroutine mechanism_mixture_properties(this, T, P, Y, density, cp, cv, enthalpy, internal_energy, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    real(c_double), intent(in) :: T, P
    real(c_double), intent(in), contiguous, target :: Y(:)
    real(c_double), intent(out), optional :: density, cp, cv, enthalpy, internal_energy
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams, status
    real(c_double) :: values(5)
    values = quiet_nan()
    status = OPSPLIT_ERROR_INVALID_ARGUMENT
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (mechanism_bad_size('mixture_properties', 'Y', size(Y, kind=c_int64_t), nspecies, 'nspecies', stat)) then
        call put_values()
        return
      end if
    end if
    status = opsplit_mechanism_mixture_properties(this%handle, T, P, values_at(Y), values(1), values(2), values(3), &
                                                  values(4), values(5))
    if (status /= OPSPLIT_SUCCESS) values = quiet_nan()
    call put_values()
    call finish(status, stat)
  contains
    subroutine put_values()
      if (present(density)) density = values(1)
      if (present(cp)) cp = values(2)
      if (present(cv)) cv = values(3)
      if (present(enthalpy)) enthalpy = values(4)
      if (present(internal_energy)) internal_energy = values(5)
    end subroutine put_values
  end subroutine mechanism_mixture_properties

  !> The concentrations C(nspecies) (mol/m^3) of a gas mechanism's mixture at T (K),
  !> P (Pa) and mass fractions Y(nspecies).
  subroutine mechanism_concentrations(this, T, P, Y, C, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    real(c_double), intent(in) :: T, P
    real(c_double), intent(in), contiguous, target :: Y(:)
    real(c_double), intent(inout), contiguous, target :: C(:)
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams
    character(len=*), parameter :: who = 'concentrations'
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (mechanism_bad_size(who, 'Y', size(Y, kind=c_int64_t), nspecies, 'nspecies', stat)) return
      if (mechanism_bad_size(who, 'C', size(C, kind=c_int64_t), nspecies, 'nspecies', stat)) return
    end if
    call finish(opsplit_mechanism_concentrations(this%handle, T, P, values_at(Y), values_at(C)), stat)
  end subroutine mechanism_concentrations

  !> The net production rates wdot(nspecies) (mol/(m^3 s)) of a gas mechanism at T (K)
  !> and concentrations C(nspecies) (mol/m^3); falloff and PLOG rates read the ideal
  !> gas's pressure sum(C) R T.
  subroutine mechanism_net_production_rates(this, T, C, wdot, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    real(c_double), intent(in) :: T
    real(c_double), intent(in), contiguous, target :: C(:)
    real(c_double), intent(inout), contiguous, target :: wdot(:)
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams
    character(len=*), parameter :: who = 'net_production_rates'
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (mechanism_bad_size(who, 'C', size(C, kind=c_int64_t), nspecies, 'nspecies', stat)) return
      if (mechanism_bad_size(who, 'wdot', size(wdot, kind=c_int64_t), nspecies, 'nspecies', stat)) return
    end if
    call finish(opsplit_mechanism_net_production_rates(this%handle, T, values_at(C), values_at(wdot)), stat)
  end subroutine mechanism_net_production_rates

  !> The forward and reverse rates of progress (mol/(m^3 s)) of every reaction of a gas
  !> mechanism, nreactions values each (each optional), at T (K) and concentrations
  !> C(nspecies) (mol/m^3).
  subroutine mechanism_rates_of_progress(this, T, C, forward, reverse, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    real(c_double), intent(in) :: T
    real(c_double), intent(in), contiguous, target :: C(:)
    real(c_double), intent(inout), contiguous, target, optional :: forward(:), reverse(:)
    integer, intent(out), optional :: stat
    integer(c_int) :: nspecies, nreactions, nparams
    type(c_ptr) :: forward_at, reverse_at
    character(len=*), parameter :: who = 'rates_of_progress'
    if (mechanism_known_counts(this, nspecies, nreactions, nparams)) then
      if (mechanism_bad_size(who, 'C', size(C, kind=c_int64_t), nspecies, 'nspecies', stat)) return
      if (present(forward)) then
        if (mechanism_bad_size(who, 'forward', size(forward, kind=c_int64_t), nreactions, 'nreactions', stat)) return
      end if
      if (present(reverse)) then
        if (mechanism_bad_size(who, 'reverse', size(reverse, kind=c_int64_t), nreactions, 'nreactions', stat)) return
      end if
    end if
    forward_at = c_null_ptr
    reverse_at = c_null_ptr
    if (present(forward)) forward_at = values_at(forward)
    if (present(reverse)) reverse_at = values_at(reverse)
    call finish(opsplit_mechanism_rates_of_progress(this%handle, T, values_at(C), forward_at, reverse_at), stat)
  end subroutine mechanism_rates_of_progress

  logical function mechanism_created(this)
    class(opsplit_mechanism_t), intent(in) :: this
    mechanism_created = c_associated(this%handle)
  end function mechanism_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function mechanism_c_handle(this)
    class(opsplit_mechanism_t), intent(in) :: this
    mechanism_c_handle = this%handle
  end function mechanism_c_handle

  ! ---- opsplit_ode_t ---------------------------------------------------------

  !> A batch of nsys (a default integer or integer(c_int64_t)) independent systems of neq
  !> ODEs with nparam (default 0) parameters each. State and parameters start at zero.
  !> Defaults: OPSPLIT_ODE_ROSENBROCK, rtol 1e-6, atol 1e-12, automatic initial step,
  !> 100000 steps per system per call, keep_step and clip_negative off.
  subroutine ode_create_i4(this, ctx, neq, nsys, nparam, stat)
    class(opsplit_ode_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: neq
    integer, intent(in) :: nsys
    integer(c_int), intent(in), optional :: nparam
    integer, intent(out), optional :: stat
    call ode_create_impl(this, ctx, neq, int(nsys, c_int64_t), nparam, stat)
  end subroutine ode_create_i4

  subroutine ode_create_i8(this, ctx, neq, nsys, nparam, stat)
    class(opsplit_ode_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: neq
    integer(c_int64_t), intent(in) :: nsys
    integer(c_int), intent(in), optional :: nparam
    integer, intent(out), optional :: stat
    call ode_create_impl(this, ctx, neq, nsys, nparam, stat)
  end subroutine ode_create_i8

  subroutine ode_create_impl(this, ctx, neq, nsys, nparam, stat)
    class(opsplit_ode_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: neq
    integer(c_int64_t), intent(in) :: nsys
    integer(c_int), intent(in), optional :: nparam
    integer, intent(out), optional :: stat
    integer(c_int) :: np, status
    if (already_created(this%handle, 'opsplit_ode_t%create', stat)) return
    np = 0
    if (present(nparam)) np = nparam
    status = opsplit_ode_create(ctx%handle, neq, nsys, np, this%handle)
    if (status == OPSPLIT_SUCCESS) then
      this%neq = neq
      this%nsys = nsys
      this%nparam = np
    end if
    call finish(status, stat)
  end subroutine ode_create_impl

  !> Idempotent: a second call (or one on a batch never created) does nothing.
  subroutine ode_destroy(this, stat)
    class(opsplit_ode_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_ode_destroy(this%handle)
    if (.not. c_associated(this%handle)) then
      this%neq = 0
      this%nsys = 0
      this%nparam = 0
    end if
    call finish(status, stat)
  end subroutine ode_destroy

  !> neq, nsys as integer(c_int64_t), nparam.
  subroutine ode_shape_i8(this, neq, nsys, nparam, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer(c_int), intent(out) :: neq
    integer(c_int64_t), intent(out) :: nsys
    integer(c_int), intent(out) :: nparam
    integer, intent(out), optional :: stat
    neq = 0
    nsys = 0
    nparam = 0
    call finish(opsplit_ode_get_shape(this%handle, neq, nsys, nparam), stat)
  end subroutine ode_shape_i8

  !> neq, nsys as a default integer (refused if it does not fit), nparam.
  subroutine ode_shape_i4(this, neq, nsys, nparam, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer(c_int), intent(out) :: neq
    integer, intent(out) :: nsys
    integer(c_int), intent(out) :: nparam
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: n
    integer(c_int) :: status
    neq = 0
    nsys = 0
    nparam = 0
    n = 0
    status = opsplit_ode_get_shape(this%handle, neq, n, nparam)
    if (status == OPSPLIT_SUCCESS .and. n > huge(nsys)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_ode_t%shape: nsys=' // itoa(n) // &
                  ' does not fit a default integer; pass an integer(c_int64_t) nsys')
      return
    end if
    nsys = int(n)
    call finish(status, stat)
  end subroutine ode_shape_i4

  !> The right-hand side from a copy of mech (its species count must be neq, its
  !> parameters fit in nparam, every reaction must have a rate); later edits of mech do
  !> not reach the batch. Replaces a callback.
  subroutine ode_set_mechanism(this, mech, stat)
    class(opsplit_ode_t), intent(in) :: this
    class(opsplit_mechanism_t), intent(in) :: mech
    integer, intent(out), optional :: stat
    if (.not. c_associated(mech%handle)) then
      call finish(OPSPLIT_ERROR_INVALID_HANDLE, stat, 'opsplit_ode_t%set_mechanism: mech was not created')
      return
    end if
    call finish(opsplit_ode_set_mechanism(this%handle, mech%handle), stat)
  end subroutine ode_set_mechanism

  !> The right-hand side of a gas reactor (kind: OPSPLIT_REACTOR_*) of a loaded mechanism,
  !> copied: neq must be the reactor's equations, nparam at least its parameters.
  subroutine ode_set_reactor(this, mech, kind, stat)
    class(opsplit_ode_t), intent(in) :: this
    class(opsplit_mechanism_t), intent(in) :: mech
    integer(c_int), intent(in) :: kind
    integer, intent(out), optional :: stat
    if (.not. c_associated(mech%handle)) then
      call finish(OPSPLIT_ERROR_INVALID_HANDLE, stat, 'opsplit_ode_t%set_reactor: mech was not created')
      return
    end if
    call finish(opsplit_ode_set_reactor(this%handle, mech%handle, kind), stat)
  end subroutine ode_set_reactor

  !> OPSPLIT_ODE_JACOBIAN_ANALYTIC (the default) or OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE
  !> (forward differences, for reactors and callbacks; refused while a mass-action
  !> mechanism is attached).
  subroutine ode_set_jacobian(this, jacobian, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer(c_int), intent(in) :: jacobian
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_jacobian(this%handle, jacobian), stat)
  end subroutine ode_set_jacobian

  !> The batch's right-hand side on the host for system `system`'s parameters (1-based,
  !> a default integer or integer(c_int64_t)) at time t and state y(neq): ydot(neq) and,
  !> when present, jacobian(neq, neq) = d ydot(i) / d y(j), the Jacobian the integrators
  !> use (see set_jacobian). Nothing is written when it fails.
  subroutine ode_evaluate_i4(this, system, t, y, ydot, jacobian, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer, intent(in) :: system
    real(c_double), intent(in) :: t
    real(c_double), intent(in), contiguous, target :: y(:)
    real(c_double), intent(inout), contiguous, target :: ydot(:)
    real(c_double), intent(inout), contiguous, target, optional :: jacobian(:, :)
    integer, intent(out), optional :: stat
    ! Not an absent `jacobian` passed on: gfortran's undefined-behaviour sanitizer
    ! reports reading its (null) descriptor.
    if (present(jacobian)) then
      call ode_evaluate_i8(this, int(system, c_int64_t), t, y, ydot, jacobian, stat)
    else
      call ode_evaluate_i8(this, int(system, c_int64_t), t, y, ydot, stat=stat)
    end if
  end subroutine ode_evaluate_i4

  subroutine ode_evaluate_i8(this, system, t, y, ydot, jacobian, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer(c_int64_t), intent(in) :: system
    real(c_double), intent(in) :: t
    real(c_double), intent(in), contiguous, target :: y(:)
    real(c_double), intent(inout), contiguous, target :: ydot(:)
    real(c_double), intent(inout), contiguous, target, optional :: jacobian(:, :)
    integer, intent(out), optional :: stat
    type(c_ptr) :: jac
    integer(c_int64_t) :: neq
    neq = int(this%neq, c_int64_t)
    if (c_associated(this%handle) .and. (system < 1 .or. system > this%nsys)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_ode_t%evaluate: system=' // itoa(system) // &
                  ' is not in [1, ' // itoa(this%nsys) // '] (systems are 1-based in Fortran)')
      return
    end if
    if (ode_bad_size(this, 'evaluate', 'neq', size(y, kind=c_int64_t), neq, stat)) return
    if (ode_bad_size(this, 'evaluate', 'neq', size(ydot, kind=c_int64_t), neq, stat)) return
    jac = c_null_ptr
    if (present(jacobian)) then
      if (ode_bad_size(this, 'evaluate', 'neq*neq', size(jacobian, kind=c_int64_t), neq * neq, stat)) return
      if (c_associated(this%handle) .and. size(jacobian, 1, kind=c_int64_t) /= neq) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_ode_t%evaluate: jacobian must be (neq, neq) = (' // &
                    itoa(neq) // ', ' // itoa(neq) // ')')
        return
      end if
      jac = values_at(jacobian)
    end if
    call finish(opsplit_ode_evaluate(this%handle, system - 1, t, values_at(y), values_at(ydot), jac), stat)
  end subroutine ode_evaluate_i8

  !> A host right-hand side (CPU backend only): rhs is c_funloc of a bind(C) function with
  !> the interface opsplit_ode_rhs_fn, jacobian (default c_null_funptr: finite
  !> differences) one with opsplit_ode_jacobian_fn; user (default c_null_ptr) is handed
  !> to both. Replaces a mechanism.
  !> (rhs and jacobian are by value: see context_set_progress_callback.)
  subroutine ode_set_rhs_callback(this, rhs, jacobian, user, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_funptr), value :: rhs
    type(c_funptr), value, optional :: jacobian
    type(c_ptr), intent(in), optional :: user
    integer, intent(out), optional :: stat
    type(c_funptr) :: jac
    type(c_ptr) :: data
    jac = c_null_funptr
    if (present(jacobian)) jac = jacobian
    data = c_null_ptr
    if (present(user)) data = user
    call finish(opsplit_ode_set_rhs_callback(this%handle, rhs, jac, data), stat)
  end subroutine ode_set_rhs_callback

  !> OPSPLIT_ODE_RKCK45, OPSPLIT_ODE_RKC, OPSPLIT_ODE_ROSENBROCK (RODAS4) or OPSPLIT_ODE_ROS3.
  subroutine ode_set_method(this, method, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer(c_int), intent(in) :: method
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_method(this%handle, method), stat)
  end subroutine ode_set_method

  !> Error weights atol + rtol*|y_i|: rtol in [1e-14, 1), atol >= 0 for every species.
  subroutine ode_set_tolerances(this, rtol, atol, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(in) :: rtol, atol
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_tolerances(this%handle, rtol, atol), stat)
  end subroutine ode_set_tolerances

  ! True (after reporting it) when an array of a created batch has `got` values where
  ! `expected` are needed.
  logical function ode_bad_size(this, who, what, got, expected, stat)
    class(opsplit_ode_t), intent(in) :: this
    character(len=*), intent(in) :: who, what
    integer(c_int64_t), intent(in) :: got, expected
    integer, intent(out), optional :: stat
    ode_bad_size = c_associated(this%handle) .and. got /= expected
    if (ode_bad_size) &
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_ode_t%' // who // ': the array has ' // &
                  itoa(got) // ' values but the batch has ' // what // ' = ' // itoa(expected))
  end function ode_bad_size

  !> Per-species absolute tolerances atol(neq), each >= 0 (replaces the scalar atol).
  subroutine ode_set_absolute_tolerances(this, atol, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: atol(:)
    integer, intent(out), optional :: stat
    if (ode_bad_size(this, 'set_absolute_tolerances', 'neq', size(atol, kind=c_int64_t), &
                     int(this%neq, c_int64_t), stat)) return
    call finish(opsplit_ode_set_absolute_tolerances(this%handle, values_at(atol)), stat)
  end subroutine ode_set_absolute_tolerances

  !> The first step of each system: h0 > 0, or 0 for automatic.
  subroutine ode_set_initial_step(this, h0, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(in) :: h0
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_initial_step(this%handle, h0), stat)
  end subroutine ode_set_initial_step

  !> The most steps (accepted + rejected) per system per call, >= 1 (a default integer or
  !> integer(c_int64_t)).
  subroutine ode_set_max_steps_i4(this, max_steps, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer, intent(in) :: max_steps
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_max_steps(this%handle, int(max_steps, c_int64_t)), stat)
  end subroutine ode_set_max_steps_i4

  subroutine ode_set_max_steps_i8(this, max_steps, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer(c_int64_t), intent(in) :: max_steps
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_max_steps(this%handle, max_steps), stat)
  end subroutine ode_set_max_steps_i8

  !> .true.: each system starts a call with the step its last call proposed (an
  !> operator-split host whose transport changes the state little between calls);
  !> .false.: every call starts afresh.
  subroutine ode_set_keep_step(this, keep, stat)
    class(opsplit_ode_t), intent(in) :: this
    logical, intent(in) :: keep
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_keep_step(this%handle, int_flag(keep)), stat)
  end subroutine ode_set_keep_step

  !> .true.: negative values are set to 0 after every accepted step.
  subroutine ode_set_clip_negative(this, clip, stat)
    class(opsplit_ode_t), intent(in) :: this
    logical, intent(in) :: clip
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_clip_negative(this%handle, int_flag(clip)), stat)
  end subroutine ode_set_clip_negative

  ! set/get of the state and the parameters: checks the array's shape against the
  ! layout's, (rows, nsys) for OPSPLIT_ODE_AOS and (nsys, rows) for OPSPLIT_ODE_SOA, then
  ! hands its address to C. Another layout goes to C, which refuses it.
  subroutine ode_transfer(this, verb, host, array_shape, rows, rows_name, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    character(len=*), intent(in) :: verb
    type(c_ptr), intent(in) :: host
    integer(c_int64_t), intent(in) :: array_shape(2)
    integer(c_int), intent(in) :: rows
    character(len=*), intent(in) :: rows_name
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: expected(2)
    integer(c_int) :: order, status
    character(len=:), allocatable :: wanted
    order = OPSPLIT_ODE_AOS
    if (present(layout)) order = layout
    if (c_associated(this%handle) .and. (order == OPSPLIT_ODE_AOS .or. order == OPSPLIT_ODE_SOA)) then
      if (order == OPSPLIT_ODE_AOS) then
        expected = [int(rows, c_int64_t), this%nsys]
        wanted = 'OPSPLIT_ODE_AOS needs (' // rows_name // ', nsys)'
      else
        expected = [this%nsys, int(rows, c_int64_t)]
        wanted = 'OPSPLIT_ODE_SOA needs (nsys, ' // rows_name // ')'
      end if
      if (any(array_shape /= expected)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_ode_t%' // verb // ': the array has shape (' // &
                    itoa(array_shape(1)) // ', ' // itoa(array_shape(2)) // ') but ' // wanted // ' = (' // &
                    itoa(expected(1)) // ', ' // itoa(expected(2)) // ')')
        return
      end if
    end if
    select case (verb)
    case ('set_state')
      status = opsplit_ode_set_state(this%handle, host, order)
    case ('get_state')
      status = opsplit_ode_get_state(this%handle, host, order)
    case ('set_parameters')
      status = opsplit_ode_set_parameters(this%handle, host, order)
    case default
      status = opsplit_ode_get_parameters(this%handle, host, order)
    end select
    call finish(status, stat)
  end subroutine ode_transfer

  !> Every system's state: y(neq, nsys) with layout OPSPLIT_ODE_AOS (default), y(nsys, neq)
  !> with OPSPLIT_ODE_SOA. A non-contiguous actual argument is copied in (and out).
  subroutine ode_set_state(this, y, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: y(:, :)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    call ode_transfer(this, 'set_state', values_at(y), shape(y, kind=c_int64_t), this%neq, 'neq', layout, stat)
  end subroutine ode_set_state

  subroutine ode_get_state(this, y, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: y(:, :)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    call ode_transfer(this, 'get_state', values_at(y), shape(y, kind=c_int64_t), this%neq, 'neq', layout, stat)
  end subroutine ode_get_state

  !> Every system's parameters: params(nparam, nsys) with layout OPSPLIT_ODE_AOS
  !> (default), params(nsys, nparam) with OPSPLIT_ODE_SOA.
  subroutine ode_set_parameters(this, params, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: params(:, :)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    call ode_transfer(this, 'set_parameters', values_at(params), shape(params, kind=c_int64_t), this%nparam, &
                      'nparam', layout, stat)
  end subroutine ode_set_parameters

  subroutine ode_get_parameters(this, params, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: params(:, :)
    integer(c_int), intent(in), optional :: layout
    integer, intent(out), optional :: stat
    call ode_transfer(this, 'get_parameters', values_at(params), shape(params, kind=c_int64_t), this%nparam, &
                      'nparam', layout, stat)
  end subroutine ode_get_parameters

  !> Advances every system from t0 to t1 >= t0. A system that fails keeps its state at
  !> t0 and results() says why; the others reach t1; the call then fails with
  !> OPSPLIT_ERROR_NUMERICAL.
  subroutine ode_integrate(this, t0, t1, stat)
    class(opsplit_ode_t), intent(in) :: this
    real(c_double), intent(in) :: t0, t1
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_integrate(this%handle, t0, t1), stat)
  end subroutine ode_integrate

  !> Per-system results of the last integrate, each an array of nsys values: result
  !> (OPSPLIT_ODE_OK, ...), accepted and rejected steps, right-hand side and Jacobian
  !> evaluations.
  subroutine ode_results(this, result, accepted, rejected, rhs, jacobian, stat)
    class(opsplit_ode_t), intent(in) :: this
    integer(c_int), intent(inout), contiguous, target, optional :: result(:)
    integer(c_int64_t), intent(inout), contiguous, target, optional :: accepted(:), rejected(:), rhs(:), jacobian(:)
    integer, intent(out), optional :: stat
    type(c_ptr) :: at(5)
    at = c_null_ptr
    if (present(result)) then
      if (ode_bad_size(this, 'results', 'nsys', size(result, kind=c_int64_t), this%nsys, stat)) return
      if (size(result) > 0) at(1) = c_loc(result)
    end if
    if (present(accepted)) then
      if (ode_bad_size(this, 'results', 'nsys', size(accepted, kind=c_int64_t), this%nsys, stat)) return
      if (size(accepted) > 0) at(2) = c_loc(accepted)
    end if
    if (present(rejected)) then
      if (ode_bad_size(this, 'results', 'nsys', size(rejected, kind=c_int64_t), this%nsys, stat)) return
      if (size(rejected) > 0) at(3) = c_loc(rejected)
    end if
    if (present(rhs)) then
      if (ode_bad_size(this, 'results', 'nsys', size(rhs, kind=c_int64_t), this%nsys, stat)) return
      if (size(rhs) > 0) at(4) = c_loc(rhs)
    end if
    if (present(jacobian)) then
      if (ode_bad_size(this, 'results', 'nsys', size(jacobian, kind=c_int64_t), this%nsys, stat)) return
      if (size(jacobian) > 0) at(5) = c_loc(jacobian)
    end if
    call finish(opsplit_ode_get_results(this%handle, at(1), at(2), at(3), at(4), at(5)), stat)
  end subroutine ode_results

  logical function ode_created(this)
    class(opsplit_ode_t), intent(in) :: this
    ode_created = c_associated(this%handle)
  end function ode_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function ode_c_handle(this)
    class(opsplit_ode_t), intent(in) :: this
    ode_c_handle = this%handle
  end function ode_c_handle

  ! ---- opsplit_ca_t ----------------------------------------------------------

  !> A grid of rows x cols cells (default integers or integer(c_int64_t)) of model
  !> OPSPLIT_CA_LIFE: every cell dead, rule B3/S23, OPSPLIT_CA_PERIODIC, generation 0.
  subroutine ca_create_i4(this, ctx, model, rows, cols, stat)
    class(opsplit_ca_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: model
    integer, intent(in) :: rows, cols
    integer, intent(out), optional :: stat
    call ca_create_i8(this, ctx, model, int(rows, c_int64_t), int(cols, c_int64_t), stat)
  end subroutine ca_create_i4

  subroutine ca_create_i8(this, ctx, model, rows, cols, stat)
    class(opsplit_ca_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: model
    integer(c_int64_t), intent(in) :: rows, cols
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    if (already_created(this%handle, 'opsplit_ca_t%create', stat)) return
    status = opsplit_ca_create(ctx%handle, model, rows, cols, this%handle)
    if (status == OPSPLIT_SUCCESS) then
      this%rows = rows
      this%cols = cols
    end if
    call finish(status, stat)
  end subroutine ca_create_i8

  !> Idempotent: a second call (or one on a grid never created) does nothing.
  subroutine ca_destroy(this, stat)
    class(opsplit_ca_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_ca_destroy(this%handle)
    if (.not. c_associated(this%handle)) then
      this%rows = 0
      this%cols = 0
    end if
    call finish(status, stat)
  end subroutine ca_destroy

  subroutine ca_get_shape(this, rows, cols, stat)
    class(opsplit_ca_t), intent(in) :: this
    integer(c_int64_t), intent(out) :: rows, cols
    integer, intent(out), optional :: stat
    rows = 0
    cols = 0
    call finish(opsplit_ca_get_shape(this%handle, rows, cols), stat)
  end subroutine ca_get_shape

  !> Where this grid lies in the whole grid: its first row and column (1-based, as
  !> add_vent's) and the whole grid's shape; a grid on one process is the whole (1, 1,
  !> rows, cols). A grid attached with opsplit_mpi_ca_attach is one block.
  subroutine ca_get_place(this, first_row, first_col, global_rows, global_cols, stat)
    class(opsplit_ca_t), intent(in) :: this
    integer(c_int64_t), intent(out) :: first_row, first_col, global_rows, global_cols
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    first_row = 0
    first_col = 0
    global_rows = 0
    global_cols = 0
    status = opsplit_ca_get_place(this%handle, first_row, first_col, global_rows, global_cols)
    if (status == OPSPLIT_SUCCESS) then
      first_row = first_row + 1
      first_col = first_col + 1
    end if
    call finish(status, stat)
  end subroutine ca_get_place

  !> OPSPLIT_CA_PERIODIC (a torus) or OPSPLIT_CA_CLOSED.
  subroutine ca_set_boundary(this, boundary, stat)
    class(opsplit_ca_t), intent(inout) :: this
    integer(c_int), intent(in) :: boundary
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_set_boundary(this%handle, boundary), stat)
  end subroutine ca_set_boundary

  !> A Life-like rule: 'B3/S23', 'B36/S23', '23/3', ...
  subroutine ca_set_rule(this, rule, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: rule
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_set_rule(this%handle, trim(rule) // c_null_char), stat)
  end subroutine ca_set_rule

  !> All cells: cells(rows, cols), 0 dead, nonzero alive.
  subroutine ca_set_cells(this, cells, stat)
    class(opsplit_ca_t), intent(inout) :: this
    integer(c_int8_t), intent(in), target, contiguous :: cells(:, :)
    integer, intent(out), optional :: stat
    call ca_transfer(this, 'set_cells', c_loc(cells), shape(cells, kind=c_int64_t), .true., stat)
  end subroutine ca_set_cells

  !> All cells into cells(rows, cols): 0 dead, 1 alive.
  subroutine ca_get_cells(this, cells, stat)
    class(opsplit_ca_t), intent(in) :: this
    integer(c_int8_t), intent(inout), target, contiguous :: cells(:, :)
    integer, intent(out), optional :: stat
    call ca_transfer(this, 'get_cells', c_loc(cells), shape(cells, kind=c_int64_t), .false., stat)
  end subroutine ca_get_cells

  subroutine ca_transfer(this, who, cells, cells_shape, set, stat)
    class(opsplit_ca_t), intent(in) :: this
    character(len=*), intent(in) :: who
    type(c_ptr), intent(in) :: cells
    integer(c_int64_t), intent(in) :: cells_shape(2)
    logical, intent(in) :: set
    integer, intent(out), optional :: stat
    if (c_associated(this%handle) .and. (cells_shape(1) /= this%rows .or. cells_shape(2) /= this%cols)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_ca_t%' // who // ': cells is (' // &
                  itoa(cells_shape(1)) // ', ' // itoa(cells_shape(2)) // '), the grid (' // itoa(this%rows) // &
                  ', ' // itoa(this%cols) // ')')
      return
    end if
    if (set) then
      call finish(opsplit_ca_set_cells(this%handle, cells, OPSPLIT_CA_COLUMN_MAJOR), stat)
    else
      call finish(opsplit_ca_get_cells(this%handle, cells, OPSPLIT_CA_COLUMN_MAJOR), stat)
    end if
  end subroutine ca_transfer

  !> An RLE pattern (lines joined with new_line('a')) with its top-left cell at (row, col),
  !> 1-based.
  subroutine ca_place_rle(this, rle, row, col, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: rle
    integer, intent(in) :: row, col
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_place_rle(this%handle, trim(rle) // c_null_char, int(row, c_int64_t) - 1, &
                                     int(col, c_int64_t) - 1), stat)
  end subroutine ca_place_rle

  !> An RLE file's pattern with its box's top-left cell at (row, col), 1-based.
  subroutine ca_load_rle(this, path, row, col, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: path
    integer, intent(in) :: row, col
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_load_rle(this%handle, trim(path) // c_null_char, int(row, c_int64_t) - 1, &
                                    int(col, c_int64_t) - 1), stat)
  end subroutine ca_load_rle

  subroutine ca_step_i4(this, nsteps, stat)
    class(opsplit_ca_t), intent(inout) :: this
    integer, intent(in) :: nsteps
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_step(this%handle, int(nsteps, c_int64_t)), stat)
  end subroutine ca_step_i4

  subroutine ca_step_i8(this, nsteps, stat)
    class(opsplit_ca_t), intent(inout) :: this
    integer(c_int64_t), intent(in) :: nsteps
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_step(this%handle, nsteps), stat)
  end subroutine ca_step_i8

  !> Generations advanced since creation.
  integer(c_int64_t) function ca_steps(this, stat)
    class(opsplit_ca_t), intent(in) :: this
    integer, intent(out), optional :: stat
    ca_steps = 0
    call finish(opsplit_ca_get_steps(this%handle, ca_steps), stat)
  end function ca_steps

  !> Live cells.
  integer(c_int64_t) function ca_population(this, stat)
    class(opsplit_ca_t), intent(in) :: this
    integer, intent(out), optional :: stat
    ca_population = 0
    call finish(opsplit_ca_get_population(this%handle, ca_population), stat)
  end function ca_population

  ! ---- lava grids (SCIARA_FV2, SCIARA_FV3); on a LIFE grid these fail with INVALID_ARGUMENT

  !> A substate by name ('altitude', 'thickness', 'temperature', 'solidified'; 'lost' is
  !> read-only): values(rows, cols), row 1 the first (northern) row.
  subroutine ca_set_substate(this, name, values, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: name
    real(c_double), intent(in), target, contiguous :: values(:, :)
    integer, intent(out), optional :: stat
    call ca_substate_transfer(this, 'set_substate', name, c_loc(values), shape(values, kind=c_int64_t), .true., stat)
  end subroutine ca_set_substate

  !> A substate by name (those of set_substate and 'lost') into values(rows, cols).
  subroutine ca_get_substate(this, name, values, stat)
    class(opsplit_ca_t), intent(in) :: this
    character(len=*), intent(in) :: name
    real(c_double), intent(inout), target, contiguous :: values(:, :)
    integer, intent(out), optional :: stat
    call ca_substate_transfer(this, 'get_substate', name, c_loc(values), shape(values, kind=c_int64_t), .false., &
                              stat)
  end subroutine ca_get_substate

  subroutine ca_substate_transfer(this, who, name, values, values_shape, set, stat)
    class(opsplit_ca_t), intent(in) :: this
    character(len=*), intent(in) :: who, name
    type(c_ptr), intent(in) :: values
    integer(c_int64_t), intent(in) :: values_shape(2)
    logical, intent(in) :: set
    integer, intent(out), optional :: stat
    if (c_associated(this%handle) .and. (values_shape(1) /= this%rows .or. values_shape(2) /= this%cols)) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_ca_t%' // who // ': values is (' // &
                  itoa(values_shape(1)) // ', ' // itoa(values_shape(2)) // '), the grid (' // itoa(this%rows) // &
                  ', ' // itoa(this%cols) // ')')
      return
    end if
    if (set) then
      call finish(opsplit_ca_set_substate(this%handle, trim(name) // c_null_char, values, OPSPLIT_CA_COLUMN_MAJOR), &
                  stat)
    else
      call finish(opsplit_ca_get_substate(this%handle, trim(name) // c_null_char, values, OPSPLIT_CA_COLUMN_MAJOR), &
                  stat)
    end if
  end subroutine ca_substate_transfer

  !> A substate from a file: an ESRI ASCII grid or a headerless table of rows x cols numbers.
  subroutine ca_load_substate(this, name, path, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: name, path
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_load_substate(this%handle, trim(name) // c_null_char, trim(path) // c_null_char), stat)
  end subroutine ca_load_substate

  !> A parameter by its PARAMETERS.cfg name ('Pclock', 'Pc', 'PTsol', ...).
  subroutine ca_set_parameter(this, name, value, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: name
    real(c_double), intent(in) :: value
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_set_parameter(this%handle, trim(name) // c_null_char, value), stat)
  end subroutine ca_set_parameter

  !> The value of a parameter; NaN on failure.
  subroutine ca_get_parameter(this, name, value, stat)
    class(opsplit_ca_t), intent(in) :: this
    character(len=*), intent(in) :: name
    real(c_double), intent(out) :: value
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_ca_get_parameter(this%handle, trim(name) // c_null_char, value)
    if (status /= OPSPLIT_SUCCESS) value = quiet_nan()
    call finish(status, stat)
  end subroutine ca_get_parameter

  !> A PARAMETERS.cfg file (all or nothing).
  subroutine ca_load_parameters(this, path, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_load_parameters(this%handle, trim(path) // c_null_char), stat)
  end subroutine ca_load_parameters

  !> A vent at (row, col), 1-based, inside the outermost ring, emitting rates(s) m^3/s
  !> during slot s = [s - 1, s) x slot_seconds of the grid's time. vent (optional)
  !> receives the vent's index, 1-based: 1 for the grid's first vent (C's 0 plus 1).
  subroutine ca_add_vent(this, row, col, rates, slot_seconds, vent, stat)
    class(opsplit_ca_t), intent(inout) :: this
    integer, intent(in) :: row, col
    real(c_double), intent(in), target, contiguous :: rates(:)
    real(c_double), intent(in) :: slot_seconds
    integer, intent(out), optional :: vent
    integer, intent(out), optional :: stat
    integer(c_int64_t), target :: vent_index
    integer(c_int) :: status
    type(c_ptr) :: at
    vent_index = -1
    at = c_loc(no_values)
    if (size(rates) > 0) at = c_loc(rates)
    status = opsplit_ca_add_vent(this%handle, int(row, c_int64_t) - 1, int(col, c_int64_t) - 1, at, &
                                 size(rates, kind=c_int64_t), slot_seconds, c_loc(vent_index))
    if (present(vent)) then
      vent = 0
      if (status == OPSPLIT_SUCCESS) vent = int(vent_index) + 1
    end if
    call finish(status, stat)
  end subroutine ca_add_vent

  !> The dataset's vents: a vent map file and an emission-rate file.
  subroutine ca_load_vents(this, vents_path, rates_path, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: vents_path, rates_path
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_load_vents(this%handle, trim(vents_path) // c_null_char, trim(rates_path) // c_null_char), &
                stat)
  end subroutine ca_load_vents

  !> Steps until the grid's time reaches t_sim (fv2: whole steps of Pclock seconds; fv3: the
  !> last step cut to end at t_sim).
  subroutine ca_run_until(this, t_sim, stat)
    class(opsplit_ca_t), intent(inout) :: this
    real(c_double), intent(in) :: t_sim
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_run_until(this%handle, t_sim), stat)
  end subroutine ca_run_until

  !> The grid's time in seconds; NaN on failure.
  subroutine ca_get_time(this, t_sim, stat)
    class(opsplit_ca_t), intent(in) :: this
    real(c_double), intent(out) :: t_sim
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_ca_get_time(this%handle, t_sim)
    if (status /= OPSPLIT_SUCCESS) t_sim = quiet_nan()
    call finish(status, stat)
  end subroutine ca_get_time

  !> Volumes in m^3: emitted by the vents, fluid lava, solidified, lost (left the grid);
  !> emitted = lava + solidified + lost to rounding. NaN on failure.
  subroutine ca_get_volumes(this, emitted, lava, solidified, lost, stat)
    class(opsplit_ca_t), intent(in) :: this
    real(c_double), intent(out) :: emitted, lava, solidified, lost
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_ca_get_volumes(this%handle, emitted, lava, solidified, lost)
    if (status /= OPSPLIT_SUCCESS) then
      emitted = quiet_nan()
      lava = quiet_nan()
      solidified = quiet_nan()
      lost = quiet_nan()
    end if
    call finish(status, stat)
  end subroutine ca_get_volumes

  !> OPSPLIT_CA_ACTIVE_REGION (the default) or OPSPLIT_CA_ALL_CELLS; the same results.
  subroutine ca_set_cells_computed(this, cells, stat)
    class(opsplit_ca_t), intent(inout) :: this
    integer(c_int), intent(in) :: cells
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_set_cells_computed(this%handle, cells), stat)
  end subroutine ca_set_cells_computed

  logical function ca_created(this)
    class(opsplit_ca_t), intent(in) :: this
    ca_created = c_associated(this%handle)
  end function ca_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function ca_c_handle(this)
    class(opsplit_ca_t), intent(in) :: this
    ca_c_handle = this%handle
  end function ca_c_handle

  ! ---- opsplit_pcpd_t --------------------------------------------------------

  !> An ensemble of `replicas` lattices of L sites (default integers or
  !> integer(c_int64_t)), algorithm OPSPLIT_PCPD_EXACT, OPSPLIT_PCPD_MULTISPIN or
  !> OPSPLIT_PCPD_MULTISPIN32: fully
  !> occupied at time 0, seed 0, d = 0.25, p = 0.125141.
  subroutine pcpd_create_i4(this, ctx, algorithm, L, replicas, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: algorithm
    integer, intent(in) :: L, replicas
    integer, intent(out), optional :: stat
    call pcpd_create_i8(this, ctx, algorithm, int(L, c_int64_t), int(replicas, c_int64_t), stat)
  end subroutine pcpd_create_i4

  subroutine pcpd_create_i8(this, ctx, algorithm, L, replicas, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer(c_int), intent(in) :: algorithm
    integer(c_int64_t), intent(in) :: L, replicas
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    if (already_created(this%handle, 'opsplit_pcpd_t%create', stat)) return
    status = opsplit_pcpd_create(ctx%handle, algorithm, L, replicas, this%handle)
    if (status == OPSPLIT_SUCCESS) this%L = L
    call finish(status, stat)
  end subroutine pcpd_create_i8

  !> Idempotent: a second call (or one on an ensemble never created) does nothing.
  subroutine pcpd_destroy(this, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_pcpd_destroy(this%handle)
    if (.not. c_associated(this%handle)) this%L = 0
    call finish(status, stat)
  end subroutine pcpd_destroy

  !> The annihilation probability p and the diffusion probability d.
  subroutine pcpd_set_probabilities(this, p, d, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    real(c_double), intent(in) :: p, d
    integer, intent(out), optional :: stat
    call finish(opsplit_pcpd_set_probabilities(this%handle, p, d), stat)
  end subroutine pcpd_set_probabilities

  !> Time 0 again from `seed` (a default integer, or the bits of C's uint64_t as
  !> integer(c_int64_t)) and an initial density (1: full).
  subroutine pcpd_initialize_i4(this, seed, density, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    integer, intent(in) :: seed
    real(c_double), intent(in) :: density
    integer, intent(out), optional :: stat
    call pcpd_initialize_i8(this, int(seed, c_int64_t), density, stat)
  end subroutine pcpd_initialize_i4

  subroutine pcpd_initialize_i8(this, seed, density, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    integer(c_int64_t), intent(in) :: seed
    real(c_double), intent(in) :: density
    integer, intent(out), optional :: stat
    call finish(opsplit_pcpd_initialize(this%handle, seed, density), stat)
  end subroutine pcpd_initialize_i8

  subroutine pcpd_set_points_per_decade(this, points, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    integer, intent(in) :: points
    integer, intent(out), optional :: stat
    call finish(opsplit_pcpd_set_points_per_decade(this%handle, int(points, c_int)), stat)
  end subroutine pcpd_set_points_per_decade

  !> Every replica to time t_end (sweeps).
  subroutine pcpd_run(this, t_end, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    real(c_double), intent(in) :: t_end
    integer, intent(out), optional :: stat
    call finish(opsplit_pcpd_run(this%handle, t_end), stat)
  end subroutine pcpd_run

  !> The time reached, sweeps (NaN on failure).
  real(c_double) function pcpd_time(this, stat)
    class(opsplit_pcpd_t), intent(in) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    status = opsplit_pcpd_get_time(this%handle, pcpd_time)
    if (status /= OPSPLIT_SUCCESS) pcpd_time = quiet_nan()
    call finish(status, stat)
  end function pcpd_time

  integer(c_int64_t) function pcpd_series_length(this, stat)
    class(opsplit_pcpd_t), intent(in) :: this
    integer, intent(out), optional :: stat
    pcpd_series_length = 0
    call finish(opsplit_pcpd_get_series_length(this%handle, pcpd_series_length), stat)
  end function pcpd_series_length

  !> The series of a quantity (OPSPLIT_PCPD_DENSITY, _PAIR_DENSITY, _SURVIVING): its
  !> first size(mean) points (at most the series' length); times and standard_error
  !> are optional and, when given, of mean's size.
  subroutine pcpd_get_series(this, quantity, mean, times, standard_error, stat)
    class(opsplit_pcpd_t), intent(in) :: this
    integer(c_int), intent(in) :: quantity
    real(c_double), intent(inout), target, contiguous :: mean(:)
    real(c_double), intent(inout), target, contiguous, optional :: times(:), standard_error(:)
    integer, intent(out), optional :: stat
    type(c_ptr) :: t, e
    t = c_null_ptr
    e = c_null_ptr
    if (present(times)) then
      if (size(times) /= size(mean)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_pcpd_t%get_series: times has ' // &
                    itoa(int(size(times), c_int64_t)) // ' values, mean ' // itoa(int(size(mean), c_int64_t)))
        return
      end if
      t = c_loc(times)
    end if
    if (present(standard_error)) then
      if (size(standard_error) /= size(mean)) then
        call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_pcpd_t%get_series: standard_error has ' // &
                    itoa(int(size(standard_error), c_int64_t)) // ' values, mean ' // itoa(int(size(mean), c_int64_t)))
        return
      end if
      e = c_loc(standard_error)
    end if
    call finish(opsplit_pcpd_get_series(this%handle, quantity, int(size(mean), c_int64_t), t, c_loc(mean), e), stat)
  end subroutine pcpd_get_series

  !> Replica `replica` (1-based) as sites(L): 0 empty, 1 occupied.
  subroutine pcpd_get_lattice(this, replica, sites, stat)
    class(opsplit_pcpd_t), intent(in) :: this
    integer, intent(in) :: replica
    integer(c_int8_t), intent(inout), target, contiguous :: sites(:)
    integer, intent(out), optional :: stat
    if (.not. pcpd_lattice_size(this, 'get_lattice', size(sites, kind=c_int64_t), stat)) return
    call finish(opsplit_pcpd_get_lattice(this%handle, int(replica, c_int64_t) - 1, c_loc(sites)), stat)
  end subroutine pcpd_get_lattice

  subroutine pcpd_set_lattice(this, replica, sites, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    integer, intent(in) :: replica
    integer(c_int8_t), intent(in), target, contiguous :: sites(:)
    integer, intent(out), optional :: stat
    if (.not. pcpd_lattice_size(this, 'set_lattice', size(sites, kind=c_int64_t), stat)) return
    call finish(opsplit_pcpd_set_lattice(this%handle, int(replica, c_int64_t) - 1, c_loc(sites)), stat)
  end subroutine pcpd_set_lattice

  !> The replicas this process holds, 1-based: first .. first + count - 1 (all of them,
  !> unless the ensemble is spread over MPI processes: module opsplit_mpi).
  subroutine pcpd_replicas(this, first, count, stat)
    class(opsplit_pcpd_t), intent(in) :: this
    integer(c_int64_t), intent(out) :: first, count
    integer, intent(out), optional :: stat
    integer(c_int) :: status
    first = 0
    count = 0
    status = opsplit_pcpd_get_replicas(this%handle, first, count)
    if (status == OPSPLIT_SUCCESS) first = first + 1
    call finish(status, stat)
  end subroutine pcpd_replicas

  !> Takes over an ensemble that a C call made (e.g. opsplit_mpi_pcpd_create through
  !> module opsplit_mpi): `status` is that call's result, `handle` its ensemble of L sites
  !> a replica. On success this object owns it (destroy frees it); a failure is reported
  !> as every call's (stat, or the message and error stop).
  subroutine pcpd_adopt(this, handle, L, status, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    type(c_ptr), intent(in) :: handle
    integer(c_int64_t), intent(in) :: L
    integer(c_int), intent(in) :: status
    integer, intent(out), optional :: stat
    if (already_created(this%handle, 'opsplit_pcpd_t%adopt', stat)) return
    if (status == OPSPLIT_SUCCESS) then
      this%handle = handle
      this%L = L
    end if
    call finish(status, stat)
  end subroutine pcpd_adopt

  ! Whether a sites array has the ensemble's L values (else the failure is reported).
  logical function pcpd_lattice_size(this, who, n, stat)
    class(opsplit_pcpd_t), intent(in) :: this
    character(len=*), intent(in) :: who
    integer(c_int64_t), intent(in) :: n
    integer, intent(out), optional :: stat
    pcpd_lattice_size = .not. c_associated(this%handle) .or. n == this%L
    if (.not. pcpd_lattice_size) call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_pcpd_t%' // who // &
                                             ': sites has ' // itoa(n) // ' values, L is ' // itoa(this%L))
  end function pcpd_lattice_size

  logical function pcpd_created(this)
    class(opsplit_pcpd_t), intent(in) :: this
    pcpd_created = c_associated(this%handle)
  end function pcpd_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function pcpd_c_handle(this)
    class(opsplit_pcpd_t), intent(in) :: this
    pcpd_c_handle = this%handle
  end function pcpd_c_handle

end module opsplit
