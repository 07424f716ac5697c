// An atmospheric chemistry step: SAPRC-99 (KPP's example: 74 variable and 5 fixed
// species, 211 reactions with real yields and KPP's FALL, EP2 and EP3 laws), read at run
// time from tests/data/kpp/saprc99.def by opsplit_mechanism_load_kpp, in every cell: one
// operator-split chemistry step of 10 minutes at rtol 1e-3, atol 1 molecule/cm^3 (the
// loose tolerances chemistry-transport models run their KPP solvers at), through the
// public C API only.
//
// Cells: the state KPP's own trajectory reaches after a day (tests/data/kpp/saprc99_kpp.txt,
// hour 24: sun at its noon value, TEMP, CFACTOR and the fixed species of that row), each
// variable species scaled by its own factor in [0.5, 1.5) and TEMP moved by up to 5 K
// (mt19937_64, seed 99), so no two cells take the same steps.
//
// Cases, in this order, all in one run:
//   atm_saprc99/opsplit_cuda           RODAS4 on the CUDA backend (74 species: the kernel
//                                      whose systems live in device memory): set_state +
//                                      set_parameters + integrate + get_state of every cell
//   atm_saprc99/opsplit_cpu/threads:N  the same on the CPU backend, all threads
//   atm_saprc99/cvode_bdf/threads:1, N SUNDIALS CVODE (BDF, dense direct solver, the
//                                      mechanism's exact Jacobian), one instance per
//                                      thread reinitialised per cell, its right-hand side
//                                      and Jacobian from opsplit_mechanism_evaluate
//   atm_saprc99/summary                the ratios of the cases above
//
// Cells: OPSPLIT_BENCH_ATM_CELLS (default 10^5) for CUDA, OPSPLIT_BENCH_ATM_CPU_CELLS
// (default 2 x 10^4) for the CPU backend, OPSPLIT_BENCH_ATM_CVODE_CELLS (default 500) per
// thread for CVODE: on the CPU the time per cell does not depend on the batch size.
//
// Counters: cells_per_s, us_per_cell, steps/rhs/jac_per_cell; error_in_tol: the first 500
// cells against a reference (opsplit's CPU backend at rtol 1e-9, atol 1e-4), max
// |y - y_ref| / (rtol |y_ref| + atol) at the benchmark's rtol and atol: how far each
// solver's answer is from the exact one, in units of the tolerance it was given.
// summary: gpu_x_cvode_1core, gpu_x_cvode_allcores, gpu_x_cpu, cpu_x_cvode_allcores.
//
// Run: build/bench/bench_atmosphere [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifdef OPSPLIT_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

#include "api_check.hpp"
#include "chemistry_bench.hpp"
#include "opsplit/core.h"
#include "opsplit/mechanism.h"
#include "opsplit/ode.h"

namespace {

constexpr double kStep = 600.0;  // s
constexpr double kRtol = 1e-3, kAtol = 1.0;
constexpr double kHour = 24.0;  // the reference row the cells start from
constexpr int64_t kCompared = 500;

using Clock = std::chrono::steady_clock;
using bench::api_error;
using bench::CvodeStats;
using bench::CvodeWorker;
using bench::env_count;
using bench::set_cvode_counters;
using bench::set_per_cell_counters;

const std::string kDefPath = std::string(OPSPLIT_SOURCE_DIR) + "/tests/data/kpp/saprc99.def";
const std::string kReferencePath = std::string(OPSPLIT_SOURCE_DIR) + "/tests/data/kpp/saprc99_kpp.txt";

// The cells' initial states and inputs (AOS), made once; an empty error when they were.
struct Cells {
  int nspecies = 0, nparams = 0;
  std::vector<double> y0, params;  // for the largest case
  std::string error;
} g_cells;

// A mechanism of ctx read from saprc99.def; null with `error` set when it fails.
opsplit_mechanism load(opsplit_context ctx, std::string& error) {
  opsplit_mechanism mech = nullptr;
  API_CHECK_RET(opsplit_mechanism_load_kpp(ctx, kDefPath.c_str(), &mech), nullptr);
  return mech;
}

// The reference's row at kHour as name -> value.
bool reference_row(std::vector<std::string>& names, std::vector<double>& row, std::string& error) {
  std::ifstream in(kReferencePath);
  std::string line, word;
  if (!in || !std::getline(in, line)) return error = "cannot read " + kReferencePath, false;
  for (std::istringstream header(line); header >> word;) names.push_back(word);
  while (std::getline(in, line)) {
    row.clear();
    for (std::istringstream values(line); values >> word;) row.push_back(std::strtod(word.c_str(), nullptr));
    if (row.size() == names.size() && row[0] == kHour) return true;
  }
  return error = kReferencePath + " has no row at hour 24", false;
}

void make_cells(int64_t ncells) {
  opsplit_context ctx = nullptr;
  std::string& error = g_cells.error;
  auto build = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx), false);
    opsplit_mechanism mech = load(ctx, error);
    if (mech == nullptr) return false;
    std::vector<std::string> names;
    std::vector<double> row;
    if (!reference_row(names, row, error)) return false;
    API_CHECK_RET(opsplit_mechanism_get_counts(mech, &g_cells.nspecies, nullptr, &g_cells.nparams), false);
    const auto value_of = [&](const char* name, double& out) {
      for (size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return out = row[i], true;
      return false;
    };
    std::vector<double> y(static_cast<size_t>(g_cells.nspecies)), p(static_cast<size_t>(g_cells.nparams));
    for (int k = 0; k < g_cells.nspecies; ++k) {
      const char* name = nullptr;
      API_CHECK_RET(opsplit_mechanism_get_species_name(mech, k, &name), false);
      if (!value_of(name, y[static_cast<size_t>(k)])) return error = std::string("no column ") + name, false;
    }
    int temperature = -1;
    for (int q = 0; q < g_cells.nparams; ++q) {
      // The parameters are TEMP, SUN, CFACTOR and the fixed species, all columns.
      bool found = false;
      for (const std::string& name : names) {
        int index = -1;
        if (opsplit_mechanism_find_parameter(mech, name.c_str(), &index) == OPSPLIT_SUCCESS && index == q)
          found = value_of(name.c_str(), p[static_cast<size_t>(q)]), temperature = name == "TEMP" ? q : temperature;
      }
      if (!found) return error = "parameter " + std::to_string(q) + " has no column", false;
    }
    opsplit_mechanism_destroy(&mech);
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> scale(0.5, 1.5), shift(-5.0, 5.0);
    for (int64_t c = 0; c < ncells; ++c) {
      for (double v : y) g_cells.y0.push_back(v * scale(rng));
      for (int q = 0; q < g_cells.nparams; ++q)
        g_cells.params.push_back(p[static_cast<size_t>(q)] + (q == temperature ? shift(rng) : 0.0));
    }
    return true;
  };
  if (!build() && error.empty()) error = "making the cells failed";
  if (ctx) opsplit_context_destroy(&ctx);
}

struct Rates {
  double cuda = 0, cpu = 0, cvode_1 = 0, cvode_all = 0;
} g_rates;

std::vector<double> g_reference;  // the first kCompared cells after the step, at rtol 1e-9


// |y - y_ref| / (rtol |y_ref| + atol), the largest over the reference's cells.
double error_in_tol(const std::vector<double>& y) {
  double worst = 0;
  for (size_t i = 0; i < std::min(y.size(), g_reference.size()); ++i)
    worst = std::max(worst, std::fabs(y[i] - g_reference[i]) / (kRtol * std::fabs(g_reference[i]) + kAtol));
  return worst;
}

// The reference: the first kCompared cells on the CPU backend at rtol 1e-9.
bool make_reference(std::string& error) {
  const int64_t ncells = std::min<int64_t>(kCompared, static_cast<int64_t>(g_cells.y0.size()) / g_cells.nspecies);
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  auto run = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx), false);
    if ((mech = load(ctx, error)) == nullptr) return false;
    API_CHECK_RET(opsplit_ode_create(ctx, g_cells.nspecies, ncells, g_cells.nparams, &ode), false);
    API_CHECK_RET(opsplit_ode_set_mechanism(ode, mech), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, 1e-9, 1e-4), false);
    API_CHECK_RET(opsplit_ode_set_state(ode, g_cells.y0.data(), OPSPLIT_ODE_AOS), false);
    API_CHECK_RET(opsplit_ode_set_parameters(ode, g_cells.params.data(), OPSPLIT_ODE_AOS), false);
    API_CHECK_RET(opsplit_ode_integrate(ode, 0.0, kStep), false);
    g_reference.resize(static_cast<size_t>(ncells * g_cells.nspecies));
    API_CHECK_RET(opsplit_ode_get_state(ode, g_reference.data(), OPSPLIT_ODE_AOS), false);
    return true;
  };
  const bool ok = run();
  if (ode) opsplit_ode_destroy(&ode);
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
  return ok;
}

// ---- the peer: CVODE with the mechanism's rates through opsplit_mechanism_evaluate ---

struct CvodeUser {
  opsplit_mechanism mech = nullptr;
  const double* params = nullptr;  // this cell's
};

int cvode_rhs(sunrealtype, N_Vector y, N_Vector f, void* user) {
  const auto* u = static_cast<const CvodeUser*>(user);
  return opsplit_mechanism_evaluate(u->mech, N_VGetArrayPointer(y), u->params, N_VGetArrayPointer(f), nullptr) ==
                 OPSPLIT_SUCCESS
             ? 0
             : -1;
}

int cvode_jacobian(sunrealtype, N_Vector y, N_Vector, SUNMatrix J, void* user, N_Vector scratch, N_Vector, N_Vector) {
  const auto* u = static_cast<const CvodeUser*>(user);
  return opsplit_mechanism_evaluate(u->mech, N_VGetArrayPointer(y), u->params, N_VGetArrayPointer(scratch),
                                    SUNDenseMatrix_Data(J)) == OPSPLIT_SUCCESS
             ? 0
             : -1;
}

void BM_cvode(benchmark::State& state) {
  const int nthreads = static_cast<int>(state.range(0));
  const int64_t per_thread = env_count("OPSPLIT_BENCH_ATM_CVODE_CELLS", 500);
  const int64_t ncells = per_thread * nthreads;
  const int n = g_cells.nspecies, np = g_cells.nparams;
  std::vector<double> y(static_cast<size_t>(ncells * n));
  std::vector<CvodeStats> stats(static_cast<size_t>(nthreads));
  double seconds = 0;
  int failed = 0;
  for (auto _ : state) {
    stats.assign(static_cast<size_t>(nthreads), CvodeStats{});
    double s = 0;
#pragma omp parallel num_threads(nthreads) reduction(+ : failed) reduction(max : s)
    {
      // Each thread its own context and mechanism, made before the clock starts.
      const int t = omp_get_thread_num();
      opsplit_context ctx = nullptr;
      std::string error;
      CvodeUser user;
      if (opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx) == OPSPLIT_SUCCESS) user.mech = load(ctx, error);
      const int64_t first = per_thread * t;
      bool ok = user.mech != nullptr;
#pragma omp barrier
      const auto start = Clock::now();
      if (ok) {
        CvodeWorker worker({n, cvode_rhs, cvode_jacobian, kRtol, kAtol}, &user);
        ok = worker.run(&g_cells.y0[static_cast<size_t>(first * n)], per_thread, kStep,
                        &y[static_cast<size_t>(first * n)], &stats[static_cast<size_t>(t)],
                        [&](int64_t c) { user.params = &g_cells.params[static_cast<size_t>((first + c) * np)]; });
      }
      s = std::chrono::duration<double>(Clock::now() - start).count();
      failed += !ok;
      if (user.mech) opsplit_mechanism_destroy(&user.mech);
      if (ctx) opsplit_context_destroy(&ctx);
    }
    state.SetIterationTime(s);
    seconds += s;
  }
  if (failed) {
    state.SkipWithError("CVODE failed on a cell");
    return;
  }
  set_cvode_counters(state, static_cast<double>(ncells), stats, seconds / static_cast<double>(state.iterations()));
  state.counters["threads"] = nthreads;
  state.counters["error_in_tol"] = error_in_tol(y);
  if (nthreads == 1) {
    g_rates.cvode_1 = state.counters["cells_per_s"];
  } else {
    g_rates.cvode_all = state.counters["cells_per_s"];
  }
}

// ---- opsplit -----------------------------------------------------------------------

int64_t opsplit_cells(opsplit_backend backend) {
  return backend == OPSPLIT_BACKEND_CUDA ? env_count("OPSPLIT_BENCH_ATM_CELLS", 100000)
                                         : env_count("OPSPLIT_BENCH_ATM_CPU_CELLS", 20000);
}

void BM_opsplit(benchmark::State& state, opsplit_backend backend) {
  const int64_t ncells = opsplit_cells(backend);
  const int n = g_cells.nspecies, np = g_cells.nparams;
  std::vector<double> y(static_cast<size_t>(ncells * n));
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  auto run_case = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(backend, &ctx), false);
    if ((mech = load(ctx, error)) == nullptr) return false;
    API_CHECK_RET(opsplit_ode_create(ctx, n, ncells, np, &ode), false);
    API_CHECK_RET(opsplit_ode_set_mechanism(ode, mech), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, kRtol, kAtol), false);
    double seconds = 0;
    for (auto _ : state) {
      const auto start = Clock::now();
      API_CHECK_RET(opsplit_ode_set_state(ode, g_cells.y0.data(), OPSPLIT_ODE_AOS), false);
      API_CHECK_RET(opsplit_ode_set_parameters(ode, g_cells.params.data(), OPSPLIT_ODE_AOS), false);
      API_CHECK_RET(opsplit_ode_integrate(ode, 0.0, kStep), false);
      API_CHECK_RET(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS), false);
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      state.SetIterationTime(s);
      seconds += s;
    }
    std::vector<int64_t> accepted(static_cast<size_t>(ncells)), rhs(accepted.size()), jac(accepted.size());
    API_CHECK_RET(opsplit_ode_get_results(ode, nullptr, accepted.data(), nullptr, rhs.data(), jac.data()), false);
    double steps = 0, nrhs = 0, njac = 0;
    for (size_t c = 0; c < accepted.size(); ++c)
      steps += static_cast<double>(accepted[c]), nrhs += static_cast<double>(rhs[c]), njac += static_cast<double>(jac[c]);
    set_per_cell_counters(state, static_cast<double>(ncells), steps, nrhs, njac,
                          seconds / static_cast<double>(state.iterations()));
    state.counters["error_in_tol"] = error_in_tol(y);
    if (backend == OPSPLIT_BACKEND_CUDA) {
      g_rates.cuda = state.counters["cells_per_s"];
    } else {
      g_rates.cpu = state.counters["cells_per_s"];
      state.counters["threads"] = omp_get_max_threads();
    }
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  if (ode) opsplit_ode_destroy(&ode);
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
}

void BM_summary(benchmark::State& state) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  const Rates& r = g_rates;
  if (r.cvode_1 <= 0) {
    state.SkipWithError("needs atm_saprc99/cvode_bdf/threads:1 in the same run");
    return;
  }
  if (r.cuda > 0) {
    state.counters["gpu_x_cvode_1core"] = r.cuda / r.cvode_1;
    if (r.cvode_all > 0) state.counters["gpu_x_cvode_allcores"] = r.cuda / r.cvode_all;
    if (r.cpu > 0) state.counters["gpu_x_cpu"] = r.cuda / r.cpu;
  }
  if (r.cpu > 0 && r.cvode_all > 0) state.counters["cpu_x_cvode_allcores"] = r.cpu / r.cvode_all;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const int nthreads = omp_get_max_threads();
  const int64_t ncells = std::max({opsplit_cells(OPSPLIT_BACKEND_CUDA), opsplit_cells(OPSPLIT_BACKEND_CPU),
                                   env_count("OPSPLIT_BENCH_ATM_CVODE_CELLS", 500) * nthreads});
  make_cells(ncells);
  if (g_cells.error.empty()) make_reference(g_cells.error);
  if (!g_cells.error.empty()) {
    std::fprintf(stderr, "bench_atmosphere: %s\n", g_cells.error.c_str());
    return 1;
  }
  benchmark::AddCustomContext("problem", "SAPRC-99 (KPP's saprc99.def, 74 species, 211 reactions), one 600 s step, "
                                         "rtol 1e-3, atol 1 molecule/cm^3");
  for (int t : {1, nthreads}) {
    benchmark::RegisterBenchmark(("atm_saprc99/cvode_bdf/threads:" + std::to_string(t)).c_str(), BM_cvode)
        ->Arg(t)
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    if (nthreads == 1) break;
  }
  if (opsplit_cuda_available()) {
#ifdef OPSPLIT_BENCH_CUDA
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) benchmark::AddCustomContext("cuda_device", prop.name);
#endif
    benchmark::RegisterBenchmark("atm_saprc99/opsplit_cuda", BM_opsplit, OPSPLIT_BACKEND_CUDA)
        ->UseManualTime()
        ->Iterations(3)
        ->Unit(benchmark::kMillisecond);
  } else {
    benchmark::AddCustomContext("cuda", "unavailable: the CUDA case is not run");
  }
  benchmark::RegisterBenchmark(("atm_saprc99/opsplit_cpu/threads:" + std::to_string(nthreads)).c_str(), BM_opsplit,
                               OPSPLIT_BACKEND_CPU)
      ->UseManualTime()
      ->Iterations(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("atm_saprc99/summary", BM_summary)->UseManualTime()->Iterations(1);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
