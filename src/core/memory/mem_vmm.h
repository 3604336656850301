// Virtual memory management (aclrtReserveMemAddress / aclrtMallocPhysical / aclrtMapMem ...).
//
// PhysicalMemory is an aclrtDrvMemHandle: a run of one device's physical pages, or pages of another
// process's device imported through a shareable handle. The user holds "API references" (allocate or
// import = 1, aclrtMemRetainAllocationHandle +1, aclrtFreePhysical -1); every mapping holds a reference
// of its own, so the pages are given back only when the last API reference is dropped *and* the last
// mapping is gone (CUDA's rule).
//
// VmmSpace is one device's part of the story: reservations in its address window and the mappings inside
// them. Mappings never overlap; a reservation is released only when nothing is mapped in it. Access
// rights are kept per location; the sim enforces them with page protection (the union of all
// locations' rights, since host threads act for every device). Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/handle.h"
#include "base/status.h"
#include "core/handle_tags.h"
#include "hal/hal.h"

namespace npurt::core {

// Core's vocabulary for the layers above it (they never name the driver interface): the access a mapping
// grants, and the granularity of physical memory.
using MemoryAccess = hal::MemoryAccess;
inline constexpr size_t kPhysicalPage = hal::Device::kPhysicalPage;

class DeviceMemory;

// aclrtPhysicalMemProp, as stored.
struct PhysicalProps {
  int32_t handle_type = 0;
  int32_t allocation_type = 0;
  int32_t mem_attr = 0;
  int32_t location_type = 1;  // ACL_MEM_LOCATION_TYPE_DEVICE
  uint32_t location_id = 0;
  uint64_t reserve = 0;
};

class PhysicalMemory final : public HandleObject {
 public:
  // `size` bytes of device pages (a multiple of `alignment`, itself a multiple of 2 MiB).
  static StatusOr<PhysicalMemory*> Allocate(DeviceMemory* memory, int32_t device_id, size_t size, size_t alignment,
                                            const PhysicalProps& props);
  // Pages [offset, offset + size) of an imported source (hal::Device::ImportMemory id); the import is
  // released with the object.
  static StatusOr<PhysicalMemory*> Import(DeviceMemory* memory, int32_t device_id, int32_t source, uint64_t offset,
                                          size_t size, const PhysicalProps& props);

  DeviceMemory* memory() const { return memory_; }
  int32_t device_id() const { return device_id_; }
  int32_t source() const { return source_; }
  uint64_t offset() const { return offset_; }
  size_t size() const { return size_; }
  const PhysicalProps& props() const { return props_; }
  bool imported() const { return source_ != hal::kLocalMemory || imported_local_; }

  void RetainApi() { api_refs_.fetch_add(1, std::memory_order_acq_rel); }
  // aclrtFreePhysical: drops one API reference; the last one invalidates the handle.
  void ReleaseApi();

  // Export bookkeeping (mem_ipc.cc): the records naming this allocation, removed when it goes away.
  std::vector<std::string> export_records;

 private:
  template <typename T, typename... Args>
  friend T* npurt::NewHandle(Args&&... args);
  PhysicalMemory(DeviceMemory* memory, int32_t device_id, int32_t source, uint64_t offset, size_t size,
                 const PhysicalProps& props)
      : HandleObject(handle_tags::kPhysicalMem),
        memory_(memory),
        device_id_(device_id),
        source_(source),
        offset_(offset),
        size_(size),
        props_(props) {}
  ~PhysicalMemory() override;

  DeviceMemory* memory_;
  int32_t device_id_;
  int32_t source_;
  uint64_t offset_;
  size_t size_;
  PhysicalProps props_;
  bool imported_local_ = false;  // imported from our own process (the pages are still ours to keep)
  std::atomic<int32_t> api_refs_{1};
};

// Validates an aclrtDrvMemHandle.
PhysicalMemory* LookupPhysical(const void* handle);

// What VmmSpace::Lookup reports for an address.
struct MappedRange {
  uintptr_t base = 0;
  size_t size = 0;        // contiguous accessible bytes around the address
  bool read_only = false;
};

class VmmSpace {
 public:
  explicit VmmSpace(DeviceMemory* memory) : memory_(memory) {}
  ~VmmSpace();

  StatusOr<uintptr_t> Reserve(size_t size, size_t alignment, uintptr_t hint);
  Status Release(uintptr_t va);
  // Maps [offset, offset+size) of `handle` at va (inside one reservation, over nothing mapped).
  Status Map(uintptr_t va, size_t size, size_t offset, PhysicalMemory* handle, hal::MemoryAccess access);
  // Removes the mapping that starts at va.
  Status Unmap(uintptr_t va);
  Status SetAccess(uintptr_t va, size_t size, uint32_t location_id, hal::MemoryAccess access);
  StatusOr<hal::MemoryAccess> GetAccess(uintptr_t va, uint32_t location_id) const;
  // The handle mapped at va (one API reference added for the caller).
  StatusOr<PhysicalMemory*> RetainHandleAt(uintptr_t va) const;
  bool Lookup(uintptr_t addr, MappedRange* out) const;
  // The mapping (or, if unmapped, the reservation) containing addr.
  bool Range(uintptr_t addr, uintptr_t* base, size_t* size) const;
  bool IsReserved(uintptr_t addr) const;
  uint64_t mapped_bytes() const;
  uint64_t reserved_bytes() const;

 private:
  struct Mapping {
    size_t size;
    Ref<PhysicalMemory> handle;
    uint64_t offset;
    std::map<uint32_t, hal::MemoryAccess> access;  // per device location
    hal::MemoryAccess effective;
  };
  struct Reservation {
    size_t size;
    std::map<uintptr_t, Mapping> mappings;
  };
  // The reservation containing addr (nullptr if none). Lock held.
  const Reservation* Find(uintptr_t addr, uintptr_t* base) const;
  Reservation* Find(uintptr_t addr, uintptr_t* base);

  DeviceMemory* const memory_;
  mutable std::mutex mu_;
  std::map<uintptr_t, Reservation> reservations_;
  uint64_t mapped_ = 0;
  uint64_t reserved_ = 0;
};

}  // namespace npurt::core
