/* What the MPI test programs share: this process's rank and the world's size, the
 * start (MPI, a context on the backend OPSPLIT_BACKEND names) and the end (every
 * process fails when any check failed anywhere), and a CA grid's blocks. */
#ifndef OPSPLIT_TEST_MPI_TEST_H
#define OPSPLIT_TEST_MPI_TEST_H

#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../capi/check.h"
#include "opsplit/mpi.h"
#ifdef OPSPLIT_TEST_DEVICE_GROUP
#include "device_group.h"
#endif

static int rank = 0, size = 1;

static inline opsplit_context mpi_test_start(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  opsplit_context ctx = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  return ctx;
}

/* OPSPLIT_TEST_PART="k/m" (scripts/gpu-sanitize sets it): only the cases whose number
 * is k modulo m run, so that a long program can run as m shorter ones. Every process
 * counts the same cases in the same order, so they agree on which. */
static int mpi_test_cases_run = 0;
static inline int mpi_test_selected(void) {
  static int next_case = 0;
  const char* part = getenv("OPSPLIT_TEST_PART");
  int k = 0, m = 1;
  if (part != NULL && (sscanf(part, "%d/%d", &k, &m) != 2 || m < 1 || k < 0 || k >= m)) {
    fprintf(stderr, "OPSPLIT_TEST_PART is '%s', not k/m with 0 <= k < m\n", part);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int selected = next_case++ % m == k;
  mpi_test_cases_run += selected;
  return selected;
}

static inline int mpi_test_finish(opsplit_context ctx) {
  /* A part that ran no case checked nothing: that is a failure, not a pass. */
  CHECK(getenv("OPSPLIT_TEST_PART") == NULL || mpi_test_cases_run > 0);
  CHECK_OK(opsplit_context_destroy(&ctx));
  const int failed = check_summary();
  int any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return any;
}

/* Attaches through opsplit_mpi, or with OPSPLIT_TEST_DEVICE_GROUP set in the
 * environment through a group that takes device pointers (device_group.h). */
static inline int mpi_test_device_group(void) {
  if (getenv("OPSPLIT_TEST_DEVICE_GROUP") == NULL) return 0;
#ifndef OPSPLIT_TEST_DEVICE_GROUP
  fprintf(stderr, "OPSPLIT_TEST_DEVICE_GROUP is set but this program was built without CUDA\n");
  MPI_Abort(MPI_COMM_WORLD, 2);
#endif
  return 1;
}

/* field or ca (the other NULL) attached to cart. */
static inline opsplit_status mpi_test_attach(opsplit_field field, opsplit_ca ca, MPI_Comm cart) {
#ifdef OPSPLIT_TEST_DEVICE_GROUP
  if (mpi_test_device_group()) {
    opsplit_group g;
    opsplit_decomposition d;
    device_group_make(cart, &g, &d);
    const opsplit_status st = field != NULL ? opsplit_field_attach_distributed(field, &g, &d)
                                            : opsplit_ca_attach_distributed(ca, &g, &d);
    if (st != OPSPLIT_SUCCESS) g.release(g.user); /* the caller keeps it on failure */
    return st;
  }
#else
  (void)mpi_test_device_group();
#endif
  const MPI_Fint comm = MPI_Comm_c2f(cart);
  return field != NULL ? opsplit_mpi_field_attach(field, comm) : opsplit_mpi_ca_attach(ca, comm);
}

/* A block's first cell and count along an axis of n cells cut before each of cuts[0 ..
 * d - 2], for the process at coord. */
static inline void share_cuts(int64_t n, int d, const int* cuts, int coord, int64_t* first, int64_t* count) {
  *first = coord == 0 ? 0 : cuts[coord - 1];
  *count = (coord == d - 1 ? n : cuts[coord]) - *first;
}

/* The Cartesian communicator of a rows x cols grid split dims[0] x dims[1] (periodic
 * along both or neither) at the cuts, and this process's block: its first cell and
 * its extent. */
static inline MPI_Comm grid_block(const int dims[2], int periodic, const int* row_cuts, const int* col_cuts,
                                  int64_t rows, int64_t cols, int64_t first[2], int64_t n[2]) {
  const int periods[2] = {periodic, periodic};
  MPI_Comm cart;
  int coords[2];
  MPI_Cart_create(MPI_COMM_WORLD, 2, (int*)dims, (int*)periods, 0, &cart);
  MPI_Cart_coords(cart, rank, 2, coords);
  share_cuts(rows, dims[0], row_cuts, coords[0], &first[0], &n[0]);
  share_cuts(cols, dims[1], col_cuts, coords[1], &first[1], &n[1]);
  return cart;
}

/* A CA grid's splits for this many processes: 1x1; 2x1 at row_cut and 1x2 at col_cut;
 * 2x2 at both and 4x1 at rows_4[0..2]. run(dims, row_cuts, col_cuts, arg) for each. */
typedef void (*split_run)(const int dims[2], const int* row_cuts, const int* col_cuts, void* arg);
static inline void every_grid_split(int row_cut, int col_cut, const int rows_4[3], split_run run, void* arg) {
  const int rows[1] = {row_cut}, cols[1] = {col_cut}, none[1] = {0};
  if (size == 1) {
    const int d[2] = {1, 1};
    run(d, none, none, arg);
  } else if (size == 2) {
    const int d21[2] = {2, 1}, d12[2] = {1, 2};
    run(d21, rows, none, arg);
    run(d12, none, cols, arg);
  } else if (size == 4) {
    const int d22[2] = {2, 2}, d41[2] = {4, 1};
    run(d22, rows, cols, arg);
    run(d41, rows_4, none, arg);
  }
}

#endif
