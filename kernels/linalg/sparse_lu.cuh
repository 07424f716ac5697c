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
// columns col[] ascending, its diagonal at diag[p]. The factorization's updates, listed
// by the symbolic analysis: eliminating entry k of row p (left of the diagonal, column
// j) subtracts l = v[k] / U_jj times U's row j (entries diag[j] + 1 .. row_begin[j+1] - 1)
// from the entries update_target[update_begin[k] ..] of row p, one for each of U's.
struct SparseLu {
  int n = 0;
  int nnz = 0;
  const int* order = nullptr;
  const int* row_begin = nullptr;
  const int* col = nullptr;
  const int* diag = nullptr;
  const int* update_begin = nullptr;  // nnz + 1
  const int* update_target = nullptr;
};

// In place: v (nnz values of the matrix on the pattern) becomes L (unit diagonal, not
// stored) and U. False on a zero or non-finite pivot. The updates go straight to the
// values through the listed targets (as KPP's generated decomposition does): no copy of
// the row to scratch and back. V: double* or Strided<double> (common/strided.cuh), as
// for the vectors below.
template <class V>
OPSPLIT_HD_SWEEP bool sparse_lu_factor(const SparseLu& s, V v) {
  for (int p = 0; p < s.n; ++p) {
    const int d = s.diag[p];
    for (int k = s.row_begin[p]; k < d; ++k) {  // eliminate row p's entries left of the diagonal
      const int j = s.col[k];
      const double l = v[k] / v[s.diag[j]];
      v[k] = l;
      // row p -= l * (U's row j): v + u (-l) rounds as v - l u.
      const int u = s.diag[j] + 1, begin = s.update_begin[k];
      scatter_add(s.update_begin[k + 1] - begin, s.update_target + begin, v + u, -l, v);
    }
    const double pivot = v[d];
    if (pivot == 0.0 || pivot - pivot != 0.0) return false;
  }
  return true;
}

// b (in equation order) becomes the solution of (LU) x = b. w: n scratch.
template <class V>
OPSPLIT_HD_SWEEP void sparse_lu_solve(const SparseLu& s, V v, V b, V w) {
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
