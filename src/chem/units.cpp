#include "chem/units.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "chem/thermo.cuh"
#include "core/error.hpp"

namespace opsplit::chem {
namespace {

constexpr double kAvogadro = 6.02214076e23;  // 1/mol, exact
constexpr double kBoltzmann = kGasConstant / kAvogadro;

struct NamedUnit {
  const char* name;
  Unit unit;
};
// factor, then exponents of kg, m, s, mol, K.
constexpr Unit length(double f) { return {f, 0, 1, 0, 0, 0}; }
constexpr Unit time_unit(double f) { return {f, 0, 0, 1, 0, 0}; }
constexpr Unit mass(double f) { return {f, 1, 0, 0, 0, 0}; }
constexpr Unit quantity(double f) { return {f, 0, 0, 0, 1, 0}; }
constexpr Unit energy(double f) { return {f, 1, 2, -2, 0, 0}; }
constexpr Unit force(double f) { return {f, 1, 1, -2, 0, 0}; }
constexpr Unit pressure_unit(double f) { return {f, 1, -1, -2, 0, 0}; }
constexpr Unit kelvin(double f) { return {f, 0, 0, 0, 0, 1}; }
constexpr Unit per_concentration(double f) { return {f, 0, 3, 0, -1, 0}; }  // m^3/mol
const NamedUnit kUnits[] = {
    {"m", length(1.0)},        {"cm", length(1e-2)},          {"mm", length(1e-3)},     {"um", length(1e-6)},
    {"nm", length(1e-9)},      {"km", length(1e3)},           {"s", time_unit(1.0)},    {"ms", time_unit(1e-3)},
    {"us", time_unit(1e-6)},   {"ns", time_unit(1e-9)},       {"min", time_unit(60.0)}, {"hr", time_unit(3600.0)},
    {"kg", mass(1.0)},         {"g", mass(1e-3)},             {"mol", quantity(1.0)},   {"kmol", quantity(1e3)},
    {"molec", quantity(1.0 / kAvogadro)},                     {"K", kelvin(1.0)},
    {"J", energy(1.0)},        {"kJ", energy(1e3)},           {"MJ", energy(1e6)},      {"cal", energy(4.184)},
    {"kcal", energy(4184.0)},  {"erg", energy(1e-7)},         {"eV", energy(1.602176634e-19)},
    {"N", force(1.0)},         {"dyn", force(1e-5)},          {"Pa", pressure_unit(1.0)},
    {"kPa", pressure_unit(1e3)}, {"MPa", pressure_unit(1e6)}, {"bar", pressure_unit(1e5)},
    {"atm", pressure_unit(101325.0)}};

Unit power(const Unit& u, double p) {
  return {std::pow(u.factor, p), u.mass * p, u.length * p, u.time * p, u.quantity * p, u.temperature * p};
}
Unit times(const Unit& a, const Unit& b) {
  return {a.factor * b.factor, a.mass + b.mass, a.length + b.length, a.time + b.time, a.quantity + b.quantity,
          a.temperature + b.temperature};
}

}  // namespace

bool Unit::same_dimension(const Unit& o) const {
  auto near = [](double x, double y) { return std::abs(x - y) < 1e-12; };
  return near(mass, o.mass) && near(length, o.length) && near(time, o.time) && near(quantity, o.quantity) &&
         near(temperature, o.temperature);
}

std::string Unit::dimension() const {
  std::string s;
  auto part = [&s](const char* name, double e) {
    if (e == 0.0) return;
    if (!s.empty()) s += " ";
    s += name;
    if (e != 1.0) s += "^" + num(e);
  };
  part("kg", mass), part("m", length), part("s", time), part("mol", quantity), part("K", temperature);
  return s.empty() ? "1" : s;
}

Unit parse_unit(const std::string& text) {
  Unit result;
  size_t i = 0;
  bool divide = false, expect_factor = true;
  auto fail_here = [&](const std::string& why) {
    throw std::invalid_argument("unit \"" + text + "\": " + why + " at character " + std::to_string(i + 1));
  };
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == ' ') {
      ++i;
      continue;
    }
    if (ch == '*' || ch == '/') {
      if (expect_factor) fail_here("an operator without a unit before it");
      divide = ch == '/';
      expect_factor = true;
      ++i;
      continue;
    }
    const size_t start = i;
    while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    const std::string name = text.substr(start, i - start);
    if (name.empty()) fail_here("an unexpected '" + std::string(1, ch) + "'");
    Unit u;
    if (name != "1") {
      bool found = false;
      for (const NamedUnit& n : kUnits)
        if (name == n.name) u = n.unit, found = true;
      if (!found) {
        i = start;
        fail_here("unknown unit \"" + name + "\"");
      }
    }
    double exponent = 1.0;
    if (i < text.size() && text[i] == '^') {
      char* end = nullptr;
      exponent = std::strtod(text.c_str() + i + 1, &end);
      if (end == text.c_str() + i + 1) fail_here("no number after '^'");
      i = static_cast<size_t>(end - text.c_str());
    }
    result = times(result, power(u, divide ? -exponent : exponent));
    divide = false;  // "a/b c" is (a/b)*c
    expect_factor = false;
  }
  if (expect_factor) throw std::invalid_argument("unit \"" + text + "\" is empty or ends with an operator");
  return result;
}

UnitSystem::UnitSystem()
    : length_(length(1.0)),
      quantity_(quantity(1e3)),
      time_(time_unit(1.0)),
      mass_(mass(1.0)),
      energy_(energy(1.0)),
      pressure_(pressure_unit(1.0)),
      activation_energy_(times(energy(1.0), power(quantity(1e3), -1.0))) {}

void UnitSystem::set(const std::string& key, const std::string& unit) {
  const Unit u = parse_unit(unit);
  auto want = [&](const Unit& dimension, Unit& slot) {
    if (!u.same_dimension(dimension))
      throw std::invalid_argument(key + ": \"" + unit + "\" is " + u.dimension() + ", not " + dimension.dimension());
    slot = u;
  };
  bool activation_default = false;
  if (key == "length") want(length(1.0), length_);
  else if (key == "quantity") want(quantity(1.0), quantity_), activation_default = true;
  else if (key == "time") want(time_unit(1.0), time_);
  else if (key == "mass") want(mass(1.0), mass_);
  else if (key == "energy") want(energy(1.0), energy_), activation_default = true;
  else if (key == "pressure") want(pressure_unit(1.0), pressure_);
  else if (key == "temperature") {
    if (!u.same_dimension(kelvin(1.0)) || u.factor != 1.0)
      throw std::invalid_argument(key + ": \"" + unit + "\" is not K (temperatures are in kelvin)");
  }
  else if (key == "activation-energy") {
    const Unit per_quantity = times(energy(1.0), power(quantity(1.0), -1.0));
    if (!u.same_dimension(per_quantity) && !u.same_dimension(energy(1.0)) && !u.same_dimension(kelvin(1.0)))
      throw std::invalid_argument(key + ": \"" + unit + "\" is " + u.dimension() +
                                  ", not an energy per quantity, an energy or a temperature");
    activation_energy_ = u;
    explicit_activation_energy_ = true;
  } else {
    throw std::invalid_argument("unknown units entry \"" + key + "\"");
  }
  // Without its own entry, the activation energy follows energy / quantity.
  if (activation_default && !explicit_activation_energy_)
    activation_energy_ = times(energy_, power(quantity_, -1.0));
}

double UnitSystem::rate_constant_factor(double order) const {
  const double m3_per_mol = std::pow(length_.factor, 3.0) / quantity_.factor;
  return std::pow(m3_per_mol, order - 1.0) / time_.factor;
}

double UnitSystem::rate_constant(double value, const std::string& unit, double order) const {
  const Unit u = parse_unit(unit);
  const Unit want = times(power(per_concentration(1.0), order - 1.0), power(time_unit(1.0), -1.0));
  if (!u.same_dimension(want))
    throw std::invalid_argument("a rate constant of order " + num(order) + " is " + want.dimension() + ", and \"" +
                                unit + "\" is " + u.dimension());
  return value * u.factor;
}

double UnitSystem::ea_over_r(double value, const std::string& unit) const {
  const Unit u = unit.empty() ? activation_energy_ : parse_unit(unit);
  if (u.same_dimension(kelvin(1.0))) return value * u.factor;
  if (u.same_dimension(energy(1.0))) return value * u.factor / kBoltzmann;
  if (u.same_dimension(times(energy(1.0), power(quantity(1.0), -1.0)))) return value * u.factor / kGasConstant;
  throw std::invalid_argument("an activation energy in \"" + unit + "\" (" + u.dimension() +
                              ") is not an energy per quantity, an energy or a temperature");
}

double UnitSystem::pressure(double value, const std::string& unit) const {
  if (unit.empty()) return value * pressure_.factor;
  const Unit u = parse_unit(unit);
  if (!u.same_dimension(pressure_unit(1.0)))
    throw std::invalid_argument("a pressure in \"" + unit + "\" (" + u.dimension() + ") is not a pressure");
  return value * u.factor;
}

}  // namespace opsplit::chem
