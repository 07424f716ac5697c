// What a LIFE grid runs on its backend: one table of launchers a backend, chosen once
// when the grid is made (the field's Launchers is the model): the OpenMP loops
// (life.cpp, life_cpu.cpp) or the CUDA kernels (kernels/ca/life_cuda.cu), over the same per-word
// numerics (life.cuh). Words are bit-packed rows on the backend.
#pragma once

#include <cstdint>

#include "ca/life.cuh"
#include "core/backend.hpp"
#include "core/context.hpp"

namespace opsplit::ca {

struct LifeLaunchers {
  // How many generations one pass of `generations` takes on a rows x cols grid (CUDA: 8
  // where the grid fits the tiled kernel, which reads and writes the grid once a pass
  // instead of once a generation; docs/performance-history.md, 'Life on a torus').
  int (*generations_per_pass)(int64_t rows, int64_t cols);
  // gens <= generations_per_pass generations of the whole grid, in to out (distinct).
  void (*generations)(Context&, const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols, LifeRule rule,
                      bool periodic, int gens);
  // Live cells of nwords words (an integer sum: the same in any order); `count` is a
  // counter on the backend.
  int64_t (*live_cells)(Context&, const uint64_t* words, int64_t nwords, unsigned long long* count);
  // A region of a block of a grid decomposed over processes (the ghosts it reads
  // current): one generation, in to out.
  void (*block_generation)(Context&, const uint64_t* in, uint64_t* out, const LifeBlock& b, const LifeRegion& region,
                           LifeRule rule);
  // Words first, first + step, ... (n of them) into the slab `to` (on the backend), and back.
  void (*gather)(Context&, const uint64_t* words, int64_t first, int64_t step, int64_t n, uint64_t* to);
  void (*scatter)(Context&, const uint64_t* from, uint64_t* words, int64_t first, int64_t step, int64_t n);
  // A host's byte cells in the backend's memory (a GPU host's device array) into the
  // words of rows rows x cols, row r's first word at words[first + r * stride], and back.
  void (*pack_cells)(Context&, const uint8_t* cells, int64_t rows, int64_t cols, bool column_major, uint64_t* words,
                     int64_t first, int64_t stride);
  void (*unpack_cells)(Context&, const uint64_t* words, int64_t first, int64_t stride, int64_t rows, int64_t cols,
                       bool column_major, uint8_t* cells);
};

const LifeLaunchers& life_cpu_launchers();   // life_cpu.cpp
const LifeLaunchers& life_cuda_launchers();  // built with CUDA only

inline const LifeLaunchers& life_launchers(const Context& ctx) {
  return backend_table(ctx, life_cpu_launchers(), []() -> const auto& { return life_cuda_launchers(); });
}

}  // namespace opsplit::ca
