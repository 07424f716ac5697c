! Fortran tests of ODE batches and mechanisms through opsplit_ode_t and
! opsplit_mechanism_t: A -> B with a per-system rate k has the exact solution
! y_A = exp(-k t), y_A + y_B = 1, whether the right-hand side is a bind(C) callback (with
! or without its Jacobian) or a mechanism with a PARAMETER rate; the wrappers' layouts,
! 1-based indices and size checks, and failures through stat. Host callbacks need the
! CPU backend, so the program asks for it.

module test_ode_support
  use opsplit
  implicit none
  private
  public :: call_record, decay, decay_jacobian

  ! What the callbacks saw, reached through their `user` pointer: systems evaluated.
  type :: call_record
    integer(c_int64_t) :: rhs_systems = 0
    integer(c_int64_t) :: jacobian_systems = 0
  end type call_record

contains

  ! A -> B at rate k = params(:, 1): ydot_A = -k y_A, ydot_B = k y_A. A negative k is a
  ! fatal failure (return -1); t must be finite, or the step is retried (return 1).
  integer(c_int) function decay(n, t, y, ydot, params, user) bind(C)
    integer(c_int64_t), value :: n
    real(c_double), intent(in) :: t(n), y(n, 2)
    real(c_double), intent(out) :: ydot(n, 2)
    real(c_double), intent(in) :: params(n, 1)
    type(c_ptr), value :: user
    type(call_record), pointer :: record
    ydot(:, 1) = -params(:, 1) * y(:, 1)
    ydot(:, 2) = params(:, 1) * y(:, 1)
    if (c_associated(user)) then
      call c_f_pointer(user, record)
      record%rhs_systems = record%rhs_systems + n
    end if
    decay = 0
    if (any(abs(t) > huge(t))) decay = 1
    if (any(params(:, 1) < 0.0_c_double)) decay = -1
  end function decay

  ! Its Jacobian: jacobian(s, i, j) = d ydot_i / d y_j of system s.
  integer(c_int) function decay_jacobian(n, t, y, jacobian, params, user) bind(C)
    integer(c_int64_t), value :: n
    real(c_double), intent(in) :: t(n), y(n, 2)
    real(c_double), intent(out) :: jacobian(n, 2, 2)
    real(c_double), intent(in) :: params(n, 1)
    type(c_ptr), value :: user
    type(call_record), pointer :: record
    jacobian(:, 1, 1) = -params(:, 1)
    jacobian(:, 2, 1) = params(:, 1)
    jacobian(:, :, 2) = 0.0_c_double
    if (c_associated(user)) then
      call c_f_pointer(user, record)
      record%jacobian_systems = record%jacobian_systems + n
    end if
    decay_jacobian = 0
    if (any(abs(t) > huge(t)) .or. any(abs(y) > huge(y))) decay_jacobian = 1
  end function decay_jacobian

end module test_ode_support

program test_ode
  use opsplit
  use test_ode_support
  use test_checks
  implicit none

  integer, parameter :: nsys = 5
  real(c_double), parameter :: t_end = 2.0_c_double
  real(c_double), parameter :: rates(nsys) = [0.1_c_double, 0.5_c_double, 1.0_c_double, 2.0_c_double, 4.0_c_double]
  type(opsplit_context_t) :: ctx

  call ctx%create(OPSPLIT_BACKEND_CPU)
  call callback_batch(OPSPLIT_ODE_ROSENBROCK, 'ROSENBROCK')
  call callback_batch(OPSPLIT_ODE_ROS3, 'ROS3')
  call callback_batch(OPSPLIT_ODE_RKCK45, 'RKCK45')
  call callback_with_jacobian()
  call failures_per_system()
  call mechanism_batch()
  call errors_through_stat()
  call ctx%destroy()

  call report_checks()

contains

  ! y(neq, nsys) starting at A = 1, B = 0.
  function initial_state() result(y)
    real(c_double) :: y(2, nsys)
    y(1, :) = 1.0_c_double
    y(2, :) = 0.0_c_double
  end function initial_state

  ! The analytic checks on y(2, nsys) at t_end, and every system's result.
  subroutine check_decayed(ode, y, what)
    type(opsplit_ode_t), intent(in) :: ode
    real(c_double), intent(in) :: y(2, nsys)
    character(len=*), intent(in) :: what
    integer(c_int) :: result(nsys)
    integer(c_int64_t) :: accepted(nsys)
    real(c_double) :: exact(nsys)
    exact = exp(-rates * t_end)
    call check(all(abs(y(1, :) - exact) <= 1e-6_c_double * exact), what // ': y_A = exp(-k t) within 1e-6')
    call check(all(abs(y(1, :) + y(2, :) - 1.0_c_double) <= 1e-10_c_double), what // ': y_A + y_B = 1')
    result = -1
    accepted = -1
    call ode%results(result, accepted)
    call check(all(result == OPSPLIT_ODE_OK), what // ': every system OK')
    call check(all(accepted > 0), what // ': every system took steps')
  end subroutine check_decayed

  ! A callback without a Jacobian, AOS state and parameters in, both layouts out.
  subroutine callback_batch(method, name)
    integer(c_int), intent(in) :: method
    character(len=*), intent(in) :: name
    type(opsplit_ode_t) :: ode
    real(c_double) :: y(2, nsys), ys(nsys, 2), p(1, nsys), ps(nsys, 1)
    integer(c_int64_t) :: rejected(nsys), rhs(nsys), jacobian(nsys)
    integer(c_int) :: neq, nparam
    integer :: n, status
    call ode%create(ctx, 2, nsys, 1)
    call ode%shape(neq, n, nparam)
    call check(neq == 2 .and. n == nsys .and. nparam == 1, name // ': shape (2, 5, 1)')
    call ode%set_rhs_callback(c_funloc(decay))
    call ode%set_method(method)
    call ode%set_tolerances(1e-8_c_double, 1e-12_c_double)
    y = initial_state()
    call ode%set_state(y)
    p(1, :) = rates
    call ode%set_parameters(p, OPSPLIT_ODE_AOS)
    ps = 0.0_c_double
    call ode%get_parameters(ps, OPSPLIT_ODE_SOA)
    call check(all(ps(:, 1) == rates), name // ': parameters back in SOA')
    call ode%integrate(0.0_c_double, t_end, stat=status)
    call check(status == OPSPLIT_SUCCESS, name // ': integrate succeeded')
    y = -1.0_c_double
    call ode%get_state(y, OPSPLIT_ODE_AOS)
    call check_decayed(ode, y, name)
    ys = -1.0_c_double
    call ode%get_state(ys, OPSPLIT_ODE_SOA)
    call check(all(ys == transpose(y)), name // ': the SOA state is the AOS one transposed')
    rejected = -1
    rhs = -1
    jacobian = -1
    call ode%results(rejected=rejected, rhs=rhs, jacobian=jacobian)
    call check(all(rejected >= 0) .and. all(rhs > 0), name // ': rejected and rhs counts')
    if (method == OPSPLIT_ODE_ROSENBROCK .or. method == OPSPLIT_ODE_ROS3) then
      call check(all(jacobian > 0), name // ': finite-difference Jacobians counted')
    else
      call check(all(jacobian == 0), name // ': an explicit method takes no Jacobian')
    end if
    ! An SOA state in: the systems start where the array says.
    ys(:, 1) = 0.5_c_double
    ys(:, 2) = 0.5_c_double
    call ode%set_state(ys, OPSPLIT_ODE_SOA)
    call ode%get_state(y)
    call check(all(y == 0.5_c_double), name // ': SOA state in, AOS out')
    call ode%destroy()
  end subroutine callback_batch

  ! A callback with its Jacobian and a user pointer, on one thread (the record's counts
  ! take no lock): every evaluation results() counts reached the callbacks. Then a
  ! second call that keeps the proposed step continues from t_end to 2 t_end.
  subroutine callback_with_jacobian()
    type(opsplit_ode_t) :: ode
    type(call_record), target :: record
    real(c_double) :: y(2, nsys), p(nsys, 1), exact(nsys)
    integer(c_int64_t) :: rhs(nsys), jacobian(nsys)
    call ctx%set_num_threads(1)
    call ode%create(ctx, 2_c_int, int(nsys, c_int64_t), 1_c_int)
    call ode%set_rhs_callback(c_funloc(decay), c_funloc(decay_jacobian), c_loc(record))
    call ode%set_method(OPSPLIT_ODE_ROSENBROCK)
    call ode%set_tolerances(1e-8_c_double, 1e-12_c_double)
    call ode%set_initial_step(1e-4_c_double)
    call ode%set_max_steps(100000_c_int64_t)
    y = initial_state()
    call ode%set_state(y)
    p(:, 1) = rates
    call ode%set_parameters(p, OPSPLIT_ODE_SOA)
    call ode%integrate(0.0_c_double, t_end)
    call ode%get_state(y)
    call check_decayed(ode, y, 'ROSENBROCK with a Jacobian')
    rhs = -1
    jacobian = -1
    call ode%results(rhs=rhs, jacobian=jacobian)
    call check(all(jacobian > 0) .and. record%jacobian_systems == sum(jacobian), &
               'every Jacobian evaluation reached the Jacobian callback')
    call check(record%rhs_systems == sum(rhs), 'every rhs evaluation reached the rhs callback')
    call ode%set_keep_step(.true.)
    call ode%set_clip_negative(.true.)
    call ode%integrate(t_end, 2 * t_end)
    call ode%get_state(y)
    ! exp(-16) = 1.1e-7: there atol = 1e-12 bounds the error, not rtol.
    exact = exp(-rates * 2 * t_end)
    call check(all(abs(y(1, :) - exact) <= 1e-6_c_double * exact + 1e-11_c_double), &
               'a second call continues to 2 t_end')
    call ode%destroy()
    call ctx%set_num_threads(0)
  end subroutine callback_with_jacobian

  ! A system whose callback fails fatally (k < 0) keeps its state at t0 with
  ! RHS_FAILED while the others reach t_end; two steps are too few for any system.
  subroutine failures_per_system()
    type(opsplit_ode_t) :: ode
    real(c_double) :: y(2, nsys), p(1, nsys), exact
    integer(c_int) :: result(nsys)
    integer :: status
    call ode%create(ctx, 2, nsys, 1)
    call ode%set_rhs_callback(c_funloc(decay))
    call ode%set_tolerances(1e-8_c_double, 1e-12_c_double)
    y = initial_state()
    call ode%set_state(y)
    p(1, :) = rates
    p(1, 3) = -1.0_c_double
    call ode%set_parameters(p)
    call ode%integrate(0.0_c_double, t_end, stat=status)
    call check(status == OPSPLIT_ERROR_NUMERICAL, 'a failed system fails the call with NUMERICAL')
    call check(index(opsplit_last_error(), 'RHS_FAILED') > 0, 'the message names RHS_FAILED: ' // opsplit_last_error())
    result = -1
    call ode%results(result)
    call check(result(3) == OPSPLIT_ODE_RHS_FAILED .and. count(result == OPSPLIT_ODE_OK) == nsys - 1, &
               'system 3 alone failed, with RHS_FAILED')
    call ode%get_state(y)
    call check(y(1, 3) == 1.0_c_double .and. y(2, 3) == 0.0_c_double, 'the failed system kept its state at t0')
    exact = exp(-rates(5) * t_end)
    call check(abs(y(1, 5) - exact) <= 1e-6_c_double * exact, 'the other systems reached t_end')
    p(1, 3) = rates(3)
    call ode%set_parameters(p)
    y = initial_state()
    call ode%set_state(y)
    call ode%set_max_steps(2)
    call ode%integrate(0.0_c_double, t_end, stat=status)
    call ode%results(result)
    call check(status == OPSPLIT_ERROR_NUMERICAL .and. all(result == OPSPLIT_ODE_TOO_MANY_STEPS), &
               'two steps are too few: TOO_MANY_STEPS')
    call ode%destroy()
  end subroutine failures_per_system

  ! The same reaction as a mechanism with a PARAMETER rate, k = 1 * p(1). The batch keeps
  ! a copy, so the mechanism may go before the integration. evaluate() on numbers whose
  ! products are exact in binary, for A -> B and for 2 A -> 3 B.
  subroutine mechanism_batch()
    type(opsplit_mechanism_t) :: mech, second
    type(opsplit_ode_t) :: ode
    real(c_double) :: y(2, nsys), p(nsys, 1), ydot(2), jac(2, 2)
    integer(c_int) :: a, b, r, nspecies, nreactions, nparams
    integer :: status
    call mech%create(ctx)
    call mech%add_species('A', a)
    call mech%add_species('B  ', b)
    call check(a == 1 .and. b == 2, 'species are numbered 1 and 2')
    call check(mech%find_species('B') == 2 .and. mech%species_name(1) == 'A' .and. mech%species_name(2) == 'B', &
               'find_species and species_name are 1-based')
    call mech%add_reaction([a], [b], index=r)
    call check(r == 1, 'the first reaction is number 1')
    call mech%set_rate(r, OPSPLIT_RATE_PARAMETER, 1.0_c_double, param=1)
    call mech%counts(nspecies, nreactions, nparams)
    call check(nspecies == 2 .and. nreactions == 1 .and. nparams == 1, 'counts (2, 1, 1)')
    jac = -1.0_c_double
    call mech%evaluate([0.75_c_double, 0.25_c_double], [2.5_c_double], ydot, jac)
    call check(ydot(1) == -1.875_c_double .and. ydot(2) == 1.875_c_double, 'evaluate: ydot = (-k y_A, k y_A)')
    call check(jac(1, 1) == -2.5_c_double .and. jac(2, 1) == 2.5_c_double .and. all(jac(:, 2) == 0.0_c_double), &
               'evaluate: jacobian(i, j) = d ydot_i / d y_j, d ydot_1 / d y_1 = -k')
    call mech%evaluate([1.0_c_double, 0.0_c_double], [4.0_c_double], ydot)
    call check(ydot(1) == -4.0_c_double .and. ydot(2) == 4.0_c_double, 'evaluate without a Jacobian')

    call second%create(ctx)
    call second%add_species('A')
    call second%add_species('B')
    call second%add_reaction([1], [2], [2], [3])
    call second%set_rate(1, OPSPLIT_RATE_CONSTANT, 3.0_c_double)
    call second%counts(nparams=nparams)
    call second%evaluate([0.5_c_double, 0.0_c_double], [real(c_double) ::], ydot, jac)
    call check(nparams == 0 .and. ydot(1) == -1.5_c_double .and. ydot(2) == 2.25_c_double, &
               '2 A -> 3 B: ydot = (-2 w, 3 w), w = k y_A**2')
    call check(jac(1, 1) == -6.0_c_double .and. jac(2, 1) == 9.0_c_double .and. all(jac(:, 2) == 0.0_c_double), &
               '2 A -> 3 B: the Jacobian')
    call second%destroy()

    ! Real yields: A -> 0.25 B (0.25 and its products exact in binary).
    call second%create(ctx)
    call second%add_species('A')
    call second%add_species('B')
    call second%add_reaction([1], [2], product_yields=[0.25_c_double])
    call second%set_rate(1, OPSPLIT_RATE_CONSTANT, 2.0_c_double)
    call second%evaluate([0.5_c_double, 0.0_c_double], [real(c_double) ::], ydot, jac)
    call check(ydot(1) == -1.0_c_double .and. ydot(2) == 0.25_c_double .and. jac(2, 1) == 0.5_c_double, &
               'A -> 0.25 B: ydot = (-w, 0.25 w) and its Jacobian')
    call second%add_reaction([1], [2], product_yields=[0.0_c_double], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a zero yield is refused')
    call second%add_reaction([1], [2], product_coefficients=[1], product_yields=[1.0_c_double], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'coefficients and yields at once are refused')
    call second%add_reaction([1], [2], product_yields=[1.0_c_double, 2.0_c_double], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'two yields for one product are refused')
    call second%counts(nreactions=nreactions)
    call check(nreactions == 1, 'the refused reactions were not added')
    ! A rate expression over named 1-based parameters: k = 2.0E-3*EXP(-300/TEMP)*J(2).
    call second%name_parameter(1, 'TEMP')
    call second%name_parameter(2, 'J(2)')
    call second%set_rate_expression(1, '2.0E-3*EXP(-300./TEMP)*J(2)')
    call second%evaluate([0.5_c_double, 0.0_c_double], [300.0_c_double, 4.0_c_double], ydot, jac)
    call check(ydot(1) == -(2.0e-3_c_double * exp(-300.0_c_double / 300.0_c_double) * 4.0_c_double) * 0.5_c_double, &
               'a rate expression over named parameters gives its formula')
    call second%set_rate_expression(1, '2.0E-3*EXQ(1.)', stat=status)
    call check(status == OPSPLIT_ERROR_PARSE, 'an unknown function in a rate expression is PARSE')
    call second%name_parameter(0, 'M', stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'parameter 0 is refused (1-based)')
    call check(second%find_parameter('j(2)') == 2, 'find_parameter gives the 1-based number of J(2)')
    call check(second%find_parameter('SUN', stat=status) == 0 .and. status == OPSPLIT_ERROR_INVALID_ARGUMENT, &
               'a name no parameter has is refused')
    call second%destroy()

    call ode%create(ctx, 2_c_int, int(nsys, c_int64_t), 1_c_int)
    call ode%set_mechanism(mech)
    call mech%destroy()
    call check(.not. mech%created(), 'the mechanism is gone')
    call ode%set_tolerances(1e-8_c_double, 1e-12_c_double)
    y = initial_state()
    call ode%set_state(y)
    p(:, 1) = rates
    call ode%set_parameters(p, OPSPLIT_ODE_SOA)
    call ode%integrate(0.0_c_double, t_end)
    call ode%get_state(y)
    call check_decayed(ode, y, 'mechanism, ROSENBROCK')
    call ode%set_method(OPSPLIT_ODE_RKCK45)
    y = initial_state()
    call ode%set_state(y)
    call ode%integrate(0.0_c_double, t_end)
    call ode%get_state(y)
    call check_decayed(ode, y, 'mechanism, RKCK45')
    call ode%destroy()
  end subroutine mechanism_batch

  ! Bad input comes back through stat, found by the wrappers (shapes, sizes, 1-based
  ! indices) or by C (handles, enums, content).
  subroutine errors_through_stat()
    type(opsplit_ode_t) :: ode
    type(opsplit_mechanism_t) :: mech, never
    real(c_double) :: y(2, nsys), wrong(3, nsys), transposed(nsys, 2), ydot(3)
    integer(c_int) :: result(nsys - 1), r, nreactions
    integer :: status

    call ode%create(ctx, 2, nsys, 1)
    call ode%create(ctx, 2, nsys, 1, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'create twice is refused')
    wrong = 0.0_c_double
    call ode%set_state(wrong, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_state with y(3, nsys)')
    call check(index(opsplit_last_error(), '(neq, nsys) = (2, 5)') > 0, 'the message says the shape: ' // &
               opsplit_last_error())
    transposed = 0.0_c_double
    call ode%set_state(transposed, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_state with y(nsys, neq) in AOS')
    call ode%set_state(transposed, OPSPLIT_ODE_SOA, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'set_state with y(nsys, neq) in SOA')
    call ode%get_state(y, OPSPLIT_ODE_SOA, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'get_state with y(neq, nsys) in SOA')
    call ode%get_state(y, 7_c_int, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a layout of 7')
    call ode%set_parameters(y, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_parameters with params(2, nsys) for nparam = 1')
    call ode%set_absolute_tolerances([1e-10_c_double, 1e-10_c_double, 1e-10_c_double], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_absolute_tolerances with 3 values for neq = 2')
    call ode%set_absolute_tolerances([1e-10_c_double, 1e-12_c_double], stat=status)
    call check(status == OPSPLIT_SUCCESS, 'set_absolute_tolerances with neq values')
    call ode%set_absolute_tolerances([1e-10_c_double, -1.0_c_double], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a negative atol')
    call ode%set_tolerances(0.0_c_double, 1e-12_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'rtol = 0')
    call ode%results(result, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'results with nsys - 1 values')
    call ode%set_method(7_c_int, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a method of 7')
    call ode%set_max_steps(0, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'max_steps = 0')
    call ode%integrate(0.0_c_double, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'integrate without a right-hand side')
    call ode%set_mechanism(never, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'set_mechanism with a mechanism never created')
    call ode%destroy()
    call ode%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS .and. .not. ode%created(), 'ode destroy twice is fine')
    call ode%set_rhs_callback(c_funloc(decay), stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'set_rhs_callback on a destroyed ode')
    call ode%set_state(wrong, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'set_state on a destroyed ode reports the handle')

    call mech%create(ctx)
    call mech%add_species('A')
    call mech%add_species('B')
    call mech%add_species('A', stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a species name twice')
    r = -1
    call mech%add_reaction([0], [2], index=r, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT .and. r == 0, 'add_reaction with species 0')
    call check(index(opsplit_last_error(), '1-based') > 0, 'the message says 1-based: ' // opsplit_last_error())
    call mech%add_reaction([1], [3], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'add_reaction with species 3 of 2')
    call mech%add_reaction([1], [2], reactant_coefficients=[1, 1], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'add_reaction with 2 coefficients for 1 reactant')
    call mech%add_reaction([integer(c_int) ::], [integer(c_int) ::], stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'add_reaction with no species')
    call mech%counts(nreactions=nreactions)
    call check(nreactions == 0, 'no refused reaction was added')
    call mech%add_reaction([1], [2], index=r)
    call mech%set_rate(0, OPSPLIT_RATE_CONSTANT, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'set_rate of reaction 0')
    call mech%set_rate(r, OPSPLIT_RATE_PARAMETER, 1.0_c_double, param=0, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a PARAMETER rate of parameter 0')
    call mech%set_rate(r, OPSPLIT_RATE_ARRHENIUS, 1.0_c_double, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'an ARRHENIUS rate without param')
    call check(mech%find_species('C', stat=status) == 0 .and. status == OPSPLIT_ERROR_INVALID_ARGUMENT, &
               'find_species of a missing name')
    call check(mech%species_name(3, stat=status) == '' .and. status == OPSPLIT_ERROR_INVALID_ARGUMENT, &
               'species_name(3) of 2')
    call ode%create(ctx, 2, nsys, 1)
    call ode%set_mechanism(mech, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a mechanism with a reaction without a rate')
    call mech%set_rate(r, OPSPLIT_RATE_ARRHENIUS, 1.0_c_double, 0.5_c_double, 1e4_c_double, 2, stat=status)
    call check(status == OPSPLIT_SUCCESS, 'an ARRHENIUS rate of parameter 2')
    call ode%set_mechanism(mech, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'a mechanism reading 2 parameters, batch nparam = 1')
    call mech%evaluate([1.0_c_double, 0.0_c_double], [300.0_c_double], ydot(1:2), stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'evaluate with 1 parameter of 2')
    call mech%evaluate([1.0_c_double, 0.0_c_double], [1.0_c_double, 300.0_c_double], ydot, stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_ARGUMENT, 'evaluate with ydot(3) for 2 species')
    call ode%destroy()
    call mech%destroy()
    call mech%destroy(stat=status)
    call check(status == OPSPLIT_SUCCESS .and. .not. mech%created(), 'mechanism destroy twice is fine')
    call mech%add_species('C', stat=status)
    call check(status == OPSPLIT_ERROR_INVALID_HANDLE, 'add_species on a destroyed mechanism')
  end subroutine errors_through_stat

end program test_ode
