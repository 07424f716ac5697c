// C entry points of the core: thin checks, then the context object.
#include "api/guard.hpp"
#include <cstdlib>

#include "core/cuda_device.hpp"
#include "core/environment.hpp"

using namespace opsplit;

namespace {
const char* kContext = "opsplit_context";

Context& context_arg(opsplit_context ctx) { return checked(ctx, "ctx", kContext); }

void create_context(opsplit_backend backend, int device, opsplit_context* ctx) {
  opsplit_context& out = output(ctx, "ctx");
  out = make_handle<Context>(backend, device);
}
}  // namespace

extern "C" {

OPSPLIT_API void opsplit_get_version(int* major, int* minor, int* patch) {
  if (major) *major = OPSPLIT_VERSION_MAJOR;
  if (minor) *minor = OPSPLIT_VERSION_MINOR;
  if (patch) *patch = OPSPLIT_VERSION_PATCH;
}

OPSPLIT_API const char* opsplit_status_string(opsplit_status status) {
  switch (enum_value(status)) {  // any int a C caller passes, unloaded as the enum
#define STATUS_NAME(name, value) \
  case name:                     \
    return #name;
    OPSPLIT_STATUS_LIST(STATUS_NAME)
#undef STATUS_NAME
  }
  return "unknown opsplit_status";
}

OPSPLIT_API int opsplit_cuda_available(void) {
  try {
    return cuda::available(nullptr) ? 1 : 0;
  } catch (...) {
    return 0;
  }
}

OPSPLIT_API opsplit_status opsplit_context_create(opsplit_backend backend, opsplit_context* ctx) {
  return api_guard(__func__, [&] {
    const int b = enum_value(backend);
    if (b != OPSPLIT_BACKEND_AUTO && b != OPSPLIT_BACKEND_CPU && b != OPSPLIT_BACKEND_CUDA)
      fail_argument("backend=" + num(b) + " is not AUTO (0), CPU (1) or CUDA (2)");
    output(ctx, "ctx");
    const opsplit_backend resolved = resolve_backend(static_cast<opsplit_backend>(b));
    const int device = resolved == OPSPLIT_BACKEND_CUDA
                           ? environment::cuda_device(cuda::device_count())
                           : 0;
    create_context(resolved, device, ctx);
  });
}

OPSPLIT_API opsplit_status opsplit_context_create_on_device(int cuda_device, opsplit_context* ctx) {
  return api_guard(__func__, [&] {
    if (cuda_device < 0) fail_argument("cuda_device=" + num(cuda_device) + " must be >= 0");
    create_context(OPSPLIT_BACKEND_CUDA, cuda_device, ctx);
  });
}

OPSPLIT_API opsplit_status opsplit_context_destroy(opsplit_context* ctx) {
  return api_guard(__func__, [&] {
    if (ctx == nullptr || *ctx == nullptr) return;
    Context& c = checked(*ctx, "*ctx", kContext);
    if (c.live_objects > 0)
      fail_argument(num(c.live_objects) + " object(s) made from this context are still alive; destroy them first");
    destroy_handle(*ctx);
  });
}

OPSPLIT_API opsplit_status opsplit_context_get_backend(opsplit_context ctx, opsplit_backend* backend) {
  return api_guard(__func__, [&] { output(backend, "backend") = context_arg(ctx).backend(); });
}

OPSPLIT_API opsplit_status opsplit_context_get_cuda_device(opsplit_context ctx, int* device) {
  return api_guard(__func__, [&] {
    const Context& c = context_arg(ctx);
    output(device, "device") = c.is_cuda() ? c.device().id() : -1;
  });
}

OPSPLIT_API opsplit_status opsplit_context_set_num_threads(opsplit_context ctx, int nthreads) {
  return api_guard(__func__, [&] {
    Context& c = context_arg(ctx);
    // Bounded: libgomp aborts the host program when it cannot make the threads asked for.
    if (nthreads < 0 || nthreads > Context::kMaxThreads)
      fail_argument("nthreads=" + num(nthreads) + " is not in [0, " + num(Context::kMaxThreads) +
                    "] (0: the OpenMP default)");
    c.set_threads(nthreads);
  });
}

OPSPLIT_API opsplit_status opsplit_context_set_cuda_stream(opsplit_context ctx, void* stream) {
  return api_guard(__func__, [&] {
    Context& c = context_arg(ctx);
    if (!c.is_cuda()) fail(OPSPLIT_ERROR_UNSUPPORTED, "ctx is a CPU context; a CUDA stream needs a CUDA context");
    c.device().activate();
    c.device().synchronize();  // work already queued finishes before the switch
    c.device().set_stream(stream);
  });
}

OPSPLIT_API opsplit_status opsplit_context_synchronize(opsplit_context ctx) {
  return api_guard(__func__, [&] {
    Context& c = context_arg(ctx);
    if (c.is_cuda()) c.device().activate();
    c.synchronize();
  });
}

OPSPLIT_API opsplit_status opsplit_context_set_progress_callback(opsplit_context ctx, opsplit_progress_fn fn,
                                                                 void* user) {
  return api_guard(__func__, [&] { context_arg(ctx).set_progress(fn, user); });
}

}  // extern "C"
