#include "core/environment.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

#include "core/default_device.hpp"
#include "core/error.hpp"

namespace opsplit::environment {
namespace {

// The variable's value, or null when it is unset or empty.
const char* value_of(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

bool is(const char* value, const char* word) { return std::strcmp(value, word) == 0; }

[[noreturn]] void bad(const char* name, const char* value, const char* expected) {
  fail_argument(std::string("the environment variable ") + name + "='" + value + "' is not " + expected);
}

}  // namespace

std::optional<opsplit_backend> backend() {
  const char* v = value_of("OPSPLIT_BACKEND");
  if (v == nullptr) return std::nullopt;
  if (is(v, "cpu")) return OPSPLIT_BACKEND_CPU;
  if (is(v, "cuda")) return OPSPLIT_BACKEND_CUDA;
  bad("OPSPLIT_BACKEND", v, "cpu or cuda");
}

int cuda_device(int count) {
  return default_cuda_device(count, [](const char* name) { return std::getenv(name); });
}

Rounds ode_cuda_rounds() {
  const char* v = value_of("OPSPLIT_ODE_CUDA_ROUNDS");
  if (v == nullptr || is(v, "auto")) return Rounds::kAuto;
  if (is(v, "off")) return Rounds::kOff;
  if (is(v, "always")) return Rounds::kAlways;
  bad("OPSPLIT_ODE_CUDA_ROUNDS", v, "auto, off or always");
}

DeviceIpc device_ipc() {
  const char* v = value_of("OPSPLIT_DEVICE_IPC");
  if (v == nullptr || is(v, "1")) return DeviceIpc::kAuto;
  if (is(v, "0")) return DeviceIpc::kOff;
  if (is(v, "require")) return DeviceIpc::kRequire;
  if (is(v, "mixed")) return DeviceIpc::kMixed;
  return DeviceIpc::kBad;
}

bool halo_overlap() {
  const char* v = value_of("OPSPLIT_HALO_OVERLAP");
  return v == nullptr || !is(v, "0");
}

}  // namespace opsplit::environment
