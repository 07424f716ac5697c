// The groundwater module's BMI face (groundwater.h, "BMI"): its variables by name, as
// BMIPhreeqcRM names them where they mean the same, read and written element by element
// through one accessor each way, so that whole arrays and indexed ones agree.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "core/device_array.hpp"
#include "core/error.hpp"
#include "gw/module.hpp"

using namespace opsplit;

namespace {

enum class Holds { concentrations, immobile, property, time, time_step, retardation, status, components, cells };

constexpr int kPointsGrid = 0;  // one value per grid cell (nxyz points)
constexpr int kScalarGrid = 1;

}  // namespace

struct opsplit_gw_s::BmiVariable {
  const char* name;
  Holds holds;
  int property;  // Holds::property's opsplit_gw_property
  bool input;    // settable; every variable is an output
  bool integer;  // "int", else "double"
  int grid;
};

namespace {

using Variable = opsplit_gw_s::BmiVariable;

// Inputs first: a role's names are a prefix (inputs) or the whole list (outputs).
const Variable kVariables[] = {
    {"Concentrations", Holds::concentrations, -1, true, false, kPointsGrid},
    {"ImmobileAmounts", Holds::immobile, -1, true, false, kPointsGrid},
    {"Porosity", Holds::property, OPSPLIT_GW_POROSITY, true, false, kPointsGrid},
    {"SaturationUser", Holds::property, OPSPLIT_GW_SATURATION, true, false, kPointsGrid},
    {"RepresentativeVolume", Holds::property, OPSPLIT_GW_VOLUME, true, false, kPointsGrid},
    {"DensityUser", Holds::property, OPSPLIT_GW_DENSITY, true, false, kPointsGrid},
    {"Temperature", Holds::property, OPSPLIT_GW_TEMPERATURE, true, false, kPointsGrid},
    {"Pressure", Holds::property, OPSPLIT_GW_PRESSURE, true, false, kPointsGrid},
    {"BulkDensity", Holds::property, OPSPLIT_GW_BULK_DENSITY, true, false, kPointsGrid},
    {"Time", Holds::time, -1, true, false, kScalarGrid},
    {"TimeStep", Holds::time_step, -1, true, false, kScalarGrid},
    {"Retardation", Holds::retardation, -1, false, false, kPointsGrid},
    {"Status", Holds::status, -1, false, true, kPointsGrid},
    {"ComponentCount", Holds::components, -1, false, true, kScalarGrid},
    {"GridCellCount", Holds::cells, -1, false, true, kScalarGrid},
};
constexpr int kVariableCount = static_cast<int>(sizeof kVariables / sizeof kVariables[0]);
constexpr int kInputCount = 11;

const char* property_units(int property) {
  static const char* const units[] = {"1", "1", "L", "kg L-1", "degC", "atm", "kg L-1"};
  return units[property];
}

const char* solution_units_text(int units) {
  switch (units) {
    case OPSPLIT_GW_MG_PER_L:
      return "mg L-1";
    case OPSPLIT_GW_MOL_PER_KGW:
      return "mol kg-1";
    default:
      return "mol L-1";
  }
}

const Variable& find_variable(const char* name) {
  if (name == nullptr) fail_argument("name is NULL");
  for (const Variable& v : kVariables)
    if (std::strcmp(v.name, name) == 0) return v;
  fail_argument(std::string("\"") + name + "\" is not a variable of the module (opsplit_gw_bmi_get_var_name lists them)");
}

void check_role(int role) {
  if (role != OPSPLIT_GW_BMI_INPUT && role != OPSPLIT_GW_BMI_OUTPUT)
    fail_argument("role=" + num(role) + " is not an opsplit_gw_bmi_role");
}

void check_time(double t, const char* what) {
  if (!std::isfinite(t)) fail_argument(std::string(what) + "=" + num(t) + " is not finite");
}

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

}  // namespace

void opsplit_gw_s::set_clock(double start, double step, double end) {
  check_time(start, "start");
  check_time(step, "step");
  if (step < 0.0) fail_argument("step=" + num(step) + " is negative");
  if (!(end >= start)) fail_argument("end=" + num(end) + " is before start=" + num(start));
  start_time_ = time_ = start, time_step_ = step, end_time_ = end;
}

void opsplit_gw_s::bmi_update() { advance_to(time_ + time_step_, time_step_); }

void opsplit_gw_s::bmi_update_until(double time) {
  check_time(time, "time");
  if (time < time_) fail_argument("time=" + num(time) + " is before the module's time " + num(time_));
  advance_to(time, time - time_);
}

void opsplit_gw_s::advance_to(double time, double dt) {
  // The time advances when the step ran, and when only some cells failed: the others
  // took the step (the failed ones keep their amounts and say so in Status). A step
  // that did not run (cancelled, out of memory, a device error) leaves it.
  try {
    run(dt);
  } catch (const Error& e) {
    if (e.status() == OPSPLIT_ERROR_NUMERICAL) time_ = time;
    throw;
  }
  time_ = time;
}

int opsplit_gw_s::bmi_var_count(int role) const {
  check_role(role);
  return role == OPSPLIT_GW_BMI_INPUT ? kInputCount : kVariableCount;
}

const char* opsplit_gw_s::bmi_var_name(int role, int index) const {
  const int n = bmi_var_count(role);
  if (index < 0 || index >= n) fail_argument("index=" + num(index) + " is not in [0, " + num(n) + ")");
  return kVariables[index].name;
}

int64_t opsplit_gw_s::bmi_count(const BmiVariable& v) const {
  switch (v.holds) {
    case Holds::concentrations:
    case Holds::retardation:
      return ncomponents() * nxyz_;
    case Holds::immobile:
      return nimmobile() * nxyz_;
    case Holds::property:
    case Holds::status:
      return nxyz_;
    default:
      return 1;
  }
}

void opsplit_gw_s::bmi_var_info(const char* name, const char** type, const char** units, int* grid, int* itemsize,
                                int64_t* nbytes, const char** location) const {
  const Variable& v = find_variable(name);
  const int size = v.integer ? static_cast<int>(sizeof(int)) : static_cast<int>(sizeof(double));
  if (type != nullptr) *type = v.integer ? "int" : "double";
  if (units != nullptr)
    *units = v.holds == Holds::concentrations ? solution_units_text(solution_units_)
             : v.holds == Holds::immobile     ? "mol L-1"
             : v.holds == Holds::property     ? property_units(v.property)
             : v.holds == Holds::time || v.holds == Holds::time_step ? "s"
                                                                     : "1";
  if (grid != nullptr) *grid = v.grid;
  if (itemsize != nullptr) *itemsize = size;
  if (nbytes != nullptr) *nbytes = bmi_count(v) * size;
  if (location != nullptr) *location = v.grid == kPointsGrid ? "node" : "none";
}

void opsplit_gw_s::bmi_times(double* start, double* current, double* end, double* step) const {
  if (start != nullptr) *start = start_time_;
  if (current != nullptr) *current = time_;
  if (end != nullptr) *end = end_time_;
  if (step != nullptr) *step = time_step_;
}

double opsplit_gw_s::bmi_element(const BmiVariable& v, int64_t index) const {
  const int i = static_cast<int>(index / nxyz_);
  const int64_t g = index % nxyz_;
  const int k = v.grid == kPointsGrid ? grid2chem_[static_cast<size_t>(g)] : 0;
  switch (v.holds) {
    case Holds::concentrations: {
      if (k < 0) return kNaN;
      const int s = components_[static_cast<size_t>(i)];
      return amount(s, k) / to_molar(s, k);
    }
    case Holds::immobile: {
      if (k < 0) return kNaN;
      const double per = to_moles(k);  // 0 only where nothing can be set (PER_L_ROCK at porosity 1)
      return per > 0.0 ? amount(immobile_[static_cast<size_t>(i)], k) / per : 0.0;
    }
    case Holds::property:
      return property(v.property, g);
    case Holds::time:
      return time_;
    case Holds::time_step:
      return time_step_;
    case Holds::retardation:
      return retardation_at(i, g);
    default:  // the integers are read by bmi_get_value
      return kNaN;
  }
}

void opsplit_gw_s::bmi_check_element(const BmiVariable& v, int64_t index, double value) const {
  const int64_t g = index % nxyz_;
  const bool left_out = v.grid == kPointsGrid && grid2chem_[static_cast<size_t>(g)] < 0;
  switch (v.holds) {
    case Holds::concentrations:
    case Holds::immobile:
      if (!left_out && !std::isfinite(value))
        fail_argument(std::string(v.name) + "[" + num(static_cast<long long>(index)) + "]=" + num(value) +
                      " is not finite");
      break;
    case Holds::property:
      if (!gw::property_in_range(v.property, value))
        fail_argument(std::string(v.name) + "[" + num(static_cast<long long>(index)) + "]=" + num(value) +
                      " is out of " + gw::property_name(v.property) + "'s range (groundwater.h)");
      break;
    case Holds::time:
      check_time(value, "Time");
      break;
    case Holds::time_step:
      check_time(value, "TimeStep");
      if (value < 0.0) fail_argument("TimeStep=" + num(value) + " is negative");
      break;
    default:  // outputs: bmi_write refuses them first
      break;
  }
}

void opsplit_gw_s::bmi_set_element(const BmiVariable& v, int64_t index, double value) {
  const int i = static_cast<int>(index / nxyz_);
  const int64_t g = index % nxyz_;
  const int k = v.grid == kPointsGrid ? grid2chem_[static_cast<size_t>(g)] : 0;
  // A chemistry cell reads its first grid cell (groundwater.h): values given for the
  // others on it, and for grid cells left out, are not kept.
  const bool reads_it = k >= 0 && grid_cell_of(k) == g;
  switch (v.holds) {
    case Holds::concentrations:
      if (reads_it) {
        const int s = components_[static_cast<size_t>(i)];
        amount(s, k) = value * to_molar(s, k);
      }
      break;
    case Holds::immobile:
      if (reads_it) amount(immobile_[static_cast<size_t>(i)], k) = value * to_moles(k);
      break;
    case Holds::property:
      properties_[static_cast<size_t>(v.property) * static_cast<size_t>(nxyz_) + static_cast<size_t>(g)] = value;
      if (v.property == OPSPLIT_GW_BULK_DENSITY) bulk_density_set_ = true;
      break;
    case Holds::time:
      time_ = value;
      break;
    default:  // time_step: the only other input
      time_step_ = value;
  }
}

void opsplit_gw_s::bmi_get_value(const char* name, void* dest) const {
  const Variable& v = find_variable(name);
  bmi_read(v, dest, nullptr, bmi_count(v));
}

void opsplit_gw_s::bmi_get_value_at_indices(const char* name, void* dest, const int* indices, int count) const {
  const Variable& v = find_variable(name);
  if (count < 0) fail_argument("count=" + num(count) + " is negative");
  if (count == 0) return;  // nothing asked (bmi_read takes NULL indices for the whole array)
  if (indices == nullptr) fail_argument("indices is NULL");
  check_indices(v, indices, count);
  bmi_read(v, dest, indices, count);
}

void opsplit_gw_s::check_indices(const BmiVariable& v, const int* indices, int count) const {
  const int64_t n = bmi_count(v);
  for (int j = 0; j < count; ++j)
    if (indices[j] < 0 || indices[j] >= n)
      fail_argument("indices[" + num(j) + "]=" + num(indices[j]) + " is not in " + v.name + "'s [0, " +
                    num(static_cast<long long>(n)) + ")");
}

void opsplit_gw_s::bmi_read(const BmiVariable& v, void* dest, const int* indices, int64_t count) const {
  if (count == 0) return;  // a variable without values (no immobile species)
  if (dest == nullptr) fail_argument("dest is NULL");
  check_host_array(context(), dest, "dest");
  if (v.holds == Holds::concentrations) check_units();
  if (v.holds == Holds::retardation) check_bulk_density();
  if (indices == nullptr && read_whole(v, static_cast<double*>(dest))) return;
  auto index = [indices](int64_t j) -> int64_t { return indices != nullptr ? indices[j] : j; };
  if (!v.integer) {
    auto* out = static_cast<double*>(dest);
    for (int64_t j = 0; j < count; ++j) out[j] = bmi_element(v, index(j));
    return;
  }
  auto* out = static_cast<int*>(dest);
  for (int64_t j = 0; j < count; ++j) {
    if (v.holds != Holds::status) {
      out[j] = v.holds == Holds::components ? ncomponents() : static_cast<int>(nxyz_);
      continue;
    }
    const int k = grid2chem_[static_cast<size_t>(index(j))];
    out[j] = k < 0 ? static_cast<int>(OPSPLIT_GW_CELL_NOT_RUN) : status_[static_cast<size_t>(k)];
  }
}

void opsplit_gw_s::bmi_set_value(const char* name, const void* src) {
  const Variable& v = find_variable(name);
  bmi_write(v, nullptr, bmi_count(v), src);
}

void opsplit_gw_s::bmi_set_value_at_indices(const char* name, const int* indices, int count, const void* src) {
  const Variable& v = find_variable(name);
  if (count < 0) fail_argument("count=" + num(count) + " is negative");
  if (!v.input) fail_argument(std::string("\"") + v.name + "\" is an output: it cannot be set");
  if (count == 0) return;  // nothing given (bmi_write takes NULL indices for the whole array)
  if (indices == nullptr) fail_argument("indices is NULL");
  check_indices(v, indices, count);
  bmi_write(v, indices, count, src);
}

void opsplit_gw_s::bmi_write(const BmiVariable& v, const int* indices, int64_t count, const void* src) {
  if (!v.input) fail_argument(std::string("\"") + v.name + "\" is an output: it cannot be set");
  if (count == 0) return;  // a variable without values (no immobile species)
  if (src == nullptr) fail_argument("src is NULL");
  check_host_array(context(), src, "src");
  if (v.holds == Holds::concentrations) check_units();
  const auto* in = static_cast<const double*>(src);
  if (indices == nullptr && write_whole(v, in)) return;
  auto index = [indices](int64_t j) -> int64_t { return indices != nullptr ? indices[j] : j; };
  // Every value checked before any is written: a refused call changes nothing.
  for (int64_t j = 0; j < count; ++j) bmi_check_element(v, index(j), in[j]);
  for (int64_t j = 0; j < count; ++j) bmi_set_element(v, index(j), in[j]);
}

// Whole arrays of the large variables go through the module's own calls (a tenth of a
// step's time on the GPU went to the element accessor's index arithmetic); the
// indexed forms, which the tests compare with these, through the accessor.
bool opsplit_gw_s::read_whole(const BmiVariable& v, double* out) const {
  if (v.holds == Holds::property) {
    get_property(v.property, out);
    return true;
  }
  if (v.holds != Holds::concentrations && v.holds != Holds::immobile) return false;
  const int rows = v.holds == Holds::concentrations ? ncomponents() : nimmobile();
  if (v.holds == Holds::concentrations) get_concentrations(out);
  else get_immobile(out);
  for (int64_t g = 0; g < nxyz_; ++g)  // the calls leave these alone; BMI writes every value
    if (grid2chem_[static_cast<size_t>(g)] < 0)
      for (int i = 0; i < rows; ++i) out[i * nxyz_ + g] = kNaN;
  return true;
}

bool opsplit_gw_s::write_whole(const BmiVariable& v, const double* in) {
  switch (v.holds) {
    case Holds::property:
      set_property(v.property, in);
      return true;
    case Holds::concentrations:
      set_concentrations(in);
      return true;
    case Holds::immobile:
      set_immobile(in);
      return true;
    default:
      return false;
  }
}

void opsplit_gw_s::bmi_grid_info(int grid, int* rank, int64_t* size, const char** type) const {
  if (grid != kPointsGrid && grid != kScalarGrid) fail_argument("grid=" + num(grid) + " is not 0 or 1");
  if (rank != nullptr) *rank = grid == kPointsGrid ? 1 : 0;
  if (size != nullptr) *size = grid == kPointsGrid ? nxyz_ : 1;
  if (type != nullptr) *type = grid == kPointsGrid ? "points" : "scalar";
}
