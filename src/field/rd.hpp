// A reaction-diffusion model (diffusion only in this slice): per-component
// coefficients and boundary conditions, and the stencil; stepped on a field.
#pragma once

#include <vector>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "field/boundary.cuh"
#include "field/field.hpp"
#include "opsplit/field.h"

struct opsplit_rd_s : opsplit::Handle<opsplit::HandleKind::rd>, opsplit::ContextMember {
  opsplit_rd_s(opsplit::Context& ctx, int ncomp);

  int ncomp() const { return static_cast<int>(diffusion_.size()); }
  // Enum arguments arrive as the caller's int values and are checked here.
  void set_stencil(int stencil);
  void set_diffusion(int comp, double coefficient);
  void set_boundary(int face, int comp, int bc, double value);

  double max_stable_dt(const opsplit::Field& field) const;
  // nsteps forward-Euler steps; `function` names the caller in progress reports.
  void step(opsplit::Field& field, double dt, int64_t nsteps, const char* function);

 private:
  void check_compatible(const opsplit::Field& field) const;
  void check_periodic_pairs() const;
  template <class T>
  void run_steps(opsplit::Field& field, double dt, int64_t nsteps, const char* function);

  int points_ = 7;
  std::vector<double> diffusion_;
  std::vector<opsplit::field::FaceCondition> faces_;  // 6 per component
  opsplit::Buffer device_params_;                     // CUDA: faces then weights, per call
};

namespace opsplit {
using ReactionDiffusion = opsplit_rd_s;
}
