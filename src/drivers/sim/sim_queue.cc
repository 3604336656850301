#include "drivers/sim/sim_queue.h"

#include <cstring>
#include <string>
#include <utility>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "base/prefetch.h"
#include "base/shared_write.h"
#include "drivers/sim/sim_aicore_fault.h"
#include "drivers/sim/sim_device.h"
#include "drivers/sim/sim_flag.h"
#include "drivers/sim/sim_task_exec.h"
#include "hal/utils/task_report.h"

namespace npurt::drivers::sim {
namespace {

// Tasks run per turn before a busy queue yields its executor to other queues (when one is waiting).
constexpr int kTurnBudget = 256;
// How long an executor that drained a queue keeps watching that queue's ring before giving it up
// (unless another queue becomes ready first). A tight enqueue/synchronize loop then hands each task
// straight to a spinning executor through the ring, instead of a Schedule (lock, ready list, executor
// wake-up) per task; see docs/benchmarks.md.
constexpr uint64_t kLingerNs = 10000;
// How long an executor spins on a cross-process flag before it parks the queue (SimQueue::SpinOnFlag).
constexpr uint64_t kFlagSpinNs = 50000;

}  // namespace

SimQueue::SimQueue(SimDevice* device, const hal::QueueOptions& options)
    : device_(device), options_(options), cells_(new Cell[kCapacity]), policy_(options.stop_on_failure) {
  for (uint64_t i = 0; i < kCapacity; ++i) cells_[i].seq.store(i, std::memory_order_relaxed);
}

SimQueue::~SimQueue() {
  // Precondition: every submitted task completed. An executor may still be leaving Run().
  while (in_executor_.load(std::memory_order_acquire) != 0) CpuRelax();
  device_->timer().CancelAll(this);
}

uint64_t SimQueue::Submit(const hal::Task& task) {
  uint64_t pos = tail_.load(std::memory_order_relaxed);
  Cell* cell;
  for (;;) {
    cell = &cells_[pos & (kCapacity - 1)];
    uint64_t cell_seq = cell->seq.load(std::memory_order_acquire);
    if (cell_seq == pos) {
      if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_relaxed)) break;
    } else if (cell_seq < pos) {
      // Full: wait until the executor frees this cell (back-pressure, never an error).
      space_signal_.WaitUntil([&] { return cell->seq.load(std::memory_order_acquire) >= pos; }, UINT64_MAX,
                              kHostSpinNs);
      pos = tail_.load(std::memory_order_relaxed);
    } else {
      pos = tail_.load(std::memory_order_relaxed);
    }
  }
  // Only the words that changed: a cell is mostly reused for the same kind of task, and the lines that
  // task leaves alone then stay shared by this thread and the executor (which reads them without a miss).
  const uint64_t words = CopyChangedWords(&cell->task, &task, sizeof(hal::Task));
  cell->seq.store(pos + 1, std::memory_order_release);
  // The next task will likely rewrite the same lines as this one (and the first line always: its
  // sequence number and id), lines the executor last wrote (Finish) or read: take them back now, or the
  // next Submit waits for them in the fence of ScheduleIfIdle.
  const auto* next = reinterpret_cast<const char*>(&cells_[(pos + 1) & (kCapacity - 1)]);
  PrefetchForWrite(next);
  for (size_t line = 1; line < kLineWords.size(); ++line) {
    if ((words & kLineWords[line]) != 0) PrefetchForWrite(next + line * 64);
  }
  ScheduleIfIdle();
  return pos + 1;
}

void SimQueue::ScheduleIfIdle() {
  // An RMW, not a plain load: it pairs with the executor's exchange(kIdle) in Run(), so either this
  // sees kIdle or the executor's re-check sees the task just published.
  // (fetch_add rather than fetch_or: x86 has no fetch-or returning the old value, it would be a CAS loop.)
  uint32_t state = state_.fetch_add(0, std::memory_order_seq_cst);
  if (state == kIdle && state_.compare_exchange_strong(state, kQueued, std::memory_order_acq_rel)) {
    device_->Schedule(this);
  }
}

SimQueue::Cell* SimQueue::PeekHead() {
  Cell* cell = Published(head_);
  if (cell == nullptr) return nullptr;
  // The producer wrote the task's other lines, and a launch, too: fetch them all together rather than
  // one miss at a time. The first line is taken for writing: Finish stores the cell's next sequence
  // number there, which would otherwise wait for the producer's copy to be invalidated.
  PrefetchForWrite(cell);
  PrefetchLines(&cell->task, sizeof(cell->task));
  if (cell->task.kind == hal::TaskKind::kKernel) PrefetchLines(cell->task.kernel, sizeof(hal::KernelLaunch));
  return cell;
}

// Spins on the ring for the next task for up to kLingerNs; nullptr if none came or another queue is
// waiting for an executor. The queue stays kRunning meanwhile, so producers do not schedule it, and
// the usual idle protocol in Run() follows a fruitless linger.
SimQueue::Cell* SimQueue::Linger() {
  const uint64_t end = NowNs() + kLingerNs;
  Cell* cell = nullptr;
  SpinUntil([&] { return (cell = PeekHead()) != nullptr || device_->HasReadyQueues(); },
            [&](uint64_t now) { return now < end; });
  return cell;
}

void SimQueue::Run() {
  in_executor_.fetch_add(1, std::memory_order_acq_rel);
  state_.store(kRunning, std::memory_order_release);
  int budget = kTurnBudget;
  for (;;) {
    Cell* cell = PeekHead();
    if (cell == nullptr) cell = Linger();
    if (cell == nullptr) {
      // Read before the queue is given up: once it is idle, another executor may take it over and move
      // head_ (the re-check below must not read it then).
      const uint64_t head = head_;
      state_.exchange(kIdle, std::memory_order_seq_cst);
      // A producer may have published after the peek while it still saw kRunning.
      if (Published(head) != nullptr) {
        uint32_t idle = kIdle;
        if (state_.compare_exchange_strong(idle, kQueued, std::memory_order_acq_rel)) device_->Schedule(this);
      }
      break;
    }
    if (--budget == 0) {
      budget = kTurnBudget;
      // Only another queue waiting for an executor is a reason to give this one up: rescheduled, it would
      // likely move to another executor, whose caches have none of its lines.
      if (device_->HasReadyQueues()) {
        state_.store(kQueued, std::memory_order_release);
        device_->Schedule(this);
        break;
      }
    }
    int32_t code = 0;
    std::string message;
    // Profiling: a task that parked started when it first reached the head, not when it resumed.
    if (!head_state_.parked && device_->task_observer() != nullptr) head_start_ns_ = NowNs();
    // A kernel resuming from its park was already running when a discard came: it finishes with its own
    // result (an interrupted kernel's failure), not as a discarded task.
    const bool running_kernel = head_state_.resumed && cell->task.kind == hal::TaskKind::kKernel;
    if (running_kernel || (!policy_.Discards(head_ + 1) && !labels_.Skips(cell->task))) {
      if (Execute(cell->task, &code, &message) == Step::kPark) break;
    } else {
      ReleaseDiscardedSignal(cell->task);
    }
    Finish(cell, code, std::move(message));
  }
  in_executor_.fetch_sub(1, std::memory_order_acq_rel);
}

SimQueue::Step SimQueue::Execute(const hal::Task& task, int32_t* code, std::string* message) {
  if (task.kind == hal::TaskKind::kBatch) return ExecuteBatch(task, code, message);
  return ExecuteOne(task, code, message);
}

// Runs the lists of a kBatch head task from where it stopped (hal::utils::BatchCursor). A task that parks
// parks the whole queue and is finished by its resumption; a task that fails ends the batch.
SimQueue::Step SimQueue::ExecuteBatch(const hal::Task& task, int32_t* code, std::string* message) {
  hal::utils::BatchCursor& cursor = head_state_.batch;
  if (!cursor.active()) cursor.Begin(task);
  hal::Task leaf;  // outside the loop: constructing it zeroes 136 bytes, per leaf of a replay otherwise
  // Value waits parked on any queue re-check their words when memory is written (OnMemoryWritten), but a
  // leaf's write is announced only when it matters, not one locked instruction per copy or fill: at once
  // for the signalling writes (ValueWrite/ValueUpdate), else before a leaf that may wait or run long
  // (a wait, a kernel, a host function: this batch may park, and a peer queue parked on a value this
  // batch wrote earlier must not wait for it; both waiting is a deadlock) and when the batch ends (Complete).
  bool unannounced_writes = false;
  for (;;) {
    switch (cursor.Next(&leaf)) {
      case hal::utils::BatchCursor::Step::kDone:
        return Step::kDone;
      case hal::utils::BatchCursor::Step::kTooDeep:
        *code = ACL_ERROR_RT_INTERNAL_ERROR;
        *message = "conditional tasks nest too deeply";
        return Step::kDone;
      case hal::utils::BatchCursor::Step::kTask:
        break;
    }
    // The kinds that complete at once run here, without ExecuteOne's frame (most of a replay's tasks are
    // such; a leaf that parked and resumed is a waiting kind, finished by ExecuteOne).
    // A replay's operators are reported one by one (the profile names each by its task id); the load of
    // the observer is the only cost when none is installed.
    hal::TaskObserver* observer = leaf.kind == hal::TaskKind::kDispatch ? device_->task_observer() : nullptr;
    const uint64_t leaf_start = observer != nullptr ? NowNs() : 0;
    if (head_state_.resumed || !RunImmediateTask(leaf, &labels_, code, message)) {
      if (unannounced_writes) {
        unannounced_writes = false;
        device_->OnMemoryWritten();
      }
      if (ExecuteOne(leaf, code, message) == Step::kPark) return Step::kPark;
    }
    if (WritesMemory(leaf.kind)) {
      if (leaf.kind == hal::TaskKind::kValueWrite || leaf.kind == hal::TaskKind::kValueUpdate) {
        device_->OnMemoryWritten();
      } else {
        unannounced_writes = true;
      }
    }
    if (observer != nullptr) observer->OnTaskDone(options_, leaf, leaf_start, NowNs(), *code);
    if (*code != 0) {
      cursor.Reset();
      return Step::kDone;
    }
    cursor.Advance();
  }
}

SimQueue::Step SimQueue::ExecuteOne(const hal::Task& task, int32_t* code, std::string* message) {
  // A task that parked earlier is finished by its resumption result.
  if (head_state_.resumed) {
    {
      // Inside a batch the head task goes on: forget the site now (a flag of the batch may go away).
      std::lock_guard<std::mutex> lock(park_mu_);
      parked_site_ = nullptr;
    }
    *code = head_state_.resume_code;
    if (*code == ACL_ERROR_RT_TASK_TIMEOUT) *message = "wait task timed out";
    if (*code != 0 && !head_state_.resume_message.empty()) *message = std::move(head_state_.resume_message);
    if (*code != 0 && task.kind == hal::TaskKind::kKernel) {
      *code = KernelFaultCode(*task.kernel, *code);
      *message = task.kernel->failure;
    }
    ClearPark();
    return Step::kDone;
  }
  switch (task.kind) {
    case hal::TaskKind::kFlagWait:
      return ParkOnFlag(task);
    case hal::TaskKind::kValueWait:
      return ParkOnValue(task);
    case hal::TaskKind::kHostFunc: {
      head_state_.parked = true;
      state_.store(kParked, std::memory_order_release);
      device_->host_engine().Post(this, task.host_fn, task.host_arg);
      return Step::kPark;
    }
    case hal::TaskKind::kKernel: {
      // Parked before the blocks become visible: the core finishing the last one resumes the queue. If
      // this executor finished it, the queue is un-parked and goes on here; producers leave a parked
      // queue alone, so nothing else saw the short park. A launch this executor runs alone (one block, no
      // core limit) cannot be completed by anyone else and skips the park: producers read-modify-write
      // state_ on every Submit, so two stores to it per kernel would cost each next launch a miss.
      running_kernel_.store(task.kernel, std::memory_order_release);
      const bool alone = device_->aicore().RunsOnExecutorAlone(*task.kernel);
      if (!alone) {
        head_state_.parked = true;
        state_.store(kParked, std::memory_order_release);
      }
      if (!device_->aicore().Start(task.kernel, this, code)) return Step::kPark;
      if (!alone) {
        head_state_.parked = false;
        state_.store(kRunning, std::memory_order_release);
      }
      if (*code != 0) {
        *code = KernelFaultCode(*task.kernel, *code);
        *message = task.kernel->failure;
      }
      return Step::kDone;
    }
    default:
      if (RunImmediateTask(task, &labels_, code, message)) return Step::kDone;
      break;  // kBatch: Execute runs it
  }
  *code = ACL_ERROR_RT_INTERNAL_ERROR;
  *message = "a batch reached the queue's single-task path";
  return Step::kDone;
}

// A flag of another process: its signal reaches a parked queue through this process's watcher and an
// executor, two thread wake-ups; a peer that answers within a few tens of microseconds (a ping-pong) is
// seen sooner by spinning on the shared value. Bounded, and only while no other queue of the device
// waits for an executor and the wait is not discarded: true if the flag reached `target`.
bool SimQueue::SpinOnFlag(const SimFlag* flag, uint64_t target, uint64_t seq, uint64_t timeout_ns) {
  const uint64_t spin_ns = timeout_ns != 0 && timeout_ns < kFlagSpinNs ? timeout_ns : kFlagSpinNs;
  const uint64_t end = NowNs() + spin_ns;
  flag_spin_.store(true, std::memory_order_relaxed);
  bool reached = false;
  // Stops early when another queue waits for an executor or the work is discarded.
  SpinUntil(
      [&] {
        reached = flag->value() >= target;
        return reached || device_->HasReadyQueues() || policy_.discarded_through() >= seq;
      },
      [&](uint64_t now) { return now < end; });
  flag_spin_.store(false, std::memory_order_relaxed);
  return reached;
}

template <typename Register>
SimQueue::Step SimQueue::Park(ParkSite* site, uint64_t timeout_ns, Register&& register_wait) {
  const uint64_t seq = head_ + 1;
  const uint64_t token = next_token_.fetch_add(1, std::memory_order_relaxed) + 1;
  head_state_.parked = true;
  {
    std::lock_guard<std::mutex> lock(park_mu_);
    parked_site_ = site;
    parked_token_ = token;
  }
  state_.store(kParked, std::memory_order_release);
  if (!register_wait(token)) {
    // Already satisfied: nobody else can resume us, so take the queue back and finish the task.
    std::lock_guard<std::mutex> lock(park_mu_);
    parked_site_ = nullptr;
    state_.store(kRunning, std::memory_order_release);
    ClearPark();
    return Step::kDone;
  }
  ArmTimeout(token, timeout_ns);
  ReleaseIfDiscardedMeanwhile(seq, token);
  return Step::kPark;
}

SimQueue::Step SimQueue::ParkOnFlag(const hal::Task& task) {
  auto* flag = static_cast<SimFlag*>(task.flag);
  const uint64_t target = WaitTarget(task);
  if (flag->value() >= target) return Step::kDone;
  if (flag->cross_process() && SpinOnFlag(flag, target, head_ + 1, task.timeout_ns)) return Step::kDone;
  return Park(flag, task.timeout_ns, [&](uint64_t token) { return flag->ParkUntil(this, target, token); });
}

SimQueue::Step SimQueue::ParkOnValue(const hal::Task& task) {
  if (ValueSatisfied(task.dst, task.value, task.aux)) return Step::kDone;
  ValueWaitList& waits = device_->value_waits();
  return Park(&waits, task.timeout_ns,
              [&](uint64_t token) { return waits.ParkUntil(this, task.dst, task.value, task.aux, token); });
}

void SimQueue::ReleaseIfDiscardedMeanwhile(uint64_t seq, uint64_t token) {
  // A Discard that came before the registration found nothing to cancel: release the wait here. (The
  // queue may already have been resumed and moved on: the token tells; `seq` was read before parking.)
  if (policy_.discarded_through() < seq) return;
  std::lock_guard<std::mutex> lock(park_mu_);
  if (parked_site_ != nullptr && parked_token_ == token && parked_site_->Cancel(this, token)) {
    parked_site_ = nullptr;
    Resume(token, 0);
  }
}

void SimQueue::ArmTimeout(uint64_t token, uint64_t timeout_ns) {
  if (timeout_ns == 0) return;
  device_->timer().Arm(NowNs() + timeout_ns, this, token);
}

void SimQueue::OnWaitTimeout(uint64_t token) {
  std::lock_guard<std::mutex> lock(park_mu_);
  if (parked_site_ == nullptr || parked_token_ != token) return;
  ParkSite* site = parked_site_;
  if (site->Cancel(this, token)) {
    parked_site_ = nullptr;
    Resume(token, ACL_ERROR_RT_TASK_TIMEOUT);
  }
}

void SimQueue::Resume(uint64_t /*token*/, int32_t code) {
  head_state_.resumed = true;
  head_state_.resume_code = code;
  state_.store(kQueued, std::memory_order_release);
  device_->Schedule(this);
}

void SimQueue::CompleteHostTask(int32_t code) { Resume(0, code); }

void SimQueue::CompleteHostTaskWithError(int32_t code, std::string message) {
  // Written before Resume publishes the result (its release store), like resume_code.
  head_state_.resume_message = std::move(message);
  Resume(0, code);
}

void SimQueue::Finish(Cell* cell, int32_t code, std::string message) {
  const hal::Task task = cell->task;  // copy out before the cell is recycled
  if (head_state_.parked) {
    std::lock_guard<std::mutex> lock(park_mu_);
    parked_site_ = nullptr;
  }
  ClearPark();
  head_state_.batch.Reset();
  cell->seq.store(head_ + kCapacity, std::memory_order_release);
  ++head_;
  Complete(task, head_, code, std::move(message));
  space_signal_.NotifyIfSleeping();  // after the completion, like the rest of Complete's bookkeeping
}

void SimQueue::Complete(const hal::Task& task, uint64_t seq, int32_t code, std::string message) {
  if (task.kind == hal::TaskKind::kKernel) running_kernel_.store(nullptr, std::memory_order_relaxed);
  hal::utils::ReportTaskDone(options_, this, policy_, task, code, message, device_->task_observer(), head_start_ns_);
  head_start_ns_ = 0;
  completed_.store(seq, std::memory_order_release);
  // What nobody waiting for this task needs comes after its completion is published: each of these is a
  // locked instruction (re-checking parked value waits, waking host waiters) that would hold it back.
  if (WritesMemory(task.kind)) device_->OnMemoryWritten();
  NotifyHostWaiters(seq);
}

void SimQueue::NotifyHostWaiters(uint64_t seq) {
  // A read-modify-write, like the waiter's registration: one of the two comes second and sees the other,
  // so either the waiter sees `completed_` or this sees its target (see WaitSignal::NotifyIfSleeping).
  uint64_t target = host_target_.fetch_add(0, std::memory_order_seq_cst);
  if (target > seq) return;
  // Reached: clear the target and wake everyone; waiters for later tasks register again.
  while (target <= seq &&
         !host_target_.compare_exchange_weak(target, UINT64_MAX, std::memory_order_seq_cst)) {
  }
  done_signal_.Notify();
}

bool SimQueue::WaitHost(uint64_t seq, uint64_t deadline_ns) {
  const auto done = [&] { return completed() >= seq; };
  // Spins like WaitSignal::WaitUntil, and for as long as the executor spins on a cross-process flag
  // (itself bounded): the completion of a round trip with another process then costs no wake-up.
  const uint64_t spin_end = NowNs() + kHostSpinNs;
  SpinUntil(done, [&](uint64_t now) {
    return (now < spin_end || flag_spin_.load(std::memory_order_relaxed)) && now < deadline_ns;
  });
  return done_signal_.WaitUntil(done, deadline_ns, 0, [&] {
    // Before each sleep: lower the target to `seq` with a read-modify-write (also when it is already
    // lower), which NotifyHostWaiters' pairs with.
    uint64_t target = host_target_.load(std::memory_order_relaxed);
    while (!host_target_.compare_exchange_weak(target, std::min(target, seq), std::memory_order_seq_cst)) {
    }
  });
}

bool SimQueue::Abort(int32_t code, const char* reason) {
  const uint64_t target = tail_.load(std::memory_order_acquire);
  // A kernel at the head (next to run, or running) has started on an NPU by the time the host aborts:
  // it is not discarded but runs and is interrupted below, so that its stream reports the interruption
  // as the hardware's does. (The cell is read under its sequence number: re-checked after the read.)
  const uint64_t head = completed() + 1;
  if (head <= target) {
    const Cell& cell = cells_[(head - 1) & (kCapacity - 1)];
    if (cell.seq.load(std::memory_order_acquire) == head) {
      const auto kind = static_cast<hal::TaskKind>(
          __atomic_load_n(reinterpret_cast<const uint8_t*>(&cell.task.kind), __ATOMIC_ACQUIRE));
      if (kind == hal::TaskKind::kKernel && cell.seq.load(std::memory_order_acquire) == head) {
        policy_.Spare(head);
      }
    }
  }
  Discard();
  // The running task: a kernel is interrupted. Its block may be about to start (the executor took the task
  // before the discard), so the interruption is retried until it lands or the task completes; a task of
  // another kind finishes by itself. Bounded: past kAbortRetryNs the caller's own wait takes over.
  constexpr uint64_t kAbortRetryNs = 1000000000;
  const uint64_t deadline = NowNs() + kAbortRetryNs;
  while (completed() < target) {
    if (hal::KernelLaunch* k = running_kernel_.load(std::memory_order_acquire)) {
      if (device_->aicore().Interrupt(k, code, reason)) return true;
    }
    if (NowNs() >= deadline) break;
    WaitHost(target, NowNs() + 100000);
  }
  return false;
}

bool SimQueue::ParkedOnWait() const {
  std::lock_guard<std::mutex> lock(park_mu_);
  return parked_site_ != nullptr;
}

void SimQueue::Discard() {
  policy_.Discard(tail_.load(std::memory_order_acquire));
  // Release a parked wait so the discarded tasks drain.
  std::lock_guard<std::mutex> lock(park_mu_);
  if (parked_site_ != nullptr && parked_site_->Cancel(this, parked_token_)) {
    parked_site_ = nullptr;
    Resume(parked_token_, 0);
  }
}

}  // namespace npurt::drivers::sim
