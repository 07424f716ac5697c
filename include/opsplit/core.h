/* opsplit core: status codes, errors, version, contexts and backends.
 *
 * Every function returns an opsplit_status except the version, status-string,
 * last-error and opsplit_cuda_available queries. On failure the thread-local
 * message from opsplit_last_error_message() names the function, the argument and
 * the limit; on success it is the empty string. */
#ifndef OPSPLIT_CORE_H
#define OPSPLIT_CORE_H

#include <stdint.h>

#include "opsplit/export.h"
#include "opsplit/version.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every status once, X(name, value), in the style of libuv's UV_ERRNO_MAP: the enum
 * below, opsplit_status_string's names and the library's own checks are made from it,
 * and the Fortran module's constants are tested against it. */
#define OPSPLIT_STATUS_LIST(X)                                                        \
  X(OPSPLIT_SUCCESS, 0)                                                               \
  X(OPSPLIT_ERROR_INVALID_ARGUMENT, 1)                                                \
  X(OPSPLIT_ERROR_INVALID_HANDLE, 2)                                                  \
  X(OPSPLIT_ERROR_OUT_OF_MEMORY, 3)                                                   \
  X(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, 4)                                             \
  X(OPSPLIT_ERROR_UNSUPPORTED, 5)                                                     \
  X(OPSPLIT_ERROR_NUMERICAL, 6)      /* NaN, instability, integration failure */      \
  X(OPSPLIT_ERROR_IO, 7)                                                              \
  X(OPSPLIT_ERROR_PARSE, 8)                                                           \
  X(OPSPLIT_ERROR_DEVICE, 9)         /* a CUDA runtime failure */                     \
  X(OPSPLIT_ERROR_CANCELLED, 10)     /* a progress callback asked to stop */          \
  X(OPSPLIT_ERROR_INTERNAL, 11)                                                       \
  X(OPSPLIT_ERROR_COMMUNICATION, 12) /* a message-passing failure (opsplit_mpi) */

typedef enum opsplit_status {
#define OPSPLIT_STATUS_ENUMERATOR_(name, value) name = value,
  OPSPLIT_STATUS_LIST(OPSPLIT_STATUS_ENUMERATOR_)
#undef OPSPLIT_STATUS_ENUMERATOR_
} opsplit_status;

typedef enum opsplit_backend {
  OPSPLIT_BACKEND_AUTO = 0, /* CUDA when opsplit_cuda_available(), else CPU; env OPSPLIT_BACKEND=cpu|cuda overrides */
  OPSPLIT_BACKEND_CPU = 1,
  OPSPLIT_BACKEND_CUDA = 2
} opsplit_backend;

typedef enum opsplit_precision { OPSPLIT_FLOAT64 = 0, OPSPLIT_FLOAT32 = 1 } opsplit_precision;

typedef struct opsplit_context_s* opsplit_context;

/* Progress callback: called by long calls with the fraction done (0..1) and the
 * name of the call; a non-zero return cancels the call with OPSPLIT_ERROR_CANCELLED. */
typedef int (*opsplit_progress_fn)(double fraction, const char* what, void* user);

OPSPLIT_API void opsplit_get_version(int* major, int* minor, int* patch);
OPSPLIT_API const char* opsplit_status_string(opsplit_status status);
OPSPLIT_API const char* opsplit_last_error_message(void);
/* 1: built with CUDA and a device is usable; 0 otherwise. */
OPSPLIT_API int opsplit_cuda_available(void);

/* A CUDA context (backend CUDA, or AUTO where CUDA is available) takes the GPU that
 * OPSPLIT_CUDA_DEVICE names; else, under an MPI launcher that gives each process its
 * rank on the node (Open MPI, MPICH, MVAPICH2, Slurm, PMI), that rank modulo the node's
 * GPUs, so that the ranks of a node spread over its GPUs; else GPU 0. */
OPSPLIT_API opsplit_status opsplit_context_create(opsplit_backend backend, opsplit_context* ctx);
OPSPLIT_API opsplit_status opsplit_context_create_on_device(int cuda_device, opsplit_context* ctx);
/* The GPU of a CUDA context, -1 for a CPU context. */
OPSPLIT_API opsplit_status opsplit_context_get_cuda_device(opsplit_context ctx, int* device);
/* Refused (INVALID_ARGUMENT) while objects made from the context are alive. */
OPSPLIT_API opsplit_status opsplit_context_destroy(opsplit_context* ctx);
OPSPLIT_API opsplit_status opsplit_context_get_backend(opsplit_context ctx, opsplit_backend* backend);
/* CPU: OpenMP threads used by the context's calls, at most 4096; 0 restores the OpenMP default.
 * On a CUDA context it sets the threads of host-side work only. */
OPSPLIT_API opsplit_status opsplit_context_set_num_threads(opsplit_context ctx, int nthreads);
/* CUDA only: order the context's work on the host's cudaStream_t (passed as void*);
 * NULL gives back the context's own stream. The stream must outlive its use. */
OPSPLIT_API opsplit_status opsplit_context_set_cuda_stream(opsplit_context ctx, void* stream);
/* Waits for the context's work; reports an asynchronous device failure. */
OPSPLIT_API opsplit_status opsplit_context_synchronize(opsplit_context ctx);
/* fn NULL removes the callback. */
OPSPLIT_API opsplit_status opsplit_context_set_progress_callback(opsplit_context ctx,
                                                                 opsplit_progress_fn fn, void* user);

#ifdef __cplusplus
}
#endif

#endif
