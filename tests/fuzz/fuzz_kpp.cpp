// libFuzzer harness: KPP mechanism files (opsplit_mechanism_load_kpp), one file per
// input (an #INCLUDE names a file beside it, which is none or the input itself). A
// loaded mechanism's rates are evaluated at one state (any value: the file's).
#include "fuzz_common.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  opsplit_mechanism mech = nullptr;
  const opsplit_status s = opsplit_mechanism_load_kpp(fuzz::context(), fuzz::write_input(data, size), &mech);
  if (mech != nullptr) {
    int ns = 0, np = 0;
    if (opsplit_mechanism_get_counts(mech, &ns, nullptr, &np) != OPSPLIT_SUCCESS) std::abort();
    std::vector<double> y(static_cast<size_t>(ns), 1e8), params(static_cast<size_t>(np) + 1, 290.0),
        ydot(static_cast<size_t>(ns));
    if (opsplit_mechanism_evaluate(mech, y.data(), params.data(), ydot.data(), nullptr) != OPSPLIT_SUCCESS) std::abort();
  }
  fuzz::check_loaded_mechanism(s, mech, "opsplit_mechanism_load_kpp");
  return 0;
}
