// Opaque handles: every object behind a C handle derives from Handle<kind>, carries
// the kind's magic word, and is listed in a process-wide registry while it lives, so
// that NULL, destroyed and foreign pointers are caught before they are dereferenced.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/error.hpp"

namespace opsplit {

enum class HandleKind : uint64_t {
  context = 0x6f7073706c637478ULL,  // "opsplctx"
  field = 0x6f7073706c666c64ULL,    // "opsplfld"
  rd = 0x6f7073706c5f7264ULL,       // "opspl_rd"
  mechanism = 0x6f7073706c6d6563ULL,  // "opsplmec"
  ode = 0x6f7073706c6f6465ULL,        // "opsplode"
  ca = 0x6f7073706c5f6361ULL,         // "opspl_ca"
  pcpd = 0x6f707370706370ULL,         // "opsppcp"
  gw = 0x6f7073706c5f6777ULL,         // "opspl_gw"
};

namespace registry {
void add(const void* object, HandleKind kind);
void remove(const void* object);
bool contains(const void* object, HandleKind kind);
}  // namespace registry

template <HandleKind K>
struct Handle {
  static constexpr HandleKind kind = K;
  uint64_t magic = static_cast<uint64_t>(K);
  Handle() = default;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { magic = 0; }
};

// The object behind a C handle, or INVALID_HANDLE naming the argument.
template <class T>
T& checked(T* handle, const char* argument, const char* type) {
  if (handle == nullptr) fail(OPSPLIT_ERROR_INVALID_HANDLE, std::string(argument) + " is NULL");
  if (!registry::contains(handle, T::kind) || handle->magic != static_cast<uint64_t>(T::kind))
    fail(OPSPLIT_ERROR_INVALID_HANDLE,
         std::string(argument) + " is not a live " + type + " (destroyed, or not made by opsplit)");
  return *handle;
}

// An object made elsewhere (a reader's) becomes a handle.
template <class T>
T* adopt_handle(std::unique_ptr<T> object) {
  registry::add(object.get(), T::kind);
  return object.release();
}

template <class T, class... Args>
T* make_handle(Args&&... args) {
  return adopt_handle(std::make_unique<T>(std::forward<Args>(args)...));
}

template <class T>
void destroy_handle(T*& handle) {
  registry::remove(handle);
  delete handle;
  handle = nullptr;
}

}  // namespace opsplit
