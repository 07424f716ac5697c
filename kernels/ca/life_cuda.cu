// The CUDA side of LIFE grids: one thread per 64-cell word, or tiles of words advanced
// several generations in shared memory; the shared per-word numerics (life.cuh); the
// population as an integer sum.
#include <cuda_runtime.h>

#include <algorithm>

#include "ca/life_launch.hpp"

namespace opsplit::ca {
namespace {

constexpr int kThreads = 256;

__global__ void life_generation_kernel(const uint64_t* __restrict__ in, uint64_t* __restrict__ out, int64_t rows,
                                       int64_t cols, int64_t nwords, LifeRule rule, bool periodic) {
  const int64_t total = rows * nwords;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t r = i / nwords;
    out[i] = life_grid_word(in, r, i - r * nwords, rows, cols, nwords, periodic, rule);
  }
}

// Several generations a pass: a block loads its tile of kTileRows x kTileWords words with
// `gens` rows above and below and a word on each side into shared memory, computes
// `gens` generations there (the rows it can still compute shrinking by one above and
// below each time; the side words lose one outer bit a generation, and the tile's words
// need only their inner bits: gens <= 63), and writes the tile. Rows and words of the
// grid a tile window reaches past: on a torus the window wraps (cols a multiple of 64:
// the words then wrap as words); on a closed grid they are dead and stay so. The words
// are life_word's (life.cuh), as in one generation a pass.
constexpr int kLifeMaxGenerationsPerPass = 8;  // generations a pass of the tiled kernel at most
constexpr int kTileRows = 32, kTileWords = 32, kMaxRows = kTileRows + 2 * kLifeMaxGenerationsPerPass;
constexpr int kWindowWords = kTileWords + 2;

__global__ void __launch_bounds__(kThreads)
    life_generations_kernel(const uint64_t* __restrict__ in, uint64_t* __restrict__ out, int64_t rows, int64_t nwords,
                            LifeRule rule, bool periodic, int gens) {
  __shared__ uint64_t window[2][kMaxRows][kWindowWords];
  const int window_rows = kTileRows + 2 * gens;
  const int64_t r0 = int64_t(blockIdx.y) * kTileRows - gens, w0 = int64_t(blockIdx.x) * kTileWords - 1;
  auto inside = [&](int64_t r, int64_t w) { return r >= 0 && r < rows && w >= 0 && w < nwords; };
  for (int i = threadIdx.x; i < window_rows * kWindowWords; i += kThreads) {
    int64_t r = r0 + i / kWindowWords, w = w0 + i % kWindowWords;
    uint64_t v = 0;
    if (periodic) {
      r = ((r % rows) + rows) % rows, w = ((w % nwords) + nwords) % nwords;
      v = in[r * nwords + w];
    } else if (inside(r, w)) {
      v = in[r * nwords + w];
    }
    window[0][i / kWindowWords][i % kWindowWords] = v;
  }
  __syncthreads();
  int cur = 0;
  for (int g = 1; g <= gens; ++g, cur ^= 1) {
    for (int i = threadIdx.x; i < (window_rows - 2 * g) * kWindowWords; i += kThreads) {
      const int tr = g + i / kWindowWords, tw = i % kWindowWords;
      const uint64_t *a = window[cur][tr - 1], *m = window[cur][tr], *b = window[cur][tr + 1];
      auto west = [&](const uint64_t* row) { return (row[tw] << 1) | (tw > 0 ? row[tw - 1] >> 63 : 0); };
      auto east = [&](const uint64_t* row) { return (row[tw] >> 1) | (tw + 1 < kWindowWords ? row[tw + 1] << 63 : 0); };
      uint64_t next = life_word(west(a), a[tw], east(a), west(m), m[tw], east(m), west(b), b[tw], east(b), rule);
      if (!periodic && !inside(r0 + tr, w0 + tw)) next = 0;
      window[cur ^ 1][tr][tw] = next;
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < kTileRows * kTileWords; i += kThreads) {
    const int tr = gens + i / kTileWords, tw = 1 + i % kTileWords;
    const int64_t r = r0 + tr, w = w0 + tw;
    if (r < rows && w < nwords) out[r * nwords + w] = window[cur][tr][tw];
  }
}

__global__ void live_cells_kernel(const uint64_t* __restrict__ words, int64_t nwords, unsigned long long* total) {
  __shared__ unsigned long long block_sum[kThreads / 32];
  unsigned long long n = 0;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < nwords; i += stride)
    n += __popcll(words[i]);
  for (int offset = 16; offset > 0; offset /= 2) n += __shfl_down_sync(0xffffffffu, n, offset);
  if (threadIdx.x % 32 == 0) block_sum[threadIdx.x / 32] = n;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long sum = 0;
    for (int k = 0; k < kThreads / 32; ++k) sum += block_sum[k];
    atomicAdd(total, sum);  // integers: exact in any order
  }
}

__global__ void life_block_generation_kernel(const uint64_t* __restrict__ in, uint64_t* __restrict__ out, LifeBlock b,
                                             LifeRegion region, LifeRule rule) {
  const int64_t width = region.w1 - region.w0, total = region.words();
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < total; i += stride) {
    const int64_t r = region.r0 + i / width, w = region.w0 + i % width;
    out[b.at(r, w)] = life_block_word(in, b, r, w, rule);
  }
}

// Words first, first + step, ... (n of them) of `words` to and from a slab.
__global__ void life_gather_kernel(const uint64_t* __restrict__ words, int64_t first, int64_t step, int64_t n,
                                   uint64_t* __restrict__ to) {
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x)
    to[k] = words[first + k * step];
}

__global__ void life_scatter_kernel(const uint64_t* __restrict__ from, uint64_t* __restrict__ words, int64_t first,
                                    int64_t step, int64_t n) {
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < n;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x)
    words[first + k * step] = from[k];
}

// One word a thread: a host's byte cells into the words and back (the _device forms).
__global__ void life_pack_cells_kernel(const uint8_t* __restrict__ cells, int64_t rows, int64_t cols,
                                       bool column_major, uint64_t* __restrict__ words, int64_t first, int64_t stride) {
  const int64_t nwords = words_per_row(cols);
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < rows * nwords;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x)
    words[first + k / nwords * stride + k % nwords] = packed_word(cells, rows, cols, column_major, k / nwords, k % nwords);
}

__global__ void life_unpack_cells_kernel(const uint64_t* __restrict__ words, int64_t first, int64_t stride, int64_t rows,
                                         int64_t cols, bool column_major, uint8_t* __restrict__ cells) {
  const int64_t nwords = words_per_row(cols);
  for (int64_t k = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; k < rows * nwords;
       k += static_cast<int64_t>(gridDim.x) * blockDim.x)
    unpacked_word(words[first + k / nwords * stride + k % nwords], rows, cols, column_major, k / nwords, k % nwords,
                  cells);
}

unsigned blocks_for(int64_t items) {
  return static_cast<unsigned>(std::min<int64_t>((items + kThreads - 1) / kThreads, 1 << 20));
}

void life_generation_cuda(Context& ctx, const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols,
                          LifeRule rule, bool periodic) {
  const int64_t nwords = words_per_row(cols);
  life_generation_kernel<<<blocks_for(rows * nwords), kThreads, 0, static_cast<cudaStream_t>(ctx.device().stream())>>>(
      in, out, rows, cols, nwords, rule, periodic);
  cuda::check_launch("life_generation_kernel");
}

// The tiled kernel takes the grid: cols a multiple of 64, the tiles within a launch's grid.
int life_generations_per_pass(int64_t rows, int64_t cols) {
  const bool fits = cols % kBitsPerWord == 0 && (rows + kTileRows - 1) / kTileRows <= 65535 &&
                    (words_per_row(cols) + kTileWords - 1) / kTileWords <= (int64_t(1) << 31) - 1;
  return fits ? kLifeMaxGenerationsPerPass : 1;
}

void life_generations_cuda(Context& ctx, const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols,
                           LifeRule rule, bool periodic, int gens) {
  if (gens == 1) return life_generation_cuda(ctx, in, out, rows, cols, rule, periodic);
  const int64_t nwords = words_per_row(cols);
  const dim3 grid(static_cast<unsigned>((nwords + kTileWords - 1) / kTileWords),
                  static_cast<unsigned>((rows + kTileRows - 1) / kTileRows));
  life_generations_kernel<<<grid, kThreads, 0, static_cast<cudaStream_t>(ctx.device().stream())>>>(
      in, out, rows, nwords, rule, periodic, gens);
  cuda::check_launch("life_generations_kernel");
}

void life_block_generation_cuda(Context& ctx, const uint64_t* in, uint64_t* out, const LifeBlock& b,
                                const LifeRegion& region, LifeRule rule) {
  if (region.words() == 0) return;
  life_block_generation_kernel<<<blocks_for(region.words()), kThreads, 0,
                                 static_cast<cudaStream_t>(ctx.device().stream())>>>(in, out, b, region, rule);
  cuda::check_launch("life_block_generation_kernel");
}

void life_gather_cuda(Context& ctx, const uint64_t* words, int64_t first, int64_t step, int64_t n, uint64_t* to) {
  life_gather_kernel<<<blocks_for(n), kThreads, 0, static_cast<cudaStream_t>(ctx.device().stream())>>>(words, first,
                                                                                                     step, n, to);
  cuda::check_launch("life_gather_kernel");
}

void life_scatter_cuda(Context& ctx, const uint64_t* from, uint64_t* words, int64_t first, int64_t step, int64_t n) {
  life_scatter_kernel<<<blocks_for(n), kThreads, 0, static_cast<cudaStream_t>(ctx.device().stream())>>>(from, words,
                                                                                                      first, step, n);
  cuda::check_launch("life_scatter_kernel");
}

int64_t live_cells_cuda(Context& ctx, const uint64_t* words, int64_t nwords, unsigned long long* count) {
  ctx.device().zero(count, sizeof *count);
  live_cells_kernel<<<blocks_for(nwords), kThreads, 0, static_cast<cudaStream_t>(ctx.device().stream())>>>(
      words, nwords, count);
  cuda::check_launch("live_cells_kernel");
  unsigned long long n = 0;
  ctx.device().copy_to_host(&n, count, sizeof n);
  return static_cast<int64_t>(n);
}

}  // namespace

void life_pack_cells_cuda(Context& ctx, const uint8_t* cells, int64_t rows, int64_t cols, bool column_major,
                          uint64_t* words, int64_t first, int64_t stride) {
  life_pack_cells_kernel<<<blocks_for(rows * words_per_row(cols)), kThreads, 0,
                           static_cast<cudaStream_t>(ctx.device().stream())>>>(cells, rows, cols, column_major, words,
                                                                                first, stride);
  cuda::check_launch("life_pack_cells_kernel");
}

void life_unpack_cells_cuda(Context& ctx, const uint64_t* words, int64_t first, int64_t stride, int64_t rows,
                            int64_t cols, bool column_major, uint8_t* cells) {
  life_unpack_cells_kernel<<<blocks_for(rows * words_per_row(cols)), kThreads, 0,
                             static_cast<cudaStream_t>(ctx.device().stream())>>>(words, first, stride, rows, cols,
                                                                                  column_major, cells);
  cuda::check_launch("life_unpack_cells_kernel");
}

const LifeLaunchers& life_cuda_launchers() {
  static const LifeLaunchers table{life_generations_per_pass, life_generations_cuda, live_cells_cuda,
                                   life_block_generation_cuda, life_gather_cuda, life_scatter_cuda,
                                   life_pack_cells_cuda, life_unpack_cells_cuda};
  return table;
}

}  // namespace opsplit::ca
