// Several steps a pass (opsplit_rd_set_steps_per_pass, issue 44): k steps fused into one
// pass through memory give the bits of one step at a time, for every boundary kind on
// every face, 1D/2D/3D and odd grids, 7- and 19-point stencils, float and double, passes
// that do not divide the call, a second call after the first (the ghosts it leaves), and
// a call that fails (the same message, time and field: under stable steps of pure
// diffusion finite values stay finite, so only a call's first step can fail, in its first
// pass). Runs on the backend
// OPSPLIT_BACKEND names (CUDA fuses up to 4 steps a pass on 3D fields at 7 points, none
// at 19: in tiles of 64 x 48 or 32 x 48 cells less the steps' margins (Turing's and
// Gray-Scott's two components together, up to 3 steps, in tiles of 64 x 36 or 32 x 36,
// at 2 steps 48 rows), a block's share of the planes cut across tiles: the 66 x 3 x 130
// field crosses both; linear terms, Turing's and
// Gray-Scott's reactions, a wind and sources fuse at 7 points on periodic faces, and
// without a wind on no-flux ones; it takes one step a pass on 1D and 2D fields,
// elsewhere with sources and with a per-cell wind: the same bits too). Each case runs as pure
// diffusion, with point sources, as Turing's model with sources, as Gray-Scott's (with
// sources and without), as Turing's in a wind that changes every step (with sources) and
// with linear terms on one component (CUDA's coupled pass then adds the other's -0), with
// linear terms and a wind (with sources and without), and with the linear terms alone
// (with sources and without; the CPU fuses all eleven);
// opsplit_rd_get_steps_per_pass_taken says each call fused as it should.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "helpers.hpp"

namespace {

enum class Faces { noflux, dirichlet, periodic, mixed };

struct Case {
  int64_t n[3];
  Faces faces;
  opsplit_stencil stencil;
  opsplit_precision precision;
};

std::string describe(const Case& c) {
  const char* faces[] = {"noflux", "dirichlet", "periodic", "mixed"};
  return std::to_string(c.n[0]) + "x" + std::to_string(c.n[1]) + "x" + std::to_string(c.n[2]) + " " +
         faces[static_cast<int>(c.faces)] + " " + std::to_string(static_cast<int>(c.stencil)) + "-point " +
         (c.precision == OPSPLIT_FLOAT32 ? "float" : "double");
}

// Face f's condition for component comp: each kind alone, or mixed (x periodic, y
// Dirichlet low and no-flux high, z no-flux low and Dirichlet high).
void set_faces(opsplit_rd rd, const Case& c, int comp) {
  for (int f = 0; f < 6; ++f) {
    opsplit_bc bc = OPSPLIT_BC_NOFLUX;
    switch (c.faces) {
      case Faces::noflux: bc = OPSPLIT_BC_NOFLUX; break;
      case Faces::dirichlet: bc = OPSPLIT_BC_DIRICHLET; break;
      case Faces::periodic: bc = OPSPLIT_BC_PERIODIC; break;
      case Faces::mixed: bc = f < 2 ? OPSPLIT_BC_PERIODIC : (f == 2 || f == 5) ? OPSPLIT_BC_DIRICHLET : OPSPLIT_BC_NOFLUX;
    }
    const double value = 0.25 * (f + 1) + comp;  // a different value on each face
    ASSERT_EQ(opsplit_rd_set_boundary(rd, static_cast<opsplit_face>(f), comp, bc, value), OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
  }
}

// The field after `calls` calls of nsteps[i] steps, k steps a pass, as bytes; and the
// status and message of the last call.
struct Outcome {
  std::vector<unsigned char> bytes;
  opsplit_status status = OPSPLIT_SUCCESS;
  std::string message;
  double time = 0.0;
  int taken = 0;  // steps a pass (opsplit_rd_get_steps_per_pass_taken)
};

// What a call adds to pure diffusion: point sources (source_rate != 0: four cells, at
// corners, on a face and inside, of both components); a model (Turing's reaction; or
// linear terms, a retarded component and a uniform wind that changes with time along
// every axis, so that each step of a pass has its own Courant numbers; or those linear
// terms and retardation without a wind); a poisoned initial value (Inf in the middle of
// component 0).
enum class Model { diffusion, turing, gray_scott, wind, wind_field, linear, turing_wind, turing_linear };
struct Extras {
  double source_rate = 0.0;
  Model model = Model::diffusion;
  bool poison = false;
  double max_dt = HUGE_VAL;  // the reactions: Turing (gamma = 26) is stable below about 2 / 26
  double growth = -0.3;      // Model::linear's rate of component 0 (> 0: it grows)
  double amplitude = 1.0;    // the initial values' scale
};

std::string describe(const Extras& e) {
  const char* models[] = {"",
                          ", Turing",
                          ", Gray-Scott",
                          ", linear terms and wind",
                          ", Turing in a velocity field",
                          ", linear terms",
                          ", Turing in a uniform wind",
                          ", Turing with linear terms on component 0"};
  return std::string(models[static_cast<int>(e.model)]) + (e.source_rate != 0.0 ? ", sources" : "");
}

Outcome run(const test::Context& ctx, const Case& c, int k, const std::vector<int64_t>& nsteps,
            const Extras& extras = {}) {
  const int ncomp = 2;
  test::Field field(ctx, c.n[0], c.n[1], c.n[2], ncomp, c.precision);
  test::Rd rd(ctx, ncomp);
  EXPECT_EQ(opsplit_rd_set_stencil(rd, c.stencil), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_rd_set_steps_per_pass(rd, k), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  const bool turing = extras.model == Model::turing || extras.model == Model::turing_wind ||
                      extras.model == Model::turing_linear || extras.model == Model::wind_field;
  if (turing || extras.model == Model::gray_scott) {
    const opsplit_reaction kind =
        extras.model == Model::gray_scott ? OPSPLIT_REACTION_GRAY_SCOTT : OPSPLIT_REACTION_TURING;
    EXPECT_EQ(opsplit_rd_set_reaction(rd, kind), OPSPLIT_SUCCESS);
  }
  for (int comp = 0; comp < ncomp; ++comp) {
    EXPECT_EQ(opsplit_rd_set_diffusion(rd, comp, 0.5 + 0.5 * comp), OPSPLIT_SUCCESS);
    set_faces(rd, c, comp);
  }
  if (extras.model == Model::wind || extras.model == Model::linear) {
    EXPECT_EQ(opsplit_rd_set_linear(rd, 0, extras.growth, 0.05), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_retardation(rd, 1, 2.0), OPSPLIT_SUCCESS);
  }
  if (extras.model == Model::turing_linear) {  // component 1 without: the -0 it adds (cell_update)
    EXPECT_EQ(opsplit_rd_set_linear(rd, 0, -0.3, 0.05), OPSPLIT_SUCCESS);
  }
  if (extras.model == Model::wind || extras.model == Model::turing_wind) {
    for (int axis = 0; axis < 3; ++axis)
      EXPECT_EQ(opsplit_rd_set_velocity(rd, axis, 0.1 * (axis + 1), 0.3, 1.7 + axis, 0.2 * axis), OPSPLIT_SUCCESS);
  }
  if (extras.source_rate != 0.0) {
    const int64_t x = c.n[0] - 1, y = c.n[1] - 1, z = c.n[2] - 1;
    const int64_t places[4][4] = {{0, 0, 0, 0}, {1, x, y, z}, {0, x / 2, y / 2, z / 2}, {1, x, 0, z / 2}};
    for (const auto& p : places)
      EXPECT_EQ(opsplit_rd_add_source(rd, static_cast<int>(p[0]), p[1], p[2], p[3], extras.source_rate * (1 + p[0])),
                OPSPLIT_SUCCESS);
  }
  const int64_t cells = c.n[0] * c.n[1] * c.n[2];
  if (extras.model == Model::wind_field) {  // a per-cell wind and a uniform one that changes with time
    std::vector<double> u(static_cast<size_t>(3 * cells));
    for (size_t i = 0; i < u.size(); ++i) u[i] = 0.4 * std::sin(0.37 * static_cast<double>(i));
    std::vector<float> uf(u.begin(), u.end());
    test::Field wind(ctx, c.n[0], c.n[1], c.n[2], 3, c.precision);
    EXPECT_EQ(opsplit_field_upload(wind, c.precision == OPSPLIT_FLOAT32 ? static_cast<const void*>(uf.data()) : u.data(),
                                   OPSPLIT_LAYOUT_PLANAR),
              OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_velocity_field(rd, wind), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_rd_set_velocity(rd, 1, 0.1, 0.2, 1.3, 0.0), OPSPLIT_SUCCESS);
  }
  std::vector<double> v(static_cast<size_t>(ncomp * cells));
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = extras.amplitude * (std::sin(0.731 * static_cast<double>(i)) + 0.1 * static_cast<double>(i % 7));
  if (extras.poison) v[static_cast<size_t>(cells / 2)] = HUGE_VAL;
  std::vector<float> vf(v.begin(), v.end());
  const void* host = c.precision == OPSPLIT_FLOAT32 ? static_cast<const void*>(vf.data()) : v.data();
  EXPECT_EQ(opsplit_field_upload(field, host, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
  double dt = 0.0;
  EXPECT_EQ(opsplit_rd_max_stable_dt(rd, field, &dt), OPSPLIT_SUCCESS);
  Outcome out;
  for (int64_t n : nsteps) {
    out.status = opsplit_rd_step(rd, field, std::min(0.9 * dt, extras.max_dt), n);
    out.message = out.status == OPSPLIT_SUCCESS ? "" : opsplit_last_error_message();
    if (out.status != OPSPLIT_SUCCESS) break;
  }
  EXPECT_EQ(opsplit_rd_get_time(rd, &out.time), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_rd_get_steps_per_pass_taken(rd, &out.taken), OPSPLIT_SUCCESS);
  const size_t bytes = static_cast<size_t>(ncomp * cells) * (c.precision == OPSPLIT_FLOAT32 ? 4 : 8);
  out.bytes.resize(bytes);
  EXPECT_EQ(opsplit_field_download(field, out.bytes.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
  return out;
}

// 1D along each axis, 2D in each plane, 3D odd and small, nz = 2, and four of more than
// 2^15 values (the CPU's slabs of rows, one a thread: 40 x 33 x 30 and 9 x 40 x 50 in
// slabs of 8-20 rows whose grown rows reach both y faces, 128 x 128 x 2 periodic in z
// over two planes; the CUDA pass's tiles and a block's share of the planes).
constexpr int64_t kShapes[][3] = {{13, 1, 1}, {1, 11, 1},  {1, 1, 9},     {9, 7, 1},   {1, 9, 8},
                                  {7, 1, 6},  {10, 9, 8},  {17, 5, 3},    {6, 6, 2},   {40, 33, 30},
                                  {9, 40, 50}, {128, 128, 2}, {66, 3, 130}};
constexpr int kShapeCount = static_cast<int>(sizeof kShapes / sizeof kShapes[0]);

// Shape s's cases: every kind of faces, both stencils and precisions.
std::vector<Case> cases(int s) {
  const int64_t* n = kShapes[s];
  std::vector<Case> all;
  for (Faces f : {Faces::noflux, Faces::dirichlet, Faces::periodic, Faces::mixed})
    for (opsplit_stencil st : {OPSPLIT_STENCIL_7POINT, OPSPLIT_STENCIL_19POINT})
      for (opsplit_precision p : {OPSPLIT_FLOAT64, OPSPLIT_FLOAT32}) all.push_back(Case{{n[0], n[1], n[2]}, f, st, p});
  return all;
}

// The steps a pass a call of at least 16 steps takes (docs/API.md): on the CPU k, at
// most ny / threads with a team (a slab of at least k rows a thread: the team is the
// test's 4 threads from 2^15 values up, below that one) and at most nz on a periodic z
// axis; on CUDA, on a 3D field at 7 points (19: one), pure diffusion without sources at
// most 4; also at most 4 with sources or a model without a per-cell wind (3
// for Turing's and Gray-Scott's) where the pass tests no face (periodic faces, or no-flux
// ones without a wind); else 1. (So
// that the comparison below compares fused passes where they should be.)
int steps_taken(const test::Context& ctx, const Case& c, int k, const Extras& e) {
  opsplit_backend backend = OPSPLIT_BACKEND_AUTO;
  EXPECT_EQ(opsplit_context_get_backend(ctx, &backend), OPSPLIT_SUCCESS);
  if (backend == OPSPLIT_BACKEND_CUDA) {
    const bool three_d = c.n[0] > 1 && c.n[1] > 1 && c.n[2] > 1;
    const bool seven = c.stencil == OPSPLIT_STENCIL_7POINT;
    const bool coupled = e.model == Model::turing || e.model == Model::gray_scott || e.model == Model::turing_wind ||
                         e.model == Model::turing_linear;  // (3 steps a pass at most)
    const int most = coupled ? 3 : 4;
    const bool plain = e.model == Model::diffusion && e.source_rate == 0.0;
    // (Every model but a per-cell wind's: LINEAR ones, and Turing's and Gray-Scott's two
    // components, which the pass steps together.)
    const bool pass_model = e.model != Model::wind_field;
    // (A model's or sources' pass only where it tests no face.)
    const bool wind = e.model == Model::wind || e.model == Model::turing_wind;
    const bool tests = c.faces != Faces::periodic && (c.faces != Faces::noflux || wind);
    const bool fuses = seven && (plain || (pass_model && !tests));
    return three_d && fuses ? std::min(k, most) : 1;
  }
  const int threads = 2 * c.n[0] * c.n[1] * c.n[2] >= (int64_t(1) << 15) ? 4 : 1;
  int64_t most = threads > 1 ? c.n[1] / threads : k;
  if (c.n[2] > 1 && c.faces == Faces::periodic) most = std::min(most, c.n[2]);
  return static_cast<int>(std::max<int64_t>(1, std::min<int64_t>(k, most)));
}

TEST(StepsPerPass, FusedStepsGiveTheBitsOfSingleSteps) {
  test::Context ctx;
  ASSERT_EQ(opsplit_context_set_num_threads(ctx, 4), OPSPLIT_SUCCESS);  // a team, also on 2 cores
  const Extras extras[] = {{},
                           {3.0, Model::diffusion},
                           {0.3, Model::turing, false, 0.05},
                           {0.0, Model::gray_scott, false, 0.05},
                           {0.3, Model::gray_scott, false, 0.05},
                           {0.3, Model::turing_wind, false, 0.05},
                           {0.0, Model::turing_linear, false, 0.05},
                           {0.0, Model::wind},
                           {0.5, Model::wind},
                           {0.0, Model::linear},
                           {0.5, Model::linear}};
  for (int shape = 0; shape < kShapeCount; ++shape)
    for (const Case& c : cases(shape))
      for (const Extras& e : extras) {
        const std::string what = describe(c) + describe(e);
        // 9 = 2 passes of 4 and a step; then more calls, 21 = a pass of 16 and a shorter one
        // of 5 (or 8 + 8 + 5: the scratch sized for the longest pass holds the shorter)
        const std::vector<int64_t> calls = {9, 5, 21};
        const Outcome single = run(ctx, c, 1, calls, e);
        ASSERT_EQ(single.status, OPSPLIT_SUCCESS) << what << ": " << single.message;
        EXPECT_EQ(single.taken, 1);
        for (int k : {2, 3, 4, 8, 16}) {
          const Outcome fused = run(ctx, c, k, calls, e);
          ASSERT_EQ(fused.status, OPSPLIT_SUCCESS) << what << ", k = " << k << ": " << fused.message;
          EXPECT_TRUE(fused.bytes == single.bytes) << what << ", k = " << k;
          EXPECT_EQ(fused.time, single.time);
          EXPECT_EQ(fused.taken, steps_taken(ctx, c, k, e)) << what << ", k = " << k;
        }
      }
}

// A field of 700 000 rows (more than a grid's 65535 blocks along y could cover at 10 rows
// a block), whose z faces are more than 65535 rows long (the ghost fill strides over
// them): the call gives the single steps' bits (the CPU fuses it; CUDA takes one step a
// pass at 19 points, and fuses the 7-point pass, whose launch is one-dimensional over
// its tiles and planes).
class ManyRows : public ::testing::TestWithParam<opsplit_stencil> {};  // (a stencil a run under the sanitizer)

TEST_P(ManyRows, FuseWhatFits) {
  test::Context ctx;
  const Case c{{2, 700000, 2}, Faces::noflux, GetParam(), OPSPLIT_FLOAT64};
  const Outcome single = run(ctx, c, 1, {8}), fused = run(ctx, c, 4, {8});
  ASSERT_EQ(fused.status, OPSPLIT_SUCCESS) << fused.message;
  EXPECT_TRUE(fused.bytes == single.bytes);
  EXPECT_EQ(fused.taken, steps_taken(ctx, c, 4, Extras{}));
}
INSTANTIATE_TEST_SUITE_P(StepsPerPass, ManyRows, ::testing::Values(OPSPLIT_STENCIL_19POINT, OPSPLIT_STENCIL_7POINT));

// A model's pass carries every component, so their y and z faces must be alike
// periodic or not: where they differ, a model's call takes one step a pass and pure
// diffusion (a component at a time) still fuses; the same bits either way. (On mixed
// faces, and on no-flux ones, which CUDA's 7-point pass of Turing's two components a tile
// reads at the mirror image, with component 1 periodic in y.)
TEST(StepsPerPass, AModelWhoseComponentsDifferInPeriodicityTakesOneStepAPass) {
  test::Context ctx;
  for (Faces faces : {Faces::mixed, Faces::noflux})
    for (Model model : {Model::diffusion, Model::turing}) {
      const Case c{{10, 9, 8}, faces, OPSPLIT_STENCIL_7POINT, OPSPLIT_FLOAT64};
      auto outcome = [&](int k) {
        test::Field field(ctx, c.n[0], c.n[1], c.n[2], 2, c.precision);
        test::Rd rd(ctx, 2);
        EXPECT_EQ(opsplit_rd_set_steps_per_pass(rd, k), OPSPLIT_SUCCESS);
        if (model == Model::turing) {
          EXPECT_EQ(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING), OPSPLIT_SUCCESS);
        }
        for (int comp = 0; comp < 2; ++comp) set_faces(rd, c, comp);
        for (opsplit_face f : {OPSPLIT_FACE_YLO, OPSPLIT_FACE_YHI})  // component 1 periodic in y
          EXPECT_EQ(opsplit_rd_set_boundary(rd, f, 1, OPSPLIT_BC_PERIODIC, 0.0), OPSPLIT_SUCCESS);
        std::vector<double> v(static_cast<size_t>(2 * c.n[0] * c.n[1] * c.n[2]));
        for (size_t i = 0; i < v.size(); ++i) v[i] = std::cos(0.37 * static_cast<double>(i));
        EXPECT_EQ(opsplit_field_upload(field, v.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
        EXPECT_EQ(opsplit_rd_step(rd, field, 0.02, 8), OPSPLIT_SUCCESS) << opsplit_last_error_message();
        int taken = 0;
        EXPECT_EQ(opsplit_rd_get_steps_per_pass_taken(rd, &taken), OPSPLIT_SUCCESS);
        EXPECT_EQ(opsplit_field_download(field, v.data(), OPSPLIT_LAYOUT_PLANAR), OPSPLIT_SUCCESS);
        return std::make_pair(taken, v);
      };
      const auto single = outcome(1), fused = outcome(4);
      EXPECT_TRUE(fused.second == single.second);
      EXPECT_EQ(fused.first, model == Model::diffusion ? steps_taken(ctx, c, 4, Extras{}) : 1);
    }
}

// A per-cell velocity field (the flux form's Courant numbers at every cell) fuses on the
// CPU, read at each cell's image; CUDA takes one step a pass. A subset of the shapes:
// the scalar row loop is slow under the sanitizers.
constexpr int64_t kWindShapes[][3] = {{13, 1, 1}, {9, 7, 1}, {10, 9, 8}, {17, 5, 3}, {40, 33, 30}};
class VelocityField : public ::testing::TestWithParam<int> {};  // (a shape a run under the sanitizer)

TEST_P(VelocityField, FusesWithTheBitsOfSingleSteps) {
  test::Context ctx;
  ASSERT_EQ(opsplit_context_set_num_threads(ctx, 4), OPSPLIT_SUCCESS);
  const Extras e{0.0, Model::wind_field, false, 0.05};
  const int64_t* n = kWindShapes[GetParam()];
  for (Faces f : {Faces::noflux, Faces::dirichlet, Faces::periodic, Faces::mixed})
    for (opsplit_stencil st : {OPSPLIT_STENCIL_7POINT, OPSPLIT_STENCIL_19POINT})
      for (opsplit_precision p : {OPSPLIT_FLOAT64, OPSPLIT_FLOAT32}) {
        const Case c{{n[0], n[1], n[2]}, f, st, p};
        const std::vector<int64_t> calls = {9, 5};
        const Outcome single = run(ctx, c, 1, calls, e);
        ASSERT_EQ(single.status, OPSPLIT_SUCCESS) << describe(c) << ": " << single.message;
        for (int k : {2, 4, 8}) {
          const Outcome fused = run(ctx, c, k, calls, e);
          ASSERT_EQ(fused.status, OPSPLIT_SUCCESS) << describe(c) << ", k = " << k << ": " << fused.message;
          EXPECT_TRUE(fused.bytes == single.bytes) << describe(c) << describe(e) << ", k = " << k;
          EXPECT_EQ(fused.taken, steps_taken(ctx, c, std::min<int>(k, 5), e)) << describe(c) << ", k = " << k;
        }
      }
}
INSTANTIATE_TEST_SUITE_P(StepsPerPass, VelocityField,
                         ::testing::Range(0, static_cast<int>(sizeof kWindShapes / sizeof kWindShapes[0])));

TEST(StepsPerPass, TheStepsChangeTheField) {  // the comparison above compares something
  test::Context ctx;
  const Case c{{10, 9, 8}, Faces::mixed, OPSPLIT_STENCIL_19POINT, OPSPLIT_FLOAT64};
  EXPECT_FALSE(run(ctx, c, 4, {1}).bytes == run(ctx, c, 4, {8}).bytes);
}

// A failing call fused k steps a pass gives the single steps' outcome: the steps a pass it
// should take, and the status, message, time and field of `single`.
void expect_single_steps_outcome(const test::Context& ctx, const Case& c, int k, const std::vector<int64_t>& calls,
                                 const Extras& e, const Outcome& single, const std::string& what) {
  const Outcome fused = run(ctx, c, k, calls, e);
  EXPECT_EQ(fused.taken, steps_taken(ctx, c, k, e)) << what << ", k = " << k;
  EXPECT_EQ(fused.status, single.status) << what << ", k = " << k;
  EXPECT_EQ(fused.message, single.message) << what << ", k = " << k;
  EXPECT_EQ(fused.time, single.time) << what << ", k = " << k;
  EXPECT_TRUE(fused.bytes == single.bytes) << what << ", k = " << k;
}

TEST(StepsPerPass, AFailingPassReportsAsSingleSteps) {
  test::Context ctx;
  for (Faces f : {Faces::noflux, Faces::periodic}) {
    const Case c{{10, 9, 8}, f, OPSPLIT_STENCIL_7POINT, OPSPLIT_FLOAT64};
    const Extras poisoned{0.0, Model::diffusion, true};
    const Outcome single = run(ctx, c, 1, {6}, poisoned), fused = run(ctx, c, 4, {6}, poisoned);
    EXPECT_EQ(single.status, OPSPLIT_ERROR_NUMERICAL);
    EXPECT_EQ(fused.status, single.status);
    EXPECT_EQ(fused.message, single.message);
    EXPECT_EQ(fused.time, single.time);
    EXPECT_TRUE(fused.bytes == single.bytes);
  }
}

// A source that overflows float at a later step of a pass (its cell passes FLT_MAX):
// the pass finds it, and the message, time and field are those of single steps.
TEST(StepsPerPass, ASourceThatOverflowsInAPassReportsAsSingleSteps) {
  test::Context ctx;
  const Case c{{10, 9, 8}, Faces::noflux, OPSPLIT_STENCIL_7POINT, OPSPLIT_FLOAT32};
  const Extras overflowing{6e38};
  const Outcome single = run(ctx, c, 1, {8}, overflowing), fused = run(ctx, c, 4, {8}, overflowing);
  EXPECT_EQ(fused.taken, steps_taken(ctx, c, 4, overflowing));  // (a pass of sources on CUDA too)
  EXPECT_EQ(single.status, OPSPLIT_ERROR_NUMERICAL);
  EXPECT_NE(single.message.find("step 2 of 8"), std::string::npos) << single.message;  // not a pass's first
  EXPECT_EQ(fused.status, single.status);
  EXPECT_EQ(fused.message, single.message);
  EXPECT_EQ(fused.time, single.time);
  EXPECT_TRUE(fused.bytes == single.bytes);
}

// A failure in a later pass of a call, with passes after it (the health word is read
// once after a run of passes; the launches after a failed one do nothing): component 0
// grows by a linear rate until it overflows float at step 6, 9 or 12 of 20, fused 3 and
// 4 steps a pass (a failed pass followed by an odd and by an even number of passes, its
// first or its last step failing), and gives the message, time and field of single
// steps.
TEST(StepsPerPass, AFailureInALaterPassReportsAsSingleSteps) {
  test::Context ctx;
  const Case c{{10, 9, 8}, Faces::periodic, OPSPLIT_STENCIL_7POINT, OPSPLIT_FLOAT32};
  const std::pair<double, const char*> growths[] = {{2e7, "step 6 of 20"}, {1.3e5, "step 9 of 20"}, {6e3, "step 12 of 20"}};
  for (const auto& [growth, failing] : growths) {
    const Extras growing{0.0, Model::linear, false, HUGE_VAL, growth};
    const Outcome single = run(ctx, c, 1, {20}, growing);
    EXPECT_EQ(single.status, OPSPLIT_ERROR_NUMERICAL) << growth;
    EXPECT_NE(single.message.find(failing), std::string::npos) << single.message;
    for (int k : {3, 4})
      expect_single_steps_outcome(ctx, c, k, {20}, growing, single, "growth " + std::to_string(growth));
  }
}

// The same with a progress callback: the call runs in chunks of 4 of its 400 steps, the
// word read after each (the keys count steps from the last read, StepHealth::step), and
// the failure at step 191 falls in a chunk's pass (3 steps and a single one, or 4).
TEST(StepsPerPass, AFailureInALaterChunkReportsAsSingleSteps) {
  test::Context ctx;
  ASSERT_EQ(opsplit_context_set_progress_callback(ctx, [](double, const char*, void*) { return 0; }, nullptr),
            OPSPLIT_SUCCESS);
  const Case c{{10, 9, 8}, Faces::periodic, OPSPLIT_STENCIL_7POINT, OPSPLIT_FLOAT32};
  const Extras growing{0.0, Model::linear, false, HUGE_VAL, 2.0};
  const Outcome single = run(ctx, c, 1, {400}, growing);
  EXPECT_EQ(single.status, OPSPLIT_ERROR_NUMERICAL);
  EXPECT_NE(single.message.find("step 191 of 400"), std::string::npos) << single.message;
  for (int k : {3, 4}) expect_single_steps_outcome(ctx, c, k, {400}, growing, single, "400 steps");
}

// The same in a pass of Turing's two components (CUDA steps them together, a tile both):
// initial values of amplitude 3.5 or 5 overshoot the cubic term's pull until they
// overflow float in a later pass (at step 6 or 5 on the CPU; the step is read from the
// message, as rounding may differ between backends), fused 3 and 4 steps a pass.
TEST(StepsPerPass, ACoupledModelFailingInALaterPassReportsAsSingleSteps) {
  test::Context ctx;
  const Case c{{40, 33, 30}, Faces::noflux, OPSPLIT_STENCIL_7POINT, OPSPLIT_FLOAT32};
  for (double amplitude : {3.5, 5.0}) {
    const Extras blowing_up{0.0, Model::turing, false, 0.08, -0.3, amplitude};
    const Outcome single = run(ctx, c, 1, {20}, blowing_up);
    EXPECT_EQ(single.status, OPSPLIT_ERROR_NUMERICAL) << amplitude;
    const size_t at = single.message.find("step ");
    ASSERT_NE(at, std::string::npos) << single.message;
    EXPECT_GT(std::stoi(single.message.substr(at + 5)), 4) << single.message;  // past a first pass of 4
    for (int k : {3, 4})
      expect_single_steps_outcome(ctx, c, k, {20}, blowing_up, single, "amplitude " + std::to_string(amplitude));
  }
}

TEST(StepsPerPass, OutOfRangeIsRefused) {
  test::Context ctx;
  test::Rd rd(ctx, 1);
  for (int bad : {0, -1, 17})
    EXPECT_EQ(opsplit_rd_set_steps_per_pass(rd, bad), OPSPLIT_ERROR_INVALID_ARGUMENT) << bad;
  EXPECT_NE(std::string(opsplit_last_error_message()).find("is not in [1, 16]"), std::string::npos);
  EXPECT_EQ(opsplit_rd_set_steps_per_pass(rd, 16), OPSPLIT_SUCCESS);
}

}  // namespace
