// opsplit on MPI (opsplit/mpi.h): an object's group (opsplit/distributed.h) made of a
// duplicate of the host's communicator, its collectives MPI_Allgatherv and
// MPI_Allreduce(MPI_MAX). Errors return (MPI_ERRORS_RETURN on the duplicate) and become
// opsplit statuses; nothing here prints or aborts.
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "opsplit/distributed.h"
#include "opsplit/mpi.h"
#if defined(OPEN_MPI) && OPEN_MPI
#include <mpi-ext.h>  // MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support
#endif

namespace {

struct MpiGroup {
  MPI_Comm comm = MPI_COMM_NULL;
  int neighbours[6] = {MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL, MPI_PROC_NULL};
};

int mpi_failed(int err, const char* what, char* message, size_t size) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  MPI_Error_string(err, text, &length);
  std::snprintf(message, size, "%s: %s", what, text);
  return 1;
}

int allgather_int64(void* user, const int64_t* mine, const int64_t* counts, int64_t* all, char* message,
                    size_t size) {
  const MPI_Comm comm = static_cast<MpiGroup*>(user)->comm;
  int n = 0, rank = 0;
  MPI_Comm_size(comm, &n);
  MPI_Comm_rank(comm, &rank);
  try {
    // MPI counts are ints: every process sees the same counts, so all refuse alike.
    std::vector<int> c(static_cast<size_t>(n)), at(static_cast<size_t>(n));
    int64_t offset = 0;
    for (int k = 0; k < n; ++k) {
      if (counts[k] > INT_MAX || offset > INT_MAX) {
        std::snprintf(message, size, "more than 2^31 - 1 values to gather (MPI counts are ints)");
        return 1;
      }
      c[size_t(k)] = static_cast<int>(counts[k]), at[size_t(k)] = static_cast<int>(offset);
      offset += counts[k];
    }
    const int err = MPI_Allgatherv(mine, c[size_t(rank)], MPI_INT64_T, all, c.data(), at.data(), MPI_INT64_T, comm);
    return err == MPI_SUCCESS ? 0 : mpi_failed(err, "MPI_Allgatherv", message, size);
  } catch (const std::bad_alloc&) {
    std::snprintf(message, size, "out of host memory");
    return 1;
  }
}

int allmax_int64(void* user, int64_t* values, int n, char* message, size_t size) {
  const int err =
      MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_INT64_T, MPI_MAX, static_cast<MpiGroup*>(user)->comm);
  return err == MPI_SUCCESS ? 0 : mpi_failed(err, "MPI_Allreduce", message, size);
}

// Along an axis: each side's slab to the neighbour there, tagged by the direction it
// travels (2 axis + side), and the neighbour's slab travelling the other way from it.
int exchange(void* user, int axis, const void* const send[2], void* const recv[2], size_t bytes, char* message,
             size_t size) {
  const auto* g = static_cast<MpiGroup*>(user);
  if (bytes > static_cast<size_t>(INT_MAX)) {
    std::snprintf(message, size, "a face of %zu bytes is more than MPI's int count of bytes", bytes);
    return 1;
  }
  const int count = static_cast<int>(bytes);
  MPI_Request requests[4];
  int n = 0, err = MPI_SUCCESS;
  for (int side = 0; side < 2 && err == MPI_SUCCESS; ++side)
    if (recv[side] != nullptr)
      err = MPI_Irecv(recv[side], count, MPI_BYTE, g->neighbours[2 * axis + side], 2 * axis + (1 - side), g->comm,
                      &requests[n++]);
  for (int side = 0; side < 2 && err == MPI_SUCCESS; ++side)
    if (send[side] != nullptr)
      err = MPI_Isend(send[side], count, MPI_BYTE, g->neighbours[2 * axis + side], 2 * axis + side, g->comm,
                      &requests[n++]);
  if (err != MPI_SUCCESS) return mpi_failed(err, "MPI_Irecv/MPI_Isend", message, size);
  err = MPI_Waitall(n, requests, MPI_STATUSES_IGNORE);
  return err == MPI_SUCCESS ? 0 : mpi_failed(err, "MPI_Waitall", message, size);
}

// Whether MPI takes device pointers: OPSPLIT_MPI_CUDA_AWARE=0 or 1 if set, else Open
// MPI's answer at run time (MPIX_Query_cuda_support), else no.
int cuda_aware() {
  const char* env = std::getenv("OPSPLIT_MPI_CUDA_AWARE");
  if (env != nullptr && *env != '\0') return std::strcmp(env, "0") != 0;
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support();
#else
  return 0;
#endif
}

void release(void* user) {
  auto* g = static_cast<MpiGroup*>(user);
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized && g->comm != MPI_COMM_NULL) MPI_Comm_free(&g->comm);
  delete g;
}

// A group over a duplicate of comm, or a status with the message set.
opsplit_status make_group(MPI_Fint comm, const char* function, opsplit_group* group) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (!initialized || finalized)
    return opsplit_set_last_error(OPSPLIT_ERROR_INVALID_ARGUMENT, function,
                                  "MPI is not initialized (call MPI_Init first) or is already finalized");
  const MPI_Comm host = MPI_Comm_f2c(comm);
  if (host == MPI_COMM_NULL) return opsplit_set_last_error(OPSPLIT_ERROR_INVALID_ARGUMENT, function, "comm is MPI_COMM_NULL");
  auto* g = new (std::nothrow) MpiGroup;
  if (g == nullptr) return opsplit_set_last_error(OPSPLIT_ERROR_OUT_OF_MEMORY, function, "out of host memory");
  char message[512];
  int err = MPI_Comm_dup(host, &g->comm);
  if (err == MPI_SUCCESS) err = MPI_Comm_set_errhandler(g->comm, MPI_ERRORS_RETURN);
  if (err != MPI_SUCCESS) {
    mpi_failed(err, "MPI_Comm_dup", message, sizeof message);
    release(g);
    return opsplit_set_last_error(OPSPLIT_ERROR_COMMUNICATION, function, message);
  }
  *group = opsplit_group{g, 0, 1, allgather_int64, allmax_int64, release, exchange, 0};
  MPI_Comm_rank(g->comm, &group->rank);
  MPI_Comm_size(g->comm, &group->size);
  return OPSPLIT_SUCCESS;
}

// A group over a duplicate of comm, a Cartesian communicator of 1 to max_dims
// dimensions, and this process's place in it (dimension a: the object's axis a), or a
// status with the message set. The same answers on every process (the communicator's
// topology is collective).
opsplit_status make_cartesian_group(MPI_Fint comm, int max_dims, const char* function, opsplit_group* group,
                                    opsplit_decomposition* d) {
  const opsplit_status made = make_group(comm, function, group);
  if (made != OPSPLIT_SUCCESS) return made;
  auto* g = static_cast<MpiGroup*>(group->user);
  int topology = MPI_UNDEFINED, ndims = 0;
  MPI_Topo_test(g->comm, &topology);
  if (topology == MPI_CART) MPI_Cartdim_get(g->comm, &ndims);
  if (topology != MPI_CART || ndims < 1 || ndims > max_dims) {
    group->release(group->user);
    const std::string why = topology != MPI_CART
                                ? "comm is not a Cartesian communicator (make one with MPI_Cart_create)"
                                : "comm's Cartesian topology has more than " + std::to_string(max_dims) + " dimensions";
    return opsplit_set_last_error(OPSPLIT_ERROR_INVALID_ARGUMENT, function, why.c_str());
  }
  int dims[3] = {1, 1, 1}, periods[3] = {0, 0, 0}, coords[3] = {0, 0, 0};
  MPI_Cart_get(g->comm, ndims, dims, periods, coords);
  *d = opsplit_decomposition{};
  for (int a = 0; a < 3; ++a) {
    d->dims[a] = dims[a], d->periodic[a] = periods[a], d->coords[a] = coords[a];
    int low = MPI_PROC_NULL, high = MPI_PROC_NULL;
    if (a < ndims) MPI_Cart_shift(g->comm, a, 1, &low, &high);
    g->neighbours[2 * a] = low, g->neighbours[2 * a + 1] = high;
    d->neighbours[2 * a] = low == MPI_PROC_NULL ? -1 : low;
    d->neighbours[2 * a + 1] = high == MPI_PROC_NULL ? -1 : high;
  }
  group->device_pointers = cuda_aware();
  return OPSPLIT_SUCCESS;
}

// A failed core call did not take the group: frees it, and names the host's function
// in the message.
opsplit_status give_back(opsplit_group& group, opsplit_status status, const char* function) {
  const std::string message = opsplit_last_error_message();
  const size_t colon = message.find(": ");
  group.release(group.user);
  return opsplit_set_last_error(status, function,
                                colon == std::string::npos ? message.c_str() : message.c_str() + colon + 2);
}

// attach(group, place) over a Cartesian communicator of 1 to max_dims dimensions; the
// group freed if it fails.
template <class Attach>
opsplit_status attach_over(MPI_Fint comm, int max_dims, const char* function, Attach attach) {
  opsplit_group group;
  opsplit_decomposition d{};
  const opsplit_status made = make_cartesian_group(comm, max_dims, function, &group, &d);
  if (made != OPSPLIT_SUCCESS) return made;
  const opsplit_status status = attach(&group, &d);
  return status == OPSPLIT_SUCCESS ? status : give_back(group, status, function);
}

}  // namespace

extern "C" OPSPLIT_MPI_API opsplit_status opsplit_mpi_pcpd_create(opsplit_context ctx, MPI_Fint comm,
                                                                  opsplit_pcpd_algorithm algorithm, int64_t L,
                                                                  int64_t replicas, opsplit_pcpd* pcpd) {
  opsplit_group group;
  const opsplit_status made = make_group(comm, __func__, &group);
  if (made != OPSPLIT_SUCCESS) return made;
  const opsplit_status status = opsplit_pcpd_create_distributed(ctx, algorithm, L, replicas, &group, pcpd);
  return status == OPSPLIT_SUCCESS ? status : give_back(group, status, __func__);
}

extern "C" OPSPLIT_MPI_API opsplit_status opsplit_mpi_field_attach(opsplit_field field, MPI_Fint comm) {
  return attach_over(comm, 3, __func__, [&](const opsplit_group* group, const opsplit_decomposition* d) {
    return opsplit_field_attach_distributed(field, group, d);
  });
}

extern "C" OPSPLIT_MPI_API opsplit_status opsplit_mpi_ca_attach(opsplit_ca ca, MPI_Fint comm) {
  return attach_over(comm, 2, __func__, [&](const opsplit_group* group, const opsplit_decomposition* d) {
    return opsplit_ca_attach_distributed(ca, group, d);
  });
}
