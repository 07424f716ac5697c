// The box of a lava grid's cells a step computes, for the host's grid (sciara.hpp)
// and its backends (lava_backend.hpp) alike, which need nothing else of the grid.
#pragma once

#include <cstdint>

#include "common/hd.cuh"

namespace opsplit::ca {

// Rows r0..r1 and columns c0..c1 (inclusive); empty when r1 < r0.
struct LavaBox {
  int64_t r0 = 0, r1 = -1, c0 = 0, c1 = -1;
  bool empty() const { return r1 < r0; }
  LavaBox grown(int64_t by, int64_t rows, int64_t cols) const;
  void include(int64_t r, int64_t c);
  void include(const LavaBox& b);
  LavaBox clipped(const LavaBox& to) const;  // the cells in both
};

// The cells a step computes from the box of lava: the box grown by one (lava moves at
// most a cell a step), or every cell; none while the box is empty (no lava, no vent).
OPSPLIT_HD LavaBox lava_region(const LavaBox& box, bool all_cells, int64_t rows, int64_t cols) {
  if (box.r1 < box.r0) return box;
  if (all_cells) return LavaBox{0, rows - 1, 0, cols - 1};
  return LavaBox{box.r0 > 0 ? box.r0 - 1 : 0, box.r1 + 1 < rows ? box.r1 + 1 : rows - 1, box.c0 > 0 ? box.c0 - 1 : 0,
                 box.c1 + 1 < cols ? box.c1 + 1 : cols - 1};
}

}  // namespace opsplit::ca
