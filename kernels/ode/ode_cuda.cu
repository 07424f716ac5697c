// The CUDA side of ODE batches: one thread per system, the shared integrators
// (integrators.cuh) on a copy of the system in local memory, the mechanism's arrays
// read by every thread alike. neq is bounded at compile time per kernel (mass action
// 8, 16, 32; reactors 16, 32, 64).
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/buffer.hpp"
#include "ode/integrators.cuh"
#include "ode/launch.hpp"
#include "ode/rhs.cuh"

namespace opsplit::ode {
namespace {

constexpr int kMaxEquationsCuda = 32;
constexpr int kMaxReactionsCuda = 256;
constexpr int kMaxParamsCuda = 64;

struct KernelArgs {
  int neq, nparam, method;
  int64_t nsys, begin, end;  // systems [begin, end) in this launch
  double t0, t1, h0;
  bool keep_step;
  Settings settings;  // atol on the device
  double* state;
  const double* params;
  double* h_next;
  int* result;
  int64_t* counts;  // [4][sys]: accepted, rejected, rhs, jacobian
};

// 64 threads per block, at least 12 blocks per SM (<= 85 registers): the kernel waits on
// its local memory (each system's stages, Jacobian and factors), and on an H100 POLLU ran
// 12 % faster than with the compiler's 96 registers (1.43 vs 1.63 us per cell); fewer
// registers (16-32 blocks) spilled more and lost again, and fewer resident blocks (a
// capped grid to keep each SM's systems in L1) were up to 2x slower (2026-11-22).
constexpr int kThreads = 64;
constexpr int kMinBlocksPerSm = 12;

template <int N>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) integrate_kernel(KernelArgs a, chem::MassAction m) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t s = a.begin + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < a.end; s += stride) {
    double y[N], p[kMaxParamsCuda], k[kMaxReactionsCuda], work[workspace_size(N)];
    for (int e = 0; e < a.neq; ++e) y[e] = a.state[e * a.nsys + s];
    for (int q = 0; q < a.nparam; ++q) p[q] = a.params[q * a.nsys + s];
    chem::rate_constants(m, p, k);
    MassActionRhs rhs{&m, k, a.neq};
    Counts c;
    const double h = a.keep_step && a.h_next[s] > 0.0 ? a.h_next[s] : a.h0;
    const Outcome out = integrate_system(a.method, rhs, a.t0, a.t1, y, h, a.settings, work,
                                         nullptr /* no pivots: a mechanism's LU is sparse */, c);
    a.result[s] = out.result;
    a.counts[s] = c.accepted;
    a.counts[a.nsys + s] = c.rejected;
    a.counts[2 * a.nsys + s] = c.rhs;
    a.counts[3 * a.nsys + s] = c.jacobian;
    if (out.result == kOk) {  // a failed system keeps its state
      for (int e = 0; e < a.neq; ++e) a.state[e * a.nsys + s] = y[e];
      a.h_next[s] = out.h_next;
    }
  }
}

// A gas reactor per thread: its analytic (or forward-difference) Jacobian, dense pivoted
// LU. GRI-Mech 3.0's 54 equations keep about 76 KB per thread in local memory.
constexpr int kMaxReactorEquationsCuda = 64;

template <int N>
__global__ void __launch_bounds__(kThreads) integrate_reactor_kernel(KernelArgs a, chem::GasKinetics g, int kind,
                                                                     bool analytic) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t s = a.begin + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < a.end; s += stride) {
    double y[N], p[2], scratch[chem::reactor_scratch_size(N)], work[workspace_size(N)];
    int piv[N];
    for (int e = 0; e < a.neq; ++e) y[e] = a.state[e * a.nsys + s];
    for (int q = 0; q < chem::reactor_parameters(kind); ++q) p[q] = a.params[q * a.nsys + s];
    GasReactorRhs rhs{&g, kind, p, scratch, a.neq, analytic};
    Counts c;
    const double h = a.keep_step && a.h_next[s] > 0.0 ? a.h_next[s] : a.h0;
    const Outcome out = integrate_system(a.method, rhs, a.t0, a.t1, y, h, a.settings, work, piv, c);
    a.result[s] = out.result;
    a.counts[s] = c.accepted;
    a.counts[a.nsys + s] = c.rejected;
    a.counts[2 * a.nsys + s] = c.rhs;
    a.counts[3 * a.nsys + s] = c.jacobian;
    if (out.result == kOk) {
      for (int e = 0; e < a.neq; ++e) a.state[e * a.nsys + s] = y[e];
      a.h_next[s] = out.h_next;
    }
  }
}

// One system per thread; beyond the grid's 2^31 - 1 blocks the threads loop.
unsigned blocks_for(const KernelArgs& a) {
  return static_cast<unsigned>(std::min<int64_t>((a.end - a.begin + kThreads - 1) / kThreads, 0x7fffffff));
}

template <int N>
void launch_mass_action(Context& ctx, const KernelArgs& a, const CudaBatch& b) {
  const auto stream = static_cast<cudaStream_t>(ctx.device().stream());
  integrate_kernel<N><<<blocks_for(a), kThreads, 0, stream>>>(a, b.mechanism);
  cuda::check_launch("integrate_kernel");
}

template <int N>
void launch_reactor(Context& ctx, const KernelArgs& a, const CudaBatch& b) {
  const auto stream = static_cast<cudaStream_t>(ctx.device().stream());
  integrate_reactor_kernel<N>
      <<<blocks_for(a), kThreads, 0, stream>>>(a, b.gas_kinetics, b.reactor_kind, b.analytic_jacobian);
  cuda::check_launch("integrate_reactor_kernel");
}

// The kernel compiled for the smallest bound that holds neq.
void launch(Context& ctx, const KernelArgs& a, const CudaBatch& b) {
  if (b.gas) {
    if (b.neq <= 16)
      launch_reactor<16>(ctx, a, b);
    else if (b.neq <= 32)
      launch_reactor<32>(ctx, a, b);
    else
      launch_reactor<64>(ctx, a, b);
  } else if (b.neq <= 8) {
    launch_mass_action<8>(ctx, a, b);
  } else if (b.neq <= 16) {
    launch_mass_action<16>(ctx, a, b);
  } else {
    launch_mass_action<32>(ctx, a, b);
  }
}

}  // namespace

void check_cuda_batch_support(int neq, int nparam) {
  const int most = std::max(kMaxEquationsCuda, kMaxReactorEquationsCuda);
  if (neq > most)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "neq=" + std::to_string(neq) + " is more than the CUDA kernels' " +
                                        std::to_string(most) + " equations; use a CPU context");
  if (nparam > kMaxParamsCuda)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "nparam=" + std::to_string(nparam) + " is more than the CUDA kernels' " +
                                        std::to_string(kMaxParamsCuda) + " parameters; use a CPU context");
}

void check_cuda_support(int neq, int nreactions, int nparam) {
  if (neq > kMaxEquationsCuda)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "neq=" + std::to_string(neq) + " is more than the CUDA kernels' " +
                                        std::to_string(kMaxEquationsCuda) + " equations; use a CPU context");
  if (nreactions > kMaxReactionsCuda)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "the mechanism has " + std::to_string(nreactions) +
                                        " reactions, more than the CUDA kernels' " +
                                        std::to_string(kMaxReactionsCuda) + "; use a CPU context");
  if (nparam > kMaxParamsCuda)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "nparam=" + std::to_string(nparam) + " is more than the CUDA kernels' " +
                                        std::to_string(kMaxParamsCuda) + " parameters; use a CPU context");
}

void check_cuda_reactor_support(int neq) {
  if (neq > kMaxReactorEquationsCuda)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "the reactor has " + std::to_string(neq) + " equations, more than the CUDA "
                                        "reactor kernel's " + std::to_string(kMaxReactorEquationsCuda) +
                                        " in this version; use a CPU context");
}

void integrate_cuda(Context& ctx, const CudaBatch& b, double t0, double t1, const ResultArrays& results) {
  if (b.gas)
    check_cuda_reactor_support(b.neq);
  else
    check_cuda_support(b.neq, b.nreactions, b.nparam);
  const cuda::Device& dev = ctx.device();
  const auto nsys = static_cast<size_t>(b.nsys);
  // With a progress callback the systems go in chunks, and a cancelled call puts
  // back the states (and kept steps) it had changed.
  const bool chunked = ctx.has_progress();
  Buffer saved_state, saved_steps;
  if (chunked) {
    saved_state = Buffer(ctx, nsys * static_cast<size_t>(b.neq) * sizeof(double));
    saved_steps = Buffer(ctx, nsys * sizeof(double));
    dev.copy_on_device(saved_state.data(), b.state, saved_state.bytes());
    dev.copy_on_device(saved_steps.data(), b.h_next, saved_steps.bytes());
  }
  KernelArgs a{};
  a.neq = b.neq, a.nparam = b.nparam, a.method = b.method, a.nsys = b.nsys;
  a.t0 = t0, a.t1 = t1, a.h0 = b.h0, a.keep_step = b.keep_step;
  a.settings.rtol = b.rtol;
  a.settings.atol = b.atol;
  a.settings.max_steps = b.max_steps;
  a.settings.clip_negative = b.clip_negative;
  a.state = b.state, a.params = b.params, a.h_next = b.h_next;
  a.result = b.result, a.counts = b.counts;
  const int64_t nchunks = chunked ? std::min<int64_t>(b.nsys, 20) : 1;
  const int64_t chunk = (b.nsys + nchunks - 1) / nchunks;
  for (a.begin = 0; a.begin < b.nsys; a.begin += chunk) {
    a.end = std::min(b.nsys, a.begin + chunk);
    launch(ctx, a, b);
    if (chunked) {
      dev.synchronize();
      if (ctx.report_progress(static_cast<double>(a.end) / static_cast<double>(b.nsys), "opsplit_ode_integrate")) {
        dev.copy_on_device(b.state, saved_state.data(), saved_state.bytes());
        dev.copy_on_device(b.h_next, saved_steps.data(), saved_steps.bytes());
        dev.synchronize();
        fail(OPSPLIT_ERROR_CANCELLED, "cancelled by the progress callback after " + std::to_string(a.end) + " of " +
                                          std::to_string(b.nsys) + " systems; every state is at t0");
      }
    }
  }
  std::vector<int64_t> host_counts(4 * nsys);
  dev.copy_to_host(results.result, b.result, nsys * sizeof(int));
  dev.copy_to_host(host_counts.data(), b.counts, host_counts.size() * sizeof(int64_t));
  std::copy_n(host_counts.begin(), nsys, results.accepted);
  std::copy_n(host_counts.begin() + static_cast<std::ptrdiff_t>(nsys), nsys, results.rejected);
  std::copy_n(host_counts.begin() + static_cast<std::ptrdiff_t>(2 * nsys), nsys, results.rhs);
  std::copy_n(host_counts.begin() + static_cast<std::ptrdiff_t>(3 * nsys), nsys, results.jacobian);
}

}  // namespace opsplit::ode
