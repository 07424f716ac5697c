// The four problems of seed 000 (Molnar et al. 2011, Table 1) at their parameters, as
// short runs checked against exact discrete identities or an independent serial
// reference written here. The long runs are the examples (examples/seed_*.c).
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "helpers.hpp"

namespace {

// Diffusion: D = 1, h = 1, dt = 0.02, c = 1 inside a sphere of radius 20 in the middle,
// no-flux. Mass is conserved; while nothing reaches a face, the second moment about
// the centre grows by exactly 2 D dt M per axis and step (the stencils' second moment);
// the field stays mirror-symmetric bit for bit (the stencil sums are symmetric).
TEST(SeedProblems, DiffusionSphere) {
  test::Context ctx;
  const int64_t n = 64;
  const double D = 1.0, dt = 0.02, centre = (n - 1) / 2.0;
  test::Field field(ctx, n, n, n, 1);
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, D));
  std::vector<double> c(static_cast<size_t>(n * n * n));
  auto r2 = [&](int64_t i, int64_t j, int64_t k) {
    return (i - centre) * (i - centre) + (j - centre) * (j - centre) + (k - centre) * (k - centre);
  };
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i) c[static_cast<size_t>((k * n + j) * n + i)] = r2(i, j, k) <= 400.0 ? 1.0 : 0.0;
  auto moments = [&](const std::vector<double>& v, double* m0, double* m2) {
    *m0 = *m2 = 0;
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
          const double x = v[static_cast<size_t>((k * n + j) * n + i)];
          *m0 += x, *m2 += x * r2(i, j, k);
        }
  };
  double m0, m2;
  moments(c, &m0, &m2);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  // t = 1: the Gaussian tail reaching the faces, 11.5 cells from the sphere, is
  // exp(-11.5^2 / (4 D t)) ~ 5e-15 of the mass.
  const int64_t steps = 50;
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double m0n, m2n;
  moments(c, &m0n, &m2n);
  EXPECT_NEAR(m0n, m0, 1e-12 * m0);
  EXPECT_NEAR(m2n, m2 + 3 * 2 * D * dt * steps * m0, 1e-11 * m2);
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n / 2; ++i)
        ASSERT_EQ(c[static_cast<size_t>((k * n + j) * n + i)], c[static_cast<size_t>((k * n + j) * n + n - 1 - i)]);
}

// Turing: Table 1's parameters and noise of +-5e-4 around 1. The noise's linear
// growth is slow, so over a short run the spatial mean follows the reaction ODE of the
// mean (Euler, the same dt) to second order in the noise: |dev| ~ 3 c sigma^2 ~ 1e-6.
TEST(SeedProblems, TuringMeanFollowsTheReactionOde) {
  test::Context ctx;
  const int64_t n = 32;
  const double dt = 5e-4, h = 6.2e-3, alpha = 0.5, beta = 0.09, gamma = 26.0;
  test::Field field(ctx, n, n, n, 2);
  OPSPLIT_OK(opsplit_field_set_spacing(field, h, h, h));
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  OPSPLIT_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 5e-5));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 1, 5e-3));
  const size_t cells = static_cast<size_t>(n * n * n);
  std::vector<double> c(2 * cells);
  std::mt19937_64 gen(2011);
  std::uniform_real_distribution<double> sigma(-5e-4, 5e-4);
  for (double& v : c) v = 1.0 + sigma(gen);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double a = 0, b = 0;
  for (size_t p = 0; p < cells; ++p) a += c[p], b += c[cells + p];
  a /= cells, b /= cells;
  const int steps = 1000;
  for (int s = 0; s < steps; ++s) {
    const double da = a - a * a * a - b, db = gamma * (a - alpha * b - beta);
    a += dt * da, b += dt * db;
  }
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  double s0, s1;
  OPSPLIT_OK(opsplit_field_component_sum(field, 0, &s0));
  OPSPLIT_OK(opsplit_field_component_sum(field, 1, &s1));
  EXPECT_NEAR(s0 / cells, a, 3e-6);
  EXPECT_NEAR(s1 / cells, b, 3e-6);
  EXPECT_GT(std::fabs(a - 1.0), 0.1) << "the mean moved: the reactions ran";
}

// Precipitation (Table 1: D1 = D2 = 1, h = 1, dt = 0.02, k1 = 0.2, k2 = 0.005,
// lambda = epsilon = gamma = sigma = 1; c0 = 0, c1 = 1, c2 = -1; c0 = 10 on the x = 0
// face) in 1D against a serial reference written here from the equations, with the
// ghost rules of the cell-centred grid and the potential of component 2 as its own
// field with no-flux ghosts.
TEST(SeedProblems, PrecipitationMatchesASerialReference1D) {
  test::Context ctx;
  const int n = 120;
  const double dt = 0.02, k1 = 0.2, k2 = 0.005, cA = 10.0;
  test::Field field(ctx, n, 1, 1, 3);
  test::Rd rd(ctx, 3);
  OPSPLIT_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_PRECIPITATION));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 1, 1.0));
  OPSPLIT_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, cA));
  std::vector<double> c(3 * n);
  for (int i = 0; i < n; ++i) c[i] = 0.0, c[n + i] = 1.0, c[2 * n + i] = -1.0;
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  std::vector<double> a(c.begin(), c.begin() + n), b(c.begin() + n, c.begin() + 2 * n), p(c.begin() + 2 * n, c.end());
  auto lap = [&](const std::vector<double>& v, int i, double lo_ghost, double hi_ghost) {
    const double l = i == 0 ? lo_ghost : v[i - 1], r = i == n - 1 ? hi_ghost : v[i + 1];
    return (l - v[i]) + (r - v[i]);
  };
  const int steps = 400;
  for (int s = 0; s < steps; ++s) {
    std::vector<double> mu(n), a2(n), b2(n), p2(n);
    for (int i = 0; i < n; ++i) mu[i] = (p[i] * p[i] - 1.0) * p[i] - lap(p, i, p[0], p[n - 1]);
    for (int i = 0; i < n; ++i) {
      const double r1 = k1 * a[i] * b[i], r2 = k2 * a[i] * p[i];
      a2[i] = a[i] + dt * lap(a, i, 2 * cA - a[0], a[n - 1]) + dt * (-r1 - r2);
      b2[i] = b[i] + dt * lap(b, i, b[0], b[n - 1]) + dt * (-r1);
      p2[i] = p[i] + dt * lap(mu, i, mu[0], mu[n - 1]) + dt * (r1 - r2);
    }
    a.swap(a2), b.swap(b2), p.swap(p2);
  }
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  // The same operations in a different association order: rounding only.
  for (int i = 0; i < n; ++i) {
    ASSERT_NEAR(c[i], a[i], 1e-11) << "A at " << i;
    ASSERT_NEAR(c[n + i], b[i], 1e-11) << "B at " << i;
    ASSERT_NEAR(c[2 * n + i], p[i], 1e-11) << "C at " << i;
  }
  EXPECT_GT(a[0], 1.0) << "A entered from the x = 0 face";
  EXPECT_LT(b[0], 0.5) << "and consumed B there";
}

// Advection-diffusion (Table 1: D = 100 m^2/s, h = 100 m, dt = 5 s, u = (5, 1,
// 5 sin(t / 500 s)) m/s, a point source E = 10): while the plume is far from every
// face, mass grows by E dt per step and the first moments obey the exact discrete
// recurrence M1_a(n+1) = M1_a(n) + u_a(t_n) dt M(n) + E dt x_source (upwind in flux
// form moves each cell's mass by u dt; the symmetric stencil moves its centre nowhere).
TEST(SeedProblems, AdvectionPlumeMovesWithTheWind) {
  test::Context ctx;
  // Room for the plume: it drifts 25 cells in x, 5 in y and up to 12 in z, and spreads
  // by the physical plus the upwind scheme's numerical diffusion (u h / 2) to a width
  // of ~6 cells; every face is over 6 widths away.
  const int64_t nx = 96, ny = 64, nz = 96;
  const double h = 100.0, dt = 5.0, E = 10.0, u[2] = {5.0, 1.0};
  const int64_t src[3] = {20, 30, 40};
  test::Field field(ctx, nx, ny, nz, 1);
  OPSPLIT_OK(opsplit_field_set_spacing(field, h, h, h));
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 100.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 0, u[0], 0.0, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 1, u[1], 0.0, 0.0, 0.0));
  OPSPLIT_OK(opsplit_rd_set_velocity(rd, 2, 0.0, 5.0, 1.0 / 500.0, 0.0));
  OPSPLIT_OK(opsplit_rd_add_source(rd, 0, src[0], src[1], src[2], E));
  double m = 0, m1[3] = {0, 0, 0};
  const int steps = 100;
  for (int s = 0; s < steps; ++s) {
    const double t = s * dt, vel[3] = {u[0], u[1], 5.0 * std::sin(t / 500.0)};
    for (int a = 0; a < 3; ++a) m1[a] += vel[a] * dt * m / h + E * dt * src[a];  // moments in cells
    m += E * dt;
  }
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  std::vector<double> c(static_cast<size_t>(nx * ny * nz));
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double mass = 0, first[3] = {0, 0, 0}, edge = 0;
  for (int64_t k = 0; k < nz; ++k)
    for (int64_t j = 0; j < ny; ++j)
      for (int64_t i = 0; i < nx; ++i) {
        const double v = c[static_cast<size_t>((k * ny + j) * nx + i)];
        mass += v, first[0] += v * i, first[1] += v * j, first[2] += v * k;
        if (i == 0 || j == 0 || k == 0 || i == nx - 1 || j == ny - 1 || k == nz - 1) edge += v;
      }
  // The 19-point stencil reaches a face within a few steps, but with ~(D dt/h^2)^10:
  // what crosses the faces is far below the tolerances.
  ASSERT_LT(edge, 1e-9 * m) << "the plume stayed inside: the identities hold";
  EXPECT_NEAR(mass, m, 1e-12 * m);
  for (int a = 0; a < 3; ++a) EXPECT_NEAR(first[a], m1[a], 1e-10 * std::fabs(m1[0])) << "axis " << a;
  EXPECT_GT(first[0] / mass, src[0] + 5) << "the plume drifted downwind";
}

}  // namespace
