// C entry points of field buffers and reaction-diffusion models.
#include <cmath>

#include "api/guard.hpp"
#include "core/device_array.hpp"
#include "field/field.hpp"
#include "field/rd.hpp"

using namespace opsplit;

namespace {
const char* kField = "opsplit_field";
const char* kRd = "opsplit_rd";

// The field behind a handle, with its context made current for the work.
Field& field_arg(opsplit_field field, const char* name = "field") { return on_its_device(field, name, kField); }
ReactionDiffusion& rd_arg(opsplit_rd rd) { return checked(rd, "rd", kRd); }

opsplit_layout checked_layout(const opsplit_layout& layout) {  // by reference: see enum_value
  const int v = enum_value(layout);
  if (v != OPSPLIT_LAYOUT_PLANAR && v != OPSPLIT_LAYOUT_INTERLEAVED)
    fail_argument("layout=" + num(v) + " is not PLANAR (0) or INTERLEAVED (1)");
  return static_cast<opsplit_layout>(v);
}

void check_component(const Field& f, int comp) {
  if (comp < 0 || comp >= f.grid().ncomp)
    fail_argument("comp=" + num(comp) + " is not in [0, " + num(f.grid().ncomp) + ")");
}
}  // namespace

extern "C" {

OPSPLIT_API opsplit_status opsplit_field_create(opsplit_context ctx, int64_t nx, int64_t ny, int64_t nz, int ncomp,
                                                opsplit_precision precision, opsplit_field* field) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_field& out = output(field, "field");
    if (c.is_cuda()) c.device().activate();
    out = make_handle<Field>(c, nx, ny, nz, ncomp, enum_value(precision));
  });
}

OPSPLIT_API opsplit_status opsplit_field_destroy(opsplit_field* field) {
  return api_guard(__func__, [&] { destroy_through(field, kField); });
}

OPSPLIT_API opsplit_status opsplit_field_set_spacing(opsplit_field field, double hx, double hy, double hz) {
  return api_guard(__func__, [&] { field_arg(field).set_spacing(hx, hy, hz); });
}

OPSPLIT_API opsplit_status opsplit_field_get_spacing(opsplit_field field, double* hx, double* hy, double* hz) {
  return api_guard(__func__, [&] {
    const double* h = field_arg(field).spacing();
    double& x = output(hx, "hx");
    double& y = output(hy, "hy");
    double& z = output(hz, "hz");
    x = h[0], y = h[1], z = h[2];
  });
}

OPSPLIT_API opsplit_status opsplit_field_get_shape(opsplit_field field, int64_t* nx, int64_t* ny, int64_t* nz,
                                                   int* ncomp) {
  return api_guard(__func__, [&] {
    const auto& g = field_arg(field).grid();
    int64_t& x = output(nx, "nx");
    int64_t& y = output(ny, "ny");
    int64_t& z = output(nz, "nz");
    int& c = output(ncomp, "ncomp");
    x = g.n[0], y = g.n[1], z = g.n[2], c = g.ncomp;
  });
}

OPSPLIT_API opsplit_status opsplit_field_get_precision(opsplit_field field, opsplit_precision* precision) {
  return api_guard(__func__, [&] { output(precision, "precision") = field_arg(field).precision(); });
}

OPSPLIT_API opsplit_status opsplit_field_upload(opsplit_field field, const void* host, opsplit_layout layout) {
  return api_guard(__func__, [&] {
    Field& f = field_arg(field);
    if (host == nullptr) fail_argument("host is NULL");
    check_host_array(f.context(), host, "host");
    f.upload(host, checked_layout(layout));
  });
}

OPSPLIT_API opsplit_status opsplit_field_download(opsplit_field field, void* host, opsplit_layout layout) {
  return api_guard(__func__, [&] {
    Field& f = field_arg(field);
    if (host == nullptr) fail_argument("host is NULL");
    check_host_array(f.context(), host, "host");
    f.download(host, checked_layout(layout));
  });
}

OPSPLIT_API opsplit_status opsplit_field_upload_device(opsplit_field field, const void* device,
                                                       opsplit_layout layout) {
  return api_guard(__func__, [&] {
    Field& f = field_arg(field);
    require_cuda_context(f.context(), "opsplit_field_upload");
    const opsplit_layout l = checked_layout(layout);
    check_device_array(f.context(), device, f.array_bytes(), f.value_size(), "device", "opsplit_field_upload");
    in_host_order(f.context(), [&] { f.upload_device(device, l); });
  });
}

OPSPLIT_API opsplit_status opsplit_field_download_device(opsplit_field field, void* device, opsplit_layout layout) {
  return api_guard(__func__, [&] {
    const Field& f = field_arg(field);
    require_cuda_context(f.context(), "opsplit_field_download");
    const opsplit_layout l = checked_layout(layout);
    check_device_array(f.context(), device, f.array_bytes(), f.value_size(), "device", "opsplit_field_download");
    in_host_order(f.context(), [&] { f.download_device(device, l); });
  });
}

OPSPLIT_API opsplit_status opsplit_field_component_sum(opsplit_field field, int comp, double* sum) {
  return api_guard(__func__, [&] {
    Field& f = field_arg(field);
    check_component(f, comp);
    output(sum, "sum") = f.component_sum(comp);
  });
}

OPSPLIT_API opsplit_status opsplit_field_component_min_max(opsplit_field field, int comp, double* min, double* max) {
  return api_guard(__func__, [&] {
    Field& f = field_arg(field);
    check_component(f, comp);
    double& lo = output(min, "min");
    double& hi = output(max, "max");
    f.component_range(comp, &lo, &hi);
  });
}

OPSPLIT_API opsplit_status opsplit_rd_create(opsplit_context ctx, int ncomp, opsplit_rd* rd) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_rd& out = output(rd, "rd");
    out = make_handle<ReactionDiffusion>(c, ncomp);
  });
}

OPSPLIT_API opsplit_status opsplit_rd_destroy(opsplit_rd* rd) {
  return api_guard(__func__, [&] { destroy_through(rd, kRd); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_stencil(opsplit_rd rd, opsplit_stencil stencil) {
  return api_guard(__func__, [&] { rd_arg(rd).set_stencil(enum_value(stencil)); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_steps_per_pass(opsplit_rd rd, int steps) {
  return api_guard(__func__, [&] { rd_arg(rd).set_steps_per_pass(steps); });
}

OPSPLIT_API opsplit_status opsplit_rd_get_steps_per_pass_taken(opsplit_rd rd, int* steps) {
  return api_guard(__func__, [&] {
    ReactionDiffusion& r = rd_arg(rd);
    output(steps, "steps") = r.steps_per_pass_taken();
  });
}

OPSPLIT_API opsplit_status opsplit_rd_set_diffusion(opsplit_rd rd, int comp, double coefficient) {
  return api_guard(__func__, [&] { rd_arg(rd).set_diffusion(comp, coefficient); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_boundary(opsplit_rd rd, opsplit_face face, int comp, opsplit_bc bc,
                                                   double value) {
  return api_guard(__func__, [&] { rd_arg(rd).set_boundary(enum_value(face), comp, enum_value(bc), value); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_reaction(opsplit_rd rd, opsplit_reaction kind) {
  return api_guard(__func__, [&] { rd_arg(rd).set_reaction(enum_value(kind)); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_reaction_parameter(opsplit_rd rd, const char* name, double value) {
  return api_guard(__func__, [&] { rd_arg(rd).set_reaction_parameter(name, value); });
}

OPSPLIT_API opsplit_status opsplit_rd_get_reaction_parameter(opsplit_rd rd, const char* name, double* value) {
  return api_guard(__func__, [&] {
    ReactionDiffusion& r = rd_arg(rd);
    double& out = output(value, "value");
    out = r.reaction_parameter(name);
  });
}

OPSPLIT_API opsplit_status opsplit_rd_set_linear(opsplit_rd rd, int comp, double rate, double source) {
  return api_guard(__func__, [&] { rd_arg(rd).set_linear(comp, rate, source); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_retardation(opsplit_rd rd, int comp, double factor) {
  return api_guard(__func__, [&] { rd_arg(rd).set_retardation(comp, factor); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_mobile(opsplit_rd rd, int comp, int mobile) {
  return api_guard(__func__, [&] { rd_arg(rd).set_mobile(comp, mobile); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_cahn_hilliard(opsplit_rd rd, int comp, double m, double b, double u,
                                                        double kappa) {
  return api_guard(__func__, [&] { rd_arg(rd).set_cahn_hilliard(comp, m, b, u, kappa); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_velocity(opsplit_rd rd, int axis, double constant, double amplitude,
                                                   double angular_frequency, double phase) {
  return api_guard(__func__, [&] { rd_arg(rd).set_velocity(axis, constant, amplitude, angular_frequency, phase); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_velocity_field(opsplit_rd rd, opsplit_field velocity) {
  return api_guard(__func__, [&] {
    ReactionDiffusion& r = rd_arg(rd);
    r.set_velocity_field(velocity == nullptr ? nullptr : &field_arg(velocity, "velocity"));
  });
}

OPSPLIT_API opsplit_status opsplit_rd_add_source(opsplit_rd rd, int comp, int64_t i, int64_t j, int64_t k,
                                                 double rate) {
  return api_guard(__func__, [&] { rd_arg(rd).add_source(comp, i, j, k, rate); });
}

OPSPLIT_API opsplit_status opsplit_rd_clear_sources(opsplit_rd rd) {
  return api_guard(__func__, [&] { rd_arg(rd).clear_sources(); });
}

OPSPLIT_API opsplit_status opsplit_rd_set_time(opsplit_rd rd, double t) {
  return api_guard(__func__, [&] { rd_arg(rd).set_time(t); });
}

OPSPLIT_API opsplit_status opsplit_rd_get_time(opsplit_rd rd, double* t) {
  return api_guard(__func__, [&] {
    ReactionDiffusion& r = rd_arg(rd);
    output(t, "t") = r.time();
  });
}

OPSPLIT_API opsplit_status opsplit_rd_free_energy(opsplit_rd rd, opsplit_field field, int comp, double* energy) {
  return api_guard(__func__, [&] {
    ReactionDiffusion& r = rd_arg(rd);
    Field& f = field_arg(field);
    double& out = output(energy, "energy");
    out = r.free_energy(f, comp);
  });
}

OPSPLIT_API opsplit_status opsplit_rd_max_stable_dt(opsplit_rd rd, opsplit_field field, double* dt) {
  return api_guard(__func__, [&] {
    ReactionDiffusion& r = rd_arg(rd);
    Field& f = field_arg(field);
    output(dt, "dt") = r.max_stable_dt(f);
  });
}

OPSPLIT_API opsplit_status opsplit_field_attach_distributed(opsplit_field field, const opsplit_group* group,
                                                            const opsplit_decomposition* decomposition) {
  return api_guard(__func__, [&] {
    attach_agreed(group, decomposition, __func__, [&]() -> Field& { return field_arg(field); });
  });
}

OPSPLIT_API opsplit_status opsplit_rd_step(opsplit_rd rd, opsplit_field field, double dt, int64_t nsteps) {
  return api_guard(__func__, [&] {
    Field& f = field_arg(field);
    ReactionDiffusion* r = nullptr;
    const std::exception_ptr bad_rd = attempt([&] { r = &rd_arg(rd); });
    // A distributed field's other processes are in the step's agreement: this one joins
    // it with its failure.
    if (bad_rd && f.decomposition() != nullptr) ReactionDiffusion::settle_step(f, bad_rd, dt, nsteps, __func__, nullptr);
    if (bad_rd) std::rethrow_exception(bad_rd);
    r->step(f, dt, nsteps, "opsplit_rd_step");
  });
}

}  // extern "C"
