// A reaction-diffusion-advection model: per-component diffusion, boundary conditions,
// linear terms and Cahn-Hilliard terms, a built-in reaction kind, a uniform (possibly
// oscillating) velocity and a per-cell velocity field, point sources, and its clock;
// stepped on a field by forward Euler, one fused pass per step (kernels/field/model.cuh).
#pragma once

#include <array>
#include <exception>
#include <map>
#include <vector>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "field/boundary.cuh"
#include "field/field.hpp"
#include "field/reaction.cuh"
#include "opsplit/field.h"

namespace opsplit::field {
template <class T>
struct StepPlan;
template <class T>
struct Launchers;
}

struct opsplit_rd_s : opsplit::Handle<opsplit::HandleKind::rd>, opsplit::ContextMember {
  opsplit_rd_s(opsplit::Context& ctx, int ncomp);

  int ncomp() const { return static_cast<int>(diffusion_.size()); }
  // Enum arguments arrive as the caller's int values and are checked here.
  void set_stencil(int stencil);
  void set_steps_per_pass(int steps);
  int steps_per_pass_taken() const { return steps_per_pass_taken_; }
  void set_diffusion(int comp, double coefficient);
  void set_boundary(int face, int comp, int bc, double value);
  void set_reaction(int kind);
  void set_reaction_parameter(const char* name, double value);
  double reaction_parameter(const char* name) const;
  void set_linear(int comp, double rate, double source);
  // Transport (diffusion and advection) of component comp divided by factor (a
  // retardation factor R), or switched off (immobile).
  void set_retardation(int comp, double factor);
  void set_mobile(int comp, int mobile);
  void set_cahn_hilliard(int comp, double m, double b, double u, double kappa);
  void set_velocity(int axis, double constant, double amplitude, double angular_frequency, double phase);
  void set_velocity_field(const opsplit::Field* velocity);  // copied; NULL removes it
  void add_source(int comp, int64_t i, int64_t j, int64_t k, double rate);
  void clear_sources() { sources_.clear(); }
  void set_time(double t);
  double time() const { return time_; }

  double max_stable_dt(const opsplit::Field& field) const;
  // nsteps forward-Euler steps; `function` names the caller in progress reports.
  void step(opsplit::Field& field, double dt, int64_t nsteps, const char* function);
  double free_energy(opsplit::Field& field, int comp);
  // A distributed field's agreement on a step: every process's failure (local) and its
  // dt and nsteps. Also for a process whose rd handle is bad (src/api/field_api.cpp).
  static void settle_step(opsplit::Field& field, std::exception_ptr local, double dt, int64_t nsteps,
                          const char* function, const opsplit_rd_s* rd);

 private:
  struct CahnHilliard {
    double m = 0, b = 0, u = 0, kappa = 0;  // m = 0: no term
  };
  struct Velocity {
    double constant = 0, amplitude = 0, omega = 0, phase = 0;
    double at(double t) const;
  };
  int kind_ = opsplit::field::kLinear;
  double reaction_[opsplit::field::kMaxReactionParams] = {};

  void check_compatible(const opsplit::Field& field) const;
  void check_step(const opsplit::Field& field, double dt, int64_t nsteps) const;
  void check_distributed(const opsplit::Field& field) const;
  static std::vector<opsplit::field::FaceCondition> faces_for(const opsplit::Field& field,
                                                              std::vector<opsplit::field::FaceCondition> faces);
  void check_periodic_pairs() const;
  void check_sources(const opsplit::Field& field) const;
  bool advects() const;
  // What component comp's diffusion and advection are multiplied by: 1/R, 0 when immobile.
  double transport_scale(int comp) const;
  // A call's steps (run_steps): what they all use (plan_steps), the wind's ghosts before
  // the first, each step's Courant numbers.
  template <class T>
  void run_steps(opsplit::Field& field, double dt, int64_t nsteps, const char* function);
  template <class T>
  opsplit::field::StepPlan<T> plan_steps(const opsplit::Field& field, double dt) const;
  template <class T>
  int fused_steps_per_pass(const opsplit::Field& field, const opsplit::field::StepPlan<T>& plan,
                           const opsplit::field::Launchers<T>& run, const opsplit::field::PassTerms<T>& terms) const;
  template <class T>
  void refresh_wind_ghosts(opsplit::Field& field, const opsplit::field::FaceCondition* faces,
                           const std::vector<opsplit::field::FaceCondition>& faces_host, bool exchange);
  template <class T>
  void set_courant(opsplit::field::StepTerms<T>& st, const opsplit::Field& field, double t, double dt) const;
  template <class T>
  double energy(opsplit::Field& field, int comp);
  // The field's storage for the Cahn-Hilliard potentials (a plane a term), made before a
  // distributed step's agreement so that a process without memory fails them all.
  opsplit::Buffer& potential_storage(opsplit::Field& field) const;
  // The ghost condition of the chemical potential of component c on a face.
  opsplit::field::FaceCondition potential_face(int c, int face) const;
  // A distributed field's processes fuse steps only with the same digest (rd.cpp).
  uint64_t model_digest(const opsplit::Field& field) const;

  // What a step's update reads, from points_ to sources_: a member added among them
  // must enter model_digest (rd.cpp), or processes of a distributed field that differ
  // in it would fuse steps over each other's cells.
  int points_ = 7;
  int steps_per_pass_ = 1;  // the most steps a pass through memory fuses (opsplit_rd_set_steps_per_pass)
  int steps_per_pass_taken_ = 0;  // by the last call's first pass
  std::vector<double> diffusion_;
  std::vector<opsplit::field::FaceCondition> faces_;  // 6 per component
  std::vector<double> rate_, source_;
  std::vector<double> retardation_;
  std::vector<char> mobile_;
  std::vector<CahnHilliard> cahn_hilliard_;
  Velocity velocity_[3];
  opsplit::Buffer velocity_field_;  // 3 planes in the storage of the field it came from
  opsplit::field::GhostRecord velocity_ghosts_;  // of velocity_field_
  opsplit::field::Grid velocity_grid_{};
  opsplit_precision velocity_precision_ = OPSPLIT_FLOAT64;
  double velocity_field_max_[3] = {0, 0, 0};  // max |u_a| over its cells
  // A distributed field's Decomposition::serial when the velocity field's ghosts were
  // last exchanged for it (0: not since it was set).
  uint64_t velocity_halo_serial_ = 0;
  std::map<std::array<int64_t, 4>, double> sources_;  // (comp, i, j, k) -> rate; repeats add
  double time_ = 0.0;
  opsplit::Buffer device_params_;  // CUDA: the call's parameter block
};

namespace opsplit {
using ReactionDiffusion = opsplit_rd_s;
}
