// 3D diffusion on the CUDA backend, through the public C API only.
//
// The program creates its own cudaStream_t and hands it to the opsplit context with
// opsplit_context_set_cuda_stream before any field exists, so every field and step runs
// on it; each timed iteration is one opsplit_rd_step(rd, field, dt, nsteps) bracketed by
// cudaEvents recorded on that stream (UseManualTime), after a warm-up call.
//
// Cases: 7-point and 19-point stencil x FLOAT32 and FLOAT64 on N^3, N = 512 by default
// (FLOAT64: 1 GiB per buffer); OPSPLIT_BENCH_GPU_N overrides N. One component, D = 1,
// h = 1, NOFLUX on every face, dt = 0.9 * opsplit_rd_max_stable_dt, a smooth non-zero
// initial field. nsteps per iteration: 24 in FLOAT64, 48 in FLOAT32 (>= ~10 ms per
// iteration at ~3-4 TB/s on 512^3; multiples of 2, 3 and 4 steps a pass).
//
// Several steps a pass (opsplit_rd_set_steps_per_pass, issue 44): the 7-point diffusion
// cases with /steps_per_pass:k (k = 2, 3, 4) fuse k steps into one pass through memory
// (at 19 points CUDA takes one step a pass: its pass was slower, docs/PERFORMANCE.md
// note (n)); their frac_of_copy_bw above 1 is past what one step a pass can reach (its
// bound is the copy bandwidth), and x_one_step_a_pass divides their Mpoints/s by the
// one-step case's of the same run (of the same faces). The 7-point cases also run with
// DIRICHLET on every face (value 0.5; /dirichlet, 1 and 4 steps a pass): the fused
// pass's tiles on a face then test their cells.
//
// Bound: device-to-device copy bandwidth, cudaMemcpyAsync of a 1 GiB buffer on the same
// stream, counting bytes read + written (2 x 1 GiB), best of 10 after a warm-up,
// measured once at startup; also a benchmark of its own (copy_d2d).
//
// Counters of each diffusion case:
//   Mpoints_per_s    cells * steps / time
//   GB_per_s         effective: 2 * cells * sizeof(value) per step (the minimum traffic)
//   frac_of_copy_bw  GB_per_s / startup copy bandwidth
//   x_seed_gtx275    Mpoints_per_s / 1800 (the seed's best GPU speed, Molnar et al. 2011,
//                    GTX 275, diffusion, 19-point, float, 256^3: ~1.8 Gpoints/s)
//
// Model cases (model_gpu/<problem>/<precision>): the seed 000 problems at Table 1's
// parameters with the seed's 19-point stencil (turing, precipitation, advection) and
// seed 003's 3D Cahn-Hilliard, on N^3 (each made when its case runs, freed after).
// GB_per_s counts the minimum traffic, 2 * ncomp * cells * sizeof(value) per step;
// x_seed_gtx275 divides by the seed's best GTX 275 speed of the same problem (Table 6:
// reference Mpoints/s x speedup: Turing 31.1 x 36.7, CH 11.1 x 42.3, advection 61.6 x
// 24.4; seed 003 gives no Mpoints/s: its case is divided by the seed 000 CH number).
//
// Several steps a pass for a model (issue 44): model_gpu/advection/7pt/periodic/<precision>
// runs seed 000's advection problem (a uniform and a time-varying wind, diffusion, a point
// source) with the 7-point stencil and PERIODIC faces, one to 4 steps a pass
// (/steps_per_pass:k, with x_one_step_a_pass): the CUDA pass fuses the steps of models at
// 7 points where it tests no face (a wind on no-flux faces is read at the face cells: that
// pass is not taken, it ran slower than one step a pass). model_gpu/turing/7pt/<precision>:
// seed 000's Turing problem (two coupled components, NOFLUX faces, read at the mirror
// image) with the 7-point stencil, one to 3 steps a pass (the most its pass takes).
//
// Without a usable CUDA device (opsplit_cuda_available() == 0) every case is skipped with
// an error message and the program exits 0.
//
// Run (GPU machine): build/bench/bench_diffusion_gpu [--benchmark_out=x.json
// --benchmark_out_format=json]; scripts/gpu-check runs it with the CUDA tests.

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "opsplit/core.h"
#include "opsplit/field.h"
#include "initial_data.hpp"
#include "seed_problems.hpp"

namespace {

constexpr double kSeedGtx275Mpoints = 1800.0;
constexpr size_t kCopyBytes = size_t(1) << 30;
constexpr int kCopyStartupReps = 10;
constexpr int kDevice = 0;

int64_t grid_n() {
  if (const char* s = std::getenv("OPSPLIT_BENCH_GPU_N")) {
    const long v = std::strtol(s, nullptr, 10);
    if (v >= 8 && v <= 2048) return v;
    std::fprintf(stderr, "OPSPLIT_BENCH_GPU_N=%s ignored (8..2048)\n", s);
  }
  return 512;
}

int64_t steps_per_iteration(opsplit_precision prec) { return prec == OPSPLIT_FLOAT32 ? 48 : 24; }

std::string cuda_error(const char* call, cudaError_t e) {
  return std::string(call) + " failed: " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e);
}

// Sets `error` (a std::string in scope) and returns `ret` on failure (API_CHECK_RET,
// its twin for opsplit calls, is in api_check.hpp).
#define CUDA_CHECK_RET(call, ret)              \
  do {                                         \
    const cudaError_t e_ = (call);             \
    if (e_ != cudaSuccess) {                   \
      error = cuda_error(#call, e_);           \
      return ret;                              \
    }                                          \
  } while (0)

// ---- the world: stream, events, context, models, fields -----------------------------

struct World {
  bool tried = false;
  std::string error;  // set once: every case is skipped with it
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;
  opsplit_context ctx = nullptr;
  opsplit_rd rd7 = nullptr, rd19 = nullptr;
  opsplit_field field[2] = {nullptr, nullptr};  // index: opsplit_precision
  int64_t n = 0;
  double copy_gbps = 0.0;
  std::string device_name;

  opsplit_rd rd(int stencil) const { return stencil == 7 ? rd7 : rd19; }

  void destroy() {
    if (ctx) opsplit_context_synchronize(ctx);
    if (rd7) opsplit_rd_destroy(&rd7);
    if (rd19) opsplit_rd_destroy(&rd19);
    for (opsplit_field& f : field)
      if (f) opsplit_field_destroy(&f);
    if (ctx) {
      opsplit_context_set_cuda_stream(ctx, nullptr);
      opsplit_context_destroy(&ctx);
    }
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
    start = stop = nullptr;
    stream = nullptr;
  }
};

World g_world;

// Times one cudaMemcpyAsync of `bytes` between two device buffers on the world's stream.
bool time_copy(void* dst, const void* src, size_t bytes, double* seconds, std::string& error) {
  World& w = g_world;
  CUDA_CHECK_RET(cudaEventRecord(w.start, w.stream), false);
  CUDA_CHECK_RET(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, w.stream), false);
  CUDA_CHECK_RET(cudaEventRecord(w.stop, w.stream), false);
  CUDA_CHECK_RET(cudaEventSynchronize(w.stop), false);
  float ms = 0.0f;
  CUDA_CHECK_RET(cudaEventElapsedTime(&ms, w.start, w.stop), false);
  *seconds = 1e-3 * static_cast<double>(ms);
  return true;
}

struct DeviceBuffers {
  void* a = nullptr;
  void* b = nullptr;
  ~DeviceBuffers() {
    if (a) cudaFree(a);
    if (b) cudaFree(b);
  }
  bool alloc(size_t bytes, cudaStream_t stream, std::string& error) {
    CUDA_CHECK_RET(cudaMalloc(&a, bytes), false);
    CUDA_CHECK_RET(cudaMalloc(&b, bytes), false);
    CUDA_CHECK_RET(cudaMemsetAsync(a, 1, bytes, stream), false);
    CUDA_CHECK_RET(cudaMemsetAsync(b, 2, bytes, stream), false);
    CUDA_CHECK_RET(cudaStreamSynchronize(stream), false);
    return true;
  }
};

// GB/s of a 1 GiB device-to-device copy, 2 x bytes counted, best of kCopyStartupReps.
bool measure_copy_gbps(double* gbps, std::string& error) {
  DeviceBuffers buf;
  if (!buf.alloc(kCopyBytes, g_world.stream, error)) return false;
  double s = 0.0, best = 1e300;
  if (!time_copy(buf.b, buf.a, kCopyBytes, &s, error)) return false;  // warm-up
  for (int r = 0; r < kCopyStartupReps; ++r) {
    if (!time_copy(r % 2 ? buf.a : buf.b, r % 2 ? buf.b : buf.a, kCopyBytes, &s, error)) return false;
    best = std::min(best, s);
  }
  *gbps = 2.0 * static_cast<double>(kCopyBytes) / best / 1e9;
  return true;
}

// NOFLUX or DIRICHLET (value 0.5) on every face of the rd's component.
bool set_faces(opsplit_rd rd, opsplit_bc bc, std::string& error) {
  for (int face = OPSPLIT_FACE_XLO; face <= OPSPLIT_FACE_ZHI; ++face)
    API_CHECK_RET(opsplit_rd_set_boundary(rd, static_cast<opsplit_face>(face), 0, bc, 0.5), false);
  return true;
}

bool make_rd(int stencil, opsplit_rd* out, std::string& error) {
  API_CHECK_RET(opsplit_rd_create(g_world.ctx, 1, out), false);
  API_CHECK_RET(opsplit_rd_set_stencil(*out, stencil == 7 ? OPSPLIT_STENCIL_7POINT : OPSPLIT_STENCIL_19POINT),
                false);
  API_CHECK_RET(opsplit_rd_set_diffusion(*out, 0, 1.0), false);
  return set_faces(*out, OPSPLIT_BC_NOFLUX, error);
}

// Sets up everything but the fields; on failure g_world.error says why.
void world_init() {
  World& w = g_world;
  if (w.tried) return;
  w.tried = true;
  std::string& error = w.error;
  if (opsplit_cuda_available() == 0) {
    error = std::string("no usable CUDA device (opsplit_cuda_available() == 0)");
    const char* why = opsplit_last_error_message();
    if (why && *why) error += std::string(": ") + why;
    return;
  }
  w.n = grid_n();
  CUDA_CHECK_RET(cudaSetDevice(kDevice), );
  cudaDeviceProp prop{};
  CUDA_CHECK_RET(cudaGetDeviceProperties(&prop, kDevice), );
  w.device_name = prop.name;
  CUDA_CHECK_RET(cudaStreamCreateWithFlags(&w.stream, cudaStreamNonBlocking), );
  CUDA_CHECK_RET(cudaEventCreate(&w.start), );
  CUDA_CHECK_RET(cudaEventCreate(&w.stop), );
  API_CHECK_RET(opsplit_context_create_on_device(kDevice, &w.ctx), );
  API_CHECK_RET(opsplit_context_set_cuda_stream(w.ctx, w.stream), );
  if (!make_rd(7, &w.rd7, error) || !make_rd(19, &w.rd19, error)) return;
  if (!measure_copy_gbps(&w.copy_gbps, error)) return;
}


template <typename T>
bool make_field(opsplit_precision prec, std::string& error) {
  World& w = g_world;
  API_CHECK_RET(opsplit_field_create(w.ctx, w.n, w.n, w.n, 1, prec, &w.field[prec]), false);
  const std::vector<T> data = bench::initial_data<T>(w.n);
  API_CHECK_RET(opsplit_field_upload(w.field[prec], data.data(), OPSPLIT_LAYOUT_PLANAR), false);
  API_CHECK_RET(opsplit_context_synchronize(w.ctx), false);
  return true;
}

// ---- benchmarks ------------------------------------------------------------------------

void BM_copy_d2d(benchmark::State& state) {
  world_init();
  if (!g_world.error.empty()) {
    state.SkipWithError(g_world.error.c_str());
    return;
  }
  std::string error;
  DeviceBuffers buf;
  double s = 0.0, total = 0.0;
  bool ok = buf.alloc(kCopyBytes, g_world.stream, error) && time_copy(buf.b, buf.a, kCopyBytes, &s, error);
  if (ok) {
    for (auto _ : state) {
      if (!time_copy(buf.b, buf.a, kCopyBytes, &s, error)) {
        ok = false;
        break;
      }
      state.SetIterationTime(s);
      total += s;
    }
  }
  if (!ok) {
    state.SkipWithError(error.c_str());
    return;
  }
  const double gbps = 2.0 * static_cast<double>(kCopyBytes) * static_cast<double>(state.iterations()) / total / 1e9;
  state.counters["GB_per_s"] = gbps;
  state.counters["frac_of_copy_bw"] = gbps / g_world.copy_gbps;
}

// One warm-up call, then each iteration one opsplit_rd_step of nsteps bracketed by CUDA
// events on the world's stream; the total seconds.
bool time_steps(benchmark::State& state, opsplit_rd rd, opsplit_field field, double dt, int64_t nsteps,
                double* total, std::string& error) {
  World& w = g_world;
  API_CHECK_RET(opsplit_rd_step(rd, field, dt, nsteps), false);  // warm-up
  API_CHECK_RET(opsplit_context_synchronize(w.ctx), false);
  CUDA_CHECK_RET(cudaStreamSynchronize(w.stream), false);
  for (auto _ : state) {
    CUDA_CHECK_RET(cudaEventRecord(w.start, w.stream), false);
    API_CHECK_RET(opsplit_rd_step(rd, field, dt, nsteps), false);
    CUDA_CHECK_RET(cudaEventRecord(w.stop, w.stream), false);
    CUDA_CHECK_RET(cudaEventSynchronize(w.stop), false);
    float ms = 0.0f;
    CUDA_CHECK_RET(cudaEventElapsedTime(&ms, w.start, w.stop), false);
    state.SetIterationTime(1e-3 * static_cast<double>(ms));
    *total += 1e-3 * static_cast<double>(ms);
  }
  API_CHECK_RET(opsplit_context_synchronize(w.ctx), false);
  return true;
}

// The counters of a case that ran `nsteps` steps per iteration of an n^3 field of
// `ncomp` components in `total` seconds; bytes at the minimum, one read and one write
// of every value per step. Faster than `passes` (steps a pass) times the copy bound by
// a wide margin means the work did not run on the stream the events were recorded on:
// refused (false, `error`).
bool report_rates(benchmark::State& state, int ncomp, opsplit_precision prec, int64_t nsteps, double total,
                  double seed_mpoints, std::string& error, int passes = 1) {
  const World& w = g_world;
  const double cells = static_cast<double>(w.n * w.n * w.n);
  const double steps = static_cast<double>(nsteps) * static_cast<double>(state.iterations());
  const double value_bytes = prec == OPSPLIT_FLOAT32 ? 4.0 : 8.0;
  const double mpoints = cells * steps / total / 1e6;
  const double gbps = 2.0 * ncomp * cells * value_bytes * steps / total / 1e9;
  if (gbps > 1.25 * passes * w.copy_gbps) {
    char msg[160];
    std::snprintf(msg, sizeof msg, "implausible %.0f GB/s > 1.25 x %d x copy %.0f GB/s: steps not on the given stream?",
                  gbps, passes, w.copy_gbps);
    error = msg;
    return false;
  }
  state.counters["Mpoints_per_s"] = mpoints;
  state.counters["GB_per_s"] = gbps;
  state.counters["frac_of_copy_bw"] = gbps / w.copy_gbps;
  state.counters["x_seed_gtx275"] = mpoints / seed_mpoints;
  state.counters["steps_per_iter"] = static_cast<double>(nsteps);
  return true;
}

// steps_per_pass, and past one step a pass x_one_step_a_pass against `one_step`: the
// same case's Mpoints/s at one step a pass, which that case sets (it runs first).
void report_steps_per_pass(benchmark::State& state, double& one_step, int steps_per_pass) {
  if (steps_per_pass == 1) one_step = state.counters["Mpoints_per_s"];
  state.counters["steps_per_pass"] = steps_per_pass;
  if (steps_per_pass > 1 && one_step > 0) state.counters["x_one_step_a_pass"] = state.counters["Mpoints_per_s"] / one_step;
}

// Mpoints/s of each diffusion case at one step a pass, by stencil and precision: the
// fused cases' reference (they run after it).
// [stencil][precision][DIRICHLET faces]
double g_one_step_mpoints[20][2][2] = {};

void BM_diffusion(benchmark::State& state, int stencil, opsplit_precision prec, int steps_per_pass, opsplit_bc bc) {
  world_init();
  World& w = g_world;
  if (w.error.empty() && !w.field[prec]) {
    if (prec == OPSPLIT_FLOAT32)
      make_field<float>(prec, w.error);
    else
      make_field<double>(prec, w.error);
  }
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  std::string error;
  auto run_case = [&]() -> bool {
    opsplit_rd rd = w.rd(stencil);
    opsplit_field field = w.field[prec];
    const int64_t nsteps = steps_per_iteration(prec);
    double dt_max = 0.0;
    API_CHECK_RET(opsplit_rd_max_stable_dt(rd, field, &dt_max), false);
    const double dt = 0.9 * dt_max;
    double total = 0.0;
    API_CHECK_RET(opsplit_rd_set_steps_per_pass(rd, steps_per_pass), false);
    if (!set_faces(rd, bc, error)) return false;
    const bool timed = time_steps(state, rd, field, dt, nsteps, &total, error);
    API_CHECK_RET(opsplit_rd_set_steps_per_pass(rd, 1), false);
    if (!set_faces(rd, OPSPLIT_BC_NOFLUX, error)) return false;
    if (!timed || !report_rates(state, 1, prec, nsteps, total, kSeedGtx275Mpoints, error, steps_per_pass))
      return false;
    report_steps_per_pass(state, g_one_step_mpoints[stencil][prec == OPSPLIT_FLOAT32 ? 0 : 1][bc == OPSPLIT_BC_DIRICHLET],
                          steps_per_pass);
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
}

// ---- models ---------------------------------------------------------------------------

// Mpoints/s of the models' cases at 7 points, one step a pass, by problem and precision
// (the fused cases' reference: they run after it).
double g_model_7pt_one_step[4][2] = {};

// The seed problem as it is (steps_per_pass 0), or with the 7-point stencil (advection
// also with PERIODIC faces), `steps_per_pass` steps a pass (and refused unless the calls
// took that many).
void BM_model(benchmark::State& state, bench::Problem p, opsplit_precision prec, int steps_per_pass) {
  world_init();
  World& w = g_world;
  if (!w.error.empty()) {
    state.SkipWithError(w.error.c_str());
    return;
  }
  // The diffusion fields are not needed any more: make room.
  for (opsplit_field& f : w.field)
    if (f) opsplit_field_destroy(&f);
  const bench::ProblemInfo info = bench::problem_info(p);
  const bool seven_point = steps_per_pass > 0;
  std::string error;
  opsplit_rd rd = nullptr;
  opsplit_field field = nullptr;
  auto run_case = [&]() -> bool {
    double dt = 0.0;
    if (!bench::make_seed_problem(w.ctx, w.n, p, prec, &rd, &field, &dt, error)) return false;
    if (seven_point) {
      API_CHECK_RET(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_7POINT), false);
      for (int f = 0; f < 6 && p == bench::Problem::advection; ++f)
        for (int c = 0; c < info.ncomp; ++c)
          API_CHECK_RET(opsplit_rd_set_boundary(rd, static_cast<opsplit_face>(f), c, OPSPLIT_BC_PERIODIC, 0.0), false);
      API_CHECK_RET(opsplit_rd_set_steps_per_pass(rd, steps_per_pass), false);
    }
    const int64_t nsteps = steps_per_iteration(prec) / (seven_point ? 1 : 2);
    double total = 0.0;
    if (!time_steps(state, rd, field, dt, nsteps, &total, error)) return false;
    int taken = 0;
    API_CHECK_RET(opsplit_rd_get_steps_per_pass_taken(rd, &taken), false);
    if (seven_point && taken != steps_per_pass) {
      error = "took " + std::to_string(taken) + " steps a pass, not " + std::to_string(steps_per_pass);
      return false;
    }
    if (!report_rates(state, info.ncomp, prec, nsteps, total, info.seed_gtx275_mpoints, error, taken)) return false;
    if (seven_point)
      report_steps_per_pass(state, g_model_7pt_one_step[static_cast<int>(p)][prec == OPSPLIT_FLOAT32 ? 0 : 1],
                            steps_per_pass);
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  if (rd) opsplit_rd_destroy(&rd);
  if (field) opsplit_field_destroy(&field);
}

#undef CUDA_CHECK_RET
#undef API_CHECK_RET

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  // Once at startup: the device, the stream and the copy bound (the benchmarks reuse them).
  world_init();
  const World& w = g_world;
  if (!w.error.empty()) {
    std::fprintf(stderr, "bench_diffusion_gpu: %s; every case is skipped\n", w.error.c_str());
    benchmark::AddCustomContext("cuda", "unavailable: " + w.error);
  } else {
    char buf[64];
    benchmark::AddCustomContext("cuda_device", w.device_name);
    std::snprintf(buf, sizeof buf, "%.1f", w.copy_gbps);
    benchmark::AddCustomContext("copy_GBps", std::string(buf) + " (1 GiB D2D, read+write counted, best of 10)");
    benchmark::AddCustomContext("grid", std::to_string(w.n) + "^3");
  }
  benchmark::AddCustomContext("seed_gtx275_Mpoints", "1800 (Molnar 2011, GTX 275, diffusion)");

  benchmark::RegisterBenchmark("copy_d2d/1GiB", BM_copy_d2d)->UseManualTime()->Unit(benchmark::kMillisecond);
  for (int stencil : {7, 19})
    for (opsplit_precision prec : {OPSPLIT_FLOAT32, OPSPLIT_FLOAT64}) {
      const std::string name = "diffusion_gpu/" + std::to_string(stencil) + "pt/" +
                               (prec == OPSPLIT_FLOAT32 ? "f32" : "f64");
      for (int k : {1, 2, 3, 4}) {
        if (stencil == 19 && k > 1) continue;  // (CUDA takes one step a pass at 19 points)
        benchmark::RegisterBenchmark((name + (k > 1 ? "/steps_per_pass:" + std::to_string(k) : "")).c_str(),
                                     BM_diffusion, stencil, prec, k, OPSPLIT_BC_NOFLUX)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
      }
      if (stencil == 7)
        for (int k : {1, 4})
          benchmark::RegisterBenchmark((name + "/dirichlet" + (k > 1 ? "/steps_per_pass:" + std::to_string(k) : "")).c_str(),
                                       BM_diffusion, stencil, prec, k, OPSPLIT_BC_DIRICHLET)
              ->UseManualTime()
              ->Unit(benchmark::kMillisecond);
    }

  for (bench::Problem p : bench::kProblems)
    for (opsplit_precision prec : {OPSPLIT_FLOAT32, OPSPLIT_FLOAT64}) {
      const std::string name = std::string("model_gpu/") + bench::problem_info(p).name + "/" +
                               (prec == OPSPLIT_FLOAT32 ? "f32" : "f64");
      benchmark::RegisterBenchmark(name.c_str(), BM_model, p, prec, 0)->UseManualTime()->Unit(benchmark::kMillisecond);
    }
  for (bench::Problem p : {bench::Problem::advection, bench::Problem::turing})
    for (opsplit_precision prec : {OPSPLIT_FLOAT32, OPSPLIT_FLOAT64})
      for (int k = 1; k <= (p == bench::Problem::turing ? 3 : 4); ++k) {  // (Turing's pass: 3 at most)
        const std::string name = std::string("model_gpu/") + bench::problem_info(p).name +
                                 (p == bench::Problem::advection ? "/7pt/periodic/" : "/7pt/") +
                                 (prec == OPSPLIT_FLOAT32 ? "f32" : "f64") +
                                 (k > 1 ? "/steps_per_pass:" + std::to_string(k) : "");
        benchmark::RegisterBenchmark(name.c_str(), BM_model, p, prec, k)->UseManualTime()->Unit(benchmark::kMillisecond);
      }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  g_world.destroy();
  return 0;
}
