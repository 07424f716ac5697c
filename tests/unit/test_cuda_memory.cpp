// What a CUDA ODE batch leaves on the device after opsplit_ode_integrate returns. The
// driver reserves a kernel's per-thread frame (a GRI-Mech reactor thread: ~77 KB of
// local memory) for every thread the device can hold and keeps it for the life of the
// CUDA context: 20.9 GB on an H100 after any GRI-Mech batch, however small, until
// opsplit put the stack limit back after each call (cuda::LocalMemoryRelease). A host
// model that shares the GPU needs that memory back between calls. Reactors of more than
// 64 equations keep their systems in device memory that each call allocates: it must go
// back too, and a device without room for it must fail the call cleanly.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "helpers.hpp"
#include "inert_species.hpp"

namespace {

size_t free_bytes() {
  size_t free = 0, total = 0;
  EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
  return free;
}

// nsys constant-pressure reactors of gas at 1 atm: system s at T0 + dT s, with the mass
// fractions Y names; their initial states in y0.
opsplit_ode reactor_batch(opsplit_context ctx, opsplit_mechanism gas, int nsys, double T0, double dT,
                          const std::vector<std::pair<std::string, double>>& Y, std::vector<double>& y0) {
  int ns = 0;
  EXPECT_EQ(opsplit_mechanism_get_counts(gas, &ns, nullptr, nullptr), OPSPLIT_SUCCESS);
  const int neq = ns + 1;
  y0.assign(static_cast<size_t>(neq) * nsys, 0.0);
  for (int s = 0; s < nsys; ++s) y0[static_cast<size_t>(s) * neq] = T0 + dT * s;
  for (const auto& [name, fraction] : Y) {
    int k = -1;
    EXPECT_EQ(opsplit_mechanism_find_species(gas, name.c_str(), &k), OPSPLIT_SUCCESS) << name;
    for (int s = 0; s < nsys && k >= 0; ++s) y0[static_cast<size_t>(s) * neq + 1 + k] = fraction;
  }
  const std::vector<double> p(nsys, 101325.0);
  opsplit_ode ode = nullptr;
  EXPECT_EQ(opsplit_ode_create(ctx, neq, nsys, 1, &ode), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_reactor(ode, gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE), OPSPLIT_SUCCESS)
      << opsplit_last_error_message();
  EXPECT_EQ(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  EXPECT_EQ(opsplit_ode_set_parameters(ode, p.data(), OPSPLIT_ODE_AOS), OPSPLIT_SUCCESS);
  return ode;
}

TEST(CudaMemory, AReactorIntegrationGivesTheKernelsLocalMemoryBack) {
  int devices = 0;
  ASSERT_TRUE(cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) << "this test needs a CUDA device";
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const std::string path = test::data_folder("OPSPLIT_DATA_DIR", OPSPLIT_DATA) + "/mechanisms/gri30.yaml";
  opsplit_mechanism gas = nullptr;
  OPSPLIT_OK(opsplit_mechanism_load_yaml(ctx, path.c_str(), "gri30", &gas));
  const int nsys = 64;
  std::vector<double> y0;
  opsplit_ode ode = reactor_batch(ctx, gas, nsys, 1300.0, 1.0, {{"CH4", 0.055}, {"O2", 0.22}, {"N2", 0.725}}, y0);
  ASSERT_NE(ode, nullptr);
  // The first call: the reservation stays from the first launch on (a later call adds
  // nothing), so it is the one to measure. It also loads the kernels (lazily, a few MB)
  // and makes the batch's round storage (64 systems: kilobytes).
  const size_t before = free_bytes();
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 1e-6));
  const size_t after = free_bytes();
  std::vector<int> result(nsys);
  OPSPLIT_OK(opsplit_ode_get_results(ode, result.data(), nullptr, nullptr, nullptr, nullptr));
  for (int s = 0; s < nsys; ++s) EXPECT_EQ(result[static_cast<size_t>(s)], OPSPLIT_ODE_OK) << "system " << s;
  // Without the release: 20.9 GB on an H100 (2048 threads x 132 SMs x ~77 KB); with it,
  // nothing of that. 256 MB leaves room for the kernels' code and the runtime's own
  // bookkeeping.
  const double kept = before > after ? static_cast<double>(before - after) : 0.0;
  EXPECT_LT(kept, 256e6) << "bytes the call left reserved on the device";
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&gas);
}

// All but `keep` bytes of the device's free memory (to within 1 MB), freed on destruction.
class DeviceFiller {
 public:
  explicit DeviceFiller(size_t keep) {
    for (size_t chunk = size_t(1) << 30; chunk >= (size_t(1) << 20); chunk /= 2)
      while (free_bytes() > keep + chunk) {
        void* p = nullptr;
        if (cudaMalloc(&p, chunk) != cudaSuccess) {
          cudaGetLastError();
          break;
        }
        blocks_.push_back(p);
      }
  }
  ~DeviceFiller() {
    for (void* p : blocks_) cudaFree(p);
  }
  DeviceFiller(const DeviceFiller&) = delete;
  DeviceFiller& operator=(const DeviceFiller&) = delete;

 private:
  std::vector<void*> blocks_;
};

// 100 species (101 equations): the kernel whose systems are in device memory of the
// call's own (181 KB a thread, 64 threads a block).
TEST(CudaMemory, ALargeReactorCallFreesItsMemoryAndFailsCleanlyWithoutIt) {
  int devices = 0;
  ASSERT_TRUE(cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) << "this test needs a CUDA device";
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const std::string gri30 = test::data_folder("OPSPLIT_DATA_DIR", OPSPLIT_DATA) + "/mechanisms/gri30.yaml";
  const std::string path = testing::TempDir() + "opsplit_memory_gri30_inert47.yaml";
  ASSERT_TRUE(opsplit_test::write_gri30_with_inert_species(gri30, 47, path));
  opsplit_mechanism gas = nullptr;
  OPSPLIT_OK(opsplit_mechanism_load_yaml(ctx, path.c_str(), nullptr, &gas));
  int ns = 0;
  OPSPLIT_OK(opsplit_mechanism_get_counts(gas, &ns, nullptr, nullptr));
  ASSERT_EQ(ns, 100);
  const int nsys = 5000;
  std::vector<double> y0;
  opsplit_ode ode =
      reactor_batch(ctx, gas, nsys, 1300.0, 0.1, {{"CH4", 0.05}, {"O2", 0.2}, {"N2", 0.67}, {"X1", 0.08}}, y0);
  ASSERT_NE(ode, nullptr);
  // 5000 systems take 79 blocks: 0.9 GB of copies during the call, none after it.
  const size_t before = free_bytes();
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 1e-6));
  const double kept = before > free_bytes() ? static_cast<double>(before - free_bytes()) : 0.0;
  EXPECT_LT(kept, 256e6) << "bytes the call left on the device";
  std::vector<double> once(y0.size());
  OPSPLIT_OK(opsplit_ode_get_state(ode, once.data(), OPSPLIT_ODE_AOS));
  // 16 MB free: less than twice one block's copies (11.6 MB). The call fails, naming
  // the kernel, and changes no state.
  OPSPLIT_OK(opsplit_ode_set_state(ode, y0.data(), OPSPLIT_ODE_AOS));
  {
    const DeviceFiller filler(16u << 20);
    EXPECT_EQ(opsplit_ode_integrate(ode, 0.0, 1e-6), OPSPLIT_ERROR_OUT_OF_MEMORY);
    EXPECT_NE(std::string(opsplit_last_error_message()).find("integrate_large_reactor_kernel"), std::string::npos)
        << opsplit_last_error_message();
  }
  std::vector<double> y(y0.size());
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(y, y0);
  // With the memory back, the same call gives the same bits as the first time.
  OPSPLIT_OK(opsplit_ode_integrate(ode, 0.0, 1e-6));
  OPSPLIT_OK(opsplit_ode_get_state(ode, y.data(), OPSPLIT_ODE_AOS));
  EXPECT_EQ(y, once);
  EXPECT_NE(y, y0);
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&gas);
}

}  // namespace
