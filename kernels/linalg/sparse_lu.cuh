// LU without pivoting on a fixed sparsity pattern, for the Rosenbrock matrix
// 1/(gamma h) - J of a reaction network: J has a few entries per row, and a symbolic
// analysis on the host (src/linalg/sparse_pattern.cpp) picks an elimination order with
// little fill-in (Markowitz) and lists every entry the factors will hold. POLLU's
// 20 x 20 matrix, for example, keeps 94 entries instead of 400. As in KPP's Rosenbrock
// solvers the factorization does not pivot: a zero or non-finite pivot reports
// failure and the integrator retries with a smaller step, which makes the matrix more
// diagonally dominant.
#pragma once

#include "common/hd.cuh"
#include "common/vector.cuh"

namespace opsplit::linalg {

// The pattern in elimination positions p = 0..n-1 (position p holds equation
// order[p]), compressed by rows: row p's entries are row_begin[p] .. row_begin[p+1]-1,
// columns col[] ascending, its diagonal at diag[p].
struct SparseLu {
  int n = 0;
  int nnz = 0;
  const int* order = nullptr;
  const int* row_begin = nullptr;
  const int* col = nullptr;
  const int* diag = nullptr;
};

// In place: v (nnz values of the matrix on the pattern) becomes L (unit diagonal, not
// stored) and U. w: n scratch. False on a zero or non-finite pivot. V: double* or
// Strided<double> (common/strided.cuh), as for the vectors below.
template <class V>
OPSPLIT_HD bool sparse_lu_factor(const SparseLu& s, V v, V w) {
  for (int p = 0; p < s.n; ++p) {
    const int begin = s.row_begin[p], end = s.row_begin[p + 1], d = s.diag[p];
    for (int k = begin; k < end; ++k) w[s.col[k]] = v[k];
    for (int k = begin; k < d; ++k) {  // eliminate row p's entries left of the diagonal
      const int j = s.col[k];
      const double l = w[j] / v[s.diag[j]];
      w[j] = l;
      // w -= l * (U's row j), its columns distinct: w + v (-l) rounds as w - l v.
      const int u = s.diag[j] + 1;
      scatter_add(s.row_begin[j + 1] - u, s.col + u, v + u, -l, w);
    }
    for (int k = begin; k < end; ++k) v[k] = w[s.col[k]];
    const double pivot = v[d];
    if (pivot == 0.0 || pivot - pivot != 0.0) return false;
  }
  return true;
}

// b (in equation order) becomes the solution of (LU) x = b. w: n scratch.
template <class V>
OPSPLIT_HD void sparse_lu_solve(const SparseLu& s, V v, V b, V w) {
  for (int p = 0; p < s.n; ++p) {
    double x = b[s.order[p]];
    for (int k = s.row_begin[p]; k < s.diag[p]; ++k) x -= v[k] * w[s.col[k]];
    w[p] = x;
  }
  for (int p = s.n - 1; p >= 0; --p) {
    double x = w[p];
    for (int k = s.diag[p] + 1; k < s.row_begin[p + 1]; ++k) x -= v[k] * w[s.col[k]];
    w[p] = x / v[s.diag[p]];
  }
  for (int p = 0; p < s.n; ++p) b[s.order[p]] = w[p];
}

}  // namespace opsplit::linalg
