// The warp-per-system reactor right-hand side and Jacobian (bench/reactor_warp.cuh)
// against the thread-per-system ones (kernels/chem/reactor.cuh) on the GPU, for every
// reactor kind, on GRI-Mech 3.0, H2/O2 and tests/data/mechanisms/features.yaml
// (falloff of every form, PLOG, chemically activated, FORD orders, explicit reverse rates,
// specific colliders). And the GPU's thread version against the same function on the CPU.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "chem/gas.hpp"
#include "chem/loaders.hpp"
#include "chem/reactor.cuh"
#include "reactor_warp.cuh"
#include "helpers.hpp"

namespace {

using opsplit::chem::GasKinetics;
namespace chem = opsplit::chem;

constexpr int kMaxEquations = 64;
constexpr int kSystems = 96;

#define CUDA_OK(call) ASSERT_EQ((call), cudaSuccess) << #call

// y: [sys][eq]; params: [sys][2]; out: f [sys][eq], jac [sys][n*n].
__global__ void thread_kernel(GasKinetics g, int kind, int n, int nsys, const double* y, const double* params,
                              double* f, double* jac) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= nsys) return;
  double scratch[chem::reactor_scratch_size(kMaxEquations)];
  chem::reactor_rhs(g, kind, params + 2 * s, y + s * n, f + s * n, scratch);
  chem::reactor_jacobian(g, kind, params + 2 * s, y + s * n, jac + static_cast<size_t>(s) * n * n, scratch);
}

// One warp per system, everything of the warp's in global memory: scratch [sys][...].
__global__ void warp_kernel(GasKinetics g, int kind, int n, int nsys, const double* y, const double* params,
                            double* f, double* jac, double* scratch, int scratch_size) {
  const int s = blockIdx.x, lane = threadIdx.x;
  if (s >= nsys) return;
  double* own = scratch + static_cast<size_t>(s) * scratch_size;
  double* terms = own + chem::reactor_scratch_size(g.nspecies);
  chem::reactor_rhs_warp(g, kind, params + 2 * s, y + s * n, f + s * n, own, terms, lane);
  chem::reactor_jacobian_warp(g, kind, params + 2 * s, y + s * n, jac + static_cast<size_t>(s) * n * n, own, terms,
                              lane);
}

template <class T>
struct DeviceVector {
  T* p = nullptr;
  size_t n;
  explicit DeviceVector(const std::vector<T>& v) : n(v.size()) {
    EXPECT_EQ(cudaMalloc(&p, n * sizeof(T)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(p, v.data(), n * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
  ~DeviceVector() { cudaFree(p); }
  std::vector<T> get() const {
    std::vector<T> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
};

std::string mechanism(const std::string& which) {
  if (which == "features.yaml") return test::data_folder("OPSPLIT_TEST_DATA", OPSPLIT_TEST_DATA) + "/mechanisms/" + which;
  return test::data_folder("OPSPLIT_DATA_DIR", OPSPLIT_DATA) + "/mechanisms/" + which;
}

// The largest |got - want| over every system's rows, relative to the largest |want| of
// the row (Jacobian entries are sums of terms much larger than some of them: the row's
// largest term is the scale a rounding difference is made at). A vector is one row.
double row_scaled_difference(const double* got, const double* want, int rows, int cols) {
  double worst = 0.0;
  for (int i = 0; i < rows; ++i) {
    double scale = 0.0, diff = 0.0;
    for (int j = 0; j < cols; ++j) {
      scale = std::max(scale, std::fabs(want[i + j * rows]));
      diff = std::max(diff, std::fabs(got[i + j * rows] - want[i + j * rows]));
    }
    worst = std::max(worst, scale > 0.0 ? diff / scale : diff);
  }
  return worst;
}

struct Case {
  std::string file, phase;
};

class ReactorWarp : public ::testing::TestWithParam<Case> {};

TEST_P(ReactorWarp, SameBitsAsOneThreadAndCloseToTheCpu) {
  int devices = 0;
  ASSERT_TRUE(cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) << "this test needs a CUDA device";
  const chem::GasMechanism m = chem::load_yaml(mechanism(GetParam().file), GetParam().phase);
  const chem::CompiledGas gas(m);
  const GasKinetics host = gas.view();
  const int ns = host.nspecies;
  DeviceVector<int> ints(gas.ints());
  DeviceVector<double> doubles(gas.doubles());
  const GasKinetics g = gas.view_at(ints.p, doubles.p);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  for (int kind : {chem::kIsothermalConcentrations, chem::kIsothermalMassFractions, chem::kConstantPressure,
                   chem::kConstantVolume}) {
    SCOPED_TRACE("reactor kind " + std::to_string(kind));
    const int n = chem::reactor_equations(kind, ns);
    ASSERT_LE(n, kMaxEquations);
    // States from 800 to 2400 K (PLOG tables and falloff regimes both sides of their
    // ranges), every species present at 1e-8 to 1, pressures 0.1 to 10 atm.
    std::vector<double> y(static_cast<size_t>(kSystems * n)), params(2 * kSystems);
    for (int s = 0; s < kSystems; ++s) {
      const double T = 800.0 + 1600.0 * u(rng), P = 101325.0 * std::pow(10.0, -1.0 + 2.0 * u(rng));
      std::vector<double> Y(static_cast<size_t>(ns));
      double sum = 0.0;
      for (double& v : Y) sum += v = std::pow(10.0, -8.0 + 8.0 * u(rng));
      double moles_per_kg = 0.0;
      for (int k = 0; k < ns; ++k) Y[static_cast<size_t>(k)] /= sum, moles_per_kg += Y[static_cast<size_t>(k)] / m.species[static_cast<size_t>(k)].molar_mass;
      const double rho = P / (8.314462618 * T * moles_per_kg);
      double* ys = y.data() + s * n;
      double* p = params.data() + 2 * s;
      switch (kind) {
        case chem::kIsothermalConcentrations:
          for (int k = 0; k < ns; ++k) ys[k] = rho * Y[static_cast<size_t>(k)] / m.species[static_cast<size_t>(k)].molar_mass;
          p[0] = T;
          break;
        case chem::kIsothermalMassFractions:
          std::copy(Y.begin(), Y.end(), ys), p[0] = T, p[1] = P;
          break;
        default:
          ys[0] = T, std::copy(Y.begin(), Y.end(), ys + 1), p[0] = kind == chem::kConstantPressure ? P : rho;
      }
    }
    DeviceVector<double> dy(y), dparams(params);
    DeviceVector<double> f_thread(std::vector<double>(y.size())), f_warp(std::vector<double>(y.size()));
    const std::vector<double> zeros(y.size() * static_cast<size_t>(n));
    DeviceVector<double> jac_thread(zeros), jac_warp(zeros);
    const int scratch_size = chem::reactor_scratch_size(ns) + chem::reactor_warp_terms_size(host.nreactions);
    DeviceVector<double> scratch(std::vector<double>(static_cast<size_t>(kSystems) * scratch_size));
    CUDA_OK(cudaDeviceSetLimit(cudaLimitStackSize, 64 * 1024));
    thread_kernel<<<(kSystems + 31) / 32, 32>>>(g, kind, n, kSystems, dy.p, dparams.p, f_thread.p, jac_thread.p);
    CUDA_OK(cudaGetLastError());
    warp_kernel<<<kSystems, 32>>>(g, kind, n, kSystems, dy.p, dparams.p, f_warp.p, jac_warp.p, scratch.p, scratch_size);
    CUDA_OK(cudaGetLastError());
    CUDA_OK(cudaDeviceSynchronize());
    const std::vector<double> ft = f_thread.get(), fw = f_warp.get(), jt = jac_thread.get(), jw = jac_warp.get();
    // Deterministic: a second run gives the same bits (no atomics, a fixed order).
    warp_kernel<<<kSystems, 32>>>(g, kind, n, kSystems, dy.p, dparams.p, f_warp.p, jac_warp.p, scratch.p, scratch_size);
    CUDA_OK(cudaDeviceSynchronize());
    EXPECT_TRUE(f_warp.get() == fw && jac_warp.get() == jw) << "the warp kernel's second run differs from its first";
    // The thread version on the CPU: the same formulas through another compiler and libm
    // (exp, log, pow within an ulp or two of CUDA's).
    std::vector<double> scratch_cpu(static_cast<size_t>(chem::reactor_scratch_size(ns)));
    std::vector<double> f_cpu(static_cast<size_t>(n)), jac_cpu(static_cast<size_t>(n * n));
    double warp_f = 0.0, warp_jac = 0.0, cpu_f = 0.0, cpu_jac = 0.0;
    for (int s = 0; s < kSystems; ++s) {
      const double* p = params.data() + 2 * s;
      chem::reactor_rhs(host, kind, p, y.data() + s * n, f_cpu.data(), scratch_cpu.data());
      chem::reactor_jacobian(host, kind, p, y.data() + s * n, jac_cpu.data(), scratch_cpu.data());
      const size_t fs = static_cast<size_t>(s) * n, js = static_cast<size_t>(s) * n * n;
      warp_f = std::max(warp_f, row_scaled_difference(&fw[fs], &ft[fs], 1, n));
      warp_jac = std::max(warp_jac, row_scaled_difference(&jw[js], &jt[js], n, n));
      cpu_f = std::max(cpu_f, row_scaled_difference(&ft[fs], f_cpu.data(), 1, n));
      cpu_jac = std::max(cpu_jac, row_scaled_difference(&jt[js], jac_cpu.data(), n, n));
    }
    std::printf("kind %d: warp vs thread %.2e (rhs) %.2e (Jacobian), GPU vs CPU %.2e %.2e\n", kind, warp_f, warp_jac,
                cpu_f, cpu_jac);
    // Warp and thread make the same sums in the same order through the same functions;
    // the isothermal kinds come out the same bits. Around the energy equation the
    // compiler fuses multiplies and adds into FMAs differently in the two kernels (a
    // product with several uses is fused in one and not the other), a few ulps of a
    // row's largest term. 1e-13 of it allows that, and a wrong or missing term is off by
    // its whole size. The CPU: 1e-10 leaves room for libm's ulps through exp(Ea/RT) and
    // the falloff logarithms.
    if (kind == chem::kIsothermalConcentrations || kind == chem::kIsothermalMassFractions) {
      EXPECT_TRUE(fw == ft && jw == jt) << "the warp's isothermal rates differ in their bits from the thread's";
    }
    EXPECT_LT(warp_f, 1e-13) << "warp rhs against the thread's";
    EXPECT_LT(warp_jac, 1e-13) << "warp Jacobian against the thread's";
    EXPECT_LT(cpu_f, 1e-10) << "GPU rhs against the CPU's";
    EXPECT_LT(cpu_jac, 1e-10) << "GPU Jacobian against the CPU's";
  }
}

INSTANTIATE_TEST_SUITE_P(Mechanisms, ReactorWarp,
                         ::testing::Values(Case{"h2o2.yaml", ""}, Case{"gri30.yaml", ""},
                                           Case{"features.yaml", "features"}),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           std::string name = info.param.file.substr(0, info.param.file.find('.'));
                           return name;
                         });

}  // namespace
