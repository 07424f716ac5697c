// Page-locked host memory (cudaMallocHost) for staging device data through the host:
// copies to and from it run at the bus's speed and need no bounce buffer.
#pragma once

#include <cstddef>

namespace opsplit::cuda {

class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(size_t bytes);  // OUT_OF_MEMORY when it cannot be had
  ~PinnedBuffer();
  PinnedBuffer(PinnedBuffer&& other) noexcept : data_(other.data_), bytes_(other.bytes_) {
    other.data_ = nullptr, other.bytes_ = 0;
  }
  PinnedBuffer& operator=(PinnedBuffer&& other) noexcept;
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;

  unsigned char* data() const { return data_; }
  size_t bytes() const { return bytes_; }
  bool empty() const { return data_ == nullptr; }

 private:
  unsigned char* data_ = nullptr;
  size_t bytes_ = 0;
};

}  // namespace opsplit::cuda
