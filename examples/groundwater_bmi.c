/* A reactive-transport host that drives opsplit's groundwater module only through its
 * BMI calls, as a BMI-coupled framework would: the module comes from a setup file
 * (data/groundwater/dechlorinating_column.yaml: a 100-cell sand column, PCE -> TCE ->
 * DCE -> VC -> ethene with kinetic sorption of PCE), the host moves the water itself
 * (one cell a step, so its upwind step is exact), and each step is
 *     get_value("Concentrations") -> transport -> set_value -> update.
 * A 60-day pulse of PCE enters; every 30 days the program prints the moles in the
 * column against what entered and left (the chain's yields are 1: the chemistry
 * conserves the total), and at the end it writes the breakthrough curves at the outlet
 * (groundwater_bmi.png: PCE blue, TCE orange, DCE green, VC red, ethene purple).
 *
 *   groundwater_bmi [setup.yaml] [days]      (defaults: the data file, 150)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_data.h"
#include "opsplit/opsplit.h"
#include "png_plot.h"

#define CHECK(call)                                                                         \
  do {                                                                                      \
    opsplit_status s_ = (call);                                                             \
    if (s_ != OPSPLIT_SUCCESS) {                                                            \
      fprintf(stderr, "%s failed: %s\n", #call, opsplit_last_error_message());              \
      exit(1);                                                                              \
    }                                                                                       \
  } while (0)

static const double inlet_pce = 1.0e-4;       /* mol/L */
static const double pulse_days = 60.0;

/* The number of doubles a BMI variable holds. */
static int values_of(opsplit_gw gw, const char* name) {
  int64_t nbytes = 0;
  int itemsize = 0;
  CHECK(opsplit_gw_bmi_get_var_info(gw, name, NULL, NULL, NULL, &itemsize, &nbytes, NULL));
  return (int)(nbytes / itemsize);
}

/* Moles in the column: dissolved c x porosity x saturation x volume, immobile per litre
 * of cell x volume (the file's units), all from BMI variables. */
static double column_moles(opsplit_gw gw, int n, int ncomp, int nimm, double* work) {
  double total = 0.0;
  double* theta_v = work + (size_t)(ncomp > nimm ? ncomp : nimm) * n;
  double* sat = theta_v + n;
  double* volume = sat + n;
  CHECK(opsplit_gw_bmi_get_value(gw, "Porosity", theta_v));
  CHECK(opsplit_gw_bmi_get_value(gw, "SaturationUser", sat));
  CHECK(opsplit_gw_bmi_get_value(gw, "RepresentativeVolume", volume));
  CHECK(opsplit_gw_bmi_get_value(gw, "Concentrations", work));
  for (int i = 0; i < ncomp * n; i++) total += work[i] * theta_v[i % n] * sat[i % n] * volume[i % n];
  CHECK(opsplit_gw_bmi_get_value(gw, "ImmobileAmounts", work));
  for (int i = 0; i < nimm * n; i++) total += work[i] * volume[i % n];
  return total;
}

int main(int argc, char** argv) {
  char data_dir[4096], setup[4200];
  if (argc > 1) {
    snprintf(setup, sizeof setup, "%s", argv[1]);
  } else {
    if (example_data_dir("groundwater/dechlorinating_column.yaml", data_dir, (int)sizeof data_dir) != 0) return 1;
    snprintf(setup, sizeof setup, "%s/groundwater/dechlorinating_column.yaml", data_dir);
  }
  const double days = argc > 2 ? atof(argv[2]) : 150.0;

  opsplit_context ctx = NULL;
  opsplit_gw gw = NULL;
  CHECK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  CHECK(opsplit_gw_load_yaml(ctx, setup, &gw)); /* BMI initialize */

  int n = 0, ncomp = 0;
  CHECK(opsplit_gw_bmi_get_value(gw, "GridCellCount", &n));
  CHECK(opsplit_gw_bmi_get_value(gw, "ComponentCount", &ncomp));
  const int nimm = values_of(gw, "ImmobileAmounts") / n;
  double start = 0, now = 0, end = 0, step = 0;
  CHECK(opsplit_gw_bmi_get_times(gw, &start, &now, &end, &step));
  printf("%s: %d cells, %d components, %d immobile, %.0f s a step\n", setup, n, ncomp, nimm, step);
  const char* units = NULL;
  CHECK(opsplit_gw_bmi_get_var_info(gw, "Concentrations", NULL, &units, NULL, NULL, NULL, NULL));

  const int steps = (int)lround(days * 86400.0 / step);
  const int plotted = ncomp < 5 ? ncomp : 5;
  double* c = malloc(sizeof(double) * (size_t)ncomp * (size_t)n);
  double* work = malloc(sizeof(double) * ((size_t)(ncomp > nimm ? ncomp : nimm) * (size_t)n + 3 * (size_t)n));
  double* porosity = malloc(sizeof(double) * (size_t)n);
  double* volume = malloc(sizeof(double) * (size_t)n);
  double* t_days = malloc(sizeof(double) * (size_t)steps);
  double* outlet = malloc(sizeof(double) * (size_t)steps * (size_t)plotted);
  if (!c || !work || !porosity || !volume || !t_days || !outlet) return 1;
  CHECK(opsplit_gw_bmi_get_value(gw, "Porosity", porosity));
  CHECK(opsplit_gw_bmi_get_value(gw, "RepresentativeVolume", volume));
  /* The column is saturated (the file): a cell's water is porosity x volume. */
  const double water_in = porosity[0] * volume[0], water_out = porosity[n - 1] * volume[n - 1];

  const double moles0 = column_moles(gw, n, ncomp, nimm, work);
  double entered = 0.0, left = 0.0, worst = 0.0;
  printf("  day   moles in column     in - out + initial   relative difference   (%s)\n", units);
  for (int k = 0; k < steps; k++) {
    CHECK(opsplit_gw_bmi_get_value(gw, "Concentrations", c));
    /* The host's transport: every component moves one cell downstream. */
    const double t = (double)k * step / 86400.0;
    for (int i = 0; i < ncomp; i++) {
      double* ci = c + (size_t)i * (size_t)n;
      left += ci[n - 1] * water_out;
      memmove(ci + 1, ci, sizeof(double) * (size_t)(n - 1));
      ci[0] = (i == 0 && t < pulse_days) ? inlet_pce : 0.0;
      entered += ci[0] * water_in;
    }
    CHECK(opsplit_gw_bmi_set_value(gw, "Concentrations", c));
    CHECK(opsplit_gw_bmi_update(gw));
    CHECK(opsplit_gw_bmi_get_value_at_indices(gw, "Concentrations", work, (int[]){n - 1, 2 * n - 1, 3 * n - 1, 4 * n - 1, 5 * n - 1}, plotted));
    t_days[k] = (double)(k + 1) * step / 86400.0;
    for (int i = 0; i < plotted; i++) outlet[(size_t)i * (size_t)steps + (size_t)k] = work[i];
    const double moles = column_moles(gw, n, ncomp, nimm, work), expected = moles0 + entered - left;
    const double difference = fabs(moles - expected) / (entered > 0 ? entered : 1.0);
    if (difference > worst) worst = difference;
    if ((k + 1) % (int)lround(30 * 86400.0 / step) == 0)
      printf("%5.0f   %.10e   %.10e   %.1e\n", t_days[k], moles, expected, difference);
  }
  CHECK(opsplit_gw_bmi_get_times(gw, NULL, &now, NULL, NULL));
  printf("time %.0f s; the largest mass-balance difference, relative to what entered: %.1e\n", now, worst);
  /* "wrote" only after the balance held and the picture was written (the test reads it). */
  int rc = 1;
  if (worst >= 1e-12) fprintf(stderr, "the mass balance does not hold\n");
  else if (png_plot_lines("groundwater_bmi.png", 640, 400, steps, t_days, plotted, outlet, 0) == 0)
    rc = 0, printf("wrote groundwater_bmi.png\n");
  CHECK(opsplit_gw_destroy(&gw)); /* BMI finalize */
  CHECK(opsplit_context_destroy(&ctx));
  free(c), free(work), free(porosity), free(volume), free(t_days), free(outlet);
  return rc;
}
