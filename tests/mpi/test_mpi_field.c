/* Distributed fields over MPI (opsplit_mpi_field_attach), run on 1, 2 and 4 processes.
 * Every process also steps the whole field alone (the same model, the same start) and
 * checks that its subdomain of the distributed run equals the same cells of the
 * one-process run bit for bit: 3D and 2D grids split 2x1x1, 1x2x1, 2x2x1 and 1x2x2 (the
 * splits uneven), periodic axes wrapped across processes and not, 7 and 19 points (the
 * edge ghosts), diffusion alone, Turing reactions with uniform advection and a point
 * source, NOFLUX and DIRICHLET faces, float64 and float32; Cahn-Hilliard terms (one,
 * two, PRECIPITATION's: their potential is exchanged inside the step; on CUDA a split
 * run cannot fuse the potential into the march, so one case checks fused against not,
 * bitwise) and velocity fields (exchanged once after they are set; changed between
 * calls on every process or on one). Bad input fails on every process with a clear
 * message and changes nothing: a communicator without a Cartesian topology, neighbours
 * whose shared faces differ, a field attached twice, a periodic split axis whose model
 * faces are not PERIODIC, dt differing between processes, Cahn-Hilliard terms or a
 * velocity field on one process only, a velocity field of the wrong size, a dt over one
 * process's stable limit, the free energy. A NaN fails every process, and the one that
 * holds it names the cell. Several steps a pass (opsplit_rd_set_steps_per_pass): the
 * distributed run fused (its halo as deep as a pass's steps), the one-process run one
 * step a pass, the same bits; the steps a pass taken as the library's rules give them
 * (expected_steps_per_pass), so that the comparison compares fused passes. */
#define _POSIX_C_SOURCE 200112L /* setenv */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_test.h"


enum { CH_NONE, CH_ONE, CH_PRECIPITATION, CH_TWO };
enum { WIND_NONE, WIND, WIND_CHANGED_EVERYWHERE, WIND_CHANGED_ON_0 };

typedef struct {
  int64_t n[3];
  int dims[3], periodic[3];
  int ncomp, points, turing;
  opsplit_precision precision;
  int ch;     /* CH_*: Cahn-Hilliard terms (CH_PRECIPITATION: ncomp 3, no Turing) */
  int noflux; /* every face NOFLUX */
  int wind;   /* WIND_*: a velocity field; changed between the two calls */
  int steps_per_pass; /* of the distributed run (0: 1) */
  int source_high;    /* Turing's source at (2, 1, 0); 1: near the high y and z faces; 2: at (2, 2, 2) */
  int dirichlet_z;    /* DIRICHLET z faces too (not NOFLUX) */
} Case;

/* The global cell of Turing's point source (make_model). */
static void source_cell(const Case* k, int64_t at[3]) {
  const int high = k->source_high == 1, inside = k->source_high == 2 && k->n[2] > 2;
  at[0] = 2, at[1] = high ? k->n[1] - 2 : inside ? 2 : 1, at[2] = high && k->n[2] > 2 ? k->n[2] - 3 : inside ? 2 : 0;
}

/* The start: a smooth pattern plus a hash, different in every component. */
static double start_value(int c, int64_t i, int64_t j, int64_t k) {
  const uint64_t h = (uint64_t)(i * 73856093 ^ j * 19349663 ^ k * 83492791 ^ c * 2654435761u);
  return 0.5 + 0.3 * sin(0.7 * (double)i + 0.4 * (double)j + 0.9 * (double)k + c) + 1e-3 * (double)(h % 1000);
}

/* This process's share along an axis of n cells split d ways: first cell and count. */
static void share(int64_t n, int d, int coord, int64_t* first, int64_t* count) {
  const int64_t base = n / d, extra = n % d;
  *first = coord * base + (coord < extra ? coord : extra);
  *count = base + (coord < extra ? 1 : 0);
}

/* The case's Cartesian communicator, and this process's place in it: its coordinates,
 * its first cell and its cells along each axis. */
static MPI_Comm place(const Case* k, int coords[3], int64_t offset[3], int64_t local[3]) {
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 3, (int*)k->dims, (int*)k->periodic, 0, &cart);
  MPI_Cart_coords(cart, rank, 3, coords);
  for (int a = 0; a < 3; ++a) share(k->n[a], k->dims[a], coords[a], &offset[a], &local[a]);
  return cart;
}

/* The steps a pass the distributed run takes (the same on every process: the group's
 * least; src/field/rd.cpp, remote_face_steps, and each backend's max_steps_per_pass):
 * one with a split x axis, a Cahn-Hilliard term or a velocity field; else at most each
 * split axis's cells on a process and for the point source (make_model) its distance d
 * from a face between processes plus one. The CPU (src/field/field_cpu.hpp): at most a
 * periodic z axis's cells when z is not split, and with a team of threads
 * (`team_threads`, on a process's share of 2^15 values or more) its rows over the
 * threads (a slab of rows a thread). CUDA (kernels/field/field_cuda.cuh): the 7-point
 * pass on a 3D grid split along y or z (not x), 4 steps at most, Turing's 3 and only
 * where it reads no face by its rule (with its wind: every axis periodic, across
 * processes too). */
static int team_threads = 1;
static int expected_steps_per_pass(const Case* k, const int coords[3], const int64_t offset[3],
                                   const int64_t local[3], int nsteps, int cuda) {
  int64_t e = k->steps_per_pass > 1 ? k->steps_per_pass : 1;
  if (k->dims[0] > 1 || k->ch != CH_NONE || k->wind != WIND_NONE) e = 1;
  if (cuda) {
    if (k->points != 7 || k->n[0] == 1 || k->n[1] == 1 || k->n[2] == 1) e = 1;
    if (k->turing && !(k->periodic[0] && k->periodic[1] && k->periodic[2])) e = 1;
    if (e > (k->turing ? 3 : 4)) e = k->turing ? 3 : 4;
  } else if (k->dims[2] == 1 && k->periodic[2] && k->n[2] > 1 && k->n[2] < e) {
    e = k->n[2];
  }
  int64_t source[3];
  source_cell(k, source);
  for (int a = 0; a < 3; ++a) source[a] -= offset[a];
  const int holds = k->turing && source[0] >= 0 && source[0] < local[0] && source[1] >= 0 && source[1] < local[1] &&
                    source[2] >= 0 && source[2] < local[2];
  for (int a = 1; a < 3; ++a) {
    if (k->dims[a] == 1) continue;
    if (local[a] < e) e = local[a];
    const int low_remote = coords[a] > 0 || k->periodic[a], high_remote = coords[a] < k->dims[a] - 1 || k->periodic[a];
    if (holds && low_remote && source[a] + 1 < e) e = source[a] + 1;
    if (holds && high_remote && local[a] - source[a] < e) e = local[a] - source[a];
  }
  if (!cuda && team_threads > 1 && local[0] * local[1] * local[2] * k->ncomp >= (1 << 15) && local[1] / team_threads < e)
    e = local[1] / team_threads;
  if (e > nsteps) e = nsteps;
  long long mine = e, least = 0;
  MPI_Allreduce(&mine, &least, 1, MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  return (int)least;
}

/* A velocity field over this process's cells from global indices; `variant` 1 is the
 * changed wind, and with `only` (a box: first cells, counts) the change is there alone. */
static double wind_value(int a, int64_t x, int64_t y, int64_t z, int variant) {
  return (variant ? -0.2 : 0.3) * sin(0.5 * (double)x + 0.3 * (double)y + 0.2 * (double)z + a + variant);
}

static void set_wind(opsplit_context ctx, opsplit_rd rd, opsplit_precision precision, const int64_t offset[3],
                     const int64_t n[3], int variant, const int64_t* only_first, const int64_t* only_n) {
  opsplit_field wind = NULL;
  CHECK_OK(opsplit_field_create(ctx, n[0], n[1], n[2], 3, precision, &wind));
  const int64_t cells = n[0] * n[1] * n[2];
  double* v64 = malloc((size_t)(3 * cells) * sizeof(double));
  float* v32 = malloc((size_t)(3 * cells) * sizeof(float));
  for (int a = 0; a < 3; ++a)
    for (int64_t z = 0; z < n[2]; ++z)
      for (int64_t y = 0; y < n[1]; ++y)
        for (int64_t x = 0; x < n[0]; ++x) {
          const int64_t g[3] = {x + offset[0], y + offset[1], z + offset[2]};
          int changed = variant;
          for (int b = 0; only_first != NULL && b < 3; ++b)
            changed &= g[b] >= only_first[b] && g[b] < only_first[b] + only_n[b];
          const int64_t h = a * cells + (z * n[1] + y) * n[0] + x;
          v64[h] = wind_value(a, g[0], g[1], g[2], changed);
          v32[h] = (float)v64[h];
        }
  CHECK_OK(opsplit_field_upload(wind, precision == OPSPLIT_FLOAT64 ? (const void*)v64 : (const void*)v32,
                                OPSPLIT_LAYOUT_PLANAR));
  CHECK_OK(opsplit_rd_set_velocity_field(rd, wind));
  CHECK_OK(opsplit_field_destroy(&wind)); /* the model keeps a copy */
  free(v64), free(v32);
}

static opsplit_rd make_model(opsplit_context ctx, const Case* k, const int64_t offset[3], const int64_t local[3]) {
  opsplit_rd rd = NULL;
  CHECK_OK(opsplit_rd_create(ctx, k->ncomp, &rd));
  CHECK_OK(opsplit_rd_set_stencil(rd, k->points == 19 ? OPSPLIT_STENCIL_19POINT : OPSPLIT_STENCIL_7POINT));
  for (int c = 0; c < k->ncomp; ++c) {
    CHECK_OK(opsplit_rd_set_diffusion(rd, c, c == 0 ? 1.0 : 0.5));
    for (int a = 0; a < 3; ++a) {
      const int dirichlet = a == 1 || (a == 2 && k->dirichlet_z);
      opsplit_bc bc = k->periodic[a] ? OPSPLIT_BC_PERIODIC : (dirichlet ? OPSPLIT_BC_DIRICHLET : OPSPLIT_BC_NOFLUX);
      if (k->noflux) bc = OPSPLIT_BC_NOFLUX;
      CHECK_OK(opsplit_rd_set_boundary(rd, (opsplit_face)(2 * a), c, bc, 0.25));
      CHECK_OK(opsplit_rd_set_boundary(rd, (opsplit_face)(2 * a + 1), c, bc, 0.75));
    }
  }
  if (k->turing) {
    CHECK_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_TURING));
    CHECK_OK(opsplit_rd_set_velocity(rd, 0, 0.3, 0.0, 0.0, 0.0));
    CHECK_OK(opsplit_rd_set_velocity(rd, 1, -0.2, 0.0, 0.0, 0.0));
    /* A source at global cell source_cell of component 1, on the process that holds it. */
    int64_t at[3];
    source_cell(k, at);
    for (int a = 0; a < 3; ++a) at[a] -= offset[a];
    if (at[0] >= 0 && at[0] < local[0] && at[1] >= 0 && at[1] < local[1] && at[2] >= 0 && at[2] < local[2])
      CHECK_OK(opsplit_rd_add_source(rd, 1, at[0], at[1], at[2], 5.0));
  }
  if (k->ch == CH_PRECIPITATION) CHECK_OK(opsplit_rd_set_reaction(rd, OPSPLIT_REACTION_PRECIPITATION));
  for (int c = 0; c < (k->ch == CH_ONE ? 1 : k->ch == CH_TWO ? 2 : 0); ++c)
    CHECK_OK(opsplit_rd_set_cahn_hilliard(rd, c, c == 0 ? 0.05 : 0.03, 0.5, 0.5, 0.3));
  if (k->wind != WIND_NONE) set_wind(ctx, rd, k->precision, offset, local, 0, NULL, NULL);
  return rd;
}

static opsplit_field make_field(opsplit_context ctx, const Case* k, const int64_t offset[3], const int64_t n[3]) {
  opsplit_field f = NULL;
  CHECK_OK(opsplit_field_create(ctx, n[0], n[1], n[2], k->ncomp, k->precision, &f));
  const int64_t cells = n[0] * n[1] * n[2], values = cells * k->ncomp;
  double* v64 = malloc((size_t)values * sizeof(double));
  float* v32 = malloc((size_t)values * sizeof(float));
  for (int c = 0; c < k->ncomp; ++c)
    for (int64_t z = 0; z < n[2]; ++z)
      for (int64_t y = 0; y < n[1]; ++y)
        for (int64_t x = 0; x < n[0]; ++x) {
          const int64_t h = c * cells + (z * n[1] + y) * n[0] + x;
          v64[h] = start_value(c, x + offset[0], y + offset[1], z + offset[2]);
          v32[h] = (float)v64[h];
        }
  CHECK_OK(opsplit_field_upload(f, k->precision == OPSPLIT_FLOAT64 ? (const void*)v64 : (const void*)v32,
                                OPSPLIT_LAYOUT_PLANAR));
  free(v64), free(v32);
  return f;
}

/* One case: the distributed run against the one-process run. */
static void run_case(opsplit_context ctx, const Case* k, int nsteps) {
  if (!mpi_test_selected()) return;
  int coords[3];
  int64_t offset[3], local[3];
  MPI_Comm cart = place(k, coords, offset, local);
  const int64_t zero[3] = {0, 0, 0};

  opsplit_field whole = make_field(ctx, k, zero, k->n), mine = make_field(ctx, k, offset, local);
  opsplit_rd rd_whole = make_model(ctx, k, zero, k->n), rd_mine = make_model(ctx, k, offset, local);
  CHECK_OK(mpi_test_attach(mine, NULL, cart));
  if (k->steps_per_pass > 1) CHECK_OK(opsplit_rd_set_steps_per_pass(rd_mine, k->steps_per_pass));
  double dt = 0;
  CHECK_OK(opsplit_rd_max_stable_dt(rd_whole, whole, &dt));
  dt *= 0.5;
  CHECK_OK(opsplit_rd_step(rd_whole, whole, dt, nsteps / 2));
  CHECK_OK(opsplit_rd_step(rd_mine, mine, dt, nsteps / 2)); /* in two calls */
  int taken = 0, device = -1;
  CHECK_OK(opsplit_rd_get_steps_per_pass_taken(rd_mine, &taken));
  CHECK_OK(opsplit_context_get_cuda_device(ctx, &device));
  const int expected = expected_steps_per_pass(k, coords, offset, local, nsteps / 2, device >= 0);
  if (taken != expected)
    fprintf(stderr, "process %d: %d steps a pass taken, %d expected (steps per pass %d, split %dx%dx%d)\n", rank, taken,
            expected, k->steps_per_pass, k->dims[0], k->dims[1], k->dims[2]);
  CHECK(taken == expected);
  if (k->wind == WIND_CHANGED_EVERYWHERE || k->wind == WIND_CHANGED_ON_0) {
    /* The changed wind: on every process, or in process 0's cells alone (the others'
     * models keep theirs, and must still take process 0's new border values). */
    int64_t first0[3], n0[3];
    int coords0[3];
    MPI_Cart_coords(cart, 0, 3, coords0);
    for (int a = 0; a < 3; ++a) share(k->n[a], k->dims[a], coords0[a], &first0[a], &n0[a]);
    const int everywhere = k->wind == WIND_CHANGED_EVERYWHERE;
    set_wind(ctx, rd_whole, k->precision, zero, k->n, 1, everywhere ? NULL : first0, n0);
    if (everywhere || rank == 0) set_wind(ctx, rd_mine, k->precision, offset, local, 1, NULL, NULL);
  }
  CHECK_OK(opsplit_rd_step(rd_whole, whole, dt, nsteps - nsteps / 2));
  CHECK_OK(opsplit_rd_step(rd_mine, mine, dt, nsteps - nsteps / 2));

  const size_t vs = k->precision == OPSPLIT_FLOAT64 ? sizeof(double) : sizeof(float);
  const int64_t cells = k->n[0] * k->n[1] * k->n[2], lcells = local[0] * local[1] * local[2];
  unsigned char* w = malloc((size_t)(cells * k->ncomp) * vs);
  unsigned char* m = malloc((size_t)(lcells * k->ncomp) * vs);
  CHECK_OK(opsplit_field_download(whole, w, OPSPLIT_LAYOUT_PLANAR));
  CHECK_OK(opsplit_field_download(mine, m, OPSPLIT_LAYOUT_PLANAR));
  int64_t differ = 0;
  for (int c = 0; c < k->ncomp; ++c)
    for (int64_t z = 0; z < local[2]; ++z)
      for (int64_t y = 0; y < local[1]; ++y) {
        const int64_t from = c * cells + ((z + offset[2]) * k->n[1] + y + offset[1]) * k->n[0] + offset[0];
        const int64_t to = c * lcells + (z * local[1] + y) * local[0];
        differ += memcmp(w + (size_t)from * vs, m + (size_t)to * vs, (size_t)local[0] * vs) != 0;
      }
  if (differ != 0)
    fprintf(stderr,
            "process %d: %lld rows differ (grid %lldx%lldx%lld split %dx%dx%d, periodic %d%d%d, %d points%s, "
            "Cahn-Hilliard %d, wind %d%s, %d steps a pass)\n",
            rank, (long long)differ, (long long)k->n[0], (long long)k->n[1], (long long)k->n[2], k->dims[0], k->dims[1],
            k->dims[2], k->periodic[0], k->periodic[1], k->periodic[2], k->points, k->turing ? ", Turing" : "", k->ch,
            k->wind, k->noflux ? ", NOFLUX" : "", taken);
  CHECK(differ == 0);
  free(w), free(m);
  opsplit_rd_destroy(&rd_whole), opsplit_rd_destroy(&rd_mine);
  opsplit_field_destroy(&whole), opsplit_field_destroy(&mine);
  MPI_Comm_free(&cart);
}

/* A NaN at global cell (5, 9, 10) of the split above (or, `along_z`, of 48 planes split
 * along z alone, 12 or more a process: CUDA's pass makes the planes more than 4 from
 * the remote faces while the swap travels, then the rest): every process
 * fails in the first step, and the process that holds it names the first bad cell of
 * that step, (5, 9, 9) (7 points: the lowest position the NaN reaches), in its own
 * coordinates; (5, 9, 8) with a Cahn-Hilliard term, whose potential reaches one cell
 * further. With several steps a pass the same failure, and the field as the single
 * steps left it (`after`: the field after the failure; compared with it where
 * `compare`). */
static void nan_case(opsplit_context ctx, int ch, int steps_per_pass, int along_z, double* after, int compare) {
  Case k = {{12, 13, 14}, {1, size >= 2 ? 2 : 1, size == 4 ? 2 : 1}, {0, 1, 1}, 1, 7, 0, OPSPLIT_FLOAT64, ch, 0, WIND_NONE, 0, 0, 0};
  if (along_z) k.n[2] = 48, k.dims[1] = 1, k.dims[2] = size; /* (z 9 to 11 on one process) */
  k.steps_per_pass = steps_per_pass;
  int coords[3];
  int64_t offset[3], local[3];
  MPI_Comm cart = place(&k, coords, offset, local);
  opsplit_field f = make_field(ctx, &k, offset, local);
  opsplit_rd rd = make_model(ctx, &k, offset, local);
  CHECK_OK(opsplit_rd_set_steps_per_pass(rd, steps_per_pass));
  const int64_t at[3] = {5 - offset[0], 9 - offset[1], 10 - offset[2]};
  const int holds = at[1] >= 0 && at[1] < local[1] && at[2] >= 0 && at[2] < local[2];
  const int64_t cells = local[0] * local[1] * local[2];
  double* v = malloc((size_t)cells * sizeof(double));
  CHECK_OK(opsplit_field_download(f, v, OPSPLIT_LAYOUT_PLANAR));
  if (holds) v[(at[2] * local[1] + at[1]) * local[0] + at[0]] = NAN;
  CHECK_OK(opsplit_field_upload(f, v, OPSPLIT_LAYOUT_PLANAR));
  CHECK_OK(mpi_test_attach(f, NULL, cart));
  char where[96];
  snprintf(where, sizeof where, "at cell (%lld, %lld, %lld)", (long long)at[0], (long long)at[1],
           (long long)at[2] - (ch ? 2 : 1));
  EXPECT_ERROR(opsplit_rd_step(rd, f, 0.05, 4), OPSPLIT_ERROR_NUMERICAL, "opsplit_rd_step", holds ? where : "process");
  int taken = 0, device = -1;
  CHECK_OK(opsplit_rd_get_steps_per_pass_taken(rd, &taken));
  CHECK_OK(opsplit_context_get_cuda_device(ctx, &device));
  /* The pass was taken (local n >= 4 on every process). */
  CHECK(taken == expected_steps_per_pass(&k, coords, offset, local, 4, device >= 0));
  CHECK(taken == steps_per_pass);
  CHECK_OK(opsplit_field_download(f, v, OPSPLIT_LAYOUT_PLANAR));
  if (compare)
    CHECK(memcmp(v, after, (size_t)cells * sizeof(double)) == 0);
  else
    memcpy(after, v, (size_t)cells * sizeof(double));
  free(v);
  opsplit_rd_destroy(&rd);
  opsplit_field_destroy(&f);
  MPI_Comm_free(&cart);
}

int main(int argc, char** argv) {
  opsplit_context ctx = mpi_test_start(&argc, &argv);
  /* On CUDA, each process of a node takes its own GPU (its node-local rank modulo them);
   * checked where the run names the node's GPU count (OPSPLIT_GPUS: the GPU machine's
   * command sets it, 2 on the two-GPU machine). */
  int device = -2, gpus = 0;
  CHECK_OK(opsplit_context_get_cuda_device(ctx, &device));
  const char* local = getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  if (device >= 0 && local != NULL && getenv("OPSPLIT_CUDA_DEVICE") == NULL && getenv("OPSPLIT_GPUS") != NULL) {
    gpus = atoi(getenv("OPSPLIT_GPUS"));
    CHECK(device == atoi(local) % gpus);
  }

  /* Splits for this many processes: x, y, x and y, y and z. */
  int splits[4][3] = {{1, 1, 1}}, nsplits = 0;
  if (size == 1) {
    int s[3] = {1, 1, 1};
    memcpy(splits[nsplits++], s, sizeof s);
  } else if (size == 2) {
    int a[3] = {2, 1, 1}, b[3] = {1, 2, 1};
    memcpy(splits[nsplits++], a, sizeof a), memcpy(splits[nsplits++], b, sizeof b);
  } else if (size == 4) {
    int a[3] = {2, 2, 1}, b[3] = {1, 2, 2}, c[3] = {4, 1, 1};
    memcpy(splits[nsplits++], a, sizeof a), memcpy(splits[nsplits++], b, sizeof b), memcpy(splits[nsplits++], c, sizeof c);
  } else {
    fprintf(stderr, "run on 1, 2 or 4 processes\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int s = 0; s < nsplits; ++s)
    for (int periodic = 0; periodic < 2; ++periodic)
      for (int points = 7; points <= 19; points += 12)
        for (int turing = 0; turing < 2; ++turing) {
          Case k = {{13, 11, 9}, {splits[s][0], splits[s][1], splits[s][2]}, {periodic, periodic, 0},
                    turing ? 2 : 1, points, turing, OPSPLIT_FLOAT64, CH_NONE, 0, WIND_NONE, 0, 0, 0};
          for (int fused = 0; fused < 2; ++fused) {
            k.steps_per_pass = fused ? 4 : 1;
            run_case(ctx, &k, 20);
            if (splits[s][2] == 1) { /* the same split of a 2D grid */
              Case flat = k;
              flat.n[2] = 1;
              flat.periodic[2] = 0;
              run_case(ctx, &flat, 20);
            }
          }
        }
  {
    const int* d = splits[0];
    Case k = {{17, 10, 6}, {d[0], d[1], d[2]}, {1, 0, 1}, 2, 19, 1, OPSPLIT_FLOAT32, CH_NONE, 0, WIND_NONE, 0, 0, 0};
    run_case(ctx, &k, 30);
    k.steps_per_pass = 3; /* periodic z not split: at most its 6 planes, and 3 of 15 steps a call: a shorter last pass */
    run_case(ctx, &k, 30);
    k.steps_per_pass = 8;
    run_case(ctx, &k, 30);
  }

  /* Long enough along y and z that every process splits its step around the exchange
   * (an interior, then a shell two cells deep: field/halo.hpp), periodic across. */
  {
    Case k = {{12, 13, 14}, {1, size >= 2 ? 2 : 1, size == 4 ? 2 : 1}, {0, 1, 1}, 2, 19, 1, OPSPLIT_FLOAT64, CH_NONE, 0, WIND_NONE, 0, 0, 0};
    run_case(ctx, &k, 20);
    for (int steps = 2; steps <= 8; steps *= 2) { /* y and z split, periodic across: edges from the diagonal neighbour */
      Case fused = k;
      fused.steps_per_pass = steps;
      run_case(ctx, &fused, 20);
      fused.turing = 0, fused.ncomp = 1; /* pure diffusion, no source */
      run_case(ctx, &fused, 20);
      fused.turing = 1, fused.ncomp = 2, fused.source_high = 1; /* the source 1 and 2 cells from high faces */
      run_case(ctx, &fused, 20);
    }
    k.points = 7, k.periodic[1] = 0, k.precision = OPSPLIT_FLOAT32;
    run_case(ctx, &k, 20);
    k.steps_per_pass = 3; /* y split, not periodic: DIRICHLET faces at the outer processes */
    run_case(ctx, &k, 20);
    k.steps_per_pass = 0;
    k.wind = WIND; /* the wind read through the interior and shell views */
    run_case(ctx, &k, 20);
    k.points = 19, k.periodic[1] = 1, k.precision = OPSPLIT_FLOAT64;
    run_case(ctx, &k, 20);
    /* Cahn-Hilliard terms: the potential and the update each split around an exchange. */
    k.wind = WIND_NONE, k.turing = 0, k.ncomp = 1, k.ch = CH_ONE;
    run_case(ctx, &k, 20);
    k.points = 7, k.periodic[1] = 0, k.wind = WIND;
    run_case(ctx, &k, 20);
    k.points = 19, k.ncomp = 3, k.ch = CH_PRECIPITATION, k.wind = WIND_NONE; /* DIRICHLET y faces */
    run_case(ctx, &k, 20);
  }

  /* Split along z alone (CUDA's distributed pass: the planes beyond the remote z faces
   * swapped in before it), every process at least 4 planes. */
  {
    Case k = {{13, 11, 4 * size + 2}, {1, 1, size}, {0, 0, 0}, 1, 7, 0, OPSPLIT_FLOAT64, CH_NONE, 1, WIND_NONE, 4, 0, 0};
    run_case(ctx, &k, 20); /* NOFLUX: the outer processes' z faces read mirrored */
    k.noflux = 0;          /* DIRICHLET y faces: the pass that tests them */
    run_case(ctx, &k, 20);
    k.dirichlet_z = 1; /* and z: the outer processes' tests of their z face, none of the remote one */
    run_case(ctx, &k, 20);
    k.dirichlet_z = 0, k.noflux = 1, k.n[0] = 130, k.precision = OPSPLIT_FLOAT32; /* tiles whole in x: paired loads */
    run_case(ctx, &k, 20);
    k.n[0] = 13, k.noflux = 0;
    k.periodic[2] = 1, k.precision = OPSPLIT_FLOAT32, k.steps_per_pass = 3; /* periodic across */
    run_case(ctx, &k, 20);
    /* Turing's coupled pass in its wind, periodic everywhere, its source 2 planes from
     * the high face (at most 3 steps a pass). */
    k.periodic[0] = k.periodic[1] = 1, k.turing = 1, k.ncomp = 2, k.source_high = 1, k.steps_per_pass = 4;
    run_case(ctx, &k, 20);
    k.precision = OPSPLIT_FLOAT64, k.source_high = 0; /* the source on plane 0: one step a pass across its face */
    run_case(ctx, &k, 20);
    k.periodic[0] = k.periodic[1] = k.periodic[2] = 0, k.noflux = 1; /* NOFLUX in a wind: CUDA one step a pass */
    run_case(ctx, &k, 20);
  }

  /* Split along y (CUDA's distributed pass: the rows beyond the remote y faces swapped in
   * before it), and on 4 processes along y and z (the planes beyond the z faces carry
   * the rows beyond the y faces: the corners, from the diagonal neighbour through the z
   * neighbour), every process at least 4 rows and planes. */
  for (int corners = 0; corners < (size == 4 ? 2 : 1); ++corners) {
    Case k = {{13, 4 * size + 2, 11}, {1, size, 1}, {0, 0, 0}, 1, 7, 0, OPSPLIT_FLOAT64, CH_NONE, 1, WIND_NONE, 4, 0, 0};
    if (corners) k.n[1] = 10, k.n[2] = 10, k.dims[1] = 2, k.dims[2] = 2;
    run_case(ctx, &k, 20); /* NOFLUX: the outer processes' y faces read mirrored */
    k.noflux = 0;          /* DIRICHLET y faces: the outer processes test theirs, none the remote one */
    run_case(ctx, &k, 20);
    k.noflux = 1, k.n[0] = 130, k.precision = OPSPLIT_FLOAT32; /* tiles whole in x: paired loads */
    run_case(ctx, &k, 20);
    k.n[0] = 13, k.noflux = 0;
    k.periodic[1] = k.periodic[2] = 1, k.steps_per_pass = 3; /* periodic across */
    run_case(ctx, &k, 20);
    /* Turing's coupled pass in its wind, periodic everywhere: its source on row 2, 3 rows
     * from each face of its process (3 steps a pass, the coupled pass's most), then 1 row
     * from the high y face and on row 1 (2 steps a pass). */
    k.periodic[0] = 1, k.turing = 1, k.ncomp = 2, k.source_high = 2, k.steps_per_pass = 4;
    run_case(ctx, &k, 20);
    k.source_high = 1;
    run_case(ctx, &k, 20);
    k.precision = OPSPLIT_FLOAT64, k.source_high = 0;
    run_case(ctx, &k, 20);
  }

  /* Tall along y (100 rows a process): CUDA's tile rows that read no row beyond a remote
   * y face, made while the rows travel, between those that do at each face; DIRICHLET y
   * faces (the launches' shares of cost over their tile rows), Turing with its source,
   * and on 4 processes along y and z (the inner tile rows of the inner planes under the y
   * swap, the others under the z swap). */
  for (int corners = 0; corners < (size == 4 ? 2 : 1); ++corners) {
    Case k = {{13, 100 * size + 3, 11}, {1, size, 1}, {0, 0, 0}, 1, 7, 0, OPSPLIT_FLOAT64, CH_NONE, 0, WIND_NONE, 4, 0, 0};
    if (corners) k.n[1] = 203, k.n[2] = 20, k.dims[1] = 2, k.dims[2] = 2;
    run_case(ctx, &k, 20);
    k.periodic[0] = k.periodic[1] = k.periodic[2] = 1, k.turing = 1, k.ncomp = 2, k.source_high = 2;
    k.precision = OPSPLIT_FLOAT32;
    run_case(ctx, &k, 20);
  }

  /* A team of threads on each process, each a slab of rows with its own staged input
   * rows (a share of more than 2^15 values a process). */
  team_threads = 3;
  CHECK_OK(opsplit_context_set_num_threads(ctx, team_threads));
  {
    Case k = {{40, 40, 84}, {1, size >= 2 ? 2 : 1, size == 4 ? 2 : 1}, {0, 1, 0}, 1, 7, 0, OPSPLIT_FLOAT64, CH_NONE, 0, WIND_NONE, 4, 0, 0};
    run_case(ctx, &k, 20);
    k.points = 19, k.ncomp = 2, k.turing = 1, k.precision = OPSPLIT_FLOAT32, k.periodic[2] = 1, k.steps_per_pass = 8;
    run_case(ctx, &k, 20);
  }
  team_threads = 1;
  CHECK_OK(opsplit_context_set_num_threads(ctx, 0));

  /* Each process's model is its own: where they differ (process 1's diffusion), a pass
   * would compute a neighbour's cells with the wrong one, so every process takes one
   * step a pass; with the same model, four (split along z alone: at most 14 / size, each
   * process's planes). */
  for (int differ = 0; differ < 4; ++differ) {
    const int z_alone = differ >= 2;
    Case k = {{12, 13, 14}, {1, size >= 2 ? 2 : 1, size == 4 ? 2 : 1}, {0, 0, 0}, 1, 7, 0, OPSPLIT_FLOAT64, CH_NONE, 1, WIND_NONE, 4, 0, 0};
    if (z_alone) k.dims[1] = 1, k.dims[2] = size;
    int coords[3];
    int64_t offset[3], local[3];
    MPI_Comm cart = place(&k, coords, offset, local);
    opsplit_field f = make_field(ctx, &k, offset, local);
    opsplit_rd rd = make_model(ctx, &k, offset, local);
    if (differ % 2 && rank == 1) CHECK_OK(opsplit_rd_set_diffusion(rd, 0, 0.75));
    CHECK_OK(opsplit_rd_set_steps_per_pass(rd, 4));
    CHECK_OK(mpi_test_attach(f, NULL, cart));
    CHECK_OK(opsplit_rd_step(rd, f, 0.02, 8));
    int taken = 0, device = -1;
    CHECK_OK(opsplit_rd_get_steps_per_pass_taken(rd, &taken));
    CHECK_OK(opsplit_context_get_cuda_device(ctx, &device));
    const int fused = z_alone ? (14 / size < 4 ? 14 / size : 4) : 4;
    CHECK(taken == (size > 1 && differ % 2 ? 1 : fused));
    opsplit_rd_destroy(&rd);
    opsplit_field_destroy(&f);
    MPI_Comm_free(&cart);
  }

  /* Cahn-Hilliard terms and velocity fields over every split. */
  for (int s = 0; s < nsplits; ++s)
    for (int periodic = 0; periodic < 2; ++periodic)
      for (int points = 7; points <= 19; points += 12) {
        const Case cases[] = {
            /* n, dims, periodic, ncomp, points, turing, precision, ch, noflux, wind */
            {{13, 11, 9}, {0}, {0}, 1, points, 0, OPSPLIT_FLOAT64, CH_ONE, 0, WIND_NONE, 0, 0, 0},
            {{13, 11, 9}, {0}, {0}, 3, points, 0, OPSPLIT_FLOAT64, CH_PRECIPITATION, 0, WIND_NONE, 0, 0, 0},
            {{13, 11, 9}, {0}, {0}, 2, points, 0, OPSPLIT_FLOAT64, CH_TWO, 0, WIND_NONE, 0, 0, 0},
            {{13, 11, 9}, {0}, {0}, 2, points, 1, OPSPLIT_FLOAT64, CH_NONE, 0, WIND, 0, 0, 0},
            {{13, 11, 9}, {0}, {0}, 1, points, 0, OPSPLIT_FLOAT32, CH_ONE, 0, WIND, 0, 0, 0}, /* the flagged loop reads mu */
            {{13, 11, 9}, {0}, {0}, 2, points, 1, OPSPLIT_FLOAT64, CH_NONE, 0, WIND_CHANGED_EVERYWHERE, 0, 0, 0},
            {{13, 11, 9}, {0}, {0}, 2, points, 1, OPSPLIT_FLOAT64, CH_NONE, 0, WIND_CHANGED_ON_0, 0, 0, 0},
        };
        for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
          Case k = cases[c];
          for (int a = 0; a < 3; ++a) k.dims[a] = splits[s][a];
          k.periodic[0] = k.periodic[1] = periodic;
          run_case(ctx, &k, 20);
          if (splits[s][2] == 1 && (c == 0 || c == 3)) { /* a 2D grid */
            k.n[2] = 1;
            k.periodic[2] = 0;
            run_case(ctx, &k, 20);
          }
        }
      }
  /* One Cahn-Hilliard component, NOFLUX everywhere: one CUDA process computes the
   * potential inside the march (fused); split along y (and z) it cannot, and takes the
   * pass before the update. The two must agree bit for bit. */
  {
    Case k = {{32, 12, 10}, {1, size >= 2 ? 2 : 1, size == 4 ? 2 : 1}, {0, 0, 0}, 1, 19, 0, OPSPLIT_FLOAT64, CH_ONE, 1, WIND_NONE, 0, 0, 0};
    run_case(ctx, &k, 20);
    k.points = 7;
    run_case(ctx, &k, 20);
  }
  {
    double* after = malloc(12 * 13 * 48 * sizeof(double)); /* the whole grid: a share fits */
    for (int along_z = 0; along_z < 2; ++along_z) {
      nan_case(ctx, CH_NONE, 1, along_z, after, 0);
      nan_case(ctx, CH_NONE, 4, along_z, after, 1); /* the pass fails on every process, its steps run again one at a time */
    }
    nan_case(ctx, CH_ONE, 1, 0, after, 0);
    free(after);
  }

  /* Bad input. */
  {
    int dims[3] = {size, 1, 1}, periods[3] = {1, 0, 0}, coords[3];
    MPI_Comm cart;
    MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart);
    MPI_Cart_coords(cart, rank, 3, coords);
    const MPI_Fint fcart = MPI_Comm_c2f(cart);
    const char* attach = "opsplit_mpi_field_attach";
    opsplit_field f = NULL;
    CHECK_OK(opsplit_field_create(ctx, 8, 6, 4, 1, OPSPLIT_FLOAT64, &f));
    EXPECT_ERROR(opsplit_mpi_field_attach(f, MPI_Comm_c2f(MPI_COMM_WORLD)), OPSPLIT_ERROR_INVALID_ARGUMENT, attach,
                 "not a Cartesian communicator");
    if (size > 1) { /* process 0's y extent differs from its neighbours' */
      opsplit_field g = NULL;
      CHECK_OK(opsplit_field_create(ctx, 8, rank == 0 ? 7 : 6, 4, 1, OPSPLIT_FLOAT64, &g));
      EXPECT_ERROR(opsplit_mpi_field_attach(g, fcart), OPSPLIT_ERROR_INVALID_ARGUMENT, attach,
                   "share a face but have ny");
      CHECK_OK(opsplit_field_destroy(&g));
    }
    if (size > 1) { /* OPSPLIT_DEVICE_IPC (core/peer_slabs.hpp): refused alike everywhere, the field kept */
      const char* was = getenv("OPSPLIT_DEVICE_IPC");
      char saved[32] = "";
      if (was != NULL) snprintf(saved, sizeof saved, "%s", was);
      setenv("OPSPLIT_DEVICE_IPC", rank == 0 ? "0" : "1", 1);
      EXPECT_ERROR(opsplit_mpi_field_attach(f, fcart), OPSPLIT_ERROR_INVALID_ARGUMENT, attach,
                   "OPSPLIT_DEVICE_IPC differs between processes");
      setenv("OPSPLIT_DEVICE_IPC", "yes", 1);
      EXPECT_ERROR(opsplit_mpi_field_attach(f, fcart), OPSPLIT_ERROR_INVALID_ARGUMENT, attach,
                   "OPSPLIT_DEVICE_IPC is not 0, 1, require or mixed");
      if (device < 0) { /* a CPU context has no device memory to map */
        setenv("OPSPLIT_DEVICE_IPC", "require", 1);
        EXPECT_ERROR(opsplit_mpi_field_attach(f, fcart), OPSPLIT_ERROR_UNSUPPORTED, attach,
                     "cannot go by CUDA IPC: this process's context is not CUDA");
      }
      if (was != NULL)
        setenv("OPSPLIT_DEVICE_IPC", saved, 1);
      else
        unsetenv("OPSPLIT_DEVICE_IPC");
    }
    CHECK_OK(opsplit_mpi_field_attach(f, fcart));
    EXPECT_ERROR(opsplit_mpi_field_attach(f, fcart), OPSPLIT_ERROR_INVALID_ARGUMENT, attach, "already attached");
    opsplit_rd rd = NULL;
    CHECK_OK(opsplit_rd_create(ctx, 1, &rd));
    CHECK_OK(opsplit_rd_set_diffusion(rd, 0, 1.0));
    double before = 0, after = 0;
    CHECK_OK(opsplit_field_component_sum(f, 0, &before));
    if (size > 1) { /* x is split and periodic in the decomposition, NOFLUX in the model */
      EXPECT_ERROR(opsplit_rd_step(rd, f, 0.01, 3), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_step",
                   "periodic in the decomposition");
    }
    CHECK_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_PERIODIC, 0));
    CHECK_OK(opsplit_rd_set_boundary(rd, OPSPLIT_FACE_XHI, 0, OPSPLIT_BC_PERIODIC, 0));
    if (size > 1) {
      EXPECT_ERROR(opsplit_rd_step(rd, f, rank == 0 ? 0.01 : 0.02, 3), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "opsplit_rd_step", "different dt, nsteps");
      /* A bad model handle on the last process alone: all fail, none waits. */
      EXPECT_ERROR(opsplit_rd_step(rank == size - 1 ? NULL : rd, f, 0.01, 3),
                   rank == size - 1 ? OPSPLIT_ERROR_INVALID_HANDLE : OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_rd_step",
                   rank == size - 1 ? "rd is NULL" : "process");
      /* A second component periodic on x (split, periodic in the decomposition) but not
       * on y: fine; NOFLUX on x: refused, naming the component. */
      opsplit_rd two = NULL;
      opsplit_field g = NULL;
      CHECK_OK(opsplit_rd_create(ctx, 2, &two));
      CHECK_OK(opsplit_field_create(ctx, 8, 6, 4, 2, OPSPLIT_FLOAT64, &g));
      CHECK_OK(opsplit_mpi_field_attach(g, fcart));
      CHECK_OK(opsplit_rd_set_boundary(two, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_PERIODIC, 0));
      CHECK_OK(opsplit_rd_set_boundary(two, OPSPLIT_FACE_XHI, 0, OPSPLIT_BC_PERIODIC, 0));
      EXPECT_ERROR(opsplit_rd_step(two, g, 0.01, 1), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_step",
                   "component 1's XLO face is not PERIODIC");
      CHECK_OK(opsplit_rd_set_boundary(two, OPSPLIT_FACE_XLO, 1, OPSPLIT_BC_PERIODIC, 0));
      CHECK_OK(opsplit_rd_set_boundary(two, OPSPLIT_FACE_XHI, 1, OPSPLIT_BC_PERIODIC, 0));
      CHECK_OK(opsplit_rd_step(two, g, 0.01, 1));
      CHECK_OK(opsplit_rd_destroy(&two));
      CHECK_OK(opsplit_field_destroy(&g));
    }
    const char* mismatch = "different dt, nsteps, Cahn-Hilliard terms and velocity field";
    if (size > 1) { /* a Cahn-Hilliard term, then a velocity field, on process 0 alone */
      if (rank == 0) CHECK_OK(opsplit_rd_set_cahn_hilliard(rd, 0, 0.1, 1.0, 1.0, 1.0));
      EXPECT_ERROR(opsplit_rd_step(rd, f, 1e-3, 3), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_step", mismatch);
      if (rank == 0) CHECK_OK(opsplit_rd_set_cahn_hilliard(rd, 0, 0.0, 0.0, 0.0, 0.0));
      const int64_t zero[3] = {0, 0, 0}, n[3] = {8, 6, 4};
      if (rank == 0) set_wind(ctx, rd, OPSPLIT_FLOAT64, zero, n, 0, NULL, NULL);
      EXPECT_ERROR(opsplit_rd_step(rd, f, 1e-3, 3), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_step", mismatch);
      if (rank == 0) CHECK_OK(opsplit_rd_set_velocity_field(rd, NULL));
    }
    { /* a velocity field of the wrong size on the last process */
      const int64_t zero[3] = {0, 0, 0}, n[3] = {8, rank == size - 1 ? 5 : 6, 4};
      set_wind(ctx, rd, OPSPLIT_FLOAT64, zero, n, 0, NULL, NULL);
      EXPECT_ERROR(opsplit_rd_step(rd, f, 1e-3, 3), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_rd_step",
                   rank == size - 1 || size == 1 ? "the velocity field is 8x5x4 cells but field is 8x6x4" : "process");
      CHECK_OK(opsplit_rd_set_velocity_field(rd, NULL));
    }
    { /* a wind ten times stronger on process 0: twice its stable limit is within the others' */
      opsplit_rd strong = NULL;
      CHECK_OK(opsplit_rd_create(ctx, 1, &strong));
      CHECK_OK(opsplit_rd_set_boundary(strong, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_PERIODIC, 0));
      CHECK_OK(opsplit_rd_set_boundary(strong, OPSPLIT_FACE_XHI, 0, OPSPLIT_BC_PERIODIC, 0));
      opsplit_field wind = NULL;
      double u[3 * 8 * 6 * 4];
      for (int i = 0; i < 3 * 8 * 6 * 4; ++i) u[i] = rank == 0 ? 10.0 : 1.0;
      CHECK_OK(opsplit_field_create(ctx, 8, 6, 4, 3, OPSPLIT_FLOAT64, &wind));
      CHECK_OK(opsplit_field_upload(wind, u, OPSPLIT_LAYOUT_PLANAR));
      CHECK_OK(opsplit_rd_set_velocity_field(strong, wind));
      CHECK_OK(opsplit_field_destroy(&wind));
      double limit = 0; /* this process's own bound (with a wind it is the subdomain's) */
      CHECK_OK(opsplit_rd_max_stable_dt(strong, f, &limit));
      double lowest = limit;
      MPI_Allreduce(&limit, &lowest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
      CHECK(size == 1 || rank != 0 || limit == lowest);
      EXPECT_ERROR(opsplit_rd_step(strong, f, 2 * lowest, 2), OPSPLIT_ERROR_INVALID_ARGUMENT,
                   "opsplit_rd_step", rank == 0 ? "exceeds the stable limit" : "process 0");
      CHECK_OK(opsplit_rd_step(strong, f, lowest, 0)); /* all agree: nothing done, nothing fails */
      CHECK_OK(opsplit_rd_destroy(&strong));
    }
    CHECK_OK(opsplit_rd_set_cahn_hilliard(rd, 0, 0.1, 1.0, 1.0, 1.0));
    double energy = 0;
    EXPECT_ERROR(opsplit_rd_free_energy(rd, f, 0, &energy), OPSPLIT_ERROR_UNSUPPORTED, "opsplit_rd_free_energy",
                 "distributed field");
    CHECK_OK(opsplit_field_component_sum(f, 0, &after));
    CHECK(after == before); /* nothing changed */
    CHECK_OK(opsplit_rd_destroy(&rd));
    CHECK_OK(opsplit_field_destroy(&f));
    MPI_Comm_free(&cart);
  }

  return mpi_test_finish(ctx);
}
