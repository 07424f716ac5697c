// A field buffer: nx*ny*nz cells x ncomp components with a ghost layer, on its
// context's backend, in structure-of-arrays storage (component planes, x fastest).
#pragma once

#include "core/buffer.hpp"
#include <memory>
#include <vector>

#include "core/context.hpp"
#include "core/group.hpp"
#include "core/handle.hpp"
#include "core/slab_exchange.hpp"
#include "core/pinned.hpp"
#include "field/grid.cuh"
#include "field/launch.hpp"
#include "opsplit/group.h"
#include "opsplit/field.h"

struct opsplit_field_s : opsplit::Handle<opsplit::HandleKind::field>, opsplit::ContextMember {
  static constexpr int kGhost = 1;  // the reach of the Laplacian stencils
  // Components of a field or a model (field.h): far above what a host transports (a
  // chemistry's few hundred species), low enough that a model's per-component tables
  // stay small whatever a caller passes.
  static constexpr int kMaxComponents = 4096;
  // Spacings whose squares and reciprocal squares (the stencils' weights) are normal doubles.
  static constexpr double kMinSpacing = 1e-150, kMaxSpacing = 1e150;

  // precision: an opsplit_precision value, checked here.
  opsplit_field_s(opsplit::Context& ctx, int64_t nx, int64_t ny, int64_t nz, int ncomp, int precision);

  const opsplit::field::Grid& grid() const { return grid_; }
  opsplit_precision precision() const { return precision_; }
  size_t value_size() const { return precision_ == OPSPLIT_FLOAT64 ? sizeof(double) : sizeof(float); }
  const double* spacing() const { return h_; }
  void set_spacing(double hx, double hy, double hz);

  void upload(const void* host, opsplit_layout layout);
  void download(void* host, opsplit_layout layout) const;
  // The same from and to an array in the backend's memory (a host's device array on
  // CUDA), ordered on the stream.
  void upload_device(const void* device, opsplit_layout layout);
  void download_device(void* device, opsplit_layout layout) const;
  // The bytes of the host's array in either layout: every cell's components.
  size_t array_bytes() const { return static_cast<size_t>(grid_.cells()) * static_cast<size_t>(grid_.ncomp) * value_size(); }
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

  // A distributed field (opsplit/group.h): this process's subdomain, the faces
  // whose ghosts come from another process, and the exchange of their slabs (halo.cuh):
  // slots for the largest slab (slab_values), packed at each axis's own slab size
  // (HaloExchange).
  struct Decomposition {
    opsplit::Group group;
    opsplit_decomposition place{};
    bool remote[6] = {};
    int64_t slab_values = 0;
    uint64_t serial = 0;  // this attach's, unique in the process (what a copy's ghosts were exchanged for)
    opsplit::SlabExchange exchange;  // slots of slab_values values
  };
  // Checks (collectively) and attaches; the field owns the group after success.
  void attach(const opsplit_group& group, const opsplit_decomposition& place);
  Decomposition* decomposition() const { return decomposition_.get(); }

 private:
  opsplit::field::Grid grid_;
  opsplit_precision precision_;
  double h_[3] = {1.0, 1.0, 1.0};
  opsplit::Buffer data_;
  opsplit::Buffer scratch_;
  opsplit::Buffer auxiliary_;
  opsplit::field::GhostRecord ghost_record_;
  std::unique_ptr<Decomposition> decomposition_;
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
