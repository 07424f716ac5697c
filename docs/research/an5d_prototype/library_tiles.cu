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
#include "harness.cuh"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace opsplit::field;

constexpr double kDirichletValue = 0.5;


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
  const double t = time_median([&] { kernel<<<blocks, dim3(32, BY), S::SHARED_BYTES>>>(b.in, b.out, g, dw, nullptr, LevelSteps<T, K>{}, nullptr, nullptr, su.faces, h); });
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

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? atoll(argv[1]) : 512;
  // "library": the library's own tiles alone, NOFLUX and DIRICHLET (for a profiler)
  const bool library_only = argc > 2 && std::string(argv[2]) == "library";
  Setup su{n, nullptr, false, nullptr, copy_bandwidth(size_t(1) << 30)};
  printf("n %lld copy %.0f GB/s\n", (long long)n, su.copy_gbps);
  CK(cudaMalloc(&su.faces, 6 * sizeof(FaceCondition)));
  CK(cudaMalloc(&su.first_bad, 8));
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
