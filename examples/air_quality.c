/* A 2D operator-split air-quality run: an opsplit field carries every species of the
 * mechanism with the wind and turbulent diffusion, and an opsplit ODE batch does the
 * chemistry of every cell under a diurnal cycle of sunlight. A city's emissions of NO,
 * NO2 and reactive organics make a plume whose ozone builds up downwind through the day.
 *
 *   air_quality [--nx N] [--hours H] [--out DIR] [--mechanism FILE]
 *
 * The mechanism is read at run time: by default MOZART TS1 as MICM ships it (MICM's v0
 * TS1 configuration: 209 species, 547 reactions; opsplit_mechanism_load_micm), or a KPP
 * file (FILE.def: SAPRC-99's saprc99.def, opsplit_mechanism_load_kpp).
 *
 * N x N cells of 4 km (default 48), periodic, from 06:00 for H hours (default 12) in
 * chemistry steps of 10 minutes. Each step is Lie splitting: transport (opsplit_rd_step:
 * first-order upwind advection by a wind of 4 m/s towards the east and 1 m/s towards the
 * north, diffusion of 200 m^2/s, in as many substeps as the stability bound asks), then
 * chemistry (opsplit_ode_integrate on every cell: RODAS4 at rtol 1e-3, atol 1 molecule/cm^3,
 * as air-quality models run their solvers, each cell keeping its step size between
 * calls). Sunlight follows KPP's Update_SUN (0 before 04:30 and after 19:30, a cosine
 * bell peaking at noon).
 *
 * TS1 (MICM's units: mol/m^3): the start, the temperature, pressure and air density, the
 * noon photolysis rates (each PHOTO.x input scaled by the sun) and the other inputs
 * (aerosol surfaces, user-defined rates) are MICM's own initial_conditions.csv beside the
 * configuration. SAPRC-99 (molecules/cm^3): saprc99.def's inputs (298 K, CFACTOR, AIR,
 * O2, H2O, CH4; SUN the sun) and its initial values (saprc99_kpp.txt's first row) at a
 * tenth but ozone. Either way the city's 3 x 3 cells emit NO, NO2, formaldehyde and
 * organics as the field's sources.
 *
 * Prints a line per hour (the sun; O3 and NO2 in the city and 60 km downwind, ppb; the
 * step's chemistry steps per cell) and writes DIR/air_quality_o3.png and
 * DIR/air_quality_no2.png (maps at the end, ppb, each on its own range) and
 * DIR/air_quality.csv (the hourly lines). Exits 1 when a call fails or a cell's
 * chemistry does. The backend is AUTO (OPSPLIT_BACKEND=cpu|cuda chooses). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opsplit/opsplit.h>

#include "png_slice.h"

#ifndef AIR_QUALITY_MECHANISM
#define AIR_QUALITY_MECHANISM "TS1/config.json"
#endif

#define CFACTOR 2.4476e13 /* molecules/cm^3 per ppm near 298 K and 1 atm (saprc99.def) */

/* KPP's Update_SUN (util/UpdateSun.f90) at `hours` local time. */
static double kpp_sun(double hours) {
  const double t = fmod(hours, 24.0), sunrise = 4.5, sunset = 19.5;
  if (t < sunrise || t > sunset) return 0.0;
  double tau = (2.0 * t - 24.0) / (sunset - sunrise);
  tau = tau > 0 ? tau * tau : -tau * tau;
  return 0.5 * (1.0 + cos(3.14159265358979323846 * tau));
}

/* saprc99.def's initial values: the first row of KPP's trajectory beside the .def
 * (tests/data/kpp/saprc99_kpp.txt: a header of names, then rows of values). */
static int read_initial_values(const char* path, opsplit_mechanism mech, int nspecies, double* y) {
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "air_quality: cannot read %s\n", path);
    return -1;
  }
  enum { kMaxColumns = 256 };
  static char header[1 << 16];
  char* names[kMaxColumns];
  int ncolumns = 0, rc = -1;
  if (fgets(header, sizeof header, f) != NULL)
    for (char* w = strtok(header, " \t\r\n"); w != NULL && ncolumns < kMaxColumns; w = strtok(NULL, " \t\r\n"))
      names[ncolumns++] = w;
  for (int k = 0; k < nspecies; ++k) y[k] = 0.0;
  int found = 0;
  for (int c = 0; c < ncolumns; ++c) {
    double value = 0;
    if (fscanf(f, "%lf", &value) != 1) break;
    int k = -1;
    if (opsplit_mechanism_find_species(mech, names[c], &k) == OPSPLIT_SUCCESS) y[k] = value, ++found;
  }
  if (found == nspecies) rc = 0;
  else fprintf(stderr, "air_quality: %s gives %d of the %d species\n", path, found, nspecies);
  fclose(f);
  return rc;
}

/* MICM's initial_conditions.csv beside a configuration ("KEY,value" lines): CONC.x into
 * y (other species 0), ENV.temperature, ENV.pressure and ENV.air_density into TEMP,
 * PRESS and M, SURF.x,radius,number into SURF.x's two inputs, and every other KEY that
 * names an input (PHOTO.x, USER.x, EMIS.x) into base[].
 * Returns the number of inputs set, -1 when the file cannot be read. */
static int read_micm_conditions(const char* path, opsplit_mechanism mech, int nspecies, double* y, double* base) {
  FILE* f = fopen(path, "r");
  if (f == NULL) {
    fprintf(stderr, "air_quality: cannot read %s\n", path);
    return -1;
  }
  static const char* env[][2] = {{"ENV.temperature", "TEMP"}, {"ENV.pressure", "PRESS"}, {"ENV.air_density", "M"}};
  for (int k = 0; k < nspecies; ++k) y[k] = 0.0;
  char line[512];
  int set = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    char* comma = strchr(line, ',');
    if (comma == NULL) continue;
    *comma = '\0';
    const double value = atof(comma + 1);
    const char* second = strchr(comma + 1, ',');
    if (!strncmp(line, "SURF.", 5) && second != NULL) { /* SURF.x,radius,number: two inputs */
      char label[600];
      const char* suffix[2] = {".effective radius [m]", ".particle number concentration [# m-3]"};
      for (int i = 0; i < 2; ++i) {
        int index = -1;
        snprintf(label, sizeof label, "%s%s", line, suffix[i]);
        if (opsplit_mechanism_find_parameter(mech, label, &index) == OPSPLIT_SUCCESS)
          base[index] = i == 0 ? value : atof(second + 1), ++set;
      }
      continue;
    }
    const char* input = line;
    for (int e = 0; e < 3; ++e)
      if (!strcmp(line, env[e][0])) input = env[e][1];
    int index = -1;
    if (!strncmp(line, "CONC.", 5) && opsplit_mechanism_find_species(mech, line + 5, &index) == OPSPLIT_SUCCESS)
      y[index] = value;
    else if (opsplit_mechanism_find_parameter(mech, input, &index) == OPSPLIT_SUCCESS)
      base[index] = value, ++set;
  }
  fclose(f);
  return set;
}

/* The file beside `config` named `name` ("dir/config.json" -> "dir/name"). */
static void beside(const char* config, const char* name, char* out, size_t size) {
  const char* slash = strrchr(config, '/');
  snprintf(out, size, "%.*s%s", slash ? (int)(slash - config + 1) : 0, config, name);
}

static int ends_with(const char* s, const char* tail) {
  const size_t n = strlen(s), m = strlen(tail);
  return n >= m && !strcmp(s + n - m, tail);
}

static void report(const char* what, opsplit_status status) {
  fprintf(stderr, "air_quality: %s failed: %s: %s\n", what, opsplit_status_string(status),
          opsplit_last_error_message());
}

#define TRY(call)                    \
  do {                               \
    status = (call);                 \
    if (status != OPSPLIT_SUCCESS) { \
      report(#call, status);         \
      goto done;                     \
    }                                \
  } while (0)

/* Sets parameter `name` to value in every system's parameters (AOS); parameters the
 * mechanism does not read are skipped. */
static void set_input(opsplit_mechanism mech, const char* name, double value, double* params, int nparams,
                      int64_t ncells) {
  int q = -1;
  if (opsplit_mechanism_find_parameter(mech, name, &q) != OPSPLIT_SUCCESS) return;
  for (int64_t c = 0; c < ncells; ++c) params[c * nparams + q] = value;
}

int main(int argc, char** argv) {
  int nx = 48, hours = 12;
  const char* out_dir = ".";
  const char* mech_path = AIR_QUALITY_MECHANISM;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--nx") && i + 1 < argc) nx = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--hours") && i + 1 < argc) hours = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_dir = argv[++i];
    else if (!strcmp(argv[i], "--mechanism") && i + 1 < argc) mech_path = argv[++i];
    else nx = -1;
  }
  if (nx < 8 || nx > 4096 || hours < 1) {
    fprintf(stderr, "usage: %s [--nx N in 8..4096] [--hours H >= 1] [--out DIR] [--mechanism FILE]\n", argv[0]);
    return 2;
  }
  const double cell = 4000.0, chemistry_dt = 600.0, start_hour = 6.0;
  const int64_t ncells = (int64_t)nx * nx;
  const int city_x = nx / 4, city_y = nx / 3, downwind = 15; /* 60 km east of the city */
  int rc = 1;
  opsplit_status status = OPSPLIT_SUCCESS;
  opsplit_context ctx = NULL;
  opsplit_mechanism mech = NULL;
  opsplit_field field = NULL;
  opsplit_rd rd = NULL;
  opsplit_ode ode = NULL;
  double *y = NULL, *params = NULL, *base = NULL, *o3 = NULL, *no2 = NULL;
  char* photolysis = NULL; /* per input: a PHOTO.x rate the sun scales (MICM's files) */
  int* results = NULL;
  int64_t* accepted = NULL;
  FILE* csv = NULL;
  char path[4096];

  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  const int kpp = ends_with(mech_path, ".def") || ends_with(mech_path, ".kpp");
  if (kpp)
    TRY(opsplit_mechanism_load_kpp(ctx, mech_path, &mech));
  else
    TRY(opsplit_mechanism_load_micm(ctx, mech_path, &mech));
  int nspecies = 0, nparams = 0;
  TRY(opsplit_mechanism_get_counts(mech, &nspecies, NULL, &nparams));
  int O3 = -1, NO2 = -1;
  TRY(opsplit_mechanism_find_species(mech, "O3", &O3));
  TRY(opsplit_mechanism_find_species(mech, "NO2", &NO2));

  y = malloc(sizeof(double) * (size_t)(ncells * nspecies));
  params = calloc((size_t)(ncells * nparams), sizeof(double));
  base = calloc((size_t)nparams + 1, sizeof(double));
  photolysis = calloc((size_t)nparams + 1, sizeof(char));
  o3 = malloc(sizeof(double) * (size_t)ncells);
  no2 = malloc(sizeof(double) * (size_t)ncells);
  results = malloc(sizeof(int) * (size_t)ncells);
  accepted = malloc(sizeof(int64_t) * (size_t)ncells);
  if (!y || !params || !base || !photolysis || !o3 || !no2 || !results || !accepted) {
    fprintf(stderr, "air_quality: out of memory\n");
    goto done;
  }
  double ppb = 1e3 / CFACTOR; /* ppb per unit of the mechanism's concentrations */
  if (kpp) {
    /* The initial values: the trajectory file beside the .def ("X.def" -> "X_kpp.txt").
     * saprc99.def starts from a polluted urban mix (60 ppb of NO2): the background here is
     * a tenth of it, ozone kept, so that the city's plume stands out. */
    snprintf(path, sizeof path, "%.*s_kpp.txt", (int)(strlen(mech_path) - 4), mech_path);
    if (read_initial_values(path, mech, nspecies, y) != 0) goto done;
    for (int k = 0; k < nspecies; ++k)
      if (k != O3) y[k] *= 0.1;
  } else {
    beside(mech_path, "initial_conditions.csv", path, sizeof path);
    if (read_micm_conditions(path, mech, nspecies, y, base) < 0) goto done;
    for (int q = 0; q < nparams; ++q) { /* the inputs the sun scales: PHOTO.x */
      const char* name = NULL;
      TRY(opsplit_mechanism_get_parameter_name(mech, q, &name));
      photolysis[q] = !strncmp(name, "PHOTO.", 6);
    }
    ppb = 1e9 / base[2]; /* M, the air density: TEMP, PRESS and M are a MICM mechanism's inputs 0, 1 and 2 */
  }
  for (int64_t c = 1; c < ncells; ++c) memcpy(y + c * nspecies, y, sizeof(double) * (size_t)nspecies);

  /* Transport: every species on the field, the wind and diffusion for all alike. */
  TRY(opsplit_field_create(ctx, nx, nx, 1, nspecies, OPSPLIT_FLOAT64, &field));
  TRY(opsplit_field_set_spacing(field, cell, cell, cell));
  TRY(opsplit_rd_create(ctx, nspecies, &rd));
  for (int s = 0; s < nspecies; ++s) {
    TRY(opsplit_rd_set_diffusion(rd, s, 200.0));
    for (int face = OPSPLIT_FACE_XLO; face <= OPSPLIT_FACE_ZHI; ++face)
      TRY(opsplit_rd_set_boundary(rd, (opsplit_face)face, s, OPSPLIT_BC_PERIODIC, 0.0));
  }
  TRY(opsplit_rd_set_velocity(rd, 0, 4.0, 0.0, 0.0, 0.0));
  TRY(opsplit_rd_set_velocity(rd, 1, 1.0, 0.0, 0.0, 0.0));
  /* The city: 3 x 3 cells emitting NO, NO2, formaldehyde, alkanes, aromatics and alkenes
   * (each mechanism's names for them) as the field's sources, in molecules/cm^3/s in
   * each cell (for TS1 in mol/m^3/s: 1 molecule/cm^3 is 1e6/N_A mol/m^3). */
  {
    static const char* saprc99[] = {"NO", "NO2", "HCHO", "ALK4", "ARO1", "OLE1", "ETHENE"};
    static const char* ts1[] = {"NO", "NO2", "CH2O", "BIGALK", "TOLUENE", "C3H6", "C2H4"};
    static const double rate[] = {2e8, 2e7, 1e7, 5e7, 2e7, 2e7, 2e7};
    const double unit = kpp ? 1.0 : 1e6 / 6.02214076e23;
    for (int e = 0; e < (int)(sizeof rate / sizeof rate[0]); ++e) {
      int s = -1;
      TRY(opsplit_mechanism_find_species(mech, kpp ? saprc99[e] : ts1[e], &s));
      for (int dx = -1; dx <= 1; ++dx)
        for (int dy = -1; dy <= 1; ++dy) TRY(opsplit_rd_add_source(rd, s, city_x + dx, city_y + dy, 0, rate[e] * unit));
    }
  }
  TRY(opsplit_field_upload(field, y, OPSPLIT_LAYOUT_INTERLEAVED));
  double stable = 0;
  TRY(opsplit_rd_max_stable_dt(rd, field, &stable));
  const int64_t substeps = (int64_t)ceil(chemistry_dt / (0.9 * stable));

  /* Chemistry: every cell a system. atol 1 molecule/cm^3 in the mechanism's units. */
  TRY(opsplit_ode_create(ctx, nspecies, ncells, nparams, &ode));
  TRY(opsplit_ode_set_mechanism(ode, mech));
  TRY(opsplit_ode_set_tolerances(ode, 1e-3, kpp ? 1.0 : 1e6 / 6.02214076e23));
  TRY(opsplit_ode_set_keep_step(ode, 1));
  if (kpp) {
    set_input(mech, "TEMP", 298.0, params, nparams, ncells);
    set_input(mech, "CFACTOR", CFACTOR, params, nparams, ncells);
    set_input(mech, "AIR", 1e6 * CFACTOR, params, nparams, ncells);
    set_input(mech, "O2", 2.09e5 * CFACTOR, params, nparams, ncells);
    set_input(mech, "H2O", 2e4 * CFACTOR, params, nparams, ncells);
    set_input(mech, "CH4", 1.0 * CFACTOR, params, nparams, ncells);
  }

  snprintf(path, sizeof path, "%s/air_quality.csv", out_dir);
  csv = fopen(path, "w");
  if (csv == NULL) {
    fprintf(stderr, "air_quality: cannot write %s\n", path);
    goto done;
  }
  fprintf(csv, "hour,sun,o3_city_ppb,no2_city_ppb,o3_downwind_ppb,no2_downwind_ppb,chemistry_steps_per_cell\n");
  printf("%d x %d cells of %.0f km, %s (%d species), %lld transport substeps of %.0f s per 10-minute step\n", nx, nx,
         cell / 1000, mech_path, nspecies, (long long)substeps, chemistry_dt / (double)substeps);
  printf(" hour   SUN   O3 city  NO2 city  O3 downwind  NO2 downwind (ppb)  chemistry steps/cell\n");
  const int steps_per_hour = (int)(3600.0 / chemistry_dt);
  const int64_t city = (int64_t)city_y * nx + city_x, far = (int64_t)city_y * nx + (city_x + downwind) % nx;
  for (int step = 0; step < hours * steps_per_hour; ++step) {
    const double hour = start_hour + step * chemistry_dt / 3600.0;
    TRY(opsplit_rd_step(rd, field, chemistry_dt / (double)substeps, substeps));
    TRY(opsplit_field_download(field, y, OPSPLIT_LAYOUT_INTERLEAVED));
    const double sun = kpp_sun(hour + 0.5 * chemistry_dt / 3600.0);
    if (kpp) {
      set_input(mech, "SUN", sun, params, nparams, ncells);
    } else { /* MICM's inputs: its noon photolysis times the sun, the others as the file gives them */
      for (int q = 0; q < nparams; ++q) {
        const double value = base[q] * (photolysis[q] ? sun : 1.0);
        for (int64_t c = 0; c < ncells; ++c) params[c * nparams + q] = value;
      }
    }
    TRY(opsplit_ode_set_state(ode, y, OPSPLIT_ODE_AOS));
    TRY(opsplit_ode_set_parameters(ode, params, OPSPLIT_ODE_AOS));
    TRY(opsplit_ode_integrate(ode, 0.0, chemistry_dt));
    TRY(opsplit_ode_get_state(ode, y, OPSPLIT_ODE_AOS));
    TRY(opsplit_field_upload(field, y, OPSPLIT_LAYOUT_INTERLEAVED));
    if ((step + 1) % steps_per_hour == 0) {
      TRY(opsplit_ode_get_results(ode, results, accepted, NULL, NULL, NULL));
      double steps = 0;
      for (int64_t c = 0; c < ncells; ++c) steps += (double)accepted[c];
      const double end = hour + chemistry_dt / 3600.0;
      const double row[4] = {y[city * nspecies + O3] * ppb, y[city * nspecies + NO2] * ppb,
                             y[far * nspecies + O3] * ppb, y[far * nspecies + NO2] * ppb};
      printf("%5.1f  %.2f  %8.2f  %8.2f  %11.2f  %12.2f  %20.1f\n", end, kpp_sun(end), row[0], row[1], row[2], row[3],
             steps / (double)ncells);
      fprintf(csv, "%.2f,%.4f,%.6g,%.6g,%.6g,%.6g,%.2f\n", end, kpp_sun(end), row[0], row[1], row[2], row[3],
              steps / (double)ncells);
      fflush(stdout);
    }
  }
  for (int64_t c = 0; c < ncells; ++c) {
    o3[c] = y[c * nspecies + O3] * ppb;
    no2[c] = y[c * nspecies + NO2] * ppb;
  }
  snprintf(path, sizeof path, "%s/air_quality_o3.png", out_dir);
  if (png_slice_write(path, o3, nx, nx, 0, 0) != 0) goto done;
  snprintf(path, sizeof path, "%s/air_quality_no2.png", out_dir);
  if (png_slice_write(path, no2, nx, nx, 0, 0) != 0) goto done;
  printf("wrote %s/air_quality_o3.png, air_quality_no2.png and air_quality.csv\n", out_dir);
  rc = 0;

done:
  if (csv) fclose(csv);
  free(y), free(params), free(base), free(photolysis), free(o3), free(no2), free(results), free(accepted);
  opsplit_ode_destroy(&ode);
  opsplit_rd_destroy(&rd);
  opsplit_field_destroy(&field);
  opsplit_mechanism_destroy(&mech);
  opsplit_context_destroy(&ctx);
  return rc;
}
