// A gas reactor's right-hand side and analytic Jacobian computed by one warp (32 lanes)
// for one system: the cooperative design, against which bench_reactor_phases measures
// the library's one thread per system. Reactions are shared out to the lanes for their
// rates and Jacobian terms, then each lane gathers the rows of its species from the
// reactions that change them (GasKinetics' species_change lists), in reaction order:
// every row takes the additions reactor.cuh's thread version makes, in the same order,
// through the same functions (the same bits but where the compiler fuses a multiply and
// an add in one kernel and not the other: test_reactor_warp.cu).
//
// The integrator does not use these (so they live beside the benchmark, not among the
// library's kernels): they are slower per system than the thread
// version for H2/O2 and GRI-Mech 3.0 alike (docs/performance-history.md, 'Gas reactors
// near ignition', a step's phases). A system's shared memory caps a GRI-Mech kernel at
// 8 warps per SM, too few to hide each one's latency, where the thread version's loads
// of the mechanism serve 32 systems at once.
//
// Every lane of the warp calls these together (they synchronise with __syncwarp); y,
// ydot, jac and scratch are the warp's (shared or global memory), visible to all lanes.
#pragma once

#include "chem/reactor.cuh"

namespace opsplit::chem {

// Besides the thread version's scratch (reactor_scratch_size), a warp's system needs
// this many doubles for its reactions' terms (rates; Jacobian terms).
OPSPLIT_HD constexpr int reactor_warp_terms_size(int nreactions) { return 6 * nreactions; }

constexpr int kWarpLanes = 32;

// Reaction terms stored field by field (the lanes' stores and loads fall in separate banks).
__device__ __forceinline__ void store_terms(double* at, int nr, int r, const ReactionJacobianTerms& t) {
  at[r] = t.q, at[nr + r] = t.dq_dT, at[2 * nr + r] = t.uniform, at[3 * nr + r] = t.collider_weight;
  at[4 * nr + r] = t.kf_M, at[5 * nr + r] = t.kr_M;
}
__device__ __forceinline__ ReactionJacobianTerms load_terms(const double* at, int nr, int r) {
  return ReactionJacobianTerms{at[r], at[nr + r], at[2 * nr + r], at[3 * nr + r], at[4 * nr + r], at[5 * nr + r]};
}

// net_production_rates by a warp; q: nreactions scratch.
__device__ void net_production_rates_warp(const GasKinetics& g, double T, const double* C, double* g_RT, double* q,
                                          double* wdot, int lane) {
  const double C_total = total_concentration(g, C);  // every lane the same sum
  const GasConditions c = gas_conditions(T, C_total * kGasConstant * T);
  for (int k = lane; k < g.nspecies; k += kWarpLanes) g_RT[k] = nasa7_gibbs_RT(g.nasa7 + kNasa7Stride * k, c.T, c.log_T);
  __syncwarp();
  for (int r = lane; r < g.nreactions; r += kWarpLanes) {
    double qf, qr;
    rates_of_progress(g, r, c, C, C_total, g_RT, &qf, &qr);
    q[r] = qf - qr;
  }
  __syncwarp();
  for (int i = lane; i < g.nspecies; i += kWarpLanes) {
    double w = 0.0;
    for (int p = g.species_change_begin[i]; p < g.species_change_begin[i + 1]; ++p)
      w += g.change[g.species_change_entry[p]] * q[g.species_change_reaction[p]];
    wdot[i] = w;
  }
  __syncwarp();
}

// net_production_jacobian by a warp; terms: 6 nreactions scratch.
__device__ void net_production_jacobian_warp(const GasKinetics& g, double T, const double* C, double* g_RT,
                                             double* h_RT, double* wdot, double* dC, int ld, double* dT,
                                             double* terms, int lane) {
  const int ns = g.nspecies, nr = g.nreactions;
  const double C_total = total_concentration(g, C);
  const GasConditions c = gas_conditions(T, C_total * kGasConstant * T);
  for (int k = lane; k < ns; k += kWarpLanes) species_gibbs_enthalpy_RT(g, k, c, g_RT, h_RT);
  __syncwarp();
  for (int r = lane; r < nr; r += kWarpLanes) store_terms(terms, nr, r, reaction_jacobian_terms(g, r, c, C, C_total, g_RT, h_RT));
  __syncwarp();
  for (int i = lane; i < ns; i += kWarpLanes) {
    double* row = dC + i;
    for (int k = 0; k < ns; ++k) row[k * ld] = 0.0;
    double w = 0.0, d = 0.0, uniform = 0.0;
    for (int p = g.species_change_begin[i]; p < g.species_change_begin[i + 1]; ++p) {
      const int r = g.species_change_reaction[p];
      add_reaction_to_row(g, r, g.species_change_entry[p], load_terms(terms, nr, r), C, row, ld, w, d, uniform);
    }
    wdot[i] = w, dT[i] = d;
    for (int k = 0; k < ns; ++k) row[k * ld] += uniform;
  }
  __syncwarp();
}

// reactor_rhs by a warp; scratch: reactor_scratch_size doubles, terms:
// reactor_warp_terms_size.
__device__ void reactor_rhs_warp(const GasKinetics& g, int kind, const double* params, const double* y, double* ydot,
                                 double* scratch, double* terms, int lane) {
  const int ns = g.nspecies;
  const ReactorScratch sc = reactor_scratch(scratch, ns);
  double *C = sc.C, *g_RT = sc.g_RT, *wdot = sc.wdot, *e = sc.e, *c = sc.c;
  double* q = terms;
  if (kind == kIsothermalConcentrations) {
    net_production_rates_warp(g, params[0], y, g_RT, q, ydot, lane);
    return;
  }
  const bool energy = reactor_has_temperature(kind);
  const ReactorState st = reactor_state(g, kind, params, y);
  for (int k = lane; k < ns; k += kWarpLanes) C[k] = species_concentration(g, st, k);
  __syncwarp();
  net_production_rates_warp(g, st.T, C, g_RT, q, wdot, lane);
  double* dY = energy ? ydot + 1 : ydot;
  for (int k = lane; k < ns; k += kWarpLanes) dY[k] = wdot[k] * g.molar_mass[k] / st.rho;
  if (energy) {
    const double log_T = log(st.T);
    for (int k = lane; k < ns; k += kWarpLanes) species_energy(g, kind, k, st.T, log_T, e, c);
    __syncwarp();
    if (lane == 0) ydot[0] = temperature_rate(g, st, wdot, e, c);
  }
  __syncwarp();
}

// reactor_jacobian by a warp; scratch and terms as reactor_rhs_warp's.
__device__ void reactor_jacobian_warp(const GasKinetics& g, int kind, const double* params, const double* y,
                                      double* jac, double* scratch, double* terms, int lane) {
  const int ns = g.nspecies;
  const ReactorScratch sc = reactor_scratch(scratch, ns);  // S unused: a register per row here
  double *C = sc.C, *g_RT = sc.g_RT, *h_RT = sc.h_RT, *wdot = sc.wdot, *dT = sc.dT, *e = sc.e, *c = sc.c, *dc = sc.dc;
  if (kind == kIsothermalConcentrations) {
    net_production_jacobian_warp(g, params[0], y, g_RT, h_RT, wdot, jac, ns, dT, terms, lane);
    return;
  }
  const bool energy = reactor_has_temperature(kind);
  const bool fixed_density = kind == kConstantVolume;
  const int o = energy ? 1 : 0, n = ns + o;
  const ReactorState st = reactor_state(g, kind, params, y);
  const double T = st.T, rho = st.rho, W_mean = st.W_mean;
  for (int k = lane; k < ns; k += kWarpLanes) C[k] = species_concentration(g, st, k);
  __syncwarp();
  double* block = jac + o + o * n;
  net_production_jacobian_warp(g, T, C, g_RT, h_RT, wdot, block, n, dT, terms, lane);
  // Rows by lane from here: S_i, the rescaled block row, dT_i and moved_i are lane i's.
  for (int i = lane; i < ns; i += kWarpLanes) {
    double S_i = 0.0;
    if (!fixed_density)
      for (int k = 0; k < ns; ++k) S_i -= block[i + k * n] * -C[k];  // subtract_scaled's x - v m
    for (int j = 0; j < ns; ++j)
      block[i + j * n] = mass_fraction_entry(block[i + j * n], S_i, rho, W_mean, g.molar_mass[j]);
    if (kind == kConstantPressure) dT[i] -= S_i / T;
  }
  if (energy) {
    const double log_T = log(T);
    for (int k = lane; k < ns; k += kWarpLanes) {
      species_energy(g, kind, k, T, log_T, e, c);
      dc[k] = nasa7_dcp_R_dT(g.nasa7 + kNasa7Stride * k, T);
    }
    __syncwarp();
    const EnergySums sums = energy_sums(ns, fixed_density, T, C, e, c, dc, wdot, dT);
    const double f_T = -T * sums.heat / sums.Q;
    if (lane == 0) jac[0] = -sums.heat / sums.Q - T * sums.dheat_dT / sums.Q - f_T * sums.dQ_dT / sums.Q;
    for (int j = lane; j < ns; j += kWarpLanes)  // columns by lane
      jac[(j + 1) * n] = energy_row_entry(ns, e, block + j * n, sums, T, f_T, rho, W_mean, g.molar_mass[j], c[j],
                                          fixed_density);
    __syncwarp();
  }
  for (int i = lane; i < ns; i += kWarpLanes) {
    const double W_i = g.molar_mass[i];
    const double moved = fixed_density ? 0.0 : W_i * wdot[i] / rho;
    if (energy) jac[o + i] = W_i / rho * dT[i] + (kind == kConstantPressure ? moved / T : 0.0);
    for (int j = 0; j < ns; ++j)
      block[i + j * n] = species_row_entry(block[i + j * n], W_i, moved, rho, W_mean, g.molar_mass[j]);
  }
  __syncwarp();
}

}  // namespace opsplit::chem
