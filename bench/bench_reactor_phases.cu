// Where a gas reactor's RODAS4 step spends its GPU time, and whether a warp per system
// does the dense linear algebra faster than the library's one thread per system.
//
// Issue 5 asks to measure one-thread-per-system against cooperative (warp or block per
// system) kernels for the Jacobian and the LU, per mechanism size. The phases of one
// step, each timed alone over many systems (CUDA events, after a warm-up launch):
//   reactor_<mech>/rhs_thread       one reactor_rhs per system (a step makes six)
//   reactor_<mech>/jacobian_thread  one analytic reactor_jacobian per system
//   reactor_<mech>/lu_thread        G = 1/(gamma h) - J, lu_factor, six lu_solve:
//                                   integrators.cuh's functions, one thread per system,
//                                   G in local memory as in the library's kernel
//   reactor_<mech>/lu_warp          the same arithmetic by one warp per system on G in
//                                   shared memory (the cooperative design); its
//                                   solutions must equal lu_thread's bit for bit
// and fp64_fma_peak: the device's double-precision FMA rate, the flop bound.
// Mechanisms: h2o2.yaml (11 equations) and gri30.yaml (54), constant pressure, states
// at 1000-1600 K with every species present (majors of a stoichiometric mixture, the
// rest 1e-6 to 1e-4, mt19937_64 seed 5). Counters: ns_per_system, gflops (the LU's
// 2n^3/3 and the solves' 6 * 2n^2; the Jacobian's and rhs's are not counted),
// frac_of_fp64_peak, and for lu_warp x_thread (lu_thread's time / lu_warp's).
//
// Systems: OPSPLIT_BENCH_PHASES_SYSTEMS (default 2 x 10^5; GRI a quarter).
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "chem/gas.hpp"
#include "chem/loaders.hpp"
#include "chem/reactor.cuh"
#include "ode/integrators.cuh"

namespace {

using opsplit::chem::GasKinetics;
using opsplit::chem::kConstantPressure;

constexpr double kPressure = 101325.0;
constexpr double kGammaH = 0.25 * 1e-7;  // RODAS4's gamma times a step near ignition
constexpr int kSolves = 6;
constexpr int kThreads = 64;

#define CUDA_OK(call)                                                                        \
  do {                                                                                       \
    const cudaError_t e_ = (call);                                                           \
    if (e_ != cudaSuccess) {                                                                 \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

template <class T>
struct DeviceArray {
  T* p = nullptr;
  size_t n = 0;
  explicit DeviceArray(size_t count) : n(count) { CUDA_OK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T))); }
  DeviceArray(const DeviceArray&) = delete;
  ~DeviceArray() { cudaFree(p); }
  void upload(const std::vector<T>& v) { CUDA_OK(cudaMemcpy(p, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice)); }
  std::vector<T> download() const {
    std::vector<T> v(n);
    CUDA_OK(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
};

// ---- one thread per system ------------------------------------------------------------

// y, out: [eq][sys].
template <int N>
__global__ void rhs_thread(GasKinetics g, int n, int64_t nsys, const double* y, double* out) {
  const int64_t s = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= nsys) return;
  double ys[N], f[N], scratch[opsplit::chem::reactor_scratch_size(N)];
  for (int e = 0; e < n; ++e) ys[e] = y[e * nsys + s];
  const double p = kPressure;
  opsplit::chem::reactor_rhs(g, kConstantPressure, &p, ys, f, scratch);
  for (int e = 0; e < n; ++e) out[e * nsys + s] = f[e];
}

// jac: [entry][sys], column-major entries.
template <int N>
__global__ void jacobian_thread(GasKinetics g, int n, int64_t nsys, const double* y, double* jac) {
  const int64_t s = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= nsys) return;
  double ys[N], J[N * N], scratch[opsplit::chem::reactor_scratch_size(N)];
  for (int e = 0; e < n; ++e) ys[e] = y[e * nsys + s];
  const double p = kPressure;
  opsplit::chem::reactor_jacobian(g, kConstantPressure, &p, ys, J, scratch);
  for (int e = 0; e < n * n; ++e) jac[e * nsys + s] = J[e];
}

// x: [solve][eq][sys], the six solutions of G x = b with b = the system's f, then each
// solution the next right-hand side (as RODAS4's stages feed one another).
template <int N>
__global__ void lu_thread(int n, int64_t nsys, const double* jac, const double* f, double* x, int* singular) {
  const int64_t s = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (s >= nsys) return;
  double G[N * N], b[N];
  int piv[N];
  for (int e = 0; e < n * n; ++e) G[e] = -jac[e * nsys + s];
  for (int i = 0; i < n; ++i) G[i + i * n] += 1.0 / kGammaH;
  if (!opsplit::ode::lu_factor(n, G, piv)) {
    atomicAdd(singular, 1);
    return;
  }
  for (int e = 0; e < n; ++e) b[e] = f[e * nsys + s];
  for (int q = 0; q < kSolves; ++q) {
    opsplit::ode::lu_solve(n, G, piv, b);
    for (int e = 0; e < n; ++e) x[(q * n + e) * nsys + s] = b[e];
  }
}

// ---- one warp per system: the cooperative LU ---------------------------------------------
// The same operations in the same order per element as lu_factor / lu_solve, the rows
// of each column split over the lanes, so the results are the same bits.

__device__ bool warp_lu_factor(int n, double* a, int* piv, int lane) {
  for (int k = 0; k < n; ++k) {
    // The pivot: the first row of the largest |a(i, k)|, i >= k, as lu_factor picks it.
    double big = -1.0;
    int p = n;
    for (int i = k + lane; i < n; i += 32) {
      const double v = fabs(a[i + k * n]);
      if (v > big) big = v, p = i;
    }
    for (int offset = 16; offset > 0; offset /= 2) {
      const double ob = __shfl_down_sync(0xffffffffu, big, offset);
      const int op = __shfl_down_sync(0xffffffffu, p, offset);
      if (ob > big || (ob == big && op < p)) big = ob, p = op;
    }
    big = __shfl_sync(0xffffffffu, big, 0), p = __shfl_sync(0xffffffffu, p, 0);
    if (lane == 0) piv[k] = p;
    if (p >= n || big == 0.0 || !opsplit::ode::is_finite(big)) return false;
    if (p != k)
      for (int j = lane; j < n; j += 32) {
        const double tmp = a[k + j * n];
        a[k + j * n] = a[p + j * n], a[p + j * n] = tmp;
      }
    __syncwarp();
    const double inv = 1.0 / a[k + k * n];
    for (int i = k + 1 + lane; i < n; i += 32) a[i + k * n] *= inv;
    __syncwarp();
    for (int j = k + 1; j < n; ++j) {
      const double akj = a[k + j * n];
      if (akj != 0.0)
        for (int i = k + 1 + lane; i < n; i += 32) a[i + j * n] -= a[i + k * n] * akj;
    }
    __syncwarp();
  }
  return true;
}

__device__ void warp_lu_solve(int n, const double* lu, const int* piv, double* b, int lane) {
  if (lane == 0)
    for (int k = 0; k < n; ++k) {
      const int p = piv[k];
      if (p != k) {
        const double tmp = b[k];
        b[k] = b[p], b[p] = tmp;
      }
    }
  __syncwarp();
  for (int k = 0; k < n; ++k) {
    const double bk = b[k];
    for (int i = k + 1 + lane; i < n; i += 32) b[i] -= lu[i + k * n] * bk;
    __syncwarp();
  }
  for (int k = n - 1; k >= 0; --k) {
    const double bk = b[k] / lu[k + k * n];
    __syncwarp();
    if (lane == 0) b[k] = bk;
    for (int i = lane; i < k; i += 32) b[i] -= lu[i + k * n] * bk;
    __syncwarp();
  }
}

// Warps per block; each warp's G, b and pivots in dynamic shared memory.
constexpr int kWarps = 2;

__host__ __device__ size_t warp_shared_bytes(int n) { return static_cast<size_t>(n) * (n + 1) * sizeof(double) + n * sizeof(int); }

// jac_by_system: [sys][entry] (a system's entries together, for the warp's loads).
__global__ void lu_warp(int n, int64_t nsys, const double* jac_by_system, const double* f, double* x, int* singular) {
  extern __shared__ double shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const size_t per_warp = warp_shared_bytes(n) / sizeof(double) + 1;
  double* G = shared + warp * per_warp;
  double* b = G + n * n;
  int* piv = reinterpret_cast<int*>(b + n);
  for (int64_t s = static_cast<int64_t>(blockIdx.x) * kWarps + warp; s < nsys;
       s += static_cast<int64_t>(gridDim.x) * kWarps) {
    const double* J = jac_by_system + s * n * n;
    for (int e = lane; e < n * n; e += 32) G[e] = -J[e];
    __syncwarp();
    for (int i = lane; i < n; i += 32) G[i + i * n] += 1.0 / kGammaH;
    __syncwarp();
    if (!warp_lu_factor(n, G, piv, lane)) {
      if (lane == 0) atomicAdd(singular, 1);
      continue;
    }
    for (int e = lane; e < n; e += 32) b[e] = f[e * nsys + s];
    __syncwarp();
    for (int q = 0; q < kSolves; ++q) {
      warp_lu_solve(n, G, piv, b, lane);
      for (int e = lane; e < n; e += 32) x[(q * n + e) * nsys + s] = b[e];
      __syncwarp();
    }
  }
}

// ---- the flop bound ----------------------------------------------------------------------

__global__ void fma_peak(int iterations, double* out) {
  double a = threadIdx.x * 1e-3, b = a + 1.0, c = a + 2.0, d = a + 3.0;
  const double m = 0.999999, k = 1e-7;
  for (int i = 0; i < iterations; ++i) {
    a = fma(a, m, k), b = fma(b, m, k), c = fma(c, m, k), d = fma(d, m, k);
    a = fma(a, m, k), b = fma(b, m, k), c = fma(c, m, k), d = fma(d, m, k);
  }
  if (a + b + c + d == 42.0) out[0] = a;  // keeps the chains alive
}

double g_fp64_peak_flops = 0;

// ---- problems ----------------------------------------------------------------------------

std::string mechanism_path(const std::string& file) {
  const char* data = std::getenv("OPSPLIT_VALIDATION_DATA");
  return std::string(data != nullptr ? data : OPSPLIT_SHARED_DATA) + "/mechanisms/" + file;
}

struct Problem {
  std::string name;
  int n = 0;
  int64_t nsys = 0;
  std::unique_ptr<opsplit::chem::CompiledGas> gas;
  std::unique_ptr<DeviceArray<int>> ints;
  std::unique_ptr<DeviceArray<double>> doubles, y, f, jac, jac_by_system, x_thread, x_warp;
  GasKinetics g;
  std::map<std::string, double> seconds;  // per case
};

void make_problem(Problem& p, const std::string& file, const std::vector<std::pair<std::string, double>>& moles,
                  int64_t nsys) {
  const opsplit::chem::GasMechanism mech = opsplit::chem::load_yaml(mechanism_path(file), "");
  p.gas = std::make_unique<opsplit::chem::CompiledGas>(mech);
  const int ns = static_cast<int>(mech.species.size());
  p.n = ns + 1;
  p.nsys = nsys;
  std::vector<double> Y0(static_cast<size_t>(ns), 0.0);
  for (const auto& [name, x] : moles) {
    const int k = mech.find_species(name);
    Y0[static_cast<size_t>(k)] = x * mech.species[static_cast<size_t>(k)].molar_mass;
  }
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  std::vector<double> y(static_cast<size_t>(p.n * nsys));
  for (int64_t s = 0; s < nsys; ++s) {
    std::vector<double> Y = Y0;
    double sum = 0;
    for (double& v : Y) sum += v = v > 0 ? v * (0.9 + 0.2 * u(rng)) : std::pow(10.0, -6.0 + 2.0 * u(rng));
    y[static_cast<size_t>(s)] = 1000.0 + 600.0 * u(rng);
    for (int k = 0; k < ns; ++k) y[static_cast<size_t>((k + 1) * nsys + s)] = Y[static_cast<size_t>(k)] / sum;
  }
  p.ints = std::make_unique<DeviceArray<int>>(p.gas->ints().size());
  p.doubles = std::make_unique<DeviceArray<double>>(p.gas->doubles().size());
  p.ints->upload(p.gas->ints());
  p.doubles->upload(p.gas->doubles());
  p.g = p.gas->view_at(p.ints->p, p.doubles->p);
  const auto values = static_cast<size_t>(p.n) * static_cast<size_t>(nsys);
  p.y = std::make_unique<DeviceArray<double>>(values);
  p.y->upload(y);
  p.f = std::make_unique<DeviceArray<double>>(values);
  p.jac = std::make_unique<DeviceArray<double>>(values * static_cast<size_t>(p.n));
  p.jac_by_system = std::make_unique<DeviceArray<double>>(values * static_cast<size_t>(p.n));
  p.x_thread = std::make_unique<DeviceArray<double>>(values * kSolves);
  p.x_warp = std::make_unique<DeviceArray<double>>(values * kSolves);
}

// Median of `passes` timed launches (after one untimed), seconds.
template <class Launch>
double time_launches(Launch launch, int passes = 5) {
  cudaEvent_t start, stop;
  CUDA_OK(cudaEventCreate(&start));
  CUDA_OK(cudaEventCreate(&stop));
  launch();
  CUDA_OK(cudaGetLastError());
  CUDA_OK(cudaDeviceSynchronize());
  std::vector<double> times;
  for (int i = 0; i < passes; ++i) {
    CUDA_OK(cudaEventRecord(start));
    launch();
    CUDA_OK(cudaEventRecord(stop));
    CUDA_OK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_OK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(1e-3 * ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

unsigned blocks(int64_t threads, int per_block) {
  return static_cast<unsigned>((threads + per_block - 1) / per_block);
}

template <int N>
void BM_phase(benchmark::State& state, Problem* p, std::string phase) {
  const int n = p->n;
  const int64_t nsys = p->nsys;
  DeviceArray<int> singular(1);
  CUDA_OK(cudaMemset(singular.p, 0, sizeof(int)));
  double seconds = 0;
  double flops = 0;
  for (auto _ : state) {
    if (phase == "rhs_thread") {
      seconds = time_launches([&] { rhs_thread<N><<<blocks(nsys, kThreads), kThreads>>>(p->g, n, nsys, p->y->p, p->f->p); });
    } else if (phase == "jacobian_thread") {
      seconds = time_launches(
          [&] { jacobian_thread<N><<<blocks(nsys, kThreads), kThreads>>>(p->g, n, nsys, p->y->p, p->jac->p); });
      // The warp kernel reads each system's entries together.
      const std::vector<double> jac = p->jac->download();
      std::vector<double> by_system(jac.size());
      const auto nn = static_cast<size_t>(n) * static_cast<size_t>(n);
      for (size_t e = 0; e < nn; ++e)
        for (int64_t s = 0; s < nsys; ++s)
          by_system[static_cast<size_t>(s) * nn + e] = jac[e * static_cast<size_t>(nsys) + static_cast<size_t>(s)];
      p->jac_by_system->upload(by_system);
    } else if (phase == "lu_thread") {
      seconds = time_launches([&] {
        lu_thread<N><<<blocks(nsys, kThreads), kThreads>>>(n, nsys, p->jac->p, p->f->p, p->x_thread->p, singular.p);
      });
      flops = 2.0 * n * n * n / 3.0 + kSolves * 2.0 * n * n;
    } else {
      const size_t shared = kWarps * (warp_shared_bytes(n) + sizeof(double));
      CUDA_OK(cudaFuncSetAttribute(lu_warp, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
      int per_sm = 0, sms = 0;
      CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lu_warp, 32 * kWarps, shared));
      CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
      const unsigned grid = static_cast<unsigned>(std::max(1, per_sm * sms));
      seconds = time_launches([&] {
        lu_warp<<<grid, 32 * kWarps, shared>>>(n, nsys, p->jac_by_system->p, p->f->p, p->x_warp->p, singular.p);
      });
      flops = 2.0 * n * n * n / 3.0 + kSolves * 2.0 * n * n;
      state.counters["warps_per_sm"] = per_sm * kWarps;
    }
    state.SetIterationTime(seconds);
  }
  const std::vector<int> failed = singular.download();
  if (failed[0] != 0) {
    state.SkipWithError((std::to_string(failed[0]) + " singular matrices").c_str());
    return;
  }
  p->seconds[phase] = seconds;
  state.counters["systems"] = static_cast<double>(nsys);
  state.counters["ns_per_system"] = 1e9 * seconds / static_cast<double>(nsys);
  if (flops > 0) {
    state.counters["gflops"] = 1e-9 * flops * static_cast<double>(nsys) / seconds;
    if (g_fp64_peak_flops > 0) state.counters["frac_of_fp64_peak"] = flops * static_cast<double>(nsys) / seconds / g_fp64_peak_flops;
  }
  if (phase == "lu_warp") {
    const std::vector<double> a = p->x_thread->download(), b = p->x_warp->download();
    size_t differ = 0;
    for (size_t i = 0; i < a.size(); ++i) differ += std::memcmp(&a[i], &b[i], sizeof(double)) != 0;
    if (differ != 0) {
      state.SkipWithError((std::to_string(differ) + " values of lu_warp differ from lu_thread's").c_str());
      return;
    }
    if (p->seconds.count("lu_thread")) state.counters["x_thread"] = p->seconds["lu_thread"] / seconds;
  }
}

void BM_fma_peak(benchmark::State& state) {
  int sms = 0;
  CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  DeviceArray<double> out(1);
  const int iterations = 1 << 16;
  const unsigned grid = static_cast<unsigned>(sms * 8);
  double seconds = 0;
  for (auto _ : state) {
    seconds = time_launches([&] { fma_peak<<<grid, 256>>>(iterations, out.p); });
    state.SetIterationTime(seconds);
  }
  g_fp64_peak_flops = 2.0 * 8.0 * iterations * grid * 256.0 / seconds;
  state.counters["fp64_tflops"] = 1e-12 * g_fp64_peak_flops;
}

int64_t env_count(const char* name, int64_t fallback) {
  if (const char* s = std::getenv(name)) {
    const long long v = std::strtoll(s, nullptr, 10);
    if (v >= 1 && v <= (int64_t(1) << 31)) return v;
  }
  return fallback;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "bench_reactor_phases: no CUDA device\n");
    return 1;
  }
  cudaDeviceProp prop{};
  CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  benchmark::AddCustomContext("cuda_device", prop.name);
  const int64_t nsys = env_count("OPSPLIT_BENCH_PHASES_SYSTEMS", 200000);
  static Problem h2o2, gri;
  try {
    h2o2.name = "h2o2";
    make_problem(h2o2, "h2o2.yaml", {{"H2", 2.0}, {"O2", 1.0}, {"N2", 4.0}}, nsys);
    gri.name = "gri30";
    make_problem(gri, "gri30.yaml", {{"CH4", 1.0}, {"O2", 2.0}, {"N2", 7.52}}, std::max<int64_t>(1, nsys / 4));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_reactor_phases: %s\n", e.what());
    return 1;
  }
  auto add = [](const std::string& name, auto fn, auto... args) {
    benchmark::RegisterBenchmark(name.c_str(), fn, args...)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  };
  add("fp64_fma_peak", BM_fma_peak);
  for (const char* phase : {"rhs_thread", "jacobian_thread", "lu_thread", "lu_warp"}) {
    add(std::string("reactor_h2o2/") + phase, BM_phase<16>, &h2o2, std::string(phase));
  }
  for (const char* phase : {"rhs_thread", "jacobian_thread", "lu_thread", "lu_warp"}) {
    add(std::string("reactor_gri30/") + phase, BM_phase<64>, &gri, std::string(phase));
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
