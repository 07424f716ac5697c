! opsplit_chemistry: mechanism.h and ode.h in Fortran (mechanisms, ODE batches). Part
! of the module opsplit.
module opsplit_chemistry
  use, intrinsic :: iso_c_binding
  use opsplit_core
  implicit none

  ! opsplit_core's helpers for the wrappers: not re-exported.
  private :: finish, already_created, itoa, quiet_nan, values_at, int_flag, no_values

  ! ---- enums of mechanism.h ------------------------------------------------
  ! opsplit_rate_kind (T = p(param) in kelvin, R = 8.31446261815324 J/(mol K))
  integer(c_int), parameter :: OPSPLIT_RATE_CONSTANT = 0   ! k = A
  integer(c_int), parameter :: OPSPLIT_RATE_ARRHENIUS = 1  ! k = A * T**b * exp(-Ea / (R T))
  integer(c_int), parameter :: OPSPLIT_RATE_PARAMETER = 2  ! k = A * p(param)
  ! opsplit_rate_factor (c: the species' concentration; K and second as opsplit_mechanism_add_rate_factor)
  integer(c_int), parameter :: OPSPLIT_FACTOR_MONOD = 0       ! (c - c_th) / (K + c - c_th), 0 at or below c_th
  integer(c_int), parameter :: OPSPLIT_FACTOR_INHIBITION = 1  ! K / (K + c)
  integer(c_int), parameter :: OPSPLIT_FACTOR_THRESHOLD = 2   ! 1/2 + atan((c - K) f) / pi
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


  ! ---- the C functions ----------------------------------------------------
  interface
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

    function opsplit_mechanism_add_rate_factor(mech, reaction, kind, species, k, second) &
        bind(C, name="opsplit_mechanism_add_rate_factor") result(status)
      import :: c_int, c_ptr, c_double
      type(c_ptr), value :: mech
      integer(c_int), value :: reaction, kind, species
      real(c_double), value :: k, second
      integer(c_int) :: status
    end function opsplit_mechanism_add_rate_factor

    function opsplit_mechanism_clear_rate_factors(mech, reaction) &
        bind(C, name="opsplit_mechanism_clear_rate_factors") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: mech
      integer(c_int), value :: reaction
      integer(c_int) :: status
    end function opsplit_mechanism_clear_rate_factors

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

    function opsplit_ode_set_state_device(ode, y, layout) bind(C, name="opsplit_ode_set_state_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: y
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_set_state_device

    function opsplit_ode_get_state_device(ode, y, layout) bind(C, name="opsplit_ode_get_state_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: y
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_get_state_device

    function opsplit_ode_set_parameters_device(ode, params, layout) bind(C, name="opsplit_ode_set_parameters_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: params
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_set_parameters_device

    function opsplit_ode_get_parameters_device(ode, params, layout) bind(C, name="opsplit_ode_get_parameters_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: params
      integer(c_int), value :: layout
      integer(c_int) :: status
    end function opsplit_ode_get_parameters_device

    function opsplit_ode_wrap_state_device(ode, y) bind(C, name="opsplit_ode_wrap_state_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: y
      integer(c_int) :: status
    end function opsplit_ode_wrap_state_device

    function opsplit_ode_wrap_parameters_device(ode, params) bind(C, name="opsplit_ode_wrap_parameters_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: params
      integer(c_int) :: status
    end function opsplit_ode_wrap_parameters_device

    function opsplit_ode_get_results_device(ode, result, accepted, rejected, rhs_evaluations, jacobian_evaluations) &
        bind(C, name="opsplit_ode_get_results_device") result(status)
      import :: c_int, c_ptr
      type(c_ptr), value :: ode
      type(c_ptr), value :: result, accepted, rejected, rhs_evaluations, jacobian_evaluations
      integer(c_int) :: status
    end function opsplit_ode_get_results_device

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
    procedure :: add_rate_factor => mechanism_add_rate_factor
    procedure :: clear_rate_factors => mechanism_clear_rate_factors
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
    procedure :: set_state_device => ode_set_state_device
    procedure :: get_state_device => ode_get_state_device
    procedure :: set_parameters_device => ode_set_parameters_device
    procedure :: get_parameters_device => ode_get_parameters_device
    procedure :: wrap_state_device => ode_wrap_state_device
    procedure :: wrap_parameters_device => ode_wrap_parameters_device
    procedure :: results_device => ode_results_device
    procedure :: created => ode_created
    procedure :: c_handle => ode_c_handle
  end type opsplit_ode_t

  ! The implementations are reached through the types only.
  private :: mechanism_create, mechanism_destroy, mechanism_add_species, mechanism_find_species, &
             mechanism_species_name, mechanism_add_reaction, mechanism_set_rate, mechanism_counts, &
             mechanism_name_parameter, mechanism_set_rate_expression, mechanism_find_parameter, mechanism_load_kpp, &
             mechanism_set_rate_species_sum, mechanism_load_micm, mechanism_parameter_name, &
             mechanism_add_rate_factor, mechanism_clear_rate_factors, &
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
             ode_get_parameters, ode_transfer, ode_integrate, ode_results, ode_bad_size, ode_created, ode_c_handle, &
             ode_set_state_device, ode_get_state_device, ode_set_parameters_device, ode_get_parameters_device, &
             ode_wrap_state_device, ode_wrap_parameters_device, ode_results_device

contains

  ! ---- opsplit_mechanism_t ---------------------------------------------------

  !> An empty mechanism (species and reactions are added one by one).
  subroutine mechanism_create(this, ctx, stat)
    class(opsplit_mechanism_t), intent(inout) :: this
    class(opsplit_context_t), intent(in) :: ctx
    integer, intent(out), optional :: stat
    if (already_created(this%handle, 'opsplit_mechanism_t%create', stat)) return
    call finish(opsplit_mechanism_create(ctx%c_handle(), this%handle), stat)
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

  !> Multiplies reaction's rate (1-based) by a saturation factor of species (1-based):
  !> kind OPSPLIT_FACTOR_MONOD, _INHIBITION or _THRESHOLD, its constant K and its second
  !> constant (Monod's threshold concentration, the switch's steepness; 0 for inhibition).
  subroutine mechanism_add_rate_factor(this, reaction, kind, species, k, second, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: reaction, kind, species
    real(c_double), intent(in) :: k, second
    integer, intent(out), optional :: stat
    if (reaction < 1) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%add_rate_factor: reaction=' // &
                  itoa(int(reaction, c_int64_t)) // ' is not >= 1 (reactions are 1-based in Fortran)')
      return
    end if
    call finish(opsplit_mechanism_add_rate_factor(this%handle, reaction - 1, kind, species - 1, k, second), stat)
  end subroutine mechanism_add_rate_factor

  !> Removes every saturation factor of reaction (1-based).
  subroutine mechanism_clear_rate_factors(this, reaction, stat)
    class(opsplit_mechanism_t), intent(in) :: this
    integer(c_int), intent(in) :: reaction
    integer, intent(out), optional :: stat
    if (reaction < 1) then
      call finish(OPSPLIT_ERROR_INVALID_ARGUMENT, stat, 'opsplit_mechanism_t%clear_rate_factors: reaction=' // &
                  itoa(int(reaction, c_int64_t)) // ' is not >= 1 (reactions are 1-based in Fortran)')
      return
    end if
    call finish(opsplit_mechanism_clear_rate_factors(this%handle, reaction - 1), stat)
  end subroutine mechanism_clear_rate_factors

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
      status = opsplit_mechanism_load_yaml(ctx%c_handle(), trim(path) // c_null_char, trim(phase) // c_null_char, loaded)
    else
      status = opsplit_mechanism_load_yaml(ctx%c_handle(), trim(path) // c_null_char, c_null_char, loaded)
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
      status = opsplit_mechanism_load_chemkin(ctx%c_handle(), trim(mech_path) // c_null_char, &
                                              trim(thermo_path) // c_null_char, loaded)
    else
      status = opsplit_mechanism_load_chemkin(ctx%c_handle(), trim(mech_path) // c_null_char, c_null_char, loaded)
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
    status = opsplit_mechanism_load_kpp(ctx%c_handle(), trim(path) // c_null_char, loaded)
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
    status = opsplit_mechanism_load_micm(ctx%c_handle(), trim(path) // c_null_char, loaded)
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
    status = opsplit_ode_create(ctx%c_handle(), neq, nsys, np, this%handle)
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
    if (.not. c_associated(mech%c_handle())) then
      call finish(OPSPLIT_ERROR_INVALID_HANDLE, stat, 'opsplit_ode_t%set_mechanism: mech was not created')
      return
    end if
    call finish(opsplit_ode_set_mechanism(this%handle, mech%c_handle()), stat)
  end subroutine ode_set_mechanism

  !> The right-hand side of a gas reactor (kind: OPSPLIT_REACTOR_*) of a loaded mechanism,
  !> copied: neq must be the reactor's equations, nparam at least its parameters.
  subroutine ode_set_reactor(this, mech, kind, stat)
    class(opsplit_ode_t), intent(in) :: this
    class(opsplit_mechanism_t), intent(in) :: mech
    integer(c_int), intent(in) :: kind
    integer, intent(out), optional :: stat
    if (.not. c_associated(mech%c_handle())) then
      call finish(OPSPLIT_ERROR_INVALID_HANDLE, stat, 'opsplit_ode_t%set_reactor: mech was not created')
      return
    end if
    call finish(opsplit_ode_set_reactor(this%handle, mech%c_handle(), kind), stat)
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

  !> Hosts on the GPU (docs/API.md): the state and parameters from and to the host's
  !> device memory, given as its address (OpenACC: host_data use_device + c_loc; CUDA
  !> Fortran: c_devloc). layout is required: OPSPLIT_ODE_SOA is Fortran's y(nsys, neq).
  subroutine ode_set_state_device(this, y, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_ptr), intent(in) :: y
    integer(c_int), intent(in) :: layout
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_state_device(this%handle, y, layout), stat)
  end subroutine ode_set_state_device

  subroutine ode_get_state_device(this, y, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_ptr), intent(in) :: y
    integer(c_int), intent(in) :: layout
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_get_state_device(this%handle, y, layout), stat)
  end subroutine ode_get_state_device

  subroutine ode_set_parameters_device(this, params, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_ptr), intent(in) :: params
    integer(c_int), intent(in) :: layout
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_set_parameters_device(this%handle, params, layout), stat)
  end subroutine ode_set_parameters_device

  subroutine ode_get_parameters_device(this, params, layout, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_ptr), intent(in) :: params
    integer(c_int), intent(in) :: layout
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_get_parameters_device(this%handle, params, layout), stat)
  end subroutine ode_get_parameters_device

  !> The batch works in the host's device array y(nsys, neq) itself; c_null_ptr goes
  !> back to storage of the batch's own (opsplit_ode_wrap_state_device).
  subroutine ode_wrap_state_device(this, y, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_ptr), intent(in) :: y
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_wrap_state_device(this%handle, y), stat)
  end subroutine ode_wrap_state_device

  subroutine ode_wrap_parameters_device(this, params, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_ptr), intent(in) :: params
    integer, intent(out), optional :: stat
    call finish(opsplit_ode_wrap_parameters_device(this%handle, params), stat)
  end subroutine ode_wrap_parameters_device

  !> results() into device arrays of nsys values (c_int for result, c_int64_t for the counts).
  subroutine ode_results_device(this, result, accepted, rejected, rhs, jacobian, stat)
    class(opsplit_ode_t), intent(in) :: this
    type(c_ptr), intent(in), optional :: result, accepted, rejected, rhs, jacobian
    integer, intent(out), optional :: stat
    type(c_ptr) :: at(5)
    at = c_null_ptr
    if (present(result)) at(1) = result
    if (present(accepted)) at(2) = accepted
    if (present(rejected)) at(3) = rejected
    if (present(rhs)) at(4) = rhs
    if (present(jacobian)) at(5) = jacobian
    call finish(opsplit_ode_get_results_device(this%handle, at(1), at(2), at(3), at(4), at(5)), stat)
  end subroutine ode_results_device

  logical function ode_created(this)
    class(opsplit_ode_t), intent(in) :: this
    ode_created = c_associated(this%handle)
  end function ode_created

  !> The C handle, for the bind(C) interfaces (the object still owns it).
  type(c_ptr) function ode_c_handle(this)
    class(opsplit_ode_t), intent(in) :: this
    ode_c_handle = this%handle
  end function ode_c_handle

end module opsplit_chemistry
