// The groundwater reaction module (include/opsplit/groundwater.h): grid cells mapped to
// chemistry cells, their properties and amounts on the host, and an ODE batch over the
// chemistry cells that have water, remade when their number changes.
#pragma once

#include <cstdint>
#include <memory>
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
};

namespace opsplit {
using GroundwaterModule = opsplit_gw_s;
}
