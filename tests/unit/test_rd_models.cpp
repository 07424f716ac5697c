// Reaction, Cahn-Hilliard, advection and source terms validated against theory:
// linear stability rates computed here for the discrete Laplacian, the conservation
// laws the reactions imply, exact upwind shifts, exact emission budgets, and the
// finiteness check. The backend is OPSPLIT_BACKEND's (cpu in CI, cuda on the GPU).
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

constexpr double kPi = 3.14159265358979323846;

// A no-flux cosine mode on a cell-centred grid: prod_a cos(pi m_a (i_a + 1/2) / n_a),
// an exact eigenvector of both stencils under mirror ghosts.
std::vector<double> cosine_mode(const int64_t n[3], const int m[3]) {
  std::vector<double> v(static_cast<size_t>(n[0] * n[1] * n[2]));
  for (int64_t k = 0; k < n[2]; ++k)
    for (int64_t j = 0; j < n[1]; ++j)
      for (int64_t i = 0; i < n[0]; ++i)
        v[static_cast<size_t>((k * n[1] + j) * n[0] + i)] = std::cos(kPi * m[0] * (i + 0.5) / n[0]) *
                                                            std::cos(kPi * m[1] * (j + 0.5) / n[1]) *
                                                            std::cos(kPi * m[2] * (k + 0.5) / n[2]);
  return v;
}

// The amplitude of `mode` in (values - base), by projection.
template <class T>
double amplitude(const std::vector<T>& values, size_t offset, double base, const std::vector<double>& mode) {
  double num = 0, den = 0;
  for (size_t p = 0; p < mode.size(); ++p) {
    num += (static_cast<double>(values[offset + p]) - base) * mode[p];
    den += mode[p] * mode[p];
  }
  return num / den;
}

// The mode (m_x, m_y, m_z), m_a < limit[a], of largest rate(s), s the stencil's
// eigenvalue for it (computed in the test); returns that rate.
template <class Rate>
double fastest_mode(const int64_t n[3], const int limit[3], int points, const double h[3], Rate rate, int best[3]) {
  double sigma = -1e300;
  for (int mx = 0; mx < limit[0]; ++mx)
    for (int my = 0; my < limit[1]; ++my)
      for (int mz = 0; mz < limit[2]; ++mz) {
        const double theta[3] = {kPi * mx / n[0], kPi * my / n[1], kPi * mz / n[2]};
        const double r = rate(test::stencil_eigenvalue(points, h, theta));
        if (r > sigma) sigma = r, best[0] = mx, best[1] = my, best[2] = mz;
      }
  return sigma;
}

// Uploads c, steps, and returns the growth rate ln(a(t)/a(0))/t of `mode` in the
// component at `offset` of c (around `base`).
template <class T>
double measured_rate(opsplit_field field, opsplit_rd rd, std::vector<T>& c, size_t offset, double base,
                     const std::vector<double>& mode, double dt, int64_t steps) {
  EXPECT_EQ(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
  const double a0 = amplitude(c, offset, base, mode);
  EXPECT_EQ(opsplit_rd_step(rd, field, dt, steps), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
  return std::log(amplitude(c, offset, base, mode) / a0) / (steps * dt);
}

// ---- Turing ------------------------------------------------------------------------
struct Turing {
  double d1 = 5e-5, d2 = 5e-3, h = 6.2e-3, alpha = 0.5, beta = 0.09, gamma = 26.0;  // seed 000 Table 1
  // The homogeneous steady state: c2 = (c1 - beta)/alpha, c1 - c1^3 - c2 = 0 (Newton).
  double c1() const {
    double x = 0.2;
    for (int it = 0; it < 60; ++it) {
      const double f = x - x * x * x - (x - beta) / alpha, df = 1 - 3 * x * x - 1 / alpha;
      x -= f / df;
    }
    return x;
  }
  double c2() const { return (c1() - beta) / alpha; }
  // The growth rate of a mode with stencil eigenvalue s: the larger eigenvalue of
  // J + s diag(D1, D2), J the reaction Jacobian at the steady state.
  double rate(double s, double* v2) const {
    const double a11 = 1 - 3 * c1() * c1() + d1 * s, a12 = -1, a21 = gamma, a22 = -gamma * alpha + d2 * s;
    const double tr = a11 + a22, det = a11 * a22 - a12 * a21;
    const double sigma = (tr + std::sqrt(tr * tr - 4 * det)) / 2;
    *v2 = a11 - sigma;  // eigenvector (1, v2): (a11 - sigma) - v2 = 0
    return sigma;
  }
};

template <class T>
void turing_mode_grows_at_the_linear_rate(int points) {
  const Turing tu;
  test::Context ctx;
  const int64_t n[3] = {32, 32, 16};
  test::Field field(ctx, n[0], n[1], n[2], 2, test::precision_of<T>());
  OPSPLIT_OK(opsplit_field_set_spacing(field, tu.h, tu.h, tu.h));
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  OPSPLIT_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, tu.d1));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 1, tu.d2));
  // The fastest-growing mode of the grid.
  const double hh[3] = {tu.h, tu.h, tu.h};
  const int limit[3] = {12, 12, 6};
  int best[3] = {0, 0, 0};
  const double sigma = fastest_mode(n, limit, points, hh, [&](double s) { double w; return tu.rate(s, &w); }, best);
  double v2 = 0;  // the fastest mode's eigenvector (1, v2)
  const double best_theta[3] = {kPi * best[0] / n[0], kPi * best[1] / n[1], kPi * best[2] / n[2]};
  tu.rate(test::stencil_eigenvalue(points, hh, best_theta), &v2);
  ASSERT_GT(sigma, 0.0) << "the seed's parameters have a Turing-unstable band";
  ASSERT_GT(best[0] + best[1] + best[2], 0);
  const std::vector<double> mode = cosine_mode(n, best);
  const size_t cells = mode.size();
  // FLOAT32: the mode's growth per step, dt sigma eps, must stand well above the
  // rounding of c1 ~ 0.17 (ulp 1.5e-8), or the rounding of the smooth pattern biases it:
  // eps = 2e-2 gives 3.7e-7 per step. The cubic term then shifts the rate by ~(3/4)
  // eps^2 relative, 3e-4: inside the 1 % the issue asks.
  const double eps = sizeof(T) == 8 ? 1e-6 : 2e-2, c1 = tu.c1(), c2 = tu.c2();
  std::vector<T> c(2 * cells);
  for (size_t p = 0; p < cells; ++p) {
    c[p] = static_cast<T>(c1 + eps * mode[p]);
    c[cells + p] = static_cast<T>(c2 + eps * v2 * mode[p]);
  }
  const double measured = measured_rate(field, rd, c, 0, c1, mode, 1e-3, 3000);
  EXPECT_NEAR(measured, sigma, 0.01 * sigma) << "mode (" << best[0] << "," << best[1] << "," << best[2] << ")";
}

TEST(Turing, ModeGrowsAtTheLinearRate7PointDouble) { turing_mode_grows_at_the_linear_rate<double>(7); }
TEST(Turing, ModeGrowsAtTheLinearRate19PointDouble) { turing_mode_grows_at_the_linear_rate<double>(19); }
TEST(Turing, ModeGrowsAtTheLinearRate7PointFloat) { turing_mode_grows_at_the_linear_rate<float>(7); }
TEST(Turing, ModeGrowsAtTheLinearRate19PointFloat) { turing_mode_grows_at_the_linear_rate<float>(19); }

TEST(Turing, HomogeneousSteadyStateIsStationary) {
  const Turing tu;
  test::Context ctx;
  test::Field field(ctx, 12, 10, 8, 2);
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 0.1));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 1, 0.2));
  std::vector<double> c(2 * 960);
  std::fill(c.begin(), c.begin() + 960, tu.c1());
  std::fill(c.begin() + 960, c.end(), tu.c2());
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.01, 500));
  std::vector<double> out(c.size());
  OPSPLIT_OK(opsplit_field_download(field, out.data(), OPSPLIT_LAYOUT_PLANAR));
  // The rates at the state vanish up to rounding (~1e-17); the state is linearly stable
  // to uniform perturbations, so drift stays at that level.
  for (size_t p = 0; p < out.size(); ++p) ASSERT_NEAR(out[p], c[p], 1e-14) << p;
}

// ---- Cahn-Hilliard -------------------------------------------------------------------
template <class T>
void cahn_hilliard_mode_grows_at_the_linear_rate(int points) {
  test::Context ctx;
  const int64_t n[3] = {32, 24, 16};
  const double m = 1.0, b = 1.0, u = 1.0, kappa = 1.0, phi0 = 0.1;
  test::Field field(ctx, n[0], n[1], n[2], 1, test::precision_of<T>());
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  OPSPLIT_OK(opsplit_rd_set_cahn_hilliard(rd, 0, m, b, u, kappa));
  const double hh[3] = {1, 1, 1};
  const int limit[3] = {12, 12, 8};
  int best[3] = {0, 0, 0};
  const double sigma = fastest_mode(n, limit, points, hh, [&](double s) {
    const double k2 = -s;  // the discrete k^2
    return m * k2 * ((b - 3 * u * phi0 * phi0) - kappa * k2);
  }, best);
  ASSERT_GT(sigma, 0.0);
  const std::vector<double> mode = cosine_mode(n, best);
  // FLOAT32: growth per step dt sigma eps = 9.4e-7 against the ulp 7.5e-9 of phi0 (see Turing).
  const double eps = sizeof(T) == 8 ? 1e-7 : 2e-3;
  std::vector<T> c(mode.size());
  for (size_t p = 0; p < c.size(); ++p) c[p] = static_cast<T>(phi0 + eps * mode[p]);
  const double measured = measured_rate(field, rd, c, 0, phi0, mode, 0.002, 1000);
  EXPECT_NEAR(measured, sigma, 0.01 * sigma) << "mode (" << best[0] << "," << best[1] << "," << best[2] << ")";
}

TEST(CahnHilliard, ModeGrowsAtTheLinearRate7PointDouble) { cahn_hilliard_mode_grows_at_the_linear_rate<double>(7); }
TEST(CahnHilliard, ModeGrowsAtTheLinearRate19PointDouble) { cahn_hilliard_mode_grows_at_the_linear_rate<double>(19); }
TEST(CahnHilliard, ModeGrowsAtTheLinearRate7PointFloat) { cahn_hilliard_mode_grows_at_the_linear_rate<float>(7); }
TEST(CahnHilliard, ModeGrowsAtTheLinearRate19PointFloat) { cahn_hilliard_mode_grows_at_the_linear_rate<float>(19); }

// Spinodal decomposition from noise: the mass stays, the free energy never rises.
void cahn_hilliard_conserves_mass_and_lowers_energy(int points, opsplit_bc bc) {
  test::Context ctx;
  const int64_t nx = 24, ny = 20, nz = 12;
  test::Field field(ctx, nx, ny, nz, 1);
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  OPSPLIT_OK(opsplit_rd_set_cahn_hilliard(rd, 0, 1.0, 1.0, 1.0, 1.0));
  rd.boundary_all(0, bc);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> noise(-0.1, 0.1);
  std::vector<double> c(static_cast<size_t>(nx * ny * nz));
  for (double& v : c) v = 0.05 + noise(gen);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double mass0, energy;
  OPSPLIT_OK(opsplit_field_component_sum(field, 0, &mass0));
  OPSPLIT_OK(opsplit_rd_free_energy(rd, field, 0, &energy));
  double dt;
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  dt *= 0.5;
  const double energy0 = energy;
  for (int call = 0; call < 40; ++call) {
    OPSPLIT_OK(opsplit_rd_step(rd, field, dt, 25));
    double mass, e;
    OPSPLIT_OK(opsplit_field_component_sum(field, 0, &mass));
    OPSPLIT_OK(opsplit_rd_free_energy(rd, field, 0, &e));
    // Rounding: each of the 5760 cells moves ~1e-16 per step, in both directions.
    ASSERT_NEAR(mass, mass0, 1e-10) << "after " << 25 * (call + 1) << " steps";
    ASSERT_LE(e, energy * (1 + 1e-12) + 1e-12) << "after " << 25 * (call + 1) << " steps";
    energy = e;
  }
  EXPECT_LT(energy, energy0 - 0.1 * std::fabs(energy0)) << "the phases separated";
}

TEST(CahnHilliard, ConservesMassAndLowersEnergy7PointNoFlux) {
  cahn_hilliard_conserves_mass_and_lowers_energy(7, OPSPLIT_BC_NOFLUX);
}
TEST(CahnHilliard, ConservesMassAndLowersEnergy19PointPeriodic) {
  cahn_hilliard_conserves_mass_and_lowers_energy(19, OPSPLIT_BC_PERIODIC);
}

TEST(CahnHilliard, FreeEnergyOfKnownStates) {
  test::Context ctx;
  const int64_t n = 40;
  const double h = 0.5, b = 1.3, u = 0.7, kappa = 2.0, phi0 = 0.4, amp = 0.2;
  test::Field field(ctx, n, 1, 1, 1);
  OPSPLIT_OK(opsplit_field_set_spacing(field, h, 1, 1));
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_cahn_hilliard(rd, 0, 1.0, b, u, kappa));
  rd.boundary_all(0, OPSPLIT_BC_PERIODIC);
  // Uniform: n h (-b/2 phi0^2 + u/4 phi0^4).
  std::vector<double> c(n, phi0);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double e;
  OPSPLIT_OK(opsplit_rd_free_energy(rd, field, 0, &e));
  EXPECT_NEAR(e, n * h * (-b / 2 * phi0 * phi0 + u / 4 * std::pow(phi0, 4)), 1e-13);
  // A periodic mode amp cos(k x): the gradient term is kappa/2 * q * sum c'^2 with
  // q = (4/h^2) sin^2(theta/2), and the bulk terms summed directly.
  const double theta = 2 * kPi * 3 / n, q = 4 / (h * h) * std::pow(std::sin(theta / 2), 2);
  double expected = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double d = amp * std::cos(theta * i);
    c[static_cast<size_t>(i)] = phi0 + d;
    expected += h * (-b / 2 * c[i] * c[i] + u / 4 * std::pow(c[i], 4) + kappa / 2 * q * d * d);
  }
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_free_energy(rd, field, 0, &e));
  EXPECT_NEAR(e, expected, 1e-12);
}

// ---- Gray-Scott and PRECIPITATION: conservation laws of the reactions -----------------
TEST(GrayScott, SumChangesByFeedAndKillExactly) {
  test::Context ctx;
  const int64_t nx = 20, ny = 16, nz = 6;
  const size_t cells = nx * ny * nz;
  test::Field field(ctx, nx, ny, nz, 2);
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_GRAY_SCOTT));
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 0.2));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 1, 0.1));
  double F, k;
  OPSPLIT_OK(opsplit_rd_get_reaction_parameter(rd, "F", &F));
  OPSPLIT_OK(opsplit_rd_get_reaction_parameter(rd, "k", &k));
  EXPECT_EQ(F, 0.04);
  EXPECT_EQ(k, 0.06);
  std::mt19937_64 gen(3);
  std::uniform_real_distribution<double> r(0.0, 1.0);
  std::vector<double> c(2 * cells);
  for (double& v : c) v = r(gen);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  const double dt = 0.5;
  for (int step = 0; step < 20; ++step) {
    // sum(u + v) gains dt * sum(F (1 - u) - (F + k) v): diffusion moves mass only
    // between cells, and u v^2 moves it from u to v.
    double expected = 0, before = 0;
    for (size_t p = 0; p < cells; ++p) {
      before += c[p] + c[cells + p];
      expected += dt * (F * (1 - c[p]) - (F + k) * c[cells + p]);
    }
    OPSPLIT_OK(opsplit_rd_step(rd, field, dt, 1));
    OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
    double after = 0;
    for (size_t p = 0; p < cells; ++p) after += c[p] + c[cells + p];
    ASSERT_NEAR(after - before, expected, 1e-11) << "step " << step;
  }
}

TEST(Precipitation, ConservesTheReactionInvariant) {
  test::Context ctx;
  const int64_t nx = 24, ny = 12, nz = 10;
  const size_t cells = nx * ny * nz;
  test::Field field(ctx, nx, ny, nz, 3);
  test::Rd rd(ctx, 3);
  OPSPLIT_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_PRECIPITATION));
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 1, 1.0));
  double lambda;
  OPSPLIT_OK(opsplit_rd_get_reaction_parameter(rd, "lambda", &lambda));
  EXPECT_EQ(lambda, 1.0);
  OPSPLIT_OK(opsplit_rd_set_reaction_parameter(rd, "k2", 0.05));  // a sink large enough to matter
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> r(0.0, 1.0);
  std::vector<double> c(3 * cells);
  for (size_t p = 0; p < cells; ++p) c[p] = 2 * r(gen), c[cells + p] = r(gen), c[2 * cells + p] = r(gen) - 0.5;
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  // Every reaction leaves c0 - 2 c1 - c2 unchanged; diffusion and Cahn-Hilliard move
  // mass only between cells (no-flux faces).
  auto invariant = [&] {
    double s[3];
    for (int k = 0; k < 3; ++k) EXPECT_EQ(opsplit_field_component_sum(field, k, &s[k]), OPSPLIT_SUCCESS);
    return std::make_pair(s[0] - 2 * s[1] - s[2], s[1]);
  };
  const auto [i0, b0] = invariant();
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.02, 200));
  const auto [i1, b1] = invariant();
  // Rounding: ~1e-16 per cell and step, 2880 cells x 200 steps in a random walk: ~1e-13.
  EXPECT_NEAR(i1, i0, 1e-11);
  EXPECT_LT(b1, b0 - 0.01 * b0) << "B was consumed: the reactions ran";
}

// ---- advection and sources ---------------------------------------------------------------
TEST(Advection, CourantOneIsAnExactShift) {
  test::Context ctx;
  for (int axis = 0; axis < 3; ++axis) {
    int64_t n[3] = {6, 5, 4};
    n[axis] = 24;
    const size_t cells = static_cast<size_t>(n[0] * n[1] * n[2]);
    test::Field field(ctx, n[0], n[1], n[2], 1);
    OPSPLIT_OK(opsplit_field_set_spacing(field, 2.0, 2.0, 2.0));
    test::Rd rd(ctx, 1);
    rd.boundary_all(0, OPSPLIT_BC_PERIODIC);
    OPSPLIT_OK(opsplit_rd_set_velocity(rd, axis, -0.5, 0.0, 0.0, 0.0));  // dt u / h = -1
    std::vector<double> c(cells);
    for (size_t p = 0; p < cells; ++p) c[p] = std::sin(0.7 * p) + 1.5;  // values of one binade range
    OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
    const int64_t steps = 7;
    OPSPLIT_OK(opsplit_rd_step(rd, field, 4.0, steps));
    std::vector<double> out(cells);
    OPSPLIT_OK(opsplit_field_download(field, out.data(), OPSPLIT_LAYOUT_PLANAR));
    const int64_t stride = axis == 0 ? 1 : axis == 1 ? n[0] : n[0] * n[1];
    for (int64_t k = 0; k < n[2]; ++k)
      for (int64_t j = 0; j < n[1]; ++j)
        for (int64_t i = 0; i < n[0]; ++i) {
          const int64_t at[3] = {i, j, k};
          const int64_t from = (at[axis] + steps) % n[axis];  // u < 0: content moves to lower indices
          const int64_t p = (k * n[1] + j) * n[0] + i;
          // c - (c - hi) rounds twice per step when it is not exact: 7 steps x 2 ulp of 2.5.
          ASSERT_NEAR(out[p], c[p + (from - at[axis]) * stride], 7 * 2 * 4.5e-16) << "axis " << axis << " cell " << p;
        }
  }
}

TEST(Advection, ConstantFieldStaysConstantUnderAnyDivergenceFreeVelocity) {
  test::Context ctx;
  const int64_t nx = 16, ny = 12, nz = 8;
  test::Field field(ctx, nx, ny, nz, 1);
  OPSPLIT_OK(opsplit_field_set_spacing(field, 1.0, 0.8, 1.2));
  test::Field wind(ctx, nx, ny, nz, 3);
  // u_x varies with y only, u_y with x only, u_z with x and y: every face velocity is the
  // same along its own axis, so the discrete divergence is zero.
  std::vector<double> w(static_cast<size_t>(3 * nx * ny * nz));
  for (int64_t k = 0; k < nz; ++k)
    for (int64_t j = 0; j < ny; ++j)
      for (int64_t i = 0; i < nx; ++i) {
        const size_t p = static_cast<size_t>((k * ny + j) * nx + i), cells = w.size() / 3;
        w[p] = 0.3 * std::sin(2 * kPi * j / ny);
        w[cells + p] = -0.2 * std::cos(2 * kPi * i / nx);
        w[2 * cells + p] = 0.1 * std::sin(2 * kPi * (i + j) / nx);
      }
  OPSPLIT_OK(opsplit_field_upload(wind, w.data(), OPSPLIT_LAYOUT_PLANAR));
  test::Rd rd(ctx, 1);
  rd.boundary_all(0, OPSPLIT_BC_PERIODIC);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 0.05));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 0, 0.2, 0.1, 0.3, 0.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 2, -0.1, 0.25, 1.0, 0.5));
  OPSPLIT_OK(opsplit_rd_set_velocity_field(rd, wind));
  std::vector<double> c(static_cast<size_t>(nx * ny * nz), 2.75);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double dt;
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, 100));
  double lo, hi;
  OPSPLIT_OK(opsplit_field_component_min_max(field, 0, &lo, &hi));
  // Each step's flux differences cancel to rounding: a few ulp of 2.75 per step.
  EXPECT_NEAR(lo, 2.75, 100 * 4 * 4.5e-16);
  EXPECT_NEAR(hi, 2.75, 100 * 4 * 4.5e-16);
}

TEST(Advection, MassGrowsByTheEmissionExactly) {
  test::Context ctx;
  const int64_t nx = 20, ny = 16, nz = 12;
  const double h = 100.0, dt = 5.0, emission = 10.0;  // seed 000 Table 1's plume
  test::Field field(ctx, nx, ny, nz, 1);
  OPSPLIT_OK(opsplit_field_set_spacing(field, h, h, h));
  test::Rd rd(ctx, 1);
  rd.boundary_all(0, OPSPLIT_BC_PERIODIC);  // nothing leaves
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 100.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 0, 5.0, 0.0, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 1, 1.0, 0.0, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 2, 0.0, 5.0, 1.0 / 500.0, 0.0));
  OPSPLIT_OK(opsplit_rd_add_source(rd, 0, 5, 8, 3, emission / 2));
  OPSPLIT_OK(opsplit_rd_add_source(rd, 0, 5, 8, 3, emission / 2));  // repeats add up
  const int64_t steps = 300;
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  double sum, t;
  OPSPLIT_OK(opsplit_field_component_sum(field, 0, &sum));
  OPSPLIT_OK(opsplit_rd_get_time(rd, &t));
  EXPECT_DOUBLE_EQ(t, steps * dt);
  // Mass = sum * cell volume; it grows by E t (cell volume), so sum grows by E t.
  EXPECT_NEAR(sum, emission * steps * dt, 1e-12 * emission * steps * dt);
  double lo, hi;
  OPSPLIT_OK(opsplit_field_component_min_max(field, 0, &lo, &hi));
  EXPECT_GE(lo, 0.0) << "upwind within its limit keeps the plume positive";
  EXPECT_GT(hi, 0.0);
}

// ---- retardation and mobility -----------------------------------------------------------
// A component with retardation factor R under (D, u) and one with R = 1 under (D/R, u/R)
// are the same equation. With R = 2 every scaled quantity differs by an exact power of
// two (D dt / R and the Courant numbers), so the two runs give the same bits; on a
// uniform velocity and on a per-cell wind (the flux form), for 7 and 19 points.
std::vector<double> run_retarded(double retardation, double scale, bool wind_field, int points) {
  auto EXPECT_OK = [](opsplit_status s) { EXPECT_EQ(s, OPSPLIT_SUCCESS) << opsplit_last_error_message(); };
  test::Context ctx;
  const int64_t nx = 24, ny = 6, nz = 5;
  const size_t cells = static_cast<size_t>(nx * ny * nz);
  test::Field field(ctx, nx, ny, nz, 2);
  test::Field wind(ctx, nx, ny, nz, 3);
  test::Rd rd(ctx, 2);
  EXPECT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  EXPECT_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, 1.0));
  EXPECT_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 1, OPSPLIT_BC_DIRICHLET, 1.0));
  for (int c = 0; c < 2; ++c) EXPECT_OK(opsplit_rd_set_diffusion(rd, c, 0.2 * scale));
  EXPECT_OK(opsplit_rd_set_retardation(rd, 0, retardation));
  EXPECT_OK(opsplit_rd_set_linear(rd, 0, -0.01, 0.0));
  if (wind_field) {
    std::vector<double> w(3 * cells);
    for (size_t p = 0; p < cells; ++p) w[p] = scale * (0.25 + 0.05 * std::sin(0.3 * static_cast<double>(p)));
    EXPECT_OK(opsplit_field_upload(wind, w.data(), OPSPLIT_LAYOUT_PLANAR));
    EXPECT_OK(opsplit_rd_set_velocity_field(rd, wind));
  } else {
    EXPECT_OK(opsplit_rd_set_velocity(rd, 0, 0.5 * scale, 0.0, 0.0, 0.0));
  }
  std::vector<double> c(2 * cells);
  for (size_t p = 0; p < c.size(); ++p) c[p] = 0.5 + 0.25 * std::cos(0.11 * static_cast<double>(p));
  EXPECT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  EXPECT_OK(opsplit_rd_step(rd, field, 0.5, 30));
  EXPECT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  return std::vector<double>(c.begin(), c.begin() + static_cast<long>(cells));  // component 0
}

TEST(Retardation, IsTransportDividedByR) {
  for (int points : {7, 19})
    for (bool wind : {false, true}) {
      const auto retarded = run_retarded(2.0, 1.0, wind, points);
      EXPECT_EQ(retarded, run_retarded(1.0, 0.5, wind, points)) << points << "-point, wind field " << wind;
      // ... and the factor acts: the unretarded front is elsewhere.
      EXPECT_GT(test::relative_error(retarded, run_retarded(1.0, 1.0, wind, points)), 1e-3);
    }
}

TEST(Retardation, ImmobileComponentOnlyReacts) {
  // Component 1 immobile under diffusion and a uniform wind: each cell follows its own
  // Euler recurrence v + dt rate v exactly (its transport terms are multiplied by 0);
  // component 0, mobile, moves.
  test::Context ctx;
  const int64_t nx = 16, ny = 4, nz = 3;
  const size_t cells = static_cast<size_t>(nx * ny * nz);
  test::Field field(ctx, nx, ny, nz, 2);
  test::Rd rd(ctx, 2);
  for (int c = 0; c < 2; ++c) OPSPLIT_OK(opsplit_rd_set_diffusion(rd, c, 0.3));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 0, 0.4, 0.0, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 1, -0.2, 0.0, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_set_mobile(rd, 1, 0));
  OPSPLIT_OK(opsplit_rd_set_linear(rd, 1, -0.5, 0.0));
  std::vector<double> c(2 * cells);
  for (size_t p = 0; p < c.size(); ++p) c[p] = 1.0 + std::sin(0.37 * static_cast<double>(p));
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  const double dt = 0.1;
  const int steps = 12;
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  std::vector<double> out(c.size());
  OPSPLIT_OK(opsplit_field_download(field, out.data(), OPSPLIT_LAYOUT_PLANAR));
  for (size_t p = 0; p < cells; ++p) {
    double v = c[cells + p];
    for (int s = 0; s < steps; ++s) v = v + (-0.5 * dt) * v;
    // The kernel may fuse the multiply-add: a rounding of the increment a step, ~2e-16 each.
    ASSERT_NEAR(out[cells + p], v, 1e-14) << "cell " << p;
  }
  EXPECT_GT(test::relative_error(std::vector<double>(out.begin(), out.begin() + static_cast<long>(cells)),
                                 std::vector<double>(c.begin(), c.begin() + static_cast<long>(cells))),
            1e-2)
      << "the mobile component moved";
  OPSPLIT_OK(opsplit_rd_set_mobile(rd, 1, 1));  // and back: it moves again
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, 1));
  OPSPLIT_OK(opsplit_field_download(field, out.data(), OPSPLIT_LAYOUT_PLANAR));
  EXPECT_GT(std::fabs(out[cells + 5] - (c[cells + 5] - 0.5 * dt * c[cells + 5])), 1e-6);
}

TEST(Retardation, StableLimitScalesWithIt) {
  test::Context ctx;
  test::Field field(ctx, 10, 10, 10, 2);
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 0, 3.0, 0.0, 0.0, 0.0));
  for (int c = 0; c < 2; ++c) OPSPLIT_OK(opsplit_rd_set_diffusion(rd, c, 0.5));
  double dt1, dt2;
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt1));
  OPSPLIT_OK(opsplit_rd_set_retardation(rd, 0, 4.0));
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt2));
  EXPECT_DOUBLE_EQ(dt2, dt1) << "component 1 still moves at full speed";
  OPSPLIT_OK(opsplit_rd_set_mobile(rd, 1, 0));
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt2));
  EXPECT_DOUBLE_EQ(dt2, 4.0 * dt1);
  OPSPLIT_OK(opsplit_rd_set_mobile(rd, 0, 0));
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt2));
  EXPECT_EQ(dt2, std::numeric_limits<double>::infinity()) << "nothing moves";
  OPSPLIT_OK(opsplit_rd_set_mobile(rd, 0, 1));
  OPSPLIT_OK(opsplit_rd_set_retardation(rd, 0, 0.5));  // R < 1 (anion exclusion) moves faster
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt2));
  EXPECT_DOUBLE_EQ(dt2, 0.5 * dt1);
}

TEST(Advection, StableLimitIncludesTheCourantCondition) {
  test::Context ctx;
  test::Field field(ctx, 10, 10, 10, 1);
  OPSPLIT_OK(opsplit_field_set_spacing(field, 2.0, 4.0, 1.0));
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 0, 3.0, 0.0, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 2, -1.0, 0.5, 2.0, 0.0));
  double dt;
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  EXPECT_DOUBLE_EQ(dt, 1.0 / (3.0 / 2.0 + 1.5 / 1.0));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 0.5));  // 7-point: D rho / 2 = D * 2 sum 1/h^2
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  EXPECT_DOUBLE_EQ(dt, 1.0 / (0.5 * 2 * (0.25 + 0.0625 + 1.0) + 3.0 / 2.0 + 1.5 / 1.0));
  EXPECT_EQ(opsplit_rd_step(rd, field, dt * 1.0001, 1), OPSPLIT_ERROR_INVALID_ARGUMENT);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("with this velocity"), std::string::npos);
}

// ---- the same model through each loop ----------------------------------------------------
// The CPU row loop is compiled per set of transport terms (none, a uniform velocity, or
// read from flags: a per-cell wind or a Cahn-Hilliard component). A wind field of zeros
// adds exactly nothing, so the same model with and without it runs the two loops.
template <class T>
void step_with_zero_wind(bool zero_wind, int kind, double uniform_u, int points, std::vector<T>& c) {
  test::Context ctx;
  const int64_t n[3] = {21, 18, 13};
  const int ncomp = kind == OPSPLIT_REACTION_TURING ? 2 : 1;
  const size_t cells = static_cast<size_t>(n[0] * n[1] * n[2]);
  test::Field field(ctx, n[0], n[1], n[2], ncomp, test::precision_of<T>());
  test::Field wind(ctx, n[0], n[1], n[2], 3, test::precision_of<T>());
  test::Rd rd(ctx, ncomp);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  OPSPLIT_OK(opsplit_rd_set_reaction(rd, static_cast<opsplit_reaction>(kind)));
  for (int c = 0; c < ncomp; ++c) {
    OPSPLIT_OK(opsplit_rd_set_diffusion(rd, c, 0.05 * (c + 1)));
    rd.boundary_all(c, c == 0 ? OPSPLIT_BC_PERIODIC : OPSPLIT_BC_NOFLUX);
  }
  OPSPLIT_OK(opsplit_rd_set_linear(rd, ncomp - 1, -0.1, 0.05));
  if (uniform_u != 0.0) {
    OPSPLIT_OK(opsplit_rd_set_velocity(rd, 0, uniform_u, 0.0, 0.0, 0.0));
    OPSPLIT_OK(opsplit_rd_set_velocity(rd, 2, 0.0, -uniform_u, 0.5, 0.0));
  }
  if (zero_wind) {
    const std::vector<T> zeros(3 * cells, T(0));
    OPSPLIT_OK(opsplit_field_upload(wind, zeros.data(), OPSPLIT_LAYOUT_PLANAR));
    OPSPLIT_OK(opsplit_rd_set_velocity_field(rd, wind));
  }
  c.resize(ncomp * cells);
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  for (auto& v : c) v = static_cast<T>(u(gen));
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.02, 25));
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
}

template <class T>
std::vector<T> run_with_zero_wind(bool zero_wind, int kind, double uniform_u, int points) {
  std::vector<T> c;
  step_with_zero_wind(zero_wind, kind, uniform_u, points, c);
  return c;
}

TEST(Loops, WithoutTransportEveryLoopGivesTheSameBits) {
  for (int points : {7, 19}) {
    EXPECT_EQ(run_with_zero_wind<double>(false, OPSPLIT_REACTION_TURING, 0.0, points),
              run_with_zero_wind<double>(true, OPSPLIT_REACTION_TURING, 0.0, points));
    EXPECT_EQ(run_with_zero_wind<float>(false, OPSPLIT_REACTION_LINEAR, 0.0, points),
              run_with_zero_wind<float>(true, OPSPLIT_REACTION_LINEAR, 0.0, points));
  }
}

TEST(Loops, UniformVelocityAgreesWithTheFluxForm) {
  // The stencil form s+ (lo - c) + s- (hi - c) and the flux form -(s c - s lo) round
  // differently, but only in the last bits of the advective increment (Courant 0.008:
  // about 1 % of the values), so the new values differ by at most about one rounding
  // per step: 25 steps x 2^-52 x 1.5 (the largest value) = 8e-15. Measured: 4e-16.
  for (int points : {7, 19}) {
    const auto stencil = run_with_zero_wind<double>(false, OPSPLIT_REACTION_TURING, 0.4, points);
    const auto flux = run_with_zero_wind<double>(true, OPSPLIT_REACTION_TURING, 0.4, points);
    EXPECT_LE(test::relative_error(stencil, flux), 1e-14) << points << "-point";
    EXPECT_NE(stencil, run_with_zero_wind<double>(false, OPSPLIT_REACTION_TURING, 0.0, points))
        << "the velocity must change the result";
  }
}

// ---- linear terms -------------------------------------------------------------------------
TEST(Linear, DecayAndSourceFollowTheirEulerRecurrence) {
  test::Context ctx;
  test::Field field(ctx, 8, 6, 1, 2);
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 0.3));
  OPSPLIT_OK(opsplit_rd_set_linear(rd, 0, -0.5, 0.0));
  OPSPLIT_OK(opsplit_rd_set_linear(rd, 1, 0.0, 2.0));
  std::vector<double> c(96, 1.0);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.1, 10));
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  for (int p = 0; p < 48; ++p) {
    EXPECT_NEAR(c[p], std::pow(1 - 0.05, 10), 1e-14);  // uniform: diffusion does nothing
    EXPECT_NEAR(c[48 + p], 1.0 + 10 * 0.1 * 2.0, 1e-14);
  }
}

// ---- the finiteness check ---------------------------------------------------------------
template <class T>
void step_that_overflows_fails_and_keeps_the_state_before_it(bool fused) {
  test::Context ctx;
  const int64_t n[3] = {9, 7, 5};
  const size_t cells = 9 * 7 * 5;
  test::Field field(ctx, n[0], n[1], n[2], 2, test::precision_of<T>());
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 0.01));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 1, fused ? 0.0 : 0.01));  // fused: the cell grows alone
  std::vector<T> c(2 * cells, T(1));
  const T big = sizeof(T) == 8 ? T(1e300) : T(1e30);
  const T huge = std::numeric_limits<T>::max() * T(0.75);  // the difference of +-huge overflows
  c[cells + (3 * 7 + 4) * 9 + 6] = big;  // component 1, cell (6, 4, 3)
  if (fused) {
    OPSPLIT_OK(opsplit_rd_set_linear(rd, 1, 10.0, 0.0));  // x11 per step of 1
  } else {
    // Pure diffusion: an alternating pair of huge values overflows their difference.
    c[cells + (3 * 7 + 4) * 9 + 5] = -huge;
    c[cells + (3 * 7 + 4) * 9 + 6] = huge;
  }
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_set_time(rd, 2.0));
  // Fused: big * 11^s overflows at the first s with big * 11^s > max.
  int64_t fail_step = 1;
  T expect = c[cells + (3 * 7 + 4) * 9 + 6];
  if (fused) {
    T v = big;
    while (true) {
      const T next = v + T(10) * v;  // the model's c + rate*dt*c with dt = 1
      if (!std::isfinite(next)) break;
      v = next;
      ++fail_step;
    }
    expect = v;
  }
  const opsplit_status s = opsplit_rd_step(rd, field, 1.0, 40);
  ASSERT_EQ(s, OPSPLIT_ERROR_NUMERICAL);
  const std::string msg = opsplit_last_error_message();
  EXPECT_NE(msg.find("step " + std::to_string(fail_step) + " of 40"), std::string::npos) << msg;
  EXPECT_NE(msg.find("component 1 at cell (" + std::string(fused ? "6" : "5") + ", 4, 3)"), std::string::npos) << msg;
  double t;
  OPSPLIT_OK(opsplit_rd_get_time(rd, &t));
  EXPECT_DOUBLE_EQ(t, 2.0 + (fail_step - 1));
  std::vector<T> out(c.size());
  OPSPLIT_OK(opsplit_field_download(field, out.data(), OPSPLIT_LAYOUT_PLANAR));
  if (fused) {
    EXPECT_EQ(out[cells + (3 * 7 + 4) * 9 + 6], expect);
  } else {
    EXPECT_EQ(out, c) << "the state before step 1 is the initial one";
  }
  // The objects stay usable.
  c.assign(c.size(), T(1));
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_set_linear(rd, 1, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_step(rd, field, 1.0, 3));
}

TEST(Finiteness, FusedStepFailsAndKeepsTheStateBeforeItDouble) {
  step_that_overflows_fails_and_keeps_the_state_before_it<double>(true);
}
TEST(Finiteness, FusedStepFailsAndKeepsTheStateBeforeItFloat) {
  step_that_overflows_fails_and_keeps_the_state_before_it<float>(true);
}
TEST(Finiteness, DiffusionStepFailsAndKeepsTheStateBeforeItFloat) {
  step_that_overflows_fails_and_keeps_the_state_before_it<float>(false);
}

TEST(Diagnostics, MinMaxAndNaN) {
  test::Context ctx;
  test::Field field(ctx, 5, 4, 3, 2);
  std::vector<double> c(120);
  for (size_t p = 0; p < c.size(); ++p) c[p] = std::sin(1.0 + p);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double lo, hi;
  OPSPLIT_OK(opsplit_field_component_min_max(field, 1, &lo, &hi));
  EXPECT_EQ(lo, *std::min_element(c.begin() + 60, c.end()));
  EXPECT_EQ(hi, *std::max_element(c.begin() + 60, c.end()));
  c[77] = std::nan("");
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_field_component_min_max(field, 1, &lo, &hi));
  EXPECT_TRUE(std::isnan(lo) && std::isnan(hi));
  OPSPLIT_OK(opsplit_field_component_min_max(field, 0, &lo, &hi));
  EXPECT_FALSE(std::isnan(lo) || std::isnan(hi));
}

}  // namespace
