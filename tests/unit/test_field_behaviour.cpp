// Field and model behaviour on the backend OPSPLIT_BACKEND names: layouts, exact
// round trips, determinism across runs and thread counts, cancellation, the ghosts a
// field keeps between calls, components.
#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

#include "helpers.hpp"

namespace {

template <class T>
std::vector<T> random_values(size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(u(gen));
  return v;
}

template <class T>
void check_layouts() {
  test::Context ctx;
  const int64_t nx = 5, ny = 4, nz = 3;
  const int ncomp = 3;
  test::Field field(ctx, nx, ny, nz, ncomp, test::precision_of<T>());
  const size_t cells = nx * ny * nz, total = cells * ncomp;
  auto planar = random_values<T>(total, 7);
  OPSPLIT_OK(opsplit_field_upload(field, planar.data(), OPSPLIT_LAYOUT_PLANAR));
  std::vector<T> interleaved(total), back(total);
  OPSPLIT_OK(opsplit_field_download(field, interleaved.data(), OPSPLIT_LAYOUT_INTERLEAVED));
  for (int c = 0; c < ncomp; ++c)
    for (size_t cell = 0; cell < cells; ++cell) ASSERT_EQ(interleaved[cell * ncomp + c], planar[c * cells + cell]);
  OPSPLIT_OK(opsplit_field_upload(field, interleaved.data(), OPSPLIT_LAYOUT_INTERLEAVED));
  OPSPLIT_OK(opsplit_field_download(field, back.data(), OPSPLIT_LAYOUT_PLANAR));
  EXPECT_EQ(0, std::memcmp(back.data(), planar.data(), total * sizeof(T)));  // bit-exact round trip
  for (int c = 0; c < ncomp; ++c) {
    double sum = 0, expected = 0;
    OPSPLIT_OK(opsplit_field_component_sum(field, c, &sum));
    for (size_t cell = 0; cell < cells; ++cell) expected += static_cast<double>(planar[c * cells + cell]);
    EXPECT_NEAR(sum, expected, 1e-14 * cells);
  }
}

TEST(Layouts, PlanarAndInterleavedRoundTripExactlyDouble) { check_layouts<double>(); }
TEST(Layouts, PlanarAndInterleavedRoundTripExactlyFloat) { check_layouts<float>(); }

TEST(Field, StartsAtZeroAndReportsItsShape) {
  test::Context ctx;
  test::Field field(ctx, 7, 1, 3, 2, OPSPLIT_FLOAT32);
  int64_t nx, ny, nz;
  int ncomp;
  opsplit_precision p;
  OPSPLIT_OK(opsplit_field_get_shape(field, &nx, &ny, &nz, &ncomp));
  OPSPLIT_OK(opsplit_field_get_precision(field, &p));
  EXPECT_EQ(nx, 7);
  EXPECT_EQ(ny, 1);
  EXPECT_EQ(nz, 3);
  EXPECT_EQ(ncomp, 2);
  EXPECT_EQ(p, OPSPLIT_FLOAT32);
  std::vector<float> c(42, 5.0f);
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  for (float v : c) EXPECT_EQ(v, 0.0f);
}

// A 3D case with every boundary kind and two components of different D.
template <class T>
std::vector<T> run_mixed_case(int threads, int64_t steps) {
  test::Context ctx;
  opsplit_backend backend;
  EXPECT_EQ(opsplit_context_get_backend(ctx, &backend), OPSPLIT_SUCCESS);
  if (backend == OPSPLIT_BACKEND_CPU) {
    EXPECT_EQ(opsplit_context_set_num_threads(ctx, threads), OPSPLIT_SUCCESS);
  }
  const int64_t nx = 37, ny = 21, nz = 70;  // partial GPU tiles and two z-chunks
  test::Field field(ctx, nx, ny, nz, 2, test::precision_of<T>());
  EXPECT_EQ(opsplit_field_set_spacing(field, 1.0, 1.0, 1.0), OPSPLIT_SUCCESS);
  test::Rd rd(ctx, 2);
  EXPECT_EQ(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_rd_set_diffusion(rd, 0, 1.0), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_rd_set_diffusion(rd, 1, 0.25), OPSPLIT_SUCCESS);
  for (int c = 0; c < 2; ++c) {
    EXPECT_EQ(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, c, OPSPLIT_BC_DIRICHLET, 1.0 + c), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XHI, c, OPSPLIT_BC_NOFLUX, 0.0), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_YLO, c, OPSPLIT_BC_PERIODIC, 0.0), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_YHI, c, OPSPLIT_BC_PERIODIC, 0.0), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_ZLO, c, OPSPLIT_BC_NOFLUX, 0.0), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_ZHI, c, OPSPLIT_BC_DIRICHLET, -0.5), OPSPLIT_SUCCESS);
  }
  auto c0 = random_values<T>(static_cast<size_t>(nx * ny * nz * 2), 42);
  EXPECT_EQ(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
  double dt = 0;
  EXPECT_EQ(opsplit_rd_max_stable_dt(rd, field, &dt), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_rd_step(rd, field, 0.9 * dt, steps), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  std::vector<T> out(c0.size());
  EXPECT_EQ(opsplit_field_download(field, out.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
  return out;
}

TEST(Determinism, BitwiseIdenticalRunAfterRunAndAcrossThreadCounts) {
  const auto a = run_mixed_case<double>(1, 50);
  const auto b = run_mixed_case<double>(0, 50);
  const auto c = run_mixed_case<double>(0, 50);
  ASSERT_EQ(a.size(), b.size());
  EXPECT_EQ(0, std::memcmp(a.data(), b.data(), a.size() * sizeof(double)));
  EXPECT_EQ(0, std::memcmp(b.data(), c.data(), b.size() * sizeof(double)));
  const auto f1 = run_mixed_case<float>(3, 50);
  const auto f2 = run_mixed_case<float>(0, 50);
  EXPECT_EQ(0, std::memcmp(f1.data(), f2.data(), f1.size() * sizeof(float)));
}

TEST(Determinism, ComponentSumIsBitwiseReproducible) {
  test::Context ctx;
  test::Field field(ctx, 129, 65, 33, 1);
  auto v = random_values<double>(129 * 65 * 33, 3);
  OPSPLIT_OK(opsplit_field_upload(field, v.data(), OPSPLIT_LAYOUT_PLANAR));
  double s1 = 0, s2 = 0;
  OPSPLIT_OK(opsplit_field_component_sum(field, 0, &s1));
  OPSPLIT_OK(opsplit_context_set_num_threads(ctx, 1));
  OPSPLIT_OK(opsplit_field_component_sum(field, 0, &s2));
  EXPECT_EQ(0, std::memcmp(&s1, &s2, sizeof s1));
}

struct CancelAfter {
  int calls = 0;
  int cancel_at = 0;
  double last_fraction = 0;
};

int cancel_callback(double fraction, const char* what, void* user) {
  auto* state = static_cast<CancelAfter*>(user);
  EXPECT_STREQ(what, "opsplit_rd_step");
  EXPECT_GT(fraction, state->last_fraction);
  state->last_fraction = fraction;
  return ++state->calls == state->cancel_at ? 1 : 0;
}

TEST(Progress, CancelLeavesTheFieldAfterTheLastCompletedStep) {
  test::Context ctx;
  const int64_t n = 16;
  test::Field field(ctx, n, n, n, 1);
  test::Field reference(ctx, n, n, n, 1);
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
  auto c0 = random_values<double>(static_cast<size_t>(n * n * n), 9);
  OPSPLIT_OK(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_field_upload(reference, c0.data(), OPSPLIT_LAYOUT_PLANAR));
  // 1000 steps report every 10 steps; cancelling at the 3rd report stops after step 30.
  CancelAfter state;
  state.cancel_at = 3;
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, cancel_callback, &state));
  EXPECT_EQ(opsplit_rd_step(rd, field, 0.1, 1000), OPSPLIT_ERROR_CANCELLED);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("after 30 of 1000 steps"), std::string::npos)
      << opsplit_last_error_message();
  OPSPLIT_OK(opsplit_context_set_progress_callback(ctx, nullptr, nullptr));
  OPSPLIT_OK(opsplit_rd_step(rd, reference, 0.1, 30));
  std::vector<double> a(c0.size()), b(c0.size());
  OPSPLIT_OK(opsplit_field_download(field, a.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_field_download(reference, b.data(), OPSPLIT_LAYOUT_PLANAR));
  EXPECT_EQ(a, b);
  // The field stays usable and steps on.
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.1, 5));
  EXPECT_EQ(state.calls, 3);
}

// A field remembers which of its ghosts follow its values under which boundary
// conditions, so that the next call under the same ones need not fill them again. Each
// case runs a sequence of calls on one field, and each call again on a new field with
// the values the sequence should have reached (which has no ghosts to reuse): the two
// must agree bitwise, which they do not if a call reuses ghosts that no longer hold.
// Two components with their own faces, on a grid large enough for the CPU loops to run
// on several threads.
struct GhostCase {
  static constexpr int64_t nx = 41, ny = 23, nz = 37;
  static constexpr size_t values_count = static_cast<size_t>(nx * ny * nz * 2);
  static constexpr double dt = 0.05;
  test::Context ctx;
  test::Field field{ctx, nx, ny, nz, 2};
  std::vector<double> expected;
  test::Rd a{ctx, 2}, b{ctx, 2};

  GhostCase() {
    for (opsplit_rd rd : {a.rd, b.rd}) {
      EXPECT_EQ(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT), OPSPLIT_SUCCESS);
      EXPECT_EQ(opsplit_rd_set_diffusion(rd, 0, 1.0), OPSPLIT_SUCCESS);
      EXPECT_EQ(opsplit_rd_set_diffusion(rd, 1, 0.5), OPSPLIT_SUCCESS);
    }
    // The faces differ on every axis between the models and between the components.
    EXPECT_EQ(opsplit_rd_set_boundary(a, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, 1.0), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_boundary(a, OPSPLIT_FACE_YHI, 0, OPSPLIT_BC_DIRICHLET, 0.5), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_boundary(a, OPSPLIT_FACE_ZLO, 1, OPSPLIT_BC_DIRICHLET, -1.0), OPSPLIT_SUCCESS);
    for (opsplit_face face : {OPSPLIT_FACE_XLO, OPSPLIT_FACE_XHI}) {
      EXPECT_EQ(opsplit_rd_set_boundary(a, face, 1, OPSPLIT_BC_PERIODIC, 0.0), OPSPLIT_SUCCESS);
      for (int c = 0; c < 2; ++c) EXPECT_EQ(opsplit_rd_set_boundary(b, face, c, OPSPLIT_BC_PERIODIC, 0.0), OPSPLIT_SUCCESS);
    }
    for (opsplit_face face : {OPSPLIT_FACE_YLO, OPSPLIT_FACE_YHI})
      EXPECT_EQ(opsplit_rd_set_boundary(b, face, 1, OPSPLIT_BC_PERIODIC, 0.0), OPSPLIT_SUCCESS);
    upload(random_values<double>(values_count, 5));
  }
  void upload(const std::vector<double>& v) {
    EXPECT_EQ(opsplit_field_upload(field, v.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
    expected = v;
  }
  // The same steps on a new field holding the expected values.
  void advance_expected(opsplit_rd rd, int64_t steps) {
    test::Field fresh(ctx, nx, ny, nz, 2);
    EXPECT_EQ(opsplit_field_upload(fresh, expected.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_step(rd, fresh, dt, steps), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_field_download(fresh, expected.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
  }
  void step(opsplit_rd rd, int64_t steps) {
    EXPECT_EQ(opsplit_rd_step(rd, field, dt, steps), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    advance_expected(rd, steps);
  }
  void expect_expected() {
    std::vector<double> v(expected.size());
    EXPECT_EQ(opsplit_field_download(field, v.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
    EXPECT_EQ(0, std::memcmp(v.data(), expected.data(), v.size() * sizeof(double)));
  }
};

TEST(Ghosts, AFieldSteppedByTwoModelsInTurnMatchesOneStartedAfresh) {
  GhostCase g;
  for (int round = 0; round < 2; ++round) {
    g.step(g.a, 1);
    g.step(g.a, 2);
    g.step(g.b, 1);
    g.step(g.b, 1);
  }
  g.expect_expected();
}

TEST(Ghosts, ACallAfterNewBoundaryConditionsOrAnUploadUsesThem) {
  GhostCase g;
  g.step(g.a, 2);
  OPSPLIT_OK(opsplit_rd_set_boundary(g.a, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, -2.0));
  g.step(g.a, 1);
  g.expect_expected();
  g.upload(random_values<double>(GhostCase::values_count, 6));
  g.step(g.a, 1);
  g.expect_expected();
}

TEST(Ghosts, AFreeEnergyUnderOtherConditionsDoesNotLeakIntoTheNextStep) {
  GhostCase g;
  OPSPLIT_OK(opsplit_rd_set_cahn_hilliard(g.b, 0, 1.0, 1.0, 1.0, 0.5));
  g.step(g.a, 1);
  double energy = 0;
  OPSPLIT_OK(opsplit_rd_free_energy(g.b, g.field, 0, &energy));  // fills the ghosts under b's faces
  g.step(g.a, 1);
  g.expect_expected();
}

// A source on a face cell changes that cell after the step has written the ghosts it
// feeds; a cancelled call leaves the field after its last whole step, with the ghosts
// of the call before no longer those of its values.
TEST(Ghosts, SourcesOnFacesAndACancelledCallLeaveNoStaleGhosts) {
  GhostCase g;
  g.step(g.a, 1);  // every ghost recorded
  OPSPLIT_OK(opsplit_rd_add_source(g.a, 0, 0, 5, 7, 40.0));                    // x face
  OPSPLIT_OK(opsplit_rd_add_source(g.a, 1, 9, 5, GhostCase::nz - 1, -25.0));  // z face
  CancelAfter state;
  state.cancel_at = 1;  // 200 steps report every 2: cancelled after step 2
  OPSPLIT_OK(opsplit_context_set_progress_callback(g.ctx, cancel_callback, &state));
  EXPECT_EQ(opsplit_rd_step(g.a, g.field, GhostCase::dt, 200), OPSPLIT_ERROR_CANCELLED);
  OPSPLIT_OK(opsplit_context_set_progress_callback(g.ctx, nullptr, nullptr));
  g.advance_expected(g.a, 2);
  g.step(g.a, 1);
  g.step(g.a, 1);
  g.expect_expected();
}

// A model keeps the ghosts of its copy of a wind field between calls; they follow its
// faces (the wind's x ghosts wrap on a periodic x axis and mirror otherwise).
TEST(Ghosts, AWindFieldsGhostsFollowTheModelsFaces) {
  test::Context ctx;
  const int64_t nx = 24, ny = 10, nz = 8;
  const size_t cells = static_cast<size_t>(nx * ny * nz);
  test::Field wind(ctx, nx, ny, nz, 3), field(ctx, nx, ny, nz, 1);
  std::vector<double> u(3 * cells, 0.0);
  for (size_t at = 0; at < cells; ++at) u[at] = 0.5 + 0.4 * std::sin(0.7 * static_cast<double>(at % nx));
  OPSPLIT_OK(opsplit_field_upload(wind, u.data(), OPSPLIT_LAYOUT_PLANAR));
  auto model = [&](opsplit_bc x_faces) {
    auto rd = std::make_unique<test::Rd>(ctx, 1);
    EXPECT_EQ(opsplit_rd_set_diffusion(*rd, 0, 0.1), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_velocity_field(*rd, wind), OPSPLIT_SUCCESS);
    rd->boundary_all(0, x_faces);  // then y and z back to NOFLUX
    for (opsplit_face face : {OPSPLIT_FACE_YLO, OPSPLIT_FACE_YHI, OPSPLIT_FACE_ZLO, OPSPLIT_FACE_ZHI})
      EXPECT_EQ(opsplit_rd_set_boundary(*rd, face, 0, OPSPLIT_BC_NOFLUX, 0.0), OPSPLIT_SUCCESS);
    return rd;
  };
  const auto periodic = model(OPSPLIT_BC_PERIODIC), mirrored = model(OPSPLIT_BC_NOFLUX);
  const std::vector<double> c0 = random_values<double>(cells, 8);
  OPSPLIT_OK(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(*periodic, field, 0.2, 1));
  std::vector<double> expected(cells), got(cells);
  OPSPLIT_OK(opsplit_field_download(field, expected.data(), OPSPLIT_LAYOUT_PLANAR));
  for (opsplit_face face : {OPSPLIT_FACE_XLO, OPSPLIT_FACE_XHI})
    OPSPLIT_OK(opsplit_rd_set_boundary(*periodic, face, 0, OPSPLIT_BC_NOFLUX, 0.0));
  OPSPLIT_OK(opsplit_rd_step(*periodic, field, 0.2, 1));  // now the same model as `mirrored`
  test::Field fresh(ctx, nx, ny, nz, 1);
  OPSPLIT_OK(opsplit_field_upload(fresh, expected.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(*mirrored, fresh, 0.2, 1));
  OPSPLIT_OK(opsplit_field_download(fresh, expected.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_field_download(field, got.data(), OPSPLIT_LAYOUT_PLANAR));
  EXPECT_EQ(0, std::memcmp(got.data(), expected.data(), cells * sizeof(double)));
}

TEST(Components, AreIndependentWithTheirOwnCoefficientsAndBoundaries) {
  // Component 1 has D = 0: it must not change. Component 0 diffuses.
  test::Context ctx;
  test::Field field(ctx, 12, 10, 8, 2);
  test::Rd rd(ctx, 2);
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
  OPSPLIT_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 1, OPSPLIT_BC_DIRICHLET, 100.0));
  auto c0 = random_values<double>(12 * 10 * 8 * 2, 11);
  OPSPLIT_OK(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(rd, field, 0.1, 10));
  std::vector<double> c(c0.size());
  OPSPLIT_OK(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  const size_t cells = 12 * 10 * 8;
  EXPECT_TRUE(std::equal(c.begin() + cells, c.end(), c0.begin() + cells));
  EXPECT_FALSE(std::equal(c.begin(), c.begin() + cells, c0.begin()));
}

}  // namespace
