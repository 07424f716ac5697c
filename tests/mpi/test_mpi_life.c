/* LIFE grids over MPI (opsplit_mpi_ca_attach), run on 1, 2 and 4 processes. Every
 * process also runs the whole grid alone and checks that its block of the distributed
 * run holds the same cells after 1, 38 and 200 generations, and the same population: a
 * 100 x 192 soup with a Gosper glider gun placed across the cuts (opsplit_ca_place_rle at
 * a global row and column), on a torus (the communicator periodic) and on a closed grid,
 * split 1x1, 2x1 (cut at row 37), 1x2 (at column 128), 2x2 and 4x1 (at rows 23, 50 and
 * 77: blocks of 23 to 27 rows). Bad input fails on every process with a clear message:
 * a block with an east neighbour whose cols are not a multiple of 64, a boundary the
 * communicator does not agree with, rules or patterns or places that differ between
 * processes, a pattern file missing on one process. On either backend (CUDA: the
 * GPU of each process's node-local rank, shared where processes outnumber GPUs). */
#include <stdlib.h>
#include <string.h>

#include "mpi_test.h"

enum { ROWS = 100, COLS = 192 };

static const char* const kGun =
    "x = 36, y = 9, rule = B3/S23\n"
    "24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b\n"
    "obo$10bo5bo7bo$11bo3bo$12b2o!\n";

/* A quarter of the cells alive, the same on every process. */
static uint8_t soup(int64_t r, int64_t c) {
  const uint32_t h = (uint32_t)(r * 7919 + c * 104729) * 2654435761u;
  return (uint8_t)(((h >> 13) & 3u) == 0u);
}

/* A grid of rows x cols holding the soup's cells from (first_row, first_col), attached
 * to cart unless MPI_COMM_NULL (its cells set before the attach when `before`), the gun
 * placed at global (40, 110). */
static opsplit_ca life_grid(opsplit_context ctx, int64_t rows, int64_t cols, int64_t first_row, int64_t first_col,
                            int periodic, MPI_Comm cart, int before) {
  opsplit_ca g = NULL;
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, rows, cols, &g));
  CHECK_OK(opsplit_ca_set_boundary(g, periodic ? OPSPLIT_CA_PERIODIC : OPSPLIT_CA_CLOSED));
  uint8_t* cells = malloc((size_t)(rows * cols));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) cells[r * cols + c] = soup(first_row + r, first_col + c);
  if (before) CHECK_OK(opsplit_ca_set_cells(g, cells, OPSPLIT_CA_ROW_MAJOR));
  if (cart != MPI_COMM_NULL) CHECK_OK(mpi_test_attach(NULL, g, cart));
  if (!before) CHECK_OK(opsplit_ca_set_cells(g, cells, OPSPLIT_CA_ROW_MAJOR));
  free(cells);
  CHECK_OK(opsplit_ca_place_rle(g, kGun, 40, 110));
  return g;
}

/* Block rows that differ from the whole grid's, and a population that differs. */
static int64_t differences(opsplit_ca whole, opsplit_ca mine, const int64_t first[2], const int64_t n[2]) {
  uint8_t* w = malloc((size_t)ROWS * COLS);
  uint8_t* m = malloc((size_t)(n[0] * n[1]));
  CHECK_OK(opsplit_ca_get_cells(whole, w, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_get_cells(mine, m, OPSPLIT_CA_ROW_MAJOR));
  int64_t differ = 0;
  for (int64_t r = 0; r < n[0]; ++r) differ += memcmp(w + (first[0] + r) * COLS + first[1], m + r * n[1], (size_t)n[1]) != 0;
  int64_t pw = -1, pm = -2;
  CHECK_OK(opsplit_ca_get_population(whole, &pw));
  CHECK_OK(opsplit_ca_get_population(mine, &pm));
  if (pw != pm) fprintf(stderr, "process %d: population %lld, the whole grid's %lld\n", rank, (long long)pm, (long long)pw);
  free(w), free(m);
  return differ + (pw != pm);
}

struct Run {
  opsplit_context ctx;
  int periodic;
};

static void run_split(const int dims[2], const int* row_cuts, const int* col_cuts, void* arg) {
  const opsplit_context ctx = ((struct Run*)arg)->ctx;
  const int periodic = ((struct Run*)arg)->periodic;
  int64_t first[2], n[2];
  MPI_Comm cart = grid_block(dims, periodic, row_cuts, col_cuts, ROWS, COLS, first, n);
  opsplit_ca whole = life_grid(ctx, ROWS, COLS, 0, 0, periodic, MPI_COMM_NULL, 1);
  opsplit_ca mine = life_grid(ctx, n[0], n[1], first[0], first[1], periodic, cart, periodic);
  int64_t place[4] = {-1, -1, -1, -1};
  CHECK_OK(opsplit_ca_get_place(mine, &place[0], &place[1], &place[2], &place[3]));
  CHECK(place[0] == first[0] && place[1] == first[1] && place[2] == ROWS && place[3] == COLS);
  int64_t differ = differences(whole, mine, first, n);
  const int64_t gens[3] = {1, 37, 162};
  for (int i = 0; i < 3; ++i) {
    CHECK_OK(opsplit_ca_step(whole, gens[i]));
    CHECK_OK(opsplit_ca_step(mine, gens[i]));
    differ += differences(whole, mine, first, n);
  }
  if (differ != 0)
    fprintf(stderr, "process %d: %s split %dx%d: %lld differences\n", rank, periodic ? "torus" : "closed", dims[0],
            dims[1], (long long)differ);
  CHECK(differ == 0);
  CHECK_OK(opsplit_ca_destroy(&whole));
  CHECK_OK(opsplit_ca_destroy(&mine));
  MPI_Comm_free(&cart);
}

static void every_split(opsplit_context ctx) {
  const int rows_4[3] = {23, 50, 77};
  for (int periodic = 0; periodic < 2; ++periodic) {
    struct Run run = {ctx, periodic};
    every_grid_split(37, 128, rows_4, run_split, &run);
  }
}

/* Bad input: every process gets the status, and the grid goes on as before. */
static void bad_input(opsplit_context ctx) {
  const opsplit_status BAD = OPSPLIT_ERROR_INVALID_ARGUMENT;
  const int dims[2] = {1, size}, closed[2] = {0, 0};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, (int*)dims, (int*)closed, 0, &cart);
  opsplit_ca g = NULL;
  if (size > 1) { /* 100 columns each: the blocks with an east neighbour are refused */
    CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, 20, 100, &g));
    EXPECT_ERROR(opsplit_mpi_ca_attach(g, MPI_Comm_c2f(cart)), BAD, "opsplit_mpi_ca_attach",
                 rank < size - 1 ? "multiple of 64" : "process");
    CHECK_OK(opsplit_ca_destroy(&g));
  }
  CHECK_OK(opsplit_ca_create(ctx, OPSPLIT_CA_LIFE, 20, 64, &g));
  CHECK_OK(opsplit_mpi_ca_attach(g, MPI_Comm_c2f(cart)));
  /* A torus (the default) on a communicator that does not wrap the columns it splits. */
  if (size > 1) EXPECT_ERROR(opsplit_ca_step(g, 1), BAD, "opsplit_ca_step", "does not wrap");
  CHECK_OK(opsplit_ca_set_boundary(g, OPSPLIT_CA_CLOSED));
  if (size > 1) {
    CHECK_OK(opsplit_ca_set_rule(g, rank == 0 ? "B36/S23" : "B3/S23"));
    EXPECT_ERROR(opsplit_ca_step(g, 1), BAD, "opsplit_ca_step", "different");
    CHECK_OK(opsplit_ca_set_rule(g, "B3/S23"));
    EXPECT_ERROR(opsplit_ca_place_rle(g, "x = 3, y = 1\n3o!\n", 5, rank == 0 ? 10 : 11), BAD, "opsplit_ca_place_rle",
                 "different");
    EXPECT_ERROR(opsplit_ca_place_rle(g, rank == 0 ? "x = 3, y = 1\n3o!\n" : "x = 2, y = 1\n2o!\n", 5, 10), BAD,
                 "opsplit_ca_place_rle", "different");
  }
  /* A blinker across the first cut (columns 62-64 of the whole grid; one process: 60-62),
   * by file: missing on the last process, the load fails everywhere and changes nothing. */
  const int64_t col = size > 1 ? 62 : 60;
  char file[64];
  snprintf(file, sizeof file, "test_mpi_life_%d.rle", rank);
  FILE* out = fopen(file, "w");
  fputs("x = 3, y = 1\n3o!\n", out);
  fclose(out);
  EXPECT_ERROR(opsplit_ca_load_rle(g, rank == size - 1 ? "/nonexistent/blinker.rle" : file, 5, col), OPSPLIT_ERROR_IO,
               "opsplit_ca_load_rle", rank == size - 1 ? "nonexistent" : "process");
  int64_t population = -1;
  CHECK_OK(opsplit_ca_get_population(g, &population));
  CHECK(population == 0);
  CHECK_OK(opsplit_ca_load_rle(g, file, 5, col));
  remove(file);
  CHECK_OK(opsplit_ca_get_population(g, &population));
  CHECK(population == 3);
  CHECK_OK(opsplit_ca_step(g, 1)); /* the blinker turns: rows 4-6 of its middle column */
  uint8_t cells[20 * 64];
  CHECK_OK(opsplit_ca_get_cells(g, cells, OPSPLIT_CA_ROW_MAJOR));
  int64_t place[4];
  CHECK_OK(opsplit_ca_get_place(g, &place[0], &place[1], &place[2], &place[3]));
  int wrong = 0;
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < 64; ++c) wrong += cells[r * 64 + c] != (r >= 4 && r <= 6 && place[1] + c == col + 1);
  CHECK(wrong == 0);
  CHECK_OK(opsplit_ca_get_population(g, &population));
  CHECK(population == 3);
  CHECK_OK(opsplit_ca_destroy(&g));
  MPI_Comm_free(&cart);
}

int main(int argc, char** argv) {
  opsplit_context ctx = mpi_test_start(&argc, &argv);
  every_split(ctx);
  bad_input(ctx);
  return mpi_test_finish(ctx);
}
