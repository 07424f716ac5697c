#include "core/progress.hpp"

#include <algorithm>

namespace opsplit {

Progress::Progress(const opsplit_context_s& ctx, const Group* group, const char* call)
    : ctx_(ctx), group_(group), call_(call) {
  int64_t any = ctx.has_progress() ? 1 : 0;
  if (group_) group_->allmax(&any, 1);
  active_ = any != 0;
}

int64_t Progress::chunk(int64_t total, int64_t parts) const {
  if (!active_) return total;
  return std::max<int64_t>(1, total / parts + (total % parts != 0));
}

bool Progress::asks_to_cancel(double fraction, bool work_left) const {
  if (!active_) return false;
  int64_t cancel = ctx_.report_progress(std::clamp(fraction, 0.0, 1.0), call_) ? 1 : 0;
  if (group_) group_->allmax(&cancel, 1);
  return cancel != 0 && work_left;
}

void Progress::cancel(const std::string& where) { fail(OPSPLIT_ERROR_CANCELLED, "cancelled by the progress callback " + where); }

}  // namespace opsplit
