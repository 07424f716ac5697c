// The CUDA side of ODE batches: one thread per system, the shared integrators
// (integrators.cuh) on a copy of the system in local memory, the mechanism's arrays
// read by every thread alike. neq is bounded at compile time per kernel (mass action
// 8, 16, 32; reactors 16, 32, 64); larger systems (mechanisms of any size, reactors up to
// 512 equations) keep their copies in device memory allocated per call. Rosenbrock
// batches run in rounds of one accepted step per launch, each launch taking only the
// systems still running (run_systems).
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <vector>

#include "common/strided.cuh"
#include "core/buffer.hpp"
#include "core/environment.hpp"
#include "core/progress.hpp"
#include "ode/integrators.cuh"
#include "ode/launch.hpp"
#include "ode/rhs.cuh"

namespace opsplit::ode {
namespace {

// The local-memory mass-action kernels' bounds; a mechanism past any of them runs in
// integrate_large_mass_action_kernel.
constexpr int kMaxLocalEquations = 32;
constexpr int kMaxLocalReactions = 256;
constexpr int kMaxLocalParams = 64;

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
  // Rounds (Rosenbrock; run_systems): pause after pause_after accepted steps, 0 = never.
  int64_t pause_after;
  const int64_t* active;  // this launch's systems (nactive of them), or null: [begin, end)
  int64_t nactive;
  bool resume;  // the active systems were paused: their y, f, t and h are in the round's storage
  double* y_round;  // [eq][sys]
  double* f_round;  // [eq][sys]
  double* t_round;
  double* h_round;
  int64_t* paused;  // where this launch lists the systems it pauses, npaused of them
  unsigned long long* npaused;
};

// 64 threads per block, at least 12 blocks per SM (<= 85 registers): the kernel waits on
// its local memory (each system's stages, Jacobian and factors), and more resident warps
// hide that better than the compiler's extra registers; fewer registers spill more, and
// fewer resident blocks (a capped grid to keep each SM's systems in L1) were slower
// (docs/performance-history.md, "Chemistry ODE batches").
constexpr int kThreads = 64;
constexpr int kMinBlocksPerSm = 12;

// The threads' systems: system s = system_of(a, i) for i < systems_in(a).
__device__ int64_t systems_in(const KernelArgs& a) { return a.active != nullptr ? a.nactive : a.end - a.begin; }
__device__ int64_t system_of(const KernelArgs& a, int64_t i) { return a.active != nullptr ? a.active[i] : a.begin + i; }

// System s's y: at t0, or where its last round paused. V: double* (local memory) or
// Strided<double> (device memory, common/strided.cuh), as in integrate_and_store.
template <class V>
__device__ void load_state(const KernelArgs& a, int64_t s, V y) {
  const double* from = a.resume ? a.y_round : a.state;
  for (int e = 0; e < a.neq; ++e) y[e] = from[e * a.nsys + s];
}

// Integrates system s (y loaded) for this launch and stores what comes out: the final
// state, or a paused system's (appended to a.paused, warp by warp).
template <class Rhs, class V>
__device__ void integrate_and_store(const KernelArgs& a, int64_t s, Rhs& rhs, V y, V work, int* piv) {
  Counts c;
  double t = a.t0, h = a.keep_step && a.h_next[s] > 0.0 ? a.h_next[s] : a.h0;
  if (a.resume) {  // Rosenbrock only
    c = Counts{a.counts[s], a.counts[a.nsys + s], a.counts[2 * a.nsys + s], a.counts[3 * a.nsys + s]};
    for (int e = 0; e < a.neq; ++e) work[e] = a.f_round[e * a.nsys + s];  // f0 of integrate_rosenbrock
    t = a.t_round[s], h = a.h_round[s];
  }
  const Outcome out = integrate_system(a.method, rhs, t, a.t1, y, h, a.settings, work, piv, c, a.pause_after, a.resume);
  a.counts[s] = c.accepted;
  a.counts[a.nsys + s] = c.rejected;
  a.counts[2 * a.nsys + s] = c.rhs;
  a.counts[3 * a.nsys + s] = c.jacobian;
  if (out.result == kPaused) {
    for (int e = 0; e < a.neq; ++e) a.y_round[e * a.nsys + s] = y[e], a.f_round[e * a.nsys + s] = work[e];
    a.t_round[s] = out.t;
    a.h_round[s] = out.h_next;
    cooperative_groups::coalesced_group g = cooperative_groups::coalesced_threads();
    unsigned long long first = 0;
    if (g.thread_rank() == 0) first = atomicAdd(a.npaused, static_cast<unsigned long long>(g.size()));
    a.paused[g.shfl(first, 0) + g.thread_rank()] = s;
    return;
  }
  a.result[s] = out.result;
  if (out.result == kOk) {  // a failed system keeps its state
    for (int e = 0; e < a.neq; ++e) a.state[e * a.nsys + s] = y[e];
    a.h_next[s] = out.h_next;
  }
}

template <int N, bool kFactors>
__global__ void __launch_bounds__(kThreads, kMinBlocksPerSm) integrate_kernel(KernelArgs a, chem::MassAction m) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < systems_in(a); i += stride) {
    const int64_t s = system_of(a, i);
    double y[N], p[kMaxLocalParams], k[kMaxLocalReactions], work[workspace_size(N, dense_matrix_values(N))];
    load_state(a, s, y);
    for (int q = 0; q < a.nparam; ++q) p[q] = a.params[q * a.nsys + s];
    chem::rate_constants(m, p, k);
    MassActionRhsOf<const double*, kFactors> rhs{&m, k, a.neq};
    integrate_and_store(a, s, rhs, y, work, nullptr /* no pivots: a mechanism's LU is sparse */);
  }
}

// A gas reactor per thread: its analytic (or forward-difference) Jacobian, dense pivoted
// LU. GRI-Mech 3.0's 54 equations keep about 76 KB per thread in local memory. Up to
// kMaxLocalReactorEquations the copy is in local memory; above, up to
// kMaxReactorEquationsCuda, in device memory of the call's own (device_copies):
// a 100-species reactor needs 181 KB a thread, and local memory is reserved for every
// thread the device can hold (2048 per SM: 49 GB of an H100).
constexpr int kMaxLocalReactorEquations = 64;
constexpr int kMaxReactorEquationsCuda = 512;

// The systems of one launch, a thread each.
template <int N>
__device__ __forceinline__ void integrate_reactors(const KernelArgs& a, const chem::GasKinetics& g, int kind,
                                                   bool analytic) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < systems_in(a); i += stride) {
    const int64_t s = system_of(a, i);
    double y[N], p[2], scratch[chem::reactor_scratch_size(N)], work[workspace_size(N, dense_matrix_values(N))];
    int piv[N];
    load_state(a, s, y);
    for (int q = 0; q < chem::reactor_parameters(kind); ++q) p[q] = a.params[q * a.nsys + s];
    GasReactorRhs rhs{&g, kind, p, scratch, a.neq, analytic};
    integrate_and_store(a, s, rhs, y, work, piv);
  }
}

template <int N>
__global__ void __launch_bounds__(kThreads) integrate_reactor_kernel(KernelArgs a, chem::GasKinetics g, int kind,
                                                                     bool analytic) {
  integrate_reactors<N>(a, g, kind, analytic);
}

// Up to 16 equations with at least 10 blocks per SM (<= 96 registers): the compiler's 168
// registers left 12 warps per SM waiting on local memory; the bound is faster, with the
// same results. The larger kernels keep the compiler's choice: even a bound of one block
// per SM, which should change nothing, made GRI-Mech slower (docs/performance-history.md,
// "Gas reactors near ignition").
__global__ void __launch_bounds__(kThreads, 10) integrate_small_reactor_kernel(KernelArgs a, chem::GasKinetics g,
                                                                               int kind, bool analytic) {
  integrate_reactors<16>(a, g, kind, analytic);
}

// Each thread's copy of a large system in device memory: its doubles and its pivots
// (none for a mechanism, whose LU is sparse). A reactor's doubles (y, parameters,
// scratch, the integrator's workspace; padded to 128 bytes) are contiguous, thread
// after thread; a mechanism's (y, rate constants, workspace) are interleaved, element
// i of thread t at doubles[i * blocks * kThreads + t].
struct DeviceCopies {
  double* doubles;
  int* pivots;
  int64_t doubles_per_thread;
  int pivots_per_thread;
  unsigned blocks;  // the most blocks of kThreads it holds
};

OPSPLIT_HD constexpr int64_t padded(int64_t doubles) { return (doubles + 15) / 16 * 16; }

// A type of its own so that integrate_and_store (a function the compiler keeps out of
// line) has separate instances for copies in device memory: with one instance for
// both, the local-memory kernels' loads and stores became generic ones (PTX
// ld/st instead of ld.local/st.local). (The mechanisms' device-memory copies are
// Strided views, types of their own already.)
struct DeviceMemoryReactorRhs : GasReactorRhs {};

// The launch's grid is no larger than the memory: thread t works on its own copy.
// (The memory is a parameter of its own rather than a member of KernelArgs, which every
// kernel copies.)
__global__ void __launch_bounds__(kThreads) integrate_large_reactor_kernel(KernelArgs a, chem::GasKinetics g,
                                                                           int kind, bool analytic,
                                                                           DeviceCopies m) {
  const int64_t thread = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  double* y = m.doubles + thread * m.doubles_per_thread;
  double* p = y + a.neq;
  double* scratch = p + 2;
  double* work = scratch + chem::reactor_scratch_size(a.neq);
  int* piv = m.pivots + thread * m.pivots_per_thread;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = thread; i < systems_in(a); i += stride) {
    const int64_t s = system_of(a, i);
    load_state(a, s, y);
    for (int q = 0; q < chem::reactor_parameters(kind); ++q) p[q] = a.params[q * a.nsys + s];
    DeviceMemoryReactorRhs rhs{{&g, kind, p, scratch, a.neq, analytic}};
    integrate_and_store(a, s, rhs, y, work, piv);
  }
}

OPSPLIT_HD constexpr int64_t large_reactor_doubles(int neq) {
  return padded(neq + 2 + chem::reactor_scratch_size(neq) + workspace_size(neq, dense_matrix_values(neq)));
}

// At least 16 blocks of 64 per SM (<= 64 registers): the kernel waits on device memory,
// and more resident warps hide it. On an H200 (carbon_bond_5 at 10^6 cells, TS1 and the
// MCM subset at 10^5) 16 took 4.59, 13.2 and 170 us a cell; the compiler's choice
// (128 registers) 9.68, 22.1 and 240; 8, 12, 20, 24 and 32 blocks were slower than 16
// (docs/performance-history.md, "Atmospheric chemistry").
constexpr int kLargeMinBlocksPerSm = 16;

// A mechanism past the local-memory kernels' bounds (600 species, 2000 reactions, 512
// parameters: 160 KB a thread): each thread's y, rate constants and workspace in device
// memory, interleaved with the other threads' (common/strided.cuh), its matrices on the
// mechanism's sparse pattern; the rate constants read the parameters where they are
// (parameter q of system s at q * nsys + s: interleaved too).
template <bool kFactors>
__global__ void __launch_bounds__(kThreads, kLargeMinBlocksPerSm)
    integrate_large_mass_action_kernel(KernelArgs a, chem::MassAction mech, DeviceCopies m) {
  const int64_t thread = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const Strided<double> y{m.doubles + thread, static_cast<int64_t>(m.blocks) * kThreads};
  const Strided<double> k = y + a.neq;
  const Strided<double> work = k + mech.nreactions;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = thread; i < systems_in(a); i += stride) {
    const int64_t s = system_of(a, i);
    load_state(a, s, y);
    chem::rate_constants(mech, Strided<const double>{a.params + s, a.nsys}, k);
    MassActionRhsOf<Strided<double>, kFactors> rhs{&mech, k, a.neq};
    integrate_and_store(a, s, rhs, y, work, nullptr);
  }
}

OPSPLIT_HD constexpr int64_t large_mass_action_doubles(int neq, int nreactions, int nnz) {
  return neq + nreactions + workspace_size(neq, nnz);
}

bool fits_local_memory(const Batch& b) {
  return b.gas ? b.neq <= kMaxLocalReactorEquations
               : b.neq <= kMaxLocalEquations && b.nreactions <= kMaxLocalReactions && b.nparam <= kMaxLocalParams;
}

// One system per thread; beyond the grid's 2^31 - 1 blocks the threads loop.
unsigned blocks_for(const KernelArgs& a) {
  const int64_t systems = a.active != nullptr ? a.nactive : a.end - a.begin;
  return static_cast<unsigned>(std::min<int64_t>((systems + kThreads - 1) / kThreads, 0x7fffffff));
}

// The kernel compiled for the smallest bound that holds neq.
const void* kernel_for(const Batch& b) {
  if (b.gas) {
    if (b.neq <= 16) return reinterpret_cast<const void*>(integrate_small_reactor_kernel);
    if (b.neq <= 32) return reinterpret_cast<const void*>(integrate_reactor_kernel<32>);
    if (b.neq <= kMaxLocalReactorEquations) return reinterpret_cast<const void*>(integrate_reactor_kernel<64>);
    return reinterpret_cast<const void*>(integrate_large_reactor_kernel);
  }
  // A network with saturation factors has kernels of its own (rhs.cuh): the local one
  // for 32 equations serves every smaller one too, which keeps the build's time.
  const bool factors = b.mechanism.nfactors > 0;
  if (!fits_local_memory(b))
    return factors ? reinterpret_cast<const void*>(integrate_large_mass_action_kernel<true>)
                   : reinterpret_cast<const void*>(integrate_large_mass_action_kernel<false>);
  if (factors) return reinterpret_cast<const void*>(integrate_kernel<32, true>);
  if (b.neq <= 8) return reinterpret_cast<const void*>(integrate_kernel<8, false>);
  if (b.neq <= 16) return reinterpret_cast<const void*>(integrate_kernel<16, false>);
  return reinterpret_cast<const void*>(integrate_kernel<32, false>);
}

// large: the threads' copies of a large system, null for the local-memory kernels.
void launch_kernel(Context& ctx, KernelArgs a, const Batch& b, const DeviceCopies* large) {
  chem::GasKinetics gas = b.gas_kinetics;
  chem::MassAction mechanism = b.mechanism;
  int kind = b.reactor_kind;
  bool analytic = b.analytic_jacobian;
  DeviceCopies memory = large != nullptr ? *large : DeviceCopies{};
  void* reactor_args[] = {&a, &gas, &kind, &analytic, &memory};
  void* mass_action_args[] = {&a, &mechanism, &memory};  // the local kernels take the first two
  const unsigned blocks = large != nullptr ? std::min(blocks_for(a), large->blocks) : blocks_for(a);
  cudaLaunchKernel(kernel_for(b), blocks, kThreads, b.gas ? reactor_args : mass_action_args, 0,
                   static_cast<cudaStream_t>(ctx.device().stream()));
  cuda::check_launch(b.gas ? "integrate_reactor_kernel" : "integrate_kernel");
}

// Rounds. A warp runs until the last of its 32 systems is done, and near ignition some
// systems need several times the steps of the rest, so most lanes idle. In rounds, every
// system still running takes one accepted step per launch and is paused
// (integrate_rosenbrock: pausing changes no step), and the next launch packs the
// unfinished ones 32 to a warp again. One accepted step a round was the fastest of 1, 2,
// 4 and 8. After kOneStepRounds rounds each round is twice as long as the last: a long
// integration takes a few more launches, not one per step. A batch of a few warps per SM
// waits on memory rather than on its slowest lanes, and there a relaunch costs more than
// packing saves, so in auto mode a batch under kRoundWarpsPerSm warps per SM runs in one
// launch (GRI-Mech's slow steps hide a relaunch even in small batches). Once rounds start
// they go on to the last system: finishing the last third in one launch was slower
// (docs/performance-history.md, "Gas reactors near ignition", rounds).
constexpr int kOneStepRounds = 64;
constexpr int64_t kRoundWarpsPerSm = 4;

// Whether a batch of this many systems runs in rounds.
bool use_rounds(const Context& ctx, environment::Rounds mode, void* round_storage, int64_t systems) {
  if (round_storage == nullptr) return false;
  if (mode == environment::Rounds::kAlways) return true;
  return systems >= kRoundWarpsPerSm * 32 * static_cast<int64_t>(ctx.device().multiprocessors());
}

void run_systems(Context& ctx, KernelArgs a, const Batch& b, environment::Rounds mode, void* round_storage,
                 const DeviceCopies* large) {
  a.pause_after = 0, a.active = nullptr, a.resume = false;
  if (!use_rounds(ctx, mode, round_storage, a.end - a.begin)) {
    launch_kernel(ctx, a, b, large);
    return;
  }
  const cuda::Device& dev = ctx.device();
  const RoundStorage storage(round_storage, b.neq, b.nsys);
  a.y_round = storage.y, a.f_round = storage.f, a.t_round = storage.t, a.h_round = storage.h;
  a.npaused = storage.count;
  for (int round = 0;; ++round) {
    a.pause_after = round < kOneStepRounds ? 1 : int64_t(1) << std::min(round - kOneStepRounds + 1, 40);
    a.paused = storage.lists[round % 2];
    dev.zero(a.npaused, sizeof(unsigned long long));
    launch_kernel(ctx, a, b, large);
    unsigned long long npaused = 0;
    dev.copy_to_host(&npaused, a.npaused, sizeof npaused);
    if (npaused == 0) return;
    a.active = a.paused, a.nactive = static_cast<int64_t>(npaused), a.resume = true;
  }
}

// Where Rosenbrock's rounds keep paused systems (RoundStorage), in the batch's buffer,
// made by the first call that needs it and kept. Where the device cannot hold it the
// systems run in one launch instead (the same results, slower near ignition): null.
void* round_storage(Context& ctx, const Batch& b, environment::Rounds mode) {
  if (!is_rosenbrock(b.method) || mode == environment::Rounds::kOff) return nullptr;
  if (b.round_storage->empty()) {
    try {
      *b.round_storage = Buffer(ctx, RoundStorage::bytes(b.neq, b.nsys));
    } catch (const Error& e) {
      if (e.status() != OPSPLIT_ERROR_OUT_OF_MEMORY) throw;
      return nullptr;
    }
  }
  return b.round_storage->data();
}

// The threads' copies of a large system: for as many blocks as the device runs at once
// (more would only wait) and the batch fills, within half the device memory now free
// (the rest is the host's). Throws OUT_OF_MEMORY when not one block fits.
DeviceCopies device_copies(Context& ctx, const Batch& b, Buffer& storage) {
  const void* kernel = kernel_for(b);
  const char* name = b.gas ? "integrate_large_reactor_kernel" : "integrate_large_mass_action_kernel";
  const cuda::Device& dev = ctx.device();
  const int sms = dev.multiprocessors();
  int blocks_per_sm = 0;
  size_t free_bytes = 0, total_bytes = 0;
  if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel, kThreads, 0) != cudaSuccess ||
      cudaMemGetInfo(&free_bytes, &total_bytes) != cudaSuccess) {
    const cudaError_t error = cudaGetLastError();
    fail(OPSPLIT_ERROR_DEVICE, std::string("sizing ") + name + "'s memory: " + cudaGetErrorString(error));
  }
  DeviceCopies m{};
  m.doubles_per_thread = b.gas ? large_reactor_doubles(b.neq)
                               : large_mass_action_doubles(b.neq, b.nreactions, b.mechanism.lu.nnz);
  m.pivots_per_thread = b.gas ? b.neq : 0;
  const size_t block_bytes = kThreads * (static_cast<size_t>(m.doubles_per_thread) * sizeof(double) +
                                         static_cast<size_t>(m.pivots_per_thread) * sizeof(int));
  const int64_t needed = (b.nsys + kThreads - 1) / kThreads;
  const int64_t blocks = std::min<int64_t>({static_cast<int64_t>(sms) * std::max(blocks_per_sm, 1), needed,
                                            static_cast<int64_t>(free_bytes / 2 / block_bytes)});
  if (blocks < 1)
    fail(OPSPLIT_ERROR_OUT_OF_MEMORY, std::string(name) + " needs " + std::to_string(block_bytes) +
                                          " bytes of device memory for a block of " + std::to_string(kThreads) +
                                          " systems of " + std::to_string(b.neq) + " equations, twice that free; " +
                                          std::to_string(free_bytes) + " are free");
  storage = Buffer(ctx, static_cast<size_t>(blocks) * block_bytes);
  m.doubles = storage.as<double>();
  m.pivots = reinterpret_cast<int*>(m.doubles + blocks * kThreads * m.doubles_per_thread);
  m.blocks = static_cast<unsigned>(blocks);
  return m;
}

void check_reactor_cuda(int neq) {
  if (neq > kMaxReactorEquationsCuda)
    fail(OPSPLIT_ERROR_UNSUPPORTED, "the reactor has " + std::to_string(neq) + " equations, more than the CUDA "
                                        "reactor kernel's " + std::to_string(kMaxReactorEquationsCuda) +
                                        "; use a CPU context");
}

void integrate_cuda(Context& ctx, const Batch& b, double t0, double t1, const Progress& progress) {
  if (b.gas) check_reactor_cuda(b.neq);
  const cuda::LocalMemoryRelease release;  // the kernels' local memory goes back when the call ends
  const cuda::Device& dev = ctx.device();
  // Rounds: where they pay, never or always, as OPSPLIT_ODE_CUDA_ROUNDS says (run_systems).
  const environment::Rounds mode = environment::ode_cuda_rounds();
  void* rounds = round_storage(ctx, b, mode);  // first: the large kernels' copies size themselves on what is left
  KernelArgs a{};
  a.neq = b.neq, a.nparam = b.nparam, a.method = b.method, a.nsys = b.nsys;
  a.t0 = t0, a.t1 = t1, a.h0 = b.h0, a.keep_step = b.keep_step;
  a.settings.rtol = b.rtol;
  a.settings.atol = b.atol;
  a.settings.max_steps = b.max_steps;
  a.settings.clip_negative = b.clip_negative;
  a.state = b.state, a.params = b.params, a.h_next = b.h_next;
  a.result = b.result, a.counts = b.counts;
  Buffer large_storage;
  DeviceCopies large{};
  const bool is_large = !fits_local_memory(b);
  if (is_large) large = device_copies(ctx, b, large_storage);
  // With a progress callback the systems go in chunks.
  auto work = [&](int64_t begin, int64_t end) {
    a.begin = begin, a.end = end;
    run_systems(ctx, a, b, mode, rounds, is_large ? &large : nullptr);
    return end;
  };
  progress.run(b.nsys, 20, work, [&](int64_t) { dev.synchronize(); }, systems_done(b.nsys));
}

constexpr int kTile = 32;  // transpose: 32 x 32 doubles through shared memory, rows 8 threads deep

__global__ void transpose_kernel(const double* __restrict__ from, int64_t rows, int64_t cols, double* __restrict__ to) {
  __shared__ double tile[kTile][kTile + 1];  // +1: the column reads fall in distinct banks
  const int64_t tiles_across = (cols + kTile - 1) / kTile, tiles = tiles_across * ((rows + kTile - 1) / kTile);
  for (int64_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const int64_t r0 = t / tiles_across * kTile, c0 = t % tiles_across * kTile;
    for (int i = static_cast<int>(threadIdx.y); i < kTile; i += static_cast<int>(blockDim.y)) {
      const int64_t r = r0 + i, c = c0 + threadIdx.x;
      if (r < rows && c < cols) tile[i][threadIdx.x] = from[r * cols + c];
    }
    __syncthreads();
    for (int i = static_cast<int>(threadIdx.y); i < kTile; i += static_cast<int>(blockDim.y)) {
      const int64_t c = c0 + i, r = r0 + threadIdx.x;
      if (r < rows && c < cols) to[c * rows + r] = tile[threadIdx.x][i];
    }
    __syncthreads();
  }
}

void transpose_cuda(const Context& ctx, const double* from, int64_t rows, int64_t cols, double* to) {
  const int64_t tiles = ((rows + kTile - 1) / kTile) * ((cols + kTile - 1) / kTile);
  const auto blocks = static_cast<unsigned>(std::min<int64_t>(tiles, int64_t(1) << 20));
  transpose_kernel<<<blocks, dim3(kTile, 8), 0, static_cast<cudaStream_t>(ctx.device().stream())>>>(from, rows, cols,
                                                                                                   to);
  cuda::check_launch("transpose_kernel");
}

__global__ void start_failure_count_kernel(int64_t nsys, int64_t* summary) { summary[0] = 0, summary[1] = nsys; }

__global__ void count_failures_kernel(const int* __restrict__ result, int64_t nsys, int64_t* summary) {
  for (int64_t s = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; s < nsys; s += int64_t(gridDim.x) * blockDim.x)
    if (result[s] != kOk) {  // rare: one atomic pair per failed system
      atomicAdd(reinterpret_cast<unsigned long long*>(summary), 1ull);
      atomicMin(reinterpret_cast<long long*>(summary + 1), static_cast<long long>(s));
    }
}

__global__ void finish_failure_count_kernel(int64_t nsys, int64_t* summary) {
  if (summary[1] == nsys) summary[1] = -1;
}

void count_failures_cuda(const Context& ctx, const int* result, int64_t nsys, int64_t* summary) {
  const auto stream = static_cast<cudaStream_t>(ctx.device().stream());
  start_failure_count_kernel<<<1, 1, 0, stream>>>(nsys, summary);
  cuda::check_launch("start_failure_count_kernel");
  const auto blocks = static_cast<unsigned>(std::min<int64_t>((nsys + 255) / 256, 4096));
  count_failures_kernel<<<blocks, 256, 0, stream>>>(result, nsys, summary);
  cuda::check_launch("count_failures_kernel");
  finish_failure_count_kernel<<<1, 1, 0, stream>>>(nsys, summary);
  cuda::check_launch("finish_failure_count_kernel");
}

}  // namespace

const Launchers& cuda_launchers() {
  static const Launchers table{integrate_cuda, check_reactor_cuda, false, transpose_cuda, count_failures_cuda};
  return table;
}

}  // namespace opsplit::ode
