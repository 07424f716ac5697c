/* C-API tests of fields and reaction-diffusion models: every entry point with bad
 * input gets the right status and a message naming the argument, and leaves the
 * objects usable (checked by a final step whose result is verified). */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"

#define N 6
#define CELLS (N * N * N)

int main(void) {
  opsplit_context ctx = NULL, other = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_CPU, &other));
  opsplit_field field = NULL, out = NULL;
  const char* create = "opsplit_field_create";

  /* ---- opsplit_field_create ---- */
  EXPECT_ERROR(opsplit_field_create(NULL, N, N, N, 1, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_HANDLE, create, "ctx");
  EXPECT_ERROR(opsplit_field_create(ctx, N, N, N, 1, OPSPLIT_FLOAT64, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "field is NULL");
  EXPECT_ERROR(opsplit_field_create(ctx, 0, N, N, 1, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "nx");
  EXPECT_ERROR(opsplit_field_create(ctx, N, -3, N, 1, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_ARGUMENT, create, "-3");
  EXPECT_ERROR(opsplit_field_create(ctx, N, N, 0, 1, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_ARGUMENT, create, ">= 1");
  EXPECT_ERROR(opsplit_field_create(ctx, N, N, N, 0, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "ncomp=0");
  EXPECT_ERROR(opsplit_field_create(ctx, N, N, N, -1, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "ncomp=-1");
  EXPECT_ERROR(opsplit_field_create(ctx, N, N, N, 1, (opsplit_precision)2, &out), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "precision=2");
  EXPECT_ERROR(opsplit_field_create(ctx, (int64_t)1 << 22, (int64_t)1 << 22, (int64_t)1 << 22, 1, OPSPLIT_FLOAT64, &out),
               OPSPLIT_ERROR_INVALID_ARGUMENT, create, "overflows");
  EXPECT_ERROR(opsplit_field_create(ctx, INT64_MAX, 1, 1, 1, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_ARGUMENT,
               create, "overflows");
  /* 8 PiB: fits in 64 bits, not in any memory. */
  EXPECT_ERROR(opsplit_field_create(ctx, (int64_t)1 << 20, (int64_t)1 << 20, (int64_t)1 << 10, 1, OPSPLIT_FLOAT64, &out),
               OPSPLIT_ERROR_OUT_OF_MEMORY, create, "bytes");
  /* 1 TiB: refused before anything is allocated (host memory granted lazily would be
   * killed when touched; the device's cudaMalloc says no). */
  EXPECT_ERROR(opsplit_field_create(ctx, (int64_t)1 << 14, (int64_t)1 << 14, (int64_t)1 << 9, 1, OPSPLIT_FLOAT64, &out),
               OPSPLIT_ERROR_OUT_OF_MEMORY, create, "bytes");
  EXPECT_ERROR(opsplit_field_create(ctx, N, N, N, 4097, OPSPLIT_FLOAT64, &out), OPSPLIT_ERROR_INVALID_ARGUMENT, create,
               "ncomp=4097 is not in [1, 4096]");
  CHECK(out == NULL);
  CHECK_OK(opsplit_field_create(ctx, N, N, N, 1, OPSPLIT_FLOAT64, &field));

  /* ---- spacing, shape, precision ---- */
  const char* spacing = "opsplit_field_set_spacing";
  EXPECT_ERROR(opsplit_field_set_spacing(NULL, 1, 1, 1), OPSPLIT_ERROR_INVALID_HANDLE, spacing, "field");
  EXPECT_ERROR(opsplit_field_set_spacing(field, 0.0, 1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, spacing, "hx=0");
  EXPECT_ERROR(opsplit_field_set_spacing(field, 1, -1.0, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, spacing, "hy=-1");
  EXPECT_ERROR(opsplit_field_set_spacing(field, 1, 1, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, spacing, "hz=nan");
  EXPECT_ERROR(opsplit_field_set_spacing(field, INFINITY, 1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, spacing, "hx=inf");
  /* Subnormal, or so small or large that h^2 or 1/h^2 is not a normal double (1e-320 once
   * made max_stable_dt +inf and the next step fail). */
  EXPECT_ERROR(opsplit_field_set_spacing(field, 1e-320, 1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, spacing,
               "hx=9.99989e-321 is not in [1e-150, 1e+150]");
  EXPECT_ERROR(opsplit_field_set_spacing(field, 1, 1e-200, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, spacing, "hy=1e-200");
  EXPECT_ERROR(opsplit_field_set_spacing(field, 1, 1, 1e200), OPSPLIT_ERROR_INVALID_ARGUMENT, spacing, "hz=1e+200");
  CHECK_OK(opsplit_field_set_spacing(field, 1e-150, 1e150, 1e-3));
  CHECK_OK(opsplit_field_set_spacing(field, 1, 1, 1));
  double hx = 0, hy = 0, hz = 0;
  CHECK_OK(opsplit_field_get_spacing(field, &hx, &hy, &hz));
  CHECK(hx == 1.0 && hy == 1.0 && hz == 1.0); /* the failed calls changed nothing */
  EXPECT_ERROR(opsplit_field_get_spacing(field, &hx, NULL, &hz), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_field_get_spacing", "hy");
  EXPECT_ERROR(opsplit_field_get_spacing(NULL, &hx, &hy, &hz), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_field_get_spacing", "field");
  int64_t nx, ny, nz;
  int ncomp;
  EXPECT_ERROR(opsplit_field_get_shape(field, &nx, &ny, &nz, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_field_get_shape", "ncomp");
  EXPECT_ERROR(opsplit_field_get_shape(NULL, &nx, &ny, &nz, &ncomp), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_field_get_shape", "field");
  opsplit_precision prec;
  EXPECT_ERROR(opsplit_field_get_precision(field, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_field_get_precision",
               "precision");
  EXPECT_ERROR(opsplit_field_get_precision(NULL, &prec), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_field_get_precision",
               "field");

  /* ---- upload, download, sums ---- */
  double* host = malloc(sizeof(double) * CELLS);
  double* back = malloc(sizeof(double) * CELLS);
  for (int i = 0; i < CELLS; ++i) host[i] = (i % 7) * 0.25;
  EXPECT_ERROR(opsplit_field_upload(field, NULL, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_field_upload", "host");
  EXPECT_ERROR(opsplit_field_upload(field, host, (opsplit_layout)5), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_field_upload", "layout=5");
  EXPECT_ERROR(opsplit_field_upload(NULL, host, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_field_upload", "field");
  CHECK_OK(opsplit_field_upload(field, host, OPSPLIT_LAYOUT_PLANAR));
  EXPECT_ERROR(opsplit_field_download(field, NULL, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_field_download", "host");
  EXPECT_ERROR(opsplit_field_download(field, back, (opsplit_layout)-1), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_field_download", "layout=-1");
  EXPECT_ERROR(opsplit_field_download(NULL, back, OPSPLIT_LAYOUT_PLANAR), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_field_download", "field");
  double sum = -1;
  const char* csum = "opsplit_field_component_sum";
  EXPECT_ERROR(opsplit_field_component_sum(field, 1, &sum), OPSPLIT_ERROR_INVALID_ARGUMENT, csum, "comp=1");
  EXPECT_ERROR(opsplit_field_component_sum(field, -1, &sum), OPSPLIT_ERROR_INVALID_ARGUMENT, csum, "comp=-1");
  EXPECT_ERROR(opsplit_field_component_sum(field, 0, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, csum, "sum");
  EXPECT_ERROR(opsplit_field_component_sum(NULL, 0, &sum), OPSPLIT_ERROR_INVALID_HANDLE, csum, "field");
  CHECK(sum == -1);

  /* ---- opsplit_rd_create and setters ---- */
  opsplit_rd rd = NULL, rd_out = NULL, rd2 = NULL;
  EXPECT_ERROR(opsplit_rd_create(ctx, 0, &rd_out), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_create", "ncomp=0");
  /* INT_MAX components once asked for about 206 GB of tables before saying anything. */
  EXPECT_ERROR(opsplit_rd_create(ctx, INT_MAX, &rd_out), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_create",
               "ncomp=2147483647 is not in [1, 4096]");
  EXPECT_ERROR(opsplit_rd_create(ctx, 1, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_create", "rd is NULL");
  EXPECT_ERROR(opsplit_rd_create(NULL, 1, &rd_out), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_rd_create", "ctx");
  CHECK(rd_out == NULL);
  CHECK_OK(opsplit_rd_create(ctx, 1, &rd));
  CHECK_OK(opsplit_rd_create(ctx, 2, &rd2));
  EXPECT_ERROR(opsplit_rd_set_stencil(rd, (opsplit_stencil)9), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_set_stencil",
               "stencil=9");
  EXPECT_ERROR(opsplit_rd_set_stencil(NULL, OPSPLIT_STENCIL_7POINT), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_rd_set_stencil", "rd");
  const char* diff = "opsplit_rd_set_diffusion";
  EXPECT_ERROR(opsplit_rd_set_diffusion(rd, 1, 1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, diff, "comp=1");
  EXPECT_ERROR(opsplit_rd_set_diffusion(rd, -1, 1.0), OPSPLIT_ERROR_INVALID_ARGUMENT, diff, "comp=-1");
  EXPECT_ERROR(opsplit_rd_set_diffusion(rd, 0, NAN), OPSPLIT_ERROR_INVALID_ARGUMENT, diff, "coefficient=nan");
  EXPECT_ERROR(opsplit_rd_set_diffusion(rd, 0, INFINITY), OPSPLIT_ERROR_INVALID_ARGUMENT, diff, "coefficient=inf");
  EXPECT_ERROR(opsplit_rd_set_diffusion(rd, 0, -0.5), OPSPLIT_ERROR_INVALID_ARGUMENT, diff, "coefficient=-0.5");
  EXPECT_ERROR(opsplit_rd_set_diffusion(NULL, 0, 1.0), OPSPLIT_ERROR_INVALID_HANDLE, diff, "rd");
  CHECK_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
  const char* bnd = "opsplit_rd_set_boundary";
  EXPECT_ERROR(opsplit_rd_set_boundary(rd, (opsplit_face)6, 0, OPSPLIT_BC_NOFLUX, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, bnd,
               "face=6");
  EXPECT_ERROR(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 3, OPSPLIT_BC_NOFLUX, 0), OPSPLIT_ERROR_INVALID_ARGUMENT,
               bnd, "comp=3");
  EXPECT_ERROR(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 0, (opsplit_bc)3, 0), OPSPLIT_ERROR_INVALID_ARGUMENT, bnd,
               "bc=3");
  EXPECT_ERROR(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, NAN),
               OPSPLIT_ERROR_INVALID_ARGUMENT, bnd, "value=nan");
  EXPECT_ERROR(opsplit_rd_set_boundary(NULL, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_NOFLUX, 0), OPSPLIT_ERROR_INVALID_HANDLE,
               bnd, "rd");

  /* ---- max_stable_dt and step ---- */
  double dt = 0;
  const char* msd = "opsplit_rd_max_stable_dt";
  EXPECT_ERROR(opsplit_rd_max_stable_dt(rd, field, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, msd, "dt");
  EXPECT_ERROR(opsplit_rd_max_stable_dt(NULL, field, &dt), OPSPLIT_ERROR_INVALID_HANDLE, msd, "rd");
  EXPECT_ERROR(opsplit_rd_max_stable_dt(rd, NULL, &dt), OPSPLIT_ERROR_INVALID_HANDLE, msd, "field");
  EXPECT_ERROR(opsplit_rd_max_stable_dt(rd2, field, &dt), OPSPLIT_ERROR_INVALID_ARGUMENT, msd, "ncomp");
  CHECK_OK(opsplit_rd_max_stable_dt(rd, field, &dt));
  CHECK(fabs(dt - 1.0 / 6.0) < 1e-15); /* 7-point, h = 1, D = 1: 1/(2 D sum 1/h^2) */
  opsplit_field foreign = NULL;
  CHECK_OK(opsplit_field_create(other, N, N, N, 1, OPSPLIT_FLOAT64, &foreign));
  EXPECT_ERROR(opsplit_rd_max_stable_dt(rd, foreign, &dt), OPSPLIT_ERROR_INVALID_ARGUMENT, msd, "different contexts");

  const char* step = "opsplit_rd_step";
  EXPECT_ERROR(opsplit_rd_step(rd, field, NAN, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "dt=nan");
  EXPECT_ERROR(opsplit_rd_step(rd, field, INFINITY, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "dt=inf");
  EXPECT_ERROR(opsplit_rd_step(rd, field, 0.0, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "dt=0");
  EXPECT_ERROR(opsplit_rd_step(rd, field, -0.1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "dt=-0.1");
  EXPECT_ERROR(opsplit_rd_step(rd, field, 0.3, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step,
               "dt=0.3 exceeds the stable limit 0.16666666666666666 for stencil 7POINT");
  CHECK_OK(opsplit_rd_set_stencil(rd, OPSPLIT_STENCIL_19POINT));
  EXPECT_ERROR(opsplit_rd_step(rd, field, 0.4, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step,
               "dt=0.4 exceeds the stable limit 0.37");
  EXPECT_ERROR(opsplit_rd_step(rd, field, 0.4, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "for stencil 19POINT");
  EXPECT_ERROR(opsplit_rd_step(rd, field, 0.1, -1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "nsteps=-1");
  EXPECT_ERROR(opsplit_rd_step(rd2, field, 0.1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "ncomp");
  EXPECT_ERROR(opsplit_rd_step(rd, foreign, 0.1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step, "different contexts");
  EXPECT_ERROR(opsplit_rd_step(NULL, field, 0.1, 1), OPSPLIT_ERROR_INVALID_HANDLE, step, "rd");
  EXPECT_ERROR(opsplit_rd_step(rd, NULL, 0.1, 1), OPSPLIT_ERROR_INVALID_HANDLE, step, "field");
  CHECK_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_YHI, 0, OPSPLIT_BC_PERIODIC, 0));
  EXPECT_ERROR(opsplit_rd_step(rd, field, 0.1, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, step,
               "PERIODIC on only one face of axis y (YHI)");
  EXPECT_ERROR(opsplit_rd_max_stable_dt(rd, field, &dt), OPSPLIT_ERROR_INVALID_ARGUMENT, msd, "PERIODIC");
  CHECK_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_YLO, 0, OPSPLIT_BC_PERIODIC, 0));
  CHECK_OK(opsplit_rd_step(rd, field, 0.1, 0)); /* nsteps = 0: nothing */

  /* Destroyed and garbage handles. */
  opsplit_field stale_field = foreign;
  CHECK_OK(opsplit_field_destroy(&foreign));
  CHECK(foreign == NULL);
  EXPECT_ERROR(opsplit_field_component_sum(stale_field, 0, &sum), OPSPLIT_ERROR_INVALID_HANDLE, csum, "destroyed");
  EXPECT_ERROR(opsplit_field_destroy(&stale_field), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_field_destroy", "field");
  opsplit_rd stale_rd = rd2;
  CHECK_OK(opsplit_rd_destroy(&rd2));
  EXPECT_ERROR(opsplit_rd_set_diffusion(stale_rd, 0, 1.0), OPSPLIT_ERROR_INVALID_HANDLE, diff, "destroyed");
  EXPECT_ERROR(opsplit_rd_destroy(&stale_rd), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_rd_destroy", "rd");
  opsplit_rd wrong_kind = (opsplit_rd)(void*)field; /* a live handle of another kind */
  EXPECT_ERROR(opsplit_rd_set_stencil(wrong_kind, OPSPLIT_STENCIL_7POINT), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_rd_set_stencil", "not a live opsplit_rd");
  CHECK_OK(opsplit_field_destroy(&foreign)); /* NULL: no-op */
  CHECK_OK(opsplit_rd_destroy(NULL));

  /* After all that, the objects still work: mass is conserved by a periodic/no-flux step. */
  double before = 0, after = 0;
  CHECK_OK(opsplit_field_component_sum(field, 0, &before));
  CHECK_OK(opsplit_rd_step(rd, field, 0.1, 10));
  CHECK_OK(opsplit_field_component_sum(field, 0, &after));
  CHECK(fabs(after - before) <= 1e-13 * fabs(before));
  CHECK_OK(opsplit_field_download(field, back, OPSPLIT_LAYOUT_INTERLEAVED));
  int changed = 0;
  for (int i = 0; i < CELLS; ++i) changed += back[i] != host[i];
  CHECK(changed > CELLS / 2);

  free(host);
  free(back);
  CHECK_OK(opsplit_rd_destroy(&rd));
  CHECK_OK(opsplit_field_destroy(&field));
  CHECK_OK(opsplit_context_destroy(&ctx));
  CHECK_OK(opsplit_context_destroy(&other));
  return check_summary();
}
