// Research harness (issue 44, eighteenth session; not built by the project): the
// library's 7-point register pass (diffuse_cross_steps_kernel) stepping Turing's two
// coupled components a tile (CrossTile's Components = 2) with other tiles (thread rows,
// rows a thread, steps a pass), timed alone at 512^3 on one GPU against the
// device-to-device copy, each checked bit for bit against K passes of one step of the
// same tile (the library's tests check that one step against the single-step kernels).
// Seed 000's Turing parameters (D = 5e-5, 5e-3; h = 6.2e-3; dt = 5e-4; alpha, beta,
// gamma = 0.5, 0.09, 26), NOFLUX faces (read at the mirror image).
// Build where nvcc is, from the repository root (a configured build/ for its headers):
//   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -DOPSPLIT_HAVE_CUDA=1 \
//     -Iinclude -Ibuild/include -Isrc -Ikernels docs/research/an5d_prototype/coupled_tiles.cu -o coupled_tiles
// and run ./coupled_tiles [n].
#include "field/field_cuda.cuh"
#include "harness.cuh"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

using namespace opsplit::field;


template <class T>
__global__ void init(T* d, Grid g) {
  const int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x, j = blockIdx.y, k = blockIdx.z;
  if (i >= g.n[0]) return;
  for (int c = 0; c < g.ncomp; ++c) {
    uint32_t h = uint32_t(i * 73856093u) ^ uint32_t(j * 19349663u) ^ uint32_t(k * 83492791u) ^ uint32_t(c * 2654435761u);
    h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    d[g.index(c, i, j, k)] = T(1) + T(5e-4) * (T(h & 0xffffff) / T(0x1000000) - T(0.5));
  }
}

template <class T>
struct Setup {
  Grid g;
  T *in, *out, *ref, *tmp;
  ComponentTerms<T>* terms;
  StepTerms<T> step;
  FaceCondition* faces;
  unsigned long long* first_bad;
  double copy_gbps;
};

template <int K, class S, class T>
void launch(const Setup<T>& su, const T* in, T* out, int blocks) {
  LevelSteps<T, K> steps;
  for (int s = 0; s < K; ++s) steps.at[s] = su.step;
  auto kernel = diffuse_cross_steps_kernel<K, false, T, S, kNoTransport, false, kTuring>;
  kernel<<<blocks, dim3(32, S::BY), S::SHARED_BYTES>>>(in, out, su.g, nullptr, su.terms, steps, nullptr, nullptr,
                                                        su.faces, Health{su.first_bad, 0});
  CK(cudaGetLastError());
}

template <class T, int K, int BY, int RY, bool XS = false>
void variant(Setup<T>& su, const char* name) {
  using S = CrossTile<T, K, BY, RY, XS, 2>;
  using One = CrossTile<T, 1, BY, RY, XS, 2>;
  auto kernel = diffuse_cross_steps_kernel<K, false, T, S, kNoTransport, false, kTuring>;
  auto one = diffuse_cross_steps_kernel<1, false, T, One, kNoTransport, false, kTuring>;
  CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::SHARED_BYTES));
  CK(cudaFuncSetAttribute(one, cudaFuncAttributeMaxDynamicSharedMemorySize, One::SHARED_BYTES));
  cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel));
  int sms = 0, per_sm = 0, per_sm_one = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * BY, S::SHARED_BYTES));
  CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_one, one, 32 * BY, One::SHARED_BYTES));
  const Grid& g = su.g;
  dim3 nb((g.n[0] + 127) / 128, g.n[1], g.n[2]);
  init<T><<<nb, 128>>>(su.in, g);
  CK(cudaMemset(su.first_bad, 0xff, 8));
  const T* src = su.in;
  for (int s = 0; s < K; ++s) {
    T* dst = s % 2 == 0 ? su.ref : su.tmp;
    launch<1, One>(su, src, dst, sms * std::max(per_sm_one, 1));
    src = dst;
  }
  CK(cudaDeviceSynchronize());
  const size_t values = size_t(2 * g.comp_stride), bytes = values * sizeof(T);
  std::vector<T> ref(values), got(values);
  CK(cudaMemcpy(ref.data(), src, bytes, cudaMemcpyDeviceToHost));
  CK(cudaMemset(su.out, 0xff, bytes));
  const int blocks = sms * std::max(per_sm, 1);
  launch<K, S>(su, su.in, su.out, blocks);
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(got.data(), su.out, bytes, cudaMemcpyDeviceToHost));
  int64_t bad = 0;
  for (int c = 0; c < 2; ++c)
    for (int64_t k = 0; k < g.n[2]; ++k)
      for (int64_t j = 0; j < g.n[1]; ++j)
        for (int64_t i = 0; i < g.n[0]; ++i) {
          const int64_t at = g.index(c, i, j, k);
          if (memcmp(&ref[at], &got[at], sizeof(T)) != 0) ++bad;
        }
  unsigned long long fb = 0;
  CK(cudaMemcpy(&fb, su.first_bad, 8, cudaMemcpyDeviceToHost));
  const double t = time_median([&] { launch<K, S>(su, su.in, su.out, blocks); });
  const double cells = double(g.n[0]) * g.n[1] * g.n[2];
  const double eff = 2.0 * 2 * cells * sizeof(T) * K / t / 1e9;
  printf("%-5s K=%d BY=%2d RY=%d out %dx%d regs=%3d local=%4zu smemKB=%3d blk/SM=%d  eff %6.0f GB/s  /copy %.3f  bad %lld health %s\n",
         name, K, BY, RY, S::OW, S::OH, attr.numRegs, attr.localSizeBytes, S::SHARED_BYTES / 1024, per_sm, eff,
         eff / su.copy_gbps, (long long)bad, fb == kHealthy ? "ok" : "FLAGGED");
  fflush(stdout);
}

template <class T>
Setup<T> setup(int64_t n, double copy_gbps) {
  Setup<T> su{};
  su.g = Grid::make(n, n, n, 2, 1, 32 / sizeof(T));
  const size_t bytes = size_t(2 * su.g.comp_stride) * sizeof(T);
  CK(cudaMalloc(&su.in, bytes));
  CK(cudaMalloc(&su.out, bytes));
  CK(cudaMalloc(&su.ref, bytes));
  CK(cudaMalloc(&su.tmp, bytes));
  CK(cudaMemset(su.in, 0, bytes));
  const double h = 6.2e-3, dt = 5e-4, d[2] = {5e-5, 5e-3};
  ComponentTerms<T> terms[2] = {};
  for (int c = 0; c < 2; ++c) {
    const T w = static_cast<T>(d[c] * dt / (h * h));
    terms[c].diffusion = DiffusionWeights<T>{{w, w, w}, {0, 0, 0}};
    terms[c].transport = T(1);
    terms[c].mu_slot = -1;
    terms[c].diffuses = 1;
  }
  CK(cudaMalloc(&su.terms, sizeof terms));
  CK(cudaMemcpy(su.terms, terms, sizeof terms, cudaMemcpyHostToDevice));
  su.step.dt = static_cast<T>(dt);
  su.step.reaction[0] = T(0.5), su.step.reaction[1] = T(0.09), su.step.reaction[2] = T(26);
  su.step.ncomp = 2;
  std::vector<FaceCondition> f(12, FaceCondition{kNoFlux, 0.0});
  CK(cudaMalloc(&su.faces, 12 * sizeof(FaceCondition)));
  CK(cudaMemcpy(su.faces, f.data(), 12 * sizeof(FaceCondition), cudaMemcpyHostToDevice));
  CK(cudaMalloc(&su.first_bad, 8));
  su.copy_gbps = copy_gbps;
  return su;
}
template <class T>
void release(Setup<T>& su) {
  cudaFree(su.in); cudaFree(su.out); cudaFree(su.ref); cudaFree(su.tmp); cudaFree(su.terms); cudaFree(su.faces);
  cudaFree(su.first_bad);
}

// The tiles measured (the library's first; with `profile` it alone, for ncu).
template <class T>
void tiles(int64_t n, double copy, bool profile) {
  const char* name = sizeof(T) == 4 ? "f32" : "f64";
  const char* xs = sizeof(T) == 4 ? "f32xs" : "f64xs";
  auto su = setup<T>(n, copy);
  variant<T, 3, 12, 3>(su, name);
  if (!profile) {
    variant<T, 3, 12, 3, true>(su, xs);
    variant<T, 3, 11, 3, true>(su, xs);
    variant<T, 2, 12, 4, true>(su, xs);
    variant<T, 4, 12, 2>(su, name);
    variant<T, 4, 10, 3>(su, name);
    variant<T, 4, 8, 4>(su, name);
    variant<T, 3, 10, 3>(su, name);
    variant<T, 3, 8, 4>(su, name);
    variant<T, 3, 11, 3>(su, name);
    variant<T, 2, 12, 4>(su, name);
    variant<T, 2, 12, 5>(su, name);
    variant<T, 2, 8, 6>(su, name);
  }
  release(su);
}

int main(int argc, char** argv) {
  const int64_t n = argc > 1 ? atoll(argv[1]) : 512;
  const bool profile = argc > 2 && std::string(argv[2]) == "profile";  // the library's tiles alone (for ncu)
  const double copy = copy_bandwidth(size_t(1) << 30);
  printf("n %lld copy %.0f GB/s; Turing, two components a tile, NOFLUX faces\n", (long long)n, copy);
  tiles<float>(n, copy, profile);
  tiles<double>(n, copy, profile);
  return 0;
}
