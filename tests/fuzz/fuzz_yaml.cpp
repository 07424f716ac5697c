// libFuzzer harness: Cantera YAML mechanisms (opsplit_mechanism_load_yaml).
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  opsplit_mechanism mech = nullptr;
  const opsplit_status s = opsplit_mechanism_load_yaml(fuzz::context(), fuzz::write_input(data, size), nullptr, &mech);
  fuzz::check_loaded_mechanism(s, mech, "opsplit_mechanism_load_yaml");
  return 0;
}
