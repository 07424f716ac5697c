! opsplit_groundwater: groundwater.h in Fortran (the groundwater reaction module). Part
! of the module opsplit. The C functions under their own names (handles type(c_ptr),
! arrays c_loc of contiguous arrays), and opsplit_gw_t, whose procedures take Fortran
! arrays in PhreeqcRM's Fortran layout: c(nxyz, ncomponents), one value per grid cell
! for properties, 1-based species and parameter indices. The mapping keeps PhreeqcRM's
! values: 0-based chemistry cells, -1 for a cell left out.
module opsplit_groundwater
  use, intrinsic :: iso_c_binding
  use opsplit_core
  implicit none

  ! opsplit_core's helpers for the wrappers: not re-exported.
  private :: finish, already_created, itoa, quiet_nan, values_at, int_flag, no_values

  ! ---- enums of groundwater.h ----------------------------------------------
  ! opsplit_gw_solution_units
  integer(c_int), parameter :: OPSPLIT_GW_MG_PER_L = 1     ! mg per litre of water (needs molar masses)
  integer(c_int), parameter :: OPSPLIT_GW_MOL_PER_L = 2    ! mol per litre of water (the mechanism's)
  integer(c_int), parameter :: OPSPLIT_GW_MOL_PER_KGW = 3  ! mol per kg of water (x DENSITY)
  ! opsplit_gw_solid_units (immobile amounts, mol per litre of)
  integer(c_int), parameter :: OPSPLIT_GW_PER_L_CELL = 0
  integer(c_int), parameter :: OPSPLIT_GW_PER_L_WATER = 1  ! porosity x volume
  integer(c_int), parameter :: OPSPLIT_GW_PER_L_ROCK = 2   ! (1 - porosity) x volume
  ! opsplit_gw_property
  integer(c_int), parameter :: OPSPLIT_GW_POROSITY = 0
  integer(c_int), parameter :: OPSPLIT_GW_SATURATION = 1
  integer(c_int), parameter :: OPSPLIT_GW_VOLUME = 2       ! litres
  integer(c_int), parameter :: OPSPLIT_GW_DENSITY = 3      ! kg of water per litre
  integer(c_int), parameter :: OPSPLIT_GW_TEMPERATURE = 4  ! degrees Celsius
  integer(c_int), parameter :: OPSPLIT_GW_PRESSURE = 5     ! atm
  integer(c_int), parameter :: OPSPLIT_GW_BULK_DENSITY = 6 ! kg of solid per litre of cell
  ! opsplit_gw_isotherm: S (mol/kg) of C (mol/L)
  integer(c_int), parameter :: OPSPLIT_GW_ISOTHERM_NONE = 0
  integer(c_int), parameter :: OPSPLIT_GW_ISOTHERM_LINEAR = 1      ! k C
  integer(c_int), parameter :: OPSPLIT_GW_ISOTHERM_FREUNDLICH = 2  ! k C**b
  integer(c_int), parameter :: OPSPLIT_GW_ISOTHERM_LANGMUIR = 3    ! b k C / (1 + k C)
  ! opsplit_gw_cell
  integer(c_int), parameter :: OPSPLIT_GW_CELL_NOT_RUN = -1
  ! opsplit_gw_bmi_role
  integer(c_int), parameter :: OPSPLIT_GW_BMI_INPUT = 0
  integer(c_int), parameter :: OPSPLIT_GW_BMI_OUTPUT = 1


  ! ---- the C functions ----------------------------------------------------
  interface
    ! gw: receives the module's handle.
    function opsplit_gw_create(ctx, mech, nxyz, gw) bind(C, name="opsplit_gw_create") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: ctx
      type(c_ptr), value :: mech
      integer(c_int64_t), value :: nxyz
      type(c_ptr), intent(out) :: gw
      integer(c_int) :: status
    end function opsplit_gw_create

    function opsplit_gw_destroy(gw) bind(C, name="opsplit_gw_destroy") result(status)
      import :: c_int, c_ptr
      type(c_ptr) :: gw
      integer(c_int) :: status
    end function opsplit_gw_destroy

    function opsplit_gw_get_counts(gw, nxyz, nchem, ncomponents, nimmobile) &
        bind(C, name="opsplit_gw_get_counts") result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: gw
      integer(c_int64_t) :: nxyz
      integer(c_int64_t) :: nchem
      integer(c_int) :: ncomponents
      integer(c_int) :: nimmobile
      integer(c_int) :: status
    end function opsplit_gw_get_counts

    ! species: 0-based, as in C.
    function opsplit_gw_set_mobile(gw, species, mobile) bind(C, name="opsplit_gw_set_mobile") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: species
      integer(c_int), value :: mobile
      integer(c_int) :: status
    end function opsplit_gw_set_mobile

    ! components, immobile: c_loc of integer(c_int) arrays (0-based species) or c_null_ptr.
    function opsplit_gw_get_species_lists(gw, components, immobile) &
        bind(C, name="opsplit_gw_get_species_lists") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: components
      type(c_ptr), value :: immobile
      integer(c_int) :: status
    end function opsplit_gw_get_species_lists

    ! grid2chem: c_loc of nxyz integer(c_int) values (0-based chemistry cells, -1 left out).
    function opsplit_gw_set_mapping(gw, grid2chem) bind(C, name="opsplit_gw_set_mapping") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: grid2chem
      integer(c_int) :: status
    end function opsplit_gw_set_mapping

    function opsplit_gw_set_units(gw, solution, solid) bind(C, name="opsplit_gw_set_units") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: solution
      integer(c_int), value :: solid
      integer(c_int) :: status
    end function opsplit_gw_set_units

    function opsplit_gw_set_molar_masses(gw, grams_per_mole) &
        bind(C, name="opsplit_gw_set_molar_masses") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: grams_per_mole
      integer(c_int) :: status
    end function opsplit_gw_set_molar_masses

    ! values: c_loc of nxyz real(c_double) values.
    function opsplit_gw_set_property(gw, property, values) &
        bind(C, name="opsplit_gw_set_property") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: property
      type(c_ptr), value :: values
      integer(c_int) :: status
    end function opsplit_gw_set_property

    function opsplit_gw_get_property(gw, property, values) &
        bind(C, name="opsplit_gw_get_property") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: property
      type(c_ptr), value :: values
      integer(c_int) :: status
    end function opsplit_gw_get_property

    ! param: 0-based, as in C.
    function opsplit_gw_set_parameter(gw, param, values) &
        bind(C, name="opsplit_gw_set_parameter") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: param
      type(c_ptr), value :: values
      integer(c_int) :: status
    end function opsplit_gw_set_parameter

    ! c: c_loc of c(nxyz, ncomponents), real(c_double).
    function opsplit_gw_set_concentrations(gw, c) bind(C, name="opsplit_gw_set_concentrations") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: c
      integer(c_int) :: status
    end function opsplit_gw_set_concentrations

    function opsplit_gw_get_concentrations(gw, c) bind(C, name="opsplit_gw_get_concentrations") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: c
      integer(c_int) :: status
    end function opsplit_gw_get_concentrations

    ! amounts: c_loc of amounts(nxyz, nimmobile), real(c_double).
    function opsplit_gw_set_immobile(gw, amounts) bind(C, name="opsplit_gw_set_immobile") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: amounts
      integer(c_int) :: status
    end function opsplit_gw_set_immobile

    function opsplit_gw_get_immobile(gw, amounts) bind(C, name="opsplit_gw_get_immobile") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: amounts
      integer(c_int) :: status
    end function opsplit_gw_get_immobile

    function opsplit_gw_set_method(gw, method) bind(C, name="opsplit_gw_set_method") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: method
      integer(c_int) :: status
    end function opsplit_gw_set_method

    function opsplit_gw_set_tolerances(gw, rtol, atol) &
        bind(C, name="opsplit_gw_set_tolerances") result(status)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: gw
      real(c_double), value :: rtol
      real(c_double), value :: atol
      integer(c_int) :: status
    end function opsplit_gw_set_tolerances

    function opsplit_gw_run(gw, dt) bind(C, name="opsplit_gw_run") result(status)
      import :: c_double, c_int, c_ptr
      type(c_ptr), value :: gw
      real(c_double), value :: dt
      integer(c_int) :: status
    end function opsplit_gw_run

    ! cell_status: c_loc of nxyz integer(c_int) values.
    function opsplit_gw_get_status(gw, cell_status) bind(C, name="opsplit_gw_get_status") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: cell_status
      integer(c_int) :: status
    end function opsplit_gw_get_status

    ! moles: c_loc of nspecies real(c_double) values.
    function opsplit_gw_get_moles(gw, moles) bind(C, name="opsplit_gw_get_moles") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: moles
      integer(c_int) :: status
    end function opsplit_gw_get_moles

    function opsplit_gw_set_isotherm(gw, species, kind, k, b) bind(C, name="opsplit_gw_set_isotherm") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: gw
      integer(c_int), value :: species, kind
      real(c_double), value :: k, b
      integer(c_int) :: status
    end function opsplit_gw_set_isotherm

    ! retardation: c_loc of ncomponents x nxyz real(c_double) values.
    function opsplit_gw_get_retardation(gw, retardation) bind(C, name="opsplit_gw_get_retardation") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      type(c_ptr), value :: retardation
      integer(c_int) :: status
    end function opsplit_gw_get_retardation

    ! name: receives a C string (opsplit_c_string reads it).
    function opsplit_gw_get_species_name(gw, species, name) bind(C, name="opsplit_gw_get_species_name") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: species
      type(c_ptr), intent(out) :: name
      integer(c_int) :: status
    end function opsplit_gw_get_species_name

    ! path: NUL-terminated (trim(path) // c_null_char).
    function opsplit_gw_load_yaml(ctx, path, gw) bind(C, name="opsplit_gw_load_yaml") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: ctx
      character(kind=c_char), intent(in) :: path(*)
      type(c_ptr), intent(out) :: gw
      integer(c_int) :: status
    end function opsplit_gw_load_yaml

    function opsplit_gw_bmi_update(gw) bind(C, name="opsplit_gw_bmi_update") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int) :: status
    end function opsplit_gw_bmi_update

    function opsplit_gw_bmi_update_until(gw, time) bind(C, name="opsplit_gw_bmi_update_until") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: gw
      real(c_double), value :: time
      integer(c_int) :: status
    end function opsplit_gw_bmi_update_until

    function opsplit_gw_bmi_get_var_count(gw, role, count) bind(C, name="opsplit_gw_bmi_get_var_count") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: role
      integer(c_int), intent(out) :: count
      integer(c_int) :: status
    end function opsplit_gw_bmi_get_var_count

    ! index: 0-based, as in C; name: receives a C string.
    function opsplit_gw_bmi_get_var_name(gw, role, index, name) bind(C, name="opsplit_gw_bmi_get_var_name") &
        result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: role, index
      type(c_ptr), intent(out) :: name
      integer(c_int) :: status
    end function opsplit_gw_bmi_get_var_name

    ! name: NUL-terminated; type, units, location receive C strings.
    function opsplit_gw_bmi_get_var_info(gw, name, type, units, grid, itemsize, nbytes, location) &
        bind(C, name="opsplit_gw_bmi_get_var_info") result(status)
      import :: c_int, c_int64_t, c_ptr, c_char
      type(c_ptr), value :: gw
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), intent(out) :: type, units, location
      integer(c_int), intent(out) :: grid, itemsize
      integer(c_int64_t), intent(out) :: nbytes
      integer(c_int) :: status
    end function opsplit_gw_bmi_get_var_info

    function opsplit_gw_bmi_get_times(gw, start, current, end, step) bind(C, name="opsplit_gw_bmi_get_times") &
        result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: gw
      real(c_double), intent(out) :: start, current, end, step
      integer(c_int) :: status
    end function opsplit_gw_bmi_get_times

    ! dest, src: c_loc of the variable's values (real(c_double) or integer(c_int)).
    function opsplit_gw_bmi_get_value(gw, name, dest) bind(C, name="opsplit_gw_bmi_get_value") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: gw
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: dest
      integer(c_int) :: status
    end function opsplit_gw_bmi_get_value

    function opsplit_gw_bmi_set_value(gw, name, src) bind(C, name="opsplit_gw_bmi_set_value") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: gw
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: src
      integer(c_int) :: status
    end function opsplit_gw_bmi_set_value

    ! indices: 0-based flat indices (integer(c_int)).
    function opsplit_gw_bmi_get_value_at_indices(gw, name, dest, indices, count) &
        bind(C, name="opsplit_gw_bmi_get_value_at_indices") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: gw
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: dest, indices
      integer(c_int), value :: count
      integer(c_int) :: status
    end function opsplit_gw_bmi_get_value_at_indices

    function opsplit_gw_bmi_set_value_at_indices(gw, name, indices, count, src) &
        bind(C, name="opsplit_gw_bmi_set_value_at_indices") result(status)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: gw
      character(kind=c_char), intent(in) :: name(*)
      type(c_ptr), value :: indices
      integer(c_int), value :: count
      type(c_ptr), value :: src
      integer(c_int) :: status
    end function opsplit_gw_bmi_set_value_at_indices

    function opsplit_gw_bmi_get_grid_info(gw, grid, rank, size, type) bind(C, name="opsplit_gw_bmi_get_grid_info") &
        result(status)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: gw
      integer(c_int), value :: grid
      integer(c_int), intent(out) :: rank
      integer(c_int64_t), intent(out) :: size
      type(c_ptr), intent(out) :: type
      integer(c_int) :: status
    end function opsplit_gw_bmi_get_grid_info

  end interface

  !> The groundwater reaction module (groundwater.h).
  type, public :: opsplit_gw_t
    private
    type(c_ptr) :: handle = c_null_ptr
  contains
    procedure :: create => gw_create
    procedure :: destroy => gw_destroy
    procedure :: counts => gw_counts
    procedure :: set_mobile => gw_set_mobile
    procedure :: set_mapping => gw_set_mapping
    procedure :: set_units => gw_set_units
    procedure :: set_molar_masses => gw_set_molar_masses
    procedure :: set_property => gw_set_property
    procedure :: get_property => gw_get_property
    procedure :: set_parameter => gw_set_parameter
    procedure :: set_concentrations => gw_set_concentrations
    procedure :: get_concentrations => gw_get_concentrations
    procedure :: set_immobile => gw_set_immobile
    procedure :: get_immobile => gw_get_immobile
    procedure :: set_method => gw_set_method
    procedure :: set_tolerances => gw_set_tolerances
    procedure :: run => gw_run
    procedure :: status => gw_status
    procedure :: moles => gw_moles
    procedure :: set_isotherm => gw_set_isotherm
    procedure :: get_retardation => gw_get_retardation
    procedure :: species_name => gw_species_name
    procedure :: load_yaml => gw_load_yaml
    procedure :: update => gw_update
    procedure :: update_until => gw_update_until
    procedure :: times => gw_times
    procedure :: var_name => gw_var_name
    procedure :: var_count => gw_var_count
    procedure, private :: gw_get_value_double, gw_get_value_int
    generic :: get_value => gw_get_value_double, gw_get_value_int
    procedure :: set_value => gw_set_value
    procedure :: created => gw_created
    procedure :: c_handle => gw_c_handle
  end type opsplit_gw_t

  private :: gw_create, gw_destroy, gw_counts, gw_set_mobile, gw_set_mapping, gw_set_units, gw_set_molar_masses, &
             gw_set_property, gw_get_property, gw_set_parameter, gw_set_concentrations, gw_get_concentrations, &
             gw_set_immobile, gw_get_immobile, gw_set_method, gw_set_tolerances, gw_run, gw_status, gw_moles, &
             gw_set_isotherm, gw_get_retardation, gw_created, gw_c_handle, gw_bad_shape, gw_bad_species, &
             gw_species_name, gw_load_yaml, gw_update, gw_update_until, gw_times, gw_var_name, gw_var_count, &
             gw_set_value, gw_bad_value_size

contains

  !> A module of nxyz grid cells over a copy of mech (a BUILT mechanism).
  subroutine gw_create(this, ctx, mech, nxyz, stat)
    class(opsplit_gw_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    type(c_ptr), intent(in) :: mech  ! the mechanism's C handle: opsplit_mechanism_t%c_handle()
    integer(c_int64_t), intent(in) :: nxyz
    integer, intent(out), optional :: stat
    if (already_created(this%handle, 'opsplit_gw_t%create', stat)) return
    call finish(opsplit_gw_create(ctx%c_handle(), mech, nxyz, this%handle), stat)
  end subroutine gw_create

  subroutine gw_destroy(this, stat)
    class(opsplit_gw_t), intent(inout) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_destroy(this%handle), stat)
  end subroutine gw_destroy

  !> nxyz, the chemistry cells, the components (mobile species) and the immobile species.
  subroutine gw_counts(this, nxyz, nchem, ncomponents, nimmobile, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int64_t), intent(out) :: nxyz, nchem
    integer(c_int), intent(out) :: ncomponents, nimmobile
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_get_counts(this%handle, nxyz, nchem, ncomponents, nimmobile), stat)
  end subroutine gw_counts

  !> species: 1-based, the mechanism's order. Its amount becomes 0 everywhere.
  subroutine gw_set_mobile(this, species, mobile, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer, intent(in) :: species
    logical, intent(in) :: mobile
    integer, intent(out), optional :: stat
    if (gw_bad_species(this, species, 'set_mobile', stat)) return
    call finish(opsplit_gw_set_mobile(this%handle, int(species - 1, c_int), int_flag(mobile)), stat)
  end subroutine gw_set_mobile

  !> grid2chem(nxyz): PhreeqcRM's values (0-based chemistry cells, -1: left out).
  subroutine gw_set_mapping(this, grid2chem, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(in), contiguous, target :: grid2chem(:)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'set_mapping', [size(grid2chem, kind=c_int64_t)], 0, stat)) return
    call finish(opsplit_gw_set_mapping(this%handle, c_loc(grid2chem)), stat)
  end subroutine gw_set_mapping

  subroutine gw_set_units(this, solution, solid, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(in) :: solution, solid
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_set_units(this%handle, solution, solid), stat)
  end subroutine gw_set_units

  !> grams_per_mole(nspecies), every species of the mechanism.
  subroutine gw_set_molar_masses(this, grams_per_mole, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: grams_per_mole(:)
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_set_molar_masses(this%handle, values_at(grams_per_mole)), stat)
  end subroutine gw_set_molar_masses

  !> values(nxyz) of OPSPLIT_GW_POROSITY, _SATURATION, _VOLUME, _DENSITY, _TEMPERATURE, _PRESSURE.
  subroutine gw_set_property(this, property, values, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(in) :: property
    real(c_double), intent(in), contiguous, target :: values(:)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'set_property', [size(values, kind=c_int64_t)], 0, stat)) return
    call finish(opsplit_gw_set_property(this%handle, property, values_at(values)), stat)
  end subroutine gw_set_property

  subroutine gw_get_property(this, property, values, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(in) :: property
    real(c_double), intent(inout), contiguous, target :: values(:)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'get_property', [size(values, kind=c_int64_t)], 0, stat)) return
    call finish(opsplit_gw_get_property(this%handle, property, values_at(values)), stat)
  end subroutine gw_get_property

  !> values(nxyz) of the mechanism's parameter `param` (1-based).
  subroutine gw_set_parameter(this, param, values, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer, intent(in) :: param
    real(c_double), intent(in), contiguous, target :: values(:)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'set_parameter', [size(values, kind=c_int64_t)], 0, stat)) return
    call finish(opsplit_gw_set_parameter(this%handle, int(param - 1, c_int), values_at(values)), stat)
  end subroutine gw_set_parameter

  !> c(nxyz, ncomponents) in the solution units.
  subroutine gw_set_concentrations(this, c, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: c(:, :)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'set_concentrations', shape(c, kind=c_int64_t), 1, stat)) return
    call finish(opsplit_gw_set_concentrations(this%handle, values_at(c)), stat)
  end subroutine gw_set_concentrations

  subroutine gw_get_concentrations(this, c, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: c(:, :)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'get_concentrations', shape(c, kind=c_int64_t), 1, stat)) return
    call finish(opsplit_gw_get_concentrations(this%handle, values_at(c)), stat)
  end subroutine gw_get_concentrations

  !> The isotherm of species `species` (1-based, mobile): kind OPSPLIT_GW_ISOTHERM_*, k, b.
  subroutine gw_set_isotherm(this, species, kind, k, b, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer, intent(in) :: species
    integer(c_int), intent(in) :: kind
    real(c_double), intent(in) :: k, b
    integer, intent(out), optional :: stat
    if (gw_bad_species(this, species, 'set_isotherm', stat)) return
    call finish(opsplit_gw_set_isotherm(this%handle, int(species - 1, c_int), kind, k, b), stat)
  end subroutine gw_set_isotherm

  !> retardation(nxyz, ncomponents): 1 + (bulk density / theta) dS/dC of the current c.
  subroutine gw_get_retardation(this, retardation, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: retardation(:, :)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'get_retardation', shape(retardation, kind=c_int64_t), 1, stat)) return
    call finish(opsplit_gw_get_retardation(this%handle, values_at(retardation)), stat)
  end subroutine gw_get_retardation

  !> amounts(nxyz, nimmobile) in the solid units.
  subroutine gw_set_immobile(this, amounts, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(in), contiguous, target :: amounts(:, :)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'set_immobile', shape(amounts, kind=c_int64_t), 2, stat)) return
    call finish(opsplit_gw_set_immobile(this%handle, values_at(amounts)), stat)
  end subroutine gw_set_immobile

  subroutine gw_get_immobile(this, amounts, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: amounts(:, :)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'get_immobile', shape(amounts, kind=c_int64_t), 2, stat)) return
    call finish(opsplit_gw_get_immobile(this%handle, values_at(amounts)), stat)
  end subroutine gw_get_immobile

  subroutine gw_set_method(this, method, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(in) :: method
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_set_method(this%handle, method), stat)
  end subroutine gw_set_method

  subroutine gw_set_tolerances(this, rtol, atol, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(in) :: rtol, atol
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_set_tolerances(this%handle, rtol, atol), stat)
  end subroutine gw_set_tolerances

  !> Runs every chemistry cell with water for dt seconds.
  subroutine gw_run(this, dt, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(in) :: dt
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_run(this%handle, dt), stat)
  end subroutine gw_run

  !> status(nxyz): OPSPLIT_ODE_OK, ..., or OPSPLIT_GW_CELL_NOT_RUN.
  subroutine gw_status(this, cell_status, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(inout), contiguous, target :: cell_status(:)
    integer, intent(out), optional :: stat
    if (gw_bad_shape(this, 'status', [size(cell_status, kind=c_int64_t)], 0, stat)) return
    call finish(opsplit_gw_get_status(this%handle, c_loc(cell_status)), stat)
  end subroutine gw_status

  !> moles(nspecies) of every species over the chemistry cells.
  subroutine gw_moles(this, moles, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(inout), contiguous, target :: moles(:)
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_get_moles(this%handle, values_at(moles)), stat)
  end subroutine gw_moles

  !> The name of species `species` (1-based).
  function gw_species_name(this, species, stat) result(name)
    class(opsplit_gw_t), intent(in) :: this
    integer, intent(in) :: species
    integer, intent(out), optional :: stat
    character(len=:), allocatable :: name
    type(c_ptr) :: text
    name = ''
    if (gw_bad_species(this, species, 'species_name', stat)) return
    text = c_null_ptr
    call finish(opsplit_gw_get_species_name(this%handle, int(species - 1, c_int), text), stat)
    name = opsplit_c_string(text)
  end function gw_species_name

  ! ---- the setup file and BMI (groundwater.h) ----

  !> A module from a setup file (BMI's initialize); refused on an object that holds one.
  !> Trailing blanks of the path are not part of it.
  subroutine gw_load_yaml(this, ctx, path, stat)
    class(opsplit_gw_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    character(len=*), intent(in) :: path
    integer, intent(out), optional :: stat
    if (already_created(this%handle, 'opsplit_gw_t%load_yaml', stat)) return
    call finish(opsplit_gw_load_yaml(ctx%c_handle(), trim(path) // c_null_char, this%handle), stat)
  end subroutine gw_load_yaml

  !> Runs TimeStep and advances Time by it.
  subroutine gw_update(this, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_bmi_update(this%handle), stat)
  end subroutine gw_update

  !> Runs from Time to time (s).
  subroutine gw_update_until(this, time, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(in) :: time
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_bmi_update_until(this%handle, time), stat)
  end subroutine gw_update_until

  !> The clock (s): start, current and end time, and the step.
  subroutine gw_times(this, start, current, end, step, stat)
    class(opsplit_gw_t), intent(in) :: this
    real(c_double), intent(out) :: start, current, end, step
    integer, intent(out), optional :: stat
    call finish(opsplit_gw_bmi_get_times(this%handle, start, current, end, step), stat)
  end subroutine gw_times

  !> The number of OPSPLIT_GW_BMI_INPUT or _OUTPUT variables.
  integer function gw_var_count(this, role, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(in) :: role
    integer, intent(out), optional :: stat
    integer(c_int) :: count
    count = 0
    call finish(opsplit_gw_bmi_get_var_count(this%handle, role, count), stat)
    gw_var_count = count
  end function gw_var_count

  !> The index-th (1-based) variable's name of a role.
  function gw_var_name(this, role, index, stat) result(name)
    class(opsplit_gw_t), intent(in) :: this
    integer(c_int), intent(in) :: role
    integer, intent(in) :: index
    integer, intent(out), optional :: stat
    character(len=:), allocatable :: name
    type(c_ptr) :: text
    text = c_null_ptr
    call finish(opsplit_gw_bmi_get_var_name(this%handle, role, int(index - 1, c_int), text), stat)
    name = opsplit_c_string(text)
  end function gw_var_name

  !> A variable's values into values(1:nbytes / itemsize) (values may be longer):
  !> Concentrations in groundwater.h's layout, which is Fortran's c(nxyz, ncomponents)
  !> flattened.
  subroutine gw_get_value_double(this, name, values, stat)
    class(opsplit_gw_t), intent(in) :: this
    character(len=*), intent(in) :: name
    real(c_double), intent(inout), contiguous, target :: values(:)
    integer, intent(out), optional :: stat
    if (gw_bad_value_size(this, name, 'get_value', size(values, kind=c_int64_t), 8, stat)) return
    call finish(opsplit_gw_bmi_get_value(this%handle, trim(name) // c_null_char, c_loc(values)), stat)
  end subroutine gw_get_value_double

  subroutine gw_get_value_int(this, name, values, stat)
    class(opsplit_gw_t), intent(in) :: this
    character(len=*), intent(in) :: name
    integer(c_int), intent(inout), contiguous, target :: values(:)
    integer, intent(out), optional :: stat
    if (gw_bad_value_size(this, name, 'get_value', size(values, kind=c_int64_t), 4, stat)) return
    call finish(opsplit_gw_bmi_get_value(this%handle, trim(name) // c_null_char, c_loc(values)), stat)
  end subroutine gw_get_value_int

  !> Sets an input variable (all are real(c_double)).
  subroutine gw_set_value(this, name, values, stat)
    class(opsplit_gw_t), intent(in) :: this
    character(len=*), intent(in) :: name
    real(c_double), intent(in), contiguous, target :: values(:)
    integer, intent(out), optional :: stat
    if (gw_bad_value_size(this, name, 'set_value', size(values, kind=c_int64_t), 8, stat)) return
    call finish(opsplit_gw_bmi_set_value(this%handle, trim(name) // c_null_char, c_loc(values)), stat)
  end subroutine gw_set_value

  ! Whether an array is not the variable's: another number of values or another type
  ! (item size); then the failure is reported. An unknown name or handle is left to C,
  ! which names it.
  logical function gw_bad_value_size(this, name, verb, count, item, stat)
    class(opsplit_gw_t), intent(in) :: this
    character(len=*), intent(in) :: name, verb
    integer(c_int64_t), intent(in) :: count
    integer, intent(in) :: item
    integer, intent(out), optional :: stat
    type(c_ptr) :: type, units, location
    integer(c_int) :: grid, itemsize
    integer(c_int64_t) :: nbytes
    gw_bad_value_size = .false.
    if (opsplit_gw_bmi_get_var_info(this%handle, trim(name) // c_null_char, type, units, grid, itemsize, nbytes, &
                                    location) /= OPSPLIT_SUCCESS) return
    ! get_value writes the variable's values into the array's first elements: it may be
    ! longer, as C's dest may; set_value reads the whole array: it must be the variable's.
    gw_bad_value_size = itemsize /= item .or. count * itemsize < nbytes .or. &
                        (verb == 'set_value' .and. count * itemsize /= nbytes)
    if (gw_bad_value_size) call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_gw_t%' // verb // ': ' // &
                                       trim(name) // ' has ' // itoa(nbytes / itemsize) // ' values of ' // &
                                       opsplit_c_string(type) // '; the array has ' // itoa(count) // ' of ' // &
                                       trim(merge('double', 'int   ', item == 8)))
  end function gw_bad_value_size

  logical function gw_created(this)
    class(opsplit_gw_t), intent(in) :: this
    gw_created = c_associated(this%handle)
  end function gw_created

  type(c_ptr) function gw_c_handle(this)
    class(opsplit_gw_t), intent(in) :: this
    gw_c_handle = this%handle
  end function gw_c_handle

  ! Whether an array's shape is wrong (then the failure is reported): (nxyz) for rows 0,
  ! (nxyz, ncomponents) for 1, (nxyz, nimmobile) for 2. A module that does not answer
  ! leaves the check to C, which names the bad handle.
  logical function gw_bad_shape(this, verb, array_shape, rows, stat)
    class(opsplit_gw_t), intent(in) :: this
    character(len=*), intent(in) :: verb
    integer(c_int64_t), intent(in) :: array_shape(:)
    integer, intent(in) :: rows
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: nxyz, nchem, expected(2)
    integer(c_int) :: ncomponents, nimmobile
    character(len=:), allocatable :: got, wanted
    gw_bad_shape = .false.
    if (opsplit_gw_get_counts(this%handle, nxyz, nchem, ncomponents, nimmobile) /= OPSPLIT_SUCCESS) return
    expected = [nxyz, 0_c_int64_t]
    if (rows == 1) expected(2) = ncomponents
    if (rows == 2) expected(2) = nimmobile
    if (rows == 0) then
      gw_bad_shape = array_shape(1) /= nxyz
    else
      gw_bad_shape = any(array_shape /= expected)
    end if
    if (.not. gw_bad_shape) return
    got = itoa(array_shape(1))
    if (size(array_shape) > 1) got = got // ', ' // itoa(array_shape(2))
    wanted = itoa(expected(1))
    if (rows > 0) wanted = wanted // ', ' // itoa(expected(2))
    call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_gw_t%' // verb // ': the array has shape (' // got // &
                ') but needs (' // wanted // ')')
  end function gw_bad_shape

  ! A species number outside 1..nspecies, reported 1-based (the C library's message would
  ! name the 0-based value).
  logical function gw_bad_species(this, species, verb, stat)
    class(opsplit_gw_t), intent(in) :: this
    integer, intent(in) :: species
    character(len=*), intent(in) :: verb
    integer, intent(out), optional :: stat
    integer(c_int64_t) :: nxyz, nchem
    integer(c_int) :: ncomponents, nimmobile
    gw_bad_species = .false.
    if (opsplit_gw_get_counts(this%handle, nxyz, nchem, ncomponents, nimmobile) /= OPSPLIT_SUCCESS) return
    gw_bad_species = species < 1 .or. species > ncomponents + nimmobile
    if (gw_bad_species) call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_gw_t%' // verb // ': species ' // &
                                    itoa(int(species, c_int64_t)) // ' is not in 1..' // &
                                    itoa(int(ncomponents + nimmobile, c_int64_t)) // ' (1-based)')
  end function gw_bad_species

end module opsplit_groundwater
