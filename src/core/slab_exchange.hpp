// The slabs an object spread over processes swaps with its neighbours along one axis at a
// time: two slots sent (the low and the high side) and two received, in the backend's
// memory, and on a CUDA context whose group takes host memory only a page-locked copy of
// the four for MPI; faces between the GPUs of a node go by CUDA IPC (core/peer_slabs.hpp).
// The caller packs and unpacks (fields: field/halo.hpp; CA grids: src/ca), and may work
// on its stream while the slabs travel. The copies through the host or from the peers
// run beside the stream (Device::copy_to_host_beside).
#pragma once

#include <cstddef>
#include <exception>

#include "core/buffer.hpp"
#include "core/context.hpp"
#include "core/environment.hpp"
#include "core/group.hpp"
#include "core/peer_slabs.hpp"
#include "core/pinned.hpp"

namespace opsplit {

// Whether a distributed step may compute what no ghost reaches while the slabs travel:
// OPSPLIT_HALO_OVERLAP=0 says no (the exchange whole first: the measurements' base).
inline bool halo_overlap_allowed() { return environment::halo_overlap(); }

class SlabExchange {
 public:
  SlabExchange() = default;
  // slot_bytes: the most one side's slab holds (0: nothing to exchange, nothing allocated).
  SlabExchange(Context& ctx, size_t slot_bytes, bool device_pointers) {
    if (slot_bytes == 0) return;
    slabs_ = Buffer(ctx, 4 * slot_bytes);
    if (ctx.is_cuda() && !device_pointers) staging_ = cuda::PinnedBuffer(4 * slot_bytes);
  }

  // Collective, after every process has made its SlabExchange: the faces (0 .. nfaces-1
  // of d) between the GPUs of a node go by CUDA IPC (core/peer_slabs.hpp), the
  // page-locked copy stays only where some face still needs it. Failures here are this
  // process's, for the caller's settle.
  void connect(const Context& ctx, const Group& group, const opsplit_decomposition& d, const bool* remote,
               int nfaces) {
    peers_ = PeerSlabs(ctx, group, d, remote, nfaces, ctx.is_cuda() ? slabs_.data() : nullptr);
    bool staged = false;
    for (int f = 0; f < nfaces; ++f) staged = staged || (remote[f] && !peers_.pulls(f));
    if (!staged) staging_ = cuda::PinnedBuffer();
  }

  // An axis's slot s for slabs of `bytes` (0, 1: sent to the low and high side; 2, 3:
  // received from them), packed next to each other: a neighbour's slot of the same axis
  // lies at the same place in its slabs (both ends of a face swap slabs of one size).
  void* slot(int s, size_t bytes) const { return slabs_.as<unsigned char>() + s * bytes; }
  size_t slot_bytes() const { return slabs_.bytes() / 4; }  // the most one slab holds

  // One axis whole: pack(side, slot) into each remote side's slot, during() while the
  // slabs travel, then unpack(side, slot) from each received one. A failure of during()
  // is thrown after the receive: the neighbours wait in it for this process.
  template <class Pack, class Unpack, class During>
  void swap(const Context& ctx, const Group& group, int axis, const bool remote[2], size_t bytes, Pack pack,
            Unpack unpack, During during) const {
    for (int side = 0; side < 2; ++side)
      if (remote[side]) pack(side, slot(side, bytes));
    send(ctx, axis, remote, bytes);
    std::exception_ptr failed;
    try {
      during();
    } catch (...) {
      failed = std::current_exception();
    }
    receive(ctx, group, axis, remote, bytes);
    if (failed) std::rethrow_exception(failed);
    for (int side = 0; side < 2; ++side)
      if (remote[side]) unpack(side, slot(2 + side, bytes));
  }
  template <class Pack, class Unpack>
  void swap(const Context& ctx, const Group& group, int axis, const bool remote[2], size_t bytes, Pack pack,
            Unpack unpack) const {
    swap(ctx, group, axis, remote, bytes, pack, unpack, [] {});
  }

 private:
  // swap's two halves, so that work on the context's stream between them (which must
  // not touch the slabs or what is unpacked) runs while the slabs travel. send:
  // once the caller has enqueued the packs of the remote sides' slots, starts them to
  // the host where MPI needs them there. receive: swaps them with the neighbours (by
  // CUDA IPC, or MPI) and leaves the received slots ready for the unpacks the caller
  // enqueues after it. Collective like Group::exchange.
  void send(const Context& ctx, int axis, const bool remote[2], size_t bytes) const {
    // The mark follows the packs and the stream's earlier work (the unpacks and the
    // copies from the staging slots of the axis before): done before MPI, a neighbour or
    // a copy writes the slots again.
    if (ctx.is_cuda()) ctx.device().mark();
    staging_copies(axis, remote, bytes, 0, [&](void* host, void* device, size_t n) {
      ctx.device().copy_to_host_beside(host, device, n);
    });
  }
  void receive(const Context& ctx, const Group& group, int axis, const bool remote[2], size_t bytes) const {
    const void* out[2] = {nullptr, nullptr};
    void* in[2] = {nullptr, nullptr};
    void* pulled[2] = {nullptr, nullptr};
    for (int side = 0; side < 2; ++side) {
      if (!remote[side]) continue;
      if (peers_.pulls(2 * axis + side))
        pulled[side] = slot(2 + side, bytes);
      else
        out[side] = mpi_slot(side, bytes), in[side] = mpi_slot(2 + side, bytes);
    }
    if (ctx.is_cuda()) ctx.device().wait_for_mark();
    if (!staging_.empty()) ctx.device().wait_beside();
    peers_.pull(ctx, group, axis, pulled, bytes, [&] {
      group.exchange(axis, out, in, bytes);
      staging_copies(axis, remote, bytes, 2, [&](void* host, void* device, size_t n) {
        ctx.device().copy_to_device_beside(device, host, n);
      });
    });
    if (ctx.is_cuda()) ctx.device().join_beside();
  }

  // Where MPI reads and writes slot s: the slot, or its page-locked copy.
  void* mpi_slot(int s, size_t bytes) const {
    return staging_.empty() ? slot(s, bytes) : staging_.data() + s * bytes;
  }
  // copy(host, device, n) between the page-locked copy and the slots from `first` of the
  // sides that go through the host: one copy where both do.
  template <class Copy>
  void staging_copies(int axis, const bool remote[2], size_t bytes, int first, Copy copy) const {
    if (staging_.empty()) return;
    const bool lo = remote[0] && !peers_.pulls(2 * axis), hi = remote[1] && !peers_.pulls(2 * axis + 1);
    if (lo || hi) {
      const int s = first + (lo ? 0 : 1);
      copy(mpi_slot(s, bytes), slot(s, bytes), (lo && hi ? 2 : 1) * bytes);
    }
  }

  Buffer slabs_;
  cuda::PinnedBuffer staging_;
  PeerSlabs peers_;
};

}  // namespace opsplit
