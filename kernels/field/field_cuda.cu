// CUDA kernels and launchers of the field operations. The numerics are those of
// diffusion.cuh / boundary.cuh / layout.cuh / reduce.cuh, shared with the CPU.
#include <cuda_runtime.h>

#include <vector>

#include "core/buffer.hpp"
#include "field/launch.hpp"
#include "field/layout.cuh"
#include "field/reduce.cuh"

namespace opsplit::field {

namespace {

cudaStream_t stream_of(const Context& ctx) { return static_cast<cudaStream_t>(ctx.device().stream()); }

unsigned blocks_for(int64_t work, int threads) { return static_cast<unsigned>((work + threads - 1) / threads); }

// ---- ghosts -------------------------------------------------------------------
template <class T>
__global__ void fill_ghosts_kernel(T* data, Grid grid, int axis, const FaceCondition* bc, int64_t u_lo, int64_t u_len,
                                   int64_t v_lo, int64_t v_len) {
  const int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  const int64_t per_comp = 2 * u_len * v_len;
  if (t >= per_comp * grid.ncomp) return;
  const int c = static_cast<int>(t / per_comp);
  const int64_t r = t - c * per_comp;
  const int side = static_cast<int>(r / (u_len * v_len));
  const int64_t uv = r % (u_len * v_len);
  fill_ghost(data + c * grid.comp_stride, grid, axis, side, u_lo + uv % u_len, v_lo + uv / u_len,
             bc[c * 6 + 2 * axis + side]);
}

template <class T>
void fill_ghosts(const Context& ctx, T* data, const Grid& grid, const FaceCondition* bc) {
  for (int axis = 0; axis < 3; ++axis) {
    if (!grid.active(axis)) continue;
    int ua, va;
    int64_t u_lo, u_len, v_lo, v_len;
    ghost_sweep(grid, axis, &ua, &va, &u_lo, &u_len, &v_lo, &v_len);
    const int64_t work = grid.ncomp * 2 * u_len * v_len;
    fill_ghosts_kernel<<<blocks_for(work, 256), 256, 0, stream_of(ctx)>>>(data, grid, axis, bc, u_lo, u_len, v_lo,
                                                                         v_len);
    cuda::check_launch("fill_ghosts_kernel");
  }
}

// ---- diffusion ----------------------------------------------------------------
// 3D grids: a block owns a TX x TY column of cells and marches it through a chunk of
// z, keeping planes k-1, k, k+1 (with a one-cell halo) in a shared-memory ring, so each
// value is read from device memory about once per step.
constexpr int TX = 32, TY = 8, ZCHUNK = 64;

template <class T>
struct TileAt {
  const T* plane[3];  // k-1, k, k+1
  int at;             // this thread's offset in a plane
  __device__ T operator()(int dx, int dy, int dz) const { return plane[dz + 1][at + dy * (TX + 2) + dx]; }
};

template <int Points, class T>
__global__ void __launch_bounds__(TX* TY) diffuse_3d_kernel(const T* __restrict__ in, T* __restrict__ out, Grid grid,
                                                             const DiffusionWeights<T>* __restrict__ weights,
                                                             int zchunks) {
  __shared__ T ring[3][(TY + 2) * (TX + 2)];
  const int c = blockIdx.z / zchunks;
  const int64_t k0 = static_cast<int64_t>(blockIdx.z % zchunks) * ZCHUNK;
  const int64_t k1 = min(k0 + ZCHUNK, grid.n[2]);
  const int64_t i0 = static_cast<int64_t>(blockIdx.x) * TX, j0 = static_cast<int64_t>(blockIdx.y) * TY;
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TX + tx;
  const int64_t i = i0 + tx, j = j0 + ty;
  const bool inside = i < grid.n[0] && j < grid.n[1];
  const DiffusionWeights<T> w = weights[c];
  const T* comp_in = in + c * grid.comp_stride;

  // Loads the halo tile of plane k into ring slot s (cells i0-1..i0+TX, j0-1..j0+TY).
  auto load = [&](int s, int64_t k) {
    for (int e = tid; e < (TY + 2) * (TX + 2); e += TX * TY) {
      const int ex = e % (TX + 2), ey = e / (TX + 2);
      const int64_t gi = i0 - 1 + ex, gj = j0 - 1 + ey;
      if (gi <= grid.n[0] && gj <= grid.n[1]) ring[s][e] = comp_in[grid.index(0, gi, gj, k)];
    }
  };
  load(0, k0 - 1);
  load(1, k0);
  int below = 0, here = 1, above = 2;
  for (int64_t k = k0; k < k1; ++k) {
    load(above, k + 1);
    __syncthreads();
    if (inside) {
      TileAt<T> at{{ring[below], ring[here], ring[above]}, (ty + 1) * (TX + 2) + tx + 1};
      out[grid.index(c, i, j, k)] = diffusion_update<Points>(at, w);
    }
    __syncthreads();
    const int oldest = below;
    below = here;
    here = above;
    above = oldest;
  }
}

// 1D and 2D grids (an axis of length 1 has neighbour offset 0): one thread per cell.
template <class T>
struct GlobalAt {
  const T* p;
  int64_t sx, sy, sz;
  __device__ T operator()(int dx, int dy, int dz) const { return p[dx * sx + dy * sy + dz * sz]; }
};

template <int Points, class T>
__global__ void diffuse_flat_kernel(const T* __restrict__ in, T* __restrict__ out, Grid grid,
                                    const DiffusionWeights<T>* __restrict__ weights) {
  const int64_t t = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (t >= grid.cells() * grid.ncomp) return;
  int c;
  int64_t i, j, k;
  host_position(grid, 0, t, &c, &i, &j, &k);
  const int64_t at = grid.index(c, i, j, k);
  out[at] = diffusion_update<Points>(GlobalAt<T>{in + at, grid.step(0), grid.step(1), grid.step(2)}, weights[c]);
}

template <int Points, class T>
void diffuse_points(const Context& ctx, const T* in, T* out, const Grid& grid, const DiffusionWeights<T>* weights) {
  if (grid.active(0) && grid.active(1) && grid.active(2)) {
    const int zchunks = static_cast<int>((grid.n[2] + ZCHUNK - 1) / ZCHUNK);
    dim3 blocks(blocks_for(grid.n[0], TX), blocks_for(grid.n[1], TY), static_cast<unsigned>(zchunks * grid.ncomp));
    diffuse_3d_kernel<Points, T><<<blocks, dim3(TX, TY), 0, stream_of(ctx)>>>(in, out, grid, weights, zchunks);
    cuda::check_launch("diffuse_3d_kernel");
  } else {
    diffuse_flat_kernel<Points, T>
        <<<blocks_for(grid.cells() * grid.ncomp, 256), 256, 0, stream_of(ctx)>>>(in, out, grid, weights);
    cuda::check_launch("diffuse_flat_kernel");
  }
}

template <class T>
void diffuse(const Context& ctx, const T* in, T* out, const Grid& grid, int points, const DiffusionWeights<T>* weights) {
  if (points == 19)
    diffuse_points<19>(ctx, in, out, grid, weights);
  else
    diffuse_points<7>(ctx, in, out, grid, weights);
}

// ---- layouts and sums -----------------------------------------------------------
template <class T>
__global__ void pack_kernel(const T* data, Grid grid, T* host_layout, int layout) {
  const int64_t h = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (h >= grid.cells() * grid.ncomp) return;
  int c;
  int64_t i, j, k;
  host_position(grid, layout, h, &c, &i, &j, &k);
  host_layout[h] = data[grid.index(c, i, j, k)];
}

template <class T>
__global__ void unpack_kernel(const T* host_layout, Grid grid, T* data, int layout) {
  const int64_t h = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (h >= grid.cells() * grid.ncomp) return;
  int c;
  int64_t i, j, k;
  host_position(grid, layout, h, &c, &i, &j, &k);
  data[grid.index(c, i, j, k)] = host_layout[h];
}

template <class T>
void pack(const Context& ctx, const T* data, const Grid& grid, T* host_layout, int layout) {
  pack_kernel<<<blocks_for(grid.cells() * grid.ncomp, 256), 256, 0, stream_of(ctx)>>>(data, grid, host_layout, layout);
  cuda::check_launch("pack_kernel");
}

template <class T>
void unpack(const Context& ctx, const T* host_layout, const Grid& grid, T* data, int layout) {
  unpack_kernel<<<blocks_for(grid.cells() * grid.ncomp, 256), 256, 0, stream_of(ctx)>>>(host_layout, grid, data,
                                                                                      layout);
  cuda::check_launch("unpack_kernel");
}

template <class T>
__global__ void row_sums_kernel(const T* data, Grid grid, int comp, double* sums) {
  const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
  if (row < grid.n[1] * grid.n[2]) sums[row] = row_sum(data, grid, comp, row);
}

template <class T>
std::vector<double> row_sums(const Context& ctx, const T* data, const Grid& grid, int comp) {
  const int64_t rows = grid.n[1] * grid.n[2];
  std::vector<double> sums(static_cast<size_t>(rows));
  Buffer device_sums(const_cast<Context&>(ctx), sums.size() * sizeof(double));
  row_sums_kernel<<<blocks_for(rows, 128), 128, 0, stream_of(ctx)>>>(data, grid, comp, device_sums.as<double>());
  cuda::check_launch("row_sums_kernel");
  ctx.device().copy_to_host(sums.data(), device_sums.data(), device_sums.bytes());
  return sums;
}

}  // namespace

template <class T>
const Launchers<T>& cuda_launchers() {
  static const Launchers<T> table{fill_ghosts<T>, diffuse<T>, pack<T>, unpack<T>, row_sums<T>};
  return table;
}

template const Launchers<float>& cuda_launchers<float>();
template const Launchers<double>& cuda_launchers<double>();

}  // namespace opsplit::field
