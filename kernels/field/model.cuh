// One forward-Euler step of every component of one cell of a reaction-diffusion-
// advection model, written once for the CPU launchers and the CUDA kernels:
//
//   c' = c + D dt L c                      diffusion (L: the stencil, diffusion.cuh)
//          + m dt L mu                     Cahn-Hilliard, mu = -b c + u c^3 - K L c
//          - (F_hi - F_lo) along each axis first-order upwind advection, flux form
//                                          (both times the component's transport scale:
//                                          1/R for a retardation factor R, 0 if immobile)
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
#include <cstring>
#include <type_traits>

#include "common/hd.cuh"
#include "field/diffusion.cuh"
#include "field/grid.cuh"
#include "field/reaction.cuh"

namespace opsplit::field {

// Per component, fixed for a call (device memory on CUDA).
template <class T>
struct ComponentTerms {
  DiffusionWeights<T> diffusion;  // D dt x the stencil x transport
  DiffusionWeights<T> potential;  // m dt x the stencil, on the chemical potential
  T rate_dt;                      // dt x the first-order rate
  T source_dt;                    // dt x the constant source
  T transport;                    // what advection is multiplied by: 1/R, 0 if immobile (1: exact)
  int mu_slot;                    // its plane of the chemical-potential buffer; -1: none
  int diffuses;                   // D != 0 (the CUDA kernels skip a stencil of zero weights)
  int linear;                     // rate_dt or source_dt != 0: the linear terms are added (cell_update)
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
  T upwind[3][2];  // max(courant, 0), max(-courant, 0): the low and high faces' upwind weights
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

// v where keep, else `fill`, by masking the bits: no branch, and v's NaN or Inf is not
// carried into the fill. The fills used: +0 (a term left out), -0 (a term left out of a
// sum whose bits must stay as if it were not there: a + -0 is a for every a, -0 and +0
// included, where +0 turns a -0 sum into +0).
template <class T>
OPSPLIT_HD T kept_or(T v, bool keep, T fill) {
  using Bits = std::conditional_t<sizeof(T) == 8, uint64_t, uint32_t>;
  const Bits mask = Bits(0) - static_cast<Bits>(keep);
  Bits b, f;
  memcpy(&b, &v, sizeof b);
  memcpy(&f, &fill, sizeof f);
  b = (b & mask) | (f & ~mask);
  memcpy(&v, &b, sizeof b);
  return v;
}

// mu = -b c + u c^3 - K L c at a cell; `at` reads its neighbourhood (dx, dy, dz).
template <int Points, class T, class At>
OPSPLIT_HD T chemical_potential(const At& at, const PotentialTerms<T>& p) {
  const T c = at(0, 0, 0);
  return (p.u * c * c - p.b) * c - stencil_sum<Points, T>(at, p.kappa);
}

// F_hi - F_lo for one axis: Courant numbers s_lo, s_hi on the low and high faces.
template <class T>
OPSPLIT_HD T upwind_divergence(T lo, T c, T hi, T s_lo, T s_hi) {
  const T f_hi = s_hi > T(0) ? s_hi * c : s_hi * hi;
  const T f_lo = s_lo > T(0) ? s_lo * lo : s_lo * c;
  return f_hi - f_lo;
}

// The neighbour of a cell one step down (side 0) or up (side 1) along axis a.
template <class At>
OPSPLIT_HD auto axis_neighbour(const At& at, int a, int side) {
  const int d = side ? 1 : -1;
  return at(a == 0 ? d : 0, a == 1 ? d : 0, a == 2 ? d : 0);
}

// The Courant numbers of the low and high faces of a cell along each axis: the
// uniform velocity's, plus the mean of the per-cell velocity field on the face's two
// sides when there is one (`velocity` a field with the model's grid geometry, `at`
// the cell's storage offset in component 0, `step` the neighbour offsets).
template <class T>
OPSPLIT_HD void face_courants(const StepTerms<T>& s, const T* velocity, int64_t at, const int step[3],
                              int64_t comp_stride, T s_lo[3], T s_hi[3]) {
  for (int a = 0; a < 3; ++a) {
    s_lo[a] = s_hi[a] = s.courant[a];
    if (s.velocity_field) {
      const T* v = velocity + a * comp_stride + at;
      s_lo[a] += s.dt_over_h[a] * (T(0.5) * (v[-step[a]] + v[0]));
      s_hi[a] += s.dt_over_h[a] * (T(0.5) * (v[0] + v[step[a]]));
    }
  }
}

// Upwind advection by a uniform velocity as stencil terms: the flux form's
// -(F_hi - F_lo) along an axis with Courant number s is s+ (lo - c) + s- (hi - c),
// s+ = max(s, 0), s- = max(-s, 0) (StepTerms::upwind). It shares the differences
// (neighbour - c) with the diffusion stencil: a constant field stays exactly constant,
// and the sum over a periodic field is conserved to rounding.
template <class T, class At>
OPSPLIT_HD T uniform_upwind_sum(const At& at, const T (&upwind)[3][2]) {
  const T c = at(0, 0, 0);
  T r = T(0);
  OPSPLIT_UNROLL
  for (int a = 0; a < 3; ++a)
    r += upwind[a][0] * (axis_neighbour(at, a, 0) - c) + upwind[a][1] * (axis_neighbour(at, a, 1) - c);
  return r;
}

// Which transport terms a model has: read from the run-time flags (s.advect,
// s.velocity_field, each component's mu_slot), or known at compile time (no per-cell
// wind; whether there is a uniform velocity and whether there are Cahn-Hilliard
// components), so that a row loop has no branch in it and vectorizes (the CPU
// launchers). Known terms are a set of the bits below.
enum TransportTerms : int {
  kTermsFromFlags = 0,
  kKnownTerms = 1,        // the bits that follow are the terms
  kUniformVelocity = 2,   // upwind terms of a uniform velocity
  kPotentialTerms = 4,    // the Cahn-Hilliard term of every component that has one
  kNoLinearTerms = 8,     // no component has linear terms (ComponentTerms::linear; the 7-point pass's alone)
  kNoTransport = kKnownTerms,
  kUniformAdvectionOnly = kKnownTerms | kUniformVelocity,
};

// Whether the Cahn-Hilliard terms are known at compile time (a kernel compiled for them).
constexpr bool known_potential_terms(int terms) { return terms != kTermsFromFlags && (terms & kPotentialTerms) != 0; }

// The transport terms of a step: known (kKnownTerms | ...) unless there is a per-cell
// wind, whose branches stay run-time flags. `terms` in host memory.
template <class T>
int transport_terms(const StepTerms<T>& s, const ComponentTerms<T>* terms, int ncomp) {
  if (s.velocity_field) return kTermsFromFlags;
  bool cahn_hilliard = false;
  for (int c = 0; c < ncomp; ++c) cahn_hilliard = cahn_hilliard || terms[c].mu_slot >= 0;
  return kKnownTerms | (s.advect ? kUniformVelocity : 0) | (cahn_hilliard ? kPotentialTerms : 0);
}

// Calls f with std::integral_constant of transport_terms' value.
template <class F>
void with_transport_terms(int terms, F&& f) {
  switch (terms) {
    case kNoTransport: return f(std::integral_constant<int, kNoTransport>{});
    case kUniformAdvectionOnly: return f(std::integral_constant<int, kUniformAdvectionOnly>{});
    case kKnownTerms | kPotentialTerms: return f(std::integral_constant<int, kKnownTerms | kPotentialTerms>{});
    case kKnownTerms | kUniformVelocity | kPotentialTerms:
      return f(std::integral_constant<int, kKnownTerms | kUniformVelocity | kPotentialTerms>{});
    default: return f(std::integral_constant<int, kTermsFromFlags>{});
  }
}

// The new value of every component c of one cell, handed to store(c, value).
// `values(c)` and `potential(slot)` return accessors (dx, dy, dz) -> value of
// component c's and of chemical-potential slot `slot`'s neighbourhood: global memory
// on the CPU, registers filled from a shared-memory ring on the GPU. s_lo / s_hi:
// face_courants (read only with a per-cell velocity field). NC: the number of components when known at
// compile time (the loop unrolls and the terms become constants), 0 for s.ncomp.
// Terms: which transport terms there are (TransportTerms).
template <int Points, int Kind, int NC, int Terms = kTermsFromFlags, class T, class Values, class Potential,
          class Store>
OPSPLIT_HD void cell_update(const Values& values, const Potential& potential, const T s_lo[3], const T s_hi[3],
                            const ComponentTerms<T>* terms, const StepTerms<T>& s, Store&& store) {
  constexpr bool flagged = Terms == kTermsFromFlags;
  const bool wind = flagged && s.velocity_field;
  const bool uniform = flagged ? s.advect && !s.velocity_field : (Terms & kUniformVelocity) != 0;
  constexpr int NR = reacting_components<Kind>();
  T rate[NR > 0 ? NR : 1] = {};
  if constexpr (NR > 0) {
    T c[NR];
    OPSPLIT_UNROLL
    for (int r = 0; r < NR; ++r) c[r] = values(r)(0, 0, 0);
    reaction_rates<Kind>(c, s.reaction, rate);
  }
  const int ncomp = NC > 0 ? NC : s.ncomp;
  OPSPLIT_UNROLL
  for (int c = 0; c < ncomp; ++c) {
    const ComponentTerms<T>& t = terms[c];
    const auto at = values(c);
    const T x = at(0, 0, 0);
#if defined(__CUDA_ARCH__)
    // With Cahn-Hilliard terms (whose components often do not diffuse), a branch the
    // whole warp takes alike: zero weights add exactly zero to finite values (a step
    // never starts from non-finite ones: the health check stops it). Not elsewhere: the
    // branch slowed float32 advection (docs/performance-history.md).
    constexpr bool kMaySkip = flagged || (Terms & kPotentialTerms) != 0;
    T acc = !kMaySkip || t.diffuses ? stencil_sum<Points, T>(at, t.diffusion) : T(0);
#else
    T acc = stencil_sum<Points, T>(at, t.diffusion);  // no branch: the row loop vectorizes
#endif
    if (wind) {  // per-face velocities: the flux form
      for (int a = 0; a < 3; ++a)
        acc -= t.transport * upwind_divergence(axis_neighbour(at, a, 0), x, axis_neighbour(at, a, 1), s_lo[a], s_hi[a]);
    } else if (uniform) {
      acc += t.transport * uniform_upwind_sum(at, s.upwind);
    }
    if constexpr (flagged) {
      if (t.mu_slot >= 0) acc += stencil_sum<Points, T>(potential(t.mu_slot), t.potential);
    } else if constexpr ((Terms & kPotentialTerms) != 0) {
#if defined(__CUDA_ARCH__)
      // A branch the whole warp takes alike: the potential is read from device memory,
      // and reading it for every component slowed precipitation (performance-history.md).
      if (t.mu_slot >= 0) acc += stencil_sum<Points, T>(potential(t.mu_slot), t.potential);
#else
      // Without a branch, so that the row loop vectorizes: a component without the term
      // reads slot 0 and drops it by a bit mask (zero weights would carry a bad
      // potential into it; a select is compiled as a branch around the stencil).
      const T ch = stencil_sum<Points, T>(potential(t.mu_slot > 0 ? t.mu_slot : 0), t.potential);
      acc += kept_or(ch, t.mu_slot >= 0, T(0));
#endif
    }
    if constexpr (NR > 0) {  // (no rate[NR - 1] to read, even unreached, without reactions)
      if (c < NR) acc += s.dt * (c == 0 ? rate[0] : (c == 1 ? rate[NR > 1 ? 1 : 0] : rate[NR - 1]));
    }
    // The linear terms. On the GPU only where a component has them (ComponentTerms::linear),
    // so that the 7-point pass, which leaves their two operations out when no component
    // has them (kNoLinearTerms), keeps the bits of single steps: elsewhere a component
    // without them adds -0, the sum's identity (their +0 would turn a -0 sum into +0),
    // without a branch. The CPU has no such pass and adds them always (+0 where there are
    // none: the mask cost its arithmetic-bound loops up to 8 %, docs/PERFORMANCE.md note s).
#if defined(__CUDA_ARCH__)
    if constexpr ((Terms & kNoLinearTerms) == 0)
      acc += kept_or(t.rate_dt * x + t.source_dt, t.linear != 0, -T(0));
#else
    static_assert((Terms & kNoLinearTerms) == 0, "kNoLinearTerms is the CUDA pass's alone");
    acc += t.rate_dt * x + t.source_dt;
#endif
    store(c, x + acc);
  }
}

// The storage offsets around a cell of a grid: component stride and 32-bit neighbour
// offsets (the model refuses planes of 2^31 values or more), computed once per launch.
struct Neighbours {
  int64_t comp_stride;
  int step[3];
};

OPSPLIT_HD Neighbours neighbours_of(const Grid& grid) {
  return Neighbours{grid.comp_stride,
                    {static_cast<int>(grid.step(0)), static_cast<int>(grid.step(1)), static_cast<int>(grid.step(2))}};
}

// Component c's (or a potential slot's) neighbourhood in a global array: the cell at
// storage offset `at` of component 0.
template <class T>
struct GlobalValues {
  const T* data;
  int64_t at;
  Neighbours nb;
  OPSPLIT_HD StridedAt<T, int> operator()(int c) const {
    return StridedAt<T, int>{data + c * nb.comp_stride + at, nb.step[0], nb.step[1], nb.step[2]};
  }
};

template <class T>
OPSPLIT_HD GlobalValues<T> global_values(const T* data, const Grid& grid, int64_t at) {
  return GlobalValues<T>{data, at, neighbours_of(grid)};
}

// Updates every component of the cell at storage offset `at` (component 0) from `in`
// into `out`, all neighbours from global memory. Returns the first component whose new
// value is NaN or Inf, or -1 (always -1 without Check: the caller checks the row).
template <int Points, int Kind, int NC, int Terms = kTermsFromFlags, bool Check = true, class T>
OPSPLIT_HD int update_cell(const T* in, T* out, const T* mu, const T* velocity, const Neighbours& nb, int64_t at,
                           const ComponentTerms<T>* terms, const StepTerms<T>& s) {
  const GlobalValues<T> values{in, at, nb}, potential{mu, at, nb};
  T s_lo[3] = {0, 0, 0}, s_hi[3] = {0, 0, 0};
  if (Terms == kTermsFromFlags && s.velocity_field) face_courants(s, velocity, at, nb.step, nb.comp_stride, s_lo, s_hi);
  int bad = -1;
  cell_update<Points, Kind, NC, Terms>(values, potential, s_lo, s_hi, terms, s, [&](int c, T v) {
    out[c * nb.comp_stride + at] = v;
    if (Check && bad < 0 && !is_finite(v)) bad = c;
  });
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
