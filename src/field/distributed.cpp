// A field's place in a decomposition over a group of processes (opsplit/distributed.h):
// checked on every process alike before it is taken, so that a mismatch fails the
// call everywhere with the same message.
#include <algorithm>
#include <cstdint>
#include <string>

#include "field/field.hpp"
#include "field/halo.cuh"

using namespace opsplit;

namespace {

const char* const kFaceNames[6] = {"x-low", "x-high", "y-low", "y-high", "z-low", "z-high"};

// This process's own arguments, before anything is exchanged.
void check_place(const opsplit_field_s& field, const Group& group, const opsplit_decomposition& d) {
  if (field.decomposition() != nullptr) fail_argument("field is already attached to a decomposition");
  int64_t processes = 1;
  for (int a = 0; a < 3; ++a) {
    if (d.dims[a] < 1) fail_argument("dims[" + num(a) + "]=" + num(d.dims[a]) + " is not >= 1");
    if (d.coords[a] < 0 || d.coords[a] >= d.dims[a])
      fail_argument("coords[" + num(a) + "]=" + num(d.coords[a]) + " is not in 0 .. " + num(d.dims[a] - 1));
    if (d.dims[a] > 1 && !field.grid().active(a))
      fail_argument("axis " + num(a) + " has one cell (not a dimension of the field) but dims[" + num(a) +
                    "]=" + num(d.dims[a]) + " processes");
    if (d.dims[a] > (int64_t(1) << 31) / processes)
      fail_argument("dims " + num(d.dims[0]) + "x" + num(d.dims[1]) + "x" + num(d.dims[2]) + " is too many processes");
    processes *= d.dims[a];
  }
  if (processes != group.size())
    fail_argument("dims " + num(d.dims[0]) + "x" + num(d.dims[1]) + "x" + num(d.dims[2]) + " make " +
                  num(static_cast<long long>(processes)) + " processes, but the group has " + num(group.size()));
  for (int f = 0; f < 6; ++f)
    if (d.neighbours[f] < -1 || d.neighbours[f] >= group.size())
      fail_argument(std::string("neighbours[") + kFaceNames[f] + "]=" + num(d.neighbours[f]) + " is not -1 or a rank");
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
  // Every process's shape and neighbours: each checks every shared face, so all reach
  // the same verdict.
  constexpr int kPer = 9;
  const int size = agreement.size();
  const std::vector<int64_t> mine{grid.n[0],        grid.n[1],        grid.n[2],        d.neighbours[0], d.neighbours[1],
                                  d.neighbours[2], d.neighbours[3], d.neighbours[4], d.neighbours[5]};
  std::vector<int64_t> all(static_cast<size_t>(kPer * size));
  agreement.allgather(mine.data(), std::vector<int64_t>(static_cast<size_t>(size), kPer), all.data());
  const char* axes = "xyz";
  for (int r = 0; r < size; ++r)
    for (int f = 0; f < 6; ++f) {
      const int64_t q = all[size_t(kPer * r + 3 + f)];
      if (q < 0) continue;
      const int axis = f / 2, opposite = f ^ 1;
      if (all[size_t(kPer * q + 3 + opposite)] != r)
        fail_argument("process " + num(r) + "'s " + kFaceNames[f] + " neighbour is process " +
                      num(static_cast<long long>(q)) + ", whose " + kFaceNames[opposite] + " neighbour is not " +
                      num(r) + " (not one Cartesian decomposition)");
      for (int b = 0; b < 3; ++b)
        if (b != axis && all[size_t(kPer * q + b)] != all[size_t(kPer * r + b)])
          fail_argument("process " + num(r) + " and its " + kFaceNames[f] + " neighbour " +
                        num(static_cast<long long>(q)) + " share a face but have n" + axes[b] + " = " +
                        num(static_cast<long long>(all[size_t(kPer * r + b)])) + " and " +
                        num(static_cast<long long>(all[size_t(kPer * q + b)])));
    }
  // The exchange's storage, then the group is the field's.
  std::unique_ptr<Decomposition> made;
  agreement.settle(attempt([&] {
                     made = std::make_unique<Decomposition>();
                     made->place = d;
                     for (int f = 0; f < 6; ++f) made->remote[f] = d.dims[f / 2] > 1 && d.neighbours[f] >= 0;
                     for (int a = 0; a < 3; ++a)
                       if (grid.active(a))
                         made->slab_values = std::max(made->slab_values, field::face_slab(grid, a).values(grid.ncomp));
                     const size_t bytes = static_cast<size_t>(made->slab_values) * value_size();
                     if (bytes > static_cast<size_t>(INT32_MAX))
                       opsplit::fail(OPSPLIT_ERROR_UNSUPPORTED,
                                     "a face of " + num(static_cast<long long>(bytes)) +
                                         " bytes is more than one message of 2^31 - 1 bytes can carry");
                     made->slabs = Buffer(context(), 4 * bytes);
                     if (context().is_cuda() && !agreement.device_pointers())
                       made->staging = cuda::PinnedBuffer(4 * bytes);
                     if (!g.exchange) fail_argument("the group has no exchange (a field needs one)");
                   }),
                   call);
  made->group = Group(g);
  made->group.adopt();
  decomposition_ = std::move(made);
  ghost_record_.forget();
}
