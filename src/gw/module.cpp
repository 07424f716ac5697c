#include "core/device_array.hpp"
#include "gw/module.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"

using namespace opsplit;

namespace {

constexpr double kKelvinAtZeroCelsius = 273.15;
constexpr double kPascalPerAtmosphere = 101325.0;
constexpr int64_t kMaxCells = 0x7fffffff;  // grid2chem holds int

void check_property(int property) {
  if (property < 0 || property > OPSPLIT_GW_BULK_DENSITY)
    fail_argument("property=" + num(property) + " is not an opsplit_gw_property");
}

template <class T>
T* array_argument(const Context& ctx, T* values, const char* name) {
  if (values == nullptr) fail_argument(std::string(name) + " is NULL");
  check_host_array(ctx, values, name);  // the module's arrays live on the host
  return values;
}

// The parameter the mechanism names `name`, or -1 when none does or the rates do not read it.
int named_parameter(const chem::Mechanism& m, const char* name) {
  try {
    const int p = m.find_parameter(name);
    return p < m.nparams() ? p : -1;
  } catch (const Error&) {
    return -1;
  }
}

}  // namespace

namespace opsplit::gw {

const char* property_name(int property) {
  static const char* const names[] = {"POROSITY",    "SATURATION", "VOLUME",      "DENSITY",
                                      "TEMPERATURE", "PRESSURE",   "BULK_DENSITY"};
  return names[property];
}

// Whether v is in property's range (groundwater.h).
bool property_in_range(int property, double v) {
  if (!std::isfinite(v)) return false;
  switch (property) {
    case OPSPLIT_GW_POROSITY:
    case OPSPLIT_GW_SATURATION:
      return v >= 0.0 && v <= 1.0;
    case OPSPLIT_GW_TEMPERATURE:
      return v > -kKelvinAtZeroCelsius;
    case OPSPLIT_GW_BULK_DENSITY:
      return v >= 0.0;
    default:  // volume, density, pressure
      return v > 0.0;
  }
}

}  // namespace opsplit::gw

opsplit_gw_s::opsplit_gw_s(Context& ctx, const chem::Mechanism& mech, int64_t nxyz)
    : ContextMember(ctx), mechanism_(mech.copy_built("opsplit_gw_create")), nxyz_(nxyz) {
  mechanism_->check_complete("opsplit_gw_create");
  if (nxyz < 1 || nxyz > kMaxCells)
    fail_argument("nxyz=" + num(static_cast<long long>(nxyz)) + " is not in [1, 2^31 - 1]");
  const auto cells = static_cast<size_t>(nxyz);
  mobile_.assign(static_cast<size_t>(nspecies()), true);
  isotherms_.assign(static_cast<size_t>(nspecies()), Isotherm{});
  list_species();
  properties_.resize(kProperties * cells);
  const double defaults[kProperties] = {0.1, 1.0, 1.0, 1.0, 25.0, 1.0, 0.0};
  for (int p = 0; p < kProperties; ++p)
    std::fill_n(properties_.begin() + static_cast<std::ptrdiff_t>(p * cells), cells, defaults[p]);
  parameters_.assign(static_cast<size_t>(mechanism_->nparams()) * cells, 0.0);
  temperature_param_ = named_parameter(*mechanism_, "TEMP");
  pressure_param_ = named_parameter(*mechanism_, "PRESS");
  std::vector<int> identity(cells);
  for (size_t g = 0; g < cells; ++g) identity[g] = static_cast<int>(g);
  set_mapping(identity.data());
}

void opsplit_gw_s::list_species() {
  components_.clear();
  immobile_.clear();
  for (int s = 0; s < nspecies(); ++s) (mobile_[static_cast<size_t>(s)] ? components_ : immobile_).push_back(s);
}

void opsplit_gw_s::check_species(int species) const {
  if (species < 0 || species >= nspecies())
    fail_argument("species=" + num(species) + " is not in [0, " + num(nspecies()) + ")");
}

void opsplit_gw_s::set_mobile(int species, bool mobile) {
  check_species(species);
  mobile_[static_cast<size_t>(species)] = mobile;
  if (!mobile) isotherms_[static_cast<size_t>(species)] = Isotherm{};
  for (int64_t c = 0; c < nchem(); ++c) amount(species, c) = 0.0;
  list_species();
}

void opsplit_gw_s::set_mapping(const int* grid2chem) {
  array_argument(context(), grid2chem, "grid2chem");
  int highest = -1;
  for (int64_t g = 0; g < nxyz_; ++g) highest = std::max(highest, grid2chem[g]);
  if (highest < 0) fail_argument("grid2chem maps no grid cell to a chemistry cell");
  if (highest >= nxyz_)
    fail_argument("grid2chem names chemistry cell " + num(highest) + ", but there are at most nxyz=" +
                  num(static_cast<long long>(nxyz_)));
  std::vector<int64_t> first(static_cast<size_t>(highest) + 1, -1);
  for (int64_t g = 0; g < nxyz_; ++g) {
    const int c = grid2chem[g];
    if (c >= 0 && first[static_cast<size_t>(c)] < 0) first[static_cast<size_t>(c)] = g;
  }
  const auto unused = std::find(first.begin(), first.end(), int64_t(-1));
  if (unused != first.end())
    fail_argument("grid2chem: chemistry cell " + num(static_cast<long long>(unused - first.begin())) +
                  " is not used, but " + num(highest) + " is (number them 0 .. nchem-1)");
  grid2chem_.assign(grid2chem, grid2chem + nxyz_);
  for (int& c : grid2chem_) c = std::max(c, -1);
  first_grid_cell_ = std::move(first);
  amounts_.assign(static_cast<size_t>(nspecies()) * first_grid_cell_.size(), 0.0);
  status_.assign(first_grid_cell_.size(), OPSPLIT_GW_CELL_NOT_RUN);
  batch_for(nchem());
}

void opsplit_gw_s::set_units(int solution, int solid) {
  if (solution < OPSPLIT_GW_MG_PER_L || solution > OPSPLIT_GW_MOL_PER_KGW)
    fail_argument("solution=" + num(solution) + " is not an opsplit_gw_solution_units");
  if (solid < OPSPLIT_GW_PER_L_CELL || solid > OPSPLIT_GW_PER_L_ROCK)
    fail_argument("solid=" + num(solid) + " is not an opsplit_gw_solid_units");
  solution_units_ = solution, solid_units_ = solid;
}

void opsplit_gw_s::set_molar_masses(const double* grams_per_mole) {
  array_argument(context(), grams_per_mole, "grams_per_mole");
  for (int s = 0; s < nspecies(); ++s)
    if (!(grams_per_mole[s] > 0.0) || !std::isfinite(grams_per_mole[s]))
      fail_argument("grams_per_mole[" + num(s) + "] (" + mechanism_->species_name(s) + ")=" + num(grams_per_mole[s]) +
                    " is not a positive molar mass");
  molar_masses_.assign(grams_per_mole, grams_per_mole + nspecies());
}

void opsplit_gw_s::set_property(int property, const double* values) {
  check_property(property);
  array_argument(context(), values, "values");
  for (int64_t g = 0; g < nxyz_; ++g)
    if (!gw::property_in_range(property, values[g]))
      fail_argument(std::string(gw::property_name(property)) + " of grid cell " + num(static_cast<long long>(g)) + " is " +
                    num(values[g]) + ", out of its range (groundwater.h)");
  std::copy_n(values, nxyz_, properties_.begin() + property * nxyz_);
  if (property == OPSPLIT_GW_BULK_DENSITY) bulk_density_set_ = true;
}

void opsplit_gw_s::get_property(int property, double* values) const {
  check_property(property);
  array_argument(context(), values, "values");
  std::copy_n(properties_.begin() + property * nxyz_, nxyz_, values);
}

void opsplit_gw_s::set_parameter(int param, const double* values) {
  if (param < 0 || param >= mechanism_->nparams())
    fail_argument("param=" + num(param) + " is not one the rates read: [0, " + num(mechanism_->nparams()) + ")");
  if (param == temperature_param_ || param == pressure_param_)
    fail_argument("param=" + num(param) + " is " + (param == temperature_param_ ? "TEMP" : "PRESS") +
                  ", which the module sets from its " + (param == temperature_param_ ? "TEMPERATURE" : "PRESSURE"));
  array_argument(context(), values, "values");
  for (int64_t g = 0; g < nxyz_; ++g)
    if (!std::isfinite(values[g]))
      fail_argument("values[" + num(static_cast<long long>(g)) + "]=" + num(values[g]) + " is not finite");
  std::copy_n(values, nxyz_, parameters_.begin() + param * nxyz_);
}

double opsplit_gw_s::water(int64_t c) const {
  const int64_t g = grid_cell_of(c);
  return property(OPSPLIT_GW_POROSITY, g) * property(OPSPLIT_GW_SATURATION, g) * property(OPSPLIT_GW_VOLUME, g);
}

void opsplit_gw_s::check_units() const {
  if (solution_units_ == OPSPLIT_GW_MG_PER_L && molar_masses_.empty())
    fail_argument("the units are MG_PER_L, but no molar masses were set");
}

double opsplit_gw_s::to_molar(int species, int64_t c) const {
  switch (solution_units_) {
    case OPSPLIT_GW_MG_PER_L:
      return 1e-3 / molar_masses_[static_cast<size_t>(species)];
    case OPSPLIT_GW_MOL_PER_KGW:
      return property(OPSPLIT_GW_DENSITY, grid_cell_of(c));
    default:
      return 1.0;
  }
}

double opsplit_gw_s::to_moles(int64_t c) const {
  const int64_t g = grid_cell_of(c);
  const double porosity = property(OPSPLIT_GW_POROSITY, g), volume = property(OPSPLIT_GW_VOLUME, g);
  switch (solid_units_) {
    case OPSPLIT_GW_PER_L_WATER:
      return porosity * volume;
    case OPSPLIT_GW_PER_L_ROCK:
      return (1.0 - porosity) * volume;
    default:
      return volume;
  }
}

void opsplit_gw_s::set_concentrations(const double* c) {
  array_argument(context(), c, "c");
  check_units();
  for (int i = 0; i < ncomponents(); ++i)
    for (int64_t g = 0; g < nxyz_; ++g)
      if (grid2chem_[static_cast<size_t>(g)] >= 0 && !std::isfinite(c[i * nxyz_ + g]))
        fail_argument("c of " + mechanism_->species_name(components_[static_cast<size_t>(i)]) + " in grid cell " +
                      num(static_cast<long long>(g)) + " is " + num(c[i * nxyz_ + g]));
  for (int64_t k = 0; k < nchem(); ++k)
    for (int i = 0; i < ncomponents(); ++i) {
      const int s = components_[static_cast<size_t>(i)];
      amount(s, k) = c[i * nxyz_ + grid_cell_of(k)] * to_molar(s, k);
    }
}

void opsplit_gw_s::get_concentrations(double* c) const {
  array_argument(context(), c, "c");
  check_units();
  for (int64_t g = 0; g < nxyz_; ++g) {
    const int k = grid2chem_[static_cast<size_t>(g)];
    if (k < 0) continue;
    for (int i = 0; i < ncomponents(); ++i) {
      const int s = components_[static_cast<size_t>(i)];
      c[i * nxyz_ + g] = amount(s, k) / to_molar(s, k);
    }
  }
}

void opsplit_gw_s::set_immobile(const double* amounts) {
  array_argument(context(), amounts, "amounts");
  for (int i = 0; i < nimmobile(); ++i)
    for (int64_t g = 0; g < nxyz_; ++g)
      if (grid2chem_[static_cast<size_t>(g)] >= 0 && !std::isfinite(amounts[i * nxyz_ + g]))
        fail_argument("amounts of " + mechanism_->species_name(immobile_[static_cast<size_t>(i)]) + " in grid cell " +
                      num(static_cast<long long>(g)) + " is " + num(amounts[i * nxyz_ + g]));
  for (int64_t k = 0; k < nchem(); ++k)
    for (int i = 0; i < nimmobile(); ++i)
      amount(immobile_[static_cast<size_t>(i)], k) =
          amounts[i * nxyz_ + grid_cell_of(k)] * to_moles(k);
}

void opsplit_gw_s::get_immobile(double* amounts) const {
  array_argument(context(), amounts, "amounts");
  for (int64_t g = 0; g < nxyz_; ++g) {
    const int k = grid2chem_[static_cast<size_t>(g)];
    if (k < 0) continue;
    const double per = to_moles(k);  // 0 only where nothing can be set (PER_L_ROCK at porosity 1)
    for (int i = 0; i < nimmobile(); ++i)
      amounts[i * nxyz_ + g] = per > 0.0 ? amount(immobile_[static_cast<size_t>(i)], k) / per : 0.0;
  }
}

OdeBatch& opsplit_gw_s::batch_for(int64_t nsys) {
  if (batch_ != nullptr && batch_->nsys() == nsys) return *batch_;
  auto batch = std::make_unique<OdeBatch>(context(), nspecies(), nsys, mechanism_->nparams());
  batch->set_mechanism(mechanism_.get());
  batch->set_method(method_);
  batch->set_tolerances(rtol_, atol_);
  batch_ = std::move(batch);
  return *batch_;
}

void opsplit_gw_s::set_method(int method) {
  batch_->set_method(method);
  method_ = method;
}

void opsplit_gw_s::set_tolerances(double rtol, double atol) {
  batch_->set_tolerances(rtol, atol);
  rtol_ = rtol, atol_ = atol;
}

void opsplit_gw_s::run(double dt) {
  if (!std::isfinite(dt) || dt < 0.0) fail_argument("dt=" + num(dt) + " is not a finite time >= 0");
  std::vector<int64_t> wet;
  std::vector<double> litres;
  for (int64_t k = 0; k < nchem(); ++k)
    if (water(k) > 0.0) wet.push_back(k), litres.push_back(water(k));
  std::fill(status_.begin(), status_.end(), OPSPLIT_GW_CELL_NOT_RUN);
  if (!wet.empty()) integrate(wet, litres, dt);
}

void opsplit_gw_s::integrate(const std::vector<int64_t>& wet, const std::vector<double>& litres, double dt) {
  const auto n = static_cast<int64_t>(wet.size());
  const int ns = nspecies(), np = mechanism_->nparams();
  OdeBatch& b = batch_for(n);
  // The batch's own layout (SOA: a species' values over the cells together), filled
  // species by species from the module's [species][cell] amounts: no transpose.
  std::vector<double> y(static_cast<size_t>(n * ns)), p(static_cast<size_t>(n * std::max(np, 1)));
  auto at = [n](std::vector<double>& v, int row, int64_t i) -> double& { return v[static_cast<size_t>(row * n + i)]; };
  for (int s = 0; s < ns; ++s) {
    const bool mobile = mobile_[static_cast<size_t>(s)];
    for (int64_t i = 0; i < n; ++i) {
      const int64_t k = wet[static_cast<size_t>(i)];
      at(y, s, i) = mobile ? amount(s, k) : amount(s, k) / litres[static_cast<size_t>(i)];
    }
  }
  for (int q = 0; q < np; ++q)
    for (int64_t i = 0; i < n; ++i) {
      const int64_t g = grid_cell_of(wet[static_cast<size_t>(i)]);
      at(p, q, i) = q == temperature_param_ ? property(OPSPLIT_GW_TEMPERATURE, g) + kKelvinAtZeroCelsius
                    : q == pressure_param_  ? property(OPSPLIT_GW_PRESSURE, g) * kPascalPerAtmosphere
                                            : parameters_[static_cast<size_t>(q * nxyz_ + g)];
    }
  b.set_state(y.data(), OPSPLIT_ODE_SOA);
  if (np > 0) b.set_parameters(p.data(), OPSPLIT_ODE_SOA);
  std::string failure;
  try {
    b.integrate(0.0, dt);
  } catch (const Error& e) {
    if (e.status() != OPSPLIT_ERROR_NUMERICAL) throw;
    failure = e.what();
  }
  std::vector<int> result(static_cast<size_t>(n));
  b.get_state(y.data(), OPSPLIT_ODE_SOA);
  b.get_results(result.data(), nullptr, nullptr, nullptr, nullptr);
  int64_t failed = 0, first_failed = nxyz_;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = wet[static_cast<size_t>(i)];
    status_[static_cast<size_t>(k)] = result[static_cast<size_t>(i)];
    if (result[static_cast<size_t>(i)] != OPSPLIT_ODE_OK) {
      ++failed, first_failed = std::min(first_failed, grid_cell_of(k));
      continue;  // it keeps its amounts
    }
    for (int s = 0; s < ns; ++s)
      amount(s, k) = mobile_[static_cast<size_t>(s)] ? at(y, s, i) : at(y, s, i) * litres[static_cast<size_t>(i)];
  }
  if (!failure.empty())
    fail(OPSPLIT_ERROR_NUMERICAL, num(static_cast<long long>(failed)) + " of " + num(static_cast<long long>(n)) +
                                      " chemistry cells failed, the first in grid cell " +
                                      num(static_cast<long long>(first_failed)) + " (opsplit_gw_get_status): " + failure);
}

void opsplit_gw_s::get_status(int* status) const {
  array_argument(context(), status, "status");
  for (int64_t g = 0; g < nxyz_; ++g) {
    const int k = grid2chem_[static_cast<size_t>(g)];
    status[g] = k < 0 ? OPSPLIT_GW_CELL_NOT_RUN : status_[static_cast<size_t>(k)];
  }
}

void opsplit_gw_s::get_moles(double* moles) const {
  array_argument(context(), moles, "moles");
  for (int s = 0; s < nspecies(); ++s) {
    double total = 0.0;
    for (int64_t k = 0; k < nchem(); ++k) total += mobile_[static_cast<size_t>(s)] ? amount(s, k) * water(k) : amount(s, k);
    moles[s] = total;
  }
}

void opsplit_gw_s::set_isotherm(int species, int kind, double k, double b) {
  check_species(species);
  const std::string name = mechanism_->species_name(species);
  if (kind < OPSPLIT_GW_ISOTHERM_NONE || kind > OPSPLIT_GW_ISOTHERM_LANGMUIR)
    fail_argument("kind=" + num(kind) + " is not an opsplit_gw_isotherm");
  if (!mobile_[static_cast<size_t>(species)])
    fail_argument(name + " is immobile: an isotherm retards a species the host transports");
  const bool uses_b = kind == OPSPLIT_GW_ISOTHERM_FREUNDLICH || kind == OPSPLIT_GW_ISOTHERM_LANGMUIR;
  if (kind != OPSPLIT_GW_ISOTHERM_NONE && !(std::isfinite(k) && k > 0.0))
    fail_argument("the isotherm of " + name + ": k=" + num(k) + " must be finite and > 0");
  if (uses_b && !(std::isfinite(b) && b > 0.0))
    fail_argument("the isotherm of " + name + ": b=" + num(b) + " must be finite and > 0");
  isotherms_[static_cast<size_t>(species)] = Isotherm{kind, k, uses_b ? b : 0.0};
}

double opsplit_gw_s::Isotherm::slope(double c, double floor) const {
  switch (kind) {
    case OPSPLIT_GW_ISOTHERM_LINEAR:
      return k;
    case OPSPLIT_GW_ISOTHERM_FREUNDLICH:
      return k * b * std::pow(std::max(c, floor), b - 1.0);
    case OPSPLIT_GW_ISOTHERM_LANGMUIR: {
      const double kc = 1.0 + k * std::max(c, 0.0);
      return b * k / (kc * kc);
    }
    default:
      return 0.0;
  }
}

void opsplit_gw_s::check_bulk_density() const {
  const bool any = std::any_of(isotherms_.begin(), isotherms_.end(),
                               [](const Isotherm& i) { return i.kind != OPSPLIT_GW_ISOTHERM_NONE; });
  if (any && !bulk_density_set_)
    fail_argument("an isotherm is set but BULK_DENSITY is not (opsplit_gw_set_property): kg of solid per litre of cell");
}

double opsplit_gw_s::retardation_at(int i, int64_t g) const {
  // R is a transport property of the grid cell: its own water content and bulk density,
  // with the concentration its chemistry cell holds.
  const int k = grid2chem_[static_cast<size_t>(g)];
  const double theta = property(OPSPLIT_GW_POROSITY, g) * property(OPSPLIT_GW_SATURATION, g);
  if (k < 0 || !(theta > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  const int s = components_[static_cast<size_t>(i)];
  return 1.0 + property(OPSPLIT_GW_BULK_DENSITY, g) / theta * isotherms_[static_cast<size_t>(s)].slope(amount(s, k), atol_);
}

void opsplit_gw_s::get_retardation(double* retardation) const {
  array_argument(context(), retardation, "retardation");
  check_bulk_density();
  for (int i = 0; i < ncomponents(); ++i)
    for (int64_t g = 0; g < nxyz_; ++g) {
      const double r = retardation_at(i, g);
      if (!std::isnan(r)) retardation[i * nxyz_ + g] = r;
    }
}
