// PCPD ensembles (kernels/pcpd/pcpd.cuh, src/pcpd/pcpd.cpp, include/opsplit/pcpd.h):
// Philox against Random123's known-answer vectors; single pairs on empty lattices by
// the rules, move by move (EXACT) and step by step (MULTISPIN on 64- and 32-bit words,
// across the wrap of the strips); absorbing states; pure diffusion conserving particles;
// determinism across runs, thread counts and continued runs; EXACT against both
// MULTISPINs within 3 standard errors in the active phase, near the critical point and
// in the absorbing phase for d = 0.25, 0.5, 0.75; CPU against CUDA bit for bit
// (PcpdParity, on the GPU only).
// Registered on both backends.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "helpers.hpp"
#include "pcpd/pcpd.cuh"

namespace {

namespace pc = opsplit::pcpd;

// Random123's kat_vectors for philox4x32 with 10 rounds: counter, key, output.
struct Kat {
  uint32_t ctr[4], key[2], out[4];
};
const Kat kKat[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

TEST(PcpdPhilox, KnownAnswers) {
  for (const Kat& k : kKat) {
    const pc::Philox4 r = pc::philox(k.ctr[0], k.ctr[1], k.ctr[2], k.ctr[3], k.key[0], k.key[1]);
    for (int j = 0; j < 4; ++j) EXPECT_EQ(r.v[j], k.out[j]) << j;
  }
}

// A stream's counter is cuRAND's (index lo, index hi, subsequence lo, subsequence hi).
TEST(PcpdPhilox, StreamLayout) {
  const pc::Stream s = pc::make_stream(0xa4093822299f31d0ull, 0x7);
  const pc::Philox4 a = s.draw(0x5, 0x0000000200000001ull);
  const pc::Philox4 b = pc::philox(1, 2, 5, 7, 0x299f31d0u, 0xa4093822u);
  for (int j = 0; j < 4; ++j) EXPECT_EQ(a.v[j], b.v[j]);
}

struct Ensemble {
  test::Context ctx;
  opsplit_pcpd pcpd = nullptr;
  int64_t L;
  Ensemble(opsplit_pcpd_algorithm algorithm, int64_t L_, int64_t replicas, double p, double d, uint64_t seed,
           double density = 1.0)
      : L(L_) {
    EXPECT_EQ(opsplit_pcpd_create(ctx, algorithm, L, replicas, &pcpd), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_pcpd_set_probabilities(pcpd, p, d), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    EXPECT_EQ(opsplit_pcpd_initialize(pcpd, seed, density), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  ~Ensemble() { opsplit_pcpd_destroy(&pcpd); }
  std::vector<uint8_t> lattice(int64_t r = 0) const {
    std::vector<uint8_t> q(static_cast<size_t>(L));
    EXPECT_EQ(opsplit_pcpd_get_lattice(pcpd, r, q.data()), OPSPLIT_SUCCESS) << opsplit_last_error_message();
    return q;
  }
  void set(const std::vector<uint8_t>& q, int64_t r = 0) {
    EXPECT_EQ(opsplit_pcpd_set_lattice(pcpd, r, q.data()), OPSPLIT_SUCCESS) << opsplit_last_error_message();
  }
  void run(double t) { EXPECT_EQ(opsplit_pcpd_run(pcpd, t), OPSPLIT_SUCCESS) << opsplit_last_error_message(); }
  struct Series {
    std::vector<double> t, mean, error;
  };
  Series series(opsplit_pcpd_quantity q) const {
    int64_t n = 0;
    EXPECT_EQ(opsplit_pcpd_get_series_length(pcpd, &n), OPSPLIT_SUCCESS);
    Series s{std::vector<double>(size_t(n)), std::vector<double>(size_t(n)), std::vector<double>(size_t(n))};
    EXPECT_EQ(opsplit_pcpd_get_series(pcpd, q, n, s.t.data(), s.mean.data(), s.error.data()), OPSPLIT_SUCCESS);
    return s;
  }
};

int64_t count(const std::vector<uint8_t>& q) {
  int64_t n = 0;
  for (uint8_t x : q) n += x;
  return n;
}

// EXACT, d = 0, p = 1: a pair at (i0, i0+1) stays until the first move that picks i0,
// which removes it; no other move changes anything.
TEST(PcpdExact, LonePairAnnihilatesAtTheFirstMoveOnIt) {
  const int64_t L = 64, i0 = 63;  // the pair wraps: sites 63 and 0
  Ensemble e(OPSPLIT_PCPD_EXACT, L, 1, 1.0, 0.0, 42);
  std::vector<uint8_t> q(L, 0);
  q[i0] = q[0] = 1;
  e.set(q);
  const pc::Stream s = pc::make_stream(42, 0);
  uint64_t m = 0;
  while (pc::pick(s.draw(pc::kStreamExact, m).v[0], L) != uint64_t(i0)) ++m;
  ASSERT_GT(m, 0u);
  e.run(double(m) / L);  // moves 0 .. m-1
  EXPECT_EQ(e.lattice(), q);
  e.run(double(m + 1) / L);
  EXPECT_EQ(count(e.lattice()), 0);
}

// EXACT, d = 0, p = 0: the first move on the pair gives birth at i0-1 or i0+2, as r3 says.
TEST(PcpdExact, LonePairGivesBirthOnTheSideTheDrawPicks) {
  const int64_t L = 64, i0 = 10;
  Ensemble e(OPSPLIT_PCPD_EXACT, L, 1, 0.0, 0.0, 7);
  std::vector<uint8_t> q(L, 0);
  q[i0] = q[i0 + 1] = 1;
  e.set(q);
  const pc::Stream s = pc::make_stream(7, 0);
  uint64_t m = 0;
  while (pc::pick(s.draw(pc::kStreamExact, m).v[0], L) != uint64_t(i0)) ++m;
  e.run(double(m + 1) / L);
  const bool low = s.draw(pc::kStreamExact, m).v[3] < 0x80000000u;
  q[low ? i0 - 1 : i0 + 2] = 1;
  EXPECT_EQ(e.lattice(), q);
}

// EXACT, d = 1: every move swaps; a particle moves exactly when a move picks its site or
// the one before it.
TEST(PcpdExact, PureDiffusionMovesTheParticleByTheSwaps) {
  const int64_t L = 16;
  Ensemble e(OPSPLIT_PCPD_EXACT, L, 1, 0.5, 1.0, 3);
  std::vector<uint8_t> q(L, 0);
  q[5] = 1;
  e.set(q);
  const pc::Stream s = pc::make_stream(3, 0);
  int64_t at = 5;
  for (uint64_t m = 0; m < 200; ++m) {
    const auto i = int64_t(pc::pick(s.draw(pc::kStreamExact, m).v[0], L));
    if (i == at) at = (at + 1) % L;
    else if ((i + 1) % L == at) at = i;
  }
  e.run(200.0 / L);
  std::vector<uint8_t> expect(L, 0);
  expect[at] = 1;
  EXPECT_EQ(e.lattice(), expect);
}

const opsplit_pcpd_algorithm kMultispins[] = {OPSPLIT_PCPD_MULTISPIN, OPSPLIT_PCPD_MULTISPIN32};
const opsplit_pcpd_algorithm kAll[] = {OPSPLIT_PCPD_EXACT, OPSPLIT_PCPD_MULTISPIN, OPSPLIT_PCPD_MULTISPIN32};
int word_bits(opsplit_pcpd_algorithm a) { return a == OPSPLIT_PCPD_MULTISPIN32 ? 32 : 64; }

// MULTISPIN words of B bits: site w + b W is bit b of word w. A pair at sites (s, s+1)
// lies in the word w = s mod W, part w / K at local index w % K, bit s / W; the first
// step whose local index is w % K acts on it. d = 0, p = 1: it vanishes there; p = 0: a
// birth at s-1 or s+2 by the part's `high` word. Sites chosen at the wraps: word W-1
// (its right neighbour is word 0's next bit), word 0 (its left one is word W-1's bit
// before), and bit B-1 of word W-1 (site L-1, whose right neighbour is site 0).
uint64_t first_step_on(uint64_t seed, int64_t L, int bits, int64_t site) {
  const uint64_t W = uint64_t(L) / bits, K = W / pc::kParts, l = (uint64_t(site) % W) % K;
  const pc::Stream s = pc::make_stream(seed, 0);
  uint64_t step = 0;
  while (pc::local_word(s, step, K) != l) ++step;
  return step;
}

// The side part p's step gives birth on (seed, step): 1 high (s+2), 0 low (s-1).
template <class Word>
bool high_side_of(uint64_t seed, uint64_t step, int64_t L, int64_t site) {
  const uint64_t W = uint64_t(L) / pc::kWordBits<Word>, K = W / pc::kParts, w = uint64_t(site) % W;
  const pc::MultispinRates rates{0, 0, 1, 0};  // d = 0, p = 0
  uint32_t u[4 * pc::kMaxCallsPerPart];
  pc::part_draws(pc::make_stream(seed, 0), step, int(w / K), pc::draws_per_part<Word>(rates), u);
  return (pc::step_masks<Word>(u, rates).high >> (uint64_t(site) / W)) & 1u;
}
bool high_side(uint64_t seed, uint64_t step, int64_t L, int bits, int64_t site) {
  return bits == 32 ? high_side_of<uint32_t>(seed, step, L, site) : high_side_of<uint64_t>(seed, step, L, site);
}

TEST(PcpdMultispin, LonePairsAtTheWrapsFollowTheRules) {
  for (auto algorithm : kMultispins) {
    const int bits = word_bits(algorithm);
    const int64_t L = 8192, W = L / bits, moves_per_step = 32 * bits;
    // Word W-1 (its right neighbour word 0 a bit up), W-2 (its pair's right neighbour
    // word 0), word 0 (its left neighbour word W-1 a bit down), bit B-1 of words W-1 and
    // W-2 (sites L-1 and L-2: the pair or its right neighbour across site 0), inner sites.
    for (int64_t site : {W - 1, W - 2, int64_t(0), 5 * W, L - 1, L - 2, 17 * W + 40}) {
      // p = 1: the pair vanishes; p = 0: a birth, on each side (a seed for each).
      for (int outcome : {0, 1, 2}) {
        const double p = outcome == 0 ? 1.0 : 0.0;
        uint64_t seed = 11 + uint64_t(site), step = first_step_on(seed, L, bits, site);
        while (outcome > 0 && high_side(seed, step, L, bits, site) != (outcome == 2))
          step = first_step_on(++seed, L, bits, site);
        Ensemble e(algorithm, L, 1, p, 0.0, seed);
        std::vector<uint8_t> q(L, 0);
        const int64_t next = (site + 1) % L;
        q[site] = q[next] = 1;
        e.set(q);
        e.run(double(step) * moves_per_step / L);
        EXPECT_EQ(e.lattice(), q) << bits << "-bit words, site " << site << " before its step " << step;
        e.run(double(step + 1) * moves_per_step / L);
        std::vector<uint8_t> expect = q;
        if (outcome == 0) expect[site] = expect[next] = 0;
        if (outcome == 1) expect[(site + L - 1) % L] = 1;
        if (outcome == 2) expect[(site + 2) % L] = 1;
        EXPECT_EQ(e.lattice(), expect) << bits << "-bit words, site " << site << ", outcome " << outcome;
      }
    }
  }
}

// A lattice of 0 or 1 particle never changes its count; pure diffusion keeps any count.
TEST(PcpdAllAlgorithms, AbsorbingStatesAndPureDiffusion) {
  for (auto algorithm : kAll) {
    const int64_t L = 8192;
    {
      Ensemble e(algorithm, L, 2, 0.1, 0.5, 5);
      std::vector<uint8_t> one(L, 0), none(L, 0);
      one[100] = 1;
      e.set(one, 0), e.set(none, 1);
      e.run(50);
      EXPECT_EQ(count(e.lattice(0)), 1) << algorithm;
      EXPECT_EQ(count(e.lattice(1)), 0) << algorithm;
      const auto surviving = e.series(OPSPLIT_PCPD_SURVIVING);
      EXPECT_EQ(surviving.mean.back(), 0.0);
    }
    {
      Ensemble e(algorithm, L, 3, 0.3, 1.0, 6, 0.3);
      std::vector<int64_t> before;
      for (int r = 0; r < 3; ++r) before.push_back(count(e.lattice(r)));
      e.run(20);
      for (int r = 0; r < 3; ++r) EXPECT_EQ(count(e.lattice(r)), before[size_t(r)]) << algorithm;
    }
  }
}

// The series' first point is the start; densities of a full lattice are 1.
TEST(PcpdSeries, StartsFullAndTakesLogSpacedPoints) {
  Ensemble e(OPSPLIT_PCPD_MULTISPIN, 16384, 4, 0.125141, 0.25, 1);
  ASSERT_EQ(opsplit_pcpd_set_points_per_decade(e.pcpd, 4), OPSPLIT_SUCCESS);
  e.run(1000);
  const auto rho = e.series(OPSPLIT_PCPD_DENSITY), pairs = e.series(OPSPLIT_PCPD_PAIR_DENSITY);
  ASSERT_EQ(rho.t.size(), 14u);  // 0, then 10^(k/4), k = 0 .. 12
  EXPECT_EQ(rho.t[0], 0.0);
  EXPECT_EQ(rho.mean[0], 1.0);
  EXPECT_EQ(pairs.mean[0], 1.0);
  EXPECT_EQ(rho.error[0], 0.0);
  for (size_t k = 1; k < rho.t.size(); ++k) {
    const double t = std::pow(10.0, double(k - 1) / 4);
    EXPECT_GE(rho.t[k], t);
    EXPECT_LT(rho.t[k], t + 2048.0 / 16384) << "the first step at or after the point";
    EXPECT_LT(rho.mean[k], rho.mean[k - 1]) << "the density falls from the full lattice near p_c";
    EXPECT_LE(pairs.mean[k], rho.mean[k]);
    EXPECT_GT(rho.error[k], 0.0);
  }
  double time = 0;
  ASSERT_EQ(opsplit_pcpd_get_time(e.pcpd, &time), OPSPLIT_SUCCESS);
  EXPECT_EQ(time, 1000.0);
}

// The same seed gives the same bits: again, with 1 thread, and run in pieces.
TEST(PcpdDeterminism, RunsThreadsAndPieces) {
  for (auto algorithm : kAll) {
    Ensemble a(algorithm, 8192, 5, 0.2, 0.5, 99, 0.5), b(algorithm, 8192, 5, 0.2, 0.5, 99, 0.5);
    ASSERT_EQ(opsplit_context_set_num_threads(b.ctx, 1), OPSPLIT_SUCCESS);
    a.run(30);
    b.run(7.25), b.run(7.25), b.run(19), b.run(30);
    for (int r = 0; r < 5; ++r) EXPECT_EQ(a.lattice(r), b.lattice(r)) << algorithm << " replica " << r;
    const auto sa = a.series(OPSPLIT_PCPD_DENSITY), sb = b.series(OPSPLIT_PCPD_DENSITY);
    EXPECT_EQ(sa.t, sb.t);
    EXPECT_EQ(sa.mean, sb.mean);
    Ensemble c(algorithm, 8192, 5, 0.2, 0.5, 100, 0.5);
    c.run(30);
    EXPECT_NE(a.lattice(0), c.lattice(0)) << "another seed, another trajectory";
  }
}

// EXACT and MULTISPIN (64- and 32-bit words) sample the same process: the densities at
// t = 10 and 100 agree within 3 combined standard errors (fixed seeds: the comparison is
// the same every run).
// MULTISPIN is exact only as its parts grow long (K = L / 2048 words a part): a step
// updates one local index of every part, so a pair's attempts come as Binomial(K t,
// 1/K), not Poisson(t), with neighbouring pairs' counts correlated. At t = 1 (d = 0.5,
// p = 0.6) its pair density lay 4.6 standard errors low at K = 8 (L = 16384), 1.5 at
// K = 32 and 1.9 at K = 128 (the gap shrinking like 1/K, 0.032 to 0.005); by t = 10 it
// agrees at K >= 32. Hence L = 65536 here (K = 32 words of 64 bits, 64 of 32), and the
// seed's L = 2^18 (K = 128) for physics.
TEST(PcpdStatistics, ExactAndMultispinAgree) {
  const int64_t L = 65536, R = 16;
  struct Case {
    double d, p;
  };
  // p per d: active (below p_c), near p_c (0.125141 at d = 0.25 and 0.191789 at 0.75,
  // the seed's; between them at 0.5), absorbing (well above: p > 1/4 and > 1/2 take the
  // 1/2 and 3/4 uncorrelated masks, p > 3/4 none).
  const Case cases[] = {{0.25, 0.05}, {0.25, 0.125141}, {0.25, 0.3},      {0.5, 0.08}, {0.5, 0.16},
                        {0.5, 0.6},   {0.75, 0.1},      {0.75, 0.191789}, {0.75, 0.9}};
  uint64_t seed = 1000;
  double worst = 0;
  for (const Case& c : cases) {
    Ensemble x(OPSPLIT_PCPD_EXACT, L, R, c.p, c.d, seed++), m64(OPSPLIT_PCPD_MULTISPIN, L, R, c.p, c.d, seed++),
        m32(OPSPLIT_PCPD_MULTISPIN32, L, R, c.p, c.d, seed++);
    for (Ensemble* e : {&x, &m64, &m32}) {
      ASSERT_EQ(opsplit_pcpd_set_points_per_decade(e->pcpd, 1), OPSPLIT_SUCCESS);
      e->run(100);
    }
    for (auto q : {OPSPLIT_PCPD_DENSITY, OPSPLIT_PCPD_PAIR_DENSITY}) for (const Ensemble* m : {&m64, &m32}) {
      const auto sx = x.series(q), sm = m->series(q);
      ASSERT_EQ(sx.t.size(), 4u);
      ASSERT_EQ(sm.t, sx.t);  // 0, 1, 10, 100
      for (size_t k = 2; k < sx.t.size(); ++k) {
        const double se = std::sqrt(sx.error[k] * sx.error[k] + sm.error[k] * sm.error[k]);
        ASSERT_GT(se, 0.0) << "d " << c.d << " p " << c.p << ": a comparison that could not fail";
        worst = std::fmax(worst, std::fabs(sx.mean[k] - sm.mean[k]) / se);
        EXPECT_LE(std::fabs(sx.mean[k] - sm.mean[k]), 3 * se)
            << "d " << c.d << " p " << c.p << " quantity " << q << " t " << sx.t[k] << " words of "
            << (m == &m32 ? 32 : 64) << " bits: exact " << sx.mean[k]
            << " +- " << sx.error[k] << ", multispin " << sm.mean[k] << " +- " << sm.error[k];
      }
    }
  }
  std::printf(
      "EXACT against MULTISPIN (64- and 32-bit words), 9 cases x 2 quantities x 2 times: the largest gap %.2f "
      "standard errors\n",
              worst);
}

// CPU against CUDA: the same seed, the same bits, for all three algorithms from a random
// start, over rates that take 2 to 6 Philox calls a part (64-bit words; 2 to 4 for 32-bit;
// d = 1/4, 1/256, 0, 1; every
// uncorrelated mask), a run in pieces (the GPU's launches start mid-way through a
// draw of four local indices) and rates changed mid-run.
TEST(PcpdParity, CpuAndCudaBitForBit) {
  struct Rates {
    double p, d;
  };
  const Rates before[] = {{0.13, 0.25}, {0.6, 1.0 / 256}, {0.3, 0.0}, {0.9, 1.0}};
  for (auto algorithm : kAll) {
    for (const Rates& r : before) {
      test::Context cpu(OPSPLIT_BACKEND_CPU), gpu(OPSPLIT_BACKEND_CUDA);
      opsplit_pcpd a = nullptr, b = nullptr;
      const int64_t L = algorithm == OPSPLIT_PCPD_EXACT ? 4096 : 16384, R = 40;
      ASSERT_EQ(opsplit_pcpd_create(cpu, algorithm, L, R, &a), OPSPLIT_SUCCESS) << opsplit_last_error_message();
      ASSERT_EQ(opsplit_pcpd_create(gpu, algorithm, L, R, &b), OPSPLIT_SUCCESS) << opsplit_last_error_message();
      const double t1 = algorithm == OPSPLIT_PCPD_EXACT ? 7.3 : 77.3, t2 = algorithm == OPSPLIT_PCPD_EXACT ? 20 : 200;
      for (opsplit_pcpd e : {a, b}) {
        ASSERT_EQ(opsplit_pcpd_set_probabilities(e, r.p, r.d), OPSPLIT_SUCCESS);
        ASSERT_EQ(opsplit_pcpd_initialize(e, 0x123456789abcdefull, 0.7), OPSPLIT_SUCCESS);
        ASSERT_EQ(opsplit_pcpd_run(e, t1), OPSPLIT_SUCCESS) << opsplit_last_error_message();
        ASSERT_EQ(opsplit_pcpd_set_probabilities(e, 0.15, 0.5), OPSPLIT_SUCCESS);
        ASSERT_EQ(opsplit_pcpd_run(e, t2), OPSPLIT_SUCCESS) << opsplit_last_error_message();
      }
      std::vector<uint8_t> qa(static_cast<size_t>(L)), qb(static_cast<size_t>(L));
      for (int64_t i = 0; i < R; ++i) {
        ASSERT_EQ(opsplit_pcpd_get_lattice(a, i, qa.data()), OPSPLIT_SUCCESS);
        ASSERT_EQ(opsplit_pcpd_get_lattice(b, i, qb.data()), OPSPLIT_SUCCESS);
        ASSERT_EQ(qa, qb) << algorithm << " p " << r.p << " d " << r.d << " replica " << i;
      }
      int64_t n = 0;
      ASSERT_EQ(opsplit_pcpd_get_series_length(a, &n), OPSPLIT_SUCCESS);
      std::vector<double> ma(static_cast<size_t>(n)), mb(static_cast<size_t>(n));
      ASSERT_EQ(opsplit_pcpd_get_series(a, OPSPLIT_PCPD_PAIR_DENSITY, n, nullptr, ma.data(), nullptr), OPSPLIT_SUCCESS);
      ASSERT_EQ(opsplit_pcpd_get_series(b, OPSPLIT_PCPD_PAIR_DENSITY, n, nullptr, mb.data(), nullptr), OPSPLIT_SUCCESS);
      EXPECT_EQ(ma, mb);
      opsplit_pcpd_destroy(&a), opsplit_pcpd_destroy(&b);
    }
  }
}

}  // namespace
