// Whether this build carries machine code (or PTX) the current device can run.
#include <cuda_runtime.h>

namespace opsplit::cuda {

__global__ void probe_kernel() {}

cudaError_t probe_kernel_image() {
  cudaFuncAttributes attributes;
  return cudaFuncGetAttributes(&attributes, probe_kernel);
}

}  // namespace opsplit::cuda
