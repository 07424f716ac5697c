/* opsplit's groundwater reaction module: the chemistry step of a reactive-transport host
 * (MODFLOW 6, MT3D-USGS, in-house codes), called in the operator-split loop that
 * PhreeqcRM's hosts run: each transport step the host sets porosity, saturation,
 * temperature and the concentrations per grid cell, runs the cells for the step, and
 * takes the concentrations back to transport.
 *
 * Kinetics: a BUILT mechanism (mechanism.h): first-order decay chains with yields,
 * Monod and inhibition factors (opsplit_mechanism_add_rate_factor), kinetic sorption as
 * a pair of first-order reactions. Each species is mobile (dissolved: the host
 * transports it, a "component") or immobile (sorbed, mineral, biomass: it stays in the
 * module). The mechanism works in mol per litre of water for every species, immobile
 * ones included: its rate and half-saturation constants are in those units. The host's
 * units are converted at the boundary (opsplit_gw_set_units).
 *
 * Cells. nxyz grid cells map to chemistry cells (opsplit_gw_set_mapping, PhreeqcRM's
 * grid2chem; the identity by default). A grid cell mapped to -1 is left out: the module
 * never reads or writes its values. Grid cells that share a chemistry cell give it the
 * properties and concentrations of the first of them (the lowest index) and all get
 * its results. A chemistry cell's water is V_w = porosity x saturation x volume
 * (litres); a cell with V_w = 0 (dry) is not run and keeps its amounts. Immobile amounts
 * are kept as moles per cell, so that a change of saturation between steps conserves
 * them; their concentration in the water is moles / V_w.
 *
 * Arrays over the grid hold one value per grid cell (nxyz); concentrations and immobile
 * amounts c[i * nxyz + cell] for species i of the list (C c[n][nxyz], Fortran
 * c(nxyz, n)), as PhreeqcRM's. Every run starts each cell afresh (its steps depend on
 * its own values only): a cell gives the same numbers in any grid and mapping. */
#ifndef OPSPLIT_GROUNDWATER_H
#define OPSPLIT_GROUNDWATER_H

#include "opsplit/core.h"
#include "opsplit/mechanism.h"
#include "opsplit/ode.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_gw_s* opsplit_gw;

/* The host's units for concentrations of mobile species (PhreeqcRM's numbers 1 and 2;
 * its 3 is kg/kg of solution, which this module does not take):
 *   MG_PER_L     mg per litre of water: mol/L = mg/L x 1e-3 / molar mass (g/mol), which
 *                opsplit_gw_set_molar_masses gives;
 *   MOL_PER_L    mol per litre of water: the mechanism's own (no conversion);
 *   MOL_PER_KGW  mol per kg of water: mol/L = mol/kgw x the cell's DENSITY (kg of water
 *                per litre). */
typedef enum opsplit_gw_solution_units {
  OPSPLIT_GW_MG_PER_L = 1,
  OPSPLIT_GW_MOL_PER_L = 2,
  OPSPLIT_GW_MOL_PER_KGW = 3
} opsplit_gw_solution_units;

/* The host's units for immobile amounts, mol per litre of (PhreeqcRM's kinetics units):
 *   PER_L_CELL   the cell: moles = m x volume;
 *   PER_L_WATER  its pores: moles = m x porosity x volume (saturation not counted, as
 *                in PhreeqcRM);
 *   PER_L_ROCK   its solid: moles = m x (1 - porosity) x volume. */
typedef enum opsplit_gw_solid_units {
  OPSPLIT_GW_PER_L_CELL = 0,
  OPSPLIT_GW_PER_L_WATER = 1,
  OPSPLIT_GW_PER_L_ROCK = 2
} opsplit_gw_solid_units;

/* Per grid cell properties (nxyz values each), with their defaults (PhreeqcRM's):
 *   POROSITY     in [0, 1], default 0.1
 *   SATURATION   in [0, 1], default 1
 *   VOLUME       the cell's representative volume, litres, > 0, default 1
 *   DENSITY      kg of water per litre of water, > 0, default 1 (MOL_PER_KGW only)
 *   TEMPERATURE  degrees Celsius, > -273.15, default 25: the mechanism's parameter
 *                named TEMP, if it has one, gets it in kelvin (Arrhenius rates)
 *   PRESSURE     atm, > 0, default 1: the parameter named PRESS, if any, gets it in Pa
 *   BULK_DENSITY kg of solid per litre of cell, >= 0, no default: equilibrium isotherms
 *                (opsplit_gw_set_isotherm) need it set */
typedef enum opsplit_gw_property {
  OPSPLIT_GW_POROSITY = 0,
  OPSPLIT_GW_SATURATION = 1,
  OPSPLIT_GW_VOLUME = 2,
  OPSPLIT_GW_DENSITY = 3,
  OPSPLIT_GW_TEMPERATURE = 4,
  OPSPLIT_GW_PRESSURE = 5,
  OPSPLIT_GW_BULK_DENSITY = 6
} opsplit_gw_property;

/* Equilibrium sorption of a mobile species, S (mol per kg of solid) as a function of C
 * (mol per litre of water, the module's units whatever the host's):
 *   NONE        no isotherm (the default)
 *   LINEAR      S = k C                      (k = Kd, L/kg)
 *   FREUNDLICH  S = k C^b                    (k in (mol/kg)/(mol/L)^b, b > 0)
 *   LANGMUIR    S = b k C / (1 + k C)        (k in L/mol, b the capacity, mol/kg)
 * The module does not integrate them: it returns the retardation factor they give
 * (opsplit_gw_get_retardation) for the host's transport. A field takes one R per
 * component (opsplit_rd_set_retardation): a linear isotherm in a uniform medium gives
 * that; a nonlinear one, or porosity and bulk density that vary, need the host's own
 * transport with R per cell. */
typedef enum opsplit_gw_isotherm {
  OPSPLIT_GW_ISOTHERM_NONE = 0,
  OPSPLIT_GW_ISOTHERM_LINEAR = 1,
  OPSPLIT_GW_ISOTHERM_FREUNDLICH = 2,
  OPSPLIT_GW_ISOTHERM_LANGMUIR = 3
} opsplit_gw_isotherm;

/* opsplit_gw_get_status's value for a grid cell that was not run: left out by the
 * mapping, or dry. Cells that ran have their opsplit_ode_result. */
typedef enum opsplit_gw_cell {
  OPSPLIT_GW_CELL_NOT_RUN = -1
} opsplit_gw_cell;

/* A module of nxyz grid cells (nxyz >= 1) over a copy of a BUILT mechanism whose
 * reactions all have rates: every species mobile, every amount 0, the properties'
 * defaults, the identity mapping, units MOL_PER_L and PER_L_CELL, ROSENBROCK at rtol
 * 1e-6 and atol 1e-15 mol/L. On the context's backend (CUDA integrates the cells on the
 * GPU; the arrays are the host's). */
OPSPLIT_API opsplit_status opsplit_gw_create(opsplit_context ctx, opsplit_mechanism mech, int64_t nxyz,
                                             opsplit_gw* gw);
OPSPLIT_API opsplit_status opsplit_gw_destroy(opsplit_gw* gw);
/* nxyz, the number of chemistry cells, of mobile species (components) and of immobile
 * ones; any output may be NULL. */
OPSPLIT_API opsplit_status opsplit_gw_get_counts(opsplit_gw gw, int64_t* nxyz, int64_t* nchem, int* ncomponents,
                                                 int* nimmobile);
/* Marks species `species` (the mechanism's index) mobile (1) or immobile (0); its
 * amount becomes 0 in every cell. The components are the mobile species in the
 * mechanism's order, the immobile list the rest in the same order. */
OPSPLIT_API opsplit_status opsplit_gw_set_mobile(opsplit_gw gw, int species, int mobile);
/* The mechanism's species index of each component (ncomponents values) and of each
 * immobile species (nimmobile values); either may be NULL. */
OPSPLIT_API opsplit_status opsplit_gw_get_species_lists(opsplit_gw gw, int* components, int* immobile);
/* grid2chem: nxyz chemistry cell numbers or -1; the numbers used must be 0 .. nchem-1,
 * each at least once. Every amount becomes 0 (set them after the mapping). */
OPSPLIT_API opsplit_status opsplit_gw_set_mapping(opsplit_gw gw, const int* grid2chem);
OPSPLIT_API opsplit_status opsplit_gw_set_units(opsplit_gw gw, opsplit_gw_solution_units solution,
                                                opsplit_gw_solid_units solid);
/* Molar masses in g/mol of every species of the mechanism (nspecies values, > 0):
 * needed for MG_PER_L. */
OPSPLIT_API opsplit_status opsplit_gw_set_molar_masses(opsplit_gw gw, const double* grams_per_mole);
/* nxyz values of a property; a value out of its range is INVALID_ARGUMENT naming the
 * cell and the value, and changes nothing. */
OPSPLIT_API opsplit_status opsplit_gw_set_property(opsplit_gw gw, opsplit_gw_property property,
                                                   const double* values);
OPSPLIT_API opsplit_status opsplit_gw_get_property(opsplit_gw gw, opsplit_gw_property property, double* values);
/* nxyz values of the mechanism's per-system parameter `param` (finite; default 0), for
 * rates that read other inputs than TEMP and PRESS, which the module sets itself. */
OPSPLIT_API opsplit_status opsplit_gw_set_parameter(opsplit_gw gw, int param, const double* values);

/* The isotherm of mobile species `species` (the mechanism's index): k > 0 and b > 0
 * finite (NONE ignores both, LINEAR ignores b). Marking the species immobile removes it. */
OPSPLIT_API opsplit_status opsplit_gw_set_isotherm(opsplit_gw gw, int species, opsplit_gw_isotherm kind, double k,
                                                   double b);
/* Per component and grid cell (ncomponents x nxyz, the concentrations' layout), the
 * retardation factor of the current concentrations,
 *   R = 1 + (BULK_DENSITY / theta) dS/dC,   theta = POROSITY x SATURATION,
 * with the grid cell's own properties and its chemistry cell's concentration; 1 for a
 * component without an isotherm. FREUNDLICH with b < 1 is infinitely steep at C = 0: its
 * slope is taken at max(C, atol) (opsplit_gw_set_tolerances). Grid cells left out by the
 * mapping, and dry ones (theta = 0), are not written. */
OPSPLIT_API opsplit_status opsplit_gw_get_retardation(opsplit_gw gw, double* retardation);

/* The components' concentrations (ncomponents x nxyz, finite) in the solution units. */
OPSPLIT_API opsplit_status opsplit_gw_set_concentrations(opsplit_gw gw, const double* c);
OPSPLIT_API opsplit_status opsplit_gw_get_concentrations(opsplit_gw gw, double* c);
/* The immobile species' amounts (nimmobile x nxyz, finite) in the solid units; a dry
 * cell's are read as a wet one's (they are per litre of cell, pores or rock). */
OPSPLIT_API opsplit_status opsplit_gw_set_immobile(opsplit_gw gw, const double* amounts);
OPSPLIT_API opsplit_status opsplit_gw_get_immobile(opsplit_gw gw, double* amounts);
/* The integration of each cell (opsplit_ode_set_method, opsplit_ode_set_tolerances;
 * atol in mol per litre of water). */
OPSPLIT_API opsplit_status opsplit_gw_set_method(opsplit_gw gw, opsplit_ode_method method);
OPSPLIT_API opsplit_status opsplit_gw_set_tolerances(opsplit_gw gw, double rtol, double atol);

/* Runs every chemistry cell with water for dt seconds (dt >= 0). A cell that fails
 * keeps its amounts and reports why (opsplit_gw_get_status); the others advance; the
 * call then returns OPSPLIT_ERROR_NUMERICAL naming the first failed grid cell. */
OPSPLIT_API opsplit_status opsplit_gw_run(opsplit_gw gw, double dt);
/* Per grid cell (nxyz values): the opsplit_ode_result of its chemistry cell's last run,
 * or OPSPLIT_GW_CELL_NOT_RUN. */
OPSPLIT_API opsplit_status opsplit_gw_get_status(opsplit_gw gw, int* status);
/* Moles of every species of the mechanism (nspecies values) over the chemistry cells:
 * the mass balance of a run (dissolved: concentration x V_w; immobile: their moles). */
OPSPLIT_API opsplit_status opsplit_gw_get_moles(opsplit_gw gw, double* moles);
/* The name of species `species` (the mechanism's index); valid while gw lives. */
OPSPLIT_API opsplit_status opsplit_gw_get_species_name(opsplit_gw gw, int species, const char** name);

/* ---- A setup file ----
 * A module made from a YAML file (docs/API.md, "Groundwater setup file", gives every
 * key): the cells and their mapping, the species and which are immobile, the reactions
 * with their rates and Monod / inhibition / threshold factors, isotherms, units, molar
 * masses, per-cell properties (one value or nxyz), initial amounts, the integration and
 * the BMI clock. A file that cannot be read is IO; one that is not such a file PARSE
 * naming the file, the line and the key or value; unknown keys are refused (a misspelt
 * key must not pass unnoticed). This is BMI's initialize: the functions below are its
 * other calls, opsplit_gw_destroy its finalize. */
OPSPLIT_API opsplit_status opsplit_gw_load_yaml(opsplit_context ctx, const char* path, opsplit_gw* gw);

/* ---- BMI 2.0 (the CSDMS Basic Model Interface) ----
 * The module's BMI calls, each a C function over the handle (opsplit/bmi/groundwater_bmi.h
 * fills bmi-c's function table with them; fortran/bmi/opsplit_bmif.f90 extends
 * bmi-fortran's abstract type). Time is in seconds:
 * update runs TimeStep and advances Time by it (also when cells fail: the others took
 * the step, Status says which did not; a step that did not run, cancelled or out of
 * memory, leaves Time); update_until(t) runs t - Time, t >= Time.
 * Variables (all outputs; the first eleven also inputs), BMIPhreeqcRM's names where
 * they mean the same, types "double" but the "int" ones marked:
 *   Concentrations        ncomponents x nxyz, the solution units ("mol L-1", "mg L-1",
 *                         "mol kg-1"), the layout of opsplit_gw_set_concentrations
 *   ImmobileAmounts       nimmobile x nxyz, "mol L-1" of the solid units
 *   Porosity, SaturationUser ("1"), RepresentativeVolume ("L"), DensityUser ("kg L-1"),
 *   Temperature ("degC"), Pressure ("atm"), BulkDensity ("kg L-1")   nxyz each
 *   Time, TimeStep        one value, "s"
 *   Retardation           ncomponents x nxyz, "1" (opsplit_gw_get_retardation)
 *   Status                nxyz, int (opsplit_gw_get_status)
 *   ComponentCount, GridCellCount   one int each
 * Grid 0 is nxyz "points" (rank 1; the module knows no coordinates), grid 1 a "scalar".
 * get_value writes every value: Concentrations, ImmobileAmounts and Retardation read NaN
 * in a grid cell left out by the mapping (Status NOT_RUN), Retardation also in a dry
 * one; the properties are every grid cell's own. set_value checks every value before it
 * writes any; a concentration or immobile amount for a grid cell that its chemistry cell
 * does not read (left out, or not the first on a shared one) is not kept, a property is
 * (each grid cell's own: Retardation reads it). BMI's get_value_ptr has no equivalent
 * (the module keeps moles per chemistry cell, not the host's array). */
typedef enum opsplit_gw_bmi_role {
  OPSPLIT_GW_BMI_INPUT = 0,
  OPSPLIT_GW_BMI_OUTPUT = 1
} opsplit_gw_bmi_role;
OPSPLIT_API opsplit_status opsplit_gw_bmi_update(opsplit_gw gw);
OPSPLIT_API opsplit_status opsplit_gw_bmi_update_until(opsplit_gw gw, double time);
/* The number of input or output variables, and the index-th's name (static text). */
OPSPLIT_API opsplit_status opsplit_gw_bmi_get_var_count(opsplit_gw gw, opsplit_gw_bmi_role role, int* count);
OPSPLIT_API opsplit_status opsplit_gw_bmi_get_var_name(opsplit_gw gw, opsplit_gw_bmi_role role, int index,
                                                       const char** name);
/* A variable's type ("double" or "int"), units, grid, item size and total bytes, and
 * location ("node" on grid 0, "none" on the scalar grid); any output may be NULL. The
 * texts are static. nbytes is 64-bit (BMI's int overflows past 2 GiB). */
OPSPLIT_API opsplit_status opsplit_gw_bmi_get_var_info(opsplit_gw gw, const char* name, const char** type,
                                                       const char** units, int* grid, int* itemsize,
                                                       int64_t* nbytes, const char** location);
/* The clock: start, current and end time and the step (s); any may be NULL. The end is
 * the setup file's, else the largest double (the module has none of its own). */
OPSPLIT_API opsplit_status opsplit_gw_bmi_get_times(opsplit_gw gw, double* start, double* current, double* end,
                                                    double* step);
OPSPLIT_API opsplit_status opsplit_gw_bmi_get_value(opsplit_gw gw, const char* name, void* dest);
OPSPLIT_API opsplit_status opsplit_gw_bmi_set_value(opsplit_gw gw, const char* name, const void* src);
/* count values at flat indices into the variable's array (each in [0, its length)). */
OPSPLIT_API opsplit_status opsplit_gw_bmi_get_value_at_indices(opsplit_gw gw, const char* name, void* dest,
                                                               const int* indices, int count);
OPSPLIT_API opsplit_status opsplit_gw_bmi_set_value_at_indices(opsplit_gw gw, const char* name,
                                                               const int* indices, int count, const void* src);
/* Grid 0 or 1: its rank, size and type ("points" / "scalar"); any output may be NULL. */
OPSPLIT_API opsplit_status opsplit_gw_bmi_get_grid_info(opsplit_gw gw, int grid, int* rank, int64_t* size,
                                                        const char** type);

#ifdef __cplusplus
}
#endif

#endif /* OPSPLIT_GROUNDWATER_H */
