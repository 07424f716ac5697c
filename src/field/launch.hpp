// The field launchers of each backend: the same operations over the same numerics
// (kernels/field/*.cuh), as OpenMP loops (field_cpu.hpp) or CUDA kernels
// (kernels/field/field_cuda.cuh). Pointers are on the context's backend; `bc` has 6
// faces per component, `weights` / `terms` one entry per component.
#pragma once

#include <type_traits>
#include <vector>

#include "core/backend.hpp"
#include "core/context.hpp"
#include "field/boundary.cuh"
#include "field/diffusion.cuh"
#include "field/grid.cuh"
#include "field/halo.cuh"
#include "field/health.cuh"
#include "field/model.cuh"

namespace opsplit {
class Group;         // core/group.hpp
class SlabExchange;  // core/slab_exchange.hpp
}

namespace opsplit::field {

// An emission into one cell: `amount` (dt x the rate) is added to storage index `at`,
// whose host PLANAR position is `position`.
template <class T>
struct SourceTerm {
  int64_t at;
  int64_t position;
  T amount;
};

// What a pass of several steps computes (Launchers::steps_pass): pure diffusion
// (`weights`, a component each) or, with kind >= 0, the model's update (`terms`, a
// component each; `step_terms`, a step of the pass each, in host memory: the Courant
// numbers change with each step's wind; `velocity`: a per-cell wind, constant through
// the pass), then the point sources (in order of position). On a distributed field
// (`group` not NULL: the faces that border another process are kRemote) the pass first
// swaps with the neighbours the cells it reads beyond those faces, as many deep as it
// has steps (the CPU's by `group`; CUDA's, along y and z, through the field's slabs,
// `exchange`, which move device memory by CUDA IPC or MPI).
// The most rows or planes next to a remote y or z face a CUDA field's slabs carry in one message
// (distributed.cpp sizes them at attach): the CUDA pass's deepest swap
// (kCudaMaxStepsPerPass, field_cuda.cuh).
constexpr int kRemotePlanes = 4;

// The values of the message a pass of k steps swaps across one remote face: along y the
// k rows next to the face in every plane; along z the k planes next to it, with the k
// rows beyond each of the `remote_y_faces` remote y faces (the corners). The one formula
// for attach's slabs and the pass's swap.
inline int64_t remote_rows_values(const Grid& grid, int k) {
  return int64_t(grid.ncomp) * grid.n[2] * k * grid.n[0];
}
inline int64_t remote_planes_values(const Grid& grid, int remote_y_faces, int k) {
  return int64_t(grid.ncomp) * k * (grid.n[1] + int64_t(k) * remote_y_faces) * grid.n[0];
}

template <class T>
struct PassTerms {
  const DiffusionWeights<T>* weights;
  int kind;  // the reaction kind; -1: pure diffusion
  const ComponentTerms<T>* terms;
  const StepTerms<T>* step_terms;
  const SourceTerm<T>* sources;
  int64_t nsources;
  const Group* group;            // NULL: one process
  const SlabExchange* exchange;  // the distributed field's slabs (NULL: one process)
  const T* velocity;   // a model's per-cell velocity field (the field's geometry, 3 components), or NULL
  bool linear_terms;   // some component has linear terms (ComponentTerms::linear)
  bool model() const { return kind >= 0; }
};

// Ghost axes as bit sets: bit a for axis a.
constexpr unsigned kAllAxes = 7;

// Which ghosts of a buffer follow its values under which boundary conditions (6 per
// component), kept between calls: a step that wrote some along with its values, or a
// fill, records them, so that the next step under the same conditions (the next call of
// a host's time loop) fills only the rest. take returns the axes that follow `faces` and
// forgets the record, so that a call that fails leaves none; anything else that writes
// the buffer forgets it (forget).
class GhostRecord {
 public:
  unsigned take(const std::vector<FaceCondition>& faces);
  void record(const std::vector<FaceCondition>& faces, unsigned axes);  // never throws
  void forget() { faces_.clear(); }

 private:
  std::vector<FaceCondition> faces_;  // empty: nothing recorded
  unsigned axes_ = 0;
};

// An operation's input field and what is known of its ghost layers (they carry the
// boundary conditions; they are not state). An operation fills the ghosts it reads
// from memory that are not valid yet (fill_missing_ghosts) and adds them to
// ghosts_valid, so that the next operation on the same input does not fill them again.
template <class T>
struct Input {
  T* data;
  const FaceCondition* faces;       // 6 per component, on the backend
  const FaceCondition* faces_host;  // the same in host memory
  unsigned ghosts_valid;            // the axes whose ghosts in memory follow the values
};

// The Cahn-Hilliard chemical potentials a model step needs: `nslots` slots, slot s the
// potential of component slots[s].comp, into plane s of mu, whose ghosts follow
// slot_faces (6 per slot). Pointers on the backend; slots_host the same slots in host
// memory. in_memory: mu and its ghosts are already there (a distributed step computes
// them before it exchanges them: rd.cpp), so the update reads them and computes none.
template <class T>
struct PotentialPass {
  T* mu;
  const PotentialTerms<T>* slots;
  const PotentialTerms<T>* slots_host;
  int nslots;
  const FaceCondition* slot_faces;
  bool in_memory;
};

template <class T>
struct Launchers {
  // The ghosts of the axes in `axes`, in axis order (each axis over the ghosts of the
  // ones before).
  void (*fill_ghosts)(const Context&, T* data, const Grid&, const FaceCondition* bc, unsigned axes);
  // The axes whose input ghosts diffuse (pure_diffusion) or update read from memory,
  // under the faces `faces_host` (the CPU loops: all; the CUDA marches copy some from
  // the cells instead), for a caller that fills them first (rd.cpp's distributed step).
  unsigned (*ghosts_read)(const Grid&, const FaceCondition* faces_host, bool pure_diffusion, bool potential_terms);
  // diffuse and update return the axes whose ghosts of their output they also wrote
  // (the CPU loops write all of them, from the input's faces; the CUDA diffusion march
  // writes x where it reads x ghosts from memory): the next operation on that buffer
  // need not fill them.
  //
  // Pure diffusion of every component (the fast path).
  unsigned (*diffuse)(const Context&, Input<T>& in, T* out, const Grid&, int points,
                      const DiffusionWeights<T>* weights, Health);
  // The whole model (model.cuh), the Cahn-Hilliard potentials included: computed into
  // potential.mu first (potential_into_memory), or inside the update pass where a
  // backend can. velocity may be NULL when unused (its ghosts filled). `terms` is on
  // the backend, `terms_host` the same values in host memory.
  unsigned (*update)(const Context&, Input<T>& in, T* out, const PotentialPass<T>& potential, const T* velocity,
                     const Grid&, int points, int kind, const ComponentTerms<T>* terms,
                     const ComponentTerms<T>* terms_host, const StepTerms<T>& step, Health);
  void (*add_sources)(const Context&, T* out, const Grid&, const SourceTerm<T>* sources, int64_t n, Health);
  void (*pack)(const Context&, const T* data, const Grid&, T* host_layout, int layout);
  void (*unpack)(const Context&, const T* host_layout, const Grid&, T* data, int layout);
  // Per x-row (row = j + k*ny) results, combined on the host in a fixed order.
  std::vector<double> (*row_sums)(const Context&, const T* data, const Grid&, int comp);
  std::vector<double> (*row_extremes)(const Context&, const T* data, const Grid&, int comp);  // min, max per row
  std::vector<double> (*row_energy)(const Context&, const T* data, const Grid&, int comp, int points,
                                    const PotentialTerms<double>& terms, double volume);
  // A distributed field's ghost exchange (halo.cuh): the cells next to face (axis,
  // side) into `slab`, and a received slab into the ghosts beyond that face.
  void (*pack_face)(const Context&, const T* data, const Grid&, int axis, int side, T* slab);
  void (*unpack_face)(const Context&, const T* slab, const Grid&, int axis, int side, T* data);
  // The slots' potentials of the input into mu (potential_into_memory), returning the
  // axes of mu's ghosts written with them.
  unsigned (*potential)(const Context&, Input<T>& in, T* mu, const Grid&, int points, const PotentialTerms<T>* slots,
                        int nslots, const FaceCondition* slot_faces);
  // `steps` steps (2 .. max_steps_per_pass) in one pass through memory (temporal
  // blocking: docs/research/temporal_blocking_plan.md), the same bits as that many
  // diffuse or update calls each followed by add_sources, on a field of one process
  // whose ghosts are one cell wide; `scratch` holds steps_scratch_values(ctx, grid,
  // in.faces_host, terms, s) values for some s >= steps. Health's step is the pass's
  // first; a bad value is recorded under some step of the pass (the CPU: its own step
  // and position; CUDA: the pass's first step, position 0), and the caller then runs the
  // pass's steps again one at a time from `in` (which the pass leaves as it was), which
  // name it. Returns the axes of the output's ghosts it wrote.
  unsigned (*steps_pass)(const Context&, Input<T>& in, T* out, T* scratch, const Grid&, int points,
                         const PassTerms<T>& terms, int steps, Health);
  // The most steps steps_pass fuses into a pass of `terms` over `grid` whose faces are
  // `faces_host` (6 a component, host memory) with the stencil of `points` (1: it does
  // not fuse).
  int (*max_steps_per_pass)(const Context&, const Grid&, const FaceCondition* faces_host, int points,
                            const PassTerms<T>& terms);
  // The scratch the passes of `terms` over a grid whose faces are `faces_host` need, in
  // values (0: none), each of at most `steps` steps.
  int64_t (*steps_scratch_values)(const Context&, const Grid&, const FaceCondition* faces_host,
                                  const PassTerms<T>& terms, int steps);
};

// The most steps a pass fuses (opsplit_rd_set_steps_per_pass).
constexpr int kMaxStepsPerPass = 16;

// Fills the ghosts of `axes` of an operation's input that are not valid yet, with the
// backend's fill_ghosts. A fill of an axis covers the ghosts of the axes before it (the
// edges): where one of those is filled now, the valid axes after it are filled again
// (a CUDA march may fill z alone: it never reads the edges of the axes it copies).
template <class T>
void fill_missing_ghosts(const Context& ctx, Input<T>& in, const Grid& grid, unsigned axes,
                         void (*fill)(const Context&, T*, const Grid&, const FaceCondition*, unsigned)) {
  unsigned missing = axes & ~in.ghosts_valid;
  if (missing == 0) return;
  const unsigned from_lowest = ~((missing & (0u - missing)) - 1u);  // the lowest missing axis and up
  missing |= in.ghosts_valid & from_lowest;
  fill(ctx, in.data, grid, in.faces, missing);
  in.ghosts_valid |= axes;
}

// The pass before a model update that needs mu in memory: the backend's `potential`
// (the slots' potentials of the input, returning the axes of mu's ghosts it wrote),
// then the rest of mu's ghosts.
template <class T, class Potential>
void potential_into_memory(const Context& ctx, Input<T>& in, const Grid& grid, int points, const PotentialPass<T>& pass,
                           Potential&& potential,
                           void (*fill)(const Context&, T*, const Grid&, const FaceCondition*, unsigned)) {
  if (pass.nslots == 0 || pass.in_memory) return;
  Grid slot_grid = grid;
  slot_grid.ncomp = pass.nslots;
  const unsigned written = potential(ctx, in, pass.mu, grid, points, pass.slots, pass.nslots, pass.slot_faces);
  fill(ctx, pass.mu, slot_grid, pass.slot_faces, kAllAxes & ~written);
}

// Each backend's table per value type, a translation unit each (field_cpu_float.cpp,
// field_cpu_double.cpp, kernels/field/field_cuda_float.cu, field_cuda_double.cu).
template <class T>
const Launchers<T>& cpu_launchers();
template <>
const Launchers<float>& cpu_launchers<float>();
template <>
const Launchers<double>& cpu_launchers<double>();
template <class T>
const Launchers<T>& cuda_launchers();  // built with CUDA only
template <>
const Launchers<float>& cuda_launchers<float>();
template <>
const Launchers<double>& cuda_launchers<double>();

template <class T>
const Launchers<T>& launchers(const Context& ctx) {
  return backend_table(ctx, cpu_launchers<T>(), []() -> const auto& { return cuda_launchers<T>(); });
}

// Calls f with std::integral_constant of the reaction kind.
template <class F>
void with_reaction_kind(int kind, F&& f) {
  switch (kind) {
    case kTuring: f(std::integral_constant<int, kTuring>{}); break;
    case kGrayScott: f(std::integral_constant<int, kGrayScott>{}); break;
    case kPrecipitation: f(std::integral_constant<int, kPrecipitation>{}); break;
    default: f(std::integral_constant<int, kLinear>{}); break;
  }
}

// Calls f with std::integral_constant of the compile-time component count: ncomp
// itself up to 3, else 0 (the count is read at run time).
template <class F>
void with_component_count(int ncomp, F&& f) {
  switch (ncomp) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    default: f(std::integral_constant<int, 0>{}); break;
  }
}

}  // namespace opsplit::field
