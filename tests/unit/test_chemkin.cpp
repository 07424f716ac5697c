// CHEMKIN-II mechanisms (opsplit_mechanism_load_chemkin) against the same mechanisms in
// Cantera YAML (opsplit_mechanism_load_yaml) and against Cantera's own numbers:
//   h2o2.inp, gri30.inp + *_thermo.dat: Cantera's write_chemkin of data/mechanisms'
//     h2o2.yaml and gri30.yaml (references: tests/data/cantera/rates_h2o2.txt, rates_gri30.txt);
//   features.inp: hand-written, every CHEMKIN feature opsplit reads; features_chemkin.yaml
//     is Cantera's ck2yaml of it (reference: rates_features_chemkin.txt);
//   data/mechanisms' gri30.inp + gri30_thermo.dat and h2o2.inp as distributed, against
//     gri30.yaml (rates_gri30.txt) and Cantera's ck2yaml of h2o2.inp (h2o2_ck2yaml.yaml,
//     rates_h2o2_ck2yaml.txt).
// scripts/cantera-reference writes all of these. Then each keyword and syntax variant, and
// the parser's errors: a status and a message naming the file, the line and the entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "cantera_reference.hpp"
#include "helpers.hpp"

namespace {

std::string data_mechanism(const std::string& name) {
  return test::data_folder("OPSPLIT_DATA_DIR", OPSPLIT_DATA) + "/mechanisms/" + name;
}
std::string test_data(const std::string& name) {
  return test::data_folder("OPSPLIT_TEST_DATA", OPSPLIT_TEST_DATA) + "/" + name;
}
std::string mechanism_file(const std::string& name) { return test_data("mechanisms/" + name); }

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  test::require_input(in.good(), path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

using test::Reference;
Reference read_reference(const std::string& name) { return test::read_reference(test_data("cantera/" + name)); }

struct Mechanism {
  opsplit_mechanism mech = nullptr;
  int nspecies = 0, nreactions = 0;
  static Mechanism yaml(opsplit_context ctx, const std::string& path) {
    Mechanism m;
    test::require_loaded(opsplit_mechanism_load_yaml(ctx, path.c_str(), nullptr, &m.mech), path);
    m.count();
    return m;
  }
  static Mechanism chemkin(opsplit_context ctx, const std::string& path, const char* thermo) {
    Mechanism m;
    test::require_loaded(opsplit_mechanism_load_chemkin(ctx, path.c_str(), thermo, &m.mech), path);
    m.count();
    return m;
  }
  Mechanism() = default;
  Mechanism(Mechanism&& o) noexcept : mech(o.mech), nspecies(o.nspecies), nreactions(o.nreactions) { o.mech = nullptr; }
  ~Mechanism() { opsplit_mechanism_destroy(&mech); }
  void count() {
    if (mech != nullptr) {
      EXPECT_EQ(opsplit_mechanism_get_counts(mech, &nspecies, &nreactions, nullptr), OPSPLIT_SUCCESS);
    }
  }
  std::string species(int k) const {
    const char* name = nullptr;
    EXPECT_EQ(opsplit_mechanism_get_species_name(mech, k, &name), OPSPLIT_SUCCESS);
    return name != nullptr ? name : "";
  }
  std::string equation(int r) const {
    const char* eq = nullptr;
    EXPECT_EQ(opsplit_mechanism_get_reaction_equation(mech, r, &eq), OPSPLIT_SUCCESS);
    return eq != nullptr ? eq : "";
  }
  // Forward and reverse rates of progress, then net production rates, at (T, C).
  void rates(double T, const std::vector<double>& C, std::vector<double>& qf, std::vector<double>& qr,
             std::vector<double>& wdot) const {
    qf.assign(static_cast<size_t>(nreactions), 0.0);
    qr.assign(static_cast<size_t>(nreactions), 0.0);
    wdot.assign(static_cast<size_t>(nspecies), 0.0);
    EXPECT_EQ(opsplit_mechanism_rates_of_progress(mech, T, C.data(), qf.data(), qr.data()), OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
    EXPECT_EQ(opsplit_mechanism_net_production_rates(mech, T, C.data(), wdot.data()), OPSPLIT_SUCCESS)
        << opsplit_last_error_message();
  }
};

// "H + 2 O2 <=> HO2 + O2" with each side's terms sorted: the same reaction whatever the
// order its file wrote the terms in.
std::string normalized(const std::string& equation) {
  const bool reversible = equation.find("<=>") != std::string::npos;
  const size_t arrow = reversible ? equation.find(" <=> ") : equation.find(" => ");
  auto side = [](std::string s) {
    std::string collider;  // " (+M)" ends the side's last term: kept out of the sort
    const size_t open = s.rfind(" (+");
    if (open != std::string::npos) collider = s.substr(open), s.erase(open);
    std::vector<std::string> terms;
    size_t at = 0;
    while (true) {
      const size_t plus = s.find(" + ", at);
      terms.push_back(s.substr(at, plus == std::string::npos ? std::string::npos : plus - at));
      if (plus == std::string::npos) break;
      at = plus + 3;
    }
    std::sort(terms.begin(), terms.end());
    std::string out;
    for (const std::string& t : terms) out += (out.empty() ? "" : " + ") + t;
    return out + collider;
  };
  return side(equation.substr(0, arrow)) + (reversible ? " <=> " : " => ") +
         side(equation.substr(arrow + (reversible ? 5 : 4)));
}

// Where each CHEMKIN reaction is in a mechanism that writes a REV reaction as two
// irreversible ones (ck2yaml): {forward, reverse or -1}.
std::vector<std::pair<int, int>> reaction_map(const std::vector<std::string>& chemkin,
                                              const std::vector<std::string>& other) {
  std::vector<std::pair<int, int>> map;
  size_t j = 0;
  for (const std::string& eq : chemkin) {
    const std::string n = normalized(eq);
    std::string irreversible = eq;
    const size_t arrow = irreversible.find(" <=> ");
    if (arrow != std::string::npos) irreversible.replace(arrow, 5, " => ");
    if (j < other.size() && normalized(other[j]) == n) {
      map.push_back({static_cast<int>(j), -1});
      j += 1;
    } else if (j + 1 < other.size() && normalized(other[j]) == normalized(irreversible)) {
      map.push_back({static_cast<int>(j), static_cast<int>(j + 1)});
      j += 2;
    } else {
      ADD_FAILURE() << "reaction \"" << eq << "\" is not at " << j << " of the other mechanism";
      return map;
    }
  }
  EXPECT_EQ(j, other.size()) << "the other mechanism has more reactions";
  return map;
}

std::vector<std::string> equations(const Mechanism& m) {
  std::vector<std::string> out;
  for (int r = 0; r < m.nreactions; ++r) out.push_back(m.equation(r));
  return out;
}

// The worst of |got - want| / scale over a comparison, kept for the report.
struct Worst {
  double value = 0.0;
  std::string where;
  void add(double got, double want, double scale, const std::string& what) {
    const double e = std::fabs(got - want) / scale;
    if (!(e <= value)) value = e, where = what;
  }
};

// The CHEMKIN and YAML versions of one mechanism, and the CHEMKIN one against Cantera's
// numbers (whose reactions are the YAML file's).
struct Comparison {
  Worst molar_mass, thermo, rop, wdot, rop_cantera, wdot_cantera;
};

Comparison compare(const Mechanism& ck, const Mechanism& yaml, const Reference& ref) {
  Comparison c;
  EXPECT_EQ(ck.nspecies, yaml.nspecies);
  const size_t ns = static_cast<size_t>(ck.nspecies);
  const std::vector<std::string>& names = ref.header.at("species");
  EXPECT_EQ(std::stoi(names[0]), ck.nspecies);
  for (int k = 0; k < ck.nspecies; ++k) {
    EXPECT_EQ(ck.species(k), yaml.species(k));
    EXPECT_EQ(ck.species(k), names[static_cast<size_t>(k) + 1]);
  }
  const std::vector<std::pair<int, int>> to_yaml = reaction_map(equations(ck), equations(yaml));
  EXPECT_EQ(std::stoi(ref.header.at("reactions")[0]), yaml.nreactions);
  if (to_yaml.size() != static_cast<size_t>(ck.nreactions)) return c;

  std::vector<double> W(ns), W_yaml(ns);
  EXPECT_EQ(opsplit_mechanism_get_molar_masses(ck.mech, W.data()), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_mechanism_get_molar_masses(yaml.mech, W_yaml.data()), OPSPLIT_SUCCESS);
  for (size_t k = 0; k < ns; ++k) c.molar_mass.add(W[k], W_yaml[k], W_yaml[k], "W of " + ck.species(static_cast<int>(k)));

  // Thermo on both sides of the common temperatures and at the ends of the ranges.
  for (double T : {200.0, 300.0, 500.0, 999.999, 1000.0, 1000.001, 1500.0, 2500.0, 3500.0, 5000.0}) {
    std::vector<double> a[3], b[3];
    for (int i = 0; i < 3; ++i) a[i].resize(ns), b[i].resize(ns);
    EXPECT_EQ(opsplit_mechanism_species_thermo(ck.mech, T, a[0].data(), a[1].data(), a[2].data()), OPSPLIT_SUCCESS);
    EXPECT_EQ(opsplit_mechanism_species_thermo(yaml.mech, T, b[0].data(), b[1].data(), b[2].data()), OPSPLIT_SUCCESS);
    for (int i = 0; i < 3; ++i)
      for (size_t k = 0; k < ns; ++k)
        c.thermo.add(a[i][k], b[i][k], std::fmax(std::fabs(b[i][k]), 1.0),
                     "thermo " + std::to_string(i) + " of " + ck.species(static_cast<int>(k)) + " at " + std::to_string(T));
  }

  for (size_t s = 0; s < ref.states.size(); ++s) {
    const auto& state = ref.states[s];
    const double T = state.at("T")[0];
    const std::vector<double>& C = state.at("concentrations");
    std::vector<double> qf, qr, wdot, yqf, yqr, ywdot;
    ck.rates(T, C, qf, qr, wdot);
    yaml.rates(T, C, yqf, yqr, ywdot);
    const std::vector<double>&cf = state.at("forward_rop"), &cr = state.at("reverse_rop");
    for (size_t r = 0; r < qf.size(); ++r) {
      const auto [j, back] = to_yaml[r];
      // The YAML (and Cantera's) reverse rate of a REV reaction is its second reaction's forward rate.
      const double want_f = yqf[static_cast<size_t>(j)];
      const double want_r = back >= 0 ? yqf[static_cast<size_t>(back)] : yqr[static_cast<size_t>(j)];
      const double ref_f = cf[static_cast<size_t>(j)];
      const double ref_r = back >= 0 ? cf[static_cast<size_t>(back)] : cr[static_cast<size_t>(j)];
      const double scale = std::fmax(std::fmax(std::fabs(want_f), std::fabs(want_r)), 1e-300);
      const double ref_scale = std::fmax(std::fmax(std::fabs(ref_f), std::fabs(ref_r)), 1e-300);
      const std::string what = "state " + std::to_string(s) + " reaction " + std::to_string(r + 1) + " (" + ck.equation(static_cast<int>(r)) + ")";
      c.rop.add(qf[r], want_f, scale, what + " forward");
      c.rop.add(qr[r], want_r, scale, what + " reverse");
      c.rop_cantera.add(qf[r], ref_f, ref_scale, what + " forward");
      c.rop_cantera.add(qr[r], ref_r, ref_scale, what + " reverse");
      if (back >= 0) {
        EXPECT_EQ(yqr[static_cast<size_t>(j)], 0.0) << what;
      }
    }
    const std::vector<double>& scale = state.at("production_scale");
    for (size_t k = 0; k < ns; ++k) {
      const std::string what = "state " + std::to_string(s) + " wdot of " + ck.species(static_cast<int>(k));
      c.wdot.add(wdot[k], ywdot[k], std::fmax(scale[k], 1e-300), what);
      c.wdot_cantera.add(wdot[k], state.at("net_production")[k], std::fmax(scale[k], 1e-300), what);
    }
  }
  return c;
}

void report(const char* name, const Comparison& c) {
  std::printf("[measured] %s CHEMKIN vs YAML: molar masses %.2g, cp/R h/RT s/R %.2g, rates of progress %.2g, "
              "net production %.2g; vs Cantera: rates of progress %.2g, net production %.2g\n",
              name, c.molar_mass.value, c.thermo.value, c.rop.value, c.wdot.value, c.rop_cantera.value,
              c.wdot_cantera.value);
}

}  // namespace

// Tolerances, CHEMKIN vs YAML. The thermo coefficients are the same decimal text in both
// files (write_chemkin keeps the 9 digits GRI-Mech gives), so thermo agrees bitwise. The
// rates are not bitwise for h2o2 and gri30: write_chemkin writes A after Cantera's
// kmol -> mol conversion (1.2e17 becomes 1.2000000000000002e+17), an ulp or two of A;
// molar masses can differ in the last bit (the YAML and CHEMKIN list a species' elements
// in different orders). features_chemkin.yaml holds features.inp's own numbers, so its
// rates agree to the bit except the net production rates of species in a REV reaction,
// which YAML sums as two reactions. Against Cantera, the bound test_gas uses (1e-10).
constexpr double kMolarMassTol = 1e-15, kThermoTol = 0.0, kRatesTol = 1e-14, kCanteraTol = 1e-10;

void expect_within_bounds(const Comparison& c) {
  EXPECT_LE(c.molar_mass.value, kMolarMassTol) << c.molar_mass.where;
  EXPECT_LE(c.thermo.value, kThermoTol) << c.thermo.where;
  EXPECT_LE(c.rop.value, kRatesTol) << c.rop.where;
  EXPECT_LE(c.wdot.value, kRatesTol) << c.wdot.where;
  EXPECT_LE(c.rop_cantera.value, kCanteraTol) << c.rop_cantera.where;
  EXPECT_LE(c.wdot_cantera.value, kCanteraTol) << c.wdot_cantera.where;
}

TEST(ChemkinVersusYaml, H2O2) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism ck = Mechanism::chemkin(ctx, mechanism_file("h2o2.inp"), mechanism_file("h2o2_thermo.dat").c_str());
  const Mechanism yaml = Mechanism::yaml(ctx, data_mechanism("h2o2.yaml"));
  ASSERT_NE(ck.mech, nullptr);
  ASSERT_NE(yaml.mech, nullptr);
  EXPECT_EQ(ck.nreactions, 29);
  const Comparison c = compare(ck, yaml, read_reference("rates_h2o2.txt"));
  report("h2o2", c);
  expect_within_bounds(c);
}

TEST(ChemkinVersusYaml, Gri30) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism ck = Mechanism::chemkin(ctx, mechanism_file("gri30.inp"), mechanism_file("gri30_thermo.dat").c_str());
  const Mechanism yaml = Mechanism::yaml(ctx, data_mechanism("gri30.yaml"));
  ASSERT_NE(ck.mech, nullptr);
  ASSERT_NE(yaml.mech, nullptr);
  EXPECT_EQ(ck.nspecies, 53);
  EXPECT_EQ(ck.nreactions, 325);
  const Comparison c = compare(ck, yaml, read_reference("rates_gri30.txt"));
  report("gri30", c);
  expect_within_bounds(c);
}

// A CHEMKIN file as distributed against the YAML file ck2yaml made of it: the same
// decimal text for every number, so thermo and rates agree to the bit; against Cantera,
// the bound of the other comparisons.
void expect_same_as_its_ck2yaml(const char* name, const Mechanism& ck, const Mechanism& yaml, const Reference& ref) {
  const Comparison c = compare(ck, yaml, ref);
  report(name, c);
  EXPECT_EQ(c.molar_mass.value, 0.0) << c.molar_mass.where;
  EXPECT_EQ(c.thermo.value, 0.0) << c.thermo.where;
  EXPECT_EQ(c.rop.value, 0.0) << c.rop.where;
  EXPECT_EQ(c.wdot.value, 0.0) << c.wdot.where;
  EXPECT_LE(c.rop_cantera.value, kCanteraTol) << c.rop_cantera.where;
  EXPECT_LE(c.wdot_cantera.value, kCanteraTol) << c.wdot_cantera.where;
}

// GRI-Mech 3.0's own files (Tcommon written "1000.000" across columns 66-75, no THERMO
// section in the mechanism file) against gri30.yaml, which ck2yaml made of them.
TEST(ChemkinAsDistributed, Gri30) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism ck =
      Mechanism::chemkin(ctx, data_mechanism("gri30.inp"), data_mechanism("gri30_thermo.dat").c_str());
  EXPECT_EQ(ck.nspecies, 53);
  EXPECT_EQ(ck.nreactions, 325);
  expect_same_as_its_ck2yaml("gri30 as distributed", ck, Mechanism::yaml(ctx, data_mechanism("gri30.yaml")),
                             read_reference("rates_gri30.txt"));
}

// Cantera's H2/O2 file (its own THERMO section, Tcommon in columns 66-75; 9 species, not
// h2o2.yaml's 10) against Cantera's ck2yaml of it.
TEST(ChemkinAsDistributed, H2O2) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism ck = Mechanism::chemkin(ctx, data_mechanism("h2o2.inp"), nullptr);
  EXPECT_EQ(ck.nspecies, 9);
  EXPECT_EQ(ck.nreactions, 28);
  expect_same_as_its_ck2yaml("h2o2.inp as distributed", ck, Mechanism::yaml(ctx, mechanism_file("h2o2_ck2yaml.yaml")),
                             read_reference("rates_h2o2_ck2yaml.txt"));
}

// Every feature: the file's own THERMO section (no thermo file), units keywords, every
// reaction form; features_chemkin.yaml writes the three REV reactions as pairs.
TEST(ChemkinVersusYaml, EveryFeature) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism ck = Mechanism::chemkin(ctx, mechanism_file("features.inp"), nullptr);
  const Mechanism yaml = Mechanism::yaml(ctx, mechanism_file("features_chemkin.yaml"));
  ASSERT_NE(ck.mech, nullptr);
  ASSERT_NE(yaml.mech, nullptr);
  EXPECT_EQ(ck.nreactions, 20);
  EXPECT_EQ(yaml.nreactions, 23);
  const Comparison c = compare(ck, yaml, read_reference("rates_features_chemkin.txt"));
  report("features", c);
  EXPECT_EQ(c.molar_mass.value, 0.0) << c.molar_mass.where;
  EXPECT_LE(c.thermo.value, kThermoTol) << c.thermo.where;
  EXPECT_EQ(c.rop.value, 0.0) << c.rop.where;
  EXPECT_LE(c.wdot.value, kRatesTol) << c.wdot.where;
  EXPECT_LE(c.rop_cantera.value, kCanteraTol) << c.rop_cantera.where;
  EXPECT_LE(c.wdot_cantera.value, kCanteraTol) << c.wdot_cantera.where;
  // The equations as parsed: coefficients, colliders, arrows, REV kept as one reaction.
  EXPECT_EQ(ck.equation(1), "2 O + M <=> O2 + M");
  EXPECT_EQ(ck.equation(2), "2 H + M => H2 + M");
  EXPECT_EQ(ck.equation(4), "2 OH (+M) <=> H2O2 (+M)");
  EXPECT_EQ(ck.equation(5), "H + OH (+M) <=> H2O (+M)");
  EXPECT_EQ(ck.equation(6), "O + H2O (+H2O) <=> H2O2 (+H2O)");
  EXPECT_EQ(ck.equation(10), "H + HO2 <=> 2 OH");
  EXPECT_EQ(ck.equation(16), "1.5 H2 + 0.75 O2 => 1.5 H2O");
  EXPECT_EQ(ck.equation(17), "H + HO2 <=> H2O + O");
  EXPECT_EQ(ck.equation(18), "H + O + M <=> OH + M");
}

// The ck2yaml output loads through opsplit's YAML reader on its own too (the comparison
// above uses it), and with the same kind and counts.
TEST(ChemkinVersusYaml, Ck2yamlOutputLoads) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism yaml = Mechanism::yaml(ctx, mechanism_file("features_chemkin.yaml"));
  ASSERT_NE(yaml.mech, nullptr);
  opsplit_mechanism_kind kind;
  OPSPLIT_OK(opsplit_mechanism_get_kind(yaml.mech, &kind));
  EXPECT_EQ(kind, OPSPLIT_MECHANISM_GAS);
  EXPECT_EQ(yaml.nspecies, 10);
}

// ---- mechanism texts written to temporary files -------------------------------------------
namespace {

const std::string kCase = "opsplit_chemkin_case.inp";
const std::string kThermoCase = "opsplit_chemkin_case_thermo.dat";
std::string case_path(const std::string& name) { return testing::TempDir() + name; }

// features.inp with its REACTIONS section replaced by `reactions` (the REACTIONS line and
// END are added), then text edits applied.
std::string chemkin_with(const std::string& reactions, const std::vector<std::pair<std::string, std::string>>& edits = {},
                         const std::string& reactions_line = "REACTIONS") {
  std::string text = read_file(mechanism_file("features.inp"));
  // From the ELEMENTS section on (the header comment names keywords the markers look for).
  text = text.substr(text.find("\nelements") + 1);
  text = text.substr(0, text.find("\nreactions ")) + "\n" + reactions_line + "\n" + reactions + "END\n";
  for (const auto& [from, to] : edits) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return text;
}

// The 1-based line of the first occurrence of `marker` in `text`.
std::string line_of(const std::string& text, const std::string& marker) {
  const size_t at = text.find(marker);
  EXPECT_NE(at, std::string::npos) << marker;
  return std::to_string(std::count(text.begin(), text.begin() + static_cast<long>(std::min(at, text.size())), '\n') + 1);
}

struct Loaded {
  opsplit_status status;
  std::string message;
};

// Writes `text` (and `thermo` when not empty) and loads them.
Loaded load_text(const std::string& text, const std::string& thermo = "", const char* thermo_path = nullptr) {
  std::ofstream(case_path(kCase), std::ios::binary) << text;
  std::string thermo_file;
  if (!thermo.empty()) {
    thermo_file = case_path(kThermoCase);
    std::ofstream(thermo_file, std::ios::binary) << thermo;
  }
  if (thermo_path == nullptr && !thermo_file.empty()) thermo_path = thermo_file.c_str();
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism mech = nullptr;
  const opsplit_status s = opsplit_mechanism_load_chemkin(ctx, case_path(kCase).c_str(), thermo_path, &mech);
  const std::string message = opsplit_last_error_message();
  EXPECT_EQ(mech == nullptr, s != OPSPLIT_SUCCESS) << "the output is set only on success";
  opsplit_mechanism_destroy(&mech);
  return {s, message};
}

void expect_error(const Loaded& got, opsplit_status want, const std::vector<std::string>& words) {
  EXPECT_EQ(got.status, want) << got.message;
  EXPECT_EQ(got.message.rfind("opsplit_mechanism_load_chemkin: ", 0), 0u) << got.message;
  for (const std::string& w : words) EXPECT_NE(got.message.find(w), std::string::npos) << "no \"" << w << "\" in: " << got.message;
}

// file:line of `marker` in `text`, as the messages write it.
std::string at(const std::string& text, const std::string& marker) { return kCase + ":" + line_of(text, marker); }

const std::string kGood = "O + H2 <=> H + OH   3.87E+04  2.7  6260.0\n";

// Rates of progress of a text at a fixed state (T = 1500 K, every species at 2 mol/m^3,
// H2O at 3).
struct TextRates {
  std::vector<double> qf, qr, wdot;
  int nreactions = 0;
};
TextRates rates_of(const std::string& text, const std::string& thermo = "") {
  TextRates out;
  std::ofstream(case_path(kCase), std::ios::binary) << text;
  std::string thermo_file;
  if (!thermo.empty()) std::ofstream(thermo_file = case_path(kThermoCase), std::ios::binary) << thermo;
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism m = Mechanism::chemkin(ctx, case_path(kCase), thermo_file.empty() ? nullptr : thermo_file.c_str());
  if (m.mech == nullptr) return out;
  std::vector<double> C(static_cast<size_t>(m.nspecies), 2.0);
  C[5] = 3.0;
  m.rates(1500.0, C, out.qf, out.qr, out.wdot);
  out.nreactions = m.nreactions;
  return out;
}

}  // namespace

TEST(ChemkinParser, AGoodCaseLoads) {
  const Loaded got = load_text(chemkin_with(kGood));
  EXPECT_EQ(got.status, OPSPLIT_SUCCESS) << got.message;
}

// Units keywords: one reaction with Ea written in each energy unit (and A per molecule)
// gives the CAL/MOLE rate, within the rounding of the conversions, and the formula's.
TEST(ChemkinKeywords, UnitsOfTheReactionsLine) {
  const double A = 3.87e4, b = 2.7, Ea_cal = 6260.0, R = 8.31446261815324, NA = 6.02214076e23,
               eV = 1.602176634e-19, T = 1500.0;
  const double Ea_J = Ea_cal * 4.184;
  struct Case {
    const char* keywords;
    double A, Ea;
  };
  const Case cases[] = {{"", A, Ea_cal},
                        {"CAL/MOLE", A, Ea_cal},
                        {"KCAL/MOLE", A, Ea_cal * 1e-3},
                        {"JOULES/MOLE", A, Ea_J},
                        {"KJOULES/MOLE", A, Ea_J * 1e-3},
                        {"KELVINS", A, Ea_J / R},
                        {"EVOLTS", A, Ea_J / NA / eV},
                        {"MOLECULES", A / NA, Ea_cal},
                        {"kcal/mol molecules", A / NA, Ea_cal * 1e-3},
                        {"MOLES KELV", A, Ea_J / R}};
  // k in m^3/(mol s) times C_O C_H2, from the formula.
  const double want = A * 1e-6 * std::pow(T, b) * std::exp(-Ea_J / (R * T)) * 2.0 * 2.0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.keywords);
    char line[200];
    std::snprintf(line, sizeof line, "O + H2 <=> H + OH   %.17g  2.7  %.17g\n", c.A, c.Ea);
    const TextRates r = rates_of(chemkin_with(line, {}, std::string("REACTIONS ") + c.keywords));
    ASSERT_EQ(r.qf.size(), 1u);
    EXPECT_NEAR(r.qf[0], want, 3e-15 * want);
  }
}

// Blanks, case, D exponents, tabs, one keyword per line or several: the same numbers.
TEST(ChemkinKeywords, SyntaxVariantsGiveTheSameRates) {
  const std::string canonical =
      "2 H + M => H2 + M   1.0E+18  -1.0  0.0\nH2/0.0/ H2O/0.0/ AR/0.63/\n"
      "H + O2 (+M) <=> HO2 (+M)   4.7E+12  0.44  0.0\nLOW /6.366E+20 -1.72 524.8/\nTROE /0.5 1.0E-30 1.0E+30/\n"
      "H2/2.0/ H2O/14.0/\n"
      "OH + HO2 <=> O2 + H2O   1.45E+13  0.0  -500.0\nDUPLICATE\n"
      "OH + HO2 <=> O2 + H2O   5.0E+15  0.0  17330.0\nDUPLICATE\n"
      "O + H2O (+H2O) <=> H2O2 (+H2O)   2.0E+12  0.9  4851.0\nLOW /1.865E+19 -1.3 4871.0/\n";
  const std::string variant =
      "2H+M=>H2+M\t1.0D+18\t-1.0\t0.0   ! tabs, no blanks, a D exponent\n  h2 / 0.0 /H2O/0.0/   ar/0.63/ \n"
      "H+O2( + m )=HO2( + m ) 4.7e12 .44 0\nlow/6.366e20 -1.72 524.8/ troe/ 0.5 1.0d-30 1.0e30 /\n"
      "H2 /2.0/\nH2O /14./\n"
      "OH+HO2=O2+H2O 1.45E13 0 -500\ndup\n"
      "OH + HO2 = O2 + H2O 5E15 0 17330 ! comment\n\n  Duplicate  \n"
      "O+H2O(+H2O)=H2O2(+H2O) 2E12 0.9 4851\nLOW/1.865E19 -1.3 4871/\n";
  // ("h2" and "ar" are not species: species are case-sensitive, so those lines differ.)
  std::string fixed = variant;
  fixed.replace(fixed.find("  h2 /"), 6, "  H2 /");
  fixed.replace(fixed.find("ar/0.63/"), 8, "AR/0.63/");
  const TextRates a = rates_of(chemkin_with(canonical)), b = rates_of(chemkin_with(fixed));
  ASSERT_EQ(a.nreactions, 5);
  ASSERT_EQ(b.nreactions, 5);
  for (size_t r = 0; r < 5; ++r) {
    EXPECT_EQ(a.qf[r], b.qf[r]) << r;
    EXPECT_EQ(a.qr[r], b.qr[r]) << r;
  }
  expect_error(load_text(chemkin_with(variant)), OPSPLIT_ERROR_PARSE,
               {at(chemkin_with(variant), "  h2 /"), "\"h2\" /", "neither an auxiliary keyword nor a declared species"});
}

// What real CHEMKIN files do that ck2yaml reads: text before the first section (a header
// without '!'), keywords abbreviated to four letters and in lower case, text after END on
// its line, tabs between the words, Tcommon written across columns 66-75 (GRI-Mech 3.0's
// files). The same mechanism as features.inp, to the bit.
TEST(ChemkinKeywords, QuirksCk2yamlReads) {
  const std::string original = read_file(mechanism_file("features.inp"));
  std::string quirky = "GRI-Mech-style header text, no comment mark\n" + original;
  const std::vector<std::pair<std::string, std::string>> edits = {
      {"\nelements   ! names may also follow the keyword on its line\n", "\nelem\n"},
      {"\nend\n\nSPECIES\n", "\nend   of the elements\n\nSPEC\n"},
      {"H2  H  O  O2  OH  H2O    ! names", "H2\tH\tO  O2 \t OH  H2O    ! names"},
      {"HO2  H2O2  AR  N2\nEND\n", "HO2  H2O2  AR  N2\nEND\tspecies\n"},
      {"\nTHERMO ALL\n", "\nther all\n"},
      {"H2                TPIS78H   2               G200.000   3500.000  1000.000      1",
       "H2                TPIS78H   2               G   200.000  3500.000  1000.000    1"},
      {"\nreactions   kjoules/mole", "\nREAC\tkjoules/mole"}};
  for (const auto& [from, to] : edits) {
    const size_t at = quirky.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    quirky.replace(at, from.size(), to);
  }
  const size_t last_end = quirky.rfind("END");
  ASSERT_NE(last_end, std::string::npos);
  quirky.insert(last_end + 3, "   of the reactions");
  const TextRates want = rates_of(original), got = rates_of(quirky);
  ASSERT_EQ(want.nreactions, 20);
  ASSERT_EQ(got.nreactions, 20);
  for (size_t r = 0; r < want.qf.size(); ++r) {
    EXPECT_EQ(got.qf[r], want.qf[r]) << r;
    EXPECT_EQ(got.qr[r], want.qr[r]) << r;
  }
  EXPECT_EQ(got.wdot, want.wdot);
}

// REV /0 0 0/ makes a reaction irreversible; RORD with REV writes it as two irreversible
// reactions, the same as writing them out with FORD.
TEST(ChemkinKeywords, RevAndReverseOrders) {
  const TextRates none = rates_of(chemkin_with("O + H2 <=> H + OH   3.87E+04  2.7  6260.0\nREV /0 0 0/\n"));
  ASSERT_EQ(none.nreactions, 1);
  EXPECT_EQ(none.qr[0], 0.0);
  EXPECT_GT(none.qf[0], 0.0);
  const TextRates split = rates_of(chemkin_with(
      "HO2 + H2 <=> H2O2 + H   1.0E+12 0.5 2000.0\nREV /2.0E+11 0.6 900.0/\nFORD /H2 1.5/\nRORD /H2O2 0.5/ RORD /OH 1.0/\n"));
  const TextRates written = rates_of(chemkin_with(
      "HO2 + H2 => H2O2 + H   1.0E+12 0.5 2000.0\nFORD /H2 1.5/\n"
      "H2O2 + H => HO2 + H2   2.0E+11 0.6 900.0\nFORD /H2O2 0.5/ FORD /OH 1.0/\n"));
  ASSERT_EQ(split.nreactions, 2);
  ASSERT_EQ(written.nreactions, 2);
  for (size_t r = 0; r < 2; ++r) {
    EXPECT_EQ(split.qf[r], written.qf[r]);
    EXPECT_EQ(split.qr[r], 0.0);
  }
  // The reverse rate by hand: A (cm^3/mol)^(order-1)/s with order 0.5 + 1 + 1 (H2O2^0.5, H, OH).
  const double T = 1500.0, R = 8.31446261815324;
  const double k = 2.0e11 * std::pow(1e-6, 1.5) * std::pow(T, 0.6) * std::exp(-900.0 * 4.184 / (R * T));
  EXPECT_NEAR(split.qf[1], k * std::sqrt(2.0) * 2.0 * 2.0, 1e-14 * split.qf[1]);
}

// The mechanism file's THERMO entries come before the thermo file's; a THERMO section
// without ALL and without a temperature line; a fifth element in columns 74-78.
TEST(ChemkinThermo, SourcesAndColumns) {
  const std::string features = read_file(mechanism_file("features.inp"));
  const size_t begin = features.find("\nTHERMO ALL\n") + 1, end = features.find("END\n", begin) + 4;
  const std::string all_thermo = features.substr(begin, end - begin);
  // The thermo file has every species; the mechanism's own THERMO gives H2 other numbers:
  // a1 = 3.5 in both ranges (cp/R = 3.5 + ...).
  const std::string h2_line1 = all_thermo.substr(all_thermo.find("H2                TPIS78"), 81);
  std::string h2 = h2_line1 +
                   " 3.50000000E+00 0.00000000E+00 0.00000000E+00 0.00000000E+00 0.00000000E+00    2\n"
                   "-1.00000000E+03 0.00000000E+00 3.50000000E+00 0.00000000E+00 0.00000000E+00    3\n"
                   " 0.00000000E+00 0.00000000E+00-1.00000000E+03 0.00000000E+00                   4\n";
  // A made-up species of five elements, the fifth in columns 74-78.
  // Columns: name 1-18, date 19-24, elements 25-44, phase 45, Tlow 46-55, Thigh 56-65,
  // Tcommon 66-73, fifth element 74-78, 1 in 80.
  const std::string x5_line1 = std::string("X5") + std::string(16, ' ') + "TEST  " + "H   1O   1N   1C   1" + "G" +
                               "   200.000" + "  6000.000" + "1000.00 " + "AR  1" + " 1";
  ASSERT_EQ(x5_line1.size(), 80u);
  const std::string x5 =
      x5_line1 + "\n"
      " 2.50000000E+00 0.00000000E+00 0.00000000E+00 0.00000000E+00 0.00000000E+00    2\n"
      " 0.00000000E+00 0.00000000E+00 2.50000000E+00 0.00000000E+00 0.00000000E+00    3\n"
      " 0.00000000E+00 0.00000000E+00 0.00000000E+00 0.00000000E+00                   4\n";
  std::string mech = chemkin_with(kGood, {{all_thermo, "THERMO\n" + h2 + x5 + "END\n"},
                                           {"O  H  ar\nN\nend", "O  H  ar N C\nEND"},
                                           {"HO2  H2O2  AR  N2", "HO2  H2O2  AR  N2  X5"}});
  std::ofstream(case_path(kCase), std::ios::binary) << mech;
  std::ofstream(case_path(kThermoCase), std::ios::binary) << all_thermo;
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  const Mechanism m = Mechanism::chemkin(ctx, case_path(kCase), case_path(kThermoCase).c_str());
  ASSERT_NE(m.mech, nullptr);
  ASSERT_EQ(m.nspecies, 11);
  std::vector<double> cp(11), W(11);
  OPSPLIT_OK(opsplit_mechanism_species_thermo(m.mech, 300.0, cp.data(), nullptr, nullptr));
  EXPECT_EQ(cp[0], 3.5);   // H2: the mechanism file's entry
  EXPECT_NE(cp[3], 3.5);   // O2: the thermo file's
  EXPECT_EQ(cp[10], 2.5);  // X5
  OPSPLIT_OK(opsplit_mechanism_get_molar_masses(m.mech, W.data()));
  EXPECT_DOUBLE_EQ(W[10], (1.008 + 15.999 + 14.007 + 12.011 + 39.95) * 1e-3);
}

// ---- errors ---------------------------------------------------------------------------------

// Empty lists: a file with no species, or a REACTIONS section with no reaction, loads
// no mechanism (PARSE), where they once gave one of 0 species and 0 reactions.
TEST(ChemkinParser, NoSpeciesOrNoReactionsIsAParseError) {
  expect_error(load_text("ELEM H END\nSPEC\nEND\n"), OPSPLIT_ERROR_PARSE, {kCase, "the mechanism declares no species"});
  expect_error(load_text("ELEM H END\nSPEC\n"), OPSPLIT_ERROR_PARSE, {kCase, "the mechanism declares no species"});
  expect_error(load_text(chemkin_with("")), OPSPLIT_ERROR_PARSE, {kCase, "the mechanism has no reactions"});
}

TEST(ChemkinParser, BadNumbers) {
  const std::string reaction = chemkin_with("O + H2 <=> H + OH   3.87x04  2.7  6260.0\n");
  expect_error(load_text(reaction), OPSPLIT_ERROR_PARSE,
               {at(reaction, "O + H2 <=>"), "reaction 1 (O + H2 <=> H + OH)", "A \"3.87x04\" is not a number"});
  const std::string aux = chemkin_with("H + OH (+M) <=> H2O (+M)  1.0E+14 0.0 0.0\nLOW /4.0E+22 -2.0 zero/\n");
  expect_error(load_text(aux), OPSPLIT_ERROR_PARSE,
               {at(aux, "LOW /4.0"), "reaction 1 (H + OH (+M) <=> H2O (+M))", "LOW: \"zero\" is not a number"});
  const std::string thermo = chemkin_with(kGood, {{" 3.33727920E+00-4.94024731E-05", " 3.33727X20E+00-4.94024731E-05"}});
  expect_error(load_text(thermo), OPSPLIT_ERROR_PARSE,
               {at(thermo, " 3.33727X20E+00"), "species \"H2\"", "NASA-7 coefficient 1 \" 3.33727X20E+00\""});
  const std::string temperature = chemkin_with(kGood, {{"G300.000   5000.000  5000.000", "G300.0x0   5000.000  5000.000"}});
  expect_error(load_text(temperature), OPSPLIT_ERROR_PARSE, {at(temperature, "G300.0x0"), "species \"AR\"", "Tlow"});
}

TEST(ChemkinParser, MissingThermo) {
  // N2's entry removed: the species' declaration is named.
  const std::string features = read_file(mechanism_file("features.inp"));
  const size_t n2 = features.find("N2                121286");
  const std::string entry = features.substr(n2, 4 * 81);
  const std::string text = chemkin_with(kGood, {{entry, ""}});
  expect_error(load_text(text), OPSPLIT_ERROR_PARSE,
               {at(text, "HO2  H2O2  AR  N2"), "species \"N2\" has no thermo data", "no thermo file was given"});
  // A mechanism without THERMO needs the thermo file.
  const std::string h2o2 = read_file(mechanism_file("h2o2.inp"));
  std::ofstream(case_path(kCase), std::ios::binary) << h2o2;
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism mech = nullptr;
  const opsplit_status status = opsplit_mechanism_load_chemkin(ctx, case_path(kCase).c_str(), "", &mech);
  const Loaded got{status, opsplit_last_error_message()};
  opsplit_mechanism_destroy(&mech);
  expect_error(got, OPSPLIT_ERROR_PARSE, {at(h2o2, "H2  H  O  O2"), "species \"H2\" has no thermo data"});
  // A thermo file with the missing entry completes it.
  const Loaded completed = load_text(text, "THERMO\n" + entry + "END\n");
  EXPECT_EQ(completed.status, OPSPLIT_SUCCESS) << completed.message;
}

TEST(ChemkinParser, UnknownSpecies) {
  const std::string equation = chemkin_with("O + XX <=> H + OH   1.0 0.0 0.0\n");
  expect_error(load_text(equation), OPSPLIT_ERROR_PARSE,
               {at(equation, "O + XX"), "reaction 1 (O + XX <=> H + OH)", "\"XX\" is not a declared species"});
  const std::string efficiency = chemkin_with("2 O + M <=> O2 + M   1.2E+17 -1.0 0.0\nH2/2.4/ XX/2.0/\n");
  expect_error(load_text(efficiency), OPSPLIT_ERROR_PARSE,
               {at(efficiency, "H2/2.4/"), "reaction 1 (2 O + M <=> O2 + M)", "\"XX\" /2.0/ is neither an auxiliary keyword"});
  const std::string order = chemkin_with("H2 + O2 => H + HO2   7.4E+05 2.43 53460.0\nFORD /XX 0.5/\n");
  expect_error(load_text(order), OPSPLIT_ERROR_PARSE, {at(order, "FORD /XX"), "FORD: \"XX\" is not a declared species"});
  const std::string collider = chemkin_with("O + H2O (+XX) <=> H2O2 (+XX)   2.0E+12 0.9 0.0\nLOW/1.0 0.0 0.0/\n");
  expect_error(load_text(collider), OPSPLIT_ERROR_PARSE, {at(collider, "O + H2O (+XX)"), "\"XX\" in \"(+...)\""});
  // Species are case-sensitive: "h2" is not H2.
  const std::string lower = chemkin_with("O + h2 <=> H + OH   1.0 0.0 0.0\n");
  expect_error(load_text(lower), OPSPLIT_ERROR_PARSE, {at(lower, "O + h2"), "\"h2\" is not a declared species"});
}

TEST(ChemkinParser, UnbalancedReaction) {
  const std::string text = chemkin_with(kGood + "O + H2 <=> H + H2O   1.0 0.0 0.0\n");
  expect_error(load_text(text), OPSPLIT_ERROR_PARSE,
               {at(text, "O + H2 <=> H + H2O"), "reaction 2 (O + H2 <=> H + H2O)",
                "unbalanced in H: 2 atoms on the left, 3 on the right"});
}

TEST(ChemkinParser, UndeclaredDuplicates) {
  const std::string reversed = chemkin_with(kGood + "H + OH <=> O + H2   1.0 0.0 0.0\n");
  expect_error(load_text(reversed), OPSPLIT_ERROR_PARSE,
               {at(reversed, "H + OH <=> O + H2"), "reaction 2 (H + OH <=> O + H2) duplicates reaction 1", "not both marked"});
  const std::string half = chemkin_with(kGood + "O + H2 <=> H + OH   1.0 0.0 0.0\nDUP\n");
  expect_error(load_text(half), OPSPLIT_ERROR_PARSE, {"duplicates reaction 1", "not both marked"});
  const std::string lone = chemkin_with(kGood + "H + O2 <=> O + OH   1.0 0.0 0.0\nDUPLICATE\n");
  expect_error(load_text(lone), OPSPLIT_ERROR_PARSE,
               {at(lone, "H + O2 <=> O + OH"), "reaction 2", "marked as a duplicate, but no other reaction"});
  // Declared on both: fine; three-body and plain are different reactions.
  const Loaded fine = load_text(chemkin_with(kGood + "O + H2 <=> H + OH   1.0 0.0 0.0\nDUP\n"
                                                     "2 O <=> O2   1.0 0.0 0.0\n2 O + M <=> O2 + M   1.0 0.0 0.0\n",
                                             {{kGood, "O + H2 <=> H + OH   3.87E+04  2.7  6260.0\nDUP\n"}}));
  EXPECT_EQ(fine.status, OPSPLIT_SUCCESS) << fine.message;
}

TEST(ChemkinParser, UnsupportedFeaturesFailLoudly) {
  // Auxiliary keywords opsplit does not implement: UNSUPPORTED at their line.
  const std::vector<std::pair<std::string, std::string>> keywords = {
      {"CHEB", "CHEB /4 2/"},        {"TDEP", "TDEP /H2O/"},     {"EXCI", "EXCI /1.0/"},
      {"JAN", "JAN /1 2 3 4 5 6 7 8 9/"}, {"FIT1", "FIT1 /1 2 3 4/"}, {"MOME", "MOME"},
      {"XSMI", "XSMI"},              {"LT", "LT /1.0 2.0/"},     {"RLT", "RLT /1.0 2.0/"},
      {"HV", "HV /300.0/"},          {"UNITS", "UNITS /KCAL/"},  {"TCHEB", "TCHEB /300 2000/"}};
  for (const auto& [keyword, line] : keywords) {
    SCOPED_TRACE(keyword);
    const std::string text = chemkin_with(kGood + "2 O + M <=> O2 + M   1.2E+17 -1.0 0.0\n" + line + "\n");
    expect_error(load_text(text), OPSPLIT_ERROR_UNSUPPORTED,
                 {at(text, line), "reaction 2 (2 O + M <=> O2 + M)", "auxiliary keyword " + keyword + " is not supported"});
  }
  const std::string photon = chemkin_with("H2O2 + HV => 2 OH   1.0 0.0 0.0\n");
  expect_error(load_text(photon), OPSPLIT_ERROR_UNSUPPORTED, {at(photon, "H2O2 + HV"), "HV (a photon)"});
  const std::string site = chemkin_with(kGood) + "SITE/PT_SURFACE/ SDEN/2.7E-9/\nPT(S)\nEND\n";
  expect_error(load_text(site), OPSPLIT_ERROR_UNSUPPORTED, {at(site, "SITE/"), "surface mechanisms"});
  const std::string nasa9 = chemkin_with(kGood, {{"THERMO ALL", "THERMO NASA9"}});
  expect_error(load_text(nasa9), OPSPLIT_ERROR_UNSUPPORTED, {at(nasa9, "THERMO NASA9"), "NASA-9"});
  const std::string mw = chemkin_with(kGood, {}, "REACTIONS MWON");
  expect_error(load_text(mw), OPSPLIT_ERROR_UNSUPPORTED, {at(mw, "REACTIONS MWON"), "MWON"});
  const std::string custom = chemkin_with(kGood, {{"O  H  ar\nN\nend", "O  H  ar\nN  D/2.014/\nend"}});
  expect_error(load_text(custom), OPSPLIT_ERROR_UNSUPPORTED, {at(custom, "N  D/2.014/"), "D/2.014/", "custom elements"});
  const std::string unknown_element = chemkin_with(kGood, {{"O  H  ar\nN\nend", "O  H  ar\nN  Xq\nend"}});
  expect_error(load_text(unknown_element), OPSPLIT_ERROR_UNSUPPORTED, {at(unknown_element, "N  Xq"), "\"Xq\""});
  const std::string solid = chemkin_with(kGood, {{"120186AR  1               G300", "120186AR  1               S300"}});
  expect_error(load_text(solid), OPSPLIT_ERROR_UNSUPPORTED, {at(solid, "120186AR"), "species \"AR\"", "phase 'S'"});
  const std::string continued = chemkin_with(kGood, {{"G300.000   5000.000  5000.000      1", "G300.000   5000.000  5000.000      1&"}});
  expect_error(load_text(continued), OPSPLIT_ERROR_UNSUPPORTED, {at(continued, "120186AR"), "('&')"});
  const std::string ford = chemkin_with("O + H2 <=> H + OH   1.0 0.0 0.0\nFORD /H2 0.5/\n");
  expect_error(load_text(ford), OPSPLIT_ERROR_UNSUPPORTED, {at(ford, "FORD /H2"), "FORD on a reversible reaction without REV"});
  const std::string rord = chemkin_with("O + H2 <=> H + OH   1.0 0.0 0.0\nRORD /OH 0.5/\n");
  expect_error(load_text(rord), OPSPLIT_ERROR_UNSUPPORTED, {at(rord, "RORD /OH"), "RORD is supported only with a nonzero REV"});
  const std::string rev = chemkin_with("H + OH (+M) <=> H2O (+M)  1.0E+14 0.0 0.0\nLOW /4.0E+22 -2.0 0.0/\nREV /1.0 0.0 0.0/\n");
  expect_error(load_text(rev), OPSPLIT_ERROR_UNSUPPORTED, {at(rev, "REV /1.0"), "REV on a falloff"});
}

TEST(ChemkinParser, IoErrors) {
  test::Context ctx(OPSPLIT_BACKEND_CPU);
  opsplit_mechanism mech = nullptr;
  const std::string h2o2 = mechanism_file("h2o2.inp");
  EXPECT_EQ(opsplit_mechanism_load_chemkin(ctx, h2o2.c_str(), "/no/such/thermo.dat", &mech), OPSPLIT_ERROR_IO);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("cannot read \"/no/such/thermo.dat\""), std::string::npos)
      << opsplit_last_error_message();
  EXPECT_EQ(opsplit_mechanism_load_chemkin(ctx, "/no/such/mech.inp", nullptr, &mech), OPSPLIT_ERROR_IO);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("/no/such/mech.inp"), std::string::npos);
  EXPECT_EQ(opsplit_mechanism_load_chemkin(ctx, testing::TempDir().c_str(), nullptr, &mech), OPSPLIT_ERROR_IO);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("is a directory"), std::string::npos)
      << opsplit_last_error_message();
  EXPECT_EQ(opsplit_mechanism_load_chemkin(ctx, h2o2.c_str(), testing::TempDir().c_str(), &mech), OPSPLIT_ERROR_IO);
  EXPECT_NE(std::string(opsplit_last_error_message()).find("is a directory"), std::string::npos);
  EXPECT_EQ(mech, nullptr);
}

// Malformed entries: PARSE, the file and line, and what is wrong.
TEST(ChemkinParser, MalformedEntries) {
  struct Case {
    std::string text, marker;
    std::vector<std::string> words;
  };
  const std::string two_m = "H + OH (+M) <=> H2O (+M)  1.0E+14 0.0 0.0\n";
  const std::vector<Case> cases = {
      {chemkin_with(kGood) + "FOO\n", "FOO", {"\"FOO\" is outside any section"}},
      {chemkin_with(kGood, {{"HO2  H2O2  AR  N2", "HO2  H2O2  AR  N2  H2"}}), "HO2  H2O2  AR  N2  H2",
       {"species \"H2\" is declared twice"}},
      {chemkin_with(kGood, {{"O  H  ar\nN\nend", "O  H\nN\nend"}}), "120186AR", {"species \"AR\"", "element \"AR\" is not declared"}},
      {chemkin_with(kGood, {{"5000.000  5000.000      1", "5000.000  5000.000       "}}), "120186AR",
       {"is not the first line of a NASA-7 entry"}},
      {chemkin_with(two_m), "H + OH (+M)", {"reaction 1 (H + OH (+M) <=> H2O (+M))", "needs LOW (falloff) or HIGH"}},
      {chemkin_with("O + H2 <=> H + OH  1.0 0.0 0.0\nLOW /1.0 0.0 0.0/\n"), "LOW", {"LOW needs (+M)"}},
      {chemkin_with(two_m + "LOW /1.0 0.0 0.0/\nHIGH /1.0 0.0 0.0/\n"), "HIGH", {"both LOW and HIGH"}},
      {chemkin_with(two_m + "LOW /1.0 0.0 0.0/\nTROE /0.5 100.0/\n"), "TROE", {"TROE /0.5 100.0/ has 2 values; it needs 3 or 4"}},
      {chemkin_with(two_m + "LOW /1.0 0.0 0.0/\nSRI /0.5 100.0 10.0 1.0/\n"), "SRI", {"has 4 values; it needs 3 or 5"}},
      {chemkin_with(two_m + "LOW 1.0 0.0 0.0\n"), "LOW 1.0", {"LOW needs its values between slashes"}},
      {chemkin_with(two_m + "LOW /1.0 0.0 0.0\n"), "LOW /1.0", {"LOW: no closing '/'"}},
      {chemkin_with("H + OH (+M) <=> H2O + M  1.0 0.0 0.0\n"), "H + OH (+M)", {"the third bodies of the two sides differ"}},
      {chemkin_with("O + H2 <= H + OH  1.0 0.0 0.0\n"), "O + H2 <=", {"'<=' is not an arrow"}},
      {chemkin_with("O + H2 = H + OH = H2O  1.0 0.0 0.0\n"), "O + H2 = H", {"more than one arrow"}},
      {chemkin_with("O + H2 => H + OH  1.0 0.0 0.0\nREV /1.0 0.0 0.0/\n"), "REV /1.0", {"REV on an irreversible reaction"}},
      {chemkin_with("O + H2 <=> H + OH  1.0\n"), "O + H2 <=> H + OH  1.0", {"A \"+\" is not a number"}},
      {chemkin_with("O + H2 <=> H  1.0\n"), "O + H2 <=> H  1.0", {"is not a reaction line"}},
      {chemkin_with("O + H2 <=> H + OH + 1.0 0.0 0.0\n"), "O + H2 <=> H + OH +", {"ends with '+'"}},
      {chemkin_with("O + 0 H2 <=> H + OH  1.0 0.0 0.0\n"), "O + 0 H2", {"coefficient \"0\" is not a positive number"}},
      {chemkin_with("DUP\n" + kGood), "DUP\nO + H2", {"\"DUP\" comes before the first reaction"}},
      {chemkin_with(kGood, {}, "REACTIONS FURLONGS"), "REACTIONS FURLONGS", {"\"FURLONGS\" on the REACTIONS line"}},
      {chemkin_with(kGood, {}, "REACTIONS KCAL/MOLE KELVINS"), "REACTIONS KCAL", {"two energy units"}},
      {chemkin_with("H2 + O2 => H + HO2   7.4E+05 2.43 53460.0\nFORD /H2 0.5/ FORD /H2 0.7/\n"), "FORD /H2 0.5",
       {"FORD of \"H2\" is given twice"}},
      {chemkin_with("2 O + M <=> O2 + M   1.2E+17 -1.0 0.0\nH2/2.4/ H2/2.0/\n"), "H2/2.4/", {"efficiency of \"H2\" is given twice"}},
      {chemkin_with("O + H2 <=> H + OH  1.0 0.0 0.0\nH2/2.4/\n"), "H2/2.4/", {"efficiencies need the third body +M or (+M)"}},
      {chemkin_with("H + HO2 <=> 2 OH  1.0 0.0 0.0\nPLOG /1.0 -1.0 0.0 0.0/\n"), "PLOG /1.0", {"negative A needs another rate"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.marker);
    std::vector<std::string> words = c.words;
    words.push_back(at(c.text, c.marker));
    expect_error(load_text(c.text), OPSPLIT_ERROR_PARSE, words);
  }
  // A second thermo entry for a species in one file.
  const std::string features = read_file(mechanism_file("features.inp"));
  const std::string n2 = features.substr(features.find("N2                121286"), 4 * 81);
  const std::string twice = chemkin_with(kGood, {{n2, n2 + n2}});
  const size_t second = twice.find(n2) + n2.size();
  expect_error(load_text(twice), OPSPLIT_ERROR_PARSE,
               {kCase + ":" + std::to_string(std::count(twice.begin(), twice.begin() + static_cast<long>(second), '\n') + 1),
                "a second thermo entry for species \"N2\""});
  // A missing line of an entry.
  const std::string cut = chemkin_with(kGood, {{n2.substr(3 * 81), ""}});
  expect_error(load_text(cut), OPSPLIT_ERROR_PARSE, {"has no line 4"});
  // Text after END on its line is a comment (as ck2yaml reads it): H2 there is not
  // declared again.
  const std::string after = chemkin_with(kGood, {{"HO2  H2O2  AR  N2\nEND", "HO2  H2O2  AR  N2\nEND H2"}});
  EXPECT_EQ(load_text(after).status, OPSPLIT_SUCCESS);
}
