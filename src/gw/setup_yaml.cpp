// The groundwater module's setup file: a YAML map (not PhreeqcRM's replayed call list:
// the module has no PHREEQC input to run) read with yaml-cpp into a mechanism and the
// module's own setters, so that a file can set nothing the C calls could not. Each
// value a setter refuses becomes PARSE at the value's line.
#include "gw/setup_yaml.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <vector>

#include "chem/mechanism.hpp"
#include "chem/yaml_file.hpp"
#include "core/error.hpp"

namespace opsplit::gw {
namespace {

constexpr int kFormatVersion = 1;
constexpr int kTemperatureParam = 0, kPressureParam = 1;  // what rate expressions read as TEMP and PRESS

class SetupReader : chem::YamlFile {
 public:
  SetupReader(Context& ctx, const std::string& path) : YamlFile(path), ctx_(ctx), root_(load()) {}

  std::unique_ptr<GroundwaterModule> read() {
    if (!root_.IsMap()) parse_error(root_, "the file is not a map of keys (docs/API.md, \"Groundwater setup file\")");
    only_keys(root_, "the file", {"opsplit-groundwater", "cells", "mapping", "species", "immobile", "molar_masses",
                                  "reactions", "isotherms", "units", "properties", "initial", "solver", "time"});
    const YAML::Node version = root_["opsplit-groundwater"];
    if (integer(version, "opsplit-groundwater (the format version)") != kFormatVersion)
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(version) + ": format version " + version.Scalar() +
                                          "; this opsplit reads version " + std::to_string(kFormatVersion));
    const int64_t nxyz = integer(root_["cells"], "cells");
    if (nxyz < 1) parse_error(root_["cells"], "cells=" + root_["cells"].Scalar() + " must be at least 1");
    read_species();
    read_reactions();
    std::unique_ptr<GroundwaterModule> gw;
    applying(root_["cells"], [&] { gw = std::make_unique<GroundwaterModule>(ctx_, mech_, nxyz); });
    read_units(*gw);
    read_molar_masses(*gw);
    read_mapping(*gw);
    read_immobile(*gw);
    read_isotherms(*gw);
    read_properties(*gw);
    read_initial(*gw);
    read_solver(*gw);
    read_time(*gw);
    return gw;
  }

 private:
  Context& ctx_;
  YAML::Node root_;
  chem::Mechanism mech_{ctx_};

  // A setter's refusal (INVALID_ARGUMENT) is the file's fault at `node`.
  template <class F>
  void applying(const YAML::Node& node, F&& f) const {
    try {
      f();
    } catch (const Error& e) {
      if (e.status() != OPSPLIT_ERROR_INVALID_ARGUMENT) throw;
      parse_error(node, e.what());
    }
  }
  // A map whose keys are all known and each given once (yaml-cpp keeps a repeated key's
  // first value: a second one must not pass unnoticed).
  void only_keys(const YAML::Node& map, const std::string& what, std::set<std::string> known) const {
    if (!map.IsMap()) parse_error(map, what + " is not a map of keys");
    std::set<std::string> seen;
    for (const auto& kv : map) {
      const std::string key = text(kv.first, what + "'s key");
      if (!seen.insert(key).second) parse_error(kv.first, "\"" + key + "\" is given twice in " + what);
      if (known.count(key) == 0) {
        std::string list;
        for (const std::string& k : known) list += (list.empty() ? "" : ", ") + k;
        parse_error(kv.first, "unknown key \"" + key + "\" in " + what + " (known: " + list + ")");
      }
    }
  }
  // std::from_chars, not strtod: the host's locale (a decimal comma) must not change it.
  double number(const YAML::Node& node, const std::string& what) const {
    const std::string s = text(node, what);
    const bool plus = !s.empty() && s[0] == '+';  // YAML's "+1.5"; from_chars takes no sign but '-'
    const char* begin = s.data() + (plus ? 1 : 0);
    const char* end = s.data() + s.size();
    double x = 0;
    const auto [stop, error] = std::from_chars(begin, end, x);
    if (begin == end || (plus && *begin == '-') || error != std::errc() || stop != end || !std::isfinite(x))
      parse_error(node, what + " \"" + s + "\" is not a number");
    return x;
  }
  int64_t integer(const YAML::Node& node, const std::string& what) const {
    const std::string s = text(node, what);
    char* end = nullptr;
    errno = 0;
    const long long x = std::strtoll(s.c_str(), &end, 10);
    if (end == s.c_str() || *end != '\0' || errno == ERANGE || x < INT_MIN || x > INT_MAX)
      parse_error(node, what + " \"" + s + "\" is not an integer (of 32 bits)");
    return x;
  }
  void sequence(const YAML::Node& node, const std::string& what) const {
    if (!node.IsSequence()) parse_error(node, what + " is not a list");
  }
  int species_index(const YAML::Node& node, const std::string& what) const {
    const std::string name = text(node, what);
    int index = -1;
    applying(node, [&] { index = mech_.find_species(name.c_str()); });
    return index;
  }
  // nxyz values: one number for every grid cell, or a list of nxyz.
  std::vector<double> per_cell(const YAML::Node& node, const std::string& what, int64_t nxyz) const {
    if (!node.IsSequence()) return std::vector<double>(static_cast<size_t>(nxyz), number(node, what));
    if (static_cast<int64_t>(node.size()) != nxyz)
      parse_error(node, what + " has " + std::to_string(node.size()) + " values for " + std::to_string(nxyz) +
                            " cells (give one value or one per cell)");
    std::vector<double> v;
    v.reserve(static_cast<size_t>(nxyz));
    for (const auto& x : node) v.push_back(number(x, what));
    return v;
  }

  void read_species() {
    const YAML::Node list = root_["species"];
    sequence(list, "species");
    if (list.size() == 0) parse_error(list, "species is empty");
    for (const auto& s : list) {
      const std::string name = text(s, "a species");
      applying(s, [&] { mech_.add_species(name.c_str()); });
    }
    // Rate expressions read the module's temperature and pressure by these names.
    mech_.name_parameter(kTemperatureParam, "TEMP");
    mech_.name_parameter(kPressureParam, "PRESS");
  }

  // reactants: a list of names (each once more a coefficient of 1) or a map name: order.
  void reactants_of(const YAML::Node& node, std::vector<int>& species, std::vector<int>& orders) const {
    if (!node.IsDefined() || node.IsNull()) return;  // a zero-order source
    if (node.IsSequence()) {
      for (const auto& s : node) species.push_back(species_index(s, "a reactant")), orders.push_back(1);
      return;
    }
    if (!node.IsMap()) parse_error(node, "reactants is neither a list of species nor a map of species to orders");
    for (const auto& kv : node) {
      species.push_back(species_index(kv.first, "a reactant"));
      const int64_t order = integer(kv.second, "the order of " + kv.first.Scalar());
      if (order < 1 || order > 1000) parse_error(kv.second, "the order of " + kv.first.Scalar() + " is not in [1, 1000]");
      orders.push_back(static_cast<int>(order));
    }
  }
  void products_of(const YAML::Node& node, std::vector<int>& species, std::vector<double>& yields) const {
    if (!node.IsDefined() || node.IsNull()) return;
    if (!node.IsMap()) parse_error(node, "products is not a map of species to yields");
    for (const auto& kv : node) {
      species.push_back(species_index(kv.first, "a product"));
      yields.push_back(number(kv.second, "the yield of " + kv.first.Scalar()));
    }
  }

  void read_reactions() {
    const YAML::Node list = root_["reactions"];
    sequence(list, "reactions");
    for (const auto& r : list) {
      only_keys(r, "a reaction", {"reactants", "products", "k", "rate", "factors"});
      std::vector<int> reactants, orders, products;
      std::vector<double> yields;
      reactants_of(r["reactants"], reactants, orders);
      products_of(r["products"], products, yields);
      int index = -1;
      applying(r, [&] {
        index = mech_.add_reaction(static_cast<int>(reactants.size()), reactants.data(), orders.data(),
                                   static_cast<int>(products.size()), products.data(), nullptr, yields.data());
      });
      const std::string name = "reaction " + std::to_string(index) + " (" + mech_.equation(index) + ")";
      const bool has_k = r["k"].IsDefined(), has_rate = r["rate"].IsDefined();
      if (has_k == has_rate) parse_error(r, name + " needs one of k (a constant) and rate (an expression)");
      if (has_k) {
        const double k = number(r["k"], name + "'s k");
        if (k < 0.0) parse_error(r["k"], name + ": k=" + r["k"].Scalar() + " is negative");
        applying(r["k"], [&] { mech_.set_rate(index, OPSPLIT_RATE_CONSTANT, k, 0.0, 0.0, 0); });
      } else {
        const std::string expression = text(r["rate"], name + "'s rate");
        try {
          mech_.set_rate_expression(index, expression.c_str());
        } catch (const Error& e) {
          if (e.status() != OPSPLIT_ERROR_PARSE && e.status() != OPSPLIT_ERROR_INVALID_ARGUMENT) throw;
          parse_error(r["rate"], name + ": " + e.what());
        }
      }
      read_factors(r["factors"], index, name);
    }
  }

  void read_factors(const YAML::Node& list, int reaction, const std::string& name) {
    if (!list.IsDefined()) return;
    sequence(list, name + "'s factors");
    for (const auto& f : list) {
      if (!f.IsMap()) parse_error(f, name + "'s factor is not a map of keys");
      const char* kinds[] = {"monod", "inhibition", "threshold"};
      int kind = -1;
      for (int k = 0; k < 3; ++k)
        if (f[kinds[k]].IsDefined()) {
          if (kind >= 0) parse_error(f, name + ": a factor names one of monod, inhibition and threshold");
          kind = k;
        }
      if (kind < 0) parse_error(f, name + ": a factor needs monod, inhibition or threshold: its species");
      // Each kind its own keys: MONOD's threshold c_th, THRESHOLD's steepness f.
      const char* second_key = kind == OPSPLIT_FACTOR_MONOD ? "c_th" : kind == OPSPLIT_FACTOR_THRESHOLD ? "f" : nullptr;
      std::set<std::string> keys = {kinds[kind], "K"};
      if (second_key != nullptr) keys.insert(second_key);
      only_keys(f, name + "'s " + kinds[kind] + " factor", keys);
      const int species = species_index(f[kinds[kind]], "the factor's species");
      const double K = number(f["K"], name + "'s factor K");
      const bool has_second = second_key != nullptr && f[second_key].IsDefined();
      if (kind == OPSPLIT_FACTOR_THRESHOLD && !has_second)
        parse_error(f, name + ": a threshold factor needs f, its steepness (1/concentration)");
      const double second = has_second ? number(f[second_key], name + "'s factor " + second_key) : 0.0;
      applying(f, [&] { mech_.add_rate_factor(reaction, kind, species, K, second); });
    }
  }

  void read_units(GroundwaterModule& gw) const {
    const YAML::Node u = root_["units"];
    if (!u.IsDefined()) return;
    only_keys(u, "units", {"solution", "solid"});
    int solution = OPSPLIT_GW_MOL_PER_L, solid = OPSPLIT_GW_PER_L_CELL;
    if (u["solution"].IsDefined()) {
      const std::string s = text(u["solution"], "units: solution");
      solution = s == "mg/L" ? OPSPLIT_GW_MG_PER_L : s == "mol/L" ? OPSPLIT_GW_MOL_PER_L : s == "mol/kgw" ? OPSPLIT_GW_MOL_PER_KGW : -1;
      if (solution < 0) parse_error(u["solution"], "units: solution \"" + s + "\" is not mg/L, mol/L or mol/kgw");
    }
    if (u["solid"].IsDefined()) {
      const std::string s = text(u["solid"], "units: solid");
      solid = s == "per_L_cell" ? OPSPLIT_GW_PER_L_CELL : s == "per_L_water" ? OPSPLIT_GW_PER_L_WATER : s == "per_L_rock" ? OPSPLIT_GW_PER_L_ROCK : -1;
      if (solid < 0) parse_error(u["solid"], "units: solid \"" + s + "\" is not per_L_cell, per_L_water or per_L_rock");
    }
    gw.set_units(solution, solid);
  }

  void read_molar_masses(GroundwaterModule& gw) const {
    const YAML::Node masses = root_["molar_masses"];
    if (masses.IsDefined()) {
      only_keys(masses, "molar_masses", species_names());
      std::vector<double> grams(static_cast<size_t>(mech_.nspecies()), 0.0);
      for (const auto& kv : masses) grams[static_cast<size_t>(species_index(kv.first, "a species"))] = number(kv.second, "a molar mass");
      applying(masses, [&] { gw.set_molar_masses(grams.data()); });
    }
  }
  std::set<std::string> species_names() const {
    std::set<std::string> names;
    for (int s = 0; s < mech_.nspecies(); ++s) names.insert(mech_.species_name(s));
    return names;
  }

  void read_mapping(GroundwaterModule& gw) const {
    const YAML::Node m = root_["mapping"];
    if (!m.IsDefined()) return;
    sequence(m, "mapping");
    if (static_cast<int64_t>(m.size()) != gw.nxyz())
      parse_error(m, "mapping has " + std::to_string(m.size()) + " entries for " + std::to_string(gw.nxyz()) + " cells");
    std::vector<int> grid2chem;
    for (const auto& x : m) grid2chem.push_back(static_cast<int>(integer(x, "a mapping entry")));
    applying(m, [&] { gw.set_mapping(grid2chem.data()); });
  }

  void read_immobile(GroundwaterModule& gw) const {
    const YAML::Node list = root_["immobile"];
    if (!list.IsDefined()) return;
    sequence(list, "immobile");
    for (const auto& s : list) {
      const int index = species_index(s, "an immobile species");
      applying(s, [&] { gw.set_mobile(index, 0); });
    }
  }

  void read_isotherms(GroundwaterModule& gw) const {
    const YAML::Node map = root_["isotherms"];
    if (!map.IsDefined()) return;
    if (!map.IsMap()) parse_error(map, "isotherms is not a map of species to isotherms");
    for (const auto& kv : map) {
      const int species = species_index(kv.first, "a species");
      const YAML::Node iso = kv.second;
      only_keys(iso, "the isotherm of " + kv.first.Scalar(), {"type", "k", "b"});
      const std::string type = text(iso["type"], "the isotherm's type");
      const int kind = type == "linear" ? OPSPLIT_GW_ISOTHERM_LINEAR : type == "freundlich" ? OPSPLIT_GW_ISOTHERM_FREUNDLICH : type == "langmuir" ? OPSPLIT_GW_ISOTHERM_LANGMUIR : -1;
      if (kind < 0) parse_error(iso["type"], "isotherm type \"" + type + "\" is not linear, freundlich or langmuir");
      const double k = number(iso["k"], "the isotherm's k");
      if (kind == OPSPLIT_GW_ISOTHERM_LINEAR && iso["b"].IsDefined()) parse_error(iso["b"], "a linear isotherm has no b");
      const double b = kind == OPSPLIT_GW_ISOTHERM_LINEAR ? 0.0 : number(iso["b"], "the isotherm's b");
      applying(iso, [&] { gw.set_isotherm(species, kind, k, b); });
    }
  }

  void read_properties(GroundwaterModule& gw) const {
    const YAML::Node map = root_["properties"];
    if (!map.IsDefined()) return;
    const char* keys[] = {"porosity", "saturation", "volume", "density", "temperature", "pressure", "bulk_density"};
    only_keys(map, "properties", std::set<std::string>(std::begin(keys), std::end(keys)));
    for (int p = 0; p <= OPSPLIT_GW_BULK_DENSITY; ++p) {
      const YAML::Node v = map[keys[p]];
      if (!v.IsDefined()) continue;
      const std::vector<double> values = per_cell(v, keys[p], gw.nxyz());
      applying(v, [&] { gw.set_property(p, values.data()); });
    }
  }

  // Amounts in the host's units: components' concentrations, immobile species' amounts.
  void read_initial(GroundwaterModule& gw) const {
    const YAML::Node map = root_["initial"];
    if (!map.IsDefined()) return;
    only_keys(map, "initial", species_names());
    const auto cells = static_cast<size_t>(gw.nxyz());
    std::vector<double> c(static_cast<size_t>(gw.ncomponents()) * cells, 0.0);
    std::vector<double> m(static_cast<size_t>(gw.nimmobile()) * cells, 0.0);
    for (const auto& kv : map) {
      const int species = species_index(kv.first, "a species");
      const std::vector<double> values = per_cell(kv.second, "the initial amount of " + kv.first.Scalar(), gw.nxyz());
      const std::vector<int>& list = gw.components();
      const auto in = std::find(list.begin(), list.end(), species);
      const bool mobile = in != list.end();
      const size_t row = mobile ? static_cast<size_t>(in - list.begin())
                                : static_cast<size_t>(std::find(gw.immobile().begin(), gw.immobile().end(), species) -
                                                      gw.immobile().begin());
      std::copy(values.begin(), values.end(), (mobile ? c : m).begin() + static_cast<std::ptrdiff_t>(row * cells));
    }
    applying(map, [&] {
      if (!c.empty()) gw.set_concentrations(c.data());
      if (!m.empty()) gw.set_immobile(m.data());
    });
  }

  void read_solver(GroundwaterModule& gw) const {
    const YAML::Node s = root_["solver"];
    if (!s.IsDefined()) return;
    only_keys(s, "solver", {"method", "rtol", "atol"});
    if (s["method"].IsDefined()) {
      const std::string m = text(s["method"], "solver: method");
      const int method = m == "rosenbrock" ? OPSPLIT_ODE_ROSENBROCK : m == "ros3" ? OPSPLIT_ODE_ROS3 : m == "rkc" ? OPSPLIT_ODE_RKC : m == "rkck45" ? OPSPLIT_ODE_RKCK45 : -1;
      if (method < 0) parse_error(s["method"], "solver: method \"" + m + "\" is not rosenbrock, ros3, rkc or rkck45");
      applying(s["method"], [&] { gw.set_method(method); });
    }
    if (s["rtol"].IsDefined() || s["atol"].IsDefined()) {
      const double rtol = s["rtol"].IsDefined() ? number(s["rtol"], "solver: rtol") : 1e-6;
      const double atol = s["atol"].IsDefined() ? number(s["atol"], "solver: atol") : 1e-15;
      applying(s, [&] { gw.set_tolerances(rtol, atol); });
    }
  }

  void read_time(GroundwaterModule& gw) const {
    const YAML::Node t = root_["time"];
    if (!t.IsDefined()) return;
    only_keys(t, "time", {"start", "step", "end"});
    const double start = t["start"].IsDefined() ? number(t["start"], "time: start") : 0.0;
    const double step = t["step"].IsDefined() ? number(t["step"], "time: step") : 0.0;
    const double end = t["end"].IsDefined() ? number(t["end"], "time: end") : std::numeric_limits<double>::max();
    applying(t, [&] { gw.set_clock(start, step, end); });
  }
};

}  // namespace

std::unique_ptr<GroundwaterModule> load_setup_yaml(Context& ctx, const std::string& path) {
  return SetupReader(ctx, path).read();
}

}  // namespace opsplit::gw
