// The engines of a simulated device that are not queues: the executor pool that runs queues, the
// host-function engine and the list of value waits (the deadline timer: sim_deadline_timer.h).
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "base/futex.h"
#include "drivers/sim/sim_park.h"
#include "hal/hal.h"
#include "hal/utils/value_ops.h"

namespace npurt::drivers::sim {

class SimQueue;

// A kValueWait's condition on the word at `addr` (host-addressable: the arena, or host memory).
inline bool ValueSatisfied(const void* addr, uint64_t operand, uint32_t compare) {
  return hal::utils::ValueSatisfies(__atomic_load_n(static_cast<const uint64_t*>(addr), __ATOMIC_ACQUIRE), operand,
                                    compare);
}

// Executor threads taking runnable queues from a ready list. A queue is on the list at most once
// (its state machine guarantees it), so one queue never runs on two executors at the same time.
// A sleeping executor is woken last-in first-out: the one that went idle most recently, whose caches and
// OpenMP team (each executor's operators run on a team of its own) are still warm. Woken first-in first-out,
// two executors took turns on back-to-back model executions, each kept a team, and with more team threads
// than CPUs libgomp stops spinning at barriers (host_op_backend.cc, ReleaseThreadTeam): ResNet-50 at batch 1
// took 33 to 38 ms per execution, against 33 to 34 ms last-in first-out, on 2 cores.
class Scheduler {
 public:
  explicit Scheduler(uint32_t executors);
  ~Scheduler();
  void Schedule(SimQueue* queue);
  // True if some queue waits for an executor (a lingering executor gives its queue up then).
  bool HasReady() const { return ready_count_.load(std::memory_order_relaxed) != 0; }

 private:
  void ExecutorLoop(uint32_t self);
  SimQueue* TakeReady();
  // Wakes the executor that went to sleep last, if one sleeps (or is about to).
  void WakeOne();

  std::mutex mu_;
  std::deque<SimQueue*> ready_;
  std::atomic<uint32_t> ready_count_{0};
  std::atomic<uint32_t> spinning_{0};  // idle executors spinning for work (they need no wake-up)
  std::atomic<bool> stop_{false};
  std::vector<std::unique_ptr<WaitSignal>> signals_;  // one per executor: it sleeps on its own
  std::vector<uint32_t> idle_;  // executors asleep or going to sleep, the most recent last (under mu_)
  std::vector<std::thread> threads_;
};

// Runs host functions (aclrtLaunchHostFunc, callback hand-off) on a dedicated thread so that a
// blocking callback never stalls an executor.
class HostEngine {
 public:
  ~HostEngine();
  void Post(SimQueue* queue, hal::HostFn fn, void* arg);

 private:
  struct Item {
    SimQueue* queue;
    hal::HostFn fn;
    void* arg;
  };
  void Loop();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Item> items_;
  bool stop_ = false;
  std::thread thread_;
};

// Queues parked on aclrtValueWait-style conditions, re-evaluated whenever device memory is written.
class ValueWaitList final : public ParkSite {
 public:
  bool ParkUntil(SimQueue* queue, const void* addr, uint64_t operand, uint32_t compare, uint64_t token);
  bool Cancel(SimQueue* queue, uint64_t token) override;
  void OnMemoryWritten();

 private:
  struct Waiter {
    SimQueue* queue;
    const void* addr;
    uint64_t operand;
    uint32_t compare;
    uint64_t token;
  };
  std::mutex mu_;
  std::vector<Waiter> waiters_;
  std::atomic<uint32_t> count_{0};
};

}  // namespace npurt::drivers::sim
