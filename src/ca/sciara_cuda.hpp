// The CUDA side of SCIARA-fv2 and -fv3 grids (kernels/ca/sciara_cuda.cu), declared for host code:
// the grid's box and the shared numerics' types, not the host's grid class.
#pragma once

#include "ca/lava_box.hpp"
#include "ca/sciara_fv3.cuh"
#include "core/context.hpp"
#include "core/error.hpp"

namespace opsplit::ca {

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

#if OPSPLIT_HAVE_CUDA
// Steps per launch: the launch after next is sized from the box the launch before
// read back (the region grows by at most a cell a step meanwhile).
constexpr int kLavaStepsPerLaunch = 32;

// Runs a lava grid's steps on the context's stream: launches of several steps, each
// step's region the cells of the device's box of lava (every cell that has held lava,
// and the vents) grown by one, the box grown on the device as the lava spreads. The
// host reads the box back without waiting on the launch just made, only to size the
// launches.
class LavaLauncher {
 public:
  explicit LavaLauncher(Context& ctx);
  ~LavaLauncher();
  LavaLauncher(const LavaLauncher&) = delete;
  LavaLauncher& operator=(const LavaLauncher&) = delete;

  // The device's state from now on (ordered on the stream).
  void set_state(const LavaBox& box, double time, int64_t steps, const CompensatedSum& emitted);
  // Steps first_step .. first_step + nsteps - 1 (nsteps <= kLavaStepsPerLaunch).
  // Reads the substates from buffer `current` of g's pairs; after an odd number of
  // steps the other buffer holds them.
  void launch(const LavaPlanes& g, int current, const LavaVents& vents, const LavaBox& vent_box, int64_t first_step,
              int nsteps, bool all_cells, const LavaConstants& k);
  // fv3: up to nsteps steps, none once the device's time reaches until. The substates
  // are in buffer `current` when the device has done `steps` steps (the host's count
  // when it last waited), and move to the other buffer with each step.
  void launch3(const LavaPlanes& g, int current, int64_t steps, const LavaVents& vents, const LavaBox& vent_box,
               int nsteps, double until, bool all_cells, const Lava3Constants& k);
  // A block of a grid decomposed over processes (LavaGrid::attach) steps one step at a
  // time, the host between the phases: it exchanges the ghosts and agrees on fv3's clock.
  // fv2: step `step`'s emission at the block's vents (the others' are at cell -1).
  void emit(const LavaPlanes& g, int current, const LavaVents& vents, int64_t step);
  // The slab's values into `to`; `from` into the slab's cells, ghosts holding lava
  // taken into the box. Both device memory, ordered on the stream.
  void pack(const LavaSlab& slab, double* to);
  void unpack(const LavaSlab& slab, const double* from);
  // fv2: a step of the region (the box grown by one) within `window`, the block, from
  // buffer `current` into the other; the tiles' rings read the ghosts.
  void step_block(const LavaPlanes& g, const LavaShape& shape, int current, const LavaBox& window, bool all_cells,
                  const LavaConstants& k);
  // fv3: the motions of the box's cells within `window` (the block and its first band of
  // ghosts); waits for their shortest time (infinity when none).
  double motion_block(const LavaPlanes& g, const LavaShape& shape, int cur, const LavaBox& window,
                      const Lava3Constants& k);
  // fv3: flow mode over the region within `window`, the block, for `clock` seconds from `now`.
  void flow_block(const LavaPlanes& g, const LavaShape& shape, int cur, const LavaBox& window, bool all_cells,
                  double clock, double now, const LavaVents& vents, const LavaBox& vent_box, const Lava3Constants& k);
  // fv3: the device's time as last read back, without waiting (a launch or two behind).
  double known_time() const { return known_time_; }
  bool known_stalled() const { return known_stalled_; }
  // Waits for the launches; the device's state.
  LavaDeviceState state();

 private:
  struct Slot;
  void release() noexcept;
  // Waits for the launch before last (two in flight at most) and takes its read-back;
  // the number of blocks for a launch of nsteps whose region may grow from the box.
  int prepare(const LavaPlanes& g, int nsteps, bool all_cells, const void* kernel, int threads);
  void finish(int nsteps);  // after a launch: its read-back queued
  Context& ctx_;
  LavaDeviceState* device_state_ = nullptr;
  Slot* slots_ = nullptr;  // two launches' read-backs, alternating
  int launches_ = 0;
  int64_t launched_steps_ = 0;
  LavaBox known_;                    // the latest box read back
  int64_t known_at_ = 0;             // launched_steps_ when known_ was true
  double known_time_ = 0.0;          // fv3: the latest time read back
  bool known_stalled_ = false;       // fv3: the latest read back stopped on a stall
  int max_blocks_ = 0, max_blocks3_ = 0;
  int sms_ = 0;                      // the device's multiprocessors (a block's launches)
  double* shortest_ = nullptr;       // pinned: a block's shortest time, read back
  // Blocks for a block's grid-stride launch over `work` items of `per_block` each.
  int blocks_for(int64_t work, int per_block);
};
#else
class LavaLauncher {
 public:
  explicit LavaLauncher(Context&) { fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA"); }
  void set_state(const LavaBox&, double, int64_t, const CompensatedSum&) {}
  void launch(const LavaPlanes&, int, const LavaVents&, const LavaBox&, int64_t, int, bool, const LavaConstants&) {}
  void launch3(const LavaPlanes&, int, int64_t, const LavaVents&, const LavaBox&, int, double, bool,
               const Lava3Constants&) {}
  void emit(const LavaPlanes&, int, const LavaVents&, int64_t) {}
  void pack(const LavaSlab&, double*) {}
  void unpack(const LavaSlab&, const double*) {}
  void step_block(const LavaPlanes&, const LavaShape&, int, const LavaBox&, bool, const LavaConstants&) {}
  double motion_block(const LavaPlanes&, const LavaShape&, int, const LavaBox&, const Lava3Constants&) { return 0.0; }
  void flow_block(const LavaPlanes&, const LavaShape&, int, const LavaBox&, bool, double, double, const LavaVents&,
                  const LavaBox&, const Lava3Constants&) {}
  double known_time() const { return 0.0; }
  bool known_stalled() const { return false; }
  LavaDeviceState state() { return {}; }
};
constexpr int kLavaStepsPerLaunch = 32;
#endif

}  // namespace opsplit::ca
