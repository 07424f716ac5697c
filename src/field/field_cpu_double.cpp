// The CPU launchers of double fields (field_cpu.hpp; the other precision is
// field_cpu_float.cpp).
#include "field/field_cpu.hpp"

namespace opsplit::field {

template <>
const Launchers<double>& cpu_launchers<double>() {
  return cpu_table<double>();
}

}  // namespace opsplit::field
