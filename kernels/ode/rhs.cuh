// The right-hand side of a mass-action mechanism for the integrators: rate constants
// computed once per system and call (they depend only on its parameters), then
// dy/dt and the exact Jacobian from the shared kinetics, on the mechanism's sparse LU
// pattern.
#pragma once

#include "chem/mass_action.cuh"
#include "chem/reactor.cuh"
#include "common/hd.cuh"

namespace opsplit::ode {

// K: the rate constants' type, a pointer or a Strided view (common/strided.cuh), as
// are the vectors f and jacobian take. kFactors: whether the mechanism has saturation
// factors (chem::MassAction::nfactors > 0); the launchers choose it per batch, so that a
// network without them runs the code it ran before they existed (mass_action.cuh).
template <class K, bool kFactors = false>
struct MassActionRhsOf {
  const chem::MassAction* m;
  K k;  // nreactions rate constants of this system
  int n;
  template <class V>
  OPSPLIT_HD int f(double, V y, V ydot) const {
    chem::mass_action_rates_with<kFactors>(*m, k, y, ydot);
    return 0;
  }
  static constexpr bool kSparseJacobian = true;
  OPSPLIT_HD const linalg::SparseLu& sparse_lu() const { return m->lu; }
  template <class V>
  OPSPLIT_HD int jacobian(double, V y, V values) const {
    chem::mass_action_jacobian_sparse_with<kFactors>(*m, k, y, values);
    return 0;
  }
  OPSPLIT_HD bool has_jacobian() const { return true; }
  OPSPLIT_HD bool autonomous() const { return true; }
};
using MassActionRhs = MassActionRhsOf<const double*, false>;
using FactoredMassActionRhs = MassActionRhsOf<const double*, true>;

// A gas reactor (kernels/chem/reactor.cuh) of a loaded mechanism: params are this
// system's, scratch chem::reactor_scratch_size(nspecies) doubles of its own. The
// Jacobian is the analytic one, or the integrator's forward differences when
// analytic is false (the fallback the analytic one is measured against).
struct GasReactorRhs {
  const chem::GasKinetics* g;
  int kind;
  const double* params;
  double* scratch;
  int n;
  bool analytic = true;
  OPSPLIT_HD int f(double, const double* y, double* ydot) const {
    chem::reactor_rhs(*g, kind, params, y, ydot, scratch);
    return 0;
  }
  OPSPLIT_HD int jacobian(double, const double* y, double* jac) const {
    chem::reactor_jacobian(*g, kind, params, y, jac, scratch);
    return 0;
  }
  OPSPLIT_HD bool has_jacobian() const { return analytic; }
  OPSPLIT_HD bool autonomous() const { return true; }
};

}  // namespace opsplit::ode
