// A field buffer: nx*ny*nz cells x ncomp components with a ghost layer, on its
// context's backend, in structure-of-arrays storage (component planes, x fastest).
#pragma once

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "field/grid.cuh"
#include "field/launch.hpp"
#include "opsplit/field.h"

struct opsplit_field_s : opsplit::Handle<opsplit::HandleKind::field>, opsplit::ContextMember {
  static constexpr int kGhost = 1;  // the reach of the Laplacian stencils

  // precision: an opsplit_precision value, checked here.
  opsplit_field_s(opsplit::Context& ctx, int64_t nx, int64_t ny, int64_t nz, int ncomp, int precision);

  const opsplit::field::Grid& grid() const { return grid_; }
  opsplit_precision precision() const { return precision_; }
  size_t value_size() const { return precision_ == OPSPLIT_FLOAT64 ? sizeof(double) : sizeof(float); }
  const double* spacing() const { return h_; }
  void set_spacing(double hx, double hy, double hz);

  void upload(const void* host, opsplit_layout layout);
  void download(void* host, opsplit_layout layout) const;
  double component_sum(int comp) const;

  // Storage: `data` holds the field; `scratch` (made on first use, same size) is the
  // target of a step, then the two are swapped.
  opsplit::Buffer& data() { return data_; }
  const void* data_pointer() const { return data_.data(); }
  size_t data_bytes() const { return data_.bytes(); }
  opsplit::Buffer& scratch();
  // Storage for intermediate fields of a step (a Cahn-Hilliard chemical potential):
  // at least `bytes`, kept between calls.
  opsplit::Buffer& auxiliary(size_t bytes);
  // The smallest and largest value of a component (NaN when it holds a NaN).
  void component_range(int comp, double* lo, double* hi) const;

  // Which ghosts of `data` follow its values (upload forgets them).
  opsplit::field::GhostRecord& ghost_record() { return ghost_record_; }

 private:
  opsplit::field::Grid grid_;
  opsplit_precision precision_;
  double h_[3] = {1.0, 1.0, 1.0};
  opsplit::Buffer data_;
  opsplit::Buffer scratch_;
  opsplit::Buffer auxiliary_;
  opsplit::field::GhostRecord ghost_record_;
};

namespace opsplit {
using Field = opsplit_field_s;

// Calls f with a value of the field's element type (double or float).
template <class F>
decltype(auto) with_value_type(opsplit_precision precision, F&& f) {
  if (precision == OPSPLIT_FLOAT64) return f(double{});
  return f(float{});
}
}  // namespace opsplit
