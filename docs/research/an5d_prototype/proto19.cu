// Research prototype (not built by the project): K explicit 19-point diffusion steps a
// pass with the intermediate levels in registers (the AN5D form of the library's 7-point
// diffuse_cross_steps_kernel, extended to the 19-point stencil), timed alone at n^3
// NOFLUX on one GPU against the device-to-device copy and a one-step-a-pass baseline,
// each checked bit for bit against K naive steps of the library's diffusion_update<19>.
// Design: PROTO19.md. Build where nvcc is, from the repository root (a configured build/):
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DOPSPLIT_HAVE_CUDA=1 \
//     -Iinclude -Ibuild/include -Isrc -Ikernels -Xptxas -v \
//     docs/research/an5d_prototype/proto19.cu -o proto19
// and run ./proto19 [n] (n = 512 by default).
#include "field/field_cuda.cuh"
#include "harness.cuh"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <vector>

using namespace opsplit::field;

// stencil_sum<19> + diffusion_update<19> in the same operation order, from the per-plane
// partial sums: sx = at(-1,0,q) + at(1,0,q), sy = at(0,-1,q) + at(0,1,q) (q = the plane),
// cb/ca the centre column's values below/above, sxym/sxyp the sx of rows y-1/y+1 of the
// centre plane, sxb/sxa and syb/sya the sx and sy of the planes below/above.
template <class T>
__device__ __forceinline__ T update19(T c, T cb, T ca, T sx, T sy, T sxym, T sxyp, T sxb, T sxa, T syb, T sya,
                                      const DiffusionWeights<T>& w) {
  const T c2 = c + c;
  T r = w.face[0] * (sx - c2) + w.face[1] * (sy - c2) + w.face[2] * ((cb + ca) - c2);
  const T c4 = c2 + c2;
  r += w.edge[0] * ((sxym + sxyp) - c4);
  r += w.edge[1] * ((sxb + sxa) - c4);
  r += w.edge[2] * ((syb + sya) - c4);
  return c + r;
}

// ---- the reference: one thread a cell, the library's update, neighbours mirrored --------
template <class T>
__global__ void naive_step(const T* in, T* out, Grid g, DiffusionWeights<T> w) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (i >= g.n[0]) return;
  // (distance 1: the mirror fold is the clamp)
  auto at = [&](int dx, int dy, int dz) {
    int64_t x = i + dx, y = j + dy, z = k + dz;
    x = x < 0 ? 0 : x >= g.n[0] ? g.n[0] - 1 : x;
    y = y < 0 ? 0 : y >= g.n[1] ? g.n[1] - 1 : y;
    z = z < 0 ? 0 : z >= g.n[2] ? g.n[2] - 1 : z;
    return in[g.index(0, x, y, z)];
  };
  out[g.index(0, i, j, k)] = diffusion_update<19>(at, w);
}

// ---- the baseline: one step a pass, a thread a column of ZC planes, x-y neighbours
// through L1, a queue of three planes' (c, sx, sy) in registers ---------------------------
constexpr int kL1Chunk = 32;
template <class T>
__global__ void __launch_bounds__(256) l1_step(const T* __restrict__ in, T* __restrict__ out, Grid g,
                                                DiffusionWeights<T> w) {
  const int i = blockIdx.x * 32 + threadIdx.x, j = blockIdx.y * 8 + threadIdx.y, z0 = blockIdx.z * kL1Chunk;
  const int nx = int(g.n[0]), ny = int(g.n[1]), nz = int(g.n[2]);
  if (i >= nx || j >= ny) return;
  const int z1 = min(nz, z0 + kL1Chunk);
  const int sy = int(g.stride[1]);
  const int64_t sz = g.stride[2];
  const int xm = (i > 0 ? -1 : 0), xp = (i < nx - 1 ? 1 : 0), ym = (j > 0 ? -sy : 0), yp = (j < ny - 1 ? sy : 0);
  const T* base = in + (j + g.lead[1]) * sy + (i + g.lead[0]) + g.lead[2] * sz;
  T* obase = out + (j + g.lead[1]) * sy + (i + g.lead[0]) + g.lead[2] * sz;
  T c[3], sxq[3], syq[3], sxm = 0, sxp = 0;
  auto load = [&](int z, int slot, bool rows) {
    const T* p = base + int64_t(z < 0 ? 0 : z >= nz ? nz - 1 : z) * sz;
    c[slot] = p[0];
    sxq[slot] = p[xm] + p[xp];
    syq[slot] = p[ym] + p[yp];
    if (rows) {
      sxm = p[ym + xm] + p[ym + xp];
      sxp = p[yp + xm] + p[yp + xp];
    }
  };
  load(z0 - 1, 0, false);
  load(z0, 1, true);
#pragma unroll 3
  for (int z = z0; z < z1; ++z) {
    const T sxm_p = sxm, sxp_p = sxp;
    load(z + 1, 2, true);
    obase[int64_t(z) * sz] = update19(c[1], c[0], c[2], sxq[1], syq[1], sxm_p, sxp_p, sxq[0], sxq[2], syq[0], syq[2], w);
    c[0] = c[1], c[1] = c[2], sxq[0] = sxq[1], sxq[1] = sxq[2], syq[0] = syq[1], syq[1] = syq[2];
  }
}

// ---- the fused pass ----------------------------------------------------------------------
// A block of 32 x BY threads (a thread row a warp), a thread RX adjacent x cells by RY
// rows; the tile TW x TH, the output the tile less MX (K in whole threads' cells) a side
// along x and K along y. Level s makes plane t - 2s in round t.
template <class T, int K_, int ThreadRows, int RowsAThread, int CellsAcross>
struct Tile19 {
  static constexpr int K = K_, BY = ThreadRows, RY = RowsAThread, RX = CellsAcross;
  static constexpr int TW = 32 * RX, TH = BY * RY;
  static constexpr int MX = (K + RX - 1) / RX * RX;
  static constexpr int OW = TW - 2 * MX, OH = TH - 2 * K;
  // The first and last cell rows of each thread row, between a slot each side that the
  // tile's edge rows read and nothing writes.
  static constexpr int PLANE = (BY + 2) * 2 * TW;
  // [parity][level 0 .. K-1][kind: c, sx][PLANE]
  static constexpr int SHARED_BYTES = 2 * K * 2 * PLANE * static_cast<int>(sizeof(T));
};

template <class T, class S>
__global__ void __launch_bounds__(32 * S::BY, 1)
    fused19(const T* __restrict__ in, T* __restrict__ out, Grid grid, DiffusionWeights<T> w) {
  constexpr int K = S::K, RX = S::RX, RY = S::RY, BY = S::BY, TW = S::TW, TH = S::TH, PLANE = S::PLANE;
  constexpr int MX = S::MX, OW = S::OW, OH = S::OH;
  constexpr unsigned kLanes = 0xffffffffu;
  extern __shared__ __align__(16) unsigned char pass_shared[];
  T* const edges = reinterpret_cast<T*>(pass_shared);
  const int tx = threadIdx.x, ty = threadIdx.y, cx = tx * RX, cy = ty * RY;
  // All of it zero (the slots beyond the tile's first and last rows, which nothing
  // writes, and the buffers the first rounds read before anything is written: values
  // that reach only the warm-up and the ring thrown away, but finite).
  for (int i = ty * 32 + tx; i < 4 * K * PLANE; i += 32 * BY) edges[i] = T(0);
  const int64_t n0 = grid.n[0], n1 = grid.n[1];
  const int nz = static_cast<int>(grid.n[2]), lead_z = static_cast<int>(grid.lead[2]);
  const int64_t plane_stride = grid.stride[2];
  const int64_t tiles_x = (n0 + OW - 1) / OW, tiles_y = (n1 + OH - 1) / OH, tiles = tiles_x * tiles_y;
  const int64_t work = tiles * nz;
  const int64_t share = (work + gridDim.x - 1) / gridDim.x;
  const int64_t begin = min(work, blockIdx.x * share), end = min(work, begin + share);

  for (int64_t item = begin; item < end;) {
    const int64_t tile = item / nz;
    const int z0 = static_cast<int>(item % nz), z1 = static_cast<int>(min(int64_t(nz), z0 + (end - item)));
    item += z1 - z0;
    const int64_t x0 = (tile % tiles_x) * OW - MX, y0 = (tile / tiles_x) * OH - K;
    int col[RX], row[RY];
    unsigned owned = 0;
#pragma unroll
    for (int rx = 0; rx < RX; ++rx)
      col[rx] = static_cast<int>(cell_read(x0 + cx + rx, n0, kReadMirrored) + grid.lead[0]);
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const int64_t y = y0 + cy + r;
      row[r] = static_cast<int>((cell_read(y, n1, kReadMirrored) + grid.lead[1]) * grid.stride[1]);
#pragma unroll
      for (int rx = 0; rx < RX; ++rx)
        if (cx + rx >= MX && cx + rx < TW - MX && x0 + cx + rx < n0 && cy + r >= K && cy + r < TH - K && y < n1)
          owned |= 1u << (r * RX + rx);
    }
    const bool whole = __all_sync(kLanes, col[RX - 1] == col[0] + RX - 1 && col[0] % RX == 0);
    bool pairs = true;
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const unsigned mine = owned >> (r * RX) & ((1u << RX) - 1);
      pairs = pairs && (mine == 0 || mine == (1u << RX) - 1);
    }
    const bool rows_whole = whole && __all_sync(kLanes, pairs);
    auto plane_at = [&](int z) { return static_cast<int64_t>(cell_read(z, nz, kReadMirrored) + lead_z) * plane_stride; };

    // Level j's last three planes, a ring: the plane level j makes in round t goes to slot
    // (t - first) % 3, so with the round loop unrolled by three every slot is a constant.
    T c[K][3][RY][RX], sx[K][3][RY][RX], sy[K][3][RY][RX], next[RY][RX];
#pragma unroll
    for (int j = 0; j < K; ++j)
#pragma unroll
      for (int i = 0; i < 3; ++i)
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
          for (int rx = 0; rx < RX; ++rx) c[j][i][r][rx] = sx[j][i][r][rx] = sy[j][i][r][rx] = T(0);
    auto load = [&](int z) {
      const T* plane = in + plane_at(z);
      if (whole) {
#pragma unroll
        for (int r = 0; r < RY; ++r) {
          const Cells<T, RX> v = *reinterpret_cast<const Cells<T, RX>*>(plane + (row[r] + col[0]));
#pragma unroll
          for (int rx = 0; rx < RX; ++rx) next[r][rx] = v.v[rx];
        }
      } else {
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
          for (int rx = 0; rx < RX; ++rx) next[r][rx] = plane[row[r] + col[rx]];
      }
    };
    auto row_above = [&](const T* e) { return *reinterpret_cast<const Cells<T, RX>*>(e + (ty * 2 + 1) * TW + cx); };
    auto row_below = [&](const T* e) { return *reinterpret_cast<const Cells<T, RX>*>(e + ((ty + 2) * 2) * TW + cx); };
    auto put_rows = [&](const T(&v)[RY][RX], T* e) {
      *reinterpret_cast<Cells<T, RX>*>(e + ((ty + 1) * 2) * TW + cx) = cells_of(v[0]);
      *reinterpret_cast<Cells<T, RX>*>(e + ((ty + 1) * 2 + 1) * TW + cx) = cells_of(v[RY - 1]);
    };

    auto round = [&](auto phase_constant, int t) {
      constexpr int o = decltype(phase_constant)::value;  // the slot of the plane made in round t - 3 (and t)
      constexpr int m = (o + 1) % 3, nw = (o + 2) % 3;    // rounds t - 2, t - 1
      const T* rd = edges + ((t + 1) & 1) * (2 * K * PLANE);  // written in round t - 1
      T* wr = edges + (t & 1) * (2 * K * PLANE);
      // Levels K .. 1: level s - 1's plane of round t - 1 gets its sy, then level s makes
      // plane t - 2s from level s - 1's planes of rounds t - 3, t - 2, t - 1, into the slot
      // of the first (which nothing reads any more).
      static_for<0, K>([&](auto i_constant) {
        constexpr int s = K - decltype(i_constant)::value, j = s - 1;
        const T* ce = rd + (2 * j) * PLANE;
        const T* xe = rd + (2 * j + 1) * PLANE;
        {
          const Cells<T, RX> a = row_above(ce), b = row_below(ce);
#pragma unroll
          for (int r = 0; r < RY; ++r)
#pragma unroll
            for (int rx = 0; rx < RX; ++rx)
              sy[j][nw][r][rx] = (r > 0 ? c[j][nw][r - 1][rx] : a.v[rx]) + (r < RY - 1 ? c[j][nw][r + 1][rx] : b.v[rx]);
        }
        const Cells<T, RX> xa = row_above(xe), xb = row_below(xe);
        T made[RY][RX];
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
          for (int rx = 0; rx < RX; ++rx)
            made[r][rx] = update19(c[j][m][r][rx], c[j][o][r][rx], c[j][nw][r][rx], sx[j][m][r][rx], sy[j][m][r][rx],
                                   r > 0 ? sx[j][m][r - 1][rx] : xa.v[rx], r < RY - 1 ? sx[j][m][r + 1][rx] : xb.v[rx],
                                   sx[j][o][r][rx], sx[j][nw][r][rx], sy[j][o][r][rx], sy[j][nw][r][rx], w);
        if constexpr (s < K) {
#pragma unroll
          for (int r = 0; r < RY; ++r)
#pragma unroll
            for (int rx = 0; rx < RX; ++rx) c[s][o][r][rx] = made[r][rx];
        } else {
          const int p = t - 2 * K;
          if (p >= z0 && p < z1) {
            T* plane = out + plane_at(p);
            if (rows_whole) {
#pragma unroll
              for (int r = 0; r < RY; ++r)
                if (owned >> (r * RX) & 1u)
                  *reinterpret_cast<Cells<T, RX>*>(plane + (row[r] + col[0])) = cells_of(made[r]);
            } else {
#pragma unroll
              for (int r = 0; r < RY; ++r)
#pragma unroll
                for (int rx = 0; rx < RX; ++rx)
                  if (owned >> (r * RX + rx) & 1u) plane[row[r] + col[rx]] = made[r][rx];
            }
          }
        }
      });
      // Level 0 takes input plane t (loaded a round ahead) and loads plane t + 1.
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int rx = 0; rx < RX; ++rx) c[0][o][r][rx] = next[r][rx];
      load(t + 1);
      // Every level's new plane: its sx (x neighbours across threads by shuffle), its
      // edge rows for the next round's sy, and the sx edge rows of the plane before.
      static_for<0, K>([&](auto j_constant) {
        constexpr int j = decltype(j_constant)::value;
#pragma unroll
        for (int r = 0; r < RY; ++r) {
          const T x_before = __shfl_up_sync(kLanes, c[j][o][r][RX - 1], 1);
          const T x_after = __shfl_down_sync(kLanes, c[j][o][r][0], 1);
#pragma unroll
          for (int rx = 0; rx < RX; ++rx)
            sx[j][o][r][rx] = (rx > 0 ? c[j][o][r][rx - 1] : x_before) + (rx < RX - 1 ? c[j][o][r][rx + 1] : x_after);
        }
        put_rows(c[j][o], wr + (2 * j) * PLANE);
        put_rows(sx[j][nw], wr + (2 * j + 1) * PLANE);
      });
    };

    __syncthreads();  // (the previous segment's last reads of shared memory)
    const int first = z0 - K, t_end = z1 + 2 * K;
    load(first);
    for (int t = first; t < t_end; t += 3) {
      round(std::integral_constant<int, 0>{}, t);
      __syncthreads();
      if (t + 1 < t_end) {
        round(std::integral_constant<int, 1>{}, t + 1);
        __syncthreads();
      }
      if (t + 2 < t_end) {
        round(std::integral_constant<int, 2>{}, t + 2);
        __syncthreads();
      }
    }
  }
}

// ---- harness -------------------------------------------------------------------------
template <class T>
__global__ void init(T* d, Grid g) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (i >= g.n[0]) return;
  uint32_t h = uint32_t(i * 73856093u) ^ uint32_t(j * 19349663u) ^ uint32_t(k * 83492791u);
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  d[g.index(0, i, j, k)] = T(0.25) + T(0.75) * T(h & 0xffffff) / T(0x1000000);
}

template <class T>
struct Buffers {
  Grid g;
  T *in, *out, *ref, *tmp;
  DiffusionWeights<T> w;
  std::vector<T> ref_host, got_host;
  int ref_steps = -1;  // ref_host holds this many naive steps of `in`
};

double copy_gbps = 0;

template <class T>
int64_t compare(const Buffers<T>& b) {
  const Grid& g = b.g;
  int64_t bad = 0;
  for (int64_t k = 0; k < g.n[2]; ++k)
    for (int64_t j = 0; j < g.n[1]; ++j) {
      const int64_t at = g.index(0, 0, j, k);
      if (memcmp(&b.ref_host[at], &b.got_host[at], size_t(g.n[0]) * sizeof(T)) == 0) continue;
      for (int64_t i = 0; i < g.n[0]; ++i) bad += memcmp(&b.ref_host[at + i], &b.got_host[at + i], sizeof(T)) != 0;
    }
  return bad;
}

// ref_host = `steps` naive steps of b.in (re-used when the count is the same).
template <class T>
void reference(Buffers<T>& b, int steps) {
  if (b.ref_steps == steps) return;
  const Grid& g = b.g;
  dim3 nb((g.n[0] + 127) / 128, g.n[1], g.n[2]);
  const T* src = b.in;
  for (int s = 0; s < steps; ++s) {
    T* dst = s % 2 == 0 ? b.ref : b.tmp;
    naive_step<T><<<nb, 128>>>(src, dst, g, b.w);
    src = dst;
  }
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(b.ref_host.data(), src, size_t(g.comp_stride) * sizeof(T), cudaMemcpyDeviceToHost));
  b.ref_steps = steps;
}

template <class T>
void report(const char* name, const char* shape, int K, const cudaFuncAttributes& attr, int smem, int per_sm, double t,
            int64_t bad, const Grid& g) {
  const double cells = double(g.n[0]) * g.n[1] * g.n[2];
  const double eff = 2.0 * cells * sizeof(T) * K / t / 1e9;
  printf("%-3s %-22s K=%d regs=%3d local=%4zu smemKB=%3d blk/SM=%d  %7.3f ms  %7.1f Gcell-steps/s  eff %6.0f GB/s  /copy %.3f  bad %lld\n",
         sizeof(T) == 4 ? "f32" : "f64", name, K, attr.numRegs, attr.localSizeBytes, smem / 1024, per_sm, t * 1e3,
         cells * K / t / 1e9, eff, eff / copy_gbps, (long long)bad);
  (void)shape;
  fflush(stdout);
}

template <class T>
void baseline(Buffers<T>& b) {
  reference(b, 1);
  const Grid& g = b.g;
  dim3 nb(unsigned((g.n[0] + 31) / 32), unsigned((g.n[1] + 7) / 8), unsigned((g.n[2] + kL1Chunk - 1) / kL1Chunk));
  auto launch = [&] { l1_step<T><<<nb, dim3(32, 8)>>>(b.in, b.out, g, b.w); };
  CK(cudaMemset(b.out, 0xff, size_t(g.comp_stride) * sizeof(T)));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(b.got_host.data(), b.out, size_t(g.comp_stride) * sizeof(T), cudaMemcpyDeviceToHost));
  const int64_t bad = compare(b);
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, l1_step<T>));
  int per_sm = 0;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, l1_step<T>, 256, 0));
  report<T>("single l1 column", "", 1, attr, 0, per_sm, time_median(launch), bad, g);
}

template <class T, int K, int BY, int RY, int RX>
void fused(Buffers<T>& b) {
  using S = Tile19<T, K, BY, RY, RX>;
  auto kernel = fused19<T, S>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::SHARED_BYTES));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int sms = 0, per_sm = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * BY, S::SHARED_BYTES));
  reference(b, K);
  const Grid& g = b.g;
  const int64_t work = g.n[2] * ((g.n[0] + S::OW - 1) / S::OW) * ((g.n[1] + S::OH - 1) / S::OH);
  const unsigned blocks = unsigned(std::min<int64_t>(work, int64_t(sms) * std::max(per_sm, 1)));
  auto launch = [&] { kernel<<<blocks, dim3(32, BY), S::SHARED_BYTES>>>(b.in, b.out, g, b.w); };
  CK(cudaMemset(b.out, 0xff, size_t(g.comp_stride) * sizeof(T)));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(b.got_host.data(), b.out, size_t(g.comp_stride) * sizeof(T), cudaMemcpyDeviceToHost));
  const int64_t bad = compare(b);
  char name[64];
  snprintf(name, sizeof name, "fused %dx%d RX%dRY%d %dx%d", 32, BY, RX, RY, S::OW, S::OH);
  report<T>(name, "", K, attr, S::SHARED_BYTES, per_sm, time_median(launch), bad, g);
}

template <class T>
Buffers<T> buffers(int64_t n) {
  Buffers<T> b;
  b.g = Grid::make(n, n, n, 1, 1, 32 / sizeof(T));
  const size_t bytes = size_t(b.g.comp_stride) * sizeof(T);
  CK(cudaMalloc(&b.in, bytes));
  CK(cudaMalloc(&b.out, bytes));
  CK(cudaMalloc(&b.ref, bytes));
  CK(cudaMalloc(&b.tmp, bytes));
  CK(cudaMemset(b.in, 0, bytes));
  b.ref_host.resize(b.g.comp_stride);
  b.got_host.resize(b.g.comp_stride);
  // The library's 19-point weights for h = 1, times D dt = 0.9 of the stable limit.
  const double h[3] = {1, 1, 1};
  const bool active[3] = {true, true, true};
  const StencilWeights sw = stencil_weights(19, h, active);
  const double ddt = 0.9 * 2.0 / spectral_radius(19, h, active);
  for (int a = 0; a < 3; ++a) {
    b.w.face[a] = static_cast<T>(sw.face[a] * ddt);
    b.w.edge[a] = static_cast<T>(sw.edge[a] * ddt);
  }
  dim3 nb(unsigned((n + 127) / 128), unsigned(n), unsigned(n));
  init<T><<<nb, 128>>>(b.in, b.g);
  CK(cudaDeviceSynchronize());
  return b;
}
template <class T>
void release(Buffers<T>& b) {
  cudaFree(b.in);
  cudaFree(b.out);
  cudaFree(b.ref);
  cudaFree(b.tmp);
}

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? atoll(argv[1]) : 512;
  copy_gbps = copy_bandwidth(size_t(1) << 30);
  printf("n %lld copy %.0f GB/s (dt = 0.9 of the 19-point limit; /copy = 2 cells sizeof(T) K / time / copy)\n",
         (long long)n, copy_gbps);
  {
    auto b = buffers<float>(n);
    baseline(b);
    fused<float, 2, 12, 2, 2>(b);
    fused<float, 2, 8, 4, 2>(b);
    fused<float, 3, 12, 2, 2>(b);
    fused<float, 3, 12, 4, 1>(b);
    fused<float, 4, 12, 2, 2>(b);
    fused<float, 4, 8, 4, 1>(b);
    release(b);
  }
  {
    auto b = buffers<double>(n);
    baseline(b);
    fused<double, 2, 16, 2, 1>(b);
    fused<double, 2, 8, 4, 1>(b);
    fused<double, 3, 16, 2, 1>(b);
    fused<double, 3, 12, 2, 1>(b);
    fused<double, 4, 12, 2, 1>(b);
    fused<double, 4, 16, 1, 1>(b);
    release(b);
  }
  return 0;
}
