! opsplit_automata: ca.h in Fortran (cellular-automaton grids: LIFE, SCIARA lava). Part
! of the module opsplit.
module opsplit_automata
  use, intrinsic :: iso_c_binding
  use opsplit_core
  implicit none

  ! opsplit_core's helpers for the wrappers: not re-exported.
  private :: finish, already_created, itoa, quiet_nan, values_at, int_flag, no_values

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


  ! ---- the C functions ----------------------------------------------------
  interface
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

    function opsplit_ca_set_cells_device(ca, cells, order) bind(C, name="opsplit_ca_set_cells_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ca
      type(c_ptr), value :: cells
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_set_cells_device

    function opsplit_ca_get_cells_device(ca, cells, order) bind(C, name="opsplit_ca_get_cells_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ca
      type(c_ptr), value :: cells
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_get_cells_device

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

    ! values: the host's device array (docs/API.md, "Hosts on the GPU").
    function opsplit_ca_set_substate_device(ca, name, values, order) bind(C, name="opsplit_ca_set_substate_device") &
        result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: values
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_set_substate_device

    function opsplit_ca_get_substate_device(ca, name, values, order) bind(C, name="opsplit_ca_get_substate_device") &
        result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ca
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: values
      integer(c_int), value :: order
      integer(c_int) :: status
    end function opsplit_ca_get_substate_device

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

  end interface

  ! ---- the derived types ---------------------------------------------------
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
    procedure :: set_cells_device => ca_set_cells_device
    procedure :: get_cells_device => ca_get_cells_device
    procedure :: place_rle => ca_place_rle
    procedure :: load_rle => ca_load_rle
    procedure, private :: ca_step_i4
    procedure, private :: ca_step_i8
    generic :: step => ca_step_i4, ca_step_i8
    procedure :: steps => ca_steps
    procedure :: population => ca_population
    procedure :: set_substate => ca_set_substate
    procedure :: get_substate => ca_get_substate
    procedure :: set_substate_device => ca_set_substate_device
    procedure :: get_substate_device => ca_get_substate_device
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

  ! The implementations are reached through the types only.
  private :: ca_create_i4, ca_create_i8, ca_destroy, ca_get_shape, ca_get_place, ca_set_boundary, ca_set_rule, ca_set_cells, &
             ca_get_cells, ca_transfer, ca_place_rle, ca_load_rle, ca_step_i4, ca_step_i8, ca_steps, ca_population, ca_created, &
             ca_c_handle, ca_set_substate, ca_get_substate, ca_substate_transfer, ca_load_substate, ca_set_parameter, &
             ca_get_parameter, ca_load_parameters, ca_add_vent, ca_load_vents, ca_run_until, ca_get_time, &
             ca_get_volumes, ca_set_cells_computed, ca_set_cells_device, ca_get_cells_device, &
             ca_set_substate_device, ca_get_substate_device

contains

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
    status = opsplit_ca_create(ctx%c_handle(), model, rows, cols, this%handle)
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

  !> set_cells and get_cells from and to the host's device array cells(rows, cols) of
  !> integer(c_int8_t), given as its address (docs/API.md, "Hosts on the GPU").
  subroutine ca_set_cells_device(this, cells, stat)
    class(opsplit_ca_t), intent(inout) :: this
    type(c_ptr), intent(in) :: cells
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_set_cells_device(this%handle, cells, OPSPLIT_CA_COLUMN_MAJOR), stat)
  end subroutine ca_set_cells_device

  subroutine ca_get_cells_device(this, cells, stat)
    class(opsplit_ca_t), intent(in) :: this
    type(c_ptr), intent(in) :: cells
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_get_cells_device(this%handle, cells, OPSPLIT_CA_COLUMN_MAJOR), stat)
  end subroutine ca_get_cells_device

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

  !> set_substate and get_substate from and to the host's device array values(rows, cols)
  !> of real(c_double), given as its address (docs/API.md, "Hosts on the GPU").
  subroutine ca_set_substate_device(this, name, values, stat)
    class(opsplit_ca_t), intent(inout) :: this
    character(len=*), intent(in) :: name
    type(c_ptr), intent(in) :: values
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_set_substate_device(this%handle, trim(name) // c_null_char, values, &
                                               OPSPLIT_CA_COLUMN_MAJOR), stat)
  end subroutine ca_set_substate_device

  subroutine ca_get_substate_device(this, name, values, stat)
    class(opsplit_ca_t), intent(in) :: this
    character(len=*), intent(in) :: name
    type(c_ptr), intent(in) :: values
    integer, intent(out), optional :: stat
    call finish(opsplit_ca_get_substate_device(this%handle, trim(name) // c_null_char, values, &
                                               OPSPLIT_CA_COLUMN_MAJOR), stat)
  end subroutine ca_get_substate_device

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

end module opsplit_automata
