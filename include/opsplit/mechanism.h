/* opsplit mechanisms: mass-action reaction networks built through the API.
 *
 * A mechanism is a list of species and of reactions between them, each with integer
 * stoichiometric coefficients and a rate constant. With concentrations y and per-system
 * parameters p (temperature, photolysis rates, ...), reaction r proceeds at
 *     w_r = k_r(p) * prod_{reactants s} y_s^{nu_rs}
 * and dy_s/dt = sum_r (nu'_rs - nu_rs) w_r (nu: reactant coefficients, nu': products).
 * The Jacobian is derived from the reactions exactly. An ODE batch copies a mechanism
 * when it is attached (opsplit_ode_set_mechanism), so later edits do not reach it. */
#ifndef OPSPLIT_MECHANISM_H
#define OPSPLIT_MECHANISM_H

#include "opsplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_mechanism_s* opsplit_mechanism;

/* How a reaction's rate constant k is computed (A, b, Ea and param of
 * opsplit_mechanism_set_rate):
 *   CONSTANT   k = A
 *   ARRHENIUS  k = A * T^b * exp(-Ea / (R T)), T = p[param] in kelvin, Ea in J/mol,
 *              R = 8.314462618 J/(mol K)
 *   PARAMETER  k = A * p[param]: a per-system rate such as a photolysis frequency */
typedef enum opsplit_rate_kind {
  OPSPLIT_RATE_CONSTANT = 0,
  OPSPLIT_RATE_ARRHENIUS = 1,
  OPSPLIT_RATE_PARAMETER = 2
} opsplit_rate_kind;

/* An empty mechanism. */
OPSPLIT_API opsplit_status opsplit_mechanism_create(opsplit_context ctx, opsplit_mechanism* mech);
OPSPLIT_API opsplit_status opsplit_mechanism_destroy(opsplit_mechanism* mech);
/* Adds a species; names are unique, non-empty, at most 64 bytes. index (0-based; may be
 * NULL) receives its number: species are numbered in the order they are added and are
 * the equations of an ODE batch in that order. */
OPSPLIT_API opsplit_status opsplit_mechanism_add_species(opsplit_mechanism mech, const char* name, int* index);
OPSPLIT_API opsplit_status opsplit_mechanism_find_species(opsplit_mechanism mech, const char* name, int* index);
/* name points into the mechanism: valid until the next add_species or its destroy. */
OPSPLIT_API opsplit_status opsplit_mechanism_get_species_name(opsplit_mechanism mech, int index, const char** name);
/* Adds a reaction: nreactants species (0 for a zero-order source) with their
 * coefficients, and nproducts species with theirs (coefficient arrays may be NULL: all
 * 1; a species listed twice on one side adds up). A species may appear on both sides
 * (a catalyst). The reaction has no rate until opsplit_mechanism_set_rate gives it
 * one; a mechanism with a reaction without a rate cannot be attached to an ODE batch. */
OPSPLIT_API opsplit_status opsplit_mechanism_add_reaction(opsplit_mechanism mech, int nreactants,
                                                          const int* reactants, const int* reactant_coefficients,
                                                          int nproducts, const int* products,
                                                          const int* product_coefficients, int* index);
/* Sets reaction `reaction`'s rate constant (see opsplit_rate_kind; b, Ea and param are
 * ignored where the kind does not use them). */
OPSPLIT_API opsplit_status opsplit_mechanism_set_rate(opsplit_mechanism mech, int reaction, opsplit_rate_kind kind,
                                                      double A, double b, double Ea, int param);
/* nspecies, nreactions, and nparams: the number of per-system parameters the rates
 * read (the largest param used + 1, 0 when none). Any output may be NULL. */
OPSPLIT_API opsplit_status opsplit_mechanism_get_counts(opsplit_mechanism mech, int* nspecies, int* nreactions,
                                                        int* nparams);
/* Evaluates dy/dt (nspecies values) and, when jacobian is not NULL, the Jacobian
 * (column-major: jacobian[i + j*nspecies] = d(dy_i/dt)/dy_j) of one system on the host,
 * with params holding at least nparams values (may be NULL when nparams is 0). */
OPSPLIT_API opsplit_status opsplit_mechanism_evaluate(opsplit_mechanism mech, const double* y,
                                                      const double* params, double* ydot, double* jacobian);

#ifdef __cplusplus
}
#endif

#endif /* OPSPLIT_MECHANISM_H */
