// The shared numerics headers checked directly: stencil weights against the seed,
// the stability radius against a brute-force scan of every mode, layout maps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <map>
#include <string>
#include <random>
#include <vector>

#include "field/diffusion.cuh"
#include "field/grid.cuh"
#include "field/halo.hpp"
#include "field/layout.cuh"
#include "field/model.cuh"
#include "core/default_device.hpp"
#include "core/device_array.hpp"
#include "core/environment.hpp"
#include "core/exact_sum.hpp"
#include "field/reduce.cuh"
#include "helpers.hpp"

using namespace opsplit::field;

TEST(StencilWeights, NineteenPointCubicIsTheSeedStencil) {
  const double h[3] = {2.0, 2.0, 2.0};
  const bool all[3] = {true, true, true};
  const StencilWeights w = stencil_weights(19, h, all);
  const double unit = 1.0 / (6 * 4.0);  // 1/(6h^2)
  for (int a = 0; a < 3; ++a) {
    EXPECT_DOUBLE_EQ(w.face[a], 2 * unit);
    EXPECT_DOUBLE_EQ(w.edge[a], 1 * unit);
  }
  // Centre = -(sum of neighbour weights) = -24 * unit.
  EXPECT_DOUBLE_EQ(-(2 * (w.face[0] + w.face[1] + w.face[2]) + 4 * (w.edge[0] + w.edge[1] + w.edge[2])), -24 * unit);
}

TEST(StencilWeights, NineteenPointIn2DIsTheIsotropicNinePointStencil) {
  // (1/(6h^2)) (4 faces + 1 diagonals - 20 centre).
  const double h[3] = {1.0, 1.0, 1.0};
  const bool xy[3] = {true, true, false};
  const StencilWeights w = stencil_weights(19, h, xy);
  EXPECT_DOUBLE_EQ(w.face[0], 4.0 / 6);
  EXPECT_DOUBLE_EQ(w.face[1], 4.0 / 6);
  EXPECT_DOUBLE_EQ(w.face[2], 0.0);
  EXPECT_DOUBLE_EQ(w.edge[0], 1.0 / 6);
  EXPECT_DOUBLE_EQ(w.edge[1], 0.0);
  EXPECT_DOUBLE_EQ(w.edge[2], 0.0);
}

TEST(StencilWeights, SevenPointAnisotropic) {
  const double h[3] = {0.5, 1.0, 4.0};
  const bool all[3] = {true, true, true};
  const StencilWeights w = stencil_weights(7, h, all);
  EXPECT_DOUBLE_EQ(w.face[0], 4.0);
  EXPECT_DOUBLE_EQ(w.face[1], 1.0);
  EXPECT_DOUBLE_EQ(w.face[2], 1.0 / 16);
  EXPECT_EQ(w.edge[0] + w.edge[1] + w.edge[2], 0.0);
}

TEST(SpectralRadius, EqualsTheWorstModeOfABruteForceScan) {
  const double spacings[3][3] = {{1, 1, 1}, {0.5, 1.25, 2.0}, {0.1, 1.0, 1.0}};
  const bool patterns[3][3] = {{true, true, true}, {true, true, false}, {true, false, false}};
  for (int points : {7, 19})
    for (const auto& h : spacings)
      for (const auto& active : patterns) {
        double worst = 0;
        const int m = 24;  // includes theta = pi on every axis
        for (int i = 0; i <= m; ++i)
          for (int j = 0; j <= m; ++j)
            for (int k = 0; k <= m; ++k) {
              const double theta[3] = {M_PI * i / m, active[1] ? M_PI * j / m : 0, active[2] ? M_PI * k / m : 0};
              const double s = stencil_symbol(points, h, active, theta);
              EXPECT_LE(s, 1e-12);  // dissipative: no mode grows
              worst = std::fmax(worst, -s);
            }
        EXPECT_NEAR(spectral_radius(points, h, active), worst, 1e-12 * worst) << points;
      }
}

TEST(Grid, LengthOneAxesHaveNoGhostsAndZeroSteps) {
  const Grid g = Grid::make(10, 1, 4, 2, 1);
  EXPECT_EQ(g.extent[0], 12);
  EXPECT_EQ(g.extent[1], 1);
  EXPECT_EQ(g.extent[2], 6);
  EXPECT_EQ(g.step(1), 0);
  EXPECT_EQ(g.step(2), 12);
  EXPECT_EQ(g.comp_stride, 72);
  EXPECT_EQ(g.index(1, -1, 0, -1), 72);
}

TEST(Grid, RowsStartOnTheAlignment) {
  // align 8 (32-byte sectors of float): the ghost is the last element of the lead
  // block, cell 0 starts the next one, and the row length is a multiple of 8.
  const Grid g = Grid::make(13, 5, 3, 2, 1, 8);
  EXPECT_EQ(g.lead[0], 8);
  EXPECT_EQ(g.extent[0], 24);  // 8 + 13 + 1 = 22 -> 24
  EXPECT_EQ(g.extent[1], 7);
  for (int c = 0; c < 2; ++c)
    for (int k = -1; k <= 3; ++k)
      for (int j = -1; j <= 5; ++j) {
        EXPECT_EQ(g.index(c, 0, j, k) % 8, 0);
        EXPECT_EQ(g.index(c, -1, j, k), g.index(c, 0, j, k) - 1);
        EXPECT_LT(g.index(c, 13, j, k), g.index(c, -1, j, k) + g.extent[0]);
      }
  // A length-1 x axis is not padded: the field stays compact.
  const Grid yz = Grid::make(1, 6, 6, 1, 1, 8);
  EXPECT_EQ(yz.extent[0], 1);
  EXPECT_EQ(yz.comp_stride, 64);
}

TEST(Layout, HostPositionInvertsHostIndex) {
  const Grid g = Grid::make(5, 3, 2, 4, 1);
  for (int layout = 0; layout < 2; ++layout) {
    std::vector<int> seen(static_cast<size_t>(g.cells() * g.ncomp), 0);
    for (int64_t h = 0; h < g.cells() * g.ncomp; ++h) {
      int c;
      int64_t i, j, k;
      host_position(g, layout, h, &c, &i, &j, &k);
      ASSERT_EQ(host_index(g, layout, c, i, j, k), h);
      seen[static_cast<size_t>(h)]++;
    }
    for (int s : seen) EXPECT_EQ(s, 1);
  }
}

TEST(Reduce, PairwiseTotalOrder) {
  // The order is the contract: pairs first. Left to right, {1e16, 1, -1e16, 1} sums
  // to 1; in pairs (1e16 + 1) rounds to 1e16 and the total is 0 + 1.
  EXPECT_EQ(pairwise_total({1.0, 2.0, 3.0, 4.0, 5.0}), 15.0);
  EXPECT_EQ(pairwise_total({1e16, 1.0, -1e16, 1.0}), (1e16 + 1.0) + (-1e16 + 1.0));
  EXPECT_EQ(pairwise_total({1.0, 1e16, 1.0, -1e16, 1.0}), ((1.0 + 1e16) + (1.0 + -1e16)) + 1.0);
  EXPECT_EQ(pairwise_total({}), 0.0);
}

// The CPU backend runs its row loops in the widest instruction-set clone the machine
// has (AVX-512 or AVX2, field_cpu.hpp); this test is compiled for the x86-64 baseline.
// One diffusion step computed here with the same shared per-cell function must give
// the library's bits: no clone contracts into FMA or reorders. (Scaling the weights
// as D * (dt * w) instead of (D * dt) * w here makes it fail: it sees one rounding.)
template <class T, int Points>
void expect_baseline_bits() {
  const int64_t n[3] = {37, 11, 9};
  const double h[3] = {1.0, 0.5, 2.0}, diffusion = 0.7, dt = 0.01;
  const bool active[3] = {true, true, true};
  const size_t cells = static_cast<size_t>(n[0] * n[1] * n[2]);
  std::vector<T> c(cells);
  std::mt19937_64 gen(11);
  std::uniform_real_distribution<double> u(0.5, 1.5);
  for (auto& v : c) v = static_cast<T>(u(gen));

  test::Context ctx(OPSPLIT_BACKEND_CPU);
  test::Field field(ctx, n[0], n[1], n[2], 1, test::precision_of<T>());
  test::Rd rd(ctx, 1);
  OPSPLIT_OK(opsplit_field_set_spacing(field, h[0], h[1], h[2]));
  OPSPLIT_OK(opsplit_rd_set_stencil(rd, static_cast<opsplit_stencil>(Points)));
  OPSPLIT_OK(opsplit_rd_set_diffusion(rd, 0, diffusion));
  OPSPLIT_OK(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR));
  OPSPLIT_OK(opsplit_rd_step(rd, field, dt, 1));
  std::vector<T> library(cells);
  OPSPLIT_OK(opsplit_field_download(field, library.data(), OPSPLIT_LAYOUT_PLANAR));

  // The same step here: NOFLUX ghosts mirror the cell inside; weights as rd.cpp scales them.
  const StencilWeights spatial = stencil_weights(Points, h, active);
  DiffusionWeights<T> w;
  for (int a = 0; a < 3; ++a) {
    w.face[a] = static_cast<T>(diffusion * dt * spatial.face[a]);
    w.edge[a] = static_cast<T>(diffusion * dt * spatial.edge[a]);
  }
  const int64_t px = n[0] + 2, py = n[1] + 2, pz = n[2] + 2;
  std::vector<T> padded(static_cast<size_t>(px * py * pz));
  auto inside = [](int64_t i, int64_t len) { return i < 0 ? 0 : (i >= len ? len - 1 : i); };
  for (int64_t k = -1; k <= n[2]; ++k)
    for (int64_t j = -1; j <= n[1]; ++j)
      for (int64_t i = -1; i <= n[0]; ++i)
        padded[static_cast<size_t>(((k + 1) * py + j + 1) * px + i + 1)] =
            c[static_cast<size_t>((inside(k, n[2]) * n[1] + inside(j, n[1])) * n[0] + inside(i, n[0]))];
  size_t differing = 0;
  for (int64_t k = 0; k < n[2]; ++k)
    for (int64_t j = 0; j < n[1]; ++j)
      for (int64_t i = 0; i < n[0]; ++i) {
        const T* p = padded.data() + ((k + 1) * py + j + 1) * px + i + 1;
        const T here = diffusion_update<Points>(StridedAt<T>{p, 1, px, px * py}, w);
        const T lib = library[static_cast<size_t>((k * n[1] + j) * n[0] + i)];
        differing += std::memcmp(&here, &lib, sizeof(T)) != 0;
      }
  EXPECT_EQ(differing, 0u) << Points << "-point, " << sizeof(T) * 8 << "-bit";
  EXPECT_NE(library, c);  // the step did something
}

TEST(CpuClones, DiffusionStepHasTheBitsOfTheBaselineBuild) {
  expect_baseline_bits<double, 7>();
  expect_baseline_bits<double, 19>();
  expect_baseline_bits<float, 7>();
  expect_baseline_bits<float, 19>();
}

// stencil_sum groups neighbours of equal weight, (a + b) - 2c and ((a + b) + (c + d)) - 4c
// (diffusion.cuh): a uniform neighbourhood gives exactly 0 at any magnitude, and the
// error against the exact sum is the rounding of the group sums, at most ulp(2M) / 2 per
// face group and ulp(4M) per edge group (M the largest |value|: three roundings of sums
// of size 2M, 2M, 4M), plus the relative rounding of the weighted terms. Summing all
// neighbours before taking the centre, or taking the centre as -24c, breaks one of these.
template <class T>
void expect_grouped_rounding() {
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> weight(0.01, 0.2), unit(-1.0, 1.0);
  const double eps = std::numeric_limits<T>::epsilon();
  for (int trial = 0; trial < 2000; ++trial) {
    DiffusionWeights<T> w;
    for (int a = 0; a < 3; ++a) {
      w.face[a] = static_cast<T>(weight(gen));
      w.edge[a] = static_cast<T>(weight(gen) / 2);
    }
    const double offset = std::ldexp(1.0, static_cast<int>(trial % 40) - 10);  // 2^-10 .. 2^29
    const double spread = trial % 2 ? offset * 1e-3 : offset;                   // near-uniform or not
    T v[3][3][3];
    for (auto& plane : v)
      for (auto& row : plane)
        for (auto& x : row) x = static_cast<T>(offset + spread * unit(gen));
    auto at = [&](int dx, int dy, int dz) { return v[dz + 1][dy + 1][dx + 1]; };
    const auto got = stencil_sum<19, T>(at, w);

    long double exact = 0;
    double terms = 0, bound = 0, m = 0;
    for (const auto& plane : v)
      for (const auto& row : plane)
        for (T x : row) m = std::max(m, std::fabs(static_cast<double>(x)));
    const double ulp2 = std::ldexp(eps, std::ilogb(2 * m)), ulp4 = std::ldexp(eps, std::ilogb(4 * m));
    const int axis_d[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int a = 0; a < 3; ++a) {
      const int* d = axis_d[a];
      const long double c = at(0, 0, 0);
      const long double g = ((long double)at(-d[0], -d[1], -d[2]) - c) + ((long double)at(d[0], d[1], d[2]) - c);
      exact += w.face[a] * g;
      terms += std::fabs(static_cast<double>(w.face[a] * g));
      bound += w.face[a] * ulp2 / 2;
    }
    const int planes[3][2] = {{0, 1}, {0, 2}, {1, 2}};  // xy, xz, yz
    for (int e = 0; e < 3; ++e) {
      long double g = 0;
      for (int s0 : {-1, 1})
        for (int s1 : {-1, 1}) {
          int o[3] = {0, 0, 0};
          o[planes[e][0]] = s0;
          o[planes[e][1]] = s1;
          g += (long double)at(o[0], o[1], o[2]) - at(0, 0, 0);
        }
      exact += w.edge[e] * g;
      terms += std::fabs(static_cast<double>(w.edge[e] * g));
      bound += w.edge[e] * ulp4;
    }
    // The weighted terms and their five additions round relative to their sizes.
    bound += 8 * eps * terms;
    ASSERT_LE(std::fabs(static_cast<double>(got - exact)), bound) << "trial " << trial << " offset " << offset;
    if (trial % 2 == 0) continue;
    for (auto& plane : v)  // uniform: exactly 0
      for (auto& row : plane)
        for (auto& x : row) x = static_cast<T>(offset);
    ASSERT_EQ((stencil_sum<19, T>(at, w)), T(0)) << "offset " << offset;
  }
}

TEST(StencilSum, UniformGivesZeroAndRoundingStaysAtTheValuesUlp) {
  expect_grouped_rounding<double>();
  expect_grouped_rounding<float>();
}

// On the GPU a component without linear terms adds -0 (kept_or's fill)
// (cell_update), which must leave every sum's bits as skipping the terms does (the
// 7-point pass skips them, kNoLinearTerms): a + -0 is a, for -0 and +0 too (+0 would turn
// -0 into +0); kept, the value is itself. (The bits of the two paths themselves:
// test_steps_per_pass on CUDA.)
template <class T>
void expect_negative_zero_is_the_identity() {
  const T values[] = {T(0), -T(0), T(1.5), -T(2.25), std::numeric_limits<T>::denorm_min(),
                      -std::numeric_limits<T>::max(), std::numeric_limits<T>::infinity()};
  for (T a : values)
    for (T v : values) {
      const T skipped = a, added = a + opsplit::field::kept_or(v, false, -T(0));
      EXPECT_EQ(std::memcmp(&skipped, &added, sizeof(T)), 0) << a << " + dropped " << v;
      const T kept = opsplit::field::kept_or(v, true, -T(0));
      EXPECT_EQ(std::memcmp(&kept, &v, sizeof(T)), 0) << v;
    }
}

TEST(LinearTerms, ADroppedTermLeavesTheSumsBits) {
  expect_negative_zero_is_the_identity<double>();
  expect_negative_zero_is_the_identity<float>();
}

// The GPU of a context from opsplit_context_create: OPSPLIT_CUDA_DEVICE, else the
// node-local rank an MPI launcher gives modulo the GPUs, else 0.
TEST(DefaultCudaDevice, OverrideThenNodeLocalRankThenZero) {
  std::map<std::string, std::string> env;
  auto get = [&env](const char* name) -> const char* {
    const auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  EXPECT_EQ(opsplit::default_cuda_device(4, get), 0);
  env["OMPI_COMM_WORLD_LOCAL_RANK"] = "5";
  EXPECT_EQ(opsplit::default_cuda_device(4, get), 1);
  env.clear();
  env["SLURM_LOCALID"] = "3";
  EXPECT_EQ(opsplit::default_cuda_device(2, get), 1);
  env["MPI_LOCALRANKID"] = "2";  // MPICH's comes before Slurm's
  EXPECT_EQ(opsplit::default_cuda_device(2, get), 0);
  env["OPSPLIT_CUDA_DEVICE"] = "1";
  EXPECT_EQ(opsplit::default_cuda_device(2, get), 1);
  for (const char* bad : {"2", "-1", "x", "1x"}) {
    env["OPSPLIT_CUDA_DEVICE"] = bad;
    EXPECT_THROW(opsplit::default_cuda_device(2, get), opsplit::Error) << bad;
  }
}

// The environment variables (core/environment.hpp), each parsed where it is read: the
// values each takes, unset and empty alike, and a value none of them refused with its
// name (OPSPLIT_DEVICE_IPC's reported by the group: kBad).
TEST(Environment, EachVariableTakesItsValuesAndNamesABadOne) {
  namespace env = opsplit::environment;
  auto with = [](const char* name, const char* value, auto read) {
    if (value != nullptr) setenv(name, value, 1); else unsetenv(name);
    auto result = read();
    unsetenv(name);
    return result;
  };
  auto message = [](auto read) {
    try {
      read();
    } catch (const opsplit::Error& e) {
      return std::string(e.what()) + " (" + std::to_string(e.status()) + ")";
    }
    return std::string("no error");
  };
  EXPECT_EQ(with("OPSPLIT_BACKEND", nullptr, env::backend), std::nullopt);
  EXPECT_EQ(with("OPSPLIT_BACKEND", "", env::backend), std::nullopt);
  EXPECT_EQ(with("OPSPLIT_BACKEND", "cpu", env::backend), OPSPLIT_BACKEND_CPU);
  EXPECT_EQ(with("OPSPLIT_BACKEND", "cuda", env::backend), OPSPLIT_BACKEND_CUDA);
  EXPECT_EQ(with("OPSPLIT_BACKEND", "gpu", [&] { return message(env::backend); }),
            "the environment variable OPSPLIT_BACKEND='gpu' is not cpu or cuda (1)");
  EXPECT_EQ(with("OPSPLIT_ODE_CUDA_ROUNDS", nullptr, env::ode_cuda_rounds), env::Rounds::kAuto);
  EXPECT_EQ(with("OPSPLIT_ODE_CUDA_ROUNDS", "auto", env::ode_cuda_rounds), env::Rounds::kAuto);
  EXPECT_EQ(with("OPSPLIT_ODE_CUDA_ROUNDS", "off", env::ode_cuda_rounds), env::Rounds::kOff);
  EXPECT_EQ(with("OPSPLIT_ODE_CUDA_ROUNDS", "always", env::ode_cuda_rounds), env::Rounds::kAlways);
  EXPECT_EQ(with("OPSPLIT_ODE_CUDA_ROUNDS", "never", [&] { return message(env::ode_cuda_rounds); }),
            "the environment variable OPSPLIT_ODE_CUDA_ROUNDS='never' is not auto, off or always (1)");
  EXPECT_EQ(with("OPSPLIT_DEVICE_IPC", "", env::device_ipc), env::DeviceIpc::kAuto);
  EXPECT_EQ(with("OPSPLIT_DEVICE_IPC", "1", env::device_ipc), env::DeviceIpc::kAuto);
  EXPECT_EQ(with("OPSPLIT_DEVICE_IPC", "0", env::device_ipc), env::DeviceIpc::kOff);
  EXPECT_EQ(with("OPSPLIT_DEVICE_IPC", "require", env::device_ipc), env::DeviceIpc::kRequire);
  EXPECT_EQ(with("OPSPLIT_DEVICE_IPC", "mixed", env::device_ipc), env::DeviceIpc::kMixed);
  EXPECT_EQ(with("OPSPLIT_DEVICE_IPC", "yes", env::device_ipc), env::DeviceIpc::kBad);
  EXPECT_TRUE(with("OPSPLIT_HALO_OVERLAP", nullptr, env::halo_overlap));
  EXPECT_TRUE(with("OPSPLIT_HALO_OVERLAP", "1", env::halo_overlap));
  EXPECT_FALSE(with("OPSPLIT_HALO_OVERLAP", "0", env::halo_overlap));
  EXPECT_EQ(with("OPSPLIT_CUDA_DEVICE", "1", [] { return env::cuda_device(2); }), 1);
  EXPECT_EQ(with("OPSPLIT_CUDA_DEVICE", "2", [&] { return message([] { return env::cuda_device(2); }); }),
            "the environment variable OPSPLIT_CUDA_DEVICE='2' is not a device in 0 .. 1 (1)");
}

// The views a distributed step splits into (field/halo.hpp): every cell in exactly one
// view, each view 3D (at least 2 cells an axis), the interior first and 2 cells away
// from every remote face, cuts exactly where a view's face is inside the field.
TEST(OverlapViews, PartitionTheGridAroundTheRemoteFaces) {
  using opsplit::field::GridView;
  const opsplit::field::Grid grid = opsplit::field::Grid::make(5, 9, 8, 1, 1);
  for (int mask = 0; mask < 64; ++mask) {
    bool remote[6];
    for (int f = 0; f < 6; ++f) remote[f] = (mask >> f & 1) != 0;
    const std::vector<GridView> views = opsplit::field::overlap_views(grid, remote);
    const bool expect = !remote[0] && !remote[1] && (mask & 0x3c) != 0;
    ASSERT_EQ(!views.empty(), expect) << "mask " << mask;
    if (views.empty()) continue;
    std::vector<int> owner(5 * 9 * 8, 0);
    for (const GridView& v : views) {
      for (int a = 0; a < 3; ++a) {
        EXPECT_GE(v.n[a], 2) << "mask " << mask;
        for (int side = 0; side < 2; ++side) {
          const bool inside = side == 0 ? v.origin[a] > 0 : v.origin[a] + v.n[a] < grid.n[a];
          EXPECT_EQ(v.cut[2 * a + side], inside) << "mask " << mask << " axis " << a;
        }
      }
      for (int64_t k = v.origin[2]; k < v.origin[2] + v.n[2]; ++k)
        for (int64_t j = v.origin[1]; j < v.origin[1] + v.n[1]; ++j)
          for (int64_t i = v.origin[0]; i < v.origin[0] + v.n[0]; ++i) ++owner[static_cast<size_t>((k * 9 + j) * 5 + i)];
    }
    EXPECT_EQ(std::count(owner.begin(), owner.end(), 1), static_cast<long>(owner.size())) << "mask " << mask;
    const GridView& inner = views[0];
    for (int a = 1; a < 3; ++a) {
      EXPECT_EQ(inner.origin[a], remote[2 * a] ? 2 : 0);
      EXPECT_EQ(inner.origin[a] + inner.n[a], grid.n[a] - (remote[2 * a + 1] ? 2 : 0));
    }
  }
  const bool z_both[6] = {false, false, false, false, true, true};
  EXPECT_TRUE(opsplit::field::overlap_views(opsplit::field::Grid::make(5, 9, 5, 1, 1), z_both).empty());  // 1 plane left
  EXPECT_FALSE(opsplit::field::overlap_views(opsplit::field::Grid::make(5, 9, 6, 1, 1), z_both).empty());
}

// The exact sum (core/exact_sum.hpp): rounded once to nearest even, whatever the order
// and however it was split.
static double exact_sum_of(std::initializer_list<double> xs) {
  opsplit::ExactSum sum;
  for (double x : xs) sum.add(x);
  return sum.value();
}

TEST(ExactSum, RoundsOnceToNearestEven) {
  const double u = std::ldexp(1.0, -53);  // half an ulp of 1
  EXPECT_EQ(exact_sum_of({1.0, u}), 1.0);  // a tie: to even
  EXPECT_EQ(exact_sum_of({1.0, u, u}), 1.0 + 2 * u);  // a plain sum left 1
  EXPECT_EQ(exact_sum_of({1.0, u, std::ldexp(1.0, -200)}), 1.0 + 2 * u);  // past the tie
  EXPECT_EQ(exact_sum_of({1.0 + 2 * u, u}), 1.0 + 4 * u);  // a tie from an odd mantissa: up
  EXPECT_EQ(exact_sum_of({1e308, 1e-308, -1e308}), 1e-308);
  EXPECT_EQ(exact_sum_of({0.5, -1.0}), -0.5);
  EXPECT_EQ(exact_sum_of({-1.0, std::ldexp(1.0, -60)}), -1.0);
  EXPECT_EQ(exact_sum_of({}), 0.0);
  EXPECT_EQ(exact_sum_of({3.0, -3.0}), 0.0);
}

TEST(ExactSum, SubnormalsOverflowAndSpecials) {
  const double tiny = std::numeric_limits<double>::denorm_min(), min = std::numeric_limits<double>::min();
  const double max = std::numeric_limits<double>::max(), inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(exact_sum_of({tiny, tiny, tiny}), 3 * tiny);
  EXPECT_EQ(exact_sum_of({min / 2, min / 2}), min);
  EXPECT_EQ(exact_sum_of({min, -tiny}), min - tiny);
  EXPECT_EQ(exact_sum_of({max, max}), inf);
  EXPECT_EQ(exact_sum_of({max, max, -max}), max);  // exact where IEEE addition overflows
  EXPECT_EQ(exact_sum_of({-max, -max}), -inf);
  EXPECT_EQ(exact_sum_of({inf, 1.0}), inf);
  EXPECT_TRUE(std::isnan(exact_sum_of({inf, -inf, 1.0})));
  EXPECT_TRUE(std::isnan(exact_sum_of({1.0, std::nan("")})));
}

// Multiples of 2^-30 below 2^41 in magnitude: their sum is exact in int64, and int64 to
// double rounds to nearest even, so it is the reference. Orders and splits must agree.
TEST(ExactSum, EqualsTheIntegerSumInAnyOrderAndSplit) {
  std::mt19937_64 random(7);
  std::uniform_int_distribution<int64_t> draw(-(int64_t{1} << 41), int64_t{1} << 41);
  std::vector<double> values;
  int64_t exact = 0;
  for (int i = 0; i < 20000; ++i) {
    const int64_t k = draw(random) >> (i % 37);  // magnitudes over many exponents
    exact += k;
    values.push_back(std::ldexp(static_cast<double>(k), -30));
  }
  const double reference = std::ldexp(static_cast<double>(exact), -30);
  opsplit::ExactSum whole;
  for (double x : values) whole.add(x);
  EXPECT_EQ(whole.value(), reference);
  for (int round = 0; round < 4; ++round) {
    std::shuffle(values.begin(), values.end(), random);
    opsplit::ExactSum parts[3];
    for (size_t i = 0; i < values.size(); ++i) parts[(i * 7 + round) % 3].add(values[i]);
    opsplit::ExactSum merged, from_limbs;
    for (const opsplit::ExactSum& p : parts) merged.merge(p), from_limbs.add_limbs(p.limbs());
    EXPECT_EQ(merged.value(), reference);
    EXPECT_EQ(from_limbs.value(), reference);
  }
}

// What a device form accepts (core/device_array.hpp), from facts as CUDA reports them
// (docs/research/device_pointers.md has what an H200 reported for each kind of memory).
namespace {
opsplit::cuda::PointerFacts device_facts(uintptr_t start, size_t size, int device = 0) {
  opsplit::cuda::PointerFacts f;
  f.kind = opsplit::cuda::PointerFacts::Kind::device;
  f.device = device;
  f.range_known = true;
  f.range_start = start, f.range_size = size;
  return f;
}
const void* at(uintptr_t address) { return reinterpret_cast<const void*>(address); }
}  // namespace

TEST(DeviceArrays, AWholeAllocationOfTheRightSizeOnTheContextsGpuWillDo) {
  using opsplit::device_array_problem;
  EXPECT_EQ(device_array_problem(device_facts(0x10000, 8000), at(0x10000), 8000, 8, 0, "y"), "");
  EXPECT_EQ(device_array_problem(device_facts(0x10000, 8000), at(0x10000 + 800), 7200, 8, 0, "y"), "");  // interior
  opsplit::cuda::PointerFacts managed = device_facts(0x10000, 8000);
  managed.kind = opsplit::cuda::PointerFacts::Kind::managed;
  EXPECT_EQ(device_array_problem(managed, at(0x10000), 8000, 8, 0, "y"), "");
  opsplit::cuda::PointerFacts unknown_range = device_facts(0, 0);
  unknown_range.range_known = false;  // no size to check against: accepted
  EXPECT_EQ(device_array_problem(unknown_range, at(0x10000), 1 << 30, 8, 0, "y"), "");
  EXPECT_EQ(device_array_problem(device_facts(0x10000, 8000), at(0x10000), 0, 8, 0, "y"), "");  // nothing to hold
}

TEST(DeviceArrays, EachWrongKindOfMemoryIsNamed) {
  using opsplit::device_array_problem;
  using Kind = opsplit::cuda::PointerFacts::Kind;
  opsplit::cuda::PointerFacts host;
  EXPECT_EQ(device_array_problem(host, at(0x10000), 8, 8, 0, "y"),
            "y is host memory, not device memory (CUDA does not know it)");
  opsplit::cuda::PointerFacts pinned;
  pinned.kind = Kind::page_locked_host;
  EXPECT_EQ(device_array_problem(pinned, at(0x10000), 8, 8, 0, "params"),
            "params is page-locked host memory, not device memory");
  EXPECT_EQ(device_array_problem(device_facts(0x10000, 8000, 1), at(0x10000), 8000, 8, 0, "y"),
            "y is memory of GPU 1; this context works on GPU 0");
  opsplit::cuda::PointerFacts foreign = device_facts(0x10000, 8000);
  foreign.other_context = true;
  EXPECT_NE(device_array_problem(foreign, at(0x10000), 8000, 8, 0, "y").find("another CUDA context"), std::string::npos);
  EXPECT_EQ(device_array_problem(device_facts(0x10000, 8000), at(0x10001), 8, 8, 0, "y").find("y (0x"), 0u);
  EXPECT_NE(device_array_problem(device_facts(0x10000, 8000), at(0x10004), 8, 8, 0, "y").find("not aligned to 8 bytes"),
            std::string::npos);
  EXPECT_EQ(device_array_problem(device_facts(0x10000, 7992), at(0x10000), 8000, 8, 0, "y"),
            "y lies in an allocation that ends 7992 bytes after it; 8000 bytes are needed");
  EXPECT_EQ(device_array_problem(device_facts(0x10000, 8000), at(0x10000 + 8), 8000, 8, 0, "y"),
            "y lies in an allocation that ends 7992 bytes after it; 8000 bytes are needed");
  // A pointer outside the range CUDA reported (it cannot be, but the arithmetic must not wrap).
  EXPECT_NE(device_array_problem(device_facts(0x10000, 8000), at(0x8000), 8, 8, 0, "y").find("outside the allocation"),
            std::string::npos);
}

TEST(DeviceArrays, AHostArrayMayBeAnythingButDeviceMemory) {
  using opsplit::host_array_problem;
  using Kind = opsplit::cuda::PointerFacts::Kind;
  opsplit::cuda::PointerFacts f;
  EXPECT_EQ(host_array_problem(f, "y"), "");
  f.kind = Kind::page_locked_host;
  EXPECT_EQ(host_array_problem(f, "y"), "");
  f.kind = Kind::managed;
  EXPECT_EQ(host_array_problem(f, "y"), "");
  f.kind = Kind::device;
  EXPECT_EQ(host_array_problem(f, "y"), "y is device memory, where a host array is expected (the _device form takes it)");
}
