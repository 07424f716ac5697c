/* A host that lives on the GPU (docs/API.md, "Hosts on the GPU"): its fields are device
 * arrays, its transport a CUDA kernel of its own, and opsplit's chemistry works in those
 * arrays in place (opsplit_ode_wrap_state_device): nothing crosses to host memory in the
 * time loop. The problem is examples/ode_transport.c's: POLLU (20 species, ppm, minutes)
 * on a periodic ring of cells, a plume of NO in the first quarter, upwind advection at
 * Courant 0.5, Lie splitting with one-minute steps.
 *
 *   gpu_host_transport [--cells N] [--steps S] [--out DIR]
 *
 * N cells (default 100000), S steps (default 60). The host keeps c[species][cell] (SOA,
 * opsplit's own layout, so it can be wrapped) twice and swaps them: the transport reads
 * one and writes the other, the chemistry then works in the one written. The check, as in
 * ode_transport.c: the nitrogen and sulfur totals over the ring (linear invariants of
 * POLLU and of the flux-form transport) must not drift beyond 1e-12. Writes
 * DIR/gpu_host_transport.png: O3, NO, NO2, HNO3, PAN in cell N/4 + 10, which the plume's
 * front reaches after 20 minutes (log scale). */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <opsplit/opsplit.h>

#include "png_plot.h"
#include "pollu.h"

#define NS POLLU_NSPECIES
#define DRIFT_LIMIT 1e-12 /* why this limit: ode_transport.c, DRIFT_LIMIT */

__constant__ int shown_species[5] = {3, 1, 0, 14, 12}; /* O3, NO, NO2, HNO3, PAN */

/* The host's transport: flux-form upwind, the wind towards higher cells, periodic.
 * c_new = c + C (c[cell-1] - c[cell]); what leaves a cell enters the next. */
__global__ void advect(const double* __restrict__ c, double* __restrict__ c_new, long long cells, double courant) {
  const long long n = cells * NS;
  for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < n; k += (long long)gridDim.x * blockDim.x) {
    const long long cell = k % cells, upwind = k - cell + (cell + cells - 1) % cells;
    c_new[k] = c[k] + courant * (c[upwind] - c[k]);
  }
}

/* The observed cell's shown species into out[5] (a few numbers for the picture). */
__global__ void observe(const double* __restrict__ c, long long cells, long long cell, double* __restrict__ out) {
  if (threadIdx.x < 5) out[threadIdx.x] = c[shown_species[threadIdx.x] * cells + cell];
}

static double seconds(void) {
  struct timespec ts;
  timespec_get(&ts, TIME_UTC);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Atoms over the ring (SOA), with Neumaier's compensated sum (ode_transport.c's total). */
static double total(const double* c, long long cells, const double* atoms) {
  double sum = 0, lost = 0;
  for (int s = 0; s < NS; ++s)
    for (long long i = 0; atoms[s] != 0 && i < cells; ++i) {
      const double term = atoms[s] * c[s * cells + i], next = sum + term;
      lost += fabs(sum) >= fabs(term) ? (sum - next) + term : (term - next) + sum;
      sum = next;
    }
  return sum + lost;
}

static const double nitrogen_atoms[NS] = {1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 1, 2};
static const double sulfur_atoms[NS] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0};

/* Both totals of the device array, read back for the check only (not part of the loop). */
static int totals(const double* device, long long cells, double* host, double* n, double* s) {
  if (cudaMemcpy(host, device, sizeof(double) * (size_t)cells * NS, cudaMemcpyDeviceToHost) != cudaSuccess) return -1;
  *n = total(host, cells, nitrogen_atoms);
  *s = total(host, cells, sulfur_atoms);
  return 0;
}

#define TRY(call)                                                                                          \
  do {                                                                                                     \
    opsplit_status status_ = (call);                                                                       \
    if (status_ != OPSPLIT_SUCCESS) {                                                                      \
      fprintf(stderr, "gpu_host_transport: %s failed: %s: %s\n", #call, opsplit_status_string(status_), \
              opsplit_last_error_message());                                                               \
      goto done;                                                                                           \
    }                                                                                                      \
  } while (0)
#define CUDA_TRY(call)                                                                                      \
  do {                                                                                                      \
    cudaError_t err_ = (call);                                                                              \
    if (err_ != cudaSuccess) {                                                                              \
      fprintf(stderr, "gpu_host_transport: %s failed: %s\n", #call, cudaGetErrorString(err_));           \
      goto done;                                                                                            \
    }                                                                                                       \
  } while (0)

int main(int argc, char** argv) {
  long long cells = 100000;
  int steps = 60;
  const char* out_dir = ".";
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--cells") && i + 1 < argc) cells = atoll(argv[++i]);
    else if (!strcmp(argv[i], "--steps") && i + 1 < argc) steps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--out") && i + 1 < argc) out_dir = argv[++i];
    else cells = -1;
  }
  if (cells < 4 || steps < 1) {
    fprintf(stderr, "usage: %s [--cells N >= 4] [--steps S >= 1] [--out DIR]\n", argv[0]);
    return 2;
  }
  const double dt = 1.0, courant = 0.5;
  const long long observed = cells / 4 + 10 < cells ? cells / 4 + 10 : cells - 1;
  const size_t bytes = sizeof(double) * (size_t)cells * NS;
  int rc = 1;
  opsplit_context ctx = NULL;
  opsplit_mechanism mech = NULL;
  opsplit_ode ode = NULL;
  double *c = NULL, *c_new = NULL, *seen = NULL;
  double* host = (double*)malloc(bytes);
  double* times = (double*)malloc(sizeof(double) * (size_t)(steps + 1));
  double* series = (double*)malloc(sizeof(double) * 5 * (size_t)(steps + 1));
  double n0 = 0, s0 = 0, n1 = 0, s1 = 0, transport_s = 0, chemistry_s = 0;
  char png_path[4096];
  snprintf(png_path, sizeof png_path, "%s/gpu_host_transport.png", out_dir);
  if (!host || !times || !series) {
    fprintf(stderr, "gpu_host_transport: out of memory\n");
    goto done;
  }
  if (!opsplit_cuda_available()) {
    fprintf(stderr, "gpu_host_transport: needs a CUDA device (%s)\n", opsplit_last_error_message());
    goto done;
  }
  /* opsplit's context first: it makes the device's primary context current, the one the
   * host's cudaMalloc then allocates in. */
  TRY(opsplit_context_create(OPSPLIT_BACKEND_CUDA, &ctx));
  TRY(pollu_build(ctx, &mech));
  TRY(opsplit_ode_create(ctx, NS, cells, 0, &ode));
  TRY(opsplit_ode_set_mechanism(ode, mech));
  TRY(opsplit_ode_set_tolerances(ode, 1e-6, 1e-10));
  TRY(opsplit_ode_set_keep_step(ode, 1));

  CUDA_TRY(cudaMalloc((void**)&c, bytes));
  CUDA_TRY(cudaMalloc((void**)&c_new, bytes));
  CUDA_TRY(cudaMalloc((void**)&seen, 5 * sizeof(double)));
  for (int s = 0; s < NS; ++s)
    for (long long i = 0; i < cells; ++i) {
      double v = pollu_y0[s];
      if (i < cells / 4 && s == 1) v = 3 * pollu_y0[1];
      if (i < cells / 4 && s == 0) v = 0.3 * pollu_y0[1];
      host[s * cells + i] = v;
    }
  CUDA_TRY(cudaMemcpy(c, host, bytes, cudaMemcpyHostToDevice));
  if (totals(c, cells, host, &n0, &s0)) goto done;

  printf("gpu_host_transport: POLLU on a ring of %lld cells on the GPU, %d steps of %g min; the chemistry works "
         "in the host's device arrays\n", cells, steps, dt);
  for (int step = 0; step <= steps; ++step) {
    if (step > 0) {
      const double t0 = seconds();
      advect<<<1024, 256>>>(c, c_new, cells, courant); /* the host's own kernel, legacy default stream */
      CUDA_TRY(cudaDeviceSynchronize()); /* for the timing only: with no host stream given, opsplit's
                                            calls wait for the host's legacy-stream work themselves */
      const double t1 = seconds();
      TRY(opsplit_ode_wrap_state_device(ode, c_new));
      TRY(opsplit_ode_integrate(ode, (step - 1) * dt, step * dt));
      chemistry_s += seconds() - t1;
      transport_s += t1 - t0;
      double* swap = c;
      c = c_new, c_new = swap;
    }
    observe<<<1, 32>>>(c, cells, observed, seen);
    double five[5];
    CUDA_TRY(cudaMemcpy(five, seen, sizeof five, cudaMemcpyDeviceToHost));
    times[step] = step * dt;
    for (int k = 0; k < 5; ++k) series[(size_t)k * (size_t)(steps + 1) + (size_t)step] = five[k];
    if (step % 10 == 0 || step == steps)
      printf("%6g min  O3 %.6e  NO %.6e  NO2 %.6e (cell %lld)\n", step * dt, five[0], five[1], five[2], observed);
  }
  TRY(opsplit_ode_wrap_state_device(ode, NULL)); /* before the arrays go */
  if (totals(c, cells, host, &n1, &s1)) goto done;
  if (png_plot_lines(png_path, 640, 400, steps + 1, times, 5, series, 1)) goto done;
  printf("transport %.3f s, chemistry %.3f s (%.0f %% of the step), no copies to host memory\n", transport_s,
         chemistry_s, 100.0 * chemistry_s / (chemistry_s + transport_s));
  printf("wrote %s (O3 blue, NO orange, NO2 green, HNO3 red, PAN purple; ppm, log scale)\n", png_path);
  printf("nitrogen drift %.2e sulfur drift %.2e (limit %.0e)\n", fabs(n1 - n0) / n0, fabs(s1 - s0) / s0, DRIFT_LIMIT);
  if (!(fabs(n1 - n0) / n0 <= DRIFT_LIMIT && fabs(s1 - s0) / s0 <= DRIFT_LIMIT)) {
    fprintf(stderr, "gpu_host_transport: the nitrogen or sulfur total drifted beyond %.0e\n", DRIFT_LIMIT);
    goto done;
  }
  rc = 0;

done:
  opsplit_ode_destroy(&ode);
  opsplit_mechanism_destroy(&mech);
  opsplit_context_destroy(&ctx);
  cudaFree(c);
  cudaFree(c_new);
  cudaFree(seen);
  free(host);
  free(times);
  free(series);
  return rc;
}
