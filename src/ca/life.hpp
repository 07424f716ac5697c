// Life-like automata on the host: rule strings, RLE patterns, packing cells into
// bit-packed rows and the CPU generation loop (kernels/ca/life.cuh holds the per-word
// numerics the CPU loop and the CUDA kernel share).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ca/life.cuh"

namespace opsplit::ca {

// "B3/S23" in any case and either order ("S23/B3"), or the older survival/birth form
// "23/3"; digits 0-8 once each. Throws INVALID_ARGUMENT naming the text and the fault
// (Hensel's non-totalistic letters, digits out of range, a missing part, ...).
LifeRule parse_life_rule(const std::string& text);
// The canonical "B3/S23" form of a rule.
std::string life_rule_string(LifeRule rule);

// A pattern in run-length encoding (LifeWiki's RLE): its bounding box from the header
// line "x = w, y = h[, rule = ...]", the rule text when the header names one, and its
// live cells as (row, col) from the top left.
struct RlePattern {
  int64_t width = 0, height = 0;
  std::string rule;
  std::vector<std::pair<int64_t, int64_t>> live;
};
// Throws PARSE with the line and what is wrong: no header, a cell outside the header's
// box, a run count of 0, a state other than b/o (multi-state patterns), a missing '!';
// INVALID_ARGUMENT when the header's box is wider than max_width or taller than
// max_height (checked before any cell is read, so a short text cannot ask for a huge
// pattern).
RlePattern parse_rle(const std::string& text, int64_t max_width = INT64_MAX, int64_t max_height = INT64_MAX);

// Host cells (0 dead, anything else alive; row-major cells[r * cols + c], or column-major
// cells[c * rows + r] as Fortran's cells(rows, cols)) to and from bit-packed rows: row
// r's words at words + r * words_per_row(cols), padding bits zero.
void pack_cells(const uint8_t* cells, int64_t rows, int64_t cols, bool column_major, uint64_t* words);
void unpack_cells(const uint64_t* words, int64_t rows, int64_t cols, bool column_major, uint8_t* cells);

// One generation of the whole grid on `threads` OpenMP threads: in to out (distinct).
void life_generation_cpu(const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols, LifeRule rule,
                         bool periodic, int threads);

// One generation of a region of a block of a grid decomposed over processes, the ghosts
// it reads current: its words from in to out (the same layout; the ghosts of out are
// left as they are).
void life_block_generation_cpu(const uint64_t* in, uint64_t* out, const LifeBlock& b, const LifeRegion& region,
                               LifeRule rule, int threads);

// Live cells of bit-packed rows (padding bits are zero).
int64_t live_cells(const uint64_t* words, int64_t nwords);

}  // namespace opsplit::ca
