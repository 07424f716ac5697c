// Storage geometry of a field: each component is a padded box with a ghost layer of
// width `ghost` on every axis of length > 1; an axis of length 1 has no ghosts and a
// neighbour offset of 0 (its neighbours are the cell itself: no derivative along it).
#pragma once

#include <cstdint>

#include "common/hd.cuh"

namespace opsplit::field {

struct Grid {
  int64_t n[3];       // interior cells per axis (x, y, z)
  int64_t g[3];       // ghost width per axis: `ghost` or 0 for a length-1 axis
  int64_t stride[3];  // element stride of each axis in storage (x: 1)
  int64_t comp_stride;
  int ncomp;

  static Grid make(int64_t nx, int64_t ny, int64_t nz, int ncomp, int ghost) {
    Grid grid{};
    const int64_t dims[3] = {nx, ny, nz};
    int64_t s = 1;
    for (int a = 0; a < 3; ++a) {
      grid.n[a] = dims[a];
      grid.g[a] = dims[a] > 1 ? ghost : 0;
      grid.stride[a] = s;
      s *= dims[a] + 2 * grid.g[a];
    }
    grid.comp_stride = s;
    grid.ncomp = ncomp;
    return grid;
  }

  OPSPLIT_HD int64_t padded(int axis) const { return n[axis] + 2 * g[axis]; }
  OPSPLIT_HD bool active(int axis) const { return n[axis] > 1; }
  OPSPLIT_HD int64_t cells() const { return n[0] * n[1] * n[2]; }
  // Storage index of cell (i, j, k) of component c; ghosts are i = -g .. -1 and n .. n+g-1.
  OPSPLIT_HD int64_t index(int c, int64_t i, int64_t j, int64_t k) const {
    return c * comp_stride + (k + g[2]) * stride[2] + (j + g[1]) * stride[1] + (i + g[0]);
  }
  // Offset to the next cell along an axis: 0 on a length-1 axis.
  OPSPLIT_HD int64_t step(int axis) const { return active(axis) ? stride[axis] : 0; }
};

}  // namespace opsplit::field
