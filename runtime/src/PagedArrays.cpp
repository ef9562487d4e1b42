#include "overlap/PagedArrays.h"

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cassert>
#include <mutex>

namespace overlap {
namespace {

// The driver's virtual memory calls, found once through the runtime (no link against libcuda).
struct DriverCalls {
  CUresult (*deviceGetAttribute)(int*, CUdevice_attribute, CUdevice) = nullptr;
  CUresult (*granularity)(size_t*, const CUmemAllocationProp*,
                          CUmemAllocationGranularity_flags) = nullptr;
  CUresult (*create)(CUmemGenericAllocationHandle*, size_t, const CUmemAllocationProp*,
                     unsigned long long) = nullptr;
  CUresult (*release)(CUmemGenericAllocationHandle) = nullptr;
  CUresult (*reserve)(CUdeviceptr*, size_t, size_t, CUdeviceptr, unsigned long long) = nullptr;
  CUresult (*free)(CUdeviceptr, size_t) = nullptr;
  CUresult (*map)(CUdeviceptr, size_t, size_t, CUmemGenericAllocationHandle,
                  unsigned long long) = nullptr;
  CUresult (*unmap)(CUdeviceptr, size_t) = nullptr;
  CUresult (*setAccess)(CUdeviceptr, size_t, const CUmemAccessDesc*, size_t) = nullptr;
  cudaError_t found = cudaSuccess;
};

template <class F> cudaError_t lookUp(const char* name, F* function) {
  void* address = nullptr;
  cudaDriverEntryPointQueryResult result = cudaDriverEntryPointSuccess;
  const cudaError_t error =
      cudaGetDriverEntryPointByVersion(name, &address, 12000, cudaEnableDefault, &result);
  if (error != cudaSuccess)
    return error;
  if (result != cudaDriverEntryPointSuccess || address == nullptr)
    return cudaErrorNotSupported;
  *function = reinterpret_cast<F>(address);
  return cudaSuccess;
}

const DriverCalls& driver() {
  static const DriverCalls calls = [] {
    DriverCalls d;
    const cudaError_t errors[] = {lookUp("cuDeviceGetAttribute", &d.deviceGetAttribute),
                                  lookUp("cuMemGetAllocationGranularity", &d.granularity),
                                  lookUp("cuMemCreate", &d.create),
                                  lookUp("cuMemRelease", &d.release),
                                  lookUp("cuMemAddressReserve", &d.reserve),
                                  lookUp("cuMemAddressFree", &d.free),
                                  lookUp("cuMemMap", &d.map),
                                  lookUp("cuMemUnmap", &d.unmap),
                                  lookUp("cuMemSetAccess", &d.setAccess)};
    for (cudaError_t error : errors)
      if (error != cudaSuccess && d.found == cudaSuccess)
        d.found = error;
    return d;
  }();
  return calls;
}

// The driver's results share the runtime's error numbers (CUDA_ERROR_OUT_OF_MEMORY is
// cudaErrorMemoryAllocation, and so on), so a Status can carry them.
cudaError_t asRuntimeError(CUresult result) {
  return static_cast<cudaError_t>(result);
}

CUmemAllocationProp deviceMemory(int device) {
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  return prop;
}

CUmemAccessDesc readWrite(int device) {
  CUmemAccessDesc access = {};
  access.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  access.location.id = device;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  return access;
}

} // namespace

Status devicePageBytes(int device, std::size_t* bytes) {
  *bytes = 0;
  const DriverCalls& d = driver();
  if (d.found != cudaSuccess)
    return Status::success(); // a driver without these calls pages nothing
  int supported = 0;
  OVERLAP_CUDA_TRY(asRuntimeError(d.deviceGetAttribute(
      &supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, device)));
  if (supported == 0)
    return Status::success();
  const CUmemAllocationProp prop = deviceMemory(device);
  OVERLAP_CUDA_TRY(asRuntimeError(d.granularity(bytes, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM)));
  return Status::success();
}

PagedArrays::~PagedArrays() {
  (void)release();
}

PagedArrays::Array* PagedArrays::find(int array) {
  for (Array& a : arrays_)
    if (a.index == array)
      return &a;
  return nullptr;
}

const PagedArrays::Array* PagedArrays::find(int array) const {
  for (const Array& a : arrays_)
    if (a.index == array)
      return &a;
  return nullptr;
}

std::uintptr_t PagedArrays::pageAddress(const Slot& slot, long long page) const {
  return static_cast<std::uintptr_t>(static_cast<std::intptr_t>(slot.origin) +
                                     static_cast<std::intptr_t>(page) *
                                         static_cast<std::intptr_t>(pageBytes_));
}

Status PagedArrays::create(const DeviceLayout& layout, int device) {
  OVERLAP_TRY(release());
  pageBytes_ = layout.pageBytes;
  device_ = device;
  const DriverCalls& d = driver();
  const CUmemAllocationProp prop = deviceMemory(device);
  const CUmemAccessDesc access = readWrite(device);
  for (std::size_t i = 0; i < layout.placement.size(); ++i) {
    if (layout.placement[i] != ArrayPlacement::Paged)
      continue;
    assert(d.found == cudaSuccess && pageBytes_ > 0 && "paged without virtual memory");
    // Recorded before each allocation, so that release() frees what was made when one fails.
    arrays_.push_back({});
    Array& array = arrays_.back();
    array.index = static_cast<int>(i);
    array.residentPages = layout.residentPages[i];
    array.slotPages = layout.slotPages[i];
    array.reserved =
        static_cast<std::size_t>(layout.reservedPages[i] + 2 * array.slotPages) * pageBytes_;
    const std::size_t own = static_cast<std::size_t>(array.slotPages) * pageBytes_;
    if (!array.residentPages.empty())
      OVERLAP_CUDA_TRY(asRuntimeError(
          d.create(&array.resident,
                   static_cast<std::size_t>(array.residentPages.size()) * pageBytes_, &prop, 0)));
    for (int s = 0; s < layout.slots; ++s) {
      array.slots.push_back({});
      Slot& slot = array.slots.back();
      CUdeviceptr range = 0;
      OVERLAP_CUDA_TRY(asRuntimeError(d.reserve(&range, array.reserved, 0, 0, 0)));
      slot.range = static_cast<std::uintptr_t>(range);
      slot.origin = slot.range + static_cast<std::size_t>(array.slotPages) * pageBytes_;
      if (!array.residentPages.empty()) {
        const CUdeviceptr at = pageAddress(slot, array.residentPages.begin);
        const std::size_t bytes = static_cast<std::size_t>(array.residentPages.size()) * pageBytes_;
        OVERLAP_CUDA_TRY(asRuntimeError(d.map(at, bytes, 0, array.resident, 0)));
        slot.residentMapped = true;
        OVERLAP_CUDA_TRY(asRuntimeError(d.setAccess(at, bytes, &access, 1)));
      }
      if (own > 0)
        OVERLAP_CUDA_TRY(asRuntimeError(d.create(&slot.own, own, &prop, 0)));
    }
  }
  return Status::success();
}

void* PagedArrays::base(int array, int slot) const {
  const Array* a = find(array);
  assert(a != nullptr && "not a paged array");
  return reinterpret_cast<void*>(a->slots[static_cast<std::size_t>(slot)].origin);
}

Status PagedArrays::mapChunk(const DeviceLayout& layout, int array, int slot, int chunk) {
  Array* a = find(array);
  assert(a != nullptr && "not a paged array");
  Slot& s = a->slots[static_cast<std::size_t>(slot)];
  const PageRun wanted = slotMapping(
      layout.chunkPages[static_cast<std::size_t>(chunk)][static_cast<std::size_t>(array)],
      a->residentPages, a->slotPages);
  if (wanted == s.mapped)
    return Status::success();
  const DriverCalls& d = driver();
  if (!s.mapped.empty()) {
    OVERLAP_CUDA_TRY(asRuntimeError(d.unmap(
        pageAddress(s, s.mapped.begin), static_cast<std::size_t>(s.mapped.size()) * pageBytes_)));
    s.mapped = {};
  }
  if (wanted.empty())
    return Status::success();
  const CUdeviceptr at = pageAddress(s, wanted.begin);
  const std::size_t bytes = static_cast<std::size_t>(wanted.size()) * pageBytes_;
  OVERLAP_CUDA_TRY(asRuntimeError(d.map(at, bytes, 0, s.own, 0)));
  s.mapped = wanted;
  const CUmemAccessDesc access = readWrite(device_);
  OVERLAP_CUDA_TRY(asRuntimeError(d.setAccess(at, bytes, &access, 1)));
  return Status::success();
}

Status PagedArrays::release() {
  Status first;
  const DriverCalls& d = driver();
  const auto keep = [&first](CUresult result, const char* call) {
    if (result != CUDA_SUCCESS && first.ok())
      first = {asRuntimeError(result), call, __FILE__, __LINE__};
  };
  for (Array& array : arrays_) {
    for (Slot& slot : array.slots) {
      if (!slot.mapped.empty())
        keep(d.unmap(pageAddress(slot, slot.mapped.begin),
                     static_cast<std::size_t>(slot.mapped.size()) * pageBytes_),
             "cuMemUnmap(chunk pages)");
      if (slot.residentMapped)
        keep(d.unmap(pageAddress(slot, array.residentPages.begin),
                     static_cast<std::size_t>(array.residentPages.size()) * pageBytes_),
             "cuMemUnmap(resident pages)");
      if (slot.own != 0)
        keep(d.release(slot.own), "cuMemRelease(slot)");
      if (slot.range != 0)
        keep(d.free(slot.range, array.reserved), "cuMemAddressFree");
    }
    if (array.resident != 0)
      keep(d.release(array.resident), "cuMemRelease(resident)");
  }
  arrays_.clear();
  return first;
}

} // namespace overlap
