// SimSyncQueue: a stream of the synchronous sim (NPURT_SIM_MODE=sync): every task runs to completion on
// the thread that submits it, so a failing test or a debugger shows the caller's own stack, and a run is
// deterministic. Waits block the submitting thread (with their timeouts); host functions run inline and
// the submitter waits for their completion. ACL's stream semantics come from the driver emulation layer
// (src/hal/utils/), as SimQueue's do.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "base/futex.h"
#include "hal/hal.h"
#include "hal/utils/discard_policy.h"
#include "hal/utils/label_skip.h"

namespace npurt::drivers::sim {

class SimDevice;

class SimSyncQueue final : public hal::Queue {
 public:
  SimSyncQueue(SimDevice* device, const hal::QueueOptions& options)
      : device_(device), options_(options), policy_(options.stop_on_failure) {}

  uint64_t Submit(const hal::Task& task) override;
  uint64_t submitted() const override { return tail_.load(std::memory_order_acquire); }
  uint64_t completed() const override { return completed_.load(std::memory_order_acquire); }
  bool WaitHost(uint64_t seq, uint64_t deadline_ns) override;
  int32_t error() const override { return policy_.error(); }
  std::string error_message() const override { return policy_.error_message(); }
  void ClearError() override { policy_.ClearError(); }
  void SetStopOnFailure(bool stop) override { policy_.SetStopOnFailure(stop); }
  // Discards what is submitted and not yet run: with every task run at submission, nothing but a task
  // another thread is about to submit. (Abort: hal::Queue's, a discard; a running kernel runs out.)
  void Discard() override { policy_.Discard(tail_.load(std::memory_order_acquire)); }
  void CompleteHostTask(int32_t code) override;
  void CompleteHostTaskWithError(int32_t code, std::string message) override;

 private:
  // Runs one task, a batch's lists leaf by leaf (hal::utils::BatchCursor): 0 or the ACL error code.
  int32_t Run(const hal::Task& task, std::string* message);
  int32_t RunLeaf(const hal::Task& task, std::string* message);

  SimDevice* device_;
  hal::QueueOptions options_;
  std::mutex mu_;  // serialises submissions: one task runs at a time, in submission order
  std::atomic<uint64_t> tail_{0};
  std::atomic<uint64_t> completed_{0};
  hal::utils::DiscardPolicy policy_;
  hal::utils::LabelSkip labels_;  // mu_
  // The running host function's completion (CompleteHostTask).
  std::atomic<bool> host_done_{false};
  std::atomic<int32_t> host_code_{0};
  std::string host_message_;  // written before host_done_ is released
  std::mutex host_mu_;        // held by a completer until it has finished touching the queue
  WaitSignal done_signal_;  // host-function completions and task completions
};

}  // namespace npurt::drivers::sim
