// A CA grid's place in a decomposition over a group of processes (opsplit/group.h):
// dimension 0 splits the rows (north to south), dimension 1 the columns; checked on every
// process alike before it is taken (core/decomposition.hpp), then the lava grid becomes
// this process's block (LavaGrid::attach).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ca/ca.hpp"
#include "ca/life.hpp"
#include "ca/life_launch.hpp"
#include "core/decomposition.hpp"

using namespace opsplit;

namespace {

const PlaceNames kGridPlace{{"north", "south", "west", "east", "axis-2-low", "axis-2-high"},
                            {"rows", "cols", "(axis 2)"},
                            "border"};

// Sums the extent (0: rows, 1: cols) of the `hops` processes from `rank` along side
// `side` (0: north or west, 1: south or east) of axis a, rank excluded, from
// check_borders' table: those before a process along its axis are coords[a] hops away
// (a periodic axis is a ring), those after it dims[a] - 1 - coords[a]. A chain that ends
// sooner fails (a group made by hand).
int64_t extent_towards(const std::vector<int64_t>& all, int rank, int axis, int side, int64_t hops) {
  int64_t sum = 0;
  int64_t q = rank;
  for (int64_t hop = 0; hop < hops; ++hop) {
    q = all[static_cast<size_t>(kPlaceValues * q + 3 + 2 * axis + side)];
    if (q < 0) fail_argument("the neighbours along axis " + num(axis) + " do not match the coords");
    sum += all[static_cast<size_t>(kPlaceValues * q + axis)];
  }
  return sum;
}

}  // namespace

void opsplit_ca_s::attach(const opsplit_group& g, const opsplit_decomposition& d) {
  const char* call = "opsplit_ca_attach_distributed";
  const Group agreement(g);  // not owned: the caller keeps the group if this fails
  agreement.settle(attempt([&] {
                     if (distributed()) fail_argument("ca is already attached to a decomposition");
                     const int64_t vents = lava_ ? lava_->vents() : 0;
                     if (vents > 0 || steps_ > 0)
                       fail_argument("attach the grid before its first vent and step (it has " + num(vents) +
                                     " vents, " + num(steps_) + " steps)");
                     check_place(agreement, d, kGridPlace, [&](int a) {
                       if (a == 2) return std::string("a CA grid has two dimensions (rows, cols)");
                       if (lava_ && d.periodic[a])
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
      first[a] = extent_towards(all, agreement.rank(), a, 0, d.coords[a]);
      global[a] = first[a] + extent[a] + extent_towards(all, agreement.rank(), a, 1, d.dims[a] - 1 - d.coords[a]);
    }
  });
  agreement.settle(bad_line, call, {global[0], global[1]}, "global shapes (the blocks do not tile one grid)");
  // The new storage, then the group is the grid's.
  std::unique_ptr<ca::LavaGrid::Attachment> made;
  std::unique_ptr<LifeBlocks> life;
  agreement.settle(attempt([&] {
                     const int64_t most = lava_ ? int64_t(1) << 31 : int64_t(1) << 40;
                     if (global[0] > most / global[1])
                       fail_argument("the whole grid of " + num(global[0]) + " x " + num(global[1]) +
                                     " cells is more than a " + (lava_ ? "lava" : "LIFE") + " grid takes (2^" +
                                     (lava_ ? "31" : "40") + " cells)");
                     bool remote[4];
                     for (int f = 0; f < 4; ++f) remote[f] = d.dims[f / 2] > 1 && d.neighbours[f] >= 0;
                     if (lava_) {
                       made = lava_->prepare_attach(remote, first[0], first[1], global[0], global[1],
                                                    g.device_pointers != 0);
                     } else {
                       const bool wraps[2] = {d.dims[0] > 1 && d.periodic[0] != 0, d.dims[1] > 1 && d.periodic[1] != 0};
                       life = prepare_life(remote, wraps, first[0], first[1], global[0], global[1],
                                           g.device_pointers != 0);
                       for (int a = 0; a < 2; ++a) life->split[a] = d.dims[a] > 1;
                     }
                   }),
                   call);
  // Then the faces to GPUs this one reaches go by CUDA IPC (every process has its slabs).
  agreement.settle(attempt([&] {
                     bool remote[4];
                     for (int f = 0; f < 4; ++f) remote[f] = d.dims[f / 2] > 1 && d.neighbours[f] >= 0;
                     (lava_ ? made->block->slabs : life->slabs).connect(context(), agreement, d, remote, 4);
                   }),
                   call);
  Group owned(g);
  owned.adopt();
  if (lava_) return lava_->attach(std::move(made), std::move(owned));
  cells_ = std::move(life->cells), next_ = std::move(life->next);
  life->group = std::move(owned);
  life_blocks_ = std::move(life);
}

// Two bands of ghosts would be the lava's; LIFE's neighbourhood reaches one cell: a
// ghost row above and below, and a ghost word beside each row (64 cells, of which the
// next generation reads the one beside the block).
std::unique_ptr<opsplit_ca_s::LifeBlocks> opsplit_ca_s::prepare_life(const bool remote[4], const bool wraps[2],
                                                                       int64_t first_row, int64_t first_col,
                                                                       int64_t global_rows, int64_t global_cols,
                                                                       bool device_pointers) {
  if (remote[3] && cols_ % ca::kBitsPerWord != 0)
    fail_argument("a LIFE block with a neighbour to the east needs cols a multiple of 64 (its rows' last word full); "
                  "this one has cols=" + num(cols_));
  auto made = std::make_unique<LifeBlocks>();
  ca::LifeBlock& b = made->block;
  b.rows = rows_, b.cols = cols_, b.nwords = nwords_;
  for (int f = 0; f < 4; ++f) b.ghost[f] = remote[f] ? 1 : 0;
  b.stride = nwords_ + b.ghost[2] + b.ghost[3];
  b.wrap_rows = b.wrap_cols = false;  // set at each step from the boundary (step())
  for (int a = 0; a < 2; ++a) made->wraps[a] = wraps[a];
  made->row0 = first_row, made->col0 = first_col, made->global_rows = global_rows, made->global_cols = global_cols;
  const bool any_remote = remote[0] || remote[1] || remote[2] || remote[3];
  made->slabs = SlabExchange(context(), any_remote ? static_cast<size_t>(std::max(rows_, b.stride)) * sizeof(uint64_t) : 0,
                             device_pointers);
  // The cells so far into the new storage (ghosts 0).
  const size_t row_bytes = static_cast<size_t>(nwords_) * sizeof(uint64_t);
  made->cells = regrown(context(), cells_, 1, rows_, row_bytes, rows_ + b.ghost[0] + b.ghost[1],
                        static_cast<size_t>(b.stride) * sizeof(uint64_t), b.ghost[0],
                        static_cast<size_t>(b.ghost[2]) * sizeof(uint64_t));
  made->next = Buffer(context(), made->cells.bytes());
  context().synchronize();  // the copy's failure here, the grid as it was
  return made;
}

// Columns first (one word a row from the west and east neighbours), then rows (a whole
// stored row, ghost words included, from the north and south ones: the corners come
// with them). CUDA gathers and scatters on the device. The words no ghost reaches (all
// but the rows and words next to a remote side) are computed while the first axis's
// lines travel, the rest after the last's (OPSPLIT_HALO_OVERLAP=0: all after).
void opsplit_ca_s::life_block_generation(const uint64_t* in, uint64_t* out) {
  LifeBlocks& l = *life_blocks_;
  const ca::LifeBlock& b = l.block;
  Context& ctx = context();
  uint64_t* words = cells_.as<uint64_t>();
  const ca::LifeLaunchers& run = ca::life_launchers(ctx);
  auto generation = [&](const ca::LifeRegion& region) { run.block_generation(ctx, in, out, b, region, rule_); };
  const ca::LifeRegion inner{b.ghost[0], b.rows - b.ghost[1], b.ghost[2], b.nwords - b.ghost[3]};
  const bool split = inner.words() > 0 && halo_overlap_allowed();
  bool inner_done = false;
  const bool remote[4] = {b.ghost[0] != 0, b.ghost[1] != 0, b.ghost[2] != 0, b.ghost[3] != 0};
  for (int axis = 1; axis >= 0; --axis) {
    if (!remote[2 * axis] && !remote[2 * axis + 1]) continue;
    const bool columns = axis == 1;
    const int64_t length = columns ? b.rows : b.stride, step = columns ? b.stride : 1;
    // The first word of the line sent to (or, ghost, received from) side `side`.
    auto first = [&](int side, bool ghost) {
      if (columns) return b.at(0, side == 0 ? (ghost ? -1 : 0) : (ghost ? b.nwords : b.nwords - 1));
      return b.at(side == 0 ? (ghost ? -1 : 0) : (ghost ? b.rows : b.rows - 1), 0) - b.ghost[2];
    };
    auto pack = [&](int side, void* slot) {
      run.gather(ctx, words, first(side, false), step, length, static_cast<uint64_t*>(slot));
    };
    auto unpack = [&](int side, const void* slot) {
      run.scatter(ctx, static_cast<const uint64_t*>(slot), words, first(side, true), step, length);
    };
    l.slabs.swap(ctx, l.group, axis, &remote[2 * axis], static_cast<size_t>(length) * sizeof(uint64_t), pack, unpack,
                 [&] {
                   if (split && !inner_done) generation(inner), inner_done = true;
                 });
  }
  if (!inner_done) return generation({0, b.rows, 0, b.nwords});
  // The shell: the rows next to the north and south ghosts, then the words next to the
  // west and east ones in the rows between.
  generation({0, inner.r0, 0, b.nwords});
  generation({inner.r1, b.rows, 0, b.nwords});
  generation({inner.r0, inner.r1, 0, inner.w0});
  generation({inner.r0, inner.r1, inner.w1, b.nwords});
}

const Group* opsplit_ca_s::group() const {
  if (lava_) return lava_->group();
  return life_blocks_ ? &life_blocks_->group : nullptr;
}

void opsplit_ca_s::settle(std::exception_ptr local, const char* call, const std::vector<int64_t>& same,
                          const char* names) const {
  if (distributed())
    group()->settle(local, call, same, names);
  else if (local)
    std::rethrow_exception(local);
}

void opsplit_ca_s::get_place(int64_t place[4]) const {
  if (!distributed()) {
    place[0] = 0, place[1] = 0, place[2] = rows_, place[3] = cols_;
    return;
  }
  if (life_blocks_) {
    place[0] = life_blocks_->row0, place[1] = life_blocks_->col0;
    place[2] = life_blocks_->global_rows, place[3] = life_blocks_->global_cols;
    return;
  }
  const ca::LavaShape& s = lava_->place();  // of the storage: the block starts after its ghost bands
  place[0] = s.row0 + lava_->block().r0, place[1] = s.col0 + lava_->block().c0;
  place[2] = s.global_rows, place[3] = s.global_cols;
}

std::vector<int64_t> opsplit_ca_s::step_agreement() const {
  std::vector<int64_t> same{steps_};
  if (lava_) {
    same.push_back(bits_of(lava_->time()));
    const std::vector<int64_t> lava = lava_->agreement();
    same.insert(same.end(), lava.begin(), lava.end());
  } else {
    same.insert(same.end(), {static_cast<int64_t>(rule_.birth), static_cast<int64_t>(rule_.survive), periodic_ ? 1 : 0});
  }
  return same;
}
