// The CUDA side of SCIARA-fv2 grids (kernels/ca/sciara_cuda.cu), declared for host code.
#pragma once

#include "ca/sciara.hpp"
#include "core/context.hpp"
#include "core/error.hpp"

namespace opsplit::ca {

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

  // The device's box from now on (ordered on the stream).
  void set_box(const LavaBox& box);
  // Steps first_step .. first_step + nsteps - 1 (nsteps <= kLavaStepsPerLaunch).
  // Reads the substates from buffer `current` of g's pairs; after an odd number of
  // steps the other buffer holds them.
  void launch(const LavaPlanes& g, int current, const LavaVents& vents, const LavaBox& vent_box, int64_t first_step,
              int nsteps, bool all_cells, const LavaConstants& k);
  // Waits for the launches; the device's box.
  LavaBox box();

 private:
  struct Slot;
  void release() noexcept;
  Context& ctx_;
  long long* device_box_ = nullptr;  // r0, r1, c0, c1
  Slot* slots_ = nullptr;            // two launches' read-backs, alternating
  int launches_ = 0;
  int64_t launched_steps_ = 0;
  LavaBox known_;                    // the latest box read back
  int64_t known_at_ = 0;             // launched_steps_ when known_ was true
  int max_blocks_ = 0;
};
#else
class LavaLauncher {
 public:
  explicit LavaLauncher(Context&) { fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA"); }
  void set_box(const LavaBox&) {}
  void launch(const LavaPlanes&, int, const LavaVents&, const LavaBox&, int64_t, int, bool, const LavaConstants&) {}
  LavaBox box() { return {}; }
};
constexpr int kLavaStepsPerLaunch = 32;
#endif

}  // namespace opsplit::ca
