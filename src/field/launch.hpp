// The field launchers of each backend: the same operations over the same numerics
// (kernels/field/*.cuh), as OpenMP loops (field_cpu.cpp) or CUDA kernels
// (kernels/field/field_cuda.cu). Pointers are on the context's backend; `bc` has 6
// faces per component, `weights` / `terms` one entry per component.
#pragma once

#include <type_traits>
#include <vector>

#include "core/context.hpp"
#include "field/boundary.cuh"
#include "field/diffusion.cuh"
#include "field/grid.cuh"
#include "field/health.cuh"
#include "field/model.cuh"

namespace opsplit::field {

// An emission into one cell: `amount` (dt x the rate) is added to storage index `at`,
// whose host PLANAR position is `position`.
template <class T>
struct SourceTerm {
  int64_t at;
  int64_t position;
  T amount;
};

template <class T>
struct Launchers {
  // The ghosts of axes first_axis .. 2 (each axis over the ghosts of the ones before).
  void (*fill_ghosts)(const Context&, T* data, const Grid&, const FaceCondition* bc, int first_axis);
  // diffuse, update and potential return whether they also wrote the x ghosts of their
  // output from `faces` (6 per output component; the CPU loops do, and the 3D CUDA
  // diffusion kernel): then the next fill_ghosts of that buffer may start at axis 1 (y).
  //
  // Pure diffusion of every component (the fast path).
  bool (*diffuse)(const Context&, const T* in, T* out, const Grid&, int points, const DiffusionWeights<T>* weights,
                  const FaceCondition* faces, Health);
  // The whole model (model.cuh); mu and velocity may be NULL when unused. `terms` is
  // on the backend, `terms_host` the same values in host memory.
  bool (*update)(const Context&, const T* in, T* out, const T* mu, const T* velocity, const Grid&, int points,
                 int kind, const ComponentTerms<T>* terms, const ComponentTerms<T>* terms_host,
                 const StepTerms<T>& step, const FaceCondition* faces, Health);
  // The chemical potential of each Cahn-Hilliard component into plane `slot` of mu,
  // whose ghosts follow `slot_faces`.
  bool (*potential)(const Context&, const T* in, T* mu, const Grid&, int points, const PotentialTerms<T>* slots,
                    int nslots, const FaceCondition* slot_faces);
  void (*add_sources)(const Context&, T* out, const Grid&, const SourceTerm<T>* sources, int64_t n, Health);
  void (*pack)(const Context&, const T* data, const Grid&, T* host_layout, int layout);
  void (*unpack)(const Context&, const T* host_layout, const Grid&, T* data, int layout);
  // Per x-row (row = j + k*ny) results, combined on the host in a fixed order.
  std::vector<double> (*row_sums)(const Context&, const T* data, const Grid&, int comp);
  std::vector<double> (*row_extremes)(const Context&, const T* data, const Grid&, int comp);  // min, max per row
  std::vector<double> (*row_energy)(const Context&, const T* data, const Grid&, int comp, int points,
                                    const PotentialTerms<double>& terms, double volume);
};

template <class T>
const Launchers<T>& cpu_launchers();
template <class T>
const Launchers<T>& cuda_launchers();  // built with CUDA only

template <class T>
const Launchers<T>& launchers(const Context& ctx) {
#if OPSPLIT_HAVE_CUDA
  if (ctx.is_cuda()) return cuda_launchers<T>();
#else
  (void)ctx;
#endif
  return cpu_launchers<T>();
}

// Calls f with std::integral_constant of the reaction kind.
template <class F>
void with_reaction_kind(int kind, F&& f) {
  switch (kind) {
    case kTuring: f(std::integral_constant<int, kTuring>{}); break;
    case kGrayScott: f(std::integral_constant<int, kGrayScott>{}); break;
    case kPrecipitation: f(std::integral_constant<int, kPrecipitation>{}); break;
    default: f(std::integral_constant<int, kLinear>{}); break;
  }
}

// Calls f with std::integral_constant of the compile-time component count: ncomp
// itself up to 3, else 0 (the count is read at run time).
template <class F>
void with_component_count(int ncomp, F&& f) {
  switch (ncomp) {
    case 1: f(std::integral_constant<int, 1>{}); break;
    case 2: f(std::integral_constant<int, 2>{}); break;
    case 3: f(std::integral_constant<int, 3>{}); break;
    default: f(std::integral_constant<int, 0>{}); break;
  }
}

}  // namespace opsplit::field
