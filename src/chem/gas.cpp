#include "chem/gas.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>

#include "chem/flat_arrays.hpp"
#include "core/error.hpp"

namespace opsplit::chem {
namespace {

struct Element {
  const char* symbol;
  double weight;  // g/mol: IUPAC conventional atomic weights, the values Cantera uses
};
constexpr Element kElements[] = {
    {"H", 1.008},         {"D", 2.0141017781},  {"He", 4.002602},      {"Li", 6.94},         {"Be", 9.0121831},
    {"B", 10.81},         {"C", 12.011},        {"N", 14.007},         {"O", 15.999},        {"F", 18.998403163},
    {"Ne", 20.1797},      {"Na", 22.98976928},  {"Mg", 24.305},        {"Al", 26.9815384},   {"Si", 28.085},
    {"P", 30.973761998},  {"S", 32.06},         {"Cl", 35.45},         {"Ar", 39.95},        {"K", 39.0983},
    {"Ca", 40.078},       {"Ti", 47.867},       {"Cr", 51.9961},       {"Mn", 54.938043},    {"Fe", 55.845},
    {"Co", 58.933194},    {"Ni", 58.6934},      {"Cu", 63.546},        {"Zn", 65.38},        {"Br", 79.904},
    {"Kr", 83.798},       {"I", 126.90447},     {"Xe", 131.293},       {"E", 0.0005485799088728283}};

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

std::string coefficient_text(double c) { return c == std::floor(c) && c < 1e6 ? std::to_string(static_cast<long long>(c)) : num(c); }

// A reaction's participants as a sorted key, for the duplicate search.
using SideKey = std::vector<std::pair<int, double>>;
SideKey side_key(const std::vector<StoichTerm>& terms) {
  SideKey key;
  for (const StoichTerm& t : terms) key.emplace_back(t.species, t.coefficient);
  std::sort(key.begin(), key.end());
  return key;
}

}  // namespace

double element_weight(const std::string& symbol) {
  const std::string want = lower(symbol);
  for (const Element& e : kElements)
    if (lower(e.symbol) == want) return e.weight * 1e-3;
  return 0.0;
}

double GasReaction::forward_order() const {
  double n = 0.0;
  for (const StoichTerm& t : reactants) n += t.coefficient;
  for (const StoichTerm& o : orders) {
    for (const StoichTerm& t : reactants)
      if (t.species == o.species) n -= t.coefficient;
    n += o.coefficient;
  }
  return n;
}

int GasMechanism::find_species(const std::string& name) const {
  for (size_t k = 0; k < species.size(); ++k)
    if (species[k].name == name) return static_cast<int>(k);
  return -1;
}

std::string GasMechanism::equation(int r) const {
  const GasReaction& reaction = reactions[static_cast<size_t>(r)];
  std::string collider;
  if (reaction.type == kGasThreeBody) collider = " + M";
  if (reaction.type == kGasFalloff || reaction.type == kGasChemicallyActivated)
    collider = reaction.collider >= 0 ? " (+" + species[static_cast<size_t>(reaction.collider)].name + ")" : " (+M)";
  auto side = [&](const std::vector<StoichTerm>& terms) {
    std::string s;
    for (const StoichTerm& t : terms) {
      if (!s.empty()) s += " + ";
      if (t.coefficient != 1.0) s += coefficient_text(t.coefficient) + " ";
      s += species[static_cast<size_t>(t.species)].name;
    }
    return s + collider;
  };
  return side(reaction.reactants) + (reaction.reversible ? " <=> " : " => ") + side(reaction.products);
}

void GasMechanism::finish() const {
  // An ODE batch integrates a mechanism's kinetics: one without species or without
  // reactions is a file that lost them, not a mechanism to run.
  if (species.empty()) fail(OPSPLIT_ERROR_PARSE, source + ": the mechanism declares no species");
  if (reactions.empty()) fail(OPSPLIT_ERROR_PARSE, source + ": the mechanism has no reactions");
  for (size_t r = 0; r < reactions.size(); ++r) {
    const GasReaction& reaction = reactions[r];
    const std::string what = reaction.where + ": reaction " + num(static_cast<long long>(r + 1)) + " (" +
                             equation(static_cast<int>(r)) + ")";
    std::map<std::string, std::pair<double, double>> atoms;  // element: left, right
    std::map<std::string, std::string> spelling;
    auto count = [&](const std::vector<StoichTerm>& terms, bool left) {
      for (const StoichTerm& t : terms)
        for (const auto& [element, n] : species[static_cast<size_t>(t.species)].composition) {
          auto& [l, r] = atoms[lower(element)];
          (left ? l : r) += n * t.coefficient;
          spelling.emplace(lower(element), element);
        }
    };
    count(reaction.reactants, true);
    count(reaction.products, false);
    for (const auto& [element, sides] : atoms)
      if (std::abs(sides.first - sides.second) > 1e-6 * std::max(1.0, sides.first))
        fail(OPSPLIT_ERROR_PARSE, what + " is unbalanced in " + spelling[element] + ": " + num(sides.first) +
                                      " atoms on the left, " + num(sides.second) + " on the right");
  }
  // Duplicates: the same participants (either direction when one is reversible) and the
  // same third body must both be declared.
  using Key = std::tuple<SideKey, SideKey, int, int>;  // reactants, products, type of third body, collider
  std::map<Key, std::vector<size_t>> seen;
  std::vector<bool> has_partner(reactions.size(), false);
  for (size_t r = 0; r < reactions.size(); ++r) {
    const GasReaction& reaction = reactions[r];
    const int body = reaction.type == kGasThreeBody ? 1 : reaction.uses_third_body() ? 2 : 0;
    const Key forward{side_key(reaction.reactants), side_key(reaction.products), body, reaction.collider};
    const Key backward{side_key(reaction.products), side_key(reaction.reactants), body, reaction.collider};
    std::vector<size_t> partners = seen[forward];
    for (size_t other : seen[backward])
      if (reaction.reversible || reactions[other].reversible) partners.push_back(other);
    for (size_t other : partners) {
      if (!reaction.duplicate || !reactions[other].duplicate)
        fail(OPSPLIT_ERROR_PARSE, reaction.where + ": reaction " + num(static_cast<long long>(r + 1)) + " (" +
                                      equation(static_cast<int>(r)) + ") duplicates reaction " +
                                      num(static_cast<long long>(other + 1)) + " at " + reactions[other].where +
                                      ", and they are not both marked as duplicates");
      has_partner[r] = has_partner[other] = true;
    }
    seen[forward].push_back(r);
  }
  for (size_t r = 0; r < reactions.size(); ++r)
    if (reactions[r].duplicate && !has_partner[r])
      fail(OPSPLIT_ERROR_PARSE, reactions[r].where + ": reaction " + num(static_cast<long long>(r + 1)) + " (" +
                                    equation(static_cast<int>(r)) +
                                    ") is marked as a duplicate, but no other reaction has its participants");
}

CompiledGas::CompiledGas(const GasMechanism& m)
    : nspecies_(static_cast<int>(m.species.size())), nreactions_(static_cast<int>(m.reactions.size())) {
  std::vector<double> molar_mass, nasa7;
  for (const GasSpecies& s : m.species) {
    molar_mass.push_back(s.molar_mass);
    nasa7.push_back(s.t_mid);
    nasa7.insert(nasa7.end(), s.low.begin(), s.low.end());
    nasa7.insert(nasa7.end(), s.high.begin(), s.high.end());
  }
  std::vector<int> type, order_begin{0}, order_species, product_begin{0}, product_species, change_begin{0},
      change_species, reverse, third_body, collider_begin{0}, collider_species, falloff, falloff_rate, falloff_form,
      plog, plog_level_begin{0}, plog_level_rates;
  std::vector<double> arrhenius, order, product_stoich, change, delta_moles, collider_excess, collider_default,
      falloff_params, plog_log_pressure, plog_arrhenius;
  auto add_rate = [&](const Arrhenius& k) {
    arrhenius.insert(arrhenius.end(), {k.a, k.b, k.ea_over_r});
    return static_cast<int>(arrhenius.size() / kArrheniusStride) - 1;
  };
  for (const GasReaction& r : m.reactions) add_rate(r.rate);  // entry r: reaction r's rate
  for (const GasReaction& r : m.reactions) {
    type.push_back(r.type);
    // Forward orders: the reactants' coefficients, replaced or extended by FORD orders.
    std::vector<StoichTerm> orders = r.reactants;
    for (const StoichTerm& o : r.orders) {
      auto at = std::find_if(orders.begin(), orders.end(), [&](const StoichTerm& t) { return t.species == o.species; });
      if (at != orders.end())
        at->coefficient = o.coefficient;
      else
        orders.push_back(o);
    }
    for (const StoichTerm& t : orders)
      if (t.coefficient != 0.0) order_species.push_back(t.species), order.push_back(t.coefficient);
    order_begin.push_back(static_cast<int>(order_species.size()));
    double moles = 0.0;
    for (const StoichTerm& t : r.products) product_species.push_back(t.species), product_stoich.push_back(t.coefficient);
    product_begin.push_back(static_cast<int>(product_species.size()));
    for (int k = 0; k < nspecies_; ++k) {  // in species order: the same sums everywhere
      double delta = 0.0;
      for (const StoichTerm& t : r.products)
        if (t.species == k) delta += t.coefficient;
      for (const StoichTerm& t : r.reactants)
        if (t.species == k) delta -= t.coefficient;
      if (delta != 0.0) change_species.push_back(k), change.push_back(delta);
      moles += delta;
    }
    change_begin.push_back(static_cast<int>(change_species.size()));
    delta_moles.push_back(moles);
    reverse.push_back(!r.reversible ? kIrreversible : r.explicit_reverse ? add_rate(r.reverse_rate) : kReverseEquilibrium);
    int body = -1;
    if (r.uses_third_body()) {
      body = static_cast<int>(collider_default.size());
      if (r.collider >= 0) {
        collider_default.push_back(0.0);
        collider_species.push_back(r.collider), collider_excess.push_back(1.0);
      } else {
        collider_default.push_back(r.default_efficiency);
        for (const auto& [k, efficiency] : r.efficiencies)
          collider_species.push_back(k), collider_excess.push_back(efficiency - r.default_efficiency);
      }
      collider_begin.push_back(static_cast<int>(collider_species.size()));
    }
    third_body.push_back(body);
    int f = -1;
    if (r.type == kGasFalloff || r.type == kGasChemicallyActivated) {
      f = static_cast<int>(falloff_form.size());
      falloff_rate.push_back(add_rate(r.falloff_rate));
      falloff_form.push_back(r.falloff_form);
      falloff_params.insert(falloff_params.end(), r.falloff_params.begin(), r.falloff_params.end());
    }
    falloff.push_back(f);
    int p = -1;
    if (r.type == kGasPressureDependent) {
      p = static_cast<int>(plog_level_begin.size()) - 1;
      for (size_t i = 0; i < r.plog.size(); ++i) {
        const bool new_level = i == 0 || r.plog[i].first != r.plog[i - 1].first;
        if (new_level) {
          plog_log_pressure.push_back(std::log(r.plog[i].first));
          plog_level_rates.push_back(static_cast<int>(plog_arrhenius.size() / kArrheniusStride));
        }
        const Arrhenius& k = r.plog[i].second;
        plog_arrhenius.insert(plog_arrhenius.end(), {k.a, k.b, k.ea_over_r});
      }
      plog_level_begin.push_back(static_cast<int>(plog_log_pressure.size()));
    }
    plog.push_back(p);
  }
  // PLOG levels' rates follow every other Arrhenius entry, in one block.
  const int plog_base = static_cast<int>(arrhenius.size() / kArrheniusStride);
  for (int& begin : plog_level_rates) begin += plog_base;
  plog_level_rates.push_back(plog_base + static_cast<int>(plog_arrhenius.size() / kArrheniusStride));
  arrhenius.insert(arrhenius.end(), plog_arrhenius.begin(), plog_arrhenius.end());

  // The change entries species by species (a counting sort keeps reaction order).
  std::vector<int> species_change_begin(static_cast<size_t>(nspecies_) + 1, 0),
      species_change_reaction(change_species.size()), species_change_entry(change_species.size());
  for (int k : change_species) ++species_change_begin[static_cast<size_t>(k) + 1];
  for (size_t k = 0; k < static_cast<size_t>(nspecies_); ++k) species_change_begin[k + 1] += species_change_begin[k];
  {
    std::vector<int> next(species_change_begin.begin(), species_change_begin.end() - 1);
    for (int r = 0; r < nreactions_; ++r)
      for (int e = change_begin[static_cast<size_t>(r)]; e < change_begin[static_cast<size_t>(r) + 1]; ++e) {
        const auto at = static_cast<size_t>(next[static_cast<size_t>(change_species[static_cast<size_t>(e)])]++);
        species_change_reaction[at] = r, species_change_entry[at] = e;
      }
  }

  FlatArrays flat;
  molar_mass_ = flat.add(molar_mass);
  nasa7_ = flat.add(nasa7);
  type_ = flat.add(type);
  arrhenius_ = flat.add(arrhenius);
  order_begin_ = flat.add(order_begin);
  order_species_ = flat.add(order_species);
  order_ = flat.add(order);
  product_begin_ = flat.add(product_begin);
  product_species_ = flat.add(product_species);
  product_stoich_ = flat.add(product_stoich);
  change_begin_ = flat.add(change_begin);
  change_species_ = flat.add(change_species);
  change_ = flat.add(change);
  species_change_begin_ = flat.add(species_change_begin);
  species_change_reaction_ = flat.add(species_change_reaction);
  species_change_entry_ = flat.add(species_change_entry);
  reverse_ = flat.add(reverse);
  delta_moles_ = flat.add(delta_moles);
  third_body_ = flat.add(third_body);
  collider_begin_ = flat.add(collider_begin);
  collider_species_ = flat.add(collider_species);
  collider_excess_ = flat.add(collider_excess);
  collider_default_ = flat.add(collider_default);
  falloff_ = flat.add(falloff);
  falloff_rate_ = flat.add(falloff_rate);
  falloff_form_ = flat.add(falloff_form);
  falloff_params_ = flat.add(falloff_params);
  plog_ = flat.add(plog);
  plog_level_begin_ = flat.add(plog_level_begin);
  plog_log_pressure_ = flat.add(plog_log_pressure);
  plog_level_rates_ = flat.add(plog_level_rates);
  flat.close();
  ints_ = std::move(flat.ints);
  doubles_ = std::move(flat.doubles);
}

GasKinetics CompiledGas::view_at(const int* ints, const double* doubles) const {
  GasKinetics g;
  g.nspecies = nspecies_;
  g.nreactions = nreactions_;
  g.molar_mass = doubles + molar_mass_;
  g.nasa7 = doubles + nasa7_;
  g.type = ints + type_;
  g.arrhenius = doubles + arrhenius_;
  g.order_begin = ints + order_begin_;
  g.order_species = ints + order_species_;
  g.order = doubles + order_;
  g.product_begin = ints + product_begin_;
  g.product_species = ints + product_species_;
  g.product_stoich = doubles + product_stoich_;
  g.change_begin = ints + change_begin_;
  g.change_species = ints + change_species_;
  g.change = doubles + change_;
  g.species_change_begin = ints + species_change_begin_;
  g.species_change_reaction = ints + species_change_reaction_;
  g.species_change_entry = ints + species_change_entry_;
  g.reverse = ints + reverse_;
  g.delta_moles = doubles + delta_moles_;
  g.third_body = ints + third_body_;
  g.collider_begin = ints + collider_begin_;
  g.collider_species = ints + collider_species_;
  g.collider_excess = doubles + collider_excess_;
  g.collider_default = doubles + collider_default_;
  g.falloff = ints + falloff_;
  g.falloff_rate = ints + falloff_rate_;
  g.falloff_form = ints + falloff_form_;
  g.falloff_params = doubles + falloff_params_;
  g.plog = ints + plog_;
  g.plog_level_begin = ints + plog_level_begin_;
  g.plog_log_pressure = doubles + plog_log_pressure_;
  g.plog_level_rates = ints + plog_level_rates_;
  return g;
}

}  // namespace opsplit::chem
