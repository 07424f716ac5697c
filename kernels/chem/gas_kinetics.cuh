// Gas-phase kinetics of a loaded mechanism (Cantera YAML or CHEMKIN): rate constants
// of every reaction form, equilibrium constants from NASA-7 Gibbs energies, rates of
// progress and net production rates of one system. The same formulas as Cantera's, in
// opsplit's units (mol, m, s, J, K, Pa); shared by the host queries and the reactor
// right-hand sides on both backends.
#pragma once

#include <math.h>

#include "chem/thermo.cuh"
#include "common/hd.cuh"

namespace opsplit::chem {

enum GasReactionType : int {
  kGasElementary = 0,            // k(T)
  kGasThreeBody = 1,             // k(T) [M] multiplies both directions
  kGasFalloff = 2,               // k_inf Pr/(1+Pr) F, Pr = k_0 [M] / k_inf
  kGasChemicallyActivated = 3,   // k_0 F/(1+Pr)
  kGasPressureDependent = 4      // PLOG: log k interpolated in log P
};
enum FalloffForm : int { kFalloffLindemann = 0, kFalloffTroe = 1, kFalloffSri = 2 };
enum ReverseKind : int { kIrreversible = -1, kReverseEquilibrium = -2 };  // >= 0: explicit rate

constexpr double kSmallNumber = 1e-300;  // Cantera's guard in Pr and the falloff logarithms
constexpr int kArrheniusStride = 3;      // A (SI units), b, Ea/R (K)
constexpr int kFalloffStride = 5;        // Troe A, T3, T1, T2 (0 when absent); SRI a, b, c, d, e

// A mechanism in flat arrays (host or device memory). Reaction r's rate is Arrhenius
// entry r for every type (k_inf of a falloff, k_0 of a chemically activated reaction;
// unused by PLOG). Entry lists are [begin[r], begin[r+1]).
struct GasKinetics {
  int nspecies = 0;
  int nreactions = 0;
  const double* molar_mass = nullptr;  // kg/mol
  const double* nasa7 = nullptr;       // kNasa7Stride per species
  const int* type = nullptr;
  const double* arrhenius = nullptr;   // kArrheniusStride per entry
  // Forward rate: prod C^order over the order entries (the reactants, or FORD orders).
  const int* order_begin = nullptr;
  const int* order_species = nullptr;
  const double* order = nullptr;
  // Reverse rate: prod C^nu over the products.
  const int* product_begin = nullptr;
  const int* product_species = nullptr;
  const double* product_stoich = nullptr;
  // Net stoichiometric change of each species (nonzero only).
  const int* change_begin = nullptr;
  const int* change_species = nullptr;
  const double* change = nullptr;
  // The same entries species by species, in reaction order: species k's are
  // [species_change_begin[k], species_change_begin[k+1]), each a reaction and its change
  // entry (for the warp kernels, where a lane gathers its species' rows: bench/reactor_warp.cuh).
  const int* species_change_begin = nullptr;
  const int* species_change_reaction = nullptr;
  const int* species_change_entry = nullptr;
  const int* reverse = nullptr;           // ReverseKind, or the Arrhenius entry of an explicit reverse rate
  const double* delta_moles = nullptr;    // sum of product minus reactant coefficients
  // Third bodies: reaction r's collider set (-1: none); [M] = default * C_total + sum excess_k C_k.
  const int* third_body = nullptr;
  const int* collider_begin = nullptr;
  const int* collider_species = nullptr;
  const double* collider_excess = nullptr;  // efficiency - default
  const double* collider_default = nullptr;
  // Falloff: reaction r's falloff entry (-1: none): the other Arrhenius limit, form, parameters.
  const int* falloff = nullptr;
  const int* falloff_rate = nullptr;  // Arrhenius entry (k_0 of a falloff, k_inf of a chemically activated)
  const int* falloff_form = nullptr;
  const double* falloff_params = nullptr;  // kFalloffStride per entry
  // PLOG: reaction r's table (-1: none): pressure levels [level_begin[p], level_begin[p+1]) ascending;
  // level l: ln P and Arrhenius entries [level_rates[l], level_rates[l+1]) summed.
  const int* plog = nullptr;
  const int* plog_level_begin = nullptr;
  const double* plog_log_pressure = nullptr;
  const int* plog_level_rates = nullptr;
};

// The temperature and pressure a system's rates depend on, with their logarithms.
struct GasConditions {
  double T, log_T, inv_T, P, log_P;
};

OPSPLIT_HD GasConditions gas_conditions(double T, double P) {
  return GasConditions{T, log(T), 1.0 / T, P, log(P)};
}

OPSPLIT_HD double arrhenius_rate(const double* abe, const GasConditions& c) {
  return abe[0] * exp(abe[1] * c.log_T - abe[2] * c.inv_T);
}
// d ln k / dT of an Arrhenius rate: (b + Ea/(R T)) / T.
OPSPLIT_HD double arrhenius_dlnk_dT(const double* abe, const GasConditions& c) {
  return (abe[1] + abe[2] * c.inv_T) * c.inv_T;
}

// How a forward rate constant k moves, for the analytic Jacobians (null where only k is
// wanted): d ln k / dT at fixed [M] and P, dk/d[M] (falloff and chemically activated),
// d ln k / d ln P (PLOG).
struct RateSensitivity {
  double dlnk_dT = 0.0, dk_dM = 0.0, dlnk_dlnP = 0.0;
};

// C^n: repeated products for small whole n (exact, the same bits everywhere), else pow
// of max(C, 0) (a fractional order of a negative concentration has no meaning).
OPSPLIT_HD double concentration_power(double C, double n) {
  if (n == 1.0) return C;
  if (n == 2.0) return C * C;
  if (n == 3.0) return C * C * C;
  return pow(C > 0.0 ? C : 0.0, n);
}

// [M] of collider set t: efficiency-weighted total concentration.
OPSPLIT_HD double third_body_concentration(const GasKinetics& g, int t, const double* C, double C_total) {
  double M = g.collider_default[t] * C_total;
  for (int e = g.collider_begin[t]; e < g.collider_begin[t + 1]; ++e)
    M += g.collider_excess[e] * C[g.collider_species[e]];
  return M;
}

// The broadening factor F of falloff entry f at reduced pressure Pr; with
// dlnF_dlnPr / dlnF_dT not null also d ln F / d ln Pr and d ln F / dT at fixed Pr
// (zero where Pr or F_cent sit at the kSmallNumber guard, as F does not move there).
OPSPLIT_HD double falloff_broadening(const GasKinetics& g, int f, double Pr, const GasConditions& c,
                                     double* dlnF_dlnPr = nullptr, double* dlnF_dT = nullptr) {
  constexpr double kLn10 = 2.302585092994046;
  const double* p = g.falloff_params + kFalloffStride * f;
  const bool Pr_guarded = !(Pr > kSmallNumber);
  const double log10_Pr = log10(Pr_guarded ? kSmallNumber : Pr);
  const bool derivatives = dlnF_dlnPr != nullptr;
  switch (g.falloff_form[f]) {
    case kFalloffTroe: {
      // T3 or T1 of zero drops its term (Cantera's convention); T2 of zero is absent.
      const double e3 = p[1] != 0.0 ? exp(-c.T / p[1]) : 0.0, e1 = p[2] != 0.0 ? exp(-c.T / p[2]) : 0.0;
      double F_cent = (p[1] != 0.0 ? (1.0 - p[0]) * e3 : 0.0) + (p[2] != 0.0 ? p[0] * e1 : 0.0);
      const double e2 = p[3] != 0.0 ? exp(-p[3] * c.inv_T) : 0.0;
      if (p[3] != 0.0) F_cent += e2;
      const double log10_F_cent = log10(F_cent > kSmallNumber ? F_cent : kSmallNumber);
      const double cc = -0.4 - 0.67 * log10_F_cent;
      const double nn = 0.75 - 1.27 * log10_F_cent;
      const double u = log10_Pr + cc, den = nn - 0.14 * u;
      const double f1 = u / den;
      if (derivatives) {
        // log10 F = L / (1 + f1^2), L = log10 F_cent, f1 = u / (nn - 0.14 u), u = log10 Pr + cc.
        const double q = 1.0 + f1 * f1;
        const double dlog10F_df1 = -log10_F_cent * 2.0 * f1 / (q * q);
        *dlnF_dlnPr = Pr_guarded ? 0.0 : dlog10F_df1 * nn / (den * den);
        const double dF_cent_dT = (p[1] != 0.0 ? -(1.0 - p[0]) * e3 / p[1] : 0.0) +
                                  (p[2] != 0.0 ? -p[0] * e1 / p[2] : 0.0) +
                                  (p[3] != 0.0 ? e2 * p[3] * c.inv_T * c.inv_T : 0.0);
        const double dL_dT = F_cent > kSmallNumber ? dF_cent_dT / (F_cent * kLn10) : 0.0;
        const double dlog10F_dL = 1.0 / q + dlog10F_df1 * (1.27 * u - 0.67 * nn) / (den * den);
        *dlnF_dT = kLn10 * dlog10F_dL * dL_dT;
      }
      return pow(10.0, log10_F_cent / (1.0 + f1 * f1));
    }
    case kFalloffSri: {
      const double ea = p[0] * exp(-p[1] * c.inv_T), ec = p[2] != 0.0 ? exp(-c.T / p[2]) : 0.0;
      const double base = ea + ec;
      const double x = 1.0 / (1.0 + log10_Pr * log10_Pr);
      if (derivatives) {
        // ln F = x ln(base) + ln d + e ln T, x = 1 / (1 + log10(Pr)^2).
        *dlnF_dlnPr = Pr_guarded ? 0.0 : -2.0 * log10_Pr * x * x * log(base) / kLn10;
        const double dbase_dT = ea * p[1] * c.inv_T * c.inv_T - (p[2] != 0.0 ? ec / p[2] : 0.0);
        *dlnF_dT = x * dbase_dT / base + p[4] * c.inv_T;
      }
      return pow(base, x) * p[3] * (p[4] != 0.0 ? exp(p[4] * c.log_T) : 1.0);
    }
    default:
      if (derivatives) *dlnF_dlnPr = 0.0, *dlnF_dT = 0.0;
      return 1.0;
  }
}

// k(P) of PLOG table p: each level's rates summed, ln k interpolated linearly in ln P
// between the two levels around P, the end level's k outside the table. With s not
// null also its d ln k / dT and d ln k / d ln P.
OPSPLIT_HD double plog_rate(const GasKinetics& g, int p, const GasConditions& c, RateSensitivity* s = nullptr) {
  const int first = g.plog_level_begin[p], last = g.plog_level_begin[p + 1] - 1;
  auto level_rate = [&](int l, double* dlnk_dT) {
    double k = 0.0, dk_dT = 0.0;
    for (int e = g.plog_level_rates[l]; e < g.plog_level_rates[l + 1]; ++e) {
      const double ke = arrhenius_rate(g.arrhenius + kArrheniusStride * e, c);
      k += ke;
      if (dlnk_dT != nullptr) dk_dT += ke * arrhenius_dlnk_dT(g.arrhenius + kArrheniusStride * e, c);
    }
    if (dlnk_dT != nullptr) *dlnk_dT = dk_dT / k;
    return k;
  };
  double* dlnk_dT = s != nullptr ? &s->dlnk_dT : nullptr;
  if (s != nullptr) s->dlnk_dlnP = 0.0;
  if (c.log_P <= g.plog_log_pressure[first]) return level_rate(first, dlnk_dT);
  if (c.log_P >= g.plog_log_pressure[last]) return level_rate(last, dlnk_dT);
  int l = first;
  while (c.log_P >= g.plog_log_pressure[l + 1]) ++l;
  double d1 = 0.0, d2 = 0.0;
  const double log_k1 = log(level_rate(l, s != nullptr ? &d1 : nullptr));
  const double log_k2 = log(level_rate(l + 1, s != nullptr ? &d2 : nullptr));
  const double x1 = g.plog_log_pressure[l], x2 = g.plog_log_pressure[l + 1];
  const double w = (c.log_P - x1) / (x2 - x1);
  if (s != nullptr) {
    s->dlnk_dT = (1.0 - w) * d1 + w * d2;
    s->dlnk_dlnP = (log_k2 - log_k1) / (x2 - x1);
  }
  return exp(log_k1 + (log_k2 - log_k1) * (c.log_P - x1) / (x2 - x1));
}

// Forward rate constant of reaction r (without the [M] factor of a three-body
// reaction); with s not null also how it moves (RateSensitivity).
OPSPLIT_HD double forward_rate_constant(const GasKinetics& g, int r, const GasConditions& c, const double* C,
                                        double C_total, RateSensitivity* s = nullptr) {
  const int type = g.type[r];
  if (type == kGasPressureDependent) return plog_rate(g, g.plog[r], c, s);
  const double* abe = g.arrhenius + kArrheniusStride * r;
  const double k = arrhenius_rate(abe, c);
  if (s != nullptr) *s = RateSensitivity{arrhenius_dlnk_dT(abe, c), 0.0, 0.0};
  if (type != kGasFalloff && type != kGasChemicallyActivated) return k;
  const int f = g.falloff[r];
  const double* abe_other = g.arrhenius + kArrheniusStride * g.falloff_rate[f];
  const double k_other = arrhenius_rate(abe_other, c);
  const double M = third_body_concentration(g, g.third_body[r], C, C_total);
  double dlnF_dlnPr = 0.0, dlnF_dT = 0.0;
  double* want_dlnPr = s != nullptr ? &dlnF_dlnPr : nullptr;
  double* want_dT = s != nullptr ? &dlnF_dT : nullptr;
  if (type == kGasFalloff) {  // k = k_inf, k_other = k_0
    const double dPr_dM = k_other / (k + kSmallNumber);
    const double Pr = M * dPr_dM;
    const double F = falloff_broadening(g, f, Pr, c, want_dlnPr, want_dT);
    if (s != nullptr) {
      // ln k_f = ln k_inf + ln Pr - ln(1 + Pr) + ln F.
      const double dlnkf_dlnPr = 1.0 / (1.0 + Pr) + dlnF_dlnPr;
      s->dlnk_dT += dlnkf_dlnPr * (arrhenius_dlnk_dT(abe_other, c) - s->dlnk_dT) + dlnF_dT;
      s->dk_dM = k * F / (1.0 + Pr) * dlnkf_dlnPr * dPr_dM;  // k_f / Pr without dividing by Pr
    }
    return k * (Pr / (1.0 + Pr)) * F;
  }
  const double dPr_dM = k / (k_other + kSmallNumber);  // k = k_0, k_other = k_inf
  const double Pr = M * dPr_dM;
  const double F = falloff_broadening(g, f, Pr, c, want_dlnPr, want_dT);
  const double kf = k * (1.0 / (1.0 + Pr)) * F;
  if (s != nullptr) {
    // ln k_f = ln k_0 - ln(1 + Pr) + ln F; d ln F/dM = dlnF_dlnPr / M (zero at the guard).
    s->dlnk_dT += (dlnF_dlnPr - Pr / (1.0 + Pr)) * (s->dlnk_dT - arrhenius_dlnk_dT(abe_other, c)) + dlnF_dT;
    s->dk_dM = kf * (-dPr_dM / (1.0 + Pr) + (dlnF_dlnPr != 0.0 ? dlnF_dlnPr / M : 0.0));
  }
  return kf;
}

// 1/Kc of reaction r: exp(sum nu g/RT - delta_moles ln(P_atm / RT)); g_RT per species.
OPSPLIT_HD double inverse_equilibrium_constant(const GasKinetics& g, int r, const GasConditions& c,
                                               const double* g_RT) {
  double delta_g_RT = 0.0;
  for (int e = g.change_begin[r]; e < g.change_begin[r + 1]; ++e) delta_g_RT += g.change[e] * g_RT[g.change_species[e]];
  const double log_standard_concentration = log(kOneAtmosphere / (kGasConstant * c.T));
  return exp(delta_g_RT - g.delta_moles[r] * log_standard_concentration);
}

// Forward and reverse rates of progress of reaction r (mol/(m^3 s)).
OPSPLIT_HD void rates_of_progress(const GasKinetics& g, int r, const GasConditions& c, const double* C,
                                  double C_total, const double* g_RT, double* forward, double* reverse) {
  const double kf = forward_rate_constant(g, r, c, C, C_total);
  double qf = kf;
  for (int e = g.order_begin[r]; e < g.order_begin[r + 1]; ++e) qf *= concentration_power(C[g.order_species[e]], g.order[e]);
  double qr = 0.0;
  const int rev = g.reverse[r];
  if (rev != kIrreversible) {
    qr = rev == kReverseEquilibrium ? kf * inverse_equilibrium_constant(g, r, c, g_RT)
                                    : arrhenius_rate(g.arrhenius + kArrheniusStride * rev, c);
    for (int e = g.product_begin[r]; e < g.product_begin[r + 1]; ++e)
      qr *= concentration_power(C[g.product_species[e]], g.product_stoich[e]);
  }
  if (g.type[r] == kGasThreeBody) {
    const double M = third_body_concentration(g, g.third_body[r], C, C_total);
    qf *= M;
    qr *= M;
  }
  *forward = qf;
  *reverse = qr;
}

// g/(RT) of every species at c.T (nspecies values).
OPSPLIT_HD void species_gibbs_RT(const GasKinetics& g, const GasConditions& c, double* g_RT) {
  for (int k = 0; k < g.nspecies; ++k) g_RT[k] = nasa7_gibbs_RT(g.nasa7 + kNasa7Stride * k, c.T, c.log_T);
}

OPSPLIT_HD double total_concentration(const GasKinetics& g, const double* C) {
  double total = 0.0;
  for (int k = 0; k < g.nspecies; ++k) total += C[k];
  return total;
}

// Net production rates wdot (mol/(m^3 s)) at T and concentrations C (mol/m^3); the
// pressure (PLOG) is the ideal gas's, C_total R T. g_RT: nspecies scratch.
OPSPLIT_HD void net_production_rates(const GasKinetics& g, double T, const double* C, double* g_RT, double* wdot) {
  const double C_total = total_concentration(g, C);
  const GasConditions c = gas_conditions(T, C_total * kGasConstant * T);
  species_gibbs_RT(g, c, g_RT);
  for (int k = 0; k < g.nspecies; ++k) wdot[k] = 0.0;
  for (int r = 0; r < g.nreactions; ++r) {
    double qf, qr;
    rates_of_progress(g, r, c, C, C_total, g_RT, &qf, &qr);
    const double q = qf - qr;
    for (int e = g.change_begin[r]; e < g.change_begin[r + 1]; ++e) wdot[g.change_species[e]] += g.change[e] * q;
  }
}

// The ideal-gas mixture at T, P and mass fractions Y: mean molar mass (kg/mol), and per
// unit mass cp, enthalpy (J/(kg K), J/kg); density = P W / (R T), cv = cp - R/W,
// u = h - R T / W.
struct Mixture {
  double molar_mass, density, cp, cv, enthalpy, internal_energy;
};

OPSPLIT_HD Mixture mixture_properties(const GasKinetics& g, double T, double P, const double* Y) {
  const double log_T = log(T);
  double moles_per_kg = 0.0, cp_R = 0.0, h_RT = 0.0;
  for (int k = 0; k < g.nspecies; ++k) {
    double cp_k, h_k;
    nasa7_evaluate(g.nasa7 + kNasa7Stride * k, T, log_T, &cp_k, &h_k, nullptr);
    const double n = Y[k] / g.molar_mass[k];
    moles_per_kg += n;
    cp_R += n * cp_k;
    h_RT += n * h_k;
  }
  Mixture m;
  m.molar_mass = 1.0 / moles_per_kg;
  m.density = P * m.molar_mass / (kGasConstant * T);
  m.cp = cp_R * kGasConstant;
  m.cv = m.cp - kGasConstant * moles_per_kg;
  m.enthalpy = h_RT * kGasConstant * T;
  m.internal_energy = m.enthalpy - kGasConstant * T * moles_per_kg;
  return m;
}

}  // namespace opsplit::chem
