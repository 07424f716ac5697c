// The groundwater reaction module (include/opsplit/groundwater.h): grid cells mapped to
// chemistry cells, their properties and amounts on the host, and an ODE batch over the
// chemistry cells that have water, remade when their number changes.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "chem/mechanism.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "ode/ode.hpp"
#include "opsplit/groundwater.h"

struct opsplit_gw_s : opsplit::Handle<opsplit::HandleKind::gw>, opsplit::ContextMember {
  opsplit_gw_s(opsplit::Context& ctx, const opsplit::chem::Mechanism& mech, int64_t nxyz);

  int64_t nxyz() const { return nxyz_; }
  int64_t nchem() const { return static_cast<int64_t>(first_grid_cell_.size()); }
  int ncomponents() const { return static_cast<int>(components_.size()); }
  int nimmobile() const { return static_cast<int>(immobile_.size()); }
  const std::vector<int>& components() const { return components_; }
  const std::vector<int>& immobile() const { return immobile_; }

  void set_mobile(int species, bool mobile);
  void set_mapping(const int* grid2chem);
  void set_units(int solution, int solid);
  void set_molar_masses(const double* grams_per_mole);
  void set_property(int property, const double* values);
  void get_property(int property, double* values) const;
  void set_parameter(int param, const double* values);
  void set_concentrations(const double* c);
  void get_concentrations(double* c) const;
  void set_immobile(const double* amounts);
  void get_immobile(double* amounts) const;
  void set_method(int method);
  void set_tolerances(double rtol, double atol);
  void run(double dt);
  void get_status(int* status) const;
  void get_moles(double* moles) const;
  void set_isotherm(int species, int kind, double k, double b);
  void get_retardation(double* retardation) const;
  const std::string& species_name(int species) const {
    check_species(species);
    return mechanism_->species_name(species);
  }

  // The BMI face (bmi.cpp): the module's clock, its variables by name, its two grids.
  struct BmiVariable;  // one row of bmi.cpp's table
  void set_clock(double start, double step, double end);
  void bmi_update();
  void bmi_update_until(double time);
  // Runs dt and sets the clock to time (bmi.cpp says when it moves).
  void advance_to(double time, double dt);
  int bmi_var_count(int role) const;
  const char* bmi_var_name(int role, int index) const;
  void bmi_var_info(const char* name, const char** type, const char** units, int* grid, int* itemsize,
                    int64_t* nbytes, const char** location) const;
  void bmi_times(double* start, double* current, double* end, double* step) const;
  void bmi_get_value(const char* name, void* dest) const;
  void bmi_set_value(const char* name, const void* src);
  void bmi_get_value_at_indices(const char* name, void* dest, const int* indices, int count) const;
  void bmi_set_value_at_indices(const char* name, const int* indices, int count, const void* src);
  void bmi_grid_info(int grid, int* rank, int64_t* size, const char** type) const;

 private:
  static constexpr int kProperties = 7;
  struct Isotherm {
    int kind = OPSPLIT_GW_ISOTHERM_NONE;
    double k = 0, b = 0;
    double slope(double c, double floor) const;  // dS/dC
  };
  int nspecies() const { return mechanism_->nspecies(); }
  double property(int property, int64_t grid_cell) const {
    return properties_[static_cast<size_t>(property) * static_cast<size_t>(nxyz_) + static_cast<size_t>(grid_cell)];
  }
  // The water of chemistry cell c (litres) and the factors from the host's units to the
  // module's for a component (mol/L of water) and an immobile species (moles).
  double water(int64_t c) const;
  double to_molar(int species, int64_t c) const;
  double to_moles(int64_t c) const;
  double& amount(int species, int64_t c) {
    return amounts_[static_cast<size_t>(species) * static_cast<size_t>(nchem()) + static_cast<size_t>(c)];
  }
  double amount(int species, int64_t c) const {
    return amounts_[static_cast<size_t>(species) * static_cast<size_t>(nchem()) + static_cast<size_t>(c)];
  }
  void list_species();
  void check_species(int species) const;
  // The grid cell whose values chemistry cell c reads.
  int64_t grid_cell_of(int64_t c) const { return first_grid_cell_[static_cast<size_t>(c)]; }
  // Whether the solution units can be converted (MG_PER_L needs the molar masses).
  void check_units() const;
  // Runs the chemistry cells in `wet` (their water in litres beside) for dt.
  void integrate(const std::vector<int64_t>& wet, const std::vector<double>& litres, double dt);
  opsplit::OdeBatch& batch_for(int64_t nsys);
  // Component i's retardation factor in grid cell g (get_retardation's), NaN where it
  // is not defined (a grid cell left out or dry).
  double retardation_at(int i, int64_t g) const;
  void check_bulk_density() const;
  // The BMI variables (bmi.cpp): one value of a variable of doubles by its flat index,
  // read, checked and written.
  int64_t bmi_count(const BmiVariable& v) const;
  double bmi_element(const BmiVariable& v, int64_t index) const;
  void bmi_check_element(const BmiVariable& v, int64_t index, double value) const;
  void bmi_set_element(const BmiVariable& v, int64_t index, double value);
  void check_indices(const BmiVariable& v, const int* indices, int count) const;
  // count values of v to dest / from src: at indices, or all in order when it is NULL.
  void bmi_read(const BmiVariable& v, void* dest, const int* indices, int64_t count) const;
  void bmi_write(const BmiVariable& v, const int* indices, int64_t count, const void* src);
  // A whole array through the module's own get/set calls; false for the variables
  // that have none (the element accessor then serves them).
  bool read_whole(const BmiVariable& v, double* out) const;
  bool write_whole(const BmiVariable& v, const double* in);

  std::unique_ptr<opsplit::chem::Mechanism> mechanism_;  // the module's own copy
  int64_t nxyz_;
  std::vector<bool> mobile_;        // per species
  std::vector<int> components_, immobile_;  // species indices, the mechanism's order
  std::vector<int> grid2chem_;      // nxyz
  std::vector<int64_t> first_grid_cell_;  // per chemistry cell: the grid cell it reads
  std::vector<double> properties_;  // [property][grid cell]
  std::vector<double> parameters_;  // [param][grid cell], the host's (TEMP and PRESS are set here)
  int temperature_param_ = -1, pressure_param_ = -1;
  int solution_units_ = OPSPLIT_GW_MOL_PER_L, solid_units_ = OPSPLIT_GW_PER_L_CELL;
  std::vector<double> molar_masses_;  // g/mol, empty until set
  std::vector<Isotherm> isotherms_;   // per species
  bool bulk_density_set_ = false;
  // [species][chemistry cell]: a component's mol per litre of water, an immobile
  // species' moles in the cell.
  std::vector<double> amounts_;
  std::vector<int> status_;  // per chemistry cell, of the last run
  int method_ = OPSPLIT_ODE_ROSENBROCK;
  double rtol_ = 1e-6, atol_ = 1e-15;
  std::unique_ptr<opsplit::OdeBatch> batch_;  // over the wet chemistry cells of the last run
  // The BMI clock (seconds): update() runs time_step_ from time_.
  double start_time_ = 0.0, time_ = 0.0, time_step_ = 0.0, end_time_ = std::numeric_limits<double>::max();
};

namespace opsplit {
using GroundwaterModule = opsplit_gw_s;
namespace gw {
// An opsplit_gw_property's name ("POROSITY") and whether v is in its range (groundwater.h).
const char* property_name(int property);
bool property_in_range(int property, double v);
}  // namespace gw
}  // namespace opsplit
