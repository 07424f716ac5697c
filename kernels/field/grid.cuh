// Storage geometry of a field: each component is a padded box with a ghost layer of
// width `ghost` on every axis of length > 1; an axis of length 1 has no ghosts and a
// neighbour offset of 0 (its neighbours are the cell itself: no derivative along it).
//
// x-rows are padded for the GPU's wide loads: cell 0 of every row starts on an
// `align`-element boundary (the ghost sits just before it) and the row length is a
// multiple of `align`. With align = 32 bytes / value size a row's interior starts a
// memory sector, and a tile of cells is copied in 16-byte pieces.
#pragma once

#include <cstdint>

#include "common/hd.cuh"

namespace opsplit::field {

struct Grid {
  int64_t n[3];       // interior cells per axis (x, y, z)
  int64_t g[3];       // ghost width per axis: `ghost` or 0 for a length-1 axis
  int64_t lead[3];    // storage position of cell 0 along each axis (>= g)
  int64_t extent[3];  // storage length of each axis
  int64_t stride[3];  // element stride of each axis in storage (x: 1)
  int64_t comp_stride;
  int ncomp;

  // Storage length of an axis of n cells: lead + n + ghost, rounded up to `align`
  // along x; n + 2 ghost elsewhere. Lengths up to 2^62 cannot overflow here.
  OPSPLIT_HD static int64_t lead_of(int axis, int64_t n, int ghost, int64_t align) {
    const int64_t g = n > 1 ? ghost : 0;
    return axis == 0 && n > 1 ? (g + align - 1) / align * align : g;
  }
  OPSPLIT_HD static int64_t extent_of(int axis, int64_t n, int ghost, int64_t align) {
    const int64_t g = n > 1 ? ghost : 0;
    const int64_t len = lead_of(axis, n, ghost, align) + n + g;
    return axis == 0 && n > 1 ? (len + align - 1) / align * align : len;
  }

  static Grid make(int64_t nx, int64_t ny, int64_t nz, int ncomp, int ghost, int64_t align = 1) {
    Grid grid{};
    const int64_t dims[3] = {nx, ny, nz};
    int64_t s = 1;
    for (int a = 0; a < 3; ++a) {
      grid.n[a] = dims[a];
      grid.g[a] = dims[a] > 1 ? ghost : 0;
      grid.lead[a] = lead_of(a, dims[a], ghost, align);
      grid.extent[a] = extent_of(a, dims[a], ghost, align);
      grid.stride[a] = s;
      s *= grid.extent[a];
    }
    grid.comp_stride = s;
    grid.ncomp = ncomp;
    return grid;
  }

  OPSPLIT_HD bool active(int axis) const { return n[axis] > 1; }
  OPSPLIT_HD int64_t cells() const { return n[0] * n[1] * n[2]; }
  // Storage index of cell (i, j, k) of component c; ghosts are i = -g .. -1 and n .. n+g-1.
  OPSPLIT_HD int64_t index(int c, int64_t i, int64_t j, int64_t k) const {
    return c * comp_stride + (k + lead[2]) * stride[2] + (j + lead[1]) * stride[1] + (i + lead[0]);
  }
  // Offset to the next cell along an axis: 0 on a length-1 axis.
  OPSPLIT_HD int64_t step(int axis) const { return active(axis) ? stride[axis] : 0; }
};

}  // namespace opsplit::field
