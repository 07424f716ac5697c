/* opsplit demo: seed 000 (Molnar et al. 2011) Table 1 case 1. A sphere of radius 20
 * (c = 1 inside, 0 outside) diffuses in a 128^3 box: D = 1, h = 1, dt = 0.02, no-flux
 * boundaries, the 19-point stencil. Prints the backend, then the mass (conserved) and
 * the peak (decaying) every report, with a progress bar on stderr when stderr is a
 * terminal (piped into a log, the report lines alone).
 *
 * `demo turing` runs Table 1 case 2 instead: the Turing activator-inhibitor system
 * (D1 = 5e-5, D2 = 5e-3, h = 6.2e-3, dt = 5e-4, alpha 0.5, beta 0.09, gamma 26) from
 * 1 +- 5e-4 noise; it reports the activator's mean, min and max: the uniform state
 * decays toward (0.175, 0.169) and the noise grows into a pattern (a wide min..max).
 *
 * `demo lava` runs the Mt Etna 2006 lava flow with SCIARA-fv2 (ca.h) from the data
 * folder's etna2006/ (data/ of the source tree, or share/opsplit of an installed demo, or
 * $OPSPLIT_DATA_DIR: examples/example_data.h), day by day for
 * --days days (default 15), and reports the lava's volumes and the mass balance
 * (examples/lava_etna.c also scores it against the real flow and draws a map).
 *
 * `demo pcpd` runs the pair contact process with diffusion (pcpd.h) at the seed's
 * critical point for d = 0.25 (p = 0.125141): 64 replicas of 2^16 sites from the full
 * lattice to --sweeps sweeps (default 10^4), MULTISPIN; it prints the density with its
 * standard error and the pair density a decade apart, and the decay's effective
 * exponent over the last decade (examples/pcpd_decay.c writes the series and a plot).
 *
 *   demo [turing] [--steps N] [--every M] [--n SIZE] [--float]
 *   demo lava [--days N]
 *   demo pcpd [--sweeps T]
 * The backend is AUTO: CUDA when a GPU is usable; OPSPLIT_BACKEND=cpu|cuda chooses. */
#define _POSIX_C_SOURCE 200809L /* isatty */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opsplit/opsplit.h>
#include <unistd.h>

#include "example_data.h"

/* The run goes in chunks of steps; the bar shows the whole run. */
struct run_progress {
  long done, chunk, total;
};

static int progress_bar(double fraction, const char* what, void* user) {
  const struct run_progress* run = user;
  double overall = (run->done + fraction * run->chunk) / run->total;
  int width = 40, filled = (int)(overall * width + 0.5);
  (void)what;
  fprintf(stderr, "\r  [%.*s%*s] %3d%%\r", filled, "########################################", width - filled, "",
          (int)(overall * 100 + 0.5));
  return 0;
}

/* The bar only on a terminal: a log (demo | tee log, demo 2> file) gets the report lines
 * and no bar frames, as curl, pip and cmake do. */
static int bar_wanted(void) { return isatty(STDERR_FILENO); }
static void show_progress(opsplit_context ctx, struct run_progress* run) {
  if (bar_wanted()) opsplit_context_set_progress_callback(ctx, progress_bar, run);
}
static void clear_bar(void) {
  if (bar_wanted()) fprintf(stderr, "\r%52s\r", "");
}

#define TRY(call)                                                                  \
  do {                                                                             \
    if ((call) != OPSPLIT_SUCCESS) {                                               \
      fprintf(stderr, "demo: %s\n", opsplit_last_error_message());                 \
      return 1;                                                                    \
    }                                                                              \
  } while (0)

static double now(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* demo lava: Etna 2006 day by day, the volumes and the balance; 0 when it holds to 1e-12. */
static int run_lava(int days) {
  char data[4096], path[4][4200];
  if (example_data_dir("etna2006/PARAMETERS.cfg", data, sizeof data) != 0) {
    fprintf(stderr, "demo: the data folder's name is too long\n");
    return 1;
  }
  const char* files[4] = {"PARAMETERS.cfg", "MORPHOLOGY.stt", "VENTS.stt", "EMISSIONS_RATE.stt"};
  for (int f = 0; f < 4; ++f) snprintf(path[f], sizeof path[f], "%s/etna2006/%s", data, files[f]);
  opsplit_context ctx = NULL;
  opsplit_ca ca = NULL;
  opsplit_backend backend;
  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  TRY(opsplit_context_get_backend(ctx, &backend));
  TRY(opsplit_ca_create(ctx, OPSPLIT_CA_SCIARA_FV2, 378, 517, &ca));
  TRY(opsplit_ca_load_parameters(ca, path[0]));
  TRY(opsplit_ca_load_substate(ca, "altitude", path[1]));
  TRY(opsplit_ca_load_vents(ca, path[2], path[3]));
  struct run_progress run = {0, 1, days};
  show_progress(ctx, &run);
  printf("opsplit demo: Mt Etna 2006 lava flow (SCIARA-fv2, 378 x 517 cells of 10 m), backend %s\n",
         backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");
  printf("data %s/etna2006\n", data);
  printf("%4s %14s %14s %14s %10s %11s\n", "day", "emitted m3", "fluid m3", "solid m3", "lost m3", "balance");
  double elapsed = 0, worst = 0;
  for (int day = 1; day <= days; ++day) {
    run.done = day - 1;
    const double t0 = now();
    TRY(opsplit_ca_run_until(ca, day * 86400.0));
    elapsed += now() - t0;
    double e, l, s, o;
    TRY(opsplit_ca_get_volumes(ca, &e, &l, &s, &o));
    const double balance = e > 0 ? (e - (l + s + o)) / e : 0;
    if (balance > worst || -balance > worst) worst = balance < 0 ? -balance : balance;
    clear_bar();
    printf("%4d %14.1f %14.1f %14.1f %10.1f %11.2e\n", day, e, l, s, o, balance);
    fflush(stdout);
  }
  printf("worst balance %.2e; %d days (%d steps) in %.3f s on %s\n", worst, days, days * 1440, elapsed,
         backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");
  TRY(opsplit_ca_destroy(&ca));
  TRY(opsplit_context_destroy(&ctx));
  return worst <= 1e-12 ? 0 : 3;
}

/* demo pcpd: the density decay near p_c, a decade a line. */
static int run_pcpd(double sweeps) {
  opsplit_context ctx = NULL;
  opsplit_pcpd e = NULL;
  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  opsplit_backend backend;
  TRY(opsplit_context_get_backend(ctx, &backend));
  TRY(opsplit_pcpd_create(ctx, OPSPLIT_PCPD_MULTISPIN, 65536, 64, &e));
  TRY(opsplit_pcpd_set_probabilities(e, 0.125141, 0.25));
  TRY(opsplit_pcpd_set_points_per_decade(e, 1));
  printf("opsplit demo: PCPD at p = 0.125141, d = 0.25 (the seed's p_c), 64 x 65536 sites, backend %s\n",
         backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");
  printf("%12s %10s %10s %12s\n", "sweeps", "density", "+-", "pairs");
  const double t0 = now();
  TRY(opsplit_pcpd_run(e, sweeps));
  const double seconds = now() - t0;
  int64_t n = 0;
  TRY(opsplit_pcpd_get_series_length(e, &n));
  double t[64], rho[64], se[64], pairs[64];
  if (n > 64) n = 64;
  TRY(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_DENSITY, n, t, rho, se));
  TRY(opsplit_pcpd_get_series(e, OPSPLIT_PCPD_PAIR_DENSITY, n, NULL, pairs, NULL));
  for (int64_t k = 0; k < n; ++k) printf("%12g %10.6f %10.2g %12.6f\n", t[k], rho[k], se[k], pairs[k]);
  if (n >= 3)
    printf("delta_eff (t %g .. %g) = %.4f; %.3g moves/s\n", t[n - 2], t[n - 1],
           -log(rho[n - 1] / rho[n - 2]) / log(t[n - 1] / t[n - 2]), 64.0 * 65536 * t[n - 1] / seconds);
  TRY(opsplit_pcpd_destroy(&e));
  TRY(opsplit_context_destroy(&ctx));
  return 0;
}

int main(int argc, char** argv) {
  if (argc > 1 && !strcmp(argv[1], "pcpd")) {
    double sweeps = 1e4;
    if (argc == 4 && !strcmp(argv[2], "--sweeps")) sweeps = atof(argv[3]);
    if ((argc != 2 && argc != 4) || !(sweeps >= 1)) {
      fprintf(stderr, "usage: %s pcpd [--sweeps T >= 1]\n", argv[0]);
      return 2;
    }
    return run_pcpd(sweeps);
  }
  if (argc > 1 && !strcmp(argv[1], "lava")) {
    int days = 15;
    if (argc == 4 && !strcmp(argv[2], "--days")) days = atoi(argv[3]);
    if ((argc != 2 && argc != 4) || days < 1) {
      fprintf(stderr, "usage: %s lava [--days N >= 1]\n", argv[0]);
      return 2;
    }
    return run_lava(days);
  }
  long steps = 2000, every = 250, n = 128;
  int use_float = 0, turing = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "turing")) turing = 1;
    else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atol(argv[++i]);
    else if (!strcmp(argv[i], "--every") && i + 1 < argc) every = atol(argv[++i]);
    else if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atol(argv[++i]);
    else if (!strcmp(argv[i], "--float")) use_float = 1;
    else {
      fprintf(stderr, "usage: %s [turing] [--steps N] [--every M] [--n SIZE] [--float]\n", argv[0]);
      return 2;
    }
  }
  if (steps < 1 || every < 1 || n < 2) {
    fprintf(stderr, "demo: --steps, --every must be >= 1 and --n >= 2\n");
    return 2;
  }

  opsplit_context ctx = NULL;
  opsplit_field field = NULL;
  opsplit_rd rd = NULL;
  opsplit_backend backend;
  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  TRY(opsplit_context_get_backend(ctx, &backend));
  int major, minor, patch;
  opsplit_get_version(&major, &minor, &patch);
  printf("opsplit %d.%d.%d demo: %s in a %ld^3 box (seed 000, Table 1 case %d), %s, backend %s\n", major, minor,
         patch, turing ? "Turing patterns forming" : "sphere r=20 diffusing", n, turing ? 2 : 1,
         use_float ? "float32" : "float64", backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");

  const opsplit_precision precision = use_float ? OPSPLIT_FLOAT32 : OPSPLIT_FLOAT64;
  const int ncomp = turing ? 2 : 1;
  const size_t cells = (size_t)n * n * n, size = use_float ? sizeof(float) : sizeof(double);
  unsigned char* host = malloc(cells * ncomp * size);
  if (!host) {
    fprintf(stderr, "demo: out of memory\n");
    return 1;
  }
  const double mid = (n - 1) / 2.0;
  for (long z = 0; z < n; ++z)
    for (long y = 0; y < n; ++y)
      for (long x = 0; x < n; ++x) {
        double r2 = (x - mid) * (x - mid) + (y - mid) * (y - mid) + (z - mid) * (z - mid);
        size_t i = ((size_t)z * n + y) * n + x;
        for (int c = 0; c < ncomp; ++c) {
          double v = r2 <= 400.0 ? 1.0 : 0.0;
          if (turing) v = 1.0 + 5e-4 * (2.0 * rand() / RAND_MAX - 1.0);
          if (use_float) ((float*)host)[i + c * cells] = (float)v;
          else ((double*)host)[i + c * cells] = v;
        }
      }

  TRY(opsplit_field_create(ctx, n, n, n, ncomp, precision, &field));
  TRY(opsplit_field_upload(field, host, OPSPLIT_LAYOUT_PLANAR));
  TRY(opsplit_rd_create(ctx, ncomp, &rd));
  TRY(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  if (turing) {
    TRY(opsplit_field_set_spacing(field, 6.2e-3, 6.2e-3, 6.2e-3));
    TRY(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING));
    TRY(opsplit_rd_set_diffusion(rd, 0, 5e-5));
    TRY(opsplit_rd_set_diffusion(rd, 1, 5e-3));
  } else {
    TRY(opsplit_rd_set_diffusion(rd, 0, 1.0));
  }
  struct run_progress run = {0, 0, steps};
  show_progress(ctx, &run);

  double mass0 = 0;
  TRY(opsplit_field_component_sum(field, 0, &mass0));
  const double dt = turing ? 5e-4 : 0.02;
  if (turing)
    printf("%10s %10s %12s %12s %12s\n", "step", "time", "mean c1", "min c1", "max c1");
  else
    printf("%10s %10s %22s %12s\n", "step", "time", "mass", "peak");
  if (!turing) printf("%10d %10.2f %22.15g %12.6f\n", 0, 0.0, mass0, 1.0);
  double elapsed = 0, mass = mass0;
  for (long done = 0; done < steps;) {
    long chunk = steps - done < every ? steps - done : every;
    run.done = done;
    run.chunk = chunk;
    double t0 = now();
    TRY(opsplit_rd_step(rd, field, dt, chunk));
    TRY(opsplit_context_synchronize(ctx));
    elapsed += now() - t0;
    done += chunk;
    double lo = 0, peak = 0;
    TRY(opsplit_field_component_sum(field, 0, &mass));
    TRY(opsplit_field_component_min_max(field, 0, &lo, &peak));
    clear_bar();
    if (turing)
      printf("%10ld %10.3f %12.6f %12.6f %12.6f\n", done, done * dt, mass / cells, lo, peak);
    else
      printf("%10ld %10.2f %22.15g %12.6f\n", done, done * dt, mass, peak);
    fflush(stdout);
  }
  if (!turing) printf("mass drift %.3g (relative); ", (mass - mass0) / mass0);
  printf("%.1f Mpoints/s stepping on %s\n", cells * (double)steps / elapsed / 1e6,
         backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");
  free(host);
  TRY(opsplit_rd_destroy(&rd));
  TRY(opsplit_field_destroy(&field));
  TRY(opsplit_context_destroy(&ctx));
  return 0;
}
