// Life (B3/S23) on a torus through the public C API: cell updates per second on the
// CUDA backend (16384 x 16384 cells, 2^28, 32 MiB a generation) and on the CPU backend
// on all threads (8192 x 8192), the same random soup (density 0.35, mt19937_64 seed 1).
//
// Cases:
//   life/cuda/<n>             opsplit_ca_step(ca, G) timed from the call to its return
//                             (the step synchronizes), after a warm-up of G/4 generations
//   life/cpu/threads:N/<n>    the same on the CPU backend
//   life/copy_d2d             cudaMemcpy of the grid's bytes on the device, best of 5:
//                             the bound (a generation reads and writes each word once
//                             at least)
//   life/summary              the ratios
// Counters: cell_updates_per_s; frac_of_copy_bound (CUDA: the generation's minimum
// traffic, 2 x rows x cols / 8 bytes, over the measured copy bandwidth); x_fujita2016
// (cell_updates_per_s / 1.35e12: Fujita, Nakano & Ito's bit-packed Life on a GTX TITAN X,
// the fastest published GPU Life the research found); floor_cell_updates_per_s
// (issue 6: 1e12 on an H100 or H200).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#ifdef OPSPLIT_BENCH_CUDA
#include "device_copy.hpp"
#endif

#include "opsplit/opsplit.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kFujita2016 = 1.35e12;
constexpr double kFloor = 1e12;

struct Rates {
  double cuda = 0, cpu = 0, copy_bytes_per_s = 0;
} g_rates;

std::vector<uint8_t> soup(int64_t n) {
  std::vector<uint8_t> cells(static_cast<size_t>(n * n));
  std::mt19937_64 rng(1);
  for (auto& c : cells) c = (rng() % 100) < 35 ? 1 : 0;
  return cells;
}

void BM_life(benchmark::State& state, opsplit_backend backend, int64_t n, int64_t generations) {
  opsplit_context ctx = nullptr;
  opsplit_ca ca = nullptr;
  auto fail = [&](const char* what) {
    state.SkipWithError((std::string(what) + ": " + opsplit_last_error_message()).c_str());
  };
  if (opsplit_context_create(backend, &ctx) != OPSPLIT_SUCCESS) return fail("context");
  if (opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, n, n, &ca) != OPSPLIT_SUCCESS) {
    opsplit_context_destroy(&ctx);
    return fail("create");
  }
  const std::vector<uint8_t> cells = soup(n);
  bool ok = opsplit_ca_set_cells(ca, cells.data(), OPSPLIT_CA_ROW_MAJOR) == OPSPLIT_SUCCESS &&
            opsplit_ca_step(ca, generations / 4) == OPSPLIT_SUCCESS;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = Clock::now();
    ok = ok && opsplit_ca_step(ca, generations) == OPSPLIT_SUCCESS;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(seconds);
  }
  int64_t population = 0;
  ok = ok && opsplit_ca_get_population(ca, &population) == OPSPLIT_SUCCESS;
  if (!ok) fail("step");
  const double rate = static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(generations) / seconds;
  state.counters["cell_updates_per_s"] = rate;
  state.counters["generations"] = static_cast<double>(generations);
  state.counters["population_after"] = static_cast<double>(population);
  state.counters["x_fujita2016"] = rate / kFujita2016;
  (backend == OPSPLIT_BACKEND_CUDA ? g_rates.cuda : g_rates.cpu) = rate;
  opsplit_ca_destroy(&ca);
  opsplit_context_destroy(&ctx);
}


void BM_summary(benchmark::State& state, int64_t cuda_n) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  state.counters["floor_cell_updates_per_s"] = kFloor;
  if (g_rates.cuda > 0) {
    state.counters["cuda_cell_updates_per_s"] = g_rates.cuda;
    state.counters["cuda_x_floor"] = g_rates.cuda / kFloor;
    state.counters["cuda_x_fujita2016"] = g_rates.cuda / kFujita2016;
    if (g_rates.cpu > 0) state.counters["cuda_x_cpu_allcores"] = g_rates.cuda / g_rates.cpu;
    if (g_rates.copy_bytes_per_s > 0) {
      // Minimum traffic of a generation: every word read once and written once.
      const double bytes_per_cell = 2.0 / 8.0;
      state.counters["frac_of_copy_bound"] = g_rates.cuda * bytes_per_cell / g_rates.copy_bytes_per_s;
    }
  }
  if (g_rates.cpu > 0) {
    state.counters["cpu_cell_updates_per_s"] = g_rates.cpu;
    state.counters["cpu_per_core"] = g_rates.cpu / omp_get_max_threads();
  }
  (void)cuda_n;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const bool cuda = opsplit_cuda_available() != 0;
  const int64_t cuda_n = 16384, cpu_n = 8192;
  auto add = [](const std::string& name, auto fn, auto... args) {
    benchmark::RegisterBenchmark(name.c_str(), fn, args...)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  };
#ifdef OPSPLIT_BENCH_CUDA
  if (cuda) {
    add("life/copy_d2d", BM_device_copy, static_cast<size_t>(cuda_n) * cuda_n / 8, &g_rates.copy_bytes_per_s);
    add("life/cuda/" + std::to_string(cuda_n), BM_life, OPSPLIT_BACKEND_CUDA, cuda_n, int64_t(2000));
  }
#endif
  add("life/cpu/threads:" + std::to_string(omp_get_max_threads()) + "/" + std::to_string(cpu_n), BM_life,
      OPSPLIT_BACKEND_CPU, cpu_n, int64_t(40));
  add("life/summary", BM_summary, cuda_n);
  (void)cuda;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
