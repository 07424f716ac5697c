#include "field/rd.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "field/diffusion.cuh"
#include "field/launch.hpp"

namespace {

const char* kFaceNames[6] = {"XLO", "XHI", "YLO", "YHI", "ZLO", "ZHI"};
const char* kAxisNames[3] = {"x", "y", "z"};

}  // namespace

using opsplit::fail_argument;
using opsplit::num;

opsplit_rd_s::opsplit_rd_s(opsplit::Context& ctx, int ncomp) : ContextMember(ctx) {
  if (ncomp < 1) fail_argument("ncomp=" + num(ncomp) + " must be >= 1");
  diffusion_.assign(static_cast<size_t>(ncomp), 0.0);
  faces_.assign(static_cast<size_t>(ncomp) * 6, opsplit::field::FaceCondition{OPSPLIT_BC_NOFLUX, 0.0});
}

void opsplit_rd_s::set_stencil(int stencil) {
  if (stencil != OPSPLIT_STENCIL_7POINT && stencil != OPSPLIT_STENCIL_19POINT)
    fail_argument("stencil=" + num(stencil) + " is not OPSPLIT_STENCIL_7POINT (7) or 19POINT (19)");
  points_ = stencil;
}

static void check_component(int comp, int ncomp) {
  if (comp < 0 || comp >= ncomp) fail_argument("comp=" + num(comp) + " is not in [0, " + num(ncomp) + ")");
}

void opsplit_rd_s::set_diffusion(int comp, double coefficient) {
  check_component(comp, ncomp());
  if (!std::isfinite(coefficient) || coefficient < 0.0)
    fail_argument("coefficient=" + num(coefficient) + " must be finite and >= 0");
  diffusion_[static_cast<size_t>(comp)] = coefficient;
}

void opsplit_rd_s::set_boundary(int face, int comp, int bc, double value) {
  if (face < OPSPLIT_FACE_XLO || face > OPSPLIT_FACE_ZHI)
    fail_argument("face=" + num(face) + " is not in [OPSPLIT_FACE_XLO (0), OPSPLIT_FACE_ZHI (5)]");
  check_component(comp, ncomp());
  if (bc != OPSPLIT_BC_NOFLUX && bc != OPSPLIT_BC_DIRICHLET && bc != OPSPLIT_BC_PERIODIC)
    fail_argument("bc=" + num(bc) + " is not NOFLUX (0), DIRICHLET (1) or PERIODIC (2)");
  if (!std::isfinite(value)) fail_argument("value=" + num(value) + " must be finite");
  faces_[static_cast<size_t>(comp) * 6 + face] = opsplit::field::FaceCondition{bc, value};
}

void opsplit_rd_s::check_compatible(const opsplit::Field& field) const {
  if (&field.context() != &context())
    fail_argument("field and rd were made from different contexts");
  if (field.grid().ncomp != ncomp())
    fail_argument("field has ncomp=" + num(field.grid().ncomp) + " but rd has ncomp=" + num(ncomp()));
  check_periodic_pairs();
}

void opsplit_rd_s::check_periodic_pairs() const {
  for (int c = 0; c < ncomp(); ++c)
    for (int axis = 0; axis < 3; ++axis) {
      const int lo = faces_[static_cast<size_t>(c) * 6 + 2 * axis].type;
      const int hi = faces_[static_cast<size_t>(c) * 6 + 2 * axis + 1].type;
      if ((lo == OPSPLIT_BC_PERIODIC) != (hi == OPSPLIT_BC_PERIODIC))
        fail_argument(std::string("component ") + num(c) + " is PERIODIC on only one face of axis " +
                      kAxisNames[axis] + " (" + kFaceNames[2 * axis + (lo == OPSPLIT_BC_PERIODIC ? 0 : 1)] +
                      "); set it on both " + kFaceNames[2 * axis] + " and " + kFaceNames[2 * axis + 1]);
    }
}

double opsplit_rd_s::max_stable_dt(const opsplit::Field& field) const {
  check_compatible(field);
  double dmax = 0.0;
  for (double d : diffusion_) dmax = std::fmax(dmax, d);
  const auto& grid = field.grid();
  const bool active[3] = {grid.active(0), grid.active(1), grid.active(2)};
  const double radius = opsplit::field::spectral_radius(points_, field.spacing(), active);
  if (dmax == 0.0 || radius == 0.0) return std::numeric_limits<double>::infinity();
  return 2.0 / (dmax * radius);
}

void opsplit_rd_s::step(opsplit::Field& field, double dt, int64_t nsteps, const char* function) {
  if (!std::isfinite(dt) || dt <= 0.0) fail_argument("dt=" + num(dt) + " must be finite and > 0");
  if (nsteps < 0) fail_argument("nsteps=" + num(static_cast<long long>(nsteps)) + " must be >= 0");
  const double limit = max_stable_dt(field);
  if (dt > limit)
    fail_argument("dt=" + num(dt) + " exceeds the stable limit " + num(limit) + " for stencil " +
                  (points_ == 19 ? "19POINT" : "7POINT"));
  if (nsteps == 0) return;
  opsplit::with_value_type(field.precision(), [&](auto zero) { run_steps<decltype(zero)>(field, dt, nsteps, function); });
}

template <class T>
void opsplit_rd_s::run_steps(opsplit::Field& field, double dt, int64_t nsteps, const char* function) {
  using namespace opsplit::field;
  const Grid& grid = field.grid();
  const bool active[3] = {grid.active(0), grid.active(1), grid.active(2)};
  const StencilWeights spatial = stencil_weights(points_, field.spacing(), active);
  std::vector<DiffusionWeights<T>> weights(static_cast<size_t>(ncomp()));
  for (int c = 0; c < ncomp(); ++c) {
    const double s = diffusion_[static_cast<size_t>(c)] * dt;
    for (int a = 0; a < 3; ++a) {
      weights[static_cast<size_t>(c)].face[a] = static_cast<T>(s * spatial.face[a]);
      weights[static_cast<size_t>(c)].edge[a] = static_cast<T>(s * spatial.edge[a]);
    }
  }
  const FaceCondition* faces = faces_.data();
  const DiffusionWeights<T>* w = weights.data();
  opsplit::Context& ctx = context();
  opsplit::Buffer& target = field.scratch();  // allocated before any work: failure leaves the field as it was
  if (ctx.is_cuda()) {
    const size_t face_bytes = faces_.size() * sizeof(FaceCondition);
    const size_t bytes = face_bytes + weights.size() * sizeof(DiffusionWeights<T>);
    if (device_params_.bytes() < bytes) device_params_ = opsplit::Buffer(ctx, bytes);
    std::vector<unsigned char> packed(bytes);
    std::memcpy(packed.data(), faces_.data(), face_bytes);
    std::memcpy(packed.data() + face_bytes, weights.data(), bytes - face_bytes);
    ctx.device().copy_to_device(device_params_.data(), packed.data(), bytes);
    faces = device_params_.as<FaceCondition>();
    w = reinterpret_cast<const DiffusionWeights<T>*>(device_params_.as<unsigned char>() + face_bytes);
  }
  const auto& run = launchers<T>(ctx);
  // Progress is reported about 100 times per call, after waiting for the work so far.
  const int64_t report_every = nsteps >= 100 ? nsteps / 100 : 1;
  for (int64_t s = 0; s < nsteps; ++s) {
    run.fill_ghosts(ctx, field.data().as<T>(), grid, faces);
    run.diffuse(ctx, field.data().as<T>(), target.as<T>(), grid, points_, w);
    field.data().swap(target);
    if (ctx.has_progress() && ((s + 1) % report_every == 0 || s + 1 == nsteps)) {
      ctx.synchronize();
      if (ctx.report_progress(static_cast<double>(s + 1) / static_cast<double>(nsteps), function) && s + 1 < nsteps)
        opsplit::fail(OPSPLIT_ERROR_CANCELLED, "cancelled by the progress callback after " +
                                                   num(static_cast<long long>(s + 1)) + " of " +
                                                   num(static_cast<long long>(nsteps)) +
                                                   " steps; the field holds the state after step " +
                                                   num(static_cast<long long>(s + 1)));
    }
  }
}
