// What a lava grid (sciara.hpp) runs its steps on: one object a grid, made with it for
// its context's backend through backend_table (docs/ARCHITECTURE.md, "Choosing a
// backend"): the OpenMP loops (lava_cpu.cpp) or the CUDA kernels
// (kernels/ca/sciara_cuda.cu), over the same per-cell numerics (sciara.cuh,
// sciara_fv3.cuh). An object, where the other capabilities have a table of free
// functions, because CUDA's side has state of its own between calls: the box of lava,
// fv3's clock and counts on the device, and two launches' read-backs in flight.
#pragma once

#include <memory>
#include <vector>

#include "ca/lava_box.hpp"
#include "ca/sciara_fv3.cuh"
#include "core/backend.hpp"
#include "core/context.hpp"

namespace opsplit::ca {

// The box of every cell that has held lava (and the vents), and fv3's time, steps and
// emitted thickness: the host's, or the device's as read back.
struct LavaState {
  LavaBox box;
  double time = 0.0;
  int64_t steps = 0;
  CompensatedSum emitted;
  bool stalled = false;  // fv3: the device's steps stopped on a clock too short to advance the time
};

// A block of given values checked (LavaBackend::check_values): the first that may not be
// stored (LavaValueBlock's count, -1 when none) and its value; the box of the storage
// cells given a positive value.
struct LavaValueCheck {
  int64_t first_bad = -1;
  double bad_value = 0.0;
  LavaBox positive;
};

// Where a step at a time runs: the storage's place, the block (the cells a step
// updates), the block with, on remote sides, its first band of ghosts (the cells
// whose outflows and motions reach the block), and whether every cell is computed;
// and fv2's scratch where it steps in place (not in LavaPlanes, which the CUDA
// kernels take by value: two more pointers there cost fv3's step kernel 3-4 %).
struct LavaStepPlace {
  LavaShape shape;
  LavaBox own, ring;
  bool all_cells;
  double* flows;                 // fv2 unpaired: a step's outflows, 8 planes
  double* previous_temperature;  // and each cell's temperature before it
};

// Several steps a launch, the box and fv3's clock kept on the device between them
// (CUDA, one process). The host reads the state back without waiting on the launch
// just made, only to size and stop the launches.
class LavaLaunches {
 public:
  virtual ~LavaLaunches() = default;
  // fv2: one launch of steps first_step, first_step + 1, ... from buffer `current` of g's
  // pairs, at most n of them; returns how many (after an odd number the other buffer
  // holds the substates). The caller counts each launch's steps as it returns, so that a
  // failure in a later one leaves the count of those launched.
  virtual int launch(const LavaPlanes& g, int current, const LavaVents& vents, const LavaBox& vent_box,
                     int64_t first_step, int64_t n, bool all_cells, const LavaConstants& k) = 0;
  // fv3: launches of up to n steps in all, none once the device's time reaches until or
  // a step stalls. The substates are in buffer `current` when the device has done
  // `done_steps` steps (the host's count when it last read the state), and move to the
  // other buffer with each step; read_state gives the device's count and clock after.
  virtual void launch_until(const LavaPlanes& g, int current, int64_t done_steps, const LavaVents& vents,
                            const LavaBox& vent_box, int64_t n, double until, bool all_cells,
                            const Lava3Constants& k) = 0;
};

class LavaBackend {
 public:
  LavaBackend() = default;
  LavaBackend(const LavaBackend&) = delete;  // the vents' schedules point into the backend's own copy
  LavaBackend& operator=(const LavaBackend&) = delete;
  virtual ~LavaBackend() = default;
  // Whether fv2 keeps altitude, thickness and temperature in pairs of buffers, a step
  // writing the other (CUDA); the CPU updates one in place from its outflows
  // (LavaStepPlace's scratch: the grid allocates it where this is false).
  virtual bool fv2_pairs() const = 0;
  // The vents' schedules for the steps from now on: each at its storage cell or -1 (a
  // block's others), its rates pointing into `rates`; schedules() the backend's copy.
  virtual void set_vents(std::vector<LavaVentSchedule> schedules, std::vector<double> rates) = 0;
  virtual const LavaVentSchedule* schedules() const = 0;
  // The grid's state from now on (CUDA: onto the device, which keeps it; the CPU's is
  // the grid's own). read_state waits for the steps and gives the backend's, or false
  // where the grid's own is the state.
  virtual void set_state(const LavaState& s) = 0;
  virtual bool read_state(LavaState& s) = 0;

  // A step at a time: the CPU, and a block of a grid decomposed over processes, whose
  // host exchanges the ghosts and agrees on fv3's clock between the phases. Regions grow
  // from `box` (the CPU's; CUDA grows the device's), which takes in every cell holding
  // lava after.
  // fv2: step `step`'s emission at the vents the backend holds (buffer `current`).
  virtual void emit(const LavaPlanes& g, int current, const LavaVents& vents, int64_t step) = 0;
  // fv2: one step's outflows and updates; returns whether the substates moved to the
  // other buffer of the pairs.
  virtual bool step(const LavaPlanes& g, const LavaStepPlace& at, int current, const LavaConstants& k,
                    LavaBox& box) = 0;
  // fv3: the motions of the ring's cells holding lava into g.motion; their shortest
  // time (infinity when none).
  virtual double motions(const LavaPlanes& g, const LavaStepPlace& at, int cur, const Lava3Constants& k,
                         const LavaBox& box) = 0;
  // fv3: flow mode over the region within the block for `clock` seconds from `now`,
  // emission included, from buffer `cur` into the other.
  virtual void flows(const LavaPlanes& g, const LavaStepPlace& at, int cur, double clock, double now,
                     const LavaVents& vents, const LavaBox& vent_box, const Lava3Constants& k, LavaBox& box) = 0;
  // The slab's values into `to`, and `from` into its cells, ghosts holding lava taken
  // into the box; both on the backend.
  virtual void pack(const LavaSlab& slab, double* to) = 0;
  virtual void unpack(const LavaSlab& slab, const double* from, LavaBox& box) = 0;

  // A substate's block as the host gives and takes it on the GPU (the _device forms of
  // opsplit_ca_set/get_substate), in the backend's memory: check_values reads every
  // value; store_values writes them into their cells of `plane` (the others as they
  // were); load_values reads those cells back. The host forms use the CPU's below.
  virtual LavaValueCheck check_values(const LavaValueBlock& b, const double* values) = 0;
  virtual void store_values(const LavaValueBlock& b, const double* values, double* plane) = 0;
  virtual void load_values(const LavaValueBlock& b, const double* plane, double* values) = 0;

  // The backend's launches of several steps (CUDA), or nullptr: the grid steps one at a time.
  virtual LavaLaunches* launches() { return nullptr; }
};

// The same on host memory, on `threads` threads (lava_cpu.cpp): the CPU backend's, and
// the host forms' on either backend (their arrays are staged on the host, as the
// storage plane they build before one copy to the backend).
LavaValueCheck lava_check_values_cpu(const LavaValueBlock& b, const double* values, int threads);
void lava_store_values_cpu(const LavaValueBlock& b, const double* values, double* plane, int threads);
void lava_load_values_cpu(const LavaValueBlock& b, const double* plane, double* values, int threads);

struct LavaBackendMaker {
  std::unique_ptr<LavaBackend> (*make)(Context&);
};
const LavaBackendMaker& lava_cpu_backend();   // lava_cpu.cpp
const LavaBackendMaker& lava_cuda_backend();  // built with CUDA only

inline std::unique_ptr<LavaBackend> make_lava_backend(Context& ctx) {
  return backend_table(ctx, lava_cpu_backend(), []() -> const auto& { return lava_cuda_backend(); }).make(ctx);
}

}  // namespace opsplit::ca
