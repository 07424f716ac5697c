// The CUDA side of SCIARA-fv2 grids: one cooperative launch runs several steps, its
// threads striding over the cells of each step's region, with a grid-wide barrier
// between the phases (a step of the Etna flow is a few microseconds of work: separate
// launches per phase cost more than the work). The per-cell numerics are the CPU's
// (sciara.cuh); compiled with -fmad=false (src/CMakeLists.txt) for the CPU's bits.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <string>

#include "ca/sciara_cuda.hpp"

namespace opsplit::ca {
namespace {

namespace cg = cooperative_groups;
constexpr int kThreads = 256;

void check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // not left behind for the next launch's check
  fail(err == cudaErrorMemoryAllocation ? OPSPLIT_ERROR_OUT_OF_MEMORY : OPSPLIT_ERROR_DEVICE,
       std::string(what) + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

__device__ bool inside(const LavaBox& b, int64_t r, int64_t c) { return r >= b.r0 && r <= b.r1 && c >= b.c0 && c <= b.c1; }

// Steps first_step .. first_step + nsteps - 1. Each step reads the box (every cell that
// has held lava, and the vents), computes the cells of the box grown by one (or every
// cell), and grows the box by the cells outside it that hold lava after, by integer
// minima and maxima (the same in any order). The first step's emission comes before
// its barrier; each later step's is added by the vent cell's own thread right after
// that cell's balance (the operations and the order of the CPU, which emits at the
// step's start).
__global__ void __launch_bounds__(kThreads)
    lava_steps_kernel(LavaGridView g, LavaVents vents, LavaBox vent_box, int64_t first_step, int nsteps,
                      bool all_cells, LavaConstants k, long long* box) {
  cg::grid_group grid = cg::this_grid();
  const unsigned first = blockIdx.x * blockDim.x + threadIdx.x, stride = gridDim.x * blockDim.x;
  if (first == 0)
    for (int v = 0; v < vents.count; ++v) {
      bool seen = false;  // each vent cell once: lava_emit_cell takes all its vents
      for (int u = 0; u < v; ++u) seen = seen || vents.vents[u].cell == vents.vents[v].cell;
      if (!seen) lava_emit_cell(g, vents, first_step, vents.vents[v].cell);
    }
  grid.sync();
  for (int s = 0; s < nsteps; ++s) {
    const LavaBox lava{box[0], box[1], box[2], box[3]};  // stable: only the balance phase grows it
    if (lava.r1 < lava.r0) {
      grid.sync();  // nothing to compute, but no thread may read the box while another grows it
      continue;
    }
    const LavaBox region = all_cells ? LavaBox{0, g.rows - 1, 0, g.cols - 1}
                                     : LavaBox{max(lava.r0 - 1, int64_t(0)), min(lava.r1 + 1, g.rows - 1),
                                               max(lava.c0 - 1, int64_t(0)), min(lava.c1 + 1, g.cols - 1)};
    // 32-bit cell numbers (a lava grid has at most 2^31 cells): 64-bit division is slow.
    const unsigned width = unsigned(region.c1 - region.c0 + 1), cells = unsigned(region.r1 - region.r0 + 1) * width;
    for (unsigned i = first; i < cells; i += stride) lava_cell_flows(g, region.r0 + i / width, region.c0 + i % width, k);
    grid.sync();
    unsigned rmin = 0xffffffffu, rmax = 0, cmin = 0xffffffffu, cmax = 0;
    for (unsigned i = first; i < cells; i += stride) {
      const int64_t r = region.r0 + i / width, c = region.c0 + i % width;
      if (lava_cell_balance(g, r, c, k) && !inside(lava, r, c)) {
        rmin = min(rmin, unsigned(r)), rmax = max(rmax, unsigned(r));
        cmin = min(cmin, unsigned(c)), cmax = max(cmax, unsigned(c));
      }
      if (s + 1 < nsteps && inside(vent_box, r, c)) lava_emit_cell(g, vents, first_step + s + 1, r * g.cols + c);
    }
    // A warp reduces first: one atomic per warp that found new lava.
    rmin = __reduce_min_sync(0xffffffffu, rmin), rmax = __reduce_max_sync(0xffffffffu, rmax);
    cmin = __reduce_min_sync(0xffffffffu, cmin), cmax = __reduce_max_sync(0xffffffffu, cmax);
    if (threadIdx.x % 32 == 0 && rmin != 0xffffffffu) {
      atomicMin(&box[0], static_cast<long long>(rmin));
      atomicMax(&box[1], static_cast<long long>(rmax));
      atomicMin(&box[2], static_cast<long long>(cmin));
      atomicMax(&box[3], static_cast<long long>(cmax));
    }
    grid.sync();
  }
}

}  // namespace

struct LavaLauncher::Slot {
  cudaEvent_t done = nullptr;
  long long* box = nullptr;  // pinned host memory: the box after the launch
  int64_t steps = 0;         // launched_steps_ after the launch
  bool pending = false;
};

LavaLauncher::LavaLauncher(Context& ctx) : ctx_(ctx) {
  slots_ = new Slot[2];
  try {
    check(cudaMalloc(&device_box_, 4 * sizeof(long long)), "cudaMalloc");
    for (int i = 0; i < 2; ++i) {
      check(cudaEventCreateWithFlags(&slots_[i].done, cudaEventDisableTiming), "cudaEventCreate");
      check(cudaHostAlloc(&slots_[i].box, 4 * sizeof(long long), cudaHostAllocDefault), "cudaHostAlloc");
    }
  } catch (...) {
    release();
    throw;
  }
}

LavaLauncher::~LavaLauncher() { release(); }

void LavaLauncher::release() noexcept {
  if (slots_ != nullptr) {
    for (int i = 0; i < 2; ++i) {
      if (slots_[i].done != nullptr) cudaEventDestroy(slots_[i].done);
      if (slots_[i].box != nullptr) cudaFreeHost(slots_[i].box);
    }
    delete[] slots_;
    slots_ = nullptr;
  }
  if (device_box_ != nullptr) cudaFree(device_box_);
  device_box_ = nullptr;
}

void LavaLauncher::set_box(const LavaBox& box) {
  const long long b[4] = {box.r0, box.r1, box.c0, box.c1};
  ctx_.device().copy_to_device(device_box_, b, sizeof b);
  ctx_.device().synchronize();  // b is on this stack frame
  known_ = box, known_at_ = launched_steps_;
}

void LavaLauncher::launch(const LavaGridView& g, const LavaVents& vents, const LavaBox& vent_box, int64_t first_step,
                          int nsteps, bool all_cells, const LavaConstants& k) {
  const auto stream = static_cast<cudaStream_t>(ctx_.device().stream());
  if (max_blocks_ == 0) {  // all blocks of a cooperative launch must be resident at once
    int per_sm = 0, sms = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, lava_steps_kernel, kThreads, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ctx_.device().id()), "cudaDeviceGetAttribute");
    max_blocks_ = std::max(1, per_sm * sms);
  }
  // The launch before last is waited for (at most two in flight), and its box read.
  Slot& slot = slots_[launches_ % 2];
  if (slot.pending) {
    check(cudaEventSynchronize(slot.done), "the device work of this context");
    known_ = LavaBox{slot.box[0], slot.box[1], slot.box[2], slot.box[3]};
    known_at_ = slot.steps;
    slot.pending = false;
  }
  // As many blocks as this launch's last region can need, up to what is resident.
  const int64_t cells = all_cells ? g.rows * g.cols
                                  : known_.grown(launched_steps_ - known_at_ + nsteps + 1, g.rows, g.cols).cells();
  const int blocks = static_cast<int>(std::clamp<int64_t>((cells + kThreads - 1) / kThreads, 1, max_blocks_));
  LavaGridView gv = g;
  LavaVents ve = vents;
  LavaBox vb = vent_box;
  int64_t first = first_step;
  int n = nsteps;
  bool all = all_cells;
  LavaConstants kc = k;
  long long* b = device_box_;
  void* args[] = {&gv, &ve, &vb, &first, &n, &all, &kc, &b};
  check(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(lava_steps_kernel), dim3(blocks), dim3(kThreads), args, 0,
                                    stream),
        "cudaLaunchCooperativeKernel(lava_steps_kernel)");
  launched_steps_ += nsteps, ++launches_;
  check(cudaMemcpyAsync(slot.box, device_box_, 4 * sizeof(long long), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
  check(cudaEventRecord(slot.done, stream), "cudaEventRecord");
  slot.steps = launched_steps_, slot.pending = true;
}

LavaBox LavaLauncher::box() {
  long long b[4];
  ctx_.device().copy_to_host(b, device_box_, sizeof b);  // waits for the stream
  for (int i = 0; i < 2; ++i) slots_[i].pending = false;
  known_ = LavaBox{b[0], b[1], b[2], b[3]}, known_at_ = launched_steps_;
  return known_;
}

}  // namespace opsplit::ca
