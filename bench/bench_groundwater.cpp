// Groundwater chemistry (issue 42): one transport step's chemistry, dt = 1 hour, in every
// cell of a chlorinated-solvent plume: PCE -> TCE -> DCE -> VC -> ethene (first order),
// kinetic sorption of PCE (first-order mass transfer), and dual-Monod biodegradation of
// an electron donor with oxygen by immobile biomass (growth with a yield, first-order
// decay). 9 species (7 mobile, 2 immobile), 8 reactions.
//
// Cases, in this order, all in one run:
//   gw/opsplit_cuda             opsplit_gw on the CUDA backend: set_concentrations + run +
//                               get_concentrations of every cell (what a host pays a step)
//   gw/opsplit_cpu/threads:N    the same on the CPU backend with all threads
//   gw/opsplit_cuda_bmi, gw/opsplit_cpu_bmi/threads:N
//                               the same step through the BMI calls (set_value
//                               "Concentrations" + update + get_value): what the BMI face
//                               costs over the plain calls
//   gw/cvode_bdf/threads:N      SUNDIALS CVODE (BDF, dense direct solver, the mechanism's
//                               exact Jacobian through opsplit_mechanism_evaluate) on all
//                               threads, one instance a thread, reinitialised per cell
//   gw/rt_step_cuda, gw/rt_step_cpu/threads:N
//                               a whole reactive-transport step: the 7 mobile species on a
//                               3D field (advection and dispersion, PCE retarded by R = 2,
//                               one step) and the module on every cell, the values
//                               downloaded to the module and uploaded back (the host path)
//   gw/phreeqcrm/threads:N      PhreeqcRM (the phreeqcrm wheel's OpenMP build, its C API:
//                               bench/phreeqcrm_peer.hpp) with N threads on the same
//                               chemistry as RATES/KINETICS: RM_SetConcentrations +
//                               RM_RunCells + RM_GetConcentrations; and with 1 thread
//                               (last: its OpenMP calls reach this program's libgomp)
//   gw/summary                  the ratios (no timing of its own)
//
// Cells: OPSPLIT_BENCH_GW_CELLS (default 10^6) on CUDA, OPSPLIT_BENCH_GW_CPU_CELLS
// (2 x 10^5) on the CPU, OPSPLIT_BENCH_GW_CVODE_CELLS (2 x 10^4) for CVODE,
// OPSPLIT_BENCH_GW_PHREEQCRM_CELLS (2 x 10^4) for PhreeqcRM: the rate per cell is what is
// compared. The reactive-transport step: OPSPLIT_BENCH_GW_RT_SIDE^3 cells (100) on CUDA,
// OPSPLIT_BENCH_GW_RT_CPU_SIDE^3 (50) on the CPU. Every cell's donor, oxygen, PCE and TCE are scaled by
// factors in [0.5, 1.5) (mt19937_64, seed 42). Porosity 0.25, saturation 1, 1 L cells.
// PhreeqcRM's database: OPSPLIT_PHREEQCRM_DATABASE (default ../shared's phreeqc.dat).
//
// Counters: cells_per_s, us_per_cell; summary: gpu_x_phreeqcrm_allcores (floor 100),
// cpu_per_core_x_phreeqcrm_per_core (floor 5), gpu_x_cvode_allcores, cpu_x_cvode_allcores,
// rt_gpu_x_cpu, and max_rel_diff_* of opsplit's
// concentrations against PhreeqcRM's over the first cells (PhreeqcRM's rates read
// mol/kgw, opsplit's mol/L: the water's density, 0.997, is in the difference).
//
// Run: build/bench/bench_groundwater [--benchmark_filter=...]

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "api_check.hpp"
#include "chemistry_bench.hpp"
#include "opsplit/field.h"
#include "opsplit/groundwater.h"
#include "opsplit/mechanism.h"
#include "phreeqcrm_peer.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using bench::env_count;

const int all_threads = omp_get_max_threads();  // before any case runs

constexpr double kDt = 3600.0, kRtol = 1e-6, kAtol = 1e-15, kPorosity = 0.25;
// The chain's rate constants (1/s), sorption (kf, kb), Monod (qm per mol of biomass,
// K of the donor and of oxygen, yield, decay).
constexpr double kChain[4] = {2e-6, 7e-7, 4e-7, 1.5e-7};
constexpr double kSorb = 1.0 / 3600.0, kDesorb = kSorb / 5.0;
constexpr double kQm = 1e-4, kKdonor = 1e-5, kKoxygen = 3e-5, kYield = 0.5, kDecay = 1e-6;
constexpr double kBiomass = 1e-6;  // mol per litre of cell, every cell at the start
// Mobile species in the mechanism's order (PHREEQC element names beside).
constexpr int kMobile = 7;
const char* const kNames[kMobile] = {"Pce", "Tce", "Dce", "Vc", "Eth", "Don", "Ox"};
constexpr int kCompared = 1000;

// Concentrations (mol/L), c[i * n + cell], the same in every case for the same cell.
std::vector<double> initial_concentrations(int64_t n) {
  std::vector<double> c(static_cast<size_t>(kMobile * n), 0.0);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> factor(0.5, 1.5);
  const double base[kMobile] = {1e-5, 2e-6, 0, 0, 0, 5e-5, 2.5e-4};
  for (int64_t g = 0; g < n; ++g)
    for (int i = 0; i < kMobile; ++i)
      c[static_cast<size_t>(i * n + g)] = base[i] > 0 ? base[i] * factor(rng) : 0.0;
  return c;
}

opsplit_status build_mechanism(opsplit_context ctx, opsplit_mechanism* out) {
  opsplit_mechanism m = nullptr;
  opsplit_status st = opsplit_mechanism_create(ctx, &m);
  int s[9];
  const char* names[9] = {"PCE", "TCE", "DCE", "VC", "ethene", "donor", "O2", "PCE_sorbed", "biomass"};
  for (int i = 0; i < 9 && st == OPSPLIT_SUCCESS; ++i) st = opsplit_mechanism_add_species(m, names[i], &s[i]);
  auto reaction = [&](int from, int nto, const int* to, const double* yields, double k, int* r) {
    if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_add_reaction_yields(m, 1, &from, nullptr, nto, to, yields, r);
    if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_set_rate(m, *r, OPSPLIT_RATE_CONSTANT, k, 0, 0, 0);
  };
  const double one = 1.0;
  int r = -1;
  for (int i = 0; i < 4; ++i) reaction(s[i], 1, &s[i + 1], &one, kChain[i], &r);
  reaction(s[0], 1, &s[7], &one, kSorb, &r);
  reaction(s[7], 1, &s[0], &one, kDesorb, &r);
  const int grow_to[3] = {s[8], s[5], s[6]};
  const double grow_yields[3] = {1.0 + kYield, -1.0, -3.0};  // 3 O2 a donor
  reaction(s[8], 3, grow_to, grow_yields, kQm, &r);
  if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_MONOD, s[5], kKdonor, 0);
  if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_add_rate_factor(m, r, OPSPLIT_FACTOR_MONOD, s[6], kKoxygen, 0);
  if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_add_reaction(m, 1, &s[8], nullptr, 0, nullptr, nullptr, &r);
  if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_set_rate(m, r, OPSPLIT_RATE_CONSTANT, kDecay, 0, 0, 0);
  *out = m;
  return st;
}

// Every case's cells: the sorbed PCE and the biomass immobile, kBiomass of biomass per
// litre of cell, porosity kPorosity, the benchmark's tolerances.
opsplit_status set_up_cells(opsplit_gw gw, int64_t n) {
  opsplit_status st = opsplit_gw_set_mobile(gw, 7, 0);
  if (st == OPSPLIT_SUCCESS) st = opsplit_gw_set_mobile(gw, 8, 0);
  if (st == OPSPLIT_SUCCESS) st = opsplit_gw_set_tolerances(gw, kRtol, kAtol);
  const std::vector<double> porosity(static_cast<size_t>(n), kPorosity);
  if (st == OPSPLIT_SUCCESS) st = opsplit_gw_set_property(gw, OPSPLIT_GW_POROSITY, porosity.data());
  std::vector<double> immobile(static_cast<size_t>(2 * n), 0.0);
  std::fill(immobile.begin() + n, immobile.end(), kBiomass);
  if (st == OPSPLIT_SUCCESS) st = opsplit_gw_set_immobile(gw, immobile.data());
  return st;
}

struct Rates {
  double cuda_bmi = 0, cpu_bmi = 0;
  std::vector<double> cuda_bmi_c, cpu_bmi_c;
  double cuda = 0, cpu = 0, cvode = 0, phreeqcrm = 0, phreeqcrm_1 = 0, rt_cuda = 0, rt_cpu = 0;
  int cpu_threads = 1, phreeqcrm_threads = 1;
  std::vector<double> cuda_c, cpu_c, cvode_c, phreeqcrm_c;  // the first kCompared cells, [cell][species]
} g_rates;

std::vector<double> first_cells(const std::vector<double>& c, int64_t n) {
  const int64_t m = std::min<int64_t>(n, kCompared);
  std::vector<double> out(static_cast<size_t>(m * kMobile));
  for (int64_t g = 0; g < m; ++g)
    for (int i = 0; i < kMobile; ++i) out[static_cast<size_t>(g * kMobile + i)] = c[static_cast<size_t>(i * n + g)];
  return out;
}

// The module's step as a host takes it: through the plain calls or through BMI's.
enum class Face { calls, bmi };

void BM_opsplit(benchmark::State& state, opsplit_backend backend, Face face) {
  const int64_t n = backend == OPSPLIT_BACKEND_CUDA ? env_count("OPSPLIT_BENCH_GW_CELLS", 1000000)
                                                    : env_count("OPSPLIT_BENCH_GW_CPU_CELLS", 200000);
  const std::vector<double> c0 = initial_concentrations(n);
  std::vector<double> c(c0.size()), first;
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_gw gw = nullptr;
  auto run_case = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(backend, &ctx), false);
    API_CHECK_RET(build_mechanism(ctx, &mech), false);
    API_CHECK_RET(opsplit_gw_create(ctx, mech, n, &gw), false);
    API_CHECK_RET(set_up_cells(gw, n), false);
    API_CHECK_RET(opsplit_gw_bmi_set_value(gw, "TimeStep", &kDt), false);
    double seconds = 0;
    for (auto _ : state) {
      const auto start = Clock::now();
      if (face == Face::calls) {
        API_CHECK_RET(opsplit_gw_set_concentrations(gw, c0.data()), false);
        API_CHECK_RET(opsplit_gw_run(gw, kDt), false);
        API_CHECK_RET(opsplit_gw_get_concentrations(gw, c.data()), false);
      } else {
        API_CHECK_RET(opsplit_gw_bmi_set_value(gw, "Concentrations", c0.data()), false);
        API_CHECK_RET(opsplit_gw_bmi_update(gw), false);
        API_CHECK_RET(opsplit_gw_bmi_get_value(gw, "Concentrations", c.data()), false);
      }
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      state.SetIterationTime(s);
      seconds += s;
      if (first.empty()) first = first_cells(c, n);  // the step from the initial biomass
    }
    const double per_iteration = seconds / static_cast<double>(state.iterations());
    state.counters["cells"] = static_cast<double>(n);
    state.counters["cells_per_s"] = static_cast<double>(n) / per_iteration;
    state.counters["us_per_cell"] = 1e6 * per_iteration / static_cast<double>(n);
    if (face == Face::bmi) {
      (backend == OPSPLIT_BACKEND_CUDA ? g_rates.cuda_bmi : g_rates.cpu_bmi) = state.counters["cells_per_s"];
      (backend == OPSPLIT_BACKEND_CUDA ? g_rates.cuda_bmi_c : g_rates.cpu_bmi_c) = first;
    } else if (backend == OPSPLIT_BACKEND_CUDA) {
      g_rates.cuda = state.counters["cells_per_s"], g_rates.cuda_c = first;
    } else {
      g_rates.cpu = state.counters["cells_per_s"], g_rates.cpu_c = first;
      g_rates.cpu_threads = omp_get_max_threads();
      state.counters["threads"] = g_rates.cpu_threads;
    }
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  opsplit_gw_destroy(&gw);
  opsplit_mechanism_destroy(&mech);
  opsplit_context_destroy(&ctx);
}

// ---- the peer CVODE: the module's ODEs per cell through opsplit_mechanism_evaluate ----
// CVODE integrates what the module integrates: every species in mol per litre of water,
// the immobile ones their moles over the cell's water (kBiomass per litre of cell over
// porosity x 1 L). Each thread takes its share of the cells, its own context and mechanism.
void BM_cvode(benchmark::State& state) {
  const int nthreads = omp_get_max_threads();
  const int64_t n = env_count("OPSPLIT_BENCH_GW_CVODE_CELLS", 20000);
  const std::vector<double> c0 = initial_concentrations(n);
  constexpr int ns = 9;
  std::vector<double> y0(static_cast<size_t>(n * ns), 0.0), y(y0.size());
  for (int64_t g = 0; g < n; ++g) {
    for (int i = 0; i < kMobile; ++i) y0[static_cast<size_t>(g * ns + i)] = c0[static_cast<size_t>(i * n + g)];
    y0[static_cast<size_t>(g * ns + 8)] = kBiomass / kPorosity;
  }
  std::vector<bench::CvodeStats> stats;
  double seconds = 0;
  int failed = 0;
  for (auto _ : state) {
    stats.assign(static_cast<size_t>(nthreads), bench::CvodeStats{});
    double s = 0;
#pragma omp parallel num_threads(nthreads) reduction(+ : failed) reduction(max : s)
    {
      const int t = omp_get_thread_num();
      const int64_t first = n * t / nthreads, last = n * (t + 1) / nthreads;
      opsplit_context ctx = nullptr;
      bench::MechanismCell user;
      bool ok = opsplit_context_create(OPSPLIT_BACKEND_CPU, &ctx) == OPSPLIT_SUCCESS &&
                build_mechanism(ctx, &user.mech) == OPSPLIT_SUCCESS;
#pragma omp barrier
      const auto start = Clock::now();
      if (ok) {
        bench::CvodeWorker worker({ns, bench::mechanism_rhs, bench::mechanism_jacobian, kRtol, kAtol}, &user);
        ok = worker.run(&y0[static_cast<size_t>(first * ns)], last - first, kDt, &y[static_cast<size_t>(first * ns)],
                        &stats[static_cast<size_t>(t)]);
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
  bench::set_cvode_counters(state, static_cast<double>(n), stats, seconds / static_cast<double>(state.iterations()));
  state.counters["threads"] = nthreads;
  g_rates.cvode = state.counters["cells_per_s"];
  std::vector<double> mobile(static_cast<size_t>(kMobile * n));
  for (int64_t g = 0; g < n; ++g)
    for (int i = 0; i < kMobile; ++i) mobile[static_cast<size_t>(i * n + g)] = y[static_cast<size_t>(g * ns + i)];
  g_rates.cvode_c = first_cells(mobile, n);
}

// ---- a whole reactive-transport step: fields + the module ------------------------------
// The 7 mobile species on a side^3 field of 1 m cells: a uniform seepage velocity of
// 0.1 m/d along x with dispersion 0.05 m^2/d (per second below), PCE retarded (R = 2),
// NOFLUX faces; one transport step of dt = 1 h, then the module's step on every cell.
// The module takes host arrays: the field is downloaded to it and its result uploaded.
void BM_rt_step(benchmark::State& state, opsplit_backend backend) {
  const int64_t side = backend == OPSPLIT_BACKEND_CUDA ? env_count("OPSPLIT_BENCH_GW_RT_SIDE", 100)
                                                       : env_count("OPSPLIT_BENCH_GW_RT_CPU_SIDE", 50);
  const int64_t n = side * side * side;
  const std::vector<double> c0 = initial_concentrations(n);
  std::vector<double> c(c0.size());
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_gw gw = nullptr;
  opsplit_field field = nullptr;
  opsplit_rd rd = nullptr;
  double transport_s = 0, copy_s = 0, chemistry_s = 0;
  auto run_case = [&]() -> bool {
    API_CHECK_RET(opsplit_context_create(backend, &ctx), false);
    API_CHECK_RET(build_mechanism(ctx, &mech), false);
    API_CHECK_RET(opsplit_gw_create(ctx, mech, n, &gw), false);
    API_CHECK_RET(set_up_cells(gw, n), false);
    API_CHECK_RET(opsplit_field_create(ctx, side, side, side, kMobile, OPSPLIT_FLOAT64, &field), false);
    API_CHECK_RET(opsplit_rd_create(ctx, kMobile, &rd), false);
    API_CHECK_RET(opsplit_rd_set_velocity(rd, 0, 0.1 / 86400.0, 0, 0, 0), false);
    for (int i = 0; i < kMobile; ++i) API_CHECK_RET(opsplit_rd_set_diffusion(rd, i, 0.05 / 86400.0), false);
    API_CHECK_RET(opsplit_rd_set_retardation(rd, 0, 2.0), false);
    API_CHECK_RET(opsplit_field_upload(field, c0.data(), OPSPLIT_LAYOUT_PLANAR), false);
    double seconds = 0;
    for (auto _ : state) {
      const auto t0 = Clock::now();
      API_CHECK_RET(opsplit_rd_step(rd, field, kDt, 1), false);
      API_CHECK_RET(opsplit_context_synchronize(ctx), false);
      const auto t1 = Clock::now();
      API_CHECK_RET(opsplit_field_download(field, c.data(), OPSPLIT_LAYOUT_PLANAR), false);
      const auto t2 = Clock::now();
      API_CHECK_RET(opsplit_gw_set_concentrations(gw, c.data()), false);
      API_CHECK_RET(opsplit_gw_run(gw, kDt), false);
      API_CHECK_RET(opsplit_gw_get_concentrations(gw, c.data()), false);
      const auto t3 = Clock::now();
      API_CHECK_RET(opsplit_field_upload(field, c.data(), OPSPLIT_LAYOUT_PLANAR), false);
      API_CHECK_RET(opsplit_context_synchronize(ctx), false);
      const auto t4 = Clock::now();
      auto sec = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
      transport_s += sec(t0, t1), copy_s += sec(t1, t2) + sec(t3, t4), chemistry_s += sec(t2, t3);
      state.SetIterationTime(sec(t0, t4));
      seconds += sec(t0, t4);
    }
    const double iterations = static_cast<double>(state.iterations());
    state.counters["cells"] = static_cast<double>(n);
    state.counters["cells_per_s"] = static_cast<double>(n) * iterations / seconds;
    state.counters["transport_fraction"] = transport_s / seconds;
    state.counters["copy_fraction"] = copy_s / seconds;
    state.counters["chemistry_fraction"] = chemistry_s / seconds;
    (backend == OPSPLIT_BACKEND_CUDA ? g_rates.rt_cuda : g_rates.rt_cpu) = state.counters["cells_per_s"];
    if (backend != OPSPLIT_BACKEND_CUDA) state.counters["threads"] = omp_get_max_threads();
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  opsplit_rd_destroy(&rd);
  opsplit_field_destroy(&field);
  opsplit_gw_destroy(&gw);
  opsplit_mechanism_destroy(&mech);
  opsplit_context_destroy(&ctx);
}

// The same chemistry for PHREEQC: each species an element of its own, each reaction a
// RATES block in mol/kgw/s times the cell's water (kg); the immobile species are kinetic
// reactants whose moles M are the cell's (PhreeqcRM's kinetics units 0: per litre of cell).
std::string phreeqc_input() {
  std::string in = "SOLUTION_MASTER_SPECIES\n";
  const double grams[kMobile] = {165.83, 131.39, 96.94, 62.5, 28.05, 92.14, 32.0};
  for (int i = 0; i < kMobile; ++i)
    in += "  " + std::string(kNames[i]) + " " + kNames[i] + " 0 " + kNames[i] + " " + std::to_string(grams[i]) + "\n";
  in += "SOLUTION_SPECIES\n";
  for (const char* s : kNames) in += "  " + std::string(s) + " = " + s + "\n    log_k 0\n";
  char text[4096];
  std::snprintf(text, sizeof text,
                "RATES\n"
                "  Pce_decay\n  -start\n  10 SAVE %.17g * TOT(\"Pce\") * TOT(\"water\") * TIME\n  -end\n"
                "  Tce_decay\n  -start\n  10 SAVE %.17g * TOT(\"Tce\") * TOT(\"water\") * TIME\n  -end\n"
                "  Dce_decay\n  -start\n  10 SAVE %.17g * TOT(\"Dce\") * TOT(\"water\") * TIME\n  -end\n"
                "  Vc_decay\n  -start\n  10 SAVE %.17g * TOT(\"Vc\") * TOT(\"water\") * TIME\n  -end\n"
                "  Pce_sorption\n  -start\n  10 w = TOT(\"water\")\n"
                "  20 SAVE -(%.17g * TOT(\"Pce\") - %.17g * M / w) * w * TIME\n  -end\n"
                "  Donor_use\n  -start\n  10 w = TOT(\"water\")\n"
                "  20 f = TOT(\"Don\") / (%.17g + TOT(\"Don\")) * TOT(\"Ox\") / (%.17g + TOT(\"Ox\"))\n"
                "  30 SAVE -%.17g * KIN(\"Biomass\") * f * TIME\n  -end\n"
                "  Biomass\n  -start\n"
                "  10 f = TOT(\"Don\") / (%.17g + TOT(\"Don\")) * TOT(\"Ox\") / (%.17g + TOT(\"Ox\"))\n"
                "  20 SAVE -(%.17g * %.17g * M * f - %.17g * M) * TIME\n  -end\n"
                "SOLUTION 1\n  pH 7\n"
                "KINETICS 1\n"
                "  Pce_decay\n    -formula Pce -1 Tce 1\n    -m 1\n"
                "  Tce_decay\n    -formula Tce -1 Dce 1\n    -m 1\n"
                "  Dce_decay\n    -formula Dce -1 Vc 1\n    -m 1\n"
                "  Vc_decay\n    -formula Vc -1 Eth 1\n    -m 1\n"
                "  Pce_sorption\n    -formula Pce 1\n    -m 0\n"
                "  Donor_use\n    -formula Don 1 Ox 3\n    -m 1\n"
                "  Biomass\n    -formula H 0\n    -m %.17g\n"
                "  -tol 1e-10\n"
                "END\n",
                kChain[0], kChain[1], kChain[2], kChain[3], kSorb, kDesorb, kKdonor, kKoxygen, kQm, kKdonor,
                kKoxygen, kYield, kQm, kDecay, kBiomass);
  return in + text;
}

std::string phreeqc_database() {
  if (const char* p = std::getenv("OPSPLIT_PHREEQCRM_DATABASE")) return p;
  return std::string(OPSPLIT_SOURCE_DIR) + "/../shared/data/groundwater/phreeqcrm/phreeqc.dat";
}

void BM_phreeqcrm(benchmark::State& state, int threads) {
  static bench::phreeqcrm::Library rm;
  if (!rm.ok()) {
    state.SkipWithError(rm.why().c_str());
    return;
  }
  const int64_t n = env_count("OPSPLIT_BENCH_GW_PHREEQCRM_CELLS", 20000, 1, 1 << 24) / (threads == 1 ? 4 : 1);
  const int id = rm.create(static_cast<int>(n), threads);
  std::string error;
  auto run_case = [&]() -> bool {
    auto check = [&](int code, const char* what) {
      if (code < 0) error = std::string(what) + " failed (IRM " + std::to_string(code) + "): " + rm.error(id);
      return code >= 0;
    };
    if (!check(id, "RM_Create") || !check(rm.set_error_handler_mode(id, 0), "RM_SetErrorHandlerMode") ||
        !check(rm.set_component_h2o(id, 0), "RM_SetComponentH2O") ||
        !check(rm.set_units_solution(id, 2), "RM_SetUnitsSolution") ||
        !check(rm.set_units_kinetics(id, 0), "RM_SetUnitsKinetics"))
      return false;
    std::vector<double> porosity(static_cast<size_t>(n), kPorosity), saturation(static_cast<size_t>(n), 1.0);
    if (!check(rm.set_porosity(id, porosity.data()), "RM_SetPorosity") ||
        !check(rm.set_saturation_user(id, saturation.data()), "RM_SetSaturationUser") ||
        !check(rm.load_database(id, phreeqc_database().c_str()), "RM_LoadDatabase") ||
        !check(rm.run_string(id, 1, 1, 1, phreeqc_input().c_str()), "RM_RunString"))
      return false;
    const int ncomps = rm.find_components(id);
    if (!check(ncomps, "RM_FindComponents")) return false;
    std::vector<int> column(kMobile, -1);
    for (int j = 0; j < ncomps; ++j) {
      char name[100] = {};
      rm.get_component(id, j, name, sizeof name);
      for (int i = 0; i < kMobile; ++i)
        if (std::string(name) == kNames[i]) column[static_cast<size_t>(i)] = j;
    }
    if (std::count(column.begin(), column.end(), -1) > 0) return error = "a species is not a component", false;
    std::vector<int> ic1(static_cast<size_t>(7 * n), -1);
    std::fill_n(ic1.begin(), n, 1);             // SOLUTION 1
    std::fill_n(ic1.begin() + 6 * n, n, 1);     // KINETICS 1
    if (!check(rm.initial_phreeqc2module(id, ic1.data(), nullptr, nullptr), "RM_InitialPhreeqc2Module")) return false;
    std::vector<double> c(static_cast<size_t>(ncomps * n));
    if (!check(rm.get_concentrations(id, c.data()), "RM_GetConcentrations")) return false;
    const std::vector<double> mine = initial_concentrations(n);
    for (int i = 0; i < kMobile; ++i)
      std::copy_n(mine.begin() + i * n, n, c.begin() + column[static_cast<size_t>(i)] * n);
    const std::vector<double> c0 = c;
    if (!check(rm.set_time_step(id, kDt), "RM_SetTimeStep")) return false;
    double seconds = 0;
    std::vector<double> first;
    for (auto _ : state) {
      const auto start = Clock::now();
      c = c0;
      if (!check(rm.set_concentrations(id, c.data()), "RM_SetConcentrations") ||
          !check(rm.run_cells(id), "RM_RunCells") || !check(rm.get_concentrations(id, c.data()), "RM_GetConcentrations"))
        return false;
      const double s = std::chrono::duration<double>(Clock::now() - start).count();
      state.SetIterationTime(s);
      seconds += s;
      if (first.empty()) {
        std::vector<double> mobile(static_cast<size_t>(kMobile * n));
        for (int i = 0; i < kMobile; ++i)
          std::copy_n(c.begin() + column[static_cast<size_t>(i)] * n, n, mobile.begin() + i * n);
        first = first_cells(mobile, n);
      }
    }
    const double per_iteration = seconds / static_cast<double>(state.iterations());
    state.counters["cells"] = static_cast<double>(n);
    state.counters["cells_per_s"] = static_cast<double>(n) / per_iteration;
    state.counters["us_per_cell"] = 1e6 * per_iteration / static_cast<double>(n);
    state.counters["threads"] = threads;
    if (threads == 1) {
      g_rates.phreeqcrm_1 = state.counters["cells_per_s"];
    } else {
      g_rates.phreeqcrm = state.counters["cells_per_s"], g_rates.phreeqcrm_threads = threads;
      g_rates.phreeqcrm_c = first;
    }
    return true;
  };
  if (!run_case()) state.SkipWithError(error.c_str());
  if (id >= 0) rm.destroy(id);
  // The wheel's OpenMP calls bind to the libgomp already loaded (this program's), so its
  // omp_set_num_threads is ours: put the thread count back for the cases after it.
  omp_set_num_threads(all_threads);
}

// Largest |a - b| / max(|b|, 1e-3 of the cell's largest) over the first cells compared.
double max_rel_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  const size_t cells = std::min(a.size(), b.size()) / kMobile;
  for (size_t g = 0; g < cells; ++g) {
    double scale = 0;
    for (int i = 0; i < kMobile; ++i) scale = std::max(scale, std::fabs(b[g * kMobile + i]));
    for (int i = 0; i < kMobile; ++i) {
      const double ref = b[g * kMobile + i];
      worst = std::max(worst, std::fabs(a[g * kMobile + i] - ref) / std::max(std::fabs(ref), 1e-3 * scale));
    }
  }
  return worst;
}

void BM_summary(benchmark::State& state) {
  for (auto _ : state) state.SetIterationTime(1e-9);
  const Rates& r = g_rates;
  if (r.phreeqcrm > 0) {
    if (r.cuda > 0) state.counters["gpu_x_phreeqcrm_allcores"] = r.cuda / r.phreeqcrm;
    if (r.cpu > 0)
      state.counters["cpu_per_core_x_phreeqcrm_per_core"] =
          (r.cpu / r.cpu_threads) / (r.phreeqcrm / r.phreeqcrm_threads);
    if (!r.cuda_c.empty()) state.counters["max_rel_diff_cuda_phreeqcrm"] = max_rel_diff(r.cuda_c, r.phreeqcrm_c);
    if (!r.cpu_c.empty()) state.counters["max_rel_diff_cpu_phreeqcrm"] = max_rel_diff(r.cpu_c, r.phreeqcrm_c);
  }
  if (!r.cuda_c.empty() && !r.cpu_c.empty()) state.counters["max_rel_diff_cuda_cpu"] = max_rel_diff(r.cuda_c, r.cpu_c);
  if (r.phreeqcrm_1 > 0) {
    // PhreeqcRM's best rate on this host with any thread count: what "all cores" gave
    // if its threads did not speed it up (the floors are judged against the larger).
    const double best = std::max(r.phreeqcrm, r.phreeqcrm_1);
    if (r.cuda > 0) state.counters["gpu_x_phreeqcrm_best"] = r.cuda / best;
    state.counters["phreeqcrm_thread_speedup"] = r.phreeqcrm / r.phreeqcrm_1;
  }
  if (r.cvode > 0) {
    if (r.cuda > 0) state.counters["gpu_x_cvode_allcores"] = r.cuda / r.cvode;
    if (r.cpu > 0) state.counters["cpu_x_cvode_allcores"] = r.cpu / r.cvode;
    if (!r.cpu_c.empty()) state.counters["max_rel_diff_cpu_cvode"] = max_rel_diff(r.cpu_c, r.cvode_c);
  }
  if (r.rt_cuda > 0 && r.rt_cpu > 0) state.counters["rt_gpu_x_cpu"] = r.rt_cuda / r.rt_cpu;
  // The BMI face's rate over the plain calls' (1: it costs nothing), and its results'
  // difference from theirs (0: the same numbers).
  if (r.cuda_bmi > 0 && r.cuda > 0) {
    state.counters["bmi_x_calls_cuda"] = r.cuda_bmi / r.cuda;
    state.counters["max_rel_diff_bmi_calls_cuda"] = max_rel_diff(r.cuda_bmi_c, r.cuda_c);
  }
  if (r.cpu_bmi > 0 && r.cpu > 0) {
    state.counters["bmi_x_calls_cpu"] = r.cpu_bmi / r.cpu;
    state.counters["max_rel_diff_bmi_calls_cpu"] = max_rel_diff(r.cpu_bmi_c, r.cpu_c);
  }
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  const std::string all = std::to_string(omp_get_max_threads());
  for (Face face : {Face::calls, Face::bmi}) {
    const std::string suffix = face == Face::bmi ? "_bmi" : "";
    if (opsplit_cuda_available())
      benchmark::RegisterBenchmark(("gw/opsplit_cuda" + suffix).c_str(), BM_opsplit, OPSPLIT_BACKEND_CUDA, face)
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond)
          ->Iterations(3);
    else if (face == Face::calls)
      benchmark::AddCustomContext("cuda", "unavailable: the CUDA cases are not run");
    benchmark::RegisterBenchmark(("gw/opsplit_cpu" + suffix + "/threads:" + all).c_str(), BM_opsplit,
                                 OPSPLIT_BACKEND_CPU, face)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  }
  benchmark::RegisterBenchmark(("gw/cvode_bdf/threads:" + all).c_str(), BM_cvode)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(1);
  if (opsplit_cuda_available())
    benchmark::RegisterBenchmark("gw/rt_step_cuda", BM_rt_step, OPSPLIT_BACKEND_CUDA)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(3);
  benchmark::RegisterBenchmark(("gw/rt_step_cpu/threads:" + all).c_str(), BM_rt_step, OPSPLIT_BACKEND_CPU)
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond)
      ->Iterations(2);
  for (int threads : {omp_get_max_threads(), 1})
    benchmark::RegisterBenchmark(("gw/phreeqcrm/threads:" + std::to_string(threads)).c_str(), BM_phreeqcrm, threads)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond)
        ->Iterations(1);
  benchmark::RegisterBenchmark("gw/summary", BM_summary)->UseManualTime()->Iterations(1);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
