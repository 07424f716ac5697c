// The one guard every C entry point runs its body in: an opsplit::Error becomes its
// status, anything else a status too; the thread-local message names the function.
// Nothing escapes, nothing is printed.
#pragma once

#include <cstring>
#include <new>
#include <string>

#include "core/context.hpp"
#include "core/error.hpp"
#include "core/group.hpp"

namespace opsplit {

template <class Body>
opsplit_status api_guard(const char* function, Body&& body) noexcept {
  try {
    body();
    clear_last_error();
    return OPSPLIT_SUCCESS;
  } catch (const Error& e) {
    set_last_error(function, e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    set_last_error(function, "out of host memory");
    return OPSPLIT_ERROR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    set_last_error(function, (std::string("internal error: ") + e.what()).c_str());
    return OPSPLIT_ERROR_INTERNAL;
  } catch (...) {
    set_last_error(function, "internal error: an unknown exception");
    return OPSPLIT_ERROR_INTERNAL;
  }
}

// The object behind a handle, with its context's CUDA device made current for the work.
template <class T>
T& on_its_device(T* handle, const char* argument, const char* type) {
  T& object = checked(handle, argument, type);
  if (object.context().is_cuda()) object.context().device().activate();
  return object;
}

// An output pointer that must not be NULL.
template <class T>
T& output(T* pointer, const char* argument) {
  if (pointer == nullptr) fail_argument(std::string(argument) + " is NULL");
  return *pointer;
}

// A string argument that must not be NULL.
inline const char* text_input(const char* s, const char* argument) {
  if (s == nullptr) fail_argument(std::string(argument) + " is NULL");
  return s;
}

// Destroys a handle through its C pointer: NULL and *NULL are no-ops; *handle = NULL after.
template <class T>
void destroy_through(T** handle, const char* type) {
  if (handle == nullptr || *handle == nullptr) return;
  checked(*handle, "*handle", type);
  destroy_handle(*handle);
}


// An attach to a group (opsplit/group.h): a NULL group fails here, a bad handle
// (object(), which finds it) or a NULL decomposition fails every process alike (the
// agreement comes first); then object.attach(group, decomposition).
template <class Object>
void attach_agreed(const opsplit_group* group, const opsplit_decomposition* decomposition, const char* function,
                   Object object) {
  if (group == nullptr) fail_argument("group is NULL");
  decltype(&object()) found = nullptr;
  const Group agreement(*group);
  agreement.settle(attempt([&] {
                     found = &object();
                     if (decomposition == nullptr) fail_argument("decomposition is NULL");
                   }),
                   function);
  found->attach(*group, *decomposition);
}

}  // namespace opsplit
