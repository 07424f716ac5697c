// The CUDA side of SCIARA-fv2 grids: a thread per cell of the region for each phase, on
// the per-cell numerics shared with the CPU (sciara.cuh). Compiled with -fmad=false
// (src/CMakeLists.txt): the CPU's bits need the same roundings, no fused multiply-adds.
#include <cuda_runtime.h>

#include "ca/sciara_cuda.hpp"

namespace opsplit::ca {
namespace {

constexpr int kBlockCols = 32, kBlockRows = 8;

__global__ void lava_emit_kernel(LavaGridView g, LavaEmission e) { lava_emit(g, e); }

__global__ void lava_flows_kernel(LavaGridView g, LavaBox region, LavaConstants k) {
  const int64_t r = region.r0 + blockIdx.y * int64_t(kBlockRows) + threadIdx.y;
  const int64_t c = region.c0 + blockIdx.x * int64_t(kBlockCols) + threadIdx.x;
  if (r <= region.r1 && c <= region.c1) lava_cell_flows(g, r, c, k);
}

// The box grows by integer minima and maxima: the same result in any order. A warp
// reduces first, so that a row of new lava cells costs one atomic per warp.
__global__ void lava_balance_kernel(LavaGridView g, LavaBox region, LavaBox known, LavaConstants k,
                                    long long* box) {
  const int64_t r = region.r0 + blockIdx.y * int64_t(kBlockRows) + threadIdx.y;
  const int64_t c = region.c0 + blockIdx.x * int64_t(kBlockCols) + threadIdx.x;
  const bool inside = r <= region.r1 && c <= region.c1;
  const bool lava = inside && lava_cell_balance(g, r, c, k);
  const bool outside_known = lava && (r < known.r0 || r > known.r1 || c < known.c0 || c > known.c1);
  const unsigned grow = __ballot_sync(0xffffffffu, outside_known);
  if (grow == 0) return;
  const unsigned big = 0x7fffffffu;
  const unsigned rmin = __reduce_min_sync(0xffffffffu, outside_known ? unsigned(r) : big);
  const unsigned rmax = __reduce_max_sync(0xffffffffu, outside_known ? unsigned(r) : 0u);
  const unsigned cmin = __reduce_min_sync(0xffffffffu, outside_known ? unsigned(c) : big);
  const unsigned cmax = __reduce_max_sync(0xffffffffu, outside_known ? unsigned(c) : 0u);
  if (threadIdx.x == 0) {
    atomicMin(&box[0], static_cast<long long>(rmin));
    atomicMax(&box[1], static_cast<long long>(rmax));
    atomicMin(&box[2], static_cast<long long>(cmin));
    atomicMax(&box[3], static_cast<long long>(cmax));
  }
}

}  // namespace

void lava_step_cuda(Context& ctx, const LavaGridView& g, const LavaEmission& emission, const LavaBox& region,
                    const LavaBox& known, const LavaConstants& k, long long* device_box) {
  const auto stream = static_cast<cudaStream_t>(ctx.device().stream());
  if (emission.count > 0) {
    lava_emit_kernel<<<1, 1, 0, stream>>>(g, emission);
    cuda::check_launch("lava_emit_kernel");
  }
  if (region.empty()) return;
  const dim3 block(kBlockCols, kBlockRows);
  const dim3 grid(static_cast<unsigned>((region.c1 - region.c0 + kBlockCols) / kBlockCols),
                  static_cast<unsigned>((region.r1 - region.r0 + kBlockRows) / kBlockRows));
  lava_flows_kernel<<<grid, block, 0, stream>>>(g, region, k);
  cuda::check_launch("lava_flows_kernel");
  lava_balance_kernel<<<grid, block, 0, stream>>>(g, region, known, k, device_box);
  cuda::check_launch("lava_balance_kernel");
}

}  // namespace opsplit::ca
