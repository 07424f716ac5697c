// CPU/CUDA parity of ODE batches (label cuda): 10^5 randomly perturbed systems of
// stiff networks (ROBER and the 20-species POLLU, Rosenbrock) and of a mildly stiff one (OREGO; RKCK45 and RKC)
// on both backends. The integrators are the same code; the backends' exp, pow and
// division rounding differ in the last bit, which can move step sequences, so the
// results agree to the tolerance they were computed with, not bitwise: |cpu - cuda| <=
// rtol |cpu| + atol per value. On an H100 (2026-11-22) the worst was 1.2e-3 of that
// (OREGO, RKCK45) and 18-38 % of the values were bitwise equal.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "helpers.hpp"
#include "inert_species.hpp"
#include "large_mechanism.hpp"
#include "micm_reference.hpp"
#include "pollu.h"

namespace {

struct Network {
  const char* name;
  int n;
  std::vector<std::vector<int>> reactants, products;
  std::vector<double> k;
  std::vector<double> y0;
  double t1;
};

Network rober() {
  return {"ROBER", 3, {{0}, {1, 2}, {1, 1}}, {{1}, {0, 2}, {1, 2}}, {0.04, 1e4, 3e7}, {1, 0, 0}, 100.0};
}

Network orego() {
  const double s = 77.27;
  return {"OREGO", 3,
          {{1}, {0}, {0, 0}, {0, 1}, {2}, {1}, {0, 1}, {0}, {2}},
          {{0, 1}, {0, 0}, {0}, {1}, {2, 1}, {}, {0}, {0, 2}, {}},
          {s, s, s * 8.375e-6, s, 1 / s, 1 / s, 1 / s, 0.161, 0.161},
          {1, 2, 3},
          1.0};
}

// The benchmark's network (20 species: the CUDA kernel for neq <= 32).
Network pollu() {
  Network net{"POLLU", POLLU_NSPECIES, {}, {}, {}, {pollu_y0, pollu_y0 + POLLU_NSPECIES}, 60.0};
  for (int r = 0; r < POLLU_NREACTIONS; ++r) {
    net.reactants.emplace_back();
    net.products.emplace_back();
    for (int i : pollu_reactants[r])
      if (i >= 0) net.reactants.back().push_back(i);
    for (int i : pollu_products[r])
      if (i >= 0) net.products.back().push_back(i);
    net.k.push_back(pollu_k[r]);
  }
  return net;
}

std::vector<double> run(opsplit_backend backend, const Network& net, opsplit_ode_method method, int64_t nsys,
                        const std::vector<double>& y0, double rtol, double atol) {
  test::Context ctx(backend);
  opsplit_mechanism m = nullptr;
  EXPECT_EQ(opsplit_mechanism_create(ctx, &m), OPSPLIT_SUCCESS);
  for (int i = 0; i < net.n; ++i) {
    const char name[2] = {static_cast<char>('A' + i), 0};
    EXPECT_EQ(opsplit_mechanism_add_species(m, name, nullptr), OPSPLIT_SUCCESS);
  }
  for (size_t r = 0; r < net.k.size(); ++r) {
    int index = -1;
    EXPECT_EQ(opsplit_mechanism_add_reaction(m, static_cast<int>(net.reactants[r].size()), net.reactants[r].data(),
                                             nullptr, static_cast<int>(net.products[r].size()),
                                             net.products[r].data(), nullptr, &index),
              OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
    EXPECT_EQ(opsplit_mechanism_set_rate(m, index, OPSPLIT_RATE_CONSTANT, net.k[r], 0, 0, 0), OPSPLIT_SUCCESS);
  }
  opsplit_ode ode = nullptr;
  EXPECT_EQ(opsplit_ode_create(ctx, net.n, nsys, 0, &ode), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_mechanism(ode, m), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_method(ode, method), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_tolerances(ode, rtol, atol), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, net.t1), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  std::vector<double> y(y0.size());
  EXPECT_EQ(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&m);
  return y;
}

void expect_parity(const Network& net, opsplit_ode_method method) {
  const int64_t nsys = 100000;
  const double rtol = 1e-6, atol = 1e-10;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> perturb(0.8, 1.2);
  std::vector<double> y0(static_cast<size_t>(nsys * net.n));
  for (int64_t s = 0; s < nsys; ++s)
    for (int e = 0; e < net.n; ++e) y0[static_cast<size_t>(s * net.n + e)] = net.y0[static_cast<size_t>(e)] * perturb(rng);
  const auto cpu = run(OPSPLIT_BACKEND_CPU, net, method, nsys, y0, rtol, atol);
  const auto gpu = run(OPSPLIT_BACKEND_CUDA, net, method, nsys, y0, rtol, atol);
  ASSERT_EQ(cpu.size(), gpu.size());
  double worst = 0;
  size_t bitwise = 0;
  for (size_t i = 0; i < cpu.size(); ++i) {
    worst = std::max(worst, std::fabs(cpu[i] - gpu[i]) / (rtol * std::fabs(cpu[i]) + atol));
    bitwise += cpu[i] == gpu[i];
  }
  EXPECT_LE(worst, 1.0) << net.name << ", method " << method;
  ::testing::Test::RecordProperty(std::string(net.name) + "_worst_in_tolerances", std::to_string(worst));
  ::testing::Test::RecordProperty(std::string(net.name) + "_bitwise_equal_values", std::to_string(bitwise));
}

// Gas reactors of loaded mechanisms: the same comparison for nsys systems, with
// per-system temperatures, pressures and mixtures: majors (name, mass fraction scaled
// by 0.5 to 1.5 per system), minors up to 1e-6, the rest zero.
struct ReactorCase {
  std::string path;
  opsplit_reactor_kind kind;
  double t1;
  int64_t nsys;
  double T_low, T_high;
  std::vector<std::pair<std::string, double>> majors;
  std::vector<std::string> minors;
};

// What an integration leaves: the states and every system's result and counts.
struct Outcome {
  std::vector<double> y;
  std::vector<int> result;
  std::vector<int64_t> accepted, rejected, rhs, jacobian;
};

// A reactor batch's initial states and parameters (AOS).
struct ReactorSystems {
  int neq = 0, nparam = 0;
  std::vector<double> y0, params;
};

struct RunOptions {
  double rtol = 1e-6, atol = 1e-12;
  int64_t max_steps = 100000;  // the library's default
  int calls = 1;               // successive calls of length t1 from where the last ended (keep_step on)
};

// The batch's states (AOS) and every system's result and counts.
Outcome outcome_of(opsplit_ode ode, int64_t nsys) {
  int neq = 0, nparam = 0;
  int64_t batch = 0;
  EXPECT_EQ(opsplit_ode_get_shape(ode, &neq, &batch, &nparam), OPSPLIT_SUCCESS);
  EXPECT_EQ(batch, nsys);
  Outcome out;
  const auto n = static_cast<size_t>(nsys);
  out.y.resize(n * static_cast<size_t>(neq));
  out.result.resize(n), out.accepted.resize(n), out.rejected.resize(n), out.rhs.resize(n), out.jacobian.resize(n);
  EXPECT_EQ(opsplit_ode_get_state(ode, out.y.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_get_results(ode, out.result.data(), out.accepted.data(), out.rejected.data(), out.rhs.data(),
                                    out.jacobian.data()),
            OPSPLIT_SUCCESS);
  return out;
}

Outcome run_reactor(opsplit_backend backend, const ReactorCase& rc, const ReactorSystems& sys, const RunOptions& o) {
  test::Context ctx(backend);
  opsplit_mechanism m = nullptr;
  test::require_loaded(opsplit_mechanism_load_yaml(ctx, rc.path.c_str(), nullptr, &m), rc.path);
  opsplit_ode ode = nullptr;
  EXPECT_EQ(opsplit_ode_create(ctx, sys.neq, rc.nsys, sys.nparam, &ode), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_reactor(ode, m, rc.kind), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_tolerances(ode, o.rtol, o.atol), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_max_steps(ode, o.max_steps), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_keep_step(ode, o.calls > 1), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_state(ode, sys.y0.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_parameters(ode, sys.params.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  for (int call = 0; call < o.calls; ++call) {
    const opsplit_status status = opsplit_ode_integrate(ode, call * rc.t1, (call + 1) * rc.t1);
    if (o.max_steps == RunOptions{}.max_steps) {
      EXPECT_EQ(status, OPSPLIT_SUCCESS) << opsplit_last_error_message();
    }
  }
  const Outcome out = outcome_of(ode, rc.nsys);
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&m);
  return out;
}

ReactorSystems reactor_systems(const ReactorCase& rc) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism m = nullptr;
  test::require_loaded(opsplit_mechanism_load_yaml(ctx, rc.path.c_str(), nullptr, &m), rc.path);
  int ns = 0;
  opsplit_mechanism_get_counts(m, &ns, nullptr, nullptr);
  auto index = [&](const std::string& name) {
    int k = -1;
    EXPECT_EQ(opsplit_mechanism_find_species(m, name.c_str(), &k), OPSPLIT_SUCCESS) << name;
    return k;
  };
  const bool energy = rc.kind == OPSPLIT_REACTOR_CONSTANT_PRESSURE || rc.kind == OPSPLIT_REACTOR_CONSTANT_VOLUME;
  ReactorSystems sys;
  sys.neq = ns + (energy ? 1 : 0), sys.nparam = energy ? 1 : 2;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> T(rc.T_low, rc.T_high), P(0.2e5, 20e5), u(0.0, 1.0);
  for (int64_t s = 0; s < rc.nsys; ++s) {
    std::vector<double> Y(static_cast<size_t>(ns), 0.0);
    for (const auto& [name, fraction] : rc.majors) Y[static_cast<size_t>(index(name))] = fraction * (0.5 + u(rng));
    for (const std::string& name : rc.minors) Y[static_cast<size_t>(index(name))] = 1e-6 * u(rng);
    double sum = 0;
    for (double x : Y) sum += x;
    for (double& x : Y) x /= sum;
    const double T0 = T(rng), P0 = P(rng);
    double density = 0;
    EXPECT_EQ(opsplit_mechanism_mixture_properties(m, T0, P0, Y.data(), &density, nullptr, nullptr, nullptr, nullptr),
              OPSPLIT_SUCCESS);
    if (rc.kind == OPSPLIT_REACTOR_CONSTANT_PRESSURE) sys.params.push_back(P0);
    if (rc.kind == OPSPLIT_REACTOR_CONSTANT_VOLUME) sys.params.push_back(density);
    if (energy) sys.y0.push_back(T0);
    else sys.params.push_back(T0), sys.params.push_back(P0);
    sys.y0.insert(sys.y0.end(), Y.begin(), Y.end());
  }
  opsplit_mechanism_destroy(&m);
  return sys;
}

// Returns the CUDA run's outcome.
Outcome expect_reactor_parity(const ReactorCase& rc) {
  const ReactorSystems sys = reactor_systems(rc);
  const RunOptions o;
  const auto cpu = run_reactor(OPSPLIT_BACKEND_CPU, rc, sys, o).y;
  Outcome outcome = run_reactor(OPSPLIT_BACKEND_CUDA, rc, sys, o);
  const auto& gpu = outcome.y;
  EXPECT_EQ(cpu.size(), gpu.size());
  if (cpu.size() != gpu.size()) return outcome;
  double worst = 0;
  for (size_t i = 0; i < cpu.size(); ++i)
    worst = std::max(worst, std::fabs(cpu[i] - gpu[i]) / (o.rtol * std::fabs(cpu[i]) + o.atol));
  EXPECT_LE(worst, 1.0) << rc.path;
  ::testing::Test::RecordProperty("reactor_worst_in_tolerances", std::to_string(worst));
  return outcome;
}

// f() on the CUDA backend with OPSPLIT_ODE_CUDA_ROUNDS set to mode (restored after).
template <class F>
auto with_rounds(const char* mode, F f) {
  const char* before = std::getenv("OPSPLIT_ODE_CUDA_ROUNDS");
  const std::string saved = before != nullptr ? before : "";
  setenv("OPSPLIT_ODE_CUDA_ROUNDS", mode, 1);
  auto out = f();
  if (before != nullptr) setenv("OPSPLIT_ODE_CUDA_ROUNDS", saved.c_str(), 1);
  else unsetenv("OPSPLIT_ODE_CUDA_ROUNDS");
  return out;
}

// Rounds pause every system after each accepted step and resume it in a later launch;
// that must change nothing: the same bits, results and counts as one launch per call.
// modes: the round modes compared with "off" ("auto" runs a batch of a few warps per SM
// in one launch, as "off" does).
void expect_rounds_change_nothing(const ReactorCase& rc, const RunOptions& o,
                                  const std::vector<const char*>& modes = {"always", "auto"}) {
  const ReactorSystems sys = reactor_systems(rc);
  auto run_in = [&](const char* mode) { return with_rounds(mode, [&] { return run_reactor(OPSPLIT_BACKEND_CUDA, rc, sys, o); }); };
  const Outcome once = run_in("off");
  int64_t most_steps = 0, failed = 0;
  for (size_t s = 0; s < once.accepted.size(); ++s)
    most_steps = std::max(most_steps, once.accepted[s]), failed += once.result[s] != OPSPLIT_ODE_OK;
  EXPECT_GT(most_steps, 3) << "the case should take several rounds";
  ::testing::Test::RecordProperty("most_accepted_steps", std::to_string(most_steps));
  ::testing::Test::RecordProperty("failed_systems", std::to_string(failed));
  for (const char* mode : modes) {
    const Outcome rounds = run_in(mode);
    EXPECT_EQ(std::memcmp(rounds.y.data(), once.y.data(), once.y.size() * sizeof(double)), 0) << mode;
    EXPECT_EQ(rounds.result, once.result) << mode;
    EXPECT_EQ(rounds.accepted, once.accepted) << mode;
    EXPECT_EQ(rounds.rejected, once.rejected) << mode;
    EXPECT_EQ(rounds.rhs, once.rhs) << mode;
    EXPECT_EQ(rounds.jacobian, once.jacobian) << mode;
  }
}

std::string micm_file(const std::string& name) {
  return test::data_folder("OPSPLIT_TEST_DATA", OPSPLIT_TEST_DATA) + "/micm/" + name;
}

std::string data_mechanism(const std::string& name) {
  return test::data_folder("OPSPLIT_DATA_DIR", OPSPLIT_DATA) + "/mechanisms/" + name;
}

// H2/O2/N2 ignition at constant pressure past the ignition of every system (1e-3 s).
TEST(OdeParity, H2O2ConstantPressureReactor) {
  expect_reactor_parity({data_mechanism("h2o2.yaml"), OPSPLIT_REACTOR_CONSTANT_PRESSURE, 1e-3, 10000, 1000.0, 1300.0,
                         {{"H2", 0.028}, {"O2", 0.22}, {"AR", 0.005}, {"N2", 0.75}}, {"H", "O", "OH", "HO2"}});
}
// Every rate form (falloff, SRI, PLOG at each system's pressure, orders) at fixed T, P.
TEST(OdeParity, FeaturesIsothermalReactor) {
  expect_reactor_parity({test::data_folder("OPSPLIT_TEST_DATA", OPSPLIT_TEST_DATA) + "/mechanisms/features.yaml",
                         OPSPLIT_REACTOR_ISOTHERMAL_MASS_FRACTIONS, 1e-4, 10000, 1000.0, 1300.0,
                         {{"H2", 0.028}, {"O2", 0.22}, {"AR", 0.005}, {"N2", 0.75}}, {"H", "O", "OH", "HO2"}});
}
// GRI-Mech 3.0 (54 equations: the 64-equation kernel), stoichiometric CH4/air with
// traces of radicals, at constant volume through ignition at 1500-1800 K (2e-4 s).
TEST(OdeParity, Gri30ConstantVolumeReactor) {
  expect_reactor_parity({data_mechanism("gri30.yaml"), OPSPLIT_REACTOR_CONSTANT_VOLUME, 2e-4, 2000, 1500.0, 1800.0,
                         {{"CH4", 0.055}, {"O2", 0.22}, {"N2", 0.725}}, {"H", "O", "OH", "HO2", "CH3", "CO"}});
}

// gri30.yaml with n inert species (inert_species.hpp), in the test's temporary folder.
std::string gri30_with_inert_species(int n) {
  // The process id in the name: runs of this program side by side (the sanitizer pass
  // runs its cases so) must not write each other's file.
  const std::string path =
      testing::TempDir() + "opsplit_gri30_inert" + std::to_string(n) + "_" + std::to_string(getpid()) + ".yaml";
  EXPECT_TRUE(opsplit_test::write_gri30_with_inert_species(data_mechanism("gri30.yaml"), n, path)) << path;
  return path;
}

// Stoichiometric-ish CH4/air with 8 % of the mass in 47 inert species, 1500-1800 K.
ReactorCase gri30_inert_case(double t1, int64_t nsys) {
  ReactorCase rc{gri30_with_inert_species(47), OPSPLIT_REACTOR_CONSTANT_PRESSURE, t1, nsys, 1500.0, 1800.0,
                 {{"CH4", 0.05}, {"O2", 0.2}, {"N2", 0.67}}, {"H", "O", "OH", "HO2", "CH3", "CO"}};
  for (int i = 1; i <= 47; ++i) rc.majors.emplace_back("X" + std::to_string(i), 0.08 / 47);
  return rc;
}

// 100 species (101 equations at constant pressure): above the local-memory kernels'
// 64, the kernel whose systems live in device memory; through ignition.
TEST(OdeParity, Gri30With47InertSpeciesConstantPressureReactor) {
  const ReactorCase rc = gri30_inert_case(2e-4, 500);
  expect_reactor_parity(rc);
  // The inert species' mass fractions (the last 47 of each state) are invariants: their
  // rows of the Jacobian and the rhs are zero, so each stage leaves them where they were.
  const ReactorSystems sys = reactor_systems(rc);
  const Outcome gpu = run_reactor(OPSPLIT_BACKEND_CUDA, rc, sys, RunOptions{});
  double worst = 0, temperature_rise = 0;
  for (size_t s = 0; s < static_cast<size_t>(rc.nsys); ++s) {
    const size_t first = s * static_cast<size_t>(sys.neq);
    temperature_rise = std::max(temperature_rise, gpu.y[first] - sys.y0[first]);
    for (size_t e = static_cast<size_t>(sys.neq) - 47; e < static_cast<size_t>(sys.neq); ++e)
      worst = std::max(worst, std::fabs(gpu.y[first + e] - sys.y0[first + e]) / sys.y0[first + e]);
  }
  EXPECT_LE(worst, 1e-13);
  EXPECT_GT(temperature_rise, 500.0) << "the systems should ignite";
}

// The device-memory kernel's threads keep their copies between rounds: rounds still
// change nothing.
TEST(OdeRounds, ChangeNoStepOfGri30With47InertSpeciesReactors) {
  expect_rounds_change_nothing(gri30_inert_case(1e-4, 300), RunOptions{});
}

// 40 000 H2/O2 systems near ignition (more than four warps per SM on an H100 or H200,
// so auto takes rounds too), two calls with kept steps; then 3000 of them allowed only
// 12 steps, so that most fail in a later round.
TEST(OdeRounds, ChangeNoStepOfH2O2Reactors) {
  ReactorCase rc{data_mechanism("h2o2.yaml"), OPSPLIT_REACTOR_CONSTANT_PRESSURE, 2e-4, 40000, 950.0, 1250.0,
                 {{"H2", 0.028}, {"O2", 0.22}, {"AR", 0.005}, {"N2", 0.75}}, {"H", "O", "OH", "HO2"}};
  RunOptions o;
  o.calls = 2;
  expect_rounds_change_nothing(rc, o);
  rc.nsys = 3000;
  o.calls = 1, o.max_steps = 12;
  expect_rounds_change_nothing(rc, o);
}
// GRI-Mech 3.0 (the 64-equation kernel) at constant volume.
TEST(OdeRounds, ChangeNoStepOfGri30Reactors) {
  expect_rounds_change_nothing({data_mechanism("gri30.yaml"), OPSPLIT_REACTOR_CONSTANT_VOLUME, 1e-4, 1000, 1500.0,
                                1800.0, {{"CH4", 0.055}, {"O2", 0.22}, {"N2", 0.725}},
                                {"H", "O", "OH", "HO2", "CH3", "CO"}},
                               RunOptions{});
}

// The mass-action kernel: 10^5 POLLU systems (79 steps each on average).
TEST(OdeRounds, ChangeNoStepOfPollu) {
  const Network net = pollu();
  const int64_t nsys = 100000;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> perturb(0.5, 1.5);
  std::vector<double> y0(static_cast<size_t>(nsys * net.n));
  for (int64_t s = 0; s < nsys; ++s)
    for (int e = 0; e < net.n; ++e) y0[static_cast<size_t>(s * net.n + e)] = net.y0[static_cast<size_t>(e)] * perturb(rng);
  auto run_in = [&](const char* mode) {
    return with_rounds(mode, [&] { return run(OPSPLIT_BACKEND_CUDA, net, OPSPLIT_ODE_ROSENBROCK, nsys, y0, 1e-6, 1e-10); });
  };
  const std::vector<double> once = run_in("off");
  for (const char* mode : {"always", "auto"})
    EXPECT_EQ(std::memcmp(run_in(mode).data(), once.data(), once.size() * sizeof(double)), 0) << mode;
}

// The mass-action kernel whose systems live in device memory: a mechanism past the
// local-memory kernels' bounds (large_mechanism.hpp: 600 species, 2000 reactions, 512
// inputs). nsys systems to t1; the same comparison as the networks above.
Outcome run_large_mechanism(opsplit_backend backend, int64_t nsys, double t1) {
  using namespace opsplit_test;
  test::Context ctx(backend);
  opsplit_mechanism m = nullptr;
  EXPECT_EQ(opsplit_mechanism_create(ctx, &m), OPSPLIT_SUCCESS);
  EXPECT_TRUE(build_large_mechanism(m)) << opsplit_last_error_message();
  const LargeSystems sys = large_systems(nsys, 17);
  opsplit_ode ode = nullptr;
  EXPECT_EQ(opsplit_ode_create(ctx, kLargeSpecies, nsys, kLargeInputs, &ode), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_mechanism(ode, m), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_tolerances(ode, 1e-6, 1e-10), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_state(ode, sys.y0.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_parameters(ode, sys.params.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, t1), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  const Outcome out = outcome_of(ode, nsys);
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&m);
  return out;
}

// Returns the CUDA run's outcome.
Outcome expect_large_mechanism_parity(int64_t nsys, double t1) {
  const double rtol = 1e-6, atol = 1e-10;
  const Outcome cpu = run_large_mechanism(OPSPLIT_BACKEND_CPU, nsys, t1);
  Outcome gpu = run_large_mechanism(OPSPLIT_BACKEND_CUDA, nsys, t1);
  EXPECT_EQ(cpu.y.size(), gpu.y.size());
  if (cpu.y.size() != gpu.y.size()) return gpu;
  double worst = 0;
  for (size_t i = 0; i < cpu.y.size(); ++i)
    worst = std::max(worst, std::fabs(cpu.y[i] - gpu.y[i]) / (rtol * std::fabs(cpu.y[i]) + atol));
  EXPECT_LE(worst, 1.0);
  EXPECT_EQ(gpu.result, std::vector<int>(static_cast<size_t>(nsys), OPSPLIT_ODE_OK));
  ::testing::Test::RecordProperty("large_mechanism_worst_in_tolerances", std::to_string(worst));
  return gpu;
}

// 2000 systems (several blocks of the kernel) over 300-odd steps each.
TEST(OdeParity, MechanismOf600Species2000ReactionsAnd512Inputs) {
  const Outcome gpu = expect_large_mechanism_parity(2000, 1.0);
  EXPECT_GT(*std::min_element(gpu.accepted.begin(), gpu.accepted.end()), 100);
}

// Rounds (every system paused after each step and resumed in a later launch) change
// nothing in the device-memory mass-action kernel either.
TEST(OdeRounds, ChangeNoStepOfTheLargeMechanism) {
  const auto run_in = [](const char* mode) {
    return with_rounds(mode, [] { return run_large_mechanism(OPSPLIT_BACKEND_CUDA, 300, 0.05); });
  };
  const Outcome once = run_in("off"), rounds = run_in("always");
  EXPECT_GT(*std::min_element(once.accepted.begin(), once.accepted.end()), 3);
  EXPECT_EQ(std::memcmp(rounds.y.data(), once.y.data(), once.y.size() * sizeof(double)), 0);
  EXPECT_EQ(rounds.accepted, once.accepted);
  EXPECT_EQ(rounds.rejected, once.rejected);
}

// The reactor kernels over a few steps each, for compute-sanitizer: the long cases above
// integrate through ignition, which under the tool takes longer than a run may, and
// scripts/gpu-sanitize leaves them to the plain run and runs these instead. Each
// compiled kernel (10 equations: the small one; 54: the 64-equation one; 101: the one
// whose systems live in device memory) and the rounds, parity with the CPU as above.
ReactorCase few_steps(ReactorCase rc, int64_t nsys = 256) {
  rc.nsys = nsys;
  return rc;
}
// Every system took a few steps, and none thousands (on the CPU: 8 to 126).
void expect_a_few_steps(const Outcome& gpu) {
  const auto [fewest, most] = std::minmax_element(gpu.accepted.begin(), gpu.accepted.end());
  EXPECT_GE(*fewest, 3);
  EXPECT_LE(*most, 200);
}
TEST(OdeKernels, SmallReactorOverAFewSteps) {
  expect_a_few_steps(expect_reactor_parity(few_steps({data_mechanism("h2o2.yaml"), OPSPLIT_REACTOR_CONSTANT_PRESSURE,
                                                      2e-6, 0, 1200.0, 1300.0,
                                                      {{"H2", 0.028}, {"O2", 0.22}, {"AR", 0.005}, {"N2", 0.75}},
                                                      {"H", "O", "OH", "HO2"}})));
}
TEST(OdeKernels, Reactor64OverAFewSteps) {
  expect_a_few_steps(expect_reactor_parity(few_steps({data_mechanism("gri30.yaml"), OPSPLIT_REACTOR_CONSTANT_VOLUME,
                                                      2e-6, 0, 1700.0, 1800.0,
                                                      {{"CH4", 0.055}, {"O2", 0.22}, {"N2", 0.725}},
                                                      {"H", "O", "OH", "HO2", "CH3", "CO"}})));
}
// 32 systems, one warp: under memcheck the device-memory kernel took more than 400 s
// with 256 (every access it makes is to global memory, which the tool checks).
TEST(OdeKernels, LargeReactorOverAFewSteps) {
  expect_a_few_steps(expect_reactor_parity(few_steps(gri30_inert_case(2e-6, 0), 32)));
}
// The device-memory mass-action kernel (600 species): 32 systems, a few steps each.
TEST(OdeKernels, LargeMechanismOverAFewSteps) {
  const Outcome gpu = expect_large_mechanism_parity(32, 1e-3);
  EXPECT_GE(*std::min_element(gpu.accepted.begin(), gpu.accepted.end()), 3);
  EXPECT_LE(*std::max_element(gpu.accepted.begin(), gpu.accepted.end()), 40);
}
TEST(OdeKernels, RoundsChangeNoStepOfSmallReactorsOverAFewSteps) {
  RunOptions o;
  o.max_steps = 12;  // most systems fail in a later round, as in ChangeNoStepOfH2O2Reactors
  expect_rounds_change_nothing(few_steps({data_mechanism("h2o2.yaml"), OPSPLIT_REACTOR_CONSTANT_PRESSURE, 1e-4, 0,
                                          950.0, 1250.0, {{"H2", 0.028}, {"O2", 0.22}, {"AR", 0.005}, {"N2", 0.75}},
                                          {"H", "O", "OH", "HO2"}}),
                               o);
}
// At most 8 steps, and rounds only "always" (32 systems are far fewer than "auto" takes
// rounds for): under memcheck three runs of up to 200 steps took more than 500 s.
TEST(OdeKernels, RoundsChangeNoStepOfLargeReactorsOverAFewSteps) {
  RunOptions o;
  o.max_steps = 8;
  expect_rounds_change_nothing(few_steps(gri30_inert_case(1e-6, 0), 32), o, {"always"});
}

// MICM configurations (tests/data/micm) on perturbed cells: the reference case's inputs
// at noon and its initial state, each cell's concentrations scaled by 1 + 0.3 sin(...)
// and its temperature moved by up to 15 K; one ten-minute chemistry step at rtol 1e-6.
Outcome run_micm(opsplit_backend backend, const std::string& name, int64_t nsys, double t1,
                 opsplit_ode_method method) {
  const micm_test::MicmReference ref = micm_test::read_reference(micm_file("reference/" + name + ".tsv"));
  test::Context ctx(backend);
  opsplit_mechanism m = nullptr;
  const std::string path = micm_file(ref.settings.at("config"));
  test::require_loaded(opsplit_mechanism_load_micm(ctx, path.c_str(), &m), path);
  int ns = 0, np = 0;
  EXPECT_EQ(opsplit_mechanism_get_counts(m, &ns, nullptr, &np), OPSPLIT_SUCCESS);
  std::vector<double> y0(static_cast<size_t>(ns)), base(static_cast<size_t>(np));
  for (const auto& [species, value] : ref.initial) {
    int k = -1;
    EXPECT_EQ(opsplit_mechanism_find_species(m, species.c_str(), &k), OPSPLIT_SUCCESS) << species;
    y0[static_cast<size_t>(k)] = value;
  }
  base[0] = ref.number("temperature"), base[1] = ref.number("pressure"), base[2] = ref.number("air_density");
  for (const auto& [label, value] : ref.inputs) {
    int p = -1;
    EXPECT_EQ(opsplit_mechanism_find_parameter(m, label.c_str(), &p), OPSPLIT_SUCCESS) << label;
    base[static_cast<size_t>(p)] = value;
  }
  const auto n = static_cast<size_t>(nsys);
  std::vector<double> y(n * y0.size()), params(n * base.size());
  for (size_t c = 0; c < n; ++c) {
    for (size_t k = 0; k < y0.size(); ++k) y[c * y0.size() + k] = y0[k] * (1.0 + 0.3 * std::sin(0.7 * c + 1.3 * k));
    for (size_t p = 0; p < base.size(); ++p) params[c * base.size() + p] = base[p];
    params[c * base.size()] += 15.0 * std::sin(0.37 * c);
  }
  opsplit_ode ode = nullptr;
  EXPECT_EQ(opsplit_ode_create(ctx, ns, nsys, np, &ode), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_mechanism(ode, m), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_method(ode, method), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_tolerances(ode, 1e-6, 1e-16), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_parameters(ode, params.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, t1), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  const Outcome out = outcome_of(ode, nsys);
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&m);
  return out;
}

// Every cell of the GPU's run within the tolerances of the CPU's (atol 1e-16 mol m^-3),
// each with its own status OK. Returns the CUDA run's outcome.
Outcome expect_micm_parity(const std::string& name, int64_t nsys, double t1,
                           opsplit_ode_method method = OPSPLIT_ODE_ROSENBROCK) {
  const double rtol = 1e-6, atol = 1e-16;
  const Outcome cpu = run_micm(OPSPLIT_BACKEND_CPU, name, nsys, t1, method);
  Outcome gpu = run_micm(OPSPLIT_BACKEND_CUDA, name, nsys, t1, method);
  EXPECT_EQ(cpu.y.size(), gpu.y.size());
  if (cpu.y.size() != gpu.y.size()) return gpu;
  double worst = 0;
  for (size_t i = 0; i < cpu.y.size(); ++i)
    worst = std::max(worst, std::fabs(cpu.y[i] - gpu.y[i]) / (rtol * std::fabs(cpu.y[i]) + atol));
  EXPECT_LE(worst, 1.0) << name;
  EXPECT_EQ(gpu.result, std::vector<int>(static_cast<size_t>(nsys), OPSPLIT_ODE_OK));
  EXPECT_EQ(cpu.result, gpu.result);
  ::testing::Test::RecordProperty(name + "_worst_in_tolerances", std::to_string(worst));
  std::printf("%s: %lld cells, worst %.3g of the tolerances\n", name.c_str(), static_cast<long long>(nsys), worst);
  return gpu;
}

// 10^5 cells each: carbon_bond_5 (67 species, the local-memory kernel) and TS1 (209
// species, 171 inputs: the device-memory kernel).
TEST(OdeParity, MicmCarbonBond5On100000PerturbedCells) { expect_micm_parity("carbon_bond_5", 100000, 600.0); }
TEST(OdeParity, MicmTs1On100000PerturbedCells) { expect_micm_parity("ts1", 100000, 600.0); }
// ROS3 through both kernels: 10^4 cells each.
TEST(OdeParity, MicmCarbonBond5AndTs1Ros3On10000PerturbedCells) {
  for (const char* name : {"carbon_bond_5", "ts1"}) expect_micm_parity(name, 10000, 600.0, OPSPLIT_ODE_ROS3);
}
// The same kernels over a few steps, for compute-sanitizer: 32 cells, RODAS4 and ROS3
// (order 3: at rtol 1e-6 carbon_bond_5 takes up to 87 steps a second where RODAS4 takes
// fewer than 60; memcheck ran the whole in 19 s on an H200).
TEST(OdeKernels, MicmMechanismsOverAFewSteps) {
  for (const opsplit_ode_method method : {OPSPLIT_ODE_ROSENBROCK, OPSPLIT_ODE_ROS3})
    for (const char* name : {"chapman", "carbon_bond_5", "ts1"}) {
      const Outcome gpu = expect_micm_parity(name, 32, 1.0, method);
      const int64_t most = method == OPSPLIT_ODE_ROS3 ? 120 : 60;
      EXPECT_LE(*std::max_element(gpu.accepted.begin(), gpu.accepted.end()), most) << name << " method " << method;
    }
}

TEST(OdeParity, RoberRosenbrock) { expect_parity(rober(), OPSPLIT_ODE_ROSENBROCK); }
TEST(OdeParity, PolluRosenbrock) { expect_parity(pollu(), OPSPLIT_ODE_ROSENBROCK); }
TEST(OdeParity, RoberRos3) { expect_parity(rober(), OPSPLIT_ODE_ROS3); }
TEST(OdeParity, PolluRos3) { expect_parity(pollu(), OPSPLIT_ODE_ROS3); }
TEST(OdeParity, OregoRkck45) { expect_parity(orego(), OPSPLIT_ODE_RKCK45); }
TEST(OdeParity, OregoRkc) { expect_parity(orego(), OPSPLIT_ODE_RKC); }
TEST(OdeParity, OregoRosenbrock) { expect_parity(orego(), OPSPLIT_ODE_ROSENBROCK); }

}  // namespace
