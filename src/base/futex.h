// Thin wrappers over the Linux futex syscall on a 32-bit atomic word, with the timeout support that
// C++20 std::atomic::wait lacks. Waiters spin briefly first (a spinning peer answers in ~0.15 us,
// a futex wake costs 3-4 us), then sleep. Spinners yield the core every few microseconds (YieldCore).
#pragma once

#include <atomic>
#include <cstdint>

#include <sched.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace npurt {

inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// Called every few microseconds of a spin (every 64 CpuRelax): lets another runnable thread have the
// core. With more runnable threads than cores (a loaded or small machine) the thread that will end the
// spin may be waiting for this very core, and a plain spin would keep it off until the time slice ends
// (milliseconds); with a free core the call returns at once (a fraction of a microsecond).
inline void YieldCore() { sched_yield(); }

// Spins until `ready()` is true (returns true) or `keep_spinning(now_ns)`, asked every 64 pauses, says
// stop (returns false); yields the core at each of those checks. The spin phase of every wait.
template <typename Ready, typename KeepSpinning>
bool SpinUntil(Ready&& ready, KeepSpinning&& keep_spinning);

// Sleeps while *word == expected, until woken or until the absolute CLOCK_MONOTONIC deadline (ns;
// UINT64_MAX = none). Returns false only when the deadline passed. Spurious wakeups return true.
// `process_shared`: the word lives in memory shared with other processes, whose wakes must reach us
// (the kernel then keys the futex by the page, not by this process's address space: a little slower).
bool FutexWait(std::atomic<uint32_t>* word, uint32_t expected, uint64_t deadline_ns, bool process_shared = false);

// Wakes up to `count` sleepers on `word` (INT32_MAX = all).
void FutexWake(std::atomic<uint32_t>* word, int count, bool process_shared = false);

// A one-word "something changed" signal for waiters that re-check a condition: the notifier bumps the
// epoch and wakes sleepers only when someone registered as sleeping.
class WaitSignal {
 public:
  uint32_t epoch() const { return epoch_.load(std::memory_order_acquire); }

  // Called by the producer after it made the condition true.
  void Notify() {
    epoch_.fetch_add(1, std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_seq_cst) > 0) FutexWake(&epoch_, INT32_MAX);
  }

  // Cheaper Notify for hot paths: does nothing unless a waiter is asleep. Both sides do a read-modify-
  // write of `sleepers_` (the notifier after making the condition true, the waiter before checking it),
  // so one of the two RMWs comes second in its modification order and sees the other: either the
  // notifier sees the sleeper or the sleeper sees the condition. (An RMW rather than a fence: same cost
  // on x86, and ThreadSanitizer understands it.)
  void NotifyIfSleeping() {
    if (sleepers_.fetch_add(0, std::memory_order_seq_cst) > 0) Notify();
  }

  // NotifyIfSleeping for interchangeable waiters (a pool of workers): wakes one sleeper, not all. A
  // woken waiter that finds the work gone sleeps again; the others keep sleeping.
  void NotifyOneIfSleeping() {
    if (sleepers_.fetch_add(0, std::memory_order_seq_cst) > 0) {
      epoch_.fetch_add(1, std::memory_order_seq_cst);
      FutexWake(&epoch_, 1);
    }
  }

  // Waits until `ready()` is true or the deadline passes; spins for `spin_ns` first.
  template <typename Ready>
  bool WaitUntil(Ready&& ready, uint64_t deadline_ns, uint64_t spin_ns) {
    return WaitUntil(ready, deadline_ns, spin_ns, [] {});
  }
  // The same; `before_sleep()` runs before every final check that precedes a sleep (a waiter that
  // publishes what it waits for, so that notifiers can skip wakes that would not satisfy it).
  template <typename Ready, typename BeforeSleep>
  bool WaitUntil(Ready&& ready, uint64_t deadline_ns, uint64_t spin_ns, BeforeSleep&& before_sleep);

 private:
  std::atomic<uint32_t> epoch_{0};
  std::atomic<int32_t> sleepers_{0};
};

}  // namespace npurt

#include "base/clock.h"

namespace npurt {

template <typename Ready, typename KeepSpinning>
bool SpinUntil(Ready&& ready, KeepSpinning&& keep_spinning) {
  for (uint32_t i = 0;; ++i) {
    if (ready()) return true;
    if ((i & 63) == 63) {
      if (!keep_spinning(NowNs())) return false;
      YieldCore();
    }
    CpuRelax();
  }
}

template <typename Ready, typename BeforeSleep>
bool WaitSignal::WaitUntil(Ready&& ready, uint64_t deadline_ns, uint64_t spin_ns, BeforeSleep&& before_sleep) {
  if (ready()) return true;
  const uint64_t spin_end = NowNs() + spin_ns;
  if (SpinUntil(ready, [&](uint64_t now) { return now < spin_end && now < deadline_ns; })) return true;
  for (;;) {
    const uint32_t seen = epoch();
    sleepers_.fetch_add(1, std::memory_order_seq_cst);
    before_sleep();
    if (ready()) {
      sleepers_.fetch_sub(1, std::memory_order_acq_rel);
      return true;
    }
    const bool in_time = FutexWait(&epoch_, seen, deadline_ns);
    sleepers_.fetch_sub(1, std::memory_order_acq_rel);
    if (ready()) return true;
    if (!in_time || NowNs() >= deadline_ns) return false;
  }
}

}  // namespace npurt
