// A field's place in a decomposition over a group of processes (opsplit/group.h):
// checked on every process alike before it is taken, so that a mismatch fails the
// call everywhere with the same message.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>

#include "core/decomposition.hpp"
#include "field/field.hpp"
#include "field/halo.cuh"
#include "field/launch.hpp"

using namespace opsplit;

namespace {

std::atomic<uint64_t> attach_serial{0};

const PlaceNames kFieldPlace{{"x-low", "x-high", "y-low", "y-high", "z-low", "z-high"}, {"nx", "ny", "nz"}, "face"};

// This process's own arguments, before anything is exchanged.
void check_place(const opsplit_field_s& field, const Group& group, const opsplit_decomposition& d) {
  if (field.decomposition() != nullptr) fail_argument("field is already attached to a decomposition");
  opsplit::check_place(group, d, kFieldPlace, [&](int a) {
    return field.grid().active(a) ? std::string()
                                  : "axis " + num(a) + " has one cell (not a dimension of the field)";
  });
}

}  // namespace

void opsplit_field_s::attach(const opsplit_group& g, const opsplit_decomposition& d) {
  const char* call = "opsplit_field_attach_distributed";
  const Group agreement(g);  // not owned: the caller keeps the group if this fails
  const field::Grid& grid = grid_;
  agreement.settle(attempt([&] { check_place(*this, agreement, d); }), call,
                   {d.dims[0], d.dims[1], d.dims[2], d.periodic[0] != 0, d.periodic[1] != 0, d.periodic[2] != 0,
                    grid.ncomp, precision_},
                   "dims, periods, ncomp and precision");
  // Every process's shape and neighbours: each checks every shared face.
  check_borders(agreement, d, grid.n, kFieldPlace);
  // On CUDA a 3D field split along y or z (not x) swaps up to kRemotePlanes rows or
  // planes beside each remote face in one message an axis before a fused pass
  // (field_cuda.cuh, swap_remote_planes: along y the rows of every plane, along z the
  // planes with the rows beyond remote y faces; a split along x takes one step a pass
  // there): its slabs hold as many as a message carries (2^31 - 1 bytes), where the
  // device has the memory (else a face slab as before, and the pass fuses what that
  // holds: max_steps_per_pass).
  auto deep_slab_values = [&](const bool* remote) -> int64_t {
    const bool remote_y = remote[2] || remote[3], remote_z = remote[4] || remote[5];
    if (!context().is_cuda() || remote[0] || remote[1] || !(remote_y || remote_z) ||
        !(grid.active(0) && grid.active(1) && grid.active(2)))
      return 0;
    auto message = [&](int depth) {
      const int64_t rows = remote_y ? field::remote_rows_values(grid, depth) : 0;
      const int64_t planes = remote_z ? field::remote_planes_values(grid, remote[2] + remote[3], depth) : 0;
      return std::max(rows, planes);
    };
    int depth = field::kRemotePlanes;
    while (depth > 1 && static_cast<size_t>(message(depth)) * value_size() > static_cast<size_t>(INT32_MAX)) --depth;
    return depth >= 2 ? message(depth) : 0;  // (a pass of one step swaps no rows or planes)
  };
  // Slabs of `planes` values where there are more than a face's and the device has the
  // memory for them, else of a face's `face_values`; the values they hold.
  auto slabs_for = [&](int64_t planes, int64_t face_values, SlabExchange& exchange) -> int64_t {
    if (planes > face_values) {
      try {
        exchange = SlabExchange(context(), static_cast<size_t>(planes) * value_size(), agreement.device_pointers());
        return planes;
      } catch (const Error& e) {
        if (e.status() != OPSPLIT_ERROR_OUT_OF_MEMORY) throw;
      }
    }
    exchange = SlabExchange(context(), static_cast<size_t>(face_values) * value_size(), agreement.device_pointers());
    return face_values;
  };
  // The exchange's storage, then the group is the field's.
  std::unique_ptr<Decomposition> made;
  agreement.settle(attempt([&] {
                     made = std::make_unique<Decomposition>();
                     made->place = d;
                     made->serial = ++attach_serial;
                     for (int f = 0; f < 6; ++f) made->remote[f] = d.dims[f / 2] > 1 && d.neighbours[f] >= 0;
                     for (int a = 0; a < 3; ++a)
                       if (grid.active(a))
                         made->slab_values = std::max(made->slab_values, field::face_slab(grid, a).values(grid.ncomp));
                     const size_t bytes = static_cast<size_t>(made->slab_values) * value_size();
                     if (bytes > static_cast<size_t>(INT32_MAX))
                       opsplit::fail(OPSPLIT_ERROR_UNSUPPORTED,
                                     "a face of " + num(static_cast<long long>(bytes)) +
                                         " bytes is more than one message of 2^31 - 1 bytes can carry");
                     made->slab_values =
                         slabs_for(deep_slab_values(made->remote), made->slab_values, made->exchange);
                     if (!g.exchange) fail_argument("the group has no exchange (a field needs one)");
                   }),
                   call);
  // Then the faces between the GPUs of a node go by CUDA IPC (every process has its slabs).
  agreement.settle(attempt([&] { made->exchange.connect(context(), agreement, d, made->remote, 6); }), call);
  made->group = Group(g);
  made->group.adopt();
  decomposition_ = std::move(made);
  ghost_record_.forget();
}
