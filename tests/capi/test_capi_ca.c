/* C-API tests of CA grids: bad input gets the right status and a message naming the
 * argument, changes nothing, and leaves the grid usable (checked at the end: a blinker
 * still oscillates and the grid holds the cells it held before the bad calls).
 *
 * Lava grids (SCIARA_FV2, lava_tests below): every lava call refuses a NULL or destroyed
 * handle, a LIFE grid, NULL arguments, unknown names, bad enums and values; the file
 * loaders refuse missing files (IO), malformed ones (PARSE) and files that do not fit
 * the grid, reading small files the test writes under $TMPDIR (or /tmp) and removes.
 * After each refusal the grid is as it was. Then what must hold on any backend: the
 * substates' two orders, the Etna 2006 defaults, a vent's emission and the mass balance
 * on a 9 x 9 grid, the same bits from add_vent and load_vents and from ACTIVE_REGION and
 * ALL_CELLS, a cancelled run_until.
 *
 * SCIARA_FV3 (fv3_tests): its parameters' defaults (the thesis' table) and limits, each
 * model refusing the other's names, momentum substates, run_until ending at its time
 * with the emission integrated over the steps, and a cancelled run_until resumed to the
 * same bits. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, fdopen */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "opsplit/distributed.h"

#define ROWS 6
#define COLS 7

/* The lava grid of the bad-input checks (not square: the orders must transpose). */
#define LR 7
#define LC 8
/* The grid the runs use: flat, a vent at its centre. */
#define RN 9

/* ---- temporary files -------------------------------------------------------------- */

#define MAX_TEMP 128
static char temp_paths[MAX_TEMP][512];
static int ntemp = 0;

/* A new file holding `text` under $TMPDIR (or /tmp); its path (removed by
 * remove_temp_files), or NULL when it could not be written (counted as a failure). */
static const char* temp_file(const char* text) {
  const char* dir = getenv("TMPDIR");
  if (dir == NULL || dir[0] == '\0') dir = "/tmp";
  if (ntemp == MAX_TEMP) {
    CHECK(!"too many temporary files");
    return NULL;
  }
  char* path = temp_paths[ntemp];
  const int n = snprintf(path, sizeof temp_paths[0], "%s/opsplit_capi_ca_XXXXXX", dir);
  if (n < 0 || (size_t)n >= sizeof temp_paths[0]) {
    CHECK(!"TMPDIR is too long");
    return NULL;
  }
  const int fd = mkstemp(path);
  if (fd < 0) {
    CHECK(!"mkstemp failed");
    return NULL;
  }
  ntemp++;
  FILE* f = fdopen(fd, "w");
  if (f == NULL) {
    close(fd);
    CHECK(!"fdopen failed");
    return NULL;
  }
  const int wrote = fputs(text, f) >= 0;
  const int closed = fclose(f) == 0;
  CHECK(wrote && closed);
  return path;
}

static void remove_temp_files(void) {
  for (int i = 0; i < ntemp; ++i) CHECK(remove(temp_paths[i]) == 0);
  ntemp = 0;
}

/* rows x cols values (row-major, row 0 the first line) as text, after `header`. */
static void grid_text(char* out, size_t size, const char* header, int rows, int cols, const double* values) {
  size_t used = (size_t)snprintf(out, size, "%s", header);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols && used < size; ++c)
      used += (size_t)snprintf(out + used, size - used, c + 1 < cols ? "%.17g " : "%.17g\n", values[r * cols + c]);
  CHECK(used < size);
}

/* ---- helpers ---------------------------------------------------------------------- */

static int close_rel(double a, double b, double tol) { return fabs(a - b) <= tol * fabs(b); }

static int same_values(const double* a, const double* b, int n) { return memcmp(a, b, (size_t)n * sizeof *a) == 0; }

/* The progress callback of the cancellation check: counts its calls, keeps the last
 * `what`, cancels on call number cancel_at. */
static int progress_calls = 0, cancel_at = 0;
static char progress_what[64];
static int cancelling_progress(double fraction, const char* what, void* user) {
  (void)fraction;
  (void)user;
  progress_calls++;
  snprintf(progress_what, sizeof progress_what, "%s", what != NULL ? what : "(null)");
  return progress_calls == cancel_at;
}

/* A RN x RN lava grid, altitude 100 everywhere. */
static opsplit_ca flat_grid(opsplit_context ctx) {
  opsplit_ca g = NULL;
  double altitude[RN * RN];
  for (int i = 0; i < RN * RN; ++i) altitude[i] = 100.0;
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, RN, RN, &g));
  CHECK_OK(opsplit_ca_set_substate(g, "altitude", altitude, OPSPLIT_CA_ROW_MAJOR));
  return g;
}

/* Every substate of two grids holds the same bits (fv3: momentum too). */
static int same_substates_of(opsplit_ca a, opsplit_ca b, int fv3) {
  static const char* names[] = {"altitude", "thickness", "temperature", "solidified", "lost", "momentum_x", "momentum_y"};
  double x[RN * RN], y[RN * RN];
  int same = 1;
  for (int i = 0; i < (fv3 ? 7 : 5); ++i) {
    CHECK_OK(opsplit_ca_get_substate(a, names[i], x, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_get_substate(b, names[i], y, OPSPLIT_CA_ROW_MAJOR));
    if (!same_values(x, y, RN * RN)) {
      fprintf(stderr, "substate %s differs\n", names[i]);
      same = 0;
    }
  }
  return same;
}
static int same_substates(opsplit_ca a, opsplit_ca b) { return same_substates_of(a, b, 0); }

/* Whether the grid's parameters names[i] hold values[i], each one read. */
static int has_parameters(opsplit_ca g, const char* const* names, const double* values, int n) {
  int all = 1;
  for (int i = 0; i < n; ++i) {
    double value = -1.0;
    CHECK_OK(opsplit_ca_get_parameter(g, names[i], &value));
    if (value != values[i]) {
      fprintf(stderr, "%s = %.17g, not %.17g\n", names[i], value, values[i]);
      all = 0;
    }
  }
  return all;
}

static void lava_tests(opsplit_context ctx, opsplit_ca life);
static void fv3_tests(opsplit_context ctx);
static void place_tests(opsplit_context ctx, opsplit_ca life);

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

  const char* load = "opsplit_ca_load_rle";
  EXPECT_ERROR(opsplit_ca_load_rle(ca, NULL, 0, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, load, "path is NULL");
  EXPECT_ERROR(opsplit_ca_load_rle(dangling, "glider.rle", 0, 0), OPSPLIT_ERROR_INVALID_HANDLE, load, "ca");
  EXPECT_ERROR(opsplit_ca_load_rle(ca, "/nonexistent/opsplit/glider.rle", 0, 0), OPSPLIT_ERROR_IO, load,
               "/nonexistent/opsplit/glider.rle");
  const char* malformed = temp_file("#N a comment\nx = 1, y = 1\n2o!\n");
  if (malformed) EXPECT_ERROR(opsplit_ca_load_rle(ca, malformed, 0, 0), OPSPLIT_ERROR_PARSE, load, "RLE line 3");
  const char* too_wide = temp_file("x = 3, y = 1\n3o!\n");
  if (too_wide) EXPECT_ERROR(opsplit_ca_load_rle(ca, too_wide, 0, 5), OPSPLIT_ERROR_INVALID_ARGUMENT, load, "closed grid");

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

  /* An RLE file gives the cells its text gives place_rle (a glider at (1, 2)). */
  {
    const char* glider = "#N Glider\n#C LifeWiki\nx = 3, y = 3, rule = B3/S23\nbob$2bo$3o!\n";
    const char* file = temp_file(glider);
    opsplit_ca from_text = NULL, from_file = NULL;
    uint8_t a[ROWS * COLS], b[ROWS * COLS];
    CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, ROWS, COLS, &from_text));
    CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, ROWS, COLS, &from_file));
    CHECK_OK(opsplit_ca_place_rle(from_text, strchr(strchr(glider, '\n') + 1, '\n') + 1, 1, 2));
    if (file) CHECK_OK(opsplit_ca_load_rle(from_file, file, 1, 2));
    CHECK_OK(opsplit_ca_get_cells(from_text, a, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_get_cells(from_file, b, OPSPLIT_CA_ROW_MAJOR));
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(b[1 * COLS + 3] == 1 && b[2 * COLS + 4] == 1 && b[3 * COLS + 2] == 1 && b[3 * COLS + 4] == 1);
    int64_t live = 0;
    CHECK_OK(opsplit_ca_get_population(from_file, &live));
    CHECK(live == 5);
    CHECK_OK(opsplit_ca_destroy(&from_text));
    CHECK_OK(opsplit_ca_destroy(&from_file));
  }

  lava_tests(ctx, ca);
  fv3_tests(ctx);
  place_tests(ctx, ca);

  /* A context with a live grid cannot be destroyed. */
  EXPECT_ERROR(opsplit_context_destroy(&ctx), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_context_destroy", "1");
  CHECK_OK(opsplit_ca_destroy(&ca));
  CHECK_OK(opsplit_context_destroy(&ctx));
  return check_summary();
}

/* ---- lava grids (SCIARA_FV2) ------------------------------------------------------ */

static void lava_tests(opsplit_context ctx, opsplit_ca life) {
  const opsplit_status BAD = OPSPLIT_ERROR_INVALID_ARGUMENT, HANDLE = OPSPLIT_ERROR_INVALID_HANDLE;
  const opsplit_status PARSE = OPSPLIT_ERROR_PARSE, IO = OPSPLIT_ERROR_IO;
  const char* not_lava = "this grid is LIFE";
  const char* create = "opsplit_ca_create";
  char text[8192];

  /* 3 to 500000 rows and columns, at most 2^31 cells. */
  opsplit_ca lv = NULL, gone = NULL;
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, 2, LC, &lv), BAD, create, "3 to 500000");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, LR, 1, &lv), BAD, create, "3 to 500000");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, 500001, 3, &lv), BAD, create, "3 to 500000");
  EXPECT_ERROR(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, 50000, 50000, &lv), BAD, create, "2^31");
  CHECK(lv == NULL);
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, LR, LC, &lv));
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, 3, 3, &gone));
  opsplit_ca dangling = gone; /* a destroyed lava grid */
  CHECK_OK(opsplit_ca_destroy(&gone));
  {
    /* Every lava call refuses it. Checked before any other grid is made: a new one may
     * take the freed address, and a handle's magic word cannot tell it from the old one
     * (the same holds for main's destroyed LIFE grid, whose address lv may have taken). */
    const char* live = "ca is not a live";
    double v[9] = {0.0};
    const double one = 1.0;
    double x = -1.0, y = -1.0, z = -1.0, w = -1.0;
    int64_t vent_index = -1;
    EXPECT_ERROR(opsplit_ca_set_substate(dangling, "altitude", v, OPSPLIT_CA_ROW_MAJOR), HANDLE,
                 "opsplit_ca_set_substate", live);
    EXPECT_ERROR(opsplit_ca_get_substate(dangling, "altitude", v, OPSPLIT_CA_ROW_MAJOR), HANDLE,
                 "opsplit_ca_get_substate", live);
    EXPECT_ERROR(opsplit_ca_load_substate(dangling, "altitude", "altitude.stt"), HANDLE, "opsplit_ca_load_substate",
                 live);
    EXPECT_ERROR(opsplit_ca_set_parameter(dangling, "Pc", 5.0), HANDLE, "opsplit_ca_set_parameter", live);
    EXPECT_ERROR(opsplit_ca_get_parameter(dangling, "Pc", &x), HANDLE, "opsplit_ca_get_parameter", live);
    EXPECT_ERROR(opsplit_ca_load_parameters(dangling, "PARAMETERS.cfg"), HANDLE, "opsplit_ca_load_parameters", live);
    EXPECT_ERROR(opsplit_ca_add_vent(dangling, 1, 1, &one, 1, 60.0, &vent_index), HANDLE, "opsplit_ca_add_vent", live);
    EXPECT_ERROR(opsplit_ca_load_vents(dangling, "VENTS.stt", "EMISSIONS_RATE.stt"), HANDLE, "opsplit_ca_load_vents",
                 live);
    EXPECT_ERROR(opsplit_ca_run_until(dangling, 60.0), HANDLE, "opsplit_ca_run_until", live);
    EXPECT_ERROR(opsplit_ca_get_time(dangling, &x), HANDLE, "opsplit_ca_get_time", live);
    EXPECT_ERROR(opsplit_ca_get_volumes(dangling, &x, &y, &z, &w), HANDLE, "opsplit_ca_get_volumes", live);
    EXPECT_ERROR(opsplit_ca_set_cells_computed(dangling, OPSPLIT_CA_ALL_CELLS), HANDLE,
                 "opsplit_ca_set_cells_computed", live);
    EXPECT_ERROR(opsplit_ca_step(dangling, 1), HANDLE, "opsplit_ca_step", live);
    CHECK(x == -1.0 && y == -1.0 && z == -1.0 && w == -1.0 && vent_index == -1 && v[0] == 0.0);
  }
  int64_t rows = 0, cols = 0, steps = -1;
  CHECK_OK(opsplit_ca_get_shape(lv, &rows, &cols));
  CHECK(rows == LR && cols == LC);

  /* ---- LIFE's calls and boundaries on a lava grid ---- */
  uint8_t cells[LR * LC];
  memset(cells, 0, sizeof cells);
  int64_t population = -1;
  const char* life_only = "for LIFE grids";
  EXPECT_ERROR(opsplit_ca_set_boundary(lv, OPSPLIT_CA_PERIODIC), OPSPLIT_ERROR_UNSUPPORTED, "opsplit_ca_set_boundary",
               "CLOSED");
  EXPECT_ERROR(opsplit_ca_set_boundary(lv, (opsplit_ca_boundary)5), BAD, "opsplit_ca_set_boundary", "boundary=5");
  CHECK_OK(opsplit_ca_set_boundary(lv, OPSPLIT_CA_CLOSED));
  EXPECT_ERROR(opsplit_ca_set_rule(lv, "B3/S23"), BAD, "opsplit_ca_set_rule", life_only);
  EXPECT_ERROR(opsplit_ca_set_cells(lv, cells, OPSPLIT_CA_ROW_MAJOR), BAD, "opsplit_ca_set_cells", life_only);
  EXPECT_ERROR(opsplit_ca_get_cells(lv, cells, OPSPLIT_CA_ROW_MAJOR), BAD, "opsplit_ca_get_cells", life_only);
  EXPECT_ERROR(opsplit_ca_place_rle(lv, "x = 1, y = 1\no!", 1, 1), BAD, "opsplit_ca_place_rle", life_only);
  EXPECT_ERROR(opsplit_ca_load_rle(lv, "glider.rle", 1, 1), BAD, "opsplit_ca_load_rle", life_only);
  EXPECT_ERROR(opsplit_ca_get_population(lv, &population), BAD, "opsplit_ca_get_population", life_only);
  CHECK(population == -1);
  EXPECT_ERROR(opsplit_ca_step(lv, -1), BAD, "opsplit_ca_step", "nsteps=-1");

  /* ---- substates ---- */
  const char* setsub = "opsplit_ca_set_substate";
  const char* getsub = "opsplit_ca_get_substate";
  static const char* substates[] = {"altitude", "thickness", "temperature", "solidified", "lost"};
  double alt[LR * LC], out[LR * LC], cm[LR * LC], zero[LR * LC], bad[LR * LC];
  memset(zero, 0, sizeof zero);
  for (int i = 0; i < 5; ++i) { /* a new grid: every substate 0 */
    for (int k = 0; k < LR * LC; ++k) out[k] = -1.0;
    CHECK_OK(opsplit_ca_get_substate(lv, substates[i], out, OPSPLIT_CA_ROW_MAJOR));
    CHECK(same_values(out, zero, LR * LC));
  }
  /* Both orders; altitudes may be negative. */
  for (int r = 0; r < LR; ++r)
    for (int c = 0; c < LC; ++c) alt[r * LC + c] = -50.0 + 100.0 * r + c + 0.25;
  CHECK_OK(opsplit_ca_set_substate(lv, "altitude", alt, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_get_substate(lv, "altitude", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, alt, LR * LC));
  CHECK_OK(opsplit_ca_get_substate(lv, "altitude", cm, OPSPLIT_CA_COLUMN_MAJOR));
  int transposed = 1;
  for (int r = 0; r < LR; ++r)
    for (int c = 0; c < LC; ++c) transposed = transposed && cm[c * LR + r] == alt[r * LC + c];
  CHECK(transposed);
  for (int r = 0; r < LR; ++r) /* column-major in, row-major out */
    for (int c = 0; c < LC; ++c) cm[c * LR + r] = 1000.0 + 10.0 * r + 0.5 * c;
  CHECK_OK(opsplit_ca_set_substate(lv, "altitude", cm, OPSPLIT_CA_COLUMN_MAJOR));
  CHECK_OK(opsplit_ca_get_substate(lv, "altitude", out, OPSPLIT_CA_ROW_MAJOR));
  transposed = 1;
  for (int r = 0; r < LR; ++r)
    for (int c = 0; c < LC; ++c) transposed = transposed && out[r * LC + c] == 1000.0 + 10.0 * r + 0.5 * c;
  CHECK(transposed);
  CHECK_OK(opsplit_ca_set_substate(lv, "altitude", alt, OPSPLIT_CA_ROW_MAJOR));
  /* Lava inside the ring is taken, and read back. */
  memcpy(bad, zero, sizeof bad);
  bad[1 * LC + 1] = 0.5;
  bad[(LR - 2) * LC + (LC - 2)] = 2.0;
  CHECK_OK(opsplit_ca_set_substate(lv, "thickness", bad, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_get_substate(lv, "thickness", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, bad, LR * LC));
  CHECK_OK(opsplit_ca_set_substate(lv, "thickness", zero, OPSPLIT_CA_COLUMN_MAJOR));

  EXPECT_ERROR(opsplit_ca_set_substate(NULL, "altitude", alt, OPSPLIT_CA_ROW_MAJOR), HANDLE, setsub, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_set_substate(life, "altitude", alt, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, not_lava);
  EXPECT_ERROR(opsplit_ca_set_substate(lv, NULL, alt, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "name is NULL");
  EXPECT_ERROR(opsplit_ca_set_substate(lv, "altitude", NULL, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "values is NULL");
  EXPECT_ERROR(opsplit_ca_set_substate(lv, "depth", alt, OPSPLIT_CA_ROW_MAJOR), BAD, setsub,
               "\"depth\" is not a SCIARA-fv2 substate");
  EXPECT_ERROR(opsplit_ca_set_substate(lv, "", alt, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "not a SCIARA-fv2 substate");
  EXPECT_ERROR(opsplit_ca_set_substate(lv, "altitude", alt, (opsplit_ca_order)2), BAD, setsub, "order=2");
  EXPECT_ERROR(opsplit_ca_set_substate(lv, "altitude", alt, (opsplit_ca_order)-1), BAD, setsub, "order=-1");
  const double nonfinite[3] = {NAN, INFINITY, -INFINITY};
  for (int i = 0; i < 3; ++i) {
    memcpy(bad, alt, sizeof bad);
    bad[3 * LC + 4] = nonfinite[i];
    EXPECT_ERROR(opsplit_ca_set_substate(lv, "altitude", bad, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "(3, 4)");
    EXPECT_ERROR(opsplit_ca_set_substate(lv, "altitude", bad, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "finite");
    memcpy(bad, zero, sizeof bad);
    bad[2 * LC + 2] = nonfinite[i];
    EXPECT_ERROR(opsplit_ca_set_substate(lv, "temperature", bad, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "finite");
  }
  for (int i = 1; i < 4; ++i) { /* all but altitude >= 0 */
    memcpy(bad, zero, sizeof bad);
    bad[2 * LC + 3] = -1e-300;
    EXPECT_ERROR(opsplit_ca_set_substate(lv, substates[i], bad, OPSPLIT_CA_ROW_MAJOR), BAD, setsub,
                 "cannot be negative");
  }
  /* Thickness 0 on the outermost ring: each of its four sides. */
  const int ring[4][2] = {{0, 3}, {LR - 1, 3}, {3, 0}, {3, LC - 1}};
  for (int i = 0; i < 4; ++i) {
    memcpy(bad, zero, sizeof bad);
    bad[ring[i][0] * LC + ring[i][1]] = 1.0;
    EXPECT_ERROR(opsplit_ca_set_substate(lv, "thickness", bad, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "outermost ring");
    /* The same cell in column-major order. */
    memcpy(cm, zero, sizeof cm);
    cm[ring[i][1] * LR + ring[i][0]] = 1.0;
    EXPECT_ERROR(opsplit_ca_set_substate(lv, "thickness", cm, OPSPLIT_CA_COLUMN_MAJOR), BAD, setsub, "outermost ring");
  }
  memcpy(bad, zero, sizeof bad);
  bad[0] = 3.0; /* the ring may hold a temperature and solidified lava */
  CHECK_OK(opsplit_ca_set_substate(lv, "solidified", bad, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_set_substate(lv, "solidified", zero, OPSPLIT_CA_ROW_MAJOR));
  EXPECT_ERROR(opsplit_ca_set_substate(lv, "lost", zero, OPSPLIT_CA_ROW_MAJOR), BAD, setsub, "read-only");

  EXPECT_ERROR(opsplit_ca_get_substate(NULL, "altitude", out, OPSPLIT_CA_ROW_MAJOR), HANDLE, getsub, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_get_substate(life, "altitude", out, OPSPLIT_CA_ROW_MAJOR), BAD, getsub, not_lava);
  EXPECT_ERROR(opsplit_ca_get_substate(lv, NULL, out, OPSPLIT_CA_ROW_MAJOR), BAD, getsub, "name is NULL");
  EXPECT_ERROR(opsplit_ca_get_substate(lv, "altitude", NULL, OPSPLIT_CA_ROW_MAJOR), BAD, getsub, "values is NULL");
  EXPECT_ERROR(opsplit_ca_get_substate(lv, "lava", out, OPSPLIT_CA_ROW_MAJOR), BAD, getsub,
               "\"lava\" is not a SCIARA-fv2 substate");
  EXPECT_ERROR(opsplit_ca_get_substate(lv, "altitude", out, (opsplit_ca_order)2), BAD, getsub, "order=2");
  /* Nothing above changed a substate. */
  CHECK_OK(opsplit_ca_get_substate(lv, "altitude", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, alt, LR * LC));
  for (int i = 1; i < 5; ++i) {
    CHECK_OK(opsplit_ca_get_substate(lv, substates[i], out, OPSPLIT_CA_COLUMN_MAJOR));
    CHECK(same_values(out, zero, LR * LC));
  }

  /* ---- substates from files ---- */
  const char* loadsub = "opsplit_ca_load_substate";
  double table[LR * LC], table2[LR * LC];
  for (int r = 0; r < LR; ++r)
    for (int c = 0; c < LC; ++c) {
      table[r * LC + c] = 200.0 + 3.0 * r + 0.125 * c;
      table2[r * LC + c] = 1100.0 + 7.0 * r + c;
    }
  const char* header = "ncols 8\nnrows 7\nxllcorner 499547.5\nyllcorner 4174982.5\ncellsize 10\nNODATA_value -9999\n";
  grid_text(text, sizeof text, "", LR, LC, table);
  const char* plain = temp_file(text);
  grid_text(text, sizeof text, header, LR, LC, table2);
  const char* asc = temp_file(text);
  /* A missing file: a temporary file's name with a suffix no file has. */
  char missing[600], missing2[600];
  snprintf(missing, sizeof missing, "%s.missing", plain != NULL ? plain : "/nonexistent/opsplit");
  snprintf(missing2, sizeof missing2, "%s.missing2", plain != NULL ? plain : "/nonexistent/opsplit");
  const char* dir = getenv("TMPDIR");
  if (dir == NULL || dir[0] == '\0') dir = "/tmp";

  CHECK_OK(opsplit_ca_load_substate(lv, "altitude", plain));
  CHECK_OK(opsplit_ca_get_substate(lv, "altitude", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, table, LR * LC)); /* the first line is row 0 */
  CHECK_OK(opsplit_ca_load_substate(lv, "temperature", asc));
  CHECK_OK(opsplit_ca_get_substate(lv, "temperature", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, table2, LR * LC));
  EXPECT_ERROR(opsplit_ca_load_substate(lv, "lost", plain), BAD, loadsub, "read-only");

  EXPECT_ERROR(opsplit_ca_load_substate(NULL, "altitude", plain), HANDLE, loadsub, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_load_substate(life, "altitude", plain), BAD, loadsub, not_lava);
  EXPECT_ERROR(opsplit_ca_load_substate(lv, NULL, plain), BAD, loadsub, "name is NULL");
  EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", NULL), BAD, loadsub, "path is NULL");
  EXPECT_ERROR(opsplit_ca_load_substate(lv, "height", plain), BAD, loadsub, "not a SCIARA-fv2 substate");
  EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", missing), IO, loadsub, missing);
  EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", dir), IO, loadsub, "directory");
  {
    /* Malformed: a word among the values (line 3), too few values, an empty file, an
     * unknown header key, a header without ncols/nrows, a value out of range. */
    double few[LR * LC];
    memcpy(few, table, sizeof few);
    grid_text(text, sizeof text, "", LR, LC, few);
    char* third = strchr(strchr(text, '\n') + 1, '\n') + 1; /* line 3 */
    memcpy(third, "abc", 3);
    char* sep = strchr(third, ' ');
    if (sep != NULL) memset(third + 3, ' ', (size_t)(sep - third - 3));
    const char* word = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", word), PARSE, loadsub, "\"abc\" is not a number");
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", word), PARSE, loadsub, ":3:");
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", word), PARSE, loadsub, word);
    grid_text(text, sizeof text, "", LR, LC - 1, few);
    const char* short_file = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", short_file), PARSE, loadsub, "49 values");
    const char* empty = temp_file("");
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", empty), PARSE, loadsub, "0 values");
    grid_text(text, sizeof text, "ncols 8\nnrows 7\ncolour 10\n", LR, LC, few);
    const char* key = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", key), PARSE, loadsub, "colour");
    grid_text(text, sizeof text, "cellsize 10\n", LR, LC, few);
    const char* no_shape = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", no_shape), PARSE, loadsub, "no ncols or nrows");
    grid_text(text, sizeof text, "", LR, LC, few);
    char replaced[8192]; /* the first value out of range */
    snprintf(replaced, sizeof replaced, "1e999%s", strchr(text, ' '));
    const char* huge = temp_file(replaced);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", huge), PARSE, loadsub, "1e999");
    /* An ESRI grid of another shape, or cell size, or with a NODATA cell. */
    grid_text(text, sizeof text, "ncols 7\nnrows 7\ncellsize 10\n", LR, LC - 1, few);
    const char* narrow = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", narrow), BAD, loadsub, "7 x 7 grid, not the 7 x 8");
    grid_text(text, sizeof text, "ncols 8\nnrows 6\ncellsize 10\n", LR - 1, LC, few);
    const char* low = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", low), BAD, loadsub, "6 x 8 grid, not the 7 x 8");
    grid_text(text, sizeof text, "ncols 8\nnrows 7\ncellsize 5\n", LR, LC, few);
    const char* cell5 = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", cell5), BAD, loadsub, "cellsize 5");
    memcpy(few, table, sizeof few);
    few[2 * LC + 5] = -9999.0;
    grid_text(text, sizeof text, header, LR, LC, few);
    const char* nodata = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "altitude", nodata), BAD, loadsub, "NODATA");
    /* Thickness on the ring, from a file. */
    memcpy(few, zero, sizeof few);
    few[LC - 1] = 1.0;
    grid_text(text, sizeof text, "", LR, LC, few);
    const char* on_ring = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_substate(lv, "thickness", on_ring), BAD, loadsub, "outermost ring");
  }
  /* Nothing changed. */
  CHECK_OK(opsplit_ca_get_substate(lv, "altitude", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, table, LR * LC));
  CHECK_OK(opsplit_ca_get_substate(lv, "temperature", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, table2, LR * LC));
  CHECK_OK(opsplit_ca_get_substate(lv, "thickness", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, zero, LR * LC));
  CHECK_OK(opsplit_ca_set_substate(lv, "temperature", zero, OPSPLIT_CA_ROW_MAJOR));

  /* ---- parameters ---- */
  const char* setpar = "opsplit_ca_set_parameter";
  const char* getpar = "opsplit_ca_get_parameter";
  const char* loadpar = "opsplit_ca_load_parameters";
  static const char* names[13] = {"Pclock",   "Pc",        "PTsol", "PTvent", "Pr_Tsol",  "Pr_Tvent", "Phc_Tsol",
                                  "Phc_Tvent", "Pcool",    "Prho",  "Pepsilon", "Psigma", "Pcv"};
  static const double etna[13] = {60.0, 10.0, 1143.0, 1360.0, 0.075, 0.9, 60.0, 0.4, 9.0, 2600.0, 0.9, 5.68e-8, 1150.0};
  double value = -1.0;
  CHECK(has_parameters(lv, names, etna, 13));
  EXPECT_ERROR(opsplit_ca_set_parameter(NULL, "Pc", 5.0), HANDLE, setpar, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_set_parameter(life, "Pc", 5.0), BAD, setpar, not_lava);
  EXPECT_ERROR(opsplit_ca_set_parameter(lv, NULL, 5.0), BAD, setpar, "name is NULL");
  EXPECT_ERROR(opsplit_ca_set_parameter(lv, "Pfoo", 5.0), BAD, setpar, "\"Pfoo\" is not a SCIARA-fv2 parameter");
  EXPECT_ERROR(opsplit_ca_set_parameter(lv, "nsteps", 5.0), BAD, setpar, "not a SCIARA-fv2 parameter");
  const double not_positive[6] = {0.0, -0.0, -1.0, NAN, INFINITY, -INFINITY};
  for (int i = 0; i < 6; ++i) {
    EXPECT_ERROR(opsplit_ca_set_parameter(lv, "Pc", not_positive[i]), BAD, setpar, "finite and > 0");
    EXPECT_ERROR(opsplit_ca_set_parameter(lv, "Psigma", not_positive[i]), BAD, setpar, "Psigma");
  }
  EXPECT_ERROR(opsplit_ca_set_parameter(lv, "Pr_Tsol", 1.5), BAD, setpar, "at most 1");
  EXPECT_ERROR(opsplit_ca_set_parameter(lv, "Pr_Tvent", 1.0000001), BAD, setpar, "Pr_Tvent");
  CHECK_OK(opsplit_ca_set_parameter(lv, "Pr_Tsol", 1.0)); /* the limit itself */
  CHECK_OK(opsplit_ca_get_parameter(lv, "Pr_Tsol", &value));
  CHECK(value == 1.0);
  CHECK_OK(opsplit_ca_set_parameter(lv, "Pr_Tsol", 0.075));
  EXPECT_ERROR(opsplit_ca_get_parameter(NULL, "Pc", &value), HANDLE, getpar, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_get_parameter(life, "Pc", &value), BAD, getpar, not_lava);
  EXPECT_ERROR(opsplit_ca_get_parameter(lv, NULL, &value), BAD, getpar, "name is NULL");
  EXPECT_ERROR(opsplit_ca_get_parameter(lv, "Pc", NULL), BAD, getpar, "value is NULL");
  EXPECT_ERROR(opsplit_ca_get_parameter(lv, "Pfoo", &value), BAD, getpar, "not a SCIARA-fv2 parameter");

  /* PARAMETERS.cfg files. */
  const char* params_ok =
      temp_file("nsteps 100\nncols\t8\nnrows\t7\nPclock 30.0\nPc 5\nPTsol 1100.00\nPsigma 5.68E-08\n");
  CHECK_OK(opsplit_ca_load_parameters(lv, params_ok));
  CHECK_OK(opsplit_ca_get_parameter(lv, "Pclock", &value));
  CHECK(value == 30.0);
  CHECK_OK(opsplit_ca_get_parameter(lv, "Pc", &value));
  CHECK(value == 5.0);
  CHECK_OK(opsplit_ca_get_parameter(lv, "PTsol", &value));
  CHECK(value == 1100.0);
  CHECK_OK(opsplit_ca_get_parameter(lv, "PTvent", &value)); /* not in the file: kept */
  CHECK(value == 1360.0);
  const char* params_etna = temp_file("ncols 8\nnrows 7\nPclock 60\nPc 10\nPTsol 1143\n");
  CHECK_OK(opsplit_ca_load_parameters(lv, params_etna));
  EXPECT_ERROR(opsplit_ca_load_parameters(NULL, params_ok), HANDLE, loadpar, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_load_parameters(life, params_ok), BAD, loadpar, not_lava);
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, NULL), BAD, loadpar, "path is NULL");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, missing), IO, loadpar, missing);
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, dir), IO, loadpar, "directory");
  /* Each bad file names a changed Pc first: all or nothing. */
  const char* wrong_cols = temp_file("Pc 5\nncols 9\nnrows 7\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, wrong_cols), BAD, loadpar, "ncols 9");
  const char* wrong_rows = temp_file("Pc 5\nncols 8\nnrows 70\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, wrong_rows), BAD, loadpar, "nrows 70");
  const char* no_value = temp_file("Pc 5\nncols 8\nnrows 7\nPcool\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, no_value), PARSE, loadpar, "\"Pcool\" has no value");
  const char* not_number = temp_file("Pc 5\nPcool nine\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, not_number), PARSE, loadpar, "\"nine\" is not a number");
  const char* unknown = temp_file("Pc 5\nPfoo 3\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, unknown), PARSE, loadpar, "Pfoo");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, unknown), PARSE, loadpar, ":2:");
  const char* rate_above_1 = temp_file("Pc 5\nPr_Tsol 2\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, rate_above_1), PARSE, loadpar, "at most 1");
  const char* zero_value = temp_file("Pc 5\nPcool 0\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, zero_value), PARSE, loadpar, "> 0");
  const char* nan_value = temp_file("Pc 5\nPcool nan\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, nan_value), PARSE, loadpar, "nan");
  const char* cols_fraction = temp_file("Pc 5\nncols 8.5\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, cols_fraction), PARSE, loadpar, "not an integer");
  CHECK(has_parameters(lv, names, etna, 13));

  /* ---- vents ---- */
  const char* addv = "opsplit_ca_add_vent";
  const char* loadv = "opsplit_ca_load_vents";
  const double rates[2] = {2.0, 1.0};
  int64_t vent = -7;
  EXPECT_ERROR(opsplit_ca_add_vent(NULL, 3, 3, rates, 2, 600.0, &vent), HANDLE, addv, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_add_vent(life, 3, 3, rates, 2, 600.0, &vent), BAD, addv, not_lava);
  for (int i = 0; i < 4; ++i)
    EXPECT_ERROR(opsplit_ca_add_vent(lv, ring[i][0], ring[i][1], rates, 2, 600.0, &vent), BAD, addv,
                 "outermost ring");
  EXPECT_ERROR(opsplit_ca_add_vent(lv, -1, 3, rates, 2, 600.0, &vent), BAD, addv, "(-1, 3)");
  EXPECT_ERROR(opsplit_ca_add_vent(lv, 3, LC, rates, 2, 600.0, &vent), BAD, addv, "(3, 8)");
  EXPECT_ERROR(opsplit_ca_add_vent(lv, INT64_MAX, INT64_MIN, rates, 2, 600.0, &vent), BAD, addv, "outermost ring");
  EXPECT_ERROR(opsplit_ca_add_vent(lv, 3, 3, rates, 0, 600.0, &vent), BAD, addv, "nslots=0");
  EXPECT_ERROR(opsplit_ca_add_vent(lv, 3, 3, rates, -1, 600.0, &vent), BAD, addv, "nslots=-1");
  EXPECT_ERROR(opsplit_ca_add_vent(lv, 3, 3, NULL, 2, 600.0, &vent), BAD, addv, "rates is NULL");
  const double bad_rates[4] = {-1.0, NAN, INFINITY, -INFINITY};
  for (int i = 0; i < 4; ++i) {
    double r2[2] = {1.0, bad_rates[i]};
    EXPECT_ERROR(opsplit_ca_add_vent(lv, 3, 3, r2, 2, 600.0, &vent), BAD, addv, "rates[1]");
    EXPECT_ERROR(opsplit_ca_add_vent(lv, 3, 3, r2, 2, 600.0, &vent), BAD, addv, ">= 0");
  }
  const double bad_slots[5] = {0.0, -0.0, -600.0, NAN, INFINITY};
  for (int i = 0; i < 5; ++i)
    EXPECT_ERROR(opsplit_ca_add_vent(lv, 3, 3, rates, 2, bad_slots[i], &vent), BAD, addv, "slot_seconds");
  CHECK(vent == -7); /* untouched by the refusals */
  CHECK_OK(opsplit_ca_add_vent(lv, 1, 1, rates, 2, 300.0, &vent));
  CHECK(vent == 0); /* no vent was added by the refused calls */
  CHECK_OK(opsplit_ca_add_vent(lv, LR - 2, LC - 2, rates, 1, 300.0, NULL));
  const double no_rate = 0.0;
  CHECK_OK(opsplit_ca_add_vent(lv, 1, 1, &no_rate, 1, 1.0, &vent)); /* a second vent on a cell, rate 0 */
  CHECK(vent == 2);

  /* Vent files: a map of ids and an emission-rate file. */
  double map[LR * LC];
  memcpy(map, zero, sizeof map);
  map[2 * LC + 3] = 1.0;
  map[4 * LC + 5] = 2.0;
  grid_text(text, sizeof text, "", LR, LC, map);
  const char* vents_map = temp_file(text);
  const char* vents_rates = temp_file("[TIME]\n600\n\n[VENT_ID]\n1\n\n[EMISSION_RATE]\n2\n1\n\n"
                                      "[VENT_ID] 2 [EMISSION_RATE] 0.5\n[END]\n");
  EXPECT_ERROR(opsplit_ca_load_vents(NULL, vents_map, vents_rates), HANDLE, loadv, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_load_vents(life, vents_map, vents_rates), BAD, loadv, not_lava);
  EXPECT_ERROR(opsplit_ca_load_vents(lv, NULL, vents_rates), BAD, loadv, "vents_path is NULL");
  EXPECT_ERROR(opsplit_ca_load_vents(lv, vents_map, NULL), BAD, loadv, "rates_path is NULL");
  EXPECT_ERROR(opsplit_ca_load_vents(lv, missing, vents_rates), IO, loadv, missing);
  EXPECT_ERROR(opsplit_ca_load_vents(lv, vents_map, missing2), IO, loadv, missing2);
  {
    double m2[LR * LC];
    memcpy(m2, map, sizeof m2);
    m2[3 * LC + 3] = 1.5;
    grid_text(text, sizeof text, "", LR, LC, m2);
    const char* fractional = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_vents(lv, fractional, vents_rates), PARSE, loadv, "not a vent id");
    m2[3 * LC + 3] = -1.0;
    grid_text(text, sizeof text, "", LR, LC, m2);
    const char* negative = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_vents(lv, negative, vents_rates), PARSE, loadv, "not a vent id");
    m2[3 * LC + 3] = 1.0;
    grid_text(text, sizeof text, "", LR, LC, m2);
    const char* twice = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_vents(lv, twice, vents_rates), PARSE, loadv, "more than one cell");
    memcpy(m2, map, sizeof m2);
    m2[2 * LC + 3] = 0.0;
    m2[LC - 1] = 1.0; /* vent 1 on the ring */
    grid_text(text, sizeof text, "", LR, LC, m2);
    const char* ring_map = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_vents(lv, ring_map, vents_rates), BAD, loadv, "outermost ring");
    grid_text(text, sizeof text, "ncols 8\nnrows 8\n", LR + 1, LC, zero);
    const char* tall = temp_file(text);
    EXPECT_ERROR(opsplit_ca_load_vents(lv, tall, vents_rates), BAD, loadv, "8 x 8 grid");
    struct {
      const char* text;
      const char* word;
    } bad_rate_files[] = {
        {"[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2\n[VENT_ID] 2 [EMISSION_RATE] 1\n", "no [END]"},
        {"[VENT_ID] 1 [EMISSION_RATE] 2\n[VENT_ID] 2 [EMISSION_RATE] 1\n[END]\n", "no [TIME]"},
        {"[TIME] 0\n[VENT_ID] 1 [EMISSION_RATE] 2\n[VENT_ID] 2 [EMISSION_RATE] 1\n[END]\n", "[TIME] must be > 0"},
        {"[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2\n[VENT_ID] 3 [EMISSION_RATE] 1\n[END]\n", "vent 3 is not in"},
        {"[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2\n[END]\n", "no emission schedule for vent 2"},
        {"[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2 -1\n[VENT_ID] 2 [EMISSION_RATE] 1\n[END]\n", "negative"},
        {"[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2 x\n[VENT_ID] 2 [EMISSION_RATE] 1\n[END]\n",
         "\"x\" is not a number"},
        {"[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2\n[VENT_ID] 1 [EMISSION_RATE] 1\n[END]\n", "two emission schedules"},
        {"[TIME] 600\n[VENT] 1 [EMISSION_RATE] 2\n[END]\n", "\"[VENT]\""},
    };
    for (size_t i = 0; i < sizeof bad_rate_files / sizeof bad_rate_files[0]; ++i) {
      const char* f = temp_file(bad_rate_files[i].text);
      EXPECT_ERROR(opsplit_ca_load_vents(lv, vents_map, f), PARSE, loadv, bad_rate_files[i].word);
    }
    /* A vent without rates after a good one: refused before the first is added. */
    const char* no_rates = temp_file("[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2\n[VENT_ID] 2 [EMISSION_RATE]\n[END]\n");
    EXPECT_ERROR(opsplit_ca_load_vents(lv, vents_map, no_rates), BAD, loadv, "nslots=0");
  }
  /* No vent added by the refusals: the next is number 3; the files add 3 and 4. */
  CHECK_OK(opsplit_ca_add_vent(lv, 3, 3, &no_rate, 1, 60.0, &vent));
  CHECK(vent == 3);
  CHECK_OK(opsplit_ca_load_vents(lv, vents_map, vents_rates));
  CHECK_OK(opsplit_ca_add_vent(lv, 3, 3, &no_rate, 1, 60.0, &vent));
  CHECK(vent == 6);
  {
    /* At most 64 vents, from calls or files. */
    opsplit_ca many = flat_grid(ctx);
    int ok = 1;
    for (int i = 0; i < 64; ++i) {
      vent = -1;
      ok = ok && opsplit_ca_add_vent(many, 1 + i % 7, 1 + (i / 7) % 7, &no_rate, 1, 60.0, &vent) == OPSPLIT_SUCCESS &&
           vent == i;
    }
    CHECK(ok);
    EXPECT_ERROR(opsplit_ca_add_vent(many, 4, 4, &no_rate, 1, 60.0, &vent), BAD, addv, "at most 64");
    double m9[RN * RN];
    for (int i = 0; i < RN * RN; ++i) m9[i] = 0.0;
    m9[4 * RN + 4] = 1.0;
    grid_text(text, sizeof text, "", RN, RN, m9);
    const char* map9 = temp_file(text);
    const char* rates9 = temp_file("[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2\n[END]\n");
    EXPECT_ERROR(opsplit_ca_load_vents(many, map9, rates9), BAD, loadv, "at most 64");
    CHECK_OK(opsplit_ca_destroy(&many));
  }

  /* ---- run_until, time, volumes, cells computed: bad input ---- */
  const char* run = "opsplit_ca_run_until";
  const char* gettime = "opsplit_ca_get_time";
  const char* getvol = "opsplit_ca_get_volumes";
  const char* computed = "opsplit_ca_set_cells_computed";
  double t = -1.0, emitted = -1.0, lava = -1.0, solidified = -1.0, lost = -1.0;
  EXPECT_ERROR(opsplit_ca_run_until(NULL, 60.0), HANDLE, run, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_run_until(life, 60.0), BAD, run, not_lava);
  for (int i = 0; i < 3; ++i) EXPECT_ERROR(opsplit_ca_run_until(lv, nonfinite[i]), BAD, run, "not finite");
  EXPECT_ERROR(opsplit_ca_run_until(lv, 1e300), BAD, run, "too many steps");
  EXPECT_ERROR(opsplit_ca_get_time(NULL, &t), HANDLE, gettime, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_get_time(life, &t), BAD, gettime, not_lava);
  EXPECT_ERROR(opsplit_ca_get_time(lv, NULL), BAD, gettime, "t_sim is NULL");
  EXPECT_ERROR(opsplit_ca_get_volumes(NULL, &emitted, &lava, &solidified, &lost), HANDLE, getvol, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_get_volumes(life, &emitted, &lava, &solidified, &lost), BAD, getvol, not_lava);
  EXPECT_ERROR(opsplit_ca_get_volumes(lv, NULL, &lava, &solidified, &lost), BAD, getvol, "emitted is NULL");
  EXPECT_ERROR(opsplit_ca_get_volumes(lv, &emitted, NULL, &solidified, &lost), BAD, getvol, "lava is NULL");
  EXPECT_ERROR(opsplit_ca_get_volumes(lv, &emitted, &lava, NULL, &lost), BAD, getvol, "solidified is NULL");
  EXPECT_ERROR(opsplit_ca_get_volumes(lv, &emitted, &lava, &solidified, NULL), BAD, getvol, "lost is NULL");
  EXPECT_ERROR(opsplit_ca_set_cells_computed(NULL, OPSPLIT_CA_ALL_CELLS), HANDLE, computed, "ca is NULL");
  EXPECT_ERROR(opsplit_ca_set_cells_computed(life, OPSPLIT_CA_ALL_CELLS), BAD, computed, not_lava);
  EXPECT_ERROR(opsplit_ca_set_cells_computed(lv, (opsplit_ca_cells)2), BAD, computed, "cells=2");
  EXPECT_ERROR(opsplit_ca_set_cells_computed(lv, (opsplit_ca_cells)-1), BAD, computed, "cells=-1");
  CHECK_OK(opsplit_ca_get_time(lv, &t));
  CHECK(t == 0.0);
  CHECK_OK(opsplit_ca_get_steps(lv, &steps));
  CHECK(steps == 0);

  /* PTvent <= PTsol is taken, then refused at the next step; the grid stays at step 0. */
  CHECK_OK(opsplit_ca_set_parameter(lv, "PTvent", 1000.0));
  EXPECT_ERROR(opsplit_ca_step(lv, 1), BAD, "opsplit_ca_step", "PTvent");
  EXPECT_ERROR(opsplit_ca_run_until(lv, 600.0), BAD, run, "must exceed PTsol");
  CHECK_OK(opsplit_ca_set_parameter(lv, "PTvent", 1143.0)); /* equal: refused too */
  EXPECT_ERROR(opsplit_ca_run_until(lv, 600.0), BAD, run, "PTvent");
  CHECK_OK(opsplit_ca_get_steps(lv, &steps));
  CHECK(steps == 0);
  CHECK_OK(opsplit_ca_get_time(lv, &t));
  CHECK(t == 0.0);
  CHECK_OK(opsplit_ca_get_volumes(lv, &emitted, &lava, &solidified, &lost));
  CHECK(emitted == 0.0 && lava == 0.0 && solidified == 0.0 && lost == 0.0);
  CHECK_OK(opsplit_ca_get_substate(lv, "thickness", out, OPSPLIT_CA_ROW_MAJOR));
  CHECK(same_values(out, zero, LR * LC));
  CHECK_OK(opsplit_ca_set_parameter(lv, "PTvent", 1360.0));
  CHECK_OK(opsplit_ca_step(lv, 1));
  CHECK_OK(opsplit_ca_get_steps(lv, &steps));
  CHECK(steps == 1);
  CHECK_OK(opsplit_ca_get_time(lv, &t));
  CHECK(t == 60.0);
  /* The first step's emission, 60 s of: vent 0 at (1, 1) 2 m^3/s, vent 1 at (5, 6) 2,
   * vent 4 at (2, 3) 2 and vent 5 at (4, 5) 0.5 (from the files); vents 2, 3, 6 emit 0. */
  CHECK_OK(opsplit_ca_get_volumes(lv, &emitted, &lava, &solidified, &lost));
  CHECK(close_rel(emitted, (2.0 + 2.0 + 0.5 + 2.0) * 60.0, 1e-12));
  CHECK(close_rel(lava + solidified + lost, emitted, 1e-12));
  /* Pclock is fixed once stepped; the other parameters are not. */
  EXPECT_ERROR(opsplit_ca_set_parameter(lv, "Pclock", 30.0), BAD, setpar, "Pclock cannot change");
  EXPECT_ERROR(opsplit_ca_load_parameters(lv, params_ok), BAD, loadpar, "Pclock cannot change");
  CHECK_OK(opsplit_ca_get_parameter(lv, "Pclock", &value));
  CHECK(value == 60.0);
  CHECK_OK(opsplit_ca_get_parameter(lv, "Pc", &value));
  CHECK(value == 10.0);
  CHECK_OK(opsplit_ca_load_parameters(lv, params_etna)); /* Pclock 60: unchanged, taken */
  CHECK_OK(opsplit_ca_set_parameter(lv, "Pcool", 9.0));
  /* Times already reached take no step; a time between steps takes the step reaching it. */
  CHECK_OK(opsplit_ca_run_until(lv, -5.0));
  CHECK_OK(opsplit_ca_run_until(lv, 60.0));
  CHECK_OK(opsplit_ca_get_steps(lv, &steps));
  CHECK(steps == 1);
  CHECK_OK(opsplit_ca_run_until(lv, 61.0));
  CHECK_OK(opsplit_ca_get_steps(lv, &steps));
  CHECK(steps == 2);
  CHECK_OK(opsplit_ca_get_time(lv, &t));
  CHECK(t == 120.0);
  CHECK_OK(opsplit_ca_set_cells_computed(lv, OPSPLIT_CA_ALL_CELLS));
  CHECK_OK(opsplit_ca_set_cells_computed(lv, OPSPLIT_CA_ACTIVE_REGION));

  /* ---- runs on a flat 9 x 9 grid, a vent at its centre: 2 m^3/s for one slot of 600 s ---- */
  const double rate = 2.0;
  opsplit_ca a = flat_grid(ctx), b = flat_grid(ctx), c = flat_grid(ctx);
  int64_t va = -1;
  CHECK_OK(opsplit_ca_add_vent(a, 4, 4, &rate, 1, 600.0, &va));
  CHECK(va == 0);
  double m9[RN * RN];
  for (int i = 0; i < RN * RN; ++i) m9[i] = 0.0;
  m9[4 * RN + 4] = 1.0;
  grid_text(text, sizeof text, "", RN, RN, m9);
  const char* map9 = temp_file(text);
  const char* rates9 = temp_file("[TIME] 600\n[VENT_ID] 1 [EMISSION_RATE] 2\n[END]\n");
  CHECK_OK(opsplit_ca_load_vents(b, map9, rates9));
  CHECK_OK(opsplit_ca_add_vent(c, 4, 4, &rate, 1, 600.0, NULL));
  CHECK_OK(opsplit_ca_set_cells_computed(c, OPSPLIT_CA_ALL_CELLS));
  CHECK_OK(opsplit_ca_run_until(a, 600.0));
  CHECK_OK(opsplit_ca_run_until(b, 600.0));
  CHECK_OK(opsplit_ca_run_until(c, 600.0));
  CHECK_OK(opsplit_ca_get_time(a, &t));
  CHECK(t == 600.0);
  CHECK_OK(opsplit_ca_get_steps(a, &steps));
  CHECK(steps == 10);
  CHECK_OK(opsplit_ca_get_volumes(a, &emitted, &lava, &solidified, &lost));
  CHECK(close_rel(emitted, 2.0 * 600.0, 1e-9));
  CHECK(close_rel(lava + solidified + lost, emitted, 1e-12));
  CHECK(lava > 0.0 && solidified >= 0.0 && lost >= 0.0);
  {
    double h[RN * RN], temp[RN * RN], gone_out[RN * RN];
    CHECK_OK(opsplit_ca_get_substate(a, "thickness", h, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_get_substate(a, "temperature", temp, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_get_substate(a, "lost", gone_out, OPSPLIT_CA_ROW_MAJOR));
    CHECK(h[4 * RN + 4] > 0.0);
    CHECK(temp[4 * RN + 4] > 1143.0 && temp[4 * RN + 4] <= 1360.0);
    int ring_dry = 1, inside_kept = 1;
    for (int r = 0; r < RN; ++r)
      for (int col = 0; col < RN; ++col) {
        const int on_ring = r == 0 || col == 0 || r == RN - 1 || col == RN - 1;
        if (on_ring) ring_dry = ring_dry && h[r * RN + col] == 0.0 && gone_out[r * RN + col] >= 0.0;
        else inside_kept = inside_kept && gone_out[r * RN + col] == 0.0 && h[r * RN + col] >= 0.0;
      }
    CHECK(ring_dry);    /* the ring is the sink: what reaches it is lost */
    CHECK(inside_kept); /* nothing is lost inside */
  }
  CHECK(same_substates(a, b)); /* load_vents = add_vent */
  CHECK(same_substates(a, c)); /* ALL_CELLS = ACTIVE_REGION */
  /* Nothing after the last slot. */
  CHECK_OK(opsplit_ca_run_until(a, 1200.0));
  CHECK_OK(opsplit_ca_get_steps(a, &steps));
  CHECK(steps == 20);
  CHECK_OK(opsplit_ca_get_volumes(a, &emitted, &lava, &solidified, &lost));
  CHECK(close_rel(emitted, 1200.0, 1e-9));
  CHECK(close_rel(lava + solidified + lost, emitted, 1e-12));

  /* Two slots: 2 then 1 m^3/s for 300 s each (5 steps each): 900 m^3. Slots of 90 s: a
   * step emits the schedule's volume over it, whatever slots it crosses: 2 x 90 + 1 x 90
   * (the step from 60 s takes 30 s of each slot). */
  opsplit_ca d = flat_grid(ctx), e = flat_grid(ctx);
  CHECK_OK(opsplit_ca_add_vent(d, 4, 4, rates, 2, 300.0, NULL));
  CHECK_OK(opsplit_ca_run_until(d, 600.0));
  CHECK_OK(opsplit_ca_get_volumes(d, &emitted, &lava, &solidified, &lost));
  CHECK(close_rel(emitted, 900.0, 1e-9));
  CHECK(close_rel(lava + solidified + lost, emitted, 1e-12));
  CHECK_OK(opsplit_ca_add_vent(e, 4, 4, rates, 2, 90.0, NULL));
  CHECK_OK(opsplit_ca_run_until(e, 240.0));
  CHECK_OK(opsplit_ca_get_volumes(e, &emitted, &lava, &solidified, &lost));
  CHECK(close_rel(emitted, 2.0 * 90.0 + 1.0 * 90.0, 1e-9));

  /* Lava set by hand (no vent): the region starts from it; the same bits with ALL_CELLS;
   * its volume is kept (emitted counts only the vents). */
  opsplit_ca h1 = flat_grid(ctx), h2 = flat_grid(ctx);
  {
    double h[RN * RN], temp[RN * RN];
    for (int i = 0; i < RN * RN; ++i) h[i] = temp[i] = 0.0;
    h[2 * RN + 2] = 5.0;
    temp[2 * RN + 2] = 1300.0;
    CHECK_OK(opsplit_ca_set_substate(h1, "thickness", h, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_set_substate(h1, "temperature", temp, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_set_substate(h2, "thickness", h, OPSPLIT_CA_COLUMN_MAJOR)); /* symmetric cell */
    CHECK_OK(opsplit_ca_set_substate(h2, "temperature", temp, OPSPLIT_CA_COLUMN_MAJOR));
    CHECK_OK(opsplit_ca_set_cells_computed(h2, OPSPLIT_CA_ALL_CELLS));
    CHECK_OK(opsplit_ca_step(h1, 10));
    CHECK_OK(opsplit_ca_step(h2, 10));
    CHECK(same_substates(h1, h2));
    CHECK_OK(opsplit_ca_get_volumes(h1, &emitted, &lava, &solidified, &lost));
    CHECK(emitted == 0.0);
    CHECK(close_rel(lava + solidified + lost, 5.0 * 100.0, 1e-12));
    CHECK_OK(opsplit_ca_get_substate(h1, "thickness", h, OPSPLIT_CA_ROW_MAJOR));
    CHECK(h[2 * RN + 3] > 0.0); /* it moved */
  }

  /* A progress callback cancelling a run: 40 steps reported every 2, cancelled at the
   * second report, after 4 steps; the grid goes on from there to the same bits as b. */
  opsplit_ca g = flat_grid(ctx);
  CHECK_OK(opsplit_ca_add_vent(g, 4, 4, &rate, 1, 600.0, NULL));
  progress_calls = 0;
  cancel_at = 2;
  CHECK_OK(opsplit_context_set_progress_callback(ctx, cancelling_progress, NULL));
  EXPECT_ERROR(opsplit_ca_run_until(g, 2400.0), OPSPLIT_ERROR_CANCELLED, run, "cancelled");
  CHECK(progress_calls == 2);
  CHECK(strcmp(progress_what, "opsplit_ca_run_until") == 0);
  CHECK_OK(opsplit_ca_get_steps(g, &steps));
  CHECK(steps == 4);
  CHECK_OK(opsplit_ca_get_time(g, &t));
  CHECK(t == 240.0);
  CHECK_OK(opsplit_ca_get_volumes(g, &emitted, &lava, &solidified, &lost));
  CHECK(close_rel(emitted, 2.0 * 240.0, 1e-9));
  CHECK(close_rel(lava + solidified + lost, emitted, 1e-12));
  /* step cancels the same way. */
  progress_calls = 0;
  cancel_at = 1;
  EXPECT_ERROR(opsplit_ca_step(g, 4), OPSPLIT_ERROR_CANCELLED, "opsplit_ca_step", "cancelled");
  CHECK(strcmp(progress_what, "opsplit_ca_step") == 0);
  CHECK_OK(opsplit_ca_get_steps(g, &steps));
  CHECK(steps == 5);
  CHECK_OK(opsplit_context_set_progress_callback(ctx, NULL, NULL));
  CHECK_OK(opsplit_ca_run_until(g, 600.0));
  CHECK_OK(opsplit_ca_get_steps(g, &steps));
  CHECK(steps == 10);
  CHECK(same_substates(g, b));

  opsplit_ca* grids[] = {&lv, &a, &b, &c, &d, &e, &h1, &h2, &g};
  for (size_t i = 0; i < sizeof grids / sizeof grids[0]; ++i) {
    CHECK_OK(opsplit_ca_destroy(grids[i]));
    CHECK(*grids[i] == NULL);
  }
  remove_temp_files();
}

/* ---- SCIARA_FV3 ------------------------------------------------------------------- */

static void fv3_tests(opsplit_context ctx) {
  const opsplit_status BAD = OPSPLIT_ERROR_INVALID_ARGUMENT, PARSE = OPSPLIT_ERROR_PARSE;
  const char* setpar = "opsplit_ca_set_parameter";
  opsplit_ca v3 = NULL, v2 = NULL;
  EXPECT_ERROR(opsplit_ca_create(ctx, (opsplit_ca_model)3, RN, RN, &v3), BAD, "opsplit_ca_create",
               "OPSPLIT_CA_SCIARA_FV3 (2)");
  CHECK(v3 == NULL);
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, RN, RN, &v3));
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, RN, RN, &v2));

  /* The thesis' Etna 2006 table, the dataset's sigma, g = 9.81. */
  static const char* names[15] = {"Pc",       "Ptmax",     "PTsol", "PTvent", "Pdp_Tsol",
                                  "Pdp_Tvent", "Phc_Tsol", "Phc_Tvent", "Pr",   "Pcool",
                                  "Prho",     "Pepsilon",  "Psigma", "Pcv",   "Pg"};
  static const double thesis[15] = {10.0,  120.0, 1143.0, 1360.0, 0.5, 0.315, 23.066, 1.014,
                                    0.5,   1.507, 2600.0, 0.9,    5.68e-8, 1150.0, 9.81};
  double value = -1.0;
  CHECK(has_parameters(v3, names, thesis, 15));
  /* Each model refuses the other's names, listing its own. */
  EXPECT_ERROR(opsplit_ca_set_parameter(v3, "Pclock", 60.0), BAD, setpar, "\"Pclock\" is not a SCIARA-fv3 parameter");
  EXPECT_ERROR(opsplit_ca_set_parameter(v3, "Pr_Tsol", 0.5), BAD, setpar, "Ptmax");
  EXPECT_ERROR(opsplit_ca_set_parameter(v2, "Ptmax", 60.0), BAD, setpar, "\"Ptmax\" is not a SCIARA-fv2 parameter");
  EXPECT_ERROR(opsplit_ca_get_parameter(v2, "Pdp_Tsol", &value), BAD, "opsplit_ca_get_parameter", "SCIARA-fv2");
  /* Limits: dissipations below 1, r at most 1. */
  EXPECT_ERROR(opsplit_ca_set_parameter(v3, "Pdp_Tsol", 1.0), BAD, setpar, "below 1");
  EXPECT_ERROR(opsplit_ca_set_parameter(v3, "Pr", 1.5), BAD, setpar, "at most 1");
  EXPECT_ERROR(opsplit_ca_set_parameter(v3, "Pg", 0.0), BAD, setpar, "finite and > 0");
  CHECK_OK(opsplit_ca_set_parameter(v3, "Pr", 1.0));
  CHECK_OK(opsplit_ca_set_parameter(v3, "Pr", 0.5));
  /* A PARAMETERS.cfg of fv2's names is not fv3's: all or nothing. */
  const char* cfg = temp_file("Pc 10\nPclock 60\n");
  EXPECT_ERROR(opsplit_ca_load_parameters(v3, cfg), PARSE, "opsplit_ca_load_parameters", "not a SCIARA-fv3 parameter");
  const char* cfg3 = temp_file("Ptmax 100\nPdp_Tvent 0.3\n");
  CHECK_OK(opsplit_ca_load_parameters(v3, cfg3));
  CHECK_OK(opsplit_ca_get_parameter(v3, "Ptmax", &value));
  CHECK(value == 100.0);
  CHECK_OK(opsplit_ca_set_parameter(v3, "Ptmax", 120.0));
  CHECK_OK(opsplit_ca_set_parameter(v3, "Pdp_Tvent", 0.315));

  /* Momentum: fv3's substates, any sign, finite; fv2 has none. */
  double m[RN * RN], back[RN * RN];
  for (int i = 0; i < RN * RN; ++i) m[i] = 0.25 * (i % 7) - 0.5;
  CHECK_OK(opsplit_ca_set_substate(v3, "momentum_x", m, OPSPLIT_CA_COLUMN_MAJOR));
  CHECK_OK(opsplit_ca_get_substate(v3, "momentum_x", back, OPSPLIT_CA_COLUMN_MAJOR));
  CHECK(same_values(m, back, RN * RN));
  m[5] = NAN;
  EXPECT_ERROR(opsplit_ca_set_substate(v3, "momentum_y", m, OPSPLIT_CA_ROW_MAJOR), BAD, "opsplit_ca_set_substate",
               "finite");
  EXPECT_ERROR(opsplit_ca_get_substate(v2, "momentum_y", back, OPSPLIT_CA_ROW_MAJOR), BAD, "opsplit_ca_get_substate",
               "not a SCIARA-fv2 substate");
  for (int i = 0; i < RN * RN; ++i) m[i] = 0.0;
  CHECK_OK(opsplit_ca_set_substate(v3, "momentum_x", m, OPSPLIT_CA_ROW_MAJOR));

  /* A vent of 1 m^3/s for 1000 s on a flat grid: with no lava the first step is r Ptmax
   * = 60 s; run_until ends at its time exactly; the emission is the schedule's integral
   * (1000 m^3) though no step need end at 1000 s; the mass balances. */
  double altitude[RN * RN];
  for (int i = 0; i < RN * RN; ++i) altitude[i] = 100.0;
  const double rate = 1.0;
  opsplit_ca a = NULL, b = NULL;
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, RN, RN, &a));
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, RN, RN, &b));
  opsplit_ca both[2] = {a, b};
  for (int k = 0; k < 2; ++k) {
    CHECK_OK(opsplit_ca_set_substate(both[k], "altitude", altitude, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_add_vent(both[k], 4, 4, &rate, 1, 1000.0, NULL));
  }
  double t = 0.0, emitted = 0.0, lava = 0.0, solidified = 0.0, lost = 0.0;
  int64_t steps = 0;
  CHECK_OK(opsplit_ca_step(a, 1));
  CHECK_OK(opsplit_ca_get_time(a, &t));
  CHECK(t == 60.0);
  CHECK_OK(opsplit_ca_run_until(a, 2000.5));
  CHECK_OK(opsplit_ca_get_time(a, &t));
  CHECK(t == 2000.5);
  CHECK_OK(opsplit_ca_get_volumes(a, &emitted, &lava, &solidified, &lost));
  CHECK(close_rel(emitted, 1000.0, 1e-12));
  CHECK(close_rel(lava + solidified + lost, emitted, 1e-12));

  /* A cancelled run_until (a report each 4096 steps: cancelled at the first) resumes to
   * the bits of an uncancelled one. 5 x 10^5 s take more than 4096 steps of <= 60 s. */
  CHECK_OK(opsplit_ca_run_until(a, 0.0)); /* in the past: nothing */
  opsplit_ca c = NULL;
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, RN, RN, &c));
  CHECK_OK(opsplit_ca_set_substate(c, "altitude", altitude, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_add_vent(c, 4, 4, &rate, 1, 1000.0, NULL));
  progress_calls = 0;
  cancel_at = 1;
  CHECK_OK(opsplit_context_set_progress_callback(ctx, cancelling_progress, NULL));
  EXPECT_ERROR(opsplit_ca_run_until(b, 5.0e5), OPSPLIT_ERROR_CANCELLED, "opsplit_ca_run_until", "cancelled");
  CHECK(progress_calls == 1);
  CHECK_OK(opsplit_ca_get_steps(b, &steps));
  CHECK(steps == 4096);
  CHECK_OK(opsplit_ca_get_time(b, &t));
  CHECK(t > 0.0 && t < 5.0e5);
  CHECK_OK(opsplit_context_set_progress_callback(ctx, NULL, NULL));
  CHECK_OK(opsplit_ca_run_until(b, 5.0e5));
  CHECK_OK(opsplit_ca_run_until(c, 5.0e5));
  CHECK(same_substates_of(b, c, 1));
  CHECK_OK(opsplit_ca_get_time(b, &t));
  CHECK(t == 5.0e5);

  /* A clock too short to advance the time (a momentum far out of scale): NUMERICAL, the
   * grid at its step and usable once the momentum is set right; a refused parameter
   * combination: INVALID_ARGUMENT naming the step the grid holds. */
  double spot[RN * RN], hot[RN * RN], huge[RN * RN];
  for (int i = 0; i < RN * RN; ++i) spot[i] = hot[i] = huge[i] = 0.0;
  spot[4 * RN + 4] = 5.0; /* above hc(1300 K) = 2.4 m: it flows */
  hot[4 * RN + 4] = 1300.0;
  huge[4 * RN + 4] = 1.0e300;
  CHECK_OK(opsplit_ca_set_substate(v3, "altitude", altitude, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_set_substate(v3, "thickness", spot, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_set_substate(v3, "temperature", hot, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_set_substate(v3, "momentum_x", huge, OPSPLIT_CA_ROW_MAJOR));
  EXPECT_ERROR(opsplit_ca_run_until(v3, 100.0), OPSPLIT_ERROR_NUMERICAL, "opsplit_ca_run_until", "too short");
  EXPECT_ERROR(opsplit_ca_step(v3, 3), OPSPLIT_ERROR_NUMERICAL, "opsplit_ca_step", "the grid is at step 0");
  CHECK_OK(opsplit_ca_get_time(v3, &t));
  CHECK(t == 0.0);
  for (int i = 0; i < RN * RN; ++i) huge[i] = 0.0;
  CHECK_OK(opsplit_ca_set_substate(v3, "momentum_x", huge, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_run_until(v3, 100.0));
  CHECK_OK(opsplit_ca_get_time(v3, &t));
  CHECK(t == 100.0);
  CHECK_OK(opsplit_ca_get_steps(v3, &steps));
  CHECK_OK(opsplit_ca_set_parameter(v3, "PTvent", 1000.0)); /* below PTsol: refused at the next step */
  EXPECT_ERROR(opsplit_ca_run_until(v3, 200.0), BAD, "opsplit_ca_run_until", "the grid is at step");
  int64_t after = -1;
  CHECK_OK(opsplit_ca_get_steps(v3, &after));
  CHECK(after == steps);
  CHECK_OK(opsplit_ca_set_parameter(v3, "PTvent", 1360.0));
  CHECK_OK(opsplit_ca_run_until(v3, 200.0));
  EXPECT_ERROR(opsplit_ca_run_until(v3, 1e300), BAD, "opsplit_ca_run_until", "too many steps away");

  opsplit_ca* grids[] = {&v3, &v2, &a, &b, &c};
  for (size_t i = 0; i < sizeof grids / sizeof grids[0]; ++i) CHECK_OK(opsplit_ca_destroy(grids[i]));
  remove_temp_files();
}

/* ---- a grid's place in a decomposition (opsplit/distributed.h), on one process ------ */

/* A group of this process alone, as a communication layer would make it; it has no
 * neighbours, so its exchange is never called. */
static int one_allgather(void* user, const int64_t* mine, const int64_t* counts, int64_t* all, char* message,
                         size_t size) {
  (void)user, (void)message, (void)size;
  memcpy(all, mine, (size_t)counts[0] * sizeof *all);
  return 0;
}
static int one_allmax(void* user, int64_t* values, int n, char* message, size_t size) {
  (void)user, (void)values, (void)n, (void)message, (void)size;
  return 0;
}
static int released = 0;
static void one_release(void* user) {
  (void)user;
  ++released;
}
static int no_exchange(void* user, int axis, const void* const send[2], void* const recv[2], size_t bytes,
                       char* message, size_t size) {
  (void)user, (void)axis, (void)send, (void)recv, (void)bytes;
  snprintf(message, size, "no neighbours here");
  return 1;
}

/* A cone with a vent at its top, stepped 300 times. */
static void cone_run(opsplit_ca g, int fv3) {
  double z[RN * RN];
  for (int r = 0; r < RN; ++r)
    for (int c = 0; c < RN; ++c) z[r * RN + c] = 100.0 - 2.0 * (double)(abs(r - RN / 2) + abs(c - RN / 2));
  CHECK_OK(opsplit_ca_set_substate(g, "altitude", z, OPSPLIT_CA_ROW_MAJOR));
  const double rates[2] = {20.0, 0.0};
  CHECK_OK(opsplit_ca_add_vent(g, RN / 2, RN / 2, rates, 2, fv3 ? 600.0 : 3600.0, NULL));
  CHECK_OK(opsplit_ca_step(g, 300));
}

static void place_tests(opsplit_context ctx, opsplit_ca life) {
  const opsplit_status BAD = OPSPLIT_ERROR_INVALID_ARGUMENT;
  const char* attach = "opsplit_ca_attach_distributed";
  const char* place = "opsplit_ca_get_place";
  opsplit_group one = {NULL, 0, 1, one_allgather, one_allmax, one_release, no_exchange, 0};
  opsplit_decomposition whole = {{1, 1, 1}, {0, 0, 0}, {0, 0, 0}, {-1, -1, -1, -1, -1, -1}};
  int64_t p[4] = {-1, -1, -1, -1};
  /* Unattached: the whole grid. LIFE grids too. */
  opsplit_ca g = NULL, alone = NULL;
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, RN, RN, &g));
  CHECK_OK(opsplit_ca_get_place(g, &p[0], &p[1], &p[2], &p[3]));
  CHECK(p[0] == 0 && p[1] == 0 && p[2] == RN && p[3] == RN);
  CHECK_OK(opsplit_ca_get_place(life, &p[0], &p[1], &p[2], &p[3]));
  CHECK(p[0] == 0 && p[1] == 0 && p[2] == ROWS && p[3] == COLS);
  EXPECT_ERROR(opsplit_ca_get_place(g, NULL, &p[1], &p[2], &p[3]), BAD, place, "first_row");
  EXPECT_ERROR(opsplit_ca_get_place(NULL, &p[0], &p[1], &p[2], &p[3]), OPSPLIT_ERROR_INVALID_HANDLE, place, "ca");

  /* Refused: NULL arguments, dims that do not make the group's one process, a third
   * dimension, a periodic split (checked before the size), LIFE grids, a second attach. */
  EXPECT_ERROR(opsplit_ca_attach_distributed(g, NULL, &whole), BAD, attach, "group is NULL");
  EXPECT_ERROR(opsplit_ca_attach_distributed(g, &one, NULL), BAD, attach, "decomposition is NULL");
  EXPECT_ERROR(opsplit_ca_attach_distributed(NULL, &one, &whole), OPSPLIT_ERROR_INVALID_HANDLE, attach, "ca");
  opsplit_decomposition two = whole;
  two.dims[0] = 2;
  EXPECT_ERROR(opsplit_ca_attach_distributed(g, &one, &two), BAD, attach,
               "dims 2x1x1 make 2 processes, but the group has 1");
  opsplit_decomposition deep = whole;
  deep.dims[2] = 2;
  EXPECT_ERROR(opsplit_ca_attach_distributed(g, &one, &deep), BAD, attach, "two dimensions (rows, cols)");
  opsplit_decomposition ring = two;
  ring.periodic[0] = 1;
  EXPECT_ERROR(opsplit_ca_attach_distributed(g, &one, &ring), BAD, attach, "CLOSED");
  /* LIFE: after its first generation, refused. */
  EXPECT_ERROR(opsplit_ca_attach_distributed(life, &one, &whole), BAD, attach, "before its first vent and step");
  /* A hand-made group of two (its collectives those of this process alone: the check
   * is this process's own): a neighbour across dimension 1, which dims[1] = 1 does not
   * split, would make a wrong place. */
  opsplit_group pair = one;
  pair.size = 2;
  opsplit_decomposition sideways = {{2, 1, 1}, {0, 0, 0}, {0, 0, 0}, {-1, 1, 1, -1, -1, -1}};
  EXPECT_ERROR(opsplit_ca_attach_distributed(g, &pair, &sideways), BAD, attach, "dims[1]=1 does not split");
  CHECK(released == 0); /* the caller keeps a group that was refused */
  CHECK_OK(opsplit_ca_attach_distributed(g, &one, &whole));
  EXPECT_ERROR(opsplit_ca_attach_distributed(g, &one, &whole), BAD, attach, "already attached");
  CHECK_OK(opsplit_ca_get_place(g, &p[0], &p[1], &p[2], &p[3]));
  CHECK(p[0] == 0 && p[1] == 0 && p[2] == RN && p[3] == RN);

  /* A grid of one block runs as the grid alone, bit for bit (CUDA: a block's launches,
   * a step each, against one process's steps in a launch). */
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, RN, RN, &alone));
  cone_run(g, 1), cone_run(alone, 1);
  CHECK(same_substates_of(g, alone, 1));
  double a[4], b[4];
  CHECK_OK(opsplit_ca_get_volumes(g, &a[0], &a[1], &a[2], &a[3]));
  CHECK_OK(opsplit_ca_get_volumes(alone, &b[0], &b[1], &b[2], &b[3]));
  CHECK(memcmp(a, b, sizeof a) == 0 && a[1] > 0.0);
  CHECK_OK(opsplit_ca_destroy(&alone));
  CHECK_OK(opsplit_ca_destroy(&g));
  CHECK(released == 1); /* the grid released the group it owned */

  /* fv2 too; and a vent before the attach is refused. */
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, RN, RN, &g));
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, RN, RN, &alone));
  CHECK_OK(opsplit_ca_attach_distributed(g, &one, &whole));
  cone_run(g, 0), cone_run(alone, 0);
  CHECK(same_substates(g, alone));
  EXPECT_ERROR(opsplit_ca_attach_distributed(alone, &one, &whole), BAD, attach, "before its first vent");
  CHECK_OK(opsplit_ca_destroy(&alone));
  CHECK_OK(opsplit_ca_destroy(&g));
  CHECK(released == 2);

  /* A LIFE grid of one block runs as the grid alone on a torus and a closed grid, 100
   * columns (the last word part padding; CUDA: a block's kernel against the grid's). */
  for (int periodic = 0; periodic < 2; ++periodic) {
    enum { BR = 30, BC = 100 };
    static uint8_t cells[BR * BC], a_cells[BR * BC], b_cells[BR * BC];
    for (int i = 0; i < BR * BC; ++i) cells[i] = (uint8_t)((i * 2654435761u >> 7) % 3 == 0);
    opsplit_ca a = NULL, b = NULL;
    CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, BR, BC, &a));
    CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, BR, BC, &b));
    CHECK_OK(opsplit_ca_set_cells(a, cells, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_attach_distributed(a, &one, &whole));
    for (opsplit_ca x = a; x != NULL; x = x == a ? b : NULL) {
      if (x == b) CHECK_OK(opsplit_ca_set_cells(b, cells, OPSPLIT_CA_ROW_MAJOR));
      CHECK_OK(opsplit_ca_set_boundary(x, periodic ? OPSPLIT_CA_PERIODIC : OPSPLIT_CA_CLOSED));
      CHECK_OK(opsplit_ca_step(x, 60));
    }
    CHECK_OK(opsplit_ca_get_cells(a, a_cells, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_get_cells(b, b_cells, OPSPLIT_CA_ROW_MAJOR));
    int64_t pa = -1, pb = -2;
    CHECK_OK(opsplit_ca_get_population(a, &pa));
    CHECK_OK(opsplit_ca_get_population(b, &pb));
    CHECK(memcmp(a_cells, b_cells, sizeof a_cells) == 0 && pa == pb && pa > 0);
    CHECK_OK(opsplit_ca_destroy(&a));
    CHECK_OK(opsplit_ca_destroy(&b));
  }
  CHECK(released == 4);
}
