// C entry points of mechanisms.
#include <cmath>
#include <vector>

#include "api/guard.hpp"
#include "chem/loaders.hpp"
#include "chem/mechanism.hpp"

using namespace opsplit;

namespace {

// A built mechanism filled by a reader; nothing is left behind when the reader throws.
template <class Reader>
opsplit_status load_built(const char* function, opsplit_context ctx, const char* path, opsplit_mechanism* mech,
                          Reader read) {
  return api_guard(function, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_mechanism& out = output(mech, "mech");
    opsplit_mechanism loaded = make_handle<chem::Mechanism>(c);
    try {
      read(*loaded, text_input(path, "path"));
    } catch (...) {
      destroy_handle(loaded);
      throw;
    }
    out = loaded;
  });
}

const char* kMechanism = "opsplit_mechanism";
chem::Mechanism& mech_arg(opsplit_mechanism mech) { return checked(mech, "mech", kMechanism); }

double temperature_arg(double T) {
  if (!(T > 0.0) || !std::isfinite(T)) fail_argument("T=" + num(T) + " K is not positive and finite");
  return T;
}
double pressure_arg(double P) {
  if (!(P > 0.0) || !std::isfinite(P)) fail_argument("P=" + num(P) + " Pa is not positive and finite");
  return P;
}
// nspecies finite values of an input array.
const double* species_values(const chem::Mechanism& m, const double* values, const char* argument) {
  if (values == nullptr) fail_argument(std::string(argument) + " is NULL");
  for (int k = 0; k < m.nspecies(); ++k)
    if (!std::isfinite(values[k]))
      fail_argument(std::string(argument) + "[" + num(k) + "]=" + num(values[k]) + " is not finite");
  return values;
}
// The mixture at (T, P, Y) after checking them; Y must give a positive mean molar mass.
chem::Mixture mixture_arg(const chem::Mechanism& m, const chem::GasKinetics& g, double T, double P, const double* Y) {
  temperature_arg(T);  // checked in the order of the arguments
  pressure_arg(P);
  species_values(m, Y, "Y");
  const chem::Mixture mix = chem::mixture_properties(g, T, P, Y);
  if (!(mix.molar_mass > 0.0) || !std::isfinite(mix.molar_mass))
    fail_argument("Y gives a mean molar mass of " + num(mix.molar_mass) + " kg/mol (sum Y/W must be positive)");
  return mix;
}
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

OPSPLIT_API opsplit_status opsplit_mechanism_add_reaction_yields(opsplit_mechanism mech, int nreactants,
                                                                 const int* reactants, const int* reactant_coefficients,
                                                                 int nproducts, const int* products,
                                                                 const double* product_yields, int* index) {
  return api_guard(__func__, [&] {
    const int i = mech_arg(mech).add_reaction(nreactants, reactants, reactant_coefficients, nproducts, products,
                                              nullptr, product_yields);
    if (index != nullptr) *index = i;
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_set_rate(opsplit_mechanism mech, int reaction, opsplit_rate_kind kind,
                                                      double A, double b, double Ea, int param) {
  return api_guard(__func__, [&] { mech_arg(mech).set_rate(reaction, enum_value(kind), A, b, Ea, param); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_name_parameter(opsplit_mechanism mech, int param, const char* name) {
  return api_guard(__func__, [&] { mech_arg(mech).name_parameter(param, name); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_add_rate_factor(opsplit_mechanism mech, int reaction,
                                                             opsplit_rate_factor kind, int species, double K,
                                                             double second) {
  return api_guard(__func__, [&] { mech_arg(mech).add_rate_factor(reaction, enum_value(kind), species, K, second); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_clear_rate_factors(opsplit_mechanism mech, int reaction) {
  return api_guard(__func__, [&] { mech_arg(mech).clear_rate_factors(reaction); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_set_rate_species_sum(opsplit_mechanism mech, int reaction, int n,
                                                                  const int* species) {
  return api_guard(__func__, [&] { mech_arg(mech).set_rate_species_sum(reaction, n, species); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_set_rate_expression(opsplit_mechanism mech, int reaction,
                                                                 const char* expression) {
  return api_guard(__func__, [&] { mech_arg(mech).set_rate_expression(reaction, expression); });
}

OPSPLIT_API opsplit_status opsplit_mechanism_find_parameter(opsplit_mechanism mech, const char* name, int* index) {
  return api_guard(__func__, [&] {
    int& out = output(index, "index");
    out = mech_arg(mech).find_parameter(name);
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_load_kpp(opsplit_context ctx, const char* path, opsplit_mechanism* mech) {
  return load_built(__func__, ctx, path, mech, chem::load_kpp);
}

OPSPLIT_API opsplit_status opsplit_mechanism_load_micm(opsplit_context ctx, const char* path, opsplit_mechanism* mech) {
  return load_built(__func__, ctx, path, mech, chem::load_micm);
}

OPSPLIT_API opsplit_status opsplit_mechanism_get_parameter_name(opsplit_mechanism mech, int param, const char** name) {
  return api_guard(__func__, [&] {
    const char*& out = output(name, "name");
    out = mech_arg(mech).parameter_name(param).c_str();
  });
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

OPSPLIT_API opsplit_status opsplit_mechanism_get_reaction_equation(opsplit_mechanism mech, int reaction,
                                                                   const char** equation) {
  return api_guard(__func__, [&] {
    const chem::Mechanism& m = mech_arg(mech);
    const char*& out = output(equation, "equation");
    out = m.equation(reaction).c_str();
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_get_kind(opsplit_mechanism mech, opsplit_mechanism_kind* kind) {
  return api_guard(__func__, [&] {
    const chem::Mechanism& m = mech_arg(mech);
    output(kind, "kind") = m.is_gas() ? OPSPLIT_MECHANISM_GAS : OPSPLIT_MECHANISM_BUILT;
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_load_yaml(opsplit_context ctx, const char* path, const char* phase,
                                                       opsplit_mechanism* mech) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_mechanism& out = output(mech, "mech");
    chem::GasMechanism gas = chem::load_yaml(text_input(path, "path"), phase != nullptr ? phase : "");
    out = make_handle<chem::Mechanism>(c, std::move(gas));
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_load_chemkin(opsplit_context ctx, const char* mech_path,
                                                          const char* thermo_path, opsplit_mechanism* mech) {
  return api_guard(__func__, [&] {
    Context& c = checked(ctx, "ctx", "opsplit_context");
    opsplit_mechanism& out = output(mech, "mech");
    chem::GasMechanism gas =
        chem::load_chemkin(text_input(mech_path, "mech_path"), thermo_path != nullptr ? thermo_path : "");
    out = make_handle<chem::Mechanism>(c, std::move(gas));
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_get_molar_masses(opsplit_mechanism mech, double* molar_masses) {
  return api_guard(__func__, [&] {
    const chem::GasKinetics g = mech_arg(mech).compiled_gas("mech").view();
    double* out = &output(molar_masses, "molar_masses");
    for (int k = 0; k < g.nspecies; ++k) out[k] = g.molar_mass[k];
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_species_thermo(opsplit_mechanism mech, double T, double* cp_R,
                                                            double* h_RT, double* s_R) {
  return api_guard(__func__, [&] {
    const chem::GasKinetics g = mech_arg(mech).compiled_gas("mech").view();
    temperature_arg(T);
    for (int k = 0; k < g.nspecies; ++k)
      chem::nasa7_evaluate(g.nasa7 + chem::kNasa7Stride * k, T, std::log(T), cp_R != nullptr ? cp_R + k : nullptr,
                           h_RT != nullptr ? h_RT + k : nullptr, s_R != nullptr ? s_R + k : nullptr);
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_mixture_properties(opsplit_mechanism mech, double T, double P,
                                                                const double* Y, double* density, double* cp,
                                                                double* cv, double* enthalpy,
                                                                double* internal_energy) {
  return api_guard(__func__, [&] {
    const chem::Mechanism& m = mech_arg(mech);
    const chem::GasKinetics g = m.compiled_gas("mech").view();
    const chem::Mixture mix = mixture_arg(m, g, T, P, Y);
    if (density != nullptr) *density = mix.density;
    if (cp != nullptr) *cp = mix.cp;
    if (cv != nullptr) *cv = mix.cv;
    if (enthalpy != nullptr) *enthalpy = mix.enthalpy;
    if (internal_energy != nullptr) *internal_energy = mix.internal_energy;
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_concentrations(opsplit_mechanism mech, double T, double P,
                                                            const double* Y, double* concentrations) {
  return api_guard(__func__, [&] {
    const chem::Mechanism& m = mech_arg(mech);
    const chem::GasKinetics g = m.compiled_gas("mech").view();
    const chem::Mixture mix = mixture_arg(m, g, T, P, Y);
    double* out = &output(concentrations, "concentrations");
    for (int k = 0; k < g.nspecies; ++k) out[k] = mix.density * Y[k] / g.molar_mass[k];
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_net_production_rates(opsplit_mechanism mech, double T,
                                                                  const double* concentrations, double* wdot) {
  return api_guard(__func__, [&] {
    const chem::Mechanism& m = mech_arg(mech);
    const chem::GasKinetics g = m.compiled_gas("mech").view();
    m.check_gas_state(T, concentrations, "concentrations");
    double* out = &output(wdot, "wdot");
    std::vector<double> g_RT(static_cast<size_t>(g.nspecies));
    chem::net_production_rates(g, T, concentrations, g_RT.data(), out);
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_rates_of_progress(opsplit_mechanism mech, double T,
                                                               const double* concentrations, double* forward,
                                                               double* reverse) {
  return api_guard(__func__, [&] {
    const chem::Mechanism& m = mech_arg(mech);
    const chem::GasKinetics g = m.compiled_gas("mech").view();
    const double* C = concentrations;
    const double C_total = m.check_gas_state(T, C, "concentrations");
    const chem::GasConditions c = chem::gas_conditions(T, C_total * chem::kGasConstant * T);
    std::vector<double> g_RT(static_cast<size_t>(g.nspecies));
    chem::species_gibbs_RT(g, c, g_RT.data());
    for (int r = 0; r < g.nreactions; ++r) {
      double qf, qr;
      chem::rates_of_progress(g, r, c, C, C_total, g_RT.data(), &qf, &qr);
      if (forward != nullptr) forward[r] = qf;
      if (reverse != nullptr) reverse[r] = qr;
    }
  });
}

OPSPLIT_API opsplit_status opsplit_mechanism_evaluate(opsplit_mechanism mech, const double* y, const double* params,
                                                      double* ydot, double* jacobian) {
  return api_guard(__func__, [&] { mech_arg(mech).evaluate(y, params, ydot, jacobian); });
}

}  // extern "C"
