// What the chemistry benchmarks (bench_ode, bench_reactor, bench_atmosphere) share: their
// cell counts from the environment, their per-cell counters, and their peer, SUNDIALS CVODE: BDF with the dense direct solver and
// the Jacobian the benchmark gives (or CVODE's difference quotients), one instance per
// thread integrating cells one after another, reinitialised per cell as an
// operator-split host would.
#pragma once

#include <benchmark/benchmark.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "opsplit/mechanism.h"

namespace bench {

// A count from the environment variable `name` when it is set and in [lo, hi], else
// `fallback` (a value out of range is reported on stderr and ignored).
inline int64_t env_count(const char* name, int64_t fallback, int64_t lo = 1, int64_t hi = int64_t(1) << 31) {
  if (const char* s = std::getenv(name)) {
    const long long v = std::strtoll(s, nullptr, 10);
    if (v >= lo && v <= hi) return v;
    std::fprintf(stderr, "%s=%s ignored (%lld..%lld)\n", name, s, static_cast<long long>(lo),
                 static_cast<long long>(hi));
  }
  return fallback;
}

// A case's counters: cells per second and microseconds per cell, and per cell the
// accepted steps, right-hand sides and Jacobians (totals over the cells given).
inline void set_per_cell_counters(benchmark::State& state, double ncells, double steps, double rhs, double jac,
                                  double seconds) {
  state.counters["cells"] = ncells;
  state.counters["cells_per_s"] = ncells / seconds;
  state.counters["us_per_cell"] = 1e6 * seconds / ncells;
  state.counters["steps_per_cell"] = steps / ncells;
  state.counters["rhs_per_cell"] = rhs / ncells;
  state.counters["jac_per_cell"] = jac / ncells;
}

struct CvodeStats {
  long steps = 0, rhs = 0, jac = 0;
};

// The counters of a CVODE case from its threads' stats.
inline void set_cvode_counters(benchmark::State& state, double ncells, const std::vector<CvodeStats>& stats,
                               double seconds) {
  CvodeStats total;
  for (const CvodeStats& s : stats) total.steps += s.steps, total.rhs += s.rhs, total.jac += s.jac;
  set_per_cell_counters(state, ncells, static_cast<double>(total.steps), static_cast<double>(total.rhs),
                        static_cast<double>(total.jac), seconds);
}

struct CvodeProblem {
  int neq;
  CVRhsFn rhs;
  CVLsJacFn jacobian;  // null: CVODE's difference quotients
  double rtol, atol;
};

// CVODE's right-hand side and Jacobian from an opsplit mechanism
// (opsplit_mechanism_evaluate: its rates and exact Jacobian, column-major as CVODE's
// dense matrix); the user data is a MechanismCell, the thread's own.
struct MechanismCell {
  opsplit_mechanism mech = nullptr;
  const double* params = nullptr;  // the cell's, or NULL without parameters
};

inline int mechanism_rhs(sunrealtype, N_Vector y, N_Vector f, void* user) {
  const auto* u = static_cast<const MechanismCell*>(user);
  return opsplit_mechanism_evaluate(u->mech, N_VGetArrayPointer(y), u->params, N_VGetArrayPointer(f), nullptr) ==
                 OPSPLIT_SUCCESS
             ? 0
             : -1;
}

inline int mechanism_jacobian(sunrealtype, N_Vector y, N_Vector, SUNMatrix J, void* user, N_Vector scratch, N_Vector,
                              N_Vector) {
  const auto* u = static_cast<const MechanismCell*>(user);
  return opsplit_mechanism_evaluate(u->mech, N_VGetArrayPointer(y), u->params, N_VGetArrayPointer(scratch),
                                    SUNDenseMatrix_Data(J)) == OPSPLIT_SUCCESS
             ? 0
             : -1;
}

class CvodeWorker {
 public:
  // user: what rhs and jacobian receive (the thread's own).
  CvodeWorker(const CvodeProblem& p, void* user) : neq_(p.neq) {
    if (SUNContext_Create(nullptr, &sunctx_) != 0) return;
    y_ = N_VNew_Serial(neq_, sunctx_);
    mem_ = CVodeCreate(CV_BDF, sunctx_);
    A_ = SUNDenseMatrix(neq_, neq_, sunctx_);
    if (!y_ || !mem_ || !A_) return;
    N_VConst(1.0, y_);
    ls_ = SUNLinSol_Dense(y_, A_, sunctx_);
    ok_ = ls_ && CVodeInit(mem_, p.rhs, 0.0, y_) == CV_SUCCESS &&
          CVodeSStolerances(mem_, p.rtol, p.atol) == CV_SUCCESS && CVodeSetLinearSolver(mem_, ls_, A_) == CV_SUCCESS &&
          CVodeSetUserData(mem_, user) == CV_SUCCESS && CVodeSetMaxNumSteps(mem_, 100000) == CV_SUCCESS &&
          (p.jacobian == nullptr || CVodeSetJacFn(mem_, p.jacobian) == CV_SUCCESS);
  }
  ~CvodeWorker() {
    if (mem_) CVodeFree(&mem_);
    if (ls_) SUNLinSolFree(ls_);
    if (A_) SUNMatDestroy(A_);
    if (y_) N_VDestroy(y_);
    if (sunctx_) SUNContext_Free(&sunctx_);
  }
  CvodeWorker(const CvodeWorker&) = delete;
  CvodeWorker& operator=(const CvodeWorker&) = delete;

  // Integrates ncells cells (AOS y0) from 0 to t1 into y_out, calling before_cell(c)
  // first for each (to set the cell's inputs in the user data); false when CVODE fails.
  template <class BeforeCell>
  bool run(const double* y0, int64_t ncells, double t1, double* y_out, CvodeStats* stats, BeforeCell before_cell) {
    if (!ok_) return false;
    double* y = N_VGetArrayPointer(y_);
    for (int64_t c = 0; c < ncells; ++c) {
      before_cell(c);
      std::copy(y0 + c * neq_, y0 + (c + 1) * neq_, y);
      sunrealtype t = 0;
      if (CVodeReInit(mem_, 0.0, y_) != CV_SUCCESS || CVodeSetStopTime(mem_, t1) != CV_SUCCESS ||
          CVode(mem_, t1, y_, &t, CV_NORMAL) < 0)
        return false;
      long v = 0;
      CVodeGetNumSteps(mem_, &v);
      stats->steps += v;
      CVodeGetNumRhsEvals(mem_, &v);
      stats->rhs += v;
      CVodeGetNumJacEvals(mem_, &v);
      stats->jac += v;
      std::copy(y, y + neq_, y_out + c * neq_);
    }
    return true;
  }
  bool run(const double* y0, int64_t ncells, double t1, double* y_out, CvodeStats* stats) {
    return run(y0, ncells, t1, y_out, stats, [](int64_t) {});
  }

 private:
  int neq_;
  bool ok_ = false;
  SUNContext sunctx_ = nullptr;
  N_Vector y_ = nullptr;
  void* mem_ = nullptr;
  SUNMatrix A_ = nullptr;
  SUNLinearSolver ls_ = nullptr;
};

}  // namespace bench
