// What a PCPD ensemble runs on its backend: one table of launchers a backend, chosen
// once when the ensemble is made (the field's Launchers is the model): the OpenMP loops
// (pcpd.cpp) or the CUDA kernels (kernels/pcpd/pcpd_cuda.cu), over the same numerics
// (pcpd.cuh). Lattices are on the backend; counts come back to host memory.
#pragma once

#include <cstdint>

#include "core/backend.hpp"
#include "core/context.hpp"
#include "pcpd/pcpd.cuh"

namespace opsplit::pcpd {

// MULTISPIN over words of 64 or 32 bits.
template <class Word>
struct MultispinLaunchers {
  // Steps [from, to) of every replica (W words a replica; replica r's numbers are those
  // of replica first + r).
  void (*steps)(Context&, Word* words, uint64_t W, uint64_t replicas, uint64_t first, const MultispinRates& rates,
                uint64_t seed, uint64_t from, uint64_t to);
  // Every replica's particles and pairs into counts (host, 2 x replicas), through
  // device_counts (2 x replicas on the backend; unused on the CPU).
  void (*counts)(Context&, const Word* words, uint64_t W, uint64_t replicas, int64_t* device_counts,
                 int64_t* counts);
};

struct Launchers {
  // EXACT: moves [from, to) of every replica (L bytes a replica).
  void (*exact_moves)(Context&, uint8_t* sites, uint64_t L, uint64_t replicas, uint64_t first,
                      const ExactRates& rates, uint64_t seed, uint64_t from, uint64_t to);
  void (*exact_counts)(Context&, const uint8_t* sites, uint64_t L, uint64_t replicas, int64_t* device_counts,
                       int64_t* counts);
  MultispinLaunchers<uint64_t> multispin64;
  MultispinLaunchers<uint32_t> multispin32;
  // Whether a MULTISPIN replica of `bytes` can be stepped (CUDA: it fits one block's
  // shared memory on the context's device).
  bool (*multispin_fits)(Context&, uint64_t bytes);
  // One replica's L sites (bytes, nonzero occupied) in the backend's memory (a GPU
  // host's device array) into its stored form, and back, ordered on the stream:
  // word_bits 0 is EXACT's 0/1 bytes, 32 or 64 MULTISPIN's words (pcpd.cuh).
  void (*store_sites)(Context&, const uint8_t* sites, uint64_t L, int word_bits, uint8_t* stored);
  void (*load_sites)(Context&, const uint8_t* stored, uint64_t L, int word_bits, uint8_t* sites);

  template <class Word>
  const MultispinLaunchers<Word>& multispin() const {
    if constexpr (sizeof(Word) == 8) return multispin64;
    else return multispin32;
  }
};

const Launchers& cpu_launchers();   // pcpd.cpp
const Launchers& cuda_launchers();  // built with CUDA only

inline const Launchers& launchers(const Context& ctx) {
  return backend_table(ctx, cpu_launchers(), []() -> const auto& { return cuda_launchers(); });
}

}  // namespace opsplit::pcpd
