// SequenceSignal (core): what events and notifies are built on. A device-side sequence flag (hal::Flag)
// that record tasks raise to a count, and the two counters that number the records and the waits issued
// so far. The counters live in the object, or, once the signal is shared with other processes, in the
// shared flag's area (its first kCounterBytes), so that the records and waits of every process that
// opened it agree. An Event waits for the record count at the time of the wait; a Notify's waits each
// consume one record (the wait counter); both take their tasks from here.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "base/status.h"
#include "hal/hal.h"

namespace npurt::core {

class SequenceSignal {
 public:
  // A flag with a shared area (hal::Device::CreateSharedFlag / OpenSharedFlag) keeps the counters there.
  explicit SequenceSignal(std::unique_ptr<hal::Flag> flag) { Adopt(std::move(flag)); }

  hal::Flag* flag() const { return flag_.get(); }
  // The shared flag, or nullptr while the signal is process-local.
  hal::Flag* shared_flag() const { return shared_ ? flag_.get() : nullptr; }
  uint64_t records() const { return counters_[0].load(std::memory_order_acquire); }
  uint64_t waits() const { return counters_[1].load(std::memory_order_acquire); }
  // True if every record so far has executed.
  bool Complete() const { return flag_->value() >= records(); }

  // A record task: numbers the next record and raises the flag to that number when it runs.
  hal::Task RecordTask() { return SignalTask(counters_[0].fetch_add(1, std::memory_order_acq_rel) + 1); }
  // A wait task that parks its queue until the flag reaches `target` (0 timeout = none).
  hal::Task WaitTask(uint64_t target, uint64_t timeout_ns) const;
  // A wait that consumes the next record (a Notify's): its target is the number of waits issued so far.
  hal::Task ConsumeTask(uint64_t timeout_ns) {
    return WaitTask(counters_[1].fetch_add(1, std::memory_order_acq_rel) + 1, timeout_ns);
  }
  // Records made elsewhere (a graph launch counts the records it will execute).
  void AddRecords(uint64_t n) { counters_[0].fetch_add(n, std::memory_order_acq_rel); }
  // Every outstanding record counts as consumed: later consuming waits need new records.
  void ConsumeAll();

  // Every record was consumed by a wait and has executed.
  bool Idle() const { return waits() == records() && flag_->value() == records(); }
  // Moves an idle signal to a shared flag of `device` (a fresh shared flag starts at zero, so the counts of
  // a busy one would be lost: refused); the caller guarantees no concurrent record or wait. The local flag stays alive (finished tasks named it).
  Status MoveToSharedFlag(hal::Device* device);
  // The local flag a move retired (nullptr if none).
  hal::Flag* retired_flag() const { return retired_.get(); }

  // The shared area after the counters (ipc_event.cc keeps a notify's import allow-list there).
  static constexpr size_t kCounterBytes = 2 * sizeof(uint64_t);

 private:
  hal::Task SignalTask(uint64_t value) const;
  void Adopt(std::unique_ptr<hal::Flag> flag);

  std::unique_ptr<hal::Flag> flag_;
  std::unique_ptr<hal::Flag> retired_;
  bool shared_ = false;
  std::atomic<uint64_t> own_[2] = {0, 0};
  std::atomic<uint64_t>* counters_ = own_;
};

}  // namespace npurt::core
