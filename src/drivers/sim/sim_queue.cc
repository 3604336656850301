#include "drivers/sim/sim_queue.h"

#include <cstring>
#include <string>
#include <utility>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "base/device_copy.h"
#include "base/prefetch.h"
#include "base/shared_write.h"
#include "drivers/sim/sim_aicore_fault.h"
#include "drivers/sim/sim_device.h"
#include "drivers/sim/sim_flag.h"

namespace npurt::drivers::sim {
namespace {

// Executors spin this long on an empty queue set before sleeping; host waiters likewise.
constexpr uint64_t kHostSpinNs = 20000;
// Tasks run per turn before a busy queue yields its executor to other queues (when one is waiting).
constexpr int kTurnBudget = 256;
// How long an executor that drained a queue keeps watching that queue's ring before giving it up
// (unless another queue becomes ready first). A tight enqueue/synchronize loop then hands each task
// straight to a spinning executor through the ring, instead of a Schedule (lock, ready list, executor
// wake-up) per task; see docs/benchmarks.md.
constexpr uint64_t kLingerNs = 10000;
// How long an executor spins on a cross-process flag before it parks the queue (SimQueue::SpinOnFlag).
constexpr uint64_t kFlagSpinNs = 50000;

bool WritesMemory(hal::TaskKind kind) {
  switch (kind) {
    case hal::TaskKind::kCopy:
    case hal::TaskKind::kCopy2d:
    case hal::TaskKind::kFill8:
    case hal::TaskKind::kFill32:
    case hal::TaskKind::kValueWrite:
    case hal::TaskKind::kValueUpdate:
    case hal::TaskKind::kHostFunc:
    case hal::TaskKind::kDispatch:
    case hal::TaskKind::kFlagRead:
    case hal::TaskKind::kKernel:
    case hal::TaskKind::kBatch:
      return true;
    default:
      return false;
  }
}

}  // namespace

bool ValueSatisfied(const void* addr, uint64_t operand, uint32_t compare) {
  uint64_t v = __atomic_load_n(static_cast<const uint64_t*>(addr), __ATOMIC_ACQUIRE);
  switch (static_cast<hal::ValueCompare>(compare)) {
    case hal::ValueCompare::kGreaterEqual:
      return v >= operand;
    case hal::ValueCompare::kEqual:
      return v == operand;
    case hal::ValueCompare::kAnd:
      return (v & operand) != 0;
    case hal::ValueCompare::kNor:
      return ~(v | operand) != 0;
    case hal::ValueCompare::kLess:
      return v < operand;
    case hal::ValueCompare::kGreater:
      return v > operand;
    case hal::ValueCompare::kAllBits:
      return (v & operand) == operand;
  }
  return false;
}

SimQueue::SimQueue(SimDevice* device, const hal::QueueOptions& options)
    : device_(device), options_(options), cells_(new Cell[kCapacity]) {
  for (uint64_t i = 0; i < kCapacity; ++i) cells_[i].seq.store(i, std::memory_order_relaxed);
  stop_on_failure_.store(options.stop_on_failure, std::memory_order_relaxed);
}

SimQueue::~SimQueue() {
  // Precondition: every submitted task completed. An executor may still be leaving Run().
  while (in_executor_.load(std::memory_order_acquire) != 0) CpuRelax();
  device_->timer().CancelAll(this);
}

uint64_t SimQueue::Submit(const hal::Task& task) {
  if (device_->synchronous()) {
    std::lock_guard<std::mutex> lock(inline_mu_);
    uint64_t seq = tail_.load(std::memory_order_relaxed) + 1;
    tail_.store(seq, std::memory_order_release);
    RunInline(task, seq);
    return seq;
  }
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

void SimQueue::ReleaseDiscardedSignal(const hal::Task& task) {
  // A discarded record (stop-on-failure, abort) still raises its flag: otherwise every host and stream
  // waiting on that event would wait forever for a record that will never run.
  if (task.kind == hal::TaskKind::kFlagSignal) static_cast<SimFlag*>(task.flag)->Signal(task.value);
}

bool SimQueue::Discarding(uint64_t seq) const {
  if (seq <= discard_through_.load(std::memory_order_acquire) && seq != abort_runs_.load(std::memory_order_acquire)) {
    return true;
  }
  return stop_on_failure_.load(std::memory_order_acquire) && error_.load(std::memory_order_acquire) != 0;
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
    if (!head_state_.parked && hal::ActiveTaskObserver() != nullptr) head_start_ns_ = NowNs();
    // A kernel resuming from its park was already running when a discard came: it finishes with its own
    // result (an interrupted kernel's failure), not as a discarded task.
    const bool running_kernel = head_state_.resumed && cell->task.kind == hal::TaskKind::kKernel;
    if (running_kernel || (!Discarding(head_ + 1) && !SkippedByLabel(cell->task))) {
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

namespace {

// The value a flag task of a batch uses: relative values are offset by the batch's base.
hal::Task Resolve(const hal::Task& task, uint64_t base) {
  hal::Task t = task;
  if ((t.kind == hal::TaskKind::kFlagSignal || t.kind == hal::TaskKind::kFlagWait) &&
      (t.aux & hal::kFlagRelative) != 0) {
    t.value += base;
  }
  return t;
}

}  // namespace

bool SimQueue::PushFrame(const hal::Task& batch) {
  if (head_state_.depth == hal::kMaxBatchDepth) return false;
  BatchFrame& f = head_state_.frames[head_state_.depth++];
  f.pos = 0;
  f.round = 0;
  f.select = batch.select;
  f.select_arg = batch.host_arg;
  f.list = batch.select != nullptr ? batch.select(batch.host_arg, 0) : batch.batch;
  return true;
}

// Runs the lists of a kBatch head task from where it stopped. Each list task is read when reached (see
// hal::TaskList); a task that parks parks the whole queue and is finished by its resumption.
SimQueue::Step SimQueue::ExecuteBatch(const hal::Task& task, int32_t* code, std::string* message) {
  if (head_state_.depth == 0 && !PushFrame(task)) return Step::kDone;
  for (;;) {
    BatchFrame& f = head_state_.frames[head_state_.depth - 1];
    if (f.list == nullptr || f.pos >= f.list->count) {
      if (f.list != nullptr && f.select != nullptr) {
        f.list = f.select(f.select_arg, ++f.round);
        f.pos = 0;
        if (f.list != nullptr) continue;
      }
      if (--head_state_.depth == 0) return Step::kDone;
      ++head_state_.frames[head_state_.depth - 1].pos;
      continue;
    }
    const hal::Task sub = Resolve(hal::ReadTask(*f.list, f.pos), task.value);
    if (sub.kind == hal::TaskKind::kBatch) {
      if (!PushFrame(sub)) {
        *code = ACL_ERROR_RT_INTERNAL_ERROR;
        *message = "conditional tasks nest too deeply";
        head_state_.depth = 0;
        return Step::kDone;
      }
      continue;
    }
    if (ExecuteOne(sub, code, message) == Step::kPark) return Step::kPark;
    if (*code != 0) {
      head_state_.depth = 0;
      return Step::kDone;
    }
    ++head_state_.frames[head_state_.depth - 1].pos;
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
    if (*code != 0 && task.kind == hal::TaskKind::kKernel) {
      *code = KernelFaultCode(*task.kernel, *code);
      *message = task.kernel->failure;
    }
    ClearPark();
    return Step::kDone;
  }
  switch (task.kind) {
    case hal::TaskKind::kNop:
      return Step::kDone;
    case hal::TaskKind::kCopy:
      CopyDeviceBytes(task.dst, task.src, task.size);
      return Step::kDone;
    case hal::TaskKind::kCopy2d:
      CopyDeviceRows(task.dst, task.dpitch, task.src, task.spitch, task.size, task.height);
      return Step::kDone;
    case hal::TaskKind::kFill8:
      FillDeviceBytes(task.dst, static_cast<uint8_t>(task.value & 0xff), task.size);
      return Step::kDone;
    case hal::TaskKind::kFill32: {
      FillDeviceWords(static_cast<uint32_t*>(task.dst), static_cast<uint32_t>(task.value), task.size);
      return Step::kDone;
    }
    case hal::TaskKind::kValueWrite:
      __atomic_store_n(static_cast<uint64_t*>(task.dst), task.value, __ATOMIC_RELEASE);
      return Step::kDone;
    case hal::TaskKind::kFlagSignal:
      if ((task.aux & hal::kFlagIncrement) != 0) {
        static_cast<SimFlag*>(task.flag)->Increment();
      } else {
        static_cast<SimFlag*>(task.flag)->Signal(task.value);
      }
      return Step::kDone;
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
    case hal::TaskKind::kFail:
      *code = static_cast<int32_t>(task.aux);
      *message = "task failed on the device";
      return Step::kDone;
    case hal::TaskKind::kDispatch:
      *code = task.dispatch->executable->Run(*task.dispatch, message);
      task.dispatch->status = *code;
      if (*code != 0 && message->empty()) *message = std::string(task.dispatch->name) + " failed on the device";
      return Step::kDone;
    case hal::TaskKind::kFlagRead:
      __atomic_store_n(static_cast<uint64_t*>(task.dst), task.flag->value(), __ATOMIC_RELEASE);
      return Step::kDone;
    case hal::TaskKind::kBatch:
      break;  // handled by Execute
    case hal::TaskKind::kValueUpdate:
      UpdateValue(task);
      return Step::kDone;
    case hal::TaskKind::kLabelSet:
      return Step::kDone;
    case hal::TaskKind::kLabelSwitch:
      return SwitchLabel(task, code, message);
  }
  *code = ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT;
  *message = "unknown task kind";
  return Step::kDone;
}

namespace {
uint64_t WaitTarget(const hal::Task& task) {
  if (task.src == nullptr) return task.value;
  return task.value + __atomic_load_n(static_cast<const uint64_t*>(task.src), __ATOMIC_ACQUIRE);
}
}  // namespace

bool SimQueue::SkippedByLabel(const hal::Task& task) {
  if (skip_to_label_ == 0) return false;
  if (task.kind == hal::TaskKind::kLabelSet && task.value == skip_to_label_) {
    skip_to_label_ = 0;  // the jump target: execution resumes here
    return false;
  }
  return true;
}

void SimQueue::UpdateValue(const hal::Task& task) {
  auto* word = static_cast<uint64_t*>(task.dst);
  switch (static_cast<hal::ValueUpdate>(task.aux)) {
    case hal::ValueUpdate::kSet: __atomic_store_n(word, task.value, __ATOMIC_RELEASE); break;
    case hal::ValueUpdate::kAdd: __atomic_fetch_add(word, task.value, __ATOMIC_ACQ_REL); break;
    case hal::ValueUpdate::kOr: __atomic_fetch_or(word, task.value, __ATOMIC_ACQ_REL); break;
    case hal::ValueUpdate::kAnd: __atomic_fetch_and(word, task.value, __ATOMIC_ACQ_REL); break;
  }
}

SimQueue::Step SimQueue::SwitchLabel(const hal::Task& task, int32_t* code, std::string* message) {
  uint32_t index = 0;
  std::memcpy(&index, task.src, sizeof index);
  if (index >= task.size) {
    *code = ACL_ERROR_RT_PARAM_INVALID;
    *message = "label switch index " + std::to_string(index) + " is not below the list's " +
               std::to_string(task.size) + " labels";
    return Step::kDone;
  }
  skip_to_label_ = static_cast<const uint64_t*>(task.host_arg)[index];
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
        return reached || device_->HasReadyQueues() || discard_through_.load(std::memory_order_relaxed) >= seq;
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
  if (discard_through_.load(std::memory_order_acquire) < seq) return;
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

void SimQueue::CompleteHostTask(int32_t code) {
  if (device_->synchronous()) {
    inline_host_code_.store(code, std::memory_order_release);
    inline_host_done_.store(true, std::memory_order_release);
    done_signal_.Notify();
    return;
  }
  Resume(0, code);
}

void SimQueue::Finish(Cell* cell, int32_t code, std::string message) {
  const hal::Task task = cell->task;  // copy out before the cell is recycled
  if (head_state_.parked) {
    std::lock_guard<std::mutex> lock(park_mu_);
    parked_site_ = nullptr;
  }
  ClearPark();
  head_state_.depth = 0;
  cell->seq.store(head_ + kCapacity, std::memory_order_release);
  ++head_;
  Complete(task, head_, code, std::move(message));
  space_signal_.NotifyIfSleeping();  // after the completion, like the rest of Complete's bookkeeping
}

void SimQueue::Complete(const hal::Task& task, uint64_t seq, int32_t code, std::string message) {
  if (task.kind == hal::TaskKind::kKernel) running_kernel_.store(nullptr, std::memory_order_relaxed);
  if (code != 0) {
    int32_t none = 0;
    if (error_.compare_exchange_strong(none, code, std::memory_order_acq_rel)) {
      std::lock_guard<std::mutex> lock(error_mu_);
      error_message_ = message;
    }
    if (options_.on_failure != nullptr) options_.on_failure(options_.hook_ctx, this, {task.id, code, message, task.kernel});
  }
  if (hal::TaskObserver* observer = hal::ActiveTaskObserver()) {
    const uint64_t end = NowNs();
    observer->OnTaskDone(options_, task, head_start_ns_ != 0 ? head_start_ns_ : end, end, code);
    head_start_ns_ = 0;
  }
  if (task.cleanup != nullptr) task.cleanup(task.cleanup_arg);
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

void SimQueue::RunInline(const hal::Task& task, uint64_t seq) {
  std::string message;
  if (hal::ActiveTaskObserver() != nullptr) head_start_ns_ = NowNs();  // inline_mu_ held
  int32_t code = 0;
  if (Discarding(seq)) {
    ReleaseDiscardedSignal(task);
  } else if (!SkippedByLabel(task)) {
    code = RunInlineOne(task, task.value, 0, &message);
  }
  Complete(task, seq, code, std::move(message));
}

int32_t SimQueue::RunInlineBatch(const hal::Task& batch, uint64_t base, int depth, std::string* message) {
  if (depth == hal::kMaxBatchDepth) {
    *message = "conditional tasks nest too deeply";
    return ACL_ERROR_RT_INTERNAL_ERROR;
  }
  for (uint32_t round = 0;; ++round) {
    const hal::TaskList* list = batch.select != nullptr ? batch.select(batch.host_arg, round) : batch.batch;
    if (list == nullptr) return 0;
    for (uint32_t i = 0; i < list->count; ++i) {
      const hal::Task sub = Resolve(hal::ReadTask(*list, i), base);
      const int32_t code = RunInlineOne(sub, base, depth + 1, message);
      if (code != 0) return code;
    }
    if (batch.select == nullptr) return 0;
  }
}

int32_t SimQueue::RunInlineOne(const hal::Task& task, uint64_t base, int depth, std::string* message) {
  int32_t code = 0;
  const uint64_t deadline = task.timeout_ns == 0 ? UINT64_MAX : NowNs() + task.timeout_ns;
  switch (task.kind) {
    case hal::TaskKind::kBatch:
      code = RunInlineBatch(task, base, depth, message);
      break;
    case hal::TaskKind::kFlagWait:
      if (!task.flag->WaitHost(WaitTarget(task), deadline)) {
        code = ACL_ERROR_RT_TASK_TIMEOUT;
        *message = "event wait timed out";
      }
      break;
    case hal::TaskKind::kValueWait:
      if (!device_->memory_signal().WaitUntil([&] { return ValueSatisfied(task.dst, task.value, task.aux); },
                                              deadline, kHostSpinNs)) {
        code = ACL_ERROR_RT_TASK_TIMEOUT;
        *message = "value wait timed out";
      }
      break;
    case hal::TaskKind::kKernel:
      code = KernelFaultCode(*task.kernel, device_->aicore().Run(task.kernel));
      if (code != 0) *message = task.kernel->failure;
      break;
    case hal::TaskKind::kHostFunc:
      inline_host_done_.store(false, std::memory_order_release);
      task.host_fn(task.host_arg, this);
      done_signal_.WaitUntil([&] { return inline_host_done_.load(std::memory_order_acquire); }, UINT64_MAX,
                             kHostSpinNs);
      code = inline_host_code_.load(std::memory_order_acquire);
      break;
    default:
      if (ExecuteOne(task, &code, message) == Step::kPark) {
        code = ACL_ERROR_RT_INTERNAL_ERROR;  // unreachable: parking kinds are handled above
      }
      break;
  }
  return code;
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

std::string SimQueue::error_message() const {
  std::lock_guard<std::mutex> lock(error_mu_);
  return error_message_;
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
        abort_runs_.store(head, std::memory_order_release);
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

void SimQueue::ClearError() {
  std::lock_guard<std::mutex> lock(error_mu_);
  error_.store(0, std::memory_order_release);
  error_message_.clear();
}

void SimQueue::Discard() {
  uint64_t through = tail_.load(std::memory_order_acquire);
  uint64_t cur = discard_through_.load(std::memory_order_acquire);
  while (cur < through && !discard_through_.compare_exchange_weak(cur, through, std::memory_order_acq_rel)) {
  }
  // Release a parked wait so the discarded tasks drain.
  std::lock_guard<std::mutex> lock(park_mu_);
  if (parked_site_ != nullptr && parked_site_->Cancel(this, parked_token_)) {
    parked_site_ = nullptr;
    Resume(parked_token_, 0);
  }
}

}  // namespace npurt::drivers::sim
