/* opsplit's hooks for communication layers (the group; each capability's header
 * declares its own attach or create call over a group): how a library such as opsplit_mpi
 * (opsplit/mpi.h) spreads an object over a group of processes while the core depends on
 * no message-passing library. Hosts use opsplit/mpi.h; this header is for such layers.
 *
 * A group is the processes' ranks 0 .. size-1 and two collective operations, each
 * called by every process of the group in the same order. Each returns 0, or nonzero
 * after writing a NUL-terminated message of at most message_size bytes (the object's
 * call then fails with OPSPLIT_ERROR_COMMUNICATION).
 *
 * No Fortran bindings: a group is a table of C function pointers that a communication
 * layer written in C fills; Fortran hosts use module opsplit_mpi, whose calls make the
 * group from their communicator. */
#ifndef OPSPLIT_GROUP_H
#define OPSPLIT_GROUP_H

#include <stddef.h>
#include <stdint.h>

#include "opsplit/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct opsplit_group {
  void* user;
  int rank, size;
  /* all[0 .. sum of counts) = every process's mine[0 .. counts[rank]) in rank order. */
  int (*allgather_int64)(void* user, const int64_t* mine, const int64_t* counts, int64_t* all, char* message,
                         size_t message_size);
  /* values[0 .. n) = their maximum over the processes, in place. */
  int (*allmax_int64)(void* user, int64_t* values, int n, char* message, size_t message_size);
  /* Frees user: the object that owns the group is destroyed (may be NULL). */
  void (*release)(void* user);
  /* Fields only (may be NULL otherwise): along `axis` (0 x, 1 y, 2 z), sends send[s] to
   * the neighbour on side s (0 low, 1 high) and receives recv[s] from it, `bytes` each;
   * a NULL pair means no neighbour on that side. Pointers are host memory, or device
   * memory where device_pointers is nonzero (a CUDA-aware MPI); the tokens of the
   * slabs that go by CUDA IPC (8 bytes a side) are host memory either way. Collective
   * over the group: every process calls it for the same axes in the same order. */
  int (*exchange)(void* user, int axis, const void* const send[2], void* const recv[2], size_t bytes,
                  char* message, size_t message_size);
  int device_pointers;
} opsplit_group;

/* An object's place in a Cartesian decomposition of the global grid over the group
 * (a field's axes x, y, z; a CA grid's rows, then columns, with dims[2] = 1). */
typedef struct opsplit_decomposition {
  int dims[3];       /* processes along x, y, z */
  int periodic[3];   /* the axis wraps around across processes */
  int coords[3];     /* this process's position, 0 .. dims - 1 */
  int neighbours[6]; /* the rank across each face (OPSPLIT_FACE_*), -1 where none */
} opsplit_decomposition;

/* Sets the calling thread's last error (what opsplit_last_error_message returns) to
 * "function: message" and returns status: a layer's own failures read like the core's.
 * A status that is none of opsplit_status's values gives OPSPLIT_ERROR_INVALID_ARGUMENT
 * and a message saying so. */
OPSPLIT_API opsplit_status opsplit_set_last_error(opsplit_status status, const char* function, const char* message);

#ifdef __cplusplus
}
#endif

#endif
