! opsplit_lattices: pcpd.h in Fortran (PCPD lattice ensembles). Part of the module
! opsplit.
module opsplit_lattices
  use, intrinsic :: iso_c_binding
  use opsplit_core
  implicit none

  ! opsplit_core's helpers for the wrappers: not re-exported.
  private :: finish, already_created, itoa, quiet_nan, values_at, int_flag, no_values

  ! ---- enums of pcpd.h -----------------------------------------------------
  ! opsplit_pcpd_algorithm
  integer(c_int), parameter :: OPSPLIT_PCPD_EXACT = 0
  integer(c_int), parameter :: OPSPLIT_PCPD_MULTISPIN = 1
  integer(c_int), parameter :: OPSPLIT_PCPD_MULTISPIN32 = 2
  ! opsplit_pcpd_quantity
  integer(c_int), parameter :: OPSPLIT_PCPD_DENSITY = 0
  integer(c_int), parameter :: OPSPLIT_PCPD_PAIR_DENSITY = 1
  integer(c_int), parameter :: OPSPLIT_PCPD_SURVIVING = 2


  ! ---- the C functions ----------------------------------------------------
  interface
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

    function opsplit_pcpd_get_lattice_device(pcpd, replica, sites) bind(C, name="opsplit_pcpd_get_lattice_device") &
        result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int64_t), value :: replica
      type(c_ptr), value :: sites
      integer(c_int) :: status
    end function opsplit_pcpd_get_lattice_device

    function opsplit_pcpd_set_lattice_device(pcpd, replica, sites) bind(C, name="opsplit_pcpd_set_lattice_device") &
        result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int64_t), value :: replica
      type(c_ptr), value :: sites
      integer(c_int) :: status
    end function opsplit_pcpd_set_lattice_device

    function opsplit_pcpd_get_replicas(pcpd, first, count) bind(C, name="opsplit_pcpd_get_replicas") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: pcpd
      integer(c_int64_t), intent(out) :: first, count
      integer(c_int) :: status
    end function opsplit_pcpd_get_replicas
  end interface

  ! ---- the derived types ---------------------------------------------------
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
    procedure :: get_lattice_device => pcpd_get_lattice_device
    procedure :: set_lattice_device => pcpd_set_lattice_device
    procedure :: replicas => pcpd_replicas
    procedure :: adopt => pcpd_adopt
    procedure :: created => pcpd_created
    procedure :: c_handle => pcpd_c_handle
  end type opsplit_pcpd_t

  ! The implementations are reached through the types only.
  private :: pcpd_create_i4, pcpd_create_i8, pcpd_destroy, pcpd_set_probabilities, pcpd_initialize_i4, &
             pcpd_initialize_i8, &
             pcpd_set_points_per_decade, pcpd_run, pcpd_time, pcpd_series_length, pcpd_get_series, pcpd_get_lattice, &
             pcpd_set_lattice, pcpd_lattice_size, pcpd_created, pcpd_c_handle, pcpd_replicas, pcpd_adopt, &
             pcpd_get_lattice_device, pcpd_set_lattice_device

contains

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
    status = opsplit_pcpd_create(ctx%c_handle(), algorithm, L, replicas, this%handle)
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

  !> get_lattice and set_lattice from and to the host's device array of L integer(c_int8_t)
  !> sites, given as its address; replica is 1-based (docs/API.md, "Hosts on the GPU").
  subroutine pcpd_get_lattice_device(this, replica, sites, stat)
    class(opsplit_pcpd_t), intent(in) :: this
    integer, intent(in) :: replica
    type(c_ptr), intent(in) :: sites
    integer, intent(out), optional :: stat
    call finish(opsplit_pcpd_get_lattice_device(this%handle, int(replica, c_int64_t) - 1, sites), stat)
  end subroutine pcpd_get_lattice_device

  subroutine pcpd_set_lattice_device(this, replica, sites, stat)
    class(opsplit_pcpd_t), intent(inout) :: this
    integer, intent(in) :: replica
    type(c_ptr), intent(in) :: sites
    integer, intent(out), optional :: stat
    call finish(opsplit_pcpd_set_lattice_device(this%handle, int(replica, c_int64_t) - 1, sites), stat)
  end subroutine pcpd_set_lattice_device

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

end module opsplit_lattices
