#include "chem/mechanism.hpp"

#include "chem/flat_arrays.hpp"
#include "chem/gas_jacobian.cuh"
#include "chem/rate_laws.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iterator>
#include <utility>

namespace opsplit::chem {
namespace {

constexpr size_t kMaxNameBytes = 64;
constexpr size_t kMaxLabelBytes = 256;  // a parameter's label (is_label)
constexpr int kMaxCoefficient = 16;  // integer powers by repeated products
// Entries a side may list: checked before the arrays are read, so that a count larger
// than the host's arrays is refused rather than read past.
constexpr int kMaxSideEntries = 256;
constexpr double kMaxYield = 1000.0;  // a product's yield, summed over its entries

// One side of a reaction: the count and the species checked, each entry's amount from
// amount_at(i) (which checks it), a species listed twice added up, and each sum at most
// `most`. Integer coefficients and real yields differ only in their amounts.
template <class Amount, class AmountAt>
std::vector<std::pair<int, Amount>> merged_side(int count, const int* species, int nspecies, const std::string& name,
                                                AmountAt amount_at, Amount most, const char* amount_name) {
  if (count < 0 || count > kMaxSideEntries)
    fail_argument("n" + name + "=" + num(count) + " is not in [0, " + num(kMaxSideEntries) + "]");
  if (count > 0 && species == nullptr) fail_argument(name + " is NULL with n" + name + "=" + num(count));
  std::vector<std::pair<int, Amount>> entries;
  for (int i = 0; i < count; ++i) {
    const int s = species[i];
    if (s < 0 || s >= nspecies)
      fail_argument(name + "[" + num(i) + "]=" + num(s) + " is not a species in [0, " + num(nspecies) + ")");
    const Amount a = amount_at(i);
    bool merged = false;
    for (auto& [species_of, sum] : entries)
      if (species_of == s) sum += a, merged = true;
    if (!merged) entries.emplace_back(s, a);
  }
  for (const auto& [s, sum] : entries)
    if (std::fabs(static_cast<double>(sum)) > static_cast<double>(most))
      fail_argument(name + ": species " + num(s) + " has " + amount_name + " " + num(sum) + " in all, more than " +
                    num(most));
  return entries;
}

// A side with integer coefficients (NULL: all 1).
std::vector<Term> side(int count, const int* species, const int* coefficients, int nspecies, const char* which) {
  const std::string name(which);
  auto coefficient_at = [&](int i) {
    const int c = coefficients != nullptr ? coefficients[i] : 1;
    if (c < 1 || c > kMaxCoefficient)
      fail_argument(name + "_coefficients[" + num(i) + "]=" + num(c) + " is not in [1, " + num(kMaxCoefficient) + "]");
    return c;
  };
  std::vector<Term> terms;
  for (const auto& [s, c] : merged_side(count, species, nspecies, name, coefficient_at, kMaxCoefficient, "coefficient"))
    terms.push_back({s, c});
  return terms;
}

// The products: integer coefficients (or none: all 1) or real yields, merged per species.
std::vector<Yield> products_side(int count, const int* species, const int* coefficients, const double* yields,
                                 int nspecies) {
  std::vector<Yield> out;
  if (yields == nullptr) {
    for (const Term& t : side(count, species, coefficients, nspecies, "products"))
      out.push_back({t.species, static_cast<double>(t.coefficient)});
    return out;
  }
  auto yield_at = [&](int i) {
    const double y = yields[i];
    if (!(y != 0.0 && std::fabs(y) <= kMaxYield))  // NaN fails too
      fail_argument("product_yields[" + num(i) + "]=" + num(y) + " is 0 or not in [-" + num(kMaxYield) + ", " +
                    num(kMaxYield) + "]");
    return y;
  };
  for (const auto& [s, y] : merged_side(count, species, nspecies, "products", yield_at, kMaxYield, "yield"))
    out.push_back({s, y});
  return out;
}

}  // namespace
}  // namespace opsplit::chem

using namespace opsplit;
using namespace opsplit::chem;

opsplit_mechanism_s::opsplit_mechanism_s(Context& ctx, GasMechanism gas) : ContextMember(ctx) {
  for (const GasSpecies& s : gas.species) species_.push_back(s.name);
  for (size_t r = 0; r < gas.reactions.size(); ++r) equations_.push_back(gas.equation(static_cast<int>(r)));
  gas_ = std::make_unique<const GasMechanism>(std::move(gas));
  compiled_gas_ = std::make_unique<const CompiledGas>(*gas_);
}

void opsplit_mechanism_s::start_edit() {
  if (is_gas())
    fail(OPSPLIT_ERROR_UNSUPPORTED, "the mechanism was loaded from " + gas_->source + ": a loaded mechanism cannot be edited");
  std::atomic_store(&evaluated_, std::shared_ptr<const CompiledMechanism>());
}

const GasMechanism& opsplit_mechanism_s::gas(const char* what) const {
  if (!is_gas())
    fail(OPSPLIT_ERROR_UNSUPPORTED, std::string(what) + ": the mechanism was built through the API and has no "
                                                        "thermodynamic data (load one from a mechanism file)");
  return *gas_;
}

const CompiledGas& opsplit_mechanism_s::compiled_gas(const char* what) const {
  gas(what);
  return *compiled_gas_;
}

int opsplit_mechanism_s::nreactions() const {
  return is_gas() ? static_cast<int>(gas_->reactions.size()) : static_cast<int>(reactions_.size());
}

const std::string& opsplit_mechanism_s::equation(int reaction) const {
  if (reaction < 0 || reaction >= nreactions())
    fail_argument("reaction=" + num(reaction) + " is not in [0, " + num(nreactions()) + ")");
  if (equations_.empty()) {  // a built mechanism's mass-action reactions, irreversible
    for (const Reaction& r : reactions_) {
      auto side = [this](const auto& terms) {
        std::string s;
        for (const auto& t : terms) {
          const double c = amount(t), size = std::fabs(c);  // a negative yield reads "- 2.1 PAR"
          s += (s.empty() ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ")) +
               (size != 1.0 ? num(size) + " " : std::string()) + species_[static_cast<size_t>(t.species)];
        }
        return s.empty() ? std::string("0") : s;
      };
      equations_.push_back(side(r.reactants) + " => " + side(r.products));
    }
  }
  return equations_[static_cast<size_t>(reaction)];
}

int opsplit_mechanism_s::add_species(const char* name) {
  start_edit();
  if (name == nullptr) fail_argument("name is NULL");
  const size_t len = std::strlen(name);
  if (len == 0 || len > kMaxNameBytes)
    fail_argument("name \"" + std::string(name, std::min(len, kMaxNameBytes)) + "\" must have 1 to " +
                  num(static_cast<long long>(kMaxNameBytes)) + " bytes");
  for (const std::string& s : species_)
    if (s == name) fail_argument("species \"" + s + "\" already exists");
  species_.emplace_back(name);
  return nspecies() - 1;
}

int opsplit_mechanism_s::find_species(const char* name) const {
  if (name == nullptr) fail_argument("name is NULL");
  for (size_t i = 0; i < species_.size(); ++i)
    if (species_[i] == name) return static_cast<int>(i);
  fail_argument("no species \"" + std::string(name) + "\"");
}

const std::string& opsplit_mechanism_s::species_name(int index) const {
  if (index < 0 || index >= nspecies())
    fail_argument("index=" + num(index) + " is not a species in [0, " + num(nspecies()) + ")");
  return species_[static_cast<size_t>(index)];
}

int opsplit_mechanism_s::add_reaction(int nreactants, const int* reactants, const int* reactant_coefficients,
                                      int nproducts, const int* products, const int* product_coefficients,
                                      const double* product_yields) {
  start_edit();
  Reaction r;
  r.reactants = side(nreactants, reactants, reactant_coefficients, nspecies(), "reactants");
  r.products = products_side(nproducts, products, product_coefficients, product_yields, nspecies());
  if (r.reactants.empty() && r.products.empty()) fail_argument("a reaction needs a reactant or a product");
  reactions_.push_back(std::move(r));
  equations_.clear();  // rebuilt on the next query; a refused edit leaves them valid
  return nreactions() - 1;
}

void opsplit_mechanism_s::set_rate(int reaction, int kind, double a, double b, double ea, int param) {
  start_edit();
  if (reaction < 0 || reaction >= nreactions())
    fail_argument("reaction=" + num(reaction) + " is not in [0, " + num(nreactions()) + ")");
  if (kind != kRateConstant && kind != kRateArrhenius && kind != kRateParameter)
    fail_argument("kind=" + num(kind) + " is not CONSTANT (0), ARRHENIUS (1) or PARAMETER (2)");
  if (!std::isfinite(a)) fail_argument("A=" + num(a) + " is not finite");
  const bool uses_param = kind != kRateConstant;
  if (kind == kRateArrhenius && !std::isfinite(b)) fail_argument("b=" + num(b) + " is not finite");
  if (kind == kRateArrhenius && !std::isfinite(ea)) fail_argument("Ea=" + num(ea) + " is not finite");
  if (uses_param && (param < 0 || param >= kMaxSystemParameters))
    fail_argument("param=" + num(param) + " is not in [0, " + num(kMaxSystemParameters) +
                  ") (an ODE batch holds at most " + num(kMaxSystemParameters) + " parameters per system)");
  Reaction& r = reactions_[static_cast<size_t>(reaction)];
  r.has_rate = true;
  r.kind = kind;
  r.a = a;
  r.b = kind == kRateArrhenius ? b : 0.0;
  r.ea = kind == kRateArrhenius ? ea : 0.0;
  r.param = uses_param ? param : 0;
  r.program = RateProgram{};
  r.program_inputs = 0;
}

// A label as MICM's state names its per-cell inputs ("PHOTO.O3->O1D", "SURF.rxn.effective
// radius [m]"): printable ASCII with a '.' after its prefix, neither starting nor ending
// with a space. Expressions cannot name it; readers and hosts find it
// (opsplit_mechanism_find_parameter).
static bool is_label(const std::string& text) {
  if (text.size() < 2 || text.size() > kMaxLabelBytes || text.front() == ' ' || text.back() == ' ' ||
      text.find('.') == std::string::npos || text.front() == '.')
    return false;
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= ' ' && c <= '~'; });
}

// A parameter's name: a letter or _, then letters, digits and _ (as KPP's species names),
// or such a name with an index in parentheses, J(4), or a label (is_label); the case does
// not count. Its key in parameter_names_ (upper case, the index without leading zeros),
// or "" when `text` is no such name.
static std::string parameter_key(const std::string& text) {
  size_t i = 0;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) ++i;
  const bool identifier = i > 0 && i <= kMaxNameBytes && !std::isdigit(static_cast<unsigned char>(text[0]));
  if (identifier && i == text.size()) return upper_case(text);
  size_t j = i + 1;  // NAME(index)
  while (j < text.size() && std::isdigit(static_cast<unsigned char>(text[j]))) ++j;
  const bool indexed = identifier && text[i] == '(' && j > i + 1 && j - i - 1 <= 9 && j + 1 == text.size() &&
                       text[j] == ')';
  if (indexed) return upper_case(text.substr(0, i)) + "(" + num(std::stoll(text.substr(i + 1, j - i - 1))) + ")";
  return is_label(text) ? upper_case(text) : "";
}

void opsplit_mechanism_s::name_parameter(int param, const char* name) {
  start_edit();
  if (param < 0 || param >= kMaxSystemParameters)
    fail_argument("param=" + num(param) + " is not in [0, " + num(kMaxSystemParameters) + ")");
  if (name == nullptr) fail_argument("name is NULL");
  const std::string text(name, strnlen(name, kMaxLabelBytes + 1));
  const std::string key = parameter_key(text);
  if (key.empty())
    fail_argument("name \"" + text + "\" is not a name (a letter or _, then letters, digits or _, at most " +
                  num(static_cast<long long>(kMaxNameBytes)) + " bytes), a name with an index, such as J(4), or a label (printable ASCII with a '.' after its prefix, at most " +
                  num(static_cast<long long>(kMaxLabelBytes)) + " bytes, no space at either end: PHOTO.O3->O1D)");
  const auto it = parameter_names_.find(key);
  if (it != parameter_names_.end() && it->second != param)
    fail_argument("name \"" + text + "\" already names parameter " + num(it->second));
  for (auto n = parameter_names_.begin(); n != parameter_names_.end();)
    n = n->second == param ? parameter_names_.erase(n) : std::next(n);  // a parameter has one name
  parameter_names_[key] = param;
  given_names_[param] = text;
}

const std::string& opsplit_mechanism_s::parameter_name(int param) const {
  if (param < 0 || param >= kMaxSystemParameters)
    fail_argument("param=" + num(param) + " is not in [0, " + num(kMaxSystemParameters) + ")");
  static const std::string none;
  const auto it = given_names_.find(param);
  return it != given_names_.end() ? it->second : none;
}

void opsplit_mechanism_s::set_rate_expression(int reaction, const char* expression) {
  start_edit();
  if (reaction < 0 || reaction >= nreactions())
    fail_argument("reaction=" + num(reaction) + " is not in [0, " + num(nreactions()) + ")");
  if (expression == nullptr) fail_argument("expression is NULL");
  constexpr size_t kMaxExpressionBytes = 1 << 16;
  const size_t length = strnlen(expression, kMaxExpressionBytes + 1);
  if (length > kMaxExpressionBytes)
    fail_argument("expression is longer than " + num(static_cast<long long>(kMaxExpressionBytes)) + " bytes");
  RateNames names;
  names.input = [this](const std::string& name, int index) {
    const auto it = parameter_names_.find(index < 0 ? name : name + "(" + num(index) + ")");
    return it != parameter_names_.end() ? it->second : -1;
  };
  names.functions = all_rate_laws();
  RateProgram program;
  RateError error;
  if (!compile_rate_expression(std::string(expression, length), names, program, error))
    fail(OPSPLIT_ERROR_PARSE, "reaction " + num(reaction) + ", column " + num(error.column) + ": " + error.message);
  set_rate_program(reaction, std::move(program));
}

void opsplit_mechanism_s::set_rate_species_sum(int reaction, int n, const int* species) {
  start_edit();
  if (reaction < 0 || reaction >= nreactions())
    fail_argument("reaction=" + num(reaction) + " is not in [0, " + num(nreactions()) + ")");
  if (n < 0 || n > nspecies()) fail_argument("n=" + num(n) + " is not in [0, " + num(nspecies()) + "]");
  if (n > 0 && species == nullptr) fail_argument("species is NULL");
  std::vector<int> summed(species, species + n);
  std::vector<bool> seen(static_cast<size_t>(nspecies()), false);
  for (int i = 0; i < n; ++i) {
    const int s = summed[static_cast<size_t>(i)];
    if (s < 0 || s >= nspecies())
      fail_argument("species[" + num(i) + "]=" + num(s) + " is not a species in [0, " + num(nspecies()) + ")");
    if (seen[static_cast<size_t>(s)]) fail_argument("species[" + num(i) + "]=" + num(s) + " is listed twice");
    seen[static_cast<size_t>(s)] = true;
  }
  reactions_[static_cast<size_t>(reaction)].summed = std::move(summed);
}

void opsplit_mechanism_s::add_rate_factor(int reaction, int kind, int species, double k, double p) {
  start_edit();
  if (reaction < 0 || reaction >= nreactions())
    fail_argument("reaction=" + num(reaction) + " is not in [0, " + num(nreactions()) + ")");
  const std::string where = "reaction " + num(reaction) + ": ";
  if (kind < kFactorMonod || kind > kFactorThreshold)
    fail_argument(where + "kind=" + num(kind) +
                  " is not OPSPLIT_FACTOR_MONOD (0), OPSPLIT_FACTOR_INHIBITION (1) or OPSPLIT_FACTOR_THRESHOLD (2)");
  if (species < 0 || species >= nspecies())
    fail_argument(where + "species=" + num(species) + " is not a species in [0, " + num(nspecies()) + ")");
  std::vector<RateFactor>& factors = reactions_[static_cast<size_t>(reaction)].factors;
  if (static_cast<int>(factors.size()) >= kMaxRateFactors)
    fail_argument(where + "it has " + num(kMaxRateFactors) + " factors, the most a reaction takes");
  const char* constant = kind == kFactorThreshold ? "the switch concentration" : kind == kFactorMonod
                                                                                     ? "the half-saturation constant"
                                                                                     : "the inhibition constant";
  if (!std::isfinite(k) || (kind == kFactorThreshold ? k < 0.0 : k <= 0.0))
    fail_argument(where + constant + " " + num(k) + " must be finite and " + (kind == kFactorThreshold ? ">= 0" : "> 0"));
  if (kind == kFactorMonod && (!std::isfinite(p) || p < 0.0))
    fail_argument(where + "the threshold concentration " + num(p) + " must be finite and >= 0");
  if (kind == kFactorThreshold && (!std::isfinite(p) || p == 0.0))
    fail_argument(where + "the switch's steepness " + num(p) + " must be finite and not 0");
  factors.push_back({kind, species, k, kind == kFactorInhibition ? 0.0 : p});
}

void opsplit_mechanism_s::clear_rate_factors(int reaction) {
  start_edit();
  if (reaction < 0 || reaction >= nreactions())
    fail_argument("reaction=" + num(reaction) + " is not in [0, " + num(nreactions()) + ")");
  reactions_[static_cast<size_t>(reaction)].factors.clear();
}

void opsplit_mechanism_s::set_rate_program(int reaction, RateProgram program) {
  int inputs = 0;
  for (int i = 0; i < program.length(); ++i)
    if (program.code[static_cast<size_t>(2 * i)] == kOpInput) inputs = std::max(inputs, program.code[static_cast<size_t>(2 * i + 1)] + 1);
  Reaction& r = reactions_[static_cast<size_t>(reaction)];
  r.has_rate = true;
  r.kind = kRateExpression;
  r.a = r.b = r.ea = 0.0;
  r.param = 0;
  r.program = std::move(program);
  r.program_inputs = inputs;
}

int opsplit_mechanism_s::find_parameter(const char* name) const {
  if (name == nullptr) fail_argument("name is NULL");
  const std::string text(name, strnlen(name, kMaxLabelBytes + 12));
  const auto it = parameter_names_.find(parameter_key(text));
  if (it == parameter_names_.end()) fail_argument("no parameter is named \"" + text.substr(0, kMaxLabelBytes) + "\"");
  return it->second;
}

int opsplit_mechanism_s::nparams() const {
  if (is_gas()) return 1;
  int n = 0;
  for (const Reaction& r : reactions_) {
    if (r.has_rate && (r.kind == kRateArrhenius || r.kind == kRateParameter)) n = std::max(n, r.param + 1);
    if (r.has_rate && r.kind == kRateExpression) n = std::max(n, r.program_inputs);
  }
  return n;
}

std::unique_ptr<opsplit_mechanism_s> opsplit_mechanism_s::copy_built(const char* what) const {
  if (is_gas()) fail(OPSPLIT_ERROR_UNSUPPORTED, std::string(what) + ": the mechanism was loaded from a gas mechanism file");
  auto copy = std::make_unique<opsplit_mechanism_s>(context());
  copy->species_ = species_;
  copy->reactions_ = reactions_;
  copy->parameter_names_ = parameter_names_;
  copy->given_names_ = given_names_;
  return copy;
}

void opsplit_mechanism_s::check_complete(const char* what) const {
  if (is_gas()) return;
  for (size_t i = 0; i < reactions_.size(); ++i)
    if (!reactions_[i].has_rate)
      fail_argument(std::string(what) + ": reaction " + num(static_cast<long long>(i)) +
                    " has no rate (opsplit_mechanism_set_rate)");
}

void opsplit_mechanism_s::evaluate(const double* y, const double* params, double* ydot, double* jacobian) const {
  if (y == nullptr) fail_argument("y is NULL");
  if (ydot == nullptr) fail_argument("ydot is NULL");
  if (params == nullptr && nparams() > 0)
    fail_argument("params is NULL and the rates read " + num(nparams()) + " parameters");
  if (is_gas()) {
    const double T = params[0];
    if (!(T > 0.0) || !std::isfinite(T)) fail_argument("params[0] (T) = " + num(T) + " K is not positive and finite");
    check_gas_state(T, y, "y");
    const GasKinetics g = compiled_gas_->view();
    const auto ns = static_cast<size_t>(nspecies());
    std::vector<double> g_RT(ns);
    net_production_rates(g, T, y, g_RT.data(), ydot);
    if (jacobian != nullptr) {  // d wdot/dC at fixed T; its wdot and d wdot/dT are not wanted
      std::vector<double> h_RT(ns), wdot(ns), dT(ns), uniform_row(ns);
      net_production_jacobian(g, T, y, g_RT.data(), h_RT.data(), wdot.data(), jacobian, nspecies(), dT.data(),
                              uniform_row.data());
    }
    return;
  }
  check_complete("mech");
  // Compiled once for all evaluations until the next edit: a host's solver calls this
  // for every right-hand side. Two threads may both compile it the first time; both
  // results are the same.
  std::shared_ptr<const CompiledMechanism> compiled = std::atomic_load(&evaluated_);
  if (!compiled) {
    compiled = std::make_shared<const CompiledMechanism>(*this);
    std::atomic_store(&evaluated_, compiled);
  }
  const MassAction m = compiled->view();
  std::vector<double> k(static_cast<size_t>(nreactions()));
  rate_constants(m, params, k.data());
  mass_action_rates(m, k.data(), y, ydot);
  if (jacobian != nullptr) mass_action_jacobian(m, k.data(), y, jacobian);
}

double opsplit_mechanism_s::check_gas_state(double T, const double* concentrations, const char* argument) const {
  if (!(T > 0.0) || !std::isfinite(T)) fail_argument("T=" + num(T) + " K is not positive and finite");
  if (concentrations == nullptr) fail_argument(std::string(argument) + " is NULL");
  for (int k = 0; k < nspecies(); ++k)
    if (!std::isfinite(concentrations[k]))
      fail_argument(std::string(argument) + "[" + num(k) + "]=" + num(concentrations[k]) + " is not finite");
  const double total = total_concentration(compiled_gas(argument).view(), concentrations);
  if (!(total > 0.0))
    fail_argument(std::string(argument) + " sums to " + num(total) +
                  " mol/m^3: the ideal-gas pressure sum(C) R T must be positive");
  return total;
}

namespace opsplit::chem {

CompiledMechanism::CompiledMechanism(const Mechanism& mech)
    : nspecies_(mech.nspecies()), nreactions_(mech.nreactions()), nparams_(mech.nparams()) {
  const auto& reactions = mech.reactions();
  std::vector<int> reactant_begin{0}, reactant_species, reactant_order, change_begin{0}, change_species, kind, param,
      code_begin{0}, code, constant_begin, sum_begin{0}, sum_species, factor_begin{0}, factor_kind, factor_species;
  std::vector<double> change_delta, a, b, ea_over_r, constants, factor_k, factor_p;
  for (const Reaction& r : reactions) {
    for (const Term& t : r.reactants) reactant_species.push_back(t.species), reactant_order.push_back(t.coefficient);
    reactant_begin.push_back(static_cast<int>(reactant_species.size()));
    // Net change per species, in species order (a fixed order: the same sums everywhere).
    // Integer coefficients give the integers exactly, as before yields were real.
    for (int s = 0; s < nspecies_; ++s) {
      double delta = 0.0;
      for (const Yield& p : r.products)
        if (p.species == s) delta += p.yield;
      for (const Term& t : r.reactants)
        if (t.species == s) delta -= t.coefficient;
      if (delta != 0.0) change_species.push_back(s), change_delta.push_back(delta);
    }
    change_begin.push_back(static_cast<int>(change_species.size()));
    kind.push_back(r.kind);
    param.push_back(r.param);
    a.push_back(r.a);
    b.push_back(r.b);
    ea_over_r.push_back(r.ea / kGasConstant);
    code.insert(code.end(), r.program.code.begin(), r.program.code.end());
    code_begin.push_back(static_cast<int>(code.size() / 2));
    constant_begin.push_back(static_cast<int>(constants.size()));
    constants.insert(constants.end(), r.program.constants.begin(), r.program.constants.end());
    sum_species.insert(sum_species.end(), r.summed.begin(), r.summed.end());
    sum_begin.push_back(static_cast<int>(sum_species.size()));
    for (const RateFactor& f : r.factors)
      factor_kind.push_back(f.kind), factor_species.push_back(f.species), factor_k.push_back(f.k),
          factor_p.push_back(f.p);
    factor_begin.push_back(static_cast<int>(factor_kind.size()));
  }
  FlatArrays flat;
  reactant_begin_ = flat.add(reactant_begin);
  reactant_species_ = flat.add(reactant_species);
  reactant_order_ = flat.add(reactant_order);
  change_begin_ = flat.add(change_begin);
  change_species_ = flat.add(change_species);
  change_delta_ = flat.add(change_delta);
  rate_kind_ = flat.add(kind);
  rate_param_ = flat.add(param);
  rate_a_ = flat.add(a);
  rate_b_ = flat.add(b);
  rate_ea_over_r_ = flat.add(ea_over_r);
  rate_code_begin_ = flat.add(code_begin);
  rate_code_ = flat.add(code);
  rate_constant_begin_ = flat.add(constant_begin);
  rate_constants_ = flat.add(constants);
  sum_begin_ = flat.add(sum_begin);
  sum_species_ = flat.add(sum_species);
  nfactors_ = static_cast<int>(factor_kind.size());
  factor_begin_ = flat.add(factor_begin);
  factor_kind_ = flat.add(factor_kind);
  factor_species_ = flat.add(factor_species);
  factor_k_ = flat.add(factor_k);
  factor_p_ = flat.add(factor_p);
  // Jacobian entries: (change species, reactant species) of every reaction, then (change
  // species, summed species), then (change species, factor species): the term order of
  // mass_action_jacobian_sparse.
  std::vector<std::pair<int, int>> entries;
  const auto changes_of = [&](int r, int column) {
    for (int e = change_begin[static_cast<size_t>(r)]; e < change_begin[static_cast<size_t>(r) + 1]; ++e)
      entries.emplace_back(change_species[static_cast<size_t>(e)], column);
  };
  for (int r = 0; r < nreactions_; ++r)
    for (int a = reactant_begin[static_cast<size_t>(r)]; a < reactant_begin[static_cast<size_t>(r) + 1]; ++a)
      changes_of(r, reactant_species[static_cast<size_t>(a)]);
  for (int r = 0; r < nreactions_; ++r)
    for (int i = sum_begin[static_cast<size_t>(r)]; i < sum_begin[static_cast<size_t>(r) + 1]; ++i)
      changes_of(r, sum_species[static_cast<size_t>(i)]);
  for (int r = 0; r < nreactions_; ++r)
    for (int f = factor_begin[static_cast<size_t>(r)]; f < factor_begin[static_cast<size_t>(r) + 1]; ++f)
      changes_of(r, factor_species[static_cast<size_t>(f)]);
  const linalg::SparsePattern lu = linalg::analyze_sparse_lu(nspecies_, entries);
  std::vector<int> slots;
  for (const auto& [i, j] : entries) slots.push_back(lu.slot(i, j));
  lu_nnz_ = lu.nnz();
  lu_order_ = flat.add(lu.order);
  lu_row_begin_ = flat.add(lu.row_begin);
  lu_col_ = flat.add(lu.col);
  lu_diag_ = flat.add(lu.diag);
  lu_update_begin_ = flat.add(lu.update_begin);
  lu_update_target_ = flat.add(lu.update_target);
  jacobian_slot_ = flat.add(slots);
  flat.close();
  ints_ = std::move(flat.ints);
  doubles_ = std::move(flat.doubles);
}

MassAction CompiledMechanism::view_at(const int* ints, const double* doubles) const {
  MassAction m;
  m.nspecies = nspecies_;
  m.nreactions = nreactions_;
  m.reactant_begin = ints + reactant_begin_;
  m.reactant_species = ints + reactant_species_;
  m.reactant_order = ints + reactant_order_;
  m.change_begin = ints + change_begin_;
  m.change_species = ints + change_species_;
  m.change_delta = doubles + change_delta_;
  m.rate_kind = ints + rate_kind_;
  m.rate_param = ints + rate_param_;
  m.rate_a = doubles + rate_a_;
  m.rate_b = doubles + rate_b_;
  m.rate_ea_over_r = doubles + rate_ea_over_r_;
  m.rate_code_begin = ints + rate_code_begin_;
  m.rate_code = ints + rate_code_;
  m.rate_constant_begin = ints + rate_constant_begin_;
  m.rate_constants = doubles + rate_constants_;
  m.sum_begin = ints + sum_begin_;
  m.sum_species = ints + sum_species_;
  m.nfactors = nfactors_;
  m.factor_begin = ints + factor_begin_;
  m.factor_kind = ints + factor_kind_;
  m.factor_species = ints + factor_species_;
  m.factor_k = doubles + factor_k_;
  m.factor_p = doubles + factor_p_;
  m.lu.n = nspecies_;
  m.lu.nnz = lu_nnz_;
  m.lu.order = ints + lu_order_;
  m.lu.row_begin = ints + lu_row_begin_;
  m.lu.col = ints + lu_col_;
  m.lu.diag = ints + lu_diag_;
  m.lu.update_begin = ints + lu_update_begin_;
  m.lu.update_target = ints + lu_update_target_;
  m.jacobian_slot = ints + jacobian_slot_;
  return m;
}

MassAction CompiledMechanism::view() const { return view_at(ints_.data(), doubles_.data()); }

}  // namespace opsplit::chem
