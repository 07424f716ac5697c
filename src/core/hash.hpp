// FNV-1a over 64-bit words, byte by byte (little end first): a hash that distributed
// objects compare between processes to check that they were given the same data.
#pragma once

#include <cstdint>

namespace opsplit {

struct Fnv1a {
  uint64_t value = 1469598103934665603ull;
  void add(uint64_t x) {
    for (int b = 0; b < 8; ++b) value = (value ^ (x >> (8 * b) & 0xff)) * 1099511628211ull;
  }
};

}  // namespace opsplit
