// A gas mechanism as its loaders read it (Cantera YAML, CHEMKIN): species with
// composition, molar mass and NASA-7 thermo, reactions with every rate form, in
// opsplit's units (mol, m, s, J, K, Pa). finish() checks it as a whole (balance,
// duplicates); CompiledGas flattens it for the shared kinetics (kernels/chem/gas_kinetics.cuh).
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "chem/gas_kinetics.cuh"

namespace opsplit::chem {

struct Arrhenius {
  double a = 0.0, b = 0.0, ea_over_r = 0.0;  // A in SI units for the reaction's order
};

struct GasSpecies {
  std::string name;
  std::vector<std::pair<std::string, double>> composition;  // element symbol, atoms
  double molar_mass = 0.0;                                  // kg/mol
  double t_min = 0.0, t_mid = 0.0, t_max = 0.0;
  std::array<double, 7> low{}, high{};  // NASA-7 a0..a6
  std::string where;                    // "file:line" for messages
};

struct StoichTerm {
  int species;
  double coefficient;
};

struct GasReaction {
  std::string where;  // "file:line"
  int type = kGasElementary;
  std::vector<StoichTerm> reactants, products;  // each species once
  std::vector<StoichTerm> orders;               // forward orders where they differ from the reactants' (FORD)
  bool reversible = true;
  bool duplicate = false;
  Arrhenius rate;          // k; k_inf of a falloff; k_0 of a chemically activated reaction
  Arrhenius falloff_rate;  // the other limit
  int falloff_form = kFalloffLindemann;
  std::array<double, kFalloffStride> falloff_params{};
  // Third body: "M" (default efficiency, efficiencies) or one collider species "(+H2O)".
  int collider = -1;  // the species of a specific collider
  double default_efficiency = 1.0;
  std::vector<std::pair<int, double>> efficiencies;
  std::vector<std::pair<double, Arrhenius>> plog;  // pressure (Pa), rate; ascending, equal pressures summed
  bool explicit_reverse = false;
  Arrhenius reverse_rate;  // REV
  bool uses_third_body() const { return type == kGasThreeBody || type == kGasFalloff || type == kGasChemicallyActivated; }
  // Sum of the forward orders.
  double forward_order() const;
};

struct GasMechanism {
  std::vector<GasSpecies> species;
  std::vector<GasReaction> reactions;
  std::string source;  // the file read, for messages
  int find_species(const std::string& name) const;  // -1 when absent
  // "2 O + M <=> O2 + M": reaction r as text, from its parsed form.
  std::string equation(int r) const;
  // Checks what involves several reactions or species: element balance, duplicates
  // declared (both ways), thermo present. Throws PARSE errors naming file and line.
  void finish() const;
};

// The mechanism's flat arrays on the host; view() points GasKinetics at them, view_at()
// at copies of ints() and doubles() elsewhere (device memory).
class CompiledGas {
 public:
  explicit CompiledGas(const GasMechanism& m);
  GasKinetics view() const { return view_at(ints_.data(), doubles_.data()); }
  GasKinetics view_at(const int* ints, const double* doubles) const;
  const std::vector<int>& ints() const { return ints_; }
  const std::vector<double>& doubles() const { return doubles_; }

 private:
  int nspecies_ = 0, nreactions_ = 0;
  std::vector<int> ints_;
  std::vector<double> doubles_;
  size_t molar_mass_ = 0, nasa7_ = 0, type_ = 0, arrhenius_ = 0, order_begin_ = 0, order_species_ = 0, order_ = 0,
         product_begin_ = 0, product_species_ = 0, product_stoich_ = 0, change_begin_ = 0, change_species_ = 0,
         change_ = 0, species_change_begin_ = 0, species_change_reaction_ = 0, species_change_entry_ = 0, reverse_ = 0,
         delta_moles_ = 0, third_body_ = 0, collider_begin_ = 0, collider_species_ = 0,
         collider_excess_ = 0, collider_default_ = 0, falloff_ = 0, falloff_rate_ = 0, falloff_form_ = 0,
         falloff_params_ = 0, plog_ = 0, plog_level_begin_ = 0, plog_log_pressure_ = 0, plog_level_rates_ = 0;
};

// Atomic weight (kg/mol) of an element symbol, case-insensitive ("AR" = "Ar"); 0 when
// not in the table.
double element_weight(const std::string& symbol);

}  // namespace opsplit::chem
