// The backends of ODE batches: the batch as they see it and their table of launchers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "chem/gas_kinetics.cuh"
#include "chem/mass_action.cuh"
#include "core/buffer.hpp"
#include "core/backend.hpp"
#include "core/context.hpp"
#include "core/progress.hpp"
#include "opsplit/ode.h"

namespace opsplit::ode {

// An integration as a backend sees it: storage and the right-hand side on the backend,
// options by value (opsplit_ode_s::batch makes it, the same for both backends).
struct Batch {
  int neq;
  int64_t nsys;
  int nparam;
  int method;
  double rtol;
  const double* atol;  // neq values
  double h0;
  int64_t max_steps;
  bool keep_step;
  bool clip_negative;
  double* state;         // [eq][sys]
  const double* params;  // [param][sys]
  double* h_next;        // [sys]
  // The right-hand side: a mass-action mechanism, a gas reactor (gas) or a host
  // callback (callback.rhs; the CPU only).
  chem::MassAction mechanism;  // over the backend's copies of the compiled arrays
  int nreactions;
  bool gas;
  chem::GasKinetics gas_kinetics;
  int reactor_kind;
  bool analytic_jacobian;  // a reactor's (or callback's) analytic Jacobian, else forward differences
  struct Callback {
    opsplit_ode_rhs_fn rhs;
    opsplit_ode_jacobian_fn jacobian;
    void* user;
  } callback;
  int* result;      // [sys]
  int64_t* counts;  // [4][sys]: accepted, rejected, rhs, jacobian
  Buffer* round_storage;  // the batch's, kept between calls: made by the first call that uses it (CUDA)
};

// Where rounds keep the systems they pause, in one device allocation: per system y and
// f(t, y) ([eq][sys]), t and h, two lists of system indices (one read by a round, one
// written) and the written list's length.
struct RoundStorage {
  double *y, *f, *t, *h;
  int64_t* lists[2];
  unsigned long long* count;

  static size_t bytes(int neq, int64_t nsys) {
    return static_cast<size_t>(nsys) * (static_cast<size_t>(2 * neq + 2) * sizeof(double) + 2 * sizeof(int64_t)) +
           sizeof(unsigned long long);
  }
  RoundStorage(void* base, int neq, int64_t nsys) {
    const auto n = static_cast<size_t>(nsys);
    y = static_cast<double*>(base);
    f = y + n * static_cast<size_t>(neq);
    t = f + n * static_cast<size_t>(neq);
    h = t + n;
    lists[0] = reinterpret_cast<int64_t*>(h + n);
    lists[1] = lists[0] + n;
    count = reinterpret_cast<unsigned long long*>(lists[1] + n);
  }
};

// What an ODE batch runs on its backend: one table a backend, chosen once when the batch
// is made (the field's Launchers is the model), over the same integrators
// (integrators.cuh): the OpenMP loop (ode_cpu.cpp) or the CUDA kernels (ode_cuda.cu).
struct Launchers {
  // Integrates every system from t0 to t1 and writes result and counts; failed systems
  // keep their state. The systems go in chunks through progress.run; a cancel throws
  // CANCELLED, and the batch puts every state and kept step back to t0.
  void (*integrate)(Context& ctx, const Batch& batch, double t0, double t1, const Progress& progress);
  // Throws UNSUPPORTED when the backend's reactor code does not cover neq equations.
  void (*check_reactor)(int neq);
  // Whether a host callback can be the right-hand side.
  bool runs_host_callbacks;
  // to[c * rows + r] = from[r * cols + c]: a rows x cols array of the backend's memory
  // transposed (a host's AOS device array to SOA storage and back), ordered on the stream.
  void (*transpose)(const Context& ctx, const double* from, int64_t rows, int64_t cols, double* to);
  // How many of the nsys results are not kOk, and the first of them (-1: none), into
  // summary[0] and summary[1] in the backend's memory, ordered on the stream: what a call
  // reports, without the per-system results leaving the device.
  void (*count_failures)(const Context& ctx, const int* result, int64_t nsys, int64_t* summary);
};

// A cancelled integration's `where` (Progress::run): how far it went.
inline auto systems_done(int64_t nsys) {
  return [nsys](int64_t done) {
    return "after " + std::to_string(done) + " of " + std::to_string(nsys) + " systems; every state is at t0";
  };
}

const Launchers& cpu_launchers();   // ode_cpu.cpp
const Launchers& cuda_launchers();  // built with CUDA only

inline const Launchers& launchers(const Context& ctx) {
  return backend_table(ctx, cpu_launchers(), []() -> const auto& { return cuda_launchers(); });
}

}  // namespace opsplit::ode
