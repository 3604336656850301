// The deadline timer of a simulated device: one thread that fires every deadline of the device, the wait
// timeouts of parked queues (SimQueue) and the execution timeouts of kernels (AiCorePool). Started on first
// use; sleeps until the earliest deadline.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace npurt::drivers::sim {

class DeadlineTimer {
 public:
  // Whoever arms a deadline: told on the timer's thread when it passes.
  class Client {
   public:
    virtual void OnDeadline(uint64_t key) = 0;

   protected:
    virtual ~Client() = default;
  };

  DeadlineTimer() = default;
  ~DeadlineTimer();
  DeadlineTimer(const DeadlineTimer&) = delete;
  DeadlineTimer& operator=(const DeadlineTimer&) = delete;

  // Calls client->OnDeadline(key) once CLOCK_MONOTONIC passes deadline_ns, unless cancelled first.
  void Arm(uint64_t deadline_ns, Client* client, uint64_t key);
  // Removes the client's deadline `key` / every deadline of the client. Returns once a deadline of theirs
  // that is being delivered has returned, so that the client may go away; on the timer's own thread (the one
  // delivering it) at once.
  void Cancel(Client* client, uint64_t key);
  void CancelAll(Client* client);

 private:
  struct Entry {
    Client* client = nullptr;
    uint64_t key = 0;
  };
  void Loop();
  // Waits until no deadline of `client` (with `key`, unless any_key) is being delivered.
  void WaitNotFiring(std::unique_lock<std::mutex>& lock, Client* client, bool any_key, uint64_t key);

  std::mutex mu_;
  std::condition_variable cv_;
  std::multimap<uint64_t, Entry> entries_;
  Entry firing_;  // the deadline being delivered (Cancel waits for it)
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace npurt::drivers::sim
