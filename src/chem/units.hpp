// Units of mechanism files: a file's default units (Cantera's `units:` section,
// CHEMKIN's REACTIONS line) and values written with units ("1.0 atm",
// "1.0e13 cm^3/mol/s", "10 kcal/mol"), converted to opsplit's mol, m, s, kg, J, K, Pa.
#pragma once

#include <string>

namespace opsplit::chem {

// A unit: its size in SI (mol for quantities) and its dimension as exponents of
// mass, length, time, quantity and temperature.
struct Unit {
  double factor = 1.0;
  double mass = 0.0, length = 0.0, time = 0.0, quantity = 0.0, temperature = 0.0;
  bool same_dimension(const Unit& other) const;
  std::string dimension() const;  // "kg m^2 s^-2 mol^-1"
};

// "cm^3/mol/s", "kJ/mol", "atm", "1/s": factors joined by '*', '/' or spaces, each a unit
// name with an optional ^exponent. Throws std::invalid_argument naming what it did not read.
Unit parse_unit(const std::string& text);

class UnitSystem {
 public:
  // Cantera's defaults: m, kmol, s, kg, J, Pa, and activation energies in J/kmol.
  UnitSystem();
  // One entry of a units section (length, quantity, time, mass, energy, pressure,
  // activation-energy, temperature). Throws std::invalid_argument.
  void set(const std::string& key, const std::string& unit);
  // Multiplies a rate constant of reaction order `order` into (m^3/mol)^(order-1)/s.
  double rate_constant_factor(double order) const;
  // Ea/R in kelvin from a value in the activation-energy unit, or in `unit` when given
  // (energy per quantity, energy per molecule, or temperature).
  double ea_over_r(double value, const std::string& unit = "") const;
  double pressure(double value, const std::string& unit = "") const;  // Pa
  // A rate constant written with units: SI after checking its dimension against the order's.
  double rate_constant(double value, const std::string& unit, double order) const;

 private:
  Unit length_, quantity_, time_, mass_, energy_, pressure_, activation_energy_;
  bool explicit_activation_energy_ = false;
};

}  // namespace opsplit::chem
