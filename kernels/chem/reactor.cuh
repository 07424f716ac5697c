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
OPSPLIT_HD constexpr int reactor_scratch_size(int nspecies) { return 9 * nspecies; }

// That scratch's species arrays: concentrations, g/RT, h/RT, wdot, d wdot/dT at fixed
// C, S = sum_k d wdot_i/dC_k C_k (the effect of scaling every C), and species_energy's
// e_k, c_k with dc_k = d(cp_k/R)/dT.
struct ReactorScratch {
  double *C, *g_RT, *h_RT, *wdot, *dT, *S, *e, *c, *dc;
};

OPSPLIT_HD ReactorScratch reactor_scratch(double* scratch, int ns) {
  return ReactorScratch{scratch,          scratch + ns,     scratch + 2 * ns, scratch + 3 * ns, scratch + 4 * ns,
                        scratch + 5 * ns, scratch + 6 * ns, scratch + 7 * ns, scratch + 8 * ns};
}

// What a reactor's rates read from its state: T, the mass fractions, moles per kg,
// density and mean molar mass (not for ISOTHERMAL_CONCENTRATIONS, whose state is C).
struct ReactorState {
  double T;
  const double* Y;
  double moles_per_kg, rho, W_mean;
};

OPSPLIT_HD ReactorState reactor_state(const GasKinetics& g, int kind, const double* params, const double* y) {
  const bool energy = reactor_has_temperature(kind);
  ReactorState st;
  st.T = energy ? y[0] : params[0];
  st.Y = energy ? y + 1 : y;
  st.moles_per_kg = 0.0;
  for (int k = 0; k < g.nspecies; ++k) st.moles_per_kg += st.Y[k] / g.molar_mass[k];
  st.rho = kind == kConstantVolume      ? params[0]
           : kind == kConstantPressure ? params[0] / (kGasConstant * st.T * st.moles_per_kg)
                                       : params[1] / (kGasConstant * st.T * st.moles_per_kg);
  st.W_mean = 1.0 / st.moles_per_kg;
  return st;
}

OPSPLIT_HD double species_concentration(const GasKinetics& g, const ReactorState& st, int k) {
  return st.rho * st.Y[k] / g.molar_mass[k];
}

// Species k's h/RT and cp/R, or u/RT and cv/R at constant volume: what its moles carry
// into the energy equation.
OPSPLIT_HD void species_energy(const GasKinetics& g, int kind, int k, double T, double log_T, double* e, double* c) {
  nasa7_evaluate(g.nasa7 + kNasa7Stride * k, T, log_T, &c[k], &e[k], nullptr);
  if (kind == kConstantVolume) e[k] -= 1.0, c[k] -= 1.0;
}

// dT/dt = -T sum e_k wdot_k / (rho sum c_k n_k), n_k = Y_k / W_k (species_energy's e, c).
OPSPLIT_HD double temperature_rate(const GasKinetics& g, const ReactorState& st, const double* wdot, const double* e,
                                   const double* c) {
  double heat = 0.0, cp_R = 0.0;
  for (int k = 0; k < g.nspecies; ++k) {
    heat += e[k] * wdot[k];
    cp_R += c[k] * (st.Y[k] / g.molar_mass[k]);
  }
  return -heat * st.T / (st.rho * cp_R);
}

// dy/dt of one system; scratch: reactor_scratch_size(nspecies) doubles.
OPSPLIT_HD_CALLED void reactor_rhs(const GasKinetics& g, int kind, const double* params, const double* y, double* ydot,
                            double* scratch) {
  const int ns = g.nspecies;
  const ReactorScratch sc = reactor_scratch(scratch, ns);
  double *C = sc.C, *g_RT = sc.g_RT, *wdot = sc.wdot, *e = sc.e, *c = sc.c;
  if (kind == kIsothermalConcentrations) {
    net_production_rates(g, params[0], y, g_RT, ydot);
    return;
  }
  const bool energy = reactor_has_temperature(kind);
  const ReactorState st = reactor_state(g, kind, params, y);
  for (int k = 0; k < ns; ++k) C[k] = species_concentration(g, st, k);
  net_production_rates(g, st.T, C, g_RT, wdot);
  double* dY = energy ? ydot + 1 : ydot;
  for (int k = 0; k < ns; ++k) dY[k] = wdot[k] * g.molar_mass[k] / st.rho;
  if (!energy) return;
  const double log_T = log(st.T);
  for (int k = 0; k < ns; ++k) species_energy(g, kind, k, st.T, log_T, e, c);
  ydot[0] = temperature_rate(g, st, wdot, e, c);
}

// The entries of reactor_jacobian's chain rule, one function each so that the thread
// and warp versions (bench/reactor_warp.cuh) compute the same bits.
// d wdot_i/dC_j becomes d wdot_i/dY_j: a rho / W_j - S_i Wmean / W_j.
OPSPLIT_HD double mass_fraction_entry(double a, double S_i, double rho, double W_mean, double W_j) {
  return a * rho / W_j - S_i * W_mean / W_j;
}
// Species row i of column j: W_i / rho a + moved_i Wmean / W_j.
OPSPLIT_HD double species_row_entry(double a, double W_i, double moved_i, double rho, double W_mean, double W_j) {
  return W_i / rho * a + moved_i * W_mean / W_j;
}

// Helpers of reactor_jacobian, each one column through __restrict__ pointers, four
// rows at a time with the loads first (common/vector.cuh says why).
OPSPLIT_HD void rescale_column(int ns, double rho, double W_mean, double W_j, const double* __restrict__ S,
                               double* __restrict__ col) {
  int i = 0;
  for (; i + 4 <= ns; i += 4) {
    const double a0 = col[i], a1 = col[i + 1], a2 = col[i + 2], a3 = col[i + 3];
    const double s0 = S[i], s1 = S[i + 1], s2 = S[i + 2], s3 = S[i + 3];
    col[i] = mass_fraction_entry(a0, s0, rho, W_mean, W_j), col[i + 1] = mass_fraction_entry(a1, s1, rho, W_mean, W_j);
    col[i + 2] = mass_fraction_entry(a2, s2, rho, W_mean, W_j), col[i + 3] = mass_fraction_entry(a3, s3, rho, W_mean, W_j);
  }
  for (; i < ns; ++i) col[i] = mass_fraction_entry(col[i], S[i], rho, W_mean, W_j);
}

OPSPLIT_HD void species_rows_column(int ns, double rho, double W_mean, double W_j, const double* __restrict__ W,
                                    const double* __restrict__ moved, double* __restrict__ col) {
  int i = 0;
  for (; i + 4 <= ns; i += 4) {
    const double a0 = col[i], a1 = col[i + 1], a2 = col[i + 2], a3 = col[i + 3];
    const double m0 = moved[i], m1 = moved[i + 1], m2 = moved[i + 2], m3 = moved[i + 3];
    const double w0 = W[i], w1 = W[i + 1], w2 = W[i + 2], w3 = W[i + 3];
    col[i] = species_row_entry(a0, w0, m0, rho, W_mean, W_j);
    col[i + 1] = species_row_entry(a1, w1, m1, rho, W_mean, W_j);
    col[i + 2] = species_row_entry(a2, w2, m2, rho, W_mean, W_j);
    col[i + 3] = species_row_entry(a3, w3, m3, rho, W_mean, W_j);
  }
  for (; i < ns; ++i) col[i] = species_row_entry(col[i], W[i], moved[i], rho, W_mean, W_j);
}

// The energy row's sums over species: f_T = -T heat / Q; e_k, c_k from species_energy,
// dc[k] = d(cp_k/R)/dT.
struct EnergySums {
  double heat, Q, dQ_dT, dheat_dT;
};

OPSPLIT_HD EnergySums energy_sums(int ns, bool fixed_density, double T, const double* C, const double* e,
                                  const double* c, const double* dc, const double* wdot, const double* dT) {
  EnergySums sums{0.0, 0.0, 0.0, 0.0};
  for (int k = 0; k < ns; ++k) {
    sums.heat += e[k] * wdot[k];
    sums.Q += c[k] * C[k];
    sums.dQ_dT += dc[k] * C[k];
    // d e_k/dT = (cp/R - h/RT)/T = (c_k - e_k)/T either way.
    sums.dheat_dT += (c[k] - e[k]) / T * wdot[k] + e[k] * dT[k];
  }
  if (!fixed_density) sums.dQ_dT -= sums.Q / T;
  return sums;
}

// Energy row entry of column j (species j): d f_T / dY_j from column j of d wdot/dY.
OPSPLIT_HD double energy_row_entry(int ns, const double* e, const double* col, const EnergySums& sums, double T,
                                   double f_T, double rho, double W_mean, double W_j, double c_j, bool fixed_density) {
  double dheat = 0.0;
  for (int k = 0; k < ns; ++k) dheat += e[k] * col[k];
  const double dQ = rho / W_j * c_j - (fixed_density ? 0.0 : sums.Q * W_mean / W_j);
  return -T * dheat / sums.Q - f_T * dQ / sums.Q;
}

// The analytic Jacobian of reactor_rhs: jac[i + j * n] = d ydot_i / d y_j, n =
// reactor_equations(kind, nspecies). From d wdot/dC and d wdot/dT at fixed C
// (net_production_jacobian) by the chain rule through C_k = rho Y_k / W_k, where rho
// = P Wmean / (R T) moves with Y and T (constant pressure, isothermal Y) or is fixed
// (constant volume), and through the energy equation dT/dt = -T sum e_k wdot_k / Q,
// e_k = h_k/RT (u_k/RT), Q = sum c_k C_k, c_k = cp_k/R (cv_k/R).
// scratch: reactor_scratch_size(nspecies) doubles.
OPSPLIT_HD_CALLED void reactor_jacobian(const GasKinetics& g, int kind, const double* params, const double* y, double* jac,
                                 double* scratch) {
  const int ns = g.nspecies;
  const ReactorScratch sc = reactor_scratch(scratch, ns);
  double *C = sc.C, *g_RT = sc.g_RT, *h_RT = sc.h_RT, *wdot = sc.wdot, *dT = sc.dT, *S = sc.S, *e = sc.e, *c = sc.c,
         *dc = sc.dc;
  if (kind == kIsothermalConcentrations) {
    net_production_jacobian(g, params[0], y, g_RT, h_RT, wdot, jac, ns, dT, C /* unused here: y is C */);
    return;
  }
  const bool energy = reactor_has_temperature(kind);
  const bool fixed_density = kind == kConstantVolume;
  const int o = energy ? 1 : 0, n = ns + o;
  const ReactorState st = reactor_state(g, kind, params, y);
  const double T = st.T, rho = st.rho, W_mean = st.W_mean;
  for (int k = 0; k < ns; ++k) C[k] = species_concentration(g, st, k);
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
    const double log_T = log(T);
    for (int k = 0; k < ns; ++k) {
      species_energy(g, kind, k, T, log_T, e, c);
      dc[k] = nasa7_dcp_R_dT(g.nasa7 + kNasa7Stride * k, T);
    }
    const EnergySums sums = energy_sums(ns, fixed_density, T, C, e, c, dc, wdot, dT);
    const double f_T = -T * sums.heat / sums.Q;
    jac[0] = -sums.heat / sums.Q - T * sums.dheat_dT / sums.Q - f_T * sums.dQ_dT / sums.Q;
    for (int j = 0; j < ns; ++j)
      jac[(j + 1) * n] = energy_row_entry(ns, e, block + j * n, sums, T, f_T, rho, W_mean, g.molar_mass[j], c[j],
                                          fixed_density);
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
