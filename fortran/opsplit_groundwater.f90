! opsplit_groundwater: groundwater.h in Fortran (the groundwater reaction module). Part
! of the module opsplit. The C functions under their own names (handles type(c_ptr),
! arrays c_loc of contiguous arrays in PhreeqcRM's Fortran layout c(nxyz, n)); the
! derived type with array-taking procedures is not written yet (issue 42).
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
  ! opsplit_gw_cell
  integer(c_int), parameter :: OPSPLIT_GW_CELL_NOT_RUN = -1


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

  end interface
end module opsplit_groundwater
