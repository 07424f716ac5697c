// The device's copy bandwidth, the bound the CA benchmarks report against: a benchmark
// case timing cudaMemcpy of `bytes` on the device, best of five after a warm-up (host
// clock around synchronized copies), its bytes read + written per second into *rate.
#pragma once

#include <benchmark/benchmark.h>
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstddef>

// The best of five synchronized cudaMemcpy of `bytes` between device buffers a and b,
// after a warm-up, in seconds.
inline double best_device_copy_seconds(void* b, const void* a, size_t bytes) {
  double best = 0;
  for (int rep = 0; rep < 6; ++rep) {
    cudaDeviceSynchronize();
    const auto start = std::chrono::steady_clock::now();
    cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice);
    cudaDeviceSynchronize();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (rep > 0 && (best == 0 || s < best)) best = s;
  }
  return best;
}

inline void BM_device_copy(benchmark::State& state, size_t bytes, double* rate) {
  void *a = nullptr, *b = nullptr;
  if (cudaMalloc(&a, bytes) != cudaSuccess || cudaMalloc(&b, bytes) != cudaSuccess) {
    state.SkipWithError("cudaMalloc");
    cudaFree(a);
    return;
  }
  double best = 0;
  for (auto _ : state) {
    best = best_device_copy_seconds(b, a, bytes);
    state.SetIterationTime(best);
  }
  *rate = 2.0 * static_cast<double>(bytes) / best;
  state.counters["GB_per_s"] = *rate / 1e9;
  cudaFree(a);
  cudaFree(b);
}
