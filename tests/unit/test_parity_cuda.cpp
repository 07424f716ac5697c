// CPU vs CUDA: the same cases on both backends agree (label cuda: needs a GPU).
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "helpers.hpp"

namespace {

struct Case {
  int64_t n[3];
  int points;
  int ncomp;
  int bc_set = 0;  // 0: Dirichlet x-lo and z-hi, periodic y; 1-3: below
  int kind = -1;   // -1: diffusion only; else a reaction kind with every other term, below
  bool every_term = true;  // false: the reaction and a uniform velocity only (the CPU's vectorized loops)
  int cahn_hilliard = -1;  // with every_term false: this component also phase-separates
  bool x_face_source = false;  // a source in component 0 on the x-lo face
  bool still = false;          // with every_term false: component 0 does not diffuse (D = 0)
  bool advect_xz = false;      // with every_term false: the uniform velocity also has x and z parts
};

// Every term at once: the reaction kind, a Cahn-Hilliard component (PRECIPITATION's
// own, else component 0), a linear term, an oscillating uniform velocity plus a
// per-cell wind, and two sources.
template <class T>
void add_model_terms(opsplit_context ctx, opsplit_rd rd, const Case& cs, test::Field& wind) {
  auto ok = [](opsplit_status s) { EXPECT_EQ(s, OPSPLIT_SUCCESS) << opsplit_last_error_message(); };
  ok(opsplit_rd_set_reaction(rd, static_cast<opsplit_reaction>(cs.kind)));
  if (cs.kind != OPSPLIT_REACTION_PRECIPITATION) ok(opsplit_rd_set_cahn_hilliard(rd, 0, 0.05, 1.0, 1.0, 0.5));
  ok(opsplit_rd_set_linear(rd, cs.ncomp - 1, -0.2, 0.1));
  ok(opsplit_rd_set_retardation(rd, cs.ncomp - 1, 2.5));
  if (cs.ncomp > 2) ok(opsplit_rd_set_mobile(rd, 1, 0));
  ok(opsplit_rd_set_velocity(rd, 0, 0.3, 0.2, 0.5, 0.1));
  ok(opsplit_rd_set_velocity(rd, 2, -0.1, 0.0, 0.0, 0.0));
  const size_t cells = static_cast<size_t>(cs.n[0] * cs.n[1] * cs.n[2]);
  std::vector<T> w(3 * cells);
  std::mt19937_64 gen(99);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  for (auto& v : w) v = static_cast<T>(u(gen));
  ok(opsplit_field_upload(wind, w.data(), OPSPLIT_LAYOUT_PLANAR));
  ok(opsplit_rd_set_velocity_field(rd, wind));
  ok(opsplit_rd_add_source(rd, 0, cs.n[0] / 2, cs.n[1] / 3, cs.n[2] - 1, 2.0));
  ok(opsplit_rd_add_source(rd, cs.ncomp - 1, 0, 0, 0, 1.0));
  (void)ctx;
}

// bc_set 1: component 0 periodic in x, Dirichlet on both y faces, no-flux z;
// component 1 the reverse roles; further components periodic everywhere.
// bc_set 2, every component: periodic x and z, no-flux y.
// bc_set 3, every component: Dirichlet x-lo, periodic y, no-flux on the other faces.
// bc_set 4: no-flux everywhere (the default).
// bc_set 5, every component: Dirichlet y, no-flux x and z.
// bc_set 6: component 0 Dirichlet x-lo, no-flux elsewhere (the precipitation problem's).
// bc_set 7, every component: periodic everywhere.
// bc_set 8, every component: no-flux x, periodic y and z.
void set_boundaries(opsplit_rd rd, int c, int bc_set) {
  if (bc_set == 4) return;
  auto set = [&](opsplit_face f, opsplit_bc bc, double v) {
    EXPECT_EQ(opsplit_rd_set_boundary(rd, f, c, bc, v), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  };
  if (bc_set == 6) {
    if (c == 0) set(OPSPLIT_FACE_XLO, OPSPLIT_BC_DIRICHLET, 0.8);
    return;
  }
  if (bc_set == 7 || bc_set == 8) {
    for (opsplit_face f : {OPSPLIT_FACE_XLO, OPSPLIT_FACE_XHI, OPSPLIT_FACE_YLO, OPSPLIT_FACE_YHI, OPSPLIT_FACE_ZLO,
                           OPSPLIT_FACE_ZHI})
      if (bc_set == 7 || f / 2 != 0) set(f, OPSPLIT_BC_PERIODIC, 0.0);
    return;
  }
  if (bc_set == 5) {
    set(OPSPLIT_FACE_YLO, OPSPLIT_BC_DIRICHLET, 0.7 - 0.2 * c);
    set(OPSPLIT_FACE_YHI, OPSPLIT_BC_DIRICHLET, -0.4);
    return;
  }
  if (bc_set == 0) {
    set(OPSPLIT_FACE_XLO, OPSPLIT_BC_DIRICHLET, 0.5);
    set(OPSPLIT_FACE_YLO, OPSPLIT_BC_PERIODIC, 0);
    set(OPSPLIT_FACE_YHI, OPSPLIT_BC_PERIODIC, 0);
    set(OPSPLIT_FACE_ZHI, OPSPLIT_BC_DIRICHLET, -1.0);
    return;
  }
  const opsplit_face faces[6] = {OPSPLIT_FACE_XLO, OPSPLIT_FACE_XHI, OPSPLIT_FACE_YLO,
                                 OPSPLIT_FACE_YHI, OPSPLIT_FACE_ZLO, OPSPLIT_FACE_ZHI};
  if (bc_set == 2 || bc_set == 3) {
    for (int f = 0; f < 6; ++f) {
      const bool periodic = bc_set == 2 ? f / 2 != 1 : f / 2 == 1;
      const bool dirichlet = bc_set == 3 && f == 0;
      set(faces[f], periodic ? OPSPLIT_BC_PERIODIC : dirichlet ? OPSPLIT_BC_DIRICHLET : OPSPLIT_BC_NOFLUX,
          0.3 * (f + 1) - 1.1 + 0.1 * c);
    }
    return;
  }
  for (int f = 0; f < 6; ++f) {
    const int axis = f / 2;
    opsplit_bc bc = OPSPLIT_BC_PERIODIC;
    if (c == 0) bc = axis == 0 ? OPSPLIT_BC_PERIODIC : axis == 1 ? OPSPLIT_BC_DIRICHLET : OPSPLIT_BC_NOFLUX;
    if (c == 1) bc = axis == 2 ? OPSPLIT_BC_PERIODIC : axis == 1 ? OPSPLIT_BC_NOFLUX : OPSPLIT_BC_DIRICHLET;
    set(faces[f], bc, 0.25 * (f + 1) - 0.8);
  }
}

template <class T>
std::vector<T> run(opsplit_backend backend, const Case& cs, int64_t steps, double* sum0) {
  test::Context ctx(backend);
  test::Field field(ctx, cs.n[0], cs.n[1], cs.n[2], cs.ncomp, test::precision_of<T>());
  EXPECT_EQ(opsplit_field_set_spacing(field, 1.0, 1.0, 1.0), OPSPLIT_SUCCESS);
  test::Rd rd(ctx, cs.ncomp);
  EXPECT_EQ(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(cs.points)), OPSPLIT_SUCCESS);
  for (int c = 0; c < cs.ncomp; ++c) {
    EXPECT_EQ(opsplit_rd_set_diffusion(rd, c, c == 0 && cs.still ? 0.0 : 1.0 / (1 + c)), OPSPLIT_SUCCESS);
    set_boundaries(rd, c, cs.bc_set);
  }
  test::Field wind(ctx, cs.n[0], cs.n[1], cs.n[2], 3, test::precision_of<T>());
  if (cs.kind >= 0 && cs.every_term) add_model_terms<T>(ctx, rd, cs, wind);
  if (cs.x_face_source) {
    EXPECT_EQ(opsplit_rd_add_source(rd, 0, 0, cs.n[1] / 2, cs.n[2] / 2, 1.0), OPSPLIT_SUCCESS);
  }
  if (cs.kind >= 0 && !cs.every_term) {
    EXPECT_EQ(opsplit_rd_set_reaction(rd, static_cast<opsplit_reaction>(cs.kind)), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_velocity(rd, 1, -0.2, 0.1, 0.3, 0.0), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_rd_set_retardation(rd, 0, 1.7), OPSPLIT_SUCCESS);
    if (cs.advect_xz) {
      EXPECT_EQ(opsplit_rd_set_velocity(rd, 0, 0.25, 0.0, 0.0, 0.0), OPSPLIT_SUCCESS);
      EXPECT_EQ(opsplit_rd_set_velocity(rd, 2, -0.15, 0.0, 0.0, 0.0), OPSPLIT_SUCCESS);
    }
    if (cs.cahn_hilliard >= 0) {
      EXPECT_EQ(opsplit_rd_set_cahn_hilliard(rd, cs.cahn_hilliard, 0.05, 1.0, 1.0, 0.5), OPSPLIT_SUCCESS);
    }
  }
  const size_t total = static_cast<size_t>(cs.n[0] * cs.n[1] * cs.n[2] * cs.ncomp);
  std::vector<T> c0(total);
  std::mt19937_64 gen(1234);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (auto& v : c0) v = static_cast<T>(u(gen));
  EXPECT_EQ(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_INTERLEAVED), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_field_component_sum(field, 0, sum0), OPSPLIT_SUCCESS);
  double dt = 0;
  EXPECT_EQ(opsplit_rd_max_stable_dt(rd, field, &dt), OPSPLIT_SUCCESS);
  // The models' reactions are stiff (Turing's gamma alpha = 13): their dt is the
  // caller's to bound, 0.02 here.
  if (cs.kind >= 0) dt = std::fmin(dt, 0.02 / 0.9);
  EXPECT_EQ(opsplit_rd_step(rd, field, 0.9 * dt, steps), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  std::vector<T> out(total);
  EXPECT_EQ(opsplit_field_download(field, out.data(), OPSPLIT_LAYOUT_INTERLEAVED), OPSPLIT_SUCCESS);
  return out;
}

template <class T>
void compare(const Case& cs, double tolerance) {
  ASSERT_EQ(opsplit_cuda_available(), 1) << "this test needs a CUDA device";
  double s_cpu = 0, s_gpu = 0;
  const auto cpu = run<T>(OPSPLIT_BACKEND_CPU, cs, 100, &s_cpu);
  const auto gpu = run<T>(OPSPLIT_BACKEND_CUDA, cs, 100, &s_gpu);
  // The fixed-order sum is the same function on both backends: bitwise equal.
  EXPECT_EQ(0, std::memcmp(&s_cpu, &s_gpu, sizeof s_cpu));
  EXPECT_LE(test::relative_error(gpu, cpu), tolerance)
      << cs.n[0] << "x" << cs.n[1] << "x" << cs.n[2] << " " << cs.points << "-point";
}

// FLOAT64: the 1e-12. The backends differ only by rounding (nvcc contracts
// a*b+c into FMA), about 1e-16 per step.
TEST(CudaParity, ThreeD100StepsDouble) {
  compare<double>({{256, 128, 96}, 19, 2}, 1e-12);
  compare<double>({{61, 47, 130}, 7, 1}, 1e-12);
}
// Small and odd sizes: partial 16-byte pieces, tiles and z-chunks cut by the grid,
// axes of length 2, with every boundary condition per component.
TEST(CudaParity, GhostsOnSmallAndOddGrids) {
  compare<double>({{2, 3, 5}, 19, 3, 1}, 1e-12);
  compare<double>({{67, 2, 9}, 7, 2, 1}, 1e-12);
  compare<double>({{33, 17, 65}, 19, 2, 1}, 1e-12);
  compare<double>({{5, 70, 1}, 19, 2, 1}, 1e-12);
  compare<float>({{131, 9, 66}, 19, 3, 1}, 5e-5);
  compare<float>({{3, 3, 3}, 7, 2, 1}, 5e-5);
}
// The fused model kernel: every reaction kind with Cahn-Hilliard, advection (uniform,
// oscillating and per-cell), linear terms and sources, on odd grids with mixed faces.
TEST(CudaParity, ModelsDouble) {
  for (int kind = 0; kind < 4; ++kind) {
    compare<double>({{37, 21, 19}, 19, 3, 1, kind}, 1e-12);
    compare<double>({{40, 33, 1}, 7, 3, 1, kind}, 1e-12);
  }
  compare<double>({{130, 64, 48}, 7, 2, 0, OPSPLIT_REACTION_TURING}, 1e-12);
  // One component over several tiles and z-chunks; four components (the column kernel).
  compare<double>({{150, 70, 70}, 19, 1, 0, OPSPLIT_REACTION_LINEAR}, 1e-12);
  compare<double>({{20, 18, 17}, 7, 4, 1, OPSPLIT_REACTION_GRAY_SCOTT}, 1e-12);
  // The reaction and a uniform velocity alone: the CPU's vectorized loops.
  compare<double>({{70, 45, 40}, 19, 2, 0, OPSPLIT_REACTION_TURING, false}, 1e-12);
  compare<double>({{70, 45, 40}, 7, 1, 0, OPSPLIT_REACTION_LINEAR, false}, 1e-12);
  // ... with a Cahn-Hilliard component (the CPU's branch-free loops), no sources: the
  // kernels' own x ghosts carry from step to step, for the field and the potential,
  // on Dirichlet (component 1 of set 1) and periodic (component 0) x faces.
  compare<double>({{70, 45, 40}, 19, 2, 1, OPSPLIT_REACTION_TURING, false, 1}, 1e-12);
  compare<double>({{66, 20, 24}, 7, 3, 1, OPSPLIT_REACTION_LINEAR, false, 0}, 1e-12);
}
TEST(CudaParity, ModelsFloat) {
  for (int kind = 0; kind < 4; ++kind) compare<float>({{37, 21, 19}, 19, 3, 1, kind}, 5e-5);
  compare<float>({{200, 40, 70}, 7, 2, 0, OPSPLIT_REACTION_TURING}, 5e-5);
  compare<float>({{70, 45, 40}, 19, 2, 0, OPSPLIT_REACTION_TURING, false}, 5e-5);
  compare<float>({{70, 45, 40}, 19, 1, 0, OPSPLIT_REACTION_LINEAR, false}, 5e-5);
  compare<float>({{70, 45, 40}, 19, 2, 1, OPSPLIT_REACTION_TURING, false, 1}, 5e-5);
}
// The march's halo rows and planes copied from the cells the ghosts copy (kernels/
// field/field_cuda.cuh, HaloPlan) where every component has the same periodic or no-flux
// axes: x wrapped (n a multiple of the 16-byte piece) or from memory (not), the last
// tile ending on the grid's edge (128 float or 64 double cells for diffusion, 32 cells
// for a model), edge ghosts over Dirichlet x ghosts. Bit-for-bit the same ghosts as
// the fills; the tolerances are those of the other cases.
TEST(CudaParity, HaloFromTheCellsGhostsCopy) {
  compare<float>({{128, 20, 40}, 19, 2, 2}, 5e-5);
  compare<float>({{130, 20, 40}, 19, 1, 2}, 5e-5);
  compare<float>({{128, 36, 40}, 19, 2, 3}, 5e-5);
  compare<double>({{64, 9, 33}, 19, 2, 3}, 1e-12);
  compare<double>({{63, 17, 34}, 7, 1, 2}, 1e-12);
  compare<float>({{100, 19, 70}, 7, 2, 4}, 5e-5);
  // x wrapped over two tiles, over part of one, and in double.
  compare<float>({{256, 20, 40}, 19, 1, 2}, 5e-5);
  compare<float>({{64, 20, 40}, 19, 1, 2}, 5e-5);
  compare<double>({{128, 17, 40}, 19, 1, 2}, 1e-12);
  // x and y from memory under mirrored z, one z-chunk holding both z faces, whole tiles
  // along y; a source on an x face (the kernel's own x ghosts are then refilled).
  compare<double>({{40, 16, 20}, 19, 2, 5}, 1e-12);
  {
    Case with_source{{70, 24, 30}, 7, 1, 4};
    with_source.x_face_source = true;
    compare<float>(with_source, 5e-5);
  }
  for (int bc_set = 2; bc_set < 5; ++bc_set) {
    compare<float>({{64, 21, 35}, 19, 2, bc_set, OPSPLIT_REACTION_TURING, false, 1}, 5e-5);
    compare<double>({{66, 17, 40}, 19, 3, bc_set, OPSPLIT_REACTION_PRECIPITATION}, 1e-12);
    compare<double>({{32, 8, 36}, 7, 1, bc_set, OPSPLIT_REACTION_LINEAR, false, 0}, 1e-12);
  }
}
// The Cahn-Hilliard potential computed inside the model march (FusedPotential in
// kernels/field/field_cuda.cuh: one component, the linear kind) where its ghosts copy
// cells: mirrored (no-flux) and wrapped (periodic) axes, alone and together, tiles cut
// by the grid (the potentials past its edge mirror or wrap too), z-chunks of 1 and 2
// planes (33 and 34 planes), one chunk holding both z faces, axes of length 2 and 3, no
// diffusion (the kernels skip that stencil), a velocity through every face; and the pass
// before where they do not (a Dirichlet face, a periodic x the march cannot wrap, more
// components).
// One case per stencil and precision (under racecheck, which runs the cases one a run
// side by side, a stencil's cases together took more than a run's time).
void expect_potentials_in_the_march(int points, bool in_double) {
  constexpr int kLinear = OPSPLIT_REACTION_LINEAR;
  if (in_double) {
    compare<double>({{33, 17, 36}, points, 1, 4, kLinear, false, 0}, 1e-12);
    compare<double>({{66, 19, 35}, points, 1, 7, kLinear, false, 0}, 1e-12);
    compare<double>({{96, 20, 40}, points, 1, 2, kLinear, false, 0}, 1e-12);
    compare<double>({{4, 3, 2}, points, 1, 7, kLinear, false, 0}, 1e-12);
    compare<double>({{4, 9, 34}, points, 1, 7, kLinear, false, 0, false, true}, 1e-12);
    compare<double>({{40, 18, 33}, points, 1, 4, kLinear, false, 0, false, true, true}, 1e-12);
    return;
  }
  compare<float>({{70, 21, 67}, points, 1, 4, kLinear, false, 0}, 5e-5);
  compare<float>({{64, 36, 70}, points, 1, 7, kLinear, false, 0}, 5e-5);
  compare<float>({{5, 2, 3}, points, 1, 4, kLinear, false, 0}, 5e-5);
  compare<float>({{70, 21, 40}, points, 1, 8, kLinear, false, 0}, 5e-5);
  compare<float>({{36, 20, 33}, points, 1, 7, kLinear, false, 0, false, true, true}, 5e-5);
  compare<float>({{33, 17, 34}, points, 1, 8, kLinear, false, 0, false, false, true}, 5e-5);
}
TEST(CudaParity, PotentialsInTheMarch7PointFloat) { expect_potentials_in_the_march(7, false); }
TEST(CudaParity, PotentialsInTheMarch7PointDouble) { expect_potentials_in_the_march(7, true); }
TEST(CudaParity, PotentialsInTheMarch19PointFloat) { expect_potentials_in_the_march(19, false); }
TEST(CudaParity, PotentialsInTheMarch19PointDouble) { expect_potentials_in_the_march(19, true); }
// Where the potentials cannot be computed in the march: the pass before.
TEST(CudaParity, PotentialsBeforeTheMarch19Point) {
  compare<float>({{64, 20, 24}, 19, 1, 3, OPSPLIT_REACTION_LINEAR, false, 0}, 5e-5);
  compare<float>({{66, 20, 24}, 19, 1, 7, OPSPLIT_REACTION_LINEAR, false, 0}, 5e-5);
  compare<float>({{64, 19, 40}, 19, 3, 6, OPSPLIT_REACTION_PRECIPITATION, false}, 5e-5);
}
TEST(CudaParity, OneAndTwoDDouble) {
  compare<double>({{1000, 1, 1}, 7, 1}, 1e-12);
  compare<double>({{300, 200, 1}, 19, 2}, 1e-12);
}
// FLOAT32: the same rounding differences at 2^-24 instead of 2^-53 (see the
// validation tests' reasoning): 5e-5.
TEST(CudaParity, ThreeD100StepsFloat) { compare<float>({{256, 128, 96}, 19, 2}, 5e-5); }

TEST(CudaContext, StreamOfTheHostIsUsedAndErrorsAreReported) {
  ASSERT_EQ(opsplit_cuda_available(), 1);
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  opsplit_backend b;
  OPSPLIT_OK(opsplit_context_get_backend(ctx, &b));
  EXPECT_EQ(b, OPSPLIT_BACKEND_CUDA);
  EXPECT_EQ(opsplit_context_create_on_device(1000, &ctx.ctx), OPSPLIT_ERROR_INVALID_ARGUMENT);
  OPSPLIT_OK(opsplit_context_set_cuda_stream(ctx, nullptr));
  OPSPLIT_OK(opsplit_context_synchronize(ctx));
  // A field far beyond the device's memory: OUT_OF_MEMORY, and the context stays usable.
  opsplit_field huge = nullptr;
  EXPECT_EQ(opsplit_field_create(ctx, 4096, 4096, 4096, 4, OPSPLIT_FLOAT64, &huge), OPSPLIT_ERROR_OUT_OF_MEMORY);
  EXPECT_EQ(huge, nullptr);
  test::Field small(ctx, 8, 8, 8, 1);
  std::vector<double> v(512, 1.0);
  OPSPLIT_OK(opsplit_field_upload(small, v.data(), OPSPLIT_LAYOUT_PLANAR));
  double s = 0;
  OPSPLIT_OK(opsplit_field_component_sum(small, 0, &s));
  EXPECT_EQ(s, 512.0);
}

}  // namespace
