/* The four reaction-diffusion problems of seed 000 (Molnar et al. 2011, Table 1) and the
 * 3D Cahn-Hilliard of seed 003 (Playne & Hawick 2009), run at their parameters with the
 * seeds' 19-point stencil, writing a PNG of a mid-plane slice at a few times.
 *
 *   seed_problems PROBLEM [--n N] [--steps S] [--frames F] [--float] [--prefix P]
 *   PROBLEM: diffusion | turing | precipitation | advection | cahn_hilliard
 *
 * N^3 cells (default 128; advection: 2N x N x N, like the seed's long 144x144x384 box,
 * pictured as log10 of the largest value over y, an x-z view of the whole plume);
 * S steps in all (default: the step count of the seed's figure); F pictures, equally
 * spaced (default 4), written as P<problem>_<step>.png with P = "" by default. The
 * backend is AUTO (CUDA when a GPU is usable; OPSPLIT_BACKEND=cpu|cuda chooses). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <opsplit/opsplit.h>

#include "png_slice.h"

#define TRY(call)                                                       \
  do {                                                                  \
    if ((call) != OPSPLIT_SUCCESS) {                                    \
      fprintf(stderr, "seed_problems: %s\n", opsplit_last_error_message()); \
      return 1;                                                         \
    }                                                                   \
  } while (0)

struct problem {
  const char* name;
  int ncomp, shown;  /* components; the one pictured */
  double h, dt;      /* spacing; dt (0: 0.9 of the stable limit) */
  long steps;        /* the seed figure's step count */
  double lo, hi;     /* the colour scale (lo == hi: each picture's range) */
  int plume;         /* 1: log10 of the largest value over y (x-z), else the middle x-y plane */
};

static const struct problem problems[] = {
    {"diffusion", 1, 0, 1.0, 0.02, 5000, 0.0, 1.0, 0},         /* Fig. 2: t = 5e3 steps */
    {"turing", 2, 0, 6.2e-3, 5e-4, 200000, 0.0, 0.0, 0},       /* Fig. 5: 2e5 steps */
    {"precipitation", 3, 2, 1.0, 0.02, 90000, -1.0, 1.0, 0},   /* Fig. 6: 9e4 steps */
    {"advection", 1, 0, 100.0, 5.0, 400, -4.0, 2.0, 1},        /* Fig. 7: the wind crosses the box */
    {"cahn_hilliard", 1, 0, 1.0, 0.0, 20000, -1.0, 1.0, 0},    /* seed 003 */
};

/* Uniform in [-1, 1): a fixed generator, so runs repeat. */
static double noise(unsigned long long* state) {
  *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*state >> 11) / 4503599627370496.0 - 1.0;
}

static int configure(const struct problem* p, opsplit_rd rd, long nx, long ny, long nz, double* init) {
  const long cells = nx * ny * nz;
  unsigned long long state = 2011;
  TRY(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  if (!strcmp(p->name, "diffusion")) {
    TRY(opsplit_rd_set_diffusion(rd, 0, 1.0));
    for (long k = 0; k < nz; ++k)
      for (long j = 0; j < ny; ++j)
        for (long i = 0; i < nx; ++i) {
          const double x = i - (nx - 1) / 2.0, y = j - (ny - 1) / 2.0, z = k - (nz - 1) / 2.0;
          init[(k * ny + j) * nx + i] = x * x + y * y + z * z <= 400.0 ? 1.0 : 0.0;
        }
  } else if (!strcmp(p->name, "turing")) {
    TRY(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING)); /* alpha 0.5, beta 0.09, gamma 26 */
    TRY(opsplit_rd_set_diffusion(rd, 0, 5e-5));
    TRY(opsplit_rd_set_diffusion(rd, 1, 5e-3));
    for (long c = 0; c < 2 * cells; ++c) init[c] = 1.0 + 5e-4 * noise(&state);
  } else if (!strcmp(p->name, "precipitation")) {
    TRY(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_PRECIPITATION)); /* Table 1's k1, k2, lambda.. */
    TRY(opsplit_rd_set_diffusion(rd, 0, 1.0));
    TRY(opsplit_rd_set_diffusion(rd, 1, 1.0));
    TRY(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, 10.0));
    for (long c = 0; c < cells; ++c) init[c] = 0.0, init[cells + c] = 1.0, init[2 * cells + c] = -1.0;
  } else if (!strcmp(p->name, "advection")) {
    TRY(opsplit_rd_set_diffusion(rd, 0, 100.0));
    TRY(opsplit_rd_set_velocity(rd, 0, 5.0, 0.0, 0.0, 0.0));
    TRY(opsplit_rd_set_velocity(rd, 1, 1.0, 0.0, 0.0, 0.0));
    TRY(opsplit_rd_set_velocity(rd, 2, 0.0, 5.0, 1.0 / 500.0, 0.0)); /* 5 sin(t / 500 s) */
    TRY(opsplit_rd_add_source(rd, 0, nx / 16, ny / 4, nz / 2, 10.0));
    for (long c = 0; c < cells; ++c) init[c] = 0.0;
  } else {
    TRY(opsplit_rd_set_cahn_hilliard(rd, 0, 1.0, 1.0, 1.0, 1.0));
    for (long c = 0; c < cells; ++c) init[c] = 0.1 * noise(&state);
  }
  return 0;
}

int main(int argc, char** argv) {
  const struct problem* p = NULL;
  long n = 128, steps = -1, frames = 4;
  int use_float = 0;
  const char* prefix = "";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--n") && i + 1 < argc) n = atol(argv[++i]);
    else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atol(argv[++i]);
    else if (!strcmp(argv[i], "--frames") && i + 1 < argc) frames = atol(argv[++i]);
    else if (!strcmp(argv[i], "--prefix") && i + 1 < argc) prefix = argv[++i];
    else if (!strcmp(argv[i], "--float")) use_float = 1;
    else
      for (size_t k = 0; k < sizeof problems / sizeof problems[0]; ++k)
        if (!strcmp(argv[i], problems[k].name)) p = &problems[k];
  }
  if (!p || n < 8 || frames < 1) {
    fprintf(stderr,
            "usage: %s diffusion|turing|precipitation|advection|cahn_hilliard [--n N >= 8] [--steps S] "
            "[--frames F >= 1] [--float] [--prefix P]\n",
            argv[0]);
    return 2;
  }
  if (steps < 0) steps = p->steps;
  const long nx = p->plume ? 2 * n : n, ny = n, nz = n, cells = nx * ny * nz;
  double* init = malloc(sizeof(double) * (size_t)(cells * p->ncomp));
  float* init_f = use_float ? malloc(sizeof(float) * (size_t)(cells * p->ncomp)) : NULL;
  const long slice_cells = p->plume ? nx * nz : nx * ny;
  double* slice = malloc(sizeof(double) * (size_t)slice_cells);
  if (!init || !slice || (use_float && !init_f)) {
    fprintf(stderr, "seed_problems: out of memory\n");
    return 1;
  }

  opsplit_context ctx = NULL;
  opsplit_field field = NULL;
  opsplit_rd rd = NULL;
  opsplit_backend backend;
  TRY(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  TRY(opsplit_context_get_backend(ctx, &backend));
  TRY(opsplit_field_create(ctx, nx, ny, nz, p->ncomp, use_float ? OPSPLIT_FLOAT32 : OPSPLIT_FLOAT64, &field));
  TRY(opsplit_field_set_spacing(field, p->h, p->h, p->h));
  TRY(opsplit_rd_create(ctx, p->ncomp, &rd));
  if (configure(p, rd, nx, ny, nz, init)) return 1;
  if (use_float) {
    for (long c = 0; c < cells * p->ncomp; ++c) init_f[c] = (float)init[c];
    TRY(opsplit_field_upload(field, init_f, OPSPLIT_LAYOUT_PLANAR));
  } else {
    TRY(opsplit_field_upload(field, init, OPSPLIT_LAYOUT_PLANAR));
  }
  double dt = p->dt;
  if (dt == 0.0) {
    TRY(opsplit_rd_max_stable_dt(rd, field, &dt));
    dt *= 0.9;
  }
  printf("%s: %ldx%ldx%ld cells, %ld steps of dt = %g, %s, backend %s\n", p->name, nx, ny, nz, steps, dt,
         use_float ? "float32" : "float64", backend == OPSPLIT_BACKEND_CUDA ? "CUDA" : "CPU");
  printf("%10s %12s %16s %14s %14s  %s\n", "step", "time", "sum", "min", "max", "picture");

  for (long frame = 0; frame <= frames; ++frame) {
    const long target = steps * frame / frames;
    double t = 0, sum = 0, lo = 0, hi = 0;
    TRY(opsplit_rd_get_time(rd, &t));
    const long done = (long)llround(t / dt);
    if (target > done) TRY(opsplit_rd_step(rd, field, dt, target - done));
    TRY(opsplit_rd_get_time(rd, &t));
    TRY(opsplit_field_component_sum(field, p->shown, &sum));
    TRY(opsplit_field_component_min_max(field, p->shown, &lo, &hi));
    if (use_float) {
      TRY(opsplit_field_download(field, init_f, OPSPLIT_LAYOUT_PLANAR));
      for (long c = 0; c < cells * p->ncomp; ++c) init[c] = init_f[c];
    } else {
      TRY(opsplit_field_download(field, init, OPSPLIT_LAYOUT_PLANAR));
    }
    const double* comp = init + (size_t)p->shown * cells;
    if (p->plume)
      for (long k = 0; k < nz; ++k)
        for (long i = 0; i < nx; ++i) {
          double top = 1e-30;
          for (long j = 0; j < ny; ++j) top = fmax(top, comp[(k * ny + j) * nx + i]);
          slice[k * nx + i] = log10(top);
        }
    else
      memcpy(slice, comp + (size_t)(nz / 2) * nx * ny, sizeof(double) * (size_t)slice_cells);
    char path[512];
    snprintf(path, sizeof path, "%s%s_%ld.png", prefix, p->name, target);
    if (png_slice_write(path, slice, (int)nx, (int)(p->plume ? nz : ny), p->lo, p->hi)) return 1;
    printf("%10ld %12.4g %16.8g %14.6g %14.6g  %s\n", target, t, sum, lo, hi, path);
    fflush(stdout);
  }
  free(init);
  free(init_f);
  free(slice);
  TRY(opsplit_rd_destroy(&rd));
  TRY(opsplit_field_destroy(&field));
  TRY(opsplit_context_destroy(&ctx));
  return 0;
}
