/* PCPD ensembles over MPI (opsplit/mpi.h), run on 1, 2 and 4 processes. Every process
 * also builds the single-process ensemble of all the replicas, with the same seed, and
 * checks that the distributed one equals it bit for bit: its own replicas' lattices
 * and the whole series, for EXACT, MULTISPIN and MULTISPIN32 (7 replicas: uneven
 * shares), run in pieces with the rates changed mid-run; lattices set at time 0 (the
 * first point retaken by the next run); a cancel on process 0 alone stops every
 * process at the same time. Bad input fails on every process with a clear message,
 * never a hang: L, replicas or t_end differing between processes, a NaN t_end on one
 * process only, fewer replicas than processes, another process's replica, the series
 * before its retaken first point, MPI_COMM_NULL. */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test.h"

#define R 7
#define LMAX 8192


static int series_equal(opsplit_pcpd a, opsplit_pcpd b) {
  int64_t na = 0, nb = 0;
  if (opsplit_pcpd_get_series_length(a, &na) != OPSPLIT_SUCCESS ||
      opsplit_pcpd_get_series_length(b, &nb) != OPSPLIT_SUCCESS || na != nb || na < 2)
    return 0;
  for (int q = 0; q < 3; ++q) {
    double ta[64], ma[64], ea[64], tb[64], mb[64], eb[64];
    if (na > 64) return 0;
    if (opsplit_pcpd_get_series(a, (opsplit_pcpd_quantity)q, na, ta, ma, ea) != OPSPLIT_SUCCESS ||
        opsplit_pcpd_get_series(b, (opsplit_pcpd_quantity)q, nb, tb, mb, eb) != OPSPLIT_SUCCESS)
      return 0;
    const size_t bytes = (size_t)na * sizeof(double);
    if (memcmp(ta, tb, bytes) != 0 || memcmp(ma, mb, bytes) != 0 || memcmp(ea, eb, bytes) != 0) return 0;
  }
  return 1;
}

/* This process's replicas of the distributed ensemble d equal those of the single one s. */
static int own_lattices_equal(opsplit_pcpd d, opsplit_pcpd s, int64_t L) {
  static uint8_t qd[LMAX], qs[LMAX];
  int64_t first = -1, count = -1;
  if (opsplit_pcpd_get_replicas(d, &first, &count) != OPSPLIT_SUCCESS) return 0;
  if (first != (int64_t)rank * R / size || count != (int64_t)(rank + 1) * R / size - first) return 0;
  for (int64_t r = first; r < first + count; ++r) {
    if (opsplit_pcpd_get_lattice(d, r, qd) != OPSPLIT_SUCCESS || opsplit_pcpd_get_lattice(s, r, qs) != OPSPLIT_SUCCESS)
      return 0;
    if (memcmp(qd, qs, (size_t)L) != 0) return 0;
  }
  return 1;
}

static int reports = 0;
static int cancel_third(double fraction, const char* what, void* user) {
  (void)fraction, (void)what, (void)user;
  return ++reports == 3;
}

/* The same value on every process. */
static int everywhere_same(double x) {
  double lo = 0, hi = 0;
  MPI_Allreduce(&x, &lo, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&x, &hi, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

int main(int argc, char** argv) {
  opsplit_context ctx = mpi_test_start(&argc, &argv);
  const MPI_Fint world = MPI_Comm_c2f(MPI_COMM_WORLD);
  const char* create = "opsplit_mpi_pcpd_create";

  const opsplit_pcpd_algorithm algorithms[] = {OPSPLIT_PCPD_EXACT, OPSPLIT_PCPD_MULTISPIN, OPSPLIT_PCPD_MULTISPIN32};
  for (int a = 0; a < 3; ++a) {
    const int64_t L = algorithms[a] == OPSPLIT_PCPD_EXACT ? 1024 : 8192;
    opsplit_pcpd d = NULL, s = NULL;
    CHECK_OK(opsplit_mpi_pcpd_create(ctx, world, algorithms[a], L, R, &d));
    CHECK_OK(opsplit_pcpd_create(ctx, algorithms[a], L, R, &s));
    opsplit_pcpd both[2] = {d, s};
    for (int e = 0; e < 2; ++e) {
      CHECK_OK(opsplit_pcpd_set_probabilities(both[e], 0.2, 0.5));
      CHECK_OK(opsplit_pcpd_set_points_per_decade(both[e], 4));
      CHECK_OK(opsplit_pcpd_initialize(both[e], 0xfedcba9876543210ull, 0.6));
      CHECK_OK(opsplit_pcpd_run(both[e], 7.25));
      CHECK_OK(opsplit_pcpd_set_probabilities(both[e], 0.15, 0.25));
      CHECK_OK(opsplit_pcpd_run(both[e], 30));
    }
    CHECK(series_equal(d, s));
    CHECK(own_lattices_equal(d, s, L));

    /* Lattices set at time 0: each process sets its first replica (d), the single
     * ensemble all of them (s); d's series waits for the next run. */
    static uint8_t q[LMAX];
    for (int64_t i = 0; i < L; ++i) q[i] = (uint8_t)(i % 3 == 0);
    for (int e = 0; e < 2; ++e) CHECK_OK(opsplit_pcpd_initialize(both[e], 5, 1.0));
    CHECK_OK(opsplit_pcpd_set_lattice(d, (int64_t)rank * R / size, q));
    for (int k = 0; k < size; ++k) CHECK_OK(opsplit_pcpd_set_lattice(s, (int64_t)k * R / size, q));
    int64_t n = 0;
    if (size > 1) {
      EXPECT_ERROR(opsplit_pcpd_get_series_length(d, &n), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "opsplit_pcpd_get_series_length", "next opsplit_pcpd_run");
      const int64_t other = (int64_t)((rank + 1) % size) * R / size;
      EXPECT_ERROR(opsplit_pcpd_get_lattice(d, other, q), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_pcpd_get_lattice",
                   "another process");
    }
    CHECK_OK(opsplit_pcpd_run(d, 0));
    CHECK_OK(opsplit_pcpd_get_series_length(d, &n));
    CHECK(n == 1);
    for (int e = 0; e < 2; ++e) CHECK_OK(opsplit_pcpd_run(both[e], 10));
    CHECK(series_equal(d, s));
    CHECK(own_lattices_equal(d, s, L));
    CHECK_OK(opsplit_pcpd_destroy(&d));
    CHECK_OK(opsplit_pcpd_destroy(&s));
  }

  /* A cancel on process 0 alone cancels every process at the same time. */
  {
    opsplit_context c2 = NULL;
    opsplit_pcpd d = NULL;
    CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &c2));
    if (rank == 0) CHECK_OK(opsplit_context_set_progress_callback(c2, cancel_third, NULL));
    CHECK_OK(opsplit_mpi_pcpd_create(c2, world, OPSPLIT_PCPD_MULTISPIN, 8192, R, &d));
    EXPECT_ERROR(opsplit_pcpd_run(d, 50), OPSPLIT_ERROR_CANCELLED, "opsplit_pcpd_run", "cancelled");
    double t = -1;
    CHECK_OK(opsplit_pcpd_get_time(d, &t));
    CHECK(t > 0 && t < 50);
    CHECK(everywhere_same(t));
    CHECK_OK(opsplit_pcpd_run(d, 60)); /* usable: no cancel at the fourth report onwards */
    CHECK_OK(opsplit_pcpd_get_time(d, &t));
    CHECK(t == 60.0);
    CHECK_OK(opsplit_pcpd_destroy(&d));
    CHECK_OK(opsplit_context_destroy(&c2));
  }

  /* Bad input: every process fails, with a clear message, and nothing hangs. */
  {
    opsplit_pcpd d = NULL;
    if (size > 1) {
      EXPECT_ERROR(opsplit_mpi_pcpd_create(ctx, world, OPSPLIT_PCPD_MULTISPIN, rank == 0 ? 8192 : 16384, R, &d),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, create, "different algorithm, L and replicas");
      CHECK(d == NULL);
      EXPECT_ERROR(opsplit_mpi_pcpd_create(ctx, world, OPSPLIT_PCPD_EXACT, 64, size - 1, &d),
                   OPSPLIT_ERROR_INVALID_ARGUMENT, create, "fewer than the group's");
      CHECK(d == NULL);
    }
    /* An L that every process passes and none accepts. */
    EXPECT_ERROR(opsplit_mpi_pcpd_create(ctx, world, OPSPLIT_PCPD_MULTISPIN, 1000, R, &d),
                 OPSPLIT_ERROR_INVALID_ARGUMENT, create, "multiple of 2048");
    CHECK(d == NULL);
    EXPECT_ERROR(opsplit_mpi_pcpd_create(ctx, MPI_Comm_c2f(MPI_COMM_NULL), OPSPLIT_PCPD_EXACT, 64, R, &d),
                 OPSPLIT_ERROR_INVALID_ARGUMENT, create, "MPI_COMM_NULL");
    /* A NULL output on the last process alone: all fail, none waits. */
    EXPECT_ERROR(opsplit_mpi_pcpd_create(ctx, world, OPSPLIT_PCPD_EXACT, 64, R, rank == size - 1 ? NULL : &d),
                 OPSPLIT_ERROR_INVALID_ARGUMENT, create, rank == size - 1 ? "pcpd is NULL" : "process");
    CHECK(d == NULL);

    CHECK_OK(opsplit_mpi_pcpd_create(ctx, world, OPSPLIT_PCPD_EXACT, 64, R, &d));
    CHECK_OK(opsplit_pcpd_run(d, 2));
    if (size > 1) {
      EXPECT_ERROR(opsplit_pcpd_run(d, rank == 0 ? 10 : 11), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_pcpd_run",
                   "different t_end");
      EXPECT_ERROR(opsplit_pcpd_set_probabilities(d, 0.1, rank == 0 ? 0.5 : 0.25), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "opsplit_pcpd_set_probabilities", "different p and d");
      EXPECT_ERROR(opsplit_pcpd_initialize(d, (uint64_t)rank, 1.0), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "opsplit_pcpd_initialize", "different seed and density");
    }
    EXPECT_ERROR(opsplit_pcpd_run(d, rank == 0 ? NAN : 5.0), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_pcpd_run",
                 rank == 0 ? "t_end=nan" : "process 0 of");
    /* A failure on one process (points = 0 on the last) fails all of them. */
    EXPECT_ERROR(opsplit_pcpd_set_points_per_decade(d, rank == size - 1 ? 0 : 4), OPSPLIT_ERROR_INVALID_ARGUMENT,
                 "opsplit_pcpd_set_points_per_decade", rank == size - 1 ? "points=0" : "process");
    double t = -1;
    CHECK_OK(opsplit_pcpd_get_time(d, &t));
    CHECK(t == 2.0); /* nothing changed */
    CHECK_OK(opsplit_pcpd_run(d, 5));
    CHECK_OK(opsplit_pcpd_get_time(d, &t));
    CHECK(t == 5.0);
    CHECK_OK(opsplit_pcpd_destroy(&d));
  }

  return mpi_test_finish(ctx);
}
