// One forward-Euler step of every component of one cell of a reaction-diffusion-
// advection model, written once for the CPU launchers and the CUDA kernels:
//
//   c' = c + D dt L c                      diffusion (L: the stencil, diffusion.cuh)
//          + m dt L mu                     Cahn-Hilliard, mu = -b c + u c^3 - K L c
//          - (F_hi - F_lo) along each axis first-order upwind advection, flux form
//          + dt R(c0, c1, ...)             the reaction kind (reaction.cuh)
//          + dt (rate c + source)          per-component linear terms
//
// mu is an intermediate field computed in a pass before (chemical_potential), with
// its own ghost cells, so that the fourth-order term is the Laplacian of a Laplacian
// and each pass has a reach of one cell (seed 000's scheme). The advective flux
// through a face is the upwind cell's value times the face's Courant number dt u/h;
// u on a face is the uniform velocity plus the mean of the per-cell velocity field
// on its two sides, so a uniform velocity moves a constant field nowhere and the sum
// of the field changes only through the boundary faces.
#pragma once

#include <cstdint>

#include "common/hd.cuh"
#include "field/diffusion.cuh"
#include "field/grid.cuh"
#include "field/reaction.cuh"

namespace opsplit::field {

// Per component, fixed for a call (device memory on CUDA).
template <class T>
struct ComponentTerms {
  DiffusionWeights<T> diffusion;  // D dt x the stencil
  DiffusionWeights<T> potential;  // m dt x the stencil, on the chemical potential
  T rate_dt;                      // dt x the first-order rate
  T source_dt;                    // dt x the constant source
  int mu_slot;                    // its plane of the chemical-potential buffer; -1: none
};

// The chemical potential of a Cahn-Hilliard component.
template <class T>
struct PotentialTerms {
  DiffusionWeights<T> kappa;  // K x the stencil
  T b, u;
  int comp;
};

// The components' terms as one value, for kernels to take as a parameter (constant
// operands instead of loads) when there are at most kMaxTermComponents.
constexpr int kMaxTermComponents = 8;
template <class T>
struct AllComponentTerms {
  ComponentTerms<T> comp[kMaxTermComponents];
};

// What changes from step to step (passed by value).
template <class T>
struct StepTerms {
  T dt;
  T courant[3];    // dt u_a(t) / h_a of the uniform velocity; 0 on length-1 axes
  T dt_over_h[3];  // dt / h_a for the per-cell velocity field; 0 on length-1 axes
  T reaction[kMaxReactionParams];
  int ncomp;
  int advect;          // a velocity is set
  int velocity_field;  // a per-cell velocity is set
};

template <class T>
OPSPLIT_HD bool is_finite(T v) {
  return v - v == T(0);  // NaN and +-Inf give NaN
}

// mu = -b c + u c^3 - K L c at the cell `phi` points to.
template <int Points, class T>
OPSPLIT_HD T chemical_potential(const T* phi, const Grid& grid, const PotentialTerms<T>& p) {
  const T c = *phi;
  const StridedAt<T, int> at{phi, static_cast<int>(grid.step(0)), static_cast<int>(grid.step(1)),
                             static_cast<int>(grid.step(2))};
  return (p.u * c * c - p.b) * c - stencil_sum<Points, T>(at, p.kappa);
}

// F_hi - F_lo for one axis: Courant numbers s_lo, s_hi on the low and high faces.
template <class T>
OPSPLIT_HD T upwind_divergence(T lo, T c, T hi, T s_lo, T s_hi) {
  const T f_hi = s_hi > T(0) ? s_hi * c : s_hi * hi;
  const T f_lo = s_lo > T(0) ? s_lo * lo : s_lo * c;
  return f_hi - f_lo;
}

// Updates every component of the cell at storage offset `at` (component 0) from `in`
// into `out`. Returns the first component whose new value is NaN or Inf, or -1.
// NC: the number of components when known at compile time (the loop unrolls and the
// terms become constants), 0 for s.ncomp.
template <int Points, int Kind, int NC, class T>
OPSPLIT_HD int update_cell(const T* in, T* out, const T* mu, const T* velocity, const Grid& grid, int64_t at,
                           const ComponentTerms<T>* terms, const StepTerms<T>& s) {
  // Neighbour offsets fit an int: the model refuses planes of 2^31 values or more.
  const int step[3] = {static_cast<int>(grid.step(0)), static_cast<int>(grid.step(1)), static_cast<int>(grid.step(2))};
  T s_lo[3] = {0, 0, 0}, s_hi[3] = {0, 0, 0};
  if (s.advect) {
    for (int a = 0; a < 3; ++a) {
      s_lo[a] = s_hi[a] = s.courant[a];
      if (s.velocity_field) {
        const T* v = velocity + a * grid.comp_stride + at;
        s_lo[a] += s.dt_over_h[a] * (T(0.5) * (v[-step[a]] + v[0]));
        s_hi[a] += s.dt_over_h[a] * (T(0.5) * (v[0] + v[step[a]]));
      }
    }
  }
  constexpr int NR = reacting_components<Kind>();
  T rate[NR > 0 ? NR : 1] = {};
  if constexpr (NR > 0) {
    T c[NR];
    for (int r = 0; r < NR; ++r) c[r] = in[r * grid.comp_stride + at];
    reaction_rates<Kind>(c, s.reaction, rate);
  }
  int bad = -1;
  const int ncomp = NC > 0 ? NC : s.ncomp;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int c = 0; c < ncomp; ++c) {
    const int64_t p = c * grid.comp_stride + at;
    const ComponentTerms<T>& t = terms[c];
    const T x = in[p];
    T acc = stencil_sum<Points, T>(StridedAt<T, int>{in + p, step[0], step[1], step[2]}, t.diffusion);
    if (t.mu_slot >= 0)
      acc += stencil_sum<Points, T>(
          StridedAt<T, int>{mu + t.mu_slot * grid.comp_stride + at, step[0], step[1], step[2]}, t.potential);
    if (s.advect)
      for (int a = 0; a < 3; ++a) acc -= upwind_divergence(in[p - step[a]], x, in[p + step[a]], s_lo[a], s_hi[a]);
    if (c < NR) acc += s.dt * (c == 0 ? rate[0] : (c == 1 ? rate[NR > 1 ? 1 : 0] : rate[NR - 1]));
    acc += t.rate_dt * x + t.source_dt;
    const T v = x + acc;
    out[p] = v;
    if (bad < 0 && !is_finite(v)) bad = c;
  }
  return bad;
}

// The Cahn-Hilliard free energy density of one cell times its volume:
//   vol (-b/2 c^2 + u/4 c^4 - K/2 c L c),
// the discrete energy whose gradient flow the scheme is (mu is its variational
// derivative because L is symmetric under the ghost rules), summed in double.
template <int Points, class T>
OPSPLIT_HD double free_energy_density(const T* phi, const Grid& grid, const PotentialTerms<double>& p, double volume) {
  const double c = *phi;
  const double lap_k = stencil_sum<Points, double>(StridedAt<T>{phi, grid.step(0), grid.step(1), grid.step(2)}, p.kappa);
  return volume * (c * c * (0.25 * p.u * c * c - 0.5 * p.b) - 0.5 * c * lap_k);
}

}  // namespace opsplit::field
