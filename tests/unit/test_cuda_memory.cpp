// What a CUDA ODE batch leaves on the device after opsplit_ode_integrate returns. The
// driver reserves a kernel's per-thread frame (a GRI-Mech reactor thread: ~77 KB of
// local memory) for every thread the device can hold and keeps it for the life of the
// CUDA context: 20.9 GB on an H100 after any GRI-Mech batch, however small, until
// opsplit put the stack limit back after each call (cuda::LocalMemoryRelease). A host
// model that shares the GPU needs that memory back between calls.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "helpers.hpp"

namespace {

size_t free_bytes() {
  size_t free = 0, total = 0;
  EXPECT_EQ(cudaMemGetInfo(&free, &total), cudaSuccess);
  return free;
}

TEST(CudaMemory, AReactorIntegrationGivesTheKernelsLocalMemoryBack) {
  int devices = 0;
  ASSERT_TRUE(cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) << "this test needs a CUDA device";
  test::Context ctx(OPSPLIT_BACKEND_CUDA);
  const std::string path = test::data_folder("OPSPLIT_VALIDATION_DATA", OPSPLIT_SHARED_DATA) + "/mechanisms/gri30.yaml";
  opsplit_mechanism gas = nullptr;
  OPSPLIT_OK(opsplit_mechanism_load_yaml(ctx, path.c_str(), "gri30", &gas));
  int ns = 0, o2 = 0, ch4 = 0, n2 = 0;
  OPSPLIT_OK(opsplit_mechanism_get_counts(gas, &ns, nullptr, nullptr));
  OPSPLIT_OK(opsplit_mechanism_find_species(gas, "O2", &o2));
  OPSPLIT_OK(opsplit_mechanism_find_species(gas, "CH4", &ch4));
  OPSPLIT_OK(opsplit_mechanism_find_species(gas, "N2", &n2));
  const int nsys = 64, neq = ns + 1;
  opsplit_ode ode = nullptr;
  OPSPLIT_OK(opsplit_ode_create(ctx, neq, nsys, 1, &ode));
  OPSPLIT_OK(opsplit_ode_set_reactor(ode, gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE));
  std::vector<double> y(static_cast<size_t>(neq) * nsys, 0.0), p(nsys, 101325.0);
  for (int s = 0; s < nsys; ++s) {
    double* ys = &y[static_cast<size_t>(s) * neq];
    ys[0] = 1300.0 + s, ys[1 + ch4] = 0.055, ys[1 + o2] = 0.22, ys[1 + n2] = 0.725;
  }
  OPSPLIT_OK(opsplit_ode_set_state(ode, y.data(), OPSPLIT_ODE_AOS));
  OPSPLIT_OK(opsplit_ode_set_parameters(ode, p.data(), OPSPLIT_ODE_AOS));
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

}  // namespace
