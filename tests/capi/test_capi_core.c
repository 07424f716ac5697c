/* C-API tests of the core: version, status strings, last error, contexts. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "check.h"
#include "opsplit/distributed.h" /* opsplit_set_last_error */

static int calls = 0;
static int count_calls(double fraction, const char* what, void* user) {
  (void)fraction;
  (void)what;
  (void)user;
  calls++;
  return 0;
}

int main(void) {
  int major = -1, minor = -1, patch = -1;
  opsplit_get_version(&major, &minor, &patch);
  CHECK(major == OPSPLIT_VERSION_MAJOR && minor == OPSPLIT_VERSION_MINOR && patch == OPSPLIT_VERSION_PATCH);
  CHECK(major == 0 && minor == 1 && patch == 0);
  opsplit_get_version(NULL, NULL, NULL); /* tolerated */

  CHECK(strcmp(opsplit_status_string(OPSPLIT_SUCCESS), "OPSPLIT_SUCCESS") == 0);
  CHECK(strcmp(opsplit_status_string(OPSPLIT_ERROR_CANCELLED), "OPSPLIT_ERROR_CANCELLED") == 0);
  CHECK(strcmp(opsplit_status_string((opsplit_status)99), "unknown opsplit_status") == 0);
  CHECK(OPSPLIT_ERROR_INTERNAL == 11 && OPSPLIT_BACKEND_CUDA == 2 && OPSPLIT_FLOAT32 == 1);
  CHECK(OPSPLIT_ERROR_COMMUNICATION == 12);
  CHECK(strcmp(opsplit_status_string(OPSPLIT_ERROR_COMMUNICATION), "OPSPLIT_ERROR_COMMUNICATION") == 0);
  CHECK(strcmp(opsplit_status_string((opsplit_status)-1), "unknown opsplit_status") == 0);
  /* Every status of the list has its own name, and the values run 0, 1, ... */
  int listed = 0;
#define CHECK_STATUS(name, value)                         \
  CHECK(strcmp(opsplit_status_string(name), #name) == 0); \
  CHECK((int)(name) == (value));                          \
  CHECK((value) == listed);                               \
  ++listed;
  OPSPLIT_STATUS_LIST(CHECK_STATUS)
#undef CHECK_STATUS
  CHECK(listed == 13);
  CHECK(strcmp(opsplit_status_string((opsplit_status)listed), "unknown opsplit_status") == 0);
  /* A layer's error (opsplit/distributed.h): its status and message; a status that is no
   * opsplit_status is refused rather than handed back. */
  CHECK(opsplit_set_last_error(OPSPLIT_ERROR_IO, "layer_call", "no such file") == OPSPLIT_ERROR_IO);
  CHECK(strcmp(opsplit_last_error_message(), "layer_call: no such file") == 0);
  CHECK(opsplit_set_last_error((opsplit_status)99, "layer_call", "boom") == OPSPLIT_ERROR_INVALID_ARGUMENT);
  CHECK(strcmp(opsplit_last_error_message(), "opsplit_set_last_error: status=99 is not an opsplit_status") == 0);

  /* Contexts: bad arguments. */
  opsplit_context ctx = NULL;
  EXPECT_ERROR(opsplit_context_create(OPSPLIT_BACKEND_CPU, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_context_create", "ctx");
  EXPECT_ERROR(opsplit_context_create((opsplit_backend)7, &ctx), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_context_create", "backend=7");
  EXPECT_ERROR(opsplit_context_create((opsplit_backend)-1, &ctx), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_context_create", "backend=-1");
  CHECK(ctx == NULL);
  EXPECT_ERROR(opsplit_context_create_on_device(-1, &ctx), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_context_create_on_device", "cuda_device=-1");
  if (!opsplit_cuda_available()) {
    EXPECT_ERROR(opsplit_context_create(OPSPLIT_BACKEND_CUDA, &ctx), OPSPLIT_ERROR_BACKEND_UNAVAILABLE,
                 "opsplit_context_create", "CUDA");
    EXPECT_ERROR(opsplit_context_create_on_device(0, &ctx), OPSPLIT_ERROR_BACKEND_UNAVAILABLE,
                 "opsplit_context_create_on_device", "CUDA");
    CHECK(ctx == NULL);
  }

  /* The environment override of AUTO, and a bad value of it. */
  const char* saved = getenv("OPSPLIT_BACKEND");
  char saved_copy[32] = "";
  if (saved) strncpy(saved_copy, saved, sizeof saved_copy - 1);
  setenv("OPSPLIT_BACKEND", "gpu", 1);
  EXPECT_ERROR(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_context_create", "OPSPLIT_BACKEND='gpu'");
  setenv("OPSPLIT_BACKEND", "cpu", 1);
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  opsplit_backend backend = OPSPLIT_BACKEND_AUTO;
  CHECK_OK(opsplit_context_get_backend(ctx, &backend));
  CHECK(backend == OPSPLIT_BACKEND_CPU);
  CHECK(strcmp(opsplit_last_error_message(), "") == 0); /* success clears the message */
  CHECK_OK(opsplit_context_destroy(&ctx));
  CHECK(ctx == NULL);
  if (saved)
    setenv("OPSPLIT_BACKEND", saved_copy, 1);
  else
    unsetenv("OPSPLIT_BACKEND");

  /* A context on the backend this run is for (AUTO + OPSPLIT_BACKEND). */
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &ctx));
  CHECK_OK(opsplit_context_get_backend(ctx, &backend));
  CHECK(backend == OPSPLIT_BACKEND_CPU || backend == OPSPLIT_BACKEND_CUDA);
  if (!opsplit_cuda_available()) CHECK(backend == OPSPLIT_BACKEND_CPU);
  printf("backend: %s\n", backend == OPSPLIT_BACKEND_CUDA ? "cuda" : "cpu");
  int device = -2;
  CHECK_OK(opsplit_context_get_cuda_device(ctx, &device));
  CHECK(backend == OPSPLIT_BACKEND_CUDA ? device >= 0 : device == -1);
  EXPECT_ERROR(opsplit_context_get_cuda_device(ctx, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_context_get_cuda_device", "device");
  EXPECT_ERROR(opsplit_context_get_cuda_device(NULL, &device), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_context_get_cuda_device", "ctx");

  EXPECT_ERROR(opsplit_context_get_backend(ctx, NULL), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_context_get_backend",
               "backend");
  EXPECT_ERROR(opsplit_context_get_backend(NULL, &backend), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_context_get_backend", "ctx");
  EXPECT_ERROR(opsplit_context_set_num_threads(ctx, -2), OPSPLIT_ERROR_INVALID_ARGUMENT,
               "opsplit_context_set_num_threads", "nthreads=-2");
  CHECK_OK(opsplit_context_set_num_threads(ctx, 2));
  CHECK_OK(opsplit_context_set_num_threads(ctx, 0));
  EXPECT_ERROR(opsplit_context_set_num_threads(NULL, 1), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_context_set_num_threads", "ctx");
  if (backend == OPSPLIT_BACKEND_CPU) {
    int dummy = 0;
    EXPECT_ERROR(opsplit_context_set_cuda_stream(ctx, &dummy), OPSPLIT_ERROR_UNSUPPORTED,
                 "opsplit_context_set_cuda_stream", "CPU context");
  } else {
    CHECK_OK(opsplit_context_set_cuda_stream(ctx, NULL));
  }
  EXPECT_ERROR(opsplit_context_set_cuda_stream(NULL, NULL), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_context_set_cuda_stream", "ctx");
  CHECK_OK(opsplit_context_synchronize(ctx));
  EXPECT_ERROR(opsplit_context_synchronize(NULL), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_context_synchronize", "ctx");
  CHECK_OK(opsplit_context_set_progress_callback(ctx, count_calls, NULL));
  CHECK_OK(opsplit_context_set_progress_callback(ctx, NULL, NULL));
  EXPECT_ERROR(opsplit_context_set_progress_callback(NULL, count_calls, NULL), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_context_set_progress_callback", "ctx");

  /* Garbage and destroyed handles are caught, never dereferenced. */
  int not_a_context = 42;
  opsplit_context garbage = (opsplit_context)(void*)&not_a_context;
  EXPECT_ERROR(opsplit_context_get_backend(garbage, &backend), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_context_get_backend", "not a live opsplit_context");
  EXPECT_ERROR(opsplit_context_destroy(&garbage), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_context_destroy", "ctx");

  /* Destroying a context with live objects is refused and counts them. */
  opsplit_field f1 = NULL, f2 = NULL;
  CHECK_OK(opsplit_field_create(ctx, 4, 4, 4, 1, OPSPLIT_FLOAT64, &f1));
  CHECK_OK(opsplit_field_create(ctx, 4, 4, 1, 2, OPSPLIT_FLOAT32, &f2));
  EXPECT_ERROR(opsplit_context_destroy(&ctx), OPSPLIT_ERROR_INVALID_ARGUMENT, "opsplit_context_destroy",
               "2 object(s)");
  CHECK(ctx != NULL);
  CHECK_OK(opsplit_field_destroy(&f1));
  CHECK_OK(opsplit_field_destroy(&f2));
  CHECK(f1 == NULL && f2 == NULL);

  opsplit_context stale = ctx;
  CHECK_OK(opsplit_context_destroy(&ctx));
  CHECK(ctx == NULL);
  EXPECT_ERROR(opsplit_context_get_backend(stale, &backend), OPSPLIT_ERROR_INVALID_HANDLE,
               "opsplit_context_get_backend", "destroyed");
  EXPECT_ERROR(opsplit_context_destroy(&stale), OPSPLIT_ERROR_INVALID_HANDLE, "opsplit_context_destroy", "ctx");
  CHECK_OK(opsplit_context_destroy(&ctx)); /* *ctx == NULL: no-op */
  CHECK_OK(opsplit_context_destroy(NULL));
  return check_summary();
}
