// One call's steps of a reaction-diffusion model on a field (rd.cpp's run_steps), in
// three pieces a reader can take one at a time: the plan (what every step of the call
// uses, decided once, in host memory and laid out for the backend), the health check
// (the first non-finite value: found, the field put back, the error named) and the
// sweep (one step's update, by the halo strategy the field's distribution asks for).
// Included by rd.cpp only.
#pragma once

#include <cstdint>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/error.hpp"
#include "field/field.hpp"
#include "field/halo.hpp"
#include "field/launch.hpp"

namespace opsplit::field {

// Parameters of one call laid out in one block: uploaded at once on CUDA, used in
// place on the CPU. Every section starts on a 16-byte boundary.
class ParamBlock {
 public:
  template <class T>
  size_t add(const std::vector<T>& items) {
    const size_t at = (bytes_.size() + 15) / 16 * 16;
    bytes_.resize(at + items.size() * sizeof(T));
    if (!items.empty()) std::memcpy(bytes_.data() + at, items.data(), items.size() * sizeof(T));
    return at;
  }
  // Where the block lives for the kernels: `device` on CUDA (filled here), else in place.
  unsigned char* place(Context& ctx, Buffer& device) {
    if (!ctx.is_cuda()) return bytes_.data();
    if (device.bytes() < bytes_.size()) {
      device = Buffer();
      device = Buffer(ctx, bytes_.size());
    }
    ctx.device().copy_to_device(device.data(), bytes_.data(), bytes_.size());
    return device.as<unsigned char>();
  }

 private:
  std::vector<unsigned char> bytes_;
};

// What every step of a call uses (opsplit_rd_s::plan_steps), in host memory.
template <class T>
struct StepPlan {
  std::vector<DiffusionWeights<T>> weights;  // per component: dt x D x the stencil (pure diffusion)
  std::vector<ComponentTerms<T>> terms;      // per component
  std::vector<PotentialTerms<T>> slots;      // the Cahn-Hilliard terms, a potential each
  // Ghost conditions, 6 a component: the field's, the potentials', the wind's (faces
  // that border another process say kRemote).
  std::vector<FaceCondition> step_faces, slot_faces, velocity_faces;
  std::vector<SourceTerm<T>> sources;
  // A distributed step's interior and shell (halo.hpp; empty: no overlap), and per view
  // its step_faces and slot_faces with the cuts kRemote.
  std::vector<GridView> views;
  std::vector<FaceCondition> view_faces, view_slot_faces;
  StepTerms<T> step{};        // the Courant numbers change with each step's wind
  bool pure_diffusion = false;  // the fast path: diffusion alone
  // Some component has linear terms in T (ComponentTerms::linear: a rate or source whose
  // product with dt is not 0 in T; one that rounds to 0 there adds nothing).
  bool linear_terms = false;
  unsigned source_axes = 0;     // the axes with a source on one of their faces

  int nslots() const { return static_cast<int>(slots.size()); }

  // The same on the context's backend (ParamBlock), and the call's health word.
  struct OnBackend {
    unsigned long long* first_bad;
    const FaceCondition *faces, *slot_faces, *velocity_faces, *view_faces, *view_slot_faces;
    const DiffusionWeights<T>* weights;
    const ComponentTerms<T>* terms;
    const PotentialTerms<T>* slots;
    const SourceTerm<T>* sources;
  };
  // Valid while the plan lives (on the CPU the block is used in place) and `device`
  // is not placed into again.
  OnBackend place(Context& ctx, Buffer& device) {
    const size_t at_health = block_.add(std::vector<unsigned long long>{kHealthy});
    const size_t at_faces = block_.add(step_faces), at_slot_faces = block_.add(slot_faces);
    const size_t at_velocity_faces = block_.add(velocity_faces), at_view_faces = block_.add(view_faces);
    const size_t at_view_slot_faces = block_.add(view_slot_faces), at_weights = block_.add(weights);
    const size_t at_terms = block_.add(terms), at_slots = block_.add(slots), at_sources = block_.add(sources);
    unsigned char* base = block_.place(ctx, device);
    auto faces_at = [&](size_t at) { return reinterpret_cast<const FaceCondition*>(base + at); };
    return OnBackend{reinterpret_cast<unsigned long long*>(base + at_health),
                     faces_at(at_faces),
                     faces_at(at_slot_faces),
                     faces_at(at_velocity_faces),
                     faces_at(at_view_faces),
                     faces_at(at_view_slot_faces),
                     reinterpret_cast<const DiffusionWeights<T>*>(base + at_weights),
                     reinterpret_cast<const ComponentTerms<T>*>(base + at_terms),
                     reinterpret_cast<const PotentialTerms<T>*>(base + at_slots),
                     reinterpret_cast<const SourceTerm<T>*>(base + at_sources)};
  }

 private:
  ParamBlock block_;
};

// The first non-finite value of a call's steps (health.cuh). On failure the field holds
// the state before the failing step, `time` its time, and NUMERICAL names the step and
// the cell.
class StepHealth {
 public:
  StepHealth(const Context& ctx, opsplit_field_s& field, Buffer& target, unsigned long long* first_bad, double& time,
             double dt, int64_t nsteps, const char* function)
      : ctx_(ctx), field_(field), target_(target), first_bad_(first_bad), time_(time), t0_(time), dt_(dt),
        nsteps_(nsteps), function_(function) {}

  // The step a launch of step n gives its Health: n less the steps launched at the word's
  // last clear read. A key holds its step in 24 bits (health.cuh): rd.cpp reads the word
  // at least every kMostUnreadSteps steps, so that a call of more steps than that keeps
  // its keys and failed_before exact.
  unsigned long long step(int64_t n) const { return static_cast<unsigned long long>(n - base_); }
  int64_t steps_unread(int64_t launched) const { return launched - base_; }

  // After `launched` steps. Every process of a distributed field checks (and fails)
  // together. The earliest bad step is the cause (a bad value crosses to a neighbour in
  // a later step): the process that found it names the cell, the others name that
  // process. Each puts back its own field as one process does (the state before the
  // step it found bad, if any) and its clock with it; so processes that failed later
  // hold later states.
  void check(int64_t launched) {
    auto* decomposition = field_.decomposition();
    if (!decomposition) {
      const unsigned long long key = read();
      if (key != kHealthy) fail(key, launched);
      base_ = launched;
      return;
    }
    unsigned long long key = kHealthy;
    const std::exception_ptr unread = attempt([&] { key = read(); });
    const int64_t mine = unread ? -1 : key == kHealthy ? INT64_MAX : step_of(key);
    int64_t earliest = -mine;  // the group's all-max of the negated steps
    decomposition->group.allmax(&earliest, 1);
    earliest = -earliest;
    if (earliest == INT64_MAX) {  // healthy everywhere
      base_ = launched;
      return;
    }
    std::exception_ptr own = unread;
    if (!unread && key != kHealthy) own = attempt([&] { fail(key, launched); });
    if (unread || key == kHealthy) time_ = t0_ + static_cast<double>(launched) * dt_;  // the steps it took
    decomposition->group.settle(mine == earliest ? own : nullptr, function_);
  }

  // After `launched` steps, the first step of the launch that found a value bad since the
  // word was last clear, or -1 (passes of several steps: rd.cpp runs the failed one's
  // steps again one at a time to find the step and cell); clears it. On a distributed
  // field, read after every pass (`last`, the pass's first step): `last` when a value went
  // bad on any process (they run the steps again together: each step exchanges).
  int64_t clear_failure(int64_t last, int64_t launched) {
    const unsigned long long key = read();
    if (key != kHealthy) {
      if (ctx_.is_cuda())
        ctx_.device().copy_to_device(first_bad_, &kHealthy, sizeof kHealthy);
      else
        *first_bad_ = kHealthy;
    }
    int64_t failed = key != kHealthy ? step_of(key) : -1;
    if (auto* decomposition = field_.decomposition()) {
      int64_t any = failed >= 0;
      decomposition->group.allmax(&any, 1);
      failed = any != 0 ? last : -1;
    }
    if (failed < 0) base_ = launched;
    return failed;
  }

 private:
  // The step (of the call) a key names.
  int64_t step_of(unsigned long long key) const { return base_ + static_cast<int64_t>(key >> kHealthStepShift); }

  // The first bad step and cell so far (kHealthy: none).
  unsigned long long read() const {
    unsigned long long key = kHealthy;
    if (ctx_.is_cuda())
      ctx_.device().copy_to_host(&key, first_bad_, sizeof key);
    else
      key = *first_bad_;
    return key;
  }

  // After `launched` steps, step `key` failed: puts the state before it back.
  [[noreturn]] void fail(unsigned long long key, int64_t launched) {
    const int64_t failed = step_of(key);
    if ((failed & 1) != (launched & 1)) field_.data().swap(target_);  // the failing step's input
    time_ = t0_ + static_cast<double>(failed) * dt_;
    const int64_t position = static_cast<int64_t>(key & kHealthPositionMask);
    std::string where = "at a cell past position 2^40";
    const Grid& grid = field_.grid();
    if (position < static_cast<int64_t>(kHealthPositionMask)) {
      const int64_t cells = grid.cells(), cell = position % cells;
      where = "in component " + num(static_cast<int>(position / cells)) + " at cell (" +
              num(static_cast<long long>(cell % grid.n[0])) + ", " +
              num(static_cast<long long>(cell / grid.n[0] % grid.n[1])) + ", " +
              num(static_cast<long long>(cell / grid.n[0] / grid.n[1])) + ")";
    }
    opsplit::fail(OPSPLIT_ERROR_NUMERICAL, "step " + num(static_cast<long long>(failed + 1)) + " of " +
                                               num(static_cast<long long>(nsteps_)) +
                                               " produced a non-finite value (NaN or Inf) " + where +
                                               " (0-based); the field holds the state after step " +
                                               num(static_cast<long long>(failed)) + ", t = " + num(time_));
  }

  const Context& ctx_;
  opsplit_field_s& field_;
  Buffer& target_;
  unsigned long long* first_bad_;
  double& time_;
  const double t0_, dt_;
  const int64_t nsteps_;
  const char* function_;
  int64_t base_ = 0;  // the steps launched at the word's last clear read
};

// One step of the call: the field's values into `target`, and on a distributed field
// the halo exchanged on the way, by one of four strategies (below). Each returns the
// axes of the target's ghosts it wrote with the values.
template <class T>
class StepSweep {
 public:
  StepSweep(const Context& ctx, opsplit_field_s& field, Buffer& target, const StepPlan<T>& plan,
            const typename StepPlan<T>::OnBackend& placed, const Launchers<T>& run, int points, int kind, T* mu,
            const T* velocity)
      : ctx_(ctx), field_(field), grid_(field.grid()), target_(target), plan_(plan), placed_(placed), run_(run),
        points_(points), kind_(kind), mu_(mu), velocity_(velocity),
        potential_{mu, placed.slots, plan.slots.data(), plan.nslots(), placed.slot_faces, false},
        potential_in_memory_{mu, placed.slots, plan.slots.data(), plan.nslots(), placed.slot_faces, true} {}

  unsigned step(Input<T>& in, const Health& health) {
    auto* d = field_.decomposition();
    if (d == nullptr) return update(in, target_.as<T>(), grid_, health, potential_, velocity_);
    // Every face's own ghosts that the step reads (the remote ones come below): none
    // filled inside a view, where a fill would write over cells at its cuts.
    fill_missing_ghosts(ctx_, in, grid_,
                        run_.ghosts_read(grid_, plan_.step_faces.data(), plan_.pure_diffusion, plan_.nslots() > 0),
                        run_.fill_ghosts);
    HaloExchange<T> halo(ctx_, field_, run_);
    const std::vector<int> axes = halo.axes();
    const bool potentials = plan_.nslots() > 0 && !axes.empty();
    if (plan_.views.empty()) return potentials ? exchange_with_potentials(in, health, halo, axes)
                                               : exchange_then_update(in, health, halo, axes);
    return plan_.nslots() > 0 ? overlap_with_potentials(health, halo, axes) : overlap(health, halo, axes);
  }

 private:
  static void exchange(HaloExchange<T>& halo, const std::vector<int>& axes, size_t from = 0) {
    for (size_t i = from; i < axes.size(); ++i) halo.exchange(axes[i]);
  }

  // The whole halo, then the update.
  unsigned exchange_then_update(Input<T>& in, const Health& health, HaloExchange<T>& halo,
                                const std::vector<int>& axes) {
    exchange(halo, axes);
    return update(in, target_.as<T>(), grid_, health, potential_, velocity_);
  }

  // Cahn-Hilliard terms: the potential of the exchanged input with mu's own ghosts,
  // then mu's remote ghosts from the neighbours (which computed theirs the same way),
  // then the update reading them (two messages a neighbour a step).
  unsigned exchange_with_potentials(Input<T>& in, const Health& health, HaloExchange<T>& halo,
                                    const std::vector<int>& axes) {
    exchange(halo, axes);
    potential_into_memory(ctx_, in, grid_, points_, potential_, run_.potential, run_.fill_ghosts);
    HaloExchange<T> mu_halo = potential_halo();
    exchange(mu_halo, axes);
    return update(in, target_.as<T>(), grid_, health, potential_in_memory_, velocity_);
  }

  // `work` over the views: the interior's (view 0) while the first axis's faces of
  // `halo` travel, then the rest of the halo, then the shell's; the axes every view's
  // work wrote ghosts of.
  template <class Work>
  unsigned around_exchange(HaloExchange<T>& halo, const std::vector<int>& axes, Work&& work) {
    unsigned written = 0;
    halo.exchange(axes[0], [&] { written = work(size_t{0}); });
    exchange(halo, axes, 1);
    for (size_t v = 1; v < plan_.views.size(); ++v) written &= work(v);
    return written;
  }

  unsigned overlap(const Health& health, HaloExchange<T>& halo, const std::vector<int>& axes) {
    return around_exchange(halo, axes, [&](size_t v) { return update_view(v, health, potential_); });
  }

  // Cahn-Hilliard terms, both exchanges overlapped: the interior's potential (reaching
  // one cell, no remote ghost) while the field's faces travel, then the shell's and mu's
  // own ghosts; the interior's update (reading mu one cell around) while mu's faces
  // travel, then the shell's.
  unsigned overlap_with_potentials(const Health& health, HaloExchange<T>& halo, const std::vector<int>& axes) {
    const unsigned mu_written = around_exchange(halo, axes, [&](size_t v) { return potential_view(v); });
    run_.fill_ghosts(ctx_, mu_, potential_grid(), placed_.slot_faces, kAllAxes & ~mu_written);
    HaloExchange<T> mu_halo = potential_halo();
    return around_exchange(mu_halo, axes, [&](size_t v) { return update_view(v, health, potential_in_memory_); });
  }

  // One step's update of `input` into `out` over `g` (the grid or a view of it).
  unsigned update(Input<T>& input, T* out, const Grid& g, const Health& health, const PotentialPass<T>& pass,
                  const T* wind) {
    if (plan_.pure_diffusion) return run_.diffuse(ctx_, input, out, g, points_, placed_.weights, health);
    return run_.update(ctx_, input, out, pass, wind, g, points_, kind_, placed_.terms, plan_.terms.data(), plan_.step,
                       health);
  }

  // View v: its cells in the field's storage (the field's strides, its first cell
  // `offset` values in), every ghost it reads there.
  Grid view_grid(size_t v, int64_t* offset) const {
    Grid g = grid_;
    for (int a = 0; a < 3; ++a) g.n[a] = plan_.views[v].n[a];
    *offset = plan_.views[v].origin[1] * grid_.stride[1] + plan_.views[v].origin[2] * grid_.stride[2];
    return g;
  }
  Input<T> view_input(size_t v, int64_t offset) {
    const size_t at = v * plan_.step_faces.size();
    return Input<T>{field_.data().template as<T>() + offset, placed_.view_faces + at, plan_.view_faces.data() + at,
                    kAllAxes};
  }

  // The update over view v (`pass`'s potentials in memory, or none).
  unsigned update_view(size_t v, const Health& health, PotentialPass<T> pass) {
    int64_t offset = 0;
    const Grid g = view_grid(v, &offset);
    Health part = health;
    for (int a = 0; a < 3; ++a) part.field_n[a] = grid_.n[a], part.origin[a] = plan_.views[v].origin[a];
    Input<T> part_in = view_input(v, offset);
    if (pass.mu != nullptr) pass.mu += offset;
    return update(part_in, target_.as<T>() + offset, g, part, pass, velocity_ ? velocity_ + offset : nullptr);
  }

  // The Cahn-Hilliard potentials of view v's cells into mu; the axes of mu's ghosts
  // written with them (the CPU's, at the view's own faces).
  unsigned potential_view(size_t v) {
    int64_t offset = 0;
    const Grid g = view_grid(v, &offset);
    Input<T> part_in = view_input(v, offset);
    return run_.potential(ctx_, part_in, mu_ + offset, g, points_, placed_.slots, plan_.nslots(),
                          placed_.view_slot_faces + v * plan_.slot_faces.size());
  }

  Grid potential_grid() const {
    Grid g = grid_;
    g.ncomp = plan_.nslots();
    return g;
  }
  HaloExchange<T> potential_halo() {
    return HaloExchange<T>(ctx_, *field_.decomposition(), mu_, potential_grid(), run_);
  }

  const Context& ctx_;
  opsplit_field_s& field_;
  const Grid& grid_;
  Buffer& target_;
  const StepPlan<T>& plan_;
  const typename StepPlan<T>::OnBackend& placed_;
  const Launchers<T>& run_;
  const int points_, kind_;
  T* const mu_;
  const T* const velocity_;
  const PotentialPass<T> potential_, potential_in_memory_;
};

}  // namespace opsplit::field
