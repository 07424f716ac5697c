// Dense LU with partial pivoting and its solve by one warp (32 lanes) for one system:
// the same operations in the same order per element as lu_factor / lu_solve
// (integrators.cuh), the rows of each column split over the lanes, so the results are
// the same bits. The matrix (column-major n x n), pivots and right-hand side are the
// warp's, in shared or global memory; every lane calls these together. Measured
// against one thread per system by bench_reactor_phases (faster for GRI-Mech's 54
// equations in shared memory, but a step's other phases by a warp cost more than that
// gains: docs/performance-history.md); the integrator does not use it.
#pragma once

#include "ode/integrators.cuh"

namespace opsplit::ode {

// lu_factor by a warp; false if singular (or a column holds only NaNs).
__device__ bool warp_lu_factor(int n, double* a, int* piv, int lane) {
  for (int k = 0; k < n; ++k) {
    // The pivot: the first row of the largest |a(i, k)|, i >= k, as lu_factor picks it.
    double big = -1.0;
    int p = n;
    for (int i = k + lane; i < n; i += 32) {
      const double v = fabs(a[i + k * n]);
      if (v > big) big = v, p = i;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      const double ob = __shfl_down_sync(0xffffffffu, big, offset);
      const int op = __shfl_down_sync(0xffffffffu, p, offset);
      if (ob > big || (ob == big && op < p)) big = ob, p = op;
    }
    big = __shfl_sync(0xffffffffu, big, 0), p = __shfl_sync(0xffffffffu, p, 0);
    if (lane == 0) piv[k] = p;
    if (p >= n || big == 0.0 || !is_finite(big)) return false;
    if (p != k)
      for (int j = lane; j < n; j += 32) {
        const double tmp = a[k + j * n];
        a[k + j * n] = a[p + j * n], a[p + j * n] = tmp;
      }
    __syncwarp();
    const double inv = 1.0 / a[k + k * n];
    for (int i = k + 1 + lane; i < n; i += 32) a[i + k * n] *= inv;
    __syncwarp();
    for (int j = k + 1; j < n; ++j) {
      const double akj = a[k + j * n];
      if (akj != 0.0)
        for (int i = k + 1 + lane; i < n; i += 32) a[i + j * n] -= a[i + k * n] * akj;
    }
    __syncwarp();
  }
  return true;
}

// lu_solve by a warp.
__device__ void warp_lu_solve(int n, const double* lu, const int* piv, double* b, int lane) {
  if (lane == 0)
    for (int k = 0; k < n; ++k) {
      const int p = piv[k];
      if (p != k) {
        const double tmp = b[k];
        b[k] = b[p], b[p] = tmp;
      }
    }
  __syncwarp();
  for (int k = 0; k < n; ++k) {
    const double bk = b[k];
    for (int i = k + 1 + lane; i < n; i += 32) b[i] -= lu[i + k * n] * bk;
    __syncwarp();
  }
  for (int k = n - 1; k >= 0; --k) {
    const double bk = b[k] / lu[k + k * n];
    __syncwarp();
    if (lane == 0) b[k] = bk;
    for (int i = lane; i < k; i += 32) b[i] -= lu[i + k * n] * bk;
    __syncwarp();
  }
}

}  // namespace opsplit::ode
