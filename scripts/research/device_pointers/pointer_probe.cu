#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstdint>

typedef CUresult (*GetAttr)(void*, CUpointer_attribute, CUdeviceptr);
typedef CUresult (*GetRange)(CUdeviceptr*, size_t*, CUdeviceptr);
typedef CUresult (*PrimaryRetain)(CUcontext*, CUdevice);
typedef CUresult (*CtxCreate)(CUcontext*, void*, unsigned, CUdevice);
typedef CUresult (*CtxGet)(CUcontext*);
typedef CUresult (*CtxSet)(CUcontext);
static GetAttr getattr; static GetRange getrange; static PrimaryRetain retain; static CtxGet ctxget; static CtxSet ctxset;

template <class F> F entry(const char* name, int ver) {
  void* f = nullptr; cudaDriverEntryPointQueryResult q;
  cudaError_t e = cudaGetDriverEntryPointByVersion(name, &f, ver, cudaEnableDefault, &q);
  if (e != cudaSuccess || q != cudaDriverEntryPointSuccess) { printf("entry %s failed %d %d\n", name, (int)e, (int)q); }
  return (F)f;
}

extern "C" void describe(const char* what, const void* p, size_t bytes) {
  cudaPointerAttributes a{};
  cudaError_t e = cudaPointerGetAttributes(&a, p);
  printf("%-28s err=%d type=%d device=%d devptr=%p hostptr=%p", what, (int)e, (int)a.type, a.device, a.devicePointer, a.hostPointer);
  if (e != cudaSuccess) { cudaGetLastError(); }
  if (a.type == cudaMemoryTypeDevice || a.type == cudaMemoryTypeManaged) {
    CUcontext c = nullptr; CUresult r1 = getattr(&c, CU_POINTER_ATTRIBUTE_CONTEXT, (CUdeviceptr)p);
    CUcontext prim = nullptr; retain(&prim, a.device);
    CUdeviceptr base = 0; size_t size = 0; CUresult r2 = getrange(&base, &size, (CUdeviceptr)p);
    void* pool = nullptr; CUresult r3 = getattr(&pool, CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, (CUdeviceptr)p);
    CUdeviceptr rs = 0; size_t rsz = 0;
    CUresult r4 = getattr(&rs, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, (CUdeviceptr)p);
    CUresult r5 = getattr(&rsz, CU_POINTER_ATTRIBUTE_RANGE_SIZE, (CUdeviceptr)p);
    printf(" ctx(r%d)=%s range(r%d)=[+%lld,%zu] need %zu pool(r%d)=%p rangeattr(r%d,%d)=[+%lld,%zu]",
           (int)r1, c == prim ? "primary" : (c ? "OTHER" : "null"), (int)r2, (long long)((CUdeviceptr)p - base), size, bytes, (int)r3, pool,
           (int)r4, (int)r5, (long long)((CUdeviceptr)p - rs), rsz);
  }
  printf("\n");
}

extern "C" void probe_init() {
  cudaSetDevice(0); cudaFree(0);
  getattr = entry<GetAttr>("cuPointerGetAttribute", 4000);
  getrange = entry<GetRange>("cuMemGetAddressRange", 3020);
  retain = entry<PrimaryRetain>("cuDevicePrimaryCtxRetain", 7000);
  ctxget = entry<CtxGet>("cuCtxGetCurrent", 4000);
  ctxset = entry<CtxSet>("cuCtxSetCurrent", 4000);
}

#ifndef NO_MAIN
int main() {
  probe_init();
  size_t n = 1000000 * 8;
  void* m = malloc(n); describe("malloc", m, n);
  double stackv[4]; describe("stack", stackv, 32);
  void* h; cudaMallocHost(&h, n); describe("cudaMallocHost", h, n);
  void* reg = malloc(n); cudaHostRegister(reg, n, 0); describe("cudaHostRegister", reg, n);
  void* mg; cudaMallocManaged(&mg, n); describe("cudaMallocManaged", mg, n);
  void* d; cudaMalloc(&d, n - 8); describe("cudaMalloc(n-8)", d, n);
  describe("cudaMalloc interior+1000", (char*)d + 1000, n - 1000);
  describe("cudaMalloc +1 misaligned", (char*)d + 1, 8);
  void* d2; cudaMalloc(&d2, n); describe("cudaMalloc(n)", d2, n);
  void* d3; cudaMalloc(&d3, 64); cudaFree(d3); describe("freed", d3, 64);
  cudaStream_t s; cudaStreamCreate(&s);
  void* a; cudaMallocAsync(&a, n, s); cudaStreamSynchronize(s); describe("cudaMallocAsync", a, n);
  void* a2; cudaMallocAsync(&a2, 1024, s); cudaStreamSynchronize(s); describe("cudaMallocAsync small", a2, 1024);
  describe("cudaMallocAsync small too long", a2, 1 << 22);
  // other context
  CtxCreate create = entry<CtxCreate>("cuCtxCreate", 11040);
  CUcontext before; ctxget(&before);
  CUcontext other = nullptr;
  if (create) {
    CUresult r = create(&other, nullptr, 0, 0); printf("cuCtxCreate r=%d\n", (int)r);
    void* od = nullptr;
    typedef CUresult (*MemAlloc)(CUdeviceptr*, size_t);
    MemAlloc ma = entry<MemAlloc>("cuMemAlloc", 3020);
    CUdeviceptr dp; CUresult r2 = ma(&dp, n); od = (void*)dp; printf("cuMemAlloc in other r=%d\n", (int)r2);
    ctxset(before);
    describe("other ctx cuMemAlloc", od, n);
  }
  int count = 0; cudaGetDeviceCount(&count); printf("devices %d\n", count);
  if (count > 1) { cudaSetDevice(1); void* d4; cudaMalloc(&d4, n); cudaSetDevice(0); describe("device 1 cudaMalloc", d4, n); }
  // VMM: two handles mapped contiguously
  {
    typedef CUresult (*Gran)(size_t*, const CUmemAllocationProp*, CUmemAllocationGranularity_flags);
    typedef CUresult (*Reserve)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long);
    typedef CUresult (*Create)(CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*, unsigned long long);
    typedef CUresult (*Map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle, unsigned long long);
    typedef CUresult (*SetAccess)(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t);
    Gran gran = entry<Gran>("cuMemGetAllocationGranularity", 10020);
    Reserve reserve = entry<Reserve>("cuMemAddressReserve", 10020);
    Create mcreate = entry<Create>("cuMemCreate", 10020);
    Map map = entry<Map>("cuMemMap", 10020);
    SetAccess access = entry<SetAccess>("cuMemSetAccess", 10020);
    CUmemAllocationProp prop{}; prop.type = CU_MEM_ALLOCATION_TYPE_PINNED; prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE; prop.location.id = 0;
    size_t g = 0; gran(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    CUdeviceptr va; reserve(&va, 2 * g, 0, 0, 0);
    CUmemGenericAllocationHandle h1, h2; mcreate(&h1, g, &prop, 0); mcreate(&h2, g, &prop, 0);
    map(va, g, 0, h1, 0); map(va + g, g, 0, h2, 0);
    CUmemAccessDesc ad{}; ad.location = prop.location; ad.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE; access(va, 2 * g, &ad, 1);
    printf("granularity %zu\n", g);
    describe("VMM two handles", (void*)va, 2 * g);
    describe("VMM second half", (void*)(va + g), g);
  }
  printf("last error %d\n", (int)cudaGetLastError());
  return 0;
}
#endif
