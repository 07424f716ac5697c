/* The pair contact process with diffusion near its critical point (pcpd.h): replicas of
 * an L-site lattice from the fully occupied start, the particle density rho(t), the pair
 * density and the surviving fraction at 10 points a decade, and the effective exponent
 * delta_eff(t) = -d ln rho / d ln t between successive points (at p_c the density decays
 * as t^-delta, with delta about 0.16-0.17 at the times reachable; docs/VALIDATION.md).
 *
 *   pcpd_decay [--L N] [--replicas R] [--t T] [--p P] [--d D] [--exact] [--out DIR]
 * Defaults: L = 65536, R = 64, T = 10000 sweeps, d = 0.25 and p = 0.125141 (the seed's
 * p_c for that d), MULTISPIN (--exact: the seed's Algorithm 1). Writes DIR/pcpd_decay.csv
 * (t, rho, rho_se, pairs, pairs_se, surviving, delta_eff) and DIR/pcpd_decay.png (log10
 * rho blue and log10 pair density orange against log10 t; log-log). Prints delta_eff over
 * the last decade. The backend is AUTO: CUDA when a GPU is usable; OPSPLIT_BACKEND=cpu|cuda
 * chooses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opsplit/opsplit.h>

#include "png_plot.h"

#define TRY(call)                                                        \
  do {                                                                   \
    if ((call) != OPSPLIT_SUCCESS) {                                     \
      fprintf(stderr, "pcpd_decay: %s\n", opsplit_last_error_message()); \
      return 1;                                                          \
    }                                                                    \
  } while (0)

enum { kMaxPoints = 1024 };

int main(int argc, char** argv) {
  long long L = 65536, replicas = 64;
  double t_end = 1e4, p = 0.125141, d = 0.25;
  opsplit_pcpd_algorithm algorithm = OPSPLIT_PCPD_MULTISPIN;
  const char* dir = ".";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--L") && i + 1 < argc) L = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--replicas") && i + 1 < argc) replicas = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--t") && i + 1 < argc) t_end = atof(argv[++i]);
    else if (!strcmp(argv[i], "--p") && i + 1 < argc) p = atof(argv[++i]);
    else if (!strcmp(argv[i], "--d") && i + 1 < argc) d = atof(argv[++i]);
    else if (!strcmp(argv[i], "--exact")) algorithm = OPSPLIT_PCPD_EXACT;
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) dir = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--L N] [--replicas R] [--t T] [--p P] [--d D] [--exact] [--out DIR]\n", argv[0]);
      return 2;
    }
  }
  opsplit_context ctx = NULL;
  opsplit_pcpd e = NULL;
  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  TRY(opsplit_pcpd_create(ctx, algorithm, L, replicas, &e));
  TRY(opsplit_pcpd_set_probabilities(e, p, d));
  TRY(opsplit_pcpd_initialize(e, 2026, 1.0));
  TRY(opsplit_pcpd_run(e, t_end));
  int64_t n = 0;
  TRY(opsplit_pcpd_get_series_length(e, &n));
  if (n > kMaxPoints) n = kMaxPoints;
  static double t[kMaxPoints], rho[kMaxPoints], rho_se[kMaxPoints], pairs[kMaxPoints], pairs_se[kMaxPoints],
      surviving[kMaxPoints], delta[kMaxPoints];
  TRY(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_DENSITY, n, t, rho, rho_se));
  TRY(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_PAIR_DENSITY, n, NULL, pairs, pairs_se));
  TRY(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_SURVIVING, n, NULL, surviving, NULL));
  for (int64_t k = 0; k < n; ++k)
    delta[k] = k >= 2 && rho[k] > 0 && rho[k - 1] > 0 ? -log(rho[k] / rho[k - 1]) / log(t[k] / t[k - 1]) : NAN;

  char path[4096];
  snprintf(path, sizeof path, "%s/pcpd_decay.csv", dir);
  FILE* csv = fopen(path, "w");
  if (!csv) {
    fprintf(stderr, "pcpd_decay: cannot write %s\n", path);
    return 1;
  }
  fprintf(csv, "t,rho,rho_se,pairs,pairs_se,surviving,delta_eff\n");
  for (int64_t k = 0; k < n; ++k)
    fprintf(csv, "%.9g,%.9g,%.3g,%.9g,%.3g,%.6g,%.6g\n", t[k], rho[k], rho_se[k], pairs[k], pairs_se[k], surviving[k],
            delta[k]);
  fclose(csv);

  /* log-log: the points from t = 1 on, x = log10 t. */
  static double x[kMaxPoints], y[2 * kMaxPoints];
  int m = 0;
  for (int64_t k = 1; k < n; ++k, ++m) x[m] = log10(t[k]);
  for (int i = 0; i < m; ++i) y[i] = rho[i + 1], y[m + i] = pairs[i + 1];
  snprintf(path, sizeof path, "%s/pcpd_decay.png", dir);
  if (m >= 2 && png_plot_lines(path, 640, 480, m, x, 2, y, 1) != 0) return 1;

  /* delta_eff over the last decade: ln(rho(t/10) / rho(t)) / ln 10. */
  int64_t k0 = n - 1;
  while (k0 > 1 && t[k0] > t[n - 1] / 10 * 1.0001) --k0;
  const double last = n >= 3 && rho[n - 1] > 0 ? -log(rho[n - 1] / rho[k0]) / log(t[n - 1] / t[k0]) : NAN;
  printf("pcpd_decay: L = %lld, %lld replicas, p = %g, d = %g, t = %g: rho = %.6g +- %.2g, surviving %.4g, "
         "delta_eff (t %.4g .. %.4g) = %.4f\n",
         L, replicas, p, d, t[n - 1], rho[n - 1], rho_se[n - 1], surviving[n - 1], t[k0], t[n - 1], last);
  TRY(opsplit_pcpd_destroy(&e));
  TRY(opsplit_context_destroy(&ctx));
  return 0;
}
