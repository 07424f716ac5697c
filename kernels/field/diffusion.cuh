// Explicit diffusion: one forward-Euler update of one cell, written once for the CPU
// launchers and the CUDA kernels, plus the stencil weights and its stability limit.
//
// The operator is L = sum_a d2_a/h_a^2 + sum_{a<b} e_ab d2_a d2_b, d2_a the second
// difference along axis a, e_ab = (h_a^2 + h_b^2)/(12 h_a^2 h_b^2) for the 19-point
// stencil and 0 for the 7-point one. For cubic cells the 19-point weights are the
// seed's (1/(6h^2)) * (centre -24, faces 2, edges 1); for other spacings the leading
// error is (1/12)(sum_a h_a^2 d_a^2) Laplacian, the anisotropic form of the same
// isotropy. In neighbour form: face weight f_a = 1/h_a^2 - 2 sum_{b!=a} e_ab, edge
// weight e_ab, and the weights sum to zero exactly (stencil_sum takes the centre
// once per group of equal weights): the plain sum of the field is conserved up to
// rounding noise.
#pragma once

#include <cmath>
#include <cstdint>

#include "common/hd.cuh"

namespace opsplit::field {

// Weights already multiplied by D*dt; index 0,1,2 = x,y,z; edges xy, xz, yz.
template <class T>
struct DiffusionWeights {
  T face[3];
  T edge[3];
};

// Spatial weights (without D*dt) for a stencil over the active axes.
struct StencilWeights {
  double face[3] = {0, 0, 0};
  double edge[3] = {0, 0, 0};  // xy, xz, yz
};

inline int edge_slot(int a, int b) { return a + b - 1; }  // (0,1)->0 (0,2)->1 (1,2)->2

inline StencilWeights stencil_weights(int points, const double h[3], const bool active[3]) {
  StencilWeights w;
  double inv2[3];
  for (int a = 0; a < 3; ++a) inv2[a] = active[a] ? 1.0 / (h[a] * h[a]) : 0.0;
  if (points == 19)
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b)
        if (active[a] && active[b]) w.edge[edge_slot(a, b)] = (inv2[a] + inv2[b]) / 12.0;
  for (int a = 0; a < 3; ++a) {
    if (!active[a]) continue;
    double f = inv2[a];
    for (int b = 0; b < 3; ++b)
      if (b != a) f -= 2.0 * w.edge[edge_slot(a < b ? a : b, a < b ? b : a)];
    w.face[a] = f;
  }
  return w;
}

// The largest |eigenvalue| of L over all Fourier modes. L's symbol is multilinear in
// cos(theta_a), so its extremes lie where every cos(theta_a) is +-1: the 8 corners.
// At the corner where the axes in S have cos = -1 it is
//   -4 sum_{a in S} 1/h_a^2 + 16 sum_{a<b in S} e_ab   (<= 0 for both stencils).
inline double spectral_radius(int points, const double h[3], const bool active[3]) {
  StencilWeights w = stencil_weights(points, h, active);
  double radius = 0.0;
  for (int corner = 1; corner < 8; ++corner) {
    double symbol = 0.0;
    for (int a = 0; a < 3; ++a)
      if ((corner >> a & 1) && active[a]) symbol -= 4.0 / (h[a] * h[a]);
    for (int a = 0; a < 3; ++a)
      for (int b = a + 1; b < 3; ++b)
        if ((corner >> a & 1) && (corner >> b & 1)) symbol += 16.0 * w.edge[edge_slot(a, b)];
    radius = std::fmax(radius, -symbol);
  }
  return radius;
}

// The eigenvalue of L for the mode with angles theta (rad per cell): what a Fourier
// mode is multiplied by per step is 1 + D*dt*symbol.
inline double stencil_symbol(int points, const double h[3], const bool active[3], const double theta[3]) {
  StencilWeights w = stencil_weights(points, h, active);
  double s = 0.0;
  for (int a = 0; a < 3; ++a)
    if (active[a]) s += 2.0 * w.face[a] * (std::cos(theta[a]) - 1.0);
  for (int a = 0; a < 3; ++a)
    for (int b = a + 1; b < 3; ++b) s += 4.0 * w.edge[edge_slot(a, b)] * (std::cos(theta[a]) * std::cos(theta[b]) - 1.0);
  return s;
}

// Reads neighbours in a global array at element strides (0 on a length-1 axis); I is
// the stride type (int where a plane of storage is known to fit: fewer instructions).
template <class T, class I = int64_t>
struct StridedAt {
  const T* p;
  I sx, sy, sz;
  OPSPLIT_HD T operator()(int dx, int dy, int dz) const { return p[dx * sx + dy * sy + dz * sz]; }
};

// Reads neighbours from three x-y planes of one level of a pass of several steps (the
// planes below, at and above the cell's), at strides within a plane: the CPU's ring of
// planes in memory, the CUDA pass's planes in shared memory.
template <class T, class I = int64_t>
struct PlanesAt {
  const T *below, *centre, *above;
  I sx, sy;
  OPSPLIT_HD T operator()(int dx, int dy, int dz) const {
    return (dz < 0 ? below : dz > 0 ? above : centre)[dx * sx + dy * sy];
  }
};

// The weighted stencil sum sum_n w_n (neighbour - centre): D*dt times the Laplacian
// with the DiffusionWeights of a step. `at(dx, dy, dz)` reads the neighbour at that
// offset (a global array on the CPU, registers or shared memory on the GPU).
// Neighbours of equal weight are summed first and the centre taken once per group,
// (a + b) - 2c and ((a + b) + (c + d)) - 4c: 2c and 4c are exact, so a uniform field
// still gives exactly 0, and the 19-point sum takes 26 operations instead of 36 (18
// differences). The price is rounding at the size of the values rather than of their
// differences, the same size as the rounding of the value the sum is added to.
template <int Points, class T, class W, class At>
OPSPLIT_HD T stencil_sum(const At& at, const DiffusionWeights<W>& w) {
  const T c = at(0, 0, 0);
  const T c2 = c + c;
  T r = w.face[0] * ((at(-1, 0, 0) + at(1, 0, 0)) - c2) + w.face[1] * ((at(0, -1, 0) + at(0, 1, 0)) - c2) +
        w.face[2] * ((at(0, 0, -1) + at(0, 0, 1)) - c2);
  if constexpr (Points == 19) {
    const T c4 = c2 + c2;
    r += w.edge[0] * (((at(-1, -1, 0) + at(1, -1, 0)) + (at(-1, 1, 0) + at(1, 1, 0))) - c4);
    r += w.edge[1] * (((at(-1, 0, -1) + at(1, 0, -1)) + (at(-1, 0, 1) + at(1, 0, 1))) - c4);
    r += w.edge[2] * (((at(0, -1, -1) + at(0, 1, -1)) + (at(0, -1, 1) + at(0, 1, 1))) - c4);
  }
  return r;
}

// One forward-Euler diffusion step of one cell.
template <int Points, class T, class At>
OPSPLIT_HD T diffusion_update(const At& at, const DiffusionWeights<T>& w) {
  return at(0, 0, 0) + stencil_sum<Points, T>(at, w);
}

}  // namespace opsplit::field
