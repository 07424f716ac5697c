// Storage owned by an object on its context's backend: 64-byte aligned host memory
// (first touched by the OpenMP threads that will use it) or cudaMalloc memory.
#pragma once

#include <cstddef>

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

  void* data() const { return data_; }
  template <class T>
  T* as() const { return static_cast<T*>(data_); }
  size_t bytes() const { return bytes_; }
  bool empty() const { return data_ == nullptr; }
  void swap(Buffer& other) noexcept;

 private:
  void release() noexcept;
  Context* ctx_ = nullptr;
  void* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace opsplit
