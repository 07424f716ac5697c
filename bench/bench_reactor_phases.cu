// Where a gas reactor's RODAS4 step spends its GPU time, and whether a warp per system
// computes it faster than the library's one thread per system.
//
// Issue 5 asks to measure one-thread-per-system against cooperative (warp or block per
// system) kernels for the Jacobian and the LU, per mechanism size. The phases of one
// step, each timed alone over many systems (CUDA events, after a warm-up launch):
//   reactor_<mech>/rhs_thread       one reactor_rhs per system (a step makes six)
//   reactor_<mech>/jacobian_thread  one analytic reactor_jacobian per system
//   reactor_<mech>/lu_thread        G = 1/(gamma h) - J, lu_factor, six lu_solve:
//                                   integrators.cuh's functions, one thread per system,
//                                   G in local memory as in the library's kernel
//   reactor_<mech>/*_warp           the same by one warp per system (bench/reactor_warp.cuh,
//                                   warp_lu.cuh) on state, scratch and matrix in
//                                   shared memory (the cooperative design); each must
//                                   give its thread kernel's results (the LU bit for
//                                   bit, the rhs and Jacobian to 1e-12: see BM_phase)
//   reactor_<mech>/*_warp_l2        the same with the reaction terms (6 per reaction) in
//                                   global memory, L2-resident: more warps fit per SM
//   reactor_<mech>/lu_warp_global   the warp LU on G in global memory: what a warp of
//                                   thread-per-system lanes could do for its 32 systems
// and fp64_fma_peak: the device's double-precision FMA rate, the flop bound.
// Mechanisms: h2o2.yaml (11 equations), gri30.yaml (54) and gri30_inert47 (101: gri30
// with 47 inert species, tests/unit/inert_species.hpp), constant pressure, states
// at 1000-1600 K with every species present (majors of a stoichiometric mixture, the
// rest 1e-6 to 1e-4, mt19937_64 seed 5). Counters: ns_per_system, gflops (the LU's
// 2n^3/3 and the solves' 6 * 2n^2; the Jacobian's and rhs's are not counted),
// frac_of_fp64_peak, for the warp kernels x_thread (the thread kernel's time / the warp's),
// warps_per_sm (resident), values_not_same_bits and max_relative_difference.
//
// Systems: OPSPLIT_BENCH_PHASES_SYSTEMS (default 2 x 10^5; GRI a quarter, gri30_inert47
// an eighth).
#include <benchmark/benchmark.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "chem/gas.hpp"
#include "chem/loaders.hpp"
#include "chem/reactor.cuh"
#include "reactor_warp.cuh"
#include "inert_species.hpp"
#include "ode/integrators.cuh"
#include "warp_lu.cuh"

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

// ---- one warp per system ----------------------------------------------------------------
// The rhs and the Jacobian (reactor_warp.cuh): the state, the scratch and the
// Jacobian in shared memory, kWarps systems per block at a time; the rhs out as
// [eq][sys] and the Jacobian as [sys][entry], to compare bit for bit with the thread
// kernels' (the Jacobian transposed on the host).

// Doubles of shared memory per warp: state and rhs (or Jacobian), the reactor scratch,
// and the reaction terms unless they are in global memory (`terms_global`).
size_t warp_kinetics_doubles(const GasKinetics& g, int n, bool jacobian, bool terms_global) {
  return static_cast<size_t>(2 * n + opsplit::chem::reactor_scratch_size(g.nspecies) +
                             (terms_global ? 0 : opsplit::chem::reactor_warp_terms_size(g.nreactions)) +
                             (jacobian ? n * n : 0));
}

constexpr int kWarps = 2;

// The warp's shared memory, and its reaction terms: in shared memory after the rest, or
// its slot of `terms_global` (one per resident warp: the grid is no larger).
struct WarpMemory {
  double* shared;
  double* terms;
};
__device__ WarpMemory warp_memory(double* shared, size_t per_warp, double* terms_global, int terms_size, int warp) {
  double* mine = shared + warp * per_warp;
  if (terms_global == nullptr) return WarpMemory{mine, mine + per_warp - terms_size};
  return WarpMemory{mine, terms_global + static_cast<size_t>(blockIdx.x * kWarps + warp) * terms_size};
}

__global__ void rhs_warp(GasKinetics g, int n, int64_t nsys, size_t per_warp, double* terms_global, const double* y,
                         double* out) {
  extern __shared__ double shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const WarpMemory m = warp_memory(shared, per_warp, terms_global, opsplit::chem::reactor_warp_terms_size(g.nreactions), warp);
  double* ys = m.shared;
  double* f = ys + n;
  double* scratch = f + n;
  const double p = kPressure;
  for (int64_t s = static_cast<int64_t>(blockIdx.x) * kWarps + warp; s < nsys;
       s += static_cast<int64_t>(gridDim.x) * kWarps) {
    for (int e = lane; e < n; e += 32) ys[e] = y[e * nsys + s];
    __syncwarp();
    opsplit::chem::reactor_rhs_warp(g, kConstantPressure, &p, ys, f, scratch, m.terms, lane);
    for (int e = lane; e < n; e += 32) out[e * nsys + s] = f[e];
    __syncwarp();
  }
}

__global__ void jacobian_warp(GasKinetics g, int n, int64_t nsys, size_t per_warp, double* terms_global,
                              const double* y, double* jac) {
  extern __shared__ double shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const WarpMemory m = warp_memory(shared, per_warp, terms_global, opsplit::chem::reactor_warp_terms_size(g.nreactions), warp);
  double* ys = m.shared;
  double* J = ys + 2 * n;
  double* scratch = J + n * n;
  const double p = kPressure;
  for (int64_t s = static_cast<int64_t>(blockIdx.x) * kWarps + warp; s < nsys;
       s += static_cast<int64_t>(gridDim.x) * kWarps) {
    for (int e = lane; e < n; e += 32) ys[e] = y[e * nsys + s];
    __syncwarp();
    opsplit::chem::reactor_jacobian_warp(g, kConstantPressure, &p, ys, J, scratch, m.terms, lane);
    double* out = jac + s * n * n;
    for (int e = lane; e < n * n; e += 32) out[e] = J[e];
    __syncwarp();
  }
}

// The LU (warp_lu.cuh): each warp's G, b and pivots in dynamic shared memory, or
// (lu_warp_global) in its slot of `global_work`, as a warp would factor the matrices of
// the 32 systems its lanes integrate one by one (no shared memory holds 32 of them).
__host__ __device__ size_t warp_shared_bytes(int n) { return static_cast<size_t>(n) * (n + 1) * sizeof(double) + n * sizeof(int); }

// jac_by_system: [sys][entry] (a system's entries together, for the warp's loads).
// (A template parameter, not a null test: a pointer that may be either makes every
// access a generic one, which slowed the shared-memory version.)
template <bool kGlobal>
__global__ void lu_warp(int n, int64_t nsys, const double* jac_by_system, const double* f, double* x, int* singular,
                        double* global_work) {
  extern __shared__ double shared[];
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const size_t per_warp = warp_shared_bytes(n) / sizeof(double) + 1;
  double* G = kGlobal ? global_work + static_cast<size_t>(blockIdx.x * kWarps + warp) * per_warp
                      : shared + warp * per_warp;
  double* b = G + n * n;
  int* piv = reinterpret_cast<int*>(b + n);
  for (int64_t s = static_cast<int64_t>(blockIdx.x) * kWarps + warp; s < nsys;
       s += static_cast<int64_t>(gridDim.x) * kWarps) {
    const double* J = jac_by_system + s * n * n;
    for (int e = lane; e < n * n; e += 32) G[e] = -J[e];
    __syncwarp();
    for (int i = lane; i < n; i += 32) G[i + i * n] += 1.0 / kGammaH;
    __syncwarp();
    if (!opsplit::ode::warp_lu_factor(n, G, piv, lane)) {
      if (lane == 0) atomicAdd(singular, 1);
      continue;
    }
    for (int e = lane; e < n; e += 32) b[e] = f[e * nsys + s];
    __syncwarp();
    for (int q = 0; q < kSolves; ++q) {
      opsplit::ode::warp_lu_solve(n, G, piv, b, lane);
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

// file: in the validation data's mechanisms folder, or an absolute path.
std::string mechanism_path(const std::string& file) {
  if (!file.empty() && file[0] == '/') return file;
  const char* data = std::getenv("OPSPLIT_DATA_DIR");
  return std::string(data != nullptr && *data != '\0' ? data : OPSPLIT_DATA) + "/mechanisms/" + file;
}

struct Problem {
  std::string name;
  int n = 0;
  int64_t nsys = 0;
  std::unique_ptr<opsplit::chem::CompiledGas> gas;
  std::unique_ptr<DeviceArray<int>> ints;
  std::unique_ptr<DeviceArray<double>> doubles, y, f, jac, jac_by_system, x_thread, x_warp, f_warp, jac_warp;
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
  p.f_warp = std::make_unique<DeviceArray<double>>(values);
  p.jac_warp = std::make_unique<DeviceArray<double>>(values * static_cast<size_t>(p.n));
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

// A grid of as many kWarps-warp blocks as fit on the device at once (the warp kernels
// loop over systems), after allowing `shared` bytes of dynamic shared memory.
template <class Kernel>
unsigned warp_grid(Kernel kernel, size_t shared, benchmark::State& state) {
  CUDA_OK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared)));
  int per_sm = 0, sms = 0;
  CUDA_OK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, 32 * kWarps, shared));
  CUDA_OK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  state.counters["warps_per_sm"] = per_sm * kWarps;
  return static_cast<unsigned>(std::max(1, per_sm * sms));
}

// How two kernels' results differ: values not the same bits, and the largest difference
// relative to the largest magnitude of the system's values (a system's value v at
// v * stride_value + s * stride_system).
struct Difference {
  size_t bits = 0;
  double relative = 0.0;
};

Difference compare(const DeviceArray<double>& a, const DeviceArray<double>& b, int64_t nsys, int64_t values,
                   int64_t stride_system, int64_t stride_value) {
  const std::vector<double> x = a.download(), y = b.download();
  Difference d;
  for (int64_t s = 0; s < nsys; ++s) {
    double scale = 0.0, worst = 0.0;
    for (int64_t v = 0; v < values; ++v) {
      const auto at = static_cast<size_t>(v * stride_value + s * stride_system);
      d.bits += std::memcmp(&x[at], &y[at], sizeof(double)) != 0;
      scale = std::max(scale, std::fabs(x[at]));
      worst = std::max(worst, std::fabs(x[at] - y[at]));
    }
    d.relative = std::max(d.relative, scale > 0.0 ? worst / scale : worst);
  }
  return d;
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
    } else if (phase.rfind("rhs_warp", 0) == 0 || phase.rfind("jacobian_warp", 0) == 0) {
      const bool jacobian = phase[0] == 'j', terms_global = phase.size() > 3 && phase.substr(phase.size() - 3) == "_l2";
      const size_t per_warp = warp_kinetics_doubles(p->g, n, jacobian, terms_global);
      const size_t shared = kWarps * per_warp * sizeof(double);
      const unsigned grid = warp_grid(jacobian ? jacobian_warp : rhs_warp, shared, state);
      std::unique_ptr<DeviceArray<double>> terms;
      if (terms_global)
        terms = std::make_unique<DeviceArray<double>>(static_cast<size_t>(grid) * kWarps *
                                                      opsplit::chem::reactor_warp_terms_size(p->g.nreactions));
      double* terms_at = terms ? terms->p : nullptr;
      seconds = time_launches([&] {
        if (jacobian)
          jacobian_warp<<<grid, 32 * kWarps, shared>>>(p->g, n, nsys, per_warp, terms_at, p->y->p, p->jac_warp->p);
        else
          rhs_warp<<<grid, 32 * kWarps, shared>>>(p->g, n, nsys, per_warp, terms_at, p->y->p, p->f_warp->p);
      });
    } else {
      const size_t per_warp = warp_shared_bytes(n) + sizeof(double);
      const bool global = phase == "lu_warp_global";
      const size_t shared = global ? 0 : kWarps * per_warp;
      const unsigned grid = warp_grid(global ? lu_warp<true> : lu_warp<false>, shared, state);
      std::unique_ptr<DeviceArray<double>> work;
      if (global) work = std::make_unique<DeviceArray<double>>(static_cast<size_t>(grid) * kWarps * per_warp / sizeof(double));
      seconds = time_launches([&] {
        if (global)
          lu_warp<true><<<grid, 32 * kWarps>>>(n, nsys, p->jac_by_system->p, p->f->p, p->x_warp->p, singular.p, work->p);
        else
          lu_warp<false><<<grid, 32 * kWarps, shared>>>(n, nsys, p->jac_by_system->p, p->f->p, p->x_warp->p, singular.p,
                                                        nullptr);
      });
      flops = 2.0 * n * n * n / 3.0 + kSolves * 2.0 * n * n;
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
  // A warp kernel must give its thread kernel's results: the LU the same bits; the rhs
  // and Jacobian within 1e-12 of each system's largest value (the same formulas and
  // sums, but the compiler fuses multiplies and adds into FMAs according to the code
  // around them, so last bits may differ; a wrong or missing term is off by its size).
  Difference d;
  double allowed = 0.0;
  const bool warp = phase.find("_warp") != std::string::npos;
  if (phase.rfind("rhs_warp", 0) == 0) {
    d = compare(*p->f, *p->f_warp, nsys, n, 1, nsys), allowed = 1e-12;
  } else if (phase.rfind("jacobian_warp", 0) == 0) {
    d = compare(*p->jac_by_system, *p->jac_warp, nsys, int64_t(n) * n, int64_t(n) * n, 1), allowed = 1e-12;
  } else if (phase.rfind("lu_warp", 0) == 0) {
    d = compare(*p->x_thread, *p->x_warp, nsys, int64_t(kSolves) * n, 1, nsys);
  }
  if (warp) {
    state.counters["values_not_same_bits"] = static_cast<double>(d.bits);
    state.counters["max_relative_difference"] = d.relative;
    if (d.relative > allowed || (allowed == 0.0 && d.bits != 0)) {
      state.SkipWithError((phase + " differs from the thread kernel by " + std::to_string(d.relative) + " (" +
                           std::to_string(d.bits) + " values not the same bits)").c_str());
      return;
    }
    const std::string thread = phase.substr(0, phase.find("_warp")) + "_thread";
    if (p->seconds.count(thread)) state.counters["x_thread"] = p->seconds[thread] / seconds;
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
  static Problem h2o2, gri, inert;
  try {
    h2o2.name = "h2o2";
    make_problem(h2o2, "h2o2.yaml", {{"H2", 2.0}, {"O2", 1.0}, {"N2", 4.0}}, nsys);
    gri.name = "gri30";
    make_problem(gri, "gri30.yaml", {{"CH4", 1.0}, {"O2", 2.0}, {"N2", 7.52}}, std::max<int64_t>(1, nsys / 4));
    inert.name = "gri30_inert47";
    const std::string inert_file =
        (std::filesystem::temp_directory_path() / "opsplit_bench_phases_gri30_inert47.yaml").string();
    if (!opsplit_test::write_gri30_with_inert_species(mechanism_path("gri30.yaml"), 47, inert_file))
      throw std::runtime_error("cannot write " + inert_file + " from " + mechanism_path("gri30.yaml"));
    std::vector<std::pair<std::string, double>> moles{{"CH4", 1.0}, {"O2", 2.0}, {"N2", 7.52}};
    for (int i = 1; i <= 47; ++i) moles.emplace_back("X" + std::to_string(i), 0.02);
    make_problem(inert, inert_file, moles, std::max<int64_t>(1, nsys / 8));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_reactor_phases: %s\n", e.what());
    return 1;
  }
  auto add = [](const std::string& name, auto fn, auto... args) {
    benchmark::RegisterBenchmark(name.c_str(), fn, args...)->UseManualTime()->Iterations(1)->Unit(benchmark::kMillisecond);
  };
  add("fp64_fma_peak", BM_fma_peak);
  const char* phases[] = {"rhs_thread",    "rhs_warp",         "rhs_warp_l2", "jacobian_thread",
                          "jacobian_warp", "jacobian_warp_l2", "lu_thread",   "lu_warp", "lu_warp_global"};
  for (const char* phase : phases) add(std::string("reactor_h2o2/") + phase, BM_phase<16>, &h2o2, std::string(phase));
  for (const char* phase : phases) add(std::string("reactor_gri30/") + phase, BM_phase<64>, &gri, std::string(phase));
  for (const char* phase : phases)
    add(std::string("reactor_gri30_inert47/") + phase, BM_phase<104>, &inert, std::string(phase));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
