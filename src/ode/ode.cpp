#include "ode/ode.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "core/device_array.hpp"
#include "core/progress.hpp"
#include "ode/integrators.cuh"
#include "ode/launch.hpp"
#include "ode/rhs.cuh"

using namespace opsplit;

namespace {

// A mechanism's Rosenbrock matrices are on its sparse pattern; a dense system (a callback,
// a reactor) keeps two neq x neq of them per thread: 268 MB each at 4096 equations.
constexpr int kMaxEquations = 4096;
constexpr int kMaxParams = chem::kMaxSystemParameters;
constexpr int64_t kMaxValues = int64_t(1) << 37;  // 1 TiB of doubles: far past any device

const char* result_name(int r) {
  switch (r) {
    case ode::kOk:
      return "OK";
    case ode::kTooManySteps:
      return "TOO_MANY_STEPS";
    case ode::kStepTooSmall:
      return "STEP_TOO_SMALL";
    case ode::kNonfinite:
      return "NONFINITE";
    default:
      return "RHS_FAILED";
  }
}

// A host callback as the integrators' right-hand side: one system at a time, at its
// own time, with its parameters.
struct CallbackRhs {
  opsplit_ode_rhs_fn fn;
  opsplit_ode_jacobian_fn jac;
  void* user;
  const double* params;
  int n;
  bool finite_difference;
  int f(double t, const double* y, double* ydot) const { return fn(1, &t, y, ydot, params, user); }
  int jacobian(double t, const double* y, double* j) const { return jac(1, &t, y, j, params, user); }
  bool has_jacobian() const { return jac != nullptr && !finite_difference; }
  bool autonomous() const { return false; }
};

// The CPU's integration: the systems in chunks between progress reports, a thread a
// system. Each system is read and written by one thread only, so states change in
// place: a failed system is never written.
void integrate_cpu(Context& ctx, const ode::Batch& b, double t0, double t1, const opsplit::Progress& progress) {
  const int n = b.neq;
  const int64_t nsys = b.nsys;
  const bool mass_action = !b.gas && b.callback.rhs == nullptr;
  const int nr = mass_action ? b.nreactions : 0;
  // A mechanism's matrices on its sparse pattern; a reactor's and a callback's dense.
  const int64_t matrix_values = mass_action ? b.mechanism.lu.nnz : ode::dense_matrix_values(n);
  ode::Settings settings;
  settings.rtol = b.rtol;
  settings.atol = b.atol;
  settings.max_steps = b.max_steps;
  settings.clip_negative = b.clip_negative;
  // Chunks between progress reports (the callback runs on this thread only).
  auto work = [&](int64_t begin, int64_t end) {
#pragma omp parallel num_threads(ctx.threads())
    {
      std::vector<double> y(static_cast<size_t>(n)), p(static_cast<size_t>(std::max(b.nparam, 1))),
          k(static_cast<size_t>(std::max(nr, 1))), work(static_cast<size_t>(ode::workspace_size(n, matrix_values)));
      std::vector<int> piv(static_cast<size_t>(n));
      std::vector<double> scratch(b.gas ? static_cast<size_t>(chem::reactor_scratch_size(b.gas_kinetics.nspecies)) : 0);
#pragma omp for schedule(dynamic, 16)
      for (int64_t s = begin; s < end; ++s) {
        for (int e = 0; e < n; ++e) y[static_cast<size_t>(e)] = b.state[e * nsys + s];
        for (int q = 0; q < b.nparam; ++q) p[static_cast<size_t>(q)] = b.params[q * nsys + s];
        const double h = b.keep_step && b.h_next[s] > 0.0 ? b.h_next[s] : b.h0;
        ode::Counts c;
        ode::Outcome out;
        if (mass_action) {
          chem::rate_constants(b.mechanism, p.data(), k.data());
          if (b.mechanism.nfactors == 0) {
            ode::MassActionRhs rhs{&b.mechanism, k.data(), n};
            out = ode::integrate_system(b.method, rhs, t0, t1, y.data(), h, settings, work.data(), piv.data(), c);
          } else {
            ode::FactoredMassActionRhs rhs{&b.mechanism, k.data(), n};
            out = ode::integrate_system(b.method, rhs, t0, t1, y.data(), h, settings, work.data(), piv.data(), c);
          }
        } else if (b.gas) {
          ode::GasReactorRhs rhs{&b.gas_kinetics, b.reactor_kind, p.data(), scratch.data(), n, b.analytic_jacobian};
          out = ode::integrate_system(b.method, rhs, t0, t1, y.data(), h, settings, work.data(), piv.data(), c);
        } else {
          CallbackRhs rhs{b.callback.rhs, b.callback.jacobian, b.callback.user, p.data(), n, !b.analytic_jacobian};
          out = ode::integrate_system(b.method, rhs, t0, t1, y.data(), h, settings, work.data(), piv.data(), c);
        }
        b.result[s] = out.result;
        b.counts[s] = c.accepted;
        b.counts[nsys + s] = c.rejected;
        b.counts[2 * nsys + s] = c.rhs;
        b.counts[3 * nsys + s] = c.jacobian;
        if (out.result == ode::kOk) {
          for (int e = 0; e < n; ++e) b.state[e * nsys + s] = y[static_cast<size_t>(e)];
          b.h_next[s] = out.h_next;
        }
      }
    }
    return end;
  };
  progress.run(nsys, 20, work, [](int64_t) {}, ode::systems_done(nsys));
}

void check_reactor_cpu(int) {}

void transpose_cpu(const Context&, const double* from, int64_t rows, int64_t cols, double* to) {
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) to[c * rows + r] = from[r * cols + c];
}

void count_failures_cpu(const Context&, const int* result, int64_t nsys, int64_t* summary) {
  summary[0] = 0, summary[1] = -1;
  for (int64_t s = 0; s < nsys; ++s)
    if (result[s] != ode::kOk) {
      if (summary[1] < 0) summary[1] = s;
      ++summary[0];
    }
}

}  // namespace

const ode::Launchers& ode::cpu_launchers() {
  static const Launchers table{integrate_cpu, check_reactor_cpu, true, transpose_cpu, count_failures_cpu};
  return table;
}

opsplit_ode_s::opsplit_ode_s(Context& ctx, int neq, int64_t nsys, int nparam)
    : ContextMember(ctx), run_(ode::launchers(ctx)), neq_(neq), nsys_(nsys), nparam_(nparam) {
  if (neq < 1 || neq > kMaxEquations) fail_argument("neq=" + num(neq) + " is not in [1, " + num(kMaxEquations) + "]");
  if (nparam < 0 || nparam > kMaxParams)
    fail_argument("nparam=" + num(nparam) + " is not in [0, " + num(kMaxParams) + "]");
  const int64_t rows = std::max(neq, nparam);
  if (nsys < 1 || nsys > kMaxValues / rows)
    fail_argument("nsys=" + num(static_cast<long long>(nsys)) + " is not in [1, " +
                  num(static_cast<long long>(kMaxValues / rows)) + "] for " + num(static_cast<int>(rows)) +
                  " values per system");
  atol_.assign(static_cast<size_t>(neq), 1e-12);
  const auto values = static_cast<size_t>(nsys);
  state_ = Buffer(ctx, values * static_cast<size_t>(neq) * sizeof(double));
  params_ = Buffer(ctx, values * static_cast<size_t>(std::max(nparam, 1)) * sizeof(double));
  h_next_ = Buffer(ctx, values * sizeof(double));
  atol_on_backend_ = Buffer(ctx, static_cast<size_t>(neq) * sizeof(double));
  result_codes_ = Buffer(ctx, values * sizeof(int));
  result_counts_ = Buffer(ctx, 4 * values * sizeof(int64_t));
  failure_summary_ = Buffer(ctx, 2 * sizeof(int64_t));
  upload_atol();
}

void opsplit_ode_s::upload_atol() {
  atol_on_backend_.copy_in(atol_.data(), atol_on_backend_.bytes());
}

void opsplit_ode_s::set_mechanism(const chem::Mechanism* mech) {
  if (mech == nullptr) {
    mechanism_.reset();
    return;
  }
  if (mech->is_gas())
    fail(OPSPLIT_ERROR_UNSUPPORTED, "mech was loaded from a mechanism file: attach it as a reactor "
                                    "(opsplit_ode_set_reactor)");
  if (finite_difference_)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "the batch's Jacobian is set to FINITE_DIFFERENCE: a mass-action mechanism "
                                    "always uses its exact sparse Jacobian (set ANALYTIC first)");
  if (mech->nspecies() != neq_)
    fail_argument("mech has " + num(mech->nspecies()) + " species, the batch neq=" + num(neq_));
  if (mech->nparams() > nparam_)
    fail_argument("mech reads " + num(mech->nparams()) + " parameters per system, the batch has nparam=" +
                  num(nparam_));
  mech->check_complete("mech");
  auto compiled = std::make_unique<chem::CompiledMechanism>(*mech);
  upload_mechanism(compiled->ints(), compiled->doubles());
  mechanism_ = std::move(compiled);
  gas_.reset();
  callback_ = Callback{};
}

void opsplit_ode_s::set_reactor(const chem::Mechanism* mech, int kind) {
  if (mech == nullptr) {
    gas_.reset();
    return;
  }
  if (kind < chem::kIsothermalConcentrations || kind > chem::kConstantVolume)
    fail_argument("kind=" + num(kind) +
                  " is not ISOTHERMAL_CONCENTRATIONS (0), ISOTHERMAL_MASS_FRACTIONS (1), CONSTANT_PRESSURE (2) or "
                  "CONSTANT_VOLUME (3)");
  const chem::CompiledGas& compiled = mech->compiled_gas("mech");
  const int neq = chem::reactor_equations(kind, mech->nspecies());
  if (neq != neq_)
    fail_argument("the reactor of mech's " + num(mech->nspecies()) + " species has " + num(neq) +
                  " equations, the batch neq=" + num(neq_));
  if (chem::reactor_parameters(kind) > nparam_)
    fail_argument("the reactor reads " + num(chem::reactor_parameters(kind)) + " parameters per system, the batch has nparam=" +
                  num(nparam_));
  auto copy = std::make_unique<chem::CompiledGas>(compiled);
  run_.check_reactor(neq_);
  upload_mechanism(copy->ints(), copy->doubles());
  gas_ = std::move(copy);
  reactor_kind_ = kind;
  mechanism_.reset();
  callback_ = Callback{};
}

void opsplit_ode_s::upload_mechanism(const std::vector<int>& ints, const std::vector<double>& doubles) {
  Buffer on_backend_ints(context(), ints.size() * sizeof(int));
  Buffer on_backend_doubles(context(), doubles.size() * sizeof(double));
  on_backend_ints.copy_in(ints.data(), on_backend_ints.bytes());
  on_backend_doubles.copy_in(doubles.data(), on_backend_doubles.bytes());
  kinetics_ints_ = std::move(on_backend_ints);
  kinetics_doubles_ = std::move(on_backend_doubles);
}

void opsplit_ode_s::set_callback(opsplit_ode_rhs_fn rhs, opsplit_ode_jacobian_fn jacobian, void* user) {
  if (rhs == nullptr) {
    if (jacobian != nullptr) fail_argument("jacobian without rhs");
    callback_ = Callback{};
    return;
  }
  if (!run_.runs_host_callbacks)
    fail(OPSPLIT_ERROR_UNSUPPORTED,
         "a host callback cannot run on the CUDA backend (its systems are integrated on the GPU): attach a "
         "mechanism, or use a CPU context");
  callback_ = Callback{rhs, jacobian, user};
  mechanism_.reset();
  gas_.reset();
}

void opsplit_ode_s::set_method(int method) {
  if (method != OPSPLIT_ODE_RKCK45 && method != OPSPLIT_ODE_RKC && method != OPSPLIT_ODE_ROSENBROCK &&
      method != OPSPLIT_ODE_ROS3)
    fail_argument("method=" + num(method) + " is not RKCK45 (0), RKC (1), ROSENBROCK (2) or ROS3 (3)");
  method_ = method;
}

void opsplit_ode_s::set_tolerances(double rtol, double atol) {
  if (!(rtol >= 1e-14 && rtol < 1.0)) fail_argument("rtol=" + num(rtol) + " is not in [1e-14, 1)");
  if (!(atol >= 0.0) || !std::isfinite(atol)) fail_argument("atol=" + num(atol) + " is not finite and >= 0");
  rtol_ = rtol;
  std::fill(atol_.begin(), atol_.end(), atol);
  upload_atol();
}

void opsplit_ode_s::set_absolute_tolerances(const double* atol) {
  if (atol == nullptr) fail_argument("atol is NULL");
  check_host_array(context(), atol, "atol");
  for (int i = 0; i < neq_; ++i)
    if (!(atol[i] >= 0.0) || !std::isfinite(atol[i]))
      fail_argument("atol[" + num(i) + "]=" + num(atol[i]) + " is not finite and >= 0");
  atol_.assign(atol, atol + neq_);
  upload_atol();
}

void opsplit_ode_s::set_initial_step(double h0) {
  if (!(h0 >= 0.0) || !std::isfinite(h0)) fail_argument("h0=" + num(h0) + " is not finite and >= 0 (0: automatic)");
  h0_ = h0;
}

void opsplit_ode_s::set_max_steps(int64_t max_steps) {
  if (max_steps < 1) fail_argument("max_steps=" + num(static_cast<long long>(max_steps)) + " is not >= 1");
  max_steps_ = max_steps;
}

void opsplit_ode_s::set_keep_step(int keep) {
  if (keep != 0 && keep != 1) fail_argument("keep=" + num(keep) + " is not 0 or 1");
  keep_step_ = keep == 1;
}

void opsplit_ode_s::set_clip_negative(int clip) {
  if (clip != 0 && clip != 1) fail_argument("clip=" + num(clip) + " is not 0 or 1");
  clip_negative_ = clip == 1;
}

void opsplit_ode_s::set_jacobian(int jacobian) {
  if (jacobian != OPSPLIT_ODE_JACOBIAN_ANALYTIC && jacobian != OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE)
    fail_argument("jacobian=" + num(jacobian) + " is not ANALYTIC (0) or FINITE_DIFFERENCE (1)");
  if (jacobian == OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE && mechanism_)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "a mass-action mechanism is attached: it always uses its exact sparse Jacobian");
  finite_difference_ = jacobian == OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE;
}

void opsplit_ode_s::check_has_rhs() const {
  if (!has_rhs())
    fail_argument("no right-hand side: attach a mechanism (opsplit_ode_set_mechanism), a reactor "
                  "(opsplit_ode_set_reactor) or a callback (opsplit_ode_set_rhs_callback)");
}

void opsplit_ode_s::evaluate(int64_t system, double t, const double* y, double* ydot, double* jacobian) const {
  check_has_rhs();
  if (system < 0 || system >= nsys_)
    fail_argument("system=" + num(static_cast<long long>(system)) + " is not in [0, " +
                  num(static_cast<long long>(nsys_)) + ")");
  if (!std::isfinite(t)) fail_argument("t=" + num(t) + " is not finite");
  if (y == nullptr) fail_argument("y is NULL");
  if (ydot == nullptr) fail_argument("ydot is NULL");
  check_host_array(context(), y, "y");  // before the loop below reads it
  check_host_array(context(), ydot, "ydot");
  check_host_array(context(), jacobian, "jacobian");
  const auto n = static_cast<size_t>(neq_);
  for (size_t i = 0; i < n; ++i)
    if (!std::isfinite(y[i])) fail_argument("y[" + num(static_cast<int>(i)) + "]=" + num(y[i]) + " is not finite");
  // This system's parameters, from [param][sys] storage.
  std::vector<double> p(static_cast<size_t>(std::max(nparam_, 1)));
  in_host_order_if_wrapped(context(), !params_.owns_its_memory(), [&] {
    for (int q = 0; q < nparam_; ++q)
      params_.copy_out(&p[static_cast<size_t>(q)], sizeof(double),
                       static_cast<size_t>(q * nsys_ + system) * sizeof(double));
  });
  // Results go to scratch first: a failed call writes nothing.
  std::vector<double> y_work(y, y + n), f(n), jac(jacobian != nullptr ? n * n : 0), fd_scratch(n);
  int code = 0;
  ode::Counts counts;
  if (mechanism_) {
    const chem::MassAction m = mechanism_->view();
    std::vector<double> k(static_cast<size_t>(std::max(mechanism_->nreactions(), 1)));
    chem::rate_constants(m, p.data(), k.data());
    chem::mass_action_rates(m, k.data(), y, f.data());
    if (jacobian != nullptr) chem::mass_action_jacobian(m, k.data(), y, jac.data());
  } else if (gas_) {
    const chem::GasKinetics g = gas_->view();
    std::vector<double> scratch(static_cast<size_t>(chem::reactor_scratch_size(g.nspecies)));
    ode::GasReactorRhs rhs{&g, reactor_kind_, p.data(), scratch.data(), neq_, !finite_difference_};
    code = rhs.f(t, y, f.data());
    if (code == 0 && jacobian != nullptr) code = ode::jacobian_at(rhs, t, y_work.data(), f.data(), jac.data(), fd_scratch.data(), counts);
  } else {
    CallbackRhs rhs{callback_.rhs, callback_.jacobian, callback_.user, p.data(), neq_, finite_difference_};
    code = rhs.f(t, y, f.data());
    if (code == 0 && jacobian != nullptr) code = ode::jacobian_at(rhs, t, y_work.data(), f.data(), jac.data(), fd_scratch.data(), counts);
  }
  if (code != 0) fail(OPSPLIT_ERROR_NUMERICAL, "the right-hand side callback returned " + num(code));
  for (size_t i = 0; i < f.size(); ++i)
    if (!std::isfinite(f[i])) fail(OPSPLIT_ERROR_NUMERICAL, "ydot[" + num(static_cast<int>(i)) + "]=" + num(f[i]) + " is not finite at this state");
  for (size_t i = 0; i < jac.size(); ++i)
    if (!std::isfinite(jac[i]))
      fail(OPSPLIT_ERROR_NUMERICAL, "jacobian[" + num(static_cast<int>(i)) + "]=" + num(jac[i]) + " is not finite at this state");
  std::copy(f.begin(), f.end(), ydot);
  std::copy(jac.begin(), jac.end(), jacobian);
}

namespace {
void check_layout(int layout) {
  if (layout != OPSPLIT_ODE_AOS && layout != OPSPLIT_ODE_SOA)
    fail_argument("layout=" + num(layout) + " is not AOS (0) or SOA (1)");
}
}  // namespace

void opsplit_ode_s::put(Buffer& to, int rows, const double* host, int layout, const char* name) {
  check_layout(layout);
  if (host == nullptr) fail_argument(std::string(name) + " is NULL");
  check_host_array(context(), host, name);  // before the AOS loop reads it
  if (rows == 0) return;
  const size_t n = static_cast<size_t>(nsys_) * static_cast<size_t>(rows);
  std::vector<double> soa;
  const double* from = host;
  if (layout == OPSPLIT_ODE_AOS) {
    soa.resize(n);
    for (int64_t s = 0; s < nsys_; ++s)
      for (int r = 0; r < rows; ++r) soa[static_cast<size_t>(r * nsys_ + s)] = host[static_cast<size_t>(s * rows + r)];
    from = soa.data();
  }
  in_host_order_if_wrapped(context(), !to.owns_its_memory(), [&] { to.copy_in(from, n * sizeof(double)); });
}

void opsplit_ode_s::take(const Buffer& from, int rows, double* host, int layout, const char* name) const {
  check_layout(layout);
  if (host == nullptr) fail_argument(std::string(name) + " is NULL");
  check_host_array(context(), host, name);
  if (rows == 0) return;
  const size_t n = static_cast<size_t>(nsys_) * static_cast<size_t>(rows);
  // (copy_out finishes before it returns; a wrapped array's reads follow the host's work)
  const bool wrapped = !from.owns_its_memory();
  if (layout == OPSPLIT_ODE_SOA)
    return in_host_order_if_wrapped(context(), wrapped, [&] { from.copy_out(host, n * sizeof(double)); });
  std::vector<double> soa(n);
  in_host_order_if_wrapped(context(), wrapped, [&] { from.copy_out(soa.data(), n * sizeof(double)); });
  for (int64_t s = 0; s < nsys_; ++s)
    for (int r = 0; r < rows; ++r) host[static_cast<size_t>(s * rows + r)] = soa[static_cast<size_t>(r * nsys_ + s)];
}

namespace {
// A device form's array (rows x nsys values) against the batch's storage, which may be
// the host's wrapped array: the wrapped array itself is no copy at all (true) in SOA, or
// in AOS where the two orders are the same bytes (one row or one system); AOS onto
// itself otherwise, or any other overlap, would copy it onto itself and is refused.
bool is_the_storage(const Buffer& storage, const double* device, int rows, int64_t nsys, int layout, const char* name) {
  const auto begin = reinterpret_cast<uintptr_t>(storage.data()), p = reinterpret_cast<uintptr_t>(device);
  const size_t bytes = static_cast<size_t>(nsys) * static_cast<size_t>(rows) * sizeof(double);
  if (p >= begin + storage.bytes() || begin >= p + bytes) return false;
  if (p == begin && (layout == OPSPLIT_ODE_SOA || rows == 1 || nsys == 1)) return true;
  fail_argument(std::string(name) + " overlaps the batch's wrapped array" +
                (p == begin ? ": it is that array, in SOA order; AOS would transpose it onto itself" : ""));
}
}  // namespace

void opsplit_ode_s::put_device(Buffer& to, int rows, const double* device, int layout, const char* name) {
  check_layout(layout);
  if (rows == 0 || is_the_storage(to, device, rows, nsys_, layout, name)) return;
  if (layout == OPSPLIT_ODE_SOA)
    context().device().copy_on_device(to.data(), device, static_cast<size_t>(nsys_) * static_cast<size_t>(rows) * sizeof(double));
  else
    run_.transpose(context(), device, nsys_, rows, to.as<double>());
}

void opsplit_ode_s::take_device(const Buffer& from, int rows, double* device, int layout, const char* name) const {
  check_layout(layout);
  if (rows == 0 || is_the_storage(from, device, rows, nsys_, layout, name)) return;
  if (layout == OPSPLIT_ODE_SOA)
    context().device().copy_on_device(device, from.data(), static_cast<size_t>(nsys_) * static_cast<size_t>(rows) * sizeof(double));
  else
    run_.transpose(context(), from.as<const double>(), rows, nsys_, device);
}

void opsplit_ode_s::wrap(Buffer& storage, int rows, double* device) {
  const size_t bytes = static_cast<size_t>(nsys_) * static_cast<size_t>(rows) * sizeof(double);
  if (device != nullptr) {
    storage = Buffer::view(context(), device, bytes);  // the own storage (or an earlier view) goes
    return;
  }
  if (storage.owns_its_memory()) return;
  Buffer own(context(), bytes);  // out of memory: the array stays wrapped, nothing lost
  own.copy_from(storage);
  context().synchronize();  // the host may free its array once the call returns
  storage = std::move(own);
}

void opsplit_ode_s::wrap_parameters(double* device) {
  if (nparam_ == 0) fail_argument("the batch has no parameters (nparam=0) to wrap");
  wrap(params_, nparam_, device);
}

void opsplit_ode_s::integrate(double t0, double t1) {
  if (!std::isfinite(t0) || !std::isfinite(t1)) fail_argument("t0=" + num(t0) + ", t1=" + num(t1) + " must be finite");
  if (t1 < t0) fail_argument("t1=" + num(t1) + " is before t0=" + num(t0) + " (only forward integration)");
  check_has_rhs();
  if (t1 == t0) {  // nothing runs: every system is at t1, with no steps
    result_codes_.zero(), result_counts_.zero();
    return;
  }
  integrate_on_backend(t0, t1);
  report_failures();
}

// With a progress callback a call may be cancelled: copies put every state and kept step back then.
void opsplit_ode_s::integrate_on_backend(double t0, double t1) {
  const opsplit::Progress progress(context(), nullptr, "opsplit_ode_integrate");
  // A cancelled call keeps the last call's results too (get_results reads them later).
  Buffer* kept[] = {&state_, &h_next_, &result_codes_, &result_counts_};
  Buffer saved[4];
  if (progress.active())
    for (size_t i = 0; i < 4; ++i) {
      saved[i] = Buffer(context(), kept[i]->bytes());
      saved[i].copy_from(*kept[i]);
    }
  try {
    run_.integrate(context(), batch(), t0, t1, progress);
  } catch (const opsplit::Error& e) {
    if (e.status() == OPSPLIT_ERROR_CANCELLED) {
      for (size_t i = 0; i < 4; ++i) kept[i]->copy_from(saved[i]);
      context().synchronize();
    }
    throw;
  }
}

ode::Batch opsplit_ode_s::batch() {
  ode::Batch b{};
  b.neq = neq_, b.nsys = nsys_, b.nparam = nparam_, b.method = method_;
  b.rtol = rtol_, b.atol = atol_on_backend_.as<const double>(), b.h0 = h0_;
  b.max_steps = max_steps_, b.keep_step = keep_step_, b.clip_negative = clip_negative_;
  b.state = state_.as<double>(), b.params = params_.as<const double>(), b.h_next = h_next_.as<double>();
  const int* ints = kinetics_ints_.as<const int>();
  const double* doubles = kinetics_doubles_.as<const double>();
  b.gas = gas_ != nullptr;
  b.analytic_jacobian = !finite_difference_;
  if (gas_) {
    b.gas_kinetics = gas_->view_at(ints, doubles);
    b.reactor_kind = reactor_kind_;
  } else if (mechanism_) {
    b.mechanism = mechanism_->view_at(ints, doubles);
    b.nreactions = mechanism_->nreactions();
  } else {
    b.callback = ode::Batch::Callback{callback_.rhs, callback_.jacobian, callback_.user};
  }
  b.result = result_codes_.as<int>(), b.counts = result_counts_.as<int64_t>();
  b.round_storage = &round_storage_;
  return b;
}

void opsplit_ode_s::report_failures() {
  run_.count_failures(context(), result_codes_.as<const int>(), nsys_, failure_summary_.as<int64_t>());
  int64_t summary[2];
  failure_summary_.copy_out(summary, sizeof summary);
  const int64_t failed = summary[0], first = summary[1];
  if (failed == 0) return;
  int code = 0;
  int64_t accepted = 0, rejected = 0;
  const auto at = static_cast<size_t>(first);
  result_codes_.copy_out(&code, sizeof code, at * sizeof(int));
  result_counts_.copy_out(&accepted, sizeof accepted, at * sizeof(int64_t));
  result_counts_.copy_out(&rejected, sizeof rejected, (static_cast<size_t>(nsys_) + at) * sizeof(int64_t));
  fail(OPSPLIT_ERROR_NUMERICAL,
       num(static_cast<long long>(failed)) + " of " + num(static_cast<long long>(nsys_)) +
           " systems failed and keep their state at t0; the first, system " + num(static_cast<long long>(first)) +
           ", with " + result_name(code) + " after " + num(static_cast<long long>(accepted)) + " accepted and " +
           num(static_cast<long long>(rejected)) + " rejected steps (opsplit_ode_get_results gives every system's)");
}

void opsplit_ode_s::get_results(int* result, int64_t* accepted, int64_t* rejected, int64_t* rhs, int64_t* jacobian,
                                bool on_device) const {
  const size_t n = static_cast<size_t>(nsys_);
  if (!on_device) {  // all checked before any is written
    const std::pair<const void*, const char*> outputs[] = {
        {result, "result"}, {accepted, "accepted"}, {rejected, "rejected"}, {rhs, "rhs_evaluations"},
        {jacobian, "jacobian_evaluations"}};
    for (const auto& [array, name] : outputs) check_host_array(context(), array, name);
  }
  auto give = [&](const Buffer& from, size_t row, void* to, size_t size) {
    if (to == nullptr) return;
    if (on_device)
      context().device().copy_on_device(to, from.as<const unsigned char>() + row * n * size, n * size);
    else
      from.copy_out(to, n * size, row * n * size);
  };
  give(result_codes_, 0, result, sizeof(int));
  give(result_counts_, 0, accepted, sizeof(int64_t));
  give(result_counts_, 1, rejected, sizeof(int64_t));
  give(result_counts_, 2, rhs, sizeof(int64_t));
  give(result_counts_, 3, jacobian, sizeof(int64_t));
}
