// The CUDA side of LIFE grids (kernels/ca/life_cuda.cu), declared for host code.
#pragma once

#include <cstdint>

#include "ca/life.cuh"
#include "core/context.hpp"
#include "core/error.hpp"

namespace opsplit::ca {

#if OPSPLIT_HAVE_CUDA
// One generation on the context's stream: in to out, bit-packed rows on the device.
void life_generation_cuda(Context& ctx, const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols,
                          LifeRule rule, bool periodic);
// Generations a pass of life_generations_cuda at most.
constexpr int kLifeMaxGenerationsPerPass = 8;
// Whether life_generations_cuda takes the grid: cols a multiple of 64, the tiles within
// a launch's grid.
bool life_generations_fit(int64_t rows, int64_t cols);
// gens <= kLifeMaxGenerationsPerPass generations in one pass, in to out.
void life_generations_cuda(Context& ctx, const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols,
                           LifeRule rule, bool periodic, int gens);
// Live cells of nwords device words (an integer sum: the same in any order), counted in
// the device counter `count`.
int64_t live_cells_cuda(Context& ctx, const uint64_t* words, int64_t nwords, unsigned long long* count);
// A region of a block of a grid decomposed over processes (the ghosts it reads current):
// one generation, in to out.
void life_block_generation_cuda(Context& ctx, const uint64_t* in, uint64_t* out, const LifeBlock& b,
                                const LifeRegion& region, LifeRule rule);
// Words first, first + step, ... (n) of device words into the device slab `to`, and back.
void life_gather_cuda(Context& ctx, const uint64_t* words, int64_t first, int64_t step, int64_t n, uint64_t* to);
void life_scatter_cuda(Context& ctx, const uint64_t* from, uint64_t* words, int64_t first, int64_t step, int64_t n);
#else
inline void life_generation_cuda(Context&, const uint64_t*, uint64_t*, int64_t, int64_t, LifeRule, bool) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
constexpr int kLifeMaxGenerationsPerPass = 8;
inline bool life_generations_fit(int64_t, int64_t) { return false; }
inline void life_generations_cuda(Context&, const uint64_t*, uint64_t*, int64_t, int64_t, LifeRule, bool, int) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
inline int64_t live_cells_cuda(Context&, const uint64_t*, int64_t, unsigned long long*) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
inline void life_block_generation_cuda(Context&, const uint64_t*, uint64_t*, const LifeBlock&, const LifeRegion&,
                                       LifeRule) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
inline void life_gather_cuda(Context&, const uint64_t*, int64_t, int64_t, int64_t, uint64_t*) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
inline void life_scatter_cuda(Context&, const uint64_t*, uint64_t*, int64_t, int64_t, int64_t) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
#endif

}  // namespace opsplit::ca
