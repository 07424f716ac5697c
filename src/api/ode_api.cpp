// C entry points of ODE batches.
#include "api/guard.hpp"
#include "chem/mechanism.hpp"
#include "core/device_array.hpp"
#include "ode/ode.hpp"

using namespace opsplit;

namespace {
const char* kOde = "opsplit_ode";

OdeBatch& ode_arg(opsplit_ode ode) { return on_its_device(ode, "ode", kOde); }

// A device form's state or parameter array: a CPU context first, then its layout, then
// the array, then the work in the host's order.
template <class Work>
void device_form(OdeBatch& o, const double* device, size_t bytes, const opsplit_ode_layout& layout, const char* name,
                 const char* host_form, Work&& work) {
  require_cuda_context(o.context(), host_form);
  const int l = enum_value(layout);
  if (l != OPSPLIT_ODE_AOS && l != OPSPLIT_ODE_SOA) fail_argument("layout=" + num(l) + " is not AOS (0) or SOA (1)");
  check_device_array(o.context(), device, bytes, alignof(double), name, host_form);
  in_host_order(o.context(), [&] { work(l); });
}
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

OPSPLIT_API opsplit_status opsplit_ode_set_state_device(opsplit_ode ode, const double* y, opsplit_ode_layout layout) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    device_form(o, y, o.state_bytes(), layout, "y", "opsplit_ode_set_state", [&](int l) { o.set_state_device(y, l); });
  });
}

OPSPLIT_API opsplit_status opsplit_ode_get_state_device(opsplit_ode ode, double* y, opsplit_ode_layout layout) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    device_form(o, y, o.state_bytes(), layout, "y", "opsplit_ode_get_state", [&](int l) { o.get_state_device(y, l); });
  });
}

OPSPLIT_API opsplit_status opsplit_ode_set_parameters_device(opsplit_ode ode, const double* params,
                                                             opsplit_ode_layout layout) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    device_form(o, params, o.parameter_bytes(), layout, "params", "opsplit_ode_set_parameters",
                [&](int l) { o.set_parameters_device(params, l); });
  });
}

OPSPLIT_API opsplit_status opsplit_ode_get_parameters_device(opsplit_ode ode, double* params,
                                                             opsplit_ode_layout layout) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    device_form(o, params, o.parameter_bytes(), layout, "params", "opsplit_ode_get_parameters",
                [&](int l) { o.get_parameters_device(params, l); });
  });
}

OPSPLIT_API opsplit_status opsplit_ode_wrap_state_device(opsplit_ode ode, double* y) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    require_cuda_context(o.context(), "opsplit_ode_set_state");
    if (y != nullptr) check_device_array(o.context(), y, o.state_bytes(), alignof(double), "y", "opsplit_ode_set_state");
    in_host_order(o.context(), [&] { o.wrap_state(y); });  // an unwrap copies the array after the host's work
  });
}

OPSPLIT_API opsplit_status opsplit_ode_wrap_parameters_device(opsplit_ode ode, double* params) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    require_cuda_context(o.context(), "opsplit_ode_set_parameters");
    if (params != nullptr)
      check_device_array(o.context(), params, o.parameter_bytes(), alignof(double), "params",
                         "opsplit_ode_set_parameters");
    in_host_order(o.context(), [&] { o.wrap_parameters(params); });
  });
}

OPSPLIT_API opsplit_status opsplit_ode_integrate(opsplit_ode ode, double t0, double t1) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    // A wrapped array is the host's: the call follows the host's work on it (and ends
    // with the results counted on the host, so it is finished when it returns).
    if (o.context().is_cuda()) o.context().device().follow_host();
    o.integrate(t0, t1);
  });
}

OPSPLIT_API opsplit_status opsplit_ode_get_results(opsplit_ode ode, int* result, int64_t* accepted,
                                                   int64_t* rejected, int64_t* rhs_evaluations,
                                                   int64_t* jacobian_evaluations) {
  return api_guard(__func__, [&] {
    ode_arg(ode).get_results(result, accepted, rejected, rhs_evaluations, jacobian_evaluations);
  });
}

OPSPLIT_API opsplit_status opsplit_ode_get_results_device(opsplit_ode ode, int* result, int64_t* accepted,
                                                          int64_t* rejected, int64_t* rhs_evaluations,
                                                          int64_t* jacobian_evaluations) {
  return api_guard(__func__, [&] {
    OdeBatch& o = ode_arg(ode);
    require_cuda_context(o.context(), "opsplit_ode_get_results");
    const auto n = static_cast<size_t>(o.nsys());
    const std::pair<const void*, const char*> counts[] = {
        {accepted, "accepted"}, {rejected, "rejected"}, {rhs_evaluations, "rhs_evaluations"},
        {jacobian_evaluations, "jacobian_evaluations"}};
    if (result != nullptr) check_device_array(o.context(), result, n * sizeof(int), alignof(int), "result", "opsplit_ode_get_results");
    for (const auto& [array, name] : counts)
      if (array != nullptr) check_device_array(o.context(), array, n * sizeof(int64_t), alignof(int64_t), name, "opsplit_ode_get_results");
    in_host_order(o.context(), [&] {
      o.get_results(result, accepted, rejected, rhs_evaluations, jacobian_evaluations, true);
    });
  });
}

}  // extern "C"
