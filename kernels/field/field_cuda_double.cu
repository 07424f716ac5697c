// The CUDA launchers of double fields (field_cuda.cuh; the other precision is
// field_cuda_float.cu).
#include "field/field_cuda.cuh"

namespace opsplit::field {

template <>
const Launchers<double>& cuda_launchers<double>() {
  return cuda_table<double>();
}

}  // namespace opsplit::field
