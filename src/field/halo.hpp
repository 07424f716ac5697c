// A distributed field's ghosts before a step: axis by axis (x, y, z), the faces' own
// conditions first (fill_ghosts: a remote face gets a placeholder), then the remote
// faces' slabs from the neighbours (halo.cuh), so that each later axis carries the
// earlier ones' ghosts and the edge ghosts of the 19-point stencil arrive as the
// one-process fill makes them.
#pragma once

#include "core/context.hpp"
#include "field/field.hpp"
#include "field/launch.hpp"

namespace opsplit::field {

template <class T>
void fill_and_exchange_ghosts(const Context& ctx, opsplit_field_s& field, const FaceCondition* faces,
                              const Launchers<T>& run) {
  const Grid& grid = field.grid();
  auto& d = *field.decomposition();
  T* data = field.data().as<T>();
  T* slabs = d.slabs.as<T>();
  const int64_t most = d.slab_values;
  for (int axis = 0; axis < 3; ++axis) {
    if (!grid.active(axis)) continue;
    run.fill_ghosts(ctx, data, grid, faces, 1u << axis);
    const bool remote[2] = {d.remote[2 * axis], d.remote[2 * axis + 1]};
    if (!remote[0] && !remote[1]) continue;
    const size_t bytes = static_cast<size_t>(face_slab(grid, axis).values(grid.ncomp)) * sizeof(T);
    T* send[2] = {slabs, slabs + most};
    T* recv[2] = {slabs + 2 * most, slabs + 3 * most};
    for (int side = 0; side < 2; ++side)
      if (remote[side]) run.pack_face(ctx, data, grid, axis, side, send[side]);
    const bool staged = !d.staging.empty();
    unsigned char* host = d.staging.data();
    const size_t slot = static_cast<size_t>(most) * sizeof(T);
    const void* out[2] = {nullptr, nullptr};
    void* in[2] = {nullptr, nullptr};
    for (int side = 0; side < 2; ++side) {
      if (!remote[side]) continue;
      if (staged) {
        ctx.device().copy_to_host(host + side * slot, send[side], bytes);
        out[side] = host + side * slot, in[side] = host + (2 + side) * slot;
      } else {
        out[side] = send[side], in[side] = recv[side];
      }
    }
    if (ctx.is_cuda() && !staged) ctx.synchronize();  // the slabs are written before MPI reads them
    d.group.exchange(axis, out, in, bytes);
    for (int side = 0; side < 2; ++side) {
      if (!remote[side]) continue;
      if (staged) ctx.device().copy_to_device(recv[side], in[side], bytes);
      run.unpack_face(ctx, recv[side], grid, axis, side, data);
    }
  }
}

}  // namespace opsplit::field
