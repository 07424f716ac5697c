// The slabs an object spread over processes swaps with its neighbours along one axis at a
// time: two slots sent (the low and the high side) and two received, in the backend's
// memory, and on a CUDA context whose group takes host memory only a page-locked copy of
// the four for MPI. The caller packs and unpacks (CA grids: src/ca; fields keep their
// own, which overlaps the copies with interior work: field/halo.hpp).
#pragma once

#include <cstddef>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/group.hpp"
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

  // One axis: pack(side, slot) into each remote side's slot, the swap of `bytes` a side,
  // then unpack(side, slot) from each received one (slots in the backend's memory).
  template <class Pack, class Unpack>
  void swap(Context& ctx, const Group& group, int axis, const bool remote[2], size_t bytes, Pack pack,
            Unpack unpack) const {
    const bool cuda = ctx.is_cuda(), staged = !staging_.empty();
    const void* send[2] = {nullptr, nullptr};
    void* receive[2] = {nullptr, nullptr};
    for (int side = 0; side < 2; ++side) {
      if (!remote[side]) continue;
      pack(side, slot(side));
      send[side] = mpi_slot(side), receive[side] = mpi_slot(2 + side);
    }
    // copy_to_host waits for the stream: the slabs are written, and the copies from the
    // staging slots of the axis before are done before MPI writes them again.
    if (staged) {
      for (int side = 0; side < 2; ++side)
        if (send[side]) ctx.device().copy_to_host(mpi_slot(side), slot(side), bytes);
    } else if (cuda) {
      ctx.device().synchronize();  // MPI reads the slabs once they are written
    }
    group.exchange(axis, send, receive, bytes);
    for (int side = 0; side < 2; ++side) {
      if (!receive[side]) continue;
      if (staged) ctx.device().copy_to_device(slot(2 + side), receive[side], bytes);
      unpack(side, slot(2 + side));
    }
  }

 private:
  // Slot s (0, 1: sent to the low and high side; 2, 3: received from them).
  unsigned char* slot(int s) const { return slabs_.as<unsigned char>() + s * slot_bytes_; }
  // Where MPI reads and writes slot s: the slot, or its page-locked copy.
  void* mpi_slot(int s) const { return staging_.empty() ? slot(s) : staging_.data() + s * slot_bytes_; }

  size_t slot_bytes_ = 0;
  Buffer slabs_;
  cuda::PinnedBuffer staging_;
};

}  // namespace opsplit
