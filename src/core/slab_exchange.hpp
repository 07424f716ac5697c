// The slabs an object spread over processes swaps with its neighbours along one axis at a
// time: two slots sent (the low and the high side) and two received, in the backend's
// memory, and on a CUDA context whose group takes host memory only a page-locked copy of
// the four for MPI; faces between the GPUs of a node go by CUDA IPC (core/peer_slabs.hpp).
// The caller packs and unpacks (CA grids: src/ca; fields keep their own, which overlaps
// the copies with interior work: field/halo.hpp).
#pragma once

#include <cstddef>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/group.hpp"
#include "core/peer_slabs.hpp"
#include "core/pinned.hpp"

namespace opsplit {

class SlabExchange {
 public:
  SlabExchange() = default;
  // slot_bytes: the most one side's slab holds (0: nothing to exchange, nothing allocated).
  SlabExchange(Context& ctx, size_t slot_bytes, bool device_pointers) : slot_bytes_(slot_bytes) {
    if (slot_bytes == 0) return;
    slabs_ = Buffer(ctx, 4 * slot_bytes);
    if (ctx.is_cuda() && !device_pointers) staging_ = cuda::PinnedBuffer(4 * slot_bytes);
  }

  // Collective, after every process has made its SlabExchange: the faces to GPUs this one
  // reaches go by CUDA IPC (core/peer_slabs.hpp), the page-locked copy stays only where
  // some face still needs it. Failures here are this process's, for the caller's settle.
  void connect(const Context& ctx, const Group& group, const opsplit_decomposition& d, const bool remote[4]) {
    peers_ = PeerSlabs(ctx, group, d, remote, 4, ctx.is_cuda() ? slabs_.data() : nullptr, slot_bytes_);
    bool staged = false;
    for (int f = 0; f < 4; ++f) staged = staged || (remote[f] && !peers_.pulls(f));
    if (!staged) staging_ = cuda::PinnedBuffer();
  }

  // One axis: pack(side, slot) into each remote side's slot, the swap of `bytes` a side,
  // then unpack(side, slot) from each received one (slots in the backend's memory).
  // during() runs once the packs are enqueued, before anything waits for them: work on
  // the context's stream there (which must not touch the slabs or what is unpacked)
  // runs while the slabs travel; the unpacks follow it on the stream.
  template <class Pack, class Unpack, class During>
  void swap(Context& ctx, const Group& group, int axis, const bool remote[2], size_t bytes, Pack pack, Unpack unpack,
            During during) const {
    const bool cuda = ctx.is_cuda(), staged = !staging_.empty();
    const void* send[2] = {nullptr, nullptr};
    void* receive[2] = {nullptr, nullptr};
    void* pulled[2] = {nullptr, nullptr};
    size_t offset[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
      if (!remote[side]) continue;
      pack(side, slot(side));
      if (peers_.pulls(2 * axis + side)) {  // the neighbour's slot for this side of it
        pulled[side] = slot(2 + side), offset[side] = (side ^ 1) * peers_.slot_bytes(2 * axis + side);
        continue;
      }
      send[side] = mpi_slot(side), receive[side] = mpi_slot(2 + side);
    }
    // The mark follows the packs and the stream's earlier work: the unpacks and the
    // copies from the staging slots of the axis before, done before MPI, a neighbour or a
    // copy writes the slots again.
    if (cuda) ctx.device().mark();
    if (staged)
      for (int side = 0; side < 2; ++side)
        if (send[side]) ctx.device().copy_to_host_beside(mpi_slot(side), slot(side), bytes);
    during();
    if (cuda) ctx.device().wait_for_mark();
    if (staged) ctx.device().wait_beside();
    peers_.pull(ctx, group, axis, pulled, offset, bytes, [&] {
      group.exchange(axis, send, receive, bytes);
      if (staged)
        for (int side = 0; side < 2; ++side)
          if (receive[side]) ctx.device().copy_to_device_beside(slot(2 + side), receive[side], bytes);
    });
    if (cuda) ctx.device().join_beside();
    for (int side = 0; side < 2; ++side)
      if (remote[side]) unpack(side, slot(2 + side));
  }
  template <class Pack, class Unpack>
  void swap(Context& ctx, const Group& group, int axis, const bool remote[2], size_t bytes, Pack pack,
            Unpack unpack) const {
    swap(ctx, group, axis, remote, bytes, pack, unpack, [] {});
  }

 private:
  // Slot s (0, 1: sent to the low and high side; 2, 3: received from them).
  unsigned char* slot(int s) const { return slabs_.as<unsigned char>() + s * slot_bytes_; }
  // Where MPI reads and writes slot s: the slot, or its page-locked copy.
  void* mpi_slot(int s) const { return staging_.empty() ? slot(s) : staging_.data() + s * slot_bytes_; }

  size_t slot_bytes_ = 0;
  Buffer slabs_;
  cuda::PinnedBuffer staging_;
  PeerSlabs peers_;
};

}  // namespace opsplit
