// The first non-finite value of a call: kernels that write a field record where they
// first wrote NaN or Inf as one 64-bit key, (step << 40) | (the cell's position in
// the host PLANAR layout), lowered with an integer atomic minimum (deterministic).
// A launch whose key already names an earlier step does nothing: the two buffers then
// still hold the state before and after the failing step.
#pragma once

#include <cstdint>

#include "common/hd.cuh"

namespace opsplit::field {

constexpr unsigned long long kHealthy = ~0ULL;
constexpr int kHealthStepShift = 40;
constexpr unsigned long long kHealthPositionMask = (1ULL << kHealthStepShift) - 1;

struct Health {
  unsigned long long* first_bad;  // on the context's backend; kHealthy when none yet
  unsigned long long step;        // the step (from 0) of this launch
  // A launch over a part of the field (rd.cpp's views, which overlap a distributed
  // field's exchange): the field's cell counts and where the part's cell (0, 0, 0) sits
  // in it; field_n[0] == 0: the launch's grid is the field.
  int64_t field_n[3] = {0, 0, 0};
  int64_t origin[3] = {0, 0, 0};
};

// The key of a bad value: positions past 2^40 - 1 are clamped to it ("unknown cell").
OPSPLIT_HD unsigned long long health_key(unsigned long long step, int64_t position) {
  const unsigned long long p = static_cast<unsigned long long>(position);
  return (step << kHealthStepShift) | (p < kHealthPositionMask ? p : kHealthPositionMask);
}

// True when an earlier step of the call already failed: the launch must not write.
OPSPLIT_HD bool failed_before(const Health& h) { return *h.first_bad < (h.step << kHealthStepShift); }

// Position in the host PLANAR layout of cell (i, j, k) of component c.
OPSPLIT_HD int64_t planar_position(const int64_t n[3], int c, int64_t i, int64_t j, int64_t k) {
  return ((c * n[2] + k) * n[1] + j) * n[0] + i;
}

// The position of the launch grid's cell (i, j, k) of component c in the field.
OPSPLIT_HD int64_t bad_position(const Health& h, const int64_t grid_n[3], int c, int64_t i, int64_t j, int64_t k) {
  if (h.field_n[0] == 0) return planar_position(grid_n, c, i, j, k);
  return planar_position(h.field_n, c, i + h.origin[0], j + h.origin[1], k + h.origin[2]);
}

}  // namespace opsplit::field
