// A CA grid's place in a decomposition over a group of processes (opsplit/distributed.h):
// dimension 0 splits the rows (north to south), dimension 1 the columns; checked on every
// process alike before it is taken (core/decomposition.hpp), then the lava grid becomes
// this process's block (LavaGrid::attach).
#include <cstdint>
#include <string>
#include <vector>

#include "ca/ca.hpp"
#include "core/decomposition.hpp"

using namespace opsplit;

namespace {

const PlaceNames kGridPlace{{"north", "south", "west", "east", "axis-2-low", "axis-2-high"},
                            {"rows", "cols", "(axis 2)"},
                            "border"};

// Sums the extent (0: rows, 1: cols) of the processes from `rank` along side `side`
// (0: north or west, 1: south or east) of axis a, rank excluded, from check_borders'
// table. A decomposition that is not a line along a fails (a group made by hand).
int64_t extent_towards(const std::vector<int64_t>& all, int rank, int axis, int side) {
  int64_t sum = 0;
  const int64_t size = static_cast<int64_t>(all.size()) / kPlaceValues;
  int64_t q = all[static_cast<size_t>(kPlaceValues * rank + 3 + 2 * axis + side)];
  for (int64_t hops = 0; q >= 0; ++hops) {
    if (hops == size) fail_argument("the neighbours along axis " + num(axis) + " make a ring, not a line");
    sum += all[static_cast<size_t>(kPlaceValues * q + axis)];
    q = all[static_cast<size_t>(kPlaceValues * q + 3 + 2 * axis + side)];
  }
  return sum;
}

}  // namespace

void opsplit_ca_s::attach(const opsplit_group& g, const opsplit_decomposition& d) {
  const char* call = "opsplit_ca_attach_distributed";
  const Group agreement(g);  // not owned: the caller keeps the group if this fails
  agreement.settle(attempt([&] {
                     if (distributed()) fail_argument("ca is already attached to a decomposition");
                     if (!lava_) fail(OPSPLIT_ERROR_UNSUPPORTED, "a LIFE grid cannot be distributed yet");
                     if (lava_->vents() > 0 || steps_ > 0)
                       fail_argument("attach the grid before its first vent and step (it has " +
                                     num(lava_->vents()) + " vents, " + num(steps_) + " steps)");
                     check_place(agreement, d, kGridPlace, [&](int a) {
                       if (a == 2) return std::string("a CA grid has two dimensions (rows, cols)");
                       if (d.periodic[a])
                         return std::string("a lava grid is CLOSED (its outer ring the sink), so it cannot wrap "
                                            "around processes along dimension ") +
                                num(a) + ",";
                       return std::string();
                     });
                     if (!g.exchange) fail_argument("the group has no exchange (a grid needs one)");
                   }),
                   call, {d.dims[0], d.dims[1], d.dims[2], model_}, "dims and model");
  // Every process's shape and neighbours: each checks every shared border; then the
  // block's place from the blocks before it along each axis.
  const int64_t extent[3] = {rows_, cols_, 1};
  const std::vector<int64_t> all = check_borders(agreement, d, extent, kGridPlace);
  int64_t first[2] = {0, 0}, global[2] = {0, 0};
  const std::exception_ptr bad_line = attempt([&] {
    for (int a = 0; a < 2; ++a) {
      first[a] = extent_towards(all, agreement.rank(), a, 0);
      global[a] = first[a] + extent[a] + extent_towards(all, agreement.rank(), a, 1);
    }
  });
  agreement.settle(bad_line, call, {global[0], global[1]}, "global shapes (the blocks do not tile one grid)");
  // The new storage, then the group is the grid's.
  std::unique_ptr<ca::LavaGrid::Attachment> made;
  agreement.settle(attempt([&] {
                     if (global[0] > (int64_t(1) << 31) / global[1])
                       fail_argument("the whole grid of " + num(global[0]) + " x " + num(global[1]) +
                                     " cells is more than a lava grid takes (2^31 cells)");
                     bool remote[4];
                     for (int f = 0; f < 4; ++f) remote[f] = d.dims[f / 2] > 1 && d.neighbours[f] >= 0;
                     made = lava_->prepare_attach(remote, first[0], first[1], global[0], global[1], g.device_pointers != 0);
                   }),
                   call);
  Group owned(g);
  owned.adopt();
  lava_->attach(std::move(made), std::move(owned));
}

void opsplit_ca_s::settle(std::exception_ptr local, const char* call, const std::vector<int64_t>& same,
                          const char* names) const {
  if (distributed())
    lava_->group()->settle(local, call, same, names);
  else if (local)
    std::rethrow_exception(local);
}

void opsplit_ca_s::get_place(int64_t place[4]) const {
  if (!distributed()) {
    place[0] = 0, place[1] = 0, place[2] = rows_, place[3] = cols_;
    return;
  }
  const ca::LavaShape& s = lava_->place();  // of the storage: the block starts after its ghost bands
  place[0] = s.row0 + lava_->block().r0, place[1] = s.col0 + lava_->block().c0;
  place[2] = s.global_rows, place[3] = s.global_cols;
}

bool opsplit_ca_s::any_process(bool mine) const {
  int64_t v = mine ? 1 : 0;
  if (distributed()) lava_->group()->allmax(&v, 1);
  return v != 0;
}

std::vector<int64_t> opsplit_ca_s::step_agreement() const {
  std::vector<int64_t> same{steps_};
  if (lava_) {
    same.push_back(bits_of(lava_->time()));
    const std::vector<int64_t> lava = lava_->agreement();
    same.insert(same.end(), lava.begin(), lava.end());
  }
  return same;
}
