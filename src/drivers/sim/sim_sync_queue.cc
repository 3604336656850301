#include "drivers/sim/sim_sync_queue.h"

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "drivers/sim/sim_aicore_fault.h"
#include "drivers/sim/sim_device.h"
#include "drivers/sim/sim_flag.h"
#include "drivers/sim/sim_task_exec.h"
#include "hal/utils/batch_cursor.h"
#include "hal/utils/task_report.h"

namespace npurt::drivers::sim {

uint64_t SimSyncQueue::Submit(const hal::Task& task) {
  std::lock_guard<std::mutex> lock(mu_);
  const uint64_t seq = tail_.load(std::memory_order_relaxed) + 1;
  tail_.store(seq, std::memory_order_release);
  hal::TaskObserver* observer = device_->task_observer();
  const uint64_t start = observer != nullptr ? NowNs() : 0;
  std::string message;
  int32_t code = 0;
  if (policy_.Discards(seq)) {
    ReleaseDiscardedSignal(task);
  } else if (!labels_.Skips(task)) {
    code = Run(task, &message);
  }
  hal::utils::ReportTaskDone(options_, this, policy_, task, code, message, observer, start);
  completed_.store(seq, std::memory_order_release);
  if (WritesMemory(task.kind)) device_->OnMemoryWritten();
  done_signal_.NotifyIfSleeping();
  return seq;
}

int32_t SimSyncQueue::Run(const hal::Task& task, std::string* message) {
  if (task.kind != hal::TaskKind::kBatch) return RunLeaf(task, message);
  hal::utils::BatchCursor cursor(&ReadConditionWord);
  cursor.Begin(task);
  hal::Task leaf;
  for (;;) {
    switch (cursor.Next(&leaf)) {
      case hal::utils::BatchCursor::Step::kDone:
        return 0;
      case hal::utils::BatchCursor::Step::kTooDeep:
        *message = "conditional tasks nest too deeply";
        return ACL_ERROR_RT_INTERNAL_ERROR;
      case hal::utils::BatchCursor::Step::kTask:
        break;
    }
    // A replay's operators are reported one by one (the profile names each by its task id).
    hal::TaskObserver* observer = leaf.kind == hal::TaskKind::kDispatch ? device_->task_observer() : nullptr;
    const uint64_t start = observer != nullptr ? NowNs() : 0;
    const int32_t code = RunLeaf(leaf, message);
    if (observer != nullptr) observer->OnTaskDone(options_, leaf, start, NowNs(), code);
    if (code != 0) return code;
    cursor.Advance();
  }
}

int32_t SimSyncQueue::RunLeaf(const hal::Task& task, std::string* message) {
  const uint64_t deadline = task.timeout_ns == 0 ? UINT64_MAX : NowNs() + task.timeout_ns;
  switch (task.kind) {
    case hal::TaskKind::kFlagWait:
      if (!task.flag->WaitHost(WaitTarget(task), deadline)) {
        *message = "event wait timed out";
        return ACL_ERROR_RT_TASK_TIMEOUT;
      }
      return 0;
    case hal::TaskKind::kValueWait:
      if (!device_->memory_signal().WaitUntil([&] { return ValueSatisfied(task.dst, task.value, task.aux); },
                                              deadline, kHostSpinNs)) {
        *message = "value wait timed out";
        return ACL_ERROR_RT_TASK_TIMEOUT;
      }
      return 0;
    case hal::TaskKind::kKernel: {
      const int32_t code = KernelFaultCode(*task.kernel, device_->aicore().Run(task.kernel));
      if (code != 0) *message = task.kernel->failure;
      return code;
    }
    case hal::TaskKind::kHostFunc:
      host_done_.store(false, std::memory_order_release);
      task.host_fn(task.host_arg, this);
      done_signal_.WaitUntil([&] { return host_done_.load(std::memory_order_acquire); }, UINT64_MAX, kHostSpinNs);
      { std::lock_guard<std::mutex> completed(host_mu_); }  // the completer has left (CompleteHostTask)
      if (host_code_.load(std::memory_order_acquire) != 0 && !host_message_.empty()) {
        *message = std::move(host_message_);
      }
      host_message_.clear();
      return host_code_.load(std::memory_order_acquire);
    default: {
      int32_t code = 0;
      if (!RunImmediateTask(task, &labels_, &code, message)) {
        *message = "a batch reached the queue's single-task path";
        return ACL_ERROR_RT_INTERNAL_ERROR;
      }
      return code;
    }
  }
}

void SimSyncQueue::CompleteHostTaskWithError(int32_t code, std::string message) {
  std::lock_guard<std::mutex> lock(host_mu_);
  host_message_ = std::move(message);
  host_code_.store(code, std::memory_order_release);
  host_done_.store(true, std::memory_order_release);
  done_signal_.Notify();
}

// Another thread (a callback's, a communication engine's) may complete the task: the waiting thread can see
// host_done_ and go on to destroy the queue while this one is still inside Notify(). The waiter therefore takes
// host_mu_ before it returns, and this side holds it until it no longer touches the queue.
void SimSyncQueue::CompleteHostTask(int32_t code) {
  std::lock_guard<std::mutex> lock(host_mu_);
  host_code_.store(code, std::memory_order_release);
  host_done_.store(true, std::memory_order_release);
  done_signal_.Notify();
}

bool SimSyncQueue::WaitHost(uint64_t seq, uint64_t deadline_ns) {
  return done_signal_.WaitUntil([&] { return completed() >= seq; }, deadline_ns, kHostSpinNs);
}

}  // namespace npurt::drivers::sim
