// A host that lives on the GPU (issue 43): its own CUDA transport kernel (first-order
// upwind advection on a periodic ring of cells, Courant 0.5) and opsplit's chemistry
// (POLLU, 20 species, one minute a step, RODAS4, keep_step) in every cell, Lie split.
// The same step four ways, end to end:
//   host_path    the host copies its device array to host memory, set_state,
//                integrate, get_state, copies back (what a GPU host had to do before
//                the _device forms); pageable and page-locked host memory
//   device_soa   set_state_device / get_state_device on its [species][cell] arrays
//   device_aos   the same from [cell][species] arrays (transposed on the device)
//   wrap         opsplit_ode_wrap_state_device on the transport's output: no copy
// and the parts alone: transport, integrate. Counters per step (ms): step, and for
// host_path the copies' share; bounds measured in the same run: host<->device copy
// bandwidth (page-locked, the fastest a host path can copy) and the device's D2D copy.
//   bench_gpu_host [--cells N] [benchmark flags]    (N default 1000000)
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "api_check.hpp"
#include "device_copy.hpp"
#include "opsplit/opsplit.h"
#include "pollu.h"

namespace {

constexpr int kNs = POLLU_NSPECIES;
int64_t g_cells = 1000000;
constexpr double kDt = 1.0;  // minutes (POLLU's unit)

// c_new[s][i] = c[s][i] - 0.5 (c[s][i] - c[s][i-1]) on a ring (SOA), or the same in AOS.
__global__ void advect(const double* __restrict__ c, double* __restrict__ c_new, int64_t cells, int aos) {
  const int64_t n = cells * kNs;
  for (int64_t k = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += int64_t(gridDim.x) * blockDim.x) {
    if (aos) {
      const int64_t i = k / kNs, s = k % kNs, up = (i + cells - 1) % cells;
      c_new[k] = c[k] - 0.5 * (c[k] - c[up * kNs + s]);
    } else {
      const int64_t s = k / cells, i = k % cells, up = (i + cells - 1) % cells;
      c_new[k] = c[k] - 0.5 * (c[k] - c[s * cells + up]);
    }
  }
}

void transport(const double* c, double* c_new, int aos) {
  advect<<<132 * 16, 256>>>(c, c_new, g_cells, aos);
}

// POLLU's start in every cell, three times the NO in the first quarter (the plume).
std::vector<double> start(int aos) {
  std::vector<double> y(static_cast<size_t>(g_cells) * kNs);
  for (int64_t i = 0; i < g_cells; ++i)
    for (int s = 0; s < kNs; ++s) {
      double v = pollu_y0[s];
      if (i < g_cells / 4 && s == 1) v *= 3.0;
      y[aos ? i * kNs + s : s * g_cells + i] = v;
    }
  return y;
}

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// The host's world: its device arrays and opsplit's batch.
struct Host {
  std::string error;
  opsplit_context ctx = nullptr;
  opsplit_mechanism mech = nullptr;
  opsplit_ode ode = nullptr;
  double *c = nullptr, *c_new = nullptr;
  double t = 0;
  bool ready = false;
  explicit Host(int aos) {
    const size_t bytes = static_cast<size_t>(g_cells) * kNs * sizeof(double);
    if (cudaMalloc(&c, bytes) != cudaSuccess || cudaMalloc(&c_new, bytes) != cudaSuccess) {
      error = "cudaMalloc";
      return;
    }
    const std::vector<double> y = start(aos);
    cudaMemcpy(c, y.data(), bytes, cudaMemcpyHostToDevice);
    ready = make();
  }
  bool make() {
    API_CHECK_RET(opsplit_context_create(OPSPLIT_BACKEND_CUDA, &ctx), false);
    API_CHECK_RET(pollu_build(ctx, &mech), false);
    API_CHECK_RET(opsplit_ode_create(ctx, kNs, g_cells, 0, &ode), false);
    API_CHECK_RET(opsplit_ode_set_mechanism(ode, mech), false);
    API_CHECK_RET(opsplit_ode_set_tolerances(ode, 1e-6, 1e-10), false);
    API_CHECK_RET(opsplit_ode_set_keep_step(ode, 1), false);
    return true;
  }
  ~Host() {
    opsplit_ode_destroy(&ode);
    opsplit_mechanism_destroy(&mech);
    opsplit_context_destroy(&ctx);
    cudaFree(c);
    cudaFree(c_new);
  }
  void swap() { std::swap(c, c_new); }
};

enum class Path { host_pageable, host_pinned, device_soa, device_aos, wrap, transport_only, integrate_only };

// One step of the path; returns false (error set) on a failed call.
bool step(Host& h, Path path, double* host_buffer, double* copy_seconds) {
  std::string& error = h.error;
  const size_t bytes = static_cast<size_t>(g_cells) * kNs * sizeof(double);
  const int aos = path == Path::device_aos;
  if (path != Path::integrate_only) transport(h.c, h.c_new, aos);
  switch (path) {
    case Path::host_pageable:
    case Path::host_pinned: {
      const double t0 = now();
      cudaMemcpy(host_buffer, h.c_new, bytes, cudaMemcpyDeviceToHost);
      *copy_seconds += now() - t0;
      API_CHECK_RET(opsplit_ode_set_state(h.ode, host_buffer, OPSPLIT_ODE_SOA), false);
      API_CHECK_RET(opsplit_ode_integrate(h.ode, h.t, h.t + kDt), false);
      API_CHECK_RET(opsplit_ode_get_state(h.ode, host_buffer, OPSPLIT_ODE_SOA), false);
      const double t1 = now();
      cudaMemcpy(h.c, host_buffer, bytes, cudaMemcpyHostToDevice);
      *copy_seconds += now() - t1;
      break;
    }
    case Path::device_soa:
    case Path::device_aos: {
      const auto layout = aos ? OPSPLIT_ODE_AOS : OPSPLIT_ODE_SOA;
      API_CHECK_RET(opsplit_ode_set_state_device(h.ode, h.c_new, layout), false);
      API_CHECK_RET(opsplit_ode_integrate(h.ode, h.t, h.t + kDt), false);
      API_CHECK_RET(opsplit_ode_get_state_device(h.ode, h.c, layout), false);
      break;
    }
    case Path::wrap:
      API_CHECK_RET(opsplit_ode_wrap_state_device(h.ode, h.c_new), false);
      API_CHECK_RET(opsplit_ode_integrate(h.ode, h.t, h.t + kDt), false);
      h.swap();  // the chemistry's output is the next transport's input
      break;
    case Path::transport_only:
      h.swap();
      break;
    case Path::integrate_only:
      API_CHECK_RET(opsplit_ode_integrate(h.ode, h.t, h.t + kDt), false);
      break;
  }
  cudaDeviceSynchronize();
  h.t += kDt;
  return true;
}

void BM_step(benchmark::State& state, Path path) {
  Host h(path == Path::device_aos);
  if (!h.ready) {
    state.SkipWithError(h.error.c_str());
    return;
  }
  const size_t bytes = static_cast<size_t>(g_cells) * kNs * sizeof(double);
  std::vector<double> pageable;
  double* host_buffer = nullptr;
  if (path == Path::host_pageable) {
    pageable.resize(static_cast<size_t>(g_cells) * kNs);
    host_buffer = pageable.data();
  } else if (path == Path::host_pinned && cudaMallocHost(&host_buffer, bytes) != cudaSuccess) {
    state.SkipWithError("cudaMallocHost");
    return;
  }
  if (path == Path::integrate_only) {
    std::string& error = h.error;
    auto set = [&]() { API_CHECK_RET(opsplit_ode_set_state_device(h.ode, h.c, OPSPLIT_ODE_SOA), false); return true; };
    if (!set()) {
      state.SkipWithError(h.error.c_str());
      return;
    }
  }
  double copies = 0;
  for (int warm = 0; warm < 2; ++warm)  // the kept steps settle; the first call's setup goes
    if (!step(h, path, host_buffer, &copies)) {
      state.SkipWithError(h.error.c_str());
      return;
    }
  copies = 0;
  double total = 0;
  int64_t steps = 0;
  for (auto _ : state) {
    const double t0 = now();
    if (!step(h, path, host_buffer, &copies)) {
      state.SkipWithError(h.error.c_str());
      break;
    }
    const double s = now() - t0;
    state.SetIterationTime(s);
    total += s;
    ++steps;
  }
  if (path == Path::host_pinned) cudaFreeHost(host_buffer);
  if (steps == 0) return;
  state.counters["ms_per_step"] = 1e3 * total / static_cast<double>(steps);
  if (copies > 0) state.counters["host_copies_ms"] = 1e3 * copies / static_cast<double>(steps);
  state.counters["cells"] = static_cast<double>(g_cells);
}

// Host<->device copy bandwidth with page-locked memory, both ways: the bound of the
// host's own two copies in host_path (opsplit's set/get add two more of the same size).
void BM_host_device_copy(benchmark::State& state) {
  const size_t bytes = static_cast<size_t>(g_cells) * kNs * sizeof(double);
  void *d = nullptr, *h = nullptr;
  if (cudaMalloc(&d, bytes) != cudaSuccess || cudaMallocHost(&h, bytes) != cudaSuccess) {
    state.SkipWithError("allocation");
    return;
  }
  double best = 0;
  for (auto _ : state) {
    best = 0;
    for (int rep = 0; rep < 4; ++rep) {
      const double t0 = now();
      cudaMemcpy(h, d, bytes, cudaMemcpyDeviceToHost);
      cudaMemcpy(d, h, bytes, cudaMemcpyHostToDevice);
      const double s = now() - t0;
      if (rep > 0 && (best == 0 || s < best)) best = s;
    }
    state.SetIterationTime(best);
  }
  state.counters["GB_per_s"] = 2.0 * static_cast<double>(bytes) / best / 1e9;
  state.counters["round_trip_ms"] = 1e3 * best;
  cudaFree(d);
  cudaFreeHost(h);
}

double g_d2d = 0;

}  // namespace

int main(int argc, char** argv) {
  // --cells N, taken out of the arguments before Google Benchmark reads them.
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cells") == 0 && i + 1 < argc)
      g_cells = std::atoll(argv[++i]);
    else
      argv[kept++] = argv[i];
  }
  argc = kept;
  const size_t bytes = static_cast<size_t>(g_cells) * kNs * sizeof(double);
  benchmark::RegisterBenchmark("device_copy", [bytes](benchmark::State& s) { BM_device_copy(s, bytes, &g_d2d); })
      ->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);
  benchmark::RegisterBenchmark("host_device_copy_pinned", BM_host_device_copy)
      ->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(1);
  const std::pair<const char*, Path> cases[] = {
      {"transport_only", Path::transport_only}, {"integrate_only", Path::integrate_only},
      {"step/host_path_pageable", Path::host_pageable}, {"step/host_path_pinned", Path::host_pinned},
      {"step/device_soa", Path::device_soa}, {"step/device_aos", Path::device_aos}, {"step/wrap", Path::wrap}};
  for (const auto& c : cases)
    benchmark::RegisterBenchmark(c.first, [path = c.second](benchmark::State& s) { BM_step(s, path); })
        ->UseManualTime()->Unit(benchmark::kMillisecond)->Iterations(30);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
