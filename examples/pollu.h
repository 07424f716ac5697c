/* POLLU: the air-pollution network of Verwer (1994), "Gauss-Seidel iteration for stiff
 * ODEs from chemical kinetics", SIAM J. Sci. Comput. 15, as the IVP test set of the
 * University of Bari writes it (problem "pollu", pollu.f revision 1.2): 20 species, 25
 * mass-action reactions, concentrations in ppm, time in minutes, rate constants in the
 * matching units. Stiff: O1D lives about 1e-12 min.
 *
 * Shared by the ODE tests, the ODE benchmark and the operator-split examples:
 *   opsplit_mechanism mech;
 *   pollu_build(ctx, &mech);   // species 0..19 in the order of pollu_species
 *
 * Reaction r consumes pollu_reactants[r][0..1] (-1 = none) and makes
 * pollu_products[r][0..2] (-1 = none; a species listed twice is made twice) at the rate
 * pollu_k[r] * prod(reactant concentrations). (O2, H2 and other untracked species are
 * left out, as in the test set.) */
#ifndef OPSPLIT_EXAMPLES_POLLU_H
#define OPSPLIT_EXAMPLES_POLLU_H

#include "opsplit/mechanism.h"

#define POLLU_NSPECIES 20
#define POLLU_NREACTIONS 25

static const char* const pollu_species[POLLU_NSPECIES] = {
    "NO2", "NO", "O3P", "O3", "HO2", "OH", "HCHO", "CO", "ALD", "MEO2",
    "C2O3", "CO2", "PAN", "CH3O", "HNO3", "O1D", "SO2", "SO4", "NO3", "N2O5"};

static const int pollu_reactants[POLLU_NREACTIONS][2] = {
    {0, -1},  {1, 3},   {4, 1},   {6, -1},  {6, -1},  {6, 5},   {8, -1},  {8, 5},   {10, 1},
    {10, 0},  {12, -1}, {9, 1},   {13, -1}, {0, 5},   {2, -1},  {3, -1},  {3, -1},  {15, -1},
    {15, -1}, {16, 5},  {18, -1}, {18, -1}, {0, 3},   {18, 0},  {19, -1}};

static const int pollu_products[POLLU_NREACTIONS][3] = {
    {1, 2, -1},  {0, -1, -1},  {0, 5, -1},   {4, 4, 7},    {7, -1, -1},  {4, 7, -1},  {9, 4, 7},
    {10, -1, -1}, {0, 9, 11},  {12, -1, -1}, {10, 0, -1},  {13, 0, -1},  {6, 4, -1},  {14, -1, -1},
    {3, -1, -1},  {15, -1, -1}, {2, -1, -1}, {5, 5, -1},   {2, -1, -1},  {17, 4, -1}, {1, -1, -1},
    {0, 2, -1},   {18, -1, -1}, {19, -1, -1}, {18, 0, -1}};

static const double pollu_k[POLLU_NREACTIONS] = {
    0.35,   26.6,   1.23e4, 8.6e-4, 8.2e-4, 1.5e4, 1.3e-4, 2.4e4,   1.65e4,   9.0e3, 2.2e-2, 1.2e4, 1.88,
    1.63e4, 4.8e6,  3.5e-4, 1.75e-2, 1.0e8, 4.44e11, 1.24e3, 2.1,   5.78,     4.74e-2, 1.78e3, 3.12};

/* The test set's initial state (t = 0) and reference solution at t = 60 (RADAU5 at
 * rtol = atol = 1.1e-18 in quadruple-like precision on a Cray C90, pollu.f "solut"). */
static const double pollu_y0[POLLU_NSPECIES] = {0, 0.2, 0, 0.04, 0, 0, 0.1, 0.3, 0.01, 0,
                                                0, 0,   0, 0,    0, 0, 0.007, 0, 0, 0};
static const double pollu_reference_t60[POLLU_NSPECIES] = {
    0.5646255480022769e-01, 0.1342484130422339e+00, 0.4139734331099427e-08, 0.5523140207484359e-02,
    0.2018977262302196e-06, 0.1464541863493966e-06, 0.7784249118997964e-01, 0.3245075353396018e+00,
    0.7494013383880406e-02, 0.1622293157301561e-07, 0.1135863833257075e-07, 0.2230505975721359e-02,
    0.2087162882798630e-03, 0.1396921016840158e-04, 0.8964884856898295e-02, 0.4352846369330103e-17,
    0.6899219696263405e-02, 0.1007803037365946e-03, 0.1772146513969984e-05, 0.5682943292316392e-04};

static inline int pollu_count(const int* list, int max) {
  int n = 0;
  while (n < max && list[n] >= 0) ++n;
  return n;
}

/* Builds the network as a new mechanism in *mech. On failure *mech is destroyed (NULL)
 * and the status of the failed call is returned (opsplit_last_error_message says why). */
static inline opsplit_status pollu_build(opsplit_context ctx, opsplit_mechanism* mech) {
  opsplit_status s = opsplit_mechanism_create(ctx, mech);
  int i, r, index;
  for (i = 0; s == OPSPLIT_SUCCESS && i < POLLU_NSPECIES; ++i)
    s = opsplit_mechanism_add_species(*mech, pollu_species[i], &index);
  for (r = 0; s == OPSPLIT_SUCCESS && r < POLLU_NREACTIONS; ++r) {
    s = opsplit_mechanism_add_reaction(*mech, pollu_count(pollu_reactants[r], 2), pollu_reactants[r], 0,
                                       pollu_count(pollu_products[r], 3), pollu_products[r], 0, &index);
    if (s == OPSPLIT_SUCCESS) s = opsplit_mechanism_set_rate(*mech, index, OPSPLIT_RATE_CONSTANT, pollu_k[r], 0, 0, 0);
  }
  if (s != OPSPLIT_SUCCESS) opsplit_mechanism_destroy(mech);
  return s;
}

#endif /* OPSPLIT_EXAMPLES_POLLU_H */
