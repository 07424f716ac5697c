// What every reader harness shares: the readers take file paths, so each input is
// written to a file of this process's; the library's contract on failure is checked.
// A broken contract (a status that is no reader failure, a message that does not name
// the function, an output set on failure) aborts: libFuzzer reports it as a finding,
// as it does a crash or a sanitizer's report.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "opsplit/opsplit.h"

namespace fuzz {

// The path of a file of this process's holding `size` bytes of `data`.
inline const char* write_input(const uint8_t* data, size_t size, int which = 0) {
  static std::string paths[2];
  std::string& path = paths[which];
  if (path.empty()) {
    const char* dir = std::getenv("TMPDIR");
    path = std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/opsplit_fuzz_" +
           std::to_string(static_cast<long>(getpid())) + "_" + std::to_string(which);
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) std::abort();  // the harness's own failure: nothing to fuzz
  if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
  std::fclose(f);
  return path.c_str();
}

// The CPU context all inputs use.
inline opsplit_context context() {
  static opsplit_context ctx = [] {
    opsplit_context c = nullptr;
    if (opsplit_context_create(OPSPLIT_BACKEND_CPU, &c) != OPSPLIT_SUCCESS) std::abort();
    opsplit_context_set_num_threads(c, 1);
    return c;
  }();
  return ctx;
}

// A reader's status: success, or a failure a file can cause, with a message that starts
// with the function's name.
inline void check_reader_status(opsplit_status status, const char* function) {
  if (status == OPSPLIT_SUCCESS) return;
  const bool file_failure = status == OPSPLIT_ERROR_PARSE || status == OPSPLIT_ERROR_IO ||
                            status == OPSPLIT_ERROR_UNSUPPORTED || status == OPSPLIT_ERROR_INVALID_ARGUMENT ||
                            status == OPSPLIT_ERROR_OUT_OF_MEMORY;
  const char* message = opsplit_last_error_message();
  const size_t n = std::strlen(function);
  if (!file_failure || std::strncmp(message, function, n) != 0 || message[n] != ':') {
    std::fprintf(stderr, "contract broken: %s -> %s \"%s\"\n", function, opsplit_status_string(status), message);
    std::abort();
  }
}

// A loader's outcome: the status checked, the mechanism set exactly on success, and a
// loaded one queried (its counts, every species name, the rates at one state) and
// destroyed.
inline void check_loaded_mechanism(opsplit_status status, opsplit_mechanism mech, const char* function) {
  check_reader_status(status, function);
  if ((status == OPSPLIT_SUCCESS) != (mech != nullptr)) std::abort();
  if (mech == nullptr) return;
  int ns = 0, nr = 0;
  if (opsplit_mechanism_get_counts(mech, &ns, &nr, nullptr) != OPSPLIT_SUCCESS || ns < 1 || nr < 1) std::abort();
  for (int k = 0; k < ns; ++k) {
    const char* name = nullptr;
    if (opsplit_mechanism_get_species_name(mech, k, &name) != OPSPLIT_SUCCESS || name == nullptr) std::abort();
  }
  std::vector<double> C(static_cast<size_t>(ns), 1.0), wdot(static_cast<size_t>(ns));
  opsplit_mechanism_net_production_rates(mech, 1200.0, C.data(), wdot.data());  // any status: the values are the file's
  opsplit_mechanism_destroy(&mech);
}

// A new grid of `model` (rows x cols), or abort.
inline opsplit_ca new_grid(opsplit_ca_model model, int64_t rows, int64_t cols) {
  opsplit_ca ca = nullptr;
  if (opsplit_ca_create(context(), model, rows, cols, &ca) != OPSPLIT_SUCCESS) std::abort();
  return ca;
}

// A grid after a reader: what it loaded is stepped (a value a file can set must not make
// a step misbehave; a step may refuse it with a status), then the grid is destroyed.
inline void step_and_destroy(opsplit_ca ca, int64_t steps) {
  const opsplit_status s = opsplit_ca_step(ca, steps);
  if (s != OPSPLIT_SUCCESS && s != OPSPLIT_ERROR_NUMERICAL && s != OPSPLIT_ERROR_INVALID_ARGUMENT) {
    std::fprintf(stderr, "a step after a load: %s \"%s\"\n", opsplit_status_string(s), opsplit_last_error_message());
    std::abort();
  }
  opsplit_ca_destroy(&ca);
}

}  // namespace fuzz
