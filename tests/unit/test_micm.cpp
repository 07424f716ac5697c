// MICM mechanism configurations (opsplit_mechanism_load_micm) from the files MICM's own
// package ships (tests/data/micm, Apache-2.0: LICENSE beside them): what the files
// declare, MICM's rate laws against their formulas, the v0 and v1 forms of TS1 as one
// mechanism (v0's unit conversion), whole trajectories against MICM itself
// (reference/<case>.tsv, made by scripts/micm-reference with musica), and a clear PARSE,
// UNSUPPORTED or IO error with file and line for each fault.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "helpers.hpp"
#include "micm_reference.hpp"
#include "opsplit/opsplit.h"

namespace {

std::string micm_file(const std::string& name) {
  return test::data_folder("OPSPLIT_TEST_DATA", OPSPLIT_TEST_DATA) + "/micm/" + name;
}

struct Loaded {
  explicit Loaded(const std::string& path, opsplit_backend backend = OPSPLIT_BACKEND_AUTO) : ctx(backend) {
    test::require_loaded(opsplit_mechanism_load_micm(ctx, path.c_str(), &mech), path);
    EXPECT_EQ(opsplit_mechanism_get_counts(mech, &nspecies, &nreactions, &nparams), OPSPLIT_SUCCESS);
  }
  ~Loaded() { opsplit_mechanism_destroy(&mech); }
  int species(const std::string& name) const {
    int i = -1;
    EXPECT_EQ(opsplit_mechanism_find_species(mech, name.c_str(), &i), OPSPLIT_SUCCESS) << name;
    return i;
  }
  std::string species_name(int i) const {
    const char* name = nullptr;
    EXPECT_EQ(opsplit_mechanism_get_species_name(mech, i, &name), OPSPLIT_SUCCESS);
    return name != nullptr ? name : "";
  }
  int parameter(const std::string& name) const {
    int i = -1;
    EXPECT_EQ(opsplit_mechanism_find_parameter(mech, name.c_str(), &i), OPSPLIT_SUCCESS) << name;
    return i;
  }
  std::string parameter_name(int p) const {
    const char* name = nullptr;
    EXPECT_EQ(opsplit_mechanism_get_parameter_name(mech, p, &name), OPSPLIT_SUCCESS);
    return name != nullptr ? name : "";
  }
  std::string equation(int r) const {
    const char* e = nullptr;
    EXPECT_EQ(opsplit_mechanism_get_reaction_equation(mech, r, &e), OPSPLIT_SUCCESS);
    return e != nullptr ? e : "";
  }
  std::vector<double> ydot(const std::vector<double>& y, const std::vector<double>& params) const {
    std::vector<double> out(static_cast<size_t>(nspecies));
    EXPECT_EQ(opsplit_mechanism_evaluate(mech, y.data(), params.data(), out.data(), nullptr), OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
    return out;
  }
  test::Context ctx;
  opsplit_mechanism mech = nullptr;
  int nspecies = 0, nreactions = 0, nparams = 0;
};

using micm_test::MicmReference;
using micm_test::read_reference;
using micm_test::sun;

double relative(double a, double b) { return std::fabs(a - b) / std::fmax(std::fabs(b), 1e-300); }

constexpr double kR = 8.31446261815324, kAvogadro = 6.02214076e23, kPi = 3.14159265358979324;

// Chapman (v1): M is a third body, so the state is O1D, O, O2, O3, N2 in the file's
// order; the inputs are TEMP, PRESS, M and the three photolysis rates in order.
TEST(Micm, ChapmanIsItsReactions) {
  Loaded m(micm_file("v1/chapman/config.yaml"));
  ASSERT_EQ(m.nspecies, 5);
  EXPECT_EQ(m.nreactions, 7);
  EXPECT_EQ(m.nparams, 6);
  const char* state[] = {"O1D", "O", "O2", "O3", "N2"};
  for (int k = 0; k < 5; ++k) EXPECT_EQ(m.species_name(k), state[k]);
  const char* inputs[] = {"TEMP", "PRESS", "M", "PHOTO.jo2_b", "PHOTO.jo3_b", "PHOTO.jo3_a"};
  for (int p = 0; p < 6; ++p) EXPECT_EQ(m.parameter_name(p), inputs[p]);
  EXPECT_EQ(m.parameter("photo.JO3_A"), 5);  // as names are matched: any case
  EXPECT_EQ(m.equation(2), "O + O3 => 2 O2");
  EXPECT_EQ(m.equation(3), "O + O2 => O3");  // M left the sides: it multiplies the rate
  EXPECT_EQ(m.equation(4), "O2 => 2 O");

  // dy/dt at a state against the file's constants written out: O + O2 + M has k =
  // 217.597 (T/300)^-2.4 times M; O + O3 has 4817712.608 exp(-2059.03/T).
  const double T = 227.0, P = 1200.0, M = 0.64, j[3] = {1e-11, 1e-5, 4e-4};
  const std::vector<double> y = {1e-16, 1e-10, 0.13, 3e-6, 0.5}, params = {T, P, M, j[0], j[1], j[2]};
  const std::vector<double> d = m.ydot(y, params);
  const double k1 = 12947602.634 * std::exp(109.94829243348597 / T), k2 = 19873064.508 * std::exp(54.97414621674299 / T),
               k3 = 4817712.608 * std::exp(-2059.0316582998285 / T), k4 = 217.59707599952029 * std::pow(T / 300.0, -2.4) * M;
  const double r1 = k1 * y[0] * y[4], r2 = k2 * y[0] * y[2], r3 = k3 * y[1] * y[3], r4 = k4 * y[1] * y[2];
  const double r5 = j[0] * y[2], r6 = j[1] * y[3], r7 = j[2] * y[3];
  EXPECT_LE(relative(d[0], r6 - r1 - r2), 1e-13);                       // O1D
  EXPECT_LE(relative(d[1], r1 + r2 - r3 - r4 + 2 * r5 + r7), 1e-13);    // O
  EXPECT_LE(relative(d[3], r4 - r3 - r6 - r7), 1e-13);                  // O3
  EXPECT_EQ(d[4], 0.0);                                                 // N2: r1 makes what it takes

  // The JSON form of the same file is the same mechanism, bit for bit.
  Loaded json(micm_file("v1/chapman/config.json"));
  EXPECT_EQ(json.ydot(y, params), d);
}

// MICM's laws, each through opsplit_mechanism_set_rate_expression on a mechanism A -> B
// (dB/dt = k at A = 1), against its formula written out here.
TEST(Micm, RateLawsAreMicmsFormulas) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism m = nullptr;
  ASSERT_EQ(opsplit_mechanism_create(ctx, &m), OPSPLIT_SUCCESS);
  int a = -1, b = -1, r = -1;
  ASSERT_EQ(opsplit_mechanism_add_species(m, "A", &a), OPSPLIT_SUCCESS);
  ASSERT_EQ(opsplit_mechanism_add_species(m, "B", &b), OPSPLIT_SUCCESS);
  ASSERT_EQ(opsplit_mechanism_add_reaction(m, 1, &a, nullptr, 1, &b, nullptr, &r), OPSPLIT_SUCCESS);
  const char* names[] = {"TEMP", "PRESS", "M", "RADIUS", "NUMBER"};
  for (int p = 0; p < 5; ++p) ASSERT_EQ(opsplit_mechanism_name_parameter(m, p, names[p]), OPSPLIT_SUCCESS);
  const double T = 251.3, P = 70000.0, M = 33.5, radius = 1.5e-7, number = 2e10;
  const std::vector<double> params = {T, P, M, radius, number}, y = {1.0, 0.0};
  auto k_of = [&](const std::string& expression) {
    EXPECT_EQ(opsplit_mechanism_set_rate_expression(m, r, expression.c_str()), OPSPLIT_SUCCESS)
        << expression << ": " << opsplit_last_error_message();
    double ydot[2] = {0, 0};
    EXPECT_EQ(opsplit_mechanism_evaluate(m, y.data(), params.data(), ydot, nullptr), OPSPLIT_SUCCESS);
    return ydot[1];
  };
  auto arr = [&](double A, double B, double C, double D) { return A * std::exp(C / T) * std::pow(T / D, B); };
  EXPECT_LE(relative(k_of("ARRHENIUS(3.2e-11, -2.3, 102.3, 63.4, -1.3e-5)"),
                     arr(3.2e-11, -2.3, 102.3, 63.4) * (1.0 - 1.3e-5 * P)), 1e-14);
  {  // TROE and ternary chemical activation: MICM's broadening exponent N/(N + log10(r)^2)
    const double k0 = arr(1.2e5, -1.8, 30.0, 300.0), kinf = arr(6.0e6, -0.7, 12.0, 300.0), Fc = 0.55, N = 1.2;
    const double ratio = k0 * M / kinf, F = std::pow(Fc, N / (N + std::pow(std::log10(ratio), 2)));
    EXPECT_LE(relative(k_of("TROE(1.2e5, -1.8, 30.0, 6.0e6, -0.7, 12.0, 0.55, 1.2)"), k0 * M / (1 + ratio) * F), 1e-14);
    EXPECT_LE(relative(k_of("TERNARY_CHEMICAL_ACTIVATION(1.2e5, -1.8, 30.0, 6.0e6, -0.7, 12.0, 0.55, 1.2)"),
                       k0 / (1 + ratio) * F), 1e-14);
    const double kint = arr(2.0e3, 1.1, -40.0, 298.0), k0j = arr(1.2e5, -1.8, 30.0, 298.0),
                 kinfj = arr(6.0e6, -0.7, 12.0, 298.0), rj = k0j * M / kinfj,
                 kf = k0j * M / (1 + rj) * std::pow(Fc, N / (N + std::pow(std::log10(rj), 2)));
    EXPECT_LE(relative(k_of("TERNARY_CHEMICAL_ACTIVATION_JPL19(1.2e5, -1.8, 30.0, 298., 6.0e6, -0.7, 12.0, 298., "
                            "2.0e3, 1.1, -40.0, 298., 0.55, 1.2)"),
                       kf + kint * (1 - kf / kinfj)), 1e-14);
  }
  EXPECT_LE(relative(k_of("TUNNELING(2.1e-12, 1200.0, 1.0e8)"), 2.1e-12 * std::exp(-1200.0 / T + 1.0e8 / (T * T * T))),
            1e-14);
  {  // Wennberg's branching (MICM's constants: 2e-22 N_A 1e-6 e^n, 0.43 (T/298)^-8, 0.41)
    const double X = 2.7e-12 * kAvogadro * 1e-6, Y = -360.0, a0 = 0.15, n = 9;
    auto A = [](double t, double mair, double heavy) {
      const double k0 = 2e-22 * kAvogadro * 1e-6 * std::exp(heavy) * mair, kinf = 0.43 * std::pow(t / 298.0, -8.0);
      return k0 / (1 + k0 / kinf) * std::pow(0.41, 1.0 / (1.0 + std::pow(std::log10(k0 / kinf), 2)));
    };
    const double z = A(293.0, 2.45e19 / kAvogadro * 1e6, n) * (1 - a0) / a0, a = A(T, M, n),
                 pre = X * std::exp(-Y / T);
    const std::string args = "(" + std::to_string(X) + ", -360.0, 0.15, 9)";
    EXPECT_LE(relative(k_of("BRANCHED_ALKOXY" + args), pre * z / (z + a)), 1e-13);
    EXPECT_LE(relative(k_of("BRANCHED_NITRATE" + args), pre * a / (a + z)), 1e-13);
  }
  {  // uptake on particles: 4 N pi r^2 / (r/Dg + 4/(v gamma)), v = sqrt(8 R T/(pi MW))
    const double Dg = 1.2e-5, MW = 0.108, gamma = 0.02, v = std::sqrt(8 * kR * T / (kPi * MW));
    EXPECT_LE(relative(k_of("SURFACE(RADIUS, NUMBER, 1.2e-5, 0.108, 0.02)"),
                       4 * number * kPi * radius * radius / (radius / Dg + 4 / (v * gamma))), 1e-14);
  }
  opsplit_mechanism_destroy(&m);
}

// full_configuration (v1, every reaction type): B is a constant concentration, C a
// constant mixing ratio and M the third body, so the state is A, H2O2 and ethanol; the
// reactions that change none of them are left out, and their inputs stay named.
TEST(Micm, FullConfigurationKeepsTheStateAndNamesEveryInput) {
  Loaded m(micm_file("v1/full_configuration/full_configuration.yaml"));
  ASSERT_EQ(m.nspecies, 3);
  EXPECT_EQ(m.species_name(0), "A");
  EXPECT_EQ(m.species_name(1), "H2O2");
  EXPECT_EQ(m.species_name(2), "ethanol");
  const char* inputs[] = {"TEMP", "PRESS", "M", "EMIS.my emission", "LOSS.my first order loss", "PHOTO.photo B",
                          "SURF.my surface.effective radius [m]",
                          "SURF.my surface.particle number concentration [# m-3]", "USER.my user defined"};
  ASSERT_EQ(m.nparams, 9);
  for (int p = 0; p < 9; ++p) EXPECT_EQ(m.parameter_name(p), inputs[p]);
  // A's reactions: A -> 1.2 B (Arrhenius from Ea), A + B -> 1.3 C (user, times B's 1e19),
  // surface uptake of A, and the two branches of A -> B | C. dA/dt = -A * (sum of k).
  EXPECT_EQ(m.nreactions, 5);
  const double T = 272.5, P = 101325.0, M = 44.7, user = 3e-21, radius = 2e-7, number = 3e9;
  std::vector<double> params(9, 0.0);
  params[0] = T, params[1] = P, params[2] = M, params[6] = radius, params[7] = number, params[8] = user;
  const double A = 0.25;
  const std::vector<double> d = m.ydot({A, 0.0, 0.0}, params);
  const double k_arrhenius = 29.3 * std::exp(-101.2 / 1.380649e-23 / T) * std::pow(T / 82.6, -1.5) * (1 - 0.98 * P);
  const double k_user = 12.3 * user * 1.0e19;
  const double v = std::sqrt(8 * kR * T / (kPi * 0.04607));
  const double k_surface = 4 * number * kPi * radius * radius / (radius / 2.1e-5 + 4 / (v * 2.0e-2));
  const double k_branched = 1.2e-4 * std::exp(-167.0 / T);  // the two branches add up to X exp(-Y/T)
  EXPECT_LE(relative(d[0], -A * (k_arrhenius + k_user + k_surface + k_branched)), 1e-13);
  EXPECT_EQ(d[1], 0.0);
  EXPECT_EQ(d[2], 0.0);
  Loaded json(micm_file("v1/full_configuration/full_configuration.json"));
  EXPECT_EQ(json.ydot({A, 0.0, 0.0}, params), d);
}

// Every rate law's keys as the reader maps them: one reaction A -> P_i per type, each to
// its own product, so that dP_i/dt at A = 1 is the reaction's rate constant, against
// the law's formula over the file's values written out here.
TEST(Micm, EveryReactionTypeMapsItsKeys) {
  const std::string laws =
      "  - {type: ARRHENIUS, gas phase: gas, A: 2.5e-3, B: -1.5, Ea: 4.0e-21, D: 250, E: 2.0e-6,\n"
      "     reactants: [{name: A}], products: [{name: P1}]}\n"
      "  - {type: TROE, gas phase: gas, k0_A: 1.2e3, k0_B: -2.0, k0_C: 40, kinf_A: 3.0e5, kinf_B: -0.5,\n"
      "     kinf_C: 10, Fc: 0.45, N: 1.3, reactants: [{name: A}], products: [{name: P2}]}\n"
      "  - {type: TERNARY_CHEMICAL_ACTIVATION, gas phase: gas, k0_A: 1.2e3, k0_B: -2.0, k0_C: 40,\n"
      "     kinf_A: 3.0e5, kinf_B: -0.5, kinf_C: 10, Fc: 0.45, N: 1.3, reactants: [{name: A}], products: [{name: P3}]}\n"
      "  - {type: TERNARY_CHEMICAL_ACTIVATION_JPL19, gas phase: gas, k0_A: 1.2e3, k0_B: -2.0, k0_C: 40, k0_D: 290,\n"
      "     kinf_A: 3.0e5, kinf_B: -0.5, kinf_C: 10, kinf_D: 310, kint_A: 7.0, kint_B: 0.3, kint_C: -20, kint_D: 298,\n"
      "     Fc: 0.45, N: 1.3, reactants: [{name: A}], products: [{name: P4}]}\n"
      "  - {type: TUNNELING, gas phase: gas, A: 4.0, B: 900, C: 1.0e7, reactants: [{name: A}], products: [{name: P5}]}\n"
      "  - {type: TAYLOR_SERIES, gas phase: gas, A: 3.0, C: -50, taylor coefficients: [1.0, 0.1, -0.002],\n"
      "     reactants: [{name: A}], products: [{name: P6}]}\n"
      "  - {type: USER_DEFINED, name: u, scaling factor: 2.5, gas phase: gas, reactants: [{name: A}],\n"
      "     products: [{name: P7, coefficient: 0.4}]}\n";
  std::string species = "version: 1.0.0\nspecies:\n  - name: A\n", phase = "  - name: gas\n    species: [A";
  for (int i = 1; i <= 7; ++i) {
    species += "  - name: P" + std::to_string(i) + "\n";
    phase += ", P" + std::to_string(i);
  }
  const std::string path = testing::TempDir() + "opsplit_micm_laws.yaml";
  std::ofstream(path) << species << "phases:\n" << phase << "]\nreactions:\n" << laws;
  Loaded m(path, OPSPLIT_BACKEND_CPU);
  ASSERT_EQ(m.nspecies, 8);
  ASSERT_EQ(m.nparams, 4);  // TEMP, PRESS, M, USER.u
  EXPECT_EQ(m.parameter_name(3), "USER.u");
  const double T = 263.0, P = 55000.0, M = 25.2, user = 0.37;
  const std::vector<double> d = m.ydot({1.0, 0, 0, 0, 0, 0, 0, 0}, {T, P, M, user});
  auto k = [&](double A, double B, double C, double D) { return A * std::exp(C / T) * std::pow(T / D, B); };
  const double k0 = k(1.2e3, -2.0, 40, 300), kinf = k(3.0e5, -0.5, 10, 300), r = k0 * M / kinf;
  const double F = std::pow(0.45, 1.3 / (1.3 + std::pow(std::log10(r), 2)));
  const double k0j = k(1.2e3, -2.0, 40, 290), kinfj = k(3.0e5, -0.5, 10, 310), rj = k0j * M / kinfj;
  const double kf = k0j * M / (1 + rj) * std::pow(0.45, 1.3 / (1.3 + std::pow(std::log10(rj), 2)));
  const double expected[7] = {k(2.5e-3, -1.5, -4.0e-21 / 1.380649e-23, 250) * (1 + 2.0e-6 * P),
                              k0 * M / (1 + r) * F,
                              k0 / (1 + r) * F,
                              kf + k(7.0, 0.3, -20, 298) * (1 - kf / kinfj),
                              4.0 * std::exp(-900 / T + 1.0e7 / (T * T * T)),
                              (1.0 + 0.1 * T - 0.002 * T * T) * k(3.0, 0, -50, 300),
                              0.4 * 2.5 * user};
  for (int i = 0; i < 7; ++i) EXPECT_LE(relative(d[static_cast<size_t>(i + 1)], expected[i]), 1e-13) << "P" << i + 1;
}

// TS1 in its v0 form (molecule cm^-3 constants that the reader converts) and its v1
// form (SI constants): the same 209 species and 547 reactions; dy/dt at a state agrees
// to rounding (the v1 file's constants were converted once, with 16 digits printed).
TEST(Micm, Ts1InV0AndV1IsOneMechanism) {
  Loaded v0(micm_file("v0/TS1/config.json")), v1(micm_file("v1/ts1/ts1.json"));
  ASSERT_EQ(v0.nspecies, 209);
  ASSERT_EQ(v1.nspecies, 209);
  EXPECT_EQ(v0.nreactions, 547);
  EXPECT_EQ(v1.nreactions, 547);
  ASSERT_EQ(v0.nparams, v1.nparams);
  std::vector<double> y0(209), y1(209), p0(static_cast<size_t>(v0.nparams)), p1(p0.size());
  for (int k = 0; k < 209; ++k) {  // a state with every species present, in v1's order too
    y0[static_cast<size_t>(k)] = 1e-9 * (1.0 + 0.37 * k) + (v0.species_name(k) == "O2" ? 8.9 : 0.0);
    y1[static_cast<size_t>(v1.species(v0.species_name(k)))] = y0[static_cast<size_t>(k)];
  }
  for (int p = 0; p < v0.nparams; ++p) {
    const std::string name = v0.parameter_name(p);
    const double value = p == 0 ? 251.0 : p == 1 ? 60000.0 : p == 2 ? 28.7
                         : name.find("effective radius") != std::string::npos ? 1e-7
                         : name.find("number concentration") != std::string::npos ? 1e10
                                                                                 : 1e-5 * (1 + p % 7);
    p0[static_cast<size_t>(p)] = value;
    p1[static_cast<size_t>(v1.parameter(name))] = value;
  }
  const std::vector<double> d0 = v0.ydot(y0, p0), d1 = v1.ydot(y1, p1);
  double scale = 0;
  for (double x : d0) scale = std::fmax(scale, std::fabs(x));
  for (int k = 0; k < 209; ++k) {
    const std::string name = v0.species_name(k);
    EXPECT_LE(std::fabs(d0[static_cast<size_t>(k)] - d1[static_cast<size_t>(v1.species(name))]),
              1e-12 * std::fabs(d0[static_cast<size_t>(k)]) + 1e-15 * scale)
        << name;
  }
}

// ---- trajectories against MICM ---------------------------------------------------------

// The case's configuration from MICM's initial state, hour by hour with the inputs MICM
// had (photolysis scaled by the sun at mid-hour), at MICM's tolerances; returns the worst
// difference from MICM after any hour, in units of rtol |micm| + atol.
double worst_against_micm(const std::string& name, double rtol, double atol) {
  const MicmReference ref = read_reference(micm_file("reference/" + name + ".tsv"));
  Loaded m(micm_file(ref.settings.at("config")));
  EXPECT_EQ(m.nspecies, static_cast<int>(ref.species.size()));
  std::vector<int> column(ref.species.size());
  std::vector<double> y(static_cast<size_t>(m.nspecies));
  for (size_t c = 0; c < ref.species.size(); ++c) {
    column[c] = m.species(ref.species[c]);
    y[static_cast<size_t>(column[c])] = ref.initial.at(ref.species[c]);
  }
  std::vector<double> base(static_cast<size_t>(m.nparams), 0.0), params(base.size());
  base[0] = ref.number("temperature"), base[1] = ref.number("pressure"), base[2] = ref.number("air_density");
  std::vector<int> slot;
  for (const auto& [label, value] : ref.inputs) {
    slot.push_back(m.parameter(label));
    base[static_cast<size_t>(slot.back())] = value;
  }
  EXPECT_EQ(static_cast<int>(ref.inputs.size()) + 3, m.nparams) << "every input has a value";
  opsplit_ode ode = nullptr;
  EXPECT_EQ(opsplit_ode_create(m.ctx, m.nspecies, 1, m.nparams, &ode), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_mechanism(ode, m.mech), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_tolerances(ode, ref.number("rtol"), ref.number("atol")), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_max_steps(ode, 1000000), OPSPLIT_SUCCESS);
  double worst = 0;
  const double start = ref.number("start_hour");
  for (size_t hour = 0; hour < ref.rows.size(); ++hour) {
    params = base;
    for (size_t i = 0; i < slot.size(); ++i)
      if (ref.diurnal[i]) params[static_cast<size_t>(slot[i])] *= sun(start + static_cast<double>(hour) + 0.5);
    EXPECT_EQ(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_ode_set_parameters(ode, params.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, 3600.0), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
    for (size_t c = 0; c < ref.species.size(); ++c) {
      const double micm = ref.rows[hour][c + 1], ours = y[static_cast<size_t>(column[c])];
      worst = std::fmax(worst, std::fabs(ours - micm) / (rtol * std::fabs(micm) + atol));
    }
  }
  opsplit_ode_destroy(&ode);
  ::testing::Test::RecordProperty("worst_in_tolerances", std::to_string(worst));
  std::printf("%s: worst %.3g\n", name.c_str(), worst);
  return worst;
}

// Both integrators ran at rtol 1e-10, atol 1e-20 mol m^-3 (opsplit's RODAS, MICM's ROS3).
// Against the bound below, 1e-7 |micm| + 1e-18 mol m^-3 (0.6 molecule cm^-3), the worst
// differences measured (GCC 12, x86-64) are 4.9e-5 (chapman), 1.8e-3 (carbon_bond_5) and
// 5.0e-3 (TS1) of it; at 1e-8 |micm| + 1e-20 they are 1.8e-3, 2.5e-2 and 0.18. A wrong
// rate constant, yield, conversion or input moves values by percents.
TEST(Micm, ChapmanFollowsMicmForADay) { EXPECT_LE(worst_against_micm("chapman", 1e-7, 1e-18), 1.0); }
TEST(Micm, CarbonBond5FollowsMicmForADay) { EXPECT_LE(worst_against_micm("carbon_bond_5", 1e-7, 1e-18), 1.0); }
TEST(Micm, Ts1FollowsMicmForADay) { EXPECT_LE(worst_against_micm("ts1", 1e-7, 1e-18), 1.0); }

// ---- faults -----------------------------------------------------------------------

std::string write(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "opsplit_micm_" + name;
  std::ofstream(path) << text;
  return path;
}

void expect_load_error(const std::string& path, opsplit_status status, const std::string& words) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism mech = nullptr;
  EXPECT_EQ(opsplit_mechanism_load_micm(ctx, path.c_str(), &mech), status) << path;
  EXPECT_EQ(mech, nullptr);
  const std::string message = opsplit_last_error_message();
  EXPECT_NE(message.find("opsplit_mechanism_load_micm"), std::string::npos) << message;
  EXPECT_NE(message.find(words), std::string::npos) << message;
}

// A v1 file: species A, B and the third body M in the gas phase, then `reactions`.
std::string v1(const std::string& reactions, const std::string& species_extra = "") {
  return "version: 1.0.0\nname: t\nspecies:\n  - name: A\n  - name: B\n  - name: M\n    is third body: true\n" +
         species_extra + "phases:\n  - name: gas\n    species: [A, B, M]\nreactions:\n" + reactions;
}
const std::string kArrhenius = "  - type: ARRHENIUS\n    gas phase: gas\n    A: 1.0\n"
                               "    reactants:\n      - name: A\n    products:\n      - name: B\n";

TEST(Micm, FaultsAreNamedWithFileAndLine) {
  std::string p = write("f1.yaml", v1(kArrhenius + "    Z: 3\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, p + ":19: \"Z\" is not a key of ARRHENIUS reaction 1");
  p = write("f2.yaml", v1(kArrhenius + "    __note: a comment\n    a__b: also one\n"));
  {  // keys with "__" are comments, as MICM takes them
    Loaded m(p, OPSPLIT_BACKEND_CPU);
    EXPECT_EQ(m.nreactions, 1);
  }
  p = write("f3.yaml", v1("  - type: ARRHENIUS\n    gas phase: gas\n    reactants:\n      - name: Q\n    products: []\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, ":15: ARRHENIUS reaction 1: unknown species \"Q\"");
  p = write("f4.yaml", v1("  - type: ARRHENIUS\n    gas phase: gas\n    reactants:\n      - name: A\n        coefficient: 1.5\n"
                         "    products: []\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, "reactant A's coefficient 1.5 is not a whole number in [1, 16]");
  p = write("f5.yaml", v1("  - type: WIBBLE\n    gas phase: gas\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, ":12: WIBBLE reaction 1: unknown reaction type \"WIBBLE\"");
  p = write("f6.yaml", v1("  - type: ARRHENIUS\n    gas phase: gas\n    A: 1.0x\n    reactants: []\n    products: []\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, ":14: ARRHENIUS reaction 1 A \"1.0x\" is not a finite number");
  p = write("f7.yaml", v1("  - type: ARRHENIUS\n    gas phase: gas\n    C: 3\n    Ea: 2e-20\n    reactants: []\n"
                         "    products: []\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, ":15: ARRHENIUS reaction 1: both Ea and C");
  p = write("f8.yaml", v1("  - type: BRANCHED_NO_RO2\n    gas phase: gas\n    X: 1\n    Y: 2\n    a0: 0.1\n"
                         "    reactants: [{name: A}]\n    alkoxy products: [{name: B}]\n    nitrate products: []\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, "BRANCHED_NO_RO2 reaction 1 n is missing");  // MICM has no default
  p = write("f9.yaml", v1("  - type: PHOTOLYSIS\n    name: j\n    gas phase: gas\n    reactants: [{name: A}]\n"
                         "    products: [{name: B}]\n  - type: USER_DEFINED\n    name: x\n    gas phase: gas\n"
                         "    reactants: [{name: B}]\n    products: []\n  - type: PHOTOLYSIS\n    name: j\n"
                         "    gas phase: gas\n    reactants: [{name: B}]\n    products: []\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, ":22: two reactions have the input \"PHOTO.j\"");
  p = write("f10.yaml", v1("  - type: SURFACE\n    name: s\n    gas phase: gas\n    gas-phase species: A\n"
                          "    gas-phase products: [{name: B}]\n"));
  expect_load_error(p, OPSPLIT_ERROR_PARSE, "species A has no positive molecular weight [kg mol-1]");
  p = write("f11.yaml", v1("  - type: LAMBDA_RATE_CONSTANT\n    gas phase: gas\n"));
  expect_load_error(p, OPSPLIT_ERROR_UNSUPPORTED, ":12: LAMBDA_RATE_CONSTANT reaction 1: a lambda's rate is code");
  p = write("f12.yaml", "version: 2.0.0\nspecies: []\nphases: []\n");
  expect_load_error(p, OPSPLIT_ERROR_PARSE, ":1: version \"2.0.0\" is not 1.x.y");
  std::string other = v1(kArrhenius);
  other.replace(other.find("name: gas"), 9, "name: aqueous");
  p = write("f13.yaml", other);
  expect_load_error(p, OPSPLIT_ERROR_PARSE, "phase \"gas\" is not the gas phase \"aqueous\"");
  p = write("f14.yaml", "version: 1.0.0\nspecies: [{name: A}\n");
  expect_load_error(p, OPSPLIT_ERROR_PARSE, p + ":");  // yaml-cpp's fault, at its line
  p = write("f15.yaml", "name: no version\n");
  expect_load_error(p, OPSPLIT_ERROR_PARSE, "neither a v1 configuration");
  expect_load_error(testing::TempDir() + "opsplit_micm_no_such_file.yaml", OPSPLIT_ERROR_IO, "no_such_file");
  p = write("f16.yaml", v1(kArrhenius) + "wobble: 1\n");
  expect_load_error(p, OPSPLIT_ERROR_PARSE, ":19: \"wobble\" is not a key of a v1 configuration");
  p = write("f17.yaml", "version: 1.1.0\nspecies:\n  files: [s.yaml]\nphases: []\n");
  expect_load_error(p, OPSPLIT_ERROR_UNSUPPORTED, ":3: species from a list of files are not read");
  // v0: the files a configuration lists, each fault named in its file.
  const std::string data = write("v0_data.json", "{\"camp-data\": [{\"type\": \"CHEM_SPEC\", \"name\": \"A\"},\n"
                                                 "{\"type\": \"ARRHENIUS\", \"reactants\": {\"A\": {\"qty\": 0.5}},\n"
                                                 "\"products\": {}}]}\n");
  p = write("v0_config.json", "{\"camp-files\": [\"opsplit_micm_v0_data.json\"]}\n");
  expect_load_error(p, OPSPLIT_ERROR_PARSE, data + ":2: ARRHENIUS reaction 1: reactant A's coefficient 0.5");
  p = write("v0_missing.json", "{\"camp-files\": [\"opsplit_micm_none.json\"]}\n");
  expect_load_error(p, OPSPLIT_ERROR_IO, "opsplit_micm_none.json");
}

// v0 (CAMP) units: the reader converts molecule cm^-3 constants as MICM does, A times
// (N_A 1e-6)^(order - 1) with M counted in the order: O + O2 + M at A = 6e-34 has k =
// 6e-34 (6.022e17)^2 M in SI.
TEST(Micm, V0ConvertsRateConstantsToSi) {
  const std::string data = write("v0_units.json",
                                 "{\"camp-data\": [{\"type\": \"CHEM_SPEC\", \"name\": \"O\"},"
                                 "{\"type\": \"CHEM_SPEC\", \"name\": \"O2\"},{\"type\": \"CHEM_SPEC\", \"name\": \"O3\"},"
                                 "{\"type\": \"CHEM_SPEC\", \"name\": \"M\", \"tracer type\": \"THIRD_BODY\"},"
                                 "{\"type\": \"MECHANISM\", \"name\": \"m\", \"reactions\": ["
                                 "{\"type\": \"ARRHENIUS\", \"A\": 6e-34, \"B\": -2.4, \"reactants\": "
                                 "{\"O\": {}, \"O2\": {}, \"M\": {}}, \"products\": {\"O3\": {}, \"M\": {}}}]}]}\n");
  const std::string p = write("v0_units_config.json", "{\"camp-files\": [\"opsplit_micm_v0_units.json\"]}\n");
  Loaded m(p, OPSPLIT_BACKEND_CPU);
  ASSERT_EQ(m.nspecies, 3);  // M is the air density
  const double T = 280.0, M = 40.0, conv = 6.02214076e17;
  const std::vector<double> d = m.ydot({2e-9, 8.0, 0.0}, {T, 101325.0, M});
  EXPECT_LE(relative(d[2], 6e-34 * conv * conv * std::pow(T / 300.0, -2.4) * M * 2e-9 * 8.0), 1e-14);
}

}  // namespace
