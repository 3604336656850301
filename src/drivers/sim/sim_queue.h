// SimQueue: one hardware stream of the simulated NPU, run by the device's executor threads (the sim's
// default mode; SimSyncQueue, sim_sync_queue.h, runs every task on the submitting thread instead). ACL's
// stream semantics come from the driver emulation layer (src/hal/utils/): which tasks run (DiscardPolicy),
// label switches (LabelSkip) and batches (BatchCursor).
//
// Submission is a lock-free multi-producer ring (Vyukov's bounded queue: each cell carries a
// sequence number that says whether it is free or published). Exactly one executor thread consumes
// a queue at a time: the queue's `state_` moves Idle -> Queued (a producer scheduled it) -> Running
// (an executor took it) -> Idle / Parked. A parked queue sits at a ParkSite until resumed.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "base/futex.h"
#include "drivers/sim/sim_deadline_timer.h"
#include "drivers/sim/sim_park.h"
#include "drivers/sim/sim_task_exec.h"
#include "hal/hal.h"
#include "hal/utils/batch_cursor.h"
#include "hal/utils/discard_policy.h"
#include "hal/utils/label_skip.h"

namespace npurt::drivers::sim {

class SimDevice;
class SimFlag;

class SimQueue final : public hal::Queue, private DeadlineTimer::Client {
 public:
  SimQueue(SimDevice* device, const hal::QueueOptions& options);
  ~SimQueue() override;

  uint64_t Submit(const hal::Task& task) override;
  uint64_t submitted() const override { return tail_.load(std::memory_order_acquire); }
  uint64_t completed() const override { return completed_.load(std::memory_order_acquire); }
  bool WaitHost(uint64_t seq, uint64_t deadline_ns) override;
  int32_t error() const override { return policy_.error(); }
  std::string error_message() const override { return policy_.error_message(); }
  void ClearError() override { policy_.ClearError(); }
  void SetStopOnFailure(bool stop) override { policy_.SetStopOnFailure(stop); }
  void Discard() override;
  void CompleteHostTask(int32_t code) override;
  void CompleteHostTaskWithError(int32_t code, std::string message) override;
  bool ParkedOnWait() const override;
  bool Abort(int32_t code, const char* reason) override;

  // Executor side.
  void Run();
  // Resumes a parked queue whose registration `token` was satisfied (code 0) or cancelled with an
  // error code (timeout, discard). Called by the ParkSite that removed the registration.
  void Resume(uint64_t token, int32_t code);
  // Timer callback: fails the parked wait `token` with a timeout if it is still parked.
  void OnWaitTimeout(uint64_t token);
  int32_t priority() const { return options_.priority; }

 private:
  void OnDeadline(uint64_t token) override { OnWaitTimeout(token); }  // a wait's timeout (ArmTimeout)

  enum State : uint32_t { kIdle, kQueued, kRunning, kParked };
  enum class Step { kDone, kPark };
  static constexpr uint64_t kCapacity = 256;

  // Cache-line aligned: a producer filling cell n+1 never writes a line the executor reads for cell n
  // (a Task is 136 bytes, so unaligned cells share lines with their neighbours).
  struct alignas(64) Cell {
    std::atomic<uint64_t> seq;
    hal::Task task;
  };
  static_assert(offsetof(Cell, task) + offsetof(hal::Task, kernel) + sizeof(void*) <= 64,
                "PeekHead reads a launch's address from the cell's first line");
  static_assert(offsetof(Cell, task) + offsetof(hal::Task, cleanup_arg) + sizeof(void*) <= 64,
                "a kernel's launch record (cleanup_arg) must not make Submit rewrite a second line");
  static_assert(sizeof(hal::Task) % sizeof(uint64_t) == 0 && sizeof(hal::Task) / sizeof(uint64_t) < 63,
                "kLineWords maps each word of a task to one bit");
  // For each line of a cell, the words of its task there (bits, as CopyChangedWords reports them).
  static constexpr std::array<uint64_t, sizeof(Cell) / 64> kLineWords = [] {
    std::array<uint64_t, sizeof(Cell) / 64> lines{};
    for (size_t w = 0; w < sizeof(hal::Task) / sizeof(uint64_t); ++w) {
      lines[(offsetof(Cell, task) + w * sizeof(uint64_t)) / 64] |= uint64_t{1} << w;
    }
    return lines;
  }();

  // Head-task progress for tasks that park (waits, host functions). Written by the executor before
  // parking and by Resume(); the scheduler's hand-off orders the two.
  // A kBatch head task keeps its position in nested lists here, so that a task inside it that parks
  // resumes where it stopped.
  struct HeadState {
    bool parked = false;      // the head task has parked at least once
    bool resumed = false;     // the parked wait finished
    int32_t resume_code = 0;  // its result
    std::string resume_message;  // and its reason (CompleteHostTaskWithError)
    hal::utils::BatchCursor batch{&ReadConditionWord};  // kBatch: where the head batch is
  };

  // The cell of task head + 1 if it is published, else nullptr (no prefetch: safe to call with a head
  // read before the queue was given up).
  Cell* Published(uint64_t head) const {
    Cell* cell = &cells_[head & (kCapacity - 1)];
    return cell->seq.load(std::memory_order_acquire) == head + 1 ? cell : nullptr;
  }
  Cell* PeekHead();
  Cell* Linger();
  Step Execute(const hal::Task& task, int32_t* code, std::string* message);
  Step ExecuteOne(const hal::Task& task, int32_t* code, std::string* message);
  Step ExecuteBatch(const hal::Task& task, int32_t* code, std::string* message);
  void ClearPark() {
    head_state_.parked = false;
    head_state_.resumed = false;
    head_state_.resume_code = 0;
    head_state_.resume_message.clear();
  }
  Step ParkOnFlag(const hal::Task& task);
  bool SpinOnFlag(const SimFlag* flag, uint64_t target, uint64_t seq, uint64_t timeout_ns);
  Step ParkOnValue(const hal::Task& task);
  // Parks the head task on `site`: register_wait(token) registers it there and returns false if the wait
  // was already satisfied (the task is then done). Arms the task's timeout.
  template <typename Register>
  Step Park(ParkSite* site, uint64_t timeout_ns, Register&& register_wait);
  void ArmTimeout(uint64_t token, uint64_t timeout_ns);
  void Finish(Cell* cell, int32_t code, std::string message);
  void Complete(const hal::Task& task, uint64_t seq, int32_t code, std::string message);
  // Wakes host waiters once `seq` reaches the smallest target one of them registered.
  void NotifyHostWaiters(uint64_t seq);
  // After parking the head task on a wait site: a Discard that ran before the registration found
  // nothing to cancel, so the queue releases itself.
  void ReleaseIfDiscardedMeanwhile(uint64_t seq, uint64_t token);
  void ScheduleIfIdle();

  SimDevice* device_;
  hal::QueueOptions options_;
  std::unique_ptr<Cell[]> cells_;
  alignas(64) std::atomic<uint64_t> tail_{0};  // last claimed sequence number
  alignas(64) uint64_t head_ = 0;              // last consumed sequence number (executor only)
  // The kernel launch the head task runs (null when the head is no kernel): written by the executor on
  // its own line, read by Abort.
  std::atomic<hal::KernelLaunch*> running_kernel_{nullptr};
  // Own line: host waiters spin on it, so a line the executor also writes for other reasons (head_, one
  // store per task before this one) would make it travel to the executor and back twice per task.
  alignas(64) std::atomic<uint64_t> completed_{0};
  // Own line: producers read-modify-write state_ on every Submit, while the executor writes head_,
  // completed_ and head_state_ on every task.
  alignas(64) std::atomic<uint32_t> state_{kIdle};
  std::atomic<uint32_t> in_executor_{0};
  // The executor spins on a cross-process flag (SpinOnFlag): host waiters of this queue yield the core
  // while they spin too (WaitHost).
  std::atomic<bool> flag_spin_{false};
  alignas(64) HeadState head_state_;
  uint64_t head_start_ns_ = 0;  // profiling: when the head task started (executor only)
  hal::utils::LabelSkip labels_;  // executor only
  std::atomic<uint64_t> next_token_{0};
  // The registration the queue is parked on, guarded by park_mu_ so that Discard and timeouts never
  // reach a site (a flag) that the finished task has already released.
  mutable std::mutex park_mu_;
  ParkSite* parked_site_ = nullptr;
  uint64_t parked_token_ = 0;
  // Which tasks run (discards, stop on failure, the kernel an abort spares) and the sticky error: read by
  // the executor per task, written by the host.
  alignas(64) hal::utils::DiscardPolicy policy_;
  WaitSignal done_signal_;   // host waiters for completion
  // The smallest sequence number a host waiter waits for (UINT64_MAX: none). Completions before it do
  // not wake anyone: a host synchronizing on the last of N queued tasks is woken once, not N times (each
  // futex wake costs the executor a system call and the host a useless trip through the scheduler).
  std::atomic<uint64_t> host_target_{UINT64_MAX};
  WaitSignal space_signal_;  // producers waiting for a free cell
};

}  // namespace npurt::drivers::sim
