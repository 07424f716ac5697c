#include "field/field.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <new>
#include <string>

#include "field/launch.hpp"
#include "field/reduce.cuh"

namespace opsplit {

namespace {

// Rows are aligned to one 32-byte memory sector (grid.cuh).
constexpr size_t kRowAlignBytes = 32;

// Bytes of a field's storage, or INVALID_ARGUMENT when the sizes overflow. Each axis
// is first bounded (n < 2^40, so Grid's own length arithmetic cannot overflow).
size_t storage_bytes(int64_t nx, int64_t ny, int64_t nz, int ncomp, size_t value_size, int ghost) {
  const int64_t dims[3] = {nx, ny, nz};
  const int64_t align = static_cast<int64_t>(kRowAlignBytes / value_size);
  int64_t total = ncomp;
  bool overflow = false;
  for (int a = 0; a < 3; ++a) {
    overflow |= dims[a] >= (int64_t(1) << 40);
    if (overflow) break;
    overflow |= __builtin_mul_overflow(total, field::Grid::extent_of(a, dims[a], ghost, align), &total);
  }
  size_t bytes = 0;
  overflow |= __builtin_mul_overflow(static_cast<size_t>(total), value_size, &bytes);
  if (overflow)
    fail_argument("nx*ny*nz*ncomp = " + num(static_cast<long long>(nx)) + "*" + num(static_cast<long long>(ny)) + "*" +
                  num(static_cast<long long>(nz)) + "*" + num(ncomp) + " overflows 64-bit sizes");
  return bytes;
}

}  // namespace

}  // namespace opsplit

opsplit_field_s::opsplit_field_s(opsplit::Context& ctx, int64_t nx, int64_t ny, int64_t nz, int ncomp,
                                 int precision)
    : ContextMember(ctx), precision_(OPSPLIT_FLOAT64) {
  using opsplit::fail_argument;
  using opsplit::num;
  if (nx < 1 || ny < 1 || nz < 1)
    fail_argument("nx, ny, nz = " + num(static_cast<long long>(nx)) + ", " + num(static_cast<long long>(ny)) + ", " +
                  num(static_cast<long long>(nz)) + ": each must be >= 1");
  if (ncomp < 1 || ncomp > kMaxComponents)
    fail_argument("ncomp=" + num(ncomp) + " is not in [1, " + num(kMaxComponents) + "]");
  if (precision != OPSPLIT_FLOAT64 && precision != OPSPLIT_FLOAT32)
    fail_argument("precision=" + num(precision) + " is not OPSPLIT_FLOAT64 (0) or OPSPLIT_FLOAT32 (1)");
  precision_ = static_cast<opsplit_precision>(precision);
  const size_t bytes = opsplit::storage_bytes(nx, ny, nz, ncomp, value_size(), kGhost);
  grid_ = opsplit::field::Grid::make(nx, ny, nz, ncomp, kGhost,
                                     static_cast<int64_t>(opsplit::kRowAlignBytes / value_size()));
  data_ = opsplit::Buffer(ctx, bytes);
}

void opsplit_field_s::set_spacing(double hx, double hy, double hz) {
  const double h[3] = {hx, hy, hz};
  const char* names[3] = {"hx", "hy", "hz"};
  for (int a = 0; a < 3; ++a)
    if (!(h[a] >= kMinSpacing && h[a] <= kMaxSpacing))  // NaN fails too
      opsplit::fail_argument(std::string(names[a]) + "=" + opsplit::num(h[a]) + " is not in [" +
                             opsplit::num(kMinSpacing) + ", " + opsplit::num(kMaxSpacing) +
                             "] (h^2 and 1/h^2 must be normal doubles)");
  for (int a = 0; a < 3; ++a) h_[a] = h[a];
}

opsplit::Buffer& opsplit_field_s::scratch() {
  if (scratch_.empty()) scratch_ = opsplit::Buffer(context(), data_.bytes());
  return scratch_;
}

opsplit::Buffer& opsplit_field_s::auxiliary(size_t bytes) {
  if (auxiliary_.bytes() < bytes) {
    auxiliary_ = opsplit::Buffer();  // free the old one first
    auxiliary_ = opsplit::Buffer(context(), bytes);
  }
  return auxiliary_;
}

void opsplit_field_s::upload(const void* host, opsplit_layout layout) {
  if (!context().is_cuda()) return upload_device(host, layout);  // the CPU's memory is the host's
  // On the GPU the host array goes to the scratch buffer, then is spread out there.
  opsplit::Buffer& staging = scratch();
  context().device().copy_to_device(staging.data(), host, array_bytes());
  upload_device(staging.data(), layout);
}

void opsplit_field_s::download(void* host, opsplit_layout layout) const {
  if (!context().is_cuda()) return download_device(host, layout);
  opsplit::Buffer& staging = const_cast<opsplit_field_s*>(this)->scratch();
  download_device(staging.data(), layout);
  context().device().copy_to_host(host, staging.data(), array_bytes());
}

void opsplit_field_s::upload_device(const void* device, opsplit_layout layout) {
  ghost_record_.forget();
  opsplit::with_value_type(precision_, [&](auto zero) {
    using T = decltype(zero);
    opsplit::field::launchers<T>(context()).unpack(context(), static_cast<const T*>(device), grid_, data_.as<T>(),
                                                   layout);
  });
}

void opsplit_field_s::download_device(void* device, opsplit_layout layout) const {
  opsplit::with_value_type(precision_, [&](auto zero) {
    using T = decltype(zero);
    opsplit::field::launchers<T>(context()).pack(context(), data_.as<T>(), grid_, static_cast<T*>(device), layout);
  });
}

double opsplit_field_s::component_sum(int comp) const {
  return opsplit::with_value_type(precision_, [&](auto zero) {
    using T = decltype(zero);
    return opsplit::field::pairwise_total(
        opsplit::field::launchers<T>(context()).row_sums(context(), data_.as<T>(), grid_, comp));
  });
}

void opsplit_field_s::component_range(int comp, double* lo, double* hi) const {
  opsplit::with_value_type(precision_, [&](auto zero) {
    using T = decltype(zero);
    opsplit::field::combine_extremes(
        opsplit::field::launchers<T>(context()).row_extremes(context(), data_.as<T>(), grid_, comp), lo, hi);
  });
}

namespace opsplit::field {

unsigned GhostRecord::take(const std::vector<FaceCondition>& faces) {
  const bool same = faces.size() == faces_.size() &&
                    std::equal(faces.begin(), faces.end(), faces_.begin(), [](const auto& a, const auto& b) {
                      // the bits: a Dirichlet value of -0.0 gives other ghosts than +0.0
                      return a.type == b.type && std::memcmp(&a.value, &b.value, sizeof a.value) == 0;
                    });
  faces_.clear();
  return same ? axes_ : 0u;
}

void GhostRecord::record(const std::vector<FaceCondition>& faces, unsigned axes) {
  try {  // without memory for the record, the next step fills every ghost: nothing to report
    faces_ = faces;
    axes_ = axes;
  } catch (const std::bad_alloc&) {
    faces_.clear();
  }
}

}  // namespace opsplit::field
