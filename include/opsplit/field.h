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
#include "opsplit/group.h"

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
/* Built-in reaction terms; they act on components 0, 1 (and 2). Parameters by name,
 * defaults from seed 000's Table 1:
 *   LINEAR         no nonlinear term (opsplit_rd_set_linear adds to every kind)
 *   TURING         c0' = c0 - c0^3 - c1, c1' = gamma (c0 - alpha c1 - beta);
 *                  alpha 0.5, beta 0.09, gamma 26
 *   GRAY_SCOTT     u' = -u v^2 + F (1 - u), v' = u v^2 - (F + k) v;  F 0.04, k 0.06
 *   PRECIPITATION  c0' = -k1 c0 c1 - k2 c0 c2, c1' = -k1 c0 c1, c2' = k1 c0 c1 - k2 c0 c2
 *                  plus the Cahn-Hilliard term of c2 with m = lambda, b = epsilon,
 *                  u = gamma, K = sigma;  k1 0.2, k2 0.005, lambda = epsilon = gamma =
 *                  sigma = 1 */
typedef enum opsplit_reaction {
  OPSPLIT_REACTION_LINEAR = 0,
  OPSPLIT_REACTION_TURING = 1,
  OPSPLIT_REACTION_GRAY_SCOTT = 2,
  OPSPLIT_REACTION_PRECIPITATION = 3
} opsplit_reaction;
typedef enum opsplit_bc {
  OPSPLIT_BC_NOFLUX = 0,    /* ghost = the cell inside: zero flux, the sum is conserved */
  OPSPLIT_BC_DIRICHLET = 1, /* ghost = 2*value - inside: the face carries value */
  OPSPLIT_BC_PERIODIC = 2   /* ghost = the cell on the opposite side; set on both faces */
} opsplit_bc;

/* Field contents start at zero; spacing starts at hx = hy = hz = 1. ncomp is in [1, 4096];
 * storage the memory cannot hold is OPSPLIT_ERROR_OUT_OF_MEMORY, said before allocating. */
OPSPLIT_API opsplit_status opsplit_field_create(opsplit_context ctx, int64_t nx, int64_t ny, int64_t nz,
                                                int ncomp, opsplit_precision precision, opsplit_field* field);
OPSPLIT_API opsplit_status opsplit_field_destroy(opsplit_field* field);
/* Each spacing in [1e-150, 1e150]: the stencils' weights 1/h^2 stay normal doubles. */
OPSPLIT_API opsplit_status opsplit_field_set_spacing(opsplit_field field, double hx, double hy, double hz);
OPSPLIT_API opsplit_status opsplit_field_get_spacing(opsplit_field field, double* hx, double* hy, double* hz);
OPSPLIT_API opsplit_status opsplit_field_get_shape(opsplit_field field, int64_t* nx, int64_t* ny, int64_t* nz,
                                                   int* ncomp);
OPSPLIT_API opsplit_status opsplit_field_get_precision(opsplit_field field, opsplit_precision* precision);
/* host: nx*ny*nz*ncomp values of the field's precision in the named layout. */
OPSPLIT_API opsplit_status opsplit_field_upload(opsplit_field field, const void* host, opsplit_layout layout);
OPSPLIT_API opsplit_status opsplit_field_download(opsplit_field field, void* host, opsplit_layout layout);
/* The same from and to the host's own device memory (a host on the GPU: CUDA C, CUDA
 * Fortran, OpenACC's host_data use_device), with no copy through host memory: device
 * holds nx*ny*nz*ncomp values as above, on the context's GPU. A CUDA context only (a CPU
 * context: OPSPLIT_ERROR_UNSUPPORTED). Refused with INVALID_ARGUMENT: host memory, another
 * GPU's, another CUDA context's, a misaligned pointer, an allocation too short for the
 * array (where CUDA knows the allocation). Ordering: with the host's stream
 * (opsplit_context_set_cuda_stream) the work is queued on it and the call returns;
 * without one it follows the host's work on the legacy default stream and is finished
 * when the call returns. No wrap form: the field keeps ghost cells and padded rows. See
 * docs/API.md, "Hosts on the GPU". */
OPSPLIT_API opsplit_status opsplit_field_upload_device(opsplit_field field, const void* device,
                                                       opsplit_layout layout);
OPSPLIT_API opsplit_status opsplit_field_download_device(opsplit_field field, void* device, opsplit_layout layout);
/* Plain sum of one component over all cells, accumulated in double in a fixed order:
 * bitwise the same run after run on the same backend. */
OPSPLIT_API opsplit_status opsplit_field_component_sum(opsplit_field field, int comp, double* sum);

/* The smallest and largest value of one component (both NaN when it holds a NaN). */
OPSPLIT_API opsplit_status opsplit_field_component_min_max(opsplit_field field, int comp, double* min, double* max);

/* A reaction-diffusion model for fields of ncomp components (in [1, 4096]). Defaults:
 * 7-point stencil, zero diffusion, NOFLUX on every face. */
OPSPLIT_API opsplit_status opsplit_rd_create(opsplit_context ctx, int ncomp, opsplit_rd* rd);
OPSPLIT_API opsplit_status opsplit_rd_destroy(opsplit_rd* rd);
/* 7POINT: second differences along each axis (any spacing). 19POINT: the seed's
 * isotropic stencil (1/(6h^2))*(centre -24, faces 2, edges 1) for cubic cells; for
 * other spacings its natural extension, sum_a d2_a/h_a^2 + sum_{a<b}
 * (h_a^2+h_b^2)/(12 h_a^2 h_b^2) d2_a d2_b (docs/API.md). */
OPSPLIT_API opsplit_status opsplit_rd_set_stencil(opsplit_rd rd, opsplit_stencil stencil);
/* Up to `steps` (1..16, default 1) time steps of a call in one pass through memory
 * (temporal blocking): the field is read and written once a pass instead of once a step,
 * the same bits as one step at a time. In this version: pure diffusion on a field of one
 * process; on the CPU also with point sources, the models without Cahn-Hilliard terms
 * (a per-cell wind on one process), and distributed fields whose x axis is not split (a
 * halo k cells deep swapped once a pass); other calls take one step a pass
 * (docs/API.md). On the CPU 2 to 4 steps a pass are the useful range. The CUDA backend
 * fuses a 3D field's pure diffusion without sources: up to 4 steps at 7 points (about
 * 2x one step a pass at 4 steps; at 19 points one step a pass: a pass was slower);
 * and at 7 points up to 4 steps of linear terms, a uniform wind and point sources where
 * every face is PERIODIC, or NOFLUX without a wind (1.1-1.4x), and up to 3 of TURING and
 * GRAY_SCOTT with two components that read each axis alike (1.4-1.9x); a distributed
 * field at 7 points when it is split along y, z or both, not x (the k rows and planes
 * next to its shared faces swapped at each pass).
 * Progress and cancellation fall between passes. */
OPSPLIT_API opsplit_status opsplit_rd_set_steps_per_pass(opsplit_rd rd, int steps);
/* The steps a pass the last opsplit_rd_step took (its first pass: a call's last pass may
 * be shorter): the steps per pass set, fewer where the backend fuses fewer or the call
 * has fewer steps, 1 where the call could not fuse (docs/API.md says which calls do);
 * 0 before the first call (a call of no steps leaves it). How a host checks that its
 * calls fuse. */
OPSPLIT_API opsplit_status opsplit_rd_get_steps_per_pass_taken(opsplit_rd rd, int* steps);
OPSPLIT_API opsplit_status opsplit_rd_set_diffusion(opsplit_rd rd, int comp, double coefficient);
OPSPLIT_API opsplit_status opsplit_rd_set_boundary(opsplit_rd rd, opsplit_face face, int comp, opsplit_bc bc,
                                                   double value);
/* The reaction kind; resets its parameters to their defaults. Switching away from
 * PRECIPITATION removes the Cahn-Hilliard term it set on component 2. */
OPSPLIT_API opsplit_status opsplit_rd_set_reaction(opsplit_rd rd, opsplit_reaction kind);
OPSPLIT_API opsplit_status opsplit_rd_set_reaction_parameter(opsplit_rd rd, const char* name, double value);
OPSPLIT_API opsplit_status opsplit_rd_get_reaction_parameter(opsplit_rd rd, const char* name, double* value);
/* dc/dt += rate*c + source for one component, in every reaction kind. */
OPSPLIT_API opsplit_status opsplit_rd_set_linear(opsplit_rd rd, int comp, double rate, double source);
/* A retardation factor R > 0 of component comp (default 1): its diffusion and advection
 * are divided by R, R dc/dt = D Lap c - div(u c) + the other terms, which are not
 * divided (a sorbing solute in groundwater: R = 1 + rho_b Kd / theta, theta the water
 * content; a reaction
 * that acts on the dissolved and the sorbed phase alike is then the unscaled rate).
 * Diffusion and velocity stay as set; max_stable_dt takes R into account. */
OPSPLIT_API opsplit_status opsplit_rd_set_retardation(opsplit_rd rd, int comp, double factor);
/* mobile = 0: component comp neither diffuses nor is advected (a sorbed, mineral or
 * biomass phase); its reaction, linear terms and sources still act. 1 (default): it
 * moves. */
OPSPLIT_API opsplit_status opsplit_rd_set_mobile(opsplit_rd rd, int comp, int mobile);
/* dc/dt += m Lap(-b c + u c^3 - kappa Lap c) (seed 003), as the Laplacian of an
 * intermediate potential with its own ghost cells (NOFLUX and PERIODIC faces apply to
 * it as to c; a DIRICHLET value v gives the potential -b v + u v^3 on the face).
 * m = 0 removes the term. */
OPSPLIT_API opsplit_status opsplit_rd_set_cahn_hilliard(opsplit_rd rd, int comp, double m, double b, double u,
                                                        double kappa);
/* Uniform velocity along axis 0/1/2: u(t) = constant + amplitude*sin(angular_frequency*t
 * + phase), evaluated at the start of each step, added to the per-cell velocity field.
 * Every component is advected, first-order upwind in flux form; the advective flux
 * through a NOFLUX face carries the inside value (zero gradient: an open boundary). */
OPSPLIT_API opsplit_status opsplit_rd_set_velocity(opsplit_rd rd, int axis, double constant, double amplitude,
                                                   double angular_frequency, double phase);
/* A per-cell velocity: a field of 3 components (u_x, u_y, u_z), copied now (upload the
 * host's new wind and call again to change it); the face velocity is the mean of the
 * two cells beside it. Its ghosts follow component 0's faces (PERIODIC, else mirrored;
 * on a distributed field, beyond a face that borders another process, that process's
 * wind, exchanged once after any process sets its own). NULL removes it. Stepped
 * fields must have its shape and precision. */
OPSPLIT_API opsplit_status opsplit_rd_set_velocity_field(opsplit_rd rd, opsplit_field velocity);
/* A point source: dc/dt += rate in cell (i, j, k) (0-based) of component comp. Sources
 * in the same cell add up. */
OPSPLIT_API opsplit_status opsplit_rd_add_source(opsplit_rd rd, int comp, int64_t i, int64_t j, int64_t k,
                                                 double rate);
OPSPLIT_API opsplit_status opsplit_rd_clear_sources(opsplit_rd rd);
/* The model's clock: starts at 0, advanced by every completed step; the oscillating
 * velocity is evaluated on it. */
OPSPLIT_API opsplit_status opsplit_rd_set_time(opsplit_rd rd, double t);
OPSPLIT_API opsplit_status opsplit_rd_get_time(opsplit_rd rd, double* t);
/* The Cahn-Hilliard free energy of component comp: the sum over cells of
 * volume * (-b/2 c^2 + u/4 c^4 - kappa/2 c Lap c), with this model's stencil and
 * boundary conditions (Lap is symmetric under them, so the scheme is this energy's
 * gradient flow: it does not increase for small enough dt). */
OPSPLIT_API opsplit_status opsplit_rd_free_energy(opsplit_rd rd, opsplit_field field, int comp, double* energy);
/* The largest forward-Euler dt that is stable for the transport terms (docs/API.md):
 * for diffusion alone 2/(D_max rho), rho the stencil's spectral radius; with advection
 * and Cahn-Hilliard terms the combined bound. +infinity without transport terms.
 * Reaction terms are not included. On a distributed field with a velocity field it is
 * this process's bound (not collective): the host takes the minimum over processes. */
OPSPLIT_API opsplit_status opsplit_rd_max_stable_dt(opsplit_rd rd, opsplit_field field, double* dt);
/* nsteps forward-Euler steps of size dt (nsteps = 0 does nothing). dt above
 * opsplit_rd_max_stable_dt is refused. A cancelled call leaves the field after the
 * last completed step and says how many that was. A step that produces a NaN or Inf
 * fails with OPSPLIT_ERROR_NUMERICAL naming the step, component and cell; the field
 * and the clock are left as they were before that step. */
OPSPLIT_API opsplit_status opsplit_rd_step(opsplit_rd rd, opsplit_field field, double dt, int64_t nsteps);

/* Over a group of processes (opsplit/group.h; hosts call opsplit/mpi.h instead). */
/* Makes `field` this process's subdomain of a field decomposed over the group: from now
 * on opsplit_rd_step fills the ghosts of faces that border another process from that
 * process, every step (opsplit/mpi.h describes the rules). On success the field owns
 * the group; on failure, on every process alike, the caller keeps it. Collective. */
OPSPLIT_API opsplit_status opsplit_field_attach_distributed(opsplit_field field, const opsplit_group* group,
                                                            const opsplit_decomposition* decomposition);

#ifdef __cplusplus
}
#endif

#endif
