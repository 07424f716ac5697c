// The analytic Jacobian of the net production rates of a loaded mechanism: d wdot/dC at
// fixed T and d wdot/dT at fixed C, exact for every reaction form (mass action with any
// order, third bodies, falloff and chemically activated with their broadening, PLOG,
// equilibrium or explicit reverse rates). The pressure the rates read is the ideal
// gas's, sum(C) R T, so it moves with every C_k and with T. Shared by the host queries
// and the reactor Jacobians on both backends (reactor.cuh).
#pragma once

#include "chem/gas_kinetics.cuh"
#include "common/hd.cuh"
#include "common/vector.cuh"

namespace opsplit::chem {

// d(C^n)/dC, consistent with concentration_power: zero where a fractional order reads
// max(C, 0) = 0 (an order below one has no finite derivative there).
OPSPLIT_HD double concentration_power_derivative(double C, double n) {
  if (n == 1.0) return 1.0;
  if (n == 2.0) return 2.0 * C;
  if (n == 3.0) return 3.0 * C * C;
  return C > 0.0 ? n * pow(C, n - 1.0) : 0.0;
}

// d/dC of prod over entries [begin, end) of C[species]^power, with respect to entry e's
// factor (the product rule: summed over entries it is exact even if a species repeats).
OPSPLIT_HD double product_derivative(const int* species, const double* power, int begin, int end, int e,
                                     const double* C) {
  double d = concentration_power_derivative(C[species[e]], power[e]);
  for (int o = begin; o < end; ++o)
    if (o != e) d *= concentration_power(C[species[o]], power[o]);
  return d;
}

// What reaction r gives the rows of the species it changes: its net rate q, dq/dT at
// fixed C, dq/dC_k = uniform (every k) + collider_weight * efficiency excess of k + the
// mass-action terms (kf_M and kr_M times the derivatives of the concentration products).
struct ReactionJacobianTerms {
  double q, dq_dT, uniform, collider_weight, kf_M, kr_M;
};

// Reaction r's terms at c and C; g_RT and h_RT of every species.
OPSPLIT_HD ReactionJacobianTerms reaction_jacobian_terms(const GasKinetics& g, int r, const GasConditions& c,
                                                         const double* C, double C_total, const double* g_RT,
                                                         const double* h_RT) {
  RateSensitivity s;
  const double kf = forward_rate_constant(g, r, c, C, C_total, &s);
  double forward_product = 1.0, reverse_product = 0.0, kr = 0.0, dlnkr_dT = 0.0, inverse_Kc = 0.0;
  for (int e = g.order_begin[r]; e < g.order_begin[r + 1]; ++e)
    forward_product *= concentration_power(C[g.order_species[e]], g.order[e]);
  const int rev = g.reverse[r];
  const bool equilibrium = rev == kReverseEquilibrium;
  if (rev != kIrreversible) {
    if (equilibrium) {
      // ln(1/Kc) = sum nu g/RT - delta_n ln(P_atm/RT): d/dT = (delta_n - sum nu h/RT) / T.
      double nu_h_RT = 0.0;
      for (int e = g.change_begin[r]; e < g.change_begin[r + 1]; ++e) nu_h_RT += g.change[e] * h_RT[g.change_species[e]];
      inverse_Kc = inverse_equilibrium_constant(g, r, c, g_RT);
      kr = kf * inverse_Kc;
      dlnkr_dT = s.dlnk_dT + (g.delta_moles[r] - nu_h_RT) * c.inv_T;
    } else {
      kr = arrhenius_rate(g.arrhenius + kArrheniusStride * rev, c);
      dlnkr_dT = arrhenius_dlnk_dT(g.arrhenius + kArrheniusStride * rev, c);
    }
    reverse_product = 1.0;
    for (int e = g.product_begin[r]; e < g.product_begin[r + 1]; ++e)
      reverse_product *= concentration_power(C[g.product_species[e]], g.product_stoich[e]);
  }
  const int type = g.type[r];
  const int t = g.third_body[r];
  const double M = type == kGasThreeBody ? third_body_concentration(g, t, C, C_total) : 1.0;
  const double qf = kf * forward_product * M, qr = kr * reverse_product * M;
  ReactionJacobianTerms terms;
  terms.q = qf - qr;
  // d q/dT at fixed C: the rate constants, and the pressure (PLOG) through P = C_total R T.
  const double dq_dlnP = s.dlnk_dlnP * (qf - (equilibrium ? qr : 0.0));
  terms.dq_dT = qf * s.dlnk_dT - qr * dlnkr_dT + dq_dlnP * c.inv_T;
  terms.uniform = dq_dlnP / C_total;
  terms.collider_weight = 0.0;
  if (type == kGasThreeBody) terms.collider_weight = kf * forward_product - kr * reverse_product;
  if (type == kGasFalloff || type == kGasChemicallyActivated)
    terms.collider_weight = s.dk_dM * (forward_product - inverse_Kc * reverse_product);
  if (t >= 0) terms.uniform += terms.collider_weight * g.collider_default[t];
  terms.kf_M = kf * M;
  terms.kr_M = kr * M;
  return terms;
}

// Adds reaction r's part to row i of wdot, d wdot/dT, the uniform column term and d
// wdot/dC (row = dC + i, columns ld apart), e being r's change entry of species i. A row
// takes its reactions in reaction order whoever computes it (net_production_jacobian
// here, a warp's lane in bench/reactor_warp.cuh): the same sums, the same bits.
OPSPLIT_HD void add_reaction_to_row(const GasKinetics& g, int r, int e, const ReactionJacobianTerms& terms,
                                    const double* C, double* row, int ld, double& wdot_i, double& dT_i,
                                    double& uniform_i) {
  const double nu = g.change[e];
  const int t = g.third_body[r];
  wdot_i += nu * terms.q;
  dT_i += nu * terms.dq_dT;
  uniform_i += nu * terms.uniform;  // every column of the row: added once at the end
  if (t >= 0 && terms.collider_weight != 0.0)
    for (int x = g.collider_begin[t]; x < g.collider_begin[t + 1]; ++x)
      row[g.collider_species[x] * ld] += nu * terms.collider_weight * g.collider_excess[x];
  const int of = g.order_begin[r], ol = g.order_begin[r + 1];
  for (int o = of; o < ol; ++o)
    row[g.order_species[o] * ld] += nu * terms.kf_M * product_derivative(g.order_species, g.order, of, ol, o, C);
  if (g.reverse[r] != kIrreversible) {
    const int pf = g.product_begin[r], pl = g.product_begin[r + 1];
    for (int o = pf; o < pl; ++o)
      row[g.product_species[o] * ld] -=
          nu * terms.kr_M * product_derivative(g.product_species, g.product_stoich, pf, pl, o, C);
  }
}

// Species k's g/RT and h/RT at c.T.
OPSPLIT_HD void species_gibbs_enthalpy_RT(const GasKinetics& g, int k, const GasConditions& c, double* g_RT,
                                          double* h_RT) {
  double s_R;
  nasa7_evaluate(g.nasa7 + kNasa7Stride * k, c.T, c.log_T, nullptr, &h_RT[k], &s_R);
  g_RT[k] = h_RT[k] - s_R;
}

// wdot, d wdot_i/dC_k into dC[i + k * ld] and d wdot_i/dT into dT[i] (i, k species) at T
// and C. g_RT, h_RT and uniform_row: nspecies scratch (g_RT and h_RT left holding g/RT
// and h/RT).
OPSPLIT_HD void net_production_jacobian(const GasKinetics& g, double T, const double* C, double* g_RT, double* h_RT,
                                        double* wdot, double* dC, int ld, double* dT, double* uniform_row) {
  const int ns = g.nspecies;
  const double C_total = total_concentration(g, C);
  const GasConditions c = gas_conditions(T, C_total * kGasConstant * T);
  for (int k = 0; k < ns; ++k) {
    species_gibbs_enthalpy_RT(g, k, c, g_RT, h_RT);
    wdot[k] = 0.0;
    dT[k] = 0.0;
    uniform_row[k] = 0.0;
    for (int i = 0; i < ns; ++i) dC[i + k * ld] = 0.0;
  }
  for (int r = 0; r < g.nreactions; ++r) {
    const ReactionJacobianTerms terms = reaction_jacobian_terms(g, r, c, C, C_total, g_RT, h_RT);
    for (int e = g.change_begin[r]; e < g.change_begin[r + 1]; ++e) {
      const int i = g.change_species[e];
      add_reaction_to_row(g, r, e, terms, C, dC + i, ld, wdot[i], dT[i], uniform_row[i]);
    }
  }
  // The terms every C_k shares (third-body and falloff [M], the pressure of PLOG),
  // summed per row over the reactions: one pass over the matrix instead of one per
  // reaction and species.
  for (int k = 0; k < ns; ++k) add_vector(ns, uniform_row, dC + k * ld);
}

}  // namespace opsplit::chem
