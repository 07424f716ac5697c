// The CPU's table of LIFE launchers (life_launch.hpp), over the OpenMP loops of life.cpp
// (a file of its own: test_life compiles life.cpp without the library's context).
#include "ca/life.hpp"
#include "ca/life_launch.hpp"

namespace opsplit::ca {

namespace {
// The CPU's launchers: a generation a pass, rows over the OpenMP threads.
int one_generation_a_pass(int64_t, int64_t) { return 1; }
void generations_cpu(Context& ctx, const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols, LifeRule rule,
                     bool periodic, int) {
  life_generation_cpu(in, out, rows, cols, rule, periodic, ctx.threads());
}
int64_t live_cells_cpu(Context&, const uint64_t* words, int64_t nwords, unsigned long long*) {
  return live_cells(words, nwords);
}
void block_generation_cpu(Context& ctx, const uint64_t* in, uint64_t* out, const LifeBlock& b,
                          const LifeRegion& region, LifeRule rule) {
  life_block_generation_cpu(in, out, b, region, rule, ctx.threads());
}
void gather_cpu(Context&, const uint64_t* words, int64_t first, int64_t step, int64_t n, uint64_t* to) {
  for (int64_t k = 0; k < n; ++k) to[k] = words[first + k * step];
}
void scatter_cpu(Context&, const uint64_t* from, uint64_t* words, int64_t first, int64_t step, int64_t n) {
  for (int64_t k = 0; k < n; ++k) words[first + k * step] = from[k];
}
void pack_cells_cpu(Context&, const uint8_t* cells, int64_t rows, int64_t cols, bool column_major, uint64_t* words,
                    int64_t first, int64_t stride) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < words_per_row(cols); ++w)
      words[first + r * stride + w] = packed_word(cells, rows, cols, column_major, r, w);
}
void unpack_cells_cpu(Context&, const uint64_t* words, int64_t first, int64_t stride, int64_t rows, int64_t cols,
                      bool column_major, uint8_t* cells) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t w = 0; w < words_per_row(cols); ++w)
      unpacked_word(words[first + r * stride + w], rows, cols, column_major, r, w, cells);
}
}  // namespace

const LifeLaunchers& life_cpu_launchers() {
  static const LifeLaunchers table{one_generation_a_pass, generations_cpu,      live_cells_cpu,
                                   block_generation_cpu,  gather_cpu,           scatter_cpu,
                                   pack_cells_cpu,        unpack_cells_cpu};
  return table;
}

}  // namespace opsplit::ca
