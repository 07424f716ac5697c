#include "core/device_array.hpp"

#include <cstdint>
#include <cstdio>

namespace opsplit {

namespace {
std::string hex(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}
}  // namespace

std::string device_array_problem(const cuda::PointerFacts& facts, const void* pointer, size_t bytes, size_t align,
                                 int device, const char* name) {
  using Kind = cuda::PointerFacts::Kind;
  const std::string arg(name);
  if (facts.kind == Kind::host) return arg + " is host memory, not device memory (CUDA does not know it)";
  if (facts.kind == Kind::page_locked_host) return arg + " is page-locked host memory, not device memory";
  if (facts.device != device)
    return arg + " is memory of GPU " + std::to_string(facts.device) + "; this context works on GPU " +
           std::to_string(device);
  if (facts.other_context)
    return arg + " was allocated in another CUDA context than opsplit's (the device's primary context): create the "
                 "opsplit context before the host's first OpenACC or driver-API work, or allocate with the CUDA runtime";
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  if (align > 1 && address % align != 0)
    return arg + " (" + hex(pointer) + ") is not aligned to " + std::to_string(align) + " bytes";
  if (facts.range_known && bytes > 0) {
    const uintptr_t end = facts.range_start + facts.range_size;
    if (address < facts.range_start || address >= end)
      return arg + " is outside the allocation CUDA reports for it";
    if (bytes > end - address)
      return arg + " lies in an allocation that ends " + std::to_string(end - address) + " bytes after it; " +
             std::to_string(bytes) + " bytes are needed";
  }
  return {};
}

std::string host_array_problem(const cuda::PointerFacts& facts, const char* name) {
  if (facts.kind != cuda::PointerFacts::Kind::device) return {};
  return std::string(name) + " is device memory, where a host array is expected (the _device form takes it)";
}

}  // namespace opsplit
