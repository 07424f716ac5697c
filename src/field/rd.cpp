#include "field/rd.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/hash.hpp"
#include "core/progress.hpp"
#include "field/diffusion.cuh"
#include "field/halo.hpp"
#include "field/launch.hpp"
#include "field/reduce.cuh"
#include "field/steps.hpp"

static_assert(int{opsplit::field::kNoFlux} == int{OPSPLIT_BC_NOFLUX} &&
                  int{opsplit::field::kDirichlet} == int{OPSPLIT_BC_DIRICHLET} &&
                  int{opsplit::field::kPeriodic} == int{OPSPLIT_BC_PERIODIC},
              "the kernels' face kinds are opsplit_bc's values");

namespace {

const char* kFaceNames[6] = {"XLO", "XHI", "YLO", "YHI", "ZLO", "ZHI"};
const char* kAxisNames[3] = {"x", "y", "z"};
constexpr int kPrecipitationPhase = 2;  // the component that phase-separates
// PRECIPITATION's parameters from this index on (lambda, epsilon, gamma, sigma) are
// component 2's Cahn-Hilliard m, b, u, kappa: they are kept there, not in reaction_.
constexpr int kPrecipitationPhaseParams = 2;

// The health word is read at least this often in a call: after this many passes (launched
// back to back: run_steps) and this many single steps (a key holds 24 bits of
// step counted from the last read: StepHealth::step).
constexpr size_t kMostUnreadPasses = 256;
constexpr int64_t kMostUnreadSteps = int64_t(1) << 20;

// The most steps a pass on a distributed field takes for its remote y and z faces (either
// backend's pass; a remote x face is the backend's rule), from `most` down: it reads the
// neighbour's cells k deep, so k <= n along a remote face (the neighbour's n too: every
// process takes the group's least); and a point source d cells from a remote face would
// change the neighbour's levels of our cells beyond its face (it computes those at level
// s out to k - s cells, without our sources) unless k <= d + 1.
template <class T>
int64_t remote_face_steps(const opsplit::field::Grid& grid, const opsplit::field::FaceCondition* faces,
                          const std::vector<opsplit::field::SourceTerm<T>>& sources, int64_t most) {
  using opsplit::field::kRemote;
  int64_t k = most;
  for (int a = 1; a < 3; ++a)
    if (grid.active(a) && (faces[2 * a].type == kRemote || faces[2 * a + 1].type == kRemote))
      k = std::min(k, grid.n[a]);
  for (const auto& source : sources) {
    const int64_t at[3] = {0, source.position / grid.n[0] % grid.n[1],  // PLANAR: i fastest, then j, k, c
                           source.position / (grid.n[0] * grid.n[1]) % grid.n[2]};
    for (int a = 1; a < 3; ++a) {
      if (faces[2 * a].type == kRemote) k = std::min(k, at[a] + 1);
      if (faces[2 * a + 1].type == kRemote) k = std::min(k, grid.n[a] - at[a]);
    }
  }
  return std::max<int64_t>(k, 1);
}

}  // namespace

using opsplit::fail_argument;
using opsplit::num;

double opsplit_rd_s::Velocity::at(double t) const {
  return amplitude == 0.0 ? constant : constant + amplitude * std::sin(omega * t + phase);
}

opsplit_rd_s::opsplit_rd_s(opsplit::Context& ctx, int ncomp) : ContextMember(ctx) {
  if (ncomp < 1 || ncomp > opsplit_field_s::kMaxComponents)
    fail_argument("ncomp=" + num(ncomp) + " is not in [1, " + num(opsplit_field_s::kMaxComponents) + "]");
  const size_t n = static_cast<size_t>(ncomp);
  diffusion_.assign(n, 0.0);
  faces_.assign(n * 6, opsplit::field::FaceCondition{OPSPLIT_BC_NOFLUX, 0.0});
  rate_.assign(n, 0.0);
  source_.assign(n, 0.0);
  retardation_.assign(n, 1.0);
  mobile_.assign(n, 1);
  cahn_hilliard_.assign(n, CahnHilliard{});
}

void opsplit_rd_s::set_stencil(int stencil) {
  if (stencil != OPSPLIT_STENCIL_7POINT && stencil != OPSPLIT_STENCIL_19POINT)
    fail_argument("stencil=" + num(stencil) + " is not OPSPLIT_STENCIL_7POINT (7) or 19POINT (19)");
  points_ = stencil;
}

void opsplit_rd_s::set_steps_per_pass(int steps) {
  if (steps < 1 || steps > opsplit::field::kMaxStepsPerPass)
    fail_argument("steps=" + num(steps) + " is not in [1, " + num(opsplit::field::kMaxStepsPerPass) + "]");
  steps_per_pass_ = steps;
}

static void check_component(int comp, int ncomp) {
  if (comp < 0 || comp >= ncomp) fail_argument("comp=" + num(comp) + " is not in [0, " + num(ncomp) + ")");
}

static void check_finite(const char* name, double value) {
  if (!std::isfinite(value)) fail_argument(std::string(name) + "=" + num(value) + " must be finite");
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
  check_finite("value", value);
  faces_[static_cast<size_t>(comp) * 6 + face] = opsplit::field::FaceCondition{bc, value};
}

void opsplit_rd_s::set_reaction(int kind) {
  using namespace opsplit::field;
  if (kind < 0 || kind >= kReactionKinds)
    fail_argument("kind=" + num(kind) + " is not LINEAR (0), TURING (1), GRAY_SCOTT (2) or PRECIPITATION (3)");
  const ReactionInfo& info = reaction_info(kind);
  if (ncomp() < info.components)
    fail_argument(std::string(info.name) + " needs " + num(info.components) + " components; this model has " +
                  num(ncomp()));
  if (kind_ == kPrecipitation) cahn_hilliard_[kPrecipitationPhase] = CahnHilliard{};
  kind_ = kind;
  for (int p = 0; p < kMaxReactionParams; ++p) reaction_[p] = p < info.nparams ? info.defaults[p] : 0.0;
  if (kind == kPrecipitation) {
    const double* d = info.defaults + kPrecipitationPhaseParams;
    cahn_hilliard_[kPrecipitationPhase] = CahnHilliard{d[0], d[1], d[2], d[3]};
  }
}

// Where PRECIPITATION's phase parameter p (lambda .. sigma) lives in its Cahn-Hilliard term.
template <class CH>
static auto& phase_parameter(CH& ch, int p) {
  const int q = p - kPrecipitationPhaseParams;
  return q == 0 ? ch.m : q == 1 ? ch.b : q == 2 ? ch.u : ch.kappa;
}

static int parameter_index(int kind, const char* name) {
  const opsplit::field::ReactionInfo& info = opsplit::field::reaction_info(kind);
  if (name == nullptr) fail_argument("name is NULL");
  for (int p = 0; p < info.nparams; ++p)
    if (std::strcmp(name, info.params[p]) == 0) return p;
  std::string known;
  for (int p = 0; p < info.nparams; ++p) known += std::string(p ? ", " : "") + info.params[p];
  fail_argument(std::string("\"") + name + "\" is not a parameter of the " + info.name + " reaction" +
                (info.nparams ? " (" + known + ")" : " (it has none)"));
}

void opsplit_rd_s::set_reaction_parameter(const char* name, double value) {
  const int p = parameter_index(kind_, name);
  check_finite(name, value);
  if (kind_ == opsplit::field::kPrecipitation && p >= kPrecipitationPhaseParams) {
    CahnHilliard& ch = cahn_hilliard_[kPrecipitationPhase];
    double& slot = phase_parameter(ch, p);
    if ((&slot == &ch.m || &slot == &ch.kappa) && value < 0.0)
      fail_argument(std::string(name) + "=" + num(value) + " must be >= 0");
    slot = value;
    return;
  }
  reaction_[p] = value;
}

double opsplit_rd_s::reaction_parameter(const char* name) const {
  const int p = parameter_index(kind_, name);
  if (kind_ == opsplit::field::kPrecipitation && p >= kPrecipitationPhaseParams)
    return phase_parameter(cahn_hilliard_[kPrecipitationPhase], p);
  return reaction_[p];
}

void opsplit_rd_s::set_linear(int comp, double rate, double source) {
  check_component(comp, ncomp());
  check_finite("rate", rate);
  check_finite("source", source);
  rate_[static_cast<size_t>(comp)] = rate;
  source_[static_cast<size_t>(comp)] = source;
}

void opsplit_rd_s::set_retardation(int comp, double factor) {
  check_component(comp, ncomp());
  if (!std::isfinite(factor) || factor <= 0.0) fail_argument("factor=" + num(factor) + " must be finite and > 0");
  retardation_[static_cast<size_t>(comp)] = factor;
}

void opsplit_rd_s::set_mobile(int comp, int mobile) {
  check_component(comp, ncomp());
  if (mobile != 0 && mobile != 1) fail_argument("mobile=" + num(mobile) + " is not 0 (immobile) or 1 (mobile)");
  mobile_[static_cast<size_t>(comp)] = static_cast<char>(mobile);
}

double opsplit_rd_s::transport_scale(int comp) const {
  const size_t c = static_cast<size_t>(comp);
  return mobile_[c] ? 1.0 / retardation_[c] : 0.0;
}

void opsplit_rd_s::set_cahn_hilliard(int comp, double m, double b, double u, double kappa) {
  check_component(comp, ncomp());
  check_finite("m", m);
  check_finite("b", b);
  check_finite("u", u);
  check_finite("kappa", kappa);
  if (m < 0.0) fail_argument("m=" + num(m) + " must be >= 0 (0 removes the term)");
  if (kappa < 0.0) fail_argument("kappa=" + num(kappa) + " must be >= 0");
  cahn_hilliard_[static_cast<size_t>(comp)] = CahnHilliard{m, b, u, kappa};
}

void opsplit_rd_s::set_velocity(int axis, double constant, double amplitude, double angular_frequency, double phase) {
  if (axis < 0 || axis > 2) fail_argument("axis=" + num(axis) + " is not 0 (x), 1 (y) or 2 (z)");
  check_finite("constant", constant);
  check_finite("amplitude", amplitude);
  check_finite("angular_frequency", angular_frequency);
  check_finite("phase", phase);
  velocity_[axis] = Velocity{constant, amplitude, angular_frequency, phase};
}

void opsplit_rd_s::set_velocity_field(const opsplit::Field* velocity) {
  if (velocity == nullptr) {
    velocity_field_ = opsplit::Buffer();
    velocity_ghosts_.forget();
    velocity_halo_serial_ = 0;
    for (double& m : velocity_field_max_) m = 0.0;
    return;
  }
  if (&velocity->context() != &context()) fail_argument("velocity and rd were made from different contexts");
  if (velocity->grid().ncomp != 3)
    fail_argument("velocity has ncomp=" + num(velocity->grid().ncomp) + "; a velocity field has 3 (u_x, u_y, u_z)");
  double max[3];
  for (int a = 0; a < 3; ++a) {
    double lo, hi;
    velocity->component_range(a, &lo, &hi);
    if (!std::isfinite(lo) || !std::isfinite(hi))
      fail_argument(std::string("velocity component ") + kAxisNames[a] + " holds a NaN or Inf");
    max[a] = std::fmax(std::fabs(lo), std::fabs(hi));
  }
  // A wind of the same size goes into the storage of the one before (a host that sets
  // its wind every step: at 512^3 a new 3.2 GB buffer a call cost more than the step).
  // On CUDA the copy follows the steps that read the old one on the stream.
  // If that copy fails (a CUDA error), the model is left without a wind.
  const size_t bytes = velocity->data_bytes();
  opsplit::Buffer fresh;
  if (velocity_field_.bytes() != bytes) fresh = opsplit::Buffer(context(), bytes);
  opsplit::Buffer& copy = fresh.empty() ? velocity_field_ : fresh;
  try {
    if (context().is_cuda())
      context().device().copy_on_device(copy.data(), velocity->data_pointer(), bytes);
    else
      std::memcpy(copy.data(), velocity->data_pointer(), bytes);
  } catch (...) {
    if (fresh.empty()) set_velocity_field(nullptr);
    throw;
  }
  if (!fresh.empty()) velocity_field_ = std::move(fresh);
  velocity_ghosts_.forget();
  velocity_halo_serial_ = 0;
  velocity_grid_ = velocity->grid();
  velocity_precision_ = velocity->precision();
  for (int a = 0; a < 3; ++a) velocity_field_max_[a] = max[a];
}

void opsplit_rd_s::add_source(int comp, int64_t i, int64_t j, int64_t k, double rate) {
  check_component(comp, ncomp());
  if (i < 0 || j < 0 || k < 0)
    fail_argument("cell (" + num(static_cast<long long>(i)) + ", " + num(static_cast<long long>(j)) + ", " +
                  num(static_cast<long long>(k)) + ") has a negative index");
  check_finite("rate", rate);
  sources_[{comp, i, j, k}] += rate;
}

void opsplit_rd_s::set_time(double t) {
  check_finite("t", t);
  time_ = t;
}

bool opsplit_rd_s::advects() const {
  for (const Velocity& v : velocity_)
    if (v.constant != 0.0 || v.amplitude != 0.0) return true;
  return !velocity_field_.empty();
}

void opsplit_rd_s::check_compatible(const opsplit::Field& field) const {
  if (&field.context() != &context()) fail_argument("field and rd were made from different contexts");
  if (field.grid().ncomp != ncomp())
    fail_argument("field has ncomp=" + num(field.grid().ncomp) + " but rd has ncomp=" + num(ncomp()));
  check_periodic_pairs();
  if (!velocity_field_.empty()) {
    const auto& g = field.grid();
    if (velocity_grid_.n[0] != g.n[0] || velocity_grid_.n[1] != g.n[1] || velocity_grid_.n[2] != g.n[2])
      fail_argument("the velocity field is " + num(static_cast<long long>(velocity_grid_.n[0])) + "x" +
                    num(static_cast<long long>(velocity_grid_.n[1])) + "x" +
                    num(static_cast<long long>(velocity_grid_.n[2])) + " cells but field is " +
                    num(static_cast<long long>(g.n[0])) + "x" + num(static_cast<long long>(g.n[1])) + "x" +
                    num(static_cast<long long>(g.n[2])));
    if (velocity_precision_ != field.precision())
      fail_argument("the velocity field and field have different precisions");
  }
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

void opsplit_rd_s::check_sources(const opsplit::Field& field) const {
  const auto& n = field.grid().n;
  for (const auto& [cell, rate] : sources_)
    if (cell[1] >= n[0] || cell[2] >= n[1] || cell[3] >= n[2])
      fail_argument("the source in component " + num(static_cast<int>(cell[0])) + " at cell (" +
                    num(static_cast<long long>(cell[1])) + ", " + num(static_cast<long long>(cell[2])) + ", " +
                    num(static_cast<long long>(cell[3])) + ") is outside the field's " +
                    num(static_cast<long long>(n[0])) + "x" + num(static_cast<long long>(n[1])) + "x" +
                    num(static_cast<long long>(n[2])) + " cells");
}

// Forward Euler is stable for each component when dt * rate <= 1 with
//   rate = s (D rho/2 + sum_a max|u_a| / h_a) + m rho (K rho + 2|b|) / 2,
// s the component's transport scale (1/R, 0 when immobile),
// rho the stencil's spectral radius (diffusion.cuh). Without advection and
// Cahn-Hilliard this is the exact limit 2/(D rho) of diffusion; D rho/2 + sum |u|/h
// is the positivity bound of upwind advection-diffusion (for the 7-point stencil);
// the Cahn-Hilliard term linearised about phi has eigenvalues m s (-(b - 3u phi^2) - K s)
// for stencil eigenvalues s in [-rho, 0], bounded for |phi|^2 <= b/u (the separated
// phases) by m rho (K rho + 2|b|). Reaction terms are not included: their stiffness is
// the caller's to bound (a blow-up is caught by the step's finiteness check).
double opsplit_rd_s::max_stable_dt(const opsplit::Field& field) const {
  check_compatible(field);
  const auto& grid = field.grid();
  const bool active[3] = {grid.active(0), grid.active(1), grid.active(2)};
  const double rho = opsplit::field::spectral_radius(points_, field.spacing(), active);
  double advection = 0.0;
  for (int a = 0; a < 3; ++a)
    if (active[a])
      advection += (std::fabs(velocity_[a].constant) + std::fabs(velocity_[a].amplitude) + velocity_field_max_[a]) /
                   field.spacing()[a];
  double worst = 0.0;
  for (int c = 0; c < ncomp(); ++c) {
    const CahnHilliard& ch = cahn_hilliard_[static_cast<size_t>(c)];
    const double rate = transport_scale(c) * (diffusion_[static_cast<size_t>(c)] * rho / 2 + advection) +
                        ch.m * rho * (ch.kappa * rho + 2 * std::fabs(ch.b)) / 2;
    worst = std::fmax(worst, rate);
  }
  return worst == 0.0 ? std::numeric_limits<double>::infinity() : 1.0 / worst;
}

// A distributed field: what its exchange supports, and the model's periodic axes those
// the decomposition wraps.
void opsplit_rd_s::check_distributed(const opsplit::Field& field) const {
  const auto* d = field.decomposition();
  for (int axis = 0; axis < 3; ++axis) {
    if (d->place.dims[axis] < 2) continue;
    for (int c = 0; c < ncomp(); ++c) {
      const bool periodic = faces_[static_cast<size_t>(6 * c + 2 * axis)].type == OPSPLIT_BC_PERIODIC;
      if (periodic != (d->place.periodic[axis] != 0))
        fail_argument(std::string("axis ") + kAxisNames[axis] + " is split over " + num(d->place.dims[axis]) +
                      " processes and is " + (d->place.periodic[axis] ? "" : "not ") +
                      "periodic in the decomposition, but component " + num(c) + "'s " + kFaceNames[2 * axis] +
                      " face is " + (periodic ? "" : "not ") + "PERIODIC: make them agree");
    }
  }
}

// Besides dt and nsteps, what decides the count and the sizes of a step's messages: the
// number of Cahn-Hilliard terms (their potential is exchanged too) and whether there is
// a velocity field (exchanged once after it is set).
void opsplit_rd_s::settle_step(opsplit::Field& field, std::exception_ptr local, double dt, int64_t nsteps,
                               const char* function, const opsplit_rd_s* rd) {
  int64_t potentials = 0, wind = 0;
  if (rd != nullptr) {
    for (const CahnHilliard& ch : rd->cahn_hilliard_) potentials += ch.m > 0.0;
    wind = !rd->velocity_field_.empty();
  }
  field.decomposition()->group.settle(local, function, {opsplit::bits_of(dt), nsteps, potentials, wind},
                                      "dt, nsteps, Cahn-Hilliard terms and velocity field");
}

// `faces` (6 a component: the model's, its potentials', its wind's) as a step on `field`
// uses them: the faces that border another process marked kRemote (their ghosts come
// from the exchange).
std::vector<opsplit::field::FaceCondition> opsplit_rd_s::faces_for(const opsplit::Field& field,
                                                                   std::vector<opsplit::field::FaceCondition> faces) {
  if (const auto* d = field.decomposition())
    for (size_t i = 0; i < faces.size(); ++i)
      if (d->remote[i % 6]) faces[i] = opsplit::field::FaceCondition{opsplit::field::kRemote, 0.0};
  return faces;
}

void opsplit_rd_s::step(opsplit::Field& field, double dt, int64_t nsteps, const char* function) {
  auto* d = field.decomposition();
  if (d == nullptr) {
    check_step(field, dt, nsteps);
  } else {
    // The step's own storage too: a process short of memory fails them all here.
    settle_step(field,
                opsplit::attempt([&] {
                  check_step(field, dt, nsteps);
                  check_distributed(field);
                  if (nsteps > 0) field.scratch(), potential_storage(field);
                }),
                dt, nsteps, function, this);
  }
  if (nsteps == 0) return;
  opsplit::with_value_type(field.precision(), [&](auto zero) { run_steps<decltype(zero)>(field, dt, nsteps, function); });
}

void opsplit_rd_s::check_step(const opsplit::Field& field, double dt, int64_t nsteps) const {
  if (!std::isfinite(dt) || dt <= 0.0) fail_argument("dt=" + num(dt) + " must be finite and > 0");
  if (nsteps < 0) fail_argument("nsteps=" + num(static_cast<long long>(nsteps)) + " must be >= 0");
  const double limit = max_stable_dt(field);
  if (dt > limit)
    fail_argument("dt=" + num(dt) + " exceeds the stable limit " + num(limit) + " for stencil " +
                  (points_ == 19 ? "19POINT" : "7POINT") + (advects() ? " with this velocity" : ""));
  check_sources(field);
  if (field.grid().stride[2] >= (int64_t(1) << 31))
    opsplit::fail(OPSPLIT_ERROR_UNSUPPORTED, "a plane of " + num(static_cast<long long>(field.grid().stride[2])) +
                                                 " stored values (nx*ny with padding) is 2^31 or more; "
                                                 "the stepping kernels index neighbours with 32-bit offsets");
}

opsplit::Buffer& opsplit_rd_s::potential_storage(opsplit::Field& field) const {
  int64_t nslots = 0;
  for (const CahnHilliard& ch : cahn_hilliard_) nslots += ch.m > 0.0;
  return field.auxiliary(static_cast<size_t>(nslots * field.grid().comp_stride) * field.value_size());
}

opsplit::field::FaceCondition opsplit_rd_s::potential_face(int c, int face) const {
  opsplit::field::FaceCondition f = faces_[static_cast<size_t>(c) * 6 + face];
  if (f.type == OPSPLIT_BC_DIRICHLET) {  // the potential of the face value, without curvature
    const CahnHilliard& ch = cahn_hilliard_[static_cast<size_t>(c)];
    f.value = (ch.u * f.value * f.value - ch.b) * f.value;
  }
  return f;
}

template <class T>
opsplit::field::StepPlan<T> opsplit_rd_s::plan_steps(const opsplit::Field& field, double dt) const {
  using namespace opsplit::field;
  const Grid& grid = field.grid();
  const double* h = field.spacing();
  const bool active[3] = {grid.active(0), grid.active(1), grid.active(2)};
  const StencilWeights spatial = stencil_weights(points_, h, active);
  auto scaled = [&](double s) {
    DiffusionWeights<T> w;
    for (int a = 0; a < 3; ++a) w.face[a] = static_cast<T>(s * spatial.face[a]), w.edge[a] = static_cast<T>(s * spatial.edge[a]);
    return w;
  };
  StepPlan<T> plan;
  // Per-component terms, the Cahn-Hilliard slots and their ghost conditions.
  for (int c = 0; c < ncomp(); ++c) {
    const size_t ci = static_cast<size_t>(c);
    const CahnHilliard& ch = cahn_hilliard_[ci];
    ComponentTerms<T> t{};
    t.transport = static_cast<T>(transport_scale(c));
    t.diffusion = scaled(diffusion_[ci] * transport_scale(c) * dt);
    t.diffuses = diffusion_[ci] * transport_scale(c) != 0.0;
    plan.weights.push_back(t.diffusion);
    t.rate_dt = static_cast<T>(rate_[ci] * dt);
    t.source_dt = static_cast<T>(source_[ci] * dt);
    t.linear = t.rate_dt != T(0) || t.source_dt != T(0);
    plan.linear_terms = plan.linear_terms || t.linear;
    t.mu_slot = -1;
    if (ch.m > 0.0) {
      t.mu_slot = plan.nslots();
      t.potential = scaled(ch.m * dt);
      plan.slots.push_back(PotentialTerms<T>{scaled(ch.kappa), static_cast<T>(ch.b), static_cast<T>(ch.u), c});
      for (int f = 0; f < 6; ++f) plan.slot_faces.push_back(potential_face(c, f));
    }
    plan.terms.push_back(t);
  }
  plan.pure_diffusion = kind_ == kLinear && !plan.linear_terms && plan.nslots() == 0 && !advects();

  // Sources, one per cell, and the axes they touch a face of.
  for (const auto& [cell, rate] : sources_) {
    const SourceTerm<T> term{grid.index(static_cast<int>(cell[0]), cell[1], cell[2], cell[3]),
                             planar_position(grid.n, static_cast<int>(cell[0]), cell[1], cell[2], cell[3]),
                             static_cast<T>(rate * dt)};
    plan.sources.push_back(term);
    for (int a = 0; a < 3; ++a)
      if (cell[1 + a] == 0 || cell[1 + a] == grid.n[a] - 1) plan.source_axes |= 1u << a;
  }
  // In order of position: a pass that fuses steps finds a row's sources by search.
  std::sort(plan.sources.begin(), plan.sources.end(),
            [](const SourceTerm<T>& a, const SourceTerm<T>& b) { return a.position < b.position; });
  // The velocity field's ghosts follow component 0's faces (periodic stays periodic,
  // anything else mirrors: zero-gradient wind). Beyond a face that borders another
  // process: that process's values, mu's and the wind's too (exchanged inside the step,
  // and after the wind is set).
  for (int velocity_comp = 0; velocity_comp < 3; ++velocity_comp)
    for (int f = 0; f < 6; ++f)
      plan.velocity_faces.push_back(
          FaceCondition{faces_[f].type == OPSPLIT_BC_PERIODIC ? OPSPLIT_BC_PERIODIC : OPSPLIT_BC_NOFLUX, 0.0});
  plan.slot_faces = faces_for(field, std::move(plan.slot_faces));
  plan.velocity_faces = faces_for(field, std::move(plan.velocity_faces));
  plan.step_faces = faces_for(field, faces_);
  // A distributed step computes its interior while the halo travels (halo.hpp; on the
  // CPU, where MPI's exchange blocks, in turn, by the same code): each view's faces are
  // the step's, its cuts read from memory.
  const auto* decomposition = field.decomposition();
  if (decomposition != nullptr && opsplit::halo_overlap_allowed())
    plan.views = overlap_views(grid, decomposition->remote);
  for (const GridView& v : plan.views) {
    for (size_t i = 0; i < plan.step_faces.size(); ++i)
      plan.view_faces.push_back(v.cut[i % 6] ? FaceCondition{kRemote, 0.0} : plan.step_faces[i]);
    for (size_t i = 0; i < plan.slot_faces.size(); ++i)
      plan.view_slot_faces.push_back(v.cut[i % 6] ? FaceCondition{kRemote, 0.0} : plan.slot_faces[i]);
  }

  StepTerms<T>& st = plan.step;
  st.dt = static_cast<T>(dt);
  for (int p = 0; p < kMaxReactionParams; ++p) st.reaction[p] = static_cast<T>(reaction_[p]);
  st.ncomp = ncomp();
  st.advect = advects();
  st.velocity_field = !velocity_field_.empty();
  for (int a = 0; a < 3; ++a) st.dt_over_h[a] = active[a] ? static_cast<T>(dt / h[a]) : T(0);
  return plan;
}

// The velocity field's ghosts: they change only with the faces (filled when they do) and
// with the neighbours' winds (exchanged when `exchange`: a process set its wind since
// the field last exchanged it).
template <class T>
void opsplit_rd_s::refresh_wind_ghosts(opsplit::Field& field, const opsplit::field::FaceCondition* faces,
                                       const std::vector<opsplit::field::FaceCondition>& faces_host, bool exchange) {
  using namespace opsplit::field;
  opsplit::Context& ctx = context();
  const auto& run = launchers<T>(ctx);
  auto* decomposition = field.decomposition();
  T* velocity = velocity_field_.as<T>();
  Input<T> wind{velocity, faces, faces_host.data(), velocity_ghosts_.take(faces_host)};
  fill_missing_ghosts(ctx, wind, velocity_grid_, kAllAxes, run.fill_ghosts);
  velocity_ghosts_.record(faces_host, kAllAxes);
  if (decomposition == nullptr) velocity_halo_serial_ = 0;  // the fill wrote every face
  if (!exchange) return;
  // The step reads u_a's ghosts along axis a only (face_courants): one component a
  // remote axis, through the field's slabs.
  Grid one = velocity_grid_;
  one.ncomp = 1;
  for (int a = 0; a < 3; ++a) {
    if (!decomposition->remote[2 * a] && !decomposition->remote[2 * a + 1]) continue;
    HaloExchange<T> halo(ctx, *decomposition, velocity + a * velocity_grid_.comp_stride, one, run);
    halo.exchange(a);
  }
  velocity_halo_serial_ = decomposition->serial;
}

template <class T>
void opsplit_rd_s::run_steps(opsplit::Field& field, double dt, int64_t nsteps, const char* function) {
  using namespace opsplit::field;
  opsplit::Context& ctx = context();
  const Grid& grid = field.grid();
  auto* decomposition = field.decomposition();
  StepPlan<T> plan = plan_steps<T>(field, dt);
  // Everything that can fail for want of memory comes before the first step.
  opsplit::Buffer& target = field.scratch();
  T* mu = plan.nslots() > 0 ? potential_storage(field).template as<T>() : nullptr;
  const typename StepPlan<T>::OnBackend placed = plan.place(ctx, device_params_);
  const bool with_velocity_field = !velocity_field_.empty();
  T* velocity = with_velocity_field ? velocity_field_.as<T>() : nullptr;

  // Progress is reported about 100 times per call, after waiting for the work so far
  // (core/progress.hpp). A distributed field's processes exchange the velocity field's
  // ghosts if any set it since it last did.
  const opsplit::Progress progress(ctx, decomposition ? &decomposition->group : nullptr, function);
  int64_t wind_due = decomposition != nullptr && with_velocity_field && velocity_halo_serial_ != decomposition->serial;
  if (decomposition) decomposition->group.allmax(&wind_due, 1);
  if (with_velocity_field) refresh_wind_ghosts<T>(field, placed.velocity_faces, plan.velocity_faces, wind_due != 0);

  const auto& run = launchers<T>(ctx);
  const double t0 = time_;
  StepHealth health_check(ctx, field, target, placed.first_bad, time_, dt, nsteps, function);
  StepSweep<T> sweep(ctx, field, target, plan, placed, run, points_, kind_, mu, velocity);
  // The axes whose ghosts in the field are already those of its values under the step's
  // faces: at first those the call before left (take), then those a step wrote
  // (Launchers::diffuse and update), unless a source then changed a cell on one of
  // their faces.
  unsigned ghosts_valid = field.ghost_record().take(plan.step_faces);
  // Every step checked at once on one process's CPU; elsewhere at each report and the end.
  const bool check_every_step = !ctx.is_cuda() && !decomposition;
  int64_t swaps = 0;  // of the field's two buffers, in this call
  auto one_step = [&](int64_t n) {
    const Health health{placed.first_bad, health_check.step(n)};
    if (!plan.pure_diffusion) set_courant(plan.step, field, t0 + static_cast<double>(n) * dt, dt);
    Input<T> in{field.data().as<T>(), placed.faces, plan.step_faces.data(), ghosts_valid};
    const unsigned written = sweep.step(in, health);
    run.add_sources(ctx, target.as<T>(), grid, placed.sources, static_cast<int64_t>(plan.sources.size()), health);
    // On a distributed field this counts an axis valid with its remote ghosts stale (the
    // CPU loops skip them): right only because every distributed step exchanges them and
    // the record's faces, which say kRemote there, match no undistributed step.
    ghosts_valid = written & ~plan.source_axes;
    field.data().swap(target);
    ++swaps;
    if (check_every_step) health_check.check(n + 1);
  };
  // Passes of several steps. A model's pass takes each of its steps' StepTerms
  // (set_courant); the plan's until then (what fuses may depend on whether the model
  // advects).
  std::vector<StepTerms<T>> pass_steps(plan.pure_diffusion ? 0 : kMaxStepsPerPass, plan.step);
  const PassTerms<T> pass_terms{placed.weights,    plan.pure_diffusion ? -1 : kind_,
                                placed.terms,      pass_steps.data(),
                                placed.sources,    static_cast<int64_t>(plan.sources.size()),
                                decomposition != nullptr ? &decomposition->group : nullptr,
                                decomposition != nullptr ? &decomposition->exchange : nullptr,
                                velocity,          plan.linear_terms};
  const int fuse = static_cast<int>(std::min<int64_t>(fused_steps_per_pass(field, plan, run, pass_terms), nsteps));
  opsplit::Buffer pass_scratch;
  const int64_t scratch_values =
      fuse > 1 ? run.steps_scratch_values(ctx, grid, plan.step_faces.data(), pass_terms, fuse) : 0;
  auto allocate = [&] {
    if (scratch_values > 0) pass_scratch = opsplit::Buffer(ctx, static_cast<size_t>(scratch_values) * sizeof(T));
  };
  if (decomposition != nullptr)  // a process short of memory fails them all, before any swaps
    decomposition->group.settle(opsplit::attempt(allocate), function);
  else
    allocate();
  steps_per_pass_taken_ = fuse;
  // The passes launched since the health word was last read: each one's first step, its
  // steps, the swaps of the field's buffers before it and the ghosts valid in its input.
  // A launch after a failed one does nothing (failed_before) but swap, so the word is
  // read once after a run of passes (at most kMostUnreadPasses), before a single step or
  // the chunk's end: read after every pass, the host's wait for it left the GPU idle
  // between passes (about 2 % of a 4-step pass at 512^3). A distributed field's
  // processes read it after every pass: the others' passes after a failed one were not
  // idle.
  struct Pass {
    int64_t first;
    int steps;
    int64_t swaps_before;
    unsigned ghosts_valid;
  };
  std::vector<Pass> unread;
  unread.reserve(kMostUnreadPasses);
  auto launch_pass = [&](int64_t n, int k) {
    for (int s = 0; s < static_cast<int>(pass_steps.size()) && s < k; ++s) {
      pass_steps[static_cast<size_t>(s)] = plan.step;
      set_courant(pass_steps[static_cast<size_t>(s)], field, t0 + static_cast<double>(n + s) * dt, dt);
    }
    unread.push_back(Pass{n, k, swaps, ghosts_valid});
    Input<T> in{field.data().as<T>(), placed.faces, plan.step_faces.data(), ghosts_valid};
    ghosts_valid = run.steps_pass(ctx, in, target.as<T>(), pass_scratch.as<T>(), grid, points_, pass_terms, k,
                                  Health{placed.first_bad, health_check.step(n)});
    field.data().swap(target);
    ++swaps;
  };
  // Reads the word after the unread passes. When one of them found a bad value: the field
  // holds its input again (its ghosts as valid as they were; the other buffer its output)
  // and the word is clear, and that pass is returned. (No single step runs while passes
  // are unread, so a failure is a pass's.)
  auto failed_pass = [&]() -> std::optional<Pass> {
    if (unread.empty()) return std::nullopt;
    const int64_t failed = health_check.clear_failure(unread.back().first, unread.back().first + unread.back().steps);
    std::optional<Pass> found;
    for (const Pass& pass : unread)
      if (pass.first <= failed && failed < pass.first + pass.steps) found = pass;
    unread.clear();
    if (failed >= 0 && !found)
      opsplit::fail(OPSPLIT_ERROR_INTERNAL, "the health word names step " + num(static_cast<long long>(failed)) +
                                                ", which none of the passes read took");
    if (!found) return std::nullopt;
    if ((swaps - found->swaps_before) % 2 != 0) {
      field.data().swap(target);
      ++swaps;
    }
    ghosts_valid = found->ghosts_valid;
    return found;
  };
  auto work = [&](int64_t begin, int64_t end) {
    for (int64_t n = begin; n < end;) {
      const int k = static_cast<int>(std::min<int64_t>(fuse, end - n));
      if (k < 2) {
        // (A key holds 24 bits of step from the last read: StepHealth::step.)
        if (health_check.steps_unread(n) >= kMostUnreadSteps) health_check.check(n);
        one_step(n++);
        continue;
      }
      launch_pass(n, k);
      n += k;
      if (decomposition == nullptr && end - n >= 2 && unread.size() < kMostUnreadPasses)
        continue;  // (the next launch is a pass)
      if (const std::optional<Pass> pass = failed_pass()) {
        // Its steps one at a time, which fail again: reported before the next pass, whose
        // first read of the word would take their failure for its own. (The passes after
        // it did nothing: they run again.)
        for (n = pass->first; n < pass->first + pass->steps; ++n) one_step(n);
        health_check.check(n);
      }
    }
    return end;
  };
  auto finish = [&](int64_t done) {
    if (!check_every_step) health_check.check(done);
    ctx.synchronize();
    time_ = t0 + static_cast<double>(done) * dt;
  };
  progress.run(nsteps, 100, work, finish, [&](int64_t done) {
    return "after " + num(static_cast<long long>(done)) + " of " + num(static_cast<long long>(nsteps)) +
           " steps; the field holds the state after step " + num(static_cast<long long>(done));
  });
  health_check.check(nsteps);
  time_ = t0 + static_cast<double>(nsteps) * dt;
  field.ghost_record().record(plan.step_faces, ghosts_valid);
}

// How many steps a pass through memory takes in this call: the rd's steps per pass where
// the backend fuses this call's steps (`terms`: pure diffusion, or a model without
// Cahn-Hilliard terms; with a per-cell wind on one process: a distributed pass does not
// swap the wind's cells; ghosts one cell wide), else 1. A distributed field's processes
// take the least of theirs (each pass swaps its halo with the neighbours: they pass
// together).
template <class T>
int opsplit_rd_s::fused_steps_per_pass(const opsplit::Field& field, const opsplit::field::StepPlan<T>& plan,
                                       const opsplit::field::Launchers<T>& run,
                                       const opsplit::field::PassTerms<T>& terms) const {
  using namespace opsplit::field;
  const Grid& grid = field.grid();
  bool one_wide = true;
  for (int a = 0; a < 3; ++a) one_wide = one_wide && (!grid.active(a) || grid.g[a] == 1);
  const bool model_fuses = plan.nslots() == 0 && (velocity_field_.empty() || field.decomposition() == nullptr);
  int64_t steps = 1;
  if ((plan.pure_diffusion || model_fuses) && one_wide)
    steps = std::max(1, std::min(steps_per_pass_,
                                 run.max_steps_per_pass(context(), grid, plan.step_faces.data(), points_, terms)));
  if (const auto* d = field.decomposition()) {
    steps = remote_face_steps(grid, plan.step_faces.data(), plan.sources, steps);
    // The group's least, as the all-max of the negated; and one step a pass unless every
    // process steps the same model (each may have its own parameters: a process computes
    // its neighbours' cells near their shared faces inside a pass, with its own).
    const uint64_t digest = model_digest(field);
    int64_t words[3] = {-steps, static_cast<int64_t>(digest), static_cast<int64_t>(~digest)};
    d->group.allmax(words, 3);
    const bool same_model = static_cast<uint64_t>(words[1]) == ~static_cast<uint64_t>(words[2]);
    steps = same_model ? -words[0] : 1;
  }
  return static_cast<int>(steps);
}

// What a step's update of a cell depends on besides its values (FNV-1a of the model's
// parameters, the spacing and the faces of the axes no process boundary splits; a split
// axis's faces are the group's outer ones, which a neighbour's pass does not read), and
// the backend: the CPU's and CUDA's passes swap different messages.
uint64_t opsplit_rd_s::model_digest(const opsplit::Field& field) const {
  opsplit::Fnv1a h;
  auto add = [&h](uint64_t word) { h.add(word); };
  auto add_all = [&](const auto& values) {
    for (const auto& v : values) add(opsplit::bits_of(static_cast<double>(v)));
  };
  add(static_cast<uint64_t>(context().is_cuda()));
  add(static_cast<uint64_t>(points_)), add(static_cast<uint64_t>(kind_));
  add_all(reaction_), add_all(diffusion_), add_all(rate_), add_all(source_), add_all(retardation_), add_all(mobile_);
  for (const Velocity& v : velocity_) add_all(std::array<double, 4>{v.constant, v.amplitude, v.omega, v.phase});
  for (int a = 0; a < 3; ++a) add(opsplit::bits_of(field.spacing()[a]));
  const auto* d = field.decomposition();
  for (size_t f = 0; f < faces_.size(); ++f) {
    if (d->place.dims[f % 6 / 2] > 1) continue;
    add(static_cast<uint64_t>(faces_[f].type)), add(opsplit::bits_of(faces_[f].value));
  }
  return h.value;
}

// The Courant numbers of a step that starts at t (the wind then).
template <class T>
void opsplit_rd_s::set_courant(opsplit::field::StepTerms<T>& st, const opsplit::Field& field, double t,
                               double dt) const {
  const double* h = field.spacing();
  for (int a = 0; a < 3; ++a) {
    st.courant[a] = field.grid().active(a) ? static_cast<T>(velocity_[a].at(t) * dt / h[a]) : T(0);
    st.upwind[a][0] = st.courant[a] > T(0) ? st.courant[a] : T(0);
    st.upwind[a][1] = st.courant[a] < T(0) ? -st.courant[a] : T(0);
  }
}

double opsplit_rd_s::free_energy(opsplit::Field& field, int comp) {
  check_compatible(field);
  if (field.decomposition() != nullptr)
    opsplit::fail(OPSPLIT_ERROR_UNSUPPORTED, "the free energy of a distributed field is not supported yet");
  check_component(comp, ncomp());
  if (cahn_hilliard_[static_cast<size_t>(comp)].m == 0.0)
    fail_argument("component " + num(comp) + " has no Cahn-Hilliard term (opsplit_rd_set_cahn_hilliard)");
  return opsplit::with_value_type(field.precision(), [&](auto zero) { return energy<decltype(zero)>(field, comp); });
}

template <class T>
double opsplit_rd_s::energy(opsplit::Field& field, int comp) {
  using namespace opsplit::field;
  const Grid& grid = field.grid();
  const bool active[3] = {grid.active(0), grid.active(1), grid.active(2)};
  const StencilWeights spatial = stencil_weights(points_, field.spacing(), active);
  const CahnHilliard& ch = cahn_hilliard_[static_cast<size_t>(comp)];
  PotentialTerms<double> p{};
  for (int a = 0; a < 3; ++a) p.kappa.face[a] = ch.kappa * spatial.face[a], p.kappa.edge[a] = ch.kappa * spatial.edge[a];
  p.b = ch.b, p.u = ch.u, p.comp = comp;
  double volume = 1.0;
  for (int a = 0; a < 3; ++a)
    if (active[a]) volume *= field.spacing()[a];
  // The ghosts carry the boundary conditions of the Laplacian (they are not state).
  ParamBlock block;
  block.add(faces_);
  opsplit::Context& ctx = context();
  const auto* faces = reinterpret_cast<const FaceCondition*>(block.place(ctx, device_params_));
  const auto& run = launchers<T>(ctx);
  Input<T> in{field.data().as<T>(), faces, faces_.data(), field.ghost_record().take(faces_)};
  fill_missing_ghosts(ctx, in, grid, kAllAxes, run.fill_ghosts);  // after a step on the CPU: none
  field.ghost_record().record(faces_, kAllAxes);
  return pairwise_total(run.row_energy(ctx, field.data().as<T>(), grid, comp, points_, p, volume));
}
