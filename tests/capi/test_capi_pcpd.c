/* C-API tests of PCPD ensembles: every call refuses NULL and destroyed handles, NULL
 * outputs, bad enums, sizes, probabilities, times and replica indices with the right
 * status and a message naming the argument, changes nothing (the ensemble's lattice,
 * time and series are checked after the refusals), and leaves the ensemble usable; a
 * cancelled run stops with every replica at one reported time and resumes to the bits
 * of an uncancelled run. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define L 8192
#define R 3

static int cancel_after = -1, reports = 0;
static int progress(double fraction, const char* what, void* user) {
  (void)user;
  CHECK(fraction > 0.0 && fraction <= 1.0);
  CHECK(strcmp(what, "opsplit_pcpd_run") == 0);
  return ++reports == cancel_after;
}

static int same_lattices(opsplit_pcpd a, opsplit_pcpd b) {
  static uint8_t qa[L], qb[L];
  for (int r = 0; r < R; ++r) {
    if (opsplit_pcpd_get_lattice(a, r, qa) != OPSPLIT_SUCCESS || opsplit_pcpd_get_lattice(b, r, qb) != OPSPLIT_SUCCESS)
      return 0;
    if (memcmp(qa, qb, L) != 0) return 0;
  }
  return 1;
}

int main(void) {
  opsplit_context ctx = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  const char* create = "opsplit_pcpd_create";
  opsplit_pcpd e = NULL, dead = NULL;
  EXPECT_ERROR(opsplit_pcpd_create(NULL, OPSPLIT_PCPD_EXACT, L, R, &e), OPSPLIT_ERROR_INVALID_HANDLE, create, "ctx");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, L, R, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "pcpd is NULL");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, (opsplit_pcpd_algorithm)3, L, R, &e), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "algorithm=3");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, 3, R, &e), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "L=3");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, INT64_MAX, R, &e), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "2^40");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, L, 0, &e), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "replicas=0");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, L, INT64_C(1) << 31, &e), OPSPLIT_ERROR_INVALID_ARGUMENT,
               create, "replicas=2147483648");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, INT64_C(1) << 30, INT64_C(1) << 20, &e),
               OPSPLIT_ERROR_INVALID_ARGUMENT, create, "2^44");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, (INT64_C(1) << 32) + 4, 1, &e),
               OPSPLIT_ERROR_INVALID_ARGUMENT, create, "L <= 2^32");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_MULTISPIN, 10000, R, &e), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "multiple of 2048");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_MULTISPIN, 4096, R, &e), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "at least 8192");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_MULTISPIN32, 4096 + 512, R, &e), OPSPLIT_ERROR_INVALID_ARGUMENT,
               create, "multiple of 1024 (32 parts of 32-bit words)");
  EXPECT_ERROR(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_MULTISPIN32, 3072, R, &e), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "at least 4096");
  CHECK(e == NULL);

  CHECK_OK(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_MULTISPIN, L, R, &e));
  CHECK_OK(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_EXACT, 16, 1, &dead));
  opsplit_pcpd dangling = dead;
  CHECK_OK(opsplit_pcpd_destroy(&dead));
  CHECK(dead == NULL);
  CHECK_OK(opsplit_pcpd_destroy(&dead)); /* *NULL: a no-op */
  CHECK_OK(opsplit_pcpd_destroy(NULL));
  EXPECT_ERROR(opsplit_pcpd_destroy(&dangling), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_pcpd_destroy", "not a live");

  /* A state to keep through the refusals. */
  CHECK_OK(opsplit_pcpd_set_probabilities(e, 0.2, 0.5));
  CHECK_OK(opsplit_pcpd_initialize(e, 77, 0.6));
  CHECK_OK(opsplit_pcpd_run(e, 3));
  static uint8_t before[L], after[L];
  CHECK_OK(opsplit_pcpd_get_lattice(e, 1, before));
  int64_t length0 = 0;
  CHECK_OK(opsplit_pcpd_get_series_length(e, &length0));

  const char* probs = "opsplit_pcpd_set_probabilities";
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(NULL, 0.1, 0.5), OPSPLIT_ERROR_INVALID_HANDLE, probs, "pcpd is NULL");
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(dangling, 0.1, 0.5), OPSPLIT_ERROR_INVALID_HANDLE, probs, "not a live");
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(e, -0.1, 0.5), OPSPLIT_ERROR_INVALID_ARGUMENT, probs, "p=-0.1");
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(e, NAN, 0.5), OPSPLIT_ERROR_INVALID_ARGUMENT, probs, "p=");
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(e, 0.1, 1.5), OPSPLIT_ERROR_INVALID_ARGUMENT, probs, "d=1.5");
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(e, 0.1, INFINITY), OPSPLIT_ERROR_INVALID_ARGUMENT, probs, "d=");
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(e, 0.1, 0.3), OPSPLIT_ERROR_INVALID_ARGUMENT, probs, "k / 2^n");
  EXPECT_ERROR(opsplit_pcpd_set_probabilities(e, 0.1, 1.0 / 512), OPSPLIT_ERROR_INVALID_ARGUMENT, probs, "d=");

  const char* init = "opsplit_pcpd_initialize";
  EXPECT_ERROR(opsplit_pcpd_initialize(NULL, 1, 1.0), OPSPLIT_ERROR_INVALID_HANDLE, init, "pcpd is NULL");
  EXPECT_ERROR(opsplit_pcpd_initialize(e, 1, 1.01), OPSPLIT_ERROR_INVALID_ARGUMENT, init, "density=1.01");
  EXPECT_ERROR(opsplit_pcpd_initialize(e, 1, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, init, "density=");
  EXPECT_ERROR(opsplit_pcpd_initialize(dangling, 1, 1.0), OPSPLIT_ERROR_INVALID_HANDLE, init, "not a live");
  const char* ppd = "opsplit_pcpd_set_points_per_decade";
  EXPECT_ERROR(opsplit_pcpd_set_points_per_decade(e, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, ppd, "points=0");
  EXPECT_ERROR(opsplit_pcpd_set_points_per_decade(e, 1001), OPSPLIT_ERROR_INVALID_ARGUMENT, ppd, "points=1001");
  EXPECT_ERROR(opsplit_pcpd_set_points_per_decade(dangling, 5), OPSPLIT_ERROR_INVALID_HANDLE, ppd, "not a live");

  const char* run = "opsplit_pcpd_run";
  EXPECT_ERROR(opsplit_pcpd_run(NULL, 1), OPSPLIT_ERROR_INVALID_HANDLE, run, "pcpd is NULL");
  EXPECT_ERROR(opsplit_pcpd_run(dangling, 1), OPSPLIT_ERROR_INVALID_HANDLE, run, "not a live");
  EXPECT_ERROR(opsplit_pcpd_run(e, -1), OPSPLIT_ERROR_INVALID_ARGUMENT, run, "t_end=-1");
  EXPECT_ERROR(opsplit_pcpd_run(e, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, run, "t_end=");
  EXPECT_ERROR(opsplit_pcpd_run(e, INFINITY), OPSPLIT_ERROR_INVALID_ARGUMENT, run, "t_end=");
  EXPECT_ERROR(opsplit_pcpd_run(e, 1e300), OPSPLIT_ERROR_INVALID_ARGUMENT, run, "2^62");

  double t = -1;
  EXPECT_ERROR(opsplit_pcpd_get_time(e, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_pcpd_get_time", "time is NULL");
  EXPECT_ERROR(opsplit_pcpd_get_time(dangling, &t), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_pcpd_get_time", "not a live");
  int64_t n = -1;
  EXPECT_ERROR(opsplit_pcpd_get_series_length(e, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_pcpd_get_series_length", "length is NULL");
  EXPECT_ERROR(opsplit_pcpd_get_series_length(NULL, &n), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_pcpd_get_series_length",
               "pcpd is NULL");
  double times[64], mean[64], se[64];
  const char* series = "opsplit_pcpd_get_series";
  EXPECT_ERROR(opsplit_pcpd_get_series(e, (opsplit_pcpd_quantity)3, 1, times, mean, se), OPSPLIT_ERROR_INVALID_ARGUMENT,
               series, "quantity=3");
  EXPECT_ERROR(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_DENSITY, -1, times, mean, se), OPSPLIT_ERROR_INVALID_ARGUMENT,
               series, "length=-1");
  EXPECT_ERROR(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_DENSITY, length0 + 1, times, mean, se),
               OPSPLIT_ERROR_INVALID_ARGUMENT, series, "length=");
  EXPECT_ERROR(opsplit_pcpd_get_series(dangling, OPSPLIT_PCPD_DENSITY, 1, times, mean, se),
               OPSPLIT_ERROR_INVALID_HANDLE, series, "not a live");
  EXPECT_ERROR(opsplit_pcpd_get_series(NULL, OPSPLIT_PCPD_DENSITY, 1, times, mean, se), OPSPLIT_ERROR_INVALID_HANDLE,
               series, "pcpd is NULL");
  const char* get = "opsplit_pcpd_get_lattice";
  const char* set = "opsplit_pcpd_set_lattice";
  EXPECT_ERROR(opsplit_pcpd_get_lattice(e, -1, after), OPSPLIT_ERROR_INVALID_ARGUMENT, get, "replica=-1");
  EXPECT_ERROR(opsplit_pcpd_get_lattice(e, R, after), OPSPLIT_ERROR_INVALID_ARGUMENT, get, "replica=3");
  EXPECT_ERROR(opsplit_pcpd_get_lattice(e, 0, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, get, "sites is NULL");
  EXPECT_ERROR(opsplit_pcpd_get_lattice(NULL, 0, after), OPSPLIT_ERROR_INVALID_HANDLE, get, "pcpd is NULL");
  EXPECT_ERROR(opsplit_pcpd_get_lattice(dangling, 0, after), OPSPLIT_ERROR_INVALID_HANDLE, get, "not a live");
  EXPECT_ERROR(opsplit_pcpd_set_lattice(e, -1, after), OPSPLIT_ERROR_INVALID_ARGUMENT, set, "replica=-1");
  EXPECT_ERROR(opsplit_pcpd_set_lattice(e, R, after), OPSPLIT_ERROR_INVALID_ARGUMENT, set, "replica=3");
  EXPECT_ERROR(opsplit_pcpd_set_lattice(e, 0, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, set, "sites is NULL");
  EXPECT_ERROR(opsplit_pcpd_set_lattice(dangling, 0, after), OPSPLIT_ERROR_INVALID_HANDLE, set, "not a live");

  /* Nothing changed: the lattice, the time, the series; the rates are still 0.2, 0.5
   * (a run from here equals a fresh ensemble's with the same history). */
  CHECK_OK(opsplit_pcpd_get_lattice(e, 1, after));
  CHECK(memcmp(before, after, L) == 0);
  CHECK_OK(opsplit_pcpd_get_time(e, &t));
  CHECK(t == 3.0);
  CHECK_OK(opsplit_pcpd_get_series_length(e, &n));
  CHECK(n == length0);
  opsplit_pcpd twin = NULL;
  CHECK_OK(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_MULTISPIN, L, R, &twin));
  CHECK_OK(opsplit_pcpd_set_probabilities(twin, 0.2, 0.5));
  CHECK_OK(opsplit_pcpd_initialize(twin, 77, 0.6));
  CHECK_OK(opsplit_pcpd_run(twin, 3));
  CHECK_OK(opsplit_pcpd_run(e, 40));
  CHECK_OK(opsplit_pcpd_run(twin, 40));
  CHECK(same_lattices(e, twin));

  /* Values: lattice bytes read back as 0/1; a series read with NULL arrays. */
  memset(after, 0, L);
  after[5] = 7, after[6] = 255;
  CHECK_OK(opsplit_pcpd_set_lattice(e, 2, after));
  CHECK_OK(opsplit_pcpd_get_lattice(e, 2, before));
  CHECK(before[5] == 1 && before[6] == 1 && before[7] == 0);
  CHECK_OK(opsplit_pcpd_get_series_length(e, &n));
  CHECK(n > 1 && n <= 64);
  CHECK_OK(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_SURVIVING, n, NULL, mean, NULL));
  CHECK(mean[0] == 1.0);

  /* A lattice set at time 0 is the series' start: one particle in replica 0 of 3 full. */
  CHECK_OK(opsplit_pcpd_initialize(e, 9, 1.0));
  memset(after, 0, L);
  after[17] = 1;
  CHECK_OK(opsplit_pcpd_set_lattice(e, 0, after));
  CHECK_OK(opsplit_pcpd_get_series_length(e, &n));
  CHECK(n == 1);
  CHECK_OK(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_DENSITY, 1, times, mean, se));
  CHECK(times[0] == 0.0 && mean[0] == (1.0 / L + 2.0) / 3);
  CHECK_OK(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_SURVIVING, 1, NULL, mean, NULL));
  CHECK(mean[0] == 2.0 / 3);

  /* Cancelled on the third report: every replica at the reported time; resumed, the
   * twin's bits. */
  CHECK_OK(opsplit_context_set_progress_callback(ctx, progress, NULL));
  CHECK_OK(opsplit_pcpd_initialize(e, 5, 1.0));
  CHECK_OK(opsplit_pcpd_initialize(twin, 5, 1.0));
  cancel_after = 3;
  EXPECT_ERROR(opsplit_pcpd_run(e, 100), OPSPLIT_ERROR_CANCELLED, run, "cancelled");
  CHECK_OK(opsplit_pcpd_get_time(e, &t));
  CHECK(t > 0.0 && t < 100.0);
  cancel_after = -1;
  CHECK_OK(opsplit_pcpd_run(e, 100));
  CHECK_OK(opsplit_pcpd_run(twin, 100));
  CHECK(same_lattices(e, twin));
  CHECK(reports > 3);

  CHECK_OK(opsplit_pcpd_destroy(&e));
  CHECK_OK(opsplit_pcpd_destroy(&twin));
  CHECK_OK(opsplit_context_destroy(&ctx));
  return check_summary();
}
