// A mechanism the size of a full atmospheric one, built through the C API: 600 species,
// 2000 reactions and 512 per-system inputs (the sizes issue 40 asks both backends to
// take). Species 0-9 are hubs (as OH, HO2, NO, O3 are in real mechanisms), the rest a
// chain; each reaction turns one species into others nearby, with or without a hub:
//   r % 4 == 0   S_i -> S_j                     k = A P_q          (PARAMETER, q = 1 + r % 511)
//   r % 4 == 1   S_i + H_h -> S_j + H_g         k = A              (CONSTANT)
//   r % 4 == 2   H_h -> H_g                     k = A exp(-600/T)  (ARRHENIUS, T = input 0)
//   r % 4 == 3   S_i -> 0.6 S_j + 0.4 S_k       k = A P_q (T/300)^-2  (an expression)
// Every reaction keeps the total sum of y (one in, one out, or 0.6 + 0.4), which the
// tests check as a conservation law. Rate constants spread over six decades (1e-3 to
// 1e3): stiff, as chemistry is. Shared by test_ode and test_ode_parity.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "opsplit/mechanism.h"

namespace opsplit_test {

constexpr int kLargeSpecies = 600, kLargeReactions = 2000, kLargeInputs = 512, kLargeHubs = 10;
constexpr double kLargeEaOverR = 600.0;

// Builds the mechanism into m (created, empty); false at the first call that fails (its
// message is then opsplit_last_error_message()).
inline bool build_large_mechanism(opsplit_mechanism m) {
  for (int s = 0; s < kLargeSpecies; ++s)
    if (opsplit_mechanism_add_species(m, ("S" + std::to_string(s)).c_str(), nullptr) != OPSPLIT_SUCCESS) return false;
  if (opsplit_mechanism_name_parameter(m, 0, "TEMP") != OPSPLIT_SUCCESS) return false;
  for (int q = 1; q < kLargeInputs; ++q)
    if (opsplit_mechanism_name_parameter(m, q, ("P" + std::to_string(q)).c_str()) != OPSPLIT_SUCCESS) return false;
  std::mt19937_64 rng(40);
  std::uniform_real_distribution<double> decades(-3.0, 3.0);
  const int chain = kLargeSpecies - kLargeHubs;
  for (int r = 0; r < kLargeReactions; ++r) {
    const int i = kLargeHubs + r % chain;
    const int j = kLargeHubs + (r % chain + 1 + r % 3) % chain, k = kLargeHubs + (r % chain + 2 + r % 5) % chain;
    const int h = r % kLargeHubs, g = (r / kLargeHubs + 1 + h) % kLargeHubs;
    const int q = 1 + r % (kLargeInputs - 1);
    const double a = std::pow(10.0, decades(rng));
    int index = -1;
    opsplit_status st = OPSPLIT_SUCCESS;
    switch (r % 4) {
      case 0:
        st = opsplit_mechanism_add_reaction(m, 1, &i, nullptr, 1, &j, nullptr, &index);
        if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_set_rate(m, index, OPSPLIT_RATE_PARAMETER, a, 0, 0, q);
        break;
      case 1: {
        const int in[2] = {i, h}, out[2] = {j, g};
        st = opsplit_mechanism_add_reaction(m, 2, in, nullptr, 2, out, nullptr, &index);
        if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_set_rate(m, index, OPSPLIT_RATE_CONSTANT, a, 0, 0, 0);
        break;
      }
      case 2: {
        const int from = h, to = g == h ? (h + 1) % kLargeHubs : g;
        st = opsplit_mechanism_add_reaction(m, 1, &from, nullptr, 1, &to, nullptr, &index);
        // Ea in J/mol: Ea / R = 600 K.
        if (st == OPSPLIT_SUCCESS)
          st = opsplit_mechanism_set_rate(m, index, OPSPLIT_RATE_ARRHENIUS, a * std::exp(kLargeEaOverR / 300.0), 0,
                                          kLargeEaOverR * 8.31446261815324, 0);
        break;
      }
      default: {
        const int out[2] = {j, k};
        const double yields[2] = {0.6, 0.4};
        st = opsplit_mechanism_add_reaction_yields(m, 1, &i, nullptr, 2, out, yields, &index);
        const std::string rate = std::to_string(a) + "*P" + std::to_string(q) + "*(TEMP/300.)**(-2)";
        if (st == OPSPLIT_SUCCESS) st = opsplit_mechanism_set_rate_expression(m, index, rate.c_str());
      }
    }
    if (st != OPSPLIT_SUCCESS) return false;
  }
  return true;
}

// nsys systems' initial states and inputs, both AOS (system by system): y in [0.5, 1.5],
// T in [270, 310] K, P_q in [0.5, 1.5].
struct LargeSystems {
  std::vector<double> y0, params;
};
inline LargeSystems large_systems(int64_t nsys, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> around_one(0.5, 1.5), temperature(270.0, 310.0);
  LargeSystems out;
  for (int64_t s = 0; s < nsys; ++s) {
    for (int e = 0; e < kLargeSpecies; ++e) out.y0.push_back(around_one(rng));
    out.params.push_back(temperature(rng));
    for (int q = 1; q < kLargeInputs; ++q) out.params.push_back(around_one(rng));
  }
  return out;
}

}  // namespace opsplit_test
