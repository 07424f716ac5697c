! opsplit_fields: field.h in Fortran (fields and reaction-diffusion operators). Part
! of the module opsplit.
module opsplit_fields
  use, intrinsic :: iso_c_binding
  use opsplit_core
  implicit none

  ! opsplit_core's helpers for the wrappers: not re-exported.
  private :: finish, already_created, itoa, quiet_nan, values_at, int_flag, no_values

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


  ! ---- the C functions ----------------------------------------------------
  interface
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

    function opsplit_field_upload_device(field, device, layout) bind(C, name="opsplit_field_upload_device") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: field
      type(c_ptr), value :: device
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_field_upload_device

    function opsplit_field_download_device(field, device, layout) bind(C, name="opsplit_field_download_device") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: field
      type(c_ptr), value :: device
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_field_download_device

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

    function opsplit_rd_set_steps_per_pass(rd, steps) bind(C, name="opsplit_rd_set_steps_per_pass") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: rd
      integer(c_int), value :: steps
      integer(c_int) :: status
    end function opsplit_rd_set_steps_per_pass

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

    function opsplit_rd_set_retardation(rd, comp, factor) bind(C, name="opsplit_rd_set_retardation") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: rd
      integer(c_int), value :: comp
      real(c_double), value :: factor
      integer(c_int) :: status
    end function opsplit_rd_set_retardation

    function opsplit_rd_set_mobile(rd, comp, mobile) bind(C, name="opsplit_rd_set_mobile") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: rd
      integer(c_int), value :: comp, mobile
      integer(c_int) :: status
    end function opsplit_rd_set_mobile

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

    function opsplit_rd_get_steps_per_pass_taken(rd, steps) bind(C, name="opsplit_rd_get_steps_per_pass_taken") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: rd
      integer(c_int), intent(out) :: steps
      integer(c_int) :: status
    end function opsplit_rd_get_steps_per_pass_taken

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

  end interface

  private :: precision_name

  ! ---- the derived types ---------------------------------------------------
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
    procedure :: upload_device => field_upload_device
    procedure :: download_device => field_download_device
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
    procedure :: set_steps_per_pass => rd_set_steps_per_pass
    procedure :: steps_per_pass_taken => rd_steps_per_pass_taken
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
    procedure :: set_retardation => rd_set_retardation
    procedure :: set_mobile => rd_set_mobile
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

  ! The implementations are reached through the types only.
  private :: field_create_i4, field_create_i8, field_create_impl, field_destroy, field_set_spacing, &
             field_get_spacing, field_get_shape_i4, field_get_shape_i8, field_precision, &
             field_component_sum, field_component_min_max, field_transfer, field_created, field_c_handle
  private :: field_upload_r8, field_upload_r4, field_download_r8, field_download_r4, field_upload_device, &
             field_download_device
  private :: rd_create, rd_destroy, rd_set_stencil, rd_set_steps_per_pass, rd_steps_per_pass_taken, &
             rd_set_diffusion, rd_set_boundary, &
             rd_max_stable_dt, rd_step_i4, rd_step_i8, rd_step_impl, rd_bad_component, rd_created, &
             rd_c_handle, rd_set_reaction, rd_set_reaction_parameter, rd_reaction_parameter, rd_set_linear, &
             rd_set_retardation, rd_set_mobile, &
             rd_set_cahn_hilliard, rd_set_velocity, rd_set_velocity_field, rd_clear_velocity_field, &
             rd_add_source, rd_clear_sources, rd_set_time, rd_time, rd_free_energy

contains

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
    call finish(opsplit_field_create(ctx%c_handle(), nx, ny, nz, ncomp, kind, this%handle), stat)
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

  !> upload and download from and to the host's device memory (a GPU host: OpenACC's
  !> host_data use_device + c_loc, CUDA Fortran's c_devloc): device holds nx*ny*nz*ncomp
  !> values of the field's precision in the layout given (docs/API.md, "Hosts on the GPU").
  subroutine field_upload_device(this, device, layout, stat)
    class(opsplit_field_t), intent(in) :: this
    type(c_ptr), intent(in) :: device
    integer(c_int), intent(in) :: layout
    integer, intent(out), optional :: stat
    call finish(opsplit_field_upload_device(this%handle, device, layout), stat)
  end subroutine field_upload_device

  subroutine field_download_device(this, device, layout, stat)
    class(opsplit_field_t), intent(in) :: this
    type(c_ptr), intent(in) :: device
    integer(c_int), intent(in) :: layout
    integer, intent(out), optional :: stat
    call finish(opsplit_field_download_device(this%handle, device, layout), stat)
  end subroutine field_download_device

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
    status = opsplit_rd_create(ctx%c_handle(), ncomp, this%handle)
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

  !> Up to `steps` (1..16) time steps of a call in one pass through memory, the same bits
  !> (opsplit_rd_set_steps_per_pass says which calls fuse on which backend).
  subroutine rd_set_steps_per_pass(this, steps, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer, intent(in) :: steps
    integer, intent(out), optional :: stat
    call finish(opsplit_rd_set_steps_per_pass(this%handle, int(steps, c_int)), stat)
  end subroutine rd_set_steps_per_pass

  !> The steps a pass the last step call took (opsplit_rd_get_steps_per_pass_taken: 1
  !> where it could not fuse, 0 before the first call).
  integer function rd_steps_per_pass_taken(this, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer, intent(out), optional :: stat
    integer(c_int) :: steps
    steps = 0
    call finish(opsplit_rd_get_steps_per_pass_taken(this%handle, steps), stat)
    rd_steps_per_pass_taken = int(steps)
  end function rd_steps_per_pass_taken

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

  !> Divides the diffusion and advection of component comp (1-based) by factor (> 0).
  subroutine rd_set_retardation(this, comp, factor, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    real(c_double), intent(in) :: factor
    integer, intent(out), optional :: stat
    if (rd_bad_component(this, comp, 'set_retardation', stat)) return
    call finish(opsplit_rd_set_retardation(this%handle, comp - 1, factor), stat)
  end subroutine rd_set_retardation

  !> mobile = .false.: component comp (1-based) neither diffuses nor is advected.
  subroutine rd_set_mobile(this, comp, mobile, stat)
    class(opsplit_rd_t), intent(in) :: this
    integer(c_int), intent(in) :: comp
    logical, intent(in) :: mobile
    integer, intent(out), optional :: stat
    if (rd_bad_component(this, comp, 'set_mobile', stat)) return
    call finish(opsplit_rd_set_mobile(this%handle, comp - 1, merge(1_c_int, 0_c_int, mobile)), stat)
  end subroutine rd_set_mobile

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

end module opsplit_fields
