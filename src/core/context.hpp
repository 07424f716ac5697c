// A context owns a backend: CPU (OpenMP threads) or CUDA (device + stream). Every
// object is made from one, counts itself in it while alive, and runs its work there.
#pragma once

#include <memory>

#include "core/cuda_device.hpp"
#include "core/handle.hpp"
#include "opsplit/core.h"

struct opsplit_context_s : opsplit::Handle<opsplit::HandleKind::context> {
  opsplit_context_s(opsplit_backend backend, int cuda_device);

  opsplit_backend backend() const { return backend_; }
  bool is_cuda() const { return backend_ == OPSPLIT_BACKEND_CUDA; }
  opsplit::cuda::Device& device() const { return *device_; }  // CUDA contexts only

  static constexpr int kMaxThreads = 4096;  // set_threads' limit (opsplit_context_set_num_threads)
  int threads() const;  // OpenMP threads for this context's CPU loops
  void set_threads(int n) { threads_ = n; }

  void set_progress(opsplit_progress_fn fn, void* user) {
    progress_ = fn;
    progress_user_ = user;
  }
  bool has_progress() const { return progress_ != nullptr; }
  // Calls the progress callback; true when it asked to cancel.
  bool report_progress(double fraction, const char* what) const;

  void synchronize() const;

  int live_objects = 0;  // objects made from this context and not yet destroyed

 private:
  opsplit_backend backend_;
  int threads_ = 0;  // 0: the OpenMP default
  opsplit_progress_fn progress_ = nullptr;
  void* progress_user_ = nullptr;
  std::unique_ptr<opsplit::cuda::Device> device_;
};

namespace opsplit {

using Context = opsplit_context_s;

// An object made from a context holds it and counts itself in it while alive.
class ContextMember {
 public:
  explicit ContextMember(Context& ctx) : ctx_(ctx) { ++ctx_.live_objects; }
  ~ContextMember() { --ctx_.live_objects; }
  ContextMember(const ContextMember&) = delete;
  ContextMember& operator=(const ContextMember&) = delete;
  Context& context() const { return ctx_; }

 private:
  Context& ctx_;
};

// The backend AUTO resolves to (OPSPLIT_BACKEND=cpu|cuda overrides); throws on a bad value.
opsplit_backend resolve_backend(opsplit_backend requested);

}  // namespace opsplit
