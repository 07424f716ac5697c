// C entry points of the groundwater reaction module.
#include "api/guard.hpp"
#include "chem/mechanism.hpp"
#include "gw/module.hpp"
#include "gw/setup_yaml.hpp"

using namespace opsplit;

namespace {
const char* kGw = "opsplit_gw";

GroundwaterModule& gw_arg(opsplit_gw gw) { return on_its_device(gw, "gw", kGw); }

// Copies a species list to `out` when it is not NULL.
void copy_list(const std::vector<int>& list, int* out) {
  if (out != nullptr) std::copy(list.begin(), list.end(), out);
}
}  // namespace

extern "C" {

OPSPLIT_API opsplit_status opsplit_gw_create(opsplit_context ctx, opsplit_mechanism mech, int64_t nxyz,
                                             opsplit_gw* gw) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    const chem::Mechanism& m = checked(mech, "mech", "opsplit_mechanism");
    if (&m.context() != &c) fail_argument("mech was made from another context than ctx");
    opsplit_gw& out = output(gw, "gw");
    if (c.is_cuda()) c.device().activate();
    out = make_handle<GroundwaterModule>(c, m, nxyz);
  });
}

OPSPLIT_API opsplit_status opsplit_gw_destroy(opsplit_gw* gw) {
  return api_guard(__func__, [&] { destroy_through(gw, kGw); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_counts(opsplit_gw gw, int64_t* nxyz, int64_t* nchem, int* ncomponents,
                                                 int* nimmobile) {
  return api_guard(__func__, [&] {
    const GroundwaterModule& m = gw_arg(gw);
    if (nxyz != nullptr) *nxyz = m.nxyz();
    if (nchem != nullptr) *nchem = m.nchem();
    if (ncomponents != nullptr) *ncomponents = m.ncomponents();
    if (nimmobile != nullptr) *nimmobile = m.nimmobile();
  });
}

OPSPLIT_API opsplit_status opsplit_gw_set_mobile(opsplit_gw gw, int species, int mobile) {
  return api_guard(__func__, [&] { gw_arg(gw).set_mobile(species, mobile != 0); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_species_lists(opsplit_gw gw, int* components, int* immobile) {
  return api_guard(__func__, [&] {
    const GroundwaterModule& m = gw_arg(gw);
    copy_list(m.components(), components);
    copy_list(m.immobile(), immobile);
  });
}

OPSPLIT_API opsplit_status opsplit_gw_set_mapping(opsplit_gw gw, const int* grid2chem) {
  return api_guard(__func__, [&] { gw_arg(gw).set_mapping(grid2chem); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_units(opsplit_gw gw, opsplit_gw_solution_units solution,
                                                opsplit_gw_solid_units solid) {
  return api_guard(__func__, [&] { gw_arg(gw).set_units(enum_value(solution), enum_value(solid)); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_molar_masses(opsplit_gw gw, const double* grams_per_mole) {
  return api_guard(__func__, [&] { gw_arg(gw).set_molar_masses(grams_per_mole); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_property(opsplit_gw gw, opsplit_gw_property property,
                                                   const double* values) {
  return api_guard(__func__, [&] { gw_arg(gw).set_property(enum_value(property), values); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_property(opsplit_gw gw, opsplit_gw_property property, double* values) {
  return api_guard(__func__, [&] { gw_arg(gw).get_property(enum_value(property), values); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_parameter(opsplit_gw gw, int param, const double* values) {
  return api_guard(__func__, [&] { gw_arg(gw).set_parameter(param, values); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_concentrations(opsplit_gw gw, const double* c) {
  return api_guard(__func__, [&] { gw_arg(gw).set_concentrations(c); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_concentrations(opsplit_gw gw, double* c) {
  return api_guard(__func__, [&] { gw_arg(gw).get_concentrations(c); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_immobile(opsplit_gw gw, const double* amounts) {
  return api_guard(__func__, [&] { gw_arg(gw).set_immobile(amounts); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_immobile(opsplit_gw gw, double* amounts) {
  return api_guard(__func__, [&] { gw_arg(gw).get_immobile(amounts); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_method(opsplit_gw gw, opsplit_ode_method method) {
  return api_guard(__func__, [&] { gw_arg(gw).set_method(enum_value(method)); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_tolerances(opsplit_gw gw, double rtol, double atol) {
  return api_guard(__func__, [&] { gw_arg(gw).set_tolerances(rtol, atol); });
}

OPSPLIT_API opsplit_status opsplit_gw_run(opsplit_gw gw, double dt) {
  return api_guard(__func__, [&] { gw_arg(gw).run(dt); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_status(opsplit_gw gw, int* status) {
  return api_guard(__func__, [&] { gw_arg(gw).get_status(status); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_moles(opsplit_gw gw, double* moles) {
  return api_guard(__func__, [&] { gw_arg(gw).get_moles(moles); });
}

OPSPLIT_API opsplit_status opsplit_gw_set_isotherm(opsplit_gw gw, int species, opsplit_gw_isotherm kind, double k,
                                                   double b) {
  return api_guard(__func__, [&] { gw_arg(gw).set_isotherm(species, enum_value(kind), k, b); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_retardation(opsplit_gw gw, double* retardation) {
  return api_guard(__func__, [&] { gw_arg(gw).get_retardation(retardation); });
}

OPSPLIT_API opsplit_status opsplit_gw_get_species_name(opsplit_gw gw, int species, const char** name) {
  return api_guard(__func__, [&] {
    const GroundwaterModule& m = gw_arg(gw);
    output(name, "name") = m.species_name(species).c_str();
  });
}

OPSPLIT_API opsplit_status opsplit_gw_load_yaml(opsplit_context ctx, const char* path, opsplit_gw* gw) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    if (path == nullptr) fail_argument("path is NULL");
    opsplit_gw& out = output(gw, "gw");
    if (c.is_cuda()) c.device().activate();
    out = adopt_handle(gw::load_setup_yaml(c, path));
  });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_update(opsplit_gw gw) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_update(); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_update_until(opsplit_gw gw, double time) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_update_until(time); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_get_var_count(opsplit_gw gw, opsplit_gw_bmi_role role, int* count) {
  return api_guard(__func__, [&] {
    const GroundwaterModule& m = gw_arg(gw);
    output(count, "count") = m.bmi_var_count(enum_value(role));
  });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_get_var_name(opsplit_gw gw, opsplit_gw_bmi_role role, int index,
                                                       const char** name) {
  return api_guard(__func__, [&] {
    const GroundwaterModule& m = gw_arg(gw);
    output(name, "name") = m.bmi_var_name(enum_value(role), index);
  });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_get_var_info(opsplit_gw gw, const char* name, const char** type,
                                                       const char** units, int* grid, int* itemsize,
                                                       int64_t* nbytes, const char** location) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_var_info(name, type, units, grid, itemsize, nbytes, location); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_get_times(opsplit_gw gw, double* start, double* current, double* end,
                                                    double* step) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_times(start, current, end, step); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_get_value(opsplit_gw gw, const char* name, void* dest) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_get_value(name, dest); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_set_value(opsplit_gw gw, const char* name, const void* src) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_set_value(name, src); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_get_value_at_indices(opsplit_gw gw, const char* name, void* dest,
                                                               const int* indices, int count) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_get_value_at_indices(name, dest, indices, count); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_set_value_at_indices(opsplit_gw gw, const char* name,
                                                               const int* indices, int count, const void* src) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_set_value_at_indices(name, indices, count, src); });
}

OPSPLIT_API opsplit_status opsplit_gw_bmi_get_grid_info(opsplit_gw gw, int grid, int* rank, int64_t* size,
                                                        const char** type) {
  return api_guard(__func__, [&] { gw_arg(gw).bmi_grid_info(grid, rank, size, type); });
}

}  // extern "C"
