// The CUDA side of SCIARA-fv2 grids (kernels/ca/sciara_cuda.cu), declared for host code.
#pragma once

#include "ca/sciara.hpp"
#include "core/context.hpp"
#include "core/error.hpp"

namespace opsplit::ca {

// Steps between read-backs of the box the device grows (the region meanwhile grows by
// a cell a step, lava's most).
constexpr int64_t kLavaBoxReadEvery = 16;

#if OPSPLIT_HAVE_CUDA
// One step on the context's stream: emission, outflows and balance over `region`; the
// balance takes every cell outside `known` that holds lava after into device_box
// (r0, r1, c0, c1).
void lava_step_cuda(Context& ctx, const LavaGridView& g, const LavaEmission& emission, const LavaBox& region,
                    const LavaBox& known, const LavaConstants& k, long long* device_box);
#else
inline void lava_step_cuda(Context&, const LavaGridView&, const LavaEmission&, const LavaBox&, const LavaBox&,
                           const LavaConstants&, long long*) {
  fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "opsplit was built without CUDA");
}
#endif

}  // namespace opsplit::ca
