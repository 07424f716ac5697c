// C entry points of CA grids.
#include "api/guard.hpp"
#include "ca/ca.hpp"

using namespace opsplit;

namespace {
const char* kCa = "opsplit_ca";

opsplit_ca_s& ca_arg(opsplit_ca ca) { return on_its_device(ca, "ca", kCa); }

// A lava grid behind the handle (INVALID_ARGUMENT for a LIFE grid, naming the call).
ca::LavaGrid& lava_arg(opsplit_ca ca, const char* function) { return ca_arg(ca).lava(function); }

// The order as the caller passed it (read as bytes: any int may arrive; guard.hpp).
bool column_major(const opsplit_ca_order& order) {
  const int o = enum_value(order);
  if (o != OPSPLIT_CA_ROW_MAJOR && o != OPSPLIT_CA_COLUMN_MAJOR)
    fail_argument("order=" + num(o) + " is not OPSPLIT_CA_ROW_MAJOR (0) or OPSPLIT_CA_COLUMN_MAJOR (1)");
  return o == OPSPLIT_CA_COLUMN_MAJOR;
}
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

OPSPLIT_API opsplit_status opsplit_ca_load_rle(opsplit_ca ca, const char* path, int64_t row, int64_t col) {
  return api_guard(__func__, [&] { ca_arg(ca).load_rle(path, row, col); });
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

OPSPLIT_API opsplit_status opsplit_ca_set_substate(opsplit_ca ca, const char* name, const double* values,
                                                   opsplit_ca_order order) {
  return api_guard(__func__, [&] {
    ca::LavaGrid& g = lava_arg(ca, "opsplit_ca_set_substate");
    g.set_substate(text_input(name, "name"), values, column_major(order));
  });
}

OPSPLIT_API opsplit_status opsplit_ca_get_substate(opsplit_ca ca, const char* name, double* values,
                                                   opsplit_ca_order order) {
  return api_guard(__func__, [&] {
    const ca::LavaGrid& g = lava_arg(ca, "opsplit_ca_get_substate");
    g.get_substate(text_input(name, "name"), values, column_major(order));
  });
}

OPSPLIT_API opsplit_status opsplit_ca_load_substate(opsplit_ca ca, const char* name, const char* path) {
  return api_guard(__func__, [&] {
    lava_arg(ca, "opsplit_ca_load_substate").load_substate(text_input(name, "name"), text_input(path, "path"));
  });
}

OPSPLIT_API opsplit_status opsplit_ca_set_parameter(opsplit_ca ca, const char* name, double value) {
  return api_guard(__func__, [&] {
    lava_arg(ca, "opsplit_ca_set_parameter").set_parameter(text_input(name, "name"), value);
  });
}

OPSPLIT_API opsplit_status opsplit_ca_get_parameter(opsplit_ca ca, const char* name, double* value) {
  return api_guard(__func__, [&] {
    const ca::LavaGrid& g = lava_arg(ca, "opsplit_ca_get_parameter");
    const std::string n = text_input(name, "name");
    double& out = output(value, "value");
    out = g.get_parameter(n);
  });
}

OPSPLIT_API opsplit_status opsplit_ca_load_parameters(opsplit_ca ca, const char* path) {
  return api_guard(__func__, [&] {
    lava_arg(ca, "opsplit_ca_load_parameters").load_parameters(text_input(path, "path"));
  });
}

OPSPLIT_API opsplit_status opsplit_ca_add_vent(opsplit_ca ca, int64_t row, int64_t col, const double* rates,
                                               int64_t nslots, double slot_seconds, int64_t* vent) {
  return api_guard(__func__, [&] {
    const int64_t v = lava_arg(ca, "opsplit_ca_add_vent").add_vent(row, col, rates, nslots, slot_seconds);
    if (vent != nullptr) *vent = v;
  });
}

OPSPLIT_API opsplit_status opsplit_ca_load_vents(opsplit_ca ca, const char* vents_path, const char* rates_path) {
  return api_guard(__func__, [&] {
    lava_arg(ca, "opsplit_ca_load_vents")
        .load_vents(text_input(vents_path, "vents_path"), text_input(rates_path, "rates_path"));
  });
}

OPSPLIT_API opsplit_status opsplit_ca_run_until(opsplit_ca ca, double t_sim) {
  return api_guard(__func__, [&] { ca_arg(ca).run_until(t_sim); });
}

OPSPLIT_API opsplit_status opsplit_ca_get_time(opsplit_ca ca, double* t_sim) {
  return api_guard(__func__, [&] {
    const ca::LavaGrid& g = lava_arg(ca, "opsplit_ca_get_time");
    double& out = output(t_sim, "t_sim");
    out = g.time();
  });
}

OPSPLIT_API opsplit_status opsplit_ca_get_volumes(opsplit_ca ca, double* emitted, double* lava, double* solidified,
                                                  double* lost) {
  return api_guard(__func__, [&] {
    const ca::LavaGrid& g = lava_arg(ca, "opsplit_ca_get_volumes");
    double& e = output(emitted, "emitted");
    double& l = output(lava, "lava");
    double& s = output(solidified, "solidified");
    double& o = output(lost, "lost");
    g.volumes(e, l, s, o);
  });
}

OPSPLIT_API opsplit_status opsplit_ca_set_cells_computed(opsplit_ca ca, opsplit_ca_cells cells) {
  return api_guard(__func__, [&] {
    ca::LavaGrid& g = lava_arg(ca, "opsplit_ca_set_cells_computed");
    const int c = enum_value(cells);
    if (c != OPSPLIT_CA_ACTIVE_REGION && c != OPSPLIT_CA_ALL_CELLS)
      fail_argument("cells=" + num(c) + " is not OPSPLIT_CA_ACTIVE_REGION (0) or OPSPLIT_CA_ALL_CELLS (1)");
    g.set_all_cells(c == OPSPLIT_CA_ALL_CELLS);
  });
}

}  // extern "C"
