#include "core/peer_slabs.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/environment.hpp"
#include "core/error.hpp"
#include "core/hash.hpp"

namespace opsplit {

namespace {

enum Mode : int64_t { kOff, kAuto, kRequire, kMixed, kBadMode };

Mode mode_from_environment() {
  switch (environment::device_ipc()) {
    case environment::DeviceIpc::kOff: return kOff;
    case environment::DeviceIpc::kAuto: return kAuto;
    case environment::DeviceIpc::kRequire: return kRequire;
    case environment::DeviceIpc::kMixed: return kMixed;
    default: return kBadMode;
  }
}

// This process's node: hashes of the kernel's boot id and of the host name (processes of
// one node share both; a container of its own may still be refused the mapping).
void node_id(int64_t out[2]) {
  Fnv1a boot, host;
  if (std::FILE* f = std::fopen("/proc/sys/kernel/random/boot_id", "r")) {
    for (int c; (c = std::fgetc(f)) != EOF;) boot.add(static_cast<uint64_t>(c));
    std::fclose(f);
  }
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) == 0)
    for (const char* c = name; *c; ++c) host.add(static_cast<uint64_t>(static_cast<unsigned char>(*c)));
  out[0] = static_cast<int64_t>(boot.value), out[1] = static_cast<int64_t>(host.value);
}

// A process's record: mode, whether it exports, its GPU's UUID, its node, the handle.
constexpr int kRecord = 14, kNode = 4, kHandle = 6;

}  // namespace

PeerSlabs::PeerSlabs(const Context& ctx, const Group& group, const opsplit_decomposition& d, const bool* remote,
                     int nfaces, const void* slabs) {
  const int size = group.size(), rank = group.rank();
  const Mode mode = mode_from_environment();
  int64_t mine[kRecord] = {mode, 0, 0, 0};
  bool any_remote = false;
  for (int f = 0; f < nfaces; ++f) any_remote = any_remote || remote[f];
  if (ctx.is_cuda() && slabs != nullptr && any_remote && (mode == kAuto || mode == kRequire || mode == kMixed) &&
      ctx.device().export_memory(slabs, mine + kHandle)) {
    mine[1] = 1;
    ctx.device().uuid(mine + 2);
    node_id(mine + kNode);
    device_ = ctx.device().id();
  }
  mapped_.reserve(6);  // now: nothing between the two collectives throws
  std::vector<int64_t> all(static_cast<size_t>(size) * kRecord), cans(static_cast<size_t>(size) * 6);
  group.allgather(mine, std::vector<int64_t>(static_cast<size_t>(size), kRecord), all.data());
  auto of = [&](int process) { return all.data() + static_cast<size_t>(process) * kRecord; };
  auto same_node = [&](int q) { return of(q)[kNode] == mine[kNode] && of(q)[kNode + 1] == mine[kNode + 1]; };
  try {
    // The faces meant to go by IPC (mixed: those whose lower rank is even), and those of
    // them this process can pull: the neighbour exports, on this node, from a GPU this
    // one reaches or does not see (one GPU a rank: CUDA IPC maps those too).
    bool chosen[6] = {};
    int64_t can[6] = {0, 0, 0, 0, 0, 0};
    void* opened[6] = {};
    for (int f = 0; f < nfaces; ++f) {
      const int q = d.neighbours[f];
      chosen[f] = remote[f] && q >= 0 && (mode != kMixed || std::min(rank, q) % 2 == 0);
      if (!chosen[f] || mine[1] == 0 || of(q)[1] == 0 || of(q)[0] != mode || !same_node(q)) continue;
      for (int e = 0; e < f && !opened[f]; ++e)
        if (chosen[e] && d.neighbours[e] == q) opened[f] = opened[e];
      if (!opened[f] && ctx.device().may_reach(of(q) + 2)) {
        opened[f] = ctx.device().open_peer_memory(of(q) + kHandle);
        if (opened[f]) mapped_.push_back(opened[f]);
      }
      can[f] = opened[f] != nullptr;
    }
    group.allgather(can, std::vector<int64_t>(static_cast<size_t>(size), 6), cans.data());

    // A face pulls where both ends can (each end computes the same answer).
    for (int f = 0; f < nfaces; ++f)
      if (can[f] && cans[static_cast<size_t>(d.neighbours[f]) * 6 + (f ^ 1)]) from_[f] = opened[f];
    used_ = std::any_of(cans.begin(), cans.end(), [](int64_t c) { return c != 0; });

    // Failures, after every collective: this process's (the caller settles them).
    for (int p = 0; p < size; ++p)
      if (of(p)[0] == kBadMode || of(p)[0] != mode)
        fail_argument(mode == kBadMode ? "OPSPLIT_DEVICE_IPC is not 0, 1, require or mixed"
                                       : "OPSPLIT_DEVICE_IPC differs between processes (process " + num(p) + "'s)");
    if (mode == kRequire || mode == kMixed)  // (mixed tests both paths: its IPC faces must be)
      for (int f = 0; f < nfaces; ++f)
        if (chosen[f] && !pulls(f)) {
          const int q = d.neighbours[f];
          const std::string why = !ctx.is_cuda()   ? "this process's context is not CUDA"
                                  : mine[1] == 0   ? "this process cannot export its device memory"
                                  : of(q)[1] == 0  ? "process " + num(q) + " cannot export its device memory"
                                  : !same_node(q)  ? "process " + num(q) + " is on another node"
                                  : can[f]         ? "process " + num(q) + " could not map this process's memory"
                                  : !ctx.device().may_reach(of(q) + 2)
                                      ? "process " + num(q) + "'s GPU has no peer access from this one"
                                      : "a mapping of process " + num(q) + "'s memory was refused here";
          fail(OPSPLIT_ERROR_UNSUPPORTED, std::string("OPSPLIT_DEVICE_IPC=") + (mode == kMixed ? "mixed" : "require") +
                                              ", but face " + num(f) + " to process " + num(q) +
                                              " cannot go by CUDA IPC: " + why);
        }
  } catch (...) {
    close();
    throw;
  }
}

PeerSlabs::~PeerSlabs() { close(); }

PeerSlabs& PeerSlabs::operator=(PeerSlabs&& other) noexcept {
  if (this == &other) return *this;
  close();
  std::copy(other.from_, other.from_ + 6, from_);
  mapped_ = std::move(other.mapped_);
  used_ = other.used_;
  device_ = other.device_;
  other.mapped_.clear();
  std::fill(other.from_, other.from_ + 6, nullptr);
  other.used_ = false;
  return *this;
}

void PeerSlabs::close() noexcept {
  for (void* m : mapped_) cuda::Device::close_peer_memory(m, device_);
  mapped_.clear();
  std::fill(from_, from_ + 6, nullptr);
  used_ = false;
}

void PeerSlabs::swap_tokens(const Group& group, int axis) const {
  int64_t out[2] = {0, 0}, in[2] = {0, 0};
  const void* send[2] = {nullptr, nullptr};
  void* receive[2] = {nullptr, nullptr};
  for (int side = 0; side < 2; ++side)
    if (pulls(2 * axis + side)) send[side] = &out[side], receive[side] = &in[side];
  group.exchange(axis, send, receive, sizeof(int64_t));
}

}  // namespace opsplit
