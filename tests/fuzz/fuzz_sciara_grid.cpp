// libFuzzer harness: substate grids (opsplit_ca_load_substate: plain values or an ESRI
// ASCII grid), loaded as the altitude and as the lava thickness of a 4 x 5 fv2 grid,
// which is then stepped.
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const char* path = fuzz::write_input(data, size);
  opsplit_ca ca = fuzz::new_grid(OPSPLIT_CA_SCIARA_FV2, 4, 5);
  fuzz::check_reader_status(opsplit_ca_load_substate(ca, "altitude", path), "opsplit_ca_load_substate");
  fuzz::check_reader_status(opsplit_ca_load_substate(ca, "thickness", path), "opsplit_ca_load_substate");
  fuzz::step_and_destroy(ca, 2);
  return 0;
}
