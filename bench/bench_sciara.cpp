// SCIARA lava flows through the public C API: Etna 2006 (378 x 517 cells, the whole
// 15-day schedule; fv2 21600 steps of 60 s) on the CUDA backend against the library's own
// single-thread CPU run of the same model (the peer; the seed reports 10-31x for
// its GPU over serial code), and a 4096 x 4096 terrain covered in lava, where every cell
// is active, against the device's copy bandwidth. fv3's adaptive clock takes about
// 8 x 10^5 steps for the event (hours on one core): its CPU peer runs a window of the
// same run instead, 20000 steps from the day-5 state (the flow near its full size, ~7000
// cells of lava), on both backends.
//
// Cases:
//   lava/etna2006/cuda                     run_until(15 days), the active region
//   lava/etna2006/cuda/all_cells           the same, every cell computed each step
//   lava/etna2006/cpu/threads:N            the CPU backend on N threads (1: the peer)
//   lava/covered4096/cuda                  200 steps, every cell holding lava
//   lava/copy_d2d                          cudaMemcpy of 1 GiB on the device (bound)
//   lava3/etna2006/cuda                    fv3, run_until(15 days)
//   lava3/etna2006_day5/{cuda,cpu/threads:N}  fv3, 20000 steps from the day-5 state (the
//                                          vents on their first day's rates)
//   lava/summary                           the ratios
// Counters: steps_per_s; cell_updates_per_s (the grid's cells x steps / s, as the
// published SCIARA speeds count); imbalance (|emitted - lava - solidified - lost| /
// emitted at the end); x_cpu_1thread (the floor: 100); frac_of_copy_bound (covered4096:
// a step's minimum traffic, 8 doubles a cell: altitude, thickness and temperature read
// and written, solidified and lost read; over the measured copy bandwidth).
#include <benchmark/benchmark.h>
#include <omp.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#ifdef OPSPLIT_BENCH_CUDA
#include "device_copy.hpp"
#endif

#include "opsplit/opsplit.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kFloor = 100.0;  // x the single-thread CPU run, issue 6
constexpr int64_t kRows = 378, kCols = 517;

struct Rates {
  double cuda = 0, cuda_all = 0, cpu1 = 0, cpu_all = 0, covered = 0, copy_bytes_per_s = 0;
  double fv3_cuda = 0, fv3_cpu1 = 0, fv3_cpu_all = 0;  // the day-5 window, steps/s
  int cpu_threads = 0;
} g_rates;
constexpr int64_t kWindowSteps = 20000;
constexpr const char* kFv3Substates[] = {"altitude", "thickness", "temperature", "solidified", "momentum_x", "momentum_y"};

std::string etna(const char* file) {
  const char* data = std::getenv("OPSPLIT_DATA_DIR");
  return std::string(data != nullptr && *data != '\0' ? data : OPSPLIT_DATA) + "/etna2006/" + file;
}

struct Grid {
  opsplit_context ctx = nullptr;
  opsplit_ca ca = nullptr;
  ~Grid() {
    opsplit_ca_destroy(&ca);
    opsplit_context_destroy(&ctx);
  }
};

// The Etna 2006 grid on g's context: the terrain and the vents; fv2 with the dataset's
// parameters, fv3 with the thesis' (its defaults).
bool make_etna(Grid& g, opsplit_ca_model model, bool all_cells) {
  opsplit_ca_destroy(&g.ca);
  return opsplit_ca_create(g.ctx, model, kRows, kCols, &g.ca) == OPSPLIT_SUCCESS &&
         (model != OPSPLIT_CA_SCIARA_FV2 ||
          opsplit_ca_load_parameters(g.ca, etna("PARAMETERS.cfg").c_str()) == OPSPLIT_SUCCESS) &&
         opsplit_ca_load_substate(g.ca, "altitude", etna("MORPHOLOGY.stt").c_str()) == OPSPLIT_SUCCESS &&
         opsplit_ca_load_vents(g.ca, etna("VENTS.stt").c_str(), etna("EMISSIONS_RATE.stt").c_str()) == OPSPLIT_SUCCESS &&
         opsplit_ca_set_cells_computed(g.ca, all_cells ? OPSPLIT_CA_ALL_CELLS : OPSPLIT_CA_ACTIVE_REGION) ==
             OPSPLIT_SUCCESS;
}

// Counters of a run of `steps` steps in `seconds`; e the grid's imbalance.
void count(benchmark::State& state, const Grid& g, double steps, double seconds) {
  double e = 0, l = 0, s = 0, lost = 0;
  opsplit_ca_get_volumes(g.ca, &e, &l, &s, &lost);
  state.counters["steps"] = steps;
  state.counters["steps_per_s"] = steps / seconds;
  state.counters["cell_updates_per_s"] = steps * kRows * kCols / seconds;
  state.counters["imbalance"] = e > 0 ? std::fabs(e - (l + s + lost)) / e : 0.0;
}

void BM_etna(benchmark::State& state, opsplit_backend backend, int threads, bool all_cells, opsplit_ca_model model) {
  Grid g;
  auto fail = [&](const char* what) {
    state.SkipWithError((std::string(what) + ": " + opsplit_last_error_message()).c_str());
  };
  if (opsplit_context_create(backend, &g.ctx) != OPSPLIT_SUCCESS) return fail("context");
  if (threads > 0) opsplit_context_set_num_threads(g.ctx, threads);
  double seconds = 0;
  int64_t steps = 0;
  bool ok = true;
  for (auto _ : state) {
    ok = make_etna(g, model, all_cells);
    const auto start = Clock::now();
    ok = ok && opsplit_ca_run_until(g.ca, 15 * 86400.0) == OPSPLIT_SUCCESS;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(seconds);
  }
  if (!(ok && opsplit_ca_get_steps(g.ca, &steps) == OPSPLIT_SUCCESS)) return fail("run");
  count(state, g, static_cast<double>(steps), seconds);
  if (model == OPSPLIT_CA_SCIARA_FV3) return;
  const double rate = steps / seconds;
  if (backend == OPSPLIT_BACKEND_CUDA) {
    (all_cells ? g_rates.cuda_all : g_rates.cuda) = rate;
  } else if (threads == 1) {
    g_rates.cpu1 = rate;
  } else {
    g_rates.cpu_all = rate, g_rates.cpu_threads = omp_get_max_threads();
  }
}

// fv3's day-5 state, computed once by the fastest backend there is (the backends give the
// same bits).
std::vector<std::vector<double>>& day5_state() {
  static std::vector<std::vector<double>> substates;
  if (!substates.empty()) return substates;
  Grid g;
  const opsplit_backend backend = opsplit_cuda_available() != 0 ? OPSPLIT_BACKEND_CUDA : OPSPLIT_BACKEND_CPU;
  if (opsplit_context_create(backend, &g.ctx) != OPSPLIT_SUCCESS || !make_etna(g, OPSPLIT_CA_SCIARA_FV3, false) ||
      opsplit_ca_run_until(g.ca, 5 * 86400.0) != OPSPLIT_SUCCESS)
    return substates;
  for (const char* name : kFv3Substates) {
    substates.emplace_back(static_cast<size_t>(kRows * kCols));
    opsplit_ca_get_substate(g.ca, name, substates.back().data(), OPSPLIT_CA_ROW_MAJOR);
  }
  return substates;
}

// fv3: kWindowSteps steps from the day-5 state, the peer's window of the same run.
void BM_etna3_window(benchmark::State& state, opsplit_backend backend, int threads) {
  Grid g;
  auto fail = [&](const char* what) {
    state.SkipWithError((std::string(what) + ": " + opsplit_last_error_message()).c_str());
  };
  const std::vector<std::vector<double>>& day5 = day5_state();
  if (day5.empty()) return fail("the day-5 state");
  if (opsplit_context_create(backend, &g.ctx) != OPSPLIT_SUCCESS) return fail("context");
  if (threads > 0) opsplit_context_set_num_threads(g.ctx, threads);
  double seconds = 0;
  bool ok = true;
  for (auto _ : state) {
    ok = make_etna(g, OPSPLIT_CA_SCIARA_FV3, false);
    for (size_t i = 0; i < day5.size(); ++i)
      ok = ok && opsplit_ca_set_substate(g.ca, kFv3Substates[i], day5[i].data(), OPSPLIT_CA_ROW_MAJOR) == OPSPLIT_SUCCESS;
    const auto start = Clock::now();
    ok = ok && opsplit_ca_step(g.ca, kWindowSteps) == OPSPLIT_SUCCESS;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(seconds);
  }
  if (!ok) return fail("run");
  count(state, g, static_cast<double>(kWindowSteps), seconds);
  const double rate = kWindowSteps / seconds;
  if (backend == OPSPLIT_BACKEND_CUDA) g_rates.fv3_cuda = rate;
  else (threads == 1 ? g_rates.fv3_cpu1 : g_rates.fv3_cpu_all) = rate;
}

#ifdef OPSPLIT_BENCH_CUDA
// A 4096 x 4096 tilted plane, 2 m of lava at 1300 K on every cell but the ring: every
// cell is active and flows each step.
void BM_covered(benchmark::State& state, int64_t n, int64_t steps) {
  Grid g;
  auto fail = [&](const char* what) {
    state.SkipWithError((std::string(what) + ": " + opsplit_last_error_message()).c_str());
  };
  if (opsplit_context_create(OPSPLIT_BACKEND_CUDA, &g.ctx) != OPSPLIT_SUCCESS) return fail("context");
  if (opsplit_ca_create(g.ctx, OPSPLIT_CA_SCIARA_FV2, n, n, &g.ca) != OPSPLIT_SUCCESS) return fail("create");
  std::vector<double> z(static_cast<size_t>(n * n)), h(z.size()), t(z.size());
  for (int64_t r = 0; r < n; ++r)
    for (int64_t c = 0; c < n; ++c) {
      const size_t i = static_cast<size_t>(r * n + c);
      z[i] = 1000.0 - 0.05 * r - 0.02 * c + 0.3 * std::sin(0.1 * c) * std::cos(0.07 * r);
      const bool ring = r == 0 || c == 0 || r == n - 1 || c == n - 1;
      h[i] = ring ? 0.0 : 2.0, t[i] = 1300.0;
    }
  bool ok = opsplit_ca_set_substate(g.ca, "altitude", z.data(), OPSPLIT_CA_ROW_MAJOR) == OPSPLIT_SUCCESS &&
            opsplit_ca_set_substate(g.ca, "thickness", h.data(), OPSPLIT_CA_ROW_MAJOR) == OPSPLIT_SUCCESS &&
            opsplit_ca_set_substate(g.ca, "temperature", t.data(), OPSPLIT_CA_ROW_MAJOR) == OPSPLIT_SUCCESS &&
            opsplit_ca_step(g.ca, 10) == OPSPLIT_SUCCESS;
  double seconds = 0;
  for (auto _ : state) {
    const auto start = Clock::now();
    ok = ok && opsplit_ca_step(g.ca, steps) == OPSPLIT_SUCCESS;
    seconds = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(seconds);
  }
  if (!ok) return fail("step");
  g_rates.covered = static_cast<double>(n) * n * steps / seconds;
  state.counters["cell_updates_per_s"] = g_rates.covered;
}
#endif

void BM_summary(benchmark::State& state) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  state.counters["floor_x_cpu_1thread"] = kFloor;
  if (g_rates.cpu1 > 0) {
    if (g_rates.cuda > 0) state.counters["cuda_x_cpu_1thread"] = g_rates.cuda / g_rates.cpu1;
    if (g_rates.cuda_all > 0) state.counters["cuda_all_cells_x_cpu_1thread"] = g_rates.cuda_all / g_rates.cpu1;
    if (g_rates.cpu_all > 0) state.counters["cpu_allthreads_x_cpu_1thread"] = g_rates.cpu_all / g_rates.cpu1;
  }
  if (g_rates.cuda > 0 && g_rates.cpu_all > 0) state.counters["cuda_x_cpu_allthreads"] = g_rates.cuda / g_rates.cpu_all;
  if (g_rates.fv3_cpu1 > 0) {
    if (g_rates.fv3_cuda > 0) state.counters["fv3_cuda_x_cpu_1thread"] = g_rates.fv3_cuda / g_rates.fv3_cpu1;
    if (g_rates.fv3_cpu_all > 0) state.counters["fv3_cpu_allthreads_x_cpu_1thread"] = g_rates.fv3_cpu_all / g_rates.fv3_cpu1;
  }
  if (g_rates.covered > 0 && g_rates.copy_bytes_per_s > 0)
    state.counters["covered_frac_of_copy_bound"] = g_rates.covered * 8 * sizeof(double) / g_rates.copy_bytes_per_s;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  auto add = [](const std::string& name, auto fn, auto... args) {
    benchmark::RegisterBenchmark(name.c_str(), fn, args...)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  };
#ifdef OPSPLIT_BENCH_CUDA
  if (opsplit_cuda_available() != 0) {
    add("lava/copy_d2d", BM_device_copy, size_t(1) << 30, &g_rates.copy_bytes_per_s);
    add("lava/etna2006/cuda", BM_etna, OPSPLIT_BACKEND_CUDA, 0, false, OPSPLIT_CA_SCIARA_FV2);
    add("lava/etna2006/cuda/all_cells", BM_etna, OPSPLIT_BACKEND_CUDA, 0, true, OPSPLIT_CA_SCIARA_FV2);
    add("lava/covered4096/cuda", BM_covered, int64_t(4096), int64_t(200));
    add("lava3/etna2006/cuda", BM_etna, OPSPLIT_BACKEND_CUDA, 0, false, OPSPLIT_CA_SCIARA_FV3);
    add("lava3/etna2006_day5/cuda", BM_etna3_window, OPSPLIT_BACKEND_CUDA, 0);
  }
#endif
  const std::string all = std::to_string(omp_get_max_threads());
  add("lava/etna2006/cpu/threads:1", BM_etna, OPSPLIT_BACKEND_CPU, 1, false, OPSPLIT_CA_SCIARA_FV2);
  add("lava/etna2006/cpu/threads:" + all, BM_etna, OPSPLIT_BACKEND_CPU, 0, false, OPSPLIT_CA_SCIARA_FV2);
  add("lava3/etna2006_day5/cpu/threads:1", BM_etna3_window, OPSPLIT_BACKEND_CPU, 1);
  add("lava3/etna2006_day5/cpu/threads:" + all, BM_etna3_window, OPSPLIT_BACKEND_CPU, 0);
  add("lava/summary", BM_summary);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
