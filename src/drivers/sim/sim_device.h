// SimDevice: one simulated NPU. Owns its device-memory arena (a memfd mapping, so that a later IPC
// layer can share it with other processes), its executor pool, host-function engine and deadline timer.
#pragma once

#include <map>
#include <memory>
#include <mutex>

#include "drivers/sim/sim_aicore.h"
#include "drivers/sim/sim_deadline_timer.h"
#include "drivers/sim/sim_engines.h"
#include "base/process.h"
#include "hal/hal.h"

namespace npurt::drivers::sim {

class SimQueue;

// The address range of a device with `memory_bytes` of memory: the linear arena, then the VMM window
// (sim_memory.cc). ReserveAddressRange reserves it (inaccessible) on a 1 GiB boundary.
uint64_t AddressRangeSize(uint64_t memory_bytes);
StatusOr<void*> ReserveAddressRange(uint64_t memory_bytes);

struct SimDeviceOptions {
  hal::DeviceInfo info;
  uint32_t executors = 2;
  bool synchronous = false;
};

class SimDevice final : public hal::Device {
 public:
  static StatusOr<std::unique_ptr<SimDevice>> Create(const SimDeviceOptions& options);
  ~SimDevice() override;

  const hal::DeviceInfo& info() const override { return options_.info; }
  uint8_t* memory_base() const override { return base_; }
  uint64_t memory_size() const override { return options_.info.memory_bytes; }
  void Prefault(void* addr, size_t size) override;
  std::unique_ptr<hal::Queue> CreateQueue(const hal::QueueOptions& options) override;
  std::unique_ptr<hal::Flag> CreateFlag() override;
  StatusOr<std::unique_ptr<hal::Flag>> CreateSharedFlag() override;
  StatusOr<std::unique_ptr<hal::Flag>> OpenSharedFlag(const hal::FlagShareToken& token) override;
  void NotifyMemoryWritten() override { OnMemoryWritten(); }
  const hal::Executable* builtin(hal::Builtin which) const override;
  // Host copies of the arena (base/device_copy.h), then the value waits of every device (sim_memory.cc).
  Status CopyNow(void* dst, const void* src, size_t size) override;
  Status Copy2dNow(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height) override;
  Status FillNow(void* dst, size_t count, uint32_t value, uint32_t element_bytes) override;
  // Virtual memory and sharing (sim_memory.cc): the window follows the linear arena; imports open the
  // exporting process's memfd through /proc/<pid>/fd.
  uint64_t address_size() const override { return address_size_; }
  Status MapMemory(void* addr, size_t size, int32_t source, uint64_t offset, hal::MemoryAccess access) override;
  Status UnmapMemory(void* addr, size_t size) override;
  Status ProtectMemory(void* addr, size_t size, hal::MemoryAccess access) override;
  StatusOr<hal::MemoryShareToken> ExportMemory() override;
  StatusOr<int32_t> ImportMemory(const hal::MemoryShareToken& token) override;
  void ReleaseImport(int32_t source) override;

  bool synchronous() const { return options_.synchronous; }
  void Schedule(SimQueue* queue) { scheduler_->Schedule(queue); }
  bool HasReadyQueues() const { return scheduler_->HasReady(); }
  HostEngine& host_engine() { return host_engine_; }
  DeadlineTimer& timer() { return timer_; }
  ValueWaitList& value_waits() { return value_waits_; }
  AiCorePool& aicore() { return *aicore_; }
  WaitSignal& memory_signal() { return memory_signal_; }
  // Engines of this device wrote memory: re-evaluates the value waits parked on every device, since a
  // wait may watch a peer device's memory (P2P) or host memory that any device writes.
  void OnMemoryWritten();
  // Re-evaluates the value waits parked on this device.
  void WakeValueWaiters() {
    value_waits_.OnMemoryWritten();
    if (options_.synchronous) memory_signal_.NotifyIfSleeping();
  }

 private:
  explicit SimDevice(const SimDeviceOptions& options) : options_(options) {}

  SimDeviceOptions options_;
  int memfd_ = -1;
  uint8_t* base_ = nullptr;
  uint64_t address_size_ = 0;  // linear arena + VMM window (sim_memory.cc)
  std::mutex import_mu_;
  std::map<int32_t, int> imports_;  // ImportMemory id -> fd of the peer's memory
  int32_t next_import_ = 1;
  ValueWaitList value_waits_;
  WaitSignal memory_signal_;
  DeadlineTimer timer_;  // wait and kernel timeouts; outlives the queues and the AI cores that arm it
  HostEngine host_engine_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<AiCorePool> aicore_;  // ~SimDevice stops the executors before this goes
};

}  // namespace npurt::drivers::sim
