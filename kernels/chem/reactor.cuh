// Homogeneous gas reactors: the right-hand sides an ODE batch integrates for a loaded
// gas mechanism, one system (grid cell) at a time, on both backends.
//   ISOTHERMAL_CONCENTRATIONS  y = C (mol/m^3), params T:        dC/dt = wdot
//   ISOTHERMAL_MASS_FRACTIONS  y = Y, params T, P:               dY/dt = wdot W / rho
//   CONSTANT_PRESSURE          y = (T, Y), params P, adiabatic:  dT/dt = -sum h_k wdot_k / (rho cp)
//   CONSTANT_VOLUME            y = (T, Y), params rho, adiabatic: dT/dt = -sum u_k wdot_k / (rho cv)
// (h_k, u_k molar; cp, cv per mass; rho = P Wmean / (R T) where P is given.)
#pragma once

#include "chem/gas_jacobian.cuh"
#include "chem/gas_kinetics.cuh"
#include "common/hd.cuh"
#include "common/vector.cuh"

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
// Doubles of scratch a reactor right-hand side or Jacobian needs per system.
OPSPLIT_HD constexpr int reactor_scratch_size(int nspecies) { return 7 * nspecies; }

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

// Helpers of reactor_jacobian, each one column through __restrict__ pointers, four
// rows at a time with the loads first (common/vector.cuh says why).

// Column j of d wdot/dC becomes d wdot/dY_j: col[i] rho / W_j - S[i] Wmean / W_j.
OPSPLIT_HD void rescale_column(int ns, double rho, double W_mean, double W_j, const double* __restrict__ S,
                               double* __restrict__ col) {
  int i = 0;
  for (; i + 4 <= ns; i += 4) {
    const double a0 = col[i], a1 = col[i + 1], a2 = col[i + 2], a3 = col[i + 3];
    const double s0 = S[i], s1 = S[i + 1], s2 = S[i + 2], s3 = S[i + 3];
    col[i] = a0 * rho / W_j - s0 * W_mean / W_j, col[i + 1] = a1 * rho / W_j - s1 * W_mean / W_j;
    col[i + 2] = a2 * rho / W_j - s2 * W_mean / W_j, col[i + 3] = a3 * rho / W_j - s3 * W_mean / W_j;
  }
  for (; i < ns; ++i) col[i] = col[i] * rho / W_j - S[i] * W_mean / W_j;
}

// Column j of the species rows: col[i] = W_i / rho col[i] + moved[i] Wmean / W_j.
OPSPLIT_HD void species_rows_column(int ns, double rho, double W_mean, double W_j, const double* __restrict__ W,
                                    const double* __restrict__ moved, double* __restrict__ col) {
  int i = 0;
  for (; i + 4 <= ns; i += 4) {
    const double a0 = col[i], a1 = col[i + 1], a2 = col[i + 2], a3 = col[i + 3];
    const double m0 = moved[i], m1 = moved[i + 1], m2 = moved[i + 2], m3 = moved[i + 3];
    const double w0 = W[i], w1 = W[i + 1], w2 = W[i + 2], w3 = W[i + 3];
    col[i] = w0 / rho * a0 + m0 * W_mean / W_j, col[i + 1] = w1 / rho * a1 + m1 * W_mean / W_j;
    col[i + 2] = w2 / rho * a2 + m2 * W_mean / W_j, col[i + 3] = w3 / rho * a3 + m3 * W_mean / W_j;
  }
  for (; i < ns; ++i) col[i] = W[i] / rho * col[i] + moved[i] * W_mean / W_j;
}

// The analytic Jacobian of reactor_rhs: jac[i + j * n] = d ydot_i / d y_j, n =
// reactor_equations(kind, nspecies). From d wdot/dC and d wdot/dT at fixed C
// (net_production_jacobian) by the chain rule through C_k = rho Y_k / W_k, where rho
// = P Wmean / (R T) moves with Y and T (constant pressure, isothermal Y) or is fixed
// (constant volume), and through the energy equation dT/dt = -T sum e_k wdot_k / Q,
// e_k = h_k/RT (u_k/RT), Q = sum c_k C_k, c_k = cp_k/R (cv_k/R).
// scratch: reactor_scratch_size(nspecies) doubles.
OPSPLIT_HD void reactor_jacobian(const GasKinetics& g, int kind, const double* params, const double* y, double* jac,
                                 double* scratch) {
  const int ns = g.nspecies;
  double* C = scratch;
  double* g_RT = scratch + ns;
  double* h_RT = scratch + 2 * ns;
  double* wdot = scratch + 3 * ns;
  double* dT = scratch + 4 * ns;
  double* S = scratch + 5 * ns;   // sum_k d wdot_i/dC_k C_k: the effect of scaling every C
  double* cv = scratch + 6 * ns;  // c_k
  if (kind == kIsothermalConcentrations) {
    net_production_jacobian(g, params[0], y, g_RT, h_RT, wdot, jac, ns, dT, C /* unused here: y is C */);
    return;
  }
  const bool energy = reactor_has_temperature(kind);
  const bool fixed_density = kind == kConstantVolume;
  const int o = energy ? 1 : 0, n = ns + o;
  const double T = energy ? y[0] : params[0];
  const double* Y = energy ? y + 1 : y;
  double moles_per_kg = 0.0;
  for (int k = 0; k < ns; ++k) moles_per_kg += Y[k] / g.molar_mass[k];
  const double rho = kind == kConstantVolume ? params[0]
                     : kind == kConstantPressure ? params[0] / (kGasConstant * T * moles_per_kg)
                                                 : params[1] / (kGasConstant * T * moles_per_kg);
  const double W_mean = 1.0 / moles_per_kg;
  for (int k = 0; k < ns; ++k) C[k] = rho * Y[k] / g.molar_mass[k];
  double* block = jac + o + o * n;  // d wdot_i/dC_k, then d wdot_i/dY_k
  net_production_jacobian(g, T, C, g_RT, h_RT, wdot, block, n, dT, S /* scratch until S is computed */);
  // dC_k/dY_j = rho/W_j delta_kj - C_k Wmean/W_j (the latter where rho moves); dC_k/dT = -C_k/T
  // at constant pressure, 0 at constant volume.
  // Column by column through separate arrays (restrict helpers): see common/vector.cuh.
  for (int i = 0; i < ns; ++i) S[i] = 0.0;
  if (!fixed_density)
    for (int k = 0; k < ns; ++k) subtract_scaled(0, ns, -C[k], block + k * n, S);  // S += C_k column k
  for (int j = 0; j < ns; ++j) rescale_column(ns, rho, W_mean, g.molar_mass[j], S, block + j * n);
  if (energy) {
    if (kind == kConstantPressure)
      for (int i = 0; i < ns; ++i) dT[i] -= S[i] / T;  // now d wdot_i/dT at fixed Y
    // The energy row: f_T = -T heat / Q.
    const double log_T = log(T);
    double heat = 0.0, Q = 0.0, dQ_dT = 0.0, dheat_dT = 0.0;
    for (int k = 0; k < ns; ++k) {
      double cp_R;
      nasa7_evaluate(g.nasa7 + kNasa7Stride * k, T, log_T, &cp_R, nullptr, nullptr);
      const double e_k = fixed_density ? h_RT[k] - 1.0 : h_RT[k];
      cv[k] = fixed_density ? cp_R - 1.0 : cp_R;
      heat += e_k * wdot[k];
      Q += cv[k] * C[k];
      dQ_dT += nasa7_dcp_R_dT(g.nasa7 + kNasa7Stride * k, T) * C[k];
      dheat_dT += (cp_R - h_RT[k]) / T * wdot[k] + e_k * dT[k];  // d(h/RT)/dT = (cp/R - h/RT)/T
    }
    if (!fixed_density) dQ_dT -= Q / T;
    const double f_T = -T * heat / Q;
    jac[0] = -heat / Q - T * dheat_dT / Q - f_T * dQ_dT / Q;
    for (int j = 0; j < ns; ++j) {
      double dheat = 0.0;
      for (int k = 0; k < ns; ++k) dheat += (fixed_density ? h_RT[k] - 1.0 : h_RT[k]) * block[k + j * n];
      const double W_j = g.molar_mass[j];
      const double dQ = rho / W_j * cv[j] - (fixed_density ? 0.0 : Q * W_mean / W_j);
      jac[(j + 1) * n] = -T * dheat / Q - f_T * dQ / Q;
    }
  }
  // The species rows: f_i = W_i wdot_i / rho, with d rho/dY_j = -rho Wmean/W_j and
  // d rho/dT = -rho/T where rho moves.
  double* moved = S;  // S is done with
  for (int i = 0; i < ns; ++i) {
    const double W_i = g.molar_mass[i];
    moved[i] = fixed_density ? 0.0 : W_i * wdot[i] / rho;
    if (energy) jac[o + i] = W_i / rho * dT[i] + (kind == kConstantPressure ? moved[i] / T : 0.0);
  }
  for (int j = 0; j < ns; ++j) species_rows_column(ns, rho, W_mean, g.molar_mass[j], g.molar_mass, moved, block + j * n);
}

}  // namespace opsplit::chem
