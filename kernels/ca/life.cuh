// Life-like cellular automata on bit-packed rows: 64 cells per 64-bit word, bit j of
// word w is column 64 w + j. One generation of a word is computed from the words of the
// rows above, at and below it, shifted so that bit j of each of the eight inputs is
// cell j's neighbour in one direction, through a bit-sliced adder (the count of live
// neighbours of all 64 cells at once as four bit planes) and the rule's birth and
// survival sets. Written once for the CPU loops and the CUDA kernels.
#pragma once

#include <stdint.h>

#include "common/hd.cuh"

namespace opsplit::ca {

// An outer-totalistic rule on the Moore neighbourhood: bit k of birth (survive) set
// when a dead (live) cell with k live neighbours is alive in the next generation,
// k = 0..8. Conway's B3/S23 is {1 << 3, 1 << 2 | 1 << 3}.
struct LifeRule {
  uint32_t birth = 0, survive = 0;
};

constexpr int kBitsPerWord = 64;

OPSPLIT_HD int64_t words_per_row(int64_t cols) { return (cols + kBitsPerWord - 1) / kBitsPerWord; }

// The word's bits that are cells (the last word of a row is padded with zeros).
OPSPLIT_HD uint64_t valid_bits(int64_t word, int64_t cols) {
  const int64_t rest = cols - word * kBitsPerWord;
  return rest >= kBitsPerWord ? ~uint64_t(0) : (uint64_t(1) << rest) - 1;
}

OPSPLIT_HD uint64_t cell_bit(const uint64_t* row, int64_t col) {
  return (row[col / kBitsPerWord] >> (col % kBitsPerWord)) & 1u;
}

// A host's cells (one byte each, nonzero alive, row- or column-major) and the words
// they pack into: word w of row r, and its cells back (0 or 1). The CPU's packing and
// the CUDA kernels of the _device forms both go through these.
OPSPLIT_HD int64_t cell_index(int64_t r, int64_t c, int64_t rows, int64_t cols, bool column_major) {
  return column_major ? c * rows + r : r * cols + c;
}
OPSPLIT_HD uint64_t packed_word(const uint8_t* cells, int64_t rows, int64_t cols, bool column_major, int64_t r,
                                int64_t w) {
  uint64_t word = 0;
  const int64_t c0 = w * kBitsPerWord, c1 = c0 + kBitsPerWord < cols ? c0 + kBitsPerWord : cols;
  for (int64_t c = c0; c < c1; ++c)
    if (cells[cell_index(r, c, rows, cols, column_major)] != 0) word |= uint64_t(1) << (c - c0);
  return word;
}
OPSPLIT_HD void unpacked_word(uint64_t word, int64_t rows, int64_t cols, bool column_major, int64_t r, int64_t w,
                              uint8_t* cells) {
  const int64_t c0 = w * kBitsPerWord, c1 = c0 + kBitsPerWord < cols ? c0 + kBitsPerWord : cols;
  for (int64_t c = c0; c < c1; ++c)
    cells[cell_index(r, c, rows, cols, column_major)] = static_cast<uint8_t>((word >> (c - c0)) & 1u);
}

// What lies past a row's end: dead cells, the row's other end (a torus), or a ghost word
// beside the row holding a neighbouring process's cells (row[-1] west, row[nwords] east;
// an east ghost needs the row's last word full: cols a multiple of 64).
enum LifeEnd : int { kLifeDead = 0, kLifeWrap = 1, kLifeGhost = 2 };

// Word w of the row's west neighbours (bit j: the cell at column 64 w + j - 1) and east
// neighbours (column 64 w + j + 1), past the row's ends as `end` says.
OPSPLIT_HD uint64_t west_neighbours(const uint64_t* row, int64_t w, int64_t cols, int end) {
  const uint64_t carry = w > 0 || end == kLifeGhost ? row[w - 1] >> (kBitsPerWord - 1)
                                                    : (end == kLifeWrap ? cell_bit(row, cols - 1) : 0);
  return (row[w] << 1) | carry;
}

OPSPLIT_HD uint64_t east_neighbours(const uint64_t* row, int64_t w, int64_t nwords, int64_t cols, int end) {
  uint64_t east = row[w] >> 1;
  if (w + 1 < nwords || end == kLifeGhost) east |= row[w + 1] << (kBitsPerWord - 1);
  if (w == nwords - 1 && end == kLifeWrap) east |= cell_bit(row, 0) << ((cols - 1) % kBitsPerWord);
  return east;
}

// Adds one-bit inputs a + b + c per bit position: sum and carry planes.
OPSPLIT_HD void full_add(uint64_t a, uint64_t b, uint64_t c, uint64_t& sum, uint64_t& carry) {
  const uint64_t ab = a ^ b;
  sum = ab ^ c;
  carry = (a & b) | (ab & c);
}

// The next state of 64 cells (centre) from their eight neighbour words.
OPSPLIT_HD uint64_t life_word(uint64_t nw, uint64_t n, uint64_t ne, uint64_t w, uint64_t centre, uint64_t e,
                              uint64_t sw, uint64_t s, uint64_t se, LifeRule rule) {
  // Three full adders make three two-bit counts (s_i + 2 c_i), of 3, 3 and 2 inputs.
  uint64_t s0, c0, s1, c1, s2, c2;
  full_add(nw, n, ne, s0, c0);
  full_add(w, e, sw, s1, c1);
  s2 = s ^ se, c2 = s & se;
  // The ones column: s0 + s1 + s2 = bit0 + 2 t.
  uint64_t bit0, t;
  full_add(s0, s1, s2, bit0, t);
  // The twos column: t + c0 + c1 + c2 = bit1 + 2 (carry + y).
  uint64_t x, y;
  full_add(c0, c1, c2, x, y);  // c0 + c1 + c2 = x + 2 y
  const uint64_t bit1 = x ^ t;
  const uint64_t carry = x & t;  // x + t = bit1 + 2 carry
  // The fours column: carry + y = bit2 + 2 bit3 (both set only for a count of 8).
  const uint64_t bit2 = y ^ carry;
  const uint64_t bit3 = y & carry;
  uint64_t next = 0;
  for (int k = 0; k <= 8; ++k) {
    const bool born = (rule.birth >> k) & 1u, stays = (rule.survive >> k) & 1u;
    if (!born && !stays) continue;
    const uint64_t is_k = ((k & 1) ? bit0 : ~bit0) & ((k & 2) ? bit1 : ~bit1) & ((k & 4) ? bit2 : ~bit2) &
                          ((k & 8) ? bit3 : ~bit3);
    next |= is_k & ((born ? ~centre : 0) | (stays ? centre : 0));
  }
  return next;
}

// Word w of the next generation of row r, from the current rows above (null: dead),
// at and below (null: dead), the rows' ends as west and east say.
OPSPLIT_HD uint64_t life_next_word(const uint64_t* above, const uint64_t* row, const uint64_t* below, int64_t w,
                                   int64_t nwords, int64_t cols, int west, int east, LifeRule rule) {
  uint64_t nw = 0, n = 0, ne = 0, sw = 0, s = 0, se = 0;
  if (above != nullptr) {
    nw = west_neighbours(above, w, cols, west);
    n = above[w];
    ne = east_neighbours(above, w, nwords, cols, east);
  }
  if (below != nullptr) {
    sw = west_neighbours(below, w, cols, west);
    s = below[w];
    se = east_neighbours(below, w, nwords, cols, east);
  }
  const uint64_t we = west_neighbours(row, w, cols, west);
  const uint64_t ea = east_neighbours(row, w, nwords, cols, east);
  return life_word(nw, n, ne, we, row[w], ea, sw, s, se, rule) & valid_bits(w, cols);
}

// Word w of row r's next generation in a grid of bit-packed rows `in` (rows x cols):
// the rows above and below wrap on a torus and are dead past a closed grid's edge.
OPSPLIT_HD uint64_t life_grid_word(const uint64_t* in, int64_t r, int64_t w, int64_t rows, int64_t cols,
                                   int64_t nwords, bool periodic, LifeRule rule) {
  const uint64_t* row = in + r * nwords;
  const uint64_t* above = r > 0 ? row - nwords : (periodic ? in + (rows - 1) * nwords : nullptr);
  const uint64_t* below = r + 1 < rows ? row + nwords : (periodic ? in : nullptr);
  const int end = periodic ? kLifeWrap : kLifeDead;
  return life_next_word(above, row, below, w, nwords, cols, end, end, rule);
}

// A block of a grid decomposed over processes as it is stored: its rows x cols cells
// (nwords words a row) with a ghost row above and below and a ghost word west and east
// where a neighbouring process lies there (ghost[4]: north, south, west, east, 1 or 0),
// row r's first word at (r + ghost[0]) * stride + ghost[2]. Sides without a ghost are
// dead or, on a torus not split along that axis, wrap within the block.
struct LifeBlock {
  int64_t rows, cols, nwords, stride;
  int ghost[4];
  bool wrap_rows, wrap_cols;
  OPSPLIT_HD int64_t at(int64_t r, int64_t w) const { return (r + ghost[0]) * stride + ghost[2] + w; }
};

// Rows r0 .. r1-1, words w0 .. w1-1 of a block: the part of a generation that runs at
// once (a distributed step computes the words no ghost reaches while the ghosts travel).
struct LifeRegion {
  int64_t r0, r1, w0, w1;
  OPSPLIT_HD int64_t words() const { return r1 > r0 && w1 > w0 ? (r1 - r0) * (w1 - w0) : 0; }
};

// Word w of the block's row r in the next generation (its ghosts current).
OPSPLIT_HD uint64_t life_block_word(const uint64_t* in, const LifeBlock& b, int64_t r, int64_t w, LifeRule rule) {
  const uint64_t* row = in + b.at(r, 0);
  const uint64_t* above =
      r > 0 || b.ghost[0] ? row - b.stride : (b.wrap_rows ? in + b.at(b.rows - 1, 0) : nullptr);
  const uint64_t* below = r + 1 < b.rows || b.ghost[1] ? row + b.stride : (b.wrap_rows ? in + b.at(0, 0) : nullptr);
  const int west = b.ghost[2] ? kLifeGhost : (b.wrap_cols ? kLifeWrap : kLifeDead);
  const int east = b.ghost[3] ? kLifeGhost : (b.wrap_cols ? kLifeWrap : kLifeDead);
  return life_next_word(above, row, below, w, b.nwords, b.cols, west, east, rule);
}

}  // namespace opsplit::ca
