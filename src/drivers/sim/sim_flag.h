// SimFlag: a device-side sequence flag. Signal tasks raise it; queues parked on it resume when it
// reaches their target; host threads spin briefly and then sleep on it. SimSharedFlag
// (sim_shared_flag.h) keeps the value in memory shared with other processes.
#pragma once

#include <atomic>
#include <mutex>
#include <vector>

#include "base/futex.h"
#include "drivers/sim/sim_park.h"
#include "hal/hal.h"

namespace npurt::drivers::sim {

// How long a host thread waiting on the sim (a flag's value, a queue's completion or free space) spins
// before it sleeps.
inline constexpr uint64_t kHostSpinNs = 20000;

class SimFlag : public hal::Flag, public ParkSite {
 public:
  SimFlag() = default;
  uint64_t value() const override { return value_->load(std::memory_order_acquire); }
  uint64_t timestamp_ns() const override { return timestamp_ns_->load(std::memory_order_acquire); }
  bool WaitHost(uint64_t value, uint64_t deadline_ns) override;
  // True if another process may signal the flag: a queue waiting on it spins a little before parking,
  // since only a wake-up chain through this process's watcher would otherwise see the peer's signal.
  virtual bool cross_process() const { return false; }

  // Executed by a signal task: raises the flag to `value` (never lowers it: graph replays raise event
  // flags by increments while ordinary records store absolute counts).
  virtual void Signal(uint64_t value);
  // Executed by an incrementing signal task (graph replays of event records).
  virtual void Increment();
  // Registers `queue` to resume once the flag reaches `target`; false if it already has (the caller
  // continues without parking).
  bool ParkUntil(SimQueue* queue, uint64_t target, uint64_t token);
  bool Cancel(SimQueue* queue, uint64_t token) override;

 protected:
  // A flag whose value and time stamp live elsewhere (shared memory).
  SimFlag(std::atomic<uint64_t>* value, std::atomic<uint64_t>* timestamp_ns)
      : value_(value), timestamp_ns_(timestamp_ns) {}
  // Resumes the queues parked for `value` or less and wakes host waiters; called after the value
  // changed (by this process's signal task, or by another process's).
  void WakeWaiters(uint64_t value);
  bool HasWaiters() const { return waiter_count_.load(std::memory_order_acquire) != 0; }
  // Called by ParkUntil, under its lock, after it registered a queue (SimSharedFlag wakes its watcher).
  virtual void OnQueueParked() {}

 private:
  struct Waiter {
    SimQueue* queue;
    uint64_t target;
    uint64_t token;
  };
  std::atomic<uint64_t> own_value_{0};
  std::atomic<uint64_t> own_timestamp_ns_{0};
  std::atomic<uint64_t>* value_ = &own_value_;
  std::atomic<uint64_t>* timestamp_ns_ = &own_timestamp_ns_;
  std::mutex mu_;
  std::vector<Waiter> waiters_;
  std::atomic<size_t> waiter_count_{0};
  WaitSignal host_signal_;
};

}  // namespace npurt::drivers::sim
