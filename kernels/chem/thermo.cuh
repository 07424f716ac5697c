// Ideal-gas thermodynamics of species from NASA 7-coefficient polynomials, one
// system at a time; shared by the host queries and the reactor right-hand sides on
// both backends.
#pragma once

#include <math.h>

#include "common/hd.cuh"

namespace opsplit::chem {

constexpr double kGasConstant = 8.31446261815324;  // J/(mol K): N_A k_B, exact since 2019
constexpr double kOneAtmosphere = 101325.0;        // Pa: the standard-state pressure of NASA-7 data

// Per species: T_mid, then a0..a6 of the low range (T <= T_mid) and a0..a6 of the high.
constexpr int kNasa7Stride = 15;

// The coefficients a0..a6 that apply at T (the low range up to and including T_mid).
OPSPLIT_HD const double* nasa7_range(const double* species_coefficients, double T) {
  return T <= species_coefficients[0] ? species_coefficients + 1 : species_coefficients + 8;
}

// cp/R, h/(RT) and s/R of one species at T (any output may be null).
OPSPLIT_HD void nasa7_evaluate(const double* species_coefficients, double T, double log_T, double* cp_R,
                               double* h_RT, double* s_R) {
  const double* a = nasa7_range(species_coefficients, T);
  const double T2 = T * T, T3 = T2 * T, T4 = T3 * T;
  if (cp_R != nullptr) *cp_R = a[0] + a[1] * T + a[2] * T2 + a[3] * T3 + a[4] * T4;
  if (h_RT != nullptr)
    *h_RT = a[0] + a[1] * T / 2.0 + a[2] * T2 / 3.0 + a[3] * T3 / 4.0 + a[4] * T4 / 5.0 + a[5] / T;
  if (s_R != nullptr) *s_R = a[0] * log_T + a[1] * T + a[2] * T2 / 2.0 + a[3] * T3 / 3.0 + a[4] * T4 / 4.0 + a[6];
}

// d(cp/R)/dT of one species at T (1/K): the reactor Jacobians' heat-capacity change.
OPSPLIT_HD double nasa7_dcp_R_dT(const double* species_coefficients, double T) {
  const double* a = nasa7_range(species_coefficients, T);
  return a[1] + T * (2.0 * a[2] + T * (3.0 * a[3] + T * 4.0 * a[4]));
}

// g/(RT) = h/(RT) - s/R of one species at T: the standard Gibbs energy the equilibrium
// constants read.
OPSPLIT_HD double nasa7_gibbs_RT(const double* species_coefficients, double T, double log_T) {
  double h_RT, s_R;
  nasa7_evaluate(species_coefficients, T, log_T, nullptr, &h_RT, &s_R);
  return h_RT - s_R;
}

}  // namespace opsplit::chem
