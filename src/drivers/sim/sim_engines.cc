#include "drivers/sim/sim_engines.h"

#include <algorithm>
#include <chrono>

#include "base/clock.h"
#include "drivers/sim/sim_queue.h"

namespace npurt::drivers::sim {
namespace {
// How long an idle executor spins before sleeping: long enough to catch the next task of a tight
// submit/synchronize loop (a futex wake costs 3-4 us), short enough not to burn a core.
constexpr uint64_t kExecutorSpinNs = 30000;
}  // namespace

Scheduler::Scheduler(uint32_t executors) {
  for (uint32_t i = 0; i < executors; ++i) signals_.push_back(std::make_unique<WaitSignal>());
  for (uint32_t i = 0; i < executors; ++i) threads_.emplace_back([this, i] { ExecutorLoop(i); });
}

Scheduler::~Scheduler() {
  stop_.store(true, std::memory_order_release);
  for (auto& s : signals_) s->Notify();
  for (auto& t : threads_) t.join();
}

void Scheduler::WakeOne() {
  uint32_t e;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (idle_.empty()) return;
    e = idle_.back();
    idle_.pop_back();
  }
  // It may not sleep yet: it re-checks the ready list after registering as a sleeper, and this bumps its
  // signal's epoch, so the wake is not lost either way.
  signals_[e]->NotifyIfSleeping();
}

void Scheduler::Schedule(SimQueue* queue) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ready_.push_back(queue);
    ready_count_.fetch_add(1, std::memory_order_seq_cst);
  }
  // An executor spinning idle takes the queue without a system call; else one sleeper is woken (not
  // all: the others would only find the list empty and spin for nothing). The RMW on spinning_ pairs
  // with the spinner's decrement before its last look at the list (see ExecutorLoop).
  if (spinning_.fetch_add(0, std::memory_order_seq_cst) == 0) WakeOne();
}

SimQueue* Scheduler::TakeReady() {
  if (ready_count_.load(std::memory_order_acquire) == 0) return nullptr;
  std::lock_guard<std::mutex> lock(mu_);
  if (ready_.empty()) return nullptr;
  SimQueue* q = ready_.front();
  ready_.pop_front();
  ready_count_.fetch_sub(1, std::memory_order_release);
  return q;
}

void Scheduler::ExecutorLoop(uint32_t self) {
  const auto ready = [&] {
    return ready_count_.load(std::memory_order_seq_cst) != 0 || stop_.load(std::memory_order_acquire);
  };
  while (!stop_.load(std::memory_order_acquire)) {
    SimQueue* q = TakeReady();
    if (q == nullptr) {
      spinning_.fetch_add(1, std::memory_order_seq_cst);
      const uint64_t end = NowNs() + kExecutorSpinNs;
      SpinUntil(ready, [&](uint64_t now) { return now < end; });
      // After this no Schedule counts on this executor: it sees their queues here or is woken.
      spinning_.fetch_sub(1, std::memory_order_seq_cst);
      if (!ready()) {
        {
          std::lock_guard<std::mutex> lock(mu_);
          idle_.push_back(self);
        }
        signals_[self]->WaitUntil(ready, UINT64_MAX, 0);
        // Woken by WakeOne (which took it off the list) or by the ready list itself (still on it).
        std::lock_guard<std::mutex> lock(mu_);
        if (auto it = std::find(idle_.begin(), idle_.end(), self); it != idle_.end()) idle_.erase(it);
      }
      continue;
    }
    // Schedules that found this executor spinning woke nobody: pass the rest of the list on.
    if (HasReady()) WakeOne();
    q->Run();
  }
}

HostEngine::~HostEngine() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void HostEngine::Post(SimQueue* queue, hal::HostFn fn, void* arg) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
    items_.push_back({queue, fn, arg});
  }
  cv_.notify_one();
}

void HostEngine::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [&] { return stop_ || !items_.empty(); });
    if (items_.empty()) return;  // stop requested and drained
    Item item = items_.front();
    items_.pop_front();
    lock.unlock();
    item.fn(item.arg, item.queue);
    lock.lock();
  }
}

bool ValueWaitList::ParkUntil(SimQueue* queue, const void* addr, uint64_t operand, uint32_t compare,
                              uint64_t token) {
  std::lock_guard<std::mutex> lock(mu_);
  // Count first, then check: pairs with the fence in OnMemoryWritten (a writer either sees the count
  // or this check sees its write).
  count_.fetch_add(1, std::memory_order_seq_cst);
  if (ValueSatisfied(addr, operand, compare)) {
    count_.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }
  waiters_.push_back({queue, addr, operand, compare, token});
  return true;
}

bool ValueWaitList::Cancel(SimQueue* queue, uint64_t token) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < waiters_.size(); ++i) {
    if (waiters_[i].queue == queue && waiters_[i].token == token) {
      waiters_[i] = waiters_.back();
      waiters_.pop_back();
      count_.fetch_sub(1, std::memory_order_relaxed);
      return true;
    }
  }
  return false;
}

void ValueWaitList::OnMemoryWritten() {
  // RMW pairs with the waiter's fetch_add in ParkUntil (see WaitSignal::NotifyIfSleeping).
  if (count_.fetch_add(0, std::memory_order_seq_cst) == 0) return;
  std::vector<Waiter> ready;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (size_t i = 0; i < waiters_.size();) {
      if (ValueSatisfied(waiters_[i].addr, waiters_[i].operand, waiters_[i].compare)) {
        ready.push_back(waiters_[i]);
        waiters_[i] = waiters_.back();
        waiters_.pop_back();
        count_.fetch_sub(1, std::memory_order_relaxed);
      } else {
        ++i;
      }
    }
  }
  for (const Waiter& w : ready) w.queue->Resume(w.token, 0);
}

}  // namespace npurt::drivers::sim
