// Arrays of a compiled mechanism packed in one block of ints and one of doubles, so a
// backend copies two buffers to its device; offsets locate each array in its block.
#pragma once

#include <cstddef>
#include <vector>

namespace opsplit::chem {

struct FlatArrays {
  std::vector<int> ints;
  std::vector<double> doubles;
  size_t add(const std::vector<int>& v) {
    const size_t at = ints.size();
    ints.insert(ints.end(), v.begin(), v.end());
    return at;
  }
  size_t add(const std::vector<double>& v) {
    const size_t at = doubles.size();
    doubles.insert(doubles.end(), v.begin(), v.end());
    return at;
  }
  // Never a null base pointer, even for an empty mechanism.
  void close() {
    if (ints.empty()) ints.push_back(0);
    if (doubles.empty()) doubles.push_back(0.0);
  }
};

}  // namespace opsplit::chem
