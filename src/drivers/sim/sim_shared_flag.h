// SimSharedFlag: a sequence flag whose value lives in one page of a memfd that other processes of the
// machine map too (inter-process events and notifies).
//
// Waking across processes without polling: the page holds a 32-bit epoch that every signal bumps,
// followed by a process-shared FUTEX_WAKE when some thread of some process sleeps on it. Who sleeps
// there: host waiters (WaitHost: they spin, then sleep on the epoch themselves), and each process's
// watcher thread, but only while queues of its process are parked on the flag; it then resumes them
// (SimFlag::WakeWaiters) exactly as a local signal does. Otherwise the watcher sleeps on a local word
// that ParkUntil pokes, so a signal nobody waits for costs no system call and wakes nobody. (A queue
// spins on the value before it parks: see SimQueue::SpinOnFlag.) A signal raises the value to at
// least its operand (atomic max): records of two processes may execute in either order.
//
// Opening: the token carries the creator's pid, the memfd's number and the process start time;
// another process opens /proc/<pid>/fd/<fd> (same user, default ptrace rules) and maps the page.
// The creator's memfd closes with its flag; processes that mapped the page keep it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>

#include "base/status.h"
#include "drivers/sim/sim_flag.h"

namespace npurt::drivers::sim {

class SimSharedFlag final : public SimFlag {
 public:
  static StatusOr<std::unique_ptr<hal::Flag>> Create();
  static StatusOr<std::unique_ptr<hal::Flag>> Open(const hal::FlagShareToken& token);
  ~SimSharedFlag() override;

  bool WaitHost(uint64_t value, uint64_t deadline_ns) override;
  bool cross_process() const override { return true; }
  void Signal(uint64_t value) override;
  void Increment() override;
  uint8_t* shared_area() override;
  bool share_token(hal::FlagShareToken* token) const override;

  struct Page;  // the shared page's layout (sim_shared_flag.cc)

 private:
  SimSharedFlag(Page* page, int fd, const hal::FlagShareToken& token);
  void Watch();
  void OnQueueParked() override { parked_.NotifyIfSleeping(); }
  // Tells the sleepers of every process (watchers, host waiters) that the value changed.
  void WakePeers();

  Page* page_;
  int fd_;  // the creator's memfd (-1 in importers)
  hal::FlagShareToken token_;
  std::atomic<bool> stop_{false};
  WaitSignal parked_;  // the watcher sleeps here while no local queue is parked on the flag
  std::thread watcher_;
};

}  // namespace npurt::drivers::sim
