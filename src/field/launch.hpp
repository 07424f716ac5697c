// The field launchers of each backend: the same operations over the same numerics
// (kernels/field/*.cuh), as OpenMP loops (field_cpu.cpp) or CUDA kernels
// (kernels/field/field_cuda.cu). Pointers are on the context's backend; `bc` has 6
// faces per component, `weights` one entry per component.
#pragma once

#include <vector>

#include "core/context.hpp"
#include "field/boundary.cuh"
#include "field/diffusion.cuh"
#include "field/grid.cuh"

namespace opsplit::field {

template <class T>
struct Launchers {
  void (*fill_ghosts)(const Context&, T* data, const Grid&, const FaceCondition* bc);
  void (*diffuse)(const Context&, const T* in, T* out, const Grid&, int points, const DiffusionWeights<T>* weights);
  void (*pack)(const Context&, const T* data, const Grid&, T* host_layout, int layout);
  void (*unpack)(const Context&, const T* host_layout, const Grid&, T* data, int layout);
  std::vector<double> (*row_sums)(const Context&, const T* data, const Grid&, int comp);
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

}  // namespace opsplit::field
