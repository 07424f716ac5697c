#include "core/buffer.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace opsplit {

Buffer::Buffer(Context& ctx, size_t bytes) : ctx_(&ctx), bytes_(bytes) {
  if (ctx.is_cuda()) {
    data_ = ctx.device().allocate(bytes);
    try {
      ctx.device().zero(data_, bytes);
    } catch (...) {
      cuda::Device::release(data_);
      throw;
    }
    return;
  }
  size_t rounded = (bytes + 63) / 64 * 64;
  if (rounded < bytes) fail(OPSPLIT_ERROR_OUT_OF_MEMORY, std::to_string(bytes) + " bytes cannot be allocated");
  data_ = std::aligned_alloc(64, rounded == 0 ? 64 : rounded);
  if (data_ == nullptr)
    fail(OPSPLIT_ERROR_OUT_OF_MEMORY, "allocating " + std::to_string(bytes) + " bytes of host memory failed");
  // First touch by the threads that will work on it places the pages near them.
  auto* p = static_cast<unsigned char*>(data_);
  const long long chunks = static_cast<long long>((rounded + 4095) / 4096);
#pragma omp parallel for num_threads(ctx.threads()) schedule(static)
  for (long long c = 0; c < chunks; ++c) {
    size_t begin = static_cast<size_t>(c) * 4096;
    size_t end = begin + 4096 < rounded ? begin + 4096 : rounded;
    std::memset(p + begin, 0, end - begin);
  }
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& other) noexcept { swap(other); }

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    swap(other);
  }
  return *this;
}

void Buffer::swap(Buffer& other) noexcept {
  std::swap(ctx_, other.ctx_);
  std::swap(data_, other.data_);
  std::swap(bytes_, other.bytes_);
}

void Buffer::release() noexcept {
  if (data_ == nullptr) return;
  if (ctx_->is_cuda())
    cuda::Device::release(data_);
  else
    std::free(data_);
  data_ = nullptr;
  bytes_ = 0;
}

}  // namespace opsplit
