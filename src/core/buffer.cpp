#include "core/buffer.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

namespace opsplit {

namespace {

// Host memory a buffer may take: what the system says is available (Linux's
// MemAvailable), else its physical memory. A larger request can be granted lazily
// (overcommit) and then kill the host program when its pages are touched; it is refused
// here instead, before anything is allocated.
size_t host_memory_available() {
  if (std::FILE* f = std::fopen("/proc/meminfo", "r")) {
    char line[128];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof line, f) != nullptr)
      found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    std::fclose(f);
    if (found) return static_cast<size_t>(kib) * 1024;
  }
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page) : SIZE_MAX;
}

}  // namespace

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
  const size_t available = host_memory_available();
  if (rounded > available)
    fail(OPSPLIT_ERROR_OUT_OF_MEMORY, "allocating " + std::to_string(bytes) + " bytes of host memory: " +
                                          std::to_string(available) + " bytes are available");
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
  std::swap(owns_, other.owns_);
}

Buffer Buffer::view(Context& ctx, void* data, size_t bytes) {
  Buffer b;
  b.ctx_ = &ctx, b.data_ = data, b.bytes_ = bytes, b.owns_ = false;
  return b;
}

void Buffer::copy_in(const void* host, size_t bytes, size_t offset) {
  if (bytes == 0) return;
  if (offset > bytes_ || bytes > bytes_ - offset)
    fail(OPSPLIT_ERROR_INTERNAL, "a copy of " + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
                                     " into a buffer of " + std::to_string(bytes_));
  unsigned char* to = as<unsigned char>() + offset;
  if (ctx_->is_cuda()) {
    ctx_->device().copy_to_device(to, host, bytes);
    ctx_->device().synchronize();  // host may be pinned memory, which the copy reads later
  } else {
    std::memcpy(to, host, bytes);
  }
}

void Buffer::copy_out(void* host, size_t bytes, size_t offset) const {
  if (bytes == 0) return;
  if (offset > bytes_ || bytes > bytes_ - offset)
    fail(OPSPLIT_ERROR_INTERNAL, "a copy of " + std::to_string(bytes) + " bytes at " + std::to_string(offset) +
                                     " out of a buffer of " + std::to_string(bytes_));
  const unsigned char* from = as<const unsigned char>() + offset;
  if (ctx_->is_cuda())
    ctx_->device().copy_to_host(host, from, bytes);
  else
    std::memcpy(host, from, bytes);
}

void Buffer::copy_from(const Buffer& other) {
  if (other.bytes_ != bytes_)
    fail(OPSPLIT_ERROR_INTERNAL, "a copy of a buffer of " + std::to_string(other.bytes_) + " bytes into one of " +
                                     std::to_string(bytes_));
  const size_t bytes = bytes_;
  if (bytes == 0) return;
  if (ctx_->is_cuda())
    ctx_->device().copy_on_device(data_, other.data_, bytes);
  else
    std::memcpy(data_, other.data_, bytes);
}

void Buffer::zero() {
  if (bytes_ == 0) return;
  if (ctx_->is_cuda())
    ctx_->device().zero(data_, bytes_);
  else
    std::memset(data_, 0, bytes_);
}

void Buffer::release() noexcept {
  if (data_ == nullptr) return;
  if (owns_ && ctx_->is_cuda())
    cuda::Device::release(data_);
  else if (owns_)
    std::free(data_);  // (a view's memory is the host's)
  data_ = nullptr;
  bytes_ = 0;
  owns_ = true;
}

Buffer regrown(Context& ctx, const Buffer& from, int64_t planes, int64_t rows, size_t row_bytes, int64_t new_rows,
               size_t new_row_bytes, int64_t top, size_t left) {
  Buffer grown(ctx, static_cast<size_t>(planes * new_rows) * new_row_bytes);
  for (int64_t p = 0; p < planes; ++p) {
    unsigned char* to = grown.as<unsigned char>() + static_cast<size_t>(p * new_rows + top) * new_row_bytes + left;
    const unsigned char* in = from.as<const unsigned char>() + static_cast<size_t>(p * rows) * row_bytes;
    if (ctx.is_cuda()) {
      ctx.device().copy_rows_on_device(to, new_row_bytes, in, row_bytes, row_bytes, static_cast<size_t>(rows));
      continue;
    }
    for (int64_t r = 0; r < rows; ++r) std::memcpy(to + r * new_row_bytes, in + r * row_bytes, row_bytes);
  }
  return grown;
}

}  // namespace opsplit
