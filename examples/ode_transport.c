/* Operator splitting with an ODE batch: a host code's time loop on a 1D periodic ring of
 * cells, where the host does the transport itself and hands the chemistry of every cell
 * to opsplit (the POLLU air-pollution network of examples/pollu.h, ppm and minutes).
 *
 *   ode_transport [--cells N] [--steps S] [--every E] [--out DIR]
 *
 * N cells (default 64), S steps of dt = 1 minute (default 60: one hour), a table line
 * every E steps (default 10). Each step is simple Lie splitting, transport then
 * chemistry: first-order upwind advection of every species at Courant number 0.5, then
 * opsplit_ode_integrate(t, t + dt) on all cells (RODAS4, rtol 1e-6, atol 1e-10, each
 * cell keeping its last step size between calls). Lie splitting is first order in dt;
 * with a 1-minute step and a first-order transport scheme Strang's half steps would buy
 * nothing here.
 *
 * Start: POLLU's initial state everywhere, plus an emission plume in the first quarter
 * of the ring (3x the NO, and NO2 at a tenth of that NO). The wind carries the plume
 * half a cell per minute, so it reaches the observed cell N/2 within the hour.
 *
 * The check: every reaction of POLLU conserves nitrogen and sulfur atoms, and so does
 * the upwind scheme on a periodic ring, so the totals over all cells must not drift
 * beyond rounding. Writes DIR/ode_transport.csv (time and all species in the observed
 * cell, every step) and DIR/ode_transport.png (O3, NO, NO2, HNO3, PAN there, log scale).
 * The backend is AUTO (CUDA when a GPU is usable; OPSPLIT_BACKEND=cpu|cuda chooses). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opsplit/opsplit.h>

#include "png_plot.h"
#include "pollu.h"

#define NS POLLU_NSPECIES

/* Atoms per molecule, in pollu_species order: NO2, NO, PAN, HNO3, NO3 and N2O5 (two)
 * hold nitrogen; SO2 and SO4 sulfur. */
static const double nitrogen_atoms[NS] = {[0] = 1, [1] = 1, [12] = 1, [14] = 1, [18] = 1, [19] = 2};
static const double sulfur_atoms[NS] = {[16] = 1, [17] = 1};

/* The largest relative drift of either total that the run accepts. Both totals are
 * linear invariants of the chemistry (w . f(y) = 0 for every y, hence w . J = 0): each
 * Rosenbrock stage solves (I - gamma h J) k = h f(..) + earlier stages, so w . k = 0 and
 * a step keeps w . y exactly in exact arithmetic, at any rtol (the error control picks
 * h, never the direction of the step). The upwind fluxes cancel in pairs on the ring.
 * What remains is rounding in the LU solves, the stage sums and the transport, which
 * random-walks: measured at most 1.5e-15 from 16 to 4096 cells over 30 to 600 steps
 * (3e-15 for 4 cells over 1000 steps), and no more at rtol 1e-3. The limit leaves a
 * factor of ~1000 for long runs (the walk grows like the square root of the steps) and
 * other compilers or a GPU, and stays far below a real violation: leaving HNO3 out of
 * NO2 + OH -> HNO3 drifts nitrogen by 3e-2 in the hour, a 1e-6 relative error in one
 * flux of the transport by 3e-7. (clip_negative would break the invariants wherever a
 * value went negative, so it stays off.) */
#define DRIFT_LIMIT 1e-12

/* The species in the picture (the table shows the first three). */
static const int shown_species[5] = {3, 1, 0, 14, 12}; /* O3, NO, NO2, HNO3, PAN */

static double seconds(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The atoms over the ring, summed with Neumaier's compensation: a plain sum of
 * ncells*NS terms rounds by up to ncells*NS*eps and would hide the drift of the state
 * itself behind its own (1e-13 at 1024 cells). */
static double total(const double* y, int ncells, const double* atoms) {
  double sum = 0, lost = 0;
  for (size_t i = 0; i < (size_t)ncells * NS; ++i) {
    const double term = atoms[i % NS] * y[i], next = sum + term;
    lost += fabs(sum) >= fabs(term) ? (sum - next) + term : (term - next) + sum;
    sum = next;
  }
  return sum + lost;
}

/* Upwind advection with the wind towards higher cells, in flux form so that what leaves
 * a cell is exactly what enters the next: y_c += C (y_{c-1} - y_c), periodic. C <= 1
 * keeps every value a convex combination of old ones (no new negatives). */
static void advect(double* y, int ncells, double courant) {
  double wrapped[NS]; /* the last cell's outflow, which enters cell 0 */
  for (int s = 0; s < NS; ++s) wrapped[s] = courant * y[(size_t)(ncells - 1) * NS + s];
  for (int c = ncells - 1; c >= 0; --c) /* downwards: cell c-1 is still old */
    for (int s = 0; s < NS; ++s) {
      const double in = c > 0 ? courant * y[(size_t)(c - 1) * NS + s] : wrapped[s];
      y[(size_t)c * NS + s] += in - courant * y[(size_t)c * NS + s];
    }
}

static void report(const char* what, opsplit_status status) {
  fprintf(stderr, "ode_transport: %s failed: %s: %s\n", what, opsplit_status_string(status),
          opsplit_last_error_message());
}

#define TRY(call)                  \
  do {                             \
    status = (call);               \
    if (status != OPSPLIT_SUCCESS) { \
      report(#call, status);       \
      goto done;                   \
    }                              \
  } while (0)

int main(int argc, char** argv) {
  int ncells = 64, steps = 60, every = 10;
  const char* out_dir = ".";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--cells") && i + 1 < argc) ncells = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--every") && i + 1 < argc) every = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_dir = argv[++i];
    else ncells = -1;
  }
  if (ncells < 4 || steps < 1 || every < 1) {
    fprintf(stderr, "usage: %s [--cells N >= 4] [--steps S >= 1] [--every E >= 1] [--out DIR]\n", argv[0]);
    return 2;
  }
  const double dt = 1.0, courant = 0.5;
  const int observed = ncells / 2;
  int rc = 1;
  opsplit_status status = OPSPLIT_SUCCESS;
  opsplit_context ctx = NULL;
  opsplit_mechanism mech = NULL;
  opsplit_ode ode = NULL;
  opsplit_backend backend = OPSPLIT_BACKEND_CPU;
  FILE* csv = NULL;
  char csv_path[4096], png_path[4096];
  double* y = malloc(sizeof(double) * (size_t)ncells * NS);
  double* times = malloc(sizeof(double) * (size_t)(steps + 1));
  double* series = malloc(sizeof(double) * 5 * (size_t)(steps + 1)); /* series[k*(steps+1) + step] */
  int* result = malloc(sizeof(int) * (size_t)ncells);
  int64_t* accepted = malloc(sizeof(int64_t) * (size_t)ncells);
  int64_t* rejected = malloc(sizeof(int64_t) * (size_t)ncells);
  if (!y || !times || !series || !result || !accepted || !rejected) {
    fprintf(stderr, "ode_transport: out of memory\n");
    goto done;
  }
  snprintf(csv_path, sizeof csv_path, "%s/ode_transport.csv", out_dir);
  snprintf(png_path, sizeof png_path, "%s/ode_transport.png", out_dir);

  for (int c = 0; c < ncells; ++c) {
    double* cell = y + (size_t)c * NS;
    memcpy(cell, pollu_y0, sizeof pollu_y0);
    if (c < ncells / 4) {
      cell[1] = 3 * pollu_y0[1];
      cell[0] = 0.1 * cell[1];
    }
  }

  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  TRY(opsplit_context_get_backend(ctx, &backend));
  TRY(pollu_build(ctx, &mech));
  TRY(opsplit_ode_create(ctx, NS, ncells, 0, &ode));
  TRY(opsplit_ode_set_mechanism(ode, mech));
  TRY(opsplit_ode_set_method(ode, OPSPLIT_ODE_ROSENBROCK)); /* the default, said aloud */
  TRY(opsplit_ode_set_tolerances(ode, 1e-6, 1e-10));
  TRY(opsplit_ode_set_keep_step(ode, 1));
  TRY(opsplit_ode_set_clip_negative(ode, 0)); /* the default; see DRIFT_LIMIT */

  csv = fopen(csv_path, "w");
  if (!csv) {
    perror(csv_path);
    goto done;
  }
  fprintf(csv, "time_min");
  for (int s = 0; s < NS; ++s) fprintf(csv, ",%s", pollu_species[s]);
  fprintf(csv, "\n");

  printf("ode_transport: POLLU on a ring of %d cells, %d steps of %g min, Courant %g, backend %s\n", ncells, steps,
         dt, courant, backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");
  printf("observed cell %d; N and S totals: relative drift from t = 0\n", observed);
  printf("%8s %13s %13s %13s %11s %11s %8s\n", "t (min)", "O3", "NO", "NO2", "N drift", "S drift", "steps");

  const double n0 = total(y, ncells, nitrogen_atoms), s0 = total(y, ncells, sulfur_atoms);
  double worst_n = 0, worst_s = 0, chemistry_s = 0, transport_s = 0;
  int64_t all_accepted = 0, all_rejected = 0;
  const double start = seconds();
  for (int step = 0; step <= steps; ++step) {
    const double t = step * dt;
    double mean_steps = 0;
    if (step > 0) {
      const double t_transport = seconds();
      advect(y, ncells, courant);
      const double t_chemistry = seconds();
      TRY(opsplit_ode_set_state(ode, y, OPSPLIT_ODE_AOS));
      status = opsplit_ode_integrate(ode, t - dt, t);
      if (status != OPSPLIT_SUCCESS) {
        report("opsplit_ode_integrate", status);
        if (opsplit_ode_get_results(ode, result, NULL, NULL, NULL, NULL) == OPSPLIT_SUCCESS)
          for (int c = 0; c < ncells; ++c)
            if (result[c] != OPSPLIT_ODE_OK) fprintf(stderr, "  cell %d: result %d\n", c, result[c]);
        goto done;
      }
      TRY(opsplit_ode_get_state(ode, y, OPSPLIT_ODE_AOS));
      TRY(opsplit_ode_get_results(ode, NULL, accepted, rejected, NULL, NULL));
      chemistry_s += seconds() - t_chemistry;
      transport_s += t_chemistry - t_transport;
      for (int c = 0; c < ncells; ++c) all_accepted += accepted[c], all_rejected += rejected[c];
      for (int c = 0; c < ncells; ++c) mean_steps += (double)(accepted[c] + rejected[c]) / ncells;
    }
    const double drift_n = fabs(total(y, ncells, nitrogen_atoms) - n0) / n0;
    const double drift_s = fabs(total(y, ncells, sulfur_atoms) - s0) / s0;
    worst_n = fmax(worst_n, drift_n);
    worst_s = fmax(worst_s, drift_s);

    const double* cell = y + (size_t)observed * NS;
    times[step] = t;
    for (int k = 0; k < 5; ++k) series[(size_t)k * (size_t)(steps + 1) + (size_t)step] = cell[shown_species[k]];
    fprintf(csv, "%g", t);
    for (int s = 0; s < NS; ++s) fprintf(csv, ",%.9e", cell[s]);
    fprintf(csv, "\n");
    if (step % every == 0 || step == steps)
      printf("%8g %13.6e %13.6e %13.6e %11.2e %11.2e %8.1f\n", t, cell[3], cell[1], cell[0], drift_n, drift_s,
             mean_steps);
  }
  const double elapsed = seconds() - start;
  if (fclose(csv) != 0) {
    csv = NULL;
    perror(csv_path);
    goto done;
  }
  csv = NULL;
  if (png_plot_lines(png_path, 640, 400, steps + 1, times, 5, series, 1)) goto done;

  printf("chemistry %.3f s, transport %.3f s, %.3f s in all; %.1f accepted and %.2f rejected steps per cell and call\n",
         chemistry_s, transport_s, elapsed, (double)all_accepted / ((double)ncells * steps),
         (double)all_rejected / ((double)ncells * steps));
  printf("wrote %s and %s (O3 blue, NO orange, NO2 green, HNO3 red, PAN purple; ppm, log scale)\n", csv_path,
         png_path);
  printf("nitrogen drift %.2e sulfur drift %.2e (limit %.0e)\n", worst_n, worst_s, DRIFT_LIMIT);
  if (!(worst_n <= DRIFT_LIMIT && worst_s <= DRIFT_LIMIT)) {
    fprintf(stderr, "ode_transport: the nitrogen or sulfur total drifted beyond %.0e\n", DRIFT_LIMIT);
    goto done;
  }
  rc = 0;

done:
  if (csv) fclose(csv);
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&mech);
  status = opsplit_context_destroy(&ctx);
  if (status != OPSPLIT_SUCCESS) {
    report("opsplit_context_destroy", status);
    rc = 1;
  }
  free(y);
  free(times);
  free(series);
  free(result);
  free(accepted);
  free(rejected);
  return rc;
}
