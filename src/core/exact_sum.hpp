// A sum of doubles kept exactly and rounded once, to nearest even: its value does not
// depend on the order of the additions, nor on how they were split into partial sums
// and merged (merge, or add_limbs after the limbs travelled to another process). The
// CA volumes use it so that a grid decomposed over processes reports the bits that
// one process does.
//
// Every finite double is m * 2^(e - 1074) with m < 2^53 and 0 <= e < 2046, so the sum
// is an integer in units of 2^-1074: the accumulator keeps it as signed 32-bit chunks
// in int64 limbs (a chunk's carries pile up in its limb's upper bits and are moved
// up before they could overflow). Infinities and NaNs are summed apart, as IEEE
// addition would: their sum is the result when there is one.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace opsplit {

class ExactSum {
 public:
  // 2046 exponents + 53 mantissa bits + 33 bits of headroom for the sum's growth and
  // its sign, in 32-bit chunks.
  static constexpr int kLimbs = 68;
  using Limbs = std::array<int64_t, kLimbs>;

  void add(double x) {
    if (!std::isfinite(x)) {
      special_ = any_special_ ? special_ + x : x;
      any_special_ = true;
      return;
    }
    uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int biased = static_cast<int>((bits >> 52) & 0x7ff);
    uint64_t m = bits & ((uint64_t{1} << 52) - 1);
    if (biased != 0) m |= uint64_t{1} << 52;
    if (m == 0) return;
    const int at = biased == 0 ? 0 : biased - 1;  // the bit of m's unit, above 2^-1074
    const int64_t sign = (bits >> 63) != 0 ? -1 : 1;
    const int limb = at / 32, shift = at % 32;
    // m << shift has at most 85 bits: three chunks.
    const uint64_t low = m << shift;                          // bits 0..63 of m << shift
    const uint64_t high = shift == 0 ? 0 : m >> (64 - shift);  // bits 64..84
    limbs_[limb] += sign * static_cast<int64_t>(low & 0xffffffffu);
    limbs_[limb + 1] += sign * static_cast<int64_t>(low >> 32);
    if (high != 0) limbs_[limb + 2] += sign * static_cast<int64_t>(high);
    count_up();
  }

  // Adds another sum's value (exact).
  void merge(const ExactSum& other) {
    add_limbs(other.limbs());
    if (other.any_special_) {
      special_ = any_special_ ? special_ + other.special_ : other.special_;
      any_special_ = true;
    }
  }

  // The finite part as limbs with carries moved up: each limb but the last in [0, 2^32).
  // Any process's limbs can be added to any other's (add_limbs), in any order.
  Limbs limbs() const {
    Limbs l = limbs_;
    normalize(l);
    return l;
  }
  void add_limbs(const Limbs& l) {
    for (int i = 0; i < kLimbs; ++i) limbs_[i] += l[i];
    count_up();
  }
  // The non-finite part (a layer that carries sums between processes adds it with add).
  bool has_special() const { return any_special_; }
  double special() const { return special_; }

  // The exact sum rounded to the nearest double (ties to even); +-inf past the largest.
  double value() const {
    if (any_special_) return special_;
    Limbs l = limbs();
    const bool negative = l[kLimbs - 1] < 0;
    if (negative) {  // the magnitude: negate, then move the borrows up again
      for (int64_t& v : l) v = -v;
      normalize(l);
    }
    int top = kLimbs - 1;
    while (top >= 0 && l[top] == 0) --top;
    if (top < 0) return 0.0;
    // The highest set bit, counted from 2^-1074.
    const int high = top * 32 + 63 - count_leading_zeros(static_cast<uint64_t>(l[top]));
    double magnitude;
    if (high >= 1074 + 1024) {  // 2^1024 or more
      magnitude = std::numeric_limits<double>::infinity();
    } else if (high < 53) {  // below 2^-1021: every such integer times 2^-1074 is a double
      magnitude = std::ldexp(static_cast<double>(bits_at(l, 0, high + 1)), -1074);
    } else {
      const int unit = high - 52;  // the bit of the result's last mantissa bit
      uint64_t m = bits_at(l, unit, 53);
      const bool half = bit_at(l, unit - 1);
      const bool sticky = any_below(l, unit - 1);
      if (half && (sticky || (m & 1) != 0)) ++m;  // m may become 2^53: ldexp takes it
      magnitude = std::ldexp(static_cast<double>(m), unit - 1074);
    }
    return negative ? -magnitude : magnitude;
  }

 private:
  // Moves each limb's bits past 32 up to the next; the last keeps the sign.
  static void normalize(Limbs& l) {
    for (int i = 0; i + 1 < kLimbs; ++i) {
      const int64_t carry = l[i] >> 32;  // floor division: the rest is in [0, 2^32)
      l[i] -= carry * (int64_t{1} << 32);
      l[i + 1] += carry;
    }
  }
  // Limbs take 2^31 additions of chunks below 2^32 before int64 could overflow.
  void count_up() {
    if (++pending_ == (int64_t{1} << 30)) normalize(limbs_), pending_ = 0;
  }
  static int count_leading_zeros(uint64_t v) {
    int n = 0;
    for (uint64_t probe = uint64_t{1} << 63; (v & probe) == 0; probe >>= 1) ++n;
    return n;
  }
  // Of normalized, non-negative limbs: bit b (from 2^-1074), count bits from b.
  static bool bit_at(const Limbs& l, int b) {
    return b >= 0 && ((static_cast<uint64_t>(l[b / 32]) >> (b % 32)) & 1) != 0;
  }
  static uint64_t bits_at(const Limbs& l, int b, int count) {
    uint64_t v = 0;
    for (int i = count - 1; i >= 0; --i) v = (v << 1) | (bit_at(l, b + i) ? 1 : 0);
    return v;
  }
  static bool any_below(const Limbs& l, int b) {
    for (int i = 0; i < b / 32; ++i)
      if (l[i] != 0) return true;
    return b > 0 && (static_cast<uint64_t>(l[b / 32]) & ((uint64_t{1} << (b % 32)) - 1)) != 0;
  }

  Limbs limbs_{};
  int64_t pending_ = 0;
  double special_ = 0.0;
  bool any_special_ = false;
};

}  // namespace opsplit
