/* Lava grids over MPI (opsplit_mpi_ca_attach), run on 1, 2 and 4 processes. Every
 * process also runs the whole grid alone and checks that its block of the distributed
 * run holds the same bits: the Etna 2006 terrain and vents with SCIARA-fv2 and -fv3,
 * split 1x1, 2x1, 1x2, 2x2 and 4x1 with the cuts beside the vents (lava crosses them at
 * once; the 4x1 blocks are 3 rows deep), every substate, the step count, the time and
 * the volumes; with fv3 the block's substates, lava among them, set before the attach.
 * On either backend (CUDA: the GPU of each process's node-local rank, shared where
 * processes outnumber GPUs). Bad input fails on every process with a clear message and
 * changes nothing: a communicator that is not Cartesian or has 3 dimensions, a periodic one,
 * blocks whose borders differ, a second attach, an attach after a vent, nsteps or a
 * parameter or a vent that differ between processes, a file missing on one process. */
#include <stdlib.h>
#include <string.h>

#include "mpi_test.h"


enum { ROWS = 378, COLS = 517 };
static char folder[512];

static const char* etna(const char* file) {
  static char path[4][768];
  static int next = 0;
  char* p = path[next++ % 4];
  snprintf(p, sizeof path[0], "%s/etna2006/%s", folder, file);
  return p;
}

static const char* const kSubstates[] = {"altitude",   "thickness", "temperature", "solidified",
                                         "lost",       "momentum_x", "momentum_y"};

/* The Etna grid of rows x cols (the whole, or this process's block after attaching to
 * cart when cart != MPI_COMM_NULL). With `before` (fv3), its altitude, thickness and
 * temperature are set before the attach: altitude, and a line of lava beside the cuts
 * (from ROWS x COLS planes, the block's part when attaching). */
static opsplit_ca etna_grid(opsplit_context ctx, opsplit_ca_model model, int64_t rows, int64_t cols, MPI_Comm cart,
                            const double* const before[3], const int64_t first[2]) {
  static const char* const kSet[3] = {"altitude", "thickness", "temperature"};
  opsplit_ca g = NULL;
  CHECK_OK(opsplit_ca_create(ctx, model, rows, cols, &g));
  if (before != NULL) {
    double* block = malloc((size_t)(rows * cols) * sizeof *block);
    for (int s = 0; s < 3; ++s) {
      for (int64_t r = 0; r < rows; ++r)
        memcpy(block + r * cols, before[s] + (first[0] + r) * COLS + first[1], (size_t)cols * sizeof *block);
      CHECK_OK(opsplit_ca_set_substate(g, kSet[s], block, OPSPLIT_CA_ROW_MAJOR));
    }
    free(block);
  }
  if (cart != MPI_COMM_NULL) CHECK_OK(mpi_test_attach(NULL, g, cart));
  if (model == OPSPLIT_CA_SCIARA_FV2) CHECK_OK(opsplit_ca_load_parameters(g, etna("PARAMETERS.cfg")));
  if (before == NULL) CHECK_OK(opsplit_ca_load_substate(g, "altitude", etna("MORPHOLOGY.stt")));
  CHECK_OK(opsplit_ca_load_vents(g, etna("VENTS.stt"), etna("EMISSIONS_RATE.stt")));
  return g;
}

/* The distributed run's block against the whole run's cells: every substate, steps,
 * time and volumes. */
static int64_t differences(opsplit_ca whole, opsplit_ca mine, int fv3, const int64_t first[2], const int64_t n[2]) {
  int64_t differ = 0;
  double* w = malloc((size_t)ROWS * COLS * sizeof *w);
  double* m = malloc((size_t)(n[0] * n[1]) * sizeof *m);
  for (int s = 0; s < (fv3 ? 7 : 5); ++s) {
    CHECK_OK(opsplit_ca_get_substate(whole, kSubstates[s], w, OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_get_substate(mine, kSubstates[s], m, OPSPLIT_CA_ROW_MAJOR));
    for (int64_t r = 0; r < n[0]; ++r)
      if (memcmp(w + (first[0] + r) * COLS + first[1], m + r * n[1], (size_t)n[1] * sizeof *m) != 0) {
        if (differ < 3) fprintf(stderr, "process %d: %s differs in block row %lld\n", rank, kSubstates[s], (long long)r);
        ++differ;
      }
  }
  int64_t sw = 0, sm = 0;
  double tw = 0, tm = 0, vw[4], vm[4];
  CHECK_OK(opsplit_ca_get_steps(whole, &sw));
  CHECK_OK(opsplit_ca_get_steps(mine, &sm));
  CHECK_OK(opsplit_ca_get_time(whole, &tw));
  CHECK_OK(opsplit_ca_get_time(mine, &tm));
  CHECK_OK(opsplit_ca_get_volumes(whole, &vw[0], &vw[1], &vw[2], &vw[3]));
  CHECK_OK(opsplit_ca_get_volumes(mine, &vm[0], &vm[1], &vm[2], &vm[3]));
  if (sw != sm || memcmp(&tw, &tm, sizeof tw) != 0 || memcmp(vw, vm, sizeof vw) != 0) {
    fprintf(stderr, "process %d: steps %lld/%lld, time %.17g/%.17g, volumes %.17g %.17g %.17g %.17g / %.17g %.17g %.17g %.17g\n",
            rank, (long long)sw, (long long)sm, tw, tm, vw[0], vw[1], vw[2], vw[3], vm[0], vm[1], vm[2], vm[3]);
    ++differ;
  }
  free(w), free(m);
  return differ;
}

/* Whether the block holds lava (fluid or solidified). */
static int holds_lava(opsplit_ca g, const int64_t n[2]) {
  double* v = malloc((size_t)(n[0] * n[1]) * sizeof *v);
  int any = 0;
  for (int s = 1; s <= 3; s += 2) {
    CHECK_OK(opsplit_ca_get_substate(g, kSubstates[s], v, OPSPLIT_CA_ROW_MAJOR));
    for (int64_t i = 0; i < n[0] * n[1]; ++i) any |= v[i] > 0.0;
  }
  free(v);
  return any;
}

/* One split: dims[0] processes along the rows, cut before row_cuts; dims[1] along the
 * columns, cut before col_cuts. */
struct Run {
  opsplit_context ctx;
  opsplit_ca_model model;
};

static void run_split(const int dims[2], const int* row_cuts, const int* col_cuts, void* arg) {
  const opsplit_context ctx = ((struct Run*)arg)->ctx;
  const opsplit_ca_model model = ((struct Run*)arg)->model;
  const int fv3 = model == OPSPLIT_CA_SCIARA_FV3;
  int64_t first[2], n[2];
  MPI_Comm cart = grid_block(dims, 0, row_cuts, col_cuts, ROWS, COLS, first, n);
  /* fv3: the block's substates set before the attach, lava among them (the attach
   * moves them, and the box of lava, into the block's storage). */
  double* before[3] = {NULL, NULL, NULL};
  const int64_t origin[2] = {0, 0};
  if (fv3) {
    opsplit_ca terrain = etna_grid(ctx, model, ROWS, COLS, MPI_COMM_NULL, NULL, origin);
    for (int s = 0; s < 3; ++s) before[s] = calloc((size_t)ROWS * COLS, sizeof *before[s]);
    CHECK_OK(opsplit_ca_get_substate(terrain, "altitude", before[0], OPSPLIT_CA_ROW_MAJOR));
    CHECK_OK(opsplit_ca_destroy(&terrain));
    /* Off every block's outer ring: before the attach a block is a grid of its own,
     * whose ring is the sink (and takes no lava). */
    for (int c = 74; c <= 76; ++c) before[1][116 * COLS + c] = 5.0, before[2][116 * COLS + c] = 1360.0;
  }
  opsplit_ca whole = etna_grid(ctx, model, ROWS, COLS, MPI_COMM_NULL, fv3 ? (const double* const*)before : NULL, origin);
  opsplit_ca mine = etna_grid(ctx, model, n[0], n[1], cart, fv3 ? (const double* const*)before : NULL, first);
  for (int s = 0; s < 3; ++s) free(before[s]);
  int64_t place[4] = {-1, -1, -1, -1};
  CHECK_OK(opsplit_ca_get_place(mine, &place[0], &place[1], &place[2], &place[3]));
  CHECK(place[0] == first[0] && place[1] == first[1] && place[2] == ROWS && place[3] == COLS);
  int64_t differ = 0;
  if (!fv3) {
    for (int i = 0; i < 2; ++i) {
      CHECK_OK(opsplit_ca_step(whole, 600));
      CHECK_OK(opsplit_ca_step(mine, 600));
      differ += differences(whole, mine, fv3, first, n);
    }
  } else {
    double t = 0;
    CHECK_OK(opsplit_ca_step(whole, 400));
    CHECK_OK(opsplit_ca_step(mine, 400));
    differ += differences(whole, mine, fv3, first, n);
    CHECK_OK(opsplit_ca_get_time(whole, &t));
    CHECK_OK(opsplit_ca_run_until(whole, t + 10.5)); /* a cut step */
    CHECK_OK(opsplit_ca_run_until(mine, t + 10.5));
    CHECK_OK(opsplit_ca_step(whole, 200));
    CHECK_OK(opsplit_ca_step(mine, 200));
    differ += differences(whole, mine, fv3, first, n);
  }
  int lava = holds_lava(mine, n), blocks_with_lava = 0;
  MPI_Allreduce(&lava, &blocks_with_lava, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (differ != 0)
    fprintf(stderr, "process %d: %s split %dx%d: %lld differences\n", rank, fv3 ? "fv3" : "fv2", dims[0], dims[1],
            (long long)differ);
  CHECK(differ == 0);
  CHECK(blocks_with_lava >= (size > 1 ? 2 : 1)); /* the lava crossed a border */
  CHECK_OK(opsplit_ca_destroy(&whole));
  CHECK_OK(opsplit_ca_destroy(&mine));
  MPI_Comm_free(&cart);
}

/* Bad input: every process gets the status, and the grid goes on as before. */
static void bad_input(opsplit_context ctx) {
  const opsplit_status BAD = OPSPLIT_ERROR_INVALID_ARGUMENT;
  const char* attach = "opsplit_mpi_ca_attach";
  const int dims[2] = {size, 1}, periods[2] = {0, 0}, periodic[2] = {1, 0};
  MPI_Comm cart, cart3, ring;
  MPI_Cart_create(MPI_COMM_WORLD, 2, (int*)dims, (int*)periods, 0, &cart);
  const int dims3[3] = {size, 1, 1}, periods3[3] = {0, 0, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 3, (int*)dims3, (int*)periods3, 0, &cart3);
  MPI_Cart_create(MPI_COMM_WORLD, 2, (int*)dims, (int*)periodic, 0, &ring);
  opsplit_ca g = NULL;
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, 10, 12, &g));
  EXPECT_ERROR(opsplit_mpi_ca_attach(g, MPI_Comm_c2f(MPI_COMM_WORLD)), BAD, attach, "not a Cartesian communicator");
  EXPECT_ERROR(opsplit_mpi_ca_attach(g, MPI_Comm_c2f(cart3)), BAD, attach, "more than 2 dimensions");
  if (size > 1) {
    EXPECT_ERROR(opsplit_mpi_ca_attach(g, MPI_Comm_c2f(ring)), BAD, attach, "CLOSED");
    /* Blocks of a process column must have as many columns as each other. */
    opsplit_ca uneven = NULL;
    CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV3, 10, rank == size - 1 ? 13 : 12, &uneven));
    EXPECT_ERROR(opsplit_mpi_ca_attach(uneven, MPI_Comm_c2f(cart)), BAD, attach, "share a border but have cols");
    CHECK_OK(opsplit_ca_destroy(&uneven));
  }
  /* A vent first. */
  opsplit_ca vented = NULL;
  const double rates[1] = {1.0};
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, 10, 12, &vented));
  CHECK_OK(opsplit_ca_add_vent(vented, 4, 5, rates, 1, 3600.0, NULL));
  EXPECT_ERROR(opsplit_mpi_ca_attach(vented, MPI_Comm_c2f(cart)), BAD, attach, "before its first vent");
  CHECK_OK(opsplit_ca_destroy(&vented));

  /* Attached once, then not again; then the collective calls agree or fail alike. */
  double cone[10 * 12], h[10 * 12];
  for (int r = 0; r < 10; ++r)
    for (int c = 0; c < 12; ++c) cone[r * 12 + c] = 100.0 - 0.5 * (double)((r + 10 * rank - 5) * (r + 10 * rank - 5) + (c - 6) * (c - 6));
  CHECK_OK(opsplit_ca_set_substate(g, "altitude", cone, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_mpi_ca_attach(g, MPI_Comm_c2f(cart)));
  EXPECT_ERROR(opsplit_mpi_ca_attach(g, MPI_Comm_c2f(cart)), BAD, attach, "already attached");
  const int64_t vent_row = 10 * (size / 2) + 4; /* a global row: on process size / 2 */
  if (size > 1) {
    EXPECT_ERROR(opsplit_ca_add_vent(g, rank == 0 ? vent_row : vent_row + 1, 6, rates, 1, 3600.0, NULL), BAD,
                 "opsplit_ca_add_vent", "different vents");
    EXPECT_ERROR(opsplit_ca_step(g, rank == size - 1 ? 11 : 10), BAD, "opsplit_ca_step", "different");
  }
  CHECK_OK(opsplit_ca_add_vent(g, vent_row, 6, rates, 1, 3600.0, NULL));
  if (size > 1) {
    CHECK_OK(opsplit_ca_set_parameter(g, "Pc", rank == 0 ? 10.0 : 11.0));
    EXPECT_ERROR(opsplit_ca_step(g, 10), BAD, "opsplit_ca_step", "different");
    CHECK_OK(opsplit_ca_set_parameter(g, "Pc", 10.0));
  }
  /* A thickness file of the whole grid (1 m inside the sink ring), missing on the last
   * process: the load fails everywhere and changes nothing. */
  char file[64];
  snprintf(file, sizeof file, "test_mpi_ca_h_%d.txt", rank);
  FILE* out = fopen(file, "w");
  for (int r = 0; r < 10 * size; ++r)
    for (int c = 0; c < 12; ++c) fprintf(out, "%g%c", r > 0 && r < 10 * size - 1 && c > 0 && c < 11 ? 1.0 : 0.0, c == 11 ? '\n' : ' ');
  fclose(out);
  EXPECT_ERROR(opsplit_ca_load_substate(g, "thickness", rank == size - 1 ? "/nonexistent/h.txt" : file),
               OPSPLIT_ERROR_IO, "opsplit_ca_load_substate", rank == size - 1 ? "nonexistent" : "process");
  remove(file);
  CHECK_OK(opsplit_ca_get_substate(g, "thickness", h, OPSPLIT_CA_ROW_MAJOR));
  int nonzero = 0;
  for (int i = 0; i < 10 * 12; ++i) nonzero |= h[i] != 0.0;
  CHECK(!nonzero); /* the load changed nothing anywhere */
  CHECK_OK(opsplit_ca_step(g, 10));
  int64_t steps = 0;
  CHECK_OK(opsplit_ca_get_steps(g, &steps));
  CHECK(steps == 10);
  CHECK_OK(opsplit_ca_destroy(&g));
  MPI_Comm_free(&cart), MPI_Comm_free(&cart3), MPI_Comm_free(&ring);
}

/* Etna 2006, both models, split as the number of processes allows. The vents are at
 * (114, 71) and (114, 77). */
static void every_split(opsplit_context ctx) {
  const int rows_4[3] = {115, 118, 121};
  for (int m = 0; m < 2; ++m) {
    struct Run run = {ctx, m == 0 ? OPSPLIT_CA_SCIARA_FV2 : OPSPLIT_CA_SCIARA_FV3};
    every_grid_split(115, 73, rows_4, run_split, &run);
  }
}

int main(int argc, char** argv) {
  opsplit_context ctx = mpi_test_start(&argc, &argv);
  const char* env = getenv("OPSPLIT_DATA_DIR");
  snprintf(folder, sizeof folder, "%s", env != NULL && *env != '\0' ? env : OPSPLIT_DATA);
  every_split(ctx);
  bad_input(ctx);
  return mpi_test_finish(ctx);
}
