// An ODE batch: nsys independent systems of neq equations, state and parameters in
// structure-of-arrays storage ([eq][sys]) on the context's backend, integrated one
// system per thread with the shared integrators (kernels/ode/integrators.cuh).
#pragma once

#include <memory>
#include <vector>

#include "chem/mechanism.hpp"
#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/handle.hpp"
#include "ode/launch.hpp"
#include "opsplit/ode.h"

struct opsplit_ode_s : opsplit::Handle<opsplit::HandleKind::ode>, opsplit::ContextMember {
  opsplit_ode_s(opsplit::Context& ctx, int neq, int64_t nsys, int nparam);

  int neq() const { return neq_; }
  int64_t nsys() const { return nsys_; }
  int nparam() const { return nparam_; }

  void set_mechanism(const opsplit::chem::Mechanism* mech);  // nullptr removes it
  void set_reactor(const opsplit::chem::Mechanism* mech, int kind);  // nullptr removes it
  void set_callback(opsplit_ode_rhs_fn rhs, opsplit_ode_jacobian_fn jacobian, void* user);
  void set_method(int method);
  void set_tolerances(double rtol, double atol);
  void set_absolute_tolerances(const double* atol);
  void set_initial_step(double h0);
  void set_max_steps(int64_t max_steps);
  void set_keep_step(int keep);
  void set_clip_negative(int clip);
  void set_jacobian(int jacobian);
  void evaluate(int64_t system, double t, const double* y, double* ydot, double* jacobian) const;

  void set_state(const double* host, int layout) { put(state_, neq_, host, layout, "y"); }
  void get_state(double* host, int layout) const { take(state_, neq_, host, layout, "y"); }
  void set_parameters(const double* host, int layout) { put(params_, nparam_, host, layout, "params"); }
  void get_parameters(double* host, int layout) const { take(params_, nparam_, host, layout, "params"); }
  // The same from and to arrays in the backend's memory (a host's device arrays),
  // ordered on the stream; the caller has checked them (core/device_array.hpp).
  void set_state_device(const double* device, int layout) { put_device(state_, neq_, device, layout, "y"); }
  void get_state_device(double* device, int layout) const { take_device(state_, neq_, device, layout, "y"); }
  void set_parameters_device(const double* device, int layout) {
    put_device(params_, nparam_, device, layout, "params");
  }
  void get_parameters_device(double* device, int layout) const {
    take_device(params_, nparam_, device, layout, "params");
  }
  // Work in the host's SOA device array in place of the batch's own storage (never freed
  // by the batch); nullptr goes back to own storage, with the array's values.
  void wrap_state(double* device) { wrap(state_, neq_, device); }
  void wrap_parameters(double* device);  // nparam 0: refused
  size_t state_bytes() const { return static_cast<size_t>(nsys_) * static_cast<size_t>(neq_) * sizeof(double); }
  size_t parameter_bytes() const { return static_cast<size_t>(nsys_) * static_cast<size_t>(nparam_) * sizeof(double); }

  void integrate(double t0, double t1);
  // The last call's per-system results, into host arrays or (on_device) arrays in the
  // backend's memory; any may be nullptr.
  void get_results(int* result, int64_t* accepted, int64_t* rejected, int64_t* rhs, int64_t* jacobian,
                   bool on_device = false) const;

 private:
  struct Callback {
    opsplit_ode_rhs_fn rhs = nullptr;
    opsplit_ode_jacobian_fn jacobian = nullptr;
    void* user = nullptr;
  };
  void put(opsplit::Buffer& to, int rows, const double* host, int layout, const char* name);
  void take(const opsplit::Buffer& from, int rows, double* host, int layout, const char* name) const;
  void put_device(opsplit::Buffer& to, int rows, const double* device, int layout, const char* name);
  void take_device(const opsplit::Buffer& from, int rows, double* device, int layout, const char* name) const;
  void wrap(opsplit::Buffer& storage, int rows, double* device);
  opsplit::ode::Batch batch();  // the batch as its backend sees it
  void integrate_on_backend(double t0, double t1);
  void upload_atol();
  void upload_mechanism(const std::vector<int>& ints, const std::vector<double>& doubles);
  bool has_rhs() const { return mechanism_ || gas_ || callback_.rhs != nullptr; }
  void check_has_rhs() const;
  void report_failures();  // NUMERICAL naming the first failed system, from the results on the backend

  const opsplit::ode::Launchers& run_;  // the context's backend
  int neq_;
  int64_t nsys_;
  int nparam_;
  int method_ = OPSPLIT_ODE_ROSENBROCK;
  double rtol_ = 1e-6;
  std::vector<double> atol_;
  double h0_ = 0.0;
  int64_t max_steps_ = 100000;
  bool keep_step_ = false;
  bool clip_negative_ = false;
  bool finite_difference_ = false;  // OPSPLIT_ODE_JACOBIAN_FINITE_DIFFERENCE
  // The right-hand side: one of a mass-action mechanism, a gas reactor, a callback.
  std::unique_ptr<opsplit::chem::CompiledMechanism> mechanism_;
  std::unique_ptr<opsplit::chem::CompiledGas> gas_;
  int reactor_kind_ = 0;
  Callback callback_;
  opsplit::Buffer state_;   // [eq][sys]; a view of the host's array while wrapped
  opsplit::Buffer params_;  // [param][sys] (at least one row); a view while wrapped
  opsplit::Buffer h_next_;  // [sys]: the step each system proposed last (keep_step)
  // On the backend: what every call reads, copied when it changes (not per call), and
  // the per-system results, allocated once.
  opsplit::Buffer kinetics_ints_, kinetics_doubles_;  // the compiled mechanism's or reactor's arrays
  opsplit::Buffer atol_on_backend_;  // [eq]
  opsplit::Buffer result_codes_;     // [sys]
  opsplit::Buffer result_counts_;    // [4][sys]: accepted, rejected, rhs, jacobian
  opsplit::Buffer failure_summary_;  // [2]: how many failed, the first (count_failures)
  opsplit::Buffer round_storage_;    // CUDA Rosenbrock's rounds (launch.hpp), made at first use
};

namespace opsplit {
using OdeBatch = opsplit_ode_s;
}
