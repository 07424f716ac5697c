// PCPD ensembles through the public C API: moves per second (MULTISPIN's 64 sites a
// word each count as a move, as in the seed) on L = 2^18 lattices near the critical
// point (d = 0.25, p = 0.125141), from the fully occupied start.
//
// Cases:
//   pcpd/multispin/cuda/replicas:R     opsplit_pcpd_run over `sweeps` sweeps timed from
//                                      the call to its return (after a warm-up run), R
//                                      replicas (a warp each: the device filled several
//                                      times over)
//   pcpd/multispin/cpu/threads:N       the same on the CPU backend, all threads (4 replicas
//                                      a thread)
//   pcpd/multispin/cpu/threads:1       one thread: moves per second per core
//   pcpd/multispin32/...               the same on 32-bit words (MULTISPIN32): the issue's
//                                      "32- or 64-bit words on the GPU - measure"
//   pcpd/exact/cpu/threads:1           EXACT (the seed's Algorithm 1), one thread: the
//                                      plain sequential baseline
//   pcpd/summary                       the ratios
// Counters: moves_per_s; x_seed_gtx580 (the seed's ~8e10 moves/s on a GTX 580);
// floor ratios (issue 7: 1e12 on the GPU, 2e9 per CPU core); x_exact (against EXACT on
// one thread, the same run); x_64bit (32-bit words against 64-bit, the same run).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "opsplit/opsplit.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr int64_t kL = int64_t(1) << 18;
constexpr double kSeedGtx580 = 8e10, kGpuFloor = 1e12, kCpuFloorPerCore = 2e9;

struct Rates {
  double cuda = 0, cpu_all = 0, cpu_one = 0, exact_one = 0;
  double cuda32 = 0, cpu32_all = 0, cpu32_one = 0;
  int threads = 0;
} g_rates;

void BM_pcpd(benchmark::State& state, opsplit_backend backend, opsplit_pcpd_algorithm algorithm, int64_t replicas,
             int threads, double sweeps, double* rate_out) {
  opsplit_context ctx = nullptr;
  opsplit_pcpd e = nullptr;
  auto fail = [&](const char* what) {
    state.SkipWithError((std::string(what) + ": " + opsplit_last_error_message()).c_str());
  };
  if (opsplit_context_create(backend, &ctx) != OPSPLIT_SUCCESS) return fail("context");
  if (threads > 0) opsplit_context_set_num_threads(ctx, threads);
  if (opsplit_pcpd_create(ctx, algorithm, kL, replicas, &e) != OPSPLIT_SUCCESS) {
    opsplit_context_destroy(&ctx);
    return fail("create");
  }
  bool ok = opsplit_pcpd_set_probabilities(e, 0.125141, 0.25) == OPSPLIT_SUCCESS &&
            opsplit_pcpd_set_points_per_decade(e, 1) == OPSPLIT_SUCCESS &&
            opsplit_pcpd_run(e, sweeps / 4) == OPSPLIT_SUCCESS;  // warm-up
  double seconds = 0, t0 = 0, t1 = 0;
  for (auto _ : state) {
    ok = ok && opsplit_pcpd_get_time(e, &t0) == OPSPLIT_SUCCESS;
    const auto start = Clock::now();
    ok = ok && opsplit_pcpd_run(e, t0 + sweeps) == OPSPLIT_SUCCESS;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(seconds);
    ok = ok && opsplit_pcpd_get_time(e, &t1) == OPSPLIT_SUCCESS;
  }
  if (!ok) fail("run");
  const double rate = static_cast<double>(kL) * static_cast<double>(replicas) * (t1 - t0) / seconds;
  state.counters["moves_per_s"] = rate;
  state.counters["sweeps"] = t1 - t0;
  state.counters["x_seed_gtx580"] = rate / kSeedGtx580;
  *rate_out = rate;
  opsplit_pcpd_destroy(&e);
  opsplit_context_destroy(&ctx);
}

void BM_summary(benchmark::State& state) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  if (g_rates.cuda > 0) {
    state.counters["cuda_moves_per_s"] = g_rates.cuda;
    state.counters["cuda_x_floor"] = g_rates.cuda / kGpuFloor;
    state.counters["cuda_x_seed_gtx580"] = g_rates.cuda / kSeedGtx580;
    if (g_rates.cpu_all > 0) state.counters["cuda_x_cpu_allcores"] = g_rates.cuda / g_rates.cpu_all;
    if (g_rates.exact_one > 0) state.counters["cuda_x_exact_1thread"] = g_rates.cuda / g_rates.exact_one;
  }
  if (g_rates.cpu_all > 0) {
    state.counters["cpu_per_core"] = g_rates.cpu_all / g_rates.threads;
    state.counters["cpu_per_core_x_floor"] = g_rates.cpu_all / g_rates.threads / kCpuFloorPerCore;
  }
  if (g_rates.cpu_one > 0) {
    state.counters["cpu_1thread_x_floor"] = g_rates.cpu_one / kCpuFloorPerCore;
    if (g_rates.exact_one > 0) state.counters["cpu_1thread_x_exact"] = g_rates.cpu_one / g_rates.exact_one;
  }
  if (g_rates.exact_one > 0) state.counters["exact_1thread_moves_per_s"] = g_rates.exact_one;
  if (g_rates.cuda32 > 0 && g_rates.cuda > 0) state.counters["cuda32_x_64bit"] = g_rates.cuda32 / g_rates.cuda;
  if (g_rates.cpu32_all > 0 && g_rates.cpu_all > 0) state.counters["cpu32_x_64bit"] = g_rates.cpu32_all / g_rates.cpu_all;
  if (g_rates.cpu32_one > 0 && g_rates.cpu_one > 0)
    state.counters["cpu32_1thread_x_64bit"] = g_rates.cpu32_one / g_rates.cpu_one;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  auto add = [](const std::string& name, auto fn, auto... args) {
    benchmark::RegisterBenchmark(name.c_str(), fn, args...)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  };
  const int threads = omp_get_max_threads();
  g_rates.threads = threads;
  if (opsplit_cuda_available()) {
    // 6 replicas an SM fit (32 KiB of shared memory each) on an H100 or H200's 132 SMs: two waves.
    const int64_t replicas = 2 * 6 * 132;
    add("pcpd/multispin/cuda/replicas:" + std::to_string(replicas), BM_pcpd, OPSPLIT_BACKEND_CUDA,
        OPSPLIT_PCPD_MULTISPIN, replicas, 0, 200.0, &g_rates.cuda);
    add("pcpd/multispin32/cuda/replicas:" + std::to_string(replicas), BM_pcpd, OPSPLIT_BACKEND_CUDA,
        OPSPLIT_PCPD_MULTISPIN32, replicas, 0, 200.0, &g_rates.cuda32);
  }
  add("pcpd/multispin/cpu/threads:" + std::to_string(threads), BM_pcpd, OPSPLIT_BACKEND_CPU, OPSPLIT_PCPD_MULTISPIN,
      int64_t(4 * threads), 0, 400.0, &g_rates.cpu_all);
  add("pcpd/multispin/cpu/threads:1", BM_pcpd, OPSPLIT_BACKEND_CPU, OPSPLIT_PCPD_MULTISPIN, int64_t(1), 1, 400.0,
      &g_rates.cpu_one);
  add("pcpd/multispin32/cpu/threads:" + std::to_string(threads), BM_pcpd, OPSPLIT_BACKEND_CPU,
      OPSPLIT_PCPD_MULTISPIN32, int64_t(4 * threads), 0, 400.0, &g_rates.cpu32_all);
  add("pcpd/multispin32/cpu/threads:1", BM_pcpd, OPSPLIT_BACKEND_CPU, OPSPLIT_PCPD_MULTISPIN32, int64_t(1), 1, 400.0,
      &g_rates.cpu32_one);
  add("pcpd/exact/cpu/threads:1", BM_pcpd, OPSPLIT_BACKEND_CPU, OPSPLIT_PCPD_EXACT, int64_t(1), 1, 40.0,
      &g_rates.exact_one);
  add("pcpd/summary", BM_summary);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
