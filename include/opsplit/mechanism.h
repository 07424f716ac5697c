/* opsplit mechanisms: mass-action reaction networks built through the API, and gas
 * mechanisms loaded from Cantera YAML files (thermodynamics and combustion kinetics).
 *
 * BUILT mechanisms:
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

/* BUILT: species and reactions added through the API (mass action, no thermodynamics).
 * GAS: loaded from a file: an ideal gas with NASA-7 species thermodynamics and
 *   reversible, three-body, falloff, chemically activated and PLOG reactions, in SI
 *   units with moles: concentrations mol/m^3, rates mol/(m^3 s), pressures Pa, molar
 *   masses kg/mol, energies J. A loaded mechanism cannot be edited. */
typedef enum opsplit_mechanism_kind {
  OPSPLIT_MECHANISM_BUILT = 0,
  OPSPLIT_MECHANISM_GAS = 1
} opsplit_mechanism_kind;

/* How a reaction's rate constant k is computed (A, b, Ea and param of
 * opsplit_mechanism_set_rate):
 *   CONSTANT   k = A
 *   ARRHENIUS  k = A * T^b * exp(-Ea / (R T)), T = p[param] in kelvin, Ea in J/mol,
 *              R = 8.31446261815324 J/(mol K)
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
 * 1; a species listed twice on one side adds up; at most 256 entries a side). A species may appear on both sides
 * (a catalyst). The reaction has no rate until opsplit_mechanism_set_rate gives it
 * one; a mechanism with a reaction without a rate cannot be attached to an ODE batch. */
OPSPLIT_API opsplit_status opsplit_mechanism_add_reaction(opsplit_mechanism mech, int nreactants,
                                                          const int* reactants, const int* reactant_coefficients,
                                                          int nproducts, const int* products,
                                                          const int* product_coefficients, int* index);
/* The same with real-valued product yields (lumped atmospheric mechanisms: SAPRC's
 * "NO3 + HCHO => 0.39 HO2 + ..."): each yield finite, not 0 and in [-1000, 1000] (a
 * species listed twice adds up to at most 1000 in size); a negative yield consumes the
 * species without entering the rate law (the Carbon Bond mechanisms' PAR operator:
 * "ROR => ... - 2.1 PAR"); product_yields may be NULL: all 1. Reactant
 * coefficients stay integers (the orders of the rate law). Integer yields give the same
 * results, bit for bit, as opsplit_mechanism_add_reaction. */
OPSPLIT_API opsplit_status opsplit_mechanism_add_reaction_yields(opsplit_mechanism mech, int nreactants,
                                                                 const int* reactants, const int* reactant_coefficients,
                                                                 int nproducts, const int* products,
                                                                 const double* product_yields, int* index);
/* Sets reaction `reaction`'s rate constant (see opsplit_rate_kind; b, Ea and param are
 * ignored where the kind does not use them). param is in [0, 1023]: an ODE batch holds
 * at most 1024 parameters per system. */
OPSPLIT_API opsplit_status opsplit_mechanism_set_rate(opsplit_mechanism mech, int reaction, opsplit_rate_kind kind,
                                                      double A, double b, double Ea, int param);
/* Names per-system parameter `param` (in [0, 1023]) for rate expressions: a name (a
 * letter or _, then letters, digits or _, at most 64 bytes: "TEMP", "M", "O2") or a name with
 * an index ("J(4)", a photolysis frequency the host sets per system). A label (printable
 * ASCII with a '.' after its prefix, at most 256 bytes, no space at either end: MICM's
 * "PHOTO.O3->O1D") names it for the host (opsplit_mechanism_find_parameter) but no
 * expression can read it. Case does
 * not count; a parameter has one name (naming it again renames it); a name names one
 * parameter. Expressions look names up when they are set. */
OPSPLIT_API opsplit_status opsplit_mechanism_name_parameter(opsplit_mechanism mech, int param, const char* name);
/* Sets reaction `reaction`'s rate constant to an expression over the named parameters,
 * as atmospheric mechanism files write them ("8.0E-12*EXP(-2060./TEMP)",
 * "5.6E-34*N2*(TEMP/300.)**(-2.6)*O2", "J(4)*0.5"): numbers (E or D exponents, a Fortran
 * kind suffix such as 300._dp), + - * / and ** (Fortran's precedence: -A**2 is -(A**2),
 * ** from right to left), parentheses, and EXP, LOG, LOG10, SQRT, ABS, MIN, MAX (and
 * their Fortran D forms), and the named rate laws of atmospheric mechanisms: KPP's
 * ARR_ABC, ARR_AB, ARR_AC, EP2, EP3, FALL, K3RD_JPL, K3RD_IUPAC (over TEMP and CFACTOR)
 * and MICM's ARRHENIUS(A, B, C, D, E), TROE and TERNARY_CHEMICAL_ACTIVATION(k0_A, k0_B,
 * k0_C, kinf_A, kinf_B, kinf_C, Fc, N), TERNARY_CHEMICAL_ACTIVATION_JPL19 (14 arguments:
 * A, B, C, D of k0, kinf and kint, then Fc, N), TUNNELING(A, B, C), BRANCHED_ALKOXY and
 * BRANCHED_NITRATE(X, Y, a0, n), SURFACE(radius, number, Dg, MW, gamma) (over TEMP, PRESS
 * and M; docs/API.md gives each formula). Each law reads the parameters it names, which
 * must then be named. It is compiled once, here, and evaluated per system on either
 * backend. A text that is not such an expression (an unknown name or function, a bad
 * number, more than 64 levels of nesting, at most 64 KiB) is OPSPLIT_ERROR_PARSE naming
 * the reaction, the column and the fault; the reaction keeps its rate. */
OPSPLIT_API opsplit_status opsplit_mechanism_set_rate_expression(opsplit_mechanism mech, int reaction,
                                                                 const char* expression);
/* Multiplies reaction `reaction`'s rate by the sum of the current values of n species
 * (MCM's RO2, the sum of its peroxy radicals): rate = k * (y_s1 + ... + y_sn) * prod y^nu.
 * The Jacobian includes the sum's terms. Each species once; n = 0 removes the factor. */
OPSPLIT_API opsplit_status opsplit_mechanism_set_rate_species_sum(opsplit_mechanism mech, int reaction, int n,
                                                                  const int* species);
/* Saturation factors of a rate (microbial kinetics, as PFLOTRAN's MICROBIAL_REACTION
 * writes them), each a function of one species' concentration c:
 *   MONOD        (c - c_th) / (K + c - c_th), 0 at or below c_th (second = c_th >= 0;
 *                c_th = 0 gives c / (K + c));
 *   INHIBITION   K / (K + c) (non-competitive inhibition; second is ignored);
 *   THRESHOLD    1/2 + atan((c - K) f) / pi, a smooth switch at K (second = f, not 0:
 *                on above K for f > 0, below it for f < 0).
 * K > 0 (THRESHOLD: >= 0). A negative c (an integrator's undershoot) reads as 0. */
typedef enum opsplit_rate_factor {
  OPSPLIT_FACTOR_MONOD = 0,
  OPSPLIT_FACTOR_INHIBITION = 1,
  OPSPLIT_FACTOR_THRESHOLD = 2
} opsplit_rate_factor;
/* Multiplies reaction `reaction`'s rate by one more factor (at most 8 a reaction): rate =
 * k * prod y^nu * (species sum) * prod factors. The Jacobian includes the factors' terms.
 * A bad kind, species or constant is INVALID_ARGUMENT naming the reaction and the value;
 * the reaction keeps the factors it had. */
OPSPLIT_API opsplit_status opsplit_mechanism_add_rate_factor(opsplit_mechanism mech, int reaction,
                                                             opsplit_rate_factor kind, int species, double K,
                                                             double second);
/* Removes every factor of reaction `reaction`. */
OPSPLIT_API opsplit_status opsplit_mechanism_clear_rate_factors(opsplit_mechanism mech, int reaction);
/* The parameter `name` names (as opsplit_mechanism_name_parameter matches names: any
 * case, J(04) is J(4)); INVALID_ARGUMENT when none does. */
OPSPLIT_API opsplit_status opsplit_mechanism_find_parameter(opsplit_mechanism mech, const char* name, int* index);
/* The name of per-system parameter `param` (opsplit_mechanism_name_parameter's, as it was
 * given; "" when it has none). The string belongs to the mechanism: valid until it is
 * edited or destroyed. */
OPSPLIT_API opsplit_status opsplit_mechanism_get_parameter_name(opsplit_mechanism mech, int param, const char** name);
/* nspecies, nreactions, and nparams: the number of per-system parameters the rates
 * read (the largest param used + 1, 0 when none). Any output may be NULL. */
OPSPLIT_API opsplit_status opsplit_mechanism_get_counts(opsplit_mechanism mech, int* nspecies, int* nreactions,
                                                        int* nparams);
/* Reaction `reaction` as text ("2 O + M <=> O2 + M"; a loaded reaction in Cantera's
 * notation, rebuilt from its parsed terms; built reactions read "A + B => C").
 * The string belongs to the mechanism: valid until it is edited or destroyed. */
OPSPLIT_API opsplit_status opsplit_mechanism_get_reaction_equation(opsplit_mechanism mech, int reaction,
                                                                   const char** equation);
OPSPLIT_API opsplit_status opsplit_mechanism_get_kind(opsplit_mechanism mech, opsplit_mechanism_kind* kind);
/* Evaluates dy/dt (nspecies values) and, when jacobian is not NULL, the Jacobian
 * (column-major: jacobian[i + j*nspecies] = d(dy_i/dt)/dy_j) of one system on the host,
 * with params holding at least nparams values (may be NULL when nparams is 0).
 * A GAS mechanism reads y as concentrations (mol/m^3) and params[0] as T (K), and
 * gives the net production rates and their analytic Jacobian d wdot_i/dC_j at fixed T
 * (falloff, third-body and PLOG rates included: [M] and P = sum(C) R T depend on C). */
OPSPLIT_API opsplit_status opsplit_mechanism_evaluate(opsplit_mechanism mech, const double* y,
                                                      const double* params, double* ydot, double* jacobian);

/* ---- gas mechanisms ------------------------------------------------------------------
 * Loads the ideal-gas phase `phase` (NULL or "": the file's first phase) of a Cantera
 * YAML file (Cantera 2.5 and later; ck2yaml's output): its species in the phase's order,
 * NASA-7 thermodynamics (one atmosphere reference pressure), and its reactions of type
 * elementary, three-body (efficiencies, default-efficiency), falloff and
 * chemically-activated (Lindemann, Troe with 3 or 4 parameters, SRI with 3 or 5;
 * "(+M)" or a specific collider "(+H2O)"), pressure-dependent-Arrhenius (PLOG),
 * reversible (reverse rate from the equilibrium constant) or irreversible, duplicate,
 * with orders (irreversible reactions). The file's units section and values with
 * units ("1.0 atm", "25 kcal/mol") are converted. A file that cannot be read gives
 * OPSPLIT_ERROR_IO; a malformed entry OPSPLIT_ERROR_PARSE, and a feature opsplit does
 * not implement OPSPLIT_ERROR_UNSUPPORTED, with the file, line and entry in the message;
 * a phase the file does not have OPSPLIT_ERROR_PARSE, naming the phases it has
 * (unbalanced reactions and undeclared duplicates are errors, as in Cantera). */
OPSPLIT_API opsplit_status opsplit_mechanism_load_yaml(opsplit_context ctx, const char* path, const char* phase,
                                                       opsplit_mechanism* mech);
/* Loads a CHEMKIN-II gas mechanism: mech_path holds ELEMENTS, SPECIES, REACTIONS and
 * optionally THERMO (a TRANSPORT section is skipped); thermo_path (NULL or "": none) a
 * THERMO section for the species the mechanism file's own does not give (its entries
 * come first, as in Cantera's ck2yaml). Species keep the SPECIES order; names are
 * case-sensitive, keywords are not; '!' starts a comment.
 * THERMO: [ALL], an optional line "Tlow Tcommon Thigh" of defaults, then NASA-7
 * entries in fixed columns (name, elements in columns 25-44 and 74-78, phase G, Tlow,
 * Thigh, Tcommon, 1 to 4 in column 80; E or D exponents); one range where Tcommon is
 * missing or an end of the range. REACTIONS line: CAL/MOLE (default), KCAL/MOLE,
 * JOULES/MOLE, KJOULES/MOLE, KELVINS, EVOLTS; MOLES (default), MOLECULES; A in cm, s and
 * the quantity unit. Reactions "A + B <=> C", "=" (reversible), "=>", coefficients
 * "2H", "2 H", "1.5 H2", third bodies "+ M", "(+M)", "(+H2O)"; auxiliary lines:
 * efficiencies "H2/2.0/", LOW (falloff), HIGH (chemically activated), TROE (3 or 4
 * values), SRI (3 or 5), PLOG (pressures in atm; several lines), REV (an explicit
 * reverse rate; REV /0 0 0/ makes the reaction irreversible), FORD (irreversible or
 * REV reactions), RORD (with REV only: the reaction becomes two irreversible ones, its
 * reverse right after it), DUP/DUPLICATE. Other keywords (CHEB, TDEP, EXCI, JAN, FIT1,
 * MOME, XSMI, LT, RLT, HV, UNITS, surface kinetics, NASA-9 thermo, custom elements) give
 * OPSPLIT_ERROR_UNSUPPORTED; a malformed entry, an unknown species, a species without
 * thermo, an unbalanced reaction or an undeclared duplicate OPSPLIT_ERROR_PARSE; a file
 * that cannot be read OPSPLIT_ERROR_IO; the message names the file, the line and the
 * entry. */
OPSPLIT_API opsplit_status opsplit_mechanism_load_chemkin(opsplit_context ctx, const char* mech_path,
                                                          const char* thermo_path, opsplit_mechanism* mech);
/* ---- atmospheric mechanisms ------------------------------------------------------
 * Loads a KPP mechanism (KPP 3.5: the .def or .kpp file and what it #INCLUDEs, each
 * include looked up beside the file that names it) as a BUILT mechanism of mass-action
 * reactions: the #DEFVAR species in their order; the #DEFFIX species as per-system
 * parameters that multiply the rates of the reactions they enter (and never change);
 * each equation "<tag> A + 2 B + hv = 0.39 C + D : rate;" with real product yields (hv
 * and PROD left out); each rate compiled as by opsplit_mechanism_set_rate_expression,
 * with KPP's stock rate laws (ARR_abc, ARR_ab, ARR_ac, EP2, EP3, FALL, k3rd_jpl,
 * k3rd_iupac; EP2, EP3 and FALL take the third body as 1e6 CFACTOR, as KPP does) and
 * the per-system inputs TEMP (K), SUN, CFACTOR and the fixed species, each named as a
 * parameter in the order the rates first use it (opsplit_mechanism_find_parameter gives
 * the index). Units are the file's (KPP's models: molecules/cm^3 and seconds). Comments,
 * #INLINE code and the code-generation commands are skipped; #ATOMS, #CHECK, #LOOKAT,
 * #MONITOR and #INITVALUES are read past. A rate that reads a name the file defines only
 * in #INLINE code, a fractional reactant coefficient, an undeclared species or a
 * malformed entry is OPSPLIT_ERROR_PARSE naming the file, the line and the reaction's
 * tag; a file that cannot be read OPSPLIT_ERROR_IO. */
OPSPLIT_API opsplit_status opsplit_mechanism_load_kpp(opsplit_context ctx, const char* path, opsplit_mechanism* mech);

/* Loads a MICM mechanism configuration (NCAR MechanismConfiguration, as MICM and musica
 * read it) as a BUILT mechanism: a v1 file (YAML or JSON: version "1.x.y", species,
 * phases, reactions) or a v0 (CAMP) config.json whose camp-files list the species and
 * reactions (or a directory holding config.json). Units are MICM's: mol m-3, s, K, Pa;
 * v0's rate constants in molecule cm-3 units are converted as MICM converts them.
 * The state: the species of the gas phase (v1: the phase named "gas", or the only
 * phase; v0: every CHEM_SPEC), in file order, except the third body (M: the air
 * density) and the constant species (v1 "constant concentration [mol m-3]", "constant
 * mixing ratio [mol mol-1]" times M), which multiply the rates of the reactions they
 * are reactants of. Per-system parameters: 0 TEMP (K), 1 PRESS (Pa), 2 M (air density,
 * mol m-3; MICM's hosts give it, musica computes P/(R T)), then each reaction's own
 * inputs in file order, named as MICM's state names them: "PHOTO.<name>" (s-1),
 * "EMIS.<name>" (mol m-3 s-1), "LOSS.<name>" (s-1), "USER.<name>", and for SURFACE
 * "SURF.<name>.effective radius [m]" and "SURF.<name>.particle number concentration
 * [# m-3]" (opsplit_mechanism_find_parameter, opsplit_mechanism_get_parameter_name).
 * Reaction types: ARRHENIUS, TROE, TERNARY_CHEMICAL_ACTIVATION(_JPL19), BRANCHED (v1
 * BRANCHED_NO_RO2; two reactions, alkoxy then nitrate), TUNNELING, PHOTOLYSIS,
 * EMISSION, FIRST_ORDER_LOSS, USER_DEFINED, SURFACE and TAYLOR_SERIES, each compiled
 * into a rate expression of the laws above (opsplit_mechanism_set_rate_expression).
 * Keys with "__" are comments; the aerosol and emissions sections of v1 files are
 * skipped (MICM's gas-phase solve does not read them). An unknown key, type or species,
 * a reactant coefficient that is not a positive whole number (MICM rounds it up), a
 * missing required value or a malformed file is OPSPLIT_ERROR_PARSE naming the file and
 * line; LAMBDA_RATE_CONSTANT and v1's file lists are OPSPLIT_ERROR_UNSUPPORTED; a file
 * that cannot be read OPSPLIT_ERROR_IO. */
OPSPLIT_API opsplit_status opsplit_mechanism_load_micm(opsplit_context ctx, const char* path, opsplit_mechanism* mech);

/* Molar masses (kg/mol), nspecies values. */
OPSPLIT_API opsplit_status opsplit_mechanism_get_molar_masses(opsplit_mechanism mech, double* molar_masses);
/* Standard-state cp/R, h/(RT) and s/R of every species at T (nspecies values each; any
 * may be NULL). Outside a species' temperature ranges its nearest polynomial is
 * extrapolated, as Cantera does: the values there are the file's, not physics. */
OPSPLIT_API opsplit_status opsplit_mechanism_species_thermo(opsplit_mechanism mech, double T, double* cp_R,
                                                            double* h_RT, double* s_R);
/* The ideal-gas mixture at T (K), P (Pa) and mass fractions Y (nspecies values, used as
 * given, not normalized): density (kg/m^3), cp and cv (J/(kg K)), enthalpy and internal
 * energy (J/kg). Any output may be NULL. */
OPSPLIT_API opsplit_status opsplit_mechanism_mixture_properties(opsplit_mechanism mech, double T, double P,
                                                                const double* Y, double* density, double* cp,
                                                                double* cv, double* enthalpy,
                                                                double* internal_energy);
/* Concentrations (mol/m^3) of the mixture at T, P and mass fractions Y. */
OPSPLIT_API opsplit_status opsplit_mechanism_concentrations(opsplit_mechanism mech, double T, double P,
                                                            const double* Y, double* concentrations);
/* Net production rates (mol/(m^3 s)) at T and concentrations C; the pressure that
 * falloff and PLOG rates read is the ideal gas's, sum(C) R T, so sum(C) must be
 * positive (single concentrations may be negative, as ODE solutions can be). */
OPSPLIT_API opsplit_status opsplit_mechanism_net_production_rates(opsplit_mechanism mech, double T,
                                                                  const double* concentrations, double* wdot);
/* Forward and reverse rates of progress of every reaction (mol/(m^3 s)), nreactions
 * values each (either may be NULL). */
OPSPLIT_API opsplit_status opsplit_mechanism_rates_of_progress(opsplit_mechanism mech, double T,
                                                               const double* concentrations, double* forward,
                                                               double* reverse);

#ifdef __cplusplus
}
#endif

#endif /* OPSPLIT_MECHANISM_H */
