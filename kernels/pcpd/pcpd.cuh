// The pair contact process with diffusion (PCPD): the per-move numerics the CPU loops
// (src/pcpd/pcpd.cpp) and the CUDA kernels (kernels/pcpd/pcpd_cuda.cu) share. Model and
// algorithms: Schram, "Reaction-diffusion model Monte Carlo simulations on the GPU"
// (the seed; Algorithm 1 EXACT, Algorithm 2 MULTISPIN); docs/API.md's PCPD section.
//
// Random numbers: Philox4x32-10, counter-based, so a move's numbers depend only on
// (seed, replica, what, index), never on which thread or backend draws them. On the GPU
// the generator is cuRAND's (curand_Philox4x32_10, what curand4 returns after
// curand_init(seed, subsequence, 4 x index)); on the CPU Random123's philox4x32 (the
// same function: both are checked against Random123's known-answer vectors). All
// decisions compare raw 32-bit integers with integer thresholds: no floats in a move.
#pragma once

#include <cstdint>

#include "common/hd.cuh"

// cuRAND's and Random123's headers both define mulhilo32: a .cu file takes cuRAND's, a
// .cpp file Random123's.
#if defined(__CUDACC__)
#include <curand_philox4x32_x.h>
#else
#include <Random123/philox.h>
#endif

namespace opsplit::pcpd {

struct Philox4 {
  uint32_t v[4];
};

// Random123's philox4x32, compiled in src/pcpd/pcpd.cpp: the host half of a .cu file's
// philox (which only its kernels call).
Philox4 philox_host(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1);

// Philox4x32-10 of counter (c0, c1, c2, c3) under key (k0, k1).
OPSPLIT_HD Philox4 philox(uint32_t c0, uint32_t c1, uint32_t c2, uint32_t c3, uint32_t k0, uint32_t k1) {
#if defined(__CUDA_ARCH__)
  const uint4 r = curand_Philox4x32_10(make_uint4(c0, c1, c2, c3), make_uint2(k0, k1));
  return Philox4{{r.x, r.y, r.z, r.w}};
#elif defined(__CUDACC__)
  return philox_host(c0, c1, c2, c3, k0, k1);
#else
  const r123::Philox4x32_R<10>::ctr_type ctr = {{c0, c1, c2, c3}};
  const r123::Philox4x32_R<10>::key_type key = {{k0, k1}};
  const r123::Philox4x32_R<10>::ctr_type r = r123::Philox4x32_R<10>()(ctr, key);
  return Philox4{{r.v[0], r.v[1], r.v[2], r.v[3]}};
#endif
}

// The streams of a run: cuRAND's layout of a Philox counter, (index lo, index hi,
// subsequence lo, subsequence hi), with the subsequence (replica << 32 | purpose) and the
// key the seed. Purposes: a MULTISPIN part's numbers (0 .. kParts - 1), and these.
constexpr uint32_t kStreamExact = 0xffffffffu;      // EXACT: one draw a move, index = the move
constexpr uint32_t kStreamLocalSite = 0xfffffffeu;  // MULTISPIN: a step's local word, index = the step
constexpr uint32_t kStreamInitial = 0xfffffffdu;    // the random start: index = site / 4

struct Stream {
  uint32_t key0, key1, replica;
  OPSPLIT_HD Philox4 draw(uint32_t purpose, uint64_t index) const {
    return philox(static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), purpose, replica, key0, key1);
  }
};
OPSPLIT_HD Stream make_stream(uint64_t seed, uint32_t replica) {
  return Stream{static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32), replica};
}

// u < threshold with probability threshold / 2^32 for a uniform 32-bit u (threshold up to 2^32).
OPSPLIT_HD bool below(uint32_t u, uint64_t threshold) { return u < threshold; }

// floor(n u / 2^32): a uniform 32-bit u mapped onto 0 .. n-1 (n <= 2^32).
OPSPLIT_HD uint64_t pick(uint32_t u, uint64_t n) { return (static_cast<uint64_t>(u) * n) >> 32; }

// ---- EXACT: the seed's Algorithm 1, random sequential updates on a lattice of bytes.

struct ExactRates {
  uint64_t diffuse;   // 2^32 d
  uint64_t annihilate;  // 2^32 p
};

// Move `move` of a replica on its sites q[0..L) (0 or 1, periodic): a site i, then with
// probability d the swap of i and i+1; else, on a pair at (i, i+1), with probability p
// both vanish, else a particle is born at i-1 or at i+2 (one half each).
OPSPLIT_HD void exact_move(uint8_t* q, uint64_t L, const ExactRates& rates, const Stream& stream, uint64_t move) {
  const Philox4 r = stream.draw(kStreamExact, move);
  const uint64_t i = pick(r.v[0], L), next = i + 1 == L ? 0 : i + 1;
  if (below(r.v[1], rates.diffuse)) {
    const uint8_t a = q[i];
    q[i] = q[next], q[next] = a;
  } else if (q[i] & q[next]) {
    if (below(r.v[2], rates.annihilate)) {
      q[i] = 0, q[next] = 0;
    } else if (r.v[3] < 0x80000000u) {
      q[i == 0 ? L - 1 : i - 1] = 1;
    } else {
      q[next + 1 == L ? 0 : next + 1] = 1;
    }
  }
}

// ---- MULTISPIN: the seed's Algorithm 2 and memory layout, 64 (or 32) sites a word.
//
// A replica's L sites are W = L / B words of B bits (Word = uint64_t: MULTISPIN,
// uint32_t: MULTISPIN32); bit b of word w is site w + b W (the B strips of W sites are
// one lattice: the right neighbour of word W-1's bit b is word 0's bit b+1). The words
// form kParts parts of K = W / kParts consecutive words; a step picks one local index l
// (0 .. K-1) and every part p updates the pairs (w, w+1) of word w = p K + l, its B
// sites at once: B kParts moves, all parts on disjoint words (K >= 4).
constexpr int kParts = 32;  // the seed's workgroup of 32 (its safest choice; one warp)
template <class Word>
constexpr int kWordBits = 8 * sizeof(Word);
template <class Word>
constexpr int kMovesPerStep = kParts * kWordBits<Word>;
constexpr int kMinPartWords = 4;  // a part's step touches words w-1 .. w+2

// A replica's sites (bytes, nonzero occupied) and its stored form: MULTISPIN's word w
// of W holds site w + b W in bit b; EXACT stores the sites as 0/1 bytes. The CPU's
// copies and the CUDA kernels of the _device forms both go through these.
template <class Word>
OPSPLIT_HD Word packed_sites(const uint8_t* sites, uint64_t W, uint64_t w) {
  Word x = 0;
  for (int b = 0; b < kWordBits<Word>; ++b) x |= static_cast<Word>(sites[w + b * W] != 0) << b;
  return x;
}
template <class Word>
OPSPLIT_HD void unpacked_sites(Word x, uint64_t W, uint64_t w, uint8_t* sites) {
  for (int b = 0; b < kWordBits<Word>; ++b) sites[w + b * W] = static_cast<uint8_t>((x >> b) & 1u);
}
constexpr int kMaxDiffusionWords = 8;  // d = k / 2^n with n <= 8

// What a MULTISPIN step needs of d and p: d = diffusion_bits / 2^diffusion_words, built
// bit by bit from that many random words; p = (the probability of the uncorrelated
// annihilation mask, 1/4, 1/2, 3/4 or 1: the smallest that is >= p) x (the probability
// that one 32-bit draw, shared by the part's B sites, is below `correlated`).
struct MultispinRates {
  uint32_t diffusion_bits;
  int diffusion_words;       // 0 .. kMaxDiffusionWords
  int annihilation_quarters;  // 1 .. 4: the uncorrelated mask's probability in quarters
  uint64_t correlated;        // 2^32 p / (quarters / 4)
};

// The 32-bit numbers a part draws in a step: u[0] the correlated draw, then random words
// of B bits (a 64-bit word is u[1 + 2j] low, u[2 + 2j] high; a 32-bit one u[1 + j]):
// word 0 the fission side, words 1-2 the uncorrelated mask's (drawn whether its
// probability needs two, one or none), words 3 .. 2 + n d's bits. Fixed places: the GPU
// keeps them in registers. A step's counters leave room for the most calls either word
// takes (kMaxCallsPerPart).
template <class Word>
constexpr int kDrawsPerWord = sizeof(Word) / sizeof(uint32_t);
template <class Word>
OPSPLIT_HD int draws_per_part(const MultispinRates& m) {
  return 1 + kDrawsPerWord<Word> * (3 + m.diffusion_words);
}
constexpr int kMaxDrawsPerPart = 1 + 2 * (3 + kMaxDiffusionWords);
constexpr int kMaxCallsPerPart = (kMaxDrawsPerPart + 3) / 4;

template <class Word>
OPSPLIT_HD Word rotate_left(Word x) {
  return x << 1 | x >> (kWordBits<Word> - 1);
}
template <class Word>
OPSPLIT_HD Word rotate_right(Word x) {
  return x >> 1 | x << (kWordBits<Word> - 1);
}
template <class Word>
OPSPLIT_HD int popcount(Word x) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(Word) == 8) return __popcll(x); else return __popc(x);
#else
  if constexpr (sizeof(Word) == 8) return __builtin_popcountll(x); else return __builtin_popcount(x);
#endif
}

// The masks of one part's step from its draws: each bit of `diffuse` 1 with probability
// d, of `annihilate` (before the pair test) with probability p, and `high` picking the
// fission side. Built from the pieces below, which the CPU's loop over the parts (part
// fastest, vectorized) applies one at a time.
template <class Word>
struct StepMasks {
  Word diffuse, annihilate, high;
};
// Draw word j (B bits) of u(i), the part's 32-bit draws.
template <class Word, class Draws>
OPSPLIT_HD Word draw_word(Draws&& u, int j) {
  if constexpr (sizeof(Word) == 8)
    return static_cast<uint64_t>(u(1 + 2 * j)) | static_cast<uint64_t>(u(2 + 2 * j)) << 32;
  else
    return u(1 + j);
}
// The annihilation mask from the correlated draw and the uncorrelated words 1 and 2.
template <class Word>
OPSPLIT_HD Word annihilation_mask(uint32_t correlated, Word w1, Word w2, const MultispinRates& m) {
  const int q = m.annihilation_quarters;
  const Word uncorrelated = q == 1 ? w1 & w2 : q == 2 ? w1 : q == 3 ? w1 | w2 : ~Word(0);
  return below(correlated, m.correlated) ? uncorrelated : 0;
}
// d's mask, bit j of d's numerator at a time from the least significant (word 3 + j):
// with bit 1, x | r (probability (1 + P) / 2), with bit 0, x & r (P / 2); from x = 0
// (x = ~0 for d = 1, no words) this ends at P = d.
template <class Word>
OPSPLIT_HD Word diffusion_start(const MultispinRates& m) {
  return m.diffusion_words == 0 && m.diffusion_bits != 0 ? ~Word(0) : 0;
}
template <class Word>
OPSPLIT_HD Word diffusion_bit(Word x, Word r, const MultispinRates& m, int j) {
  return (m.diffusion_bits >> j) & 1u ? x | r : x & r;
}
template <class Word, class Draws>
OPSPLIT_HD StepMasks<Word> step_masks_of(Draws&& u, const MultispinRates& m) {
  StepMasks<Word> s;
  s.high = draw_word<Word>(u, 0);
  s.annihilate = annihilation_mask(u(0), draw_word<Word>(u, 1), draw_word<Word>(u, 2), m);
  s.diffuse = diffusion_start<Word>(m);
  OPSPLIT_UNROLL
  for (int j = 0; j < kMaxDiffusionWords; ++j) {
    if (j >= m.diffusion_words) break;
    s.diffuse = diffusion_bit(s.diffuse, draw_word<Word>(u, 3 + j), m, j);
  }
  return s;
}
template <class Word>
OPSPLIT_HD StepMasks<Word> step_masks(const uint32_t* u, const MultispinRates& m) {
  return step_masks_of<Word>([u](int j) { return u[j]; }, m);
}

// Algorithm 2 on the four words around a part's pair: left (the sites i-1), a (i),
// b (i+1), right (i+2), each bit one lattice position. The seed's lines 14-15 print
// l[i] & aMask; the text (the sites are cleared) means l[i] & ~aMask, as here.
template <class Word>
OPSPLIT_HD void multispin_update(Word& left, Word& a, Word& b, Word& right, const StepMasks<Word>& s) {
  const Word a0 = a;
  a = (s.diffuse & b) | (~s.diffuse & a);
  b = (s.diffuse & a0) | (~s.diffuse & b);
  const Word pair = a & b & ~s.diffuse;
  const Word gone = pair & s.annihilate;
  a &= ~gone, b &= ~gone;
  const Word born = pair & ~gone;
  right |= born & s.high;
  left |= born & ~s.high;
}

// The steps' local indices l (0 .. part_words-1), the same for every part of the
// replica: one Philox draw gives four steps' (index step / 4, word step % 4).
OPSPLIT_HD Philox4 local_words_draw(const Stream& stream, uint64_t step) {
  return stream.draw(kStreamLocalSite, step >> 2);
}
OPSPLIT_HD uint64_t local_word_of(const Philox4& r, uint64_t step, uint64_t part_words) {
  const unsigned k = static_cast<unsigned>(step & 3u);
  return pick(k == 0 ? r.v[0] : k == 1 ? r.v[1] : k == 2 ? r.v[2] : r.v[3], part_words);
}
OPSPLIT_HD uint64_t local_word(const Stream& stream, uint64_t step, uint64_t part_words) {
  return local_word_of(local_words_draw(stream, step), step, part_words);
}

// Call `call` of part p's draws for a step (index step x kMaxCallsPerPart + call): a
// step needs ceil(draws / 4) of them.
OPSPLIT_HD Philox4 part_call(const Stream& stream, uint64_t step, int part, int call) {
  return stream.draw(static_cast<uint32_t>(part), step * kMaxCallsPerPart + static_cast<uint64_t>(call));
}
OPSPLIT_HD int calls_per_part(int draws) { return (draws + 3) / 4; }

// Part p's draws for a step, in u[0 .. 4 calls).
OPSPLIT_HD void part_draws(const Stream& stream, uint64_t step, int part, int draws, uint32_t* u) {
  OPSPLIT_UNROLL
  for (int call = 0; call < kMaxCallsPerPart; ++call) {
    if (call >= calls_per_part(draws)) break;
    const Philox4 r = part_call(stream, step, part, call);
    OPSPLIT_UNROLL
    for (int j = 0; j < 4; ++j) u[4 * call + j] = r.v[j];
  }
}

// Part p's four words around its pair at a step, through `at(w)`, a reference to word
// w (0 <= w < W): left (the sites i-1), a (i), b (i+1), right (i+2) of word w = p K + l,
// the wrap across word W-1 by one-bit rotations (word W-1's right neighbour is word 0 a
// bit up). PartWords::load reads them, store writes them back.
struct PartWords {
  uint64_t iw[4];  // the words' indices: left, a, b, right
  bool first;      // left is word W-1 (rotated)
  int beyond;      // 1: right is word 0; 2: b is word 0 and right word 1 (rotated)
  OPSPLIT_HD PartWords(uint64_t W, uint64_t part_words, uint64_t l, int part) {
    const uint64_t w = static_cast<uint64_t>(part) * part_words + l;
    first = w == 0;
    beyond = w + 2 >= W ? int(w + 2 - W) + 1 : 0;
    iw[0] = first ? W - 1 : w - 1, iw[1] = w;
    iw[2] = beyond == 2 ? 0 : w + 1, iw[3] = beyond == 2 ? 1 : beyond == 1 ? 0 : w + 2;
  }
  template <class Words, class Word>
  OPSPLIT_HD void load(Words&& at, Word& left, Word& a, Word& b, Word& right) const {
    left = first ? rotate_left<Word>(at(iw[0])) : at(iw[0]), a = at(iw[1]);
    b = beyond == 2 ? rotate_right<Word>(at(iw[2])) : at(iw[2]);
    right = beyond >= 1 ? rotate_right<Word>(at(iw[3])) : at(iw[3]);
  }
  template <class Words, class Word>
  OPSPLIT_HD void store(Words&& at, Word left, Word a, Word b, Word right) const {
    at(iw[0]) = first ? rotate_right(left) : left, at(iw[1]) = a;
    at(iw[2]) = beyond == 2 ? rotate_left(b) : b, at(iw[3]) = beyond >= 1 ? rotate_left(right) : right;
  }
};

// Part p's step: Algorithm 2 on its four words.
template <class Words, class Word>
OPSPLIT_HD void multispin_part_step(Words&& at, uint64_t W, uint64_t part_words, uint64_t l, int part,
                                    const StepMasks<Word>& s) {
  const PartWords pw(W, part_words, l, part);
  Word left, a, b, right;
  pw.load(at, left, a, b, right);
  multispin_update(left, a, b, right, s);
  pw.store(at, left, a, b, right);
}

// Particles and nearest-neighbour pairs of a replica's words.
struct Counts {
  int64_t particles = 0, pairs = 0;
};
template <class Word, class Words>
OPSPLIT_HD Counts multispin_counts_range(Words&& at, uint64_t W, uint64_t w0, uint64_t w1) {
  Counts c;
  for (uint64_t w = w0; w < w1; ++w) {
    const Word x = at(w), next = w + 1 == W ? rotate_right<Word>(at(0)) : at(w + 1);
    c.particles += popcount(x), c.pairs += popcount<Word>(x & next);
  }
  return c;
}

// Particles and pairs of an EXACT replica's sites first, first + stride, ... (< L).
OPSPLIT_HD Counts exact_counts(const uint8_t* q, uint64_t L, uint64_t first, uint64_t stride) {
  Counts c;
  for (uint64_t i = first; i < L; i += stride) c.particles += q[i], c.pairs += q[i] & q[i + 1 == L ? 0 : i + 1];
  return c;
}

}  // namespace opsplit::pcpd
