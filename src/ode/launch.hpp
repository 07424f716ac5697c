// The CUDA side of ODE batches (kernels/ode/ode_cuda.cu), declared for host code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "chem/gas_kinetics.cuh"
#include "chem/mass_action.cuh"
#include "core/context.hpp"
#include "core/error.hpp"

namespace opsplit::ode {

// What a CUDA integration reads and writes: storage and the mechanism on the device,
// options by value.
struct CudaBatch {
  int neq;
  int64_t nsys;
  int nparam;
  int method;
  double rtol;
  const double* atol;  // device, neq values
  double h0;
  int64_t max_steps;
  bool keep_step;
  bool clip_negative;
  double* state;         // device [eq][sys]
  const double* params;  // device [param][sys]
  double* h_next;        // device [sys]
  chem::MassAction mechanism;  // over device copies of the compiled arrays
  int nreactions;
  bool gas;                    // a gas reactor instead of the mass-action mechanism
  chem::GasKinetics gas_kinetics;
  int reactor_kind;
  bool analytic_jacobian;  // a reactor's analytic Jacobian, else forward differences
  int* result;      // device [sys]
  int64_t* counts;  // device [4][sys]: accepted, rejected, rhs, jacobian
  int rounds;           // RoundMode
  void* round_storage;  // device, RoundStorage::bytes(neq, nsys), or null: no rounds
};

// Whether Rosenbrock batches run in rounds of launches that repack the systems still
// running (ode_cuda.cu's run_systems): where that pays (auto), never, or always. The
// environment variable OPSPLIT_ODE_CUDA_ROUNDS=auto|off|always chooses.
enum RoundMode : int { kRoundsAuto = 0, kRoundsOff = 1, kRoundsAlways = 2 };

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

// Per-system results on the host.
struct ResultArrays {
  int* result;
  int64_t* accepted;
  int64_t* rejected;
  int64_t* rhs;
  int64_t* jacobian;
};

#if OPSPLIT_HAVE_CUDA
// Throws UNSUPPORTED when the CUDA reactor kernels do not cover this size of reactor (the
// mass-action kernels cover every mechanism a batch takes).
void check_cuda_reactor_support(int neq);
// Integrates every system; failed systems keep their state. Throws CANCELLED (every
// state at t0) when the progress callback asks.
void integrate_cuda(Context& ctx, const CudaBatch& batch, double t0, double t1, const ResultArrays& results);
#else
inline void check_cuda_reactor_support(int) {}
inline void integrate_cuda(Context&, const CudaBatch&, double, double, const ResultArrays&) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
#endif

}  // namespace opsplit::ode
