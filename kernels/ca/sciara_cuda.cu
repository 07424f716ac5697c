// The CUDA side of SCIARA-fv2 and -fv3 grids: one cooperative launch runs several steps, its
// blocks striding over the tiles of each step's region, a grid-wide barrier between
// steps (a step of the Etna flow is a few microseconds of work: launches per step, or
// a barrier per phase, cost more than the work). The per-cell numerics are the CPU's
// (sciara.cuh); compiled with -fmad=false (src/CMakeLists.txt) for the CPU's bits.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <string>

#include "ca/lava_backend.hpp"
#include "core/buffer.hpp"
#include "core/error.hpp"

namespace opsplit::ca {
namespace {

// What the device keeps of a lava grid between launches, read back after them.
struct LavaDeviceState {
  long long box[4];               // r0, r1, c0, c1 (empty: r0 past every row, so that minima take a cell)
  long long step_box[4];          // a block's: the box at its step's start, what the step reads
  long long box_copies[2][4];     // fv2, one process: the box read and the box grown by a step
  double time;                    // fv3: the sum of the clocks, s
  long long steps;                // fv3: steps done
  double emitted_sum, emitted_error;  // fv3: the thickness the vents emitted (a CompensatedSum)
  unsigned long long shortest[2];     // fv3: a step's shortest time, the bits of a double >= 0 (the step's parity)
  long long stalled;                  // fv3: 1 when a step's clock could not advance the time (the steps stopped)
};

// Steps per launch: the launch after next is sized from the box the launch before
// read back (the region grows by at most a cell a step meanwhile).
constexpr int kLavaStepsPerLaunch = 32;

namespace cg = cooperative_groups;
constexpr int kThreads = 256;  // fv3's blocks (fv2's: kLavaThreads)

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // not left behind for the next launch's check
  fail(err == cudaErrorMemoryAllocation ? OPSPLIT_ERROR_OUT_OF_MEMORY : OPSPLIT_ERROR_DEVICE,
       std::string(what) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

__device__ bool inside(const LavaBox& b, int64_t r, int64_t c) { return r >= b.r0 && r <= b.r1 && c >= b.c0 && c <= b.c1; }

// The cells a thread found holding lava outside the step's box; grow() takes each warp's
// minima and maxima into the device's box by integer atomics (the same in any order).
struct BoxGrowth {
  unsigned rmin = 0xffffffffu, rmax = 0, cmin = 0xffffffffu, cmax = 0;
  __device__ void include(int64_t r, int64_t c) {
    rmin = min(rmin, unsigned(r)), rmax = max(rmax, unsigned(r));
    cmin = min(cmin, unsigned(c)), cmax = max(cmax, unsigned(c));
  }
  __device__ void grow(long long* box) {  // by every thread of the warp: one atomic per warp that found lava
    rmin = __reduce_min_sync(0xffffffffu, rmin), rmax = __reduce_max_sync(0xffffffffu, rmax);
    cmin = __reduce_min_sync(0xffffffffu, cmin), cmax = __reduce_max_sync(0xffffffffu, cmax);
    if (threadIdx.x % 32 == 0 && rmin != 0xffffffffu) {
      atomicMin(&box[0], static_cast<long long>(rmin));
      atomicMax(&box[1], static_cast<long long>(rmax));
      atomicMin(&box[2], static_cast<long long>(cmin));
      atomicMax(&box[3], static_cast<long long>(cmax));
    }
  }
};

// A block's tile: kTileRows x kTileCols cells and the ring around it, one thread a cell
// of both: each computes its cell's outflows (the ring's too: the tile's inflows) into
// shared memory, then the tile's threads update their cells. One cell a thread keeps a
// step's chain of dependent operations to one cell's outflows and one update (with 256
// threads for the 340 cells, a quarter of them took two cells' outflows, one after the
// other, and the chain was longer: docs/performance-history.md, 'Lava flows,
// SCIARA-fv2', a55b86b).
constexpr int kTileRows = 8, kTileCols = 32, kHaloCols = kTileCols + 2, kHalo = (kTileRows + 2) * kHaloCols;
constexpr int kLavaThreads = (kHalo + 31) / 32 * 32;

// One step over the tiles of `region`, the block's share (every gridDim.x-th tile): each
// tile's outflows, its ring's included, from buffer `current` into shared memory, then
// its cells' updates into the other buffer. Cells holding lava after, outside `lava`,
// go into `found`. emit_step >= 0: the cells of vent_box then add that step's emission
// (the next step's, whose emission the CPU makes at its start).
template <class Shape>
__device__ void lava_step_tiles(const LavaPlanes& p, const Shape& shape, int current, const LavaBox& region,
                                const LavaBox& lava, const LavaVents& vents, const LavaBox& vent_box,
                                int64_t emit_step, const LavaConstants& k, BoxGrowth& found) {
  __shared__ double flows[kLavaNeighbours][kHalo];
  __shared__ double temperature[kHalo];
  if (region.r1 < region.r0) return;
  const int64_t cols = p.cols;
  const double *z = p.altitude[current], *h = p.thickness[current], *t = p.temperature[current];
  double *z_next = p.altitude[current ^ 1], *h_next = p.thickness[current ^ 1], *t_next = p.temperature[current ^ 1];
  const int q = threadIdx.x, hy = q / kHaloCols, hx = q % kHaloCols;  // this thread's cell of the tile and ring
  const bool ring_or_tile = q < kHalo;
  const bool in_tile = ring_or_tile && hy >= 1 && hy <= kTileRows && hx >= 1 && hx <= kTileCols;
  const unsigned tiles_across = unsigned(region.c1 - region.c0 + kTileCols) / kTileCols;
  const unsigned tiles = tiles_across * (unsigned(region.r1 - region.r0 + kTileRows) / kTileRows);
  for (unsigned tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const int64_t r = region.r0 + int64_t(tile / tiles_across) * kTileRows - 1 + hy;
    const int64_t c = region.c0 + int64_t(tile % tiles_across) * kTileCols - 1 + hx;
    // The last tiles overrun the region: their cells past its ring are not computed (a
    // block's outer ghost band may hold lava, and its outflows would read past storage).
    const bool on_grid = ring_or_tile && shape.stored(r, c) && r <= region.r1 + 1 && c <= region.c1 + 1;
    double own[kLavaNeighbours] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    if (on_grid) lava_cell_outflows(z, h, t, shape, r, c, k, own);
    if (ring_or_tile) {  // off the grid: zero flows and temperature
      OPSPLIT_UNROLL
      for (int m = 0; m < kLavaNeighbours; ++m) flows[m][q] = own[m];
      temperature[q] = on_grid ? t[r * cols + c] : 0.0;
    }
    __syncthreads();
    if (in_tile && r <= region.r1 && c <= region.c1) {
      double in[kLavaNeighbours], t_in[kLavaNeighbours];
      OPSPLIT_UNROLL
      for (int m = 0; m < kLavaNeighbours; ++m) {
        const int qn = q + lava_drow(m) * kHaloCols + lava_dcol(m);
        in[m] = flows[lava_opposite(m)][qn], t_in[m] = temperature[qn];
      }
      const int64_t i = r * cols + c;
      double zi = z[i], hi = h[i], ti = t[i], solid = p.solidified[i], lost = p.lost[i];
      const bool sink = shape.sink(r, c);
      if (lava_cell_update(sink, own, in, t_in, k, zi, hi, ti, solid, lost) && !inside(lava, r, c))
        found.include(r, c);
      if (emit_step >= 0 && inside(vent_box, r, c))
        lava_emit(vents, lava_step_start(vents, emit_step), vents.pclock, i, hi, ti);
      z_next[i] = zi, h_next[i] = hi, t_next[i] = ti;
      if (solid != p.solidified[i]) p.solidified[i] = solid;
      if (sink) p.lost[i] = lost;
    }
    __syncthreads();  // the shared arrays are the next tile's
  }
}

// Steps first_step .. first_step + nsteps - 1, one grid-wide barrier each. A step reads
// the substates from buffer `current` and writes the next ones into the other buffer
// (every cell of the region, changed or not: outside it both buffers are the same), so
// that a block computes the outflows of its tile's ring itself, while its neighbours
// update their cells, instead of waiting for them. The region is the box (every cell
// that has held lava, and the vents) grown by one, or every cell; cells outside the box
// that hold lava after a step grow it, by integer minima and maxima (the same in any
// order). A step reads one of two copies of the box and grows the other, which the step
// before read (so no block sees another's growth before it has read its region: there
// is no barrier between the two); one thread adds the box read into the copy grown. The
// first step's emission comes before the first barrier; each later step's is added by
// the vent cell's own thread right after its update (the CPU's operations and order: it
// emits at the step's start).
__global__ void __launch_bounds__(kLavaThreads)
    lava_steps_kernel(LavaPlanes p, int current, LavaVents vents, LavaBox vent_box, int64_t first_step, int nsteps,
                      bool all_cells, LavaConstants k, LavaDeviceState* state) {
  cg::grid_group grid = cg::this_grid();
  const LavaWholeGrid whole{p.rows, p.cols};
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  if (leader) {
    lava_emit_all(vents, lava_step_start(vents, first_step), vents.pclock, p.thickness[current], p.temperature[current]);
    for (int i = 0; i < 4; ++i) state->box_copies[0][i] = state->box_copies[1][i] = state->box[i];
  }
  grid.sync();
  for (int s = 0; s < nsteps; ++s, current ^= 1) {
    const long long* read = state->box_copies[(s + 1) & 1];
    long long* grown = state->box_copies[s & 1];
    const LavaBox lava{read[0], read[1], read[2], read[3]};  // every cell that held lava before this step
    if (leader) {  // an empty box (r0 and c0 past every cell, r1 = c1 = -1) changes nothing
      atomicMin(&grown[0], lava.r0), atomicMax(&grown[1], lava.r1);
      atomicMin(&grown[2], lava.c0), atomicMax(&grown[3], lava.c1);
    }
    BoxGrowth found;
    lava_step_tiles(p, whole, current, lava_region(lava, all_cells, p.rows, p.cols), lava, vents, vent_box,
                    s + 1 < nsteps ? first_step + s + 1 : -1, k, found);
    found.grow(grown);
    grid.sync();
  }
  if (leader)
    for (int i = 0; i < 4; ++i) state->box[i] = state->box_copies[(nsteps - 1) & 1][i];
}

// ---- a block of a grid decomposed over processes: a step a launch, the host between ----

__device__ LavaBox clip(const LavaBox& a, const LavaBox& to) {
  return LavaBox{max(a.r0, to.r0), min(a.r1, to.r1), max(a.c0, to.c0), min(a.c1, to.c1)};
}
__device__ LavaBox step_box(const LavaDeviceState* state) {
  return LavaBox{state->step_box[0], state->step_box[1], state->step_box[2], state->step_box[3]};
}

// A step's start: the box its kernels read (the updates grow the other), and fv3's
// shortest time not yet found.
__global__ void lava_block_begin_kernel(LavaDeviceState* state) {
  for (int i = 0; i < 4; ++i) state->step_box[i] = state->box[i];
  state->shortest[0] = static_cast<unsigned long long>(__double_as_longlong(HUGE_VAL));
}

// fv2: the emission of step `step` at the block's vents (the others' at cell -1).
__global__ void lava_emit_kernel(LavaPlanes p, int current, LavaVents vents, int64_t step) {
  lava_emit_all(vents, lava_step_start(vents, step), vents.pclock, p.thickness[current], p.temperature[current]);
}

__global__ void lava_pack_kernel(LavaSlab slab, double* to) {
  for (int64_t v = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; v < slab.values(); v += gridDim.x * int64_t(blockDim.x))
    to[v] = slab.planes[slab.plane_of(v)][slab.cell_of(v)];
}

// The ghosts from a neighbour; those holding lava grow the box (lava that may cross).
__global__ void lava_unpack_kernel(LavaSlab slab, const double* from, LavaDeviceState* state) {
  BoxGrowth found;
  for (int64_t v = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; v < slab.values(); v += gridDim.x * int64_t(blockDim.x)) {
    const int64_t i = slab.cell_of(v);
    slab.planes[slab.plane_of(v)][i] = from[v];
    if (slab.plane_of(v) == 1 && from[v] > 0.0) found.include(i / slab.cols, i % slab.cols);
  }
  found.grow(state->box);
}

// What check_values finds on the device: the first bad cell's count, the box of the
// storage cells given a positive value (empty: minima past every row and column).
struct LavaValueScan {
  unsigned long long first_bad;
  long long box[4];
};

__global__ void lava_check_values_kernel(LavaValueBlock b, const double* __restrict__ values, LavaValueScan* scan) {
  BoxGrowth found;
  unsigned long long first = ULLONG_MAX;
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < b.cells(); j += gridDim.x * int64_t(blockDim.x)) {
    const int64_t i = b.cell(j);
    if (b.fault(i, values[j]) != LavaValueFault::none) {
      first = min(first, static_cast<unsigned long long>(i));
    } else if (values[j] > 0.0) {
      const int64_t s = b.stored(i);
      found.include(s / b.shape.cols, s % b.shape.cols);
    }
  }
  found.grow(scan->box);
  if (first != ULLONG_MAX) atomicMin(&scan->first_bad, first);
}

__global__ void lava_store_values_kernel(LavaValueBlock b, const double* __restrict__ values, double* plane) {
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < b.cells(); j += gridDim.x * int64_t(blockDim.x))
    plane[b.stored(b.cell(j))] = values[j];
}

__global__ void lava_load_values_kernel(LavaValueBlock b, const double* __restrict__ plane, double* values) {
  for (int64_t j = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; j < b.cells(); j += gridDim.x * int64_t(blockDim.x))
    values[j] = plane[b.stored(b.cell(j))];
}

// fv2: a step of the region (the step's box grown by one) within `window`, the block.
__global__ void __launch_bounds__(kLavaThreads)
    lava_block_step_kernel(LavaPlanes p, LavaShape shape, int current, LavaBox window, bool all_cells, LavaConstants k,
                           LavaDeviceState* state) {
  const LavaBox lava = step_box(state);
  BoxGrowth found;
  const LavaVents none{nullptr, 0, 0.0, 0.0, 0.0};
  lava_step_tiles(p, shape, current, clip(lava_region(lava, all_cells, p.rows, p.cols), window), lava, none, lava,
                  -1, k, found);
  found.grow(state->box);
}

// Reduces v over a warp (the minimum), for lane 0.
__device__ double warp_min(double v) {
  for (int offset = 16; offset > 0; offset /= 2) v = fmin(v, __shfl_down_sync(0xffffffffu, v, offset));
  return v;
}

// fv3: up to nsteps steps, none once the time reaches `until`; two grid-wide barriers a
// step, every phase a cell a thread. Time evaluation over the box: each cell holding
// lava its motion, kept in the motion planes, and its shortest time; the grid's minimum
// by integer atomics on the bits of doubles >= 0 (ordered as the integers: any order
// gives the same). Flow mode over the box grown by one: each cell its own outflows and
// the flows its neighbours send it, from their motions, then its update and the
// emission at vent cells. Every block keeps the time and the step count itself (block
// 0 also the emitted thickness), from the same minima: the same values in each.
// At most 128 registers, for 2 blocks an SM: faster than one block an SM with the
// registers the compiler takes, and three or four blocks spill more
// (docs/performance-history.md, 'Lava flows, SCIARA-fv3').
__global__ void __launch_bounds__(kThreads, 2)
    lava3_steps_kernel(LavaPlanes p, int current, long long steps0, LavaVents vents, LavaBox vent_box, int nsteps,
                       double until, bool all_cells, Lava3Constants k, LavaDeviceState* state) {
  cg::grid_group grid = cg::this_grid();
  const int64_t rows = p.rows, cols = p.cols;
  const LavaWholeGrid whole{rows, cols};
  const unsigned stride = gridDim.x * kThreads, first = blockIdx.x * kThreads + threadIdx.x;
  const bool leader = blockIdx.x == 0 && threadIdx.x == 0;
  double now = __ldcg(&state->time);
  long long steps = __ldcg(&state->steps);
  CompensatedSum emitted{__ldcg(&state->emitted_sum), __ldcg(&state->emitted_error)};
  for (int s = 0; s < nsteps && now < until; ++s) {
    const int cur = static_cast<int>((current + (steps - steps0)) & 1);
    const double *z = p.altitude[cur], *h = p.thickness[cur], *t = p.temperature[cur];
    const double *px = p.momentum_x[cur], *py = p.momentum_y[cur];
    const LavaBox lava{__ldcg(&state->box[0]), __ldcg(&state->box[1]), __ldcg(&state->box[2]), __ldcg(&state->box[3])};
    unsigned long long* shortest = &state->shortest[steps & 1];
    // Time evaluation over the box.
    double mine = HUGE_VAL;
    if (lava.r1 >= lava.r0) {
      const unsigned width = unsigned(lava.c1 - lava.c0 + 1), cells = unsigned(lava.r1 - lava.r0 + 1) * width;
      for (unsigned q = first; q < cells; q += stride) {
        const int64_t r = lava.r0 + q / width, c = lava.c0 + q % width;
        Lava3Motion m;
        if (!lava3_cell_motion(z, h, t, px, py, whole, r, c, k, m)) continue;
        mine = fmin(mine, lava3_cell_time(m, k));
        lava3_store_motion(p.motion, rows * cols, r * cols + c, m);
      }
    }
    mine = warp_min(mine);
    if (threadIdx.x % 32 == 0 && mine < HUGE_VAL)
      atomicMin(shortest, static_cast<unsigned long long>(__double_as_longlong(mine)));
    grid.sync();
    bool last = false;
    const double clock = lava3_clock(__longlong_as_double(static_cast<long long>(__ldcg(shortest))), now, until, k, &last);
    if (lava3_stalled(now, clock, last)) {  // every block the same: the steps stop before this one changes anything
      if (leader) state->stalled = 1;
      break;
    }
    // The other slot was last read a step ago, before two barriers: ready for the next step.
    if (leader) state->shortest[(steps + 1) & 1] = static_cast<unsigned long long>(__double_as_longlong(HUGE_VAL));
    // Flow mode over the region: the box grown by one, or every cell.
    BoxGrowth found;
    const LavaBox region = lava_region(lava, all_cells, rows, cols);
    if (!(region.r1 < region.r0)) {
      const unsigned width = unsigned(region.c1 - region.c0 + 1), cells = unsigned(region.r1 - region.r0 + 1) * width;
      for (unsigned q = first; q < cells; q += stride) {
        const int64_t r = region.r0 + q / width, c = region.c0 + q % width;
        if (lava3_cell_step(p, whole, cur, r, c, k, clock, vents, inside(vent_box, r, c), now) && !inside(lava, r, c))
          found.include(r, c);
      }
    }
    found.grow(state->box);
    if (leader) lava3_count_emission(vents, now, clock, emitted);
    now = last ? until : now + clock;
    ++steps;
    grid.sync();
  }
  if (leader) {
    state->time = now, state->steps = steps;
    state->emitted_sum = emitted.sum, state->emitted_error = emitted.error;
  }
}

// fv3, a block: the motions of the step's box within `window` (the block and its first
// band of ghosts) and their shortest time, as lava3_steps_kernel's first phase.
__global__ void __launch_bounds__(kThreads, 2)
    lava3_motion_kernel(LavaPlanes p, LavaShape shape, int cur, LavaBox window, Lava3Constants k,
                        LavaDeviceState* state) {
  const LavaBox cells = clip(step_box(state), window);
  const double *z = p.altitude[cur], *h = p.thickness[cur], *t = p.temperature[cur];
  const double *px = p.momentum_x[cur], *py = p.momentum_y[cur];
  double mine = HUGE_VAL;
  if (cells.r1 >= cells.r0 && cells.c1 >= cells.c0) {
    const unsigned width = unsigned(cells.c1 - cells.c0 + 1), n = unsigned(cells.r1 - cells.r0 + 1) * width;
    for (unsigned q = blockIdx.x * kThreads + threadIdx.x; q < n; q += gridDim.x * kThreads) {
      const int64_t r = cells.r0 + q / width, c = cells.c0 + q % width;
      Lava3Motion m;
      if (!lava3_cell_motion(z, h, t, px, py, shape, r, c, k, m)) continue;
      mine = fmin(mine, lava3_cell_time(m, k));
      lava3_store_motion(p.motion, p.rows * p.cols, r * p.cols + c, m);
    }
  }
  mine = warp_min(mine);
  if (threadIdx.x % 32 == 0 && mine < HUGE_VAL)
    atomicMin(&state->shortest[0], static_cast<unsigned long long>(__double_as_longlong(mine)));
}

// fv3, a block: flow mode over the region (the step's box grown by one) within
// `window`, the block, for a step of `clock` seconds from `now`.
__global__ void __launch_bounds__(kThreads, 2)
    lava3_flow_kernel(LavaPlanes p, LavaShape shape, int cur, LavaBox window, bool all_cells, double clock, double now,
                      LavaVents vents, LavaBox vent_box, Lava3Constants k, LavaDeviceState* state) {
  const LavaBox lava = step_box(state);
  const LavaBox region = clip(lava_region(lava, all_cells, p.rows, p.cols), window);
  BoxGrowth found;
  if (region.r1 >= region.r0 && region.c1 >= region.c0) {
    const unsigned width = unsigned(region.c1 - region.c0 + 1), n = unsigned(region.r1 - region.r0 + 1) * width;
    for (unsigned q = blockIdx.x * kThreads + threadIdx.x; q < n; q += gridDim.x * kThreads) {
      const int64_t r = region.r0 + q / width, c = region.c0 + q % width;
      if (lava3_cell_step(p, shape, cur, r, c, k, clock, vents, inside(vent_box, r, c), now) && !inside(lava, r, c))
        found.include(r, c);
    }
  }
  found.grow(state->box);
}

// A lava grid's steps on the context's stream. One process: launches of several steps,
// each step's region the cells of the device's box of lava (every cell that has held
// lava, and the vents) grown by one, the box grown on the device as the lava spreads;
// the host reads the box back without waiting on the launch just made, only to size the
// launches. A block of a distributed grid: a step at a time, the host between the phases.
class CudaLava final : public LavaBackend, public LavaLaunches {
 public:
  explicit CudaLava(Context& ctx);
  ~CudaLava() override { release(); }

  bool fv2_pairs() const override { return true; }
  void set_vents(std::vector<LavaVentSchedule> schedules, std::vector<double> rates) override;
  const LavaVentSchedule* schedules() const override { return vents_.as<const LavaVentSchedule>(); }
  void set_state(const LavaState& s) override;
  bool read_state(LavaState& s) override;

  void emit(const LavaPlanes& g, int current, const LavaVents& vents, int64_t step) override;
  bool step(const LavaPlanes& g, const LavaStepPlace& at, int current, const LavaConstants& k, LavaBox&) override;
  double motions(const LavaPlanes& g, const LavaStepPlace& at, int cur, const Lava3Constants& k,
                 const LavaBox&) override;
  void flows(const LavaPlanes& g, const LavaStepPlace& at, int cur, double clock, double now, const LavaVents& vents,
             const LavaBox& vent_box, const Lava3Constants& k, LavaBox&) override;
  void pack(const LavaSlab& slab, double* to) override;
  void unpack(const LavaSlab& slab, const double* from, LavaBox&) override;
  LavaValueCheck check_values(const LavaValueBlock& b, const double* values) override;
  void store_values(const LavaValueBlock& b, const double* values, double* plane) override;
  void load_values(const LavaValueBlock& b, const double* plane, double* values) override;

  LavaLaunches* launches() override { return this; }
  int launch(const LavaPlanes& g, int current, const LavaVents& vents, const LavaBox& vent_box, int64_t first_step,
             int64_t n, bool all_cells, const LavaConstants& k) override;
  void launch_until(const LavaPlanes& g, int current, int64_t done_steps, const LavaVents& vents,
                    const LavaBox& vent_box, int64_t n, double until, bool all_cells,
                    const Lava3Constants& k) override;

 private:
  struct Slot {
    cudaEvent_t done = nullptr;
    LavaDeviceState* state = nullptr;  // pinned host memory: the state after the launch
    int64_t steps = 0;                 // launched_steps_ after the launch
    bool pending = false;
  };
  void release() noexcept;
  // Waits for the launch before last (two in flight at most) and takes its read-back;
  // the number of blocks for a launch of nsteps whose region may grow from the box.
  int prepare(const LavaPlanes& g, int nsteps, bool all_cells, const void* kernel, int threads);
  void finish(int nsteps);  // after a launch: its read-back queued
  // Blocks for a block's grid-stride launch over `work` items of `per_block` each.
  int blocks_for(int64_t work, int per_block);
  // The device's box and clock as a read-back found them.
  void take(const LavaDeviceState& d, int64_t at);

  Context& ctx_;
  LavaDeviceState* device_state_ = nullptr;
  Slot slots_[2];  // two launches' read-backs, alternating
  int launches_ = 0;
  int64_t launched_steps_ = 0;
  LavaBox known_;               // the latest box read back
  int64_t known_at_ = 0;        // launched_steps_ when known_ was true
  double known_time_ = 0.0;     // fv3: the latest time read back
  bool known_stalled_ = false;  // fv3: the latest read back stopped on a stall
  int max_blocks_ = 0, max_blocks3_ = 0;
  double* shortest_ = nullptr;  // pinned: a block's shortest time, read back
  Buffer vents_, rates_;        // the vents' schedules and their rates
};

CudaLava::CudaLava(Context& ctx) : ctx_(ctx) {
  try {
    check(cudaMalloc(&device_state_, sizeof(LavaDeviceState)), "cudaMalloc");
    for (Slot& slot : slots_) {
      check(cudaEventCreateWithFlags(&slot.done, cudaEventDisableTiming), "cudaEventCreate");
      check(cudaHostAlloc(&slot.state, sizeof(LavaDeviceState), cudaHostAllocDefault), "cudaHostAlloc");
    }
    check(cudaHostAlloc(&shortest_, sizeof(double), cudaHostAllocDefault), "cudaHostAlloc");
    set_state(LavaState{});  // a new grid's: read back before any launch
  } catch (...) {
    release();
    throw;
  }
}

void CudaLava::release() noexcept {
  for (Slot& slot : slots_) {
    if (slot.done != nullptr) cudaEventDestroy(slot.done);
    if (slot.state != nullptr) cudaFreeHost(slot.state);
    slot = Slot{};
  }
  if (device_state_ != nullptr) cudaFree(device_state_);
  device_state_ = nullptr;
  if (shortest_ != nullptr) cudaFreeHost(shortest_);
  shortest_ = nullptr;
}

void CudaLava::set_vents(std::vector<LavaVentSchedule> schedules, std::vector<double> rates) {
  Buffer rates_on_device(ctx_, rates.size() * sizeof(double));
  Buffer schedules_on_device(ctx_, schedules.size() * sizeof(LavaVentSchedule));
  for (LavaVentSchedule& v : schedules) v.rates = rates_on_device.as<const double>() + (v.rates - rates.data());
  rates_on_device.copy_in(rates.data(), rates.size() * sizeof(double));
  schedules_on_device.copy_in(schedules.data(), schedules.size() * sizeof(LavaVentSchedule));
  rates_ = std::move(rates_on_device);
  vents_ = std::move(schedules_on_device);
}

void CudaLava::set_state(const LavaState& s) {
  LavaDeviceState d{};
  const LavaBox& box = s.box;
  d.box[0] = box.empty() ? LLONG_MAX : box.r0, d.box[1] = box.r1, d.box[2] = box.empty() ? LLONG_MAX : box.c0;
  d.box[3] = box.c1;
  d.time = s.time, d.steps = s.steps, d.emitted_sum = s.emitted.sum, d.emitted_error = s.emitted.error;
  d.shortest[0] = d.shortest[1] = 0x7ff0000000000000ull;  // +infinity
  ctx_.device().copy_to_device(device_state_, &d, sizeof d);
  ctx_.device().synchronize();  // d is on this stack frame
  for (Slot& slot : slots_) slot.pending = false;
  known_ = box, known_at_ = launched_steps_, known_time_ = s.time, known_stalled_ = false;
}

void CudaLava::take(const LavaDeviceState& d, int64_t at) {
  known_ = LavaBox{d.box[0], d.box[1], d.box[2], d.box[3]};
  known_at_ = at, known_time_ = d.time, known_stalled_ = d.stalled != 0;
}

bool CudaLava::read_state(LavaState& s) {
  LavaDeviceState d{};
  ctx_.device().copy_to_host(&d, device_state_, sizeof d);  // waits for the stream
  for (Slot& slot : slots_) slot.pending = false;
  take(d, launched_steps_);
  s.box = known_.empty() ? LavaBox{} : known_;
  s.time = d.time, s.steps = d.steps, s.emitted.sum = d.emitted_sum, s.emitted.error = d.emitted_error;
  s.stalled = known_stalled_;
  return true;
}

int CudaLava::prepare(const LavaPlanes& g, int nsteps, bool all_cells, const void* kernel, int threads) {
  int& max_blocks = kernel == reinterpret_cast<const void*>(lava_steps_kernel) ? max_blocks_ : max_blocks3_;
  if (max_blocks == 0) {  // all blocks of a cooperative launch must be resident at once
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    max_blocks = std::max(1, per_sm * ctx_.device().multiprocessors());
  }
  // The launch before last is waited for (at most two in flight), and its state read.
  Slot& slot = slots_[launches_ % 2];
  if (slot.pending) {
    check(cudaEventSynchronize(slot.done), "the device work of this context");
    take(*slot.state, slot.steps);
    slot.pending = false;
  }
  // As many blocks as this launch's last region has tiles, up to what is resident.
  const int64_t rows = g.rows, cols = g.cols;
  const LavaBox last = all_cells ? LavaBox{0, rows - 1, 0, cols - 1}
                                 : known_.grown(launched_steps_ - known_at_ + nsteps + 1, rows, cols);
  const int64_t tiles = last.empty() ? 1
                                     : ((last.r1 - last.r0 + kTileRows) / kTileRows) *
                                           ((last.c1 - last.c0 + kTileCols) / kTileCols);
  return static_cast<int>(std::clamp<int64_t>(tiles, 1, max_blocks));
}

void CudaLava::finish(int nsteps) {
  const auto stream = static_cast<cudaStream_t>(ctx_.device().stream());
  Slot& slot = slots_[launches_ % 2];
  launched_steps_ += nsteps, ++launches_;
  check(cudaMemcpyAsync(slot.state, device_state_, sizeof(LavaDeviceState), cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync");
  check(cudaEventRecord(slot.done, stream), "cudaEventRecord");
  slot.steps = launched_steps_, slot.pending = true;
}

// A cooperative launch of `kernel` on the context's stream; args are the kernel's
// parameters, each of its exact type.
template <class... Args>
void launch_cooperative(Context& ctx, void (*kernel)(Args...), int blocks, int threads, const char* what,
                        Args... args) {
  void* pointers[] = {&args...};
  check(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(kernel), dim3(blocks), dim3(threads), pointers, 0,
                                    static_cast<cudaStream_t>(ctx.device().stream())),
        what);
}

int CudaLava::launch(const LavaPlanes& g, int current, const LavaVents& vents, const LavaBox& vent_box,
                     int64_t first_step, int64_t n, bool all_cells, const LavaConstants& k) {
  const int m = static_cast<int>(std::min<int64_t>(n, kLavaStepsPerLaunch));
  const int blocks = prepare(g, m, all_cells, reinterpret_cast<const void*>(lava_steps_kernel), kLavaThreads);
  launch_cooperative(ctx_, lava_steps_kernel, blocks, kLavaThreads, "cudaLaunchCooperativeKernel(lava_steps_kernel)",
                     g, current, vents, vent_box, first_step, m, all_cells, k, device_state_);
  finish(m);
  return m;
}

void CudaLava::launch_until(const LavaPlanes& g, int current, int64_t done_steps, const LavaVents& vents,
                            const LavaBox& vent_box, int64_t n, double until, bool all_cells,
                            const Lava3Constants& k) {
  // Until n steps or the time read back (a launch or two late) reaches until; a launch
  // that starts at until, or after a stall, does nothing.
  for (int64_t launched = 0; launched < n && known_time_ < until && !known_stalled_;) {
    const int m = static_cast<int>(std::min<int64_t>(n - launched, kLavaStepsPerLaunch));
    const int blocks = prepare(g, m, all_cells, reinterpret_cast<const void*>(lava3_steps_kernel), kThreads);
    launch_cooperative(ctx_, lava3_steps_kernel, blocks, kThreads, "cudaLaunchCooperativeKernel(lava3_steps_kernel)",
                       g, current, static_cast<long long>(done_steps), vents, vent_box, m, until, all_cells, k,
                       device_state_);
    finish(m);
    launched += m;
  }
}

int CudaLava::blocks_for(int64_t work, int per_block) {
  // Enough to fill the device a few times over; the kernels stride over the rest.
  const int64_t sms = ctx_.device().multiprocessors();
  return static_cast<int>(std::clamp<int64_t>((work + per_block - 1) / per_block, 1, sms * 8));
}

cudaStream_t stream_of(Context& ctx) { return static_cast<cudaStream_t>(ctx.device().stream()); }

void CudaLava::emit(const LavaPlanes& g, int current, const LavaVents& vents, int64_t step) {
  if (vents.count == 0) return;
  lava_emit_kernel<<<1, 1, 0, stream_of(ctx_)>>>(g, current, vents, step);
  check(cudaGetLastError(), "lava_emit_kernel");
}

void CudaLava::pack(const LavaSlab& slab, double* to) {
  lava_pack_kernel<<<blocks_for(slab.values(), kThreads), kThreads, 0, stream_of(ctx_)>>>(slab, to);
  check(cudaGetLastError(), "lava_pack_kernel");
}

void CudaLava::unpack(const LavaSlab& slab, const double* from, LavaBox&) {
  lava_unpack_kernel<<<blocks_for(slab.values(), kThreads), kThreads, 0, stream_of(ctx_)>>>(slab, from, device_state_);
  check(cudaGetLastError(), "lava_unpack_kernel");
}

// Waits for the scan: a set_substate call reads its answer before it stores anything.
LavaValueCheck CudaLava::check_values(const LavaValueBlock& b, const double* values) {
  LavaValueScan scan{ULLONG_MAX, {LLONG_MAX, -1, LLONG_MAX, -1}};
  Buffer on_device(ctx_, sizeof scan);
  on_device.copy_in(&scan, sizeof scan);
  lava_check_values_kernel<<<blocks_for(b.cells(), kThreads), kThreads, 0, stream_of(ctx_)>>>(
      b, values, on_device.as<LavaValueScan>());
  check(cudaGetLastError(), "lava_check_values_kernel");
  on_device.copy_out(&scan, sizeof scan);
  LavaValueCheck found;
  if (scan.box[1] >= scan.box[0]) found.positive = LavaBox{scan.box[0], scan.box[1], scan.box[2], scan.box[3]};
  if (scan.first_bad != ULLONG_MAX) {
    found.first_bad = static_cast<int64_t>(scan.first_bad);
    ctx_.device().copy_to_host(&found.bad_value, values + b.given(found.first_bad), sizeof(double));
  }
  return found;
}

void CudaLava::store_values(const LavaValueBlock& b, const double* values, double* plane) {
  lava_store_values_kernel<<<blocks_for(b.cells(), kThreads), kThreads, 0, stream_of(ctx_)>>>(b, values, plane);
  check(cudaGetLastError(), "lava_store_values_kernel");
}

void CudaLava::load_values(const LavaValueBlock& b, const double* plane, double* values) {
  lava_load_values_kernel<<<blocks_for(b.cells(), kThreads), kThreads, 0, stream_of(ctx_)>>>(b, plane, values);
  check(cudaGetLastError(), "lava_load_values_kernel");
}

// fv2: a step of the region (the device's box grown by one) within the block, from
// buffer `current` into the other; the tiles' rings read the ghosts.
bool CudaLava::step(const LavaPlanes& g, const LavaStepPlace& at, int current, const LavaConstants& k, LavaBox&) {
  const cudaStream_t stream = stream_of(ctx_);
  const LavaBox& window = at.own;
  lava_block_begin_kernel<<<1, 1, 0, stream>>>(device_state_);
  check(cudaGetLastError(), "lava_block_begin_kernel");
  const int64_t tiles = ((window.r1 - window.r0 + kTileRows) / kTileRows) * ((window.c1 - window.c0 + kTileCols) / kTileCols);
  lava_block_step_kernel<<<blocks_for(tiles, 1), kLavaThreads, 0, stream>>>(g, at.shape, current, window, at.all_cells,
                                                                           k, device_state_);
  check(cudaGetLastError(), "lava_block_step_kernel");
  return true;
}

// fv3: the motions of the box's cells within the ring; waits for their shortest time.
double CudaLava::motions(const LavaPlanes& g, const LavaStepPlace& at, int cur, const Lava3Constants& k,
                         const LavaBox&) {
  const cudaStream_t stream = stream_of(ctx_);
  const LavaBox& window = at.ring;
  lava_block_begin_kernel<<<1, 1, 0, stream>>>(device_state_);
  check(cudaGetLastError(), "lava_block_begin_kernel");
  const int64_t cells = (window.r1 - window.r0 + 1) * (window.c1 - window.c0 + 1);
  lava3_motion_kernel<<<blocks_for(cells, kThreads), kThreads, 0, stream>>>(g, at.shape, cur, window, k, device_state_);
  check(cudaGetLastError(), "lava3_motion_kernel");
  check(cudaMemcpyAsync(shortest_, &device_state_->shortest[0], sizeof(double), cudaMemcpyDeviceToHost, stream),
        "cudaMemcpyAsync");
  ctx_.device().synchronize();
  return *shortest_;
}

void CudaLava::flows(const LavaPlanes& g, const LavaStepPlace& at, int cur, double clock, double now,
                     const LavaVents& vents, const LavaBox& vent_box, const Lava3Constants& k, LavaBox&) {
  const LavaBox& window = at.own;
  const int64_t cells = (window.r1 - window.r0 + 1) * (window.c1 - window.c0 + 1);
  lava3_flow_kernel<<<blocks_for(cells, kThreads), kThreads, 0, stream_of(ctx_)>>>(
      g, at.shape, cur, window, at.all_cells, clock, now, vents, vent_box, k, device_state_);
  check(cudaGetLastError(), "lava3_flow_kernel");
}

std::unique_ptr<LavaBackend> make_cuda_lava(Context& ctx) { return std::make_unique<CudaLava>(ctx); }

}  // namespace

const LavaBackendMaker& lava_cuda_backend() {
  static const LavaBackendMaker maker{make_cuda_lava};
  return maker;
}

}  // namespace opsplit::ca
