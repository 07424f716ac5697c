// A distributed field's ghosts before a step. First every face's own condition
// (fill_missing_ghosts: the fill leaves the remote faces alone), then the remote faces'
// slabs from the neighbours (halo.cuh), axis by axis (x, y, z), each slab over the
// whole of the other two axes with their ghosts. The edge ghosts come out as the
// one-process fill makes them: a face rule takes a ghost from one cell along its own
// axis at the same place on the others, so it gives the same value before or after a
// copy across another axis (an exchange copies, as PERIODIC does): the neighbour's
// ghost beside the cells it sends is the one-process edge ghost, and an edge of two
// remote faces comes with the later axis, from the neighbour that got it with the
// earlier one.
//
// The exchange of an axis can run work between its send and its receive, so that a step
// computes the cells no remote ghost reaches while the faces travel (steps.hpp; the swap:
// core/slab_exchange.hpp, by CUDA IPC between a node's GPUs, else by MPI, through the
// host where it needs host memory). A CUDA context's stream runs on meanwhile.
#pragma once

#include <vector>

#include "core/context.hpp"
#include "core/error.hpp"
#include "field/field.hpp"
#include "field/launch.hpp"

namespace opsplit::field {

template <class T>
class HaloExchange {
 public:
  HaloExchange(const Context& ctx, opsplit_field_s& field, const Launchers<T>& run)
      : HaloExchange(ctx, *field.decomposition(), field.data().as<T>(), field.grid(), run) {}
  // Another buffer in the field's geometry (a Cahn-Hilliard potential, a velocity field's
  // component) through the field's slabs: `grid` may have fewer components, never more.
  HaloExchange(const Context& ctx, opsplit_field_s::Decomposition& d, T* data, const Grid& grid,
               const Launchers<T>& run)
      : ctx_(ctx), grid_(grid), d_(d), data_(data), run_(run) {
    for (int axis : axes())
      if (slab_values(axis) > d_.slab_values)
        opsplit::fail(OPSPLIT_ERROR_INTERNAL, "a halo slab of " + num(static_cast<long long>(slab_values(axis))) +
                                                  " values is larger than the field's slabs");
  }

  // The axes with a remote face, in order.
  std::vector<int> axes() const {
    std::vector<int> a;
    for (int axis = 0; axis < 3; ++axis)
      if (d_.remote[2 * axis] || d_.remote[2 * axis + 1]) a.push_back(axis);
    return a;
  }

  // The remote faces of one axis: packed and sent, `during()` on the context's stream
  // while they travel (work that reads no remote ghost), then received and unpacked.
  // SlabExchange::swap holds a failure of during() until the receive is done, so the
  // neighbours never wait for this process.
  template <class During>
  void exchange(int axis, During during) {
    const bool* remote = &d_.remote[2 * axis];
    d_.exchange.swap(
        ctx_, d_.group, axis, remote, slab_bytes(axis),
        [&](int side, void* slot) { run_.pack_face(ctx_, data_, grid_, axis, side, static_cast<T*>(slot)); },
        [&](int side, void* slot) { run_.unpack_face(ctx_, static_cast<T*>(slot), grid_, axis, side, data_); },
        during);
  }
  void exchange(int axis) {
    exchange(axis, [] {});
  }

 private:
  int64_t slab_values(int axis) const { return face_slab(grid_, axis).values(grid_.ncomp); }
  size_t slab_bytes(int axis) const { return static_cast<size_t>(slab_values(axis)) * sizeof(T); }

  const Context& ctx_;
  const Grid grid_;
  opsplit_field_s::Decomposition& d_;
  T* data_;
  const Launchers<T>& run_;
};

// The parts of a step that overlap the exchange, as views of the grid (rd.cpp): the
// interior, which no remote ghost reaches, and the shell of cells next to the remote
// faces, split into boxes. Only y and z are cut (a view starts a row where the grid
// does: a cut along x would break the rows' alignment), two cells deep (a view keeps
// every axis longer than one cell, so that it takes the 3D march); a face of a view
// that is a cut reads its ghosts from memory: the field's own cells.
struct GridView {
  int64_t origin[3];
  int64_t n[3];
  bool cut[6];  // per face: a cut through the field (not one of its own faces)
};

// Empty where there is nothing to overlap or the step cannot be split so: a remote x
// face, a grid not 3D, or an axis too short to keep an interior.
inline std::vector<GridView> overlap_views(const Grid& grid, const bool remote[6]) {
  constexpr int64_t kDepth = 2;
  if (remote[0] || remote[1] || !(remote[2] || remote[3] || remote[4] || remote[5])) return {};
  if (!grid.active(0) || !grid.active(1) || !grid.active(2)) return {};
  GridView inner{{0, 0, 0}, {grid.n[0], grid.n[1], grid.n[2]}, {false, false, false, false, false, false}};
  for (int axis = 1; axis < 3; ++axis) {
    const int64_t lo = remote[2 * axis] ? kDepth : 0, hi = remote[2 * axis + 1] ? kDepth : 0;
    if (grid.n[axis] - lo - hi < kDepth) return {};
    inner.origin[axis] = lo, inner.n[axis] = grid.n[axis] - lo - hi;
    inner.cut[2 * axis] = lo > 0, inner.cut[2 * axis + 1] = hi > 0;
  }
  std::vector<GridView> views{inner};
  // The shell: boxes of z planes over every row, then of y rows over the inner planes.
  for (int axis = 2; axis >= 1; --axis)
    for (int side = 0; side < 2; ++side) {
      if (!remote[2 * axis + side]) continue;
      GridView box = inner;
      if (axis == 2) box.origin[1] = 0, box.n[1] = grid.n[1], box.cut[2] = box.cut[3] = false;
      box.origin[axis] = side == 0 ? 0 : grid.n[axis] - kDepth;
      box.n[axis] = kDepth;
      box.cut[2 * axis] = side == 1, box.cut[2 * axis + 1] = side == 0;
      views.push_back(box);
    }
  return views;
}

}  // namespace opsplit::field
