#include "core/error.hpp"
#include "opsplit/group.h"

#include <cstdio>
#include <cstdlib>

namespace opsplit {

namespace {
thread_local std::string last_error;
}

std::string num(double x) {
  char buf[40];
  for (int digits = 6; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

void set_last_error(const char* function, const char* message) {
  try {
    last_error = std::string(function) + ": " + message;
  } catch (...) {
    last_error.clear();  // out of memory while reporting: an empty message, never a throw
  }
}

void clear_last_error() { last_error.clear(); }

}  // namespace opsplit

extern "C" OPSPLIT_API const char* opsplit_last_error_message(void) { return opsplit::last_error.c_str(); }

extern "C" OPSPLIT_API opsplit_status opsplit_set_last_error(opsplit_status status, const char* function,
                                                             const char* message) {
  const int value = opsplit::enum_value(status);
  if (!opsplit::is_status(value)) {  // a status nobody can test for: say so, as an argument error
    char text[96];
    std::snprintf(text, sizeof text, "status=%d is not an opsplit_status", value);
    opsplit::set_last_error("opsplit_set_last_error", text);
    return OPSPLIT_ERROR_INVALID_ARGUMENT;
  }
  opsplit::set_last_error(function ? function : "(unnamed)", message ? message : "");
  return status;
}
