// OPSPLIT_HD marks numerics written once for the CPU launchers and the CUDA kernels.
// They are forced inline on both sides: the per-cell functions are small, and a call
// left in a row loop keeps the host compiler from vectorizing it.
#pragma once

#if defined(__CUDACC__)
#define OPSPLIT_HD __host__ __device__ __forceinline__
#else
#define OPSPLIT_HD inline __attribute__((always_inline))
#endif
