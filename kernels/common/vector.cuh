// Small vector kernels for per-system numerics. Each reads and writes separate arrays
// (__restrict__), four elements at a time with the loads first: on the GPU a system's
// vectors live in local memory, and a store the compiler cannot tell apart from the
// next element's load makes every element wait out the memory's latency.
#pragma once

#include "common/hd.cuh"

namespace opsplit {

// x[i] -= m * v[i] for i in [begin, end).
OPSPLIT_HD void subtract_scaled(int begin, int end, double m, const double* __restrict__ v, double* __restrict__ x) {
  int i = begin;
  for (; i + 4 <= end; i += 4) {
    const double v0 = v[i], v1 = v[i + 1], v2 = v[i + 2], v3 = v[i + 3];
    const double x0 = x[i], x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3];
    x[i] = x0 - v0 * m, x[i + 1] = x1 - v1 * m, x[i + 2] = x2 - v2 * m, x[i + 3] = x3 - v3 * m;
  }
  for (; i < end; ++i) x[i] -= v[i] * m;
}

// x[i] += v[i] for i in [0, n).
OPSPLIT_HD void add_vector(int n, const double* __restrict__ v, double* __restrict__ x) {
  int i = 0;
  for (; i + 4 <= n; i += 4) {
    const double v0 = v[i], v1 = v[i + 1], v2 = v[i + 2], v3 = v[i + 3];
    const double x0 = x[i], x1 = x[i + 1], x2 = x[i + 2], x3 = x[i + 3];
    x[i] = x0 + v0, x[i + 1] = x1 + v1, x[i + 2] = x2 + v2, x[i + 3] = x3 + v3;
  }
  for (; i < n; ++i) x[i] += v[i];
}

// Exchanges x[j * stride] and y[j * stride] for j in [0, count) (two rows of a
// column-major matrix).
OPSPLIT_HD void swap_strided(int count, int stride, double* __restrict__ x, double* __restrict__ y) {
  int j = 0;
  for (; j + 4 <= count; j += 4) {
    double* xj = x + j * stride;
    double* yj = y + j * stride;
    const double x0 = xj[0], x1 = xj[stride], x2 = xj[2 * stride], x3 = xj[3 * stride];
    const double y0 = yj[0], y1 = yj[stride], y2 = yj[2 * stride], y3 = yj[3 * stride];
    xj[0] = y0, xj[stride] = y1, xj[2 * stride] = y2, xj[3 * stride] = y3;
    yj[0] = x0, yj[stride] = x1, yj[2 * stride] = x2, yj[3 * stride] = x3;
  }
  for (; j < count; ++j) {
    const double tmp = x[j * stride];
    x[j * stride] = y[j * stride], y[j * stride] = tmp;
  }
}

// out[index[e]] += coeff[e] * scale for e in [0, count), the indices distinct (a
// reaction's species, a Jacobian column's entries). Four loads go before their stores:
// the compiler cannot tell the indices apart, and one update at a time would make each
// wait out the memory's latency (device memory, for the large mechanisms). Coeff and
// Out: pointers or Strided views (common/strided.cuh); each element's sum is the same.
template <class Coeff, class Out>
OPSPLIT_HD void scatter_add(int count, const int* index, Coeff coeff, double scale, Out out) {
  int e = 0;
  for (; e + 4 <= count; e += 4) {
    const int i0 = index[e], i1 = index[e + 1], i2 = index[e + 2], i3 = index[e + 3];
    const double c0 = coeff[e], c1 = coeff[e + 1], c2 = coeff[e + 2], c3 = coeff[e + 3];
    const double o0 = out[i0], o1 = out[i1], o2 = out[i2], o3 = out[i3];
    out[i0] = o0 + c0 * scale, out[i1] = o1 + c1 * scale, out[i2] = o2 + c2 * scale, out[i3] = o3 + c3 * scale;
  }
  for (; e < count; ++e) out[index[e]] += coeff[e] * scale;
}

}  // namespace opsplit
