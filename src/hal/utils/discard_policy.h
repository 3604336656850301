// DiscardPolicy: which tasks of a queue run, and the queue's sticky error, as ACL defines them for any
// driver (hal::Queue's SetStopOnFailure, Discard, Abort, error and ClearError). Tasks are numbered by their
// sequence number (1, 2, ...).
//   - Discard(through): every task up to `through` that has not started completes without running.
//   - Stop on failure (aclrtSetStreamFailureMode ACL_STOP_ON_FAILURE): once the queue failed, every later
//     task completes without running, until ClearError.
//   - Abort (aclrtStreamAbort) lets the kernel that already started run on (Spare), so that it reports
//     its interruption as the hardware's does.
//   - The first failure's code and message stay until ClearError.
// Thread-safe: the executor asks Discards() per task; the host discards, clears and reads the error.
// Part of the driver emulation layer (src/hal/utils/README.md).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

namespace npurt::hal::utils {

class DiscardPolicy {
 public:
  explicit DiscardPolicy(bool stop_on_failure = false) : stop_on_failure_(stop_on_failure) {}

  // Per task, on the executor: true if task `seq` completes without running.
  bool Discards(uint64_t seq) const {
    if (seq <= discard_through_.load(std::memory_order_acquire) && seq != spared_.load(std::memory_order_acquire)) {
      return true;
    }
    return stop_on_failure_.load(std::memory_order_acquire) && error_.load(std::memory_order_acquire) != 0;
  }
  // The last sequence number discarded (0: none); a wait in progress stops early once it reaches it.
  uint64_t discarded_through() const { return discard_through_.load(std::memory_order_acquire); }

  void SetStopOnFailure(bool stop) { stop_on_failure_.store(stop, std::memory_order_release); }
  // Discards every task up to `through` (never moves back).
  void Discard(uint64_t through) {
    uint64_t cur = discard_through_.load(std::memory_order_acquire);
    while (cur < through && !discard_through_.compare_exchange_weak(cur, through, std::memory_order_acq_rel)) {
    }
  }
  // Task `seq` runs even if a later Discard covers it (the kernel an abort interrupts instead).
  void Spare(uint64_t seq) { spared_.store(seq, std::memory_order_release); }

  // A task failed with `code` (non-zero): the first failure is the queue's error.
  void RecordFailure(int32_t code, const std::string& message) {
    int32_t none = 0;
    if (error_.compare_exchange_strong(none, code, std::memory_order_acq_rel)) {
      std::lock_guard<std::mutex> lock(mu_);
      message_ = message;
    }
  }
  int32_t error() const { return error_.load(std::memory_order_acquire); }
  std::string error_message() const {
    std::lock_guard<std::mutex> lock(mu_);
    return message_;
  }
  void ClearError() {
    std::lock_guard<std::mutex> lock(mu_);
    error_.store(0, std::memory_order_release);
    message_.clear();
  }

 private:
  std::atomic<bool> stop_on_failure_;
  std::atomic<uint64_t> discard_through_{0};
  std::atomic<uint64_t> spared_{0};
  std::atomic<int32_t> error_{0};
  mutable std::mutex mu_;
  std::string message_;
};

}  // namespace npurt::hal::utils
