// How the benchmark programs report a failed opsplit call: the call's text, its status
// and the library's message, in a std::string.
#pragma once

#include <string>

#include "opsplit/core.h"

namespace bench {

inline std::string api_error(const char* call, opsplit_status st) {
  return std::string(call) + " failed: " + opsplit_status_string(st) + ": " + opsplit_last_error_message();
}

}  // namespace bench

// Sets `error` (a std::string in scope) and returns `ret` when the call fails.
#define API_CHECK_RET(call, ret)                   \
  do {                                             \
    const opsplit_status st_ = (call);             \
    if (st_ != OPSPLIT_SUCCESS) {                  \
      error = bench::api_error(#call, st_);        \
      return ret;                                  \
    }                                              \
  } while (0)
