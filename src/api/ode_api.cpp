// C entry points of ODE batches.
#include "api/guard.hpp"
#include "chem/mechanism.hpp"
#include "ode/ode.hpp"

using namespace opsplit;

namespace {
const char* kOde = "opsplit_ode";

OdeBatch& ode_arg(opsplit_ode ode) { return on_its_device(ode, "ode", kOde); }
}  // namespace

extern "C" {

OPSPLIT_API opsplit_status opsplit_ode_create(opsplit_context ctx, int neq, int64_t nsys, int nparam,
                                              opsplit_ode* ode) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_ode& out = output(ode, "ode");
    if (c.is_cuda()) c.device().activate();
    out = make_handle<OdeBatch>(c, neq, nsys, nparam);
  });
}

OPSPLIT_API opsplit_status opsplit_ode_destroy(opsplit_ode* ode) {
  return api_guard(__func__, [&] { destroy_through(ode, kOde); });
}

OPSPLIT_API opsplit_status opsplit_ode_get_shape(opsplit_ode ode, int* neq, int64_t* nsys, int* nparam) {
  return api_guard(__func__, [&] {
    const OdeBatch& o = ode_arg(ode);
    int& e = output(neq, "neq");
    int64_t& s = output(nsys, "nsys");
    int& p = output(nparam, "nparam");
    e = o.neq(), s = o.nsys(), p = o.nparam();
  });
}

OPSPLIT_API opsplit_status opsplit_ode_set_mechanism(opsplit_ode ode, opsplit_mechanism mech) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    const chem::Mechanism* m = mech == nullptr ? nullptr : &checked(mech, "mech", "opsplit_mechanism");
    if (m != nullptr && &m->context() != &o.context())
      fail_argument("mech was made from another context than ode");
    o.set_mechanism(m);
  });
}

OPSPLIT_API opsplit_status opsplit_ode_set_reactor(opsplit_ode ode, opsplit_mechanism mech, opsplit_reactor_kind kind) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    const chem::Mechanism* m = mech == nullptr ? nullptr : &checked(mech, "mech", "opsplit_mechanism");
    if (m != nullptr && &m->context() != &o.context())
      fail_argument("mech was made from another context than ode");
    o.set_reactor(m, enum_value(kind));
  });
}

OPSPLIT_API opsplit_status opsplit_ode_set_rhs_callback(opsplit_ode ode, opsplit_ode_rhs_fn rhs,
                                                        opsplit_ode_jacobian_fn jacobian, void* user) {
  return api_guard(__func__, [&] { ode_arg(ode).set_callback(rhs, jacobian, user); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_method(opsplit_ode ode, opsplit_ode_method method) {
  return api_guard(__func__, [&] { ode_arg(ode).set_method(enum_value(method)); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_tolerances(opsplit_ode ode, double rtol, double atol) {
  return api_guard(__func__, [&] { ode_arg(ode).set_tolerances(rtol, atol); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_absolute_tolerances(opsplit_ode ode, const double* atol) {
  return api_guard(__func__, [&] { ode_arg(ode).set_absolute_tolerances(atol); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_initial_step(opsplit_ode ode, double h0) {
  return api_guard(__func__, [&] { ode_arg(ode).set_initial_step(h0); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_max_steps(opsplit_ode ode, int64_t max_steps) {
  return api_guard(__func__, [&] { ode_arg(ode).set_max_steps(max_steps); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_keep_step(opsplit_ode ode, int keep) {
  return api_guard(__func__, [&] { ode_arg(ode).set_keep_step(keep); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_clip_negative(opsplit_ode ode, int clip) {
  return api_guard(__func__, [&] { ode_arg(ode).set_clip_negative(clip); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_jacobian(opsplit_ode ode, opsplit_ode_jacobian jacobian) {
  return api_guard(__func__, [&] { ode_arg(ode).set_jacobian(enum_value(jacobian)); });
}

OPSPLIT_API opsplit_status opsplit_ode_evaluate(opsplit_ode ode, int64_t system, double t, const double* y,
                                                double* ydot, double* jacobian) {
  return api_guard(__func__, [&] { ode_arg(ode).evaluate(system, t, y, ydot, jacobian); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_state(opsplit_ode ode, const double* y, opsplit_ode_layout layout) {
  return api_guard(__func__, [&] { ode_arg(ode).set_state(y, enum_value(layout)); });
}

OPSPLIT_API opsplit_status opsplit_ode_get_state(opsplit_ode ode, double* y, opsplit_ode_layout layout) {
  return api_guard(__func__, [&] { ode_arg(ode).get_state(y, enum_value(layout)); });
}

OPSPLIT_API opsplit_status opsplit_ode_set_parameters(opsplit_ode ode, const double* params,
                                                      opsplit_ode_layout layout) {
  return api_guard(__func__, [&] { ode_arg(ode).set_parameters(params, enum_value(layout)); });
}

OPSPLIT_API opsplit_status opsplit_ode_get_parameters(opsplit_ode ode, double* params, opsplit_ode_layout layout) {
  return api_guard(__func__, [&] { ode_arg(ode).get_parameters(params, enum_value(layout)); });
}

OPSPLIT_API opsplit_status opsplit_ode_integrate(opsplit_ode ode, double t0, double t1) {
  return api_guard(__func__, [&] { ode_arg(ode).integrate(t0, t1); });
}

OPSPLIT_API opsplit_status opsplit_ode_get_results(opsplit_ode ode, int* result, int64_t* accepted,
                                                   int64_t* rejected, int64_t* rhs_evaluations,
                                                   int64_t* jacobian_evaluations) {
  return api_guard(__func__, [&] {
    ode_arg(ode).get_results(result, accepted, rejected, rhs_evaluations, jacobian_evaluations);
  });
}

}  // extern "C"
