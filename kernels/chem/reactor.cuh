// Homogeneous gas reactors: the right-hand sides an ODE batch integrates for a loaded
// gas mechanism, one system (grid cell) at a time, on both backends.
//   ISOTHERMAL_CONCENTRATIONS  y = C (mol/m^3), params T:        dC/dt = wdot
//   ISOTHERMAL_MASS_FRACTIONS  y = Y, params T, P:               dY/dt = wdot W / rho
//   CONSTANT_PRESSURE          y = (T, Y), params P, adiabatic:  dT/dt = -sum h_k wdot_k / (rho cp)
//   CONSTANT_VOLUME            y = (T, Y), params rho, adiabatic: dT/dt = -sum u_k wdot_k / (rho cv)
// (h_k, u_k molar; cp, cv per mass; rho = P Wmean / (R T) where P is given.)
#pragma once

#include "chem/gas_kinetics.cuh"
#include "common/hd.cuh"

namespace opsplit::chem {

enum ReactorKind : int {
  kIsothermalConcentrations = 0,
  kIsothermalMassFractions = 1,
  kConstantPressure = 2,
  kConstantVolume = 3
};

OPSPLIT_HD constexpr bool reactor_has_temperature(int kind) { return kind == kConstantPressure || kind == kConstantVolume; }
// Equations of a reactor's state for nspecies species, and parameters it reads.
OPSPLIT_HD constexpr int reactor_equations(int kind, int nspecies) { return nspecies + (reactor_has_temperature(kind) ? 1 : 0); }
OPSPLIT_HD constexpr int reactor_parameters(int kind) { return kind == kIsothermalMassFractions ? 2 : 1; }
// Doubles of scratch a reactor right-hand side needs per system.
OPSPLIT_HD constexpr int reactor_scratch_size(int nspecies) { return 3 * nspecies; }

// dy/dt of one system; scratch: reactor_scratch_size(nspecies) doubles.
OPSPLIT_HD void reactor_rhs(const GasKinetics& g, int kind, const double* params, const double* y, double* ydot,
                            double* scratch) {
  const int ns = g.nspecies;
  double* C = scratch;
  double* g_RT = scratch + ns;
  double* wdot = scratch + 2 * ns;
  if (kind == kIsothermalConcentrations) {
    net_production_rates(g, params[0], y, g_RT, ydot);
    return;
  }
  const bool energy = reactor_has_temperature(kind);
  const double T = energy ? y[0] : params[0];
  const double* Y = energy ? y + 1 : y;
  double moles_per_kg = 0.0;
  for (int k = 0; k < ns; ++k) moles_per_kg += Y[k] / g.molar_mass[k];
  const double rho = kind == kConstantVolume ? params[0]
                     : kind == kConstantPressure ? params[0] / (kGasConstant * T * moles_per_kg)
                                                 : params[1] / (kGasConstant * T * moles_per_kg);
  for (int k = 0; k < ns; ++k) C[k] = rho * Y[k] / g.molar_mass[k];
  net_production_rates(g, T, C, g_RT, wdot);
  double* dY = energy ? ydot + 1 : ydot;
  for (int k = 0; k < ns; ++k) dY[k] = wdot[k] * g.molar_mass[k] / rho;
  if (!energy) return;
  // Energy: sum over species of (h/RT or u/RT = h/RT - 1) wdot, and the mixture's cp/R per kg.
  const double log_T = log(T);
  double heat = 0.0, cp_R = 0.0;
  for (int k = 0; k < ns; ++k) {
    double cp_k, h_k;
    nasa7_evaluate(g.nasa7 + kNasa7Stride * k, T, log_T, &cp_k, &h_k, nullptr);
    const double n_k = Y[k] / g.molar_mass[k];
    if (kind == kConstantVolume) h_k -= 1.0, cp_k -= 1.0;  // u/RT and cv/R
    heat += h_k * wdot[k];
    cp_R += cp_k * n_k;
  }
  ydot[0] = -heat * T / (rho * cp_R);
}

}  // namespace opsplit::chem
