/* C-API tests of gas mechanisms (Cantera YAML files) and of the mechanism queries that
 * came with them: every entry point refuses NULL and destroyed handles, NULL inputs and
 * outputs, non-positive and non-finite T and P and non-finite values with the right
 * status and a message naming the function and the argument; gas queries on a built
 * mechanism and edits of a loaded one are UNSUPPORTED; a file that is not there is IO,
 * a malformed one PARSE. After every failure the objects still work: the loaded
 * mechanism gives bitwise the same rates as before, the built one its counts.
 *
 * opsplit_mechanism_load_chemkin likewise: NULL and dead arguments, missing files and
 * directories (mechanism or thermo), a mechanism without thermo, malformed and
 * unsupported files; NULL and "" thermo paths load a file with its own THERMO.
 *
 * Arguments: the paths of tests/data/mechanisms/features.yaml (phase "features",
 * 10 species, 16 reactions), features.inp (10 species, 20 reactions, its own THERMO),
 * h2o2.inp and h2o2_thermo.dat (10 species, 29 reactions). */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define NS 10 /* species of features.yaml */
#define NR 16 /* its reactions */

static opsplit_mechanism gas = NULL, built = NULL;
static const double T0 = 1500.0;
static double C0[NS], baseline[NS];

/* Both mechanisms still work after a failure: the same rates, bitwise, and the same
 * counts. */
static void still_works(int line) {
  double w[NS];
  int ns = -1, nr = -1;
  int ok = opsplit_mechanism_net_production_rates(gas, T0, C0, w) == OPSPLIT_SUCCESS &&
           memcmp(w, baseline, sizeof w) == 0 &&
           opsplit_mechanism_get_counts(built, &ns, &nr, NULL) == OPSPLIT_SUCCESS && ns == 2 && nr == 1;
  if (ok) {
    checks_passed++;
  } else {
    checks_failed++;
    fprintf(stderr, "line %d: the mechanisms do not work after the failure: %s\n", line, opsplit_last_error_message());
  }
}

/* EXPECT_ERROR, then both mechanisms still work. */
#define EXPECT_FAIL(call, want, function, word)                             \
  do {                                                                      \
    expect_error_at((call), (want), (function), (word), #call, __LINE__); \
    still_works(__LINE__);                                                  \
  } while (0)

/* The four bad temperatures (and pressures): 0, negative, NaN, Inf, with the text the
 * message shows. */
static const double bad_values[4] = {0.0, -1.0, NAN, INFINITY};
static const char* const bad_T[4] = {"T=0 K", "T=-1 K", "T=nan K", "T=inf K"};
static const char* const bad_P[4] = {"P=0 Pa", "P=-1 Pa", "P=nan Pa", "P=inf Pa"};

int main(int argc, char** argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: test_capi_gas features.yaml features.inp h2o2.inp h2o2_thermo.dat\n");
    return 2;
  }
  const char* features = argv[1];
  const char* features_inp = argv[2];
  const char* h2o2_inp = argv[3];
  const char* h2o2_thermo = argv[4];

  opsplit_context ctx = NULL, gone_ctx = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_CPU, &gone_ctx));
  opsplit_context dead_ctx = gone_ctx;
  CHECK_OK(opsplit_context_destroy(&gone_ctx));

  /* ---- success paths ---- */
  CHECK_OK(opsplit_mechanism_load_yaml(ctx, features, NULL, &gas)); /* NULL: the first phase */
  opsplit_mechanism named = NULL, dead = NULL;
  CHECK_OK(opsplit_mechanism_load_yaml(ctx, features, "features", &named));
  CHECK_OK(opsplit_mechanism_load_yaml(ctx, features, "", &dead)); /* "": the first phase */
  CHECK_OK(opsplit_mechanism_create(ctx, &built));
  if (gas == NULL || built == NULL || named == NULL || dead == NULL) {
    fprintf(stderr, "cannot go on without the mechanisms: %s\n", opsplit_last_error_message());
    return 1;
  }
  int a = -1, b = -1, ns = -1, nr = -1, np = -1;
  CHECK_OK(opsplit_mechanism_add_species(built, "A", &a));
  CHECK_OK(opsplit_mechanism_add_species(built, "B", &b));
  CHECK_OK(opsplit_mechanism_add_reaction(built, 1, &a, NULL, 1, &b, NULL, NULL));
  CHECK_OK(opsplit_mechanism_set_rate(built, 0, OPSPLIT_RATE_CONSTANT, 2.0, 0, 0, 0));
  CHECK_OK(opsplit_mechanism_get_counts(gas, &ns, &nr, &np));
  CHECK(ns == NS && nr == NR && np == 1);
  CHECK_OK(opsplit_mechanism_get_counts(named, &ns, &nr, NULL));
  CHECK(ns == NS && nr == NR);
  opsplit_mechanism_kind kind = (opsplit_mechanism_kind)-1;
  CHECK_OK(opsplit_mechanism_get_kind(gas, &kind));
  CHECK(kind == OPSPLIT_MECHANISM_GAS);
  CHECK_OK(opsplit_mechanism_get_kind(built, &kind));
  CHECK(kind == OPSPLIT_MECHANISM_BUILT);
  const char* eq = NULL;
  CHECK_OK(opsplit_mechanism_get_reaction_equation(gas, 0, &eq));
  CHECK(eq != NULL && strcmp(eq, "O + H2 <=> H + OH") == 0);
  CHECK_OK(opsplit_mechanism_get_reaction_equation(gas, NR - 1, &eq));
  CHECK(eq != NULL && strcmp(eq, "OH + H2 <=> H + H2O") == 0);
  CHECK_OK(opsplit_mechanism_get_reaction_equation(gas, 2, &eq));
  CHECK(eq != NULL && strcmp(eq, "2 H + M => H2 + M") == 0);
  CHECK_OK(opsplit_mechanism_get_reaction_equation(built, 0, &eq));
  CHECK(eq != NULL && strcmp(eq, "A => B") == 0);
  const char* name = NULL;
  CHECK_OK(opsplit_mechanism_get_species_name(gas, 0, &name));
  CHECK(name != NULL && strcmp(name, "H2") == 0);
  for (int k = 0; k < NS; ++k) C0[k] = 0.1 * (k + 1);
  CHECK_OK(opsplit_mechanism_net_production_rates(gas, T0, C0, baseline));
  double sum = 0.0;
  for (int k = 0; k < NS; ++k) sum += fabs(baseline[k]);
  CHECK(isfinite(sum) && sum > 0.0);
  double W[NS], Y[NS], cp_R[NS], h_RT[NS], s_R[NS], C[NS], wdot[NS], qf[NR], qr[NR];
  CHECK_OK(opsplit_mechanism_get_molar_masses(gas, W));
  CHECK(fabs(W[0] - 2.016e-3) < 1e-9 && fabs(W[8] - 39.95e-3) < 1e-9); /* H2, AR */
  for (int k = 0; k < NS; ++k) Y[k] = 0.1;
  double rho = -1, cp = -1, cv = -1, h = 0, u = 0;
  CHECK_OK(opsplit_mechanism_mixture_properties(gas, T0, 101325.0, Y, &rho, &cp, &cv, &h, &u));
  CHECK(rho > 0 && cp > cv && cv > 0 && isfinite(h) && isfinite(u));
  CHECK_OK(opsplit_mechanism_mixture_properties(gas, T0, 101325.0, Y, NULL, NULL, NULL, NULL, NULL));
  CHECK_OK(opsplit_mechanism_concentrations(gas, T0, 101325.0, Y, C));
  /* sum C R T = P */
  double total = 0.0;
  for (int k = 0; k < NS; ++k) total += C[k];
  CHECK(fabs(total * 8.31446261815324 * T0 - 101325.0) < 1e-9 * 101325.0);
  CHECK_OK(opsplit_mechanism_species_thermo(gas, T0, cp_R, h_RT, s_R));
  CHECK(cp_R[8] == 2.5); /* argon */
  CHECK_OK(opsplit_mechanism_species_thermo(gas, T0, NULL, NULL, NULL));
  CHECK_OK(opsplit_mechanism_rates_of_progress(gas, T0, C0, qf, qr));
  CHECK_OK(opsplit_mechanism_rates_of_progress(gas, T0, C0, NULL, NULL));
  /* evaluate() of a gas mechanism is the same right-hand side, params = {T}. */
  CHECK_OK(opsplit_mechanism_evaluate(gas, C0, &T0, wdot, NULL));
  CHECK(memcmp(wdot, baseline, sizeof wdot) == 0);

  /* A destroyed mechanism, made while the others live so that no later object takes its
   * address before its checks are done (a handle is its object's address). */
  opsplit_mechanism dangling = dead;
  CHECK_OK(opsplit_mechanism_destroy(&dead));
  CHECK(dead == NULL);

  /* ---- opsplit_mechanism_get_reaction_equation ---- */
  const char* get_eq = "opsplit_mechanism_get_reaction_equation";
  EXPECT_FAIL(opsplit_mechanism_get_reaction_equation(NULL, 0, &eq), OPSPLIT_ERROR_INVALID_HANDLE, get_eq,
              "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_get_reaction_equation(dangling, 0, &eq), OPSPLIT_ERROR_INVALID_HANDLE, get_eq,
              "not a live");
  EXPECT_FAIL(opsplit_mechanism_get_reaction_equation(gas, 0, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, get_eq,
              "equation is NULL");
  EXPECT_FAIL(opsplit_mechanism_get_reaction_equation(gas, -1, &eq), OPSPLIT_ERROR_INVALID_ARGUMENT, get_eq,
              "reaction=-1");
  EXPECT_FAIL(opsplit_mechanism_get_reaction_equation(gas, NR, &eq), OPSPLIT_ERROR_INVALID_ARGUMENT, get_eq,
              "reaction=16 is not in [0, 16)");
  EXPECT_FAIL(opsplit_mechanism_get_reaction_equation(built, 1, &eq), OPSPLIT_ERROR_INVALID_ARGUMENT, get_eq,
              "reaction=1 is not in [0, 1)");
  EXPECT_FAIL(opsplit_mechanism_get_reaction_equation(gas, INT32_MIN, &eq), OPSPLIT_ERROR_INVALID_ARGUMENT, get_eq,
              "reaction=");
  CHECK_OK(opsplit_mechanism_get_reaction_equation(gas, 0, &eq));
  CHECK(eq != NULL && strcmp(eq, "O + H2 <=> H + OH") == 0);

  /* ---- opsplit_mechanism_get_kind ---- */
  const char* get_kind = "opsplit_mechanism_get_kind";
  EXPECT_FAIL(opsplit_mechanism_get_kind(NULL, &kind), OPSPLIT_ERROR_INVALID_HANDLE, get_kind, "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_get_kind(dangling, &kind), OPSPLIT_ERROR_INVALID_HANDLE, get_kind, "not a live");
  EXPECT_FAIL(opsplit_mechanism_get_kind(gas, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, get_kind, "kind is NULL");
  kind = (opsplit_mechanism_kind)-1;
  CHECK_OK(opsplit_mechanism_get_kind(gas, &kind));
  CHECK(kind == OPSPLIT_MECHANISM_GAS);

  /* ---- opsplit_mechanism_get_molar_masses ---- */
  const char* get_W = "opsplit_mechanism_get_molar_masses";
  EXPECT_FAIL(opsplit_mechanism_get_molar_masses(NULL, W), OPSPLIT_ERROR_INVALID_HANDLE, get_W, "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_get_molar_masses(dangling, W), OPSPLIT_ERROR_INVALID_HANDLE, get_W, "not a live");
  EXPECT_FAIL(opsplit_mechanism_get_molar_masses(gas, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, get_W,
              "molar_masses is NULL");
  EXPECT_FAIL(opsplit_mechanism_get_molar_masses(built, W), OPSPLIT_ERROR_UNSUPPORTED, get_W, "built through the API");

  /* ---- opsplit_mechanism_species_thermo ---- */
  const char* thermo = "opsplit_mechanism_species_thermo";
  EXPECT_FAIL(opsplit_mechanism_species_thermo(NULL, T0, cp_R, h_RT, s_R), OPSPLIT_ERROR_INVALID_HANDLE, thermo,
              "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_species_thermo(dangling, T0, cp_R, h_RT, s_R), OPSPLIT_ERROR_INVALID_HANDLE, thermo,
              "not a live");
  for (int i = 0; i < 4; ++i) {
    EXPECT_FAIL(opsplit_mechanism_species_thermo(gas, bad_values[i], cp_R, h_RT, s_R), OPSPLIT_ERROR_INVALID_ARGUMENT,
                thermo, bad_T[i]);
    EXPECT_FAIL(opsplit_mechanism_species_thermo(gas, bad_values[i], NULL, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
                thermo, bad_T[i]);
  }
  EXPECT_FAIL(opsplit_mechanism_species_thermo(gas, -INFINITY, cp_R, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
              thermo, "T=-inf");
  EXPECT_FAIL(opsplit_mechanism_species_thermo(built, T0, cp_R, h_RT, s_R), OPSPLIT_ERROR_UNSUPPORTED, thermo,
              "built through the API");

  /* ---- opsplit_mechanism_mixture_properties ---- */
  const char* mixture = "opsplit_mechanism_mixture_properties";
  EXPECT_FAIL(opsplit_mechanism_mixture_properties(NULL, T0, 1e5, Y, &rho, &cp, &cv, &h, &u),
              OPSPLIT_ERROR_INVALID_HANDLE, mixture, "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_mixture_properties(dangling, T0, 1e5, Y, &rho, &cp, &cv, &h, &u),
              OPSPLIT_ERROR_INVALID_HANDLE, mixture, "not a live");
  EXPECT_FAIL(opsplit_mechanism_mixture_properties(gas, T0, 1e5, NULL, &rho, &cp, &cv, &h, &u),
              OPSPLIT_ERROR_INVALID_ARGUMENT, mixture, "Y is NULL");
  for (int i = 0; i < 4; ++i) {
    EXPECT_FAIL(opsplit_mechanism_mixture_properties(gas, bad_values[i], 1e5, Y, &rho, &cp, &cv, &h, &u),
                OPSPLIT_ERROR_INVALID_ARGUMENT, mixture, bad_T[i]);
    EXPECT_FAIL(opsplit_mechanism_mixture_properties(gas, T0, bad_values[i], Y, &rho, &cp, &cv, &h, &u),
                OPSPLIT_ERROR_INVALID_ARGUMENT, mixture, bad_P[i]);
  }
  double Y_bad[NS];
  memcpy(Y_bad, Y, sizeof Y);
  Y_bad[3] = NAN;
  EXPECT_FAIL(opsplit_mechanism_mixture_properties(gas, T0, 1e5, Y_bad, &rho, &cp, &cv, &h, &u),
              OPSPLIT_ERROR_INVALID_ARGUMENT, mixture, "Y[3]=nan");
  Y_bad[3] = -INFINITY;
  EXPECT_FAIL(opsplit_mechanism_mixture_properties(gas, T0, 1e5, Y_bad, &rho, &cp, &cv, &h, &u),
              OPSPLIT_ERROR_INVALID_ARGUMENT, mixture, "Y[3]=-inf");
  const double Y_zero[NS] = {0};
  EXPECT_FAIL(opsplit_mechanism_mixture_properties(gas, T0, 1e5, Y_zero, &rho, &cp, &cv, &h, &u),
              OPSPLIT_ERROR_INVALID_ARGUMENT, mixture, "mean molar mass");
  EXPECT_FAIL(opsplit_mechanism_mixture_properties(built, T0, 1e5, Y, &rho, &cp, &cv, &h, &u),
              OPSPLIT_ERROR_UNSUPPORTED, mixture, "built through the API");
  double rho2 = -1;
  CHECK_OK(opsplit_mechanism_mixture_properties(gas, T0, 101325.0, Y, &rho2, NULL, NULL, NULL, NULL));
  CHECK(rho2 == rho); /* the refused calls changed nothing */

  /* ---- opsplit_mechanism_concentrations ---- */
  const char* conc = "opsplit_mechanism_concentrations";
  EXPECT_FAIL(opsplit_mechanism_concentrations(NULL, T0, 1e5, Y, C), OPSPLIT_ERROR_INVALID_HANDLE, conc,
              "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_concentrations(dangling, T0, 1e5, Y, C), OPSPLIT_ERROR_INVALID_HANDLE, conc,
              "not a live");
  EXPECT_FAIL(opsplit_mechanism_concentrations(gas, T0, 1e5, NULL, C), OPSPLIT_ERROR_INVALID_ARGUMENT, conc,
              "Y is NULL");
  EXPECT_FAIL(opsplit_mechanism_concentrations(gas, T0, 1e5, Y, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, conc,
              "concentrations is NULL");
  for (int i = 0; i < 4; ++i) {
    EXPECT_FAIL(opsplit_mechanism_concentrations(gas, bad_values[i], 1e5, Y, C), OPSPLIT_ERROR_INVALID_ARGUMENT, conc,
                bad_T[i]);
    EXPECT_FAIL(opsplit_mechanism_concentrations(gas, T0, bad_values[i], Y, C), OPSPLIT_ERROR_INVALID_ARGUMENT, conc,
                bad_P[i]);
  }
  Y_bad[3] = INFINITY;
  EXPECT_FAIL(opsplit_mechanism_concentrations(gas, T0, 1e5, Y_bad, C), OPSPLIT_ERROR_INVALID_ARGUMENT, conc,
              "Y[3]=inf");
  EXPECT_FAIL(opsplit_mechanism_concentrations(built, T0, 1e5, Y, C), OPSPLIT_ERROR_UNSUPPORTED, conc,
              "built through the API");

  /* ---- opsplit_mechanism_net_production_rates ---- */
  const char* net = "opsplit_mechanism_net_production_rates";
  for (int k = 0; k < NS; ++k) wdot[k] = 7.0;
  EXPECT_FAIL(opsplit_mechanism_net_production_rates(NULL, T0, C0, wdot), OPSPLIT_ERROR_INVALID_HANDLE, net,
              "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_net_production_rates(dangling, T0, C0, wdot), OPSPLIT_ERROR_INVALID_HANDLE, net,
              "not a live");
  EXPECT_FAIL(opsplit_mechanism_net_production_rates(gas, T0, NULL, wdot), OPSPLIT_ERROR_INVALID_ARGUMENT, net,
              "concentrations is NULL");
  EXPECT_FAIL(opsplit_mechanism_net_production_rates(gas, T0, C0, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, net,
              "wdot is NULL");
  for (int i = 0; i < 4; ++i)
    EXPECT_FAIL(opsplit_mechanism_net_production_rates(gas, bad_values[i], C0, wdot), OPSPLIT_ERROR_INVALID_ARGUMENT,
                net, bad_T[i]);
  double C_bad[NS];
  memcpy(C_bad, C0, sizeof C0);
  C_bad[2] = NAN;
  EXPECT_FAIL(opsplit_mechanism_net_production_rates(gas, T0, C_bad, wdot), OPSPLIT_ERROR_INVALID_ARGUMENT, net,
              "concentrations[2]=nan");
  C_bad[2] = 0.3;
  C_bad[NS - 1] = INFINITY;
  EXPECT_FAIL(opsplit_mechanism_net_production_rates(gas, T0, C_bad, wdot), OPSPLIT_ERROR_INVALID_ARGUMENT, net,
              "concentrations[9]=inf");
  EXPECT_FAIL(opsplit_mechanism_net_production_rates(built, T0, C0, wdot), OPSPLIT_ERROR_UNSUPPORTED, net,
              "built through the API");
  { /* A negative total: the ideal-gas pressure would be negative. */
    double C_negative[NS];
    for (int k = 0; k < NS; ++k) C_negative[k] = -C0[k];
    EXPECT_FAIL(opsplit_mechanism_net_production_rates(gas, T0, C_negative, wdot), OPSPLIT_ERROR_INVALID_ARGUMENT,
                net, "must be positive");
    EXPECT_FAIL(opsplit_mechanism_rates_of_progress(gas, T0, C_negative, qf, qr), OPSPLIT_ERROR_INVALID_ARGUMENT,
                "opsplit_mechanism_rates_of_progress", "must be positive");
    EXPECT_FAIL(opsplit_mechanism_evaluate(gas, C_negative, &T0, wdot, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
                "opsplit_mechanism_evaluate", "must be positive");
    C_negative[0] = NAN;
    EXPECT_FAIL(opsplit_mechanism_evaluate(gas, C_negative, &T0, wdot, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
                "opsplit_mechanism_evaluate", "y[0]=nan");
  }
  int untouched = 1;
  for (int k = 0; k < NS; ++k) untouched = untouched && wdot[k] == 7.0;
  CHECK(untouched); /* no refused call wrote into wdot */

  /* ---- opsplit_mechanism_rates_of_progress ---- */
  const char* rop = "opsplit_mechanism_rates_of_progress";
  EXPECT_FAIL(opsplit_mechanism_rates_of_progress(NULL, T0, C0, qf, qr), OPSPLIT_ERROR_INVALID_HANDLE, rop,
              "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_rates_of_progress(dangling, T0, C0, qf, qr), OPSPLIT_ERROR_INVALID_HANDLE, rop,
              "not a live");
  EXPECT_FAIL(opsplit_mechanism_rates_of_progress(gas, T0, NULL, qf, qr), OPSPLIT_ERROR_INVALID_ARGUMENT, rop,
              "concentrations is NULL");
  for (int i = 0; i < 4; ++i)
    EXPECT_FAIL(opsplit_mechanism_rates_of_progress(gas, bad_values[i], C0, qf, qr), OPSPLIT_ERROR_INVALID_ARGUMENT,
                rop, bad_T[i]);
  C_bad[NS - 1] = NAN;
  EXPECT_FAIL(opsplit_mechanism_rates_of_progress(gas, T0, C_bad, qf, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, rop,
              "concentrations[9]=nan");
  EXPECT_FAIL(opsplit_mechanism_rates_of_progress(built, T0, C0, qf, qr), OPSPLIT_ERROR_UNSUPPORTED, rop,
              "built through the API");
  double qf2[NR], qr2[NR];
  CHECK_OK(opsplit_mechanism_rates_of_progress(gas, T0, C0, qf2, qr2));
  CHECK(memcmp(qf, qf2, sizeof qf) == 0 && memcmp(qr, qr2, sizeof qr) == 0);

  /* ---- evaluate of a gas mechanism ---- */
  const char* evaluate = "opsplit_mechanism_evaluate";
  double jac[NS * NS], wdot_eval[NS], wdot_net[NS];
  /* ydot is the net production rates, bitwise; the Jacobian d wdot/dC at fixed T matches
   * central differences of them column by column (every rate form of features.yaml:
   * [M] and P = sum(C) R T move with C). Steps of 1e-6 C_j: truncation ~1e-12 of a
   * column; the rounding of the differences dominates (measured 4.7e-8). The bound 1e-6
   * still catches a dropped term of more than a millionth of the column's largest. */
  CHECK_OK(opsplit_mechanism_evaluate(gas, C0, &T0, wdot_eval, jac));
  CHECK_OK(opsplit_mechanism_net_production_rates(gas, T0, C0, wdot_net));
  CHECK(memcmp(wdot_eval, wdot_net, sizeof wdot_net) == 0);
  double worst_column = 0.0;
  for (int j = 0; j < NS; ++j) {
    double C_plus[NS], C_minus[NS], w_plus[NS], w_minus[NS], error = 0.0, largest = 0.0;
    const double h = 1e-6 * C0[j];
    memcpy(C_plus, C0, sizeof C_plus);
    memcpy(C_minus, C0, sizeof C_minus);
    C_plus[j] += h;
    C_minus[j] -= h;
    CHECK_OK(opsplit_mechanism_net_production_rates(gas, T0, C_plus, w_plus));
    CHECK_OK(opsplit_mechanism_net_production_rates(gas, T0, C_minus, w_minus));
    for (int i = 0; i < NS; ++i) {
      const double difference = (w_plus[i] - w_minus[i]) / (2.0 * h);
      error = fmax(error, fabs(jac[i + j * NS] - difference));
      largest = fmax(largest, fabs(difference));
    }
    worst_column = fmax(worst_column, error / largest);
  }
  printf("[measured] gas evaluate: d wdot/dC vs central differences, worst column %.2g\n", worst_column);
  CHECK(worst_column <= 1e-6);
  EXPECT_FAIL(opsplit_mechanism_evaluate(gas, C0, NULL, wdot, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate,
              "params is NULL");
  const double T_bad = -5.0;
  EXPECT_FAIL(opsplit_mechanism_evaluate(gas, C0, &T_bad, wdot, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, evaluate,
              "params[0] (T)");

  /* ---- edits of a loaded mechanism ---- */
  const int r0[1] = {0}, r1[1] = {1};
  EXPECT_FAIL(opsplit_mechanism_add_species(gas, "XX", NULL), OPSPLIT_ERROR_UNSUPPORTED,
              "opsplit_mechanism_add_species", "cannot be edited");
  EXPECT_FAIL(opsplit_mechanism_add_reaction(gas, 1, r0, NULL, 1, r1, NULL, NULL), OPSPLIT_ERROR_UNSUPPORTED,
              "opsplit_mechanism_add_reaction", "cannot be edited");
  EXPECT_FAIL(opsplit_mechanism_set_rate(gas, 0, OPSPLIT_RATE_CONSTANT, 1.0, 0, 0, 0), OPSPLIT_ERROR_UNSUPPORTED,
              "opsplit_mechanism_set_rate", "cannot be edited");
  CHECK_OK(opsplit_mechanism_get_counts(gas, &ns, &nr, NULL));
  CHECK(ns == NS && nr == NR); /* the refused edits added nothing */
  /* An equation string stays valid across refused edits. */
  CHECK_OK(opsplit_mechanism_get_reaction_equation(gas, 1, &eq));
  EXPECT_FAIL(opsplit_mechanism_add_species(gas, "YY", NULL), OPSPLIT_ERROR_UNSUPPORTED,
              "opsplit_mechanism_add_species", "cannot be edited");
  CHECK(strcmp(eq, "2 O + M <=> O2 + M") == 0);
  CHECK_OK(opsplit_mechanism_get_reaction_equation(built, 0, &eq));
  { /* A refused edit of a built mechanism leaves its equation strings valid (ASan). */
    const int missing = 7;
    EXPECT_FAIL(opsplit_mechanism_add_reaction(built, 1, &missing, NULL, 1, &b, NULL, NULL),
                OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_mechanism_add_reaction", "7");
    CHECK(strcmp(eq, "A => B") == 0);
  }

  /* ---- opsplit_mechanism_load_yaml ---- */
  const char* load = "opsplit_mechanism_load_yaml";
  opsplit_mechanism loaded = NULL;
  EXPECT_FAIL(opsplit_mechanism_load_yaml(NULL, features, NULL, &loaded), OPSPLIT_ERROR_INVALID_HANDLE, load,
              "ctx is NULL");
  EXPECT_FAIL(opsplit_mechanism_load_yaml(dead_ctx, features, NULL, &loaded), OPSPLIT_ERROR_INVALID_HANDLE, load,
              "not a live");
  EXPECT_FAIL(opsplit_mechanism_load_yaml(ctx, NULL, NULL, &loaded), OPSPLIT_ERROR_INVALID_ARGUMENT, load,
              "path is NULL");
  EXPECT_FAIL(opsplit_mechanism_load_yaml(ctx, features, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, load,
              "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_load_yaml(ctx, "/nonexistent/opsplit/no_such_file.yaml", NULL, &loaded),
              OPSPLIT_ERROR_IO, load, "no_such_file.yaml");
  EXPECT_FAIL(opsplit_mechanism_load_yaml(ctx, "", NULL, &loaded), OPSPLIT_ERROR_IO, load, "cannot read");
  EXPECT_FAIL(opsplit_mechanism_load_yaml(ctx, ".", NULL, &loaded), OPSPLIT_ERROR_IO, load, "is a directory");
  EXPECT_FAIL(opsplit_mechanism_load_yaml(ctx, features, "no_such_phase", &loaded), OPSPLIT_ERROR_PARSE, load,
              "no_such_phase");
  /* A malformed file: unclosed flow sequence. The name carries the backend, so the CPU
   * and CUDA runs of this test do not share it. */
  const char* backend_env = getenv("OPSPLIT_BACKEND");
  char bad_path[256];
  snprintf(bad_path, sizeof bad_path, "capi_gas_malformed_%s.yaml",
           backend_env != NULL && backend_env[0] != '\0' ? backend_env : "auto");
  FILE* f = fopen(bad_path, "w");
  CHECK(f != NULL);
  if (f != NULL) {
    fputs("phases:\n- name: gas\n  thermo: ideal-gas\n  species: [H2, O2\n", f);
    fclose(f);
    EXPECT_FAIL(opsplit_mechanism_load_yaml(ctx, bad_path, NULL, &loaded), OPSPLIT_ERROR_PARSE, load, bad_path);
    remove(bad_path);
  }
  CHECK(loaded == NULL); /* no failed load wrote a handle */

  /* ---- opsplit_mechanism_load_chemkin ---- */
  const char* load_ck = "opsplit_mechanism_load_chemkin";
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(NULL, features_inp, NULL, &loaded), OPSPLIT_ERROR_INVALID_HANDLE, load_ck,
              "ctx is NULL");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(dead_ctx, features_inp, NULL, &loaded), OPSPLIT_ERROR_INVALID_HANDLE,
              load_ck, "not a live");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, NULL, NULL, &loaded), OPSPLIT_ERROR_INVALID_ARGUMENT, load_ck,
              "mech_path is NULL");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, NULL, h2o2_thermo, &loaded), OPSPLIT_ERROR_INVALID_ARGUMENT, load_ck,
              "mech_path is NULL");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, features_inp, NULL, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, load_ck,
              "mech is NULL");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, "/nonexistent/opsplit/no_such_file.inp", NULL, &loaded),
              OPSPLIT_ERROR_IO, load_ck, "no_such_file.inp");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, "", NULL, &loaded), OPSPLIT_ERROR_IO, load_ck, "cannot read");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, ".", NULL, &loaded), OPSPLIT_ERROR_IO, load_ck, "is a directory");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, h2o2_inp, "/nonexistent/opsplit/no_such_thermo.dat", &loaded),
              OPSPLIT_ERROR_IO, load_ck, "no_such_thermo.dat");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, h2o2_inp, ".", &loaded), OPSPLIT_ERROR_IO, load_ck, "is a directory");
  /* h2o2.inp has no THERMO section: without the thermo file, its first species has none. */
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, h2o2_inp, NULL, &loaded), OPSPLIT_ERROR_PARSE, load_ck,
              "species \"H2\" has no thermo data");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, h2o2_inp, "", &loaded), OPSPLIT_ERROR_PARSE, load_ck,
              "species \"H2\" has no thermo data");
  /* A YAML file is not CHEMKIN, and a mechanism file is not a thermo file. */
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, features, NULL, &loaded), OPSPLIT_ERROR_PARSE, load_ck,
              "has no SPECIES section");
  EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, h2o2_inp, features_inp, &loaded), OPSPLIT_ERROR_PARSE, load_ck,
              "may only hold a THERMO section");
  { /* Malformed (an undeclared species) and unsupported (CHEB) files, named by path and line;
     * the thermo from h2o2_thermo.dat. */
    char ck_path[256];
    snprintf(ck_path, sizeof ck_path, "capi_gas_malformed_%s.inp",
             backend_env != NULL && backend_env[0] != '\0' ? backend_env : "auto");
    const char* texts[2] = {"ELEMENTS\nH O\nEND\nSPECIES\nH2 O2\nEND\nREACTIONS\nH2 + O2 <=> 2 OH  1.0 0.0 0.0\nEND\n",
                            "ELEMENTS\nH O\nEND\nSPECIES\nH2 O2\nEND\nREACTIONS\nH2 + O2 <=> H2 + O2  1.0 0.0 0.0\n"
                            "CHEB /2 2/\nEND\n"};
    const opsplit_status wants[2] = {OPSPLIT_ERROR_PARSE, OPSPLIT_ERROR_UNSUPPORTED};
    char where[300];
    snprintf(where, sizeof where, "%s:8", ck_path);
    for (int i = 0; i < 2; ++i) {
      FILE* out = fopen(ck_path, "w");
      CHECK(out != NULL);
      if (out == NULL) continue;
      fputs(texts[i], out);
      fclose(out);
      EXPECT_FAIL(opsplit_mechanism_load_chemkin(ctx, ck_path, h2o2_thermo, &loaded), wants[i], load_ck,
                  i == 0 ? where : "CHEB");
      remove(ck_path);
    }
  }
  CHECK(loaded == NULL); /* no failed load wrote a handle */
  { /* NULL and "" thermo paths: the file's own THERMO; with a thermo file, h2o2. */
    opsplit_mechanism ck_null = NULL, ck_empty = NULL, ck_h2o2 = NULL;
    CHECK_OK(opsplit_mechanism_load_chemkin(ctx, features_inp, NULL, &ck_null));
    CHECK_OK(opsplit_mechanism_load_chemkin(ctx, features_inp, "", &ck_empty));
    CHECK_OK(opsplit_mechanism_load_chemkin(ctx, h2o2_inp, h2o2_thermo, &ck_h2o2));
    int ck_ns = -1, ck_nr = -1;
    opsplit_mechanism_kind ck_kind = OPSPLIT_MECHANISM_BUILT;
    CHECK_OK(opsplit_mechanism_get_counts(ck_null, &ck_ns, &ck_nr, NULL));
    CHECK(ck_ns == NS && ck_nr == 20);
    CHECK_OK(opsplit_mechanism_get_kind(ck_null, &ck_kind));
    CHECK(ck_kind == OPSPLIT_MECHANISM_GAS);
    CHECK_OK(opsplit_mechanism_get_counts(ck_h2o2, &ck_ns, &ck_nr, NULL));
    CHECK(ck_ns == 10 && ck_nr == 29);
    double w_null[NS], w_empty[NS];
    CHECK_OK(opsplit_mechanism_net_production_rates(ck_null, T0, C0, w_null));
    CHECK_OK(opsplit_mechanism_net_production_rates(ck_empty, T0, C0, w_empty));
    CHECK(memcmp(w_null, w_empty, sizeof w_null) == 0);
    EXPECT_FAIL(opsplit_mechanism_add_species(ck_null, "XX", NULL), OPSPLIT_ERROR_UNSUPPORTED,
                "opsplit_mechanism_add_species", "cannot be edited");
    CHECK_OK(opsplit_mechanism_destroy(&ck_null));
    CHECK_OK(opsplit_mechanism_destroy(&ck_empty));
    CHECK_OK(opsplit_mechanism_destroy(&ck_h2o2));
  }

  /* Destroying the context with mechanisms alive is refused. */
  EXPECT_FAIL(opsplit_context_destroy(&ctx), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_context_destroy", "alive");
  CHECK(ctx != NULL);

  /* After all the failed loads the context still loads (dangling's checks are done). */
  CHECK_OK(opsplit_mechanism_load_yaml(ctx, features, "features", &loaded));
  CHECK(loaded != NULL);
  if (loaded != NULL) {
    CHECK_OK(opsplit_mechanism_net_production_rates(loaded, T0, C0, wdot));
    CHECK(memcmp(wdot, baseline, sizeof wdot) == 0);
  }

  CHECK_OK(opsplit_mechanism_destroy(&loaded));
  CHECK_OK(opsplit_mechanism_destroy(&named));
  CHECK_OK(opsplit_mechanism_destroy(&gas));
  CHECK_OK(opsplit_mechanism_destroy(&built));
  CHECK(gas == NULL && built == NULL);
  EXPECT_ERROR(opsplit_mechanism_get_kind(gas, &kind), OPSPLIT_ERROR_INVALID_HANDLE, get_kind, "mech is NULL");
  CHECK_OK(opsplit_context_destroy(&ctx));
  return check_summary();
}
