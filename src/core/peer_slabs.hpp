// A distributed object's slabs between the GPUs of one node without the host: each
// process maps the slab buffers of its neighbours on this node (CUDA IPC: GPUs its own
// reaches as a peer, or that it does not see, one GPU a rank) and
// copies the slab a neighbour sent it straight into its own received slot, on the copy
// engines (over NVLink where there is one). MPI carries only two 8-byte tokens a side
// and axis: "my sent slots are written" before the copies and "I have read yours"
// after, so that no process packs over a slot before its neighbour has read it. Faces
// to other nodes (another boot id or host name), to processes that cannot map (a
// container without a shared IPC namespace, a visible GPU without peer access) and all
// faces of CPU contexts keep the group's exchange. OPSPLIT_DEVICE_IPC (the same on every process): unset or 1 uses it where
// it can, 0 never, `require` fails the attach where a remote face cannot use it, and
// `mixed` (for tests of both paths at once) keeps the faces whose lower rank is odd off
// it and requires it of the others.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/context.hpp"
#include "core/group.hpp"

namespace opsplit {

class PeerSlabs {
 public:
  PeerSlabs() = default;
  // Collective (two allgathers, which every process reaches: the local steps before
  // them do not throw; failures after them are this process's, for the caller's settle).
  // `slabs` is this process's slab buffer (the start of a device allocation, or nullptr
  // on the CPU); faces 0 .. nfaces-1 of d with remote[f].
  PeerSlabs(const Context& ctx, const Group& group, const opsplit_decomposition& d, const bool* remote, int nfaces,
            const void* slabs);
  ~PeerSlabs();
  PeerSlabs(PeerSlabs&& other) noexcept { *this = std::move(other); }
  PeerSlabs& operator=(PeerSlabs&& other) noexcept;
  PeerSlabs(const PeerSlabs&) = delete;
  PeerSlabs& operator=(const PeerSlabs&) = delete;

  bool pulls(int face) const { return from_[face] != nullptr; }

  // Along `axis`, once this process's sent slots are written and its stream has done
  // the work that reads or writes to[] (the caller waited for it): for each side whose
  // face pulls, to[side] <- the neighbour's slot for this process, `bytes` at the same
  // place in its slabs as this process's slot for the neighbour's side of it (both
  // pack an axis's slots alike: SlabExchange::slot); `between()` (the other sides'
  // exchange) runs while they copy. On return the copies are done, and so are the
  // neighbours' of this process's slots. Collective like Group::exchange.
  template <class Between>
  void pull(const Context& ctx, const Group& group, int axis, void* const to[2], size_t bytes, Between between) const {
    if (!used_) return between();
    swap_tokens(group, axis);  // the neighbours' slots for this process are written
    for (int side = 0; side < 2; ++side)
      if (pulls(2 * axis + side))
        ctx.device().copy_from_peer_beside(
            to[side], static_cast<const unsigned char*>(from_[2 * axis + side]) + (side ^ 1) * bytes, bytes);
    between();
    if (ctx.is_cuda()) ctx.device().wait_beside();  // (a CPU process of a mixed group pulls nothing)
    swap_tokens(group, axis);  // the neighbours have read this process's
  }

 private:
  void swap_tokens(const Group& group, int axis) const;
  void close() noexcept;

  const void* from_[6] = {};  // the neighbour's slabs, mapped, across each face that pulls
  std::vector<void*> mapped_;  // one mapping a neighbour
  bool used_ = false;          // some process pulls a face: every one swaps the tokens
  int device_ = -1;            // the GPU whose context holds the mappings
};

}  // namespace opsplit
