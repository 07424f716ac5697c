/* C-API tests of mechanisms and ODE batches: bad input gets the right status and a
 * message naming the argument, changes nothing, and leaves the objects usable (checked
 * by a final integration against the exact solution of A -> B). */
#include <limits.h>
#include <math.h>
#include <stdint.h>

#include "check.h"

#define NSYS 4

static int decay(int64_t n, const double* t, const double* y, double* ydot, const double* params, void* user) {
  (void)t, (void)user;
  for (int64_t s = 0; s < n; ++s) {
    ydot[s] = -params[s] * y[s];
    ydot[n + s] = params[s] * y[s];
  }
  return 0;
}

static int failing(int64_t n, const double* t, const double* y, double* ydot, const double* params, void* user) {
  (void)n, (void)t, (void)y, (void)ydot, (void)params, (void)user;
  return 3;
}

/* Real product yields (opsplit_mechanism_add_reaction_yields): A -> 0.39 B + 1.61 C at
 * rate k integrates to A = e^{-kt}, B = 0.39 (1 - e^{-kt}), C = 1.61 (1 - e^{-kt}); the
 * equation prints the yields; bad yields are refused; integer yields through either
 * function give the same bits. */
static void yields(opsplit_context ctx) {
  const char* add = "opsplit_mechanism_add_reaction_yields";
  opsplit_mechanism m = NULL, whole = NULL, as_yields = NULL;
  CHECK_OK(opsplit_mechanism_create(ctx, &m));
  int a = -1, b = -1, c = -1, r = -1;
  CHECK_OK(opsplit_mechanism_add_species(m, "A", &a));
  CHECK_OK(opsplit_mechanism_add_species(m, "B", &b));
  CHECK_OK(opsplit_mechanism_add_species(m, "C", &c));
  const int products[2] = {b, c};
  double y2[2] = {0.39, 1.61};
  CHECK_OK(opsplit_mechanism_add_reaction_yields(m, 1, &a, NULL, 2, products, y2, &r));
  CHECK(r == 0);
  const char* equation = NULL;
  CHECK_OK(opsplit_mechanism_get_reaction_equation(m, 0, &equation));
  CHECK(equation != NULL && strcmp(equation, "A => 0.39 B + 1.61 C") == 0);
  const double bad[] = {0.0, -1000.5, 1000.5, NAN, INFINITY};
  const char* words[] = {"=0 is 0 or not in [-1000, 1000]", "=-1000.5 ", "=1000.5 ", "=nan ", "=inf "};
  for (int i = 0; i < 5; ++i) {
    y2[1] = bad[i];
    EXPECT_ERROR(opsplit_mechanism_add_reaction_yields(m, 1, &a, NULL, 2, products, y2, &r), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 add, words[i]);
  }
  const int twice[2] = {b, b};
  double big[2] = {600.0, 600.0};
  EXPECT_ERROR(opsplit_mechanism_add_reaction_yields(m, 1, &a, NULL, 2, twice, big, &r), OPSPLIT_ERROR_INVALID_ARGUMENT,
               add, "yield 1200 in all");
  EXPECT_ERROR(opsplit_mechanism_add_reaction_yields(m, 1, &a, NULL, 2, NULL, big, &r), OPSPLIT_ERROR_INVALID_ARGUMENT,
               add, "products is NULL");
  int ns = 0, nr = 0;
  CHECK_OK(opsplit_mechanism_get_counts(m, &ns, &nr, NULL));
  CHECK(ns == 3 && nr == 1); /* the refused reactions left nothing */
  CHECK_OK(opsplit_mechanism_set_rate(m, 0, OPSPLIT_RATE_PARAMETER, 1.0, 0, 0, 0));

  /* dy/dt and the Jacobian at (1, 0, 0) with k = 2. */
  const double y0[3] = {1.0, 0.0, 0.0}, kk = 2.0;
  double ydot[3], jac[9];
  CHECK_OK(opsplit_mechanism_evaluate(m, y0, &kk, ydot, jac));
  CHECK(ydot[0] == -2.0 && ydot[1] == 0.39 * 2.0 && ydot[2] == 1.61 * 2.0);
  CHECK(jac[0] == -2.0 && jac[1] == 0.39 * 2.0 && jac[2] == 1.61 * 2.0 && jac[3] == 0.0);

  /* Integrated against the exact solution. */
  enum { N = 3 };
  opsplit_ode ode = NULL;
  CHECK_OK(opsplit_ode_create(ctx, 3, N, 1, &ode));
  CHECK_OK(opsplit_ode_set_mechanism(ode, m));
  CHECK_OK(opsplit_ode_set_tolerances(ode, 1e-9, 1e-14));
  double state[3 * N], rates[N];
  for (int s = 0; s < N; ++s) {
    state[3 * s] = 1.0, state[3 * s + 1] = 0.0, state[3 * s + 2] = 0.0;
    rates[s] = 0.5 * (s + 1);
  }
  CHECK_OK(opsplit_ode_set_state(ode, state, OPSPLIT_ODE_AOS));
  CHECK_OK(opsplit_ode_set_parameters(ode, rates, OPSPLIT_ODE_AOS));
  CHECK_OK(opsplit_ode_integrate(ode, 0.0, 1.5));
  CHECK_OK(opsplit_ode_get_state(ode, state, OPSPLIT_ODE_AOS));
  for (int s = 0; s < N; ++s) {
    const double left = exp(-1.5 * rates[s]), done = 1.0 - left;
    CHECK(fabs(state[3 * s] - left) <= 1e-7 * left);
    CHECK(fabs(state[3 * s + 1] - 0.39 * done) <= 1e-7 * 0.39 * done);
    CHECK(fabs(state[3 * s + 2] - 1.61 * done) <= 1e-7 * 1.61 * done);
  }
  CHECK_OK(opsplit_ode_destroy(&ode));

  /* 2 A -> 3 B + C with integer coefficients, and with the same yields as reals. */
  double after[2][3 * N];
  const int two = 2, three_one[2] = {3, 1};
  const double three_one_real[2] = {3.0, 1.0};
  CHECK_OK(opsplit_mechanism_create(ctx, &whole));
  CHECK_OK(opsplit_mechanism_create(ctx, &as_yields));
  opsplit_mechanism pair[2] = {whole, as_yields};
  for (int v = 0; v < 2; ++v) {
    CHECK_OK(opsplit_mechanism_add_species(pair[v], "A", NULL));
    CHECK_OK(opsplit_mechanism_add_species(pair[v], "B", NULL));
    CHECK_OK(opsplit_mechanism_add_species(pair[v], "C", NULL));
    if (v == 0)
      CHECK_OK(opsplit_mechanism_add_reaction(pair[v], 1, &a, &two, 2, products, three_one, NULL));
    else
      CHECK_OK(opsplit_mechanism_add_reaction_yields(pair[v], 1, &a, &two, 2, products, three_one_real, NULL));
    CHECK_OK(opsplit_mechanism_set_rate(pair[v], 0, OPSPLIT_RATE_PARAMETER, 1.0, 0, 0, 0));
    CHECK_OK(opsplit_ode_create(ctx, 3, N, 1, &ode));
    CHECK_OK(opsplit_ode_set_mechanism(ode, pair[v]));
    for (int s = 0; s < N; ++s) state[3 * s] = 1.0, state[3 * s + 1] = 0.0, state[3 * s + 2] = 0.0;
    CHECK_OK(opsplit_ode_set_state(ode, state, OPSPLIT_ODE_AOS));
    CHECK_OK(opsplit_ode_set_parameters(ode, rates, OPSPLIT_ODE_AOS));
    CHECK_OK(opsplit_ode_integrate(ode, 0.0, 1.0));
    CHECK_OK(opsplit_ode_get_state(ode, after[v], OPSPLIT_ODE_AOS));
    CHECK_OK(opsplit_ode_destroy(&ode));
  }
  CHECK(memcmp(after[0], after[1], sizeof after[0]) == 0);
  CHECK_OK(opsplit_mechanism_get_reaction_equation(as_yields, 0, &equation));
  CHECK(equation != NULL && strcmp(equation, "2 A => 3 B + C") == 0);
  CHECK_OK(opsplit_mechanism_destroy(&as_yields));
  CHECK_OK(opsplit_mechanism_destroy(&whole));
  CHECK_OK(opsplit_mechanism_destroy(&m));
}

/* Rate constants from expressions over named parameters (TEMP, M, J(1)) against the
 * same formulas computed here: k1 = 8.0E-12*EXP(-2060/TEMP)*M for A -> B and
 * k2 = J(1)*0.5 for B -> C (M about 5e11: k1 near 1e-3/s, so that A decays by about half
 * in the 600 s integrated). */
static double k1_of(double T, double M) { return 8.0e-12 * exp(-2060. / T) * M; }

/* A negative yield (the Carbon Bond mechanisms' PAR operator) consumes the product at
 * that multiple of the rate, which it does not enter: A => B - 2.1 P with k = 3 at
 * y = (2, 0, 5) gives dP/dt = -2.1 * 3 * 2 and no P column in the Jacobian. */
static void negative_yield(opsplit_context ctx) {
  opsplit_mechanism m = NULL;
  CHECK_OK(opsplit_mechanism_create(ctx, &m));
  int a = -1, b = -1, p = -1, r = -1;
  CHECK_OK(opsplit_mechanism_add_species(m, "A", &a));
  CHECK_OK(opsplit_mechanism_add_species(m, "B", &b));
  CHECK_OK(opsplit_mechanism_add_species(m, "PAR", &p));
  const int products[2] = {b, p};
  const double yields[2] = {1.0, -2.1};
  CHECK_OK(opsplit_mechanism_add_reaction_yields(m, 1, &a, NULL, 2, products, yields, &r));
  CHECK_OK(opsplit_mechanism_set_rate(m, r, OPSPLIT_RATE_CONSTANT, 3.0, 0, 0, 0));
  const char* equation = NULL;
  CHECK_OK(opsplit_mechanism_get_reaction_equation(m, r, &equation));
  CHECK(equation != NULL && strcmp(equation, "A => B - 2.1 PAR") == 0);
  const double y[3] = {2.0, 0.0, 5.0};
  double ydot[3], jac[9];
  CHECK_OK(opsplit_mechanism_evaluate(m, y, NULL, ydot, jac));
  CHECK(ydot[0] == -6.0 && ydot[1] == 6.0 && ydot[2] == -2.1 * 6.0);
  CHECK(jac[0] == -3.0 && jac[1] == 3.0 && jac[2] == -2.1 * 3.0);  /* d/dA, column major */
  for (int i = 3; i < 9; ++i) CHECK(jac[i] == 0.0);
  CHECK_OK(opsplit_mechanism_destroy(&m));
}

static void rate_expressions(opsplit_context ctx, opsplit_backend backend) {
  const char* set = "opsplit_mechanism_set_rate_expression";
  const char* name = "opsplit_mechanism_name_parameter";
  opsplit_mechanism m = NULL, by_value = NULL;
  CHECK_OK(opsplit_mechanism_create(ctx, &m));
  CHECK_OK(opsplit_mechanism_create(ctx, &by_value));
  opsplit_mechanism both[2] = {m, by_value};
  int a = 0, b = 1, c = 2;
  for (int v = 0; v < 2; ++v) {
    CHECK_OK(opsplit_mechanism_add_species(both[v], "A", &a));
    CHECK_OK(opsplit_mechanism_add_species(both[v], "B", &b));
    CHECK_OK(opsplit_mechanism_add_species(both[v], "C", &c));
    CHECK_OK(opsplit_mechanism_add_reaction(both[v], 1, &a, NULL, 1, &b, NULL, NULL));
    CHECK_OK(opsplit_mechanism_add_reaction(both[v], 1, &b, NULL, 1, &c, NULL, NULL));
  }
  CHECK_OK(opsplit_mechanism_name_parameter(m, 0, "temp")); /* any case */
  CHECK_OK(opsplit_mechanism_name_parameter(m, 1, "X"));
  CHECK_OK(opsplit_mechanism_name_parameter(m, 1, "M")); /* renamed: X names nothing now */
  CHECK_OK(opsplit_mechanism_name_parameter(m, 2, "J(01)"));
  EXPECT_ERROR(opsplit_mechanism_name_parameter(m, 3, "TEMP"), OPSPLIT_ERROR_INVALID_ARGUMENT, name,
               "already names parameter 0");
  EXPECT_ERROR(opsplit_mechanism_name_parameter(m, 3, "J(1"), OPSPLIT_ERROR_INVALID_ARGUMENT, name, "J(4)");
  EXPECT_ERROR(opsplit_mechanism_set_rate_expression(m, 0, "8.0E-12*EXQ(-2060./TEMP)"), OPSPLIT_ERROR_PARSE, set,
               "reaction 0, column 9: unknown function 'EXQ'");
  EXPECT_ERROR(opsplit_mechanism_set_rate_expression(m, 0, "X*2"), OPSPLIT_ERROR_PARSE, set, "unknown name 'X'");
  EXPECT_ERROR(opsplit_mechanism_set_rate_expression(m, 1, "J(2)"), OPSPLIT_ERROR_PARSE, set, "unknown function 'J'");
  CHECK_OK(opsplit_mechanism_set_rate_expression(m, 0, "8.0E-12*EXP(-2060./TEMP)*M"));
  CHECK_OK(opsplit_mechanism_set_rate_expression(m, 1, "J(1)*0.5"));
  EXPECT_ERROR(opsplit_mechanism_set_rate_expression(m, 1, "J(1)*"), OPSPLIT_ERROR_PARSE, set, "column 6");
  int np = 0;
  CHECK_OK(opsplit_mechanism_get_counts(m, NULL, NULL, &np));
  CHECK(np == 3);
  for (int r = 0; r < 2; ++r) CHECK_OK(opsplit_mechanism_set_rate(by_value, r, OPSPLIT_RATE_PARAMETER, 1.0, 0, 0, r));

  /* dy/dt on the host: the same bits as the formula. */
  const double params[3] = {250.0, 5e11, 3e-3}, y0[3] = {1.0, 2.0, 0.0};
  double ydot[3], jac[9];
  CHECK_OK(opsplit_mechanism_evaluate(m, y0, params, ydot, jac));
  const double k1 = k1_of(params[0], params[1]), k2 = params[2] * 0.5;
  CHECK(ydot[0] == -k1 * 1.0 && ydot[1] == k1 * 1.0 - k2 * 2.0 && ydot[2] == k2 * 2.0);
  CHECK(jac[0] == -k1 && jac[4] == -k2);

  /* Integrated: against the same mechanism with the rate constants as parameters. */
  enum { N = 64 };
  double state[2][3 * N], p_expr[3 * N], p_value[2 * N];
  for (int s = 0; s < N; ++s) {
    p_expr[3 * s] = 220.0 + s, p_expr[3 * s + 1] = 5e11 * (1 - 0.005 * s), p_expr[3 * s + 2] = 1e-3 * (1 + s % 7);
    p_value[2 * s] = k1_of(p_expr[3 * s], p_expr[3 * s + 1]), p_value[2 * s + 1] = p_expr[3 * s + 2] * 0.5;
  }
  for (int v = 0; v < 2; ++v) {
    opsplit_ode ode = NULL;
    CHECK_OK(opsplit_ode_create(ctx, 3, N, v == 0 ? 3 : 2, &ode));
    CHECK_OK(opsplit_ode_set_mechanism(ode, both[v]));
    CHECK_OK(opsplit_ode_set_tolerances(ode, 1e-9, 1e-14));
    for (int s = 0; s < N; ++s) state[v][3 * s] = 1.0, state[v][3 * s + 1] = 0.0, state[v][3 * s + 2] = 0.0;
    CHECK_OK(opsplit_ode_set_state(ode, state[v], OPSPLIT_ODE_AOS));
    CHECK_OK(opsplit_ode_set_parameters(ode, v == 0 ? p_expr : p_value, OPSPLIT_ODE_AOS));
    CHECK_OK(opsplit_ode_integrate(ode, 0.0, 600.0));
    CHECK_OK(opsplit_ode_get_state(ode, state[v], OPSPLIT_ODE_AOS));
    CHECK_OK(opsplit_ode_destroy(&ode));
  }
  /* On the CPU the expressions are the formulas, bit for bit. CUDA's exp may differ from
   * the host's in the last bit, which can move a step: agreement to the tolerances. */
  if (backend == OPSPLIT_BACKEND_CPU) {
    CHECK(memcmp(state[0], state[1], sizeof state[0]) == 0);
  } else {
    for (int i = 0; i < 3 * N; ++i) CHECK(fabs(state[0][i] - state[1][i]) <= 1e-7 * fabs(state[1][i]) + 1e-13);
  }
  /* A's decay is exp(-k1 t): the expressions drive the right reaction. */
  for (int s = 0; s < N; ++s) {
    const double left = exp(-600.0 * p_value[2 * s]);
    CHECK(left > 0.05 && left < 0.95);
    CHECK(fabs(state[0][3 * s] - left) <= 1e-6 * left);
  }
  CHECK_OK(opsplit_mechanism_destroy(&by_value));
  CHECK_OK(opsplit_mechanism_destroy(&m));
}

int main(void) {
  opsplit_context ctx = NULL, other = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_CPU, &other));
  opsplit_backend backend = OPSPLIT_BACKEND_AUTO;
  CHECK_OK(opsplit_context_get_backend(ctx, &backend));

  /* ---- mechanisms ---- */
  const char* mcreate = "opsplit_mechanism_create";
  opsplit_mechanism mech = NULL, foreign = NULL, dead = NULL;
  EXPECT_ERROR(opsplit_mechanism_create(NULL, &mech), OPSPLIT_ERROR_INVALID_HANDLE, mcreate, "ctx");
  EXPECT_ERROR(opsplit_mechanism_create(ctx, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, mcreate, "mech is NULL");
  CHECK_OK(opsplit_mechanism_create(ctx, &mech));
  CHECK_OK(opsplit_mechanism_create(other, &foreign));
  CHECK_OK(opsplit_mechanism_create(ctx, &dead));
  /* Made before `dead` is destroyed, so that it cannot take dead's address: a handle
   * is its object's address, and a destroyed handle whose memory holds a new object is
   * that object (the registry cannot tell them apart). */
  opsplit_mechanism three = NULL;
  CHECK_OK(opsplit_mechanism_create(ctx, &three));
  opsplit_mechanism dangling = dead;
  CHECK_OK(opsplit_mechanism_destroy(&dead));
  CHECK(dead == NULL);
  CHECK_OK(opsplit_mechanism_destroy(&dead)); /* NULL: a no-op */
  CHECK_OK(opsplit_mechanism_destroy(NULL));

  const char* add_species = "opsplit_mechanism_add_species";
  int a = -1, b = -1, index = -1;
  CHECK_OK(opsplit_mechanism_add_species(mech, "A", &a));
  CHECK_OK(opsplit_mechanism_add_species(mech, "B", &b));
  CHECK(a == 0 && b == 1);
  EXPECT_ERROR(opsplit_mechanism_add_species(mech, "A", NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, add_species,
               "\"A\" already exists");
  EXPECT_ERROR(opsplit_mechanism_add_species(mech, "", NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, add_species, "1 to 64");
  EXPECT_ERROR(opsplit_mechanism_add_species(mech, "a_name_that_is_far_longer_than_the_sixty_four_bytes_a_species_may_have",
                                             NULL),
               OPSPLIT_ERROR_INVALID_ARGUMENT, add_species, "1 to 64");
  EXPECT_ERROR(opsplit_mechanism_add_species(mech, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, add_species,
               "name is NULL");
  EXPECT_ERROR(opsplit_mechanism_add_species(dangling, "C", NULL), OPSPLIT_ERROR_INVALID_HANDLE, add_species,
               "not a live");
  EXPECT_ERROR(opsplit_mechanism_add_species(NULL, "C", NULL), OPSPLIT_ERROR_INVALID_HANDLE, add_species, "mech");

  const char* find = "opsplit_mechanism_find_species";
  CHECK_OK(opsplit_mechanism_find_species(mech, "B", &index));
  CHECK(index == 1);
  EXPECT_ERROR(opsplit_mechanism_find_species(mech, "Z", &index), OPSPLIT_ERROR_INVALID_ARGUMENT, find,
               "no species \"Z\"");
  EXPECT_ERROR(opsplit_mechanism_find_species(mech, "B", NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, find, "index is NULL");
  const char* get_name = "opsplit_mechanism_get_species_name";
  const char* name = NULL;
  CHECK_OK(opsplit_mechanism_get_species_name(mech, 1, &name));
  CHECK(name != NULL && strcmp(name, "B") == 0);
  EXPECT_ERROR(opsplit_mechanism_get_species_name(mech, 2, &name), OPSPLIT_ERROR_INVALID_ARGUMENT, get_name,
               "index=2");
  EXPECT_ERROR(opsplit_mechanism_get_species_name(mech, 0, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, get_name,
               "name is NULL");

  const char* add_reaction = "opsplit_mechanism_add_reaction";
  const int r_a[1] = {0}, r_b[1] = {1}, r_bad[1] = {2}, c_zero[1] = {0}, c_big[1] = {17};
  EXPECT_ERROR(opsplit_mechanism_add_reaction(mech, 1, r_bad, NULL, 1, r_b, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               add_reaction, "reactants[0]=2");
  EXPECT_ERROR(opsplit_mechanism_add_reaction(mech, 1, r_a, c_zero, 1, r_b, NULL, NULL),
               OPSPLIT_ERROR_INVALID_ARGUMENT, add_reaction, "reactants_coefficients[0]=0");
  EXPECT_ERROR(opsplit_mechanism_add_reaction(mech, 1, r_a, NULL, 1, r_b, c_big, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               add_reaction, "products_coefficients[0]=17");
  EXPECT_ERROR(opsplit_mechanism_add_reaction(mech, -1, r_a, NULL, 1, r_b, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               add_reaction, "nreactants=-1");
  EXPECT_ERROR(opsplit_mechanism_add_reaction(mech, 1, NULL, NULL, 1, r_b, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               add_reaction, "reactants is NULL");
  EXPECT_ERROR(opsplit_mechanism_add_reaction(mech, 0, NULL, NULL, 0, NULL, NULL, NULL),
               OPSPLIT_ERROR_INVALID_ARGUMENT, add_reaction, "a reactant or a product");
  int nspecies = -1, nreactions = -1, nparams = -1;
  CHECK_OK(opsplit_mechanism_get_counts(mech, &nspecies, &nreactions, &nparams));
  CHECK(nspecies == 2 && nreactions == 0 && nparams == 0); /* failed calls added nothing */
  CHECK_OK(opsplit_mechanism_add_reaction(mech, 1, r_a, NULL, 1, r_b, NULL, &index));
  CHECK(index == 0);

  const char* set_rate = "opsplit_mechanism_set_rate";
  EXPECT_ERROR(opsplit_mechanism_set_rate(mech, 1, OPSPLIT_RATE_CONSTANT, 1, 0, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT,
               set_rate, "reaction=1");
  EXPECT_ERROR(opsplit_mechanism_set_rate(mech, 0, (opsplit_rate_kind)3, 1, 0, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT,
               set_rate, "kind=3");
  EXPECT_ERROR(opsplit_mechanism_set_rate(mech, 0, OPSPLIT_RATE_CONSTANT, NAN, 0, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT,
               set_rate, "A=nan");
  EXPECT_ERROR(opsplit_mechanism_set_rate(mech, 0, OPSPLIT_RATE_ARRHENIUS, 1, INFINITY, 0, 0),
               OPSPLIT_ERROR_INVALID_ARGUMENT, set_rate, "b=inf");
  EXPECT_ERROR(opsplit_mechanism_set_rate(mech, 0, OPSPLIT_RATE_PARAMETER, 1, 0, 0, -1), OPSPLIT_ERROR_INVALID_ARGUMENT,
               set_rate, "param=-1");
  /* Past what a batch holds: refused (INT_MAX once gave nparams = INT_MAX + 1 = 0, and an
   * evaluate without params then read p[INT_MAX]). */
  EXPECT_ERROR(opsplit_mechanism_set_rate(mech, 0, OPSPLIT_RATE_PARAMETER, 1, 0, 0, INT_MAX),
               OPSPLIT_ERROR_INVALID_ARGUMENT, set_rate, "param=2147483647 is not in [0, 1024)");
  EXPECT_ERROR(opsplit_mechanism_set_rate(mech, 0, OPSPLIT_RATE_ARRHENIUS, 1, 0, 0, 1024), OPSPLIT_ERROR_INVALID_ARGUMENT,
               set_rate, "param=1024");
  {
    int nparams = -1;
    CHECK_OK(opsplit_mechanism_get_counts(mech, NULL, NULL, &nparams));
    CHECK(nparams == 0); /* the refused calls set nothing */
  }

  const char* evaluate = "opsplit_mechanism_evaluate";
  const double y1[2] = {2.0, 0.0}, k1[1] = {0.5};
  double ydot[2] = {0, 0}, jac[4] = {0, 0, 0, 0};
  EXPECT_ERROR(opsplit_mechanism_evaluate(mech, y1, NULL, ydot, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate,
               "reaction 0 has no rate");
  CHECK_OK(opsplit_mechanism_set_rate(mech, 0, OPSPLIT_RATE_PARAMETER, 1.0, 0, 0, 0));
  EXPECT_ERROR(opsplit_mechanism_evaluate(mech, y1, NULL, ydot, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate,
               "params is NULL");
  EXPECT_ERROR(opsplit_mechanism_evaluate(mech, NULL, k1, ydot, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate,
               "y is NULL");
  EXPECT_ERROR(opsplit_mechanism_evaluate(mech, y1, k1, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate,
               "ydot is NULL");
  CHECK_OK(opsplit_mechanism_evaluate(mech, y1, k1, ydot, jac));
  CHECK(ydot[0] == -1.0 && ydot[1] == 1.0);
  CHECK(jac[0] == -0.5 && jac[1] == 0.5 && jac[2] == 0.0 && jac[3] == 0.0);

  /* ---- ODE batches ---- */
  const char* create = "opsplit_ode_create";
  opsplit_ode ode = NULL, gone = NULL;
  EXPECT_ERROR(opsplit_ode_create(ctx, 0, NSYS, 1, &ode), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "neq=0");
  EXPECT_ERROR(opsplit_ode_create(ctx, 4097, NSYS, 1, &ode), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "neq=4097");
  EXPECT_ERROR(opsplit_ode_create(ctx, 2, 0, 1, &ode), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "nsys=0");
  EXPECT_ERROR(opsplit_ode_create(ctx, 2, INT64_MAX, 1, &ode), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "nsys=");
  EXPECT_ERROR(opsplit_ode_create(ctx, 2, NSYS, -1, &ode), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "nparam=-1");
  EXPECT_ERROR(opsplit_ode_create(NULL, 2, NSYS, 1, &ode), OPSPLIT_ERROR_INVALID_HANDLE, create, "ctx");
  EXPECT_ERROR(opsplit_ode_create(ctx, 2, NSYS, 1, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "ode is NULL");
  CHECK(ode == NULL);
  CHECK_OK(opsplit_ode_create(ctx, 2, NSYS, 1, &ode));
  CHECK_OK(opsplit_ode_create(ctx, 2, NSYS, 1, &gone));
  opsplit_ode stale = gone;
  CHECK_OK(opsplit_ode_destroy(&gone));
  CHECK(gone == NULL);
  EXPECT_ERROR(opsplit_ode_integrate(stale, 0, 1), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_ode_integrate", "not a live");

  int neq = 0, np = 0;
  int64_t nsys = 0;
  CHECK_OK(opsplit_ode_get_shape(ode, &neq, &nsys, &np));
  CHECK(neq == 2 && nsys == NSYS && np == 1);
  EXPECT_ERROR(opsplit_ode_get_shape(ode, NULL, &nsys, &np), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_ode_get_shape",
               "neq is NULL");

  const char* integrate = "opsplit_ode_integrate";
  EXPECT_ERROR(opsplit_ode_integrate(ode, 0, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, integrate, "no right-hand side");

  const char* set_mech = "opsplit_ode_set_mechanism";
  CHECK_OK(opsplit_mechanism_add_species(three, "X", NULL));
  EXPECT_ERROR(opsplit_ode_set_mechanism(ode, three), OPSPLIT_ERROR_INVALID_ARGUMENT, set_mech, "1 species");
  EXPECT_ERROR(opsplit_ode_set_mechanism(ode, foreign), OPSPLIT_ERROR_INVALID_ARGUMENT, set_mech, "another context");
  EXPECT_ERROR(opsplit_ode_set_mechanism(ode, dangling), OPSPLIT_ERROR_INVALID_HANDLE, set_mech, "mech");
  opsplit_ode small = NULL;
  CHECK_OK(opsplit_ode_create(ctx, 2, NSYS, 0, &small));
  EXPECT_ERROR(opsplit_ode_set_mechanism(small, mech), OPSPLIT_ERROR_INVALID_ARGUMENT, set_mech, "nparam=0");
  CHECK_OK(opsplit_ode_destroy(&small));

  const char* set_cb = "opsplit_ode_set_rhs_callback";
  if (backend == OPSPLIT_BACKEND_CUDA) {
    EXPECT_ERROR(opsplit_ode_set_rhs_callback(ode, decay, NULL, NULL), OPSPLIT_ERROR_UNSUPPORTED, set_cb,
                 "CUDA backend");
  } else {
    EXPECT_ERROR(opsplit_ode_set_rhs_callback(ode, NULL, (opsplit_ode_jacobian_fn)decay, NULL),
                 OPSPLIT_ERROR_INVALID_ARGUMENT, set_cb, "jacobian without rhs");
  }

  const char* method = "opsplit_ode_set_method";
  EXPECT_ERROR(opsplit_ode_set_method(ode, (opsplit_ode_method)4), OPSPLIT_ERROR_INVALID_ARGUMENT, method, "method=4");
  EXPECT_ERROR(opsplit_ode_set_method(NULL, OPSPLIT_ODE_RKC), OPSPLIT_ERROR_INVALID_HANDLE, method, "ode");
  const char* tol = "opsplit_ode_set_tolerances";
  EXPECT_ERROR(opsplit_ode_set_tolerances(ode, 0.0, 1e-9), OPSPLIT_ERROR_INVALID_ARGUMENT, tol, "rtol=0");
  EXPECT_ERROR(opsplit_ode_set_tolerances(ode, 1.0, 1e-9), OPSPLIT_ERROR_INVALID_ARGUMENT, tol, "rtol=1");
  EXPECT_ERROR(opsplit_ode_set_tolerances(ode, NAN, 1e-9), OPSPLIT_ERROR_INVALID_ARGUMENT, tol, "rtol=nan");
  EXPECT_ERROR(opsplit_ode_set_tolerances(ode, 1e-6, -1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, tol, "atol=-1");
  EXPECT_ERROR(opsplit_ode_set_tolerances(ode, 1e-6, INFINITY), OPSPLIT_ERROR_INVALID_ARGUMENT, tol, "atol=inf");
  const char* atolv = "opsplit_ode_set_absolute_tolerances";
  const double bad_atol[2] = {1e-9, NAN};
  EXPECT_ERROR(opsplit_ode_set_absolute_tolerances(ode, bad_atol), OPSPLIT_ERROR_INVALID_ARGUMENT, atolv,
               "atol[1]=nan");
  EXPECT_ERROR(opsplit_ode_set_absolute_tolerances(ode, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, atolv, "atol is NULL");
  EXPECT_ERROR(opsplit_ode_set_initial_step(ode, -1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_ode_set_initial_step",
               "h0=-1");
  EXPECT_ERROR(opsplit_ode_set_max_steps(ode, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_ode_set_max_steps",
               "max_steps=0");
  EXPECT_ERROR(opsplit_ode_set_keep_step(ode, 2), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_ode_set_keep_step",
               "keep=2");
  EXPECT_ERROR(opsplit_ode_set_clip_negative(ode, -1), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_ode_set_clip_negative",
               "clip=-1");

  double y[2 * NSYS], k[NSYS];
  for (int s = 0; s < NSYS; ++s) y[2 * s] = 1.0, y[2 * s + 1] = 0.0, k[s] = 0.5 * (s + 1);
  const char* set_state = "opsplit_ode_set_state";
  EXPECT_ERROR(opsplit_ode_set_state(ode, y, (opsplit_ode_layout)2), OPSPLIT_ERROR_INVALID_ARGUMENT, set_state,
               "layout=2");
  EXPECT_ERROR(opsplit_ode_set_state(ode, NULL, OPSPLIT_ODE_AOS), OPSPLIT_ERROR_INVALID_ARGUMENT, set_state,
               "y is NULL");
  EXPECT_ERROR(opsplit_ode_get_state(ode, NULL, OPSPLIT_ODE_SOA), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_ode_get_state", "y is NULL");
  EXPECT_ERROR(opsplit_ode_set_parameters(ode, NULL, OPSPLIT_ODE_AOS), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_ode_set_parameters", "params is NULL");
  EXPECT_ERROR(opsplit_ode_get_parameters(ode, k, (opsplit_ode_layout)-1), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_ode_get_parameters", "layout=-1");
  CHECK_OK(opsplit_ode_set_state(ode, y, OPSPLIT_ODE_AOS));
  CHECK_OK(opsplit_ode_set_parameters(ode, k, OPSPLIT_ODE_AOS));
  CHECK_OK(opsplit_ode_set_mechanism(ode, mech));
  EXPECT_ERROR(opsplit_ode_integrate(ode, 1.0, 0.5), OPSPLIT_ERROR_INVALID_ARGUMENT, integrate, "t1=0.5 is before");
  EXPECT_ERROR(opsplit_ode_integrate(ode, 0.0, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, integrate, "finite");
  EXPECT_ERROR(opsplit_ode_get_results(NULL, NULL, NULL, NULL, NULL, NULL), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_ode_get_results", "ode");

  /* ---- opsplit_ode_set_jacobian and opsplit_ode_evaluate ---- */
  const char* set_jac = "opsplit_ode_set_jacobian";
  EXPECT_ERROR(opsplit_ode_set_jacobian(ode, (opsplit_ode_jacobian)2), OPSPLIT_ERROR_INVALID_ARGUMENT, set_jac,
               "jacobian=2");
  EXPECT_ERROR(opsplit_ode_set_jacobian(ode, OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE), OPSPLIT_ERROR_UNSUPPORTED,
               set_jac, "exact sparse");
  EXPECT_ERROR(opsplit_ode_set_jacobian(NULL, OPSPLIT_ODE_JACOBIAN_ANALYTIC), OPSPLIT_ERROR_INVALID_HANDLE, set_jac,
               "ode");
  const char* evaluate_ode = "opsplit_ode_evaluate";
  double ye[2] = {2.0, 1.0}, fe[2] = {7.0, 7.0}, je[4] = {7.0, 7.0, 7.0, 7.0};
  EXPECT_ERROR(opsplit_ode_evaluate(ode, NSYS, 0.0, ye, fe, je), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate_ode,
               "system=4");
  EXPECT_ERROR(opsplit_ode_evaluate(ode, -1, 0.0, ye, fe, je), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate_ode,
               "system=-1");
  EXPECT_ERROR(opsplit_ode_evaluate(ode, 0, NAN, ye, fe, je), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate_ode, "t=nan");
  EXPECT_ERROR(opsplit_ode_evaluate(ode, 0, 0.0, NULL, fe, je), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate_ode,
               "y is NULL");
  EXPECT_ERROR(opsplit_ode_evaluate(ode, 0, 0.0, ye, NULL, je), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate_ode,
               "ydot is NULL");
  ye[1] = INFINITY;
  EXPECT_ERROR(opsplit_ode_evaluate(ode, 0, 0.0, ye, fe, je), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate_ode,
               "y[1]=inf");
  ye[1] = 1.0;
  EXPECT_ERROR(opsplit_ode_evaluate(stale, 0, 0.0, ye, fe, je), OPSPLIT_ERROR_INVALID_HANDLE, evaluate_ode,
               "not a live");
  CHECK(fe[0] == 7.0 && fe[1] == 7.0 && je[0] == 7.0 && je[3] == 7.0); /* refused calls wrote nothing */
  /* System 2's rate k = 1.5 (on either backend): dA/dt = -k A, dB/dt = k A. */
  CHECK_OK(opsplit_ode_evaluate(ode, 2, 0.0, ye, fe, je));
  CHECK(fe[0] == -3.0 && fe[1] == 3.0 && je[0] == -1.5 && je[1] == 1.5 && je[2] == 0.0 && je[3] == 0.0);
  CHECK_OK(opsplit_ode_evaluate(ode, 3, 0.0, ye, fe, NULL));
  CHECK(fe[0] == -4.0 && fe[1] == 4.0);
  {
    opsplit_ode bare = NULL;
    CHECK_OK(opsplit_ode_create(ctx, 2, 1, 1, &bare));
    EXPECT_ERROR(opsplit_ode_evaluate(bare, 0, 0.0, ye, fe, je), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate_ode,
                 "no right-hand side");
    /* FINITE_DIFFERENCE refuses a mass-action mechanism in either order. */
    CHECK_OK(opsplit_ode_set_jacobian(bare, OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE));
    EXPECT_ERROR(opsplit_ode_set_mechanism(bare, mech), OPSPLIT_ERROR_UNSUPPORTED, set_mech, "FINITE_DIFFERENCE");
    const double rate = 0.5;
    CHECK_OK(opsplit_ode_set_parameters(bare, &rate, OPSPLIT_ODE_AOS));
    if (backend != OPSPLIT_BACKEND_CUDA) {
      /* A callback without a Jacobian: forward differences either way; a failing one is
       * NUMERICAL and writes nothing. */
      CHECK_OK(opsplit_ode_set_rhs_callback(bare, decay, NULL, NULL));
      CHECK_OK(opsplit_ode_evaluate(bare, 0, 0.0, ye, fe, je));
      CHECK(fe[0] == -1.0 && fe[1] == 1.0 && fabs(je[0] + 0.5) < 1e-7 && fabs(je[1] - 0.5) < 1e-7 &&
            fabs(je[2]) < 1e-7 && fabs(je[3]) < 1e-7);
      CHECK_OK(opsplit_ode_set_rhs_callback(bare, failing, NULL, NULL));
      fe[0] = 7.0;
      EXPECT_ERROR(opsplit_ode_evaluate(bare, 0, 0.0, ye, fe, NULL), OPSPLIT_ERROR_NUMERICAL, evaluate_ode,
                   "returned 3");
      CHECK(fe[0] == 7.0);
    }
    CHECK_OK(opsplit_ode_destroy(&bare));
  }

  /* Destroying the context with live objects is refused. */
  EXPECT_ERROR(opsplit_context_destroy(&ctx), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_context_destroy", "alive");

  /* Everything still works: A -> B at rate k from (1, 0) to t = 2. */
  CHECK_OK(opsplit_ode_set_tolerances(ode, 1e-8, 1e-12));
  CHECK_OK(opsplit_ode_integrate(ode, 0.0, 2.0));
  CHECK_OK(opsplit_ode_get_state(ode, y, OPSPLIT_ODE_AOS));
  int result[NSYS];
  int64_t accepted[NSYS];
  CHECK_OK(opsplit_ode_get_results(ode, result, accepted, NULL, NULL, NULL));
  for (int s = 0; s < NSYS; ++s) {
    CHECK(fabs(y[2 * s] - exp(-2.0 * k[s])) <= 1e-6 * exp(-2.0 * k[s]));
    CHECK(fabs(y[2 * s] + y[2 * s + 1] - 1.0) <= 1e-12);
    CHECK(result[s] == OPSPLIT_ODE_OK && accepted[s] > 0);
  }

  CHECK_OK(opsplit_ode_destroy(&ode));
  yields(ctx);
  negative_yield(ctx);
  rate_expressions(ctx, backend);
  CHECK_OK(opsplit_mechanism_destroy(&three));
  CHECK_OK(opsplit_mechanism_destroy(&mech));
  CHECK_OK(opsplit_mechanism_destroy(&foreign));
  CHECK_OK(opsplit_context_destroy(&ctx));
  CHECK_OK(opsplit_context_destroy(&other));
  return check_summary();
}
