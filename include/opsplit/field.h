/* opsplit field buffers and reaction-diffusion models.
 *
 * A field is nx*ny*nz cells times ncomp components on a cell-centred grid, x fastest
 * in memory (Fortran c(nx,ny,nz), C c[nz][ny][nx]). 1D and 2D grids have ny = nz = 1 /
 * nz = 1; an axis of length 1 is not a dimension (no derivative is taken along it and
 * its boundary conditions are not used). Host arrays have the field's precision and
 * never include ghost cells. */
#ifndef OPSPLIT_FIELD_H
#define OPSPLIT_FIELD_H

#include "opsplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_field_s* opsplit_field;
typedef struct opsplit_rd_s* opsplit_rd;

typedef enum opsplit_layout {
  OPSPLIT_LAYOUT_PLANAR = 0,     /* [comp][z][y][x] */
  OPSPLIT_LAYOUT_INTERLEAVED = 1 /* [z][y][x][comp] */
} opsplit_layout;
typedef enum opsplit_stencil { OPSPLIT_STENCIL_7POINT = 7, OPSPLIT_STENCIL_19POINT = 19 } opsplit_stencil;
typedef enum opsplit_face {
  OPSPLIT_FACE_XLO = 0, OPSPLIT_FACE_XHI = 1, OPSPLIT_FACE_YLO = 2,
  OPSPLIT_FACE_YHI = 3, OPSPLIT_FACE_ZLO = 4, OPSPLIT_FACE_ZHI = 5
} opsplit_face;
typedef enum opsplit_bc {
  OPSPLIT_BC_NOFLUX = 0,    /* ghost = the cell inside: zero flux, the sum is conserved */
  OPSPLIT_BC_DIRICHLET = 1, /* ghost = 2*value - inside: the face carries value */
  OPSPLIT_BC_PERIODIC = 2   /* ghost = the cell on the opposite side; set on both faces */
} opsplit_bc;

/* Field contents start at zero; spacing starts at hx = hy = hz = 1. */
OPSPLIT_API opsplit_status opsplit_field_create(opsplit_context ctx, int64_t nx, int64_t ny, int64_t nz,
                                                int ncomp, opsplit_precision precision, opsplit_field* field);
OPSPLIT_API opsplit_status opsplit_field_destroy(opsplit_field* field);
OPSPLIT_API opsplit_status opsplit_field_set_spacing(opsplit_field field, double hx, double hy, double hz);
OPSPLIT_API opsplit_status opsplit_field_get_spacing(opsplit_field field, double* hx, double* hy, double* hz);
OPSPLIT_API opsplit_status opsplit_field_get_shape(opsplit_field field, int64_t* nx, int64_t* ny, int64_t* nz,
                                                   int* ncomp);
OPSPLIT_API opsplit_status opsplit_field_get_precision(opsplit_field field, opsplit_precision* precision);
/* host: nx*ny*nz*ncomp values of the field's precision in the named layout. */
OPSPLIT_API opsplit_status opsplit_field_upload(opsplit_field field, const void* host, opsplit_layout layout);
OPSPLIT_API opsplit_status opsplit_field_download(opsplit_field field, void* host, opsplit_layout layout);
/* Plain sum of one component over all cells, accumulated in double in a fixed order:
 * bitwise the same run after run on the same backend. */
OPSPLIT_API opsplit_status opsplit_field_component_sum(opsplit_field field, int comp, double* sum);

/* A reaction-diffusion model for fields of ncomp components. Defaults: 7-point
 * stencil, zero diffusion, NOFLUX on every face. */
OPSPLIT_API opsplit_status opsplit_rd_create(opsplit_context ctx, int ncomp, opsplit_rd* rd);
OPSPLIT_API opsplit_status opsplit_rd_destroy(opsplit_rd* rd);
/* 7POINT: second differences along each axis (any spacing). 19POINT: the seed's
 * isotropic stencil (1/(6h^2))*(centre -24, faces 2, edges 1) for cubic cells; for
 * other spacings its natural extension, sum_a d2_a/h_a^2 + sum_{a<b}
 * (h_a^2+h_b^2)/(12 h_a^2 h_b^2) d2_a d2_b (docs/API.md). */
OPSPLIT_API opsplit_status opsplit_rd_set_stencil(opsplit_rd rd, opsplit_stencil stencil);
OPSPLIT_API opsplit_status opsplit_rd_set_diffusion(opsplit_rd rd, int comp, double coefficient);
OPSPLIT_API opsplit_status opsplit_rd_set_boundary(opsplit_rd rd, opsplit_face face, int comp, opsplit_bc bc,
                                                   double value);
/* The largest forward-Euler dt that is stable for every Fourier mode of this stencil,
 * spacing and the largest diffusion coefficient; +infinity without diffusion. */
OPSPLIT_API opsplit_status opsplit_rd_max_stable_dt(opsplit_rd rd, opsplit_field field, double* dt);
/* nsteps forward-Euler steps of size dt (nsteps = 0 does nothing). dt above
 * opsplit_rd_max_stable_dt is refused. A cancelled call leaves the field after the
 * last completed step and says how many that was. */
OPSPLIT_API opsplit_status opsplit_rd_step(opsplit_rd rd, opsplit_field field, double dt, int64_t nsteps);

#ifdef __cplusplus
}
#endif

#endif
