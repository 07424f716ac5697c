#include "core/cuda_device.hpp"
#include "core/pinned.hpp"

#include <cuda.h>  // the driver's types only: its functions are reached through the runtime
#include <cuda_runtime.h>

#include <cstring>

#include "core/error.hpp"

namespace opsplit::cuda {

namespace {

[[noreturn]] void fail_cuda(cudaError_t err, const std::string& what) {
  cudaGetLastError();  // clear a sticky-free error so the context stays usable
  opsplit_status status = err == cudaErrorMemoryAllocation ? OPSPLIT_ERROR_OUT_OF_MEMORY : OPSPLIT_ERROR_DEVICE;
  fail(status, what + " failed: " + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ")");
}

void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) fail_cuda(err, what);
}

cudaStream_t as_stream(void* s) { return static_cast<cudaStream_t>(s); }

// The driver's pointer queries, reached through the runtime's entry-point lookup: the
// library links the static runtime only, never libcuda by name.
struct DriverQueries {
  CUresult (*attributes)(unsigned, CUpointer_attribute*, void**, CUdeviceptr) = nullptr;
  CUresult (*current_context)(CUcontext*) = nullptr;
};

template <class Function>
void find_driver_function(const char* name, int version, Function& to) {
  void* found = nullptr;
  cudaDriverEntryPointQueryResult result{};
  if (cudaGetDriverEntryPointByVersion(name, &found, version, cudaEnableDefault, &result) == cudaSuccess &&
      result == cudaDriverEntryPointSuccess)
    to = reinterpret_cast<Function>(found);
  cudaGetLastError();
}

const DriverQueries& driver_queries() {
  static const DriverQueries queries = [] {
    DriverQueries q;
    find_driver_function("cuPointerGetAttributes", 7000, q.attributes);
    find_driver_function("cuCtxGetCurrent", 4000, q.current_context);
    return q;
  }();
  return queries;
}

}  // namespace

PointerFacts describe(const void* pointer) {
  PointerFacts facts;
  cudaPointerAttributes a{};
  // Since CUDA 11 memory CUDA does not know is cudaMemoryTypeUnregistered, not an error.
  if (cudaPointerGetAttributes(&a, pointer) != cudaSuccess) {
    cudaGetLastError();
    return facts;
  }
  if (a.type == cudaMemoryTypeHost) facts.kind = PointerFacts::Kind::page_locked_host;
  if (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged) return facts;
  facts.kind = a.type == cudaMemoryTypeDevice ? PointerFacts::Kind::device : PointerFacts::Kind::managed;
  facts.device = a.device;
  const DriverQueries& driver = driver_queries();
  if (driver.attributes == nullptr) return facts;
  // RANGE_* rather than cuMemGetAddressRange: for memory mapped from several cuMemCreate
  // handles the range is the whole mapping, not one handle's part (measured on an H200,
  // docs/research/device_pointers.md).
  CUcontext owner = nullptr;
  CUdeviceptr start = 0;
  size_t size = 0;
  CUpointer_attribute which[3] = {CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                  CU_POINTER_ATTRIBUTE_RANGE_SIZE};
  void* values[3] = {&owner, &start, &size};
  if (driver.attributes(3, which, values, reinterpret_cast<CUdeviceptr>(pointer)) != CUDA_SUCCESS) return facts;
  CUcontext current = nullptr;
  // Managed memory is reachable from any context; device memory only from its own.
  if (facts.kind == PointerFacts::Kind::device && owner != nullptr && driver.current_context != nullptr &&
      driver.current_context(&current) == CUDA_SUCCESS)
    facts.other_context = owner != current;
  facts.range_known = size > 0;
  facts.range_start = static_cast<uintptr_t>(start);
  facts.range_size = size;
  return facts;
}

// Defined in kernels/field/probe.cu: asks whether this build carries code for the device.
cudaError_t probe_kernel_image();

bool available(std::string* why) {
  int count = 0;
  cudaError_t err = cudaGetDeviceCount(&count);
  if (err == cudaErrorInsufficientDriver) {
    int driver = 0, runtime = 0;
    cudaDriverGetVersion(&driver);
    cudaRuntimeGetVersion(&runtime);
    if (why)
      *why = driver == 0 ? std::string("no NVIDIA driver is installed")
                         : "the NVIDIA driver (CUDA " + std::to_string(driver / 1000) + "." +
                               std::to_string(driver % 1000 / 10) + ") is older than this build's CUDA runtime (" +
                               std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10) + ")";
    cudaGetLastError();
    return false;
  }
  if (err != cudaSuccess || count == 0) {
    if (why) *why = std::string("no CUDA device is present (") + cudaGetErrorName(err) + ")";
    cudaGetLastError();
    return false;
  }
  // The current device must be covered by the architectures this build carries.
  err = probe_kernel_image();
  if (err != cudaSuccess) {
    if (why) *why = std::string("the CUDA device is not covered by this build's architectures (") + cudaGetErrorName(err) + ")";
    cudaGetLastError();
    return false;
  }
  return true;
}

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return count;
}

Device::Device(int device) : id_(device) {
  std::string why;
  if (!available(&why)) fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE, "the CUDA backend is unavailable: " + why);
  int count = 0;
  cudaGetDeviceCount(&count);
  if (device < 0 || device >= count)
    fail(OPSPLIT_ERROR_INVALID_ARGUMENT,
         "cuda_device=" + std::to_string(device) + " is not in [0, " + std::to_string(count) + ")");
  check(cudaSetDevice(device), "cudaSetDevice");
  cudaError_t err = probe_kernel_image();
  if (err != cudaSuccess) {
    cudaDeviceProp prop{};
    cudaGetDeviceProperties(&prop, device);
    cudaGetLastError();
    fail(OPSPLIT_ERROR_BACKEND_UNAVAILABLE,
         std::string("device ") + std::to_string(device) + " (" + prop.name + ", compute capability " +
             std::to_string(prop.major) + "." + std::to_string(prop.minor) +
             ") is not covered by the CUDA architectures opsplit was built for (" + cudaGetErrorName(err) + ")");
  }
  check(cudaDeviceGetAttribute(&multiprocessors_, cudaDevAttrMultiProcessorCount, device),
        "cudaDeviceGetAttribute(cudaDevAttrMultiProcessorCount)");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  own_stream_ = s;
}

Device::~Device() {
  cudaSetDevice(id_);
  cudaStreamSynchronize(as_stream(stream()));
  cudaStreamDestroy(as_stream(own_stream_));
  if (beside_ != nullptr) {
    cudaStreamSynchronize(as_stream(beside_));
    cudaStreamDestroy(as_stream(beside_));
    cudaEventDestroy(static_cast<cudaEvent_t>(copied_));
  }
  if (mark_ != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(mark_));
  if (host_mark_ != nullptr) cudaEventDestroy(static_cast<cudaEvent_t>(host_mark_));
  cudaGetLastError();
}

void Device::activate() const { check(cudaSetDevice(id_), "cudaSetDevice"); }

void Device::synchronize() const { check(cudaStreamSynchronize(as_stream(stream())), "the device work of this context"); }

void Device::follow_host() const {
  if (stream_ != nullptr) return;
  if (host_mark_ == nullptr) {
    cudaEvent_t event = nullptr;
    check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    host_mark_ = event;
  }
  check(cudaEventRecord(static_cast<cudaEvent_t>(host_mark_), cudaStreamLegacy), "cudaEventRecord");
  check(cudaStreamWaitEvent(as_stream(own_stream_), static_cast<cudaEvent_t>(host_mark_), 0), "cudaStreamWaitEvent");
}

void Device::finish_for_host() const {
  if (stream_ == nullptr) synchronize();
}

void* Device::allocate(size_t bytes) const {
  // A request larger than the free memory is refused before cudaMalloc is asked: with
  // the number, and without a failed CUDA call (which compute-sanitizer reports).
  size_t free_bytes = 0, total_bytes = 0;
  check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  if (bytes > free_bytes)
    fail(OPSPLIT_ERROR_OUT_OF_MEMORY, "allocating " + std::to_string(bytes) + " bytes of device memory: " +
                                          std::to_string(free_bytes) + " bytes are free");
  void* p = nullptr;
  cudaError_t err = cudaMalloc(&p, bytes == 0 ? 1 : bytes);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    fail(OPSPLIT_ERROR_OUT_OF_MEMORY, "cudaMalloc of " + std::to_string(bytes) + " bytes: the device is out of memory");
  }
  check(err, "cudaMalloc");
  return p;
}

void Device::release(void* pointer) {
  if (pointer != nullptr) cudaFree(pointer);
}

void Device::zero(void* pointer, size_t bytes) const {
  check(cudaMemsetAsync(pointer, 0, bytes, as_stream(stream())), "cudaMemsetAsync");
}

void Device::copy_to_device(void* device, const void* host, size_t bytes) const {
  check(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, as_stream(stream())), "cudaMemcpyAsync to the device");
  // From pageable memory cudaMemcpyAsync returns once the host array has been read
  // (CUDA runtime API, "API synchronization behavior"), so the caller may reuse it.
}

void Device::copy_to_host(void* host, const void* device, size_t bytes) const {
  check(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, as_stream(stream())), "cudaMemcpyAsync to the host");
  synchronize();
}

void Device::mark() const {
  if (mark_ == nullptr) {
    cudaEvent_t event = nullptr;
    check(cudaEventCreateWithFlags(&event, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    mark_ = event;
  }
  check(cudaEventRecord(static_cast<cudaEvent_t>(mark_), as_stream(stream())), "cudaEventRecord");
}

void Device::wait_for_mark() const {
  if (mark_ != nullptr) check(cudaEventSynchronize(static_cast<cudaEvent_t>(mark_)), "the device work of this context");
}

void Device::make_beside() const {
  if (beside_ != nullptr) return;
  cudaStream_t s = nullptr;
  cudaEvent_t e = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  const cudaError_t made = cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
  if (made != cudaSuccess) cudaStreamDestroy(s);
  check(made, "cudaEventCreateWithFlags");
  beside_ = s, copied_ = e;
}

void Device::copy_to_host_beside(void* host, const void* device, size_t bytes) const {
  make_beside();
  mark();
  check(cudaStreamWaitEvent(as_stream(beside_), static_cast<cudaEvent_t>(mark_), 0), "cudaStreamWaitEvent");
  check(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, as_stream(beside_)), "cudaMemcpyAsync to the host");
}

void Device::copy_to_device_beside(void* device, const void* host, size_t bytes) const {
  make_beside();
  check(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, as_stream(beside_)), "cudaMemcpyAsync to the device");
}

void Device::wait_beside() const {
  if (beside_ != nullptr) check(cudaStreamSynchronize(as_stream(beside_)), "the copies of this context");
}

void Device::join_beside() const {
  if (beside_ == nullptr) return;
  check(cudaEventRecord(static_cast<cudaEvent_t>(copied_), as_stream(beside_)), "cudaEventRecord");
  check(cudaStreamWaitEvent(as_stream(stream()), static_cast<cudaEvent_t>(copied_), 0), "cudaStreamWaitEvent");
}

bool Device::export_memory(const void* allocation, int64_t handle[8]) const noexcept {
  static_assert(sizeof(cudaIpcMemHandle_t) == 8 * sizeof(int64_t), "an IPC handle is 64 bytes");
  cudaIpcMemHandle_t h{};
  if (cudaIpcGetMemHandle(&h, const_cast<void*>(allocation)) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  std::memcpy(handle, &h, sizeof h);
  return true;
}

namespace {
// Device d's UUID as two words; false (zeros) where it cannot be read.
bool uuid_of(int d, int64_t out[2]) {
  out[0] = out[1] = 0;
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  std::memcpy(out, &prop.uuid, sizeof prop.uuid);
  return true;
}
}  // namespace

void Device::uuid(int64_t out[2]) const noexcept { uuid_of(id_, out); }

bool Device::may_reach(const int64_t uuid[2]) const noexcept {
  if (uuid[0] == 0 && uuid[1] == 0) return false;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  for (int d = 0; d < count; ++d) {
    int64_t other[2];
    if (!uuid_of(d, other) || other[0] != uuid[0] || other[1] != uuid[1]) continue;
    int peer = 0;
    if (d != id_ && cudaDeviceCanAccessPeer(&peer, id_, d) != cudaSuccess) peer = 0;
    cudaGetLastError();
    return d == id_ || peer != 0;
  }
  cudaGetLastError();
  return true;  // not seen here
}

void* Device::open_peer_memory(const int64_t handle[8]) const noexcept {
  cudaIpcMemHandle_t h{};
  std::memcpy(&h, handle, sizeof h);
  void* mapped = nullptr;
  if (cudaSetDevice(id_) != cudaSuccess ||
      cudaIpcOpenMemHandle(&mapped, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
    cudaGetLastError();
    return nullptr;
  }
  return mapped;
}

void Device::close_peer_memory(void* mapped, int device) noexcept {
  if (mapped == nullptr) return;
  int current = -1;
  const bool switched = cudaGetDevice(&current) == cudaSuccess && current != device && cudaSetDevice(device) == cudaSuccess;
  if (cudaIpcCloseMemHandle(mapped) != cudaSuccess) cudaGetLastError();
  if (switched) cudaSetDevice(current);
  cudaGetLastError();
}

void Device::copy_from_peer_beside(void* to, const void* from, size_t bytes) const {
  make_beside();
  check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDefault, as_stream(beside_)), "cudaMemcpyAsync from a peer's memory");
}

void Device::copy_on_device(void* to, const void* from, size_t bytes) const {
  check(cudaMemcpyAsync(to, from, bytes, cudaMemcpyDeviceToDevice, as_stream(stream())), "cudaMemcpyAsync on the device");
}

void Device::copy_rows_on_device(void* to, size_t to_pitch, const void* from, size_t from_pitch, size_t row_bytes,
                                 size_t rows) const {
  check(cudaMemcpy2DAsync(to, to_pitch, from, from_pitch, row_bytes, rows, cudaMemcpyDeviceToDevice,
                          as_stream(stream())),
        "cudaMemcpy2DAsync on the device");
}

void check_launch(const char* kernel) {
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) fail_cuda(err, std::string("launch of ") + kernel);
}

LocalMemoryRelease::LocalMemoryRelease() {
  known_ = cudaDeviceGetLimit(&limit_, cudaLimitStackSize) == cudaSuccess;
  if (!known_) cudaGetLastError();
}

LocalMemoryRelease::~LocalMemoryRelease() {
  // A failure here only leaves the reservation in place: not worth an error, and not
  // left behind as the runtime's last error for the next launch's check either.
  if (known_ && cudaDeviceSetLimit(cudaLimitStackSize, limit_) != cudaSuccess) cudaGetLastError();
}

}  // namespace opsplit::cuda

namespace opsplit::cuda {

PinnedBuffer::PinnedBuffer(size_t bytes) : bytes_(bytes) {
  void* p = nullptr;
  const cudaError_t err = cudaMallocHost(&p, bytes);
  if (err != cudaSuccess) {
    cudaGetLastError();
    bytes_ = 0;
    fail(OPSPLIT_ERROR_OUT_OF_MEMORY,
         "cudaMallocHost of " + std::to_string(bytes) + " bytes failed: " + cudaGetErrorString(err));
  }
  data_ = static_cast<unsigned char*>(p);
}

PinnedBuffer::~PinnedBuffer() {
  if (data_ != nullptr) cudaFreeHost(data_);
}

PinnedBuffer& PinnedBuffer::operator=(PinnedBuffer&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) cudaFreeHost(data_);
    data_ = other.data_, bytes_ = other.bytes_;
    other.data_ = nullptr, other.bytes_ = 0;
  }
  return *this;
}

}  // namespace opsplit::cuda
