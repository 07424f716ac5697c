/* The Mt Etna 2006 lava flow with SCIARA-fv2 (ca.h): the dataset's terrain, parameters,
 * vents and daily emission rates (data/etna2006), run day by day (or with
 * SCIARA-fv3, --fv3: the thesis' parameters, its adaptive clock); prints the
 * volumes and the mass balance each day, then scores the covered cells against the real
 * flow's map (e1 = sqrt(|R & S| / |R | S|)) and writes a map: hillshaded terrain, lava
 * thickness (fluid and solidified), the real flow's outline in white.
 *
 *   lava_etna [--fv3] [--data DIR] [--days N] [--out FILE.png]
 * DIR holds etna2006/ (default: the data folder, examples/example_data.h); N days
 * (default 15, the whole schedule); FILE default lava_etna.png. The backend is AUTO:
 * CUDA when a GPU is usable; OPSPLIT_BACKEND=cpu|cuda chooses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opsplit/opsplit.h>

#include "example_data.h"
#include "lava_map.h"

enum { kRows = 378, kCols = 517 };

#define TRY(call)                                                      \
  do {                                                                 \
    if ((call) != OPSPLIT_SUCCESS) {                                   \
      fprintf(stderr, "lava_etna: %s\n", opsplit_last_error_message()); \
      return 1;                                                        \
    }                                                                  \
  } while (0)

static double now(void) {
  struct timespec t;
  timespec_get(&t, TIME_UTC);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char** argv) {
  char found[4096];
  const char* data = NULL;
  const char* out = "lava_etna.png";
  int days = 15, fv3 = 0;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--fv3")) fv3 = 1;
    else if (!strcmp(argv[i], "--data") && i + 1 < argc) data = argv[++i];
    else if (!strcmp(argv[i], "--days") && i + 1 < argc) days = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out = argv[++i];
    else {
      fprintf(stderr, "usage: %s [--fv3] [--data DIR] [--days N] [--out FILE.png]\n", argv[0]);
      return 2;
    }
  }
  if (days < 1) {
    fprintf(stderr, "lava_etna: --days must be >= 1\n");
    return 2;
  }
  if (data == NULL) {
    if (example_data_dir("etna2006/PARAMETERS.cfg", found, sizeof found) != 0) {
      fprintf(stderr, "lava_etna: the data folder's name is too long\n");
      return 1;
    }
    data = found;
  }
  printf("data %s/etna2006\n", data);
  char path[4][4200];
  const char* files[4] = {"PARAMETERS.cfg", "MORPHOLOGY.stt", "VENTS.stt", "EMISSIONS_RATE.stt"};
  for (int f = 0; f < 4; ++f) snprintf(path[f], sizeof path[f], "%s/etna2006/%s", data, files[f]);

  opsplit_context ctx = NULL;
  opsplit_ca ca = NULL;
  opsplit_backend backend;
  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  TRY(opsplit_context_get_backend(ctx, &backend));
  TRY(opsplit_ca_create(ctx, fv3 ? OPSPLIT_CA_SCIARA_FV3 : OPSPLIT_CA_SCIARA_FV2, kRows, kCols, &ca));
  if (!fv3) TRY(opsplit_ca_load_parameters(ca, path[0])); /* fv3: its defaults, the thesis' table */
  TRY(opsplit_ca_load_substate(ca, "altitude", path[1]));
  TRY(opsplit_ca_load_vents(ca, path[2], path[3]));
  double pc = 0;
  TRY(opsplit_ca_get_parameter(ca, "Pc", &pc));
  printf("Etna 2006, SCIARA-fv%d on %d x %d cells of %g m, backend %s\n", fv3 ? 3 : 2, kRows, kCols, pc,
         backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");
  printf("%4s %8s %14s %14s %14s %10s %12s\n", "day", "steps", "emitted m3", "fluid m3", "solid m3", "lost m3",
         "imbalance");

  double elapsed = 0, worst = 0;
  for (int day = 1; day <= days; ++day) {
    const double t0 = now();
    TRY(opsplit_ca_run_until(ca, day * 86400.0));
    elapsed += now() - t0;
    int64_t steps = 0;
    double e, l, s, o;
    TRY(opsplit_ca_get_steps(ca, &steps));
    TRY(opsplit_ca_get_volumes(ca, &e, &l, &s, &o));
    const double imbalance = e > 0 ? fabs(e - (l + s + o)) / e : 0;
    if (imbalance > worst) worst = imbalance;
    printf("%4d %8lld %14.1f %14.1f %14.1f %10.1f %12.2e\n", day, (long long)steps, e, l, s, o, imbalance);
  }

  static double altitude[kRows * kCols], fluid[kRows * kCols], solid[kRows * kCols], lava[kRows * kCols];
  static unsigned char real[kRows * kCols];
  TRY(opsplit_ca_get_substate(ca, "altitude", altitude, OPSPLIT_CA_ROW_MAJOR));
  TRY(opsplit_ca_get_substate(ca, "thickness", fluid, OPSPLIT_CA_ROW_MAJOR));
  TRY(opsplit_ca_get_substate(ca, "solidified", solid, OPSPLIT_CA_ROW_MAJOR));
  char real_path[4200];
  snprintf(real_path, sizeof real_path, "%s/etna2006/2006_000000000000_RealEvent.stt", data);
  if (lava_map_read_mask(real_path, real, kRows, kCols) < 0) return 1;
  long both = 0, either = 0, simulated = 0;
  for (long i = 0; i < kRows * kCols; ++i) {
    lava[i] = fluid[i] + solid[i];
    const int sim = lava[i] > 0;
    simulated += sim, both += sim && real[i], either += sim || real[i];
  }
  printf("worst imbalance %.2e; %d days in %.3f s\n", worst, days, elapsed);
  printf("covered %ld cells; real flow %ld; e1 = sqrt(%ld / %ld) = %.4f\n", simulated,
         either - simulated + both, both, either, sqrt((double)both / (double)either));
  if (lava_map_write(out, altitude, lava, real, kRows, kCols, pc, 2) != 0) return 1;
  printf("map: %s\n", out);
  TRY(opsplit_ca_destroy(&ca));
  TRY(opsplit_context_destroy(&ctx));
  return worst < 1e-12 ? 0 : 3;
}
