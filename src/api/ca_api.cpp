// C entry points of CA grids.
#include "api/guard.hpp"
#include "core/device_array.hpp"
#include "ca/ca.hpp"
#include "core/group.hpp"
#include "core/hash.hpp"
#include "opsplit/group.h"

using namespace opsplit;

namespace {
const char* kCa = "opsplit_ca";

opsplit_ca_s& ca_arg(opsplit_ca ca) { return on_its_device(ca, "ca", kCa); }

// A lava grid behind the handle (INVALID_ARGUMENT for a LIFE grid, naming the call).
ca::LavaGrid& lava_arg(opsplit_ca ca, const char* function) { return ca_arg(ca).lava(function); }

// A collective call on a distributed grid: `check` (this process's arguments) settled
// with the others and the values every process must pass alike, then the lava grid.
// Alone, the same without the agreement. A bad handle cannot join: the others wait.
template <class Check>
ca::LavaGrid& agreed_lava(opsplit_ca ca, const char* function, const std::vector<int64_t>& same, const char* names,
                          Check check) {
  opsplit_ca_s& grid = ca_arg(ca);
  ca::LavaGrid* g = nullptr;
  grid.settle(attempt([&] {
                g = &grid.lava(function);
                check();
              }),
              function, same, names);
  return *g;
}

// What a load agrees on: its outcome on every process.
ca::LavaGrid::Agree agreement_of(opsplit_ca ca, const char* function) {
  const opsplit_ca_s* grid = &ca_arg(ca);
  return [grid, function](std::exception_ptr failed) { grid->settle(failed, function); };
}

// FNV-1a of n doubles' bits (0 for none, or for more than a schedule may have: add_vent
// then refuses the count without reading the array).
int64_t hash_of(const double* x, int64_t n) {
  if (x == nullptr || n < 1 || n > ca::kLavaMaxSlots) return 0;
  Fnv1a h;
  for (int64_t i = 0; i < n; ++i) h.add(static_cast<uint64_t>(bits_of(x[i])));
  return static_cast<int64_t>(h.value);
}

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

OPSPLIT_API opsplit_status opsplit_ca_get_place(opsplit_ca ca, int64_t* first_row, int64_t* first_col,
                                                int64_t* global_rows, int64_t* global_cols) {
  return api_guard(__func__, [&] {
    const opsplit_ca_s& g = ca_arg(ca);
    int64_t* out[4] = {&output(first_row, "first_row"), &output(first_col, "first_col"),
                       &output(global_rows, "global_rows"), &output(global_cols, "global_cols")};
    int64_t place[4];
    g.get_place(place);
    for (int i = 0; i < 4; ++i) *out[i] = place[i];
  });
}

OPSPLIT_API opsplit_status opsplit_ca_attach_distributed(opsplit_ca ca, const opsplit_group* group,
                                                         const opsplit_decomposition* decomposition) {
  return api_guard(__func__, [&] {
    attach_agreed(group, decomposition, __func__, [&]() -> opsplit_ca_s& { return ca_arg(ca); });
  });
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

OPSPLIT_API opsplit_status opsplit_ca_set_cells_device(opsplit_ca ca, const uint8_t* cells, opsplit_ca_order order) {
  return api_guard(__func__, [&] {
    opsplit_ca_s& g = ca_arg(ca);
    in_host_order(g.context(), [&] { g.set_cells_device(cells, enum_value(order)); });
  });
}

OPSPLIT_API opsplit_status opsplit_ca_get_cells_device(opsplit_ca ca, uint8_t* cells, opsplit_ca_order order) {
  return api_guard(__func__, [&] {
    const opsplit_ca_s& g = ca_arg(ca);
    in_host_order(g.context(), [&] { g.get_cells_device(cells, enum_value(order)); });
  });
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

// A CPU context refused first (UNSUPPORTED naming the host form), then a LIFE grid.
OPSPLIT_API opsplit_status opsplit_ca_set_substate_device(opsplit_ca ca, const char* name, const double* values,
                                                          opsplit_ca_order order) {
  return api_guard(__func__, [&] {
    opsplit_ca_s& grid = ca_arg(ca);
    require_cuda_context(grid.context(), "opsplit_ca_set_substate");
    ca::LavaGrid& g = grid.lava(__func__);
    in_host_order(grid.context(), [&] { g.set_substate_device(text_input(name, "name"), values, column_major(order)); });
  });
}

OPSPLIT_API opsplit_status opsplit_ca_get_substate_device(opsplit_ca ca, const char* name, double* values,
                                                          opsplit_ca_order order) {
  return api_guard(__func__, [&] {
    const opsplit_ca_s& grid = ca_arg(ca);
    require_cuda_context(grid.context(), "opsplit_ca_get_substate");
    const ca::LavaGrid& g = grid.lava(__func__);
    in_host_order(grid.context(), [&] { g.get_substate_device(text_input(name, "name"), values, column_major(order)); });
  });
}

OPSPLIT_API opsplit_status opsplit_ca_load_substate(opsplit_ca ca, const char* name, const char* path) {
  return api_guard(__func__, [&] {
    std::string n, p;
    ca::LavaGrid& g = agreed_lava(ca, __func__, {}, "", [&] { n = text_input(name, "name"), p = text_input(path, "path"); });
    g.load_substate(n, p, agreement_of(ca, __func__));
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
    std::string p;
    ca::LavaGrid& g = agreed_lava(ca, __func__, {}, "", [&] { p = text_input(path, "path"); });
    g.load_parameters(p, agreement_of(ca, __func__));
  });
}

OPSPLIT_API opsplit_status opsplit_ca_add_vent(opsplit_ca ca, int64_t row, int64_t col, const double* rates,
                                               int64_t nslots, double slot_seconds, int64_t* vent) {
  return api_guard(__func__, [&] {
    // The same vent everywhere, or none (add_vent's own checks then fail alike).
    ca::LavaGrid& g = agreed_lava(ca, __func__, {row, col, nslots, bits_of(slot_seconds), hash_of(rates, nslots)},
                                  "vents (row, col, nslots, slot_seconds or rates)", [] {});
    const int64_t v = g.add_vent(row, col, rates, nslots, slot_seconds);
    if (vent != nullptr) *vent = v;
  });
}

OPSPLIT_API opsplit_status opsplit_ca_load_vents(opsplit_ca ca, const char* vents_path, const char* rates_path) {
  return api_guard(__func__, [&] {
    std::string v, r;
    ca::LavaGrid& g = agreed_lava(ca, __func__, {}, "", [&] {
      v = text_input(vents_path, "vents_path"), r = text_input(rates_path, "rates_path");
    });
    g.load_vents(v, r, agreement_of(ca, __func__));
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
    double *e = nullptr, *l = nullptr, *s = nullptr, *o = nullptr;
    const ca::LavaGrid& g = agreed_lava(ca, __func__, {}, "", [&] {
      e = &output(emitted, "emitted"), l = &output(lava, "lava");
      s = &output(solidified, "solidified"), o = &output(lost, "lost");
    });
    g.volumes(*e, *l, *s, *o);
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
