// Gas-reactor chemistry near ignition: H2/O2 (h2o2.yaml, 10 species, 29 reactions) and
// GRI-Mech 3.0 (gri30.yaml, 53 species, 325 reactions), adiabatic constant pressure
// (state T + mass fractions), one operator-split chemistry step of 1e-5 s at rtol 1e-6
// (atol 1e-10) in every cell.
//
// Cells: states of one ignition (a constant-pressure reactor marched through ignition
// in steps of the delay/100, from 30 % of the delay to 20 % past it), cell c taking
// state c mod the number of states with T scaled by 1 +- 0.002 and every mass fraction
// by 1 +- 0.01 (mt19937_64, seed 2026), so that no two cells take the same steps.
//   H2/O2: H2:2, O2:1, N2:4 (molar) from 1001 K at 1 atm (the Cantera validation case)
//   GRI:   stoichiometric CH4/air from 1300 K at 1 atm
//   gri30_inert47: the GRI case with 47 inert species added (0.02 mol each per mol of
//          CH4, 8 % of the mass; tests/unit/inert_species.hpp): 100 species, 101
//          equations, the CUDA kernel whose systems live in device memory
//
// Cases per mechanism, in this order, all in one run:
//   reactor_<mech>/opsplit_cuda         opsplit ROSENBROCK, analytic Jacobian, CUDA:
//                                       set_state + integrate + get_state of every cell
//   reactor_<mech>/opsplit_cuda_fd      the same with FINITE_DIFFERENCE Jacobians
//   reactor_<mech>/opsplit_cpu          analytic, CPU backend on all threads
//   reactor_<mech>/opsplit_cpu_fd       forward differences, CPU backend
//   reactor_<mech>/cvode_bdf/threads:N  SUNDIALS CVODE (BDF, dense direct solver, stop
//                                       time) on all threads, one instance per thread
//                                       reinitialised per cell, with opsplit's own
//                                       right-hand side and analytic Jacobian (the
//                                       kernels/chem functions compiled into this
//                                       program: no API call per evaluation)
//   reactor_<mech>/cvode_bdf_dq/threads:N  the same with CVODE's difference-quotient Jacobian
//   reactor_<mech>/summary              ratios (the floors: GPU >= 10x all-core CVODE for
//                                       H2/O2, >= 5x for GRI-Mech 3.0; issue 5)
//
// Cells: OPSPLIT_BENCH_REACTOR_CELLS (default 10^6) for CUDA, _CPU_CELLS (default 2 x
// 10^4) for the CPU backend, _CVODE_CELLS (default 1000) per thread for CVODE; the
// GRI cases use a tenth of each. Mechanisms from data/mechanisms (OPSPLIT_DATA_DIR overrides).
//
// Counters: cells_per_s, us_per_cell, steps/rhs/jac_per_cell; max_diff_in_tol of the
// first cells against CVODE (analytic), in units of rtol |y| + atol;
// frac_of_transfer_bound (CUDA): pageable host<->device copies of the state alone /
// the case's time.
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#ifdef OPSPLIT_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

#include "api_check.hpp"
#include "chemistry_bench.hpp"
#include "chem/gas.hpp"
#include "chem/loaders.hpp"
#include "chem/reactor.cuh"
#include "inert_species.hpp"
#include "opsplit/core.h"
#include "opsplit/mechanism.h"
#include "opsplit/ode.h"

namespace {

constexpr double kStep = 1e-5;  // s: one operator-split chemistry step
constexpr double kRtol = 1e-6, kAtol = 1e-10;
constexpr double kPressure = 101325.0;
constexpr int64_t kCompared = 200;  // cells compared against CVODE

using Clock = std::chrono::steady_clock;
using bench::api_error;
using bench::CvodeStats;
using bench::CvodeWorker;
using bench::env_count;
using bench::set_cvode_counters;
using bench::set_per_cell_counters;

// file: in the validation data's mechanisms folder, or an absolute path.
std::string mechanism_path(const std::string& file) {
  if (!file.empty() && file[0] == '/') return file;
  const char* data = std::getenv("OPSPLIT_DATA_DIR");
  return std::string(data != nullptr && *data != '\0' ? data : OPSPLIT_DATA) + "/mechanisms/" + file;
}

struct Problem {
  std::string name, file;
  std::vector<std::pair<std::string, double>> moles;  // initial mixture
  double T0;
  int64_t scale;  // cell counts are divided by this
  // Made once: the mechanism on the host (the CVODE peer's), near-ignition states.
  std::unique_ptr<opsplit::chem::CompiledGas> gas;
  int neq = 0;
  std::vector<double> states;  // AOS [state][eq]
  std::vector<double> cells;   // AOS [cell][eq], grown as needed
  std::string error;
};

struct Rates {
  double cuda = 0, cuda_fd = 0, cpu = 0, cpu_fd = 0, cvode = 0, cvode_dq = 0;
  int cvode_threads = 0;
  std::vector<double> cvode_y, cuda_y, cpu_y;
};
std::map<std::string, Rates> g_rates;
double g_transfer_seconds_per_value = 0;

// The initial mixture as mass fractions over the mechanism's species.
bool initial_mass_fractions(opsplit_mechanism mech, const Problem& p, std::vector<double>& Y, std::string& error) {
  int ns = 0;
  API_CHECK_RET(opsplit_mechanism_get_counts(mech, &ns, nullptr, nullptr), false);
  std::vector<double> W(static_cast<size_t>(ns));
  API_CHECK_RET(opsplit_mechanism_get_molar_masses(mech, W.data()), false);
  Y.assign(static_cast<size_t>(ns), 0.0);
  double total = 0;
  for (const auto& [name, x] : p.moles) {
    int k = -1;
    API_CHECK_RET(opsplit_mechanism_find_species(mech, name.c_str(), &k), false);
    Y[static_cast<size_t>(k)] = x * W[static_cast<size_t>(k)];
    total += Y[static_cast<size_t>(k)];
  }
  for (double& v : Y) v /= total;
  return true;
}

// Marches one constant-pressure reactor through ignition (opsplit, CPU) and keeps the
// states from 30 % of the delay to 20 % past it.
bool make_states(Problem& p) {
  std::string& error = p.error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  auto run = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx), false);
    API_CHECK_RET(opsplit_mechanism_load_yaml(ctx, mechanism_path(p.file).c_str(), nullptr, &mech), false);
    std::vector<double> Y;
    if (!initial_mass_fractions(mech, p, Y, error)) return false;
    p.neq = static_cast<int>(Y.size()) + 1;
    API_CHECK_RET(opsplit_ode_create(ctx, p.neq, 1, 1, &ode), false);
    API_CHECK_RET(opsplit_ode_set_reactor(ode, mech, OPSPLIT_REACTOR_CONSTANT_PRESSURE), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, 1e-8, 1e-14), false);
    API_CHECK_RET(opsplit_ode_set_parameters(ode, &kPressure, OPSPLIT_ODE_AOS), false);
    std::vector<double> y{p.T0};
    y.insert(y.end(), Y.begin(), Y.end());
    // The delay (T0 + 400 K) in steps of 1e-6 s, then the states in steps of delay/100.
    std::vector<double> y_run = y;
    double t = 0, delay = 0;
    API_CHECK_RET(opsplit_ode_set_state(ode, y_run.data(), OPSPLIT_ODE_AOS), false);
    while (y_run[0] < p.T0 + 400.0 && t < 1.0) {
      API_CHECK_RET(opsplit_ode_integrate(ode, t, t + 1e-6), false);
      API_CHECK_RET(opsplit_ode_get_state(ode, y_run.data(), OPSPLIT_ODE_AOS), false);
      t += 1e-6;
    }
    delay = t;
    API_CHECK_RET(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS), false);
    const double dt = delay / 100.0;
    for (int i = 1; i <= 120; ++i) {
      API_CHECK_RET(opsplit_ode_integrate(ode, (i - 1) * dt, i * dt), false);
      API_CHECK_RET(opsplit_ode_get_state(ode, y_run.data(), OPSPLIT_ODE_AOS), false);
      if (i >= 30) p.states.insert(p.states.end(), y_run.begin(), y_run.end());
    }
    benchmark::AddCustomContext(p.name + "_ignition_delay_s", std::to_string(delay));
    return true;
  };
  const bool ok = run();
  if (ode) opsplit_ode_destroy(&ode);
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
  if (!ok) return false;
  try {
    p.gas = std::make_unique<opsplit::chem::CompiledGas>(opsplit::chem::load_yaml(mechanism_path(p.file), ""));
  } catch (const std::exception& e) {
    p.error = e.what();
    return false;
  }
  return true;
}

const std::vector<double>& cells_of(Problem& p, int64_t ncells) {
  const auto n = static_cast<size_t>(p.neq);
  if (p.cells.size() < static_cast<size_t>(ncells) * n) {
    std::mt19937_64 rng(2026);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const size_t nstates = p.states.size() / n;
    p.cells.resize(static_cast<size_t>(ncells) * n);
    for (int64_t c = 0; c < ncells; ++c) {
      const double* s = &p.states[(static_cast<size_t>(c) % nstates) * n];
      double* y = &p.cells[static_cast<size_t>(c) * n];
      y[0] = s[0] * (1.0 + 0.002 * u(rng));
      double sum = 0;
      for (size_t k = 1; k < n; ++k) sum += y[k] = s[k] * (1.0 + 0.01 * u(rng));
      for (size_t k = 1; k < n; ++k) y[k] /= sum;
    }
  }
  return p.cells;
}


// ---- the peer: CVODE with opsplit's reactor right-hand side and Jacobian ------------

struct CvodeUser {
  opsplit::chem::GasKinetics g;
  double pressure = kPressure;
  std::vector<double> scratch;
};

int cvode_rhs(sunrealtype, N_Vector y, N_Vector f, void* user) {
  auto* u = static_cast<CvodeUser*>(user);
  opsplit::chem::reactor_rhs(u->g, opsplit::chem::kConstantPressure, &u->pressure, N_VGetArrayPointer(y),
                             N_VGetArrayPointer(f), u->scratch.data());
  return 0;
}

int cvode_jacobian(sunrealtype, N_Vector y, N_Vector, SUNMatrix J, void* user, N_Vector, N_Vector, N_Vector) {
  auto* u = static_cast<CvodeUser*>(user);
  opsplit::chem::reactor_jacobian(u->g, opsplit::chem::kConstantPressure, &u->pressure, N_VGetArrayPointer(y),
                                  SUNDenseMatrix_Data(J), u->scratch.data());
  return 0;
}

void BM_cvode(benchmark::State& state, Problem* p, bool analytic) {
  const int nthreads = omp_get_max_threads();
  const int64_t per_thread = std::max<int64_t>(1, env_count("OPSPLIT_BENCH_REACTOR_CVODE_CELLS", 1000) / p->scale);
  const int64_t ncells = per_thread * nthreads;
  const std::vector<double>& y0 = cells_of(*p, ncells);
  const int n = p->neq;
  std::vector<double> y(static_cast<size_t>(ncells * n));
  std::vector<CvodeStats> stats(static_cast<size_t>(nthreads));
  const opsplit::chem::GasKinetics g = p->gas->view();
  double seconds = 0;
  int failed = 0;
  for (auto _ : state) {
    stats.assign(static_cast<size_t>(nthreads), CvodeStats{});
    const auto start = Clock::now();
#pragma omp parallel num_threads(nthreads) reduction(+ : failed)
    {
      const int t = omp_get_thread_num();
      CvodeUser user;
      user.g = g;
      user.scratch.resize(static_cast<size_t>(opsplit::chem::reactor_scratch_size(g.nspecies)));
      CvodeWorker worker({n, cvode_rhs, analytic ? cvode_jacobian : nullptr, kRtol, kAtol}, &user);
      const size_t begin = static_cast<size_t>(per_thread * t * n);
      failed += !worker.run(&y0[begin], per_thread, kStep, &y[begin], &stats[static_cast<size_t>(t)]);
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
  Rates& r = g_rates[p->name];
  if (analytic) {
    r.cvode = state.counters["cells_per_s"];
    r.cvode_threads = nthreads;
    r.cvode_y.assign(y.begin(), y.begin() + std::min<int64_t>(ncells, kCompared) * n);
  } else {
    r.cvode_dq = state.counters["cells_per_s"];
  }
}

// ---- opsplit -----------------------------------------------------------------------

void BM_opsplit(benchmark::State& state, Problem* p, opsplit_backend backend, bool analytic) {
  const bool cuda = backend == OPSPLIT_BACKEND_CUDA;
  const int64_t ncells = std::max<int64_t>(
      1, (cuda ? env_count("OPSPLIT_BENCH_REACTOR_CELLS", 1000000) : env_count("OPSPLIT_BENCH_REACTOR_CPU_CELLS", 20000)) /
             p->scale);
  const std::vector<double>& y0 = cells_of(*p, ncells);
  const int n = p->neq;
  std::vector<double> y(static_cast<size_t>(ncells * n));
  const std::vector<double> pressure(static_cast<size_t>(ncells), kPressure);
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  auto run_case = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(backend, &ctx), false);
    API_CHECK_RET(opsplit_mechanism_load_yaml(ctx, mechanism_path(p->file).c_str(), nullptr, &mech), false);
    API_CHECK_RET(opsplit_ode_create(ctx, n, ncells, 1, &ode), false);
    API_CHECK_RET(opsplit_ode_set_reactor(ode, mech, OPSPLIT_REACTOR_CONSTANT_PRESSURE), false);
    API_CHECK_RET(opsplit_ode_set_jacobian(ode, analytic ? OPSPLIT_ODE_JACOBIAN_ANALYTIC
                                                         : OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE),
                  false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, kRtol, kAtol), false);
    API_CHECK_RET(opsplit_ode_set_parameters(ode, pressure.data(), OPSPLIT_ODE_AOS), false);
    if (cuda) {  // untimed: the kernels' first launch loads them
      API_CHECK_RET(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS), false);
      API_CHECK_RET(opsplit_ode_integrate(ode, 0.0, kStep), false);
    }
    double seconds = 0;
    for (auto _ : state) {
      const auto start = Clock::now();
      API_CHECK_RET(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS), false);
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
    const double per_iteration = seconds / static_cast<double>(state.iterations());
    set_per_cell_counters(state, static_cast<double>(ncells), steps, nrhs, njac, per_iteration);
    Rates& r = g_rates[p->name];
    const std::vector<double> first(y.begin(), y.begin() + std::min<int64_t>(ncells, kCompared) * n);
    const double rate = state.counters["cells_per_s"];
    if (cuda) {
      (analytic ? r.cuda : r.cuda_fd) = rate;
      if (analytic) r.cuda_y = first;
      if (g_transfer_seconds_per_value > 0)
        state.counters["frac_of_transfer_bound"] =
            g_transfer_seconds_per_value * static_cast<double>(ncells * n) / per_iteration;
    } else {
      (analytic ? r.cpu : r.cpu_fd) = rate;
      if (analytic) r.cpu_y = first;
      state.counters["threads"] = omp_get_max_threads();
    }
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  if (ode) opsplit_ode_destroy(&ode);
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
}

double max_diff_in_tol(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    worst = std::max(worst, std::fabs(a[i] - b[i]) / (kRtol * std::fabs(b[i]) + kAtol));
  return worst;
}

void BM_summary(benchmark::State& state, Problem* p, double floor) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  const Rates& r = g_rates[p->name];
  if (r.cvode <= 0) {
    state.SkipWithError("needs the cvode_bdf case in the same run");
    return;
  }
  const double cvode_best = std::max(r.cvode, r.cvode_dq);
  state.counters["floor_gpu_x_cvode_allcores"] = floor;
  if (r.cuda > 0) {
    state.counters["gpu_x_cvode_allcores"] = r.cuda / cvode_best;
    state.counters["gpu_max_diff_in_tol"] = max_diff_in_tol(r.cuda_y, r.cvode_y);
    if (r.cpu > 0) state.counters["gpu_x_cpu_allcores"] = r.cuda / r.cpu;
    if (r.cuda_fd > 0) state.counters["gpu_analytic_x_fd"] = r.cuda / r.cuda_fd;
  }
  if (r.cpu > 0) {
    state.counters["cpu_x_cvode_allcores"] = r.cpu / cvode_best;
    state.counters["cpu_max_diff_in_tol"] = max_diff_in_tol(r.cpu_y, r.cvode_y);
    if (r.cpu_fd > 0) state.counters["cpu_analytic_x_fd"] = r.cpu / r.cpu_fd;
  }
  if (r.cvode_dq > 0) state.counters["cvode_analytic_x_dq"] = r.cvode / r.cvode_dq;
}

#ifdef OPSPLIT_BENCH_CUDA
// Best of 3 pageable cudaMemcpy of `bytes` there and back, per double moved one way and back.
double measure_transfer_seconds_per_value(size_t values) {
  const size_t bytes = values * sizeof(double);
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
  return best / static_cast<double>(values);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  static Problem problems[] = {
      {"h2o2", "h2o2.yaml", {{"H2", 2.0}, {"O2", 1.0}, {"N2", 4.0}}, 1001.0, 1, {}, 0, {}, {}, {}},
      {"gri30", "gri30.yaml", {{"CH4", 1.0}, {"O2", 2.0}, {"N2", 7.52}}, 1300.0, 10, {}, 0, {}, {}, {}},
      {"gri30_inert47", "", {{"CH4", 1.0}, {"O2", 2.0}, {"N2", 7.52}}, 1300.0, 10, {}, 0, {}, {}, {}},
  };
  // 100 species: GRI-Mech 3.0 with 47 inert ones (tests/unit/inert_species.hpp), above
  // the 64 equations of the CUDA kernels that keep a system in local memory.
  Problem& inert = problems[2];
  inert.file = (std::filesystem::temp_directory_path() / "opsplit_bench_gri30_inert47.yaml").string();
  if (!opsplit_test::write_gri30_with_inert_species(mechanism_path("gri30.yaml"), 47, inert.file)) {
    std::fprintf(stderr, "cannot write %s from %s\n", inert.file.c_str(), mechanism_path("gri30.yaml").c_str());
    return 1;
  }
  for (int i = 1; i <= 47; ++i) inert.moles.emplace_back("X" + std::to_string(i), 0.02);
  const int nthreads = omp_get_max_threads();
  const bool cuda = opsplit_cuda_available() != 0;
  benchmark::AddCustomContext("problem", "adiabatic constant-pressure reactors near ignition, one step of 1e-5 s, "
                                         "rtol 1e-6, atol 1e-10");
#ifdef OPSPLIT_BENCH_CUDA
  if (cuda) {
    g_transfer_seconds_per_value = measure_transfer_seconds_per_value(size_t(1) << 26);
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, 0) == cudaSuccess) benchmark::AddCustomContext("cuda_device", prop.name);
  }
#endif
  for (Problem& p : problems) {
    if (!make_states(p)) {
      std::fprintf(stderr, "%s: %s\n", p.name.c_str(), p.error.c_str());
      return 1;
    }
    const std::string prefix = "reactor_" + p.name + "/";
    auto add = [&](const std::string& name, auto fn, auto... args) {
      benchmark::RegisterBenchmark((prefix + name).c_str(), fn, args...)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    };
    if (cuda) {
      add("opsplit_cuda", BM_opsplit, &p, OPSPLIT_BACKEND_CUDA, true);
      add("opsplit_cuda_fd", BM_opsplit, &p, OPSPLIT_BACKEND_CUDA, false);
    }
    add("opsplit_cpu/threads:" + std::to_string(nthreads), BM_opsplit, &p, OPSPLIT_BACKEND_CPU, true);
    add("opsplit_cpu_fd/threads:" + std::to_string(nthreads), BM_opsplit, &p, OPSPLIT_BACKEND_CPU, false);
    add("cvode_bdf/threads:" + std::to_string(nthreads), BM_cvode, &p, true);
    add("cvode_bdf_dq/threads:" + std::to_string(nthreads), BM_cvode, &p, false);
    add("summary", BM_summary, &p, p.name == "h2o2" ? 10.0 : 5.0);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
