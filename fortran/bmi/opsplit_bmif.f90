! The groundwater module behind CSDMS's Fortran BMI (bmi-fortran's module bmif_2_0):
! type(opsplit_gw_bmi), an extension of its abstract type bmi, for a framework that
! drives models through it. Built as the library opsplit_bmif when CMake finds bmif
! (pkg-config); it calls only the opsplit module's opsplit_gw_t procedures.
!
!   use opsplit_bmif
!   type(opsplit_gw_bmi) :: model
!   status = model%initialize('setup.yaml')   ! on a context of OPSPLIT_BACKEND (AUTO)
!   status = model%update()
!   status = model%get_value_double('Concentrations', c)
!   status = model%finalize()
!
! Every function returns BMI_SUCCESS or BMI_FAILURE; after a failure opsplit_last_error()
! says why. Indices (get/set_value_at_indices) are 1-based into the flattened variable,
! as the Fortran BMI's are. Types are "double precision" and "integer"; the _float
! forms convert. get_value_ptr and the grid functions that need coordinates, shapes,
! edges or faces fail: grid 0 is points without coordinates, grid 1 a scalar. Call
! finalize before initializing a model again: BMI's initialize takes the model as
! intent(out), which drops what it held without destroying it.
module opsplit_bmif
  use, intrinsic :: iso_c_binding
  use bmif_2_0
  use opsplit
  implicit none
  private

  type, extends(bmi), public :: opsplit_gw_bmi
    private
    type(opsplit_context_t) :: ctx
    type(opsplit_gw_t) :: gw
  contains
    procedure :: initialize => gw_initialize
    procedure :: update => gw_update
    procedure :: update_until => gw_update_until
    procedure :: finalize => gw_finalize
    procedure :: get_component_name => gw_component_name
    procedure :: get_input_item_count => gw_input_item_count
    procedure :: get_output_item_count => gw_output_item_count
    procedure :: get_input_var_names => gw_input_var_names
    procedure :: get_output_var_names => gw_output_var_names
    procedure :: get_var_grid => gw_var_grid
    procedure :: get_var_type => gw_var_type
    procedure :: get_var_units => gw_var_units
    procedure :: get_var_itemsize => gw_var_itemsize
    procedure :: get_var_nbytes => gw_var_nbytes
    procedure :: get_var_location => gw_var_location
    procedure :: get_current_time => gw_current_time
    procedure :: get_start_time => gw_start_time
    procedure :: get_end_time => gw_end_time
    procedure :: get_time_units => gw_time_units
    procedure :: get_time_step => gw_time_step
    procedure :: get_value_int => gw_get_int
    procedure :: get_value_float => gw_get_float
    procedure :: get_value_double => gw_get_double
    procedure :: get_value_ptr_int => gw_ptr_int
    procedure :: get_value_ptr_float => gw_ptr_float
    procedure :: get_value_ptr_double => gw_ptr_double
    procedure :: get_value_at_indices_int => gw_get_at_int
    procedure :: get_value_at_indices_float => gw_get_at_float
    procedure :: get_value_at_indices_double => gw_get_at_double
    procedure :: set_value_int => gw_set_int
    procedure :: set_value_float => gw_set_float
    procedure :: set_value_double => gw_set_double
    procedure :: set_value_at_indices_int => gw_set_at_int
    procedure :: set_value_at_indices_float => gw_set_at_float
    procedure :: set_value_at_indices_double => gw_set_at_double
    procedure :: get_grid_rank => gw_grid_rank
    procedure :: get_grid_size => gw_grid_size
    procedure :: get_grid_type => gw_grid_type
    procedure :: get_grid_shape => gw_grid_shape
    procedure :: get_grid_spacing => gw_grid_spacing
    procedure :: get_grid_origin => gw_grid_origin
    procedure :: get_grid_x => gw_grid_x
    procedure :: get_grid_y => gw_grid_y
    procedure :: get_grid_z => gw_grid_z
    procedure :: get_grid_node_count => gw_grid_node_count
    procedure :: get_grid_edge_count => gw_grid_edge_count
    procedure :: get_grid_face_count => gw_grid_face_count
    procedure :: get_grid_edge_nodes => gw_grid_edge_nodes
    procedure :: get_grid_face_edges => gw_grid_face_edges
    procedure :: get_grid_face_nodes => gw_grid_face_nodes
    procedure :: get_grid_nodes_per_face => gw_grid_nodes_per_face
  end type opsplit_gw_bmi

  interface
    ! group.h's: sets the thread's last error (opsplit_last_error reads it).
    function opsplit_set_last_error(status, function, message) bind(C, name="opsplit_set_last_error") result(s)
      import :: c_int, c_char
      integer(c_int), value :: status
      character(kind=c_char), intent(in) :: function(*), message(*)
      integer(c_int) :: s
    end function opsplit_set_last_error
  end interface

  ! The texts the BMI hands out by pointer: the same for every model.
  character(len=BMI_MAX_COMPONENT_NAME), target, save :: component_name = 'opsplit groundwater reaction module'
  character(len=BMI_MAX_VAR_NAME), allocatable, target, save :: input_names(:), output_names(:)

contains

  integer function bmi_status(stat)
    integer, intent(in) :: stat
    bmi_status = merge(BMI_SUCCESS, BMI_FAILURE, stat == OPSPLIT_SUCCESS)
  end function bmi_status

  integer function gw_initialize(this, config_file) result(status)
    class(opsplit_gw_bmi), intent(out) :: this
    character(len=*), intent(in) :: config_file
    character(len=:), allocatable :: why
    integer :: stat
    call this%ctx%create(OPSPLIT_BACKEND_AUTO, stat)
    if (stat == OPSPLIT_SUCCESS) call this%gw%load_yaml(this%ctx, config_file, stat)
    if (stat /= OPSPLIT_SUCCESS .and. this%ctx%created()) then
      ! The failure's message outlives the context's destruction.
      why = opsplit_last_error()
      call this%ctx%destroy()
      stat = opsplit_set_last_error(int(stat, c_int), 'opsplit_gw_bmi%initialize' // c_null_char, why // c_null_char)
    end if
    status = bmi_status(stat)
  end function gw_initialize

  integer function gw_update(this) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    integer :: stat
    call this%gw%update(stat)
    status = bmi_status(stat)
  end function gw_update

  integer function gw_update_until(this, time) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    double precision, intent(in) :: time
    integer :: stat
    call this%gw%update_until(time, stat)
    status = bmi_status(stat)
  end function gw_update_until

  integer function gw_finalize(this) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    integer :: stat
    call this%gw%destroy(stat)
    if (this%ctx%created()) call this%ctx%destroy()
    status = bmi_status(stat)
  end function gw_finalize

  integer function gw_component_name(this, name) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), pointer, intent(out) :: name
    name => component_name
    status = BMI_SUCCESS
  end function gw_component_name

  integer function item_count(this, role, count) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer(c_int), intent(in) :: role
    integer, intent(out) :: count
    integer :: stat
    count = this%gw%var_count(role, stat)
    status = bmi_status(stat)
  end function item_count

  integer function gw_input_item_count(this, count) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(out) :: count
    status = item_count(this, OPSPLIT_GW_BMI_INPUT, count)
  end function gw_input_item_count

  integer function gw_output_item_count(this, count) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(out) :: count
    status = item_count(this, OPSPLIT_GW_BMI_OUTPUT, count)
  end function gw_output_item_count

  ! A role's names, into the module's list (filled once: the table is static).
  integer function var_names(this, role, list) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer(c_int), intent(in) :: role
    character(len=BMI_MAX_VAR_NAME), allocatable, intent(inout) :: list(:)
    integer :: count, i, stat
    status = item_count(this, role, count)
    if (status /= BMI_SUCCESS .or. allocated(list)) return
    allocate(list(count))
    do i = 1, count
      list(i) = this%gw%var_name(role, i, stat)
      if (stat /= OPSPLIT_SUCCESS) status = BMI_FAILURE
    end do
  end function var_names

  integer function gw_input_var_names(this, names) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), pointer, intent(out) :: names(:)
    status = var_names(this, OPSPLIT_GW_BMI_INPUT, input_names)
    names => input_names
  end function gw_input_var_names

  integer function gw_output_var_names(this, names) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), pointer, intent(out) :: names(:)
    status = var_names(this, OPSPLIT_GW_BMI_OUTPUT, output_names)
    names => output_names
  end function gw_output_var_names

  ! A variable's information (opsplit_gw_bmi_get_var_info); false when it has none.
  logical function var_info(this, name, type, units, grid, itemsize, nbytes, location)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    character(len=:), allocatable, intent(out) :: type, units, location
    integer(c_int), intent(out) :: grid, itemsize
    integer(c_int64_t), intent(out) :: nbytes
    type(c_ptr) :: t, u, l
    t = c_null_ptr
    u = c_null_ptr
    l = c_null_ptr
    grid = 0
    itemsize = 0
    nbytes = 0
    var_info = opsplit_gw_bmi_get_var_info(this%gw%c_handle(), trim(name) // c_null_char, t, u, grid, itemsize, &
                                           nbytes, l) == OPSPLIT_SUCCESS
    ! A refused call writes no pointer: '' then.
    type = opsplit_c_string(t)
    units = opsplit_c_string(u)
    location = opsplit_c_string(l)
  end function var_info

  integer function gw_var_grid(this, name, grid) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(out) :: grid
    character(len=:), allocatable :: type, units, location
    integer(c_int) :: g, itemsize
    integer(c_int64_t) :: nbytes
    status = merge(BMI_SUCCESS, BMI_FAILURE, var_info(this, name, type, units, g, itemsize, nbytes, location))
    grid = g
  end function gw_var_grid

  integer function gw_var_type(this, name, type) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    character(len=*), intent(out) :: type
    character(len=:), allocatable :: c_type, units, location
    integer(c_int) :: grid, itemsize
    integer(c_int64_t) :: nbytes
    status = merge(BMI_SUCCESS, BMI_FAILURE, var_info(this, name, c_type, units, grid, itemsize, nbytes, location))
    type = ''
    if (status == BMI_SUCCESS) type = merge('integer         ', 'double precision', c_type == 'int')
  end function gw_var_type

  integer function gw_var_units(this, name, units) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    character(len=*), intent(out) :: units
    character(len=:), allocatable :: type, c_units, location
    integer(c_int) :: grid, itemsize
    integer(c_int64_t) :: nbytes
    status = merge(BMI_SUCCESS, BMI_FAILURE, var_info(this, name, type, c_units, grid, itemsize, nbytes, location))
    units = c_units
  end function gw_var_units

  integer function gw_var_itemsize(this, name, size) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(out) :: size
    character(len=:), allocatable :: type, units, location
    integer(c_int) :: grid, itemsize
    integer(c_int64_t) :: nbytes
    status = merge(BMI_SUCCESS, BMI_FAILURE, var_info(this, name, type, units, grid, itemsize, nbytes, location))
    size = itemsize
  end function gw_var_itemsize

  integer function gw_var_nbytes(this, name, nbytes) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(out) :: nbytes
    character(len=:), allocatable :: type, units, location
    integer(c_int) :: grid, itemsize
    integer(c_int64_t) :: n
    status = merge(BMI_SUCCESS, BMI_FAILURE, var_info(this, name, type, units, grid, itemsize, n, location))
    if (n > huge(nbytes)) status = BMI_FAILURE  ! BMI's default integer
    nbytes = int(min(n, int(huge(nbytes), c_int64_t)))
  end function gw_var_nbytes

  integer function gw_var_location(this, name, location) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    character(len=*), intent(out) :: location
    character(len=:), allocatable :: type, units, c_location
    integer(c_int) :: grid, itemsize
    integer(c_int64_t) :: nbytes
    status = merge(BMI_SUCCESS, BMI_FAILURE, var_info(this, name, type, units, grid, itemsize, nbytes, c_location))
    location = c_location
  end function gw_var_location

  ! The clock: which = 1 start, 2 current, 3 end, 4 step.
  integer function clock(this, which, value) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: which
    double precision, intent(out) :: value
    real(c_double) :: times(4)
    integer :: stat
    times = 0
    call this%gw%times(times(1), times(2), times(3), times(4), stat)
    value = times(which)
    status = bmi_status(stat)
  end function clock

  integer function gw_start_time(this, time) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    double precision, intent(out) :: time
    status = clock(this, 1, time)
  end function gw_start_time

  integer function gw_current_time(this, time) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    double precision, intent(out) :: time
    status = clock(this, 2, time)
  end function gw_current_time

  integer function gw_end_time(this, time) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    double precision, intent(out) :: time
    status = clock(this, 3, time)
  end function gw_end_time

  integer function gw_time_step(this, time_step) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    double precision, intent(out) :: time_step
    status = clock(this, 4, time_step)
  end function gw_time_step

  integer function gw_time_units(this, units) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(out) :: units
    units = 's'
    status = BMI_SUCCESS
  end function gw_time_units

  integer function gw_get_int(this, name, dest) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(inout) :: dest(:)
    integer(c_int), allocatable :: values(:)
    integer :: stat
    allocate(values(size(dest)))
    values = dest  ! the elements past the variable's keep the caller's values
    call this%gw%get_value(name, values, stat)
    if (stat == OPSPLIT_SUCCESS) dest = values
    status = bmi_status(stat)
  end function gw_get_int

  integer function gw_get_double(this, name, dest) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    double precision, intent(inout) :: dest(:)
    real(c_double), allocatable :: values(:)
    integer :: stat
    allocate(values(size(dest)))
    values = dest  ! the elements past the variable's keep the caller's values
    call this%gw%get_value(name, values, stat)
    if (stat == OPSPLIT_SUCCESS) dest = values
    status = bmi_status(stat)
  end function gw_get_double

  integer function gw_get_float(this, name, dest) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    real, intent(inout) :: dest(:)
    real(c_double), allocatable :: values(:)
    integer :: stat
    allocate(values(size(dest)))
    values = dest  ! the elements past the variable's keep the caller's values
    call this%gw%get_value(name, values, stat)
    if (stat == OPSPLIT_SUCCESS) dest = real(values)
    status = bmi_status(stat)
  end function gw_get_float

  ! The module keeps moles per chemistry cell, not the host's array: no pointer to give.
  integer function gw_ptr_int(this, name, dest_ptr) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, pointer, intent(inout) :: dest_ptr(:)
    status = BMI_FAILURE
  end function gw_ptr_int

  integer function gw_ptr_float(this, name, dest_ptr) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    real, pointer, intent(inout) :: dest_ptr(:)
    status = BMI_FAILURE
  end function gw_ptr_float

  integer function gw_ptr_double(this, name, dest_ptr) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    double precision, pointer, intent(inout) :: dest_ptr(:)
    status = BMI_FAILURE
  end function gw_ptr_double

  ! Values at 1-based indices through the C call's 0-based ones; dest is c_loc'd.
  integer function get_at(this, name, dest, inds) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    type(c_ptr), intent(in) :: dest
    integer, intent(in) :: inds(:)
    integer(c_int), target :: zero_based(size(inds))
    zero_based = inds - 1
    status = bmi_status(opsplit_gw_bmi_get_value_at_indices(this%gw%c_handle(), trim(name) // c_null_char, dest, &
                                                            c_loc(zero_based), int(size(inds), c_int)))
  end function get_at

  integer function set_at(this, name, inds, src) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(in) :: inds(:)
    type(c_ptr), intent(in) :: src
    integer(c_int), target :: zero_based(size(inds))
    zero_based = inds - 1
    status = bmi_status(opsplit_gw_bmi_set_value_at_indices(this%gw%c_handle(), trim(name) // c_null_char, &
                                                            c_loc(zero_based), int(size(inds), c_int), src))
  end function set_at

  ! Whether name's C type is `want` ("double" or "int"): values of another type are refused.
  logical function of_type(this, name, want)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name, want
    character(len=:), allocatable :: type, units, location
    integer(c_int) :: grid, itemsize
    integer(c_int64_t) :: nbytes
    of_type = var_info(this, name, type, units, grid, itemsize, nbytes, location)
    if (of_type) of_type = type == want
  end function of_type

  integer function gw_get_at_int(this, name, dest, inds) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    integer, intent(inout) :: dest(:)
    integer, intent(in) :: inds(:)
    integer(c_int), target :: values(size(inds))
    status = BMI_FAILURE
    if (.not. of_type(this, name, 'int') .or. size(dest) < size(inds)) return
    status = get_at(this, name, c_loc(values), inds)
    if (status == BMI_SUCCESS) dest(1:size(inds)) = values
  end function gw_get_at_int

  integer function gw_get_at_double(this, name, dest, inds) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    double precision, intent(inout) :: dest(:)
    integer, intent(in) :: inds(:)
    real(c_double), target :: values(size(inds))
    status = BMI_FAILURE
    if (.not. of_type(this, name, 'double') .or. size(dest) < size(inds)) return
    status = get_at(this, name, c_loc(values), inds)
    if (status == BMI_SUCCESS) dest(1:size(inds)) = values
  end function gw_get_at_double

  integer function gw_get_at_float(this, name, dest, inds) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    character(len=*), intent(in) :: name
    real, intent(inout) :: dest(:)
    integer, intent(in) :: inds(:)
    real(c_double), target :: values(size(inds))
    status = BMI_FAILURE
    if (.not. of_type(this, name, 'double') .or. size(dest) < size(inds)) return
    status = get_at(this, name, c_loc(values), inds)
    if (status == BMI_SUCCESS) dest(1:size(inds)) = real(values)
  end function gw_get_at_float

  ! No input is an integer: integer values are refused (the C call names the variable).
  integer function gw_set_int(this, name, src) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    character(len=*), intent(in) :: name
    integer, intent(in) :: src(:)
    integer(c_int), target :: values(size(src))
    values = src
    status = BMI_FAILURE
    if (of_type(this, name, 'int')) &
      status = bmi_status(opsplit_gw_bmi_set_value(this%gw%c_handle(), trim(name) // c_null_char, c_loc(values)))
  end function gw_set_int

  integer function gw_set_double(this, name, src) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    character(len=*), intent(in) :: name
    double precision, intent(in) :: src(:)
    real(c_double) :: values(size(src))
    integer :: stat
    values = src
    call this%gw%set_value(name, values, stat)
    status = bmi_status(stat)
  end function gw_set_double

  integer function gw_set_float(this, name, src) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    character(len=*), intent(in) :: name
    real, intent(in) :: src(:)
    real(c_double) :: values(size(src))
    integer :: stat
    values = src
    call this%gw%set_value(name, values, stat)
    status = bmi_status(stat)
  end function gw_set_float

  integer function gw_set_at_int(this, name, inds, src) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    character(len=*), intent(in) :: name
    integer, intent(in) :: inds(:)
    integer, intent(in) :: src(:)
    integer(c_int), target :: values(size(inds))
    status = BMI_FAILURE
    if (.not. of_type(this, name, 'int') .or. size(src) < size(inds)) return
    values = src(1:size(inds))
    status = set_at(this, name, inds, c_loc(values))
  end function gw_set_at_int

  integer function gw_set_at_double(this, name, inds, src) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    character(len=*), intent(in) :: name
    integer, intent(in) :: inds(:)
    double precision, intent(in) :: src(:)
    real(c_double), target :: values(size(inds))
    status = BMI_FAILURE
    if (.not. of_type(this, name, 'double') .or. size(src) < size(inds)) return
    values = src(1:size(inds))
    status = set_at(this, name, inds, c_loc(values))
  end function gw_set_at_double

  integer function gw_set_at_float(this, name, inds, src) result(status)
    class(opsplit_gw_bmi), intent(inout) :: this
    character(len=*), intent(in) :: name
    integer, intent(in) :: inds(:)
    real, intent(in) :: src(:)
    real(c_double), target :: values(size(inds))
    status = BMI_FAILURE
    if (.not. of_type(this, name, 'double') .or. size(src) < size(inds)) return
    values = src(1:size(inds))
    status = set_at(this, name, inds, c_loc(values))
  end function gw_set_at_float

  integer function gw_grid_rank(this, grid, rank) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, intent(out) :: rank
    integer(c_int) :: r
    integer(c_int64_t) :: n
    type(c_ptr) :: t
    r = 0
    n = 0
    status = bmi_status(opsplit_gw_bmi_get_grid_info(this%gw%c_handle(), int(grid, c_int), r, n, t))
    rank = r
  end function gw_grid_rank

  integer function gw_grid_size(this, grid, size) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, intent(out) :: size
    integer(c_int) :: r
    integer(c_int64_t) :: n
    type(c_ptr) :: t
    r = 0
    n = 0
    status = bmi_status(opsplit_gw_bmi_get_grid_info(this%gw%c_handle(), int(grid, c_int), r, n, t))
    if (n > huge(size)) status = BMI_FAILURE
    size = int(min(n, int(huge(size), c_int64_t)))
  end function gw_grid_size

  integer function gw_grid_type(this, grid, type) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    character(len=*), intent(out) :: type
    integer(c_int) :: r
    integer(c_int64_t) :: n
    type(c_ptr) :: t
    t = c_null_ptr  ! a refused call writes none: '' then
    status = bmi_status(opsplit_gw_bmi_get_grid_info(this%gw%c_handle(), int(grid, c_int), r, n, t))
    type = opsplit_c_string(t)
  end function gw_grid_type

  ! What points without coordinates, and a scalar, do not have (the BMI names each
  ! function's argument, so each has its own).
  integer function gw_grid_shape(this, grid, shape) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, dimension(:), intent(out) :: shape
    shape = 0
    status = BMI_FAILURE
  end function gw_grid_shape

  integer function gw_grid_edge_nodes(this, grid, edge_nodes) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, dimension(:), intent(out) :: edge_nodes
    edge_nodes = 0
    status = BMI_FAILURE
  end function gw_grid_edge_nodes

  integer function gw_grid_face_edges(this, grid, face_edges) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, dimension(:), intent(out) :: face_edges
    face_edges = 0
    status = BMI_FAILURE
  end function gw_grid_face_edges

  integer function gw_grid_face_nodes(this, grid, face_nodes) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, dimension(:), intent(out) :: face_nodes
    face_nodes = 0
    status = BMI_FAILURE
  end function gw_grid_face_nodes

  integer function gw_grid_nodes_per_face(this, grid, nodes_per_face) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, dimension(:), intent(out) :: nodes_per_face
    nodes_per_face = 0
    status = BMI_FAILURE
  end function gw_grid_nodes_per_face

  integer function gw_grid_spacing(this, grid, spacing) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    double precision, dimension(:), intent(out) :: spacing
    spacing = 0
    status = BMI_FAILURE
  end function gw_grid_spacing

  integer function gw_grid_origin(this, grid, origin) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    double precision, dimension(:), intent(out) :: origin
    origin = 0
    status = BMI_FAILURE
  end function gw_grid_origin

  integer function gw_grid_x(this, grid, x) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    double precision, dimension(:), intent(out) :: x
    x = 0
    status = BMI_FAILURE
  end function gw_grid_x

  integer function gw_grid_y(this, grid, y) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    double precision, dimension(:), intent(out) :: y
    y = 0
    status = BMI_FAILURE
  end function gw_grid_y

  integer function gw_grid_z(this, grid, z) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    double precision, dimension(:), intent(out) :: z
    z = 0
    status = BMI_FAILURE
  end function gw_grid_z

  integer function gw_grid_edge_count(this, grid, count) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, intent(out) :: count
    count = 0
    status = BMI_FAILURE
  end function gw_grid_edge_count

  integer function gw_grid_face_count(this, grid, count) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, intent(out) :: count
    count = 0
    status = BMI_FAILURE
  end function gw_grid_face_count

  ! Points: a node each.
  integer function gw_grid_node_count(this, grid, count) result(status)
    class(opsplit_gw_bmi), intent(in) :: this
    integer, intent(in) :: grid
    integer, intent(out) :: count
    status = gw_grid_size(this, grid, count)
  end function gw_grid_node_count

end module opsplit_bmif
