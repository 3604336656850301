// SimDevice: one simulated NPU. Owns its device-memory arena (a memfd mapping, so that a later IPC
// layer can share it with other processes), its executor pool, host-function engine and wait timer.
#pragma once

#include <memory>

#include "drivers/sim/sim_engines.h"
#include "hal/hal.h"

namespace npurt::drivers::sim {

class SimQueue;

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
  void NotifyMemoryWritten() override { OnMemoryWritten(); }

  bool synchronous() const { return options_.synchronous; }
  void Schedule(SimQueue* queue) { scheduler_->Schedule(queue); }
  HostEngine& host_engine() { return host_engine_; }
  WaitTimer& timer() { return timer_; }
  ValueWaitList& value_waits() { return value_waits_; }
  WaitSignal& memory_signal() { return memory_signal_; }
  void OnMemoryWritten() {
    value_waits_.OnMemoryWritten();
    if (options_.synchronous) memory_signal_.NotifyIfSleeping();
  }

 private:
  explicit SimDevice(const SimDeviceOptions& options) : options_(options) {}

  SimDeviceOptions options_;
  int memfd_ = -1;
  uint8_t* base_ = nullptr;
  ValueWaitList value_waits_;
  WaitSignal memory_signal_;
  WaitTimer timer_;
  HostEngine host_engine_;
  std::unique_ptr<Scheduler> scheduler_;
};

}  // namespace npurt::drivers::sim
