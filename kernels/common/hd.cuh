// OPSPLIT_HD marks numerics written once for the CPU launchers and the CUDA kernels.
// They are forced inline on both sides: the per-cell functions are small, and a call
// left in a row loop keeps the host compiler from vectorizing it.
#pragma once

#if defined(__CUDACC__)
#define OPSPLIT_HD __host__ __device__ __forceinline__
#else
#define OPSPLIT_HD inline __attribute__((always_inline))
#endif

// OPSPLIT_HD_CALLED marks the numerics of a whole system (a gas reactor's right-hand
// side and Jacobian): large, called a few times per step, each call worth thousands of
// operations. They stay functions of their own (not inlined at every call of the
// integrators), which keeps each kernel's code, and its compile time, a fraction of what
// inlining them at every call made it.
#if defined(__CUDACC__)
#define OPSPLIT_HD_CALLED __host__ __device__ __noinline__
#else
#define OPSPLIT_HD_CALLED inline __attribute__((noinline))
#endif

// OPSPLIT_HD_SWEEP marks a sweep over a whole system's mechanism (its rates, its
// Jacobian, the sparse LU and its solves), called a few times per integrator step. On
// the host it stays a function of its own: inlined into the integrators it ran 10 %
// slower (TS1, ROS3, one core: 695 against 626 us a cell; the inlined whole kept fewer
// of each loop's values in registers). The CUDA kernels inline it, as measured for them.
#if defined(__CUDACC__)
#define OPSPLIT_HD_SWEEP __host__ __device__ __forceinline__
#else
#define OPSPLIT_HD_SWEEP inline __attribute__((noinline))
#endif

// Fully unrolls the next loop (a compile-time trip count): on the host a row loop
// around it vectorizes only once no inner loop is left.
#if defined(__CUDA_ARCH__)
#define OPSPLIT_UNROLL _Pragma("unroll")
#elif defined(__CUDACC__)
#define OPSPLIT_UNROLL  // the host side of a .cu file: the CPU loops are compiled elsewhere
#else
#define OPSPLIT_UNROLL _Pragma("GCC unroll 16")
#endif
