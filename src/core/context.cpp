#include "core/context.hpp"

#include <omp.h>

#include <optional>
#include <string>

#include "core/environment.hpp"

namespace opsplit {

opsplit_backend resolve_backend(opsplit_backend requested) {
  if (requested != OPSPLIT_BACKEND_AUTO) return requested;
  if (const std::optional<opsplit_backend> chosen = environment::backend()) return *chosen;
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
