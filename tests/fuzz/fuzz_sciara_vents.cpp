// libFuzzer harness: vent maps and emission-rate schedules (opsplit_ca_load_vents) into a
// 4 x 5 fv2 grid, which is then stepped. The input holds both files: the vent map up to
// the first backslash followed by another character (FuzzedDataProvider's random-length
// string; "\\" stands for one backslash), the schedule after it.
#include <fuzzer/FuzzedDataProvider.h>

#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const std::string vents = in.ConsumeRandomLengthString(size);
  const std::string rates = in.ConsumeRemainingBytesAsString();
  const char* vents_path = fuzz::write_input(reinterpret_cast<const uint8_t*>(vents.data()), vents.size(), 0);
  const char* rates_path = fuzz::write_input(reinterpret_cast<const uint8_t*>(rates.data()), rates.size(), 1);
  opsplit_ca ca = fuzz::new_grid(OPSPLIT_CA_SCIARA_FV2, 4, 5);
  fuzz::check_reader_status(opsplit_ca_load_vents(ca, vents_path, rates_path), "opsplit_ca_load_vents");
  fuzz::step_and_destroy(ca, 2);
  return 0;
}
