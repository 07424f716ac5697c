/* C-API tests of CA grids: bad input gets the right status and a message naming the
 * argument, changes nothing, and leaves the grid usable (checked at the end: a blinker
 * still oscillates and the grid holds the cells it held before the bad calls). */
#include <stdint.h>
#include <string.h>

#include "check.h"

#define ROWS 6
#define COLS 7

int main(void) {
  opsplit_context ctx = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));

  const char* create = "opsplit_ca_create";
  opsplit_ca ca = NULL, dead = NULL;
  EXPECT_ERROR(opsplit_ca_create(NULL, OPSPLIT_CA_LIFE, ROWS, COLS, &ca), OPSPLIT_ERROR_INVALID_HANDLE, create, "ctx");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, ROWS, COLS, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "ca is NULL");
  EXPECT_ERROR(opsplit_ca_create(ctx, (opsplit_ca_model)7, ROWS, COLS, &ca), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "model=7");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, 0, COLS, &ca), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "rows=0");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, ROWS, -3, &ca), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "cols=-3");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, INT64_MAX, 2, &ca), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "2^40 cells");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, 1, INT64_MAX, &ca), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "2^40 cells");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, INT64_C(1) << 20, (INT64_C(1) << 20) + 1, &ca),
               OPSPLIT_ERROR_INVALID_ARGUMENT, create, "2^40 cells");
  CHECK(ca == NULL);
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, ROWS, COLS, &ca));
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, 2, 2, &dead));
  opsplit_ca dangling = dead;
  CHECK_OK(opsplit_ca_destroy(&dead));
  CHECK(dead == NULL);
  EXPECT_ERROR(opsplit_ca_destroy(&dangling), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_ca_destroy", "not a live");
  CHECK_OK(opsplit_ca_destroy(&dead));
  CHECK_OK(opsplit_ca_destroy(NULL));

  /* A blinker, vertical, in column 3. */
  uint8_t cells[ROWS * COLS], out[ROWS * COLS];
  memset(cells, 0, sizeof cells);
  cells[1 * COLS + 3] = cells[2 * COLS + 3] = cells[3 * COLS + 3] = 1;
  CHECK_OK(opsplit_ca_set_cells(ca, cells, OPSPLIT_CA_ROW_MAJOR));

  int64_t rows = 0, cols = 0, steps = -1, population = -1;
  const char* shape = "opsplit_ca_get_shape";
  EXPECT_ERROR(opsplit_ca_get_shape(dangling, &rows, &cols), OPSPLIT_ERROR_INVALID_HANDLE, shape, "ca is not a live");
  EXPECT_ERROR(opsplit_ca_get_shape(NULL, &rows, &cols), OPSPLIT_ERROR_INVALID_HANDLE, shape, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_get_shape(ca, NULL, &cols), OPSPLIT_ERROR_INVALID_ARGUMENT, shape, "rows is NULL");
  EXPECT_ERROR(opsplit_ca_get_shape(ca, &rows, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, shape, "cols is NULL");
  CHECK_OK(opsplit_ca_get_shape(ca, &rows, &cols));
  CHECK(rows == ROWS && cols == COLS);

  const char* boundary = "opsplit_ca_set_boundary";
  EXPECT_ERROR(opsplit_ca_set_boundary(ca, (opsplit_ca_boundary)2), OPSPLIT_ERROR_INVALID_ARGUMENT, boundary,
               "boundary=2");
  EXPECT_ERROR(opsplit_ca_set_boundary(dangling, OPSPLIT_CA_CLOSED), OPSPLIT_ERROR_INVALID_HANDLE, boundary, "ca");

  const char* rule = "opsplit_ca_set_rule";
  EXPECT_ERROR(opsplit_ca_set_rule(ca, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, rule, "rule is NULL");
  EXPECT_ERROR(opsplit_ca_set_rule(ca, "B3/S2x"), OPSPLIT_ERROR_INVALID_ARGUMENT, rule, "Hensel");
  EXPECT_ERROR(opsplit_ca_set_rule(ca, "B9/S23"), OPSPLIT_ERROR_INVALID_ARGUMENT, rule, "0-8");
  EXPECT_ERROR(opsplit_ca_set_rule(ca, "B0/S23"), OPSPLIT_ERROR_INVALID_ARGUMENT, rule, "B0");
  EXPECT_ERROR(opsplit_ca_set_rule(ca, "life"), OPSPLIT_ERROR_INVALID_ARGUMENT, rule, "B3/S23");
  EXPECT_ERROR(opsplit_ca_set_rule(dangling, "B3/S23"), OPSPLIT_ERROR_INVALID_HANDLE, rule, "ca");
  EXPECT_ERROR(opsplit_ca_set_rule(NULL, "B3/S23"), OPSPLIT_ERROR_INVALID_HANDLE, rule, "ca is NULL");

  const char* set = "opsplit_ca_set_cells";
  const char* get = "opsplit_ca_get_cells";
  EXPECT_ERROR(opsplit_ca_set_cells(ca, NULL, OPSPLIT_CA_ROW_MAJOR), OPSPLIT_ERROR_INVALID_ARGUMENT, set,
               "cells is NULL");
  EXPECT_ERROR(opsplit_ca_set_cells(ca, cells, (opsplit_ca_order)-1), OPSPLIT_ERROR_INVALID_ARGUMENT, set, "order=-1");
  EXPECT_ERROR(opsplit_ca_get_cells(ca, NULL, OPSPLIT_CA_ROW_MAJOR), OPSPLIT_ERROR_INVALID_ARGUMENT, get,
               "cells is NULL");
  EXPECT_ERROR(opsplit_ca_get_cells(ca, out, (opsplit_ca_order)2), OPSPLIT_ERROR_INVALID_ARGUMENT, get, "order=2");
  EXPECT_ERROR(opsplit_ca_get_cells(dangling, out, OPSPLIT_CA_ROW_MAJOR), OPSPLIT_ERROR_INVALID_HANDLE, get, "ca");
  EXPECT_ERROR(opsplit_ca_set_cells(dangling, cells, OPSPLIT_CA_ROW_MAJOR), OPSPLIT_ERROR_INVALID_HANDLE, set, "ca");

  const char* rle = "opsplit_ca_place_rle";
  EXPECT_ERROR(opsplit_ca_place_rle(ca, NULL, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, rle, "rle is NULL");
  EXPECT_ERROR(opsplit_ca_place_rle(dangling, "x = 1, y = 1\no!", 0, 0), OPSPLIT_ERROR_INVALID_HANDLE, rle, "ca");
  /* A short text asking for a huge pattern is refused before any cell is read. */
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 2000000000, y = 1\n2000000000o!", 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT,
               rle, "larger than the 6 x 7 grid");
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 3, y = 1\n0o!", 0, 0), OPSPLIT_ERROR_PARSE, rle, "run count of 0");
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 1, y = 1\no!", ROWS, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, rle,
               "outside the 6 x 7 grid");
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 1, y = 1\no!", 0, -1), OPSPLIT_ERROR_INVALID_ARGUMENT, rle, "outside");
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 1, y = 1\n2o!", 0, 0), OPSPLIT_ERROR_PARSE, rle, "RLE line 2");
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 1, y = 1, rule = B36/S23\no!", 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, rle,
               "B36/S23 is not the grid's B3/S23");
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 8, y = 1\n8o!", 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, rle,
               "8 x 1 box is larger than the 6 x 7 grid");
  CHECK_OK(opsplit_ca_set_boundary(ca, OPSPLIT_CA_CLOSED));
  EXPECT_ERROR(opsplit_ca_place_rle(ca, "x = 3, y = 1\n3o!", 0, 5), OPSPLIT_ERROR_INVALID_ARGUMENT, rle,
               "closed grid");

  const char* step = "opsplit_ca_step";
  EXPECT_ERROR(opsplit_ca_step(ca, -1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "nsteps=-1");
  EXPECT_ERROR(opsplit_ca_step(dangling, 1), OPSPLIT_ERROR_INVALID_HANDLE, step, "ca");
  EXPECT_ERROR(opsplit_ca_get_steps(ca, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_ca_get_steps", "steps is NULL");
  EXPECT_ERROR(opsplit_ca_get_steps(dangling, &steps), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_ca_get_steps", "ca");
  EXPECT_ERROR(opsplit_ca_get_population(dangling, &population), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_ca_get_population", "ca");
  EXPECT_ERROR(opsplit_ca_get_population(ca, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_ca_get_population",
               "population is NULL");

  /* Nothing above changed the grid: still the blinker, generation 0, B3/S23. */
  CHECK_OK(opsplit_ca_get_cells(ca, out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(memcmp(out, cells, sizeof cells) == 0);
  CHECK_OK(opsplit_ca_get_steps(ca, &steps));
  CHECK(steps == 0);
  CHECK_OK(opsplit_ca_step(ca, 0));
  CHECK_OK(opsplit_ca_step(ca, 1));
  CHECK_OK(opsplit_ca_get_cells(ca, out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(out[2 * COLS + 2] == 1 && out[2 * COLS + 3] == 1 && out[2 * COLS + 4] == 1 && out[1 * COLS + 3] == 0);
  CHECK_OK(opsplit_ca_get_population(ca, &population));
  CHECK(population == 3);
  CHECK_OK(opsplit_ca_step(ca, 1));
  CHECK_OK(opsplit_ca_get_cells(ca, out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(memcmp(out, cells, sizeof cells) == 0);
  CHECK_OK(opsplit_ca_get_steps(ca, &steps));
  CHECK(steps == 2);
  /* The generation count cannot pass 2^63 - 1: refused, nothing stepped. */
  EXPECT_ERROR(opsplit_ca_step(ca, INT64_MAX), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "past 2^63 - 1");
  CHECK_OK(opsplit_ca_get_steps(ca, &steps));
  CHECK(steps == 2);

  /* A context with a live grid cannot be destroyed. */
  EXPECT_ERROR(opsplit_context_destroy(&ctx), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_context_destroy", "1");
  CHECK_OK(opsplit_ca_destroy(&ca));
  CHECK_OK(opsplit_context_destroy(&ctx));
  return check_summary();
}
