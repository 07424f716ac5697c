// The CUDA launchers of float fields (field_cuda.cuh; the other precision is
// field_cuda_double.cu).
#include "field/field_cuda.cuh"

namespace opsplit::field {

template <>
const Launchers<float>& cuda_launchers<float>() {
  return cuda_table<float>();
}

}  // namespace opsplit::field
