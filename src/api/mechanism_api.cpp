// C entry points of mechanisms.
#include "api/guard.hpp"
#include "chem/mechanism.hpp"

using namespace opsplit;

namespace {
const char* kMechanism = "opsplit_mechanism";
chem::Mechanism& mech_arg(opsplit_mechanism mech) { return checked(mech, "mech", kMechanism); }
}  // namespace

extern "C" {

OPSPLIT_API opsplit_status opsplit_mechanism_create(opsplit_context ctx, opsplit_mechanism* mech) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_mechanism& out = output(mech, "mech");
    out = make_handle<chem::Mechanism>(c);
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_destroy(opsplit_mechanism* mech) {
  return api_guard(__func__, [&] { destroy_through(mech, kMechanism); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_add_species(opsplit_mechanism mech, const char* name, int* index) {
  return api_guard(__func__, [&] {
    const int i = mech_arg(mech).add_species(name);
    if (index != nullptr) *index = i;
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_find_species(opsplit_mechanism mech, const char* name, int* index) {
  return api_guard(__func__, [&] {
    chem::Mechanism& m = mech_arg(mech);
    int& out = output(index, "index");
    out = m.find_species(name);
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_get_species_name(opsplit_mechanism mech, int index, const char** name) {
  return api_guard(__func__, [&] {
    chem::Mechanism& m = mech_arg(mech);
    const char*& out = output(name, "name");
    out = m.species_name(index).c_str();
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_add_reaction(opsplit_mechanism mech, int nreactants,
                                                          const int* reactants, const int* reactant_coefficients,
                                                          int nproducts, const int* products,
                                                          const int* product_coefficients, int* index) {
  return api_guard(__func__, [&] {
    const int i = mech_arg(mech).add_reaction(nreactants, reactants, reactant_coefficients, nproducts, products,
                                              product_coefficients);
    if (index != nullptr) *index = i;
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_set_rate(opsplit_mechanism mech, int reaction, opsplit_rate_kind kind,
                                                      double A, double b, double Ea, int param) {
  return api_guard(__func__, [&] { mech_arg(mech).set_rate(reaction, enum_value(kind), A, b, Ea, param); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_get_counts(opsplit_mechanism mech, int* nspecies, int* nreactions,
                                                        int* nparams) {
  return api_guard(__func__, [&] {
    const chem::Mechanism& m = mech_arg(mech);
    if (nspecies != nullptr) *nspecies = m.nspecies();
    if (nreactions != nullptr) *nreactions = m.nreactions();
    if (nparams != nullptr) *nparams = m.nparams();
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_evaluate(opsplit_mechanism mech, const double* y, const double* params,
                                                      double* ydot, double* jacobian) {
  return api_guard(__func__, [&] { mech_arg(mech).evaluate(y, params, ydot, jacobian); });
}

}  // extern "C"
