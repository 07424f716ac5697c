// 3D diffusion on the CPU backend, through the public C API only.
//
// Cases: 7-point and 19-point stencil x FLOAT32 and FLOAT64 x 1 thread and all threads
// (omp_get_max_threads(), set with opsplit_context_set_num_threads). One component,
// D = 1, h = 1, NOFLUX on every face, dt = 0.9 * opsplit_rd_max_stable_dt, a smooth
// non-zero initial field. Grid N^3 with N = 256 by default (the seed's Table 6 grid; the
// two buffers, 2 x 64 MiB in FLOAT32, exceed the L3 of the machines used here); the
// environment variable OPSPLIT_BENCH_CPU_N overrides N.
//
// Bound: an OpenMP STREAM-like triad a[i] = b[i] + s*c[i] on 3 arrays of 64 MiB each,
// counting 3 arrays of bytes per pass. It is measured at startup (best of several passes,
// once with 1 thread and once with all threads) and is also a benchmark of its own.
//
// Counters of each diffusion case:
//   Mpoints_per_s      cells * steps / time
//   GB_per_s           effective: 2 * cells * sizeof(value) per step (one read, one write:
//                      the minimum traffic of a step), / time
//   frac_of_triad_bw   GB_per_s / startup triad bandwidth with the same thread count
//   x_seed_cpu         Mpoints_per_s / kSeedCpuMpoints (the seed's serial CPU reference)
//   x_1thread          (all-threads cases only) Mpoints_per_s / that of the same case on
//                      1 thread, when that case ran earlier in this program
//   steps_per_pass     opsplit_rd_set_steps_per_pass: 1, or 2, 4, 8 steps fused a pass
//                      (temporal blocking; GB_per_s then counts the traffic of one step a
//                      pass, an effective bandwidth that can pass the triad's)
//   x_one_step_a_pass  (fused cases) Mpoints_per_s / that of the same case one step a pass
//
// Model cases (model_cpu/<problem>/<precision>[/steps_per_pass:k]/nthreads:<n>): the seed
// problems of seed_problems.hpp on M^3 cells, M = 128 by default
// (OPSPLIT_BENCH_CPU_MODEL_N), 1 thread and all threads, 8 steps a call, one step a pass
// and (all threads) 2 and 4 (the counter steps_per_pass_taken: 1 where the model does not
// fuse, as with Cahn-Hilliard terms); GB_per_s counts one read and one write of every
// component per step;
// x_seed_cpu divides by the seed's serial CPU speed of the same problem (Table 6) and
// x_seed_gtx275 by its best GTX 275 speed. model_cpu/advection_field/...: the advection
// problem with a per-cell velocity field instead of its uniform wind (bench_mpi_field's
// wind19: u = 5 + 2 z / M, v = 1), the flux form's scalar row loop.
//
// Run: build-bench/bench/bench_diffusion_cpu [--benchmark_filter=...] [--benchmark_min_time=...]

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "opsplit/core.h"
#include "opsplit/field.h"
#include "initial_data.hpp"
#include "seed_problems.hpp"

namespace {

// The seed (Molnar et al. 2011), Table 6: "Simulation speed of the reference CPU
// implementations on a 2.8 GHz desktop computer", row "Diffusion", column "Reference
// Mpoints/s" (2.8 GHz Core 2 Duo, 256x256x256 grid), reads 89.2. That reference is
// single-threaded, single precision (float arrays, Table 3) and uses the 19-point stencil
// (Eq. 4), so x_seed_cpu is like-for-like only for 19pt/f32 on 1 thread; the other cases
// report the same ratio for comparison.
constexpr double kSeedCpuMpoints = 89.2;

// Steps a call of the diffusion cases: 8, so that every steps_per_pass case fuses whole
// passes (until 2026-11-30 one step a call; at 256^3 a call's own cost is under 0.1 %).
constexpr int64_t kStepsPerIteration = 8;
constexpr size_t kTriadArrayBytes = size_t(64) << 20;  // per array; 3 arrays
constexpr int kTriadStartupPasses = 10;

using Clock = std::chrono::steady_clock;

int64_t grid_n() {
  if (const char* s = std::getenv("OPSPLIT_BENCH_CPU_N")) {
    const long v = std::strtol(s, nullptr, 10);
    if (v >= 8 && v <= 2048) return v;
    std::fprintf(stderr, "OPSPLIT_BENCH_CPU_N=%s ignored (8..2048)\n", s);
  }
  return 256;
}

using bench::api_error;

// ---- triad -------------------------------------------------------------------------

struct TriadArrays {
  size_t n = kTriadArrayBytes / sizeof(double);
  std::unique_ptr<double[]> a{new double[n]}, b{new double[n]}, c{new double[n]};

  TriadArrays() {
    // First touch by all threads, so pages spread as the parallel passes use them.
    const int64_t m = static_cast<int64_t>(n);
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < m; ++i) {
      a[i] = 0.0;
      b[i] = 1.0 + 1e-9 * static_cast<double>(i % 1000);
      c[i] = 2.0 - 1e-9 * static_cast<double>(i % 977);
    }
  }
  double bytes_per_pass() const { return 3.0 * static_cast<double>(n * sizeof(double)); }

  // One pass; returns its seconds.
  double pass(int nthreads, double s) {
    double* __restrict pa = a.get();
    const double* __restrict pb = b.get();
    const double* __restrict pc = c.get();
    const int64_t m = static_cast<int64_t>(n);
    const auto t0 = Clock::now();
#pragma omp parallel for num_threads(nthreads) schedule(static)
    for (int64_t i = 0; i < m; ++i) pa[i] = pb[i] + s * pc[i];
    const auto t1 = Clock::now();
    benchmark::DoNotOptimize(pa);
    benchmark::ClobberMemory();
    return std::chrono::duration<double>(t1 - t0).count();
  }
};

TriadArrays& triad_arrays() {
  static TriadArrays arrays;
  return arrays;
}

// Startup bounds, GB/s, by thread count (1 and all).
std::map<int, double> g_triad_gbps;

// The best pass of at least kTriadStartupPasses and half a second: a few passes right
// after start can catch idle cores that have not woken up yet and read far below the
// triad benchmark of the same run (docs/performance-history.md, '3D diffusion, CPU').
double startup_triad_gbps(int nthreads) {
  TriadArrays& t = triad_arrays();
  t.pass(nthreads, 3.0);  // warm-up
  double best = 1e300, total = 0.0;
  for (int r = 0; r < kTriadStartupPasses || total < 0.5; ++r) {
    const double s = t.pass(nthreads, 3.0);
    best = std::min(best, s);
    total += s;
  }
  return t.bytes_per_pass() / best / 1e9;
}

void BM_triad(benchmark::State& state, int nthreads) {
  TriadArrays& t = triad_arrays();
  t.pass(nthreads, 3.0);
  double seconds = 0.0;
  for (auto _ : state) {
    const double s = t.pass(nthreads, 3.0);
    state.SetIterationTime(s);
    seconds += s;
  }
  const double gbps = t.bytes_per_pass() * static_cast<double>(state.iterations()) / seconds / 1e9;
  state.counters["GB_per_s"] = gbps;
  state.counters["frac_of_startup_triad"] = gbps / g_triad_gbps.at(nthreads);
  state.counters["nthreads"] = nthreads;
}

// ---- diffusion ---------------------------------------------------------------------

// One CPU context, one field per precision, one model per stencil; made on first use
// and kept for the whole program (the field keeps diffusing between cases: it stays
// smooth, non-zero and away from denormals, since NOFLUX keeps its mean at ~1).
struct World {
  opsplit_context ctx = nullptr;
  opsplit_field field[2] = {nullptr, nullptr};  // index: opsplit_precision
  opsplit_rd rd7 = nullptr, rd19 = nullptr;
  int64_t n = 0;
  std::string error;

  opsplit_rd rd(int stencil) const { return stencil == 7 ? rd7 : rd19; }

  void destroy() {
    if (rd7) opsplit_rd_destroy(&rd7);
    if (rd19) opsplit_rd_destroy(&rd19);
    for (opsplit_field& f : field)
      if (f) opsplit_field_destroy(&f);
    if (ctx) opsplit_context_destroy(&ctx);
  }
};

World g_world;


#define WORLD_CHECK(call)                           \
  do {                                              \
    const opsplit_status st_ = (call);              \
    if (st_ != OPSPLIT_SUCCESS) {                   \
      w.error = api_error(#call, st_);              \
      return;                                       \
    }                                               \
  } while (0)

void make_rd(World& w, int stencil, opsplit_rd* out) {
  WORLD_CHECK(opsplit_rd_create(w.ctx, 1, out));
  WORLD_CHECK(opsplit_rd_set_stencil(*out, stencil == 7 ? OPSPLIT_STENCIL_7POINT : OPSPLIT_STENCIL_19POINT));
  WORLD_CHECK(opsplit_rd_set_diffusion(*out, 0, 1.0));
  for (int face = OPSPLIT_FACE_XLO; face <= OPSPLIT_FACE_ZHI; ++face)
    WORLD_CHECK(opsplit_rd_set_boundary(*out, static_cast<opsplit_face>(face), 0, OPSPLIT_BC_NOFLUX, 0.0));
}

template <typename T>
void make_field(World& w, opsplit_precision prec) {
  opsplit_field* f = &w.field[prec];
  WORLD_CHECK(opsplit_field_create(w.ctx, w.n, w.n, w.n, 1, prec, f));
  const std::vector<T> data = bench::initial_data<T>(w.n);
  WORLD_CHECK(opsplit_field_upload(*f, data.data(), OPSPLIT_LAYOUT_PLANAR));
}

void make_context(World& w) {
  w.n = grid_n();
  WORLD_CHECK(opsplit_context_create(OPSPLIT_BACKEND_CPU, &w.ctx));
  make_rd(w, 7, &w.rd7);
  if (w.error.empty()) make_rd(w, 19, &w.rd19);
}

// Returns "" when the world is ready for this precision, else the error.
const std::string& world_ready(opsplit_precision prec) {
  World& w = g_world;
  if (!w.error.empty()) return w.error;
  if (!w.ctx) {
    make_context(w);
    if (!w.error.empty()) return w.error;
  }
  if (!w.field[prec]) {
    if (prec == OPSPLIT_FLOAT32)
      make_field<float>(w, prec);
    else
      make_field<double>(w, prec);
  }
  return w.error;
}
#undef WORLD_CHECK

std::map<std::string, double> g_one_thread_mpoints;  // key: "7pt/f64"
std::map<std::string, double> g_one_step_model_mpoints;  // key: "model/turing/f64/nthreads:16"
std::map<std::string, double> g_single_pass_mpoints;  // key: "7pt/f64/<threads>"

void BM_diffusion(benchmark::State& state, int stencil, opsplit_precision prec, int nthreads, int pass) {
  const std::string& err = world_ready(prec);
  if (!err.empty()) {
    state.SkipWithError(err.c_str());
    return;
  }
  const World& w = g_world;
  opsplit_rd rd = w.rd(stencil);
  opsplit_field field = w.field[prec];
  std::string msg;
  auto check = [&](const char* call, opsplit_status st) {
    if (st == OPSPLIT_SUCCESS) return true;
    msg = api_error(call, st);
    state.SkipWithError(msg.c_str());
    return false;
  };
  if (!check("opsplit_context_set_num_threads", opsplit_context_set_num_threads(w.ctx, nthreads))) return;
  if (!check("opsplit_rd_set_steps_per_pass", opsplit_rd_set_steps_per_pass(rd, pass))) return;
  double dt_max = 0.0;
  if (!check("opsplit_rd_max_stable_dt", opsplit_rd_max_stable_dt(rd, field, &dt_max))) return;
  const double dt = 0.9 * dt_max;
  if (!check("opsplit_rd_step (warm-up)", opsplit_rd_step(rd, field, dt, kStepsPerIteration))) return;

  double seconds = 0.0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    const opsplit_status st = opsplit_rd_step(rd, field, dt, kStepsPerIteration);
    seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    if (!check("opsplit_rd_step", st)) break;
  }
  opsplit_rd_set_steps_per_pass(rd, 1);  // the next case's default
  if (state.error_occurred() || seconds <= 0.0) return;

  const double cells = static_cast<double>(w.n * w.n * w.n);
  const double steps = static_cast<double>(kStepsPerIteration) * static_cast<double>(state.iterations());
  const double value_bytes = prec == OPSPLIT_FLOAT32 ? 4.0 : 8.0;
  const double mpoints = cells * steps / seconds / 1e6;
  const double gbps = 2.0 * cells * value_bytes * steps / seconds / 1e9;
  state.counters["Mpoints_per_s"] = mpoints;
  state.counters["GB_per_s"] = gbps;
  state.counters["frac_of_triad_bw"] = gbps / g_triad_gbps.at(nthreads);
  state.counters["x_seed_cpu"] = mpoints / kSeedCpuMpoints;
  const std::string key = std::to_string(stencil) + "pt/" + (prec == OPSPLIT_FLOAT32 ? "f32" : "f64");
  state.counters["steps_per_pass"] = pass;
  if (pass > 1) {  // against the same case one step a pass, measured just before
    const auto it = g_single_pass_mpoints.find(key + "/" + std::to_string(nthreads));
    if (it != g_single_pass_mpoints.end()) state.counters["x_one_step_a_pass"] = mpoints / it->second;
    return;
  }
  g_single_pass_mpoints[key + "/" + std::to_string(nthreads)] = mpoints;
  if (nthreads == 1) {
    g_one_thread_mpoints[key] = mpoints;
  } else {
    const auto it = g_one_thread_mpoints.find(key);
    if (it != g_one_thread_mpoints.end()) state.counters["x_1thread"] = mpoints / it->second;
  }
}

int64_t model_n() {
  if (const char* s = std::getenv("OPSPLIT_BENCH_CPU_MODEL_N")) {
    const long v = std::strtol(s, nullptr, 10);
    if (v >= 8 && v <= 1024) return v;
  }
  return 128;
}

// The advection problem's wind as a per-cell velocity field (a shear along x growing with z).
opsplit_status set_wind_field(opsplit_context ctx, opsplit_rd rd, opsplit_field field, int64_t n,
                              opsplit_precision prec, double* dt) {
  const int64_t plane = n * n, cells = plane * n;
  std::vector<double> u(static_cast<size_t>(3 * cells), 0.0);
  for (int64_t z = 0; z < n; ++z)
    for (int64_t i = 0; i < plane; ++i) {
      u[static_cast<size_t>(z * plane + i)] = 5.0 + 2.0 * static_cast<double>(z) / static_cast<double>(n);
      u[static_cast<size_t>(cells + z * plane + i)] = 1.0;
    }
  std::vector<float> uf(u.begin(), u.end());
  opsplit_field wind = nullptr;
  opsplit_status st = opsplit_field_create(ctx, n, n, n, 3, prec, &wind);
  if (st == OPSPLIT_SUCCESS)
    st = opsplit_field_upload(wind, prec == OPSPLIT_FLOAT32 ? static_cast<const void*>(uf.data()) : u.data(),
                              OPSPLIT_LAYOUT_PLANAR);
  for (int a = 0; a < 3 && st == OPSPLIT_SUCCESS; ++a) st = opsplit_rd_set_velocity(rd, a, 0.0, 0.0, 0.0, 0.0);
  if (st == OPSPLIT_SUCCESS) st = opsplit_rd_set_velocity_field(rd, wind);
  double limit = 0.0;
  if (st == OPSPLIT_SUCCESS) st = opsplit_rd_max_stable_dt(rd, field, &limit);
  if (st == OPSPLIT_SUCCESS) *dt = std::min(*dt, 0.9 * limit);
  if (wind) opsplit_field_destroy(&wind);  // the model keeps a copy
  return st;
}

void BM_model(benchmark::State& state, bench::Problem p, opsplit_precision prec, int nthreads, int pass,
              bool wind_field) {
  const bench::ProblemInfo info = bench::problem_info(p);
  const int64_t n = model_n();
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_rd rd = nullptr;
  opsplit_field field = nullptr;
  double dt = 0.0, seconds = 0.0;
  opsplit_status st = opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx);
  if (st == OPSPLIT_SUCCESS) st = opsplit_context_set_num_threads(ctx, nthreads);
  if (st != OPSPLIT_SUCCESS) error = api_error("opsplit_context_create/set_num_threads", st);
  int taken = 0;
  if (error.empty() && bench::make_seed_problem(ctx, n, p, prec, &rd, &field, &dt, error)) {
    st = wind_field ? set_wind_field(ctx, rd, field, n, prec, &dt) : OPSPLIT_SUCCESS;
    if (st == OPSPLIT_SUCCESS) st = opsplit_rd_set_steps_per_pass(rd, pass);
    if (st == OPSPLIT_SUCCESS) st = opsplit_rd_step(rd, field, dt, kStepsPerIteration);  // warm-up
    for (auto _ : state) {
      if (st != OPSPLIT_SUCCESS) break;
      const auto t0 = Clock::now();
      st = opsplit_rd_step(rd, field, dt, kStepsPerIteration);
      seconds += std::chrono::duration<double>(Clock::now() - t0).count();
    }
    if (st == OPSPLIT_SUCCESS) st = opsplit_rd_get_steps_per_pass_taken(rd, &taken);
    if (st != OPSPLIT_SUCCESS) error = api_error("opsplit_rd_step", st);
  }
  if (rd) opsplit_rd_destroy(&rd);
  if (field) opsplit_field_destroy(&field);
  if (ctx) opsplit_context_destroy(&ctx);
  if (!error.empty()) {
    state.SkipWithError(error.c_str());
    return;
  }
  const double cells = static_cast<double>(n * n * n);
  const double steps = static_cast<double>(state.iterations() * kStepsPerIteration);
  const double value_bytes = prec == OPSPLIT_FLOAT32 ? 4.0 : 8.0;
  const double mpoints = cells * steps / seconds / 1e6;
  const double gbps = 2.0 * info.ncomp * cells * value_bytes * steps / seconds / 1e9;
  state.counters["Mpoints_per_s"] = mpoints;
  state.counters["GB_per_s"] = gbps;
  state.counters["frac_of_triad_bw"] = gbps / g_triad_gbps.at(nthreads);
  state.counters["x_seed_cpu"] = mpoints / info.seed_cpu_mpoints;
  state.counters["x_seed_gtx275"] = mpoints / info.seed_gtx275_mpoints;
  state.counters["steps_per_pass"] = pass;
  state.counters["steps_per_pass_taken"] = taken;
  const std::string problem = std::string(info.name) + (wind_field ? "_field" : "");
  const std::string key = "model/" + problem + (prec == OPSPLIT_FLOAT32 ? "/f32" : "/f64") +
                          "/nthreads:" + std::to_string(nthreads);
  if (pass > 1) {
    const auto it = g_one_step_model_mpoints.find(key);
    if (it != g_one_step_model_mpoints.end()) state.counters["x_one_step_a_pass"] = mpoints / it->second;
    return;
  }
  g_one_step_model_mpoints[key] = mpoints;
  const std::string model_key = "model/" + problem + (prec == OPSPLIT_FLOAT32 ? "/f32" : "/f64");
  if (nthreads == 1) {
    g_one_thread_mpoints[model_key] = mpoints;
  } else {
    const auto it = g_one_thread_mpoints.find(model_key);
    if (it != g_one_thread_mpoints.end()) state.counters["x_1thread"] = mpoints / it->second;
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  const int all_threads = std::max(1, omp_get_max_threads());
  std::vector<int> thread_counts{1};
  if (all_threads > 1) thread_counts.push_back(all_threads);

  for (int nt : thread_counts) g_triad_gbps[nt] = startup_triad_gbps(nt);
  char buf[64];
  for (int nt : thread_counts) {
    std::snprintf(buf, sizeof buf, "%.2f", g_triad_gbps[nt]);
    benchmark::AddCustomContext("triad_GBps_nthreads_" + std::to_string(nt), buf);
  }
  benchmark::AddCustomContext("triad_arrays", "3 x 64 MiB double, 3 x bytes counted, best of >= 10 passes and 0.5 s");
  const int64_t n = grid_n();
  benchmark::AddCustomContext("grid", std::to_string(n) + "^3");
  std::snprintf(buf, sizeof buf, "%.1f", kSeedCpuMpoints);
  benchmark::AddCustomContext("seed_cpu_Mpoints", std::string(buf) + " (Molnar 2011 Table 6, diffusion, 1 thread)");

  for (int nt : thread_counts)
    benchmark::RegisterBenchmark(("triad/nthreads:" + std::to_string(nt)).c_str(), BM_triad, nt)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
  for (int stencil : {7, 19})
    for (opsplit_precision prec : {OPSPLIT_FLOAT32, OPSPLIT_FLOAT64})
      for (int nt : thread_counts)  // 1 thread first: the all-threads case reads its result
        for (int pass : {1, 2, 4, 8}) {  // one step a pass first: the fused cases read its result
          const std::string name = "diffusion_cpu/" + std::to_string(stencil) + "pt/" +
                                   (prec == OPSPLIT_FLOAT32 ? "f32" : "f64") +
                                   (pass > 1 ? "/steps_per_pass:" + std::to_string(pass) : std::string()) +
                                   "/nthreads:" + std::to_string(nt);
          benchmark::RegisterBenchmark(name.c_str(), BM_diffusion, stencil, prec, nt, pass)
              ->UseRealTime()
              ->Unit(benchmark::kMillisecond);
        }

  for (bench::Problem p : bench::kProblems)
    for (bool wind_field : {false, true}) {
      if (wind_field && p != bench::Problem::advection) continue;
      for (opsplit_precision prec : {OPSPLIT_FLOAT32, OPSPLIT_FLOAT64})
        for (int nt : thread_counts)
          for (int pass : {1, 2, 4}) {  // one step a pass first: the fused cases read its result
            if (pass > 1 && nt == 1) continue;
            const std::string name = std::string("model_cpu/") + bench::problem_info(p).name +
                                     (wind_field ? "_field/" : "/") + (prec == OPSPLIT_FLOAT32 ? "f32" : "f64") +
                                     (pass > 1 ? "/steps_per_pass:" + std::to_string(pass) : std::string()) +
                                     "/nthreads:" + std::to_string(nt);
            benchmark::RegisterBenchmark(name.c_str(), BM_model, p, prec, nt, pass, wind_field)
                ->UseRealTime()
                ->Unit(benchmark::kMillisecond);
          }
    }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_world.destroy();
  return 0;
}
