// opsplit on MPI (opsplit/mpi.h): an object's group (opsplit/distributed.h) made of a
// duplicate of the host's communicator, its collectives MPI_Allgatherv and
// MPI_Allreduce(MPI_MAX). Errors return (MPI_ERRORS_RETURN on the duplicate) and become
// opsplit statuses; nothing here prints or aborts.
#include <climits>
#include <cstdio>
#include <new>
#include <string>
#include <vector>

#include "opsplit/distributed.h"
#include "opsplit/mpi.h"

namespace {

struct MpiGroup {
  MPI_Comm comm = MPI_COMM_NULL;
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
  *group = opsplit_group{g, 0, 1, allgather_int64, allmax_int64, release};
  MPI_Comm_rank(g->comm, &group->rank);
  MPI_Comm_size(g->comm, &group->size);
  return OPSPLIT_SUCCESS;
}

}  // namespace

extern "C" OPSPLIT_MPI_API opsplit_status opsplit_mpi_pcpd_create(opsplit_context ctx, MPI_Fint comm,
                                                                  opsplit_pcpd_algorithm algorithm, int64_t L,
                                                                  int64_t replicas, opsplit_pcpd* pcpd) {
  opsplit_group group;
  const opsplit_status made = make_group(comm, __func__, &group);
  if (made != OPSPLIT_SUCCESS) return made;
  const opsplit_status status = opsplit_pcpd_create_distributed(ctx, algorithm, L, replicas, &group, pcpd);
  if (status == OPSPLIT_SUCCESS) return status;
  // The ensemble did not take the group. The message names the function the host called.
  const std::string message = opsplit_last_error_message();
  const size_t colon = message.find(": ");
  group.release(group.user);
  return opsplit_set_last_error(status, __func__,
                                colon == std::string::npos ? message.c_str() : message.c_str() + colon + 2);
}
