// SimSharedFlag: a sequence flag whose value lives in one page of a memfd that other processes of the
// machine map too (inter-process events and notifies).
//
// Waking across processes without polling: the page holds a 32-bit epoch that every signal bumps,
// followed by a process-shared FUTEX_WAKE when some process sleeps on it. Each process that opened
// the flag runs one watcher thread blocked in FUTEX_WAIT on the epoch; when it wakes it resumes the
// local queues parked on the flag and the local host waiters (SimFlag::WakeWaiters), exactly as a
// local signal does. A signal raises the value to at least its operand (atomic max): records of two
// processes may execute in either order.
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

  void Signal(uint64_t value) override;
  void Increment() override;
  uint8_t* shared_area() override;
  bool share_token(hal::FlagShareToken* token) const override;

  struct Page;  // the shared page's layout (sim_shared_flag.cc)

 private:
  SimSharedFlag(Page* page, int fd, const hal::FlagShareToken& token);
  void Watch();
  // Tells the other processes' watchers that the value changed.
  void WakePeers();

  Page* page_;
  int fd_;  // the creator's memfd (-1 in importers)
  hal::FlagShareToken token_;
  std::atomic<bool> stop_{false};
  std::thread watcher_;
};

}  // namespace npurt::drivers::sim
