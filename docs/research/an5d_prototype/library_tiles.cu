// Research harness (issue 44, fifteenth session; not built by the project): the
// library's 7-point register pass (diffuse_cross_steps_kernel) with other tiles
// (CrossTile's threads rows and rows a thread), timed alone at 512^3 on one GPU
// against the device-to-device copy, each checked bit for bit against K naive steps.
// Build where nvcc is, from the repository root (a configured build/ for its headers):
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DOPSPLIT_HAVE_CUDA=1 \
//     -Iinclude -Ibuild/include -Isrc -Ikernels docs/research/an5d_prototype/library_tiles.cu -o library_tiles
// and run ./library_tiles [n]. It times each tile with NOFLUX faces (the pass that tests
// none) and then DIRICHLET ones (the pass that tests the faces' cells), the reference
// applying each face's ghost rule. The "queues moved each round" rows of PERFORMANCE.md's
// note (p) came from the same harness over 367f9fe's kernel.
#include "field/field_cuda.cuh"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace opsplit::field;

constexpr double kDirichletValue = 0.5;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); exit(1); } } while (0)

// One step with every face NOFLUX (twice_value < 0: the ghost is the face cell) or
// DIRICHLET (the ghost 2 value - the face cell, as ghost_from).
template <class T>
__global__ void naive_step(const T* in, T* out, Grid g, DiffusionWeights<T> w, T twice_value) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (i >= g.n[0]) return;
  auto at = [&](int64_t x, int64_t y, int64_t z) {
    const bool beyond = x < 0 || x >= g.n[0] || y < 0 || y >= g.n[1] || z < 0 || z >= g.n[2];
    x = x < 0 ? 0 : x >= g.n[0] ? g.n[0] - 1 : x;
    y = y < 0 ? 0 : y >= g.n[1] ? g.n[1] - 1 : y;
    z = z < 0 ? 0 : z >= g.n[2] ? g.n[2] - 1 : z;
    const T cell = in[g.index(0, x, y, z)];
    return beyond && twice_value >= T(0) ? twice_value - cell : cell;
  };
  CrossAt<T> a{at(i, j, k), at(i - 1, j, k), at(i + 1, j, k), at(i, j - 1, k), at(i, j + 1, k), at(i, j, k - 1), at(i, j, k + 1)};
  out[g.index(0, i, j, k)] = diffusion_update<7>(a, w);
}

template <class T>
__global__ void init(T* d, Grid g) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (i >= g.n[0]) return;
  uint32_t h = uint32_t(i * 73856093u) ^ uint32_t(j * 19349663u) ^ uint32_t(k * 83492791u);
  h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
  d[g.index(0, i, j, k)] = T(0.25) + T(0.75) * T(h & 0xffffff) / T(0x1000000);
}


// Research (seventeenth session; not the library's): the register pass with its levels
// trailing by two planes. Level s makes plane t - 2s in round t, the levels run from K
// down to 1 and level 0's load lands last, so each level reads only the last three planes
// the level below made in earlier rounds (still in its three-slot ring: level s reads the
// oldest before level s - 1 overwrites it) and a round's K levels are independent
// (docs/research/temporal_blocking_plan.md). Edges of the plane made in round t - 2 are
// read in round t: three buffers by round mod 3; level 0's edges are stored the round
// after its load. Pure diffusion between NOFLUX faces (read at the mirror image).
template <int K, class T, class S>
__global__ void __launch_bounds__(32 * S::BY, 1)
    trail2_kernel(const T* __restrict__ in, T* __restrict__ out, Grid grid,
                  const DiffusionWeights<T>* __restrict__ weights, const ComponentTerms<T>*, LevelSteps<T, K>,
                  const SourceTerm<T>*, const int64_t*, const FaceCondition* __restrict__ faces, Health health) {
  constexpr int RX = S::RX, RY = S::RY, TW = S::TW, TH = S::TH, PLANE = S::PLANE;
  constexpr int MX = S::MX, OW = S::OW, OH = S::OH;
  constexpr unsigned kLanes = 0xffffffffu;
  extern __shared__ __align__(16) unsigned char pass_shared[];
  T* const edges = reinterpret_cast<T*>(pass_shared);  // [round % 3][level below K][PLANE]
  if (failed_before(health)) return;
  const int tx = threadIdx.x, ty = threadIdx.y, cx = tx * RX, cy = ty * RY;
  for (int i = ty * 32 + tx; i < 3 * K * S::UNWRITTEN_ROWS * TW; i += 32 * S::BY) {
    const int slot = i / TW, at = i % TW;
    edges[slot / S::UNWRITTEN_ROWS * PLANE + S::unwritten_row(slot % S::UNWRITTEN_ROWS) * TW + at] = T(0);
  }
  const int64_t n[3] = {grid.n[0], grid.n[1], grid.n[2]};
  const int nz = static_cast<int>(n[2]), lead_z = static_cast<int>(grid.lead[2]);
  const int plane_stride = static_cast<int>(grid.stride[2]);
  const int64_t tiles_x = (n[0] + OW - 1) / OW, tiles_y = (n[1] + OH - 1) / OH, tiles = tiles_x * tiles_y;
  const int64_t work = grid.ncomp * tiles * nz;
  const int64_t share = (work + gridDim.x - 1) / gridDim.x;
  const int64_t begin = min(work, blockIdx.x * share), end = min(work, begin + share);
  T probe = T(0);
  for (int64_t item = begin; item < end;) {
    const int64_t column = item / nz, tile = column % tiles;
    const int c = static_cast<int>(column / tiles);
    const int z0 = static_cast<int>(item % nz), z1 = static_cast<int>(min(int64_t(nz), z0 + (end - item)));
    item += z1 - z0;
    const DiffusionWeights<T> w = weights[c];
    const int reading_x = axis_reading(faces + 6 * c, true), reading_y = axis_reading(faces + 6 * c + 2, true);
    const int reading_z = axis_reading(faces + 6 * c + 4, true);
    const int64_t x0 = (tile % tiles_x) * OW - MX, y0 = (tile / tiles_x) * OH - K;
    int col[RX], row[RY];
    unsigned owned = 0;
#pragma unroll
    for (int rx = 0; rx < RX; ++rx) col[rx] = static_cast<int>(cell_read(x0 + cx + rx, n[0], reading_x) + grid.lead[0]);
#pragma unroll
    for (int r = 0; r < RY; ++r) {
      const int64_t y = y0 + cy + r;
      row[r] = static_cast<int>((cell_read(y, n[1], reading_y) + grid.lead[1]) * grid.stride[1]);
#pragma unroll
      for (int rx = 0; rx < RX; ++rx)
        if (cx + rx >= MX && cx + rx < TW - MX && x0 + cx + rx < n[0] && cy + r >= K && cy + r < TH - K && y < n[1])
          owned |= 1u << (r * RX + rx);
    }
    const bool whole = __all_sync(kLanes, col[RX - 1] == col[0] + RX - 1 && col[0] % RX == 0);
    const T* in_c = in + c * grid.comp_stride;
    T* out_c = out + c * grid.comp_stride;
    auto plane_at = [&](int z) { return static_cast<int64_t>(cell_read(z, nz, reading_z) + lead_z) * plane_stride; };
    T q[K][3][RY][RX];
#pragma unroll
    for (int s = 0; s < K; ++s)
#pragma unroll
      for (int i = 0; i < 3; ++i)
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
          for (int rx = 0; rx < RX; ++rx) q[s][i][r][rx] = T(0);
    auto load = [&](int z, T(&plane_values)[RY][RX]) {
      const T* plane = in_c + plane_at(z);
      if (whole) {
#pragma unroll
        for (int r = 0; r < RY; ++r) {
          const Cells<T, RX> v = *reinterpret_cast<const Cells<T, RX>*>(plane + (row[r] + col[0]));
#pragma unroll
          for (int rx = 0; rx < RX; ++rx) plane_values[r][rx] = v.v[rx];
        }
      } else {
#pragma unroll
        for (int r = 0; r < RY; ++r)
#pragma unroll
          for (int rx = 0; rx < RX; ++rx) plane_values[r][rx] = plane[row[r] + col[rx]];
      }
    };
    auto store_edges = [&](const T(&plane)[RY][RX], T* level_edges) {
      if constexpr (S::XS) {
#pragma unroll
        for (int r = 0; r < RY; ++r)
          *reinterpret_cast<Cells<T, RX>*>(level_edges + (cy + r + 2) * TW + cx) = cells_of(plane[r]);
      } else {
        *reinterpret_cast<Cells<T, RX>*>(level_edges + ((ty + 1) * 2) * TW + cx) = cells_of(plane[0]);
        *reinterpret_cast<Cells<T, RX>*>(level_edges + ((ty + 1) * 2 + 1) * TW + cx) = cells_of(plane[RY - 1]);
      }
    };
    auto advance = [&](const T(&low)[RY][RX], const T(&mid)[RY][RX], const T(&high)[RY][RX], const T* below_edges,
                       T(&made)[RY][RX]) {
      const int before = S::XS ? (cy + 1) * TW : (ty * 2 + 1) * TW, after = S::XS ? (cy + RY + 2) * TW : (ty + 2) * 2 * TW;
      const Cells<T, RX> row_before = *reinterpret_cast<const Cells<T, RX>*>(below_edges + before + cx);
      const Cells<T, RX> row_after = *reinterpret_cast<const Cells<T, RX>*>(below_edges + after + cx);
#pragma unroll
      for (int r = 0; r < RY; ++r) {
        const T x_before = S::XS ? below_edges[(cy + r + 2) * TW + cx - 1] : __shfl_up_sync(kLanes, mid[r][RX - 1], 1);
        const T x_after = S::XS ? below_edges[(cy + r + 2) * TW + cx + RX] : __shfl_down_sync(kLanes, mid[r][0], 1);
#pragma unroll
        for (int rx = 0; rx < RX; ++rx) {
          const CrossAt<T> at{mid[r][rx],
                              rx > 0 ? mid[r][rx - 1] : x_before,
                              rx < RX - 1 ? mid[r][rx + 1] : x_after,
                              r > 0 ? mid[r - 1][rx] : row_before.v[rx],
                              r < RY - 1 ? mid[r + 1][rx] : row_after.v[rx],
                              low[r][rx],
                              high[r][rx]};
          made[r][rx] = diffusion_update<7>(at, w);
        }
      }
    };
    // Round t at ring phase ph = (t - first) % 3: slots ph, ph + 1, ph + 2 hold the planes
    // made in rounds t - 3, t - 2, t - 1; edge buffer ph is this round's.
    auto round = [&](auto phase_constant, int t) {
      constexpr int ph = decltype(phase_constant)::value, older = (ph + 1) % 3, newer = (ph + 2) % 3;
      T* written = edges + ph * (K * PLANE);
      store_edges(q[0][newer], written);  // level 0's plane t - 1
      static_for<0, K>([&](auto i_constant) {
        constexpr int s = K - decltype(i_constant)::value;
        const int p = t - 2 * s;
        const T* read = s == 1 ? edges + newer * (K * PLANE) : edges + older * (K * PLANE) + (s - 1) * PLANE;
        const auto& below = q[s - 1];
        if constexpr (s < K) {
          advance(below[ph], below[older], below[newer], read, q[s][ph]);
          store_edges(q[s][ph], written + s * PLANE);
        } else {
          T made[RY][RX];
          advance(below[ph], below[older], below[newer], read, made);
          if (p >= z0) {
            T* plane = out_c + plane_at(p);
#pragma unroll
            for (int r = 0; r < RY; ++r)
#pragma unroll
              for (int rx = 0; rx < RX; ++rx)
                if (owned >> (r * RX + rx) & 1u) plane[row[r] + col[rx]] = made[r][rx];
#pragma unroll
            for (int r = 0; r < RY; ++r)
#pragma unroll
              for (int rx = 0; rx < RX; ++rx) probe += made[r][rx] * T(0);
          }
        }
      });
      load(t, q[0][ph]);  // plane t, into the slot level 1 has read
    };
    __syncthreads();
    const int first = z0 - K, t_end = z1 + 2 * K;
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
  if (probe != probe) atomicMin(health.first_bad, health_key(health.step, 0));
}

struct Setup {
  int64_t n;
  FaceCondition* faces;  // every face NOFLUX, or DIRICHLET at kDirichletValue
  bool dirichlet;
  unsigned long long* first_bad;
  double copy_gbps;
};

template <class T>
struct Buffers {
  Grid g;
  T *in, *out, *ref, *tmp;
  std::vector<T> ref_host;
};

template <class T, int K, class S, class Kernel>
void run_variant(Kernel kernel, const Setup& su, Buffers<T>& b, const char* name) {
  constexpr int BY = S::BY, RY = S::RY;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::SHARED_BYTES));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int sms = 0, per_sm = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * BY, S::SHARED_BYTES));
  DiffusionWeights<T> w{{T(0.1), T(0.1), T(0.1)}, {0, 0, 0}};
  DiffusionWeights<T>* dw;
  CK(cudaMalloc(&dw, sizeof(w)));
  CK(cudaMemcpy(dw, &w, sizeof(w), cudaMemcpyHostToDevice));
  // reference: K naive steps
  const Grid& g = b.g;
  dim3 nb((g.n[0] + 127) / 128, g.n[1], g.n[2]);
  init<T><<<nb, 128>>>(b.in, g);
  const T* src = b.in;
  for (int s = 0; s < K; ++s) {
    T* dst = s % 2 == 0 ? b.ref : b.tmp;
    naive_step<T><<<nb, 128>>>(src, dst, g, w, su.dirichlet ? static_cast<T>(2 * kDirichletValue) : T(-1));
    src = dst;
  }
  CK(cudaDeviceSynchronize());
  const size_t bytes = size_t(g.comp_stride) * sizeof(T);
  std::vector<T> ref(g.comp_stride), got(g.comp_stride);
  CK(cudaMemcpy(ref.data(), src, bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemset(b.out, 0xff, bytes));
  const unsigned blocks = unsigned(std::min<int64_t>(int64_t(sms) * std::max(per_sm, 1), g.n[2] * 1000));
  Health h{su.first_bad, 0};
  CK(cudaMemset(su.first_bad, 0xff, 8));
  kernel<<<blocks, dim3(32, BY), S::SHARED_BYTES>>>(b.in, b.out, g, dw, nullptr, LevelSteps<T, K>{}, nullptr, nullptr, su.faces, h);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(got.data(), b.out, bytes, cudaMemcpyDeviceToHost));
  int64_t bad = 0;
  for (int64_t k = 0; k < g.n[2]; ++k)
    for (int64_t j = 0; j < g.n[1]; ++j)
      for (int64_t i = 0; i < g.n[0]; ++i) {
        const int64_t at = g.index(0, i, j, k);
        if (memcmp(&ref[at], &got[at], sizeof(T)) != 0) ++bad;
      }
  unsigned long long fb = 0;
  CK(cudaMemcpy(&fb, su.first_bad, 8, cudaMemcpyDeviceToHost));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int rep = 0; rep < 13; ++rep) {
    cudaEventRecord(e0);
    kernel<<<blocks, dim3(32, BY), S::SHARED_BYTES>>>(b.in, b.out, g, dw, nullptr, LevelSteps<T, K>{}, nullptr, nullptr, su.faces, h);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    if (rep >= 3) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const double t = ms[ms.size() / 2] * 1e-3;
  const double cells = double(g.n[0]) * g.n[1] * g.n[2];
  const double eff = 2.0 * cells * sizeof(T) * K / t / 1e9;
  printf("%-4s K=%d BY=%2d RY=%d regs=%3d local=%4zu smemKB=%3d blk/SM=%d  %8.1f Gcell-steps/s  eff %6.0f GB/s  /copy %.3f  bad %lld health %s\n",
         name, K, BY, RY, attr.numRegs, attr.localSizeBytes, S::SHARED_BYTES / 1024, per_sm, cells * K / t / 1e9, eff,
         eff / su.copy_gbps, (long long)bad, fb == kHealthy ? "ok" : "FLAGGED");
  fflush(stdout);
  cudaFree(dw);
}

template <class T, int K, int BY, int RY, bool XS = false>
void variant(const Setup& su, Buffers<T>& b, const char* name) {
  using S = CrossTile<T, K, BY, RY, XS>;
  if (su.dirichlet)  // (the pass that tests faces)
    run_variant<T, K, S>(diffuse_cross_steps_kernel<K, true, T, S>, su, b, name);
  else
    run_variant<T, K, S>(diffuse_cross_steps_kernel<K, false, T, S>, su, b, name);
}
// The levels trailing by two planes (trail2_kernel): three edge buffers.
template <class S>
struct ThreeBuffers : S {
  static constexpr int SHARED_BYTES = S::SHARED_BYTES / 2 * 3;
};
template <class T, int K, int BY, int RY, bool XS = false>
void variant2(const Setup& su, Buffers<T>& b, const char* name) {
  using S = CrossTile<T, K, BY, RY, XS>;
  run_variant<T, K, ThreeBuffers<S>>(trail2_kernel<K, T, S>, su, b, name);
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
  return b;
}
template <class T>
void release(Buffers<T>& b) {
  cudaFree(b.in); cudaFree(b.out); cudaFree(b.ref); cudaFree(b.tmp);
}

double copy_bandwidth(size_t bytes) {
  void *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  float best = 1e30f;
  for (int r = 0; r < 12; ++r) {
    cudaEventRecord(e0);
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    if (r >= 2) best = std::min(best, t);
  }
  cudaFree(a);
  cudaFree(b);
  return 2.0 * bytes / (best * 1e-3) / 1e9;
}

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? atoll(argv[1]) : 512;
  // "library": the library's own tiles alone, NOFLUX and DIRICHLET (for a profiler)
  const bool library_only = argc > 2 && std::string(argv[2]) == "library";
  Setup su{n, nullptr, false, nullptr, copy_bandwidth(size_t(1) << 30)};
  printf("n %lld copy %.0f GB/s\n", (long long)n, su.copy_gbps);
  CK(cudaMalloc(&su.faces, 6 * sizeof(FaceCondition)));
  CK(cudaMalloc(&su.first_bad, 8));
  if (argc > 2 && std::string(argv[2]) == "trail2") {  // NOFLUX: the levels trailing by two planes ("t2")
    std::vector<FaceCondition> f(6, FaceCondition{kNoFlux, 0.0});
    CK(cudaMemcpy(su.faces, f.data(), 6 * sizeof(FaceCondition), cudaMemcpyHostToDevice));
    auto fb = buffers<float>(n);
    variant<float, 4, 12, 4>(su, fb, "f32");
    variant2<float, 4, 12, 4>(su, fb, "f32t2");
    variant2<float, 3, 12, 4>(su, fb, "f32t2");
    release(fb);
    auto db = buffers<double>(n);
    variant<double, 4, 12, 4, true>(su, db, "f64xs");
    variant2<double, 4, 12, 4, true>(su, db, "f64xst2");
    variant2<double, 3, 12, 4, true>(su, db, "f64xst2");
    variant2<double, 4, 12, 4>(su, db, "f64t2");
    variant2<double, 4, 10, 4, true>(su, db, "f64xst2");
    variant<double, 4, 12, 4, true>(su, db, "f64xs");
    release(db);
    return 0;
  }
  for (bool dirichlet : {false, true}) {
    su.dirichlet = dirichlet;
    std::vector<FaceCondition> f(6, FaceCondition{dirichlet ? kDirichlet : kNoFlux, kDirichletValue});
    CK(cudaMemcpy(su.faces, f.data(), 6 * sizeof(FaceCondition), cudaMemcpyHostToDevice));
    printf("%s faces\n", dirichlet ? "DIRICHLET (the testing pass)" : "NOFLUX");
    // (x by shuffles; "xs": x neighbours through shared memory, the whole plane a level)
    if (library_only) {
      auto f = buffers<float>(n);
      variant<float, 4, 12, 4>(su, f, "f32");
      release(f);
      auto d = buffers<double>(n);
      if (dirichlet)
        variant<double, 4, 12, 4>(su, d, "f64");
      else
        variant<double, 4, 12, 4, true>(su, d, "f64xs");
      release(d);
      continue;
    }
    {
      auto b = buffers<float>(n);
      variant<float, 4, 12, 4>(su, b, "f32");
      variant<float, 4, 12, 3>(su, b, "f32");
      variant<float, 4, 12, 2>(su, b, "f32");
      variant<float, 3, 12, 4>(su, b, "f32");
      release(b);
    }
    {
      auto b = buffers<double>(n);
      variant<double, 4, 12, 4>(su, b, "f64");
      variant<double, 4, 12, 4, true>(su, b, "f64xs");
      variant<double, 4, 12, 3>(su, b, "f64");
      variant<double, 4, 12, 2>(su, b, "f64");
      variant<double, 4, 16, 2>(su, b, "f64");
      variant<double, 3, 12, 4>(su, b, "f64");
      variant<double, 3, 12, 2>(su, b, "f64");
      release(b);
    }
  }
  return 0;
}
