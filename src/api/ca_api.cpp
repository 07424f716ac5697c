// C entry points of CA grids.
#include "api/guard.hpp"
#include "ca/ca.hpp"

using namespace opsplit;

namespace {
const char* kCa = "opsplit_ca";

opsplit_ca_s& ca_arg(opsplit_ca ca) { return on_its_device(ca, "ca", kCa); }
}  // namespace

extern "C" {

OPSPLIT_API opsplit_status opsplit_ca_create(opsplit_context ctx, opsplit_ca_model model, int64_t rows, int64_t cols,
                                             opsplit_ca* ca) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_ca& out = output(ca, "ca");
    if (c.is_cuda()) c.device().activate();
    out = make_handle<opsplit_ca_s>(c, enum_value(model), rows, cols);
  });
}

OPSPLIT_API opsplit_status opsplit_ca_destroy(opsplit_ca* ca) {
  return api_guard(__func__, [&] { destroy_through(ca, kCa); });
}

OPSPLIT_API opsplit_status opsplit_ca_get_shape(opsplit_ca ca, int64_t* rows, int64_t* cols) {
  return api_guard(__func__, [&] {
    const opsplit_ca_s& g = ca_arg(ca);
    int64_t& r = output(rows, "rows");
    int64_t& c = output(cols, "cols");
    r = g.rows(), c = g.cols();
  });
}

OPSPLIT_API opsplit_status opsplit_ca_set_boundary(opsplit_ca ca, opsplit_ca_boundary boundary) {
  return api_guard(__func__, [&] { ca_arg(ca).set_boundary(enum_value(boundary)); });
}

OPSPLIT_API opsplit_status opsplit_ca_set_rule(opsplit_ca ca, const char* rule) {
  return api_guard(__func__, [&] { ca_arg(ca).set_rule(rule); });
}

OPSPLIT_API opsplit_status opsplit_ca_set_cells(opsplit_ca ca, const uint8_t* cells, opsplit_ca_order order) {
  return api_guard(__func__, [&] { ca_arg(ca).set_cells(cells, enum_value(order)); });
}

OPSPLIT_API opsplit_status opsplit_ca_get_cells(opsplit_ca ca, uint8_t* cells, opsplit_ca_order order) {
  return api_guard(__func__, [&] { ca_arg(ca).get_cells(cells, enum_value(order)); });
}

OPSPLIT_API opsplit_status opsplit_ca_place_rle(opsplit_ca ca, const char* rle, int64_t row, int64_t col) {
  return api_guard(__func__, [&] { ca_arg(ca).place_rle(rle, row, col); });
}

OPSPLIT_API opsplit_status opsplit_ca_step(opsplit_ca ca, int64_t nsteps) {
  return api_guard(__func__, [&] { ca_arg(ca).step(nsteps); });
}

OPSPLIT_API opsplit_status opsplit_ca_get_steps(opsplit_ca ca, int64_t* steps) {
  return api_guard(__func__, [&] {
    int64_t& out = output(steps, "steps");
    out = ca_arg(ca).steps();
  });
}

OPSPLIT_API opsplit_status opsplit_ca_get_population(opsplit_ca ca, int64_t* population) {
  return api_guard(__func__, [&] {
    const opsplit_ca_s& g = ca_arg(ca);
    int64_t& out = output(population, "population");
    out = g.population();
  });
}

}  // extern "C"
