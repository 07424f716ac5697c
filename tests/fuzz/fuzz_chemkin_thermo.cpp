// libFuzzer harness: CHEMKIN thermo files (the NASA-7 entries' fixed columns), read for
// the H2/O2 mechanism file (tests/data/mechanisms/h2o2.inp, which has no THERMO section).
#include "fuzz_common.hpp"

#ifndef OPSPLIT_FUZZ_THERMO_MECHANISM
#error "OPSPLIT_FUZZ_THERMO_MECHANISM names the mechanism file the thermo files are read for"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  opsplit_mechanism mech = nullptr;
  const opsplit_status s = opsplit_mechanism_load_chemkin(fuzz::context(), OPSPLIT_FUZZ_THERMO_MECHANISM,
                                                          fuzz::write_input(data, size), &mech);
  fuzz::check_loaded_mechanism(s, mech, "opsplit_mechanism_load_chemkin");
  return 0;
}
