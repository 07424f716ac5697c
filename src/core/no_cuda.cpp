// The CUDA side of a context in a build without CUDA: every use says so.
#include "core/cuda_device.hpp"
#include "core/pinned.hpp"
#include "core/error.hpp"

namespace opsplit::cuda {

namespace {
const char* kWhy = "opsplit was built without CUDA (OPSPLIT_ENABLE_CUDA=OFF or no nvcc at build time)";
}

bool available(std::string* why) {
  if (why) *why = kWhy;
  return false;
}

int device_count() { return 0; }

Device::Device(int device) : id_(device) { fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, kWhy); }
Device::~Device() = default;
void Device::activate() const {}
void Device::synchronize() const {}
void Device::follow_host() const {}
void Device::finish_for_host() const {}
PointerFacts describe(const void*) { return PointerFacts{}; }
void* Device::allocate(size_t) const { fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, kWhy); }
void Device::release(void*) {}
void Device::zero(void*, size_t) const {}
void Device::copy_to_device(void*, const void*, size_t) const {}
void Device::copy_to_host(void*, const void*, size_t) const {}
void Device::copy_on_device(void*, const void*, size_t) const {}
void Device::copy_rows_on_device(void*, size_t, const void*, size_t, size_t, size_t) const {}
void Device::mark() const {}
void Device::wait_for_mark() const {}
void Device::copy_to_host_beside(void*, const void*, size_t) const {}
void Device::copy_to_device_beside(void*, const void*, size_t) const {}
void Device::wait_beside() const {}
void Device::join_beside() const {}
void Device::make_beside() const {}
bool Device::export_memory(const void*, int64_t*) const noexcept { return false; }
void Device::uuid(int64_t out[2]) const noexcept { out[0] = out[1] = 0; }
bool Device::may_reach(const int64_t*) const noexcept { return false; }
void* Device::open_peer_memory(const int64_t*) const noexcept { return nullptr; }
void Device::close_peer_memory(void*, int) noexcept {}
void Device::copy_from_peer_beside(void*, const void*, size_t) const {}
LocalMemoryRelease::LocalMemoryRelease() = default;
LocalMemoryRelease::~LocalMemoryRelease() = default;
void check_launch(const char*) {}

}  // namespace opsplit::cuda

namespace opsplit::cuda {
PinnedBuffer::PinnedBuffer(size_t) { fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, kWhy); }
PinnedBuffer::~PinnedBuffer() = default;
PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&&) noexcept { return *this; }
}  // namespace opsplit::cuda
