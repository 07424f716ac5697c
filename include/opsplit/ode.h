/* opsplit ODE batches: nsys independent systems of neq ODEs (one per grid cell), each
 * integrated with its own adaptive step: the chemistry step of an operator-split model.
 *
 * State and parameters are FLOAT64. Host arrays name their layout:
 *   AOS  [sys][eq]  C y[nsys][neq],  Fortran y(neq, nsys)
 *   SOA  [eq][sys]  C y[neq][nsys],  Fortran y(nsys, neq)
 * Per-system parameters (temperature, photolysis rates, ...) have the same layouts with
 * nparam in place of neq.
 *
 * Every system is integrated alone: its steps, error norms and results never depend on
 * the other systems of the batch (the same system gives the same bits in any batch). */
#ifndef OPSPLIT_ODE_H
#define OPSPLIT_ODE_H

#include "opsplit/core.h"
#include "opsplit/mechanism.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_ode_s* opsplit_ode;

typedef enum opsplit_ode_layout {
  OPSPLIT_ODE_AOS = 0, /* [sys][eq] */
  OPSPLIT_ODE_SOA = 1  /* [eq][sys] */
} opsplit_ode_layout;

/* RKCK45      Cash-Karp Runge-Kutta 5(4), the seed's error control (non-stiff);
 * RKC         Runge-Kutta-Chebyshev, 2nd order, stages from the spectral radius
 *             (nonlinear power method, every 25 steps and after a rejection): mildly
 *             stiff problems with a real spectrum;
 * ROSENBROCK  RODAS4 (Hairer & Wanner): L-stable, stiffly accurate, order 4(3),
 *             dense LU with partial pivoting per system, or a mechanism's sparse LU
 *             (stiff chemistry);
 * ROS3        ROS3 (Sandu et al. 1997), the method of KPP's and MICM's air-quality
 *             setups: L-stable, order 3(2), 3 stages and 2 evaluations of f a step
 *             against RODAS4's 6 and 6; the same error control, LU and rounds. Fewer
 *             operations a step at loose tolerances (rtol 1e-3), more steps at tight
 *             ones. ROSENBROCK stays the default. */
typedef enum opsplit_ode_method {
  OPSPLIT_ODE_RKCK45 = 0,
  OPSPLIT_ODE_RKC = 1,
  OPSPLIT_ODE_ROSENBROCK = 2,
  OPSPLIT_ODE_ROS3 = 3
} opsplit_ode_method;

/* Gas reactors of a loaded mechanism (opsplit_ode_set_reactor), nspecies species:
 *   ISOTHERMAL_CONCENTRATIONS  state: concentrations (mol/m^3), neq = nspecies;
 *                              params: T (K); constant T and volume
 *   ISOTHERMAL_MASS_FRACTIONS  state: mass fractions, neq = nspecies;
 *                              params: T (K), P (Pa); constant T and pressure
 *   CONSTANT_PRESSURE          state: T (K), then mass fractions, neq = nspecies + 1;
 *                              params: P (Pa); adiabatic
 *   CONSTANT_VOLUME            state: T (K), then mass fractions, neq = nspecies + 1;
 *                              params: density (kg/m^3); adiabatic
 * The energy equations are Cantera's IdealGasConstPressureReactor and IdealGasReactor's:
 * dT/dt = -sum_k h_k wdot_k / (rho cp) (u_k and cv at constant volume). */
typedef enum opsplit_reactor_kind {
  OPSPLIT_REACTOR_ISOTHERMAL_CONCENTRATIONS = 0,
  OPSPLIT_REACTOR_ISOTHERMAL_MASS_FRACTIONS = 1,
  OPSPLIT_REACTOR_CONSTANT_PRESSURE = 2,
  OPSPLIT_REACTOR_CONSTANT_VOLUME = 3
} opsplit_reactor_kind;

/* The Jacobian the Rosenbrock method factors (opsplit_ode_set_jacobian):
 *   ANALYTIC           a reactor's exact analytic Jacobian, or a callback's jacobian
 *                      function (forward differences when it has none). A mass-action
 *                      mechanism always uses its exact sparse Jacobian.
 *   FINITE_DIFFERENCE  forward differences of the right-hand side, neq extra
 *                      evaluations per Jacobian (reactors and callbacks): the fallback
 *                      the analytic Jacobians are measured against. */
typedef enum opsplit_ode_jacobian {
  OPSPLIT_ODE_JACOBIAN_ANALYTIC = 0,
  OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE = 1
} opsplit_ode_jacobian;

/* Per-system result of the last opsplit_ode_integrate. */
typedef enum opsplit_ode_result {
  OPSPLIT_ODE_OK = 0,
  OPSPLIT_ODE_TOO_MANY_STEPS = 1, /* more steps (accepted + rejected) than the maximum */
  OPSPLIT_ODE_STEP_TOO_SMALL = 2, /* the step fell below the rounding of t */
  OPSPLIT_ODE_NONFINITE = 3,      /* the state or its derivative is NaN or Inf */
  OPSPLIT_ODE_RHS_FAILED = 4      /* the right-hand side callback returned < 0 */
} opsplit_ode_result;

/* A host right-hand side (CPU backend): for n systems at their own times t[s], with y,
 * ydot and params in SOA blocks (y[eq*n + s], params[p*n + s]), writes ydot. Returns 0
 * on success, > 0 for a recoverable failure (the step is retried smaller), < 0 for a
 * fatal one (those systems stop with OPSPLIT_ODE_RHS_FAILED); when n > 1 and the return
 * is not 0, the systems are evaluated again one at a time to find which failed. A
 * Fortran host passes a bind(C) function:
 *   integer(c_int) function f(n, t, y, ydot, params, user) bind(C)
 *     integer(c_int64_t), value :: n;  real(c_double) :: t(n), y(n, neq), ydot(n, neq)
 *     real(c_double) :: params(n, *);  type(c_ptr), value :: user */
typedef int (*opsplit_ode_rhs_fn)(int64_t n, const double* t, const double* y, double* ydot, const double* params,
                                  void* user);
/* Its Jacobian: jacobian[(i + j*neq)*n + s] = d(ydot_i)/dy_j of system s (Fortran
 * jac(n, neq, neq)). Same return convention. */
typedef int (*opsplit_ode_jacobian_fn)(int64_t n, const double* t, const double* y, double* jacobian,
                                       const double* params, void* user);

/* A batch of nsys systems of neq equations with nparam parameters each (nparam may be
 * 0). State and parameters start at zero. Defaults: ROSENBROCK, rtol 1e-6, atol 1e-12,
 * automatic initial step, 100000 steps per system per call, each call starts afresh
 * (keep_step 0), negative values kept (clip_negative 0). neq is in [1, 4096], nparam
 * in [0, 1024]. */
OPSPLIT_API opsplit_status opsplit_ode_create(opsplit_context ctx, int neq, int64_t nsys, int nparam,
                                              opsplit_ode* ode);
OPSPLIT_API opsplit_status opsplit_ode_destroy(opsplit_ode* ode);
OPSPLIT_API opsplit_status opsplit_ode_get_shape(opsplit_ode ode, int* neq, int64_t* nsys, int* nparam);

/* The right-hand side: a copy of a mechanism (its species count must be neq, its
 * parameters fit in nparam; every reaction must have a rate), or a host callback with
 * an optional Jacobian (NULL: finite differences). Setting one replaces the other;
 * a NULL mechanism or rhs removes it. */
OPSPLIT_API opsplit_status opsplit_ode_set_mechanism(opsplit_ode ode, opsplit_mechanism mech);
OPSPLIT_API opsplit_status opsplit_ode_set_rhs_callback(opsplit_ode ode, opsplit_ode_rhs_fn rhs,
                                                        opsplit_ode_jacobian_fn jacobian, void* user);

/* The right-hand side of a gas reactor (see opsplit_reactor_kind) of a loaded mechanism
 * (copied: later changes to mech do not reach the batch): neq must be the reactor's
 * equations and nparam at least its parameters. Replaces a mechanism or callback; NULL
 * removes it. The Jacobian is analytic (see opsplit_ode_jacobian). The CUDA backend
 * takes reactors of neq <= 512; above 64 equations a reactor keeps its systems in device
 * memory allocated by each integrate call (docs/API.md). */
OPSPLIT_API opsplit_status opsplit_ode_set_reactor(opsplit_ode ode, opsplit_mechanism mech, opsplit_reactor_kind kind);
/* ANALYTIC (the default) or FINITE_DIFFERENCE; FINITE_DIFFERENCE is refused while a
 * mass-action mechanism is attached, and a mechanism is refused while it is set. */
OPSPLIT_API opsplit_status opsplit_ode_set_jacobian(opsplit_ode ode, opsplit_ode_jacobian jacobian);
/* Evaluates the batch's right-hand side on the host for system `system`'s parameters
 * at time t and state y (neq values): ydot (neq values) and, when jacobian is not NULL,
 * the Jacobian the integrators use (column-major: jacobian[i + j*neq] = d ydot_i/d y_j;
 * see opsplit_ode_set_jacobian). For checking a right-hand side, or for driving another
 * solver with opsplit's chemistry. */
OPSPLIT_API opsplit_status opsplit_ode_evaluate(opsplit_ode ode, int64_t system, double t, const double* y,
                                                double* ydot, double* jacobian);

OPSPLIT_API opsplit_status opsplit_ode_set_method(opsplit_ode ode, opsplit_ode_method method);
/* Error weights: atol_i + rtol*|y_i| (docs/API.md gives each method's norm).
 * rtol in [1e-14, 1), atol >= 0 (rtol = 0 is refused: use a small rtol). */
OPSPLIT_API opsplit_status opsplit_ode_set_tolerances(opsplit_ode ode, double rtol, double atol);
/* Per-species absolute tolerances: neq values >= 0 (replaces the scalar atol). */
OPSPLIT_API opsplit_status opsplit_ode_set_absolute_tolerances(opsplit_ode ode, const double* atol);
/* The first step of each system: h0 > 0, or 0 for automatic. */
OPSPLIT_API opsplit_status opsplit_ode_set_initial_step(opsplit_ode ode, double h0);
OPSPLIT_API opsplit_status opsplit_ode_set_max_steps(opsplit_ode ode, int64_t max_steps);
/* keep = 1: each system starts a call with the step its last call proposed (an
 * operator-split host whose transport changes the state little between calls);
 * 0: every call starts afresh (the seed's restart). */
OPSPLIT_API opsplit_status opsplit_ode_set_keep_step(opsplit_ode ode, int keep);
/* clip = 1: negative values are set to 0 after every accepted step. */
OPSPLIT_API opsplit_status opsplit_ode_set_clip_negative(opsplit_ode ode, int clip);

OPSPLIT_API opsplit_status opsplit_ode_set_state(opsplit_ode ode, const double* y, opsplit_ode_layout layout);
OPSPLIT_API opsplit_status opsplit_ode_get_state(opsplit_ode ode, double* y, opsplit_ode_layout layout);
OPSPLIT_API opsplit_status opsplit_ode_set_parameters(opsplit_ode ode, const double* params,
                                                      opsplit_ode_layout layout);
OPSPLIT_API opsplit_status opsplit_ode_get_parameters(opsplit_ode ode, double* params, opsplit_ode_layout layout);

/* Hosts on the GPU (docs/API.md, "Hosts on the GPU"): the same from and to the host's
 * own device memory on the context's GPU, with no copy through host memory. A CUDA
 * context only (a CPU context: OPSPLIT_ERROR_UNSUPPORTED). Refused with
 * INVALID_ARGUMENT: host memory, another GPU's, another CUDA context's, a misaligned
 * pointer, an allocation too short (where CUDA knows the allocation). With the host's
 * stream (opsplit_context_set_cuda_stream) the work is queued on it; without one it
 * follows the host's work on the legacy default stream and is finished on return.
 * AOS arrays are transposed on the device. */
OPSPLIT_API opsplit_status opsplit_ode_set_state_device(opsplit_ode ode, const double* y, opsplit_ode_layout layout);
OPSPLIT_API opsplit_status opsplit_ode_get_state_device(opsplit_ode ode, double* y, opsplit_ode_layout layout);
OPSPLIT_API opsplit_status opsplit_ode_set_parameters_device(opsplit_ode ode, const double* params,
                                                             opsplit_ode_layout layout);
OPSPLIT_API opsplit_status opsplit_ode_get_parameters_device(opsplit_ode ode, double* params,
                                                             opsplit_ode_layout layout);
/* In place: the batch works in the host's SOA device array ([eq][sys], nsys*neq
 * values; [param][sys] for parameters) instead of its own storage, which it frees: no
 * copy at all. The array's values are the state from then on; integrate writes it; the
 * set/get forms read and write it. The host keeps it allocated until it unwraps (NULL:
 * the batch copies the values back into storage of its own, and the host may free the
 * array once the call returns) or destroys the batch (which never frees it). A failed
 * system keeps its values at t0 and a cancelled call puts them back, as without a wrap.
 * Parameters of a batch with nparam 0 cannot be wrapped. integrate follows the host's
 * work on the legacy default stream when the host gave no stream. */
OPSPLIT_API opsplit_status opsplit_ode_wrap_state_device(opsplit_ode ode, double* y);
OPSPLIT_API opsplit_status opsplit_ode_wrap_parameters_device(opsplit_ode ode, double* params);

/* Advances every system from t0 to t1 >= t0. A system that fails keeps its state at
 * t0 and reports why; the others reach t1; the call then returns
 * OPSPLIT_ERROR_NUMERICAL, naming the first failed system and how many failed. A
 * cancelled call (progress callback) leaves every state at t0. */
OPSPLIT_API opsplit_status opsplit_ode_integrate(opsplit_ode ode, double t0, double t1);
/* Per-system results of the last integrate that ran (a call refused before it ran, or
 * cancelled, leaves the previous call's; after OPSPLIT_ERROR_DEVICE they are undefined),
 * nsys values each (any may be NULL):
 * result (opsplit_ode_result), accepted and rejected steps, right-hand side and
 * Jacobian evaluations. */
OPSPLIT_API opsplit_status opsplit_ode_get_results(opsplit_ode ode, int* result, int64_t* accepted,
                                                   int64_t* rejected, int64_t* rhs_evaluations,
                                                   int64_t* jacobian_evaluations);
/* The same into device arrays of nsys values each (any may be NULL; a CUDA context only). */
OPSPLIT_API opsplit_status opsplit_ode_get_results_device(opsplit_ode ode, int* result, int64_t* accepted,
                                                          int64_t* rejected, int64_t* rhs_evaluations,
                                                          int64_t* jacobian_evaluations);

#ifdef __cplusplus
}
#endif

#endif /* OPSPLIT_ODE_H */
