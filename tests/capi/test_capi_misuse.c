/* The misuse sweep (issue 39): every function of the public headers called with bad
 * arguments of every kind it takes, and the objects it was called on checked after.
 *
 * - Handles: NULL, destroyed ("stale"), a live object of another type, a block of
 *   zeros, and a block holding the type's magic word that opsplit never made: each is
 *   INVALID_HANDLE, never dereferenced (ASan + UBSan run this in CI).
 * - NULL outputs and inputs, enums and indices out of range, zero, negative and
 *   overflowing sizes, NaN and Inf: each gets its status, and a message that starts
 *   with the function's name.
 * - After the bad calls on an object a good call on it succeeds, and at the end every
 *   object the sweep misused runs a workload (field steps, an integration, generations,
 *   lava steps, an ensemble) whose results must be the same bits as the same objects'
 *   made fresh: no bad call changed anything.
 * - No function is left out: the sweep records the name of every function it called
 *   badly and compares them with the list of functions the headers declare
 *   (declared_functions.h, generated at configure time from the public headers).
 *
 * argv[1]: a Cantera YAML gas mechanism (the gas functions need one). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "declared_functions.h"
#include "opsplit/distributed.h"
#ifdef OPSPLIT_TEST_MPI
#include <mpi.h>

#include "opsplit/mpi.h"
#endif

/* ---- which functions the sweep called badly ------------------------------------- */
static char swept[256][64];
static int nswept = 0;
static void note_swept(const char* call_text) {
  char name[64];
  size_t n = strcspn(call_text, "( ");
  if (n >= sizeof name) n = sizeof name - 1;
  memcpy(name, call_text, n);
  name[n] = '\0';
  for (int i = 0; i < nswept; i++)
    if (strcmp(swept[i], name) == 0) return;
  if (nswept < 256) strcpy(swept[nswept++], name);
}

/* The call fails with `want`, and the message starts with "function: " and says more. */
static void bad_at(opsplit_status got, opsplit_status want, const char* text, int line) {
  note_swept(text);
  const char* msg = opsplit_last_error_message();
  size_t n = strcspn(text, "(");
  int ok = got == want && strncmp(msg, text, n) == 0 && msg[n] == ':' && strlen(msg) > n + 2;
  if (ok) {
    checks_passed++;
  } else {
    checks_failed++;
    fprintf(stderr, "line %d: %s\n  got %s \"%s\"\n  want %s\n", line, text, opsplit_status_string(got), msg,
            opsplit_status_string(want));
  }
}
#define BAD(want, call) bad_at((call), (want), #call, __LINE__)
#define BAD_ARG(call) BAD(OPSPLIT_ERROR_INVALID_ARGUMENT, call)
/* A _device form given host memory or a bad argument (this test has no device memory:
 * test_device_arrays gives them real device arrays): a CPU context refuses every device
 * form as UNSUPPORTED before anything else, a CUDA context refuses the argument or the
 * host array as INVALID_ARGUMENT. */
static int sweep_on_cuda = 0;
#define BAD_DEVICE(call) BAD(sweep_on_cuda ? OPSPLIT_ERROR_INVALID_ARGUMENT : OPSPLIT_ERROR_UNSUPPORTED, call)

/* ---- bad handles ------------------------------------------------------------------ */
enum kind { K_CONTEXT, K_FIELD, K_RD, K_MECHANISM, K_ODE, K_CA, K_PCPD, K_GW, NKINDS };
/* The magic words opsplit's objects start with (src/core/handle.hpp): a forged block
 * holding one is still not an object opsplit made. */
static const uint64_t magic[NKINDS] = {0x6f7073706c637478ULL, 0x6f7073706c666c64ULL, 0x6f7073706c5f7264ULL,
                                       0x6f7073706c6d6563ULL, 0x6f7073706c6f6465ULL, 0x6f7073706c5f6361ULL,
                                       0x6f707370706370ULL, 0x6f7073706c5f6777ULL};
static void* stale[NKINDS];      /* made and destroyed before the sweep */
static void* other_live[NKINDS]; /* a live object of another type */
static _Alignas(64) unsigned char zeros[4096];
static _Alignas(64) unsigned char forged[NKINDS][4096];
enum { NBAD_HANDLES = 5 };
static void* bad_handle(enum kind k, int variant) {
  switch (variant) {
    case 0: return NULL;
    case 1: return stale[k];
    case 2: return other_live[k];
    case 3: return zeros;
    default: return forged[k];
  }
}
/* `call` names the bad handle H. */
#define BAD_HANDLES(kind, type, call)                      \
  do {                                                     \
    for (int v_ = 0; v_ < NBAD_HANDLES; v_++) {            \
      type H = (type)bad_handle(kind, v_);                 \
      BAD(OPSPLIT_ERROR_INVALID_HANDLE, call);             \
    }                                                      \
  } while (0)
/* destroy(&H): NULL is a no-op (documented); the others INVALID_HANDLE, H kept. */
#define BAD_DESTROY(kind, type, destroy)                   \
  do {                                                     \
    for (int v_ = 1; v_ < NBAD_HANDLES; v_++) {            \
      type H = (type)bad_handle(kind, v_);                 \
      BAD(OPSPLIT_ERROR_INVALID_HANDLE, destroy(&H));      \
      CHECK(H == (type)bad_handle(kind, v_));              \
    }                                                      \
  } while (0)

/* ---- the objects, and what they compute ------------------------------------------ */
enum { NX = 8, NY = 6, NZ = 4, NCOMP = 2, NEQ = 2, NSYS = 5, NPARAM = 1, ROWS = 16, COLS = 64, LR = 9, LC = 9,
       PCPD_L = 128, PCPD_R = 4, NGW = 4 };
typedef struct {
  opsplit_context ctx;
  opsplit_field field, velocity;
  opsplit_rd rd;
  opsplit_mechanism mech, gas;
  opsplit_ode ode;
  opsplit_ca life, lava;
  opsplit_pcpd pcpd;
  opsplit_gw gw;
  int nspecies_gas;
} objects;

static const char* gas_path = NULL;

static void make_objects(objects* o) {
  memset(o, 0, sizeof *o);
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_AUTO, &o->ctx));
  CHECK_OK(opsplit_field_create(o->ctx, NX, NY, NZ, NCOMP, OPSPLIT_FLOAT64, &o->field));
  CHECK_OK(opsplit_field_set_spacing(o->field, 0.5, 0.5, 0.5));
  CHECK_OK(opsplit_field_create(o->ctx, NX, NY, NZ, 3, OPSPLIT_FLOAT64, &o->velocity));
  CHECK_OK(opsplit_rd_create(o->ctx, NCOMP, &o->rd));
  CHECK_OK(opsplit_rd_set_diffusion(o->rd, 0, 0.1));
  CHECK_OK(opsplit_rd_set_diffusion(o->rd, 1, 0.05));
  CHECK_OK(opsplit_rd_set_reaction(o->rd, OPSPLIT_REACTION_GRAY_SCOTT));
  CHECK_OK(opsplit_mechanism_create(o->ctx, &o->mech));
  int a = -1, b = -1, r = -1, one = 1;
  CHECK_OK(opsplit_mechanism_add_species(o->mech, "A", &a));
  CHECK_OK(opsplit_mechanism_add_species(o->mech, "B", &b));
  CHECK_OK(opsplit_mechanism_add_reaction(o->mech, 1, &a, &one, 1, &b, &one, &r));
  CHECK_OK(opsplit_mechanism_set_rate(o->mech, r, OPSPLIT_RATE_PARAMETER, 1, 0, 0, 0));
  CHECK_OK(opsplit_mechanism_load_yaml(o->ctx, gas_path, NULL, &o->gas));
  int nr = 0, np = 0;
  CHECK_OK(opsplit_mechanism_get_counts(o->gas, &o->nspecies_gas, &nr, &np));
  CHECK_OK(opsplit_ode_create(o->ctx, NEQ, NSYS, NPARAM, &o->ode));
  CHECK_OK(opsplit_ode_set_mechanism(o->ode, o->mech));
  CHECK_OK(opsplit_ca_create(o->ctx, OPSPLIT_CA_LIFE, ROWS, COLS, &o->life));
  CHECK_OK(opsplit_ca_create(o->ctx, OPSPLIT_CA_SCIARA_FV2, LR, LC, &o->lava));
  CHECK_OK(opsplit_pcpd_create(o->ctx, OPSPLIT_PCPD_EXACT, PCPD_L, PCPD_R, &o->pcpd));
  CHECK_OK(opsplit_pcpd_set_probabilities(o->pcpd, 0.1, 0.5));
  CHECK_OK(opsplit_gw_create(o->ctx, o->mech, NGW, &o->gw));
}

static void destroy_objects(objects* o) {
  CHECK_OK(opsplit_gw_destroy(&o->gw));
  CHECK_OK(opsplit_pcpd_destroy(&o->pcpd));
  CHECK_OK(opsplit_ca_destroy(&o->lava));
  CHECK_OK(opsplit_ca_destroy(&o->life));
  CHECK_OK(opsplit_ode_destroy(&o->ode));
  CHECK_OK(opsplit_mechanism_destroy(&o->gas));
  CHECK_OK(opsplit_mechanism_destroy(&o->mech));
  CHECK_OK(opsplit_rd_destroy(&o->rd));
  CHECK_OK(opsplit_field_destroy(&o->velocity));
  CHECK_OK(opsplit_field_destroy(&o->field));
  CHECK_OK(opsplit_context_destroy(&o->ctx));
}

enum { NFIELD = NX * NY * NZ * NCOMP, NSTATE = NEQ * NSYS, NLAVA = LR * LC, NSERIES = 64 };
typedef struct {
  double field[NFIELD], state[NSTATE], thickness[NLAVA], temperature[NLAVA], mean[NSERIES];
  uint8_t cells[ROWS * COLS];
  double ydot[64];
  int64_t length;
} results;

/* The same work on any set of objects: results the same bits when nothing changed them. */
static void workload(objects* o, results* out) {
  memset(out, 0, sizeof *out);
  double host[NFIELD];
  for (int i = 0; i < NFIELD; i++) host[i] = i < NFIELD / 2 ? 1.0 - 0.001 * (i % 97) : 0.01 * (i % 13);
  CHECK_OK(opsplit_field_upload(o->field, host, OPSPLIT_LAYOUT_PLANAR));
  double dt = 0;
  CHECK_OK(opsplit_rd_max_stable_dt(o->rd, o->field, &dt));
  CHECK_OK(opsplit_rd_step(o->rd, o->field, 0.5 * dt, 10));
  CHECK_OK(opsplit_field_download(o->field, out->field, OPSPLIT_LAYOUT_PLANAR));

  double y[NSTATE], k[NSYS];
  for (int s = 0; s < NSYS; s++) {
    y[s * NEQ] = 1.0, y[s * NEQ + 1] = 0.0, k[s] = 0.5 + s;
  }
  CHECK_OK(opsplit_ode_set_state(o->ode, y, OPSPLIT_ODE_AOS));
  CHECK_OK(opsplit_ode_set_parameters(o->ode, k, OPSPLIT_ODE_AOS));
  CHECK_OK(opsplit_ode_integrate(o->ode, 0.0, 1.0));
  CHECK_OK(opsplit_ode_get_state(o->ode, out->state, OPSPLIT_ODE_AOS));

  uint8_t dead[ROWS * COLS] = {0};
  CHECK_OK(opsplit_ca_set_cells(o->life, dead, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_place_rle(o->life, "x = 3, y = 3\nbo$2bo$3o!", 2, 2));
  CHECK_OK(opsplit_ca_step(o->life, 12));
  CHECK_OK(opsplit_ca_get_cells(o->life, out->cells, OPSPLIT_CA_ROW_MAJOR));

  double altitude[NLAVA], rates[2] = {5.0, 2.0};
  for (int i = 0; i < NLAVA; i++) altitude[i] = 100.0 - (i / LC) - 0.5 * (i % LC);
  CHECK_OK(opsplit_ca_set_substate(o->lava, "altitude", altitude, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_add_vent(o->lava, 4, 4, rates, 2, 120.0, NULL));
  CHECK_OK(opsplit_ca_step(o->lava, 6));
  CHECK_OK(opsplit_ca_get_substate(o->lava, "thickness", out->thickness, OPSPLIT_CA_ROW_MAJOR));
  CHECK_OK(opsplit_ca_get_substate(o->lava, "temperature", out->temperature, OPSPLIT_CA_ROW_MAJOR));

  CHECK_OK(opsplit_pcpd_initialize(o->pcpd, 2026, 0.5));
  CHECK_OK(opsplit_pcpd_run(o->pcpd, 20.0));
  CHECK_OK(opsplit_pcpd_get_series_length(o->pcpd, &out->length));
  CHECK(out->length > 0 && out->length <= NSERIES);
  if (out->length > 0 && out->length <= NSERIES) {
    double times[NSERIES], error[NSERIES];
    CHECK_OK(opsplit_pcpd_get_series(o->pcpd, OPSPLIT_PCPD_DENSITY, out->length, times, out->mean, error));
  }

  double yg[64] = {0};
  for (int i = 0; i < o->nspecies_gas && i < 64; i++) yg[i] = 1.0 / o->nspecies_gas;
  CHECK(o->nspecies_gas <= 64);
  double conc[64] = {0};
  CHECK_OK(opsplit_mechanism_concentrations(o->gas, 1500.0, 101325.0, yg, conc));
  CHECK_OK(opsplit_mechanism_net_production_rates(o->gas, 1500.0, conc, out->ydot));
}

/* ---- the sweep, a group of functions at a time ------------------------------------- */
static const double nan_ = NAN, inf_ = INFINITY;

static void sweep_core(objects* o) {
  int major = -1, minor = -1, patch = -1;
  opsplit_get_version(NULL, &minor, NULL); /* NULL outputs are skipped (documented) */
  opsplit_get_version(&major, NULL, &patch);
  CHECK(major == OPSPLIT_VERSION_MAJOR && minor == OPSPLIT_VERSION_MINOR && patch == OPSPLIT_VERSION_PATCH);
  note_swept("opsplit_get_version");
  const int bad_status[] = {-1, 13, 99, INT_MAX, INT_MIN};
  for (int i = 0; i < 5; i++) CHECK(strcmp(opsplit_status_string((opsplit_status)bad_status[i]), "unknown opsplit_status") == 0);
  note_swept("opsplit_status_string");
  CHECK(opsplit_last_error_message() != NULL);
  note_swept("opsplit_last_error_message");
  CHECK(opsplit_cuda_available() == 0 || opsplit_cuda_available() == 1);
  note_swept("opsplit_cuda_available");
  for (int i = 0; i < 5; i++)
    BAD_ARG(opsplit_set_last_error((opsplit_status)bad_status[i], "layer", "message"));
  /* NULL function or message: a message all the same, never a crash. */
  CHECK(opsplit_set_last_error(OPSPLIT_ERROR_IO, NULL, NULL) == OPSPLIT_ERROR_IO);
  CHECK(strlen(opsplit_last_error_message()) > 0);

  opsplit_context c = NULL;
  const int bad_backend[] = {-1, 3, 99, INT_MIN};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_context_create((opsplit_backend)bad_backend[i], &c));
  BAD_ARG(opsplit_context_create(OPSPLIT_BACKEND_CPU, NULL));
  BAD_ARG(opsplit_context_create_on_device(-1, &c));
  BAD_ARG(opsplit_context_create_on_device(INT_MIN, &c));
  BAD(opsplit_cuda_available() ? OPSPLIT_ERROR_INVALID_ARGUMENT : OPSPLIT_ERROR_BACKEND_UNAVAILABLE,
      opsplit_context_create_on_device(INT_MAX, &c));
  BAD_ARG(opsplit_context_create_on_device(0, NULL));
  CHECK(c == NULL);
  BAD_DESTROY(K_CONTEXT, opsplit_context, opsplit_context_destroy);
  BAD_ARG(opsplit_context_destroy(&o->ctx)); /* it has live objects */
  CHECK(o->ctx != NULL);

  int device = 0;
  opsplit_backend backend = OPSPLIT_BACKEND_AUTO;
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_context_get_cuda_device(H, &device));
  BAD_ARG(opsplit_context_get_cuda_device(o->ctx, NULL));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_context_get_backend(H, &backend));
  BAD_ARG(opsplit_context_get_backend(o->ctx, NULL));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_context_set_num_threads(H, 1));
  BAD_ARG(opsplit_context_set_num_threads(o->ctx, -1));
  BAD_ARG(opsplit_context_set_num_threads(o->ctx, INT_MIN));
  BAD_ARG(opsplit_context_set_num_threads(o->ctx, INT_MAX));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_context_set_cuda_stream(H, NULL));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_context_synchronize(H));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_context_set_progress_callback(H, NULL, NULL));
  CHECK_OK(opsplit_context_get_backend(o->ctx, &backend));
  sweep_on_cuda = backend == OPSPLIT_BACKEND_CUDA;
  if (backend == OPSPLIT_BACKEND_CPU) BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_context_set_cuda_stream(o->ctx, zeros));
  CHECK_OK(opsplit_context_get_cuda_device(o->ctx, &device));
  CHECK_OK(opsplit_context_synchronize(o->ctx));
}

/* A group of one process: the collectives copy. */
static int gather_one(void* user, const int64_t* mine, const int64_t* counts, int64_t* all, char* message,
                      size_t size) {
  (void)user, (void)message, (void)size;
  for (int64_t i = 0; i < counts[0]; i++) all[i] = mine[i];
  return 0;
}
static int max_one(void* user, int64_t* values, int n, char* message, size_t size) {
  (void)user, (void)values, (void)n, (void)message, (void)size;
  return 0;
}
/* A group whose collectives fail. */
static int fail_everything(void* user, const int64_t* mine, const int64_t* counts, int64_t* all, char* message,
                           size_t size) {
  (void)user, (void)mine, (void)counts, (void)all;
  snprintf(message, size, "no group here");
  return 1;
}
static int allmax_fails(void* user, int64_t* values, int n, char* message, size_t size) {
  (void)user, (void)values, (void)n;
  snprintf(message, size, "no group here");
  return 1;
}

/* The distributed attach functions with a group that is no group: a bad handle, a NULL
 * group or decomposition, a group whose size or rank is impossible. */
static void sweep_distributed(objects* o) {
  opsplit_group group;
  memset(&group, 0, sizeof group);
  group.rank = 0, group.size = 1, group.allgather_int64 = gather_one, group.allmax_int64 = max_one;
  opsplit_decomposition d;
  memset(&d, 0, sizeof d);
  for (int i = 0; i < 3; i++) d.dims[i] = 1;
  for (int i = 0; i < 6; i++) d.neighbours[i] = -1;
  opsplit_pcpd p = NULL;
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_pcpd_create_distributed(H, OPSPLIT_PCPD_EXACT, 64, 2, &group, &p));
  BAD_ARG(opsplit_pcpd_create_distributed(o->ctx, OPSPLIT_PCPD_EXACT, 64, 2, NULL, &p));
  BAD_ARG(opsplit_pcpd_create_distributed(o->ctx, OPSPLIT_PCPD_EXACT, 64, 2, &group, NULL));
  BAD_ARG(opsplit_pcpd_create_distributed(o->ctx, (opsplit_pcpd_algorithm)7, 64, 2, &group, &p));
  BAD_ARG(opsplit_pcpd_create_distributed(o->ctx, OPSPLIT_PCPD_EXACT, -64, 2, &group, &p));
  CHECK(p == NULL);
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_attach_distributed(H, &group, &d));
  BAD_ARG(opsplit_field_attach_distributed(o->field, NULL, &d));
  BAD_ARG(opsplit_field_attach_distributed(o->field, &group, NULL));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_attach_distributed(H, &group, &d));
  BAD_ARG(opsplit_ca_attach_distributed(o->life, NULL, &d));
  BAD_ARG(opsplit_ca_attach_distributed(o->life, &group, NULL));
  group.size = 0;
  BAD_ARG(opsplit_field_attach_distributed(o->field, &group, &d));
  group.size = 2, group.rank = 5;
  BAD_ARG(opsplit_ca_attach_distributed(o->lava, &group, &d));
  group.rank = -1;
  BAD_ARG(opsplit_pcpd_create_distributed(o->ctx, OPSPLIT_PCPD_EXACT, 64, 2, &group, &p));
  group.rank = 0, group.size = 1, group.allgather_int64 = NULL;
  BAD_ARG(opsplit_pcpd_create_distributed(o->ctx, OPSPLIT_PCPD_EXACT, 64, 2, &group, &p));
  /* A decomposition that is not this group's. */
  group.allgather_int64 = gather_one;
  d.dims[0] = 2;
  BAD_ARG(opsplit_field_attach_distributed(o->field, &group, &d));
  d.dims[0] = 1, d.coords[1] = 3;
  BAD_ARG(opsplit_ca_attach_distributed(o->life, &group, &d));
  d.coords[1] = 0;
  /* A group whose collective calls fail: COMMUNICATION, the object unchanged. */
  group.allgather_int64 = fail_everything, group.allmax_int64 = allmax_fails;
  BAD(OPSPLIT_ERROR_COMMUNICATION, opsplit_field_attach_distributed(o->field, &group, &d));
  BAD(OPSPLIT_ERROR_COMMUNICATION, opsplit_ca_attach_distributed(o->life, &group, &d));
  BAD(OPSPLIT_ERROR_COMMUNICATION, opsplit_pcpd_create_distributed(o->ctx, OPSPLIT_PCPD_EXACT, 64, 2, &group, &p));
  CHECK(p == NULL);
}

static void sweep_field(objects* o) {
  opsplit_field f = NULL;
  const char* create = "opsplit_field_create";
  (void)create;
  const int64_t bad_extent[] = {0, -1, INT64_MIN, INT64_MAX};
  for (int i = 0; i < 4; i++) {
    BAD_ARG(opsplit_field_create(o->ctx, bad_extent[i], 4, 4, 1, OPSPLIT_FLOAT64, &f));
    BAD_ARG(opsplit_field_create(o->ctx, 4, bad_extent[i], 4, 1, OPSPLIT_FLOAT64, &f));
    BAD_ARG(opsplit_field_create(o->ctx, 4, 4, bad_extent[i], 1, OPSPLIT_FLOAT64, &f));
  }
  const int bad_ncomp[] = {0, -1, 4097, INT_MAX, INT_MIN};
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_field_create(o->ctx, 4, 4, 4, bad_ncomp[i], OPSPLIT_FLOAT64, &f));
  BAD_ARG(opsplit_field_create(o->ctx, 4, 4, 4, 1, (opsplit_precision)2, &f));
  BAD_ARG(opsplit_field_create(o->ctx, 4, 4, 4, 1, (opsplit_precision)-1, &f));
  BAD_ARG(opsplit_field_create(o->ctx, 4, 4, 4, 1, OPSPLIT_FLOAT64, NULL));
  /* Sizes that overflow 64 bits, and sizes no memory holds. */
  BAD_ARG(opsplit_field_create(o->ctx, INT64_MAX / 2, INT64_MAX / 2, 4, 1, OPSPLIT_FLOAT64, &f));
  BAD(OPSPLIT_ERROR_OUT_OF_MEMORY, opsplit_field_create(o->ctx, (int64_t)1 << 20, (int64_t)1 << 20, (int64_t)1 << 10,
                                                       4, OPSPLIT_FLOAT64, &f));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_field_create(H, 4, 4, 4, 1, OPSPLIT_FLOAT64, &f));
  CHECK(f == NULL);
  BAD_DESTROY(K_FIELD, opsplit_field, opsplit_field_destroy);

  const double bad_spacing[] = {0.0, -1.0, nan_, inf_, -inf_, 1e-320, 1e300};
  for (int i = 0; i < 7; i++) {
    BAD_ARG(opsplit_field_set_spacing(o->field, bad_spacing[i], 1, 1));
    BAD_ARG(opsplit_field_set_spacing(o->field, 1, bad_spacing[i], 1));
    BAD_ARG(opsplit_field_set_spacing(o->field, 1, 1, bad_spacing[i]));
  }
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_set_spacing(H, 1, 1, 1));
  double hx = 0, hy = 0, hz = 0;
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_get_spacing(H, &hx, &hy, &hz));
  BAD_ARG(opsplit_field_get_spacing(o->field, NULL, &hy, &hz));
  BAD_ARG(opsplit_field_get_spacing(o->field, &hx, NULL, &hz));
  BAD_ARG(opsplit_field_get_spacing(o->field, &hx, &hy, NULL));
  CHECK_OK(opsplit_field_get_spacing(o->field, &hx, &hy, &hz));
  CHECK(hx == 0.5 && hy == 0.5 && hz == 0.5);

  int64_t nx = 0, ny = 0, nz = 0;
  int ncomp = 0;
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_get_shape(H, &nx, &ny, &nz, &ncomp));
  BAD_ARG(opsplit_field_get_shape(o->field, NULL, &ny, &nz, &ncomp));
  BAD_ARG(opsplit_field_get_shape(o->field, &nx, &ny, &nz, NULL));
  CHECK_OK(opsplit_field_get_shape(o->field, &nx, &ny, &nz, &ncomp));
  CHECK(nx == NX && ny == NY && nz == NZ && ncomp == NCOMP);
  opsplit_precision precision = OPSPLIT_FLOAT32;
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_get_precision(H, &precision));
  BAD_ARG(opsplit_field_get_precision(o->field, NULL));

  double host[NFIELD];
  for (int i = 0; i < NFIELD; i++) host[i] = 1.0;
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_upload(H, host, OPSPLIT_LAYOUT_PLANAR));
  BAD_ARG(opsplit_field_upload(o->field, NULL, OPSPLIT_LAYOUT_PLANAR));
  BAD_ARG(opsplit_field_upload(o->field, host, (opsplit_layout)2));
  BAD_ARG(opsplit_field_upload(o->field, host, (opsplit_layout)-1));
  /* Values are the host's data, copied as they are; a step finds what is not finite. */
  host[7] = nan_;
  CHECK_OK(opsplit_field_upload(o->field, host, OPSPLIT_LAYOUT_PLANAR));
  BAD(OPSPLIT_ERROR_NUMERICAL, opsplit_rd_step(o->rd, o->field, 1e-3, 1));
  host[7] = inf_;
  CHECK_OK(opsplit_field_upload(o->field, host, OPSPLIT_LAYOUT_INTERLEAVED));
  BAD(OPSPLIT_ERROR_NUMERICAL, opsplit_rd_step(o->rd, o->field, 1e-3, 1));
  host[7] = 1.0;
  CHECK_OK(opsplit_field_upload(o->field, host, OPSPLIT_LAYOUT_PLANAR));
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_download(H, host, OPSPLIT_LAYOUT_PLANAR));
  BAD_ARG(opsplit_field_download(o->field, NULL, OPSPLIT_LAYOUT_PLANAR));
  BAD_ARG(opsplit_field_download(o->field, host, (opsplit_layout)5));
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_upload_device(H, host, OPSPLIT_LAYOUT_PLANAR));
  BAD_DEVICE(opsplit_field_upload_device(o->field, host, (opsplit_layout)2));
  BAD_DEVICE(opsplit_field_upload_device(o->field, NULL, OPSPLIT_LAYOUT_PLANAR));
  BAD_DEVICE(opsplit_field_upload_device(o->field, host, OPSPLIT_LAYOUT_PLANAR));
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_download_device(H, host, OPSPLIT_LAYOUT_PLANAR));
  BAD_DEVICE(opsplit_field_download_device(o->field, host, (opsplit_layout)-1));
  BAD_DEVICE(opsplit_field_download_device(o->field, host, OPSPLIT_LAYOUT_INTERLEAVED));

  double sum = 0, lo = 0, hi = 0;
  const int bad_comp[] = {-1, NCOMP, INT_MAX, INT_MIN};
  for (int i = 0; i < 4; i++) {
    BAD_ARG(opsplit_field_component_sum(o->field, bad_comp[i], &sum));
    BAD_ARG(opsplit_field_component_min_max(o->field, bad_comp[i], &lo, &hi));
  }
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_component_sum(H, 0, &sum));
  BAD_ARG(opsplit_field_component_sum(o->field, 0, NULL));
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_field_component_min_max(H, 0, &lo, &hi));
  BAD_ARG(opsplit_field_component_min_max(o->field, 0, NULL, &hi));
  BAD_ARG(opsplit_field_component_min_max(o->field, 0, &lo, NULL));
  CHECK_OK(opsplit_field_component_sum(o->field, 1, &sum));
}

static void sweep_rd(objects* o) {
  opsplit_rd r = NULL;
  double energy = 0, dt = 0;
  const int bad_ncomp[] = {0, -1, 4097, INT_MAX, INT_MIN};
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_rd_create(o->ctx, bad_ncomp[i], &r));
  BAD_ARG(opsplit_rd_create(o->ctx, 1, NULL));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_rd_create(H, 1, &r));
  CHECK(r == NULL);
  BAD_DESTROY(K_RD, opsplit_rd, opsplit_rd_destroy);

  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_stencil(H, OPSPLIT_STENCIL_7POINT));
  const int bad_stencil[] = {0, 8, 27, -7, INT_MAX};
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_rd_set_stencil(o->rd, (opsplit_stencil)bad_stencil[i]));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_steps_per_pass(H, 2));
  const int bad_steps[] = {0, -1, 17, INT_MAX, INT_MIN};
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_rd_set_steps_per_pass(o->rd, bad_steps[i]));

  const int bad_comp[] = {-1, NCOMP, INT_MAX, INT_MIN};
  const double bad_value[] = {nan_, inf_, -inf_};
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_diffusion(H, 0, 0.1));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_set_diffusion(o->rd, bad_comp[i], 0.1));
  for (int i = 0; i < 3; i++) BAD_ARG(opsplit_rd_set_diffusion(o->rd, 0, bad_value[i]));
  BAD_ARG(opsplit_rd_set_diffusion(o->rd, 0, -0.1));

  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_boundary(H, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_NOFLUX, 0));
  BAD_ARG(opsplit_rd_set_boundary(o->rd, (opsplit_face)6, 0, OPSPLIT_BC_NOFLUX, 0));
  BAD_ARG(opsplit_rd_set_boundary(o->rd, (opsplit_face)-1, 0, OPSPLIT_BC_NOFLUX, 0));
  BAD_ARG(opsplit_rd_set_boundary(o->rd, OPSPLIT_FACE_XLO, 0, (opsplit_bc)3, 0));
  BAD_ARG(opsplit_rd_set_boundary(o->rd, OPSPLIT_FACE_XLO, 0, (opsplit_bc)-1, 0));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_set_boundary(o->rd, OPSPLIT_FACE_XLO, bad_comp[i], OPSPLIT_BC_NOFLUX, 0));
  for (int i = 0; i < 3; i++)
    BAD_ARG(opsplit_rd_set_boundary(o->rd, OPSPLIT_FACE_XLO, 0, OPSPLIT_BC_DIRICHLET, bad_value[i]));

  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_reaction(H, OPSPLIT_REACTION_LINEAR));
  BAD_ARG(opsplit_rd_set_reaction(o->rd, (opsplit_reaction)4));
  BAD_ARG(opsplit_rd_set_reaction(o->rd, (opsplit_reaction)-1));

  double value = 0;
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_reaction_parameter(H, "F", 0.04));
  BAD_ARG(opsplit_rd_set_reaction_parameter(o->rd, NULL, 0.04));
  BAD_ARG(opsplit_rd_set_reaction_parameter(o->rd, "no_such_parameter", 0.04));
  BAD_ARG(opsplit_rd_set_reaction_parameter(o->rd, "", 0.04));
  for (int i = 0; i < 3; i++) BAD_ARG(opsplit_rd_set_reaction_parameter(o->rd, "F", bad_value[i]));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_get_reaction_parameter(H, "F", &value));
  BAD_ARG(opsplit_rd_get_reaction_parameter(o->rd, NULL, &value));
  BAD_ARG(opsplit_rd_get_reaction_parameter(o->rd, "no_such_parameter", &value));
  BAD_ARG(opsplit_rd_get_reaction_parameter(o->rd, "F", NULL));
  CHECK_OK(opsplit_rd_get_reaction_parameter(o->rd, "F", &value));

  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_linear(H, 0, 0, 0));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_set_linear(o->rd, bad_comp[i], 0, 0));
  for (int i = 0; i < 3; i++) {
    BAD_ARG(opsplit_rd_set_linear(o->rd, 0, bad_value[i], 0));
    BAD_ARG(opsplit_rd_set_linear(o->rd, 0, 0, bad_value[i]));
  }
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_retardation(H, 0, 2));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_set_retardation(o->rd, bad_comp[i], 2));
  for (int i = 0; i < 3; i++) BAD_ARG(opsplit_rd_set_retardation(o->rd, 0, bad_value[i]));
  BAD_ARG(opsplit_rd_set_retardation(o->rd, 0, 0.0));
  BAD_ARG(opsplit_rd_set_retardation(o->rd, 0, -1.0));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_mobile(H, 0, 0));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_set_mobile(o->rd, bad_comp[i], 0));
  BAD_ARG(opsplit_rd_set_mobile(o->rd, 0, 2));
  BAD_ARG(opsplit_rd_set_mobile(o->rd, 0, -1));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_cahn_hilliard(H, 0, 1, 1, 1, 1));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_set_cahn_hilliard(o->rd, bad_comp[i], 1, 1, 1, 1));
  for (int i = 0; i < 3; i++) {
    BAD_ARG(opsplit_rd_set_cahn_hilliard(o->rd, 0, bad_value[i], 1, 1, 1));
    BAD_ARG(opsplit_rd_set_cahn_hilliard(o->rd, 0, 1, bad_value[i], 1, 1));
    BAD_ARG(opsplit_rd_set_cahn_hilliard(o->rd, 0, 1, 1, bad_value[i], 1));
    BAD_ARG(opsplit_rd_set_cahn_hilliard(o->rd, 0, 1, 1, 1, bad_value[i]));
  }
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_velocity(H, 0, 0, 0, 0, 0));
  const int bad_axis[] = {-1, 3, INT_MAX};
  for (int i = 0; i < 3; i++) BAD_ARG(opsplit_rd_set_velocity(o->rd, bad_axis[i], 1, 0, 0, 0));
  for (int i = 0; i < 3; i++) {
    BAD_ARG(opsplit_rd_set_velocity(o->rd, 0, bad_value[i], 0, 0, 0));
    BAD_ARG(opsplit_rd_set_velocity(o->rd, 0, 0, bad_value[i], 0, 0));
    BAD_ARG(opsplit_rd_set_velocity(o->rd, 0, 0, 0, bad_value[i], 0));
    BAD_ARG(opsplit_rd_set_velocity(o->rd, 0, 0, 0, 0, bad_value[i]));
  }
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_velocity_field(H, o->velocity));
  /* The velocity argument: NULL removes one (documented); the other bad handles fail. */
  for (int v = 1; v < NBAD_HANDLES; v++)
    BAD(OPSPLIT_ERROR_INVALID_HANDLE, opsplit_rd_set_velocity_field(o->rd, (opsplit_field)bad_handle(K_FIELD, v)));
  BAD_ARG(opsplit_rd_set_velocity_field(o->rd, o->field)); /* 2 components, not 3 */

  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_add_source(H, 0, 1, 1, 1, 1.0));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_add_source(o->rd, bad_comp[i], 1, 1, 1, 1.0));
  const int64_t bad_index[] = {-1, INT64_MIN};
  for (int i = 0; i < 2; i++) {
    BAD_ARG(opsplit_rd_add_source(o->rd, 0, bad_index[i], 1, 1, 1.0));
    BAD_ARG(opsplit_rd_add_source(o->rd, 0, 1, bad_index[i], 1, 1.0));
    BAD_ARG(opsplit_rd_add_source(o->rd, 0, 1, 1, bad_index[i], 1.0));
  }
  /* An rd knows no field until a step: a cell past the field's is refused there. */
  CHECK_OK(opsplit_rd_add_source(o->rd, 0, INT64_MAX, 1, 1, 1.0));
  BAD_ARG(opsplit_rd_step(o->rd, o->field, 1e-3, 1));
  CHECK_OK(opsplit_rd_clear_sources(o->rd));
  CHECK_OK(opsplit_rd_add_source(o->rd, 1, 1, NY, 1, 1.0));
  BAD_ARG(opsplit_rd_step(o->rd, o->field, 1e-3, 1));
  CHECK_OK(opsplit_rd_clear_sources(o->rd));
  for (int i = 0; i < 3; i++) BAD_ARG(opsplit_rd_add_source(o->rd, 0, 1, 1, 1, bad_value[i]));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_clear_sources(H));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_set_time(H, 0));
  for (int i = 0; i < 3; i++) BAD_ARG(opsplit_rd_set_time(o->rd, bad_value[i]));
  int taken = -1;
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_get_steps_per_pass_taken(H, &taken));
  BAD_ARG(opsplit_rd_get_steps_per_pass_taken(o->rd, NULL));
  CHECK_OK(opsplit_rd_get_steps_per_pass_taken(o->rd, &taken));
  CHECK(taken >= 0 && taken <= 16);
  double t = -1;
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_get_time(H, &t));
  BAD_ARG(opsplit_rd_get_time(o->rd, NULL));
  CHECK_OK(opsplit_rd_get_time(o->rd, &t));
  CHECK(t == 0);

  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_free_energy(H, o->field, 0, &energy));
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_rd_free_energy(o->rd, H, 0, &energy));
  BAD_ARG(opsplit_rd_free_energy(o->rd, o->field, 0, NULL));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_rd_free_energy(o->rd, o->field, bad_comp[i], &energy));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_max_stable_dt(H, o->field, &dt));
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_rd_max_stable_dt(o->rd, H, &dt));
  BAD_ARG(opsplit_rd_max_stable_dt(o->rd, o->field, NULL));
  BAD_ARG(opsplit_rd_max_stable_dt(o->rd, o->velocity, &dt)); /* 3 components, the rd 2 */
  CHECK_OK(opsplit_rd_max_stable_dt(o->rd, o->field, &dt));
  BAD_HANDLES(K_RD, opsplit_rd, opsplit_rd_step(H, o->field, dt, 1));
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_rd_step(o->rd, H, dt, 1));
  BAD_ARG(opsplit_rd_step(o->rd, o->velocity, dt, 1));
  const double bad_dt[] = {0.0, -1.0, nan_, inf_, -inf_};
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_rd_step(o->rd, o->field, bad_dt[i], 1));
  BAD_ARG(opsplit_rd_step(o->rd, o->field, 10.0 * dt, 1)); /* past the stability bound */
  BAD_ARG(opsplit_rd_step(o->rd, o->field, dt, -1));
  BAD_ARG(opsplit_rd_step(o->rd, o->field, dt, INT64_MIN));
  /* The good calls the sweep made restate the objects' own settings. */
  CHECK_OK(opsplit_rd_set_reaction(o->rd, OPSPLIT_REACTION_GRAY_SCOTT));
  CHECK_OK(opsplit_rd_get_time(o->rd, &t));
  CHECK(t == 0);
}

static void sweep_mechanism(objects* o) {
  opsplit_mechanism m = NULL;
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_mechanism_create(H, &m));
  BAD_ARG(opsplit_mechanism_create(o->ctx, NULL));
  CHECK(m == NULL);
  BAD_DESTROY(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_destroy);

  int index = -1;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_add_species(H, "C", &index));
  BAD_ARG(opsplit_mechanism_add_species(o->mech, NULL, &index));
  BAD_ARG(opsplit_mechanism_add_species(o->mech, "", &index));
  BAD_ARG(opsplit_mechanism_add_species(o->mech, "A", &index)); /* exists */
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_find_species(H, "A", &index));
  BAD_ARG(opsplit_mechanism_find_species(o->mech, NULL, &index));
  BAD_ARG(opsplit_mechanism_find_species(o->mech, "A", NULL));
  BAD_ARG(opsplit_mechanism_find_species(o->mech, "no such species", &index));
  const char* name = NULL;
  const int bad_index[] = {-1, 2, INT_MAX, INT_MIN};
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_get_species_name(H, 0, &name));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_mechanism_get_species_name(o->mech, bad_index[i], &name));
  BAD_ARG(opsplit_mechanism_get_species_name(o->mech, 0, NULL));

  int a = 0, b = 1, one = 1, minus = -1, huge = INT_MAX, out_of_range = 2;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_add_reaction(H, 1, &a, &one, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, NULL, &one, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &a, &one, 1, NULL, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, -1, &a, &one, 1, &b, &one, &index));
  /* Counts past the documented limits are refused before the arrays are read (the
   * arrays here hold one entry). */
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, INT_MAX, &a, &one, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 257, &a, &one, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &a, &one, 257, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &a, &one, INT_MIN, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &out_of_range, &one, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &minus, &one, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &a, &minus, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &a, &huge, 1, &b, &one, &index));
  BAD_ARG(opsplit_mechanism_add_reaction(o->mech, 1, &a, &one, 1, &b, &huge, &index));

  double yield = 0.5, bad_yield[] = {0.0, -1001.0, 1001.0, nan_, inf_, -inf_};
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism,
              opsplit_mechanism_add_reaction_yields(H, 1, &a, &one, 1, &b, &yield, &index));
  for (int i = 0; i < 6; i++)
    BAD_ARG(opsplit_mechanism_add_reaction_yields(o->mech, 1, &a, &one, 1, &b, &bad_yield[i], &index));
  BAD_ARG(opsplit_mechanism_add_reaction_yields(o->mech, 1, &a, &one, 1, NULL, &yield, &index));
  BAD_ARG(opsplit_mechanism_add_reaction_yields(o->mech, 1, &a, &one, -1, &b, &yield, &index));
  BAD_ARG(opsplit_mechanism_add_reaction_yields(o->mech, 1, &a, &one, 1, &out_of_range, &yield, &index));
  BAD_ARG(opsplit_mechanism_add_reaction_yields(o->mech, 1, &a, &huge, 1, &b, &yield, &index));
  BAD_ARG(opsplit_mechanism_add_reaction_yields(o->mech, 0, NULL, NULL, 0, NULL, NULL, &index)); /* empty */
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_set_rate(H, 0, OPSPLIT_RATE_CONSTANT, 1, 0, 0, 0));
  const int bad_reaction[] = {-1, 1, INT_MAX, INT_MIN};
  for (int i = 0; i < 4; i++)
    BAD_ARG(opsplit_mechanism_set_rate(o->mech, bad_reaction[i], OPSPLIT_RATE_CONSTANT, 1, 0, 0, 0));
  BAD_ARG(opsplit_mechanism_set_rate(o->mech, 0, (opsplit_rate_kind)3, 1, 0, 0, 0));
  BAD_ARG(opsplit_mechanism_set_rate(o->mech, 0, (opsplit_rate_kind)-1, 1, 0, 0, 0));
  const int bad_param[] = {-1, 1024, INT_MAX, INT_MIN};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_mechanism_set_rate(o->mech, 0, OPSPLIT_RATE_PARAMETER, 1, 0, 0, bad_param[i]));
  const double bad_value[] = {nan_, inf_, -inf_};
  for (int i = 0; i < 3; i++) {
    BAD_ARG(opsplit_mechanism_set_rate(o->mech, 0, OPSPLIT_RATE_ARRHENIUS, bad_value[i], 0, 0, 0));
    BAD_ARG(opsplit_mechanism_set_rate(o->mech, 0, OPSPLIT_RATE_ARRHENIUS, 1, bad_value[i], 0, 0));
    BAD_ARG(opsplit_mechanism_set_rate(o->mech, 0, OPSPLIT_RATE_ARRHENIUS, 1, 0, bad_value[i], 0));
  }
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_name_parameter(H, 0, "TEMP"));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_mechanism_name_parameter(o->mech, bad_param[i], "TEMP"));
  char long_name[80];
  memset(long_name, 'A', sizeof long_name - 1), long_name[sizeof long_name - 1] = '\0';
  char long_label[300];
  memset(long_label, 'A', sizeof long_label - 1), long_label[sizeof long_label - 1] = '\0', long_label[5] = '.';
  const char* bad_names[] = {NULL,        "",         "1X",        "X-Y",         "A B",      "J(",
                             "J()",       "J(1)x",    "J(-1)",     "J(1234567890)", long_name, ".x",
                             " PHOTO.x", "PHOTO.x ", "PHOTO.\tx", "PHOTO.\xc3\xa9", long_label};
  for (int i = 0; i < 17; i++) BAD_ARG(opsplit_mechanism_name_parameter(o->mech, 0, bad_names[i]));
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_set_rate_expression(H, 0, "1"));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_mechanism_set_rate_expression(o->mech, bad_reaction[i], "1"));
  BAD_ARG(opsplit_mechanism_set_rate_expression(o->mech, 0, NULL));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_set_rate_expression(o->mech, 0, "EXQ(1)"));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_set_rate_expression(o->mech, 0, "TEMP")); /* no parameter has the name */
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_set_rate_expression(o->mech, 0, "1e999"));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_set_rate_expression(o->mech, 0, ""));
  char* long_text = (char*)malloc(70000);
  memset(long_text, '1', 69999), long_text[69999] = '\0';
  BAD_ARG(opsplit_mechanism_set_rate_expression(o->mech, 0, long_text)); /* over 64 KiB */
  free(long_text);
  const int summed[] = {0, 1}, twice[] = {1, 1}, outside[] = {0, 2}, negative[] = {-1};
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_set_rate_species_sum(H, 0, 2, summed));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, bad_reaction[i], 2, summed));
  BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, 0, 2, NULL));
  BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, 0, -1, summed));
  BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, 0, 3, summed)); /* more than the species */
  BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, 0, INT_MAX, summed));
  BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, 0, 2, twice));
  BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, 0, 2, outside));
  BAD_ARG(opsplit_mechanism_set_rate_species_sum(o->mech, 0, 1, negative));
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_add_rate_factor(H, 0, OPSPLIT_FACTOR_MONOD, 0, 1.0, 0.0));
  for (int i = 0; i < 4; i++)
    BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, bad_reaction[i], OPSPLIT_FACTOR_MONOD, 0, 1.0, 0.0));
  BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, 0, (opsplit_rate_factor)-1, 0, 1.0, 0.0));
  BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, 0, OPSPLIT_FACTOR_MONOD, -1, 1.0, 0.0));
  BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, 0, OPSPLIT_FACTOR_MONOD, 2, 1.0, 0.0)); /* past the species */
  BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, 0, OPSPLIT_FACTOR_MONOD, 0, NAN, 0.0));
  BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, 0, OPSPLIT_FACTOR_INHIBITION, 0, -1.0, 0.0));
  BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, 0, OPSPLIT_FACTOR_MONOD, 0, 1.0, INFINITY));
  BAD_ARG(opsplit_mechanism_add_rate_factor(o->mech, 0, OPSPLIT_FACTOR_THRESHOLD, 0, 1.0, 0.0));
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_clear_rate_factors(H, 0));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_mechanism_clear_rate_factors(o->mech, bad_reaction[i]));
  int found = -1;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_find_parameter(H, "TEMP", &found));
  BAD_ARG(opsplit_mechanism_find_parameter(o->mech, NULL, &found));
  BAD_ARG(opsplit_mechanism_find_parameter(o->mech, "TEMP", NULL));
  BAD_ARG(opsplit_mechanism_find_parameter(o->mech, "NO_SUCH_NAME", &found));
  BAD_ARG(opsplit_mechanism_find_parameter(o->mech, long_name, &found));
  const char* parameter_name = NULL;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_get_parameter_name(H, 0, &parameter_name));
  BAD_ARG(opsplit_mechanism_get_parameter_name(o->mech, 0, NULL));
  BAD_ARG(opsplit_mechanism_get_parameter_name(o->mech, -1, &parameter_name));
  BAD_ARG(opsplit_mechanism_get_parameter_name(o->mech, 1024, &parameter_name));
  int ns = 0, nr = 0, np = 0;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_get_counts(H, &ns, &nr, &np));
  CHECK_OK(opsplit_mechanism_get_counts(o->mech, NULL, NULL, NULL)); /* outputs may be NULL */
  CHECK_OK(opsplit_mechanism_get_counts(o->mech, &ns, &nr, &np));
  CHECK(ns == 2 && nr == 1 && np == 1); /* nothing the bad calls tried was added */
  const char* equation = NULL;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_get_reaction_equation(H, 0, &equation));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_mechanism_get_reaction_equation(o->mech, bad_reaction[i], &equation));
  BAD_ARG(opsplit_mechanism_get_reaction_equation(o->mech, 0, NULL));
  CHECK_OK(opsplit_mechanism_get_reaction_equation(o->mech, 0, &equation));
  CHECK(equation != NULL && strcmp(equation, "A => B") == 0);
  opsplit_mechanism_kind kind = OPSPLIT_MECHANISM_GAS;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_get_kind(H, &kind));
  BAD_ARG(opsplit_mechanism_get_kind(o->mech, NULL));

  double y[2] = {1, 0}, k = 1, ydot[2], jac[4];
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_evaluate(H, y, &k, ydot, jac));
  BAD_ARG(opsplit_mechanism_evaluate(o->mech, NULL, &k, ydot, jac));
  BAD_ARG(opsplit_mechanism_evaluate(o->mech, y, NULL, ydot, jac)); /* it has a parameter */
  BAD_ARG(opsplit_mechanism_evaluate(o->mech, y, &k, NULL, jac));
  CHECK_OK(opsplit_mechanism_evaluate(o->mech, y, &k, ydot, NULL)); /* the Jacobian is optional */
  CHECK(ydot[0] == -1 && ydot[1] == 1);

  /* Loaders: missing and hostile files (the fuzzers go further), bad phases. */
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_mechanism_load_yaml(H, gas_path, NULL, &m));
  BAD_ARG(opsplit_mechanism_load_yaml(o->ctx, NULL, NULL, &m));
  BAD_ARG(opsplit_mechanism_load_yaml(o->ctx, gas_path, NULL, NULL));
  BAD(OPSPLIT_ERROR_IO, opsplit_mechanism_load_yaml(o->ctx, "/no/such/file.yaml", NULL, &m));
  BAD(OPSPLIT_ERROR_IO, opsplit_mechanism_load_yaml(o->ctx, "/", NULL, &m)); /* a directory */
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_load_yaml(o->ctx, gas_path, "no_such_phase", &m)); /* names its phases */
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_mechanism_load_chemkin(H, "x.inp", NULL, &m));
  BAD_ARG(opsplit_mechanism_load_chemkin(o->ctx, NULL, NULL, &m));
  BAD_ARG(opsplit_mechanism_load_chemkin(o->ctx, "x.inp", NULL, NULL));
  BAD(OPSPLIT_ERROR_IO, opsplit_mechanism_load_chemkin(o->ctx, "/no/such/file.inp", NULL, &m));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_load_chemkin(o->ctx, gas_path, NULL, &m)); /* YAML is no CHEMKIN */
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_mechanism_load_kpp(H, "x.def", &m));
  BAD_ARG(opsplit_mechanism_load_kpp(o->ctx, NULL, &m));
  BAD_ARG(opsplit_mechanism_load_kpp(o->ctx, "x.def", NULL));
  BAD(OPSPLIT_ERROR_IO, opsplit_mechanism_load_kpp(o->ctx, "/no/such/file.def", &m));
  BAD(OPSPLIT_ERROR_IO, opsplit_mechanism_load_kpp(o->ctx, "/", &m)); /* a directory */
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_load_kpp(o->ctx, gas_path, &m)); /* YAML is no KPP */
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_mechanism_load_micm(H, "x.yaml", &m));
  BAD_ARG(opsplit_mechanism_load_micm(o->ctx, NULL, &m));
  BAD_ARG(opsplit_mechanism_load_micm(o->ctx, "x.yaml", NULL));
  BAD(OPSPLIT_ERROR_IO, opsplit_mechanism_load_micm(o->ctx, "/no/such/file.yaml", &m));
  BAD(OPSPLIT_ERROR_IO, opsplit_mechanism_load_micm(o->ctx, "/", &m)); /* a directory without config.json */
  BAD(OPSPLIT_ERROR_PARSE, opsplit_mechanism_load_micm(o->ctx, gas_path, &m)); /* Cantera's YAML is no MICM */
  CHECK(m == NULL);

  /* Gas functions: on a built mechanism INVALID_ARGUMENT; bad temperatures, pressures, NULLs. */
  double buffer[64] = {0}, Y[64] = {0}, c[64] = {0}, d = 0;
  Y[0] = 1.0;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_get_molar_masses(H, buffer));
  BAD_ARG(opsplit_mechanism_get_molar_masses(o->gas, NULL));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_mechanism_get_molar_masses(o->mech, buffer)); /* no thermo data */
  const double bad_T[] = {0.0, -300.0, nan_, inf_, -inf_};
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_species_thermo(H, 1000, buffer, buffer, buffer));
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_mechanism_species_thermo(o->gas, bad_T[i], buffer, buffer, buffer));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_mechanism_species_thermo(o->mech, 1000, buffer, buffer, buffer));
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism,
              opsplit_mechanism_mixture_properties(H, 1000, 1e5, Y, &d, &d, &d, &d, &d));
  for (int i = 0; i < 5; i++) {
    BAD_ARG(opsplit_mechanism_mixture_properties(o->gas, bad_T[i], 1e5, Y, &d, &d, &d, &d, &d));
    BAD_ARG(opsplit_mechanism_mixture_properties(o->gas, 1000, bad_T[i], Y, &d, &d, &d, &d, &d));
  }
  BAD_ARG(opsplit_mechanism_mixture_properties(o->gas, 1000, 1e5, NULL, &d, &d, &d, &d, &d));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_mechanism_mixture_properties(o->mech, 1000, 1e5, Y, &d, &d, &d, &d, &d));
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_concentrations(H, 1000, 1e5, Y, c));
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_mechanism_concentrations(o->gas, bad_T[i], 1e5, Y, c));
  BAD_ARG(opsplit_mechanism_concentrations(o->gas, 1000, 1e5, NULL, c));
  BAD_ARG(opsplit_mechanism_concentrations(o->gas, 1000, 1e5, Y, NULL));
  Y[1] = nan_;
  BAD_ARG(opsplit_mechanism_concentrations(o->gas, 1000, 1e5, Y, c));
  Y[1] = 0;
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_net_production_rates(H, 1000, c, buffer));
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_mechanism_net_production_rates(o->gas, bad_T[i], c, buffer));
  BAD_ARG(opsplit_mechanism_net_production_rates(o->gas, 1000, NULL, buffer));
  BAD_ARG(opsplit_mechanism_net_production_rates(o->gas, 1000, c, NULL));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_mechanism_net_production_rates(o->mech, 1000, c, buffer));
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_mechanism_rates_of_progress(H, 1000, c, buffer, buffer));
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_mechanism_rates_of_progress(o->gas, bad_T[i], c, buffer, buffer));
  BAD_ARG(opsplit_mechanism_rates_of_progress(o->gas, 1000, NULL, buffer, buffer));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_mechanism_rates_of_progress(o->mech, 1000, c, buffer, buffer));
  CHECK_OK(opsplit_mechanism_get_molar_masses(o->gas, buffer));
  CHECK(buffer[0] > 0);
}

static int count_rhs(int64_t n, const double* t, const double* y, double* ydot, const double* params, void* user) {
  (void)t, (void)y, (void)params, (void)user;
  for (int64_t i = 0; i < NEQ * n; i++) ydot[i] = 0;
  return 0;
}

static void sweep_ode(objects* o) {
  opsplit_ode e = NULL;
  const int bad_neq[] = {0, -1, INT_MAX, INT_MIN};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_ode_create(o->ctx, bad_neq[i], 4, 0, &e));
  const int64_t bad_nsys[] = {0, -1, INT64_MIN, INT64_MAX};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_ode_create(o->ctx, 2, bad_nsys[i], 0, &e));
  BAD_ARG(opsplit_ode_create(o->ctx, 2, 4, -1, &e));
  BAD_ARG(opsplit_ode_create(o->ctx, 2, 4, INT_MAX, &e));
  BAD_ARG(opsplit_ode_create(o->ctx, 2, 4, 0, NULL));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_ode_create(H, 2, 4, 0, &e));
  CHECK(e == NULL);
  BAD_DESTROY(K_ODE, opsplit_ode, opsplit_ode_destroy);

  int neq = 0, nparam = 0;
  int64_t nsys = 0;
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_get_shape(H, &neq, &nsys, &nparam));
  BAD_ARG(opsplit_ode_get_shape(o->ode, NULL, &nsys, &nparam));
  BAD_ARG(opsplit_ode_get_shape(o->ode, &neq, NULL, &nparam));
  BAD_ARG(opsplit_ode_get_shape(o->ode, &neq, &nsys, NULL));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_mechanism(H, o->mech));
  for (int v = 1; v < NBAD_HANDLES; v++)
    BAD(OPSPLIT_ERROR_INVALID_HANDLE, opsplit_ode_set_mechanism(o->ode, (opsplit_mechanism)bad_handle(K_MECHANISM, v)));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_ode_set_mechanism(o->ode, o->gas)); /* a gas goes in a reactor */
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_rhs_callback(H, count_rhs, NULL, NULL));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_reactor(H, o->gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE));
  for (int v = 1; v < NBAD_HANDLES; v++) /* NULL removes it (documented) */
    BAD(OPSPLIT_ERROR_INVALID_HANDLE, opsplit_ode_set_reactor(o->ode, (opsplit_mechanism)bad_handle(K_MECHANISM, v),
                                                              OPSPLIT_REACTOR_CONSTANT_PRESSURE));
  BAD_ARG(opsplit_ode_set_reactor(o->ode, o->gas, (opsplit_reactor_kind)4));
  BAD_ARG(opsplit_ode_set_reactor(o->ode, o->gas, (opsplit_reactor_kind)-1));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_ode_set_reactor(o->ode, o->mech, OPSPLIT_REACTOR_CONSTANT_PRESSURE));
  BAD_ARG(opsplit_ode_set_reactor(o->ode, o->gas, OPSPLIT_REACTOR_CONSTANT_PRESSURE));  /* neq is not its size */
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_jacobian(H, OPSPLIT_ODE_JACOBIAN_ANALYTIC));
  BAD_ARG(opsplit_ode_set_jacobian(o->ode, (opsplit_ode_jacobian)2));
  BAD_ARG(opsplit_ode_set_jacobian(o->ode, (opsplit_ode_jacobian)-1));

  double y[NSTATE] = {0}, ydot[NSTATE], jac[NEQ * NEQ];
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_evaluate(H, 0, 0.0, y, ydot, jac));
  const int64_t bad_system[] = {-1, NSYS, INT64_MAX, INT64_MIN};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_ode_evaluate(o->ode, bad_system[i], 0.0, y, ydot, jac));
  BAD_ARG(opsplit_ode_evaluate(o->ode, 0, 0.0, y, NULL, jac));
  BAD_ARG(opsplit_ode_evaluate(o->ode, 0, nan_, y, ydot, jac));
  BAD_ARG(opsplit_ode_evaluate(o->ode, 0, inf_, y, ydot, jac));

  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_method(H, OPSPLIT_ODE_RKC));
  BAD_ARG(opsplit_ode_set_method(o->ode, (opsplit_ode_method)4));
  BAD_ARG(opsplit_ode_set_method(o->ode, (opsplit_ode_method)-1));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_tolerances(H, 1e-6, 1e-12));
  const double bad_rtol[] = {0.0, -1e-6, 1e-15, 1.0, nan_, inf_};
  for (int i = 0; i < 6; i++) BAD_ARG(opsplit_ode_set_tolerances(o->ode, bad_rtol[i], 1e-12));
  const double bad_atol[] = {-1e-12, nan_, inf_, -inf_};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_ode_set_tolerances(o->ode, 1e-6, bad_atol[i]));
  double atol[NEQ] = {1e-12, 1e-12};
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_absolute_tolerances(H, atol));
  BAD_ARG(opsplit_ode_set_absolute_tolerances(o->ode, NULL));
  for (int i = 0; i < 4; i++) {
    atol[1] = bad_atol[i];
    BAD_ARG(opsplit_ode_set_absolute_tolerances(o->ode, atol));
  }
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_initial_step(H, 0));
  const double bad_h0[] = {-1.0, nan_, inf_, -inf_};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_ode_set_initial_step(o->ode, bad_h0[i]));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_max_steps(H, 10));
  BAD_ARG(opsplit_ode_set_max_steps(o->ode, 0));
  BAD_ARG(opsplit_ode_set_max_steps(o->ode, -1));
  BAD_ARG(opsplit_ode_set_max_steps(o->ode, INT64_MIN));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_keep_step(H, 0));
  BAD_ARG(opsplit_ode_set_keep_step(o->ode, 2));
  BAD_ARG(opsplit_ode_set_keep_step(o->ode, -1));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_clip_negative(H, 0));
  BAD_ARG(opsplit_ode_set_clip_negative(o->ode, 2));
  BAD_ARG(opsplit_ode_set_clip_negative(o->ode, INT_MIN));

  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_state(H, y, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_set_state(o->ode, NULL, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_set_state(o->ode, y, (opsplit_ode_layout)2));
  /* A state that is not finite is the host's: the integration marks those systems
   * OPSPLIT_ODE_NONFINITE (test_capi_ode checks it); the workload sets its own. */
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_get_state(H, y, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_get_state(o->ode, NULL, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_get_state(o->ode, y, (opsplit_ode_layout)-1));
  double k[NSYS * NPARAM] = {0};
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_parameters(H, k, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_set_parameters(o->ode, NULL, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_set_parameters(o->ode, k, (opsplit_ode_layout)7));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_get_parameters(H, k, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_get_parameters(o->ode, NULL, OPSPLIT_ODE_AOS));
  BAD_ARG(opsplit_ode_get_parameters(o->ode, k, (opsplit_ode_layout)2));

  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_integrate(H, 0, 1));
  BAD_ARG(opsplit_ode_integrate(o->ode, nan_, 1));
  BAD_ARG(opsplit_ode_integrate(o->ode, 0, nan_));
  BAD_ARG(opsplit_ode_integrate(o->ode, 0, inf_));
  BAD_ARG(opsplit_ode_integrate(o->ode, -inf_, 0));
  BAD_ARG(opsplit_ode_integrate(o->ode, 1, 0)); /* backwards */
  int result = 0;
  int64_t accepted = 0, rejected = 0, nrhs = 0, njac = 0;
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_get_results(H, &result, &accepted, &rejected, &nrhs, &njac));
  CHECK_OK(opsplit_ode_get_results(o->ode, NULL, NULL, NULL, NULL, NULL)); /* outputs may be NULL */

  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_state_device(H, y, OPSPLIT_ODE_SOA));
  BAD_DEVICE(opsplit_ode_set_state_device(o->ode, y, (opsplit_ode_layout)2));
  BAD_DEVICE(opsplit_ode_set_state_device(o->ode, NULL, OPSPLIT_ODE_SOA));
  BAD_DEVICE(opsplit_ode_set_state_device(o->ode, y, OPSPLIT_ODE_AOS));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_get_state_device(H, y, OPSPLIT_ODE_SOA));
  BAD_DEVICE(opsplit_ode_get_state_device(o->ode, y, (opsplit_ode_layout)-1));
  BAD_DEVICE(opsplit_ode_get_state_device(o->ode, y, OPSPLIT_ODE_SOA));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_set_parameters_device(H, k, OPSPLIT_ODE_SOA));
  BAD_DEVICE(opsplit_ode_set_parameters_device(o->ode, k, (opsplit_ode_layout)3));
  BAD_DEVICE(opsplit_ode_set_parameters_device(o->ode, k, OPSPLIT_ODE_SOA));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_get_parameters_device(H, k, OPSPLIT_ODE_SOA));
  BAD_DEVICE(opsplit_ode_get_parameters_device(o->ode, k, (opsplit_ode_layout)2));
  BAD_DEVICE(opsplit_ode_get_parameters_device(o->ode, NULL, OPSPLIT_ODE_AOS));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_wrap_state_device(H, y));
  BAD_DEVICE(opsplit_ode_wrap_state_device(o->ode, y));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_wrap_parameters_device(H, k));
  BAD_DEVICE(opsplit_ode_wrap_parameters_device(o->ode, k));
  BAD_HANDLES(K_ODE, opsplit_ode, opsplit_ode_get_results_device(H, &result, NULL, NULL, NULL, NULL));
  BAD_DEVICE(opsplit_ode_get_results_device(o->ode, &result, NULL, NULL, NULL, NULL));
  BAD_DEVICE(opsplit_ode_get_results_device(o->ode, NULL, &accepted, &rejected, &nrhs, &njac));
  CHECK_OK(opsplit_ode_get_shape(o->ode, &neq, &nsys, &nparam));
  CHECK(neq == NEQ && nsys == NSYS && nparam == NPARAM);
}

static void sweep_ca(objects* o) {
  opsplit_ca g = NULL;
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_ca_create(H, OPSPLIT_CA_LIFE, 8, 8, &g));
  BAD_ARG(opsplit_ca_create(o->ctx, (opsplit_ca_model)3, 8, 8, &g));
  BAD_ARG(opsplit_ca_create(o->ctx, (opsplit_ca_model)-1, 8, 8, &g));
  const int64_t bad_extent[] = {0, -1, INT64_MIN, INT64_MAX};
  for (int i = 0; i < 4; i++) {
    BAD_ARG(opsplit_ca_create(o->ctx, OPSPLIT_CA_LIFE, bad_extent[i], 8, &g));
    BAD_ARG(opsplit_ca_create(o->ctx, OPSPLIT_CA_SCIARA_FV3, 8, bad_extent[i], &g));
  }
  BAD_ARG(opsplit_ca_create(o->ctx, OPSPLIT_CA_SCIARA_FV2, 2, 8, &g)); /* lava grids: 3 or more */
  BAD_ARG(opsplit_ca_create(o->ctx, OPSPLIT_CA_LIFE, (int64_t)1 << 21, (int64_t)1 << 21, &g)); /* > 2^40 cells */
  BAD_ARG(opsplit_ca_create(o->ctx, OPSPLIT_CA_LIFE, 8, 8, NULL));
  CHECK(g == NULL);
  BAD_DESTROY(K_CA, opsplit_ca, opsplit_ca_destroy);

  int64_t r = 0, c = 0, r0 = 0, c0 = 0;
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_shape(H, &r, &c));
  BAD_ARG(opsplit_ca_get_shape(o->life, NULL, &c));
  BAD_ARG(opsplit_ca_get_shape(o->life, &r, NULL));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_place(H, &r0, &c0, &r, &c));
  BAD_ARG(opsplit_ca_get_place(o->life, NULL, &c0, &r, &c));
  BAD_ARG(opsplit_ca_get_place(o->life, &r0, &c0, &r, NULL));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_boundary(H, OPSPLIT_CA_PERIODIC));
  BAD_ARG(opsplit_ca_set_boundary(o->life, (opsplit_ca_boundary)2));
  BAD_ARG(opsplit_ca_set_boundary(o->life, (opsplit_ca_boundary)-1));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_ca_set_boundary(o->lava, OPSPLIT_CA_PERIODIC));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_rule(H, "B3/S23"));
  BAD_ARG(opsplit_ca_set_rule(o->life, NULL));
  const char* bad_rules[] = {"", "B3/S23/", "B9/S23", "B33/S23", "B0/S23", "B2a/S23", "nonsense", "B3S23x"};
  for (int i = 0; i < 8; i++) BAD_ARG(opsplit_ca_set_rule(o->life, bad_rules[i]));
  BAD_ARG(opsplit_ca_set_rule(o->lava, "B3/S23"));

  uint8_t cells[ROWS * COLS] = {0};
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_cells(H, cells, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_set_cells(o->life, NULL, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_set_cells(o->life, cells, (opsplit_ca_order)2));
  BAD_ARG(opsplit_ca_set_cells(o->lava, cells, OPSPLIT_CA_ROW_MAJOR));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_cells(H, cells, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_get_cells(o->life, NULL, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_get_cells(o->life, cells, (opsplit_ca_order)-1));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_cells_device(H, cells, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_cells_device(o->life, cells, (opsplit_ca_order)2));
  BAD_DEVICE(opsplit_ca_set_cells_device(o->lava, cells, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_cells_device(o->life, NULL, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_cells_device(o->life, cells, OPSPLIT_CA_COLUMN_MAJOR));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_cells_device(H, cells, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_get_cells_device(o->life, cells, (opsplit_ca_order)-1));
  BAD_DEVICE(opsplit_ca_get_cells_device(o->life, cells, OPSPLIT_CA_ROW_MAJOR));

  const char* glider = "x = 3, y = 3\nbo$2bo$3o!";
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_place_rle(H, glider, 0, 0));
  BAD_ARG(opsplit_ca_place_rle(o->life, NULL, 0, 0));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_ca_place_rle(o->life, "x = 3, y = 3\nbo$2bo$3q!", 0, 0));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_ca_place_rle(o->life, "", 0, 0));
  BAD_ARG(opsplit_ca_place_rle(o->life, "x = 3, y = 3, rule = B36/S23\nbo$2bo$3o!", 0, 0)); /* not its rule */
  BAD_ARG(opsplit_ca_place_rle(o->life, "x = 99, y = 3\nbo$2bo$3o!", 0, 0)); /* wider than the grid */
  const int64_t bad_place[] = {-1, INT64_MIN, INT64_MAX, ROWS};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_ca_place_rle(o->life, glider, bad_place[i], 0));
  BAD_ARG(opsplit_ca_place_rle(o->lava, glider, 0, 0));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_load_rle(H, "x.rle", 0, 0));
  BAD_ARG(opsplit_ca_load_rle(o->life, NULL, 0, 0));
  BAD(OPSPLIT_ERROR_IO, opsplit_ca_load_rle(o->life, "/no/such/file.rle", 0, 0));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_ca_load_rle(o->life, gas_path, 0, 0)); /* YAML is no RLE */

  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_step(H, 1));
  BAD_ARG(opsplit_ca_step(o->life, -1));
  BAD_ARG(opsplit_ca_step(o->life, INT64_MIN));
  int64_t n = -1;
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_steps(H, &n));
  BAD_ARG(opsplit_ca_get_steps(o->life, NULL));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_population(H, &n));
  BAD_ARG(opsplit_ca_get_population(o->life, NULL));
  BAD_ARG(opsplit_ca_get_population(o->lava, &n));
  CHECK_OK(opsplit_ca_get_steps(o->life, &n));
  CHECK(n == 0);
  CHECK_OK(opsplit_ca_get_population(o->life, &n));
  CHECK(n == 0);

  /* Lava functions: on the LIFE grid INVALID_ARGUMENT; bad names, values, files. */
  double v[NLAVA] = {0}, value = 0;
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_substate(H, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_set_substate(o->life, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_set_substate(o->lava, NULL, v, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_set_substate(o->lava, "no_such_substate", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_set_substate(o->lava, "momentum_x", v, OPSPLIT_CA_ROW_MAJOR)); /* fv3's */
  BAD_ARG(opsplit_ca_set_substate(o->lava, "lost", v, OPSPLIT_CA_ROW_MAJOR));       /* read-only */
  BAD_ARG(opsplit_ca_set_substate(o->lava, "altitude", NULL, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_set_substate(o->lava, "altitude", v, (opsplit_ca_order)2));
  v[40] = nan_;
  BAD_ARG(opsplit_ca_set_substate(o->lava, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  v[40] = inf_;
  BAD_ARG(opsplit_ca_set_substate(o->lava, "temperature", v, OPSPLIT_CA_ROW_MAJOR));
  v[40] = -1;
  BAD_ARG(opsplit_ca_set_substate(o->lava, "thickness", v, OPSPLIT_CA_ROW_MAJOR));
  v[40] = 0, v[0] = 1;
  BAD_ARG(opsplit_ca_set_substate(o->lava, "thickness", v, OPSPLIT_CA_ROW_MAJOR)); /* the outer ring */
  v[0] = 0;
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_substate(H, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_get_substate(o->life, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_get_substate(o->lava, "altitude", NULL, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_get_substate(o->lava, NULL, v, OPSPLIT_CA_ROW_MAJOR));
  BAD_ARG(opsplit_ca_get_substate(o->lava, "altitude", v, (opsplit_ca_order)9));
  /* The device forms: UNSUPPORTED on a CPU context; on CUDA the host array v is refused. */
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_substate_device(H, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_substate_device(o->life, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_substate_device(o->lava, NULL, v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_substate_device(o->lava, "no_such_substate", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_substate_device(o->lava, "lost", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_substate_device(o->lava, "altitude", NULL, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_set_substate_device(o->lava, "altitude", v, (opsplit_ca_order)2));
  BAD_DEVICE(opsplit_ca_set_substate_device(o->lava, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_substate_device(H, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_get_substate_device(o->life, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_get_substate_device(o->lava, NULL, v, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_get_substate_device(o->lava, "altitude", NULL, OPSPLIT_CA_ROW_MAJOR));
  BAD_DEVICE(opsplit_ca_get_substate_device(o->lava, "altitude", v, (opsplit_ca_order)9));
  BAD_DEVICE(opsplit_ca_get_substate_device(o->lava, "altitude", v, OPSPLIT_CA_ROW_MAJOR));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_load_substate(H, "altitude", "x.asc"));
  BAD_ARG(opsplit_ca_load_substate(o->life, "altitude", "x.asc"));
  BAD_ARG(opsplit_ca_load_substate(o->lava, NULL, "x.asc"));
  BAD_ARG(opsplit_ca_load_substate(o->lava, "altitude", NULL));
  BAD(OPSPLIT_ERROR_IO, opsplit_ca_load_substate(o->lava, "altitude", "/no/such/file.asc"));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_ca_load_substate(o->lava, "altitude", gas_path));

  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_parameter(H, "Pclock", 60));
  BAD_ARG(opsplit_ca_set_parameter(o->life, "Pclock", 60));
  BAD_ARG(opsplit_ca_set_parameter(o->lava, NULL, 60));
  BAD_ARG(opsplit_ca_set_parameter(o->lava, "no_such_parameter", 60));
  BAD_ARG(opsplit_ca_set_parameter(o->lava, "Ptmax", 60)); /* fv3's */
  const double bad_parameter[] = {0.0, -1.0, nan_, inf_, -inf_};
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_ca_set_parameter(o->lava, "Pc", bad_parameter[i]));
  BAD_ARG(opsplit_ca_set_parameter(o->lava, "Pr_Tsol", 1.5)); /* a relaxation rate above 1 */
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_parameter(H, "Pclock", &value));
  BAD_ARG(opsplit_ca_get_parameter(o->life, "Pclock", &value));
  BAD_ARG(opsplit_ca_get_parameter(o->lava, NULL, &value));
  BAD_ARG(opsplit_ca_get_parameter(o->lava, "Pclock", NULL));
  BAD_ARG(opsplit_ca_get_parameter(o->lava, "no_such_parameter", &value));
  CHECK_OK(opsplit_ca_get_parameter(o->lava, "Pc", &value));
  CHECK(value == 10.0);
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_load_parameters(H, "PARAMETERS.cfg"));
  BAD_ARG(opsplit_ca_load_parameters(o->life, "PARAMETERS.cfg"));
  BAD_ARG(opsplit_ca_load_parameters(o->lava, NULL));
  BAD(OPSPLIT_ERROR_IO, opsplit_ca_load_parameters(o->lava, "/no/such/PARAMETERS.cfg"));
  BAD(OPSPLIT_ERROR_PARSE, opsplit_ca_load_parameters(o->lava, gas_path));

  double rates[2] = {1, 1};
  int64_t vent = -1;
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_add_vent(H, 4, 4, rates, 2, 60, &vent));
  BAD_ARG(opsplit_ca_add_vent(o->life, 4, 4, rates, 2, 60, &vent));
  const int64_t bad_cell[] = {0, LR - 1, -1, INT64_MAX, INT64_MIN}; /* the outer ring and outside */
  for (int i = 0; i < 5; i++) {
    BAD_ARG(opsplit_ca_add_vent(o->lava, bad_cell[i], 4, rates, 2, 60, &vent));
    BAD_ARG(opsplit_ca_add_vent(o->lava, 4, bad_cell[i], rates, 2, 60, &vent));
  }
  BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, NULL, 2, 60, &vent));
  BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, rates, 0, 60, &vent));
  BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, rates, -1, 60, &vent));
  BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, rates, INT64_MAX, 60, &vent)); /* refused unread */
  BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, rates, ((int64_t)1 << 20) + 1, 60, &vent));
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, rates, 2, bad_parameter[i], &vent));
  rates[1] = -1;
  BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, rates, 2, 60, &vent));
  rates[1] = nan_;
  BAD_ARG(opsplit_ca_add_vent(o->lava, 4, 4, rates, 2, 60, &vent));
  CHECK(vent == -1);
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_load_vents(H, "vents.asc", "rates.txt"));
  BAD_ARG(opsplit_ca_load_vents(o->life, "vents.asc", "rates.txt"));
  BAD_ARG(opsplit_ca_load_vents(o->lava, NULL, "rates.txt"));
  BAD_ARG(opsplit_ca_load_vents(o->lava, "vents.asc", NULL));
  BAD(OPSPLIT_ERROR_IO, opsplit_ca_load_vents(o->lava, "/no/such/vents.asc", "/no/such/rates.txt"));

  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_run_until(H, 60));
  BAD_ARG(opsplit_ca_run_until(o->life, 60));
  BAD_ARG(opsplit_ca_run_until(o->lava, nan_));
  BAD_ARG(opsplit_ca_run_until(o->lava, inf_));
  BAD_ARG(opsplit_ca_run_until(o->lava, -inf_));
  double t = -1;
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_time(H, &t));
  BAD_ARG(opsplit_ca_get_time(o->life, &t));
  BAD_ARG(opsplit_ca_get_time(o->lava, NULL));
  CHECK_OK(opsplit_ca_get_time(o->lava, &t));
  CHECK(t == 0);
  double e = 0, l = 0, s = 0, lost = 0;
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_get_volumes(H, &e, &l, &s, &lost));
  BAD_ARG(opsplit_ca_get_volumes(o->life, &e, &l, &s, &lost));
  BAD_ARG(opsplit_ca_get_volumes(o->lava, NULL, &l, &s, &lost));
  BAD_ARG(opsplit_ca_get_volumes(o->lava, &e, &l, &s, NULL));
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_ca_set_cells_computed(H, OPSPLIT_CA_ALL_CELLS));
  BAD_ARG(opsplit_ca_set_cells_computed(o->life, OPSPLIT_CA_ALL_CELLS));
  BAD_ARG(opsplit_ca_set_cells_computed(o->lava, (opsplit_ca_cells)2));
  BAD_ARG(opsplit_ca_set_cells_computed(o->lava, (opsplit_ca_cells)-1));
}

static void sweep_pcpd(objects* o) {
  opsplit_pcpd p = NULL;
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_pcpd_create(H, OPSPLIT_PCPD_EXACT, 64, 2, &p));
  BAD_ARG(opsplit_pcpd_create(o->ctx, (opsplit_pcpd_algorithm)3, 64, 2, &p));
  BAD_ARG(opsplit_pcpd_create(o->ctx, (opsplit_pcpd_algorithm)-1, 64, 2, &p));
  const int64_t bad_size[] = {0, -1, INT64_MIN, INT64_MAX};
  for (int i = 0; i < 4; i++) {
    BAD_ARG(opsplit_pcpd_create(o->ctx, OPSPLIT_PCPD_EXACT, bad_size[i], 2, &p));
    BAD_ARG(opsplit_pcpd_create(o->ctx, OPSPLIT_PCPD_EXACT, 64, bad_size[i], &p));
  }
  BAD_ARG(opsplit_pcpd_create(o->ctx, OPSPLIT_PCPD_MULTISPIN32, 1000, 2, &p)); /* not a multiple of 1024 */
  BAD_ARG(opsplit_pcpd_create(o->ctx, OPSPLIT_PCPD_EXACT, (int64_t)1 << 40, (int64_t)1 << 40, &p));
  BAD_ARG(opsplit_pcpd_create(o->ctx, OPSPLIT_PCPD_EXACT, 64, 2, NULL));
  CHECK(p == NULL);
  BAD_DESTROY(K_PCPD, opsplit_pcpd, opsplit_pcpd_destroy);

  const double bad_probability[] = {-0.1, 1.1, nan_, inf_, -inf_};
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_set_probabilities(H, 0.1, 0.5));
  for (int i = 0; i < 5; i++) {
    BAD_ARG(opsplit_pcpd_set_probabilities(o->pcpd, bad_probability[i], 0.5));
    BAD_ARG(opsplit_pcpd_set_probabilities(o->pcpd, 0.1, bad_probability[i]));
  }
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_initialize(H, 1, 0.5));
  for (int i = 0; i < 5; i++) BAD_ARG(opsplit_pcpd_initialize(o->pcpd, 1, bad_probability[i]));
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_set_points_per_decade(H, 10));
  BAD_ARG(opsplit_pcpd_set_points_per_decade(o->pcpd, 0));
  BAD_ARG(opsplit_pcpd_set_points_per_decade(o->pcpd, -1));
  BAD_ARG(opsplit_pcpd_set_points_per_decade(o->pcpd, INT_MAX));
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_run(H, 1.0));
  BAD_ARG(opsplit_pcpd_run(o->pcpd, nan_));
  BAD_ARG(opsplit_pcpd_run(o->pcpd, inf_));
  BAD_ARG(opsplit_pcpd_run(o->pcpd, -1.0));
  double time = -1;
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_get_time(H, &time));
  BAD_ARG(opsplit_pcpd_get_time(o->pcpd, NULL));
  int64_t length = -1, first = -1, count = -1;
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_get_series_length(H, &length));
  BAD_ARG(opsplit_pcpd_get_series_length(o->pcpd, NULL));
  double times[4], mean[4], error[4];
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_get_series(H, OPSPLIT_PCPD_DENSITY, 1, times, mean, error));
  BAD_ARG(opsplit_pcpd_get_series(o->pcpd, (opsplit_pcpd_quantity)3, 0, times, mean, error));
  BAD_ARG(opsplit_pcpd_get_series(o->pcpd, OPSPLIT_PCPD_DENSITY, -1, times, mean, error));
  BAD_ARG(opsplit_pcpd_get_series(o->pcpd, OPSPLIT_PCPD_DENSITY, 4, times, mean, error)); /* longer than it */
  BAD_ARG(opsplit_pcpd_get_series(o->pcpd, OPSPLIT_PCPD_DENSITY, INT64_MAX, times, mean, error));
  uint8_t sites[PCPD_L];
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_get_lattice(H, 0, sites));
  const int64_t bad_replica[] = {-1, PCPD_R, INT64_MAX, INT64_MIN};
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_pcpd_get_lattice(o->pcpd, bad_replica[i], sites));
  BAD_ARG(opsplit_pcpd_get_lattice(o->pcpd, 0, NULL));
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_set_lattice(H, 0, sites));
  for (int i = 0; i < 4; i++) BAD_ARG(opsplit_pcpd_set_lattice(o->pcpd, bad_replica[i], sites));
  BAD_ARG(opsplit_pcpd_set_lattice(o->pcpd, 0, NULL));
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_get_lattice_device(H, 0, sites));
  for (int i = 0; i < 4; i++) BAD_DEVICE(opsplit_pcpd_get_lattice_device(o->pcpd, bad_replica[i], sites));
  BAD_DEVICE(opsplit_pcpd_get_lattice_device(o->pcpd, 0, sites));
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_set_lattice_device(H, 0, sites));
  for (int i = 0; i < 4; i++) BAD_DEVICE(opsplit_pcpd_set_lattice_device(o->pcpd, bad_replica[i], sites));
  BAD_DEVICE(opsplit_pcpd_set_lattice_device(o->pcpd, 0, NULL));
  BAD_DEVICE(opsplit_pcpd_set_lattice_device(o->pcpd, 0, sites));
  BAD_HANDLES(K_PCPD, opsplit_pcpd, opsplit_pcpd_get_replicas(H, &first, &count));
  BAD_ARG(opsplit_pcpd_get_replicas(o->pcpd, NULL, &count));
  BAD_ARG(opsplit_pcpd_get_replicas(o->pcpd, &first, NULL));
  CHECK_OK(opsplit_pcpd_get_replicas(o->pcpd, &first, &count));
  CHECK(first == 0 && count == PCPD_R);
}

/* The BMI face: a module's variables by name, its clock and grids. */
static void sweep_gw_bmi(objects* o) {
  double values[2 * NGW] = {0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2};
  int count = 0, grid = 0, itemsize = 0, rank = 0;
  int64_t nbytes = 0, size = 0;
  const char* text = NULL;
  const int indices[2] = {0, 1}, outside[2] = {0, 2 * NGW};
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_update(H));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_update_until(H, 1.0));
  BAD_ARG(opsplit_gw_bmi_update_until(o->gw, -1.0)); /* before the module's time */
  BAD_ARG(opsplit_gw_bmi_update_until(o->gw, nan_));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_get_var_count(H, OPSPLIT_GW_BMI_INPUT, &count));
  BAD_ARG(opsplit_gw_bmi_get_var_count(o->gw, (opsplit_gw_bmi_role)2, &count));
  BAD_ARG(opsplit_gw_bmi_get_var_count(o->gw, OPSPLIT_GW_BMI_INPUT, NULL));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_get_var_name(H, OPSPLIT_GW_BMI_INPUT, 0, &text));
  BAD_ARG(opsplit_gw_bmi_get_var_name(o->gw, OPSPLIT_GW_BMI_INPUT, 11, &text)); /* 11 inputs */
  BAD_ARG(opsplit_gw_bmi_get_var_name(o->gw, OPSPLIT_GW_BMI_OUTPUT, -1, &text));
  BAD_ARG(opsplit_gw_bmi_get_var_name(o->gw, OPSPLIT_GW_BMI_OUTPUT, 0, NULL));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_get_var_info(H, "Porosity", &text, &text, &grid, &itemsize, &nbytes, &text));
  BAD_ARG(opsplit_gw_bmi_get_var_info(o->gw, "porosity", &text, &text, &grid, &itemsize, &nbytes, &text));
  BAD_ARG(opsplit_gw_bmi_get_var_info(o->gw, NULL, &text, &text, &grid, &itemsize, &nbytes, &text));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_get_times(H, values, values, values, values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_get_value(H, "Porosity", values));
  BAD_ARG(opsplit_gw_bmi_get_value(o->gw, "Porosity", NULL));
  BAD_ARG(opsplit_gw_bmi_get_value(o->gw, "Nothing", values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_set_value(H, "Porosity", values));
  BAD_ARG(opsplit_gw_bmi_set_value(o->gw, "Porosity", NULL));
  BAD_ARG(opsplit_gw_bmi_set_value(o->gw, "Status", values)); /* an output */
  const double bad_porosity[NGW] = {0.2, 2.0, 0.2, 0.2};
  BAD_ARG(opsplit_gw_bmi_set_value(o->gw, "Porosity", bad_porosity));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_get_value_at_indices(H, "Porosity", values, indices, 2));
  BAD_ARG(opsplit_gw_bmi_get_value_at_indices(o->gw, "Porosity", values, NULL, 2));
  BAD_ARG(opsplit_gw_bmi_get_value_at_indices(o->gw, "Porosity", NULL, indices, 2));
  BAD_ARG(opsplit_gw_bmi_get_value_at_indices(o->gw, "Porosity", values, indices, -1));
  BAD_ARG(opsplit_gw_bmi_get_value_at_indices(o->gw, "Concentrations", values, outside, 2));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_set_value_at_indices(H, "Porosity", indices, 2, values));
  BAD_ARG(opsplit_gw_bmi_set_value_at_indices(o->gw, "Porosity", NULL, 2, values));
  BAD_ARG(opsplit_gw_bmi_set_value_at_indices(o->gw, "Porosity", indices, 2, NULL));
  BAD_ARG(opsplit_gw_bmi_set_value_at_indices(o->gw, "Concentrations", outside, 2, values));
  BAD_ARG(opsplit_gw_bmi_set_value_at_indices(o->gw, "GridCellCount", indices, 1, values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_bmi_get_grid_info(H, 0, &rank, &size, &text));
  BAD_ARG(opsplit_gw_bmi_get_grid_info(o->gw, -1, &rank, &size, &text));
  BAD_ARG(opsplit_gw_bmi_get_grid_info(o->gw, 2, &rank, &size, &text));
  CHECK_OK(opsplit_gw_bmi_get_grid_info(o->gw, 0, &rank, &size, &text));
  CHECK(rank == 1 && size == NGW);
}

static void sweep_gw(objects* o) {
  opsplit_gw w = NULL;
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_gw_create(H, o->mech, NGW, &w));
  BAD_HANDLES(K_MECHANISM, opsplit_mechanism, opsplit_gw_create(o->ctx, H, NGW, &w));
  BAD(OPSPLIT_ERROR_UNSUPPORTED, opsplit_gw_create(o->ctx, o->gas, NGW, &w)); /* a loaded gas mechanism */
  BAD_ARG(opsplit_gw_create(o->ctx, o->mech, 0, &w));
  BAD_ARG(opsplit_gw_create(o->ctx, o->mech, -1, &w));
  BAD_ARG(opsplit_gw_create(o->ctx, o->mech, INT64_MAX, &w));
  BAD_ARG(opsplit_gw_create(o->ctx, o->mech, NGW, NULL));
  CHECK(w == NULL);
  BAD_DESTROY(K_GW, opsplit_gw, opsplit_gw_destroy);
  int64_t n64 = 0;
  int n = 0, species[2];
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_counts(H, &n64, &n64, &n, &n));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_mobile(H, 0, 1));
  BAD_ARG(opsplit_gw_set_mobile(o->gw, -1, 1));
  BAD_ARG(opsplit_gw_set_mobile(o->gw, 2, 1));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_species_lists(H, species, species));
  const int map[NGW] = {0, 1, -1, 1}, gap[NGW] = {0, 2, 2, 2}, high[NGW] = {0, 1, 2, NGW}, out[NGW] = {-1, -1, -1, -1};
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_mapping(H, map));
  BAD_ARG(opsplit_gw_set_mapping(o->gw, NULL));
  BAD_ARG(opsplit_gw_set_mapping(o->gw, gap));
  BAD_ARG(opsplit_gw_set_mapping(o->gw, high));
  BAD_ARG(opsplit_gw_set_mapping(o->gw, out));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_units(H, OPSPLIT_GW_MOL_PER_L, OPSPLIT_GW_PER_L_CELL));
  BAD_ARG(opsplit_gw_set_units(o->gw, (opsplit_gw_solution_units)0, OPSPLIT_GW_PER_L_CELL));
  BAD_ARG(opsplit_gw_set_units(o->gw, OPSPLIT_GW_MOL_PER_L, (opsplit_gw_solid_units)3));
  const double masses[2] = {10, 20}, bad_masses[2] = {10, -1}, nan_masses[2] = {nan_, 1};
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_molar_masses(H, masses));
  BAD_ARG(opsplit_gw_set_molar_masses(o->gw, NULL));
  BAD_ARG(opsplit_gw_set_molar_masses(o->gw, bad_masses));
  BAD_ARG(opsplit_gw_set_molar_masses(o->gw, nan_masses));
  double values[2 * NGW] = {0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2};
  const double bad_values[NGW] = {0.2, nan_, 0.2, 0.2}, negative[NGW] = {0.2, -0.1, 0.2, 0.2};
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_property(H, OPSPLIT_GW_POROSITY, values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_property(H, OPSPLIT_GW_POROSITY, values));
  for (int p = OPSPLIT_GW_POROSITY; p <= OPSPLIT_GW_BULK_DENSITY; p++) {
    BAD_ARG(opsplit_gw_set_property(o->gw, (opsplit_gw_property)p, bad_values));
    if (p != OPSPLIT_GW_TEMPERATURE) BAD_ARG(opsplit_gw_set_property(o->gw, (opsplit_gw_property)p, negative));
    BAD_ARG(opsplit_gw_set_property(o->gw, (opsplit_gw_property)p, NULL));
    BAD_ARG(opsplit_gw_get_property(o->gw, (opsplit_gw_property)p, NULL));
  }
  BAD_ARG(opsplit_gw_set_property(o->gw, (opsplit_gw_property)7, values));
  BAD_ARG(opsplit_gw_get_property(o->gw, (opsplit_gw_property)-1, values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_isotherm(H, 0, OPSPLIT_GW_ISOTHERM_LINEAR, 1, 0));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, -1, OPSPLIT_GW_ISOTHERM_LINEAR, 1, 0));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, 2, OPSPLIT_GW_ISOTHERM_LINEAR, 1, 0));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, 0, (opsplit_gw_isotherm)4, 1, 1));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, 0, (opsplit_gw_isotherm)-1, 1, 1));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, 0, OPSPLIT_GW_ISOTHERM_LINEAR, 0.0, 0));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, 0, OPSPLIT_GW_ISOTHERM_LINEAR, nan_, 0));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, 0, OPSPLIT_GW_ISOTHERM_FREUNDLICH, 1, 0.0));
  BAD_ARG(opsplit_gw_set_isotherm(o->gw, 0, OPSPLIT_GW_ISOTHERM_LANGMUIR, 1, inf_));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_retardation(H, values));
  BAD_ARG(opsplit_gw_get_retardation(o->gw, NULL));
  CHECK_OK(opsplit_gw_get_retardation(o->gw, values)); /* no isotherm: every R is 1 */
  CHECK_OK(opsplit_gw_set_isotherm(o->gw, 0, OPSPLIT_GW_ISOTHERM_LINEAR, 1, 0));
  BAD_ARG(opsplit_gw_get_retardation(o->gw, values)); /* BULK_DENSITY was never set */
  CHECK_OK(opsplit_gw_set_isotherm(o->gw, 0, OPSPLIT_GW_ISOTHERM_NONE, 0, 0));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_parameter(H, 0, values));
  BAD_ARG(opsplit_gw_set_parameter(o->gw, 1, values)); /* the rates read one parameter */
  BAD_ARG(opsplit_gw_set_parameter(o->gw, -1, values));
  BAD_ARG(opsplit_gw_set_parameter(o->gw, 0, bad_values));
  BAD_ARG(opsplit_gw_set_parameter(o->gw, 0, NULL));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_concentrations(H, values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_concentrations(H, values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_immobile(H, values));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_immobile(H, values));
  BAD_ARG(opsplit_gw_set_concentrations(o->gw, NULL));
  BAD_ARG(opsplit_gw_get_concentrations(o->gw, NULL));
  BAD_ARG(opsplit_gw_set_immobile(o->gw, NULL));
  BAD_ARG(opsplit_gw_get_immobile(o->gw, NULL));
  double nan_concentrations[2 * NGW] = {0, 0, 0, 0, 0, 0, inf_, 0};
  BAD_ARG(opsplit_gw_set_concentrations(o->gw, nan_concentrations));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_method(H, OPSPLIT_ODE_ROS3));
  BAD_ARG(opsplit_gw_set_method(o->gw, (opsplit_ode_method)7));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_set_tolerances(H, 1e-6, 1e-15));
  BAD_ARG(opsplit_gw_set_tolerances(o->gw, 0.0, 1e-15));
  BAD_ARG(opsplit_gw_set_tolerances(o->gw, 1e-6, -1.0));
  BAD_ARG(opsplit_gw_set_tolerances(o->gw, nan_, 1e-15));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_run(H, 1.0));
  BAD_ARG(opsplit_gw_run(o->gw, -1.0));
  BAD_ARG(opsplit_gw_run(o->gw, nan_));
  BAD_ARG(opsplit_gw_run(o->gw, inf_));
  int status[NGW];
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_status(H, status));
  BAD_ARG(opsplit_gw_get_status(o->gw, NULL));
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_moles(H, values));
  BAD_ARG(opsplit_gw_get_moles(o->gw, NULL));
  const char* text = NULL;
  BAD_HANDLES(K_GW, opsplit_gw, opsplit_gw_get_species_name(H, 0, &text));
  BAD_ARG(opsplit_gw_get_species_name(o->gw, 2, &text));
  BAD_ARG(opsplit_gw_get_species_name(o->gw, -1, &text));
  BAD_ARG(opsplit_gw_get_species_name(o->gw, 0, NULL));
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_gw_load_yaml(H, "x.yaml", &w));
  BAD(OPSPLIT_ERROR_IO, opsplit_gw_load_yaml(o->ctx, "/nonexistent/gw.yaml", &w));
  BAD_ARG(opsplit_gw_load_yaml(o->ctx, NULL, &w));
  CHECK(w == NULL);
  sweep_gw_bmi(o);
}

#ifdef OPSPLIT_TEST_MPI
static void sweep_mpi(objects* o) {
  MPI_Fint world = MPI_Comm_c2f(MPI_COMM_WORLD), none = MPI_Comm_c2f(MPI_COMM_NULL);
  MPI_Comm cart3, cart2;
  int dims[3] = {1, 1, 1}, periods[3] = {0, 0, 0};
  MPI_Cart_create(MPI_COMM_WORLD, 3, dims, periods, 0, &cart3);
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart2);
  BAD_HANDLES(K_FIELD, opsplit_field, opsplit_mpi_field_attach(H, MPI_Comm_c2f(cart3)));
  BAD_ARG(opsplit_mpi_field_attach(o->field, none));
  BAD_ARG(opsplit_mpi_field_attach(o->field, world)); /* not Cartesian */
  BAD_HANDLES(K_CA, opsplit_ca, opsplit_mpi_ca_attach(H, MPI_Comm_c2f(cart2)));
  BAD_ARG(opsplit_mpi_ca_attach(o->life, none));
  BAD_ARG(opsplit_mpi_ca_attach(o->life, MPI_Comm_c2f(cart3))); /* 3 dimensions */
  MPI_Comm_free(&cart3);
  MPI_Comm_free(&cart2);
  opsplit_pcpd p = NULL;
  BAD_HANDLES(K_CONTEXT, opsplit_context, opsplit_mpi_pcpd_create(H, world, OPSPLIT_PCPD_EXACT, 64, 2, &p));
  BAD_ARG(opsplit_mpi_pcpd_create(o->ctx, none, OPSPLIT_PCPD_EXACT, 64, 2, &p));
  BAD_ARG(opsplit_mpi_pcpd_create(o->ctx, world, (opsplit_pcpd_algorithm)9, 64, 2, &p));
  BAD_ARG(opsplit_mpi_pcpd_create(o->ctx, world, OPSPLIT_PCPD_EXACT, -1, 2, &p));
  BAD_ARG(opsplit_mpi_pcpd_create(o->ctx, world, OPSPLIT_PCPD_EXACT, 64, 2, NULL));
  CHECK(p == NULL);
}
#endif

/* The bad handles of each type: stale ones made and destroyed after the objects (so
 * that no live object of the sweep can sit at a destroyed one's address), a live one
 * of another type, and forged blocks. */
static void make_bad_handles(objects* o) {
  opsplit_context c = NULL;
  opsplit_field f = NULL;
  opsplit_rd r = NULL;
  opsplit_mechanism m = NULL;
  opsplit_ode e = NULL;
  opsplit_ca g = NULL;
  opsplit_pcpd p = NULL;
  opsplit_gw w = NULL;
  CHECK_OK(opsplit_context_create(OPSPLIT_BACKEND_CPU, &c));
  CHECK_OK(opsplit_field_create(o->ctx, 4, 4, 4, 1, OPSPLIT_FLOAT64, &f));
  CHECK_OK(opsplit_rd_create(o->ctx, 1, &r));
  CHECK_OK(opsplit_mechanism_create(o->ctx, &m));
  CHECK_OK(opsplit_ode_create(o->ctx, 1, 1, 0, &e));
  CHECK_OK(opsplit_ca_create(o->ctx, OPSPLIT_CA_LIFE, 8, 8, &g));
  CHECK_OK(opsplit_pcpd_create(o->ctx, OPSPLIT_PCPD_EXACT, 64, 1, &p));
  CHECK_OK(opsplit_gw_create(o->ctx, o->mech, 2, &w));
  stale[K_CONTEXT] = c, stale[K_FIELD] = f, stale[K_RD] = r, stale[K_MECHANISM] = m, stale[K_ODE] = e;
  stale[K_CA] = g, stale[K_PCPD] = p, stale[K_GW] = w;
  CHECK_OK(opsplit_gw_destroy(&w));
  CHECK_OK(opsplit_pcpd_destroy(&p));
  CHECK_OK(opsplit_ca_destroy(&g));
  CHECK_OK(opsplit_ode_destroy(&e));
  CHECK_OK(opsplit_mechanism_destroy(&m));
  CHECK_OK(opsplit_rd_destroy(&r));
  CHECK_OK(opsplit_field_destroy(&f));
  CHECK_OK(opsplit_context_destroy(&c));
  other_live[K_CONTEXT] = o->field, other_live[K_FIELD] = o->rd, other_live[K_RD] = o->field;
  other_live[K_MECHANISM] = o->ode, other_live[K_ODE] = o->mech, other_live[K_CA] = o->pcpd;
  other_live[K_PCPD] = o->life, other_live[K_GW] = o->ode;
  for (int k = 0; k < NKINDS; k++) memcpy(forged[k], &magic[k], sizeof magic[k]);
}

/* Every function the headers declare was called badly; none the sweep named is unknown. */
static void check_coverage(void) {
  int missing = 0;
  for (size_t i = 0; i < sizeof declared_functions / sizeof declared_functions[0]; i++) {
    const char* name = declared_functions[i].name;
#ifndef OPSPLIT_TEST_MPI
    if (declared_functions[i].mpi) continue; /* libopsplit_mpi is not built here */
#endif
    int found = 0;
    for (int j = 0; j < nswept && !found; j++) found = strcmp(swept[j], name) == 0;
    if (!found) {
      fprintf(stderr, "not swept: %s (declared in %s)\n", name, declared_functions[i].header);
      missing++;
    }
  }
  CHECK(missing == 0);
  for (int j = 0; j < nswept; j++) {
    int known = 0;
    for (size_t i = 0; i < sizeof declared_functions / sizeof declared_functions[0] && !known; i++)
      known = strcmp(swept[j], declared_functions[i].name) == 0;
    if (!known) fprintf(stderr, "swept but not declared: %s\n", swept[j]);
    CHECK(known);
  }
  printf("swept %d functions of %d declared\n", nswept, (int)(sizeof declared_functions / sizeof declared_functions[0]));
}

int main(int argc, char** argv) {
#ifdef OPSPLIT_TEST_MPI
  MPI_Init(&argc, &argv);
#endif
  if (argc < 2) {
    fprintf(stderr, "usage: test_capi_misuse GAS_MECHANISM.yaml\n");
    return 2;
  }
  gas_path = argv[1];
  objects misused, fresh;
  make_objects(&misused);
  if (checks_failed > 0) {
    fprintf(stderr, "the objects could not be made (is %s readable?)\n", gas_path);
    return 1;
  }
  make_bad_handles(&misused);
  sweep_core(&misused);
  sweep_distributed(&misused);
  sweep_field(&misused);
  sweep_rd(&misused);
  sweep_mechanism(&misused);
  sweep_ode(&misused);
  sweep_ca(&misused);
  sweep_pcpd(&misused);
  sweep_gw(&misused);
#ifdef OPSPLIT_TEST_MPI
  sweep_mpi(&misused);
#endif
  check_coverage();

  /* The misused objects compute what fresh ones do, bit for bit. */
  static results after, expected;
  workload(&misused, &after);
  make_objects(&fresh);
  workload(&fresh, &expected);
  CHECK(memcmp(after.field, expected.field, sizeof after.field) == 0);
  CHECK(memcmp(after.state, expected.state, sizeof after.state) == 0);
  CHECK(memcmp(after.cells, expected.cells, sizeof after.cells) == 0);
  CHECK(memcmp(after.thickness, expected.thickness, sizeof after.thickness) == 0);
  CHECK(memcmp(after.temperature, expected.temperature, sizeof after.temperature) == 0);
  CHECK(after.length == expected.length && memcmp(after.mean, expected.mean, sizeof after.mean) == 0);
  CHECK(memcmp(after.ydot, expected.ydot, sizeof after.ydot) == 0);
  /* And what they computed is something: the work ran. */
  double mass = 0;
  for (int i = 0; i < NLAVA; i++) mass += after.thickness[i];
  CHECK(mass > 0);
  CHECK(after.state[0] > 0 && after.state[0] < 1);
  destroy_objects(&misused);
  destroy_objects(&fresh);
  int rc = check_summary();
#ifdef OPSPLIT_TEST_MPI
  MPI_Finalize();
#endif
  return rc;
}
