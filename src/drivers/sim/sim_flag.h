// SimFlag: a device-side sequence flag. Signal tasks raise it; queues parked on it resume when it
// reaches their target; host threads spin briefly and then sleep on it.
#pragma once

#include <atomic>
#include <mutex>
#include <vector>

#include "base/futex.h"
#include "drivers/sim/sim_park.h"
#include "hal/hal.h"

namespace npurt::drivers::sim {

class SimFlag final : public hal::Flag, public ParkSite {
 public:
  uint64_t value() const override { return value_.load(std::memory_order_acquire); }
  uint64_t timestamp_ns() const override { return timestamp_ns_.load(std::memory_order_acquire); }
  bool WaitHost(uint64_t value, uint64_t deadline_ns) override;

  // Executed by a signal task: raises the flag to `value` (never lowers it).
  void Signal(uint64_t value);
  // Executed by an incrementing signal task (graph replays of event records).
  void Increment();
  // Registers `queue` to resume once the flag reaches `target`; false if it already has (the caller
  // continues without parking).
  bool ParkUntil(SimQueue* queue, uint64_t target, uint64_t token);
  bool Cancel(SimQueue* queue, uint64_t token) override;

 private:
  void Wake(uint64_t new_value);

  struct Waiter {
    SimQueue* queue;
    uint64_t target;
    uint64_t token;
  };
  std::atomic<uint64_t> value_{0};
  std::atomic<uint64_t> timestamp_ns_{0};
  std::mutex mu_;
  std::vector<Waiter> waiters_;
  WaitSignal host_signal_;
};

}  // namespace npurt::drivers::sim
