// The CUDA side of LIFE grids: one thread per 64-cell word, the shared per-word
// numerics (life.cuh); the population as an integer sum.
#include <cuda_runtime.h>

#include <algorithm>

#include "ca/life_cuda.hpp"

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

unsigned blocks_for(int64_t items) {
  return static_cast<unsigned>(std::min<int64_t>((items + kThreads - 1) / kThreads, 1 << 20));
}

}  // namespace

void life_generation_cuda(Context& ctx, const uint64_t* in, uint64_t* out, int64_t rows, int64_t cols,
                          LifeRule rule, bool periodic) {
  const int64_t nwords = words_per_row(cols);
  life_generation_kernel<<<blocks_for(rows * nwords), kThreads, 0, static_cast<cudaStream_t>(ctx.device().stream())>>>(
      in, out, rows, cols, nwords, rule, periodic);
  cuda::check_launch("life_generation_kernel");
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

}  // namespace opsplit::ca
