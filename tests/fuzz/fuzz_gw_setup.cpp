// libFuzzer harness: the groundwater module's setup file (opsplit_gw_load_yaml). A
// loaded module takes its BMI step and every output variable is read. Files that ask for
// more than 10^4 cells are left out: the module keeps arrays per cell, so a valid file
// may ask for gigabytes, which is the host's choice and not a reader's fault.
#include <yaml-cpp/yaml.h>

#include "fuzz_common.hpp"

namespace {

bool asks_for_many_cells(const uint8_t* data, size_t size) {
  try {
    const YAML::Node cells = YAML::Load(std::string(reinterpret_cast<const char*>(data), size))["cells"];
    return cells.IsScalar() && std::strtod(cells.Scalar().c_str(), nullptr) > 1e4;
  } catch (const YAML::Exception&) {
    return false;  // the reader meets the same error
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (asks_for_many_cells(data, size)) return 0;
  opsplit_gw gw = nullptr;
  const opsplit_status s = opsplit_gw_load_yaml(fuzz::context(), fuzz::write_input(data, size), &gw);
  fuzz::check_reader_status(s, "opsplit_gw_load_yaml");
  if ((s == OPSPLIT_SUCCESS) != (gw != nullptr)) std::abort();
  if (gw == nullptr) return 0;
  const opsplit_status step = opsplit_gw_bmi_update(gw);  // the file's rates may fail a cell
  if (step != OPSPLIT_SUCCESS && step != OPSPLIT_ERROR_NUMERICAL) std::abort();
  int outputs = 0;
  if (opsplit_gw_bmi_get_var_count(gw, OPSPLIT_GW_BMI_OUTPUT, &outputs) != OPSPLIT_SUCCESS) std::abort();
  for (int i = 0; i < outputs; ++i) {
    const char* name = nullptr;
    int64_t nbytes = 0;
    if (opsplit_gw_bmi_get_var_name(gw, OPSPLIT_GW_BMI_OUTPUT, i, &name) != OPSPLIT_SUCCESS ||
        opsplit_gw_bmi_get_var_info(gw, name, nullptr, nullptr, nullptr, nullptr, &nbytes, nullptr) != OPSPLIT_SUCCESS)
      std::abort();
    std::vector<double> buffer(static_cast<size_t>(nbytes) / sizeof(double) + 1);
    const opsplit_status got = opsplit_gw_bmi_get_value(gw, name, buffer.data());
    // Retardation needs BULK_DENSITY when an isotherm is set; Concentrations in mg/L
    // need molar masses: both refusals are INVALID_ARGUMENT, anything else is a finding.
    if (got != OPSPLIT_SUCCESS && got != OPSPLIT_ERROR_INVALID_ARGUMENT) std::abort();
  }
  opsplit_gw_destroy(&gw);
  return 0;
}
