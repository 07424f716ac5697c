// Errors inside opsplit: thrown as opsplit::Error, turned into a status and the
// thread-local message by api_guard (src/api/guard.hpp) at the C boundary.
#pragma once

#include <cstring>
#include <exception>
#include <string>

#include "opsplit/core.h"

namespace opsplit {

class Error : public std::exception {
 public:
  Error(opsplit_status status, std::string message) : status_(status), message_(std::move(message)) {}
  opsplit_status status() const noexcept { return status_; }
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  opsplit_status status_;
  std::string message_;
};

[[noreturn]] inline void fail(opsplit_status status, std::string message) {
  throw Error(status, std::move(message));
}
[[noreturn]] inline void fail_argument(std::string message) {
  throw Error(OPSPLIT_ERROR_INVALID_ARGUMENT, std::move(message));
}

// Shortest text that reads back as the same double ("0.3", not "0.29999999999999999").
std::string num(double x);
inline std::string num(long long x) { return std::to_string(x); }
inline std::string num(long x) { return std::to_string(x); }
inline std::string num(int x) { return std::to_string(x); }

// The integer a C caller passed for an enum parameter, read as bytes: a C caller may
// pass any int, and loading an out-of-range value as a C++ enum is undefined.
template <class E>
int enum_value(const E& e) {
  static_assert(sizeof(E) == sizeof(int), "opsplit enums are int-sized");
  int v;
  std::memcpy(&v, &e, sizeof v);
  return v;
}

// Whether an int is one of opsplit_status's values.
constexpr bool is_status(int v) {
  switch (v) {
#define STATUS_VALUE(name, value) case value:
    OPSPLIT_STATUS_LIST(STATUS_VALUE)
#undef STATUS_VALUE
    return true;
    default:
      return false;
  }
}

void set_last_error(const char* function, const char* message);
void clear_last_error();

}  // namespace opsplit
