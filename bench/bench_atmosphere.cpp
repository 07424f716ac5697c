// An atmospheric chemistry step in every cell, mechanisms read at run time from the
// files their communities write: one operator-split chemistry step of 10 minutes at
// rtol 1e-3, atol 1 molecule/cm^3 (the loose tolerances chemistry-transport models run
// their solvers at; 1.66e-18 mol m^-3 in MICM's units), through the public C API only.
//
// Problems:
//   saprc99        SAPRC-99, KPP's example (74 species, 211 reactions with real yields and
//                  KPP's FALL, EP2 and EP3 laws): tests/data/kpp/saprc99.def, load_kpp.
//                  Cells: the state KPP's own trajectory reaches after a day
//                  (saprc99_kpp.txt, hour 24), its inputs of that row.
//   carbon_bond_5  CB05 as MICM ships it (v0 CAMP files: 67 species, 200 reactions with
//                  ARRHENIUS, TROE, PHOTOLYSIS and EMISSION): tests/data/micm/v0/carbon_bond_5,
//                  load_micm. Cells: MICM's own noon state (tests/data/micm/reference/
//                  carbon_bond_5.tsv, hour 12), its noon photolysis, emissions, T, P, M.
//   ts1            MOZART TS1 as MICM ships it (v0: 209 species, 547 reactions, 171 inputs
//                  with SURFACE and USER_DEFINED rates), as carbon_bond_5.
//   mcm            the MCM isoprene subset as the MCM site exports it for KPP (611
//                  species, 1944 reactions, rates times RO2, the sum of 117 species):
//                  tests/data/kpp/mcm/mcm.kpp, load_kpp. Cells: an hour after the MCM
//                  driver's start at noon; CVODE runs 1/100 of the other problems' cells,
//                  the CPU backend 1/10 (CVODE takes 3 s a cell on one core).
// Every variable species of each cell is scaled by its own factor in [0.5, 1.5) and the
// temperature moved by up to 5 K (mt19937_64, seed 99), so no two cells take the same steps.
//
// Cases, for each problem P, all in one run:
//   atm_P/opsplit_cuda           RODAS4 on the CUDA backend: set_state + set_parameters +
//                                integrate + get_state of every cell
//   atm_P/opsplit_cpu/threads:N  the same on the CPU backend, all threads
//   atm_P/opsplit_cuda_ros3, atm_P/opsplit_cpu_ros3/threads:N
//                                the same with ROS3 (OPSPLIT_ODE_ROS3), MICM's method
//   atm_P/cvode_bdf/threads:1, N SUNDIALS CVODE (BDF, dense direct solver, the mechanism's
//                                exact Jacobian), one instance per thread reinitialised per
//                                cell, its right-hand side and Jacobian from
//                                opsplit_mechanism_evaluate
//   atm_P/micm/threads:N         (MICM's files) MICM itself through libmusica's C API
//                                (bench/micm_peer.hpp: its vector-ordered ROS3 on states of
//                                64 cells, one solver per thread), the same files, cells,
//                                tolerances and step; skipped when libmusica is not found
//   atm_P/summary                the ratios of the cases above
//
// Cells: OPSPLIT_BENCH_ATM_CELLS (default 10^5) for CUDA, OPSPLIT_BENCH_ATM_CPU_CELLS
// (default 2 x 10^4) for the CPU backend and MICM, OPSPLIT_BENCH_ATM_CVODE_CELLS (default
// 500) per thread for CVODE: on the CPU the time per cell does not depend on the batch
// size. OPSPLIT_BENCH_ATM_PROBLEMS: a comma-separated subset of the problems;
// OPSPLIT_BENCH_ATM_MICM_RTOL: MICM's rtol (default the benchmark's 1e-3).
//
// Counters: cells_per_s, us_per_cell, steps/rhs/jac_per_cell, device_bytes_per_cell (CUDA:
// the device memory the batch holds after the step, per cell); error_in_tol: the first 500
// cells against a reference (opsplit's CPU backend at rtol 1e-9, atol 1e-4 of the
// benchmark's), max |y - y_ref| / (rtol |y_ref| + atol) at the benchmark's rtol and atol:
// how far each solver's answer is from the exact one, in units of the tolerance it was
// given. summary: gpu_x_cvode_1core, gpu_x_cvode_allcores, gpu_x_cpu,
// cpu_x_cvode_allcores, and for MICM's files gpu_x_micm_allcores and cpu_x_micm (the CPU
// backend's cells per second over MICM's, both on all cores: the ratio per core); the
// same with ROS3 as gpu_ros3_x_micm_allcores and cpu_ros3_x_micm.
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
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#ifdef OPSPLIT_BENCH_CUDA
#include <cuda_runtime_api.h>
#endif

#include "api_check.hpp"
#include "chemistry_bench.hpp"
#include "micm_peer.hpp"
#include "mcm_inputs.hpp"
#include "micm_reference.hpp"
#include "opsplit/core.h"
#include "opsplit/mechanism.h"
#include "opsplit/ode.h"

namespace {

constexpr double kStep = 600.0;  // s
constexpr double kRtol = 1e-3;
constexpr int64_t kCompared = 500;

using Clock = std::chrono::steady_clock;
using bench::api_error;
using bench::CvodeStats;
using bench::CvodeWorker;
using bench::env_count;
using bench::set_cvode_counters;
using bench::set_per_cell_counters;

const std::string kData = std::string(OPSPLIT_SOURCE_DIR) + "/tests/data";

struct Rates {
  double cuda = 0, cpu = 0, cuda_ros3 = 0, cpu_ros3 = 0, cvode_1 = 0, cvode_all = 0, micm = 0;
};

// A problem: its file, and the cells' initial states and inputs (AOS), made once.
struct Problem {
  std::string name, path, description;
  bool micm = false;  // read by load_micm (else load_kpp)
  int cvode_share = 1;  // CVODE runs OPSPLIT_BENCH_ATM_CVODE_CELLS / cvode_share cells a thread
  int cpu_share = 1;    // the CPU backend and MICM run OPSPLIT_BENCH_ATM_CPU_CELLS / cpu_share cells
  double atol = 1.0;
  int nspecies = 0, nparams = 0;
  std::vector<std::string> species, inputs;  // opsplit's names (inputs: after TEMP, PRESS, M)
  std::vector<double> y0, params;            // for the largest case
  std::vector<double> reference;             // the first kCompared cells after the step, at rtol 1e-9
  Rates rates;
};
std::vector<Problem> g_problems;

// A mechanism of ctx read from the problem's file; null with `error` set when it fails.
opsplit_mechanism load(opsplit_context ctx, const Problem& p, std::string& error) {
  opsplit_mechanism mech = nullptr;
  if (p.micm) {
    API_CHECK_RET(opsplit_mechanism_load_micm(ctx, p.path.c_str(), &mech), nullptr);
  } else {
    API_CHECK_RET(opsplit_mechanism_load_kpp(ctx, p.path.c_str(), &mech), nullptr);
  }
  return mech;
}

// SAPRC-99's cells start from KPP's trajectory at hour 24: name -> value of that row.
bool kpp_row(std::map<std::string, double>& values, std::string& error) {
  const std::string path = kData + "/kpp/saprc99_kpp.txt";
  std::ifstream in(path);
  std::string line, word;
  std::vector<std::string> names;
  if (!in || !std::getline(in, line)) return error = "cannot read " + path, false;
  for (std::istringstream header(line); header >> word;) names.push_back(word);
  while (std::getline(in, line)) {
    std::vector<double> row;
    for (std::istringstream v(line); v >> word;) row.push_back(std::strtod(word.c_str(), nullptr));
    if (row.size() != names.size() || row[0] != 24.0) continue;
    for (size_t i = 0; i < names.size(); ++i) values[names[i]] = row[i];
    return true;
  }
  return error = path + " has no row at hour 24", false;
}

// MICM's files: the reference's state at noon and its inputs (photolysis at its noon
// value), TEMP, PRESS and M its conditions.
bool micm_row(const Problem& p, std::map<std::string, double>& values, std::string& error) {
  const std::string path = kData + "/micm/reference/" + p.name + ".tsv";
  try {
    const micm_test::MicmReference ref = micm_test::read_reference(path);
    const std::vector<double>* noon = nullptr;
    for (const auto& row : ref.rows)
      if (row[0] == 12.0) noon = &row;
    if (noon == nullptr) return error = path + " has no row at hour 12", false;
    for (size_t c = 0; c < ref.species.size(); ++c) values[ref.species[c]] = (*noon)[c + 1];
    for (const auto& [label, value] : ref.inputs) values[label] = value;
    values["TEMP"] = ref.number("temperature"), values["PRESS"] = ref.number("pressure");
    values["M"] = ref.number("air_density");
  } catch (const std::exception& e) {
    return error = e.what(), false;
  }
  return true;
}

// The MCM isoprene subset: the MCM driver's start (298 K, M 2.5e19 molecules/cm^3, 30 ppb
// O3, 0.1 ppb NO2, 1.8 ppm CH4, 1 ppb isoprene, every other species 0) and its noon
// photolysis (constants_mcm.f90 at zenith 0); the cells start an hour later (spin_up).
bool mcm_row(std::map<std::string, double>& values, std::string& error) {
  const double M = 2.5e19;
  values = {{"TEMP", 298.0}, {"M", M},          {"O2", 0.21 * M},   {"N2", 0.78 * M},  {"H2O", 1e-2 * M},
            {"O3", 3e-8 * M}, {"NO2", 1e-10 * M}, {"CH4", 1.8e-6 * M}, {"C5H8", 1e-9 * M}};
  try {
    for (const auto& [n, j] : mcm_test::noon_photolysis(kData + "/kpp/mcm/constants_mcm.f90"))
      values["J(" + std::to_string(n) + ")"] = j;
  } catch (const std::exception& e) {
    return error = e.what(), false;
  }
  return true;
}

// One cell from y over an hour at rtol 1e-4 on the CPU backend: y becomes its state then.
bool spin_up(opsplit_context ctx, opsplit_mechanism mech, const Problem& p, std::vector<double>& y,
             const std::vector<double>& q, std::string& error) {
  opsplit_ode ode = nullptr;
  auto run = [&]() -> bool {
    API_CHECK_RET(opsplit_ode_create(ctx, p.nspecies, 1, p.nparams, &ode), false);
    API_CHECK_RET(opsplit_ode_set_mechanism(ode, mech), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, 1e-4, p.atol), false);
    API_CHECK_RET(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS), false);
    API_CHECK_RET(opsplit_ode_set_parameters(ode, q.data(), OPSPLIT_ODE_AOS), false);
    API_CHECK_RET(opsplit_ode_integrate(ode, 0.0, 3600.0), false);
    API_CHECK_RET(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS), false);
    return true;
  };
  const bool ok = run();
  if (ode) opsplit_ode_destroy(&ode);
  return ok;
}

bool make_cells(Problem& p, int64_t ncells, std::string& error) {
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  auto build = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx), false);
    if ((mech = load(ctx, p, error)) == nullptr) return false;
    std::map<std::string, double> values;
    const bool mcm = p.name == "mcm";
    if (!(p.micm ? micm_row(p, values, error) : mcm ? mcm_row(values, error) : kpp_row(values, error))) return false;
    API_CHECK_RET(opsplit_mechanism_get_counts(mech, &p.nspecies, nullptr, &p.nparams), false);
    std::vector<double> y(static_cast<size_t>(p.nspecies)), q(static_cast<size_t>(p.nparams));
    for (int k = 0; k < p.nspecies; ++k) {
      const char* name = nullptr;
      API_CHECK_RET(opsplit_mechanism_get_species_name(mech, k, &name), false);
      if (!values.count(name) && !mcm) return error = p.name + ": no value for species " + name, false;
      y[static_cast<size_t>(k)] = values.count(name) ? values[name] : 0.0;
      p.species.push_back(name);
    }
    for (int i = 0; i < p.nparams; ++i) {
      const char* name = nullptr;
      API_CHECK_RET(opsplit_mechanism_get_parameter_name(mech, i, &name), false);
      if (!values.count(name)) return error = p.name + ": no value for input " + name, false;
      q[static_cast<size_t>(i)] = values[name];
      if (p.micm && i >= 3) p.inputs.push_back(name);
    }
    if (mcm && !spin_up(ctx, mech, p, y, q, error)) return false;
    int temperature = -1;
    if (opsplit_mechanism_find_parameter(mech, "TEMP", &temperature) != OPSPLIT_SUCCESS)
      return error = p.name + ": no TEMP", false;
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> scale(0.5, 1.5), shift(-5.0, 5.0);
    for (int64_t c = 0; c < ncells; ++c) {
      for (double v : y) p.y0.push_back(v * scale(rng));
      for (int i = 0; i < p.nparams; ++i) p.params.push_back(q[static_cast<size_t>(i)] + (i == temperature ? shift(rng) : 0.0));
    }
    return true;
  };
  const bool ok = build();
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
  return ok;
}

// |y - y_ref| / (rtol |y_ref| + atol), the largest over the reference's cells.
double error_in_tol(const Problem& p, const std::vector<double>& y) {
  double worst = 0;
  for (size_t i = 0; i < std::min(y.size(), p.reference.size()); ++i)
    worst = std::max(worst, std::fabs(y[i] - p.reference[i]) / (kRtol * std::fabs(p.reference[i]) + p.atol));
  return worst;
}

// The reference: the first kCompared cells on the CPU backend at rtol 1e-9.
bool make_reference(Problem& p, std::string& error) {
  const int64_t ncells = std::min<int64_t>(kCompared, static_cast<int64_t>(p.y0.size()) / p.nspecies);
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  auto run = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx), false);
    if ((mech = load(ctx, p, error)) == nullptr) return false;
    API_CHECK_RET(opsplit_ode_create(ctx, p.nspecies, ncells, p.nparams, &ode), false);
    API_CHECK_RET(opsplit_ode_set_mechanism(ode, mech), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, 1e-9, 1e-4 * p.atol), false);
    API_CHECK_RET(opsplit_ode_set_state(ode, p.y0.data(), OPSPLIT_ODE_AOS), false);
    API_CHECK_RET(opsplit_ode_set_parameters(ode, p.params.data(), OPSPLIT_ODE_AOS), false);
    API_CHECK_RET(opsplit_ode_integrate(ode, 0.0, kStep), false);
    p.reference.resize(static_cast<size_t>(ncells * p.nspecies));
    API_CHECK_RET(opsplit_ode_get_state(ode, p.reference.data(), OPSPLIT_ODE_AOS), false);
    return true;
  };
  const bool ok = run();
  if (ode) opsplit_ode_destroy(&ode);
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
  return ok;
}

// ---- the peer: CVODE with the mechanism's rates through opsplit_mechanism_evaluate ---
void BM_cvode(benchmark::State& state, Problem* p) {
  const int nthreads = static_cast<int>(state.range(0));
  const int64_t per_thread = std::max<int64_t>(1, env_count("OPSPLIT_BENCH_ATM_CVODE_CELLS", 500) / p->cvode_share);
  const int64_t ncells = per_thread * nthreads;
  const int n = p->nspecies, np = p->nparams;
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
      bench::MechanismCell user;
      if (opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx) == OPSPLIT_SUCCESS) user.mech = load(ctx, *p, error);
      const int64_t first = per_thread * t;
      bool ok = user.mech != nullptr;
#pragma omp barrier
      const auto start = Clock::now();
      if (ok) {
        CvodeWorker worker({n, bench::mechanism_rhs, bench::mechanism_jacobian, kRtol, p->atol}, &user);
        ok = worker.run(&p->y0[static_cast<size_t>(first * n)], per_thread, kStep, &y[static_cast<size_t>(first * n)],
                        &stats[static_cast<size_t>(t)],
                        [&](int64_t c) { user.params = &p->params[static_cast<size_t>((first + c) * np)]; });
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
  state.counters["error_in_tol"] = error_in_tol(*p, y);
  (nthreads == 1 ? p->rates.cvode_1 : p->rates.cvode_all) = state.counters["cells_per_s"];
}

// ---- the peer: MICM itself (MICM's files) --------------------------------------------

const bench::micm::Library& musica() {
  static const bench::micm::Library lib;
  return lib;
}

// MICM's rtol: the benchmark's, or OPSPLIT_BENCH_ATM_MICM_RTOL (in [1e-8, 1e-1]) to see
// what MICM's answer costs at another accuracy (error_in_tol stays in the benchmark's units).
double micm_rtol() {
  const char* s = std::getenv("OPSPLIT_BENCH_ATM_MICM_RTOL");
  const double r = s != nullptr ? std::strtod(s, nullptr) : kRtol;
  return r >= 1e-8 && r <= 1e-1 ? r : kRtol;
}

void BM_micm(benchmark::State& state, Problem* p) {
  const int nthreads = static_cast<int>(state.range(0));
  const int64_t ncells = std::max<int64_t>(1, env_count("OPSPLIT_BENCH_ATM_CPU_CELLS", 20000) / p->cpu_share);
  const int64_t per_thread = (ncells + nthreads - 1) / nthreads;
  const int n = p->nspecies, np = p->nparams;
  std::vector<double> y(static_cast<size_t>(ncells * n));
  std::vector<double> steps(static_cast<size_t>(nthreads));
  std::vector<std::string> errors(static_cast<size_t>(nthreads));
  double seconds = 0;
  for (auto _ : state) {
    std::copy(p->y0.begin(), p->y0.begin() + static_cast<std::ptrdiff_t>(y.size()), y.begin());
    double s = 0;
#pragma omp parallel num_threads(nthreads) reduction(max : s)
    {
      // Each thread its own solver and state, made before the clock starts.
      const int t = omp_get_thread_num();
      bench::micm::Solver solver(musica(), p->path, micm_rtol(), p->atol, p->species, p->inputs);
      const int64_t first = std::min(ncells, per_thread * t), count = std::min(ncells, first + per_thread) - first;
#pragma omp barrier
      const auto start = Clock::now();
      if (solver.error().empty())
        solver.run(&y[static_cast<size_t>(first * n)], &p->params[static_cast<size_t>(first * np)], count, kStep,
                   steps[static_cast<size_t>(t)]);
      s = std::chrono::duration<double>(Clock::now() - start).count();
      errors[static_cast<size_t>(t)] = solver.error();
    }
    state.SetIterationTime(s);
    seconds += s;
  }
  for (const std::string& e : errors)
    if (!e.empty()) {
      state.SkipWithError(e.c_str());
      return;
    }
  double total_steps = 0;
  for (double x : steps) total_steps += x;
  const double per_iteration = seconds / static_cast<double>(state.iterations());
  state.counters["cells"] = static_cast<double>(ncells);
  state.counters["cells_per_s"] = static_cast<double>(ncells) / per_iteration;
  state.counters["us_per_cell"] = 1e6 * per_iteration / static_cast<double>(ncells);
  state.counters["steps_per_cell"] = total_steps / static_cast<double>(state.iterations()) / static_cast<double>(ncells);
  state.counters["threads"] = nthreads;
  state.counters["rtol"] = micm_rtol();
  state.counters["error_in_tol"] = error_in_tol(*p, y);
  p->rates.micm = state.counters["cells_per_s"];
}

// ---- opsplit -----------------------------------------------------------------------

int64_t opsplit_cells(opsplit_backend backend) {
  return backend == OPSPLIT_BACKEND_CUDA ? env_count("OPSPLIT_BENCH_ATM_CELLS", 100000)
                                         : env_count("OPSPLIT_BENCH_ATM_CPU_CELLS", 20000);
}

void BM_opsplit(benchmark::State& state, Problem* p, opsplit_backend backend, opsplit_ode_method method) {
  const int64_t ncells = backend == OPSPLIT_BACKEND_CUDA ? opsplit_cells(backend)
                                                         : std::max<int64_t>(1, opsplit_cells(backend) / p->cpu_share);
  const int n = p->nspecies, np = p->nparams;
  std::vector<double> y(static_cast<size_t>(ncells * n));
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  auto run_case = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(backend, &ctx), false);
    if ((mech = load(ctx, *p, error)) == nullptr) return false;
    size_t free_before = 0, free_after = 0, total = 0;  // the device memory the batch takes
#ifdef OPSPLIT_BENCH_CUDA
    if (backend == OPSPLIT_BACKEND_CUDA) cudaMemGetInfo(&free_before, &total);
#endif
    API_CHECK_RET(opsplit_ode_create(ctx, n, ncells, np, &ode), false);
    API_CHECK_RET(opsplit_ode_set_mechanism(ode, mech), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, kRtol, p->atol), false);
    API_CHECK_RET(opsplit_ode_set_method(ode, method), false);
    double seconds = 0;
    for (auto _ : state) {
      const auto start = Clock::now();
      API_CHECK_RET(opsplit_ode_set_state(ode, p->y0.data(), OPSPLIT_ODE_AOS), false);
      API_CHECK_RET(opsplit_ode_set_parameters(ode, p->params.data(), OPSPLIT_ODE_AOS), false);
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
    state.counters["error_in_tol"] = error_in_tol(*p, y);
#ifdef OPSPLIT_BENCH_CUDA
    if (backend == OPSPLIT_BACKEND_CUDA && cudaMemGetInfo(&free_after, &total) == cudaSuccess && free_before > free_after)
      state.counters["device_bytes_per_cell"] = static_cast<double>(free_before - free_after) / static_cast<double>(ncells);
#endif
    const bool ros3 = method == OPSPLIT_ODE_ROS3;
    if (backend == OPSPLIT_BACKEND_CUDA) {
      (ros3 ? p->rates.cuda_ros3 : p->rates.cuda) = state.counters["cells_per_s"];
    } else {
      (ros3 ? p->rates.cpu_ros3 : p->rates.cpu) = state.counters["cells_per_s"];
      state.counters["threads"] = omp_get_max_threads();
    }
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  if (ode) opsplit_ode_destroy(&ode);
  if (mech) opsplit_mechanism_destroy(&mech);
  if (ctx) opsplit_context_destroy(&ctx);
}

void BM_summary(benchmark::State& state, Problem* p) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  const Rates& r = p->rates;
  if (r.cvode_1 <= 0) {
    state.SkipWithError(("needs atm_" + p->name + "/cvode_bdf/threads:1 in the same run").c_str());
    return;
  }
  if (r.cuda > 0) {
    state.counters["gpu_x_cvode_1core"] = r.cuda / r.cvode_1;
    if (r.cvode_all > 0) state.counters["gpu_x_cvode_allcores"] = r.cuda / r.cvode_all;
    if (r.cpu > 0) state.counters["gpu_x_cpu"] = r.cuda / r.cpu;
    if (r.micm > 0) state.counters["gpu_x_micm_allcores"] = r.cuda / r.micm;
  }
  if (r.cpu > 0 && r.cvode_all > 0) state.counters["cpu_x_cvode_allcores"] = r.cpu / r.cvode_all;
  if (r.cpu > 0 && r.micm > 0) state.counters["cpu_x_micm"] = r.cpu / r.micm;
  if (r.cuda_ros3 > 0 && r.micm > 0) state.counters["gpu_ros3_x_micm_allcores"] = r.cuda_ros3 / r.micm;
  if (r.cpu_ros3 > 0 && r.micm > 0) state.counters["cpu_ros3_x_micm"] = r.cpu_ros3 / r.micm;
}

std::vector<Problem> all_problems() {
  std::vector<Problem> out(3);
  out[0].name = "saprc99", out[0].path = kData + "/kpp/saprc99.def";
  out[0].description = "SAPRC-99 (KPP's saprc99.def: 74 species, 211 reactions), atol 1 molecule/cm^3";
  out[1].name = "carbon_bond_5", out[1].path = kData + "/micm/v0/carbon_bond_5/config.json", out[1].micm = true;
  out[1].description = "CB05 (MICM's v0 carbon_bond_5: 67 species, 200 reactions), atol 1.66e-18 mol/m^3";
  out[2].name = "ts1", out[2].path = kData + "/micm/v0/TS1/config.json", out[2].micm = true;
  out[2].description = "MOZART TS1 (MICM's v0 TS1: 209 species, 547 reactions), atol 1.66e-18 mol/m^3";
  for (Problem& p : out)
    if (p.micm) p.atol = 1e6 / 6.02214076e23;  // 1 molecule/cm^3 in mol/m^3
  Problem mcm;
  mcm.name = "mcm", mcm.path = kData + "/kpp/mcm/mcm.kpp", mcm.cvode_share = 100, mcm.cpu_share = 10;
  mcm.description = "the MCM isoprene subset (KPP export: 611 species, 1944 reactions, RO2 sums), atol 1 molecule/cm^3";
  out.push_back(mcm);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  const int nthreads = omp_get_max_threads();
  const int64_t ncells = std::max({opsplit_cells(OPSPLIT_BACKEND_CUDA), opsplit_cells(OPSPLIT_BACKEND_CPU),
                                   env_count("OPSPLIT_BENCH_ATM_CVODE_CELLS", 500) * nthreads});
  const char* only = std::getenv("OPSPLIT_BENCH_ATM_PROBLEMS");
  for (Problem& p : all_problems())
    if (only == nullptr || ("," + std::string(only) + ",").find("," + p.name + ",") != std::string::npos)
      g_problems.push_back(std::move(p));
  for (Problem& p : g_problems) {
    std::string error;
    if (!make_cells(p, ncells, error) || !make_reference(p, error)) {
      std::fprintf(stderr, "bench_atmosphere: %s: %s\n", p.name.c_str(), error.c_str());
      return 1;
    }
    benchmark::AddCustomContext("problem_" + p.name, p.description);
  }
  benchmark::AddCustomContext("step", "one 600 s step, rtol 1e-3");
  if (!musica().ok()) benchmark::AddCustomContext("micm", musica().why());
#ifdef OPSPLIT_BENCH_CUDA
  cudaDeviceProp prop{};
  if (opsplit_cuda_available() && cudaGetDeviceProperties(&prop, 0) == cudaSuccess)
    benchmark::AddCustomContext("cuda_device", prop.name);
#endif
  if (!opsplit_cuda_available()) benchmark::AddCustomContext("cuda", "unavailable: the CUDA cases are not run");
  for (Problem& p : g_problems) {
    const std::string prefix = "atm_" + p.name + "/";
    for (int t : {1, nthreads}) {
      benchmark::RegisterBenchmark((prefix + "cvode_bdf/threads:" + std::to_string(t)).c_str(), BM_cvode, &p)
          ->Arg(t)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
      if (nthreads == 1) break;
    }
    if (p.micm && musica().ok())
      benchmark::RegisterBenchmark((prefix + "micm/threads:" + std::to_string(nthreads)).c_str(), BM_micm, &p)
          ->Arg(nthreads)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    for (opsplit_ode_method method : {OPSPLIT_ODE_ROSENBROCK, OPSPLIT_ODE_ROS3}) {
      const std::string suffix = method == OPSPLIT_ODE_ROS3 ? "_ros3" : "";
      if (opsplit_cuda_available())
        benchmark::RegisterBenchmark((prefix + "opsplit_cuda" + suffix).c_str(), BM_opsplit, &p, OPSPLIT_BACKEND_CUDA,
                                     method)
            ->UseManualTime()
            ->Iterations(2)
            ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark((prefix + "opsplit_cpu" + suffix + "/threads:" + std::to_string(nthreads)).c_str(),
                                   BM_opsplit, &p, OPSPLIT_BACKEND_CPU, method)
          ->UseManualTime()
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark((prefix + "summary").c_str(), BM_summary, &p)->UseManualTime()->Iterations(1);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
