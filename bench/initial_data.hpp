// Shared by the diffusion benchmarks: the initial field both programs step.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace bench {

// A smooth random-ish field: 1 + a sum of separable sine modes with fixed pseudo-random
// wave numbers, phases and amplitudes (values in about [0.5, 1.5]).
template <typename T>
std::vector<T> initial_data(int64_t n) {
  constexpr int kModes = 6;
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  auto uniform = [&seed]() {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<double>(seed >> 11) * (1.0 / 9007199254740992.0);
  };
  std::vector<double> table(static_cast<size_t>(3 * kModes * n));
  std::vector<double> amp(kModes);
  const double pi = 3.14159265358979323846;
  for (int m = 0; m < kModes; ++m) {
    amp[m] = (0.5 / kModes) * (0.5 + uniform());
    for (int axis = 0; axis < 3; ++axis) {
      const double k = 2.0 * pi * (1.0 + 7.0 * uniform()) / static_cast<double>(n);
      const double phase = 2.0 * pi * uniform();
      for (int64_t i = 0; i < n; ++i)
        table[static_cast<size_t>((m * 3 + axis) * n + i)] = std::sin(k * static_cast<double>(i) + phase);
    }
  }
  std::vector<T> data(static_cast<size_t>(n * n * n));
  for (int64_t z = 0; z < n; ++z)
    for (int64_t y = 0; y < n; ++y) {
      double yz[kModes];
      for (int m = 0; m < kModes; ++m)
        yz[m] = amp[m] * table[static_cast<size_t>((m * 3 + 1) * n + y)] *
                table[static_cast<size_t>((m * 3 + 2) * n + z)];
      T* row = data.data() + (z * n + y) * n;
      for (int64_t x = 0; x < n; ++x) {
        double v = 1.0;
        for (int m = 0; m < kModes; ++m) v += yz[m] * table[static_cast<size_t>((m * 3 + 0) * n + x)];
        row[x] = static_cast<T>(v);
      }
    }
  return data;
}

}  // namespace bench
