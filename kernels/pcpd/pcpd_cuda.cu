// The CUDA side of PCPD ensembles: EXACT a thread a replica; MULTISPIN (64-bit words)
// and MULTISPIN32 (32-bit) a warp a replica, lane p the seed's part p, the replica's words in shared memory for the launch. The
// moves are pcpd.cuh's, the random numbers cuRAND's Philox: the CPU's trajectories.
#include <cuda_runtime.h>

#include <string>

#include "pcpd/launch.hpp"

namespace opsplit::pcpd {
namespace {

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();
  fail(err == cudaErrorMemoryAllocation ? OPSPLIT_ERROR_OUT_OF_MEMORY : OPSPLIT_ERROR_DEVICE,
       std::string(what) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

cudaStream_t stream_of(Context& ctx) { return static_cast<cudaStream_t>(ctx.device().stream()); }

__global__ void exact_kernel(uint8_t* sites, uint64_t L, uint64_t replicas, uint64_t first, ExactRates rates,
                             uint64_t seed, uint64_t from, uint64_t to) {
  const uint64_t r = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r >= replicas) return;
  const Stream stream = make_stream(seed, static_cast<uint32_t>(first + r));
  uint8_t* q = sites + r * L;
  for (uint64_t m = from; m < to; ++m) exact_move(q, L, rates, stream, m);
}

// Shared memory holds word w = p K + l at l x 32 + p: a step's 32 lanes, all at the same
// l, read 32 consecutive words (no bank conflicts; the seed's interleaved layout). p =
// w / K by a multiply-high with m = floor(2^32 / K) + 1, exact for w K < 2^32 (w < 32 K
// and K < 2^13 here): a 64-bit division is a long chain of dependent instructions, and
// a step makes four (docs/performance-history.md, 'PCPD ensembles').
template <class Word>
struct SharedWords {
  Word* s;
  uint32_t K, m;
  __device__ SharedWords(Word* shared, uint64_t part_words)
      : s(shared), K(static_cast<uint32_t>(part_words)), m(static_cast<uint32_t>((uint64_t(1) << 32) / part_words + 1)) {}
  __device__ Word& operator()(uint64_t w) const {
    const uint32_t w32 = static_cast<uint32_t>(w), p = __umulhi(w32, m);
    return s[(w32 - p * K) * kParts + p];
  }
};

template <class Word>
__global__ void __launch_bounds__(kParts) multispin_kernel(Word* words, uint64_t W, uint64_t first,
                                                           MultispinRates rates, uint64_t seed, uint64_t from,
                                                           uint64_t to) {
  extern __shared__ uint64_t shared_words[];  // one declaration for both words (aligned for 64 bits)
  const uint64_t r = blockIdx.x, K = W / kParts;
  const int lane = threadIdx.x;
  Word* global = words + r * W;
  const SharedWords<Word> at(reinterpret_cast<Word*>(shared_words), K);
  for (uint64_t w = lane; w < W; w += kParts) at(w) = global[w];
  __syncwarp();
  const Stream stream = make_stream(seed, static_cast<uint32_t>(first + r));
  const int draws = draws_per_part<Word>(rates);
  // Two steps at a time: their draws do not depend on the lattice, so both steps' Philox
  // calls are computed together (twice the independent work between the latencies of
  // a warp that has few neighbours on its SM), then the two updates in order.
  uint64_t group = ~uint64_t(0);
  Philox4 local{};
  auto local_word_at = [&](uint64_t s) {
    if ((s >> 2) != group) local = local_words_draw(stream, s), group = s >> 2;
    return local_word_of(local, s, K);
  };
  for (uint64_t s = from; s < to; s += 2) {
    uint32_t u0[4 * kMaxCallsPerPart], u1[4 * kMaxCallsPerPart];
    part_draws(stream, s, lane, draws, u0);
    part_draws(stream, s + 1, lane, draws, u1);  // unused past `to`: a draw, no change
    multispin_part_step(at, W, K, local_word_at(s), lane, step_masks<Word>(u0, rates));
    __syncwarp();  // the next step's words may be another lane's
    if (s + 1 == to) break;
    multispin_part_step(at, W, K, local_word_at(s + 1), lane, step_masks<Word>(u1, rates));
    __syncwarp();
  }
  for (uint64_t w = lane; w < W; w += kParts) global[w] = at(w);
}

__device__ Counts warp_sum(Counts c) {
  for (int offset = 16; offset > 0; offset /= 2) {
    c.particles += __shfl_down_sync(0xffffffffu, c.particles, offset);
    c.pairs += __shfl_down_sync(0xffffffffu, c.pairs, offset);
  }
  return c;
}

// A warp a replica: its particles and pairs (integer sums: the same in any order).
template <class Word>
__global__ void multispin_counts_kernel(const Word* words, uint64_t W, int64_t* counts) {
  const uint64_t r = blockIdx.x;
  const Word* x = words + r * W;
  const uint64_t share = (W + 31) / 32, w0 = threadIdx.x * share, w1 = min(W, w0 + share);
  Counts c = w0 < W ? multispin_counts_range<Word>([x](uint64_t w) { return x[w]; }, W, w0, w1) : Counts{};
  c = warp_sum(c);
  if (threadIdx.x == 0) counts[2 * r] = c.particles, counts[2 * r + 1] = c.pairs;
}

__global__ void exact_counts_kernel(const uint8_t* sites, uint64_t L, int64_t* counts) {
  const uint64_t r = blockIdx.x;
  Counts c = warp_sum(exact_counts(sites + r * L, L, threadIdx.x, 32));
  if (threadIdx.x == 0) counts[2 * r] = c.particles, counts[2 * r + 1] = c.pairs;
}

void exact_moves_cuda(Context& ctx, uint8_t* sites, uint64_t L, uint64_t replicas, uint64_t first,
                      const ExactRates& rates, uint64_t seed, uint64_t from, uint64_t to) {
  constexpr unsigned kThreads = 128;
  exact_kernel<<<unsigned((replicas + kThreads - 1) / kThreads), kThreads, 0, stream_of(ctx)>>>(
      sites, L, replicas, first, rates, seed, from, to);
  check(cudaGetLastError(), "exact_kernel launch");
}

int most_shared(Context& ctx) {
  int most = 0;
  check(cudaDeviceGetAttribute(&most, cudaDevAttrMaxSharedMemoryPerBlockOptin, ctx.device().id()),
        "cudaDeviceGetAttribute");
  return most;
}

bool multispin_fits_cuda(Context& ctx, uint64_t bytes) { return bytes <= static_cast<uint64_t>(most_shared(ctx)); }

template <class Word>
void multispin_steps_cuda(Context& ctx, Word* words, uint64_t W, uint64_t replicas, uint64_t first,
                          const MultispinRates& rates, uint64_t seed, uint64_t from, uint64_t to) {
  const size_t bytes = W * sizeof(Word);
  // The kernel's limit is the process's, per device: always the device's maximum, so
  // that contexts of other L on other threads never lower it under a launch.
  check(cudaFuncSetAttribute(multispin_kernel<Word>, cudaFuncAttributeMaxDynamicSharedMemorySize, most_shared(ctx)),
        "cudaFuncSetAttribute(multispin_kernel)");
  // A block a replica: replicas <= 2^31 - 1 (opsplit_pcpd_create), the grid's x limit.
  multispin_kernel<Word><<<unsigned(replicas), kParts, bytes, stream_of(ctx)>>>(words, W, first, rates, seed, from, to);
  check(cudaGetLastError(), "multispin_kernel launch");
}

void exact_counts_cuda(Context& ctx, const uint8_t* sites, uint64_t L, uint64_t replicas, int64_t* device_counts,
                       int64_t* counts) {
  exact_counts_kernel<<<unsigned(replicas), 32, 0, stream_of(ctx)>>>(sites, L, device_counts);
  check(cudaGetLastError(), "exact_counts_kernel launch");
  ctx.device().copy_to_host(counts, device_counts, 2 * replicas * sizeof(int64_t));
}

template <class Word>
void multispin_counts_cuda(Context& ctx, const Word* words, uint64_t W, uint64_t replicas, int64_t* device_counts,
                           int64_t* counts) {
  multispin_counts_kernel<Word><<<unsigned(replicas), 32, 0, stream_of(ctx)>>>(words, W, device_counts);
  check(cudaGetLastError(), "multispin_counts_kernel launch");
  ctx.device().copy_to_host(counts, device_counts, 2 * replicas * sizeof(int64_t));
}

// One thread a stored word (MULTISPIN) or site (EXACT): a replica's sites into its
// stored form and back (the _device forms).
template <class Word>
__global__ void store_sites_kernel(const uint8_t* __restrict__ sites, uint64_t W, Word* __restrict__ words) {
  for (uint64_t w = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; w < W; w += uint64_t(gridDim.x) * blockDim.x)
    words[w] = packed_sites<Word>(sites, W, w);
}
template <class Word>
__global__ void load_sites_kernel(const Word* __restrict__ words, uint64_t W, uint8_t* __restrict__ sites) {
  for (uint64_t w = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; w < W; w += uint64_t(gridDim.x) * blockDim.x)
    unpacked_sites(words[w], W, w, sites);
}
__global__ void store_exact_sites_kernel(const uint8_t* __restrict__ sites, uint64_t L, uint8_t* __restrict__ stored) {
  for (uint64_t i = uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < L; i += uint64_t(gridDim.x) * blockDim.x)
    stored[i] = sites[i] != 0;
}

unsigned site_blocks(uint64_t items) { return static_cast<unsigned>(std::min<uint64_t>((items + 255) / 256, 65535)); }

void store_sites_cuda(Context& ctx, const uint8_t* sites, uint64_t L, int word_bits, uint8_t* stored) {
  if (word_bits == 64)
    store_sites_kernel<<<site_blocks(L / 64), 256, 0, stream_of(ctx)>>>(sites, L / 64, reinterpret_cast<uint64_t*>(stored));
  else if (word_bits == 32)
    store_sites_kernel<<<site_blocks(L / 32), 256, 0, stream_of(ctx)>>>(sites, L / 32, reinterpret_cast<uint32_t*>(stored));
  else
    store_exact_sites_kernel<<<site_blocks(L), 256, 0, stream_of(ctx)>>>(sites, L, stored);
  cuda::check_launch("store_sites_kernel");
}

void load_sites_cuda(Context& ctx, const uint8_t* stored, uint64_t L, int word_bits, uint8_t* sites) {
  if (word_bits == 64)
    load_sites_kernel<<<site_blocks(L / 64), 256, 0, stream_of(ctx)>>>(reinterpret_cast<const uint64_t*>(stored), L / 64, sites);
  else if (word_bits == 32)
    load_sites_kernel<<<site_blocks(L / 32), 256, 0, stream_of(ctx)>>>(reinterpret_cast<const uint32_t*>(stored), L / 32, sites);
  else
    ctx.device().copy_on_device(sites, stored, L);
  cuda::check_launch("load_sites_kernel");
}

}  // namespace

const Launchers& cuda_launchers() {
  static const Launchers table{exact_moves_cuda,
                               exact_counts_cuda,
                               {multispin_steps_cuda<uint64_t>, multispin_counts_cuda<uint64_t>},
                               {multispin_steps_cuda<uint32_t>, multispin_counts_cuda<uint32_t>},
                               multispin_fits_cuda,
                               store_sites_cuda,
                               load_sites_cuda};
  return table;
}

}  // namespace opsplit::pcpd
