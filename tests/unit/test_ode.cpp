// ODE batches and mechanisms through the C API, on the backend OPSPLIT_BACKEND names:
// published reference solutions of stiff test problems (ROBER, OREGO as networks,
// HIRES as a callback), per-system independence (bitwise), failures that stay in their
// system, and the options. Host callbacks run on the CPU backend only; on CUDA the
// tests check that they are refused.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "large_mechanism.hpp"
#include "pollu.h"

namespace {

using test::Mechanism;

struct Ode {
  opsplit_ode o = nullptr;
  Ode(opsplit_context ctx, int neq, int64_t nsys, int nparam = 0) {
    EXPECT_EQ(opsplit_ode_create(ctx, neq, nsys, nparam, &o), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  ~Ode() { opsplit_ode_destroy(&o); }
  operator opsplit_ode() const { return o; }
};

bool on_cuda(opsplit_context ctx) {
  opsplit_backend b = OPSPLIT_BACKEND_AUTO;
  opsplit_context_get_backend(ctx, &b);
  return b == OPSPLIT_BACKEND_CUDA;
}

int never_called(int64_t, const double*, const double*, double*, const double*, void*) { return -1; }

// Host callbacks run on the CPU backend only: on CUDA, true after checking that one is
// refused with a message saying why (the test has nothing more to run there).
bool callbacks_refused(opsplit_context ctx) {
  if (!on_cuda(ctx)) return false;
  Ode ode(ctx, 1, 1);
  EXPECT_EQ(opsplit_ode_set_rhs_callback(ode, never_called, nullptr, nullptr), OPSPLIT_ERROR_UNSUPPORTED);
  EXPECT_NE(std::strstr(opsplit_last_error_message(), "CUDA backend"), nullptr) << opsplit_last_error_message();
  return true;
}

// The mixed error of the test set: max_i |y_i - ref_i| / (atol_i / rtol + |ref_i|), in
// units of rtol: <= 10 passes.
double mixed_error(const std::vector<double>& y, const std::vector<double>& ref, const std::vector<double>& atol,
                   double rtol) {
  double e = 0;
  for (size_t i = 0; i < y.size(); ++i)
    e = std::max(e, std::fabs(y[i] - ref[i]) / (atol[i] / rtol + std::fabs(ref[i])) / rtol);
  return e;
}

// ROBER (Robertson 1966): A -> B (0.04), B + C -> A + C (1e4), 2B -> B + C (3e7).
void build_rober(Mechanism& m) {
  const int a = m.species("A"), b = m.species("B"), c = m.species("C");
  m.reaction({a}, {b}, 0.04);
  m.reaction({b, c}, {a, c}, 1e4);
  m.reaction({b, b}, {b, c}, 3e7);
}

// OREGO (Field & Noyes' Oregonator, Hairer & Wanner II) as mass-action steps:
// y1' = 77.27 (y2 + y1 (1 - 8.375e-6 y1 - y2)), y2' = (y3 - (1 + y1) y2) / 77.27,
// y3' = 0.161 (y1 - y3).
void build_orego(Mechanism& m) {
  const int y1 = m.species("Y1"), y2 = m.species("Y2"), y3 = m.species("Y3");
  const double s = 77.27, q = 8.375e-6, w = 0.161;
  m.reaction({y2}, {y1, y2}, s);        // y1' += s y2
  m.reaction({y1}, {y1, y1}, s);        // y1' += s y1
  m.reaction({y1, y1}, {y1}, s * q);    // y1' -= s q y1^2
  m.reaction({y1, y2}, {y2}, s);        // y1' -= s y1 y2
  m.reaction({y3}, {y3, y2}, 1.0 / s);  // y2' += y3 / s
  m.reaction({y2}, {}, 1.0 / s);        // y2' -= y2 / s
  m.reaction({y1, y2}, {y1}, 1.0 / s);  // y2' -= y1 y2 / s
  m.reaction({y1}, {y1, y3}, w);        // y3' += w y1
  m.reaction({y3}, {}, w);              // y3' -= w y3
}

std::vector<double> integrate_one(opsplit_context ctx, opsplit_mechanism mech, std::vector<double> y0, double t1,
                                  double rtol, const std::vector<double>& atol, opsplit_ode_method method) {
  const int n = static_cast<int>(y0.size());
  Ode ode(ctx, n, 1);
  EXPECT_EQ(opsplit_ode_set_mechanism(ode, mech), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_method(ode, method), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_tolerances(ode, rtol, 0.0), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_absolute_tolerances(ode, atol.data()), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, t1), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_get_state(ode, y0.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  return y0;
}

TEST(Mechanism, RatesAndJacobianFollowTheReactions) {
  test::Context ctx;
  Mechanism m(ctx);
  build_rober(m);
  const double y[3] = {0.7, 2e-5, 0.3};
  double ydot[3], jac[9];
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, nullptr, ydot, jac));
  // Robertson's equations written out.
  const double r1 = 0.04 * y[0], r2 = 1e4 * y[1] * y[2], r3 = 3e7 * y[1] * y[1];
  EXPECT_NEAR(ydot[0], -r1 + r2, 1e-15 * std::fabs(r2));
  EXPECT_NEAR(ydot[1], r1 - r2 - r3, 1e-15 * std::fabs(r3));
  EXPECT_DOUBLE_EQ(ydot[2], r3);
  // Column-major: jac[i + 3j] = d ydot_i / d y_j.
  const double want[9] = {-0.04, 0.04, 0,  // d/dA
                          1e4 * y[2], -1e4 * y[2] - 6e7 * y[1], 6e7 * y[1],  // d/dB
                          1e4 * y[1], -1e4 * y[1], 0};  // d/dC
  for (int i = 0; i < 9; ++i) EXPECT_NEAR(jac[i], want[i], 1e-14 * std::fabs(want[i])) << "entry " << i;
}

// evaluate keeps the mechanism compiled between calls; every edit must still show.
TEST(Mechanism, EvaluateFollowsEditsMadeAfterIt) {
  test::Context ctx;
  Mechanism m(ctx);
  build_rober(m);
  const double y[3] = {0.7, 2e-5, 0.3};
  double ydot[3];
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, nullptr, ydot, nullptr));
  EXPECT_DOUBLE_EQ(ydot[0], -0.04 * y[0] + 1e4 * y[1] * y[2]);
  OPSPLIT_OK(opsplit_mechanism_set_rate(m, 0, OPSPLIT_RATE_CONSTANT, 0.5, 0, 0, 0));  // A -> B at 0.5
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, nullptr, ydot, nullptr));
  EXPECT_DOUBLE_EQ(ydot[0], -0.5 * y[0] + 1e4 * y[1] * y[2]);
  m.species("D");
  m.reaction({0}, {3}, 2.0);  // A -> D
  double ydot4[4];
  const double y4[4] = {0.7, 2e-5, 0.3, 0.0};
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y4, nullptr, ydot4, nullptr));
  EXPECT_DOUBLE_EQ(ydot4[0], -0.5 * y[0] + 1e4 * y[1] * y[2] - 2.0 * y[0]);
  EXPECT_DOUBLE_EQ(ydot4[3], 2.0 * y[0]);
}

TEST(Mechanism, ArrheniusAndParameterRatesAndHigherOrdersMatchCentralDifferences) {
  test::Context ctx;
  Mechanism m(ctx);
  const int a = m.species("A"), b = m.species("B"), c = m.species("C");
  int r = -1;
  const int reac[] = {a, b}, coef[] = {2, 1}, prod[] = {c};
  OPSPLIT_OK(opsplit_mechanism_add_reaction(m, 2, reac, coef, 1, prod, nullptr, &r));
  OPSPLIT_OK(opsplit_mechanism_set_rate(m, r, OPSPLIT_RATE_ARRHENIUS, 2.5e3, 0.7, 1.2e4, 1));
  const int reac2[] = {c}, prod2[] = {a, a, b};
  OPSPLIT_OK(opsplit_mechanism_add_reaction(m, 1, reac2, nullptr, 3, prod2, nullptr, &r));
  OPSPLIT_OK(opsplit_mechanism_set_rate(m, r, OPSPLIT_RATE_PARAMETER, 3.0, 0, 0, 0));
  int ns = 0, nr = 0, np = 0;
  OPSPLIT_OK(opsplit_mechanism_get_counts(m, &ns, &nr, &np));
  EXPECT_EQ(ns, 3);
  EXPECT_EQ(nr, 2);
  EXPECT_EQ(np, 2);
  const double params[2] = {0.25, 298.0};  // a photolysis-like rate, a temperature in K
  const double y[3] = {0.4, 1.3, 0.2};
  double ydot[3], jac[9];
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, params, ydot, jac));
  const double k1 = 2.5e3 * std::pow(298.0, 0.7) * std::exp(-1.2e4 / (8.31446261815324 * 298.0));
  const double w1 = k1 * y[0] * y[0] * y[1], w2 = 3.0 * 0.25 * y[2];
  EXPECT_NEAR(ydot[0], -2 * w1 + 2 * w2, 1e-13 * (w1 + w2));
  EXPECT_NEAR(ydot[1], -w1 + w2, 1e-13 * (w1 + w2));
  EXPECT_NEAR(ydot[2], w1 - w2, 1e-13 * (w1 + w2));
  for (int j = 0; j < 3; ++j) {
    double yp[3], ym[3], fp[3], fm[3];
    std::memcpy(yp, y, sizeof y), std::memcpy(ym, y, sizeof y);
    const double d = 1e-6 * y[j];
    yp[j] += d, ym[j] -= d;
    OPSPLIT_OK(opsplit_mechanism_evaluate(m, yp, params, fp, nullptr));
    OPSPLIT_OK(opsplit_mechanism_evaluate(m, ym, params, fm, nullptr));
    for (int i = 0; i < 3; ++i)
      EXPECT_NEAR(jac[i + 3 * j], (fp[i] - fm[i]) / (2 * d), 1e-6 * (std::fabs(jac[i + 3 * j]) + 1e-3))
          << "d f" << i << " / d y" << j;
  }
}

// A species-sum factor (MCM's RO2): A + P1 -> C at k (P1 + P2), P1 both a reactant and
// summed; C -> A at a constant. dy/dt written out, and the Jacobian (the sum's terms
// included, by the product rule where P1 is both) against central differences.
TEST(Mechanism, ASpeciesSumMultipliesTheRateAndEntersTheJacobian) {
  test::Context ctx;
  Mechanism m(ctx);
  const int a = m.species("A"), p1 = m.species("P1"), p2 = m.species("P2"), c = m.species("C");
  int r = -1;
  const int reac[] = {a, p1}, prod[] = {c};
  OPSPLIT_OK(opsplit_mechanism_add_reaction(m, 2, reac, nullptr, 1, prod, nullptr, &r));
  OPSPLIT_OK(opsplit_mechanism_set_rate(m, r, OPSPLIT_RATE_CONSTANT, 0.7, 0, 0, 0));
  const int summed[] = {p1, p2};
  OPSPLIT_OK(opsplit_mechanism_set_rate_species_sum(m, r, 2, summed));
  m.reaction({c}, {a}, 0.3);
  const double y[4] = {0.4, 1.3, 0.6, 0.2};
  double ydot[4], jac[16];
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, nullptr, ydot, jac));
  const double w1 = 0.7 * (y[p1] + y[p2]) * y[a] * y[p1], w2 = 0.3 * y[c];
  EXPECT_NEAR(ydot[a], -w1 + w2, 1e-15);
  EXPECT_NEAR(ydot[p1], -w1, 1e-15);
  EXPECT_EQ(ydot[p2], 0.0);
  EXPECT_NEAR(ydot[c], w1 - w2, 1e-15);
  for (int j = 0; j < 4; ++j) {
    double yp[4], ym[4], fp[4], fm[4];
    std::memcpy(yp, y, sizeof y), std::memcpy(ym, y, sizeof y);
    const double d = 1e-6 * y[j];
    yp[j] += d, ym[j] -= d;
    OPSPLIT_OK(opsplit_mechanism_evaluate(m, yp, nullptr, fp, nullptr));
    OPSPLIT_OK(opsplit_mechanism_evaluate(m, ym, nullptr, fm, nullptr));
    for (int i = 0; i < 4; ++i)
      EXPECT_NEAR(jac[i + 4 * j], (fp[i] - fm[i]) / (2 * d), 1e-8) << "d f" << i << " / d y" << j;
  }
  EXPECT_NE(jac[a + 4 * p2], 0.0) << "P2 enters A's rate only through the sum";
  // Removed, the factor is gone.
  OPSPLIT_OK(opsplit_mechanism_set_rate_species_sum(m, r, 0, nullptr));
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, nullptr, ydot, nullptr));
  EXPECT_NEAR(ydot[p1], -0.7 * y[a] * y[p1], 1e-15);
}

// Integrated on the batch's backend: A -> B at k (P1 + P2) with P1 and P2 inert decays
// as exp(-k (P1 + P2) t), at rates that differ per system (the sums do).
TEST(Validation, ASpeciesSumRateDecaysAsItsExponential) {
  test::Context ctx;
  Mechanism m(ctx);
  const int a = m.species("A"), b = m.species("B"), p1 = m.species("P1"), p2 = m.species("P2");
  const int r = m.reaction({a}, {b}, 0.5);
  const int summed[] = {p1, p2};
  OPSPLIT_OK(opsplit_mechanism_set_rate_species_sum(m, r, 2, summed));
  const int64_t nsys = 3;
  Ode ode(ctx, 4, nsys);
  OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
  OPSPLIT_OK(opsplit_ode_set_tolerances(ode, 1e-9, 1e-14));
  std::vector<double> y = {1, 0, 0.5, 0.5, 1, 0, 2, 1, 1, 0, 0.1, 0};  // sums 1, 3, 0.1
  const std::vector<double> y0 = y;
  OPSPLIT_OK(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 2.0));
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  for (int64_t s = 0; s < nsys; ++s) {
    const double sum = y0[static_cast<size_t>(4 * s + 2)] + y0[static_cast<size_t>(4 * s + 3)];
    const double exact = std::exp(-0.5 * sum * 2.0);
    EXPECT_NEAR(y[static_cast<size_t>(4 * s)], exact, 1e-7 * exact) << "system " << s;
    EXPECT_NEAR(y[static_cast<size_t>(4 * s + 1)], 1 - exact, 1e-7) << "system " << s;
    EXPECT_EQ(y[static_cast<size_t>(4 * s + 2)], y0[static_cast<size_t>(4 * s + 2)]);
  }
}

// Saturation factors (microbial kinetics): S + X -> X + P at k with Monod in S (threshold
// 0.05) and in O2, non-competitive inhibition by I and a switch on T; dy/dt written out,
// and the Jacobian (every factor's term, by the product rule) against central differences.
TEST(Mechanism, SaturationFactorsMultiplyTheRateAndEnterTheJacobian) {
  test::Context ctx;
  Mechanism m(ctx);
  const int s = m.species("S"), x = m.species("X"), o2 = m.species("O2"), in = m.species("I"), t = m.species("T"),
            p = m.species("P");
  const int r = m.reaction({s, x}, {x, p}, 0.8);
  OPSPLIT_OK(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_MONOD, s, 0.3, 0.05));
  OPSPLIT_OK(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_MONOD, o2, 0.2, 0.0));
  OPSPLIT_OK(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_INHIBITION, in, 0.4, 0.0));
  OPSPLIT_OK(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_THRESHOLD, t, 0.5, 6.0));
  const double y[6] = {0.9, 0.25, 0.35, 0.6, 0.7, 0.1};
  double ydot[6], jac[36];
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, nullptr, ydot, jac));
  const double monod_s = (y[s] - 0.05) / (0.3 + y[s] - 0.05), monod_o2 = y[o2] / (0.2 + y[o2]);
  const double inhibition = 0.4 / (0.4 + y[in]), threshold = 0.5 + std::atan((y[t] - 0.5) * 6.0) / std::acos(-1.0);
  const double w = 0.8 * y[s] * y[x] * monod_s * monod_o2 * inhibition * threshold;
  EXPECT_NEAR(ydot[s], -w, 1e-15);
  EXPECT_NEAR(ydot[p], w, 1e-15);
  for (int e : {x, o2, in, t}) EXPECT_EQ(ydot[e], 0.0) << "species " << e;
  for (int j = 0; j < 6; ++j) {
    double yp[6], ym[6], fp[6], fm[6];
    std::memcpy(yp, y, sizeof y), std::memcpy(ym, y, sizeof y);
    const double d = 1e-6 * y[j];
    yp[j] += d, ym[j] -= d;
    OPSPLIT_OK(opsplit_mechanism_evaluate(m, yp, nullptr, fp, nullptr));
    OPSPLIT_OK(opsplit_mechanism_evaluate(m, ym, nullptr, fm, nullptr));
    for (int i = 0; i < 6; ++i)
      EXPECT_NEAR(jac[i + 6 * j], (fp[i] - fm[i]) / (2 * d), 1e-8) << "d f" << i << " / d y" << j;
  }
  EXPECT_NE(jac[s + 6 * in], 0.0) << "I enters S's rate only through its inhibition";
  // At or below the threshold, and at a negative concentration, the Monod factor is 0;
  // a negative inhibitor reads as none (the factor 1): no rate turns its sign.
  double below[6] = {0.05, 0.25, 0.35, -0.1, 0.7, 0.1};
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, below, nullptr, ydot, nullptr));
  EXPECT_EQ(ydot[s], 0.0);
  below[s] = 0.9;
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, below, nullptr, ydot, nullptr));
  EXPECT_NEAR(ydot[s], -0.8 * 0.9 * y[x] * monod_s * monod_o2 * threshold, 1e-15);
  // Refused: the reaction keeps its four factors. (3: not a kind, but inside the enum's
  // range of values, which C++ needs for the cast; C callers pass any int: test_capi_misuse.)
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r, static_cast<opsplit_rate_factor>(3), s, 1.0, 0.0),
            OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("reaction 0: kind=3"), std::string::npos)
      << opsplit_last_error_message();
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_MONOD, s, 0.0, 0.0), OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("half-saturation constant 0"), std::string::npos)
      << opsplit_last_error_message();
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_MONOD, s, 1.0, -1.0), OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_THRESHOLD, t, 1.0, 0.0),
            OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_INHIBITION, 6, 1.0, 0.0),
            OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, 1, OPSPLIT_FACTOR_INHIBITION, in, 1.0, 0.0),
            OPSPLIT_ERROR_INVALID_ARGUMENT);
  for (int k = 4; k < 8; ++k) OPSPLIT_OK(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_INHIBITION, in, 1e9, 0.0));
  EXPECT_EQ(opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_INHIBITION, in, 1.0, 0.0),
            OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("8 factors"), std::string::npos)
      << opsplit_last_error_message();
  OPSPLIT_OK(opsplit_mechanism_clear_rate_factors(m, r));
  OPSPLIT_OK(opsplit_mechanism_evaluate(m, y, nullptr, ydot, nullptr));
  EXPECT_NEAR(ydot[s], -0.8 * y[s] * y[x], 1e-15);
}

// Monod consumption by a constant biomass (a catalyst: X on both sides), integrated on the
// batch's backend: dS/dt = -q X S / (K + S) has the implicit solution
// K ln(S0 / S) + S0 - S = q X t, which the result must satisfy.
TEST(Validation, MonodConsumptionFollowsItsImplicitSolution) {
  test::Context ctx;
  Mechanism m(ctx);
  const int s = m.species("S"), x = m.species("X"), p = m.species("P");
  const double q = 0.5, k_half = 0.2;
  // X -> X + P and X -> X - S (a negative yield consumes S outside the rate law), each at
  // q X times the Monod factor in S.
  const int make = m.reaction({x}, {x, p}, q);
  OPSPLIT_OK(opsplit_mechanism_add_rate_factor(m, make, OPSPLIT_FACTOR_MONOD, s, k_half, 0.0));
  const int reac[] = {x}, prod[] = {x, s};
  const double yields[] = {1.0, -1.0};
  int use = -1;
  OPSPLIT_OK(opsplit_mechanism_add_reaction_yields(m, 1, reac, nullptr, 2, prod, yields, &use));
  OPSPLIT_OK(opsplit_mechanism_set_rate(m, use, OPSPLIT_RATE_CONSTANT, q, 0, 0, 0));
  OPSPLIT_OK(opsplit_mechanism_add_rate_factor(m, use, OPSPLIT_FACTOR_MONOD, s, k_half, 0.0));
  const int64_t nsys = 3;
  Ode ode(ctx, 3, nsys);
  OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
  OPSPLIT_OK(opsplit_ode_set_tolerances(ode, 1e-10, 1e-14));
  std::vector<double> y = {1.0, 0.5, 0.0, 0.05, 2.0, 0.0, 3.0, 1.0, 0.0};  // S0, X per system
  const std::vector<double> y0 = y;
  const double t1 = 2.0;
  OPSPLIT_OK(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, t1));
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  for (int64_t sys = 0; sys < nsys; ++sys) {
    const double s0 = y0[static_cast<size_t>(3 * sys)], xs = y0[static_cast<size_t>(3 * sys + 1)];
    const double st = y[static_cast<size_t>(3 * sys)];
    ASSERT_GT(st, 0.0) << "system " << sys;
    EXPECT_NEAR(k_half * std::log(s0 / st) + s0 - st, q * xs * t1, 1e-7 * q * xs * t1) << "system " << sys;
    EXPECT_NEAR(y[static_cast<size_t>(3 * sys + 2)], s0 - st, 1e-9) << "P made as S is used, system " << sys;
    EXPECT_EQ(y[static_cast<size_t>(3 * sys + 1)], xs) << "the biomass is a catalyst here";
  }
}

TEST(Validation, RoberAt1e11MatchesTheTestSetReference) {
  test::Context ctx;
  Mechanism m(ctx);
  build_rober(m);
  // Reference: Hairer & Wanner / the Bari IVP test set, t = 1e11.
  const std::vector<double> ref = {0.2083340149701255e-07, 0.8333360770334713e-13, 0.9999999791665050};
  const double rtol = 1e-6;
  const std::vector<double> atol = {1e-12, 1e-18, 1e-12};
  for (opsplit_ode_method method : {OPSPLIT_ODE_ROSENBROCK, OPSPLIT_ODE_ROS3}) {
    const auto y = integrate_one(ctx, m, {1.0, 0.0, 0.0}, 1e11, rtol, atol, method);
    EXPECT_LE(mixed_error(y, ref, atol, rtol), 10.0) << "method " << method << ": " << y[0] << " " << y[1] << " " << y[2];
  }
}

TEST(Validation, OregoAt360MatchesTheTestSetReference) {
  test::Context ctx;
  Mechanism m(ctx);
  build_orego(m);
  const std::vector<double> ref = {0.1000814870318523e1, 0.1228178521549917e4, 0.1320554942846706e3};
  const double rtol = 1e-7;
  const std::vector<double> atol = {1e-7, 1e-7, 1e-7};
  for (opsplit_ode_method method : {OPSPLIT_ODE_ROSENBROCK, OPSPLIT_ODE_ROS3}) {
    const auto y = integrate_one(ctx, m, {1.0, 2.0, 3.0}, 360.0, rtol, atol, method);
    EXPECT_LE(mixed_error(y, ref, atol, rtol), 10.0) << "method " << method << ": " << y[0] << " " << y[1] << " " << y[2];
  }
}

TEST(Validation, PolluAt60MatchesTheTestSetReference) {
  test::Context ctx;
  opsplit_mechanism m = nullptr;
  ASSERT_EQ(pollu_build(ctx, &m), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  const double rtol = 1e-6;
  const std::vector<double> atol(POLLU_NSPECIES, 1e-10);
  const std::vector<double> y0(pollu_y0, pollu_y0 + POLLU_NSPECIES);
  const std::vector<double> ref(pollu_reference_t60, pollu_reference_t60 + POLLU_NSPECIES);
  for (opsplit_ode_method method : {OPSPLIT_ODE_ROSENBROCK, OPSPLIT_ODE_ROS3}) {
    const auto y = integrate_one(ctx, m, y0, 60.0, rtol, atol, method);
    EXPECT_LE(mixed_error(y, ref, atol, rtol), 10.0) << "method " << method;
    // The mixed norm lets values far below atol / rtol = 1e-4 ppm go loosely; the
    // test-set-style relative error of the main pollutants is checked on its own.
    for (int i : {0, 1, 3, 6, 7, 8, 11, 14, 16})
      EXPECT_NEAR(y[static_cast<size_t>(i)], ref[static_cast<size_t>(i)], 10 * rtol * ref[static_cast<size_t>(i)])
          << pollu_species[i] << ", method " << method;
  }
  opsplit_mechanism_destroy(&m);
}

// HIRES (Schaefer 1975; the test set's "hires") as a host callback over SOA blocks.
int hires_rhs(int64_t n, const double*, const double* y, double* f, const double*, void*) {
  for (int64_t s = 0; s < n; ++s) {
    auto Y = [&](int i) { return y[i * n + s]; };
    double* F[8];
    for (int i = 0; i < 8; ++i) F[i] = &f[i * n + s];
    *F[0] = -1.71 * Y(0) + 0.43 * Y(1) + 8.32 * Y(2) + 0.0007;
    *F[1] = 1.71 * Y(0) - 8.75 * Y(1);
    *F[2] = -10.03 * Y(2) + 0.43 * Y(3) + 0.035 * Y(4);
    *F[3] = 8.32 * Y(1) + 1.71 * Y(2) - 1.12 * Y(3);
    *F[4] = -1.745 * Y(4) + 0.43 * Y(5) + 0.43 * Y(6);
    *F[5] = -280.0 * Y(5) * Y(7) + 0.69 * Y(3) + 1.71 * Y(4) - 0.43 * Y(5) + 0.69 * Y(6);
    *F[6] = 280.0 * Y(5) * Y(7) - 1.81 * Y(6);
    *F[7] = -*F[6];
  }
  return 0;
}

int hires_jacobian(int64_t n, const double*, const double* y, double* jac, const double*, void*) {
  for (int64_t s = 0; s < n; ++s) {
    auto J = [&](int i, int j) -> double& { return jac[(i + j * 8) * n + s]; };
    for (int i = 0; i < 8; ++i)
      for (int j = 0; j < 8; ++j) J(i, j) = 0;
    const double y6 = y[5 * n + s], y8 = y[7 * n + s];
    J(0, 0) = -1.71, J(0, 1) = 0.43, J(0, 2) = 8.32;
    J(1, 0) = 1.71, J(1, 1) = -8.75;
    J(2, 2) = -10.03, J(2, 3) = 0.43, J(2, 4) = 0.035;
    J(3, 1) = 8.32, J(3, 2) = 1.71, J(3, 3) = -1.12;
    J(4, 4) = -1.745, J(4, 5) = 0.43, J(4, 6) = 0.43;
    J(5, 3) = 0.69, J(5, 4) = 1.71, J(5, 5) = -0.43 - 280.0 * y8, J(5, 6) = 0.69, J(5, 7) = -280.0 * y6;
    J(6, 5) = 280.0 * y8, J(6, 6) = -1.81, J(6, 7) = 280.0 * y6;
    J(7, 5) = -280.0 * y8, J(7, 6) = 1.81, J(7, 7) = -280.0 * y6;
  }
  return 0;
}

TEST(Validation, HiresAt321_8122MatchesTheTestSetReferenceWithAndWithoutItsJacobian) {
  test::Context ctx;
  Ode ode(ctx, 8, 1);
  if (callbacks_refused(ctx)) return;
  const std::vector<double> ref = {0.7371312573325668e-3, 0.1442485726316185e-3, 0.5888729740967575e-4,
                                   0.1175651343283149e-2, 0.2386356198831331e-2, 0.6238968252742796e-2,
                                   0.2849998395185769e-2, 0.2850001604814231e-2};
  const double rtol = 1e-7;
  const std::vector<double> atol(8, 1e-10);
  for (opsplit_ode_jacobian_fn jac : {static_cast<opsplit_ode_jacobian_fn>(nullptr), &hires_jacobian}) {
    std::vector<double> y = {1, 0, 0, 0, 0, 0, 0, 0.0057};
    OPSPLIT_OK(opsplit_ode_set_rhs_callback(ode, hires_rhs, jac, nullptr));
    OPSPLIT_OK(opsplit_ode_set_tolerances(ode, rtol, 1e-10));
    OPSPLIT_OK(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_SOA));
    OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 321.8122));
    OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_SOA));
    EXPECT_LE(mixed_error(y, ref, atol, rtol), 10.0) << (jac ? "with" : "without") << " the Jacobian";
    int64_t rhs = 0, njac = 0, accepted = 0;
    OPSPLIT_OK(opsplit_ode_get_results(ode, nullptr, &accepted, nullptr, &rhs, &njac));
    EXPECT_GT(njac, 0);
    // Finite differences cost 8 evaluations per Jacobian; the callback's none.
    if (jac == nullptr)
      EXPECT_GE(rhs, 8 * njac + 3 * accepted);
    else
      EXPECT_LT(rhs, 8 * njac);
  }
}

// A batch of randomly perturbed copies: each system's result is the bits of its own
// single-system run, for every method, whatever the batch and the thread count.
TEST(Batch, EverySystemEqualsItsOwnSingleRunBitwise) {
  test::Context ctx;
  Mechanism m(ctx);
  build_orego(m);
  const int64_t nsys = 37;
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<double> perturb(0.9, 1.1);
  std::vector<double> y0(3 * nsys);
  for (int64_t s = 0; s < nsys; ++s)
    for (int e = 0; e < 3; ++e) y0[static_cast<size_t>(s * 3 + e)] = (e + 1.0) * perturb(rng);
  // A stretch where OREGO is smooth enough for the explicit methods.
  const double t1 = 2.0;
  for (opsplit_ode_method method : {OPSPLIT_ODE_RKCK45, OPSPLIT_ODE_RKC, OPSPLIT_ODE_ROSENBROCK, OPSPLIT_ODE_ROS3}) {
    Ode batch(ctx, 3, nsys);
    OPSPLIT_OK(opsplit_ode_set_mechanism(batch, m));
    OPSPLIT_OK(opsplit_ode_set_method(batch, method));
    OPSPLIT_OK(opsplit_ode_set_tolerances(batch, 1e-6, 1e-9));
    OPSPLIT_OK(opsplit_ode_set_state(batch, y0.data(), OPSPLIT_ODE_AOS));
    OPSPLIT_OK(opsplit_ode_integrate(batch, 0.0, t1));
    std::vector<double> y(y0.size());
    std::vector<int64_t> accepted(nsys);
    OPSPLIT_OK(opsplit_ode_get_state(batch, y.data(), OPSPLIT_ODE_AOS));
    OPSPLIT_OK(opsplit_ode_get_results(batch, nullptr, accepted.data(), nullptr, nullptr, nullptr));
    for (int64_t s = 0; s < nsys; s += 6) {
      Ode one(ctx, 3, 1);
      OPSPLIT_OK(opsplit_ode_set_mechanism(one, m));
      OPSPLIT_OK(opsplit_ode_set_method(one, method));
      OPSPLIT_OK(opsplit_ode_set_tolerances(one, 1e-6, 1e-9));
      OPSPLIT_OK(opsplit_ode_set_state(one, &y0[static_cast<size_t>(s * 3)], OPSPLIT_ODE_AOS));
      OPSPLIT_OK(opsplit_ode_integrate(one, 0.0, t1));
      double alone[3];
      int64_t accepted_alone = 0;
      OPSPLIT_OK(opsplit_ode_get_state(one, alone, OPSPLIT_ODE_AOS));
      OPSPLIT_OK(opsplit_ode_get_results(one, nullptr, &accepted_alone, nullptr, nullptr, nullptr));
      EXPECT_EQ(std::memcmp(alone, &y[static_cast<size_t>(s * 3)], sizeof alone), 0)
          << "method " << method << ", system " << s;
      EXPECT_EQ(accepted_alone, accepted[static_cast<size_t>(s)]);
    }
    // The perturbations matter: systems took different step sequences.
    EXPECT_NE(*std::min_element(accepted.begin(), accepted.end()), *std::max_element(accepted.begin(), accepted.end()))
        << "method " << method;
  }
}

// The explicit methods against an exact solution, at two tolerances: the error follows
// the tolerance (the step control works) and stays within a small multiple of it.
TEST(Methods, ExplicitMethodsReachTheExactSolutionOfALinearChain) {
  test::Context ctx;
  Mechanism m(ctx);
  const int a = m.species("A"), b = m.species("B"), c = m.species("C");
  m.reaction({a}, {b}, 2.0);
  m.reaction({b}, {c}, 0.5);
  const double t1 = 3.0;
  // A -> B -> C from (1, 0, 0): A = e^{-2t}, B = 2/(2 - 0.5) (e^{-0.5t} - e^{-2t}).
  const double ea = std::exp(-2 * t1), eb = std::exp(-0.5 * t1);
  const std::vector<double> exact = {ea, 2.0 / 1.5 * (eb - ea), 1.0 - ea - 2.0 / 1.5 * (eb - ea)};
  for (opsplit_ode_method method : {OPSPLIT_ODE_RKCK45, OPSPLIT_ODE_RKC, OPSPLIT_ODE_ROSENBROCK, OPSPLIT_ODE_ROS3}) {
    double previous = 0;
    for (double rtol : {1e-5, 1e-8}) {
      const std::vector<double> atol(3, rtol * 1e-3);
      const auto y = integrate_one(ctx, m, {1.0, 0.0, 0.0}, t1, rtol, atol, method);
      double err = 0;
      for (int i = 0; i < 3; ++i) err = std::max(err, std::fabs(y[static_cast<size_t>(i)] - exact[static_cast<size_t>(i)]));
      EXPECT_LE(err, 20 * rtol) << "method " << method << " rtol " << rtol;
      if (previous > 0) {
        EXPECT_LT(err, previous / 30) << "method " << method << ": 1000x tighter, error not smaller";
      }
      previous = err;
      EXPECT_NEAR(y[0] + y[1] + y[2], 1.0, 1e-12) << "A + B + C is conserved";
    }
  }
}

// RKC's stages follow the spectral radius: y' = -lambda (y - cos t) - sin t has the
// smooth solution cos t, so the step is set by accuracy and the stages per step by
// lambda, s ~ sqrt(1.54 h lambda): 100x lambda, ~10x the evaluations per step.
int prothero_robinson(int64_t n, const double* t, const double* y, double* f, const double* params, void*) {
  for (int64_t s = 0; s < n; ++s) f[s] = -params[s] * (y[s] - std::cos(t[s])) - std::sin(t[s]);
  return 0;
}

TEST(Methods, RkcStagesGrowWithTheSquareRootOfTheSpectralRadius) {
  test::Context ctx;
  if (callbacks_refused(ctx)) return;
  double per_step[2];
  const double lambda[2] = {1e2, 1e4};
  for (int i = 0; i < 2; ++i) {
    Ode ode(ctx, 1, 1, 1);
    OPSPLIT_OK(opsplit_ode_set_rhs_callback(ode, prothero_robinson, nullptr, nullptr));
    OPSPLIT_OK(opsplit_ode_set_method(ode, OPSPLIT_ODE_RKC));
    OPSPLIT_OK(opsplit_ode_set_tolerances(ode, 1e-6, 1e-9));
    double y = 1.0;
    OPSPLIT_OK(opsplit_ode_set_state(ode, &y, OPSPLIT_ODE_AOS));
    OPSPLIT_OK(opsplit_ode_set_parameters(ode, &lambda[i], OPSPLIT_ODE_AOS));
    OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 10.0));
    OPSPLIT_OK(opsplit_ode_get_state(ode, &y, OPSPLIT_ODE_AOS));
    EXPECT_NEAR(y, std::cos(10.0), 1e-4);
    int64_t accepted = 0, rejected = 0, rhs = 0;
    OPSPLIT_OK(opsplit_ode_get_results(ode, nullptr, &accepted, &rejected, &rhs, nullptr));
    per_step[i] = static_cast<double>(rhs) / static_cast<double>(accepted + rejected);
  }
  const double ratio = per_step[1] / per_step[0];
  EXPECT_GT(ratio, 5.0) << per_step[0] << " and " << per_step[1] << " evaluations per step";
  EXPECT_LT(ratio, 20.0) << per_step[0] << " and " << per_step[1] << " evaluations per step";
}

TEST(Layout, AosAndSoaRoundTripTheExactValues) {
  test::Context ctx;
  const int neq = 3, np = 2;
  const int64_t nsys = 5;
  Ode ode(ctx, neq, nsys, np);
  std::vector<double> aos(neq * nsys), back(aos.size()), soa(aos.size());
  for (size_t i = 0; i < aos.size(); ++i) aos[i] = 1.0 / (3.0 + static_cast<double>(i));
  OPSPLIT_OK(opsplit_ode_set_state(ode, aos.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_get_state(ode, soa.data(), OPSPLIT_ODE_SOA));
  for (int64_t s = 0; s < nsys; ++s)
    for (int e = 0; e < neq; ++e) EXPECT_EQ(soa[static_cast<size_t>(e * nsys + s)], aos[static_cast<size_t>(s * neq + e)]);
  OPSPLIT_OK(opsplit_ode_set_state(ode, soa.data(), OPSPLIT_ODE_SOA));
  OPSPLIT_OK(opsplit_ode_get_state(ode, back.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(std::memcmp(back.data(), aos.data(), aos.size() * sizeof(double)), 0);
  std::vector<double> p(np * nsys), q(p.size());
  for (size_t i = 0; i < p.size(); ++i) p[i] = 7.0 * static_cast<double>(i) - 3.5;
  OPSPLIT_OK(opsplit_ode_set_parameters(ode, p.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_get_parameters(ode, q.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(std::memcmp(p.data(), q.data(), p.size() * sizeof(double)), 0);
}

// One failing system fails alone: it keeps its state and says why; the others are
// exactly what they would be without it.
TEST(Failures, AFailedSystemKeepsItsStateAndChangesNoOther) {
  test::Context ctx;
  Mechanism m(ctx);
  build_orego(m);
  std::vector<double> y0 = {1, 2, 3, 1, NAN, 3, 1.1, 2, 3};
  Ode ode(ctx, 3, 3);
  OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
  OPSPLIT_OK(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, 5.0), OPSPLIT_ERROR_NUMERICAL);
  const std::string msg = opsplit_last_error_message();
  EXPECT_NE(msg.find("1 of 3 systems failed"), std::string::npos) << msg;
  EXPECT_NE(msg.find("system 1, with NONFINITE"), std::string::npos) << msg;
  int result[3];
  OPSPLIT_OK(opsplit_ode_get_results(ode, result, nullptr, nullptr, nullptr, nullptr));
  EXPECT_EQ(result[0], OPSPLIT_ODE_OK);
  EXPECT_EQ(result[1], OPSPLIT_ODE_NONFINITE);
  EXPECT_EQ(result[2], OPSPLIT_ODE_OK);
  std::vector<double> y(9);
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(y[3], 1.0);
  EXPECT_TRUE(std::isnan(y[4]));
  for (int s : {0, 2}) {
    std::vector<double> one(y0.begin() + 3 * s, y0.begin() + 3 * s + 3);
    const auto alone = integrate_one(ctx, m, one, 5.0, 1e-6, {1e-12, 1e-12, 1e-12}, OPSPLIT_ODE_ROSENBROCK);
    EXPECT_EQ(std::memcmp(alone.data(), &y[static_cast<size_t>(3 * s)], 3 * sizeof(double)), 0) << "system " << s;
  }
  // Too few steps allowed: TOO_MANY_STEPS, state kept.
  std::vector<double> good = {1, 2, 3, 1, 2, 3, 1, 2, 3};
  OPSPLIT_OK(opsplit_ode_set_state(ode, good.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_set_max_steps(ode, 3));
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, 360.0), OPSPLIT_ERROR_NUMERICAL);
  OPSPLIT_OK(opsplit_ode_get_results(ode, result, nullptr, nullptr, nullptr, nullptr));
  for (int r : result) EXPECT_EQ(r, OPSPLIT_ODE_TOO_MANY_STEPS);
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(y, good);
  // Failing only after 13 steps, on CUDA in rounds of one accepted step each when
  // OPSPLIT_ODE_CUDA_ROUNDS=always (ctest's validation_ode_cuda_rounds): the same, with
  // every step counted.
  OPSPLIT_OK(opsplit_ode_set_max_steps(ode, 13));
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, 360.0), OPSPLIT_ERROR_NUMERICAL);
  int64_t accepted[3], rejected[3];
  OPSPLIT_OK(opsplit_ode_get_results(ode, result, accepted, rejected, nullptr, nullptr));
  for (int s = 0; s < 3; ++s) {
    EXPECT_EQ(result[s], OPSPLIT_ODE_TOO_MANY_STEPS);
    EXPECT_EQ(accepted[s] + rejected[s], 13);
    EXPECT_GE(accepted[s], 9) << "system " << s << ": most steps should be accepted ones (rounds)";
  }
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(y, good);
}

// A callback that fails fatally for systems with a negative parameter, and
// recoverably (step retried smaller) whenever its state would leave [0, 2].
int picky_decay(int64_t n, const double*, const double* y, double* f, const double* params, void*) {
  for (int64_t s = 0; s < n; ++s) {
    if (params[s] < 0) return -1;
    if (y[s] < 0 || y[s] > 2) return 1;
    f[s] = -params[s] * y[s];
  }
  return 0;
}

TEST(Failures, CallbackFailuresAreFatalOrRetriedPerSystem) {
  test::Context ctx;
  if (callbacks_refused(ctx)) return;
  Ode ode(ctx, 1, 3, 1);
  OPSPLIT_OK(opsplit_ode_set_rhs_callback(ode, picky_decay, nullptr, nullptr));
  OPSPLIT_OK(opsplit_ode_set_method(ode, OPSPLIT_ODE_RKCK45));
  OPSPLIT_OK(opsplit_ode_set_tolerances(ode, 1e-8, 1e-12));
  // A huge first step would overshoot below 0: recoverable, retried smaller.
  OPSPLIT_OK(opsplit_ode_set_initial_step(ode, 10.0));
  const double y0[3] = {1, 1, 1}, k[3] = {3.0, -1.0, 0.5};
  OPSPLIT_OK(opsplit_ode_set_state(ode, y0, OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_set_parameters(ode, k, OPSPLIT_ODE_AOS));
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, 1.0), OPSPLIT_ERROR_NUMERICAL);
  int result[3];
  int64_t rejected[3];
  OPSPLIT_OK(opsplit_ode_get_results(ode, result, nullptr, rejected, nullptr, nullptr));
  EXPECT_EQ(result[0], OPSPLIT_ODE_OK);
  EXPECT_EQ(result[1], OPSPLIT_ODE_RHS_FAILED);
  EXPECT_EQ(result[2], OPSPLIT_ODE_OK);
  EXPECT_GT(rejected[0], 0);
  double y[3];
  OPSPLIT_OK(opsplit_ode_get_state(ode, y, OPSPLIT_ODE_AOS));
  EXPECT_NEAR(y[0], std::exp(-3.0), 1e-7);
  EXPECT_EQ(y[1], 1.0);
  EXPECT_NEAR(y[2], std::exp(-0.5), 1e-7);
}

int constant_fall(int64_t n, const double*, const double*, double* f, const double*, void*) {
  for (int64_t s = 0; s < n; ++s) f[s] = -1.0;
  return 0;
}

TEST(Options, ClipNegativeSetsNegativeValuesToZeroAfterEachStep) {
  test::Context ctx;
  if (callbacks_refused(ctx)) return;
  for (int clip : {0, 1}) {
    Ode ode(ctx, 1, 1);
    OPSPLIT_OK(opsplit_ode_set_rhs_callback(ode, constant_fall, nullptr, nullptr));
    OPSPLIT_OK(opsplit_ode_set_clip_negative(ode, clip));
    double y = 1.0;
    OPSPLIT_OK(opsplit_ode_set_state(ode, &y, OPSPLIT_ODE_AOS));
    OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 2.0));
    OPSPLIT_OK(opsplit_ode_get_state(ode, &y, OPSPLIT_ODE_AOS));
    if (clip)
      EXPECT_EQ(y, 0.0);
    else
      EXPECT_NEAR(y, -1.0, 1e-12);
  }
}

// Operator-split restarts: with keep_step each call starts from the step the last one
// proposed, and needs fewer evaluations than a fresh start, for the same answer.
TEST(Options, KeepStepStartsFromTheLastProposedStep) {
  test::Context ctx;
  Mechanism m(ctx);
  build_orego(m);
  int64_t rhs_total[2] = {0, 0};
  std::vector<double> y_end[2];
  for (int keep : {0, 1}) {
    Ode ode(ctx, 3, 1);
    OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
    OPSPLIT_OK(opsplit_ode_set_keep_step(ode, keep));
    OPSPLIT_OK(opsplit_ode_set_tolerances(ode, 1e-6, 1e-9));
    std::vector<double> y = {1, 2, 3};
    OPSPLIT_OK(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS));
    for (int call = 0; call < 20; ++call) {
      OPSPLIT_OK(opsplit_ode_integrate(ode, call * 0.5, (call + 1) * 0.5));
      int64_t rhs = 0;
      OPSPLIT_OK(opsplit_ode_get_results(ode, nullptr, nullptr, nullptr, &rhs, nullptr));
      rhs_total[keep] += rhs;
    }
    y_end[keep].resize(3);
    OPSPLIT_OK(opsplit_ode_get_state(ode, y_end[keep].data(), OPSPLIT_ODE_AOS));
  }
  EXPECT_LT(rhs_total[1], rhs_total[0]);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(y_end[1][i], y_end[0][i], 1e-4 * std::fabs(y_end[0][i]));
}

int cancel_at_once(double, const char*, void*) { return 1; }

// nsys Oregonator states in AOS order, each 1, 2, 3 (the cancellation tests' start).
std::vector<double> orego_states(size_t nsys) {
  std::vector<double> y0(3 * nsys);
  for (size_t i = 0; i < y0.size(); ++i) y0[i] = 1.0 + static_cast<double>(i % 3);
  return y0;
}

TEST(Options, ACancelledCallLeavesEveryStateAtT0) {
  test::Context ctx;
  Mechanism m(ctx);
  build_orego(m);
  Ode ode(ctx, 3, 50);
  OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
  const std::vector<double> y0 = orego_states(50);
  std::vector<double> y(y0.size());
  OPSPLIT_OK(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, cancel_at_once, nullptr));
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, 1.0), OPSPLIT_ERROR_CANCELLED);
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(y, y0);
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, nullptr, nullptr));
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 1.0));  // still usable
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_NE(y, y0);
}

// Reports the fractions it gets; cancels at report `cancel_at` (0-based; -1: never).
struct ReportLog {
  std::vector<double> fractions;
  int cancel_at = -1;
};
int log_reports(double fraction, const char* what, void* user) {
  auto* log = static_cast<ReportLog*>(user);
  EXPECT_STREQ(what, "opsplit_ode_integrate");
  log->fractions.push_back(fraction);
  return static_cast<int>(log->fractions.size()) - 1 == log->cancel_at;
}

// The systems go in twenty chunks, rounded up (45 systems: 15 reports of 3), and a
// cancel at the last report, with every system done, keeps the finished work, as in
// every capability (core/progress.hpp); one report earlier it puts every state back.
TEST(Options, ProgressComesInChunksAndALastReportCancelsNothing) {
  test::Context ctx;
  Mechanism m(ctx);
  build_orego(m);
  Ode ode(ctx, 3, 45);
  OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
  const std::vector<double> y0 = orego_states(45);
  std::vector<double> y(y0.size());
  OPSPLIT_OK(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS));
  ReportLog log;
  log.cancel_at = 14;
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, log_reports, &log));
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 1.0));
  ASSERT_EQ(log.fractions.size(), 15u);
  for (size_t k = 0; k < 15; ++k) EXPECT_DOUBLE_EQ(log.fractions[k], 3.0 * static_cast<double>(k + 1) / 45.0);
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_NE(y, y0);
  const std::vector<double> y1 = y;
  log = ReportLog{};
  log.cancel_at = 13;
  EXPECT_EQ(opsplit_ode_integrate(ode, 1.0, 2.0), OPSPLIT_ERROR_CANCELLED);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("after 42 of 45 systems"), std::string::npos)
      << opsplit_last_error_message();
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(y, y1);
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, nullptr, nullptr));
}

// OPSPLIT_ODE_CUDA_ROUNDS other than auto, off or always: a CUDA integration is refused
// with the variable named and changes nothing; the CPU backend does not read it.
TEST(Options, AnUnknownCudaRoundModeIsRefusedOnCuda) {
  test::Context ctx;
  opsplit_backend backend = OPSPLIT_BACKEND_AUTO;
  OPSPLIT_OK(opsplit_context_get_backend(ctx, &backend));
  Mechanism m(ctx);
  build_orego(m);
  Ode ode(ctx, 3, 4);
  OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
  const std::vector<double> y0 = {1, 2, 3, 1.5, 2, 3, 1, 2.5, 3, 1, 2, 3.5};
  std::vector<double> y(y0.size());
  OPSPLIT_OK(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS));
  const char* before = std::getenv("OPSPLIT_ODE_CUDA_ROUNDS");
  const std::string saved = before != nullptr ? before : "";
  setenv("OPSPLIT_ODE_CUDA_ROUNDS", "sometimes", 1);
  const opsplit_status status = opsplit_ode_integrate(ode, 0.0, 1.0);
  const std::string msg = opsplit_last_error_message();
  if (before != nullptr) setenv("OPSPLIT_ODE_CUDA_ROUNDS", saved.c_str(), 1);
  else unsetenv("OPSPLIT_ODE_CUDA_ROUNDS");
  if (backend == OPSPLIT_BACKEND_CUDA) {
    EXPECT_EQ(status, OPSPLIT_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(msg.find("OPSPLIT_ODE_CUDA_ROUNDS='sometimes' is not auto, off or always"), std::string::npos) << msg;
    OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
    EXPECT_EQ(y, y0);
    OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 1.0));  // still usable
  } else {
    EXPECT_EQ(status, OPSPLIT_SUCCESS) << msg;
  }
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_NE(y, y0);
}

// A mechanism of a full atmospheric one's size (large_mechanism.hpp: 600 species, 2000
// reactions, 512 inputs; on CUDA past every bound of the local-memory kernels, so the
// kernel whose systems live in device memory). Every reaction keeps sum y, and RODAS
// keeps linear invariants exactly (each stage solves (1/(gamma h) - J) K = b with
// e^T J = 0 and e^T b = 0, so e^T K = 0): each system's total may move by rounding
// only, about 1e-16 per addition over some 10^5 additions: 1e-10 of it.
TEST(Size, AMechanismOf600Species2000ReactionsAnd512InputsKeepsItsTotal) {
  using namespace opsplit_test;
  test::Context ctx;
  Mechanism m(ctx);
  ASSERT_TRUE(build_large_mechanism(m)) << opsplit_last_error_message();
  int nspecies = 0, nreactions = 0, nparams = 0;
  OPSPLIT_OK(opsplit_mechanism_get_counts(m, &nspecies, &nreactions, &nparams));
  EXPECT_EQ(nspecies, kLargeSpecies);
  EXPECT_EQ(nreactions, kLargeReactions);
  EXPECT_EQ(nparams, kLargeInputs);
  const int64_t nsys = 6;
  const LargeSystems sys = large_systems(nsys, 3);
  Ode ode(ctx, kLargeSpecies, nsys, kLargeInputs);
  OPSPLIT_OK(opsplit_ode_set_mechanism(ode, m));
  OPSPLIT_OK(opsplit_ode_set_tolerances(ode, 1e-6, 1e-10));
  OPSPLIT_OK(opsplit_ode_set_state(ode, sys.y0.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_set_parameters(ode, sys.params.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 1.0));
  std::vector<double> y(sys.y0.size());
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  std::vector<int> result(nsys);
  std::vector<int64_t> accepted(nsys);
  OPSPLIT_OK(opsplit_ode_get_results(ode, result.data(), accepted.data(), nullptr, nullptr, nullptr));
  double worst_drift = 0;
  for (int64_t s = 0; s < nsys; ++s) {
    double before = 0, after = 0, moved = 0;
    for (int e = 0; e < kLargeSpecies; ++e) {
      const size_t i = static_cast<size_t>(s * kLargeSpecies + e);
      before += sys.y0[i], after += y[i], moved = std::max(moved, std::fabs(y[i] - sys.y0[i]));
    }
    EXPECT_EQ(result[static_cast<size_t>(s)], OPSPLIT_ODE_OK) << "system " << s;
    EXPECT_GE(accepted[static_cast<size_t>(s)], 5) << "system " << s;
    EXPECT_LE(std::fabs(after - before), 1e-10 * before) << "system " << s;
    EXPECT_GT(moved, 0.1) << "system " << s << " should have reacted";
    worst_drift = std::max(worst_drift, std::fabs(after - before) / before);
  }
  char drift[32];
  std::snprintf(drift, sizeof drift, "%.3g", worst_drift);
  ::testing::Test::RecordProperty("worst_relative_drift", drift);
  ::testing::Test::RecordProperty("most_accepted_steps", std::to_string(*std::max_element(accepted.begin(), accepted.end())));
}

}  // namespace
