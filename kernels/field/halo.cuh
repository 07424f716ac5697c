// The slabs a distributed field's ghost exchange moves: along `axis`, the layer of cells
// next to a face (sent to the neighbour across it) and the ghost layer beyond it
// (received), over the other two axes with their ghosts, every component. Element e of
// a slab is (c, v, u) with u fastest. Edge ghosts arrive with the slabs (field/halo.hpp
// says why they are the one-process fill's).
#pragma once

#include <cstdint>

#include "common/hd.cuh"
#include "field/boundary.cuh"
#include "field/grid.cuh"

namespace opsplit::field {

struct FaceSlab {
  int axis, u_axis, v_axis;
  int64_t u_lo, u_len, v_lo, v_len;
  OPSPLIT_HD int64_t values(int ncomp) const { return ncomp * u_len * v_len; }
};

OPSPLIT_HD FaceSlab face_slab(const Grid& grid, int axis) {
  FaceSlab s;
  s.axis = axis;
  s.u_axis = axis == 0 ? 1 : 0;
  s.v_axis = axis == 2 ? 1 : 2;
  s.u_lo = -grid.g[s.u_axis], s.u_len = grid.n[s.u_axis] + 2 * grid.g[s.u_axis];
  s.v_lo = -grid.g[s.v_axis], s.v_len = grid.n[s.v_axis] + 2 * grid.g[s.v_axis];
  return s;
}

// The index along the axis of the cells side `side` sends (0 or n-1) and of its ghosts
// (-1 or n).
OPSPLIT_HD int64_t sent_layer(const Grid& grid, int axis, int side) { return side == 0 ? 0 : grid.n[axis] - 1; }
OPSPLIT_HD int64_t ghost_layer(const Grid& grid, int axis, int side) { return side == 0 ? -1 : grid.n[axis]; }

// The storage index of slab element e in layer `layer` along the slab's axis.
OPSPLIT_HD int64_t slab_index(const Grid& grid, const FaceSlab& s, int64_t layer, int64_t e) {
  const int64_t u = s.u_lo + e % s.u_len, rest = e / s.u_len;
  const int c = static_cast<int>(rest / s.v_len);
  int64_t at[3];
  at[s.axis] = layer, at[s.u_axis] = u, at[s.v_axis] = s.v_lo + rest % s.v_len;
  return grid.index(c, at[0], at[1], at[2]);
}

}  // namespace opsplit::field
