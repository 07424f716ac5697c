// Built-in reaction terms of reaction-diffusion models: the rate of every reacting
// component at one cell from the values there, written once for both backends.
//
//   LINEAR         no nonlinear terms (each component's rate*c + source is added
//                  by the model in every kind, model.cuh)
//   TURING         c0' = c0 - c0^3 - c1,  c1' = gamma (c0 - alpha c1 - beta)   (seed 000)
//   GRAY_SCOTT     u' = -u v^2 + F (1 - u),  v' = u v^2 - (F + k) v
//   PRECIPITATION  A + B -> C (k1), C + A -> A sink (k2), seed 000 Table 1:
//                  c0' = -k1 c0 c1 - k2 c0 c2,  c1' = -k1 c0 c1,  c2' = k1 c0 c1 - k2 c0 c2
//                  (c2 also phase-separates: its Cahn-Hilliard term is set by the model)
// Reactions act on components 0 .. components-1. A mass-action reaction list shared
// with the chemistry capability would be one more kind here, evaluated the same way.
#pragma once

#include "common/hd.cuh"

namespace opsplit::field {

enum ReactionKind : int { kLinear = 0, kTuring = 1, kGrayScott = 2, kPrecipitation = 3 };
constexpr int kReactionKinds = 4;
constexpr int kMaxReactionParams = 6;

struct ReactionInfo {
  const char* name;
  int components;  // the reacting components 0 .. components-1
  int nparams;
  const char* params[kMaxReactionParams];
  double defaults[kMaxReactionParams];  // seed 000 Table 1 where it gives them
};

inline const ReactionInfo& reaction_info(int kind) {
  static const ReactionInfo table[kReactionKinds] = {
      {"LINEAR", 0, 0, {}, {}},
      {"TURING", 2, 3, {"alpha", "beta", "gamma"}, {0.5, 0.09, 26.0}},
      // Pearson's (1993) spots-and-stripes regime.
      {"GRAY_SCOTT", 2, 2, {"F", "k"}, {0.04, 0.06}},
      // lambda, epsilon, gamma, sigma are component 2's Cahn-Hilliard m, b, u, K.
      {"PRECIPITATION", 3, 6, {"k1", "k2", "lambda", "epsilon", "gamma", "sigma"}, {0.2, 0.005, 1.0, 1.0, 1.0, 1.0}},
  };
  return table[kind];
}

template <int Kind>
constexpr int reacting_components() {
  return Kind == kLinear ? 0 : (Kind == kPrecipitation ? 3 : 2);
}

// rate[0 .. reacting_components-1] from the values c[...] at one cell; p = parameters.
template <int Kind, class T>
OPSPLIT_HD void reaction_rates(const T* c, const T* p, T* rate) {
  if constexpr (Kind == kTuring) {
    rate[0] = c[0] - c[0] * c[0] * c[0] - c[1];
    rate[1] = p[2] * (c[0] - p[0] * c[1] - p[1]);
  } else if constexpr (Kind == kGrayScott) {
    const T uvv = c[0] * c[1] * c[1];
    rate[0] = -uvv + p[0] * (T(1) - c[0]);
    rate[1] = uvv - (p[0] + p[1]) * c[1];
  } else if constexpr (Kind == kPrecipitation) {
    const T r1 = p[0] * c[0] * c[1], r2 = p[1] * c[0] * c[2];
    rate[0] = -r1 - r2;
    rate[1] = -r1;
    rate[2] = r1 - r2;
  } else {
    (void)c, (void)p, (void)rate;
  }
}

}  // namespace opsplit::field
