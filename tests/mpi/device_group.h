/* A group that takes device pointers (opsplit/distributed.h: device_pointers = 1), as
 * opsplit_mpi's does where MPI is CUDA-aware, for the GPU machines whose Open MPI is not:
 * its exchange copies each slab to page-locked host memory, sends it with MPI and copies
 * what came back to the device. So the library's path for a CUDA-aware MPI runs (its
 * slabs handed over in device memory, its waits before and after the exchange): the
 * copies here go on the legacy default stream and the library steps on its own
 * non-blocking stream, so a slab handed over before the library waited for it is read
 * stale, and the run differs from the one-process run. Only MPI's own device transfers
 * are not exercised.
 *
 * The MPI test programs attach through it when OPSPLIT_TEST_DEVICE_GROUP is set
 * (mpi_test_attach in mpi_test.h); built with CUDA only. */
#ifndef OPSPLIT_TEST_DEVICE_GROUP_H
#define OPSPLIT_TEST_DEVICE_GROUP_H

#include <cuda_runtime_api.h>
#include <limits.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "opsplit/distributed.h"

typedef struct {
  MPI_Comm comm;
  int neighbours[6]; /* MPI_PROC_NULL where none */
  void* host[4];     /* sent low, high; received low, high (page-locked) */
  size_t host_bytes;
} DeviceGroup;

static inline int device_group_failed(const char* what, const char* why, char* message, size_t size) {
  snprintf(message, size, "%s: %s", what, why);
  return 1;
}

static inline int device_group_allgather(void* user, const int64_t* mine, const int64_t* counts, int64_t* all,
                                  char* message, size_t size) {
  DeviceGroup* g = (DeviceGroup*)user;
  int n = 0, rank = 0;
  MPI_Comm_size(g->comm, &n);
  MPI_Comm_rank(g->comm, &rank);
  int* c = malloc((size_t)n * sizeof *c);
  int* at = malloc((size_t)n * sizeof *at);
  int offset = 0;
  for (int k = 0; k < n; ++k) c[k] = (int)counts[k], at[k] = offset, offset += c[k];
  const int err = MPI_Allgatherv(mine, c[rank], MPI_INT64_T, all, c, at, MPI_INT64_T, g->comm);
  free(c), free(at);
  return err == MPI_SUCCESS ? 0 : device_group_failed("MPI_Allgatherv", "failed", message, size);
}

static inline int device_group_allmax(void* user, int64_t* values, int n, char* message, size_t size) {
  const int err = MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, MPI_MAX, ((DeviceGroup*)user)->comm);
  return err == MPI_SUCCESS ? 0 : device_group_failed("MPI_Allreduce", "failed", message, size);
}

static inline int device_group_exchange(void* user, int axis, const void* const send[2], void* const recv[2], size_t bytes,
                                 char* message, size_t size) {
  DeviceGroup* g = (DeviceGroup*)user;
  if (bytes > (size_t)INT_MAX) return device_group_failed("exchange", "a slab over 2^31 - 1 bytes", message, size);
  if (bytes > g->host_bytes) {
    for (int s = 0; s < 4; ++s) {
      cudaFreeHost(g->host[s]);
      g->host[s] = NULL;
      if (cudaMallocHost(&g->host[s], bytes) != cudaSuccess)
        return device_group_failed("cudaMallocHost", "out of page-locked memory", message, size);
    }
    g->host_bytes = bytes;
  }
  MPI_Request requests[4];
  int n = 0;
  for (int side = 0; side < 2; ++side)
    if (send[side] != NULL && cudaMemcpy(g->host[side], send[side], bytes, cudaMemcpyDefault) != cudaSuccess)
      return device_group_failed("cudaMemcpy", cudaGetErrorString(cudaGetLastError()), message, size);
  for (int side = 0; side < 2; ++side)
    if (recv[side] != NULL)
      MPI_Irecv(g->host[2 + side], (int)bytes, MPI_BYTE, g->neighbours[2 * axis + side], 2 * axis + (1 - side),
                g->comm, &requests[n++]);
  for (int side = 0; side < 2; ++side)
    if (send[side] != NULL)
      MPI_Isend(g->host[side], (int)bytes, MPI_BYTE, g->neighbours[2 * axis + side], 2 * axis + side, g->comm,
                &requests[n++]);
  if (MPI_Waitall(n, requests, MPI_STATUSES_IGNORE) != MPI_SUCCESS)
    return device_group_failed("MPI_Waitall", "failed", message, size);
  /* From page-locked memory the copy is complete when it returns, as MPI's receive is. */
  for (int side = 0; side < 2; ++side)
    if (recv[side] != NULL && cudaMemcpy(recv[side], g->host[2 + side], bytes, cudaMemcpyDefault) != cudaSuccess)
      return device_group_failed("cudaMemcpy", cudaGetErrorString(cudaGetLastError()), message, size);
  return 0;
}

static inline void device_group_release(void* user) {
  DeviceGroup* g = (DeviceGroup*)user;
  for (int s = 0; s < 4; ++s) cudaFreeHost(g->host[s]);
  MPI_Comm_free(&g->comm);
  free(g);
}

/* The group and the decomposition of `cart` (1 to 3 dimensions), as opsplit_mpi makes them. */
static inline void device_group_make(MPI_Comm cart, opsplit_group* group, opsplit_decomposition* d) {
  DeviceGroup* g = calloc(1, sizeof *g);
  MPI_Comm_dup(cart, &g->comm);
  int ndims = 0, dims[3] = {1, 1, 1}, periods[3] = {0, 0, 0}, coords[3] = {0, 0, 0};
  MPI_Cartdim_get(cart, &ndims);
  MPI_Cart_get(cart, ndims, dims, periods, coords);
  for (int a = 0; a < 3; ++a) {
    int low = MPI_PROC_NULL, high = MPI_PROC_NULL;
    if (a < ndims) MPI_Cart_shift(cart, a, 1, &low, &high);
    g->neighbours[2 * a] = low, g->neighbours[2 * a + 1] = high;
    d->dims[a] = a < ndims ? dims[a] : 1;
    d->periodic[a] = a < ndims ? periods[a] : 0;
    d->coords[a] = a < ndims ? coords[a] : 0;
    d->neighbours[2 * a] = low == MPI_PROC_NULL ? -1 : low;
    d->neighbours[2 * a + 1] = high == MPI_PROC_NULL ? -1 : high;
  }
  MPI_Comm_rank(cart, &group->rank);
  MPI_Comm_size(cart, &group->size);
  group->user = g;
  group->allgather_int64 = device_group_allgather;
  group->allmax_int64 = device_group_allmax;
  group->release = device_group_release;
  group->exchange = device_group_exchange;
  group->device_pointers = 1;
}

#endif
