// Diffusion validated against exact discrete solutions: Fourier modes decay by the
// stencil's factor per step, the plain sum is conserved, the variance of a point
// source grows by 2*D*dt per axis per step, a Dirichlet slab relaxes to the line.
// The backend is OPSPLIT_BACKEND's (cpu in CI, cuda on the GPU machine).
#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "helpers.hpp"

namespace {

constexpr double kPi = 3.14159265358979323846;

// Per-precision tolerances. FLOAT64: the bounds. FLOAT32: each update rounds
// at ~6e-8 (2^-24) relative to O(1) values and runs ~40 operations; over 100 steps the
// worst-case linear accumulation is 100*40*6e-8 = 2.4e-4, the random-walk estimate
// sqrt(4000)*6e-8 = 4e-6. We allow 5e-5 for modes (10x the random walk, well under
// the worst case); the sums and moments are taken in double from float values, whose
// per-step rounding averages out over many cells: 2e-6 relative. The Dirichlet slab
// stalls once an update is below half an ulp: the residual |L c| can stay up to
// ulp(4)/(2 D dt) = 2.4e-7/0.27 = 8.8e-7, and the error e of L e = r on a slab of 32
// cells is at most |r| nx^2/8 = 1.1e-4, 3.8e-5 of the largest value 3: 5e-5.
template <class T>
struct Tol;
template <>
struct Tol<double> {
  static constexpr double mode = 1e-12, mass = 1e-13, variance = 1e-12, slab = 1e-9;
};
template <>
struct Tol<float> {
  static constexpr double mode = 5e-5, mass = 2e-6, variance = 2e-6, slab = 5e-5;
};

struct ModeCase {
  int dims;           // 1, 2, 3
  int points;         // 7 or 19
  opsplit_bc bc;      // PERIODIC or NOFLUX on every face
  double h[3];        // spacing
};

TEST(Eigenvalue, NineteenPointMatchesSeedWeightsForCubicCells) {
  // Seed 000 eq. (4): (1/(6h^2)) (2 * faces + 1 * edges - 24 * centre).
  const double h = 0.7, hh[3] = {h, h, h};
  const double thetas[4][3] = {{0.3, 1.1, 2.0}, {kPi, kPi, 0}, {kPi, kPi, kPi}, {0.1, 0, 2.9}};
  for (const auto& t : thetas) {
    const double cx = std::cos(t[0]), cy = std::cos(t[1]), cz = std::cos(t[2]);
    const double seed = (2 * 2 * (cx + cy + cz) + 4 * (cx * cy + cx * cz + cy * cz) - 24) / (6 * h * h);
    EXPECT_NEAR(test::stencil_eigenvalue(19, hh, t), seed, 1e-12 * std::fabs(seed));
  }
}

template <class T>
void run_mode_case(const ModeCase& mc) {
  test::Context ctx;
  const int64_t n[3] = {16, mc.dims >= 2 ? 12 : 1, mc.dims >= 3 ? 10 : 1};
  const int k[3] = {1, 2, 1};
  test::Field field(ctx, n[0], n[1], n[2], 1, test::precision_of<T>());
  OPSPLIT_OK(opsplit_field_set_spacing(field, mc.h[0], mc.h[1], mc.h[2]));
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(mc.points)));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 0.8));
  rd.boundary_all(0, mc.bc);

  // Periodic: cos(theta i), theta = 2 pi k / n. No-flux: cos(theta (i + 1/2)), theta = pi k / n.
  double theta[3] = {0, 0, 0};
  for (int a = 0; a < 3; ++a)
    if (n[a] > 1) theta[a] = (mc.bc == OPSPLIT_BC_PERIODIC ? 2 : 1) * kPi * k[a] / n[a];
  const double shift = mc.bc == OPSPLIT_BC_PERIODIC ? 0.0 : 0.5;
  std::vector<T> c0(static_cast<size_t>(n[0] * n[1] * n[2]));
  for (int64_t z = 0; z < n[2]; ++z)
    for (int64_t y = 0; y < n[1]; ++y)
      for (int64_t x = 0; x < n[0]; ++x)
        c0[static_cast<size_t>((z * n[1] + y) * n[0] + x)] = static_cast<T>(
            std::cos(theta[0] * (x + shift)) * std::cos(theta[1] * (y + shift)) * std::cos(theta[2] * (z + shift)));
  OPSPLIT_OK(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR));

  double dt_max = 0;
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt_max));
  const double dt = 0.05 * dt_max;  // slow enough that every case's mode stays large
  const int steps = 100;
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  std::vector<T> c(c0.size());
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));

  const double factor = std::pow(1 + 0.8 * dt * test::stencil_eigenvalue(mc.points, mc.h, theta), steps);
  ASSERT_GT(factor, 0.05);  // the mode is still well above rounding
  std::vector<double> expected(c0.size());
  for (size_t i = 0; i < c0.size(); ++i) expected[i] = static_cast<double>(c0[i]) * factor;
  EXPECT_LE(test::relative_error(c, expected), Tol<T>::mode)
      << mc.dims << "D " << mc.points << "-point bc=" << mc.bc << " factor=" << factor;
}

class FourierMode : public ::testing::TestWithParam<ModeCase> {};

TEST_P(FourierMode, DecaysByTheStencilFactorDouble) { run_mode_case<double>(GetParam()); }
TEST_P(FourierMode, DecaysByTheStencilFactorFloat) { run_mode_case<float>(GetParam()); }

std::vector<ModeCase> mode_cases() {
  std::vector<ModeCase> cases;
  for (int dims = 1; dims <= 3; ++dims)
    for (int points : {7, 19})
      for (opsplit_bc bc : {OPSPLIT_BC_PERIODIC, OPSPLIT_BC_NOFLUX}) {
        cases.push_back({dims, points, bc, {1.0, 1.0, 1.0}});
        cases.push_back({dims, points, bc, {0.5, 1.25, 2.0}});  // anisotropic cells
      }
  return cases;
}
INSTANTIATE_TEST_SUITE_P(AllStencils, FourierMode, ::testing::ValuesIn(mode_cases()));

// At dt = max_stable_dt the stencil's worst mode is multiplied by exactly -1 per step;
// so the limit is exact, not a safe under-estimate.
TEST(StableLimit, WorstModeFlipsSignExactlyAtTheLimit) {
  for (int points : {7, 19}) {
    test::Context ctx;
    const int64_t n = 8;
    test::Field field(ctx, n, n, n, 1);
    test::Rd rd(ctx, 1);
    OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
    OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 1.5));
    rd.boundary_all(0, OPSPLIT_BC_PERIODIC);
    // 7-point: the worst mode alternates along all axes; 19-point: along x and y only.
    std::vector<double> c0(static_cast<size_t>(n * n * n));
    for (int64_t z = 0; z < n; ++z)
      for (int64_t y = 0; y < n; ++y)
        for (int64_t x = 0; x < n; ++x)
          c0[static_cast<size_t>((z * n + y) * n + x)] = ((x + y + (points == 7 ? z : 0)) % 2 == 0) ? 1.0 : -1.0;
    OPSPLIT_OK(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR));
    double dt = 0;
    OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
    EXPECT_NEAR(dt, points == 7 ? 2.0 / (1.5 * 12.0) : 2.0 / (1.5 * 32.0 / 6.0), 1e-15);
    OPSPLIT_OK(opsplit_rd_step(rd, field, dt, 3));
    std::vector<double> c(c0.size());
    OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
    std::vector<double> flipped(c0.size());
    for (size_t i = 0; i < c0.size(); ++i) flipped[i] = -c0[i];
    EXPECT_LE(test::relative_error(c, flipped), 1e-13) << points;
    // Just above the limit the step is refused and the field left as it was.
    EXPECT_EQ(opsplit_rd_step(rd, field, dt * (1 + 1e-12), 1), OPSPLIT_ERROR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(opsplit_last_error_message()).find("exceeds the stable limit"), std::string::npos);
    std::vector<double> after(c0.size());
    OPSPLIT_OK(opsplit_field_download(field, after.data(), OPSPLIT_LAYOUT_PLANAR));
    EXPECT_EQ(after, c);
  }
}

template <class T>
std::vector<T> sphere(int64_t n, double radius) {
  std::vector<T> c(static_cast<size_t>(n * n * n));
  const double mid = (n - 1) / 2.0;
  for (int64_t z = 0; z < n; ++z)
    for (int64_t y = 0; y < n; ++y)
      for (int64_t x = 0; x < n; ++x) {
        const double r2 = (x - mid) * (x - mid) + (y - mid) * (y - mid) + (z - mid) * (z - mid);
        c[static_cast<size_t>((z * n + y) * n + x)] = r2 <= radius * radius ? T(1) : T(0);
      }
  return c;
}

template <class T>
void check_mass(opsplit_bc bc, int points) {
  test::Context ctx;
  const int64_t n = 24;
  test::Field field(ctx, n, n, n, 1, test::precision_of<T>());
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
  rd.boundary_all(0, bc);
  // A sphere near a corner, so that mass crosses the boundaries during the run.
  auto c0 = sphere<T>(n, 9.0);
  std::rotate(c0.begin(), c0.begin() + static_cast<long>(c0.size() / 3), c0.end());
  OPSPLIT_OK(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR));
  double before = 0, after = 0, dt = 0;
  OPSPLIT_OK(opsplit_field_component_sum(field, 0, &before));
  double exact = 0;
  for (T v : c0) exact += static_cast<double>(v);
  EXPECT_EQ(before, exact);  // sums of small integers are exact in double
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.9 * dt, 100));
  OPSPLIT_OK(opsplit_field_component_sum(field, 0, &after));
  EXPECT_LE(std::fabs(after - before) / before, Tol<T>::mass) << "bc=" << bc << " points=" << points;
}

TEST(Mass, ConservedNoFluxAndPeriodicDouble) {
  for (int points : {7, 19})
    for (opsplit_bc bc : {OPSPLIT_BC_NOFLUX, OPSPLIT_BC_PERIODIC}) check_mass<double>(bc, points);
}
TEST(Mass, ConservedNoFluxAndPeriodicFloat) {
  for (int points : {7, 19})
    for (opsplit_bc bc : {OPSPLIT_BC_NOFLUX, OPSPLIT_BC_PERIODIC}) check_mass<float>(bc, points);
}

// The second moment of a point source grows by exactly 2*D*dt per axis per step as
// long as the source has not reached a boundary (after s steps it covers s cells).
template <class T>
void check_variance(int points) {
  test::Context ctx;
  const int64_t n[3] = {41, 41, 41};
  const double h[3] = {1.0, 0.5, 2.0}, D = 0.7;
  const int steps = 19;  // support reaches cells 1..39 of 0..40: no boundary is touched
  test::Field field(ctx, n[0], n[1], n[2], 1, test::precision_of<T>());
  OPSPLIT_OK(opsplit_field_set_spacing(field, h[0], h[1], h[2]));
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, D));
  std::vector<T> c(static_cast<size_t>(n[0] * n[1] * n[2]), T(0));
  c[static_cast<size_t>((20 * n[1] + 20) * n[0] + 20)] = T(1);
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double dt_max = 0;
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt_max));
  const double dt = 0.8 * dt_max;
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, steps));
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  double mass = 0, m2[3] = {0, 0, 0};
  for (int64_t z = 0; z < n[2]; ++z)
    for (int64_t y = 0; y < n[1]; ++y)
      for (int64_t x = 0; x < n[0]; ++x) {
        const double v = static_cast<double>(c[static_cast<size_t>((z * n[1] + y) * n[0] + x)]);
        mass += v;
        const double d[3] = {(x - 20) * h[0], (y - 20) * h[1], (z - 20) * h[2]};
        for (int a = 0; a < 3; ++a) m2[a] += v * d[a] * d[a];
      }
  const double expected = 2 * D * dt * steps;
  for (int a = 0; a < 3; ++a)
    EXPECT_LE(std::fabs(m2[a] / mass - expected) / expected, Tol<T>::variance) << "axis " << a << " points " << points;
}

TEST(Variance, PointSourceGrowsByTwoDdtPerAxisDouble) {
  check_variance<double>(7);
  check_variance<double>(19);
}
TEST(Variance, PointSourceGrowsByTwoDdtPerAxisFloat) {
  check_variance<float>(7);
  check_variance<float>(19);
}

// Dirichlet a on XLO and b on XHI, periodic in y and z: the steady state is the line
// through the faces, c_i = a + (b - a)(i + 1/2)/nx, reached from zero.
template <class T>
void check_slab(int points) {
  test::Context ctx;
  const int64_t nx = 32, ny = 4, nz = 4;
  const double a = 1.0, b = 3.0;
  test::Field field(ctx, nx, ny, nz, 1, test::precision_of<T>());
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(points)));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
  rd.boundary_all(0, OPSPLIT_BC_PERIODIC);
  OPSPLIT_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, a));
  OPSPLIT_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XHI, 0, OPSPLIT_BC_DIRICHLET, b));
  double dt = 0;
  OPSPLIT_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  // Slowest mode: lambda = -4 sin^2(pi/(2 nx)) ~ -9.6e-3 -> 20000 steps of 0.9*dt_max shrink it below 1e-12.
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.9 * dt, 20000));
  std::vector<T> c(static_cast<size_t>(nx * ny * nz));
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  std::vector<double> line(c.size());
  for (size_t i = 0; i < c.size(); ++i) line[i] = a + (b - a) * (static_cast<double>(i % nx) + 0.5) / nx;
  EXPECT_LE(test::relative_error(c, line), Tol<T>::slab) << points;
}

// One case per stencil and precision: 20 000 steps each, so that under compute-sanitizer
// (which runs the cases one a run, side by side) each fits in a run's time.
TEST(DirichletSlab, RelaxesToTheLinearProfile7PointDouble) { check_slab<double>(7); }
TEST(DirichletSlab, RelaxesToTheLinearProfile19PointDouble) { check_slab<double>(19); }
TEST(DirichletSlab, RelaxesToTheLinearProfile7PointFloat) { check_slab<float>(7); }
TEST(DirichletSlab, RelaxesToTheLinearProfile19PointFloat) { check_slab<float>(19); }

}  // namespace
