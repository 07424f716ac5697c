// C entry points of the groundwater reaction module.
#include "api/guard.hpp"
#include "chem/mechanism.hpp"
#include "gw/module.hpp"

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

}  // extern "C"
