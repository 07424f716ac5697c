#include "core/context.hpp"

#include <omp.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace opsplit {

opsplit_backend resolve_backend(opsplit_backend requested) {
  if (requested != OPSPLIT_BACKEND_AUTO) return requested;
  const char* env = std::getenv("OPSPLIT_BACKEND");
  if (env != nullptr && *env != '\0') {
    if (std::strcmp(env, "cpu") == 0) return OPSPLIT_BACKEND_CPU;
    if (std::strcmp(env, "cuda") == 0) return OPSPLIT_BACKEND_CUDA;
    fail_argument(std::string("the environment variable OPSPLIT_BACKEND='") + env + "' is neither cpu nor cuda");
  }
  return cuda::available(nullptr) ? OPSPLIT_BACKEND_CUDA : OPSPLIT_BACKEND_CPU;
}

}  // namespace opsplit

opsplit_context_s::opsplit_context_s(opsplit_backend backend, int cuda_device) : backend_(backend) {
  if (backend_ == OPSPLIT_BACKEND_CUDA) device_ = std::make_unique<opsplit::cuda::Device>(cuda_device);
}

int opsplit_context_s::threads() const { return threads_ > 0 ? threads_ : omp_get_max_threads(); }

bool opsplit_context_s::report_progress(double fraction, const char* what) const {
  return progress_ != nullptr && progress_(fraction, what, progress_user_) != 0;
}

void opsplit_context_s::synchronize() const {
  if (is_cuda()) device_->synchronize();
}
