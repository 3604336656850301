// Devices: a device-memory range, its mapping and sharing primitives, and the queues and flags a device
// creates. Part of the driver interface (hal/hal.h).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "hal/builtins.h"
#include "hal/capabilities.h"
#include "hal/executable.h"
#include "hal/flag.h"
#include "hal/observer.h"
#include "hal/queue.h"

namespace npurt::hal {

// Access rights of mapped device memory (Device::MapMemory).
enum class MemoryAccess : uint8_t { kNone = 0, kRead = 1, kReadWrite = 3 };
// Physical memory of this device (MapMemory's `source`).
inline constexpr int32_t kLocalMemory = 0;
// Opaque bytes that let another process open a device's physical memory (Device::ExportMemory).
struct MemoryShareToken {
  uint8_t bytes[64];
};

class Device {
 public:
  virtual ~Device() = default;
  // What the device is and can do (hal/capabilities.h); fixed for the device's lifetime.
  virtual const DeviceInfo& info() const = 0;
  // The device-memory range. Core's allocator carves it; addresses are usable by the driver's
  // engines (and, on the sim, by host code that the runtime runs on the device's behalf).
  virtual uint8_t* memory_base() const = 0;
  virtual uint64_t memory_size() const = 0;
  // Makes [addr, addr+size) resident (first touch is expensive; the allocator calls this once per
  // newly used region so that later copies run at memory speed).
  virtual void Prefault(void* addr, size_t size) = 0;
  virtual std::unique_ptr<Queue> CreateQueue(const QueueOptions& options) = 0;
  virtual std::unique_ptr<Flag> CreateFlag() = 0;
  // A flag whose state lives in memory shared with other processes of the machine: a signal from any
  // process that opened it wakes this process's parked queues and host waiters (no polling). Optional:
  // the defaults (hal_memory.cc) report ACL_ERROR_RT_FEATURE_NOT_SUPPORT. OpenSharedFlag fails with a
  // message if the creating process is gone.
  virtual StatusOr<std::unique_ptr<Flag>> CreateSharedFlag();
  virtual StatusOr<std::unique_ptr<Flag>> OpenSharedFlag(const FlagShareToken& token);
  // Tells the device that host code wrote device memory (re-evaluates parked value waits).
  virtual void NotifyMemoryWritten() = 0;

  // The device's built-in executables (hal/builtins.h), alive as long as the device. Null: the device has
  // no such built-in, and core refuses the call that needs it with ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
  virtual const Executable* builtin(Builtin /*which*/) const { return nullptr; }

  // --- Synchronous access (aclrtMemcpy, aclrtMemcpy2d, aclrtMemset, aclrtMemsetD32 without a stream): the
  // bytes have moved when the call returns, and the device's parked value waits were re-evaluated (they may
  // watch the bytes written). At least one side of a copy is this device's memory; the other may be host
  // memory or a peer device's. Core validated every range and orders the call after the device work it must
  // follow. A driver implements these as its hardware allows (the sim: host copies of its arena; a discrete
  // GPU: cudaMemcpy and cudaMemset on its synchronous stream).
  virtual Status CopyNow(void* dst, const void* src, size_t size) = 0;
  virtual Status Copy2dNow(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                           size_t height) = 0;
  // Sets `count` elements of `element_bytes` (1 or 4) at `dst` to the low bytes of `value`.
  virtual Status FillNow(void* dst, size_t count, uint32_t value, uint32_t element_bytes) = 0;

  // --- Virtual memory and sharing (VMM, expandable segments, IPC). Optional, and declared in the
  // capabilities (virtual_memory, ipc_memory, shared_flags): the defaults (hal_memory.cc) report
  // ACL_ERROR_RT_FEATURE_NOT_SUPPORT and an address range of memory_size() bytes.
  // The device's address range is [memory_base(), memory_base() + address_size()). Its first memory_size()
  // bytes show the physical memory linearly (physical offset x at memory_base() + x); from memory_base() +
  // memory_size() rounded up to kPhysicalPage to the end lies a window of reserved, inaccessible addresses
  // where core maps physical pages on demand. Core owns every policy
  // (which page goes where); calls come from any thread, serialised by core per range. Addresses, sizes
  // and offsets are multiples of kPhysicalPage.
  static constexpr size_t kPhysicalPage = kPhysicalPageBytes;
  virtual uint64_t address_size() const { return memory_size(); }
  // Maps [offset, offset + size) of physical memory `source` (kLocalMemory, or an ImportMemory id) at
  // `addr` in the window, resident, with `access`. The range must be unmapped.
  virtual Status MapMemory(void* addr, size_t size, int32_t source, uint64_t offset, MemoryAccess access);
  // Returns a mapped range to reserved and inaccessible.
  virtual Status UnmapMemory(void* addr, size_t size);
  virtual Status ProtectMemory(void* addr, size_t size, MemoryAccess access);
  // What another process needs to open this device's physical memory (passed to its ImportMemory).
  virtual StatusOr<MemoryShareToken> ExportMemory();
  // Opens another process's exported physical memory; the id is a `source` for MapMemory. Fails with
  // a message if the exporting process is gone or does not let us in.
  virtual StatusOr<int32_t> ImportMemory(const MemoryShareToken& token);
  virtual void ReleaseImport(int32_t source);

  // The task observer (hal/observer.h) this device's queues report every task to; nullptr: none. Set by
  // core while profiling collects, on each device it profiles; a queue reads it once per task.
  void SetTaskObserver(TaskObserver* observer) { observer_.store(observer, std::memory_order_release); }
  TaskObserver* task_observer() const { return observer_.load(std::memory_order_relaxed); }

 private:
  std::atomic<TaskObserver*> observer_{nullptr};
};

}  // namespace npurt::hal
