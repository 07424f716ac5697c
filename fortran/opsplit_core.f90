! opsplit_core: core.h in Fortran (statuses, backends, the context, errors and strings),
! and the helpers every wrapper of the other modules ends in. Part of the module
! opsplit (fortran/opsplit.f90 says how the Fortran layer is built).
module opsplit_core
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


  ! ---- the C functions of core.h ------------------------------------------
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

  ! The implementations are reached through the types only.
  private :: context_create, context_create_on_device, context_destroy, context_backend, context_cuda_device, &
             context_set_num_threads, context_set_cuda_stream, context_synchronize, &
             context_set_progress_callback, context_created, context_c_handle
  ! The wrappers' helpers (the capability modules use them; `use opsplit` does not
  ! bring them in).
  private :: fortran_failure

  ! Where a zero-size array's address goes: C refuses NULL even where it reads or
  ! writes no value (an ODE batch's parameters with nparam = 0).
  real(c_double), target, save :: no_values(1) = 0.0_c_double

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

end module opsplit_core
