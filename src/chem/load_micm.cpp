// MICM mechanism configurations (NCAR MechanismConfiguration; docs/research/micm_format.md)
// read into a built mass-action mechanism: v1 files (YAML or JSON, both read with
// yaml-cpp) and v0 CAMP configurations (config.json naming the species and reaction
// files). Each reaction's rate constant becomes a rate expression of MICM's laws
// (chem/rate_laws.hpp) over TEMP, PRESS, M and the reaction's own per-cell inputs, so
// that both backends evaluate them as they do every other rate. Third-body and
// constant species leave the state and multiply the rates of the reactions they are
// reactants of, as in MICM.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "chem/loaders.hpp"
#include "chem/mechanism.hpp"
#include "chem/rate_expression.hpp"
#include "chem/rate_laws.hpp"
#include "chem/yaml_file.hpp"
#include "core/error.hpp"

namespace opsplit::chem {
namespace {

constexpr double kBoltzmann = 1.380649e-23;  // J/K: v1 and v0's Ea (J) as C = -Ea/k_B
// v0's rate constants are in molecule cm^-3 units; MICM's in mol m^-3: (N_A 1e-6)^order.
constexpr double kMolPerM3ToMoleculesPerCm3 = 6.02214076e23 * 1.0e-6;
// Parameters 0, 1, 2: the conditions every MICM rate law may read; the reactions' own
// inputs follow them.
constexpr const char* kConditions[] = {"TEMP", "PRESS", "M"};
constexpr int kFirstReactionInput = 3;
constexpr int kMaxReactantCount = 16;     // copies of one reactant (MICM's orders are small)
constexpr size_t kMaxCampFiles = 256;     // v0 files one configuration may list

std::string number_text(double x) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.17g", x);
  return x < 0 ? "(" + std::string(buffer) + ")" : std::string(buffer);
}

bool contains_comment_mark(const std::string& key) { return key.find("__") != std::string::npos; }

struct MicmSpecies {
  int index = -1;               // in the mechanism; -1: not in the state
  std::string multiplier;       // third body or constant: its rate factor ("M", "(x*M)", "c")
  bool in_gas_phase = false;
  double molecular_weight = NAN;  // kg/mol
  double diffusion = NAN;         // m^2/s, the gas phase's (v1) or the species' (v0)
};

// A reactant or product as written: species, amount (v0 qty or yield, v1 coefficient).
struct Component {
  std::string species;
  double amount;
  YAML::Node where;
};

class MicmReader {
 public:
  // Names the conditions (parameters 0-2) in `mech`.
  explicit MicmReader(Mechanism& mech) : mech_(mech) {
    for (int p = 0; p < kFirstReactionInput; ++p) mech_.name_parameter(p, kConditions[p]);
    names_.input = [](const std::string& name, int index) {
      if (index >= 0) return name == "IN" ? index : -1;  // IN(n): parameter n, a reaction's input
      for (int p = 0; p < kFirstReactionInput; ++p)
        if (name == kConditions[p]) return p;
      return -1;
    };
    names_.functions = micm_rate_laws();
  }

  // Reads the configuration at `path`; yaml-cpp's faults become PARSE at their file.
  void read(const std::string& path) {
    try {
      read_configuration(path);
    } catch (const YAML::Exception& e) {
      file_.fail_at(e);
    }
  }

 private:
  void read_configuration(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    std::string file = path;
    if (fs::is_directory(path, ec)) {  // a v0 configuration's directory, as MICM takes it
      file = (fs::path(path) / "config.yaml").string();
      if (!fs::exists(file, ec)) file = (fs::path(path) / "config.json").string();
    }
    const YAML::Node root = load(file);
    if (!root.IsMap()) parse_error(root, "the configuration is not a map of keys");
    if (root["camp-files"].IsDefined()) {
      read_v0(root, fs::path(file).parent_path());
    } else if (root["version"].IsDefined()) {
      read_v1(root);
    } else {
      parse_error(root, "neither a v1 configuration (no \"version\") nor a v0 one (no \"camp-files\")");
    }
  }

  Mechanism& mech_;
  YamlFile file_{""};  // the file whose nodes are being read, for messages
  std::vector<std::string> order_;  // species names in file order
  std::map<std::string, MicmSpecies> species_;
  std::set<std::string> labels_;  // reaction inputs, upper case (as parameters match names)
  int next_input_ = kFirstReactionInput;
  RateNames names_;  // what the rates' expressions read: the conditions, IN(n) and MICM's laws

  // ---- reading values ------------------------------------------------------------
  YAML::Node load(const std::string& file) {
    file_ = YamlFile(file);
    return file_.load();
  }
  std::string at(const YAML::Node& node) const { return file_.at(node); }
  [[noreturn]] void parse_error(const YAML::Node& node, const std::string& message) const {
    file_.parse_error(node, message);
  }
  std::string text(const YAML::Node& node, const std::string& what) const { return file_.text(node, what); }
  double number(const YAML::Node& node, const std::string& what) const {
    const std::string s = text(node, what);
    char* end = nullptr;
    const double x = std::strtod(s.c_str(), &end);
    if (end == s.c_str() || *end != '\0' || !std::isfinite(x)) parse_error(node, what + " \"" + s + "\" is not a finite number");
    return x;
  }
  double number_or(const YAML::Node& map, const char* key, double fallback, const std::string& what) const {
    const YAML::Node n = map[key];
    return n.IsDefined() ? number(n, what + " " + key) : fallback;
  }
  bool flag(const YAML::Node& node, const std::string& what) const {
    const std::string s = text(node, what);
    if (s == "true" || s == "True" || s == "TRUE") return true;
    if (s == "false" || s == "False" || s == "FALSE") return false;
    parse_error(node, what + " \"" + s + "\" is not true or false");
  }
  YAML::Node sequence(const YAML::Node& node, const std::string& what) const {
    if (!node.IsDefined() || !node.IsSequence()) parse_error(node, what + " is missing or not a list");
    return node;
  }
  // Keys outside `allowed` are refused, as MICM refuses them, except comments: any key
  // with "__" in it.
  void check_keys(const YAML::Node& map, const std::string& what, std::initializer_list<const char*> allowed) const {
    if (!map.IsMap()) parse_error(map, what + " is not a map of keys");
    for (const auto& entry : map) {
      const std::string key = text(entry.first, what + " key");
      if (contains_comment_mark(key)) continue;
      if (std::none_of(allowed.begin(), allowed.end(), [&](const char* k) { return key == k; }))
        parse_error(entry.first, "\"" + key + "\" is not a key of " + what);
    }
  }

  // ---- species ---------------------------------------------------------------------
  MicmSpecies& declare(const std::string& name, const YAML::Node& where) {
    if (name.empty()) parse_error(where, "a species has an empty name");
    if (species_.count(name)) parse_error(where, "species \"" + name + "\" is declared twice");
    order_.push_back(name);
    return species_[name];
  }
  // The state: the gas-phase species that are neither third bodies nor constant.
  void add_state_species() {
    for (const std::string& name : order_) {
      MicmSpecies& s = species_[name];
      if (s.in_gas_phase && s.multiplier.empty()) s.index = mech_.add_species(name.c_str());
    }
  }
  const MicmSpecies& known(const std::string& name, const YAML::Node& where, const std::string& what) const {
    const auto it = species_.find(name);
    if (it == species_.end()) parse_error(where, what + ": unknown species \"" + name + "\"");
    return it->second;
  }

  // ---- reactions -------------------------------------------------------------------
  // A new per-system input for a reaction, named as MICM's state names it.
  std::string input(const std::string& label, const YAML::Node& where) {
    if (!labels_.insert(upper_case(label)).second)
      parse_error(where, "two reactions have the input \"" + label + "\" (MICM's labels must differ)");
    if (next_input_ >= kMaxSystemParameters)
      parse_error(where, "more than " + std::to_string(kMaxSystemParameters - kFirstReactionInput) + " reaction inputs");
    try {
      mech_.name_parameter(next_input_, label.c_str());
    } catch (const Error& e) {
      parse_error(where, std::string("input \"") + label + "\": " + e.what());
    }
    return "IN(" + std::to_string(next_input_++) + ")";
  }

  // Adds `reactants -> products` with rate constant `rate` (an expression of MICM's laws
  // over TEMP, PRESS, M and IN(n)).
  void add_reaction(const YAML::Node& where, const std::string& what, const std::vector<Component>& reactants,
                    const std::vector<Component>& products, std::string rate) {
    std::vector<int> rs, rc, ps;
    std::vector<double> yields;
    for (const Component& c : reactants) {
      const MicmSpecies& s = known(c.species, c.where, what);
      if (!(c.amount >= 1 && c.amount <= kMaxReactantCount && c.amount == std::floor(c.amount)))
        parse_error(c.where, what + ": reactant " + c.species + "'s coefficient " + number_text(c.amount) +
                                 " is not a whole number in [1, " + std::to_string(kMaxReactantCount) +
                                 "] (a rate law's order; MICM rounds it up)");
      if (!s.in_gas_phase) parse_error(c.where, what + ": reactant " + c.species + " is not in the gas phase");
      if (!s.multiplier.empty()) {
        for (int i = 0; i < static_cast<int>(c.amount); ++i) rate += "*" + s.multiplier;
        continue;
      }
      rs.push_back(s.index);
      rc.push_back(static_cast<int>(c.amount));
    }
    for (const Component& c : products) {
      const MicmSpecies& s = known(c.species, c.where, what);
      if (s.index < 0 || c.amount == 0.0) continue;  // third bodies and constants stay as they are
      ps.push_back(s.index);
      yields.push_back(c.amount);
    }
    if (rs.empty() && ps.empty()) return;  // it changes no species of the state
    int reaction = -1;
    try {
      reaction = mech_.add_reaction(static_cast<int>(rs.size()), rs.data(), rc.data(), static_cast<int>(ps.size()),
                                    ps.data(), nullptr, yields.data());
    } catch (const Error& e) {
      parse_error(where, what + ": " + e.what());
    }
    RateProgram program;
    RateError error;
    if (!compile_rate_expression(rate, names_, program, error))
      parse_error(where, what + ": its rate \"" + rate + "\" does not compile: " + error.message);
    mech_.set_rate_program(reaction, std::move(program));
  }

  // A law's call text: NAME(a, b, ...).
  static std::string call(const char* law, std::initializer_list<double> args) {
    std::string s = std::string(law) + "(";
    for (const double a : args) s += (s.back() == '(' ? "" : ", ") + number_text(a);
    return s + ")";
  }
  // "scaling*input" of the reactions whose rate the host gives per cell.
  std::string scaled_input(const YAML::Node& r, const std::string& prefix, const std::string& name,
                           const std::string& what) {
    const double scaling = number_or(r, "scaling factor", 1.0, what);
    return number_text(scaling) + "*" + input(prefix + name, r);
  }

  // ARRHENIUS's C, from C or from Ea (J): C = -Ea/k_B. v1 refuses both; v0 both when C != 0.
  double arrhenius_c(const YAML::Node& r, const std::string& what, bool v0) const {
    const YAML::Node ea = r["Ea"];
    const double c = number_or(r, "C", 0.0, what);
    if (ea.IsDefined()) {
      if (r["C"].IsDefined() && (!v0 || c != 0.0)) parse_error(ea, what + ": both Ea and C");
      return -number(ea, what + " Ea") / kBoltzmann;
    }
    return c;
  }
  std::string arrhenius(const YAML::Node& r, const std::string& what, double a_factor, bool v0) const {
    return call("ARRHENIUS", {number_or(r, "A", 1.0, what) * a_factor, number_or(r, "B", 0.0, what),
                              arrhenius_c(r, what, v0), number_or(r, "D", 300.0, what), number_or(r, "E", 0.0, what)});
  }
  std::string falloff(const char* law, const YAML::Node& r, const std::string& what, double k0_factor,
                      double kinf_factor) const {
    return call(law, {number_or(r, "k0_A", 1.0, what) * k0_factor, number_or(r, "k0_B", 0.0, what),
                      number_or(r, "k0_C", 0.0, what), number_or(r, "kinf_A", 1.0, what) * kinf_factor,
                      number_or(r, "kinf_B", 0.0, what), number_or(r, "kinf_C", 0.0, what),
                      number_or(r, "Fc", 0.6, what), number_or(r, "N", 1.0, what)});
  }
  std::string tunneling(const YAML::Node& r, const std::string& what, double a_factor) const {
    return call("TUNNELING", {number_or(r, "A", 1.0, what) * a_factor, number_or(r, "B", 0.0, what),
                              number_or(r, "C", 0.0, what)});
  }
  // Wennberg's branching: two reactions, alkoxy then nitrate. X, Y, a0 and n are needed
  // (MICM gives them no defaults); n counts heavy atoms, a whole number.
  void branched(const YAML::Node& r, const std::string& what, const std::vector<Component>& reactants,
                const std::vector<Component>& alkoxy, const std::vector<Component>& nitrate, double x_factor) {
    const double x = number(r["X"], what + " X") * x_factor, y = number(r["Y"], what + " Y"),
                 a0 = number(r["a0"], what + " a0"), n = number(r["n"], what + " n");
    if (!(a0 > 0.0 && a0 < 1.0)) parse_error(r["a0"], what + ": a0 " + number_text(a0) + " is not in (0, 1)");
    if (n != std::floor(n) || std::fabs(n) > 1000) parse_error(r["n"], what + ": n " + number_text(n) + " is not a whole number");
    add_reaction(r, what + " (alkoxy branch)", reactants, alkoxy, call("BRANCHED_ALKOXY", {x, y, a0, n}));
    add_reaction(r, what + " (nitrate branch)", reactants, nitrate, call("BRANCHED_NITRATE", {x, y, a0, n}));
  }
  // The surface rate's text for `species` with its two per-cell inputs.
  std::string surface(const YAML::Node& r, const std::string& name, const std::string& species, const YAML::Node& where,
                      const std::string& what) {
    const MicmSpecies& s = known(species, where, what);
    if (!(s.molecular_weight > 0.0))
      parse_error(where, what + ": species " + species + " has no positive molecular weight [kg mol-1]");
    if (!(s.diffusion > 0.0))
      parse_error(where, what + ": species " + species + " has no positive diffusion coefficient [m2 s-1]");
    const double gamma = number_or(r, "reaction probability", 1.0, what);
    if (!(gamma >= 0.0 && gamma <= 1.0)) parse_error(r, what + ": reaction probability " + number_text(gamma) + " is not in [0, 1]");
    const std::string radius = input("SURF." + name + ".effective radius [m]", r);
    const std::string count = input("SURF." + name + ".particle number concentration [# m-3]", r);
    return "SURFACE(" + radius + ", " + count + ", " + number_text(s.diffusion) + ", " + number_text(s.molecular_weight) +
           ", " + number_text(gamma) + ")";
  }

  // ---- v1 --------------------------------------------------------------------------
  void read_v1(const YAML::Node& root) {
    check_keys(root, "a v1 configuration",
               {"version", "name", "species", "phases", "reactions", "aerosol representations", "aerosol processes",
                "emissions"});
    const std::string version = text(root["version"], "version");
    int major = -1, minor = -1, patch = -1;
    char extra = 0;
    if (std::sscanf(version.c_str(), "%d.%d.%d%c", &major, &minor, &patch, &extra) != 3 || major != 1)
      parse_error(root["version"], "version \"" + version + "\" is not 1.x.y");
    const YAML::Node species = root["species"];
    if (species.IsMap() && species["files"].IsDefined())
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(species) + ": species from a list of files are not read; list them inline");
    for (const YAML::Node& s : sequence(species, "species")) {
      check_keys(s, "a species", {"name", "is third body", "constant concentration [mol m-3]",
                                  "constant mixing ratio [mol mol-1]", "molecular weight [kg mol-1]",
                                  "absolute tolerance", "HLC(298K) [mol m-3 Pa-1]", "HLC exponential factor [K]",
                                  "N star"});
      MicmSpecies& info = declare(text(s["name"], "a species' name"), s);
      if (s["molecular weight [kg mol-1]"].IsDefined())
        info.molecular_weight = number(s["molecular weight [kg mol-1]"], "molecular weight");
      if (s["is third body"].IsDefined() && flag(s["is third body"], "is third body")) info.multiplier = "M";
      // MICM: the mixing ratio wins over a concentration given beside it.
      if (s["constant concentration [mol m-3]"].IsDefined())
        info.multiplier = number_text(number(s["constant concentration [mol m-3]"], "constant concentration"));
      if (s["constant mixing ratio [mol mol-1]"].IsDefined())
        info.multiplier = "(" + number_text(number(s["constant mixing ratio [mol mol-1]"], "constant mixing ratio")) + "*M)";
    }
    const YAML::Node phases = root["phases"];
    if (phases.IsMap() && phases["files"].IsDefined())
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(phases) + ": phases from a list of files are not read; list them inline");
    const std::string gas = read_gas_phase(sequence(phases, "phases"));
    add_state_species();
    const YAML::Node reactions = root["reactions"];
    if (!reactions.IsDefined()) return;  // a configuration of aerosol processes only
    if (reactions.IsMap() && reactions["files"].IsDefined())
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(reactions) + ": reactions from a list of files are not read; list them inline");
    int count = 0;
    for (const YAML::Node& r : sequence(reactions, "reactions")) read_v1_reaction(r, gas, ++count);
  }

  // The phase MICM solves: the one named "gas", or the only one. Its species are marked.
  std::string read_gas_phase(const YAML::Node& phases) {
    YAML::Node p;  // the chosen phase
    std::set<std::string> names;
    for (const YAML::Node& phase : phases) {
      check_keys(phase, "a phase", {"name", "species"});
      const std::string name = text(phase["name"], "a phase's name");
      if (!names.insert(name).second) parse_error(phase, "phase \"" + name + "\" is declared twice");
      if (name == "gas" || phases.size() == 1) p.reset(phase);
    }
    if (!p.IsDefined() || p.IsNull()) parse_error(phases, "no phase is named \"gas\"");
    for (const YAML::Node& entry : sequence(p["species"], "the gas phase's species")) {
      std::string name;
      if (entry.IsMap()) {
        check_keys(entry, "a phase species", {"name", "diffusion coefficient [m2 s-1]", "density [kg m-3]"});
        name = text(entry["name"], "a phase species' name");
      } else {
        name = text(entry, "a phase species' name");
      }
      const auto it = species_.find(name);
      if (it == species_.end()) parse_error(entry, "the gas phase lists unknown species \"" + name + "\"");
      if (it->second.in_gas_phase) parse_error(entry, "the gas phase lists \"" + name + "\" twice");
      it->second.in_gas_phase = true;
      if (entry.IsMap() && entry["diffusion coefficient [m2 s-1]"].IsDefined())
        it->second.diffusion = number(entry["diffusion coefficient [m2 s-1]"], "diffusion coefficient");
    }
    return text(p["name"], "a phase's name");
  }

  std::vector<Component> v1_components(const YAML::Node& list, const std::string& what) const {
    std::vector<Component> out;
    for (const YAML::Node& c : sequence(list, what)) {
      check_keys(c, what + " entry", {"name", "species name", "coefficient"});
      if (c["name"].IsDefined() == c["species name"].IsDefined())
        parse_error(c, what + ": an entry needs one of \"name\" and \"species name\"");
      const std::string name = text(c["name"].IsDefined() ? c["name"] : c["species name"], what + " name");
      out.push_back({name, number_or(c, "coefficient", 1.0, what), c});
    }
    return out;
  }

  void read_v1_reaction(const YAML::Node& r, const std::string& gas, int count) {
    if (!r.IsMap()) parse_error(r, "reaction " + std::to_string(count) + " is not a map of keys");
    const std::string type = text(r["type"], "reaction " + std::to_string(count) + "'s type");
    const std::string name = r["name"].IsDefined() ? text(r["name"], "a reaction's name") : "";
    const std::string what = type + " reaction " + std::to_string(count) + (name.empty() ? "" : " (" + name + ")");
    if (type == "LAMBDA_RATE_CONSTANT")
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(r) + ": " + what + ": a lambda's rate is code MICM's host registers, not data");
    if (text(r["gas phase"], what + ": gas phase") != gas)
      parse_error(r["gas phase"], what + ": phase \"" + r["gas phase"].Scalar() + "\" is not the gas phase \"" + gas + "\"");
    auto reactants = [&] { return v1_components(r["reactants"], what + ": reactants"); };
    auto products = [&] {
      return r["products"].IsDefined() ? v1_components(r["products"], what + ": products") : std::vector<Component>{};
    };
    auto one_reactant = [&] {
      std::vector<Component> list = reactants();
      if (list.size() != 1) parse_error(r["reactants"], what + ": needs exactly one reactant, not " + std::to_string(list.size()));
      return list;
    };
    if (type == "ARRHENIUS") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "products", "A", "B", "C", "D", "E", "Ea"});
      add_reaction(r, what, reactants(), products(), arrhenius(r, what, 1.0, false));
    } else if (type == "TROE" || type == "TERNARY_CHEMICAL_ACTIVATION") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "products", "k0_A", "k0_B", "k0_C", "kinf_A",
                           "kinf_B", "kinf_C", "Fc", "N"});
      add_reaction(r, what, reactants(), products(), falloff(type.c_str(), r, what, 1.0, 1.0));
    } else if (type == "TERNARY_CHEMICAL_ACTIVATION_JPL19") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "products", "k0_A", "k0_B", "k0_C", "k0_D",
                           "kinf_A", "kinf_B", "kinf_C", "kinf_D", "kint_A", "kint_B", "kint_C", "kint_D", "Fc", "N"});
      std::initializer_list<double> args = {
          number_or(r, "k0_A", 1.0, what),   number_or(r, "k0_B", 0.0, what),   number_or(r, "k0_C", 0.0, what),
          number_or(r, "k0_D", 298.0, what), number_or(r, "kinf_A", 1.0, what), number_or(r, "kinf_B", 0.0, what),
          number_or(r, "kinf_C", 0.0, what), number_or(r, "kinf_D", 298.0, what), number_or(r, "kint_A", 1.0, what),
          number_or(r, "kint_B", 0.0, what), number_or(r, "kint_C", 0.0, what), number_or(r, "kint_D", 298.0, what),
          number_or(r, "Fc", 0.6, what),     number_or(r, "N", 1.0, what)};
      add_reaction(r, what, reactants(), products(), call("TERNARY_CHEMICAL_ACTIVATION_JPL19", args));
    } else if (type == "BRANCHED_NO_RO2") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "alkoxy products", "nitrate products", "X", "Y",
                           "a0", "n"});
      branched(r, what, reactants(), v1_components(r["alkoxy products"], what + ": alkoxy products"),
               v1_components(r["nitrate products"], what + ": nitrate products"), 1.0);
    } else if (type == "TUNNELING") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "products", "A", "B", "C"});
      add_reaction(r, what, reactants(), products(), tunneling(r, what, 1.0));
    } else if (type == "TAYLOR_SERIES") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "products", "A", "B", "C", "D", "E", "Ea",
                           "taylor coefficients"});
      std::string polynomial;  // sum of c_j TEMP^j
      const YAML::Node cs = r["taylor coefficients"];
      if (cs.IsDefined()) {
        int j = 0;
        for (const YAML::Node& c : sequence(cs, what + ": taylor coefficients")) {
          if (j == 16) parse_error(cs, what + ": more than 16 taylor coefficients");
          polynomial += (j ? "+" : "") + number_text(number(c, what + " taylor coefficient")) +
                        (j ? "*TEMP**" + std::to_string(j) : "");
          ++j;
        }
      }
      const std::string k = arrhenius(r, what, 1.0, false);
      add_reaction(r, what, reactants(), products(), polynomial.empty() ? k : "(" + polynomial + ")*" + k);
    } else if (type == "PHOTOLYSIS" || type == "FIRST_ORDER_LOSS") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "products", "scaling factor"});
      const std::string prefix = type == "PHOTOLYSIS" ? "PHOTO." : "LOSS.";
      add_reaction(r, what, one_reactant(), products(), scaled_input(r, prefix, name, what));
    } else if (type == "EMISSION") {
      check_keys(r, what, {"type", "name", "gas phase", "products", "scaling factor"});
      add_reaction(r, what, {}, products(), scaled_input(r, "EMIS.", name, what));
    } else if (type == "USER_DEFINED") {
      check_keys(r, what, {"type", "name", "gas phase", "reactants", "products", "scaling factor"});
      add_reaction(r, what, reactants(), products(), scaled_input(r, "USER.", name, what));
    } else if (type == "SURFACE") {
      check_keys(r, what, {"type", "name", "gas phase", "gas-phase species", "gas-phase products",
                           "reaction probability", "condensed phase"});
      const std::string species = text(r["gas-phase species"], what + ": gas-phase species");
      add_reaction(r, what, {{species, 1.0, r["gas-phase species"]}},
                   v1_components(r["gas-phase products"], what + ": gas-phase products"),
                   surface(r, name, species, r["gas-phase species"], what));
    } else {
      parse_error(r["type"], what + ": unknown reaction type \"" + type + "\"");
    }
  }

  // ---- v0 (CAMP) -------------------------------------------------------------------
  struct Entry {
    std::string file;
    YAML::Node node;
  };

  void read_v0(const YAML::Node& config, const std::filesystem::path& dir) {
    check_keys(config, "a v0 configuration", {"camp-files"});
    std::vector<std::string> files;
    for (const YAML::Node& f : sequence(config["camp-files"], "camp-files")) {
      if (files.size() == kMaxCampFiles) parse_error(f, "more than " + std::to_string(kMaxCampFiles) + " camp-files");
      files.push_back((dir / text(f, "a camp-files entry")).string());
    }
    std::vector<Entry> reactions;
    for (const std::string& file : files) {
      const YAML::Node root = load(file);
      if (!root.IsMap()) parse_error(root, "a CAMP file is not a map of keys");
      check_keys(root, "a CAMP file", {"camp-data"});
      for (const YAML::Node& d : sequence(root["camp-data"], "camp-data")) {
        if (!d.IsMap()) parse_error(d, "a camp-data entry is not a map of keys");
        const std::string type = text(d["type"], "a camp-data entry's type");
        if (type == "CHEM_SPEC") {
          read_v0_species(d);
        } else if (type == "RELATIVE_TOLERANCE") {
          check_keys(d, "RELATIVE_TOLERANCE", {"type", "value"});  // the host's choice in opsplit
        } else if (type == "MECHANISM") {
          check_keys(d, "a MECHANISM", {"type", "name", "reactions"});
          for (const YAML::Node& r : sequence(d["reactions"], "a MECHANISM's reactions")) reactions.push_back({file, r});
        } else {
          reactions.push_back({file, d});  // a reaction given at the top level
        }
      }
    }
    for (auto& [name, s] : species_) s.in_gas_phase = true;  // v0: one gas phase of every species
    add_state_species();
    int count = 0;
    for (const Entry& e : reactions) {
      file_ = YamlFile(e.file);
      read_v0_reaction(e.node, ++count);
    }
  }
  void read_v0_species(const YAML::Node& d) {
    check_keys(d, "a CHEM_SPEC", {"name", "type", "tracer type", "absolute tolerance", "diffusion coefficient [m2 s-1]",
                                  "molecular weight [kg mol-1]"});
    MicmSpecies& info = declare(text(d["name"], "a CHEM_SPEC's name"), d);
    // MICM makes THIRD_BODY the air density; other tracer types (CONSTANT) change nothing.
    if (d["tracer type"].IsDefined() && text(d["tracer type"], "tracer type") == "THIRD_BODY") info.multiplier = "M";
    if (d["molecular weight [kg mol-1]"].IsDefined())
      info.molecular_weight = number(d["molecular weight [kg mol-1]"], "molecular weight");
    if (d["diffusion coefficient [m2 s-1]"].IsDefined())
      info.diffusion = number(d["diffusion coefficient [m2 s-1]"], "diffusion coefficient");
  }

  // v0 sides: {species: {qty: n}} and {species: {yield: y}}.
  std::vector<Component> v0_components(const YAML::Node& map, const std::string& what, const char* amount_key) const {
    if (!map.IsDefined() || !map.IsMap()) parse_error(map, what + " is missing or not a map of species");
    std::vector<Component> out;
    for (const auto& entry : map) {
      const std::string name = text(entry.first, what + " species");
      if (!entry.second.IsNull()) check_keys(entry.second, what + " " + name, {amount_key});
      const double amount = entry.second.IsMap() ? number_or(entry.second, amount_key, 1.0, what) : 1.0;
      out.push_back({name, amount, entry.first});
    }
    return out;
  }
  // The total order of the listed reactants, M included: v0's unit conversion.
  static double order(const std::vector<Component>& reactants) {
    double n = 0;
    for (const Component& c : reactants) n += c.amount;
    return n;
  }

  void read_v0_reaction(const YAML::Node& r, int count) {
    if (!r.IsMap()) parse_error(r, "reaction " + std::to_string(count) + " is not a map of keys");
    const std::string type = text(r["type"], "reaction " + std::to_string(count) + "'s type");
    const std::string name = r["MUSICA name"].IsDefined() ? text(r["MUSICA name"], "MUSICA name") : "";
    const std::string what = type + " reaction " + std::to_string(count) + (name.empty() ? "" : " (" + name + ")");
    auto reactants = [&] { return v0_components(r["reactants"], what + ": reactants", "qty"); };
    auto products = [&] {
      return r["products"].IsDefined() ? v0_components(r["products"], what + ": products", "yield") : std::vector<Component>{};
    };
    auto musica_name = [&] { return text(r["MUSICA name"], what + ": MUSICA name"); };
    if (type == "ARRHENIUS") {
      check_keys(r, what, {"type", "reactants", "products", "A", "B", "C", "D", "E", "Ea", "MUSICA name"});
      const std::vector<Component> in = reactants();
      add_reaction(r, what, in, products(), arrhenius(r, what, std::pow(kMolPerM3ToMoleculesPerCm3, order(in) - 1), true));
    } else if (type == "TROE" || type == "TERNARY_CHEMICAL_ACTIVATION") {
      check_keys(r, what, {"type", "reactants", "products", "k0_A", "k0_B", "k0_C", "kinf_A", "kinf_B", "kinf_C", "Fc", "N"});
      const std::vector<Component> in = reactants();
      const double n = order(in);
      add_reaction(r, what, in, products(),
                   falloff(type.c_str(), r, what, std::pow(kMolPerM3ToMoleculesPerCm3, n),
                           std::pow(kMolPerM3ToMoleculesPerCm3, n - 1)));
    } else if (type == "BRANCHED" || type == "WENNBERG_NO_RO2") {
      check_keys(r, what, {"type", "reactants", "alkoxy products", "nitrate products", "X", "Y", "a0", "n"});
      const std::vector<Component> in = reactants();
      branched(r, what, in, v0_components(r["alkoxy products"], what + ": alkoxy products", "yield"),
               v0_components(r["nitrate products"], what + ": nitrate products", "yield"),
               std::pow(kMolPerM3ToMoleculesPerCm3, order(in) - 1));
    } else if (type == "TUNNELING" || type == "WENNBERG_TUNNELING") {
      check_keys(r, what, {"type", "reactants", "products", "A", "B", "C"});
      const std::vector<Component> in = reactants();
      add_reaction(r, what, in, products(), tunneling(r, what, std::pow(kMolPerM3ToMoleculesPerCm3, order(in) - 1)));
    } else if (type == "PHOTOLYSIS" || type == "USER_DEFINED") {
      check_keys(r, what, {"type", "reactants", "products", "MUSICA name", "scaling factor"});
      add_reaction(r, what, reactants(), products(),
                   scaled_input(r, type == "PHOTOLYSIS" ? "PHOTO." : "USER.", musica_name(), what));
    } else if (type == "EMISSION" || type == "FIRST_ORDER_LOSS") {
      check_keys(r, what, {"type", "species", "MUSICA name", "scaling factor", "products"});
      const Component species{text(r["species"], what + ": species"), 1.0, r["species"]};
      const std::string rate = scaled_input(r, type == "EMISSION" ? "EMIS." : "LOSS.", musica_name(), what);
      if (type == "EMISSION")
        add_reaction(r, what, {}, {species}, rate);  // MICM ignores an EMISSION's products
      else
        add_reaction(r, what, {species}, {}, rate);
    } else if (type == "SURFACE") {
      check_keys(r, what, {"type", "gas-phase reactant", "gas-phase products", "MUSICA name", "reaction probability"});
      const std::string species = text(r["gas-phase reactant"], what + ": gas-phase reactant");
      add_reaction(r, what, {{species, 1.0, r["gas-phase reactant"]}},
                   v0_components(r["gas-phase products"], what + ": gas-phase products", "yield"),
                   surface(r, musica_name(), species, r["gas-phase reactant"], what));
    } else {
      parse_error(r["type"], what + ": unknown reaction type \"" + type + "\"");
    }
  }
};

}  // namespace

void load_micm(Mechanism& mech, const std::string& path) { MicmReader(mech).read(path); }

}  // namespace opsplit::chem
