// PCPD's random numbers on the GPU (kernels/pcpd/pcpd.cuh's device side): Random123's
// known-answer vectors, and each stream's draws equal to cuRAND's device API,
// curand4 after curand_init(seed, subsequence, 4 x index), for a range of counters.
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "pcpd/pcpd.cuh"

namespace {

namespace pc = opsplit::pcpd;

__global__ void kat_kernel(const uint32_t* in, uint32_t* out, int n) {
  const int i = threadIdx.x;
  if (i >= n) return;
  const uint32_t* c = in + 6 * i;
  const pc::Philox4 r = pc::philox(c[0], c[1], c[2], c[3], c[4], c[5]);
  for (int j = 0; j < 4; ++j) out[4 * i + j] = r.v[j];
}

// Thread i: index = first + i, subsequence (replica << 32 | purpose); mismatches counted.
__global__ void curand_kernel(uint64_t seed, uint32_t replica, uint32_t purpose, uint64_t first, int n,
                              unsigned* mismatches) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint64_t index = first + uint64_t(i);
  curandStatePhilox4_32_10_t state;
  curand_init(seed, uint64_t(replica) << 32 | purpose, 4 * index, &state);
  const uint4 expect = curand4(&state);
  const pc::Philox4 got = pc::make_stream(seed, replica).draw(purpose, index);
  if (got.v[0] != expect.x || got.v[1] != expect.y || got.v[2] != expect.z || got.v[3] != expect.w)
    atomicAdd(mismatches, 1u);
}

TEST(PcpdCurand, KnownAnswersOnTheDevice) {
  const std::vector<uint32_t> in = {0,          0,          0,          0,          0,          0,
                                    0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff,
                                    0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344, 0xa4093822, 0x299f31d0};
  const uint32_t expect[12] = {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8, 0x408f276d, 0x41c83b0e,
                               0xa20bc7c6, 0x6d5451fd, 0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1};
  uint32_t *d_in = nullptr, *d_out = nullptr;
  ASSERT_EQ(cudaMalloc(&d_in, in.size() * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&d_out, 12 * 4), cudaSuccess);
  ASSERT_EQ(cudaMemcpy(d_in, in.data(), in.size() * 4, cudaMemcpyHostToDevice), cudaSuccess);
  kat_kernel<<<1, 32>>>(d_in, d_out, 3);
  uint32_t out[12] = {};
  ASSERT_EQ(cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int j = 0; j < 12; ++j) EXPECT_EQ(out[j], expect[j]) << j;
  cudaFree(d_in), cudaFree(d_out);
}

TEST(PcpdCurand, StreamsAreCurandInitAndCurand4) {
  unsigned* d_bad = nullptr;
  ASSERT_EQ(cudaMalloc(&d_bad, sizeof(unsigned)), cudaSuccess);
  struct Case {
    uint64_t seed;
    uint32_t replica, purpose;
    uint64_t first;
  };
  const Case cases[] = {{0, 0, 0, 0},
                        {0x123456789abcdefull, 17, pc::kStreamExact, 0xfffff000ull},  // the index's high word turns
                        {42, 0x7fffffffu, pc::kStreamLocalSite, uint64_t(1) << 40},
                        {~0ull, 3, 31, 12345}};
  for (const Case& c : cases) {
    ASSERT_EQ(cudaMemset(d_bad, 0, sizeof(unsigned)), cudaSuccess);
    curand_kernel<<<64, 128>>>(c.seed, c.replica, c.purpose, c.first, 64 * 128, d_bad);
    unsigned bad = 1;
    ASSERT_EQ(cudaMemcpy(&bad, d_bad, sizeof bad, cudaMemcpyDeviceToHost), cudaSuccess);
    EXPECT_EQ(bad, 0u) << "seed " << c.seed << " replica " << c.replica;
  }
  cudaFree(d_bad);
}

}  // namespace
