#include "drivers/sim/sim_flag.h"

#include <algorithm>

#include "base/clock.h"
#include "drivers/sim/sim_queue.h"

namespace npurt::drivers::sim {

bool SimFlag::WaitHost(uint64_t target, uint64_t deadline_ns) {
  return host_signal_.WaitUntil([&] { return value() >= target; }, deadline_ns, kHostSpinNs);
}

void SimFlag::Signal(uint64_t new_value) {
  // The time stamp first: a reader that sees the new value also sees a time stamp at least this recent.
  timestamp_ns_->store(NowNs(), std::memory_order_release);
  uint64_t cur = value_->load(std::memory_order_acquire);
  while (cur < new_value && !value_->compare_exchange_weak(cur, new_value, std::memory_order_acq_rel)) {
  }
  WakeWaiters(std::max(cur, new_value));
}

void SimFlag::Increment() {
  timestamp_ns_->store(NowNs(), std::memory_order_release);
  WakeWaiters(value_->fetch_add(1, std::memory_order_acq_rel) + 1);
}

void SimFlag::WakeWaiters(uint64_t new_value) {
  std::vector<Waiter> ready;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < waiters_.size();) {
      if (waiters_[i].target <= new_value) {
        ready.push_back(waiters_[i]);
        waiters_[i] = waiters_.back();
        waiters_.pop_back();
      } else {
        ++i;
      }
    }
    waiter_count_.store(waiters_.size(), std::memory_order_release);
  }
  for (const Waiter& w : ready) w.queue->Resume(w.token, 0);
  host_signal_.Notify();
}

bool SimFlag::ParkUntil(SimQueue* queue, uint64_t target, uint64_t token) {
  std::lock_guard<std::mutex> lock(mu_);
  // Re-checked under the lock: Signal stores the value before taking it, so a signal either sees
  // this waiter or this check sees its value.
  if (value() >= target) return false;
  waiters_.push_back({queue, target, token});
  waiter_count_.store(waiters_.size(), std::memory_order_release);
  // Under the lock: once it is released the queue may resume and its task release this flag.
  OnQueueParked();
  return true;
}

bool SimFlag::Cancel(SimQueue* queue, uint64_t token) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < waiters_.size(); ++i) {
    if (waiters_[i].queue == queue && waiters_[i].token == token) {
      waiters_[i] = waiters_.back();
      waiters_.pop_back();
      waiter_count_.store(waiters_.size(), std::memory_order_release);
      return true;
    }
  }
  return false;
}

}  // namespace npurt::drivers::sim
