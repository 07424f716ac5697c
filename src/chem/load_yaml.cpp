// Cantera YAML mechanisms (the format of Cantera 2.5+ and ck2yaml), read with yaml-cpp:
// an ideal-gas phase, its NASA-7 species and gas reactions. Species names stay strings
// ("NO" is nitric oxide): every scalar is read as text and converted here.
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <stdexcept>

#include "chem/loaders.hpp"
#include "chem/units.hpp"
#include "chem/yaml_file.hpp"
#include "core/error.hpp"

namespace opsplit::chem {
namespace {

// A value as written: the number and the unit text after it ("" for a plain number).
struct Value {
  double number;
  std::string unit;
};

class YamlReader : YamlFile {
 public:
  YamlReader(const std::string& path, YAML::Node root) : YamlFile(path), root_(std::move(root)) {}

  GasMechanism read(const std::string& phase_name) {
    read_units();
    const YAML::Node phase = find_phase(phase_name);
    const std::string thermo = text(phase["thermo"], "phase thermo");
    if (thermo != "ideal-gas")
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(phase["thermo"]) + ": phase \"" + text(phase["name"], "phase name") +
                                          "\" has thermo model \"" + thermo + "\"; opsplit reads ideal-gas phases");
    read_elements(phase);
    read_species(phase);
    read_reactions(phase);
    mech_.source = path();
    mech_.finish();
    return std::move(mech_);
  }

 private:
  YAML::Node root_;
  UnitSystem units_;
  GasMechanism mech_;
  std::set<std::string> elements_;  // the phase's, lower case; empty: not listed
  bool skip_undeclared_third_bodies_ = false;

  Value value(const YAML::Node& node, const std::string& what) const {
    const std::string s = text(node, what);
    const char* begin = s.c_str();
    char* end = nullptr;
    const double x = std::strtod(begin, &end);
    if (end == begin || !std::isfinite(x) || (*end != '\0' && *end != ' '))
      parse_error(node, what + " \"" + s + "\" is not a number");
    std::string unit(end);
    unit.erase(0, unit.find_first_not_of(' '));
    unit.erase(unit.find_last_not_of(' ') + 1);
    return {x, unit};
  }
  double number(const YAML::Node& node, const std::string& what) const {
    const Value v = value(node, what);
    if (!v.unit.empty()) parse_error(node, what + " \"" + node.Scalar() + "\" is not a number");
    return v.number;
  }
  bool flag(const YAML::Node& node, const std::string& what) const {
    if (!node.IsDefined()) return false;
    const std::string s = text(node, what);
    if (s == "true" || s == "True" || s == "yes") return true;
    if (s == "false" || s == "False" || s == "no") return false;
    parse_error(node, what + " \"" + s + "\" is not true or false");
  }
  // A units conversion that names the node when the unit text is bad.
  template <class F>
  double converted(const YAML::Node& node, const std::string& what, F&& convert) const {
    try {
      return convert();
    } catch (const std::invalid_argument& e) {
      parse_error(node, what + ": " + e.what());
    }
  }

  void read_units() {
    const YAML::Node units = root_["units"];
    if (!units.IsDefined()) return;
    if (!units.IsMap()) parse_error(units, "units is not a map");
    for (const auto& entry : units) {
      const std::string key = text(entry.first, "a units key");
      converted(entry.second, "units", [&] {
        units_.set(key, text(entry.second, "units: " + key));
        return 0.0;
      });
    }
  }

  YAML::Node find_phase(const std::string& name) const {
    const YAML::Node phases = root_["phases"];
    if (!phases.IsDefined() || !phases.IsSequence() || phases.size() == 0)
      parse_error(root_, "the file has no phases list");
    std::string names;
    for (const YAML::Node& phase : phases) {
      const std::string n = text(phase["name"], "phase name");
      if (name.empty() || n == name) return phase;
      names += (names.empty() ? "" : ", ") + n;
    }
    fail(OPSPLIT_ERROR_PARSE, path() + ": no phase \"" + name + "\" (the file has " + names + ")");
  }

  void read_elements(const YAML::Node& phase) {
    const YAML::Node list = phase["elements"];
    if (!list.IsDefined()) return;
    if (!list.IsSequence()) parse_error(list, "phase elements is not a list of element symbols");
    for (const YAML::Node& e : list) {
      const std::string symbol = text(e, "element");
      if (element_weight(symbol) == 0.0)
        fail(OPSPLIT_ERROR_UNSUPPORTED, at(e) + ": element \"" + symbol +
                                            "\" is not in opsplit's table of atomic weights (custom elements are "
                                            "not supported)");
      std::string lower = symbol;
      for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      elements_.insert(lower);
    }
  }

  // Entries of a top-level section named by a phase ("all", a list of names, or
  // {section: all | [names]} maps). Other files are not read.
  std::vector<YAML::Node> entries(const YAML::Node& spec, const std::string& default_section,
                                  const std::string& what, bool& declared_only) {
    std::vector<YAML::Node> out;
    auto whole = [&](const std::string& section, const YAML::Node& where) {
      const YAML::Node s = root_[section];
      if (!s.IsDefined() || !s.IsSequence())
        parse_error(where, what + " section \"" + section + "\" is not a list in this file");
      for (const YAML::Node& e : s) out.push_back(e);
    };
    auto named = [&](const std::string& section, const YAML::Node& names) {
      const YAML::Node s = root_[section];
      if (!s.IsDefined() || !s.IsSequence()) parse_error(names, what + " section \"" + section + "\" is not in this file");
      for (const YAML::Node& n : names) {
        const std::string name = text(n, what + " name");
        bool found = false;
        for (const YAML::Node& e : s)
          if (e["name"].IsDefined() && e["name"].Scalar() == name) out.push_back(e), found = true;
        if (!found) parse_error(n, "no " + what + " \"" + name + "\" in section \"" + section + "\"");
      }
    };
    auto local = [&](const std::string& section, const YAML::Node& where) {
      if (section.find(".yaml") != std::string::npos || section.find('/') != std::string::npos)
        fail(OPSPLIT_ERROR_UNSUPPORTED, at(where) + ": " + what + " from another file (\"" + section +
                                            "\") are not supported: copy them into this file");
      return section;
    };
    if (!spec.IsDefined()) {
      whole(default_section, spec);
    } else if (spec.IsScalar()) {
      const std::string s = spec.Scalar();
      if (s == "none") return out;
      if (s == "declared-species") declared_only = true;
      else if (s != "all") parse_error(spec, what + ": \"" + s + "\" is not all, none, declared-species or a list");
      whole(default_section, spec);
    } else if (spec.IsSequence() && spec.size() > 0 && spec[0].IsScalar() && what == "species") {
      named(default_section, spec);
    } else if (spec.IsSequence()) {
      for (const YAML::Node& item : spec) {
        if (item.IsScalar()) {  // a reaction section name
          whole(local(item.Scalar(), item), item);
          continue;
        }
        if (!item.IsMap() || item.size() != 1) parse_error(item, what + ": an entry is not {section: names}");
        const auto entry = *item.begin();
        const std::string section = local(text(entry.first, what + " section"), item);
        if (entry.second.IsScalar() && entry.second.Scalar() == "all") whole(section, item);
        else if (entry.second.IsScalar() && entry.second.Scalar() == "declared-species")
          declared_only = true, whole(section, item);
        else if (entry.second.IsSequence()) named(section, entry.second);
        else parse_error(item, what + " of section \"" + section + "\" are not all or a list of names");
      }
    } else {
      parse_error(spec, what + " is not all, none or a list");
    }
    return out;
  }

  void read_species(const YAML::Node& phase) {
    bool declared_only = false;
    const YAML::Node spec = phase["species"];
    if (!spec.IsDefined()) parse_error(phase, "the phase lists no species");
    for (const YAML::Node& node : entries(spec, "species", "species", declared_only)) {
      GasSpecies s;
      s.name = text(node["name"], "species name");
      s.where = at(node);
      const std::string what = "species \"" + s.name + "\"";
      if (s.name.empty() || s.name.size() > 64) parse_error(node, what + ": names have 1 to 64 characters");
      if (mech_.find_species(s.name) >= 0) parse_error(node, what + " is listed twice");
      const YAML::Node composition = node["composition"];
      if (!composition.IsDefined() || !composition.IsMap()) parse_error(node, what + ": composition is missing or not a map");
      for (const auto& entry : composition) {
        const std::string element = text(entry.first, what + " element");
        const double atoms = number(entry.second, what + " composition " + element);
        const double w = element_weight(element);
        std::string lower = element;
        for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        if (w == 0.0 || (!elements_.empty() && elements_.count(lower) == 0))
          parse_error(entry.first, what + ": element \"" + element + "\" is not an element of the phase");
        s.composition.emplace_back(element, atoms);
        s.molar_mass += atoms * w;
      }
      read_nasa7(node["thermo"], what, s);
      mech_.species.push_back(std::move(s));
    }
  }

  void read_nasa7(const YAML::Node& thermo, const std::string& what, GasSpecies& s) const {
    if (!thermo.IsDefined() || !thermo.IsMap()) fail(OPSPLIT_ERROR_PARSE, s.where + ": " + what + ": thermo is missing");
    const std::string model = text(thermo["model"], what + " thermo model");
    if (model != "NASA7")
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(thermo) + ": " + what + ": thermo model \"" + model +
                                          "\" is not supported (NASA7 only)");
    if (thermo["reference-pressure"].IsDefined()) {
      const YAML::Node p = thermo["reference-pressure"];
      const Value v = value(p, what + " reference-pressure");
      const double pa = converted(p, what, [&] { return units_.pressure(v.number, v.unit); });
      if (std::abs(pa - kOneAtmosphere) > 1e-9 * kOneAtmosphere)
        fail(OPSPLIT_ERROR_UNSUPPORTED, at(p) + ": " + what + ": reference pressure " + num(pa) +
                                            " Pa is not supported (one atmosphere only)");
    }
    const YAML::Node ranges = thermo["temperature-ranges"], data = thermo["data"];
    if (!ranges.IsDefined() || !ranges.IsSequence() || (ranges.size() != 2 && ranges.size() != 3))
      parse_error(thermo, what + ": temperature-ranges is not a list of 2 or 3 temperatures");
    if (!data.IsDefined() || !data.IsSequence() || data.size() != ranges.size() - 1)
      parse_error(thermo, what + ": data needs " + std::to_string(ranges.size() - 1) + " lists of 7 coefficients");
    auto coefficients = [&](const YAML::Node& list, std::array<double, 7>& a) {
      if (!list.IsDefined() || !list.IsSequence() || list.size() != 7) parse_error(list, what + ": a NASA7 polynomial has 7 coefficients");
      for (size_t i = 0; i < 7; ++i) a[i] = number(list[i], what + " NASA7 coefficient");
    };
    s.t_min = number(ranges[0], what + " temperature");
    s.t_mid = number(ranges[1], what + " temperature");
    s.t_max = ranges.size() == 3 ? number(ranges[2], what + " temperature") : s.t_mid;
    coefficients(data[0], s.low);
    if (ranges.size() == 3) coefficients(data[1], s.high);
    else s.high = s.low;
    if (!(s.t_min < s.t_mid && s.t_mid <= s.t_max)) parse_error(ranges, what + ": temperature-ranges are not ascending");
  }

  // ---- reactions ----------------------------------------------------------------
  struct Side {
    std::vector<StoichTerm> terms;
    std::string collider;  // "", "M" (+ M), "(+M)", or "(+NAME)"
  };

  // One side of an equation, tokens separated by spaces: "2 O + M", "2 OH (+M)".
  Side parse_side(const std::string& text_side, const YAML::Node& where, const std::string& what,
                  bool& undeclared) const {
    Side side;
    std::vector<std::string> tokens;
    size_t i = 0;
    while (i < text_side.size()) {
      while (i < text_side.size() && std::isspace(static_cast<unsigned char>(text_side[i]))) ++i;
      const size_t start = i;
      while (i < text_side.size() && !std::isspace(static_cast<unsigned char>(text_side[i]))) ++i;
      if (i > start) tokens.push_back(text_side.substr(start, i - start));
    }
    bool expect_term = true;
    for (size_t t = 0; t < tokens.size(); ++t) {
      const std::string& token = tokens[t];
      if (token == "+") {
        if (expect_term) parse_error(where, what + ": a '+' without a species before it");
        expect_term = true;
        continue;
      }
      if (token.size() > 3 && token.compare(0, 2, "(+") == 0 && token.back() == ')') {
        if (!side.collider.empty()) parse_error(where, what + ": two third bodies on one side");
        side.collider = token;
        expect_term = false;
        continue;
      }
      if (!expect_term) parse_error(where, what + ": \"" + token + "\" follows a species without a '+'");
      double coefficient = 1.0;
      const char* begin = token.c_str();
      char* end = nullptr;
      const double c = std::strtod(begin, &end);
      std::string name = token;
      if (end != begin && *end == '\0') {  // a coefficient token, then the species
        if (t + 1 >= tokens.size()) parse_error(where, what + ": coefficient \"" + token + "\" has no species");
        if (!(c > 0.0) || !std::isfinite(c)) parse_error(where, what + ": coefficient \"" + token + "\" is not positive");
        coefficient = c;
        name = tokens[++t];
      }
      expect_term = false;
      if (name == "M") {
        if (coefficient != 1.0 || !side.collider.empty()) parse_error(where, what + ": a malformed third body M");
        side.collider = "M";
        continue;
      }
      const int k = mech_.find_species(name);
      if (k < 0) {
        undeclared = true;
        return side;
      }
      auto same = std::find_if(side.terms.begin(), side.terms.end(), [&](const StoichTerm& s) { return s.species == k; });
      if (same != side.terms.end()) same->coefficient += coefficient;
      else side.terms.push_back({k, coefficient});
    }
    if (expect_term) parse_error(where, what + ": a side of the equation is empty or ends with '+'");
    return side;
  }

  Arrhenius arrhenius(const YAML::Node& node, const std::string& what, double order, bool negative_a_allowed) const {
    if (!node.IsDefined() || !node.IsMap()) parse_error(node, what + " is missing or not a map {A, b, Ea}");
    for (const auto& entry : node) {
      const std::string key = text(entry.first, what + " key");
      if (key != "A" && key != "b" && key != "Ea" && key != "P")
        fail(OPSPLIT_ERROR_UNSUPPORTED, at(entry.first) + ": " + what + ": \"" + key + "\" is not supported");
    }
    Arrhenius k;
    const Value a = value(node["A"], what + " A");
    k.a = a.unit.empty() ? a.number * units_.rate_constant_factor(order)
                         : converted(node["A"], what + " A", [&] { return units_.rate_constant(a.number, a.unit, order); });
    k.b = number(node["b"], what + " b");
    const Value ea = value(node["Ea"], what + " Ea");
    k.ea_over_r = converted(node["Ea"], what + " Ea", [&] { return units_.ea_over_r(ea.number, ea.unit); });
    if (k.a < 0.0 && !negative_a_allowed)
      parse_error(node["A"], what + ": A is negative; a duplicate reaction may have one with negative-A: true");
    return k;
  }

  void read_reactions(const YAML::Node& phase) {
    const YAML::Node kinetics = phase["kinetics"];
    if (!kinetics.IsDefined()) return;
    if (text(kinetics, "phase kinetics") != "gas")
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(kinetics) + ": kinetics \"" + kinetics.Scalar() + "\" is not supported (gas only)");
    skip_undeclared_third_bodies_ = flag(phase["skip-undeclared-third-bodies"], "skip-undeclared-third-bodies");
    bool declared_only = false;
    for (const YAML::Node& node : entries(phase["reactions"], "reactions", "reactions", declared_only))
      read_reaction(node, declared_only);
  }

  void read_reaction(const YAML::Node& node, bool declared_only) {
    static const std::set<std::string> known = {
        "equation", "type", "rate-constant", "duplicate", "negative-A", "orders", "nonreactant-orders",
        "negative-orders", "efficiencies", "default-efficiency", "low-P-rate-constant", "high-P-rate-constant",
        "Troe", "SRI", "rate-constants", "note", "id"};
    if (!node.IsMap()) parse_error(node, "a reaction is not a map");
    GasReaction r;
    r.where = at(node);
    const std::string equation = text(node["equation"], "reaction equation");
    const std::string what = "reaction " + std::to_string(mech_.reactions.size() + 1) + " (" + equation + ")";
    const std::string type = node["type"].IsDefined() ? text(node["type"], what + " type") : "elementary";
    static const std::set<std::string> types = {"elementary", "three-body", "falloff", "chemically-activated",
                                                "pressure-dependent-Arrhenius"};
    if (types.count(type) == 0)
      fail(OPSPLIT_ERROR_UNSUPPORTED, at(node["type"]) + ": " + what + ": reaction type \"" + type +
                                          "\" is not supported (elementary, three-body, falloff, "
                                          "chemically-activated, pressure-dependent-Arrhenius)");
    for (const auto& entry : node) {
      const std::string key = text(entry.first, what + " key");
      if (known.count(key) == 0)
        fail(OPSPLIT_ERROR_UNSUPPORTED, at(entry.first) + ": " + what + ": \"" + key + "\" is not supported");
    }
    // Arrow and sides.
    size_t arrow = equation.find("<=>");
    size_t arrow_length = 3;
    r.reversible = true;
    if (arrow == std::string::npos) {
      arrow = equation.find("=>");
      arrow_length = 2;
      r.reversible = false;
      if (arrow != std::string::npos && arrow > 0 && equation[arrow - 1] == '<') arrow = std::string::npos;
    }
    if (arrow == std::string::npos) {
      arrow = equation.find('=');
      arrow_length = 1;
      r.reversible = true;
      if (arrow != std::string::npos && arrow > 0 && equation[arrow - 1] == '<')
        parse_error(node, what + ": '<=' is not an arrow (use <=>, = or =>)");
    }
    if (arrow == std::string::npos) parse_error(node, what + ": no <=>, = or => in the equation");
    bool undeclared = false;
    const Side left = parse_side(equation.substr(0, arrow), node, what, undeclared);
    const Side right = parse_side(equation.substr(arrow + arrow_length), node, what, undeclared);
    if (undeclared) {
      if (declared_only) return;
      parse_error(node, what + ": a species is not in the phase");
    }
    if (left.collider != right.collider) parse_error(node, what + ": the third bodies of the two sides differ");
    r.reactants = left.terms;
    r.products = right.terms;
    if (r.reactants.empty() || r.products.empty()) parse_error(node, what + ": a side has no species");

    const bool falloff_like = type == "falloff" || type == "chemically-activated";
    if (type == "elementary" || type == "three-body") {
      r.type = left.collider == "M" ? kGasThreeBody : kGasElementary;
      if (!left.collider.empty() && left.collider != "M")
        parse_error(node, what + ": " + left.collider + " needs type falloff or chemically-activated");
    } else if (falloff_like) {
      if (left.collider.empty() || left.collider == "M")
        parse_error(node, what + ": a " + type + " reaction needs (+M) or (+species) on both sides");
      r.type = type == "falloff" ? kGasFalloff : kGasChemicallyActivated;
      if (left.collider != "(+M)") {
        const std::string name = left.collider.substr(2, left.collider.size() - 3);
        r.collider = mech_.find_species(name);
        if (r.collider < 0) parse_error(node, what + ": collider \"" + name + "\" is not a species of the phase");
      }
    } else {  // pressure-dependent-Arrhenius
      r.type = kGasPressureDependent;
      if (!left.collider.empty()) parse_error(node, what + ": a PLOG reaction has no third body");
    }
    r.duplicate = flag(node["duplicate"], what + " duplicate");
    const bool negative_a = flag(node["negative-A"], what + " negative-A");

    // Orders (irreversible reactions only, as in Cantera).
    if (node["orders"].IsDefined()) {
      const YAML::Node orders = node["orders"];
      if (!orders.IsMap()) parse_error(orders, what + ": orders is not a map");
      if (r.reversible) parse_error(orders, what + ": orders are only for irreversible reactions");
      const bool nonreactant = flag(node["nonreactant-orders"], what + " nonreactant-orders");
      const bool negative = flag(node["negative-orders"], what + " negative-orders");
      for (const auto& entry : orders) {
        const std::string name = text(entry.first, what + " orders species");
        const int k = mech_.find_species(name);
        if (k < 0) parse_error(entry.first, what + ": orders: \"" + name + "\" is not a species of the phase");
        const double n = number(entry.second, what + " order of " + name);
        const bool is_reactant = std::any_of(r.reactants.begin(), r.reactants.end(), [&](const StoichTerm& t) { return t.species == k; });
        if (!is_reactant && !nonreactant)
          parse_error(entry.first, what + ": orders: \"" + name + "\" is not a reactant (nonreactant-orders: true allows it)");
        if (n < 0.0 && !negative) parse_error(entry.second, what + ": orders: a negative order needs negative-orders: true");
        r.orders.push_back({k, n});
      }
    }

    // Third-body efficiencies.
    if (node["efficiencies"].IsDefined() || node["default-efficiency"].IsDefined()) {
      if (!(r.type == kGasThreeBody || (falloff_like && r.collider < 0)))
        parse_error(node, what + ": efficiencies need a third body M or (+M)");
      if (node["default-efficiency"].IsDefined())
        r.default_efficiency = number(node["default-efficiency"], what + " default-efficiency");
      const YAML::Node eff = node["efficiencies"];
      if (eff.IsDefined()) {
        if (!eff.IsMap()) parse_error(eff, what + ": efficiencies is not a map");
        for (const auto& entry : eff) {
          const std::string name = text(entry.first, what + " efficiency species");
          const double e = number(entry.second, what + " efficiency of " + name);
          const int k = mech_.find_species(name);
          if (k < 0) {
            if (skip_undeclared_third_bodies_) continue;
            parse_error(entry.first, what + ": efficiency of \"" + name + "\", which is not a species of the phase");
          }
          r.efficiencies.emplace_back(k, e);
        }
      }
    }

    // Rates. A's units follow the order: n for k, n + 1 for k_0 of a falloff,
    // n - 1 for k_inf of a chemically activated reaction.
    const double n = r.forward_order();
    if (r.type == kGasElementary || r.type == kGasThreeBody) {
      r.rate = arrhenius(node["rate-constant"], what + " rate-constant", r.type == kGasThreeBody ? n + 1 : n, negative_a);
    } else if (falloff_like) {
      const YAML::Node low = node["low-P-rate-constant"], high = node["high-P-rate-constant"];
      const Arrhenius k0 = arrhenius(low, what + " low-P-rate-constant", r.type == kGasFalloff ? n + 1 : n, negative_a);
      const Arrhenius kinf = arrhenius(high, what + " high-P-rate-constant", r.type == kGasFalloff ? n : n - 1, negative_a);
      r.rate = r.type == kGasFalloff ? kinf : k0;
      r.falloff_rate = r.type == kGasFalloff ? k0 : kinf;
      read_falloff_form(node, what, r);
    } else {
      const YAML::Node list = node["rate-constants"];
      if (!list.IsDefined() || !list.IsSequence() || list.size() == 0) parse_error(node, what + ": rate-constants is missing or empty");
      for (const YAML::Node& entry : list) {
        const Value p = value(entry["P"], what + " P");
        const double pa = converted(entry["P"], what + " P", [&] { return units_.pressure(p.number, p.unit); });
        if (!(pa > 0.0)) parse_error(entry["P"], what + ": a PLOG pressure is not positive");
        r.plog.emplace_back(pa, arrhenius(entry, what + " rate-constants", n, negative_a));
      }
      std::stable_sort(r.plog.begin(), r.plog.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    }
    const bool has_low_high = node["low-P-rate-constant"].IsDefined() || node["high-P-rate-constant"].IsDefined() ||
                              node["Troe"].IsDefined() || node["SRI"].IsDefined();
    if (!falloff_like && has_low_high) parse_error(node, what + ": falloff parameters on a " + type + " reaction");
    if (r.type != kGasPressureDependent && node["rate-constants"].IsDefined())
      parse_error(node, what + ": rate-constants (PLOG) on a " + type + " reaction");
    if (falloff_like || r.type == kGasPressureDependent) {
      if (node["rate-constant"].IsDefined()) parse_error(node, what + ": rate-constant on a " + type + " reaction");
    }
    mech_.reactions.push_back(std::move(r));
  }

  void read_falloff_form(const YAML::Node& node, const std::string& what, GasReaction& r) const {
    const YAML::Node troe = node["Troe"], sri = node["SRI"];
    if (troe.IsDefined() && sri.IsDefined()) parse_error(node, what + ": both Troe and SRI");
    auto params = [&](const YAML::Node& map, const std::vector<std::string>& keys, size_t required) {
      if (!map.IsDefined() || !map.IsMap()) parse_error(map, what + ": falloff parameters are not a map");
      for (const auto& entry : map) {
        const std::string key = text(entry.first, what + " falloff key");
        if (std::find(keys.begin(), keys.end(), key) == keys.end())
          parse_error(entry.first, what + ": \"" + key + "\" is not a parameter of this falloff form");
      }
      for (size_t i = 0; i < keys.size(); ++i) {
        const YAML::Node p = map[keys[i]];
        if (!p.IsDefined()) {
          if (i < required) parse_error(map, what + ": falloff parameter " + keys[i] + " is missing");
          continue;
        }
        r.falloff_params[i] = number(p, what + " " + keys[i]);
      }
    };
    if (troe.IsDefined()) {
      r.falloff_form = kFalloffTroe;
      params(troe, {"A", "T3", "T1", "T2"}, 3);
    } else if (sri.IsDefined()) {
      r.falloff_form = kFalloffSri;
      r.falloff_params[3] = 1.0;  // d
      params(sri, {"A", "B", "C", "D", "E"}, 3);
    }
  }
};

}  // namespace

GasMechanism load_yaml(const std::string& path, const std::string& phase) {
  const YamlFile file(path);
  const YAML::Node root = file.load();
  try {
    return YamlReader(path, root).read(phase);
  } catch (const YAML::Exception& e) {
    file.fail_at(e);
  }
}

}  // namespace opsplit::chem
