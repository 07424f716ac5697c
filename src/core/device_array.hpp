// Arrays a host hands over on the GPU (the _device forms of docs/API.md, "Hosts on the
// GPU"), and the check that a host form was not given one: one place that says what a
// pointer is and whether it will do, so every family refuses the same things the same
// way (INVALID_ARGUMENT, never a crash).
#pragma once

#include <cstddef>
#include <string>

#include "core/context.hpp"
#include "core/cuda_device.hpp"
#include "core/error.hpp"

namespace opsplit {

// Why `facts` about `pointer` do not make it a device array of `bytes` bytes aligned to
// `align`, for a context on GPU `device`; empty when they do. Device and managed memory
// do; a size is checked where CUDA knows the allocation (a whole cudaMalloc,
// cudaMallocManaged, cudaMallocAsync or cuMemMap range; not a sub-allocator's share of
// one). `name` names the argument in the message.
std::string device_array_problem(const cuda::PointerFacts& facts, const void* pointer, size_t bytes, size_t align,
                                 int device, const char* name);

// Why `facts` say `pointer` must not be read or written as host memory: device memory
// (managed memory will do). Empty when it may.
std::string host_array_problem(const cuda::PointerFacts& facts, const char* name);

// A device form on a CPU context: UNSUPPORTED naming the host form. Every device form
// asks this first, before its other arguments.
inline void require_cuda_context(const Context& ctx, const char* host_form) {
  if (!ctx.is_cuda())
    fail(OPSPLIT_ERROR_UNSUPPORTED,
         std::string("this context is on the CPU, which takes host arrays only: use ") + host_form);
}

// A device form's array argument: UNSUPPORTED on a CPU context (naming the host form to
// use), INVALID_ARGUMENT when NULL or when device_array_problem finds something.
inline void check_device_array(const Context& ctx, const void* pointer, size_t bytes, size_t align, const char* name,
                               const char* host_form) {
  require_cuda_context(ctx, host_form);
  if (pointer == nullptr) fail_argument(std::string(name) + " is NULL");
  const std::string problem =
      device_array_problem(cuda::describe(pointer), pointer, bytes, align, ctx.device().id(), name);
  if (!problem.empty()) fail_argument(problem);
}

// A host form's array argument on a CUDA context: INVALID_ARGUMENT when it is device
// memory. (On a CPU context nothing is asked of CUDA: a process whose contexts are all
// on the CPU must not start a CUDA context.)
inline void check_host_array(const Context& ctx, const void* pointer, const char* name) {
  if (!ctx.is_cuda() || pointer == nullptr) return;
  const std::string problem = host_array_problem(cuda::describe(pointer), name);
  if (!problem.empty()) fail_argument(problem);
}

// The work of a device form, ordered after the host's work on the device and finished
// for it (cuda::Device::follow_host and finish_for_host), also when it fails part way (the
// host may reuse its array once the call returns); on a CPU context just the work (which
// refuses the call: require_cuda_context).
template <class Body>
void in_host_order(const Context& ctx, Body&& body) {
  if (!ctx.is_cuda()) return body();
  ctx.device().follow_host();
  try {
    body();
  } catch (...) {
    try {
      ctx.device().finish_for_host();
    } catch (...) {  // the first failure is the one to report
    }
    throw;
  }
  ctx.device().finish_for_host();
}

// Host-form work on storage that may be a host's wrapped device array (Buffer::view): in
// the host's order then, as a device form's; otherwise just the work.
template <class Body>
void in_host_order_if_wrapped(const Context& ctx, bool wrapped, Body&& body) {
  if (wrapped) return in_host_order(ctx, body);
  body();
}

}  // namespace opsplit
