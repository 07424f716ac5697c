// Mass-action kinetics of a reaction network: rate constants, dy/dt and its exact
// Jacobian for one system. Shared by the ODE batches (both backends) and, later, by
// reaction terms of fields: the one place these formulas live.
#pragma once

#include <math.h>

#include "chem/rate_program.cuh"
#include "chem/thermo.cuh"
#include "common/hd.cuh"
#include "common/vector.cuh"
#include "linalg/sparse_lu.cuh"

namespace opsplit::chem {

// kRateExpression: a compiled rate expression (rate_program.cuh) over the parameters.
enum RateKind : int { kRateConstant = 0, kRateArrhenius = 1, kRateParameter = 2, kRateExpression = 3 };

// Saturation factors of a reaction's rate, each a function of one species' concentration
// c (the microbial kinetics of groundwater codes: PFLOTRAN's MICROBIAL_REACTION):
//   kFactorMonod        (c - c_th) / (K + c - c_th), 0 at or below the threshold c_th
//                       (c_th = 0: c / (K + c), PFLOTRAN's INVERSE_MONOD inhibition too);
//   kFactorInhibition   K / (K + c): non-competitive inhibition (PFLOTRAN's MONOD
//                       inhibition), 1 at c <= 0;
//   kFactorThreshold    1/2 + atan((c - K) f) / pi: a smooth switch at c = K, on above it
//                       for f > 0, below it for f < 0.
// A factor never reads a negative c as a concentration (an integrator's undershoot): Monod
// is 0 and inhibition 1 there, so that no factor turns a rate's sign.
enum FactorKind : int { kFactorMonod = 0, kFactorInhibition = 1, kFactorThreshold = 2 };

// A network in flat arrays (host or device memory). Reaction r's reactants are
// entries [reactant_begin[r], reactant_begin[r+1]) of reactant_species/order (each
// species once, order = its summed coefficient); its net changes of species are
// entries [change_begin[r], change_begin[r+1]) of change_species/delta (nonzero only).
struct MassAction {
  int nspecies = 0;
  int nreactions = 0;
  const int* reactant_begin = nullptr;
  const int* reactant_species = nullptr;
  const int* reactant_order = nullptr;
  const int* change_begin = nullptr;
  const int* change_species = nullptr;
  const double* change_delta = nullptr;  // products' yields minus reactants' coefficients
  const int* rate_kind = nullptr;
  const double* rate_a = nullptr;
  const double* rate_b = nullptr;
  const double* rate_ea_over_r = nullptr;  // Ea / R, kelvin
  const int* rate_param = nullptr;
  // Reaction r's expression: instructions [rate_code_begin[r], rate_code_begin[r+1]) of
  // rate_code ((op, arg) pairs), its constants from rate_constants + rate_constant_begin[r].
  const int* rate_code_begin = nullptr;
  const int* rate_code = nullptr;
  const int* rate_constant_begin = nullptr;
  const double* rate_constants = nullptr;
  // Reaction r's rate is also multiplied by the sum of y over species
  // [sum_begin[r], sum_begin[r+1]) of sum_species (MCM's RO2; none: no factor).
  const int* sum_begin = nullptr;
  const int* sum_species = nullptr;
  // Reaction r's rate is also multiplied by factors [factor_begin[r], factor_begin[r+1]):
  // kind, species, K and the kind's second constant (Monod's threshold, the switch's f).
  // nfactors == 0: none in the network (the rate loops are then compiled without them).
  int nfactors = 0;
  const int* factor_begin = nullptr;
  const int* factor_kind = nullptr;
  const int* factor_species = nullptr;
  const double* factor_k = nullptr;
  const double* factor_p = nullptr;
  // The Jacobian on the sparse LU pattern of 1/(gamma h) - J: the value index of each
  // (reaction, reactant entry, change entry) term, then of each (reaction, summed
  // species, change entry) term, then of each (reaction, factor, change entry) term, in
  // the loop order of mass_action_jacobian_sparse.
  linalg::SparseLu lu;
  const int* jacobian_slot = nullptr;
};

// y^n for a small integer n >= 0 by repeated products (exact for n = 0, 1; the same
// bits on every backend, unlike pow). Order 1, nearly every reactant's, skips the loop.
OPSPLIT_HD double integer_power(double y, int n) {
  if (n == 1) return y;
  double p = 1.0;
  for (int i = 0; i < n; ++i) p *= y;
  return p;
}

// The functions below take a system's vectors (parameters, rate constants k, y, the
// outputs) as pointers or Strided views (common/strided.cuh), each its own type.

// k_r for one system's parameters.
template <class P>
OPSPLIT_HD double rate_constant(const MassAction& m, int r, P params) {
  const double a = m.rate_a[r];
  switch (m.rate_kind[r]) {
    case kRateArrhenius: {
      const double temperature = params[m.rate_param[r]];
      const double b = m.rate_b[r];
      const double power = b == 0.0 ? 1.0 : pow(temperature, b);
      return a * power * exp(-m.rate_ea_over_r[r] / temperature);
    }
    case kRateParameter:
      return a * params[m.rate_param[r]];
    case kRateExpression: {
      const int begin = m.rate_code_begin[r];
      return evaluate_rate(m.rate_code + 2 * begin, m.rate_code_begin[r + 1] - begin,
                           m.rate_constants + m.rate_constant_begin[r], params);
    }
    default:
      return a;
  }
}

template <class P, class K>
OPSPLIT_HD void rate_constants(const MassAction& m, P params, K k) {
  for (int r = 0; r < m.nreactions; ++r) k[r] = rate_constant(m, r, params);
}

// Reaction r's species-sum factor at y: the sum over its summed species, 1 without one.
template <class Y>
OPSPLIT_HD double species_sum(const MassAction& m, int r, Y y) {
  const int begin = m.sum_begin[r], end = m.sum_begin[r + 1];
  if (begin == end) return 1.0;
  double sum = 0.0;
  for (int i = begin; i < end; ++i) sum += y[m.sum_species[i]];
  return sum;
}

// A saturation factor's value at concentration c and its derivative d/dc.
struct FactorValue {
  double value, derivative;
};
OPSPLIT_HD FactorValue saturation_factor(int kind, double c, double k, double p) {
  switch (kind) {
    case kFactorMonod: {
      const double x = c - p;
      if (!(x > 0.0)) return {0.0, 0.0};
      const double d = k + x;
      return {x / d, k / (d * d)};
    }
    case kFactorInhibition: {
      if (!(c > 0.0)) return {1.0, 0.0};
      const double d = k + c;
      return {k / d, -k / (d * d)};
    }
    default: {  // kFactorThreshold
      constexpr double kPi = 3.14159265358979323846;
      const double z = (c - k) * p;
      return {0.5 + atan(z) / kPi, p / (kPi * (1.0 + z * z))};
    }
  }
}

// Reaction r's factors multiplied, except factor `skip` (-1: none). The rate loops are
// compiled twice, kFactors false for networks without factors (every atmospheric and
// combustion mechanism) so that their code is what it was before factors existed: one
// runtime check in each loop cost CB05 and SAPRC-99 on the H200 10-15 % (spilled
// registers); kFactors true for the networks with them.
template <bool kFactors, class Y>
OPSPLIT_HD double factors_product(const MassAction& m, int r, Y y, int skip = -1) {
  double product = 1.0;
  if constexpr (kFactors)
    for (int f = m.factor_begin[r]; f < m.factor_begin[r + 1]; ++f)
      if (f != skip)
        product *= saturation_factor(m.factor_kind[f], y[m.factor_species[f]], m.factor_k[f], m.factor_p[f]).value;
  return product;
}

// k_r prod y^order: the rate without its species-sum factor.
template <class K, class Y>
OPSPLIT_HD double mass_action_term(const MassAction& m, K k, Y y, int r) {
  double w = k[r];
  for (int e = m.reactant_begin[r]; e < m.reactant_begin[r + 1]; ++e)
    w *= integer_power(y[m.reactant_species[e]], m.reactant_order[e]);
  return w;
}

// ydot = sum_r delta_r * k_r * sum_r(y) * factors_r(y) * prod y^order.
template <bool kFactors, class K, class Y, class Out>
OPSPLIT_HD_SWEEP void mass_action_rates_with(const MassAction& m, K k, Y y, Out ydot) {
  for (int s = 0; s < m.nspecies; ++s) ydot[s] = 0.0;
  for (int r = 0; r < m.nreactions; ++r) {
    const double w = mass_action_term(m, k, y, r) * species_sum(m, r, y) * factors_product<kFactors>(m, r, y);
    const int begin = m.change_begin[r];
    scatter_add(m.change_begin[r + 1] - begin, m.change_species + begin, m.change_delta + begin, w, ydot);
  }
}
template <class K, class Y, class Out>
OPSPLIT_HD_SWEEP void mass_action_rates(const MassAction& m, K k, Y y, Out ydot) {
  if (m.nfactors == 0)
    mass_action_rates_with<false>(m, k, y, ydot);
  else
    mass_action_rates_with<true>(m, k, y, ydot);
}

// d w_r / d y_j through reactant entry a (species j): order_j y_j^(order_j - 1) times the
// rest, the species-sum factor and the saturation factors. (A summed species adds
// k_r prod y^order times the factors, and a factor's species the factor's derivative
// times the rest: the terms of their own loops in the Jacobians below.)
template <bool kFactors, class K, class Y>
OPSPLIT_HD double rate_derivative(const MassAction& m, K k, Y y, int r, int a) {
  const int begin = m.reactant_begin[r], end = m.reactant_begin[r + 1];
  const int j = m.reactant_species[a];
  double dw = k[r] * static_cast<double>(m.reactant_order[a]) * integer_power(y[j], m.reactant_order[a] - 1);
  for (int b = begin; b < end; ++b)
    if (b != a) dw *= integer_power(y[m.reactant_species[b]], m.reactant_order[b]);
  return dw * species_sum(m, r, y) * factors_product<kFactors>(m, r, y);
}

// d w_r / d y_j through factor f of reaction r (species j): the factor's derivative
// times the mass-action term, the species sum and the other factors.
template <class K, class Y>
OPSPLIT_HD double factor_derivative(const MassAction& m, K k, Y y, int r, int f) {
  const double dfactor =
      saturation_factor(m.factor_kind[f], y[m.factor_species[f]], m.factor_k[f], m.factor_p[f]).derivative;
  return dfactor * mass_action_term(m, k, y, r) * species_sum(m, r, y) * factors_product<true>(m, r, y, f);
}

// Column-major Jacobian: jac[i + j*n] = d(ydot_i)/dy_j.
OPSPLIT_HD void mass_action_jacobian(const MassAction& m, const double* k, const double* y, double* jac) {
  const int n = m.nspecies;
  for (int i = 0; i < n * n; ++i) jac[i] = 0.0;
  for (int r = 0; r < m.nreactions; ++r)
    for (int a = m.reactant_begin[r]; a < m.reactant_begin[r + 1]; ++a) {
      const int j = m.reactant_species[a];
      const double dw = rate_derivative<true>(m, k, y, r, a);
      for (int e = m.change_begin[r]; e < m.change_begin[r + 1]; ++e)
        jac[m.change_species[e] + j * n] += m.change_delta[e] * dw;
    }
  for (int r = 0; r < m.nreactions; ++r)
    if (m.sum_begin[r] != m.sum_begin[r + 1]) {
      const double dw = mass_action_term(m, k, y, r) * factors_product<true>(m, r, y);  // d w_r / d y_j, each summed j
      for (int i = m.sum_begin[r]; i < m.sum_begin[r + 1]; ++i)
        for (int e = m.change_begin[r]; e < m.change_begin[r + 1]; ++e)
          jac[m.change_species[e] + m.sum_species[i] * n] += m.change_delta[e] * dw;
    }
  for (int r = 0; r < m.nreactions; ++r)
    for (int f = m.factor_begin[r]; f < m.factor_begin[r + 1]; ++f) {
      const double dw = factor_derivative(m, k, y, r, f);
      for (int e = m.change_begin[r]; e < m.change_begin[r + 1]; ++e)
        jac[m.change_species[e] + m.factor_species[f] * n] += m.change_delta[e] * dw;
    }
}

// The same Jacobian as the m.lu.nnz values of the sparse LU pattern (fill-in zero).
template <bool kFactors, class K, class Y, class Out>
OPSPLIT_HD_SWEEP void mass_action_jacobian_sparse_with(const MassAction& m, K k, Y y, Out values) {
  for (int i = 0; i < m.lu.nnz; ++i) values[i] = 0.0;
  int term = 0;
  for (int r = 0; r < m.nreactions; ++r) {
    const int begin = m.change_begin[r], changes = m.change_begin[r + 1] - begin;
    for (int a = m.reactant_begin[r]; a < m.reactant_begin[r + 1]; ++a, term += changes)
      scatter_add(changes, m.jacobian_slot + term, m.change_delta + begin, rate_derivative<kFactors>(m, k, y, r, a),
                  values);
  }
  for (int r = 0; r < m.nreactions; ++r)
    if (m.sum_begin[r] != m.sum_begin[r + 1]) {
      const double dw = mass_action_term(m, k, y, r) * factors_product<kFactors>(m, r, y);
      const int begin = m.change_begin[r], changes = m.change_begin[r + 1] - begin;
      for (int i = m.sum_begin[r]; i < m.sum_begin[r + 1]; ++i, term += changes)
        scatter_add(changes, m.jacobian_slot + term, m.change_delta + begin, dw, values);
    }
  if constexpr (kFactors)
    for (int r = 0; r < m.nreactions; ++r) {
      const int begin = m.change_begin[r], changes = m.change_begin[r + 1] - begin;
      for (int f = m.factor_begin[r]; f < m.factor_begin[r + 1]; ++f, term += changes)
        scatter_add(changes, m.jacobian_slot + term, m.change_delta + begin, factor_derivative(m, k, y, r, f),
                    values);
    }
}
template <class K, class Y, class Out>
OPSPLIT_HD_SWEEP void mass_action_jacobian_sparse(const MassAction& m, K k, Y y, Out values) {
  if (m.nfactors == 0)
    mass_action_jacobian_sparse_with<false>(m, k, y, values);
  else
    mass_action_jacobian_sparse_with<true>(m, k, y, values);
}

}  // namespace opsplit::chem
