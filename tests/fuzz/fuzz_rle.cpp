// libFuzzer harness: RLE patterns of Life-like automata, as a string
// (opsplit_ca_place_rle) and as a file (opsplit_ca_load_rle), on a 64 x 64 torus.
#include <string>

#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  opsplit_ca ca = fuzz::new_grid(OPSPLIT_CA_LIFE, 64, 64);
  const std::string text(reinterpret_cast<const char*>(data), size);  // up to a NUL, as C reads it
  fuzz::check_reader_status(opsplit_ca_place_rle(ca, text.c_str(), 3, 5), "opsplit_ca_place_rle");
  fuzz::check_reader_status(opsplit_ca_load_rle(ca, fuzz::write_input(data, size), 60, 61), "opsplit_ca_load_rle");
  fuzz::step_and_destroy(ca, 4);
  return 0;
}
