// How an object picks its capability's table of launchers (docs/ARCHITECTURE.md,
// "Choosing a backend"): once, when it is made, from its context. A table is a struct
// of function pointers, one per operation, filled by the CPU code and by the CUDA code.
#pragma once

#include "core/context.hpp"

namespace opsplit {

// `cpu`, or what `cuda` returns on a CUDA context. `cuda` (a lambda that returns the
// CUDA table by reference: `[]() -> const auto& { ... }`) is called only in a build with CUDA, the only one where a context can be on
// CUDA: without CUDA it is never called, and the CUDA table is never linked.
template <class Table, class CudaTable>
const Table& backend_table(const Context& ctx, const Table& cpu, CudaTable&& cuda) {
#if OPSPLIT_HAVE_CUDA
  if (ctx.is_cuda()) return cuda();
#else
  (void)ctx;
  (void)cuda;
#endif
  return cpu;
}

}  // namespace opsplit
