// A mass-action mechanism built through the C API: species and reactions on the host.
// Attaching it to an ODE batch compiles it into flat arrays (CompiledMechanism) that
// the shared kinetics (kernels/chem/mass_action.cuh) read on either backend.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "chem/gas.hpp"
#include "chem/mass_action.cuh"
#include "chem/rate_expression.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "linalg/sparse_pattern.hpp"
#include "opsplit/mechanism.h"

namespace opsplit::chem {

// Parameters per system: the most an ODE batch holds (opsplit_ode_create's nparam), so a
// rate reads a parameter index below it.
constexpr int kMaxSystemParameters = 1024;

struct Term {
  int species;
  int coefficient;
};

// A product and how much of it a reaction makes: real-valued, as in lumped atmospheric
// mechanisms (SAPRC's 0.39 HO2); integer coefficients are the same numbers exactly.
struct Yield {
  int species;
  double yield;
};

inline double amount(const Term& t) { return t.coefficient; }
inline double amount(const Yield& p) { return p.yield; }

// A saturation factor of a reaction's rate (mass_action.cuh's FactorKind): one species'
// Monod, inhibition or threshold term.
struct RateFactor {
  int kind;
  int species;
  double k, p;
};
constexpr int kMaxRateFactors = 8;  // a reaction's: dual Monod and a few inhibitions

struct Reaction {
  std::vector<Term> reactants;  // each species once, coefficients summed (the rate law's orders)
  std::vector<Yield> products;  // each species once, yields summed
  bool has_rate = false;
  int kind = kRateConstant;
  double a = 0.0, b = 0.0, ea = 0.0;
  int param = 0;
  RateProgram program;  // kRateExpression's
  std::vector<int> summed;  // the rate's species-sum factor (MCM's RO2), none when empty
  std::vector<RateFactor> factors;  // saturation factors, none when empty
  int program_inputs = 0;  // the parameters it reads: the largest + 1
};

class CompiledMechanism;

}  // namespace opsplit::chem

// Either built through the API (mass action) or loaded from a file (a gas mechanism
// with thermodynamics, read-only).
struct opsplit_mechanism_s : opsplit::Handle<opsplit::HandleKind::mechanism>, opsplit::ContextMember {
  explicit opsplit_mechanism_s(opsplit::Context& ctx) : ContextMember(ctx) {}
  opsplit_mechanism_s(opsplit::Context& ctx, opsplit::chem::GasMechanism gas);

  int add_species(const char* name);
  int find_species(const char* name) const;  // throws when there is none
  const std::string& species_name(int index) const;
  // Products with integer coefficients, or with real yields (product_yields; the
  // integer array is then NULL): one of the two arrays, or neither (all 1).
  int add_reaction(int nreactants, const int* reactants, const int* reactant_coefficients, int nproducts,
                   const int* products, const int* product_coefficients, const double* product_yields = nullptr);
  void set_rate(int reaction, int kind, double a, double b, double ea, int param);
  // Names parameter `param` for rate expressions ("TEMP", "J(4)"); see mechanism.h.
  void name_parameter(int param, const char* name);
  void set_rate_expression(int reaction, const char* expression);
  // A rate compiled by a reader over the mechanism's named parameters.
  void set_rate_program(int reaction, opsplit::chem::RateProgram program);
  // Multiplies reaction's rate by the sum of y over `species` (n of them; n = 0 removes it).
  void set_rate_species_sum(int reaction, int n, const int* species);
  // Multiplies reaction's rate by a saturation factor (see mechanism.h); clear removes them all.
  void add_rate_factor(int reaction, int kind, int species, double k, double p);
  void clear_rate_factors(int reaction);
  // The parameter a name names (see name_parameter); throws when none does.
  int find_parameter(const char* name) const;
  // Parameter `param`'s name as name_parameter was given it; "" when it has none.
  const std::string& parameter_name(int param) const;

  int nspecies() const { return static_cast<int>(species_.size()); }
  int nreactions() const;
  int nparams() const;  // per-system parameters the rates read (a gas mechanism's: T)
  // "A + 2 B => C"; valid until the mechanism is edited or destroyed.
  const std::string& equation(int reaction) const;

  bool is_gas() const { return gas_ != nullptr; }
  // A copy of a built mechanism (species, reactions, parameter names), for objects that
  // keep their own; throws UNSUPPORTED for a loaded one.
  std::unique_ptr<opsplit_mechanism_s> copy_built(const char* what) const;
  // The loaded mechanism and its compiled arrays; throws UNSUPPORTED for a built one.
  const opsplit::chem::GasMechanism& gas(const char* what) const;
  const opsplit::chem::CompiledGas& compiled_gas(const char* what) const;
  const std::vector<opsplit::chem::Reaction>& reactions() const { return reactions_; }
  // Throws naming the first reaction without a rate.
  void check_complete(const char* what) const;

  void evaluate(const double* y, const double* params, double* ydot, double* jacobian) const;
  // Checks a gas state for the host queries: T positive and finite, concentrations finite
  // with a positive sum (the ideal-gas pressure sum(C) R T that falloff and PLOG rates
  // read must be positive; single values may be negative, as ODE solutions can be).
  // Returns the sum.
  double check_gas_state(double T, const double* concentrations, const char* argument) const;

 private:
  // Throws UNSUPPORTED for a loaded (gas) mechanism; else forgets the compiled form
  // evaluate() keeps, which the edit makes stale.
  void start_edit();
  std::vector<std::string> species_;
  std::vector<opsplit::chem::Reaction> reactions_;
  std::map<std::string, int> parameter_names_;  // upper case -> parameter
  std::map<int, std::string> given_names_;      // parameter -> its name as given
  mutable std::vector<std::string> equations_;  // built lazily, cleared by edits
  std::unique_ptr<const opsplit::chem::GasMechanism> gas_;
  std::unique_ptr<const opsplit::chem::CompiledGas> compiled_gas_;
  // evaluate()'s compiled mass-action form (read and replaced atomically), null until used.
  mutable std::shared_ptr<const opsplit::chem::CompiledMechanism> evaluated_;
};

namespace opsplit::chem {

using Mechanism = opsplit_mechanism_s;

// A mechanism's flat arrays on the host; view() points MassAction at them.
class CompiledMechanism {
 public:
  explicit CompiledMechanism(const Mechanism& m);
  MassAction view() const;
  int nspecies() const { return nspecies_; }
  int nreactions() const { return nreactions_; }
  int nparams() const { return nparams_; }
  // Every array in one block of ints and one of doubles, for copying to a device.
  const std::vector<int>& ints() const { return ints_; }
  const std::vector<double>& doubles() const { return doubles_; }
  // The same view over copies of ints() and doubles() elsewhere (device memory).
  MassAction view_at(const int* ints, const double* doubles) const;

 private:
  int nspecies_ = 0, nreactions_ = 0, nparams_ = 0;
  std::vector<int> ints_;
  std::vector<double> doubles_;
  // Offsets into ints_ / doubles_ of each array.
  size_t reactant_begin_ = 0, reactant_species_ = 0, reactant_order_ = 0, change_begin_ = 0, change_species_ = 0,
         rate_kind_ = 0, rate_param_ = 0, rate_code_begin_ = 0, rate_code_ = 0, rate_constant_begin_ = 0,
         sum_begin_ = 0, sum_species_ = 0, factor_begin_ = 0, factor_kind_ = 0, factor_species_ = 0;
  int nfactors_ = 0;
  size_t factor_k_ = 0, factor_p_ = 0;
  size_t change_delta_ = 0, rate_a_ = 0, rate_b_ = 0, rate_ea_over_r_ = 0, rate_constants_ = 0;
  // The Jacobian's sparse LU pattern and where each Jacobian term lands in it.
  int lu_nnz_ = 0;
  size_t lu_order_ = 0, lu_row_begin_ = 0, lu_col_ = 0, lu_diag_ = 0, lu_update_begin_ = 0, lu_update_target_ = 0;
  size_t jacobian_slot_ = 0;
};

}  // namespace opsplit::chem
