/* opsplit CA grids: two-dimensional cellular automata on rows x cols cells, stepped on
 * the context's backend.
 *
 * Models: LIFE, any Life-like (outer-totalistic, Moore neighbourhood) rule given as a
 * rule string ("B3/S23", "B36/S23", "B2/S", the older "23/3" form), its cells stored 64
 * to a 64-bit word. The lava-flow models of the CA issue (SCIARA) are not in this
 * version.
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

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_ca_s* opsplit_ca;

typedef enum opsplit_ca_model {
  OPSPLIT_CA_LIFE = 0
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
 * every cell dead, the rule B3/S23 (Conway's Life), PERIODIC. */
OPSPLIT_API opsplit_status opsplit_ca_create(opsplit_context ctx, opsplit_ca_model model, int64_t rows, int64_t cols,
                                             opsplit_ca* ca);
OPSPLIT_API opsplit_status opsplit_ca_destroy(opsplit_ca* ca);
OPSPLIT_API opsplit_status opsplit_ca_get_shape(opsplit_ca ca, int64_t* rows, int64_t* cols);

OPSPLIT_API opsplit_status opsplit_ca_set_boundary(opsplit_ca ca, opsplit_ca_boundary boundary);
/* LIFE: the rule string; digits 0-8 once each per part; B0 (not in this version) and
 * Hensel's non-totalistic letters are refused. */
OPSPLIT_API opsplit_status opsplit_ca_set_rule(opsplit_ca ca, const char* rule);

/* All rows x cols cells. */
OPSPLIT_API opsplit_status opsplit_ca_set_cells(opsplit_ca ca, const uint8_t* cells, opsplit_ca_order order);
OPSPLIT_API opsplit_status opsplit_ca_get_cells(opsplit_ca ca, uint8_t* cells, opsplit_ca_order order);
/* A pattern in run-length encoding (LifeWiki's RLE: "x = 3, y = 3, rule = B3/S23" then
 * runs of b, o, $ ending in !; # lines are comments) written over the cells of its
 * x by y box with the box's top-left cell at (row, col), 0-based; the other cells are
 * kept. On a torus the box wraps; on a CLOSED grid it must fit; it may not be larger
 * than the grid. A rule in the header must be the grid's rule. Malformed text:
 * OPSPLIT_ERROR_PARSE with the line. */
OPSPLIT_API opsplit_status opsplit_ca_place_rle(opsplit_ca ca, const char* rle, int64_t row, int64_t col);

/* Advances nsteps >= 0 generations. With a progress callback the call reports after
 * each twentieth of them (rounded up); a cancelled call returns OPSPLIT_ERROR_CANCELLED
 * with the grid at the last generation it completed (opsplit_ca_get_steps says which).
 * A device failure names the generation the grid holds, or says that its cells are
 * undefined (a failure found when the launched generations are waited for). */
OPSPLIT_API opsplit_status opsplit_ca_step(opsplit_ca ca, int64_t nsteps);
/* Generations advanced since creation (set_cells and place_rle do not reset it). */
OPSPLIT_API opsplit_status opsplit_ca_get_steps(opsplit_ca ca, int64_t* steps);
/* LIFE: the number of live cells. */
OPSPLIT_API opsplit_status opsplit_ca_get_population(opsplit_ca ca, int64_t* population);

#ifdef __cplusplus
}
#endif

#endif
