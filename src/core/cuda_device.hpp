// The CUDA side of a context: device, stream and the checks on CUDA calls. Declared
// without CUDA headers so host code compiles either way; defined in cuda_device.cpp
// (built with CUDA) or no_cuda.cpp (built without).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace opsplit::cuda {

// What CUDA says about a pointer a host handed over (core/device_array.hpp judges it).
struct PointerFacts {
  enum class Kind { host, page_locked_host, device, managed };
  Kind kind = Kind::host;  // host: memory CUDA does not know (malloc, the stack, freed memory)
  int device = -1;         // device and managed memory: the GPU it belongs to
  // Device memory made in a CUDA context other than the current one (opsplit's: the
  // device's primary context); memory of no context (cudaMallocAsync pools, cuMemMap) is not.
  bool other_context = false;
  // The allocation holding it (device and managed memory; for cuMemMap, the mapped range).
  bool range_known = false;
  uintptr_t range_start = 0;
  size_t range_size = 0;
};
// Never fails and never makes a failing CUDA call; call it with the context's device
// current. Without CUDA every pointer is host memory.
PointerFacts describe(const void* pointer);

// 1 when built with CUDA and a device is usable; otherwise 0 and why.
bool available(std::string* why);
int device_count();  // 0 where there is none (or no driver)

class Device {
 public:
  explicit Device(int device);  // throws BACKEND_UNAVAILABLE with the reason
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  int id() const { return id_; }
  int multiprocessors() const { return multiprocessors_; }  // the device's SM count, read once
  void* stream() const { return stream_ != nullptr ? stream_ : own_stream_; }  // a cudaStream_t
  void set_stream(void* stream) { stream_ = stream; }
  void activate() const;     // cudaSetDevice before work on this context
  void synchronize() const;  // waits for the stream; throws DEVICE on an asynchronous failure
  // For calls that take or give the host's device arrays, when the host gave no stream
  // of its own: this context's stream is a non-blocking one, so follow_host() makes it
  // wait for the work the host has put on the legacy default stream so far (where CUDA C
  // and CUDA Fortran launch by default), and finish_for_host() waits for the stream, so
  // that what the host launches next sees the result. With the host's stream both do
  // nothing: the stream orders the work.
  void follow_host() const;
  void finish_for_host() const;

  void* allocate(size_t bytes) const;  // cudaMalloc; OUT_OF_MEMORY when the device is full
  static void release(void* pointer);  // never throws
  void zero(void* pointer, size_t bytes) const;
  void copy_to_device(void* device, const void* host, size_t bytes) const;  // ordered on the stream
  void copy_to_host(void* host, const void* device, size_t bytes) const;    // completes before return
  void copy_on_device(void* to, const void* from, size_t bytes) const;      // ordered on the stream
  // rows of row_bytes each, from_pitch and to_pitch bytes apart; ordered on the stream.
  void copy_rows_on_device(void* to, size_t to_pitch, const void* from, size_t from_pitch, size_t row_bytes,
                           size_t rows) const;
  // For work that overlaps the stream's (a distributed field's faces, field/halo.hpp): a
  // mark on the stream that the host can wait for while later work runs, and copies of
  // page-locked host memory on a second stream beside it (made at the first use). A
  // copy to the host there starts after the stream's work so far; the stream's work
  // after join_beside() waits for the copies to the device so far.
  void mark() const;           // the stream's work so far
  void wait_for_mark() const;  // until that work is done; throws DEVICE on an asynchronous failure
  void copy_to_host_beside(void* host, const void* device, size_t bytes) const;
  void copy_to_device_beside(void* device, const void* host, size_t bytes) const;
  void wait_beside() const;  // the host waits for the copies beside
  void join_beside() const;

  // CUDA IPC between the processes of a node (core/peer_slabs.hpp). None of these throws
  // but the copy: a refusal (another node, a container without IPC) is an answer.
  // export_memory: the handle (8 words) by which another process maps `allocation` (the
  // start of an allocate()d block); false where it cannot be had.
  bool export_memory(const void* allocation, int64_t handle[8]) const noexcept;
  void uuid(int64_t out[2]) const noexcept;  // this device's, zeros where unknown
  // Whether this device's copies may reach the memory of the device with that UUID on
  // this node: it is this one or a peer of it, or one this process does not see (a GPU
  // a rank by CUDA_VISIBLE_DEVICES: IPC maps those too); not a visible non-peer.
  bool may_reach(const int64_t uuid[2]) const noexcept;
  void* open_peer_memory(const int64_t handle[8]) const noexcept;  // nullptr where refused
  // Unmaps, in the context of `device` (the one that opened it), whatever device is current.
  static void close_peer_memory(void* mapped, int device) noexcept;
  // A copy from memory another process mapped for this one (open_peer_memory) into this
  // device's, on the stream beside: the caller has waited for the stream's work that
  // reads or writes `to`.
  void copy_from_peer_beside(void* to, const void* from, size_t bytes) const;

 private:
  int id_;
  int multiprocessors_ = 0;
  void* own_stream_ = nullptr;
  void* stream_ = nullptr;  // the host's stream, when it gave one
  // [[maybe_unused]]: a build without CUDA defines this class's functions as stubs
  // (core/no_cuda.cpp), which use none of these.
  [[maybe_unused]] mutable void* mark_ = nullptr;    // a cudaEvent_t, made at the first mark()
  [[maybe_unused]] mutable void* host_mark_ = nullptr;  // a cudaEvent_t, made at the first follow_host()
  [[maybe_unused]] mutable void* beside_ = nullptr;  // the second stream and the event of its copies so far
  [[maybe_unused]] mutable void* copied_ = nullptr;
  void make_beside() const;
};

// After a kernel launch: throws DEVICE naming the kernel if the launch failed.
void check_launch(const char* kernel);

// A kernel with a large per-thread frame (a GRI-Mech reactor thread keeps ~77 KB in
// local memory) makes the driver reserve that frame for every thread the device can
// hold, 2048 per SM whatever the launch (20.9 GB on an H100), and keep it after the
// kernel ends, for the life of the CUDA context. A LocalMemoryRelease puts the stack
// limit back to its value at construction when it goes out of scope, which frees that
// reservation for the host's own GPU work (the next launch reserves it again).
class LocalMemoryRelease {
 public:
  LocalMemoryRelease();
  ~LocalMemoryRelease();  // never throws
  LocalMemoryRelease(const LocalMemoryRelease&) = delete;
  LocalMemoryRelease& operator=(const LocalMemoryRelease&) = delete;

 private:
  [[maybe_unused]] size_t limit_ = 0;  // (no_cuda.cpp's stubs use neither)
  [[maybe_unused]] bool known_ = false;
};

}  // namespace opsplit::cuda
