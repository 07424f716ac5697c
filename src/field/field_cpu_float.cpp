// The CPU launchers of float fields (field_cpu.hpp; the other precision is
// field_cpu_double.cpp).
#include "field/field_cpu.hpp"

namespace opsplit::field {

template <>
const Launchers<float>& cpu_launchers<float>() {
  return cpu_table<float>();
}

}  // namespace opsplit::field
