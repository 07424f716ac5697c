// The fixed-order sum of a field component, shared by both backends so that they give
// bitwise the same result on the same data: each x-row is summed in order in double,
// then the row sums are combined pairwise level by level ((0+1), (2+3), ...; an odd
// last one moves up unchanged).
#pragma once

#include <cstdint>
#include <vector>

#include "common/hd.cuh"
#include "field/grid.cuh"
#include "field/model.cuh"

namespace opsplit::field {

// Row `row` = j + k*ny of component c.
template <class T>
OPSPLIT_HD double row_sum(const T* data, const Grid& grid, int c, int64_t row) {
  const int64_t j = row % grid.n[1], k = row / grid.n[1];
  const T* p = data + grid.index(c, 0, j, k);
  double s = 0.0;
  for (int64_t i = 0; i < grid.n[0]; ++i) s += static_cast<double>(p[i]);
  return s;
}

// The smallest and largest value of a row (NaN when the row holds a NaN).
template <class T>
OPSPLIT_HD void row_extremes(const T* data, const Grid& grid, int c, int64_t row, double* lo, double* hi) {
  const int64_t j = row % grid.n[1], k = row / grid.n[1];
  const T* p = data + grid.index(c, 0, j, k);
  double a = static_cast<double>(p[0]), b = a;
  for (int64_t i = 1; i < grid.n[0]; ++i) {
    const double v = static_cast<double>(p[i]);
    if (v != v) a = b = v;
    if (a != a) break;
    a = v < a ? v : a;
    b = v > b ? v : b;
  }
  *lo = a;
  *hi = b;
}

// The Cahn-Hilliard free energy of a row (model.cuh); the ghosts must be filled.
template <int Points, class T>
OPSPLIT_HD double row_energy(const T* data, const Grid& grid, int c, int64_t row, const PotentialTerms<double>& terms,
                             double volume) {
  const int64_t j = row % grid.n[1], k = row / grid.n[1];
  const T* p = data + grid.index(c, 0, j, k);
  double s = 0.0;
  for (int64_t i = 0; i < grid.n[0]; ++i) s += free_energy_density<Points>(p + i, grid, terms, volume);
  return s;
}

// Combines per-row (min, max) pairs: NaN wins.
inline void combine_extremes(const std::vector<double>& rows, double* lo, double* hi) {
  double a = rows[0], b = rows[1];
  for (size_t r = 0; r < rows.size() && a == a; r += 2) {
    if (rows[r] != rows[r]) a = b = rows[r];
    a = rows[r] < a ? rows[r] : a;
    b = rows[r + 1] > b ? rows[r + 1] : b;
  }
  *lo = a;
  *hi = b;
}

inline double pairwise_total(std::vector<double> v) {
  if (v.empty()) return 0.0;
  while (v.size() > 1) {
    size_t half = (v.size() + 1) / 2;
    for (size_t i = 0; i < half; ++i) v[i] = 2 * i + 1 < v.size() ? v[2 * i] + v[2 * i + 1] : v[2 * i];
    v.resize(half);
  }
  return v[0];
}

}  // namespace opsplit::field
