/* opsplit CA grids: two-dimensional cellular automata on rows x cols cells, stepped on
 * the context's backend.
 *
 * Models:
 *   LIFE         any Life-like (outer-totalistic, Moore neighbourhood) rule given as a
 *                rule string ("B3/S23", "B36/S23", "B2/S", the older "23/3" form), its
 *                cells stored 64 to a 64-bit word.
 *   SCIARA_FV2   lava flows on a terrain (Spataro et al. 2010; the Etna 2006 dataset):
 *                vents emit lava at their schedule's rates, the minimisation algorithm
 *                of the differences moves it to the Moore neighbours (diagonal drops
 *                counted over the orthogonal distance), temperatures mix by thickness,
 *                lava cools by radiation and solidifies at PTsol, raising the terrain.
 *                A fixed clock: each step is Pclock seconds. docs/API.md lists the
 *                parameters and the file formats.
 *   SCIARA_FV3   the seed thesis' model (Spataro 2013, SCIARA-fv3): fv2's terrain, vents
 *                and cooling, plus momentum (substates momentum_x, momentum_y: thickness
 *                x velocity, m^2/s, x east, y north), the kinetic head, effective and
 *                apparent heights, velocity dissipation dP(T), and an adaptive clock:
 *                each step lasts r x the time after which the grid's fastest flow has
 *                moved one cell (at most r x Ptmax). docs/API.md lists its parameters
 *                and the choices where the thesis is silent.
 *
 * Host cell arrays name their order:
 *   ROW_MAJOR     C cells[rows][cols]
 *   COLUMN_MAJOR  Fortran cells(rows, cols)
 * A LIFE cell is 0 (dead) or 1 (alive); on input any nonzero value is alive.
 *
 * LIFE computes every generation from the whole previous one, with no atomics: the same
 * start gives the same cells, bit for bit, on every run and on both backends.
 *
 * The calls on cells (set_cells, get_cells, place_rle, set_rule, get_population) are
 * LIFE's; the lava-flow models will read and write named double substates through calls
 * of their own, and have their own boundary meaning (lava leaving a CLOSED grid counted
 * as lost). */
#ifndef OPSPLIT_CA_H
#define OPSPLIT_CA_H

#include "opsplit/core.h"
#include "opsplit/group.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_ca_s* opsplit_ca;

typedef enum opsplit_ca_model {
  OPSPLIT_CA_LIFE = 0,
  OPSPLIT_CA_SCIARA_FV2 = 1,
  OPSPLIT_CA_SCIARA_FV3 = 2
} opsplit_ca_model;

typedef enum opsplit_ca_order {
  OPSPLIT_CA_ROW_MAJOR = 0,   /* cells[r * cols + c] */
  OPSPLIT_CA_COLUMN_MAJOR = 1 /* cells[c * rows + r] */
} opsplit_ca_order;

/* PERIODIC: a torus (LIFE's default). CLOSED: no cell outside the grid (LIFE: the cells
 * outside are dead). */
typedef enum opsplit_ca_boundary {
  OPSPLIT_CA_CLOSED = 0,
  OPSPLIT_CA_PERIODIC = 1
} opsplit_ca_boundary;

/* A grid of rows x cols cells (each >= 1, rows x cols <= 2^40) at generation 0. LIFE:
 * every cell dead, the rule B3/S23 (Conway's Life), PERIODIC. SCIARA_FV2 and _FV3: 3 to
 * 500000 rows and columns, at most 2^31 cells; every substate 0, no vents, the
 * parameters of their Etna 2006 calibrations, time 0, CLOSED. */
OPSPLIT_API opsplit_status opsplit_ca_create(opsplit_context ctx, opsplit_ca_model model, int64_t rows, int64_t cols,
                                             opsplit_ca* ca);
OPSPLIT_API opsplit_status opsplit_ca_destroy(opsplit_ca* ca);
OPSPLIT_API opsplit_status opsplit_ca_get_shape(opsplit_ca ca, int64_t* rows, int64_t* cols);
/* Where this grid lies in the whole grid: its first row and column (0-based) and the whole
 * grid's shape. A grid spread over processes (opsplit/mpi.h) is one block of the whole;
 * any other grid is the whole: 0, 0, rows, cols. Local. */
OPSPLIT_API opsplit_status opsplit_ca_get_place(opsplit_ca ca, int64_t* first_row, int64_t* first_col,
                                                int64_t* global_rows, int64_t* global_cols);

/* A lava grid takes only CLOSED (PERIODIC: OPSPLIT_ERROR_UNSUPPORTED). */
OPSPLIT_API opsplit_status opsplit_ca_set_boundary(opsplit_ca ca, opsplit_ca_boundary boundary);
/* LIFE: the rule string; digits 0-8 once each per part; B0 (not in this version) and
 * Hensel's non-totalistic letters are refused. */
OPSPLIT_API opsplit_status opsplit_ca_set_rule(opsplit_ca ca, const char* rule);

/* All rows x cols cells. */
OPSPLIT_API opsplit_status opsplit_ca_set_cells(opsplit_ca ca, const uint8_t* cells, opsplit_ca_order order);
OPSPLIT_API opsplit_status opsplit_ca_get_cells(opsplit_ca ca, uint8_t* cells, opsplit_ca_order order);
/* The same from and to the host's device memory (rows*cols bytes on the context's GPU;
 * a CUDA context only), with the checks, the stream order and the errors of the other
 * _device forms (opsplit_field_upload_device; docs/API.md, "Hosts on the GPU"). A
 * distributed grid takes its own block, as set_cells does. */
OPSPLIT_API opsplit_status opsplit_ca_set_cells_device(opsplit_ca ca, const uint8_t* cells, opsplit_ca_order order);
OPSPLIT_API opsplit_status opsplit_ca_get_cells_device(opsplit_ca ca, uint8_t* cells, opsplit_ca_order order);
/* A pattern in run-length encoding (LifeWiki's RLE: "x = 3, y = 3, rule = B3/S23" then
 * runs of b, o, $ ending in !; # lines are comments) written over the cells of its
 * x by y box with the box's top-left cell at (row, col), 0-based; the other cells are
 * kept. On a torus the box wraps; on a CLOSED grid it must fit; it may not be larger
 * than the grid. A rule in the header must be the grid's rule. Malformed text:
 * OPSPLIT_ERROR_PARSE with the line. */
OPSPLIT_API opsplit_status opsplit_ca_place_rle(opsplit_ca ca, const char* rle, int64_t row, int64_t col);
/* The same from an RLE file (LifeWiki's .rle): OPSPLIT_ERROR_IO when it cannot be read,
 * a malformed pattern OPSPLIT_ERROR_PARSE naming the file and the line. */
OPSPLIT_API opsplit_status opsplit_ca_load_rle(opsplit_ca ca, const char* path, int64_t row, int64_t col);

/* Advances nsteps >= 0 generations (LIFE) or steps (lava). With a progress callback the call reports after
 * each twentieth of them (rounded up); a cancelled call returns OPSPLIT_ERROR_CANCELLED
 * with the grid at the last generation it completed (opsplit_ca_get_steps says which).
 * A device failure names the generation the grid holds, or says that its cells are
 * undefined (a failure found when the launched generations are waited for). */
OPSPLIT_API opsplit_status opsplit_ca_step(opsplit_ca ca, int64_t nsteps);
/* Generations advanced since creation (set_cells and place_rle do not reset it). */
OPSPLIT_API opsplit_status opsplit_ca_get_steps(opsplit_ca ca, int64_t* steps);
/* LIFE: the number of live cells. */
OPSPLIT_API opsplit_status opsplit_ca_get_population(opsplit_ca ca, int64_t* population);

/* ---- lava grids (SCIARA_FV2, SCIARA_FV3); on a LIFE grid these return INVALID_ARGUMENT */

/* A substate by name, rows x cols values in `order`: altitude (m), thickness (m),
 * temperature (K), solidified (m), lost (m, read-only: lava that left the grid at that
 * ring cell); fv3 also momentum_x and momentum_y (m^2/s: thickness x velocity, x east,
 * y north). Values must be finite; all but altitude and momentum >= 0; thickness 0 on
 * the outermost ring. Setting thickness starts the active region again from the cells
 * holding lava. */
OPSPLIT_API opsplit_status opsplit_ca_set_substate(opsplit_ca ca, const char* name, const double* values,
                                                   opsplit_ca_order order);
OPSPLIT_API opsplit_status opsplit_ca_get_substate(opsplit_ca ca, const char* name, double* values,
                                                   opsplit_ca_order order);
/* The same from and to the host's device memory (rows*cols doubles on the context's
 * GPU, 8-byte aligned; a CUDA context only), with the checks, the stream order and the
 * errors of the other _device forms (opsplit_field_upload_device; docs/API.md, "Hosts
 * on the GPU"); the values are checked on the GPU, a bad one named as set_substate
 * names it, and nothing changes. A distributed grid takes its own block. */
OPSPLIT_API opsplit_status opsplit_ca_set_substate_device(opsplit_ca ca, const char* name, const double* values,
                                                          opsplit_ca_order order);
OPSPLIT_API opsplit_status opsplit_ca_get_substate_device(opsplit_ca ca, const char* name, double* values,
                                                          opsplit_ca_order order);
/* A substate from a file: an ESRI ASCII grid (its ncols and nrows the grid's, its
 * cellsize the parameter Pc, no NODATA cell) or a headerless table of rows x cols
 * numbers, first line the first (northern) row. OPSPLIT_ERROR_IO (unreadable) or _PARSE
 * (malformed, with the line); a well-formed file for another shape or cell size, or
 * with NODATA: INVALID_ARGUMENT; nothing changes on an error. */
OPSPLIT_API opsplit_status opsplit_ca_load_substate(opsplit_ca ca, const char* name, const char* path);

/* Parameters by the names of the dataset's PARAMETERS.cfg (defaults: Etna 2006).
 * SCIARA_FV2: Pclock 60 s, Pc 10 m (cell side), PTsol 1143 K, PTvent 1360 K, Pr_Tsol
 * 0.075, Pr_Tvent 0.9 (relaxation rates), Phc_Tsol 60 m, Phc_Tvent 0.4 m (critical
 * heights), Pcool 9, Prho 2600, Pepsilon 0.9, Psigma 5.68e-8, Pcv 1150.
 * SCIARA_FV3 (the thesis' table): Pc 10 m, Ptmax 120 s (the clock's upper value), PTsol
 * 1143 K, PTvent 1360 K, Pdp_Tsol 0.5, Pdp_Tvent 0.315 (velocity dissipation), Phc_Tsol
 * 23.066 m, Phc_Tvent 1.014 m, Pr 0.5 (the clock's relaxation rate), Pcool 1.507
 * (delta), Prho 2600, Pepsilon 0.9, Psigma 5.68e-8, Pcv 1150, Pg 9.81 m/s^2.
 * Each finite and > 0, relaxation rates <= 1, dissipations < 1, PTvent > PTsol (checked
 * at the next step); fv2's Pclock fixed once stepped. A name of the other model:
 * INVALID_ARGUMENT listing the grid's names. */
OPSPLIT_API opsplit_status opsplit_ca_set_parameter(opsplit_ca ca, const char* name, double value);
OPSPLIT_API opsplit_status opsplit_ca_get_parameter(opsplit_ca ca, const char* name, double* value);
/* A PARAMETERS.cfg file ("name value" pairs, any subset; ncols and nrows, where given,
 * must be the grid's (INVALID_ARGUMENT); its nsteps, a run length for the original
 * program, is ignored). All or nothing. */
OPSPLIT_API opsplit_status opsplit_ca_load_parameters(opsplit_ca ca, const char* path);

/* A vent at (row, col), 0-based, inside the outermost ring, emitting rates[s] m^3/s
 * (>= 0) during slot s = [s, s + 1) x slot_seconds of the grid's time, nothing after
 * the last slot. Each step adds the schedule's volume over the step (fv2: Pclock
 * seconds from its start; fv3: its clock), over Pc^2, of lava at PTvent to the cell:
 * fv2 before the step's flows, fv3 after them. At most 64 vents, nslots in [1, 2^20]. *vent (may be
 * NULL) receives its index, 0 for the first. */
OPSPLIT_API opsplit_status opsplit_ca_add_vent(opsplit_ca ca, int64_t row, int64_t col, const double* rates,
                                               int64_t nslots, double slot_seconds, int64_t* vent);
/* The dataset's vents: a map file (vent id > 0 at its cell, 0 elsewhere; formats as
 * load_substate) and an emission-rate file ("[TIME] slot_seconds", then per vent
 * "[VENT_ID] id [EMISSION_RATE] r0 r1 ...", then "[END]"). Added in id order. */
OPSPLIT_API opsplit_status opsplit_ca_load_vents(opsplit_ca ca, const char* vents_path, const char* rates_path);

/* Steps until the grid's time reaches t_sim; none when it already has. fv2: whole steps
 * of Pclock seconds (the time is steps x Pclock, at or past t_sim). fv3: steps of its
 * adaptive clock, the last one cut to end at t_sim exactly (so the steps depend on the
 * times asked for, as in any operator splitting); with a progress callback, a report
 * each 4096 steps (the fraction of the time), cancellation leaving the grid at a whole
 * step; a step whose clock is too short to advance the time (a momentum far out of
 * scale) stops the run with OPSPLIT_ERROR_NUMERICAL, the grid at its last step (also
 * from opsplit_ca_step); a t_sim more than 9e18 steps of Pr x Ptmax away is refused.
 * Otherwise progress and cancellation as opsplit_ca_step. */
OPSPLIT_API opsplit_status opsplit_ca_run_until(opsplit_ca ca, double t_sim);
OPSPLIT_API opsplit_status opsplit_ca_get_time(opsplit_ca ca, double* t_sim);

/* Volumes in m^3: emitted by the vents so far, fluid lava on the grid, solidified lava,
 * lava that left the grid. emitted = lava + solidified + lost to rounding (the mass
 * balance). lava, solidified and lost are the cells' thicknesses summed exactly and
 * rounded once (to nearest), times the cell area: the same bits whatever the order or
 * split of the cells; emitted is a compensated sum over the steps. */
OPSPLIT_API opsplit_status opsplit_ca_get_volumes(opsplit_ca ca, double* emitted, double* lava, double* solidified,
                                                  double* lost);

/* Which cells a lava step computes: ACTIVE_REGION (the default) or ALL_CELLS; the
 * results are the same bits. */
typedef enum opsplit_ca_cells {
  OPSPLIT_CA_ACTIVE_REGION = 0,
  OPSPLIT_CA_ALL_CELLS = 1
} opsplit_ca_cells;
OPSPLIT_API opsplit_status opsplit_ca_set_cells_computed(opsplit_ca ca, opsplit_ca_cells cells);

/* Over a group of processes (opsplit/group.h; hosts call opsplit/mpi.h instead). */
/* Makes `ca`, a grid created with this process's block's shape and not yet given a vent
 * or a step, its block of a grid decomposed over the group: dims[0] processes along the
 * rows (north to south), dims[1] along the columns, dims[2] = 1 (opsplit/mpi.h's
 * opsplit_mpi_ca_attach describes the rules of each model). The state set so far is
 * kept. On success the grid owns the group; on failure, on every process alike, the
 * caller keeps it. Collective. */
OPSPLIT_API opsplit_status opsplit_ca_attach_distributed(opsplit_ca ca, const opsplit_group* group,
                                                         const opsplit_decomposition* decomposition);

#ifdef __cplusplus
}
#endif

#endif
