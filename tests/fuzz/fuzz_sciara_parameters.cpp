// libFuzzer harness: SCIARA parameter files (opsplit_ca_load_parameters), into an fv2 and
// an fv3 grid of 8 x 8 cells, each stepped after a load.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* path = fuzz::write_input(data, size);
  for (opsplit_ca_model model : {OPSPLIT_CA_SCIARA_FV2, OPSPLIT_CA_SCIARA_FV3}) {
    opsplit_ca ca = fuzz::new_grid(model, 8, 8);
    fuzz::check_reader_status(opsplit_ca_load_parameters(ca, path), "opsplit_ca_load_parameters");
    fuzz::step_and_destroy(ca, 2);
  }
  return 0;
}
