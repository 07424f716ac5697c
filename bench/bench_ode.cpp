// Chemistry ODE batches: the POLLU air-pollution network (Verwer 1994; 20 species, 25
// reactions, examples/pollu.h) in every cell, one operator-split chemistry step of 60
// minutes model time at rtol 1e-6 (atol 1e-10 ppm), through the public C API only.
//
// Cases, in this order, all in one run:
//   ode_pollu/opsplit_cuda            opsplit ROSENBROCK (RODAS4) on the CUDA backend:
//                                     set_state + integrate + get_state of every cell
//   ode_pollu/opsplit_cpu/threads:N   the same on the CPU backend with all threads
//   ode_pollu/cvode_bdf/threads:1     SUNDIALS CVODE (BDF, dense direct solver, analytic
//                                     Jacobian, stop time t1) looping over the cells, one
//                                     CVODE instance per thread, reinitialised per cell
//   ode_pollu/cvode_bdf/threads:N     the same on all threads (OpenMP over cells)
//   ode_pollu/summary                 the ratios of the cases above (no timing of its own)
//
// Cells: OPSPLIT_BENCH_ODE_CELLS (default 10^6) for the opsplit CUDA case,
// OPSPLIT_BENCH_ODE_CPU_CELLS (default 2 x 10^5) for the opsplit CPU case and
// OPSPLIT_BENCH_ODE_CVODE_CELLS (default 5000) per thread for CVODE: on the CPU the time
// per cell does not depend on the batch size (the rate per cell is what is compared),
// and smaller batches keep the run to a few minutes. Every cell starts
// from the test-set state with each species scaled by its own factor in [0.5, 1.5)
// (mt19937_64, seed 2014), so no two cells take the same steps.
//
// Counters:
//   cells_per_s         cells / wall time
//   steps_per_cell      mean accepted steps (CVODE: internal steps) per cell
//   rhs_per_cell, jac_per_cell
//   max_diff_in_tol     max over the first cells of |y - y_cvode| / (rtol |y_cvode| + atol):
//                       both solvers' error against each other, in units of the tolerance
//   frac_of_transfer_bound (CUDA) the time of the pageable host<->device copies of the
//                       state alone (cudaMemcpy, measured at startup) / the case's time
// summary:
//   gpu_x_cvode_1core, gpu_x_cvode_allcores   floors 1000 and 50 (issue 4)
//   cpu_per_core_x_cvode_per_core             floor 1
//   seed_gpu_x_1core_rkck / _rkc              126 and 65: the seed's GPU over one 2014 core
//
// Run: build/bench/bench_ode [--benchmark_filter=...]

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#ifdef OPSPLIT_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

#include "api_check.hpp"
#include "chemistry_bench.hpp"
#include "opsplit/core.h"
#include "opsplit/ode.h"
#include "pollu.h"

namespace {

constexpr int kN = POLLU_NSPECIES;
constexpr double kT1 = 60.0;  // minutes
constexpr double kRtol = 1e-6, kAtol = 1e-10;
constexpr int64_t kCompared = 2000;  // cells compared against CVODE

using Clock = std::chrono::steady_clock;
using bench::api_error;
using bench::CvodeStats;
using bench::CvodeWorker;
using bench::env_count;
using bench::set_cvode_counters;
using bench::set_per_cell_counters;

// Initial states, AOS [cell][species], made once for the largest case.
const std::vector<double>& initial_states(int64_t ncells) {
  static std::vector<double> y0;
  if (static_cast<int64_t>(y0.size()) < ncells * kN) {
    y0.resize(static_cast<size_t>(ncells * kN));
    std::mt19937_64 rng(2014);
    std::uniform_real_distribution<double> scale(0.5, 1.5);
    for (int64_t c = 0; c < ncells; ++c)
      for (int i = 0; i < kN; ++i) y0[static_cast<size_t>(c * kN + i)] = pollu_y0[i] * scale(rng);
  }
  return y0;
}

struct Rates {
  double opsplit_cuda = 0, opsplit_cpu = 0, cvode_1 = 0, cvode_all = 0;
  int cpu_threads = 0, cvode_threads = 0;
  // The first kCompared cells' results: CVODE on 1 thread, opsplit CUDA and CPU.
  std::vector<double> cvode_y, cuda_y, cpu_y;
} g_rates;

// ---- the peer: CVODE over the same network -------------------------------------------
// A table-driven mass-action right-hand side and Jacobian, the way a host code would
// hand POLLU to CVODE.

double rate_of(int r, const double* y) {
  double v = pollu_k[r];
  for (int i : pollu_reactants[r])
    if (i >= 0) v *= y[i];
  return v;
}

int cvode_rhs(sunrealtype, N_Vector yv, N_Vector fv, void*) {
  const double* y = N_VGetArrayPointer(yv);
  double* f = N_VGetArrayPointer(fv);
  std::fill(f, f + kN, 0.0);
  for (int r = 0; r < POLLU_NREACTIONS; ++r) {
    const double v = rate_of(r, y);
    for (int i : pollu_reactants[r])
      if (i >= 0) f[i] -= v;
    for (int i : pollu_products[r])
      if (i >= 0) f[i] += v;
  }
  return 0;
}

// Adds d(rate r)/dy_j = d to column j: every reactant loses it, every product gains it.
void add_to_column(double* col, int r, double d) {
  for (int i : pollu_reactants[r])
    if (i >= 0) col[i] -= d;
  for (int i : pollu_products[r])
    if (i >= 0) col[i] += d;
}

int cvode_jacobian(sunrealtype, N_Vector yv, N_Vector, SUNMatrix J, void*, N_Vector, N_Vector, N_Vector) {
  const double* y = N_VGetArrayPointer(yv);
  SUNMatZero(J);
  for (int r = 0; r < POLLU_NREACTIONS; ++r) {
    const int a = pollu_reactants[r][0], b = pollu_reactants[r][1];
    const double k = pollu_k[r];
    if (a < 0) continue;
    if (b < 0) {
      add_to_column(SUNDenseMatrix_Column(J, a), r, k);
    } else if (a == b) {
      add_to_column(SUNDenseMatrix_Column(J, a), r, 2 * k * y[a]);
    } else {
      add_to_column(SUNDenseMatrix_Column(J, a), r, k * y[b]);
      add_to_column(SUNDenseMatrix_Column(J, b), r, k * y[a]);
    }
  }
  return 0;
}


void BM_cvode(benchmark::State& state) {
  const int nthreads = static_cast<int>(state.range(0));
  const int64_t per_thread = env_count("OPSPLIT_BENCH_ODE_CVODE_CELLS", 5000, 1, int64_t(1) << 30);
  const int64_t ncells = per_thread * nthreads;
  const std::vector<double>& y0 = initial_states(ncells);
  std::vector<double> y(static_cast<size_t>(ncells * kN));
  std::vector<CvodeStats> stats(static_cast<size_t>(nthreads));
  double seconds = 0;
  int failed = 0;
  for (auto _ : state) {
    stats.assign(static_cast<size_t>(nthreads), CvodeStats{});
    const auto start = Clock::now();
#pragma omp parallel num_threads(nthreads) reduction(+ : failed)
    {
      const int t = omp_get_thread_num();
      CvodeWorker worker({kN, cvode_rhs, cvode_jacobian, kRtol, kAtol}, nullptr);
      const size_t begin = static_cast<size_t>(per_thread * t * kN);
      failed += !worker.run(&y0[begin], per_thread, kT1, &y[begin], &stats[static_cast<size_t>(t)]);
    }
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    state.SetIterationTime(s);
    seconds += s;
  }
  if (failed) {
    state.SkipWithError("CVODE failed on a cell");
    return;
  }
  set_cvode_counters(state, static_cast<double>(ncells), stats, seconds / static_cast<double>(state.iterations()));
  state.counters["threads"] = nthreads;
  if (nthreads == 1) {
    g_rates.cvode_1 = state.counters["cells_per_s"];
    g_rates.cvode_y.assign(y.begin(), y.begin() + std::min<int64_t>(ncells, kCompared) * kN);
  } else {
    g_rates.cvode_all = state.counters["cells_per_s"];
    g_rates.cvode_threads = nthreads;
  }
}

// ---- opsplit -----------------------------------------------------------------------

double g_transfer_seconds = 0;  // pageable H2D + D2H of the opsplit cases' state (CUDA)

#ifdef OPSPLIT_BENCH_CUDA
// Best of 3 pageable cudaMemcpy of `bytes` to the device and back: what moving the state
// costs a host code before any computing; 0 when it cannot be measured.
double measure_transfer_seconds(size_t bytes) {
  std::vector<char> host(bytes, 1);
  void* dev = nullptr;
  if (cudaMalloc(&dev, bytes) != cudaSuccess) return 0;
  double best = 0;
  for (int pass = 0; pass < 3; ++pass) {
    const auto start = Clock::now();
    const bool ok = cudaMemcpy(dev, host.data(), bytes, cudaMemcpyHostToDevice) == cudaSuccess &&
                    cudaMemcpy(host.data(), dev, bytes, cudaMemcpyDeviceToHost) == cudaSuccess;
    const double s = std::chrono::duration<double>(Clock::now() - start).count();
    if (ok && (best == 0 || s < best)) best = s;
  }
  cudaFree(dev);
  return best;
}
#endif

// The opsplit cases: one context and batch, then per iteration set_state + integrate +
// get_state of every cell (what a host pays per operator-split chemistry step).
int64_t opsplit_cells(opsplit_backend backend) {
  return backend == OPSPLIT_BACKEND_CUDA ? env_count("OPSPLIT_BENCH_ODE_CELLS", 1000000, 1, int64_t(1) << 31)
                                         : env_count("OPSPLIT_BENCH_ODE_CPU_CELLS", 200000, 1, int64_t(1) << 31);
}

void BM_opsplit(benchmark::State& state, opsplit_backend backend) {
  const int64_t ncells = opsplit_cells(backend);
  const std::vector<double>& y0 = initial_states(ncells);
  std::vector<double> y(static_cast<size_t>(ncells * kN));
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  auto run_case = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(backend, &ctx), false);
    API_CHECK_RET(pollu_build(ctx, &mech), false);
    API_CHECK_RET(opsplit_ode_create(ctx, kN, ncells, 0, &ode), false);
    API_CHECK_RET(opsplit_ode_set_mechanism(ode, mech), false);
    API_CHECK_RET(opsplit_ode_set_method(ode, OPSPLIT_ODE_ROSENBROCK), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, kRtol, kAtol), false);
    double seconds = 0;
    for (auto _ : state) {
      const auto start = Clock::now();
      API_CHECK_RET(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS), false);
      API_CHECK_RET(opsplit_ode_integrate(ode, 0.0, kT1), false);
      API_CHECK_RET(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS), false);
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      state.SetIterationTime(s);
      seconds += s;
    }
    std::vector<int64_t> accepted(static_cast<size_t>(ncells)), rhs(accepted.size()), jac(accepted.size());
    API_CHECK_RET(opsplit_ode_get_results(ode, nullptr, accepted.data(), nullptr, rhs.data(), jac.data()), false);
    double steps = 0, nrhs = 0, njac = 0;
    for (size_t c = 0; c < accepted.size(); ++c) {
      steps += static_cast<double>(accepted[c]);
      nrhs += static_cast<double>(rhs[c]);
      njac += static_cast<double>(jac[c]);
    }
    const double per_iteration = seconds / static_cast<double>(state.iterations());
    set_per_cell_counters(state, static_cast<double>(ncells), steps, nrhs, njac, per_iteration);
    const std::vector<double> first(y.begin(), y.begin() + std::min<int64_t>(ncells, kCompared) * kN);
    if (backend == OPSPLIT_BACKEND_CUDA) {
      g_rates.opsplit_cuda = state.counters["cells_per_s"];
      g_rates.cuda_y = first;
      if (g_transfer_seconds > 0) state.counters["frac_of_transfer_bound"] = g_transfer_seconds / per_iteration;
    } else {
      g_rates.opsplit_cpu = state.counters["cells_per_s"];
      g_rates.cpu_y = first;
      g_rates.cpu_threads = omp_get_max_threads();
      state.counters["threads"] = g_rates.cpu_threads;
    }
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  if (ode) opsplit_ode_destroy(&ode);
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
}

// |a - b| / (rtol |b| + atol), the largest over the values both runs have.
double max_diff_in_tol(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]) / (kRtol * std::fabs(b[i]) + kAtol));
  return worst;
}

void BM_summary(benchmark::State& state) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  const Rates& r = g_rates;
  if (r.cvode_1 <= 0) {
    state.SkipWithError("needs ode_pollu/cvode_bdf/threads:1 in the same run");
    return;
  }
  state.counters["seed_gpu_x_1core_rkck"] = 126;
  state.counters["seed_gpu_x_1core_rkc"] = 65;
  if (r.opsplit_cuda > 0) {
    state.counters["gpu_x_cvode_1core"] = r.opsplit_cuda / r.cvode_1;
    if (r.cvode_all > 0) state.counters["gpu_x_cvode_allcores"] = r.opsplit_cuda / r.cvode_all;
    state.counters["gpu_max_diff_in_tol"] = max_diff_in_tol(r.cuda_y, r.cvode_y);
  }
  if (r.opsplit_cpu > 0) {
    state.counters["cpu_per_core_x_cvode_per_core"] = r.opsplit_cpu / r.cpu_threads / r.cvode_1;
    if (r.cvode_all > 0) state.counters["cpu_x_cvode_allcores"] = r.opsplit_cpu / r.cvode_all;
    state.counters["cpu_max_diff_in_tol"] = max_diff_in_tol(r.cpu_y, r.cvode_y);
  }
  if (r.cvode_all > 0) state.counters["cvode_allcores_x_1core"] = r.cvode_all / r.cvode_1;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const int nthreads = omp_get_max_threads();
  const int64_t ncells = opsplit_cells(OPSPLIT_BACKEND_CUDA);
  benchmark::AddCustomContext("problem", "POLLU (Verwer 1994), 20 species, 25 reactions, 0..60 min, rtol 1e-6, atol 1e-10");
  benchmark::AddCustomContext("opsplit_cells", std::to_string(ncells) + " (CUDA), " +
                                                   std::to_string(opsplit_cells(OPSPLIT_BACKEND_CPU)) + " (CPU)");
  if (opsplit_cuda_available()) {
#ifdef OPSPLIT_BENCH_CUDA
    g_transfer_seconds = measure_transfer_seconds(static_cast<size_t>(ncells * kN) * sizeof(double));
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) benchmark::AddCustomContext("cuda_device", prop.name);
#endif
    benchmark::RegisterBenchmark("ode_pollu/opsplit_cuda", BM_opsplit, OPSPLIT_BACKEND_CUDA)
        ->UseManualTime()
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
  } else {
    benchmark::AddCustomContext("cuda", "unavailable: the CUDA case is not run");
  }
  benchmark::RegisterBenchmark(("ode_pollu/opsplit_cpu/threads:" + std::to_string(nthreads)).c_str(), BM_opsplit,
                               OPSPLIT_BACKEND_CPU)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  for (int t : {1, nthreads}) {
    benchmark::RegisterBenchmark(("ode_pollu/cvode_bdf/threads:" + std::to_string(t)).c_str(), BM_cvode)
        ->Arg(t)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    if (nthreads == 1) break;
  }
  benchmark::RegisterBenchmark("ode_pollu/summary", BM_summary)->UseManualTime()->Iterations(1);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
