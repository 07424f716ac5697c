// Temporal-blocking prototype (AN5D form) for 7-point explicit diffusion on a 512^3 grid.
// Standalone research code: not part of the library.
//
// Layout: cell (i,j,k), i,j,k in [-1, N] (one ghost layer, held fixed: Dirichlet-like,
// ghosts never written), at index ((k+1)*(N+2) + (j+1))*PX + i + OX, PX = N + 2*OX,
// OX = 32 so that interior rows start 128-byte aligned. Cells outside [-1,N] in x
// (padding) are allocated but never used by an interior cell.
//
// Update (the prototype's own formula, every kernel the same expression in the same
// order, with explicit round-to-nearest intrinsics so that nothing is contracted
// differently):  u' = fma(wz, zm+zp, fma(wy, ym+yp, fma(wx, xm+xp, c0*u))).
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      fprintf(stderr, "CUDA error %s at %s:%d: %s\n", cudaGetErrorString(e_), __FILE__, \
              __LINE__, #x);                                                               \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

constexpr int OX = 32;

template <class T>
struct Wt {
  T c0, wx, wy, wz;
};

__device__ __forceinline__ float p_add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ float p_mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ float p_fma(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double p_add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ double p_mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ double p_fma(double a, double b, double c) { return __fma_rn(a, b, c); }

template <class T>
__device__ __forceinline__ T upd(T u, T xm, T xp, T ym, T yp, T zm, T zp, const Wt<T>& w) {
  T r = p_mul(w.c0, u);
  r = p_fma(w.wx, p_add(xm, xp), r);
  r = p_fma(w.wy, p_add(ym, yp), r);
  r = p_fma(w.wz, p_add(zm, zp), r);
  return r;
}

template <class T>
T upd_host(T u, T xm, T xp, T ym, T yp, T zm, T zp, const Wt<T>& w) {
  volatile T r = w.c0 * u;
  r = std::fma(w.wx, (T)(xm + xp), (T)r);
  r = std::fma(w.wy, (T)(ym + yp), (T)r);
  r = std::fma(w.wz, (T)(zm + zp), (T)r);
  return r;
}

struct Geo {
  int N, PX, PY;
  long long PS;  // plane stride
  long long total;
  __host__ __device__ long long idx(int i, int j, int k) const {
    return ((long long)(k + 1) * PY + (j + 1)) * PX + i + OX;
  }
};

template <class T, int RX>
struct Vec;
template <>
struct Vec<float, 1> {
  using type = float;
};
template <>
struct Vec<float, 2> {
  using type = float2;
};
template <>
struct Vec<float, 4> {
  using type = float4;
};
template <>
struct Vec<double, 1> {
  using type = double;
};
template <>
struct Vec<double, 2> {
  using type = double2;
};

template <class T, int RX>
__device__ __forceinline__ void vload(const T* p, T (&v)[RX]) {
  using V = typename Vec<T, RX>::type;
  V x = __ldg(reinterpret_cast<const V*>(p));
  memcpy(v, &x, sizeof(V));
}
template <class T, int RX>
__device__ __forceinline__ void vstore(T* p, const T (&v)[RX]) {
  using V = typename Vec<T, RX>::type;
  V x;
  memcpy(&x, v, sizeof(V));
  *reinterpret_cast<V*>(p) = x;
}

template <class T, int RX>
__device__ __forceinline__ void vload_sh(const T* p, T (&v)[RX]) {
  using V = typename Vec<T, RX>::type;
  V x = *reinterpret_cast<const V*>(p);
  memcpy(v, &x, sizeof(V));
}

// ---------------------------------------------------------------------------------------
// Fused kernel, AN5D form. Block BX x BY threads, each thread RX (adjacent, x) x RY
// (adjacent, y) cells; thread tile TW x TH = BX*RX x BY*RY, output tile = thread tile
// less P (x, K rounded up to RX for vector alignment) / K (y) a side. The block marches
// along z over the planes of its z chunk [z0, z1). Round t: level 0 takes plane t (loaded
// PD rounds ahead), level s (1..K) computes plane t-s from level s-1's register queue
// (planes t-s-1, t-s, t-s+1) and level s-1's plane t-s in shared memory (x-y neighbours),
// which was written in round t-1. Shared planes are double-buffered by round parity:
// one __syncthreads a round.
// SHX = false: the full plane of each level in shared memory, x and y neighbours from it
//   (the brief's form; RX = 1), y neighbours inside a thread's RY cells from registers.
// SHX = true: BX = 32 (a warp per thread row); x neighbours by warp shuffles (lanes 0
//   and 31 get garbage: they are in the redundant ring anyway), only the first and last
//   of a thread's RY rows go through shared memory.
template <class T, int K, int BX, int BY, int RX, int RY, bool SHX>
struct FusedCfg {
  static constexpr int TW = BX * RX, TH = BY * RY;
  static constexpr int P = (K + RX - 1) / RX * RX;
  static constexpr int OW = TW - 2 * P, OH = TH - 2 * K;
  static constexpr int NSLOT = RY == 1 ? 1 : 2;
  static constexpr int PLANE = SHX ? (BY + 2) * NSLOT * TW : (TH + 2) * (TW + 2);
  static constexpr size_t SMEM = (size_t)2 * K * PLANE * sizeof(T);
  static_assert(OW > 0 && OH > 0, "tile too small");
  static_assert(!SHX || BX == 32, "shuffle mode needs a warp per row");
  static_assert(SHX || RX == 1, "shared mode: RX = 1");
};

template <class T, int K, int BX, int BY, int RX, int RY, bool SHX, int PD, int MINB, bool FAST, int UNR>
__global__ void __launch_bounds__(BX* BY, MINB)
    fused_kernel(const T* __restrict__ in, T* __restrict__ out, Geo g, int zc, Wt<T> w) {
  using C = FusedCfg<T, K, BX, BY, RX, RY, SHX>;
  constexpr int TW = C::TW, TH = C::TH, P = C::P, OW = C::OW, OH = C::OH, NSLOT = C::NSLOT,
                PLANE = C::PLANE;
  extern __shared__ __align__(16) unsigned char smem_raw[];
  T* sh = reinterpret_cast<T*>(smem_raw);
  const int N = g.N;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int cx = tx * RX, cy = ty * RY;  // tile coordinates of the thread's first cell
  // Work: (tile, plane) pairs, tile-major. zc > 0: the grid is (x tiles, y tiles, z chunks),
  // one chunk a block. zc == 0: persistent, gridDim.x blocks, each a contiguous equal share
  // of all tiles' planes (at most a few segments, each with its own 2K warm-up rounds).
  const int ntx = (N + OW - 1) / OW, nty = (N + OH - 1) / OH;
  long long wbeg, wend;
  if (zc > 0) {
    const long long tile = (long long)blockIdx.y * ntx + blockIdx.x;
    wbeg = tile * N + (long long)blockIdx.z * zc;
    wend = tile * N + min(N, (int)(blockIdx.z + 1) * zc);
  } else {
    const long long total = (long long)ntx * nty * N, per = (total + gridDim.x - 1) / gridDim.x;
    wbeg = min(total, blockIdx.x * per);
    wend = min(total, wbeg + per);
  }
  for (long long wseg = wbeg; wseg < wend;) {
  const int tile = (int)(wseg / N), bx = tile % ntx, by = tile / ntx;
  const int z0 = (int)(wseg % N), z1 = (int)min((long long)N, z0 + (wend - wseg));
  wseg += z1 - z0;
  const int xo = bx * OW - P + cx;
  const int yo = by * OH - K + cy;

  bool xin[RX], yin[RY], wrow[RY];
  const bool wx = cx >= P && cx < TW - P && xo >= 0 && xo < N;  // RX-aligned: all or none
#pragma unroll
  for (int rx = 0; rx < RX; ++rx) xin[rx] = (unsigned)(xo + rx) < (unsigned)N;
  const int xs = min(max(xo, -OX), N + OX - RX);
  int rowoff[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) {
    const int y = yo + r;
    yin[r] = (unsigned)y < (unsigned)N;
    wrow[r] = wx && yin[r] && cy + r >= K && cy + r < TH - K;
    rowoff[r] = (int)g.idx(xs, min(max(y, -1), N), -1);
  }
  const int PS = (int)g.PS;

  auto load = [&](int z, T(&dst)[RY][RX]) {
    const T* p = in + (long long)(min(max(z, -1), N) + 1) * PS;
#pragma unroll
    for (int r = 0; r < RY; ++r) vload<T, RX>(p + rowoff[r], dst[r]);
  };
  // Shared addressing
  auto st_plane = [&](T* base, const T(&v)[RY][RX]) {
    if constexpr (SHX) {
      vstore<T, RX>(base + ((ty + 1) * NSLOT + 0) * TW + cx, v[0]);
      if constexpr (NSLOT == 2) vstore<T, RX>(base + ((ty + 1) * NSLOT + 1) * TW + cx, v[RY - 1]);
    } else {
#pragma unroll
      for (int r = 0; r < RY; ++r) base[(cy + r + 1) * (TW + 2) + tx + 1] = v[r][0];
    }
  };

  T q[K][3][RY][RX];
  T pre[PD][RY][RX];
#pragma unroll
  for (int l = 0; l < K; ++l)
#pragma unroll
    for (int a = 0; a < 3; ++a)
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int rx = 0; rx < RX; ++rx) q[l][a][r][rx] = T(0);
#pragma unroll
  for (int d = 0; d < PD; ++d) load(z0 - K + d, pre[d]);

  const int tend = z1 + K;
  const bool blk_in = bx * OW - P >= 0 && bx * OW - P + TW <= N && by * OH - K >= 0 && by * OH - K + TH <= N;
#define FUSED_ROUND(FASTR_) \
  { \
    T* rd = sh + (t & 1) * K * PLANE; \
    T* wr = sh + ((t + 1) & 1) * K * PLANE; \
 \
_Pragma("unroll") \
    for (int r = 0; r < RY; ++r) \
_Pragma("unroll") \
      for (int rx = 0; rx < RX; ++rx) { \
        q[0][0][r][rx] = q[0][1][r][rx]; \
        q[0][1][r][rx] = q[0][2][r][rx]; \
        q[0][2][r][rx] = pre[0][r][rx]; \
      } \
_Pragma("unroll") \
    for (int d = 0; d + 1 < PD; ++d) \
_Pragma("unroll") \
      for (int r = 0; r < RY; ++r) \
_Pragma("unroll") \
        for (int rx = 0; rx < RX; ++rx) pre[d][r][rx] = pre[d + 1][r][rx]; \
    load(t + PD, pre[PD - 1]); \
    st_plane(wr, q[0][2]); \
 \
_Pragma("unroll") \
    for (int s = 1; s <= K; ++s) { \
      const int p = t - s; \
      const bool zin = (unsigned)p < (unsigned)N; \
      const T* src = rd + (s - 1) * PLANE; \
      const auto& Q = q[s - 1]; \
      T nv[RY][RX]; \
_Pragma("unroll") \
      for (int r = 0; r < RY; ++r) { \
        T xl, xr; \
        if constexpr (SHX) { \
          xl = __shfl_up_sync(0xffffffffu, Q[1][r][RX - 1], 1); \
          xr = __shfl_down_sync(0xffffffffu, Q[1][r][0], 1); \
        } else { \
          xl = src[(cy + r + 1) * (TW + 2) + tx]; \
          xr = src[(cy + r + 1) * (TW + 2) + tx + 2]; \
        } \
        T yl[RX], yh[RX]; \
        if (r == 0) { \
          if constexpr (SHX) { \
 \
            vload_sh<T, RX>(src + (ty * NSLOT + (NSLOT - 1)) * TW + cx, yl); \
          } else { \
            yl[0] = src[(cy) * (TW + 2) + tx + 1]; \
          } \
        } else { \
_Pragma("unroll") \
          for (int rx = 0; rx < RX; ++rx) yl[rx] = Q[1][r - 1][rx]; \
        } \
        if (r == RY - 1) { \
          if constexpr (SHX) { \
            vload_sh<T, RX>(src + ((ty + 2) * NSLOT + 0) * TW + cx, yh); \
          } else { \
            yh[0] = src[(cy + RY + 1) * (TW + 2) + tx + 1]; \
          } \
        } else { \
_Pragma("unroll") \
          for (int rx = 0; rx < RX; ++rx) yh[rx] = Q[1][r + 1][rx]; \
        } \
_Pragma("unroll") \
        for (int rx = 0; rx < RX; ++rx) { \
          const T c = Q[1][r][rx]; \
          const T xm = rx > 0 ? Q[1][r][rx - 1] : xl; \
          const T xp = rx < RX - 1 ? Q[1][r][rx + 1] : xr; \
          const T v = upd(c, xm, xp, yl[rx], yh[rx], Q[0][r][rx], Q[2][r][rx], w); \
          nv[r][rx] = (FASTR_ || (zin && xin[rx] && yin[r])) ? v : c; \
        } \
      } \
      if (s < K) { \
_Pragma("unroll") \
        for (int r = 0; r < RY; ++r) \
_Pragma("unroll") \
          for (int rx = 0; rx < RX; ++rx) { \
            q[s][0][r][rx] = q[s][1][r][rx]; \
            q[s][1][r][rx] = q[s][2][r][rx]; \
            q[s][2][r][rx] = nv[r][rx]; \
          } \
        st_plane(wr + s * PLANE, nv); \
      } else if (p >= z0) { \
        T* o = out + (long long)(p + 1) * PS; \
_Pragma("unroll") \
        for (int r = 0; r < RY; ++r) \
          if (wrow[r]) vstore<T, RX>(o + rowoff[r], nv[r]); \
      } \
    } \
  }
#pragma unroll UNR
  for (int t = z0 - K; t < tend; ++t) {
    if (FAST && blk_in && t >= K && t <= N) FUSED_ROUND(true) else FUSED_ROUND(false)
    __syncthreads();
  }
#undef FUSED_ROUND
  }  // segments
}

// ---------------------------------------------------------------------------------------
// Single step, classic 2.5-D march: block 32 x BY threads, RX x RY cells a thread, tile
// (32*RX) x (BY*RY) aligned, z chunk. z neighbours in a register queue; x neighbours by
// shuffles, lanes 0 / 31 take the tile's x halo from their own (prefetched) loads; y
// neighbours inside the thread from registers, its first / last row's from a shared
// array of the thread rows' edge rows plus the tile's y halo rows (loaded by ty == 0 and
// ty == BY-1). Shared double-buffered: one __syncthreads a plane.
template <class T, int BY, int RX, int RY, int PD = 1>
__global__ void __launch_bounds__(32 * BY) march1_kernel(const T* __restrict__ in, T* __restrict__ out,
                                                           Geo g, int zc, Wt<T> w) {
  constexpr int TW = 32 * RX, TH = BY * RY, NSLOT = RY == 1 ? 1 : 2;
  constexpr int PLANE = (BY + 2) * NSLOT * TW;
  __shared__ __align__(16) T sh[2][PLANE];
  const int N = g.N;
  const int tx = threadIdx.x, ty = threadIdx.y, cx = tx * RX, cy = ty * RY;
  const int x = blockIdx.x * TW + cx, y = blockIdx.y * TH + cy;
  const int z0 = blockIdx.z * zc, z1 = min(N, z0 + zc);
  const int PS = (int)g.PS;
  int rowoff[RY];
#pragma unroll
  for (int r = 0; r < RY; ++r) rowoff[r] = (int)g.idx(x, y + r, -1);
  // halo: lane 0 -> x-1, lane 31 -> x+RX ; ty==0 -> row y-1 ; ty==BY-1 -> row y+RY
  const bool hxl = tx == 0, hxr = tx == 31;
  const int hxoff = hxl ? -1 : RX;
  const bool hyl = ty == 0, hyr = ty == BY - 1;
  const int hyoff = hyl ? (int)g.idx(x, y - 1, -1) : (int)g.idx(x, y + RY, -1);

  T q[3][RY][RX], pre[PD][RY][RX], hx[RY], phx[RY], hy[RX], phy[RX];
  auto loadc = [&](int z, T(&dst)[RY][RX]) {
    const T* p = in + (long long)min(z + 1, N + 1) * PS;
#pragma unroll
    for (int r = 0; r < RY; ++r) vload<T, RX>(p + rowoff[r], dst[r]);
  };
  auto loadh = [&](int z) {
    const T* p = in + (long long)(z + 1) * PS;
    if (hxl || hxr) {
#pragma unroll
      for (int r = 0; r < RY; ++r) phx[r] = __ldg(p + rowoff[r] + hxoff);
    }
    if (hyl || hyr) vload<T, RX>(p + hyoff, phy);
  };
  loadc(z0 - 1, q[1]);
  loadc(z0, q[2]);
#pragma unroll
  for (int d = 0; d < PD; ++d) loadc(z0 + 1 + d, pre[d]);
#pragma unroll
  for (int r = 0; r < RY; ++r) hx[r] = phx[r] = T(0);
#pragma unroll
  for (int rx = 0; rx < RX; ++rx) hy[rx] = phy[rx] = T(0);
  loadh(z0);
  for (int z = z0; z < z1; ++z) {
#pragma unroll
    for (int r = 0; r < RY; ++r)
#pragma unroll
      for (int rx = 0; rx < RX; ++rx) {
        q[0][r][rx] = q[1][r][rx];
        q[1][r][rx] = q[2][r][rx];
        q[2][r][rx] = pre[0][r][rx];
      }
#pragma unroll
    for (int d = 0; d + 1 < PD; ++d)
#pragma unroll
      for (int r = 0; r < RY; ++r)
#pragma unroll
        for (int rx = 0; rx < RX; ++rx) pre[d][r][rx] = pre[d + 1][r][rx];
#pragma unroll
    for (int r = 0; r < RY; ++r) hx[r] = phx[r];
#pragma unroll
    for (int rx = 0; rx < RX; ++rx) hy[rx] = phy[rx];
    loadc(z + 1 + PD, pre[PD - 1]);
    if (z + 1 < z1) loadh(z + 1);
    T* b = sh[z & 1];
    vstore<T, RX>(b + ((ty + 1) * NSLOT + 0) * TW + cx, q[1][0]);
    if constexpr (NSLOT == 2) vstore<T, RX>(b + ((ty + 1) * NSLOT + 1) * TW + cx, q[1][RY - 1]);
    if (hyl) vstore<T, RX>(b + (0 * NSLOT + (NSLOT - 1)) * TW + cx, hy);
    if (hyr) vstore<T, RX>(b + ((BY + 1) * NSLOT + 0) * TW + cx, hy);
    __syncthreads();
    T* o = out + (long long)(z + 1) * PS;
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      T xl = __shfl_up_sync(0xffffffffu, q[1][r][RX - 1], 1);
      T xr = __shfl_down_sync(0xffffffffu, q[1][r][0], 1);
      if (hxl) xl = hx[r];
      if (hxr) xr = hx[r];
      T yl[RX], yh[RX], nv[RX];
#pragma unroll
      for (int rx = 0; rx < RX; ++rx) {
        yl[rx] = r == 0 ? b[(ty * NSLOT + (NSLOT - 1)) * TW + cx + rx] : q[1][r - 1][rx];
        yh[rx] = r == RY - 1 ? b[((ty + 2) * NSLOT + 0) * TW + cx + rx] : q[1][r + 1][rx];
      }
#pragma unroll
      for (int rx = 0; rx < RX; ++rx) {
        const T xm = rx > 0 ? q[1][r][rx - 1] : xl;
        const T xp = rx < RX - 1 ? q[1][r][rx + 1] : xr;
        nv[rx] = upd(q[1][r][rx], xm, xp, yl[rx], yh[rx], q[0][r][rx], q[2][r][rx], w);
      }
      vstore<T, RX>(o + rowoff[r], nv);
    }
  }
}

// Single step, plain: a thread a column, z queue in registers, x/y neighbours through L1.
template <class T, int BY>
__global__ void __launch_bounds__(32 * BY) l1_kernel(const T* __restrict__ in, T* __restrict__ out, Geo g,
                                                       int zc, Wt<T> w) {
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * BY + threadIdx.y;
  const int z0 = blockIdx.z * zc, z1 = min(g.N, z0 + zc);
  const long long PS = g.PS;
  const T* p = in + g.idx(x, y, z0);
  T zm = __ldg(p - PS), c = __ldg(p), zp = __ldg(p + PS);
  T* o = out + g.idx(x, y, z0);
  for (int z = z0; z < z1; ++z) {
    const T nz = __ldg(p + (z + 2 <= g.N ? 2 : 1) * PS);  // plane N+1 does not exist
    o[0] = upd(c, __ldg(p - 1), __ldg(p + 1), __ldg(p - g.PX), __ldg(p + g.PX), zm, zp, w);
    zm = c;
    c = zp;
    zp = nz;
    p += PS;
    o += PS;
  }
}

// ---------------------------------------------------------------------------------------
template <class T>
__global__ void fill_kernel(T* a, long long n, unsigned seed) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x) {
    unsigned long long h = (unsigned long long)i * 0x9E3779B97F4A7C15ull + seed * 0xD1B54A32D192ED03ull;
    h ^= h >> 31;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    a[i] = T(0.25) + T(0.75) * T((double)(h >> 11) * (1.0 / 9007199254740992.0));  // (0.25, 1)
  }
}
__device__ __forceinline__ float nan_bits(float) { return __uint_as_float(0xffffffffu); }
__device__ __forceinline__ double nan_bits(double) { return __longlong_as_double(-1ll); }
template <class T>
__global__ void poison_kernel(T* a, Geo g) {  // interior to NaN (all bits set)
  const int i = blockIdx.x * blockDim.x + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (i < g.N) a[g.idx(i, j, k)] = nan_bits(T(0));
}
__device__ __forceinline__ unsigned bits(float v) { return __float_as_uint(v); }
__device__ __forceinline__ unsigned long long bits(double v) { return (unsigned long long)__double_as_longlong(v); }
template <class T>
__global__ void compare_kernel(const T* a, const T* b, Geo g, unsigned long long* bad) {
  // all cells in [-1,N]^3 (interior + ghosts)
  const int j = blockIdx.y - 1, k = blockIdx.z - 1;
  unsigned long long n = 0;
  for (int i = threadIdx.x - 1; i <= g.N; i += blockDim.x) {
    const long long id = g.idx(i, j, k);
    n += bits(a[id]) != bits(b[id]);
  }
  if (n) atomicAdd(bad, n);
}

// ---------------------------------------------------------------------------------------
struct Result {
  std::string type, name, block, tile;
  int K, regs, lmem, smem, bps, nzc;
  double ms, gcs, effbw, effB, xsingle;
  long long bad;
};
static std::vector<Result> results;

template <class T>
struct Ctx {
  Geo g;
  Wt<T> w;
  T *A, *out, *tmp;
  std::vector<T*> ref;  // ref[k] = k single steps of A (march1 baseline), k=1..KMAX
  unsigned long long* dbad;
  cudaEvent_t e0, e1;
  double B;  // copy bandwidth bytes/s
  double single_gcs = 0;
  int reps, sms;
  const char* tname;
};

template <class T>
static long long compare(Ctx<T>& c, const T* a, const T* b) {
  CK(cudaMemset(c.dbad, 0, 8));
  compare_kernel<T><<<dim3(1, c.g.N + 2, c.g.N + 2), 256>>>(a, b, c.g, c.dbad);
  CK(cudaGetLastError());
  unsigned long long h;
  CK(cudaMemcpy(&h, c.dbad, 8, cudaMemcpyDeviceToHost));
  return (long long)h;
}

template <class T, class F>
static double time_median(Ctx<T>& c, F&& launch) {
  for (int i = 0; i < std::min(3, c.reps); ++i) launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<float> ts;
  for (int i = 0; i < c.reps; ++i) {
    CK(cudaEventRecord(c.e0));
    launch();
    CK(cudaEventRecord(c.e1));
    CK(cudaEventSynchronize(c.e1));
    float ms;
    CK(cudaEventElapsedTime(&ms, c.e0, c.e1));
    ts.push_back(ms);
  }
  CK(cudaGetLastError());
  std::sort(ts.begin(), ts.end());
  return ts[ts.size() / 2];
}

template <class T>
static void record(Ctx<T>& c, const std::string& name, int K, const std::string& block, const std::string& tile,
                   cudaFuncAttributes& fa, size_t smem, int bps, int nzc, double ms, long long bad) {
  const double cells = (double)c.g.N * c.g.N * c.g.N;
  Result r;
  r.type = c.tname;
  r.name = name;
  r.block = block;
  r.tile = tile;
  r.K = K;
  r.regs = fa.numRegs;
  r.lmem = (int)fa.localSizeBytes;
  r.smem = (int)(smem + fa.sharedSizeBytes);
  r.bps = bps;
  r.nzc = nzc;
  r.ms = ms;
  r.gcs = cells * K / (ms * 1e-3) / 1e9;
  r.effbw = 2.0 * cells * sizeof(T) * K / (ms * 1e-3);
  r.effB = r.effbw / c.B;
  r.xsingle = c.single_gcs > 0 ? r.gcs / c.single_gcs : 0;
  r.bad = bad;
  results.push_back(r);
  printf("%-6s %-26s K=%d blk=%-8s tile=%-11s regs=%3d lmem=%3d smem=%6d b/SM=%d nzc=%2d  %8.4f ms  %7.1f Gcs/s  effBW %6.0f GB/s = %.3f B  x%.2f  bad=%lld\n",
         c.tname, name.c_str(), K, block.c_str(), tile.c_str(), r.regs, r.lmem, r.smem, bps, nzc, ms, r.gcs,
         r.effbw / 1e9, r.effB, r.xsingle, bad);
  fflush(stdout);
}

static std::vector<int> kNzc = {1, 2, 4, 8, 12, 16, 24, 32};

// Runs march1 as the reference stepper (and baseline).
template <class T, int BY, int RX, int RY, int PD = 1>
static void launch_march1(Ctx<T>& c, const T* in, T* out, int nzc) {
  const int N = c.g.N, zc = (N + nzc - 1) / nzc;
  dim3 grid(N / (32 * RX), N / (BY * RY), nzc);
  march1_kernel<T, BY, RX, RY, PD><<<grid, dim3(32, BY)>>>(in, out, c.g, zc, c.w);
}

template <class T, int BY, int RX, int RY, int PD = 1>
static void run_march1(Ctx<T>& c, bool is_ref) {
  auto kern = march1_kernel<T, BY, RX, RY, PD>;
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, kern));
  int bps;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kern, 32 * BY, 0));
  char name[64], blk[32], tile[32];
  snprintf(name, sizeof name, "single march1 RX%dRY%d%s", RX, RY, PD > 1 ? " PD2" : "");
  snprintf(blk, sizeof blk, "32x%d", BY);
  snprintf(tile, sizeof tile, "%dx%d", 32 * RX, BY * RY);
  if (c.g.N % (32 * RX) || c.g.N % (BY * RY)) return;
  double best = 1e30;
  int bestn = 1;
  long long badsum = 0;
  for (int nzc : kNzc) {
    // correctness: one step vs ref[1]
    if (!is_ref) {
      CK(cudaMemcpy(c.out, c.A, c.g.total * sizeof(T), cudaMemcpyDeviceToDevice));
      poison_kernel<T><<<dim3((c.g.N + 127) / 128, c.g.N, c.g.N), 128>>>(c.out, c.g);
      launch_march1<T, BY, RX, RY, PD>(c, c.A, c.out, nzc);
      CK(cudaGetLastError());
      badsum += compare(c, c.out, c.ref[1]);
    }
    double ms = time_median(c, [&] { launch_march1<T, BY, RX, RY, PD>(c, c.A, c.out, nzc); });
    if (ms < best) best = ms, bestn = nzc;
  }
  if (c.single_gcs == 0 || (double)c.g.N * c.g.N * c.g.N / (best * 1e-3) / 1e9 > c.single_gcs) {
    // baseline = best single step seen so far (reported as x over it for later rows)
  }
  record(c, name, 1, blk, tile, fa, 0, bps, bestn, best, badsum);
}

template <class T, int BY>
static void run_l1(Ctx<T>& c) {
  auto kern = l1_kernel<T, BY>;
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, kern));
  int bps;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kern, 32 * BY, 0));
  double best = 1e30;
  int bestn = 1;
  long long badsum = 0;
  const int N = c.g.N;
  for (int nzc : kNzc) {
    const int zc = (N + nzc - 1) / nzc;
    dim3 grid(N / 32, N / BY, nzc);
    auto L = [&] { l1_kernel<T, BY><<<grid, dim3(32, BY)>>>(c.A, c.out, c.g, zc, c.w); };
    CK(cudaMemcpy(c.out, c.A, c.g.total * sizeof(T), cudaMemcpyDeviceToDevice));
    poison_kernel<T><<<dim3((N + 127) / 128, N, N), 128>>>(c.out, c.g);
    L();
    CK(cudaGetLastError());
    badsum += compare(c, c.out, c.ref[1]);
    double ms = time_median(c, L);
    if (ms < best) best = ms, bestn = nzc;
  }
  char blk[32];
  snprintf(blk, sizeof blk, "32x%d", BY);
  record(c, "single l1", 1, blk, "32x" + std::to_string(BY), fa, 0, bps, bestn, best, badsum);
}

template <class T, int K, int BX, int BY, int RX, int RY, bool SHX, int PD = 1, int MINB = 1, bool FAST = false,
          int UNR = 1>
static void run_fused(Ctx<T>& c) {
  using C = FusedCfg<T, K, BX, BY, RX, RY, SHX>;
  auto kern = fused_kernel<T, K, BX, BY, RX, RY, SHX, PD, MINB, FAST, UNR>;
  const size_t smem = C::SMEM;
  CK(cudaFuncSetAttribute(kern, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  cudaFuncAttributes fa;
  CK(cudaFuncGetAttributes(&fa, kern));
  int bps;
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&bps, kern, BX * BY, smem));
  const int N = c.g.N;
  dim3 grid((N + C::OW - 1) / C::OW, (N + C::OH - 1) / C::OH, 1);
  double best = 1e30;
  int bestn = 1;
  long long badsum = 0;
  std::vector<int> nzcs = kNzc;
  nzcs.push_back(0);  // persistent
  for (int nzc : nzcs) {
    const int zc = nzc ? (N + nzc - 1) / nzc : 0;
    grid.z = nzc ? nzc : 1;
    dim3 lg = nzc ? grid : dim3(bps * c.sms, 1, 1);
    auto L = [&] { kern<<<lg, dim3(BX, BY), smem>>>(c.A, c.out, c.g, zc, c.w); };
    CK(cudaMemcpy(c.out, c.A, c.g.total * sizeof(T), cudaMemcpyDeviceToDevice));
    poison_kernel<T><<<dim3((N + 127) / 128, N, N), 128>>>(c.out, c.g);
    L();
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    badsum += compare(c, c.out, c.ref[K]);
    double ms = time_median(c, L);
    if (ms < best) best = ms, bestn = nzc;
  }
  char name[64], blk[32], tile[32];
  snprintf(name, sizeof name, "fused %s RX%dRY%d%s%s%s%s", SHX ? "shfl" : "smem", RX, RY, PD > 1 ? " PD2" : "",
           MINB == 2 ? " mb2" : MINB == 3 ? " mb3" : "", FAST ? " F" : "", UNR > 1 ? " U" : "");
  snprintf(blk, sizeof blk, "%dx%d", BX, BY);
  snprintf(tile, sizeof tile, "%dx%d/%dx%d", C::TW, C::TH, C::OW, C::OH);
  record(c, name, K, blk, tile, fa, smem, bps, bestn, best, badsum);
}

template <class T>
static void cpu_check_one_step(Ctx<T>& c) {
  // one step on the host vs ref[1], whole interior
  const Geo g = c.g;
  std::vector<T> a(g.total), r(g.total);
  CK(cudaMemcpy(a.data(), c.A, g.total * sizeof(T), cudaMemcpyDeviceToHost));
  CK(cudaMemcpy(r.data(), c.ref[1], g.total * sizeof(T), cudaMemcpyDeviceToHost));
  long long bad = 0;
  for (int k = 0; k < g.N; ++k)
    for (int j = 0; j < g.N; ++j)
      for (int i = 0; i < g.N; ++i) {
        const long long id = g.idx(i, j, k);
        T v = upd_host<T>(a[id], a[id - 1], a[id + 1], a[id - g.PX], a[id + g.PX], a[id - g.PS], a[id + g.PS], c.w);
        bad += memcmp(&v, &r[id], sizeof(T)) != 0;
      }
  printf("%s: CPU one step vs GPU march1: %lld mismatches of %lld\n", c.tname, bad, (long long)g.N * g.N * g.N);
  results.push_back(Result{c.tname, "cpu-check", "", "", 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, bad});
}

template <class T>
static void run_type(int N, int reps, const char* tname, int kmax, bool quick, bool focus) {
  Ctx<T> c;
  c.tname = tname;
  c.reps = reps;
  {
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, 0));
    c.sms = prop.multiProcessorCount;
  }
  c.g.N = N;
  c.g.PX = N + 2 * OX;
  c.g.PY = N + 2;
  c.g.PS = (long long)c.g.PX * c.g.PY;
  c.g.total = c.g.PS * (N + 2);
  const T wgt = T(0.1);
  c.w = Wt<T>{T(1) - T(6) * wgt, wgt, wgt, wgt};
  const size_t bytes = c.g.total * sizeof(T);
  CK(cudaMalloc(&c.A, bytes));
  CK(cudaMalloc(&c.out, bytes));
  CK(cudaMalloc(&c.tmp, bytes));
  c.ref.assign(kmax + 1, nullptr);
  for (int k = 1; k <= kmax; ++k) CK(cudaMalloc(&c.ref[k], bytes));
  CK(cudaMalloc(&c.dbad, 8));
  CK(cudaEventCreate(&c.e0));
  CK(cudaEventCreate(&c.e1));
  fill_kernel<T><<<4096, 256>>>(c.A, c.g.total, 12345u + sizeof(T));
  CK(cudaGetLastError());
  // copy bandwidth over the N^3 cells' bytes (one contiguous buffer of N^3 values)
  {
    const size_t cb = (size_t)N * N * N * sizeof(T);
    std::vector<float> ts;
    for (int i = 0; i < 3 + reps; ++i) {
      CK(cudaEventRecord(c.e0));
      CK(cudaMemcpy(c.tmp, c.A, cb, cudaMemcpyDeviceToDevice));
      CK(cudaEventRecord(c.e1));
      CK(cudaEventSynchronize(c.e1));
      float ms;
      CK(cudaEventElapsedTime(&ms, c.e0, c.e1));
      if (i >= 3) ts.push_back(ms);
    }
    std::sort(ts.begin(), ts.end());
    c.B = 2.0 * cb / (ts[0] * 1e-3);
    printf("%s: copy %zu bytes: best %.4f ms median %.4f ms -> B = %.0f GB/s (best), %.0f GB/s (median)\n", tname, cb,
           ts[0], ts[ts.size() / 2], c.B / 1e9, 2.0 * cb / (ts[ts.size() / 2] * 1e-3) / 1e9);
    Result r{};
    r.type = tname;
    r.name = "copy (cudaMemcpy)";
    r.ms = ts[0];
    r.effbw = c.B;
    r.effB = 1.0;
    results.push_back(r);
  }
  // references: ref[k] = k march1 steps (RX1 RY1 32x8, nzc 1); ghosts = A's
  for (int k = 1; k <= kmax; ++k) {
    CK(cudaMemcpy(c.ref[k], c.A, bytes, cudaMemcpyDeviceToDevice));
    launch_march1<T, 8, 1, 1>(c, k == 1 ? c.A : c.ref[k - 1], c.ref[k], 1);
    CK(cudaGetLastError());
  }
  CK(cudaDeviceSynchronize());
  if (!quick) cpu_check_one_step(c);

  // single-step kernels
  run_march1<T, 8, 1, 1>(c, true);
  run_march1<T, 8, 2, 4>(c, false);
  if (!focus) run_march1<T, 8, 2, 4, 2>(c, false);
  if (!quick && !focus) {
    run_march1<T, 8, 1, 4>(c, false);
    run_march1<T, 8, 1, 4, 2>(c, false);
    run_march1<T, 4, 2, 8>(c, false);
  }
  run_l1<T, 8>(c);
  for (auto& r : results)
    if (r.type == tname && r.K == 1 && r.gcs > c.single_gcs && r.bad == 0) c.single_gcs = r.gcs;
  for (auto& r : results)
    if (r.type == tname && r.K == 1) r.xsingle = r.gcs / c.single_gcs;
  printf("%s: best single step %.1f Gcells/s\n", tname, c.single_gcs);

  if (focus) {  // big tiles, persistent grid among the candidates (fourth run)
    run_fused<T, 3, 32, 16, 2, 4, true>(c);
    run_fused<T, 4, 32, 16, 2, 4, true>(c);
    run_fused<T, 3, 64, 8, 1, 4, false>(c);
    run_fused<T, 4, 64, 8, 1, 4, false>(c);
    run_fused<T, 4, 64, 8, 1, 4, false, 2, 1, true, 1>(c);
    run_fused<T, 5, 64, 8, 1, 4, false>(c);
    run_fused<T, 3, 32, 16, 1, 4, true>(c);
    run_fused<T, 4, 32, 16, 1, 4, true>(c);
    if constexpr (sizeof(T) == 4) {
      run_fused<T, 4, 32, 16, 2, 4, true, 2, 1, true, 1>(c);
      run_fused<T, 5, 32, 16, 2, 4, true>(c);
      run_fused<T, 3, 32, 8, 2, 8, true>(c);
      run_fused<T, 3, 32, 8, 2, 4, true, 2, 2, true, 1>(c);
      run_fused<T, 4, 32, 8, 2, 4, true, 2, 2, true, 1>(c);
    } else {
      run_fused<T, 6, 64, 8, 1, 4, false>(c);
      run_fused<T, 3, 32, 8, 1, 4, true, 2, 2, true, 1>(c);
    }
  } else if (quick) {  // one of each form (memcheck at a small size)
    run_fused<T, 2, 32, 16, 1, 1, false>(c);
    run_fused<T, 2, 64, 8, 1, 4, false>(c);
    run_fused<T, 3, 32, 8, 1, 4, true>(c);
    run_fused<T, 3, 32, 8, 2, 4, true>(c);
    run_fused<T, 3, 32, 8, 2, 4, true, 2, 1, true, 1>(c);
    run_fused<T, 3, 32, 8, 2, 4, true, 2, 1, true, 3>(c);
  } else {
    // fused, brief form (shared plane, one cell a thread)
    run_fused<T, 1, 32, 16, 1, 1, false>(c);
    run_fused<T, 2, 32, 16, 1, 1, false>(c);
    run_fused<T, 2, 32, 32, 1, 1, false>(c);
    run_fused<T, 2, 64, 8, 1, 1, false>(c);
    run_fused<T, 3, 32, 16, 1, 1, false>(c);
    run_fused<T, 3, 32, 32, 1, 1, false>(c);
    run_fused<T, 4, 32, 16, 1, 1, false>(c);
    run_fused<T, 4, 32, 32, 1, 1, false>(c);
    run_fused<T, 4, 64, 16, 1, 1, false>(c);
    // shared plane, RY cells a thread in y (y neighbours in registers)
    run_fused<T, 2, 64, 8, 1, 4, false>(c);
    run_fused<T, 4, 64, 8, 1, 4, false>(c);
    // shuffle x neighbours, one cell a thread in x
    run_fused<T, 1, 32, 8, 1, 4, true>(c);
    run_fused<T, 2, 32, 8, 1, 4, true>(c);
    run_fused<T, 3, 32, 8, 1, 4, true>(c);
    run_fused<T, 4, 32, 8, 1, 4, true>(c);
    run_fused<T, 3, 32, 8, 1, 4, true, 2, 1, true, 1>(c);
    run_fused<T, 4, 32, 8, 1, 4, true, 2, 1, true, 1>(c);
    // shuffle x neighbours, two cells a thread in x (8/16-byte loads)
    run_fused<T, 2, 32, 8, 2, 4, true>(c);
    run_fused<T, 3, 32, 8, 2, 4, true>(c);
    run_fused<T, 2, 32, 8, 2, 4, true, 2>(c);
    run_fused<T, 3, 32, 8, 2, 4, true, 2>(c);
    run_fused<T, 2, 32, 8, 2, 4, true, 2, 1, true, 1>(c);
    run_fused<T, 3, 32, 8, 2, 4, true, 2, 1, true, 1>(c);
    run_fused<T, 2, 32, 8, 2, 4, true, 2, 1, true, 3>(c);
    run_fused<T, 3, 32, 8, 2, 4, true, 2, 1, true, 3>(c);
    run_fused<T, 3, 32, 8, 2, 4, true, 2, 2, true, 1>(c);
    run_fused<T, 3, 32, 8, 2, 4, true, 2, 2, true, 3>(c);
    run_fused<T, 3, 32, 8, 1, 4, true, 2, 2, true, 1>(c);
    run_fused<T, 4, 32, 8, 1, 4, true, 2, 2, true, 1>(c);
    run_fused<T, 2, 32, 16, 1, 2, true, 2, 1, true, 1>(c);
    run_fused<T, 3, 32, 16, 1, 2, true, 2, 1, true, 1>(c);
    run_fused<T, 4, 32, 16, 1, 2, true, 2, 1, true, 1>(c);
    if constexpr (sizeof(T) == 8) run_fused<T, 2, 32, 8, 2, 4, true, 2, 2, true, 1>(c);
    run_fused<T, 2, 32, 8, 1, 4, true, 2, 2, true, 3>(c);
    run_fused<T, 3, 32, 8, 1, 4, true, 2, 2, true, 3>(c);
    run_fused<T, 4, 32, 8, 1, 4, true, 2, 2, true, 3>(c);
    run_fused<T, 3, 32, 8, 1, 4, true, 2, 3, true, 3>(c);
    run_fused<T, 4, 32, 8, 1, 4, true, 2, 3, true, 3>(c);
    if constexpr (sizeof(T) == 4) {
      run_fused<T, 4, 32, 8, 2, 4, true, 2, 2, true, 1>(c);
      run_fused<T, 4, 32, 8, 2, 4, true, 2, 2, true, 3>(c);
      run_fused<T, 2, 32, 8, 2, 4, true, 2, 2, true, 3>(c);
      run_fused<T, 4, 32, 8, 2, 4, true>(c);
      run_fused<T, 4, 32, 8, 2, 4, true, 2>(c);
      run_fused<T, 4, 32, 8, 2, 4, true, 2, 1, true, 1>(c);
      run_fused<T, 4, 32, 8, 2, 4, true, 2, 1, true, 3>(c);
      run_fused<T, 4, 32, 16, 2, 4, true>(c);
      run_fused<T, 4, 32, 8, 2, 8, true>(c);
      run_fused<T, 5, 32, 8, 2, 4, true, 2, 1, true, 1>(c);
      run_fused<T, 6, 32, 16, 2, 4, true>(c);
      run_fused<T, 8, 32, 16, 2, 4, true>(c);
    }
  }

  CK(cudaFree(c.A));
  CK(cudaFree(c.out));
  CK(cudaFree(c.tmp));
  for (int k = 1; k <= kmax; ++k) CK(cudaFree(c.ref[k]));
  CK(cudaFree(c.dbad));
}

int main(int argc, char** argv) {
  int N = 512, reps = 12;
  bool quick = false, focus = false;
  std::string types = "fd";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--n")) N = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--reps")) reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--quick")) quick = true;
    else if (!strcmp(argv[i], "--focus")) focus = true;
    else if (!strcmp(argv[i], "--types")) types = argv[++i];
    else if (!strcmp(argv[i], "--nzc")) {  // comma list
      kNzc.clear();
      for (char* t = strtok(argv[++i], ","); t; t = strtok(nullptr, ",")) kNzc.push_back(atoi(t));
    }
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  printf("device %s, %d SMs, L2 %d MB, smem/SM %zu KB, N=%d reps=%d\n", prop.name, prop.multiProcessorCount,
         prop.l2CacheSize >> 20, prop.sharedMemPerMultiprocessor >> 10, N, reps);
  if (types.find('f') != std::string::npos) run_type<float>(N, reps, "float", 8, quick, focus);
  if (types.find('d') != std::string::npos) run_type<double>(N, reps, "double", 6, quick, focus);

  printf("\n== summary (N=%d; effBW = 2*N^3*sizeof*K/time; /B = over copy bandwidth; x1 = over best single step)\n", N);
  printf("%-6s %-26s %2s %-7s %-11s %4s %4s %6s %3s %3s %8s %8s %6s %5s %5s %s\n", "type", "kernel", "K", "block",
         "tile/out", "regs", "lmem", "smem", "b/S", "nzc", "ms", "Gcs/s", "GB/s", "/B", "x1", "bad");
  for (auto& r : results)
    printf("%-6s %-26s %2d %-7s %-11s %4d %4d %6d %3d %3d %8.4f %8.1f %6.0f %5.3f %5.2f %lld\n", r.type.c_str(),
           r.name.c_str(), r.K, r.block.c_str(), r.tile.c_str(), r.regs, r.lmem, r.smem, r.bps, r.nzc, r.ms, r.gcs,
           r.effbw / 1e9, r.effB, r.xsingle, r.bad);
  return 0;
}
