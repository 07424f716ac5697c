// Ghost cells from boundary conditions on the cell-centred grid (DESIGN.md):
//   NOFLUX     ghost = the cell inside (mirror)        -> zero flux, sum conserved
//   DIRICHLET  ghost = 2*value - the cell inside       -> the face carries value
//   PERIODIC   ghost = the cell on the opposite side
// Axes are filled x, then y over x's ghosts too, then z over both: edge ghosts follow
// from applying the face rules one axis after the other.
#pragma once

#include <cstdint>

#include "common/hd.cuh"
#include "field/grid.cuh"

namespace opsplit::field {

// The values of opsplit_bc (field.h), and kRemote: a face of a distributed field that
// borders another process, whose ghosts the exchange brings (field/halo.hpp); the fill
// leaves them alone, and the 3D march reads such an axis from memory.
enum FaceKind : int { kNoFlux = 0, kDirichlet = 1, kPeriodic = 2, kRemote = 3 };

struct FaceCondition {
  int type;  // FaceKind
  double value;
};

// The value a ghost takes from its source cell (its mirror image or periodic image).
template <class T>
OPSPLIT_HD T ghost_from(const FaceCondition& bc, T source) {
  return bc.type == kDirichlet ? static_cast<T>(2 * bc.value) - source : source;
}

// The cell whose value index g outside an axis of n cells (up to n cells out) takes:
// its periodic image across the axis, or its mirror image inside.
OPSPLIT_HD int64_t image_of(int64_t g, int64_t n, bool periodic) {
  if (periodic) return g < 0 ? g + n : g - n;
  return g < 0 ? -1 - g : 2 * n - 1 - g;
}

// The image in 0 .. n - 1 of position g any distance beyond a periodic axis of n cells
// (image_of wraps one period only; a pass of several steps reads further). I: int64_t,
// or int where the axis is known to fit (fewer instructions in a kernel's loop).
template <class I>
OPSPLIT_HD I wrapped(I g, I n) {
  return (g % n + n) % n;
}

// A ghost's index along its axis and the condition of its face.
struct FedGhost {
  FaceCondition face;
  int64_t at;
};

// The ghost that cell 0 (side 0) or cell n-1 (side 1) of an axis of n cells is the
// source of (ghost width 1), `faces` the axis's low and high conditions: its mirror
// image on its own face (-1 or n), or on a PERIODIC axis its image across. The ghost
// takes ghost_from(face, the cell).
OPSPLIT_HD FedGhost ghost_fed_by(int side, int64_t n, const FaceCondition* faces) {
  const bool high = (side == 0) == (faces[0].type == kPeriodic);
  return FedGhost{faces[high ? 1 : 0], high ? n : -1};
}

// Range of the two other axes covered when filling the ghosts of `axis`.
OPSPLIT_HD void ghost_sweep(const Grid& grid, int axis, int* u_axis, int* v_axis, int64_t* u_lo, int64_t* u_len,
                            int64_t* v_lo, int64_t* v_len) {
  *u_axis = axis == 0 ? 1 : 0;
  *v_axis = axis == 2 ? 1 : 2;
  // Axes filled before this one include their ghosts.
  *u_lo = *u_axis < axis ? -grid.g[*u_axis] : 0;
  *v_lo = *v_axis < axis ? -grid.g[*v_axis] : 0;
  *u_len = grid.n[*u_axis] - 2 * *u_lo;
  *v_len = grid.n[*v_axis] - 2 * *v_lo;
}

// Fills the ghost layers of one face of `axis` (side 0: low, 1: high) at the point
// (u, v) of the other two axes, for component base pointer `data`.
template <class T>
OPSPLIT_HD void fill_ghost(T* data, const Grid& grid, int axis, int side, int64_t u, int64_t v, FaceCondition bc) {
  int u_axis, v_axis;
  int64_t u_lo, u_len, v_lo, v_len;
  ghost_sweep(grid, axis, &u_axis, &v_axis, &u_lo, &u_len, &v_lo, &v_len);
  int64_t at[3];
  at[u_axis] = u;
  at[v_axis] = v;
  if (bc.type == kRemote) return;
  const int64_t n = grid.n[axis];
  for (int64_t layer = 1; layer <= grid.g[axis]; ++layer) {
    const int64_t ghost = side == 0 ? -layer : n - 1 + layer;
    at[axis] = ghost;
    T* g = data + grid.index(0, at[0], at[1], at[2]);
    at[axis] = image_of(ghost, n, bc.type == kPeriodic);
    *g = ghost_from(bc, data[grid.index(0, at[0], at[1], at[2])]);
  }
}

}  // namespace opsplit::field
