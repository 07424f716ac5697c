// A system's vector interleaved with other systems': element i at data[i * stride].
// The CUDA kernels for mechanisms too large for local memory keep each thread's copy
// (state, rate constants, the integrator's stages and matrices) in device memory laid
// out this way, with stride the number of threads sharing the memory: the 32 threads of
// a warp, reading element i of their systems, then read 256 consecutive bytes (one
// coalesced access) where per-thread contiguous copies made them read 32 scattered
// sectors. Local memory is interleaved the same way by the hardware.
//
// The per-system numerics (integrators.cuh, chem/mass_action.cuh, linalg/sparse_lu.cuh)
// take their vectors as a template parameter: a plain pointer (CPU, local memory) or a
// Strided; both index with [] and offset with +.
#pragma once

#include <stdint.h>

#include "common/hd.cuh"

namespace opsplit {

template <class T>
struct Strided {
  T* data;
  int64_t stride;
  OPSPLIT_HD T& operator[](int64_t i) const { return data[i * stride]; }
  OPSPLIT_HD Strided operator+(int64_t i) const { return {data + i * stride, stride}; }
};

}  // namespace opsplit
