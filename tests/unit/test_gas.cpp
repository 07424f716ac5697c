// Gas mechanisms loaded from Cantera YAML, checked against Cantera itself: the reference
// files in tests/data/cantera were written by scripts/cantera-reference (Cantera's
// version is in each file) from data/mechanisms and tests/data/mechanisms.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cantera_reference.hpp"
#include "helpers.hpp"

namespace {

std::string data_mechanism(const std::string& name) { return test::data_folder("OPSPLIT_DATA_DIR", OPSPLIT_DATA) + "/mechanisms/" + name; }
std::string test_data(const std::string& name) { return test::data_folder("OPSPLIT_TEST_DATA", OPSPLIT_TEST_DATA) + "/" + name; }

struct Mechanism {
  opsplit_mechanism mech = nullptr;
  Mechanism(opsplit_context ctx, const std::string& path, const char* phase) {
    test::require_loaded(opsplit_mechanism_load_yaml(ctx, path.c_str(), phase, &mech), path);
  }
  ~Mechanism() { opsplit_mechanism_destroy(&mech); }
  operator opsplit_mechanism() const { return mech; }
};

// |a - b| <= tol * scale, elementwise, reporting the worst entry.
void expect_close(const std::vector<double>& got, const std::vector<double>& want, const std::vector<double>& scale,
                  double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  double worst = 0.0;
  size_t at = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double e = std::fabs(got[i] - want[i]) / scale[i];
    if (!(e <= worst)) worst = e, at = i;
  }
  EXPECT_LE(worst, tol) << what << ": entry " << at << " is " << got[at] << ", Cantera " << want[at];
}

std::vector<double> magnitudes(const std::vector<double>& v, double floor) {
  std::vector<double> m;
  for (double x : v) m.push_back(std::fmax(std::fabs(x), floor));
  return m;
}

void check_against_cantera(const std::string& mechanism_path, const char* phase, const std::string& reference) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  Mechanism mech(ctx, mechanism_path, phase);
  ASSERT_NE(mech.mech, nullptr);
  const test::Reference ref = test::read_reference(test_data("cantera/" + reference));
  ASSERT_FALSE(ref.states.empty());
  int nspecies = 0, nreactions = 0, nparams = 0;
  OPSPLIT_OK(opsplit_mechanism_get_counts(mech, &nspecies, &nreactions, &nparams));
  const std::vector<std::string>& species = ref.header.at("species");
  ASSERT_EQ(nspecies, std::stoi(species[0]));
  ASSERT_EQ(nreactions, std::stoi(ref.header.at("reactions")[0]));
  EXPECT_EQ(nparams, 1);
  opsplit_mechanism_kind kind;
  OPSPLIT_OK(opsplit_mechanism_get_kind(mech, &kind));
  EXPECT_EQ(kind, OPSPLIT_MECHANISM_GAS);
  for (int k = 0; k < nspecies; ++k) {
    const char* name = nullptr;
    OPSPLIT_OK(opsplit_mechanism_get_species_name(mech, k, &name));
    EXPECT_EQ(std::string(name), species[static_cast<size_t>(k) + 1]);
    int index = -1;
    OPSPLIT_OK(opsplit_mechanism_find_species(mech, name, &index));
    EXPECT_EQ(index, k);
  }
  const size_t ns = static_cast<size_t>(nspecies), nr = static_cast<size_t>(nreactions);
  std::vector<double> W(ns), want_W;
  for (const std::string& w : ref.header.at("molar_mass")) want_W.push_back(std::stod(w));
  OPSPLIT_OK(opsplit_mechanism_get_molar_masses(mech, W.data()));
  expect_close(W, want_W, want_W, 1e-14, "molar masses");

  for (size_t i = 0; i < ref.states.size(); ++i) {
    SCOPED_TRACE("state " + std::to_string(i));
    const auto& s = ref.states[i];
    const double T = s.at("T")[0], P = s.at("P")[0];
    const std::vector<double>& Y = s.at("mass_fractions");
    // Species thermodynamics: polynomials, compared to their own size (s/R and h/RT
    // cross zero, so not below 1).
    std::vector<double> cp_R(ns), h_RT(ns), s_R(ns);
    OPSPLIT_OK(opsplit_mechanism_species_thermo(mech, T, cp_R.data(), h_RT.data(), s_R.data()));
    expect_close(cp_R, s.at("cp_R"), magnitudes(s.at("cp_R"), 1.0), 1e-13, "cp/R");
    expect_close(h_RT, s.at("h_RT"), magnitudes(s.at("h_RT"), 1.0), 1e-13, "h/RT");
    expect_close(s_R, s.at("s_R"), magnitudes(s.at("s_R"), 1.0), 1e-13, "s/R");
    // The mixture; enthalpy and internal energy cross zero: scaled by cp T.
    double rho, cp, cv, h, u;
    OPSPLIT_OK(opsplit_mechanism_mixture_properties(mech, T, P, Y.data(), &rho, &cp, &cv, &h, &u));
    const double cpT = s.at("cp_mass")[0] * T;
    expect_close({rho, cp, cv, h, u},
                 {s.at("density")[0], s.at("cp_mass")[0], s.at("cv_mass")[0], s.at("enthalpy_mass")[0],
                  s.at("int_energy_mass")[0]},
                 {s.at("density")[0], s.at("cp_mass")[0], s.at("cv_mass")[0], cpT, cpT}, 1e-13, "mixture");
    std::vector<double> C(ns);
    OPSPLIT_OK(opsplit_mechanism_concentrations(mech, T, P, Y.data(), C.data()));
    expect_close(C, s.at("concentrations"), magnitudes(s.at("concentrations"), 0.0), 1e-13, "concentrations");
    // Kinetics at Cantera's concentrations. Rates of progress against the larger of the
    // two directions; net production rates against creation + destruction (a net rate
    // is a difference, and near equilibrium a small one).
    const std::vector<double>& Cref = s.at("concentrations");
    std::vector<double> qf(nr), qr(nr), wdot(ns);
    OPSPLIT_OK(opsplit_mechanism_rates_of_progress(mech, T, Cref.data(), qf.data(), qr.data()));
    std::vector<double> q_scale(nr);
    for (size_t r = 0; r < nr; ++r)
      q_scale[r] = std::fmax(std::fmax(std::fabs(s.at("forward_rop")[r]), std::fabs(s.at("reverse_rop")[r])), 1e-300);
    expect_close(qf, s.at("forward_rop"), q_scale, 1e-10, "forward rates of progress");
    expect_close(qr, s.at("reverse_rop"), q_scale, 1e-10, "reverse rates of progress");
    OPSPLIT_OK(opsplit_mechanism_net_production_rates(mech, T, Cref.data(), wdot.data()));
    expect_close(wdot, s.at("net_production"), magnitudes(s.at("production_scale"), 1e-300), 1e-10,
                 "net production rates");
    // evaluate() is the same right-hand side, params = {T}.
    std::vector<double> ydot(ns);
    OPSPLIT_OK(opsplit_mechanism_evaluate(mech, Cref.data(), &T, ydot.data(), nullptr));
    for (size_t k = 0; k < ns; ++k) EXPECT_EQ(ydot[k], wdot[k]);
  }
}

TEST(GasCantera, H2O2RatesAndThermo) { check_against_cantera(data_mechanism("h2o2.yaml"), "ohmech", "rates_h2o2.txt"); }
TEST(GasCantera, Gri30RatesAndThermo) { check_against_cantera(data_mechanism("gri30.yaml"), "gri30", "rates_gri30.txt"); }
// Every rate form: Troe 3/4, SRI 3/5, Lindemann, (+H2O), chemically activated, PLOG
// below, inside, on and above its table, orders, negative-A duplicates, units.
TEST(GasCantera, EveryRateFormMatches) {
  check_against_cantera(test_data("mechanisms/features.yaml"), "features", "rates_features.txt");
}

TEST(GasMechanism, EquationsReadBackAsWritten) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  Mechanism mech(ctx, data_mechanism("h2o2.yaml"), nullptr);  // NULL: the first phase, ohmech
  const char* eq = nullptr;
  OPSPLIT_OK(opsplit_mechanism_get_reaction_equation(mech, 0, &eq));
  EXPECT_STREQ(eq, "2 O + M <=> O2 + M");
  OPSPLIT_OK(opsplit_mechanism_get_reaction_equation(mech, 21, &eq));
  EXPECT_STREQ(eq, "2 OH (+M) <=> H2O2 (+M)");
  Mechanism features(ctx, test_data("mechanisms/features.yaml"), "features");
  OPSPLIT_OK(opsplit_mechanism_get_reaction_equation(features, 6, &eq));
  EXPECT_STREQ(eq, "O + H2O (+H2O) <=> H2O2 (+H2O)");
  OPSPLIT_OK(opsplit_mechanism_get_reaction_equation(features, 11, &eq));
  EXPECT_STREQ(eq, "H2 + O2 => H + HO2");
}

}  // namespace

// ---- parser edge cases: each a clear status, the file and line, the entry --------------
namespace {

// features.yaml with its reactions replaced (and any text edits applied before).
std::string features_with(const std::string& reactions, const std::vector<std::pair<std::string, std::string>>& edits = {}) {
  std::ifstream in(test_data("mechanisms/features.yaml"));
  test::require_input(in.good(), test_data("mechanisms/features.yaml"));
  std::stringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  text = text.substr(0, text.find("\nreactions:\n")) + "\nreactions:\n" + reactions;
  for (const auto& [from, to] : edits) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return text;
}

// Writes `text` to a file and loads it: the status and the message.
std::pair<opsplit_status, std::string> load_text(const std::string& text, const char* phase = nullptr) {
  const std::string path = testing::TempDir() + "opsplit_gas_case.yaml";
  std::ofstream(path) << text;
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism mech = nullptr;
  const opsplit_status s = opsplit_mechanism_load_yaml(ctx, path.c_str(), phase, &mech);
  const std::string message = opsplit_last_error_message();
  EXPECT_EQ(mech == nullptr, s != OPSPLIT_SUCCESS) << "the output is set only on success";
  opsplit_mechanism_destroy(&mech);
  return {s, message};
}

void expect_load_error(const std::string& text, opsplit_status want, const std::vector<std::string>& words,
                       const char* phase = nullptr) {
  const auto [status, message] = load_text(text, phase);
  EXPECT_EQ(status, want) << message;
  EXPECT_EQ(message.rfind("opsplit_mechanism_load_yaml: ", 0), 0u) << message;
  for (const std::string& w : words) EXPECT_NE(message.find(w), std::string::npos) << "no \"" << w << "\" in: " << message;
}

const char* kGood = "- equation: O + H2 <=> H + OH\n  rate-constant: {A: 3.87e+04, b: 2.7, Ea: 26.19}\n";

}  // namespace

TEST(GasParser, AGoodFileLoads) {
  const auto [status, message] = load_text(features_with(kGood));
  EXPECT_EQ(status, OPSPLIT_SUCCESS) << message;
}

// A file that lost its reactions (or, below, its species) is no mechanism to integrate.
TEST(GasParser, NoReactionsIsAParseError) {
  expect_load_error(features_with("[]\n"), OPSPLIT_ERROR_PARSE, {"opsplit_gas_case.yaml", "the mechanism has no reactions"});
}

TEST(GasParser, MissingFileIsAnIoError) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism mech = nullptr;
  EXPECT_EQ(opsplit_mechanism_load_yaml(ctx, "/no/such/mechanism.yaml", nullptr, &mech), OPSPLIT_ERROR_IO);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("/no/such/mechanism.yaml"), std::string::npos);
  EXPECT_EQ(mech, nullptr);
}

TEST(GasParser, YamlSyntaxErrorNamesTheLine) {
  expect_load_error(features_with(kGood + std::string("- equation: [unclosed\n")), OPSPLIT_ERROR_PARSE,
                    {"opsplit_gas_case.yaml:"});
}

TEST(GasParser, BadNumberNamesLineAndEntry) {
  const std::string text = features_with("- equation: O + H2 <=> H + OH\n  rate-constant: {A: 3.87x04, b: 2.7, Ea: 26.19}\n");
  const size_t line = static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<long>(text.find("3.87x04")), '\n')) + 1;
  expect_load_error(text, OPSPLIT_ERROR_PARSE,
                    {"opsplit_gas_case.yaml:" + std::to_string(line), "reaction 1 (O + H2 <=> H + OH)", "\"3.87x04\" is not a number"});
}

TEST(GasParser, MissingThermoIsAnError) {
  expect_load_error(features_with(kGood, {{"  thermo:\n    model: NASA7\n", "  note: no thermo\n  nothermo:\n    model: NASA7\n"}}),
                    OPSPLIT_ERROR_PARSE, {"species \"H2\"", "thermo is missing"});
}

TEST(GasParser, UnknownSpeciesInAReaction) {
  expect_load_error(features_with("- equation: O + XX <=> H + OH\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"),
                    OPSPLIT_ERROR_PARSE, {"reaction 1 (O + XX <=> H + OH)", "not in the phase"});
}

TEST(GasParser, UnbalancedReaction) {
  expect_load_error(features_with("- equation: O + H2 <=> H + H2O\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"),
                    OPSPLIT_ERROR_PARSE, {"reaction 1 (O + H2 <=> H + H2O)", "unbalanced in H: 2 atoms on the left, 3 on the right"});
}

TEST(GasParser, UndeclaredDuplicates) {
  // The second is the first reversed: a duplicate of a reversible reaction.
  expect_load_error(features_with(std::string(kGood) +
                                  "- equation: H + OH <=> O + H2\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"),
                    OPSPLIT_ERROR_PARSE, {"reaction 2 (H + OH <=> O + H2) duplicates reaction 1", "not both marked"});
  expect_load_error(features_with("- equation: O + H2 <=> H + OH\n  duplicate: true\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"),
                    OPSPLIT_ERROR_PARSE, {"reaction 1", "marked as a duplicate", "no other reaction"});
  // Irreversible both ways are not duplicates; three-body and plain are not either.
  const auto [status, message] = load_text(features_with(
      "- equation: O + H2 => H + OH\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"
      "- equation: H + OH => O + H2\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"
      "- equation: 2 O <=> O2\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"
      "- equation: 2 O + M <=> O2 + M\n  type: three-body\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"));
  EXPECT_EQ(status, OPSPLIT_SUCCESS) << message;
}

TEST(GasParser, UnsupportedFeaturesFailLoudly) {
  expect_load_error(features_with("- equation: O + H2 <=> H + OH\n  type: Chebyshev\n  temperature-range: [290, 3000]\n"),
                    OPSPLIT_ERROR_UNSUPPORTED, {"reaction type \"Chebyshev\" is not supported"});
  expect_load_error(features_with(kGood, {{"model: NASA7", "model: NASA9"}}), OPSPLIT_ERROR_UNSUPPORTED,
                    {"species \"H2\"", "NASA9", "not supported"});
  expect_load_error(features_with("- equation: O + H2 <=> H + OH\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n  sticking-species: H2\n"),
                    OPSPLIT_ERROR_UNSUPPORTED, {"\"sticking-species\" is not supported"});
  expect_load_error(features_with(kGood, {{"thermo: ideal-gas", "thermo: Redlich-Kwong"}}), OPSPLIT_ERROR_UNSUPPORTED,
                    {"Redlich-Kwong", "ideal-gas"});
  expect_load_error(features_with(kGood), OPSPLIT_ERROR_PARSE, {"no phase \"gas\"", "features"}, "gas");
}

TEST(GasParser, BadValuesAndUnits) {
  expect_load_error(features_with("- equation: O + H2 <=> H + OH\n  rate-constant: {A: 3.87e+04 furlongs, b: 2.7, Ea: 26.19}\n"),
                    OPSPLIT_ERROR_PARSE, {"unknown unit \"furlongs\""});
  expect_load_error(features_with("- equation: O + H2 <=> H + OH\n  rate-constant: {A: 3.87e+04 cm^6/mol^2/s, b: 2.7, Ea: 26.19}\n"),
                    OPSPLIT_ERROR_PARSE, {"order 2", "is m^3 s^-1 mol^-1"});
  expect_load_error(features_with("- equation: O + H2 <=> H + OH\n  rate-constant: {A: -1.0, b: 2.7, Ea: 26.19}\n"),
                    OPSPLIT_ERROR_PARSE, {"A is negative"});
  expect_load_error(features_with("- equation: O + H2 <=> H + OH\n  orders: {H2: 0.5}\n  rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"),
                    OPSPLIT_ERROR_PARSE, {"orders are only for irreversible reactions"});
  expect_load_error(features_with(kGood, {{"activation-energy: kJ/mol", "activation-energy: kJ/m"}}), OPSPLIT_ERROR_PARSE,
                    {"activation-energy", "not an energy per quantity"});
  expect_load_error(features_with("- equation: 2 O (+M) <=> O2 (+M)\n  type: falloff\n  high-P-rate-constant: {A: 1.0, b: 0.0, Ea: 0.0}\n"),
                    OPSPLIT_ERROR_PARSE, {"low-P-rate-constant is missing"});
}

// Species names are strings: NO (nitric oxide), ON, Y and true are not booleans.
TEST(GasParser, SpeciesNamesAreNeverBooleans) {
  const std::string text = features_with(
      "- equation: N + NO <=> N2 + O\n  rate-constant: {A: 2.7e+13, b: 0.0, Ea: 1.49}\n",
      {{"species: [H2, H, O, O2, OH, H2O, HO2, H2O2, AR, N2]", "species: [H2, H, O, O2, OH, H2O, HO2, H2O2, AR, N2, N, NO]"},
       {"\nspecies:\n", "\nspecies:\n- name: NO\n  composition: {N: 1, O: 1}\n  thermo:\n    model: NASA7\n"
                        "    temperature-ranges: [200.0, 1000.0, 6000.0]\n    data:\n"
                        "    - [4.2184763, -4.638976e-03, 1.1041022e-05, -9.3361354e-09, 2.803577e-12, 9844.623, 2.2808464]\n"
                        "    - [3.2606056, 1.1911043e-03, -4.2917048e-07, 6.9457669e-11, -4.0336099e-15, 9920.9746, 6.3693027]\n"
                        "- name: N\n  composition: {N: 1}\n  thermo:\n    model: NASA7\n"
                        "    temperature-ranges: [200.0, 1000.0, 6000.0]\n    data:\n"
                        "    - [2.5, 0.0, 0.0, 0.0, 0.0, 5.6104637e+04, 4.1939087]\n"
                        "    - [2.4159429, 1.7489065e-04, -1.1902369e-07, 3.0226245e-11, -2.0360982e-15, 5.6133773e+04, 4.6496096]\n"}});
  const std::string path = testing::TempDir() + "opsplit_gas_no.yaml";
  std::ofstream(path) << text;
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  Mechanism mech(ctx, path, nullptr);
  int index = -1;
  OPSPLIT_OK(opsplit_mechanism_find_species(mech, "NO", &index));
  EXPECT_EQ(index, 11);
  const char* eq = nullptr;
  OPSPLIT_OK(opsplit_mechanism_get_reaction_equation(mech, 0, &eq));
  EXPECT_STREQ(eq, "N + NO <=> N2 + O");
  std::vector<double> W(12);
  OPSPLIT_OK(opsplit_mechanism_get_molar_masses(mech, W.data()));
  EXPECT_NEAR(W[11], (14.007 + 15.999) * 1e-3, 1e-15);
}

// A loaded mechanism is read-only; a built one has no thermodynamics; both stay usable.
TEST(GasMechanism, KindsRefuseWhatTheyCannotDo) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  Mechanism gas(ctx, test_data("mechanisms/features.yaml"), nullptr);
  EXPECT_EQ(opsplit_mechanism_add_species(gas, "X", nullptr), OPSPLIT_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("cannot be edited"), std::string::npos);
  EXPECT_EQ(opsplit_mechanism_set_rate(gas, 0, OPSPLIT_RATE_CONSTANT, 1.0, 0.0, 0.0, 0), OPSPLIT_ERROR_UNSUPPORTED);
  opsplit_mechanism built = nullptr;
  OPSPLIT_OK(opsplit_mechanism_create(ctx, &built));
  OPSPLIT_OK(opsplit_mechanism_add_species(built, "A", nullptr));
  const int a = 0;
  OPSPLIT_OK(opsplit_mechanism_add_reaction(built, 1, &a, nullptr, 0, nullptr, nullptr, nullptr));
  double W = 0.0;
  EXPECT_EQ(opsplit_mechanism_get_molar_masses(built, &W), OPSPLIT_ERROR_UNSUPPORTED);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("no thermodynamic data"), std::string::npos);
  const char* eq = nullptr;
  OPSPLIT_OK(opsplit_mechanism_get_reaction_equation(built, 0, &eq));
  EXPECT_STREQ(eq, "A => 0");
  opsplit_mechanism_kind kind;
  OPSPLIT_OK(opsplit_mechanism_get_kind(built, &kind));
  EXPECT_EQ(kind, OPSPLIT_MECHANISM_BUILT);
  // Still usable after the refusals.
  OPSPLIT_OK(opsplit_mechanism_add_species(built, "B", nullptr));
  int ns = 0;
  OPSPLIT_OK(opsplit_mechanism_get_counts(gas, &ns, nullptr, nullptr));
  EXPECT_EQ(ns, 10);
  // An ODE batch does not take a gas mechanism in this version: a clear refusal.
  opsplit_ode ode = nullptr;
  OPSPLIT_OK(opsplit_ode_create(ctx, 10, 4, 1, &ode));
  EXPECT_EQ(opsplit_ode_set_mechanism(ode, gas), OPSPLIT_ERROR_UNSUPPORTED);
  OPSPLIT_OK(opsplit_ode_destroy(&ode));
  OPSPLIT_OK(opsplit_mechanism_destroy(&built));
}
