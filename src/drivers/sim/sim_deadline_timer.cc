#include "drivers/sim/sim_deadline_timer.h"

#include <chrono>

#include "base/clock.h"

namespace npurt::drivers::sim {

DeadlineTimer::~DeadlineTimer() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void DeadlineTimer::Arm(uint64_t deadline_ns, Client* client, uint64_t key) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!thread_.joinable()) thread_ = std::thread([this] { Loop(); });
    entries_.emplace(deadline_ns, Entry{client, key});
  }
  cv_.notify_one();
}

void DeadlineTimer::Cancel(Client* client, uint64_t key) {
  std::unique_lock<std::mutex> lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end(); ++it) {
    if (it->second.client == client && it->second.key == key) {
      entries_.erase(it);
      break;
    }
  }
  WaitNotFiring(lock, client, /*any_key=*/false, key);
}

void DeadlineTimer::CancelAll(Client* client) {
  std::unique_lock<std::mutex> lock(mu_);
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->second.client == client ? entries_.erase(it) : std::next(it);
  }
  WaitNotFiring(lock, client, /*any_key=*/true, 0);
}

void DeadlineTimer::WaitNotFiring(std::unique_lock<std::mutex>& lock, Client* client, bool any_key, uint64_t key) {
  if (std::this_thread::get_id() == thread_.get_id()) return;  // the delivery is this call's caller
  cv_.wait(lock, [&] { return firing_.client != client || (!any_key && firing_.key != key); });
}

void DeadlineTimer::Loop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    if (entries_.empty()) {
      cv_.wait(lock);
      continue;
    }
    auto first = entries_.begin();
    const uint64_t now = NowNs();
    if (first->first > now) {
      cv_.wait_for(lock, std::chrono::nanoseconds(first->first - now));
      continue;
    }
    const Entry due = first->second;
    firing_ = due;
    entries_.erase(first);
    lock.unlock();
    due.client->OnDeadline(due.key);
    lock.lock();
    firing_ = Entry{};
    cv_.notify_all();
  }
}

}  // namespace npurt::drivers::sim
