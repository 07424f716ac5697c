// Where cell (c, i, j, k) of a field lies in a host array of each layout.
#pragma once

#include <cstdint>

#include "common/hd.cuh"
#include "field/grid.cuh"

namespace opsplit::field {

// layout: 0 = PLANAR [comp][z][y][x], 1 = INTERLEAVED [z][y][x][comp].
OPSPLIT_HD int64_t host_index(const Grid& grid, int layout, int c, int64_t i, int64_t j, int64_t k) {
  const int64_t cell = (k * grid.n[1] + j) * grid.n[0] + i;
  return layout == 0 ? c * grid.cells() + cell : cell * grid.ncomp + c;
}

// The inverse walk used by pack/unpack loops: host position h -> cell and component.
OPSPLIT_HD void host_position(const Grid& grid, int layout, int64_t h, int* c, int64_t* i, int64_t* j, int64_t* k) {
  int64_t cell;
  if (layout == 0) {
    *c = static_cast<int>(h / grid.cells());
    cell = h - *c * grid.cells();
  } else {
    cell = h / grid.ncomp;
    *c = static_cast<int>(h - cell * grid.ncomp);
  }
  *i = cell % grid.n[0];
  const int64_t jk = cell / grid.n[0];
  *j = jk % grid.n[1];
  *k = jk / grid.n[1];
}

}  // namespace opsplit::field
