// OPSPLIT_HD marks numerics written once for the CPU launchers and the CUDA kernels.
#pragma once

#if defined(__CUDACC__)
#define OPSPLIT_HD __host__ __device__ __forceinline__
#else
#define OPSPLIT_HD inline
#endif
