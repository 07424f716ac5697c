// The CUDA side of PCPD ensembles (kernels/pcpd/pcpd_cuda.cu), declared for host code.
#pragma once

#include <cstdint>

#include "core/context.hpp"
#include "core/error.hpp"
#include "pcpd/pcpd.cuh"

namespace opsplit::pcpd {

#if OPSPLIT_HAVE_CUDA
// EXACT: moves [from, to) of every replica (device bytes, L a replica; replica r's
// numbers are those of replica first + r), a thread a replica.
void exact_moves_cuda(Context& ctx, uint8_t* sites, uint64_t L, uint64_t replicas, uint64_t first,
                      const ExactRates& rates, uint64_t seed, uint64_t from, uint64_t to);
// MULTISPIN: steps [from, to) of every replica (device words of 64 or 32 bits, W a
// replica), a warp a replica on its words in shared memory.
template <class Word>
void multispin_steps_cuda(Context& ctx, Word* words, uint64_t W, uint64_t replicas, uint64_t first,
                          const MultispinRates& rates, uint64_t seed, uint64_t from, uint64_t to);
// Whether a replica of `bytes` fits one block's shared memory on the context's device.
bool multispin_fits_cuda(Context& ctx, uint64_t bytes);
// Every replica's particles and pairs into counts (host, 2 x replicas: particles, pairs).
void exact_counts_cuda(Context& ctx, const uint8_t* sites, uint64_t L, uint64_t replicas, int64_t* device_counts,
                       int64_t* counts);
template <class Word>
void multispin_counts_cuda(Context& ctx, const Word* words, uint64_t W, uint64_t replicas, int64_t* device_counts,
                           int64_t* counts);
#else
[[noreturn]] inline void no_cuda() { fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA"); }
inline void exact_moves_cuda(Context&, uint8_t*, uint64_t, uint64_t, uint64_t, const ExactRates&, uint64_t, uint64_t,
                             uint64_t) {
  no_cuda();
}
template <class Word>
void multispin_steps_cuda(Context&, Word*, uint64_t, uint64_t, uint64_t, const MultispinRates&, uint64_t, uint64_t,
                          uint64_t) {
  no_cuda();
}
inline bool multispin_fits_cuda(Context&, uint64_t) { return false; }
inline void exact_counts_cuda(Context&, const uint8_t*, uint64_t, uint64_t, int64_t*, int64_t*) { no_cuda(); }
template <class Word>
void multispin_counts_cuda(Context&, const Word*, uint64_t, uint64_t, int64_t*, int64_t*) {
  no_cuda();
}
#endif

}  // namespace opsplit::pcpd
