// libFuzzer harness: MICM mechanism configurations (opsplit_mechanism_load_micm), one
// file per input: a v1 file (YAML or JSON; a v0 config.json it may also be, whose
// camp-files name files beside it), or, built with OPSPLIT_FUZZ_MICM_V0 (fuzz_micm_v0),
// a v0 CAMP data file that a fixed config.json lists. A loaded mechanism's names are
// read and its rates evaluated at one state (any value: the file's).
#include <string>

#include "fuzz_common.hpp"

namespace {

const char* input_path(const uint8_t* data, size_t size) {
#ifdef OPSPLIT_FUZZ_MICM_V0
  const std::string camp = fuzz::write_input(data, size, 1);
  const std::string config = "{\"camp-files\": [\"" + camp.substr(camp.rfind('/') + 1) + "\"]}\n";
  return fuzz::write_input(reinterpret_cast<const uint8_t*>(config.data()), config.size(), 0);
#else
  return fuzz::write_input(data, size);
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  opsplit_mechanism mech = nullptr;
  const opsplit_status s = opsplit_mechanism_load_micm(fuzz::context(), input_path(data, size), &mech);
  fuzz::check_reader_status(s, "opsplit_mechanism_load_micm");
  if ((s == OPSPLIT_SUCCESS) != (mech != nullptr)) std::abort();
  if (mech == nullptr) return 0;
  int ns = 0, nr = 0, np = 0;  // a configuration may hold no reaction, or no species
  if (opsplit_mechanism_get_counts(mech, &ns, &nr, &np) != OPSPLIT_SUCCESS || ns < 0 || nr < 0 || np < 0) std::abort();
  for (int k = 0; k < ns; ++k) {
    const char* name = nullptr;
    if (opsplit_mechanism_get_species_name(mech, k, &name) != OPSPLIT_SUCCESS || name == nullptr) std::abort();
  }
  for (int p = 0; p < np; ++p) {
    const char* name = nullptr;
    if (opsplit_mechanism_get_parameter_name(mech, p, &name) != OPSPLIT_SUCCESS || name == nullptr) std::abort();
  }
  if (ns > 0) {
    std::vector<double> y(static_cast<size_t>(ns), 1e-3), params(static_cast<size_t>(np) + 1, 290.0),
        ydot(static_cast<size_t>(ns));
    if (opsplit_mechanism_evaluate(mech, y.data(), params.data(), ydot.data(), nullptr) != OPSPLIT_SUCCESS) std::abort();
  }
  opsplit_mechanism_destroy(&mech);
  return 0;
}
