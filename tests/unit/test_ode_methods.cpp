// The integrators' steps (kernels/ode/integrators.cuh) at fixed step sizes against an
// exact solution: each method's order of convergence, measured; and the nonlinear
// power method's spectral radius against known eigenvalues; the sparse LU against
// dense arithmetic.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

#include "ode/integrators.cuh"
#include "linalg/sparse_pattern.hpp"
#include "pollu.h"

namespace {

using namespace opsplit::ode;

// y' = y cos t, y(0) = 1: y = exp(sin t). Non-autonomous, with its exact Jacobian.
struct SineGrowth {
  int n = 1;
  int f(double t, const double* y, double* ydot) const {
    ydot[0] = y[0] * std::cos(t);
    return 0;
  }
  int jacobian(double t, const double*, double* jac) const {
    jac[0] = std::cos(t);
    return 0;
  }
  bool has_jacobian() const { return true; }
  bool autonomous() const { return false; }
};

// The error at t = 2 after `steps` equal steps of `step`.
template <class Step>
double global_error(int steps, Step&& step) {
  SineGrowth rhs;
  const double h = 2.0 / steps;
  double y = 1.0, t = 0.0;
  for (int i = 0; i < steps; ++i, t = i * h) y = step(rhs, t, y, h);
  return std::fabs(y - std::exp(std::sin(2.0)));
}

// log2 of the error ratio for steps halved twice from `steps` (in the asymptotic
// range, above rounding).
template <class Step>
void expect_order(Step&& step, double order, const char* name, int steps = 16) {
  const double e1 = global_error(steps, step), e2 = global_error(2 * steps, step), e4 = global_error(4 * steps, step);
  EXPECT_NEAR(std::log2(e1 / e2), order, 0.3) << name << ": errors " << e1 << ", " << e2 << ", " << e4;
  EXPECT_NEAR(std::log2(e2 / e4), order, 0.3) << name << ": errors " << e1 << ", " << e2 << ", " << e4;
}

TEST(OdeMethods, CashKarpStepsConvergeAtFifthOrder) {
  expect_order(
      [](SineGrowth& rhs, double t, double y, double h) {
        double k1 = 0, ynew = NAN, yerr = 0, k[5];
        Counts c;
        rhs.f(t, &y, &k1);
        EXPECT_EQ(rkck_step(rhs, t, &y, &k1, h, &ynew, &yerr, k, c), 0);
        return ynew;
      },
      5.0, "RKCK45");
}

TEST(OdeMethods, ChebyshevStepsConvergeAtSecondOrderForEveryStageCount) {
  for (int stages : {2, 5, 9})
    expect_order(
        [stages](SineGrowth& rhs, double t, double y, double h) {
          double fn = 0, ynew = NAN, yjm1, yjm2, fv;
          Counts c;
          rhs.f(t, &y, &fn);
          EXPECT_EQ(rkc_step(rhs, t, &y, &fn, h, stages, &ynew, &yjm1, &yjm2, &fv, c), 0);
          return ynew;
        },
        2.0, stages == 2 ? "RKC, 2 stages" : stages == 5 ? "RKC, 5 stages" : "RKC, 9 stages");
}

// One step of a Rosenbrock method on `rhs` (one equation) from (t, y): ynew, and in
// *estimate the step's error estimate (k + 5n).
template <int Method, class Rhs>
double rosenbrock_once(Rhs& rhs, double t, double y, double h, double dfdt, double* estimate = nullptr) {
  double f0 = 0, jac = 0, ynew = NAN, k[6] = {}, g, ys, fs, w;
  int piv;
  Counts c;
  rhs.f(t, &y, &f0);
  rhs.jacobian(t, &y, &jac);
  EXPECT_EQ(rosenbrock_step<Method>(rhs, t, &y, &f0, &jac, &dfdt, h, &ynew, k, &g, &piv, &ys, &fs, &w, c), 0);
  if (estimate != nullptr) *estimate = k[5];
  return ynew;
}

TEST(OdeMethods, Rodas4StepsConvergeAtFourthOrderWithTheTimeDerivative) {
  expect_order([](SineGrowth& rhs, double t, double y, double h) {
    return rosenbrock_once<kRosenbrock>(rhs, t, y, h, -y * std::sin(t));
  }, 4.0, "RODAS4", 64);
}

// ROS3's coefficients (Sandu et al. 1997): order 3 with the time derivative's terms, its
// embedded estimate of local order 3 (an order-2 solution), and L-stability.
TEST(OdeMethods, Ros3StepsConvergeAtThirdOrderAndItsEstimateAtSecond) {
  expect_order([](SineGrowth& rhs, double t, double y, double h) {
    return rosenbrock_once<kRos3>(rhs, t, y, h, -y * std::sin(t));
  }, 3.0, "ROS3", 32);
  SineGrowth rhs;
  const double t = 0.3, y = std::exp(std::sin(t)), dfdt = -y * std::sin(t);
  double e1 = 0, e2 = 0, e4 = 0;
  rosenbrock_once<kRos3>(rhs, t, y, 0.1, dfdt, &e1);
  rosenbrock_once<kRos3>(rhs, t, y, 0.05, dfdt, &e2);
  rosenbrock_once<kRos3>(rhs, t, y, 0.025, dfdt, &e4);
  EXPECT_NEAR(std::log2(std::fabs(e1 / e2)), 3.0, 0.3) << e1 << " " << e2;
  EXPECT_NEAR(std::log2(std::fabs(e2 / e4)), 3.0, 0.3) << e2 << " " << e4;
}

// y' = -1e8 y: one step of h = 1 (z = -1e8) damps y to R(z) = O(1/z) for an L-stable
// method (an A-stable one that is not, such as the trapezoidal rule, keeps |R| near 1).
struct StiffDecay {
  int n = 1;
  int f(double, const double* y, double* ydot) const {
    ydot[0] = -1e8 * y[0];
    return 0;
  }
  int jacobian(double, const double*, double* jac) const {
    jac[0] = -1e8;
    return 0;
  }
  bool has_jacobian() const { return true; }
  bool autonomous() const { return true; }
};

TEST(OdeMethods, RosenbrockMethodsDampAStiffModeInOneStep) {
  StiffDecay rhs;
  EXPECT_LT(std::fabs(rosenbrock_once<kRosenbrock>(rhs, 0.0, 1.0, 1.0, 0.0)), 1e-6);
  EXPECT_LT(std::fabs(rosenbrock_once<kRos3>(rhs, 0.0, 1.0, 1.0, 0.0)), 1e-6);
}

// y' = -diag(1, 10, 1000) y: the power method finds 1000 (reported as 1.2 x).
struct Diagonal {
  int n = 3;
  int f(double, const double* y, double* ydot) const {
    ydot[0] = -y[0], ydot[1] = -10 * y[1], ydot[2] = -1000 * y[2];
    return 0;
  }
};

TEST(OdeMethods, PowerMethodFindsTheLargestEigenvalue) {
  Diagonal rhs;
  double y[3] = {1.0, 0.5, 0.25};
  double fn[3], ev[3], v[3], fv[3];
  rhs.f(0, y, fn);
  for (int i = 0; i < 3; ++i) ev[i] = fn[i];
  Counts c;
  int code = -1;
  const double sprad = spectral_radius(rhs, 0.0, y, fn, 1.0, ev, v, fv, c, &code);
  EXPECT_EQ(code, 0);
  EXPECT_NEAR(sprad / 1.2, 1000.0, 10.0);
  EXPECT_EQ(rkc_stages(0.1, sprad), 1 + static_cast<int>(std::sqrt(1.0 + 1.54 * 0.1 * sprad)));
}

TEST(OdeMethods, LuSolvesAPivotedSystem) {
  // Column-major [[0, 2, 1], [1, 1, 0], [3, 0, 1]]: the first pivot must swap rows.
  double a[9] = {0, 1, 3, 2, 1, 0, 1, 0, 1};
  int piv[3];
  ASSERT_TRUE(lu_factor(3, a, piv));
  double b[3] = {5, 3, 4};  // A (1, 2, 1)
  lu_solve(3, a, piv, b);
  EXPECT_NEAR(b[0], 1.0, 1e-15);
  EXPECT_NEAR(b[1], 2.0, 1e-15);
  EXPECT_NEAR(b[2], 1.0, 1e-15);
  double singular[4] = {1, 2, 2, 4};
  EXPECT_FALSE(lu_factor(2, singular, piv));
}

// Van der Pol's oscillator, stiff (eps = 1e-6), with its exact Jacobian (column-major):
// its fast jumps make RODAS4 reject steps.
struct VanDerPol {
  int n = 2;
  static constexpr double eps = 1e-6;
  int f(double, const double* y, double* ydot) const {
    ydot[0] = y[1];
    ydot[1] = ((1.0 - y[0] * y[0]) * y[1] - y[0]) / eps;
    return 0;
  }
  int jacobian(double, const double* y, double* jac) const {
    jac[0] = 0.0, jac[1] = (-2.0 * y[0] * y[1] - 1.0) / eps;
    jac[2] = 1.0, jac[3] = (1.0 - y[0] * y[0]) / eps;
    return 0;
  }
  bool has_jacobian() const { return true; }
  bool autonomous() const { return true; }
};

struct PausedRun {
  Outcome out;
  Counts c;
  double y[2] = {2.0, 0.0};
  int calls = 0;
};

// A Rosenbrock method on the oscillator to t = 2, in calls of at most pause_after
// accepted steps (0: one call).
template <int Method>
PausedRun run_van_der_pol(int64_t pause_after, int64_t max_steps) {
  VanDerPol rhs;
  Settings s;
  const double atol[2] = {1e-8, 1e-8};
  s.atol = atol;
  s.max_steps = max_steps;
  std::vector<double> work(static_cast<size_t>(workspace_size(2, dense_matrix_values(2))));
  int piv[2];
  PausedRun r;
  r.out = integrate_rosenbrock<Method>(rhs, 0.0, 2.0, r.y, 0.0, s, work.data(), piv, r.c, pause_after);
  for (r.calls = 1; r.out.result == kPaused; ++r.calls)
    r.out = integrate_rosenbrock<Method>(rhs, r.out.t, 2.0, r.y, r.out.h_next, s, work.data(), piv, r.c, pause_after, true);
  return r;
}

// The CUDA kernels' rounds rest on this: stopping after any number of accepted steps and
// resuming changes nothing, to the bit, nor the counts, nor where max_steps stops it.
template <int Method>
void expect_pausing_changes_nothing(const char* method) {
  const PausedRun unbounded = run_van_der_pol<Method>(0, 100000);
  ASSERT_EQ(unbounded.out.result, kOk) << method;
  const int64_t half = (unbounded.c.accepted + unbounded.c.rejected) / 2;  // max_steps stops it halfway
  for (int64_t max_steps : {int64_t(100000), half}) {
    const PausedRun whole = run_van_der_pol<Method>(0, max_steps);
    ASSERT_EQ(whole.out.result, max_steps == half ? kTooManySteps : kOk) << method;
    EXPECT_EQ(whole.calls, 1);
    EXPECT_GT(whole.c.rejected, 0) << method << ": the case should exercise rejections";
    for (int64_t pause_after : {1, 2, 3, 7}) {
      const PausedRun paused = run_van_der_pol<Method>(pause_after, max_steps);
      EXPECT_GT(paused.calls, 1);
      EXPECT_EQ(paused.out.result, whole.out.result);
      EXPECT_EQ(paused.out.h_next, whole.out.h_next) << method << ", pause_after " << pause_after;
      for (int i = 0; i < 2; ++i)
        EXPECT_EQ(paused.y[i], whole.y[i]) << method << ", pause_after " << pause_after << ", y" << i;
      EXPECT_EQ(paused.c.accepted, whole.c.accepted);
      EXPECT_EQ(paused.c.rejected, whole.c.rejected);
      EXPECT_EQ(paused.c.rhs, whole.c.rhs);
      EXPECT_EQ(paused.c.jacobian, whole.c.jacobian);
    }
  }
}

TEST(OdeMethods, RosenbrockPausedAndResumedTakesTheSameSteps) {
  expect_pausing_changes_nothing<kRosenbrock>("RODAS4");
  expect_pausing_changes_nothing<kRos3>("ROS3");
}

}  // namespace

// ---- the sparse LU of RODAS on reaction networks ---------------------------------------

// A random n x n matrix with about `per_row` off-diagonal entries per row and a
// dominant diagonal, as its entry list and dense (row-major) values.
struct RandomSparse {
  std::vector<std::pair<int, int>> entries;
  std::vector<double> dense;
};

RandomSparse random_sparse(int n, int per_row, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> pick(0, n - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  RandomSparse m;
  m.dense.assign(static_cast<size_t>(n * n), 0.0);
  for (int i = 0; i < n; ++i) {
    for (int e = 0; e < per_row; ++e) {
      const int j = pick(rng);
      m.entries.emplace_back(i, j);
      m.dense[static_cast<size_t>(i * n + j)] += value(rng);
    }
    m.dense[static_cast<size_t>(i * n + i)] += 2.0 * per_row;
  }
  return m;
}

TEST(SparseLu, SolvesRandomSparseSystemsToRounding) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    const int n = 40;
    const RandomSparse m = random_sparse(n, 3, seed);
    const opsplit::linalg::SparsePattern pattern = opsplit::linalg::analyze_sparse_lu(n, m.entries);
    std::vector<double> v(static_cast<size_t>(pattern.nnz()), 0.0), w(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const double a = m.dense[static_cast<size_t>(i * n + j)];
        if (a == 0.0) continue;
        const int slot = pattern.slot(i, j);
        ASSERT_GE(slot, 0) << "entry (" << i << ", " << j << ") is missing from the pattern";
        v[static_cast<size_t>(slot)] = a;
      }
    ASSERT_TRUE(sparse_lu_factor(pattern.view(), v.data()));
    std::vector<double> b(static_cast<size_t>(n)), x(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) b[static_cast<size_t>(i)] = x[static_cast<size_t>(i)] = std::sin(i + 1.0);
    sparse_lu_solve(pattern.view(), v.data(), x.data(), w.data());
    double residual = 0;
    for (int i = 0; i < n; ++i) {
      double ax = 0;
      for (int j = 0; j < n; ++j) ax += m.dense[static_cast<size_t>(i * n + j)] * x[static_cast<size_t>(j)];
      residual = std::max(residual, std::fabs(ax - b[static_cast<size_t>(i)]));
    }
    EXPECT_LE(residual, 1e-14) << "seed " << seed;
    EXPECT_LT(pattern.nnz(), n * n / 4) << "seed " << seed;
  }
}

TEST(SparseLu, PolluKeeps94EntriesOf400) {
  // The Jacobian entries of POLLU: (every species a reaction changes, each reactant).
  std::vector<std::pair<int, int>> entries;
  for (int r = 0; r < POLLU_NREACTIONS; ++r)
    for (int j : pollu_reactants[r]) {
      if (j < 0) continue;
      for (int i : pollu_reactants[r])
        if (i >= 0) entries.emplace_back(i, j);
      for (int i : pollu_products[r])
        if (i >= 0) entries.emplace_back(i, j);
    }
  const opsplit::linalg::SparsePattern pattern = opsplit::linalg::analyze_sparse_lu(POLLU_NSPECIES, entries);
  // 86 entries with the diagonal; the Markowitz order adds 8 (the natural order would
  // fill to 262).
  EXPECT_EQ(pattern.nnz(), 94);
  std::vector<int> sorted = pattern.order;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < POLLU_NSPECIES; ++i) EXPECT_EQ(sorted[static_cast<size_t>(i)], i);
}

TEST(SparseLu, AZeroPivotIsReported) {
  // [[0, 1], [1, 0]] is regular but has no LU without pivoting.
  const opsplit::linalg::SparsePattern pattern = opsplit::linalg::analyze_sparse_lu(2, {{0, 1}, {1, 0}});
  std::vector<double> v(static_cast<size_t>(pattern.nnz()), 0.0);
  v[static_cast<size_t>(pattern.slot(0, 1))] = 1.0;
  v[static_cast<size_t>(pattern.slot(1, 0))] = 1.0;
  EXPECT_FALSE(sparse_lu_factor(pattern.view(), v.data()));
}
