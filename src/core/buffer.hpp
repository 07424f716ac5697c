// Storage owned by an object on its context's backend: 64-byte aligned host memory
// (first touched by the OpenMP threads that will use it) or cudaMalloc memory.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/context.hpp"

namespace opsplit {

class Buffer {
 public:
  Buffer() = default;
  Buffer(Context& ctx, size_t bytes);  // zero-filled; OUT_OF_MEMORY when it cannot be had
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  // A buffer over memory it does not own and never frees (a host's device array that an
  // object works in, opsplit_ode_wrap_state_device): the host keeps it alive meanwhile.
  static Buffer view(Context& ctx, void* data, size_t bytes);
  bool owns_its_memory() const { return owns_; }

  void* data() const { return data_; }
  template <class T>
  T* as() const { return static_cast<T*>(data_); }
  size_t bytes() const { return bytes_; }
  bool empty() const { return data_ == nullptr; }
  void swap(Buffer& other) noexcept;
  // Host bytes into the buffer from byte `offset` on, and out of it, on either backend:
  // copy_in returns when `host` may be reused (CUDA: the copy is ordered on the
  // context's stream), copy_out when the bytes have arrived.
  void copy_in(const void* host, size_t bytes, size_t offset = 0);
  void copy_out(void* host, size_t bytes, size_t offset = 0) const;
  // Another buffer's bytes (of the same size: INTERNAL otherwise), and zeros, on the
  // backend (CUDA: ordered on the stream).
  void copy_from(const Buffer& other);
  void zero();

 private:
  void release() noexcept;
  Context* ctx_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
  bool owns_ = true;
};

// A new buffer of `planes` planes, each new_rows rows of new_row_bytes, zero but for the
// rows of `from` (planes of `rows` rows of row_bytes), placed from row `top`, byte `left`
// of each: a grid grown by bands around it. On the device, ordered on the stream.
Buffer regrown(Context& ctx, const Buffer& from, int64_t planes, int64_t rows, size_t row_bytes, int64_t new_rows,
               size_t new_row_bytes, int64_t top, size_t left);

}  // namespace opsplit
