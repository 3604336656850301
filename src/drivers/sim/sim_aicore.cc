#include "drivers/sim/sim_aicore.h"

#include <signal.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "base/prefetch.h"
#include "drivers/sim/sim_aicore_fault.h"
#include "drivers/sim/sim_coop.h"
#include "drivers/sim/sim_cross_flags.h"
#include "drivers/sim/sim_queue.h"

namespace npurt::drivers::sim {
namespace {

// How long an idle core spins for the next block before sleeping (as the executors do).
constexpr uint64_t kCoreSpinNs = 30000;
constexpr size_t kPageBytes = 4096;

// The running block's launch, index and partial printed line live in the thread's BlockThreadState (set
// by ExecuteBlock, which has it at hand) rather than in TLS of their own: a thread_local of a shared
// library costs a call to look up on every block, while the kernel services that use them are rare.
void EmitLine(const BlockThreadState& st, const std::string& line) {
  // The text as the kernel wrote it, as CANN prints it (the official samples' READMEs show no prefix).
  (void)st;
  const std::string out = line + '\n';
  // The deadline timer must not interrupt the block while it holds the stdout lock.
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, TimeoutSignal());
  pthread_sigmask(SIG_BLOCK, &block, &old);
  std::fwrite(out.data(), 1, out.size(), stdout);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
}

void ServiceFail(int32_t code, const char* message) { FailRunningBlock(code, message); }

void ServicePrint(const char* text, size_t len) {
  BlockThreadState& st = CurrentBlockThread();
  for (size_t i = 0; i < len; ++i) {
    if (text[i] == '\n') {
      EmitLine(st, st.print_line);
      st.print_line.clear();
    } else {
      st.print_line.push_back(text[i]);
    }
  }
}

// The end of a block: what it printed without a final newline.
void FlushPrint(BlockThreadState& st) {
  EmitLine(st, st.print_line);
  st.print_line.clear();
}

hal::KernelLaunch* RunningLaunch() { return static_cast<hal::KernelLaunch*>(CurrentBlockThread().launch); }

void ServiceCheckGlobal(const void* addr, uint64_t size, int32_t is_write, const char* what) {
  hal::KernelLaunch* launch = RunningLaunch();
  if (launch == nullptr || launch->check_memory == nullptr) return;
  // FailRunningBlock leaves through siglongjmp, which runs no destructor: the message is built in a
  // fixed buffer and every std::string is gone before the jump (they leaked once per trapped access).
  char message[512];
  {
    const std::string why = launch->check_memory(addr, size);
    if (why.empty()) return;
    const auto r = fmt::format_to_n(message, sizeof message - 1, "{}: {} of {} bytes at {}: {}", what,
                                    is_write ? "write" : "read", size, addr, why);
    *r.out = '\0';
  }
  FailRunningBlock(is_write ? ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW : ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW,
                   message);
}

void ServiceReportOverflow() {
  if (hal::KernelLaunch* launch = RunningLaunch()) __atomic_store_n(&launch->overflowed, uint8_t{1}, __ATOMIC_RELAXED);
}

const npurt_kernel_services kServices = {sizeof(npurt_kernel_services), 0, &ServiceFail, &ServicePrint,
                                         &ServiceCheckGlobal, &ServiceReportOverflow, &ServiceSyncAll,
                                         &ServiceCrossSet,    &ServiceCrossWait};
const npurt_kernel_services kServicesNoCheck = {sizeof(npurt_kernel_services), 0, &ServiceFail, &ServicePrint,
                                                nullptr, &ServiceReportOverflow, &ServiceSyncAll,
                                                &ServiceCrossSet, &ServiceCrossWait};

// Threads of co-operative blocks, all launches together: the fault handlers know at most 4096 block threads
// (sim_aicore_fault.cc), which the cores and executors share with them.
constexpr uint32_t kMaxCooperativeThreads = 3072;

}  // namespace

struct AiCorePool::Job {
  hal::KernelLaunch* launch = nullptr;
  SimQueue* queue = nullptr;       // nullptr: synchronous Run
  uint32_t next = 0;               // next block to start (mu_)
  uint32_t end = 0;                // blocks from here on are not started (mu_)
  std::atomic<uint32_t> finished{0};
  std::atomic<int32_t> code{0};
  std::atomic<bool> timed_out{false};
  uint64_t deadline_ns = 0;
  uint32_t allowed_cores = 0;      // cores 0 .. allowed_cores-1 may run its blocks
  std::atomic<int32_t> refs{0};
  std::atomic<bool> done{false};   // synchronous Run
  WaitSignal done_signal;
  Job* next_free = nullptr;        // in returned_jobs_ or an executor's cache
  bool cooperative = false;        // its blocks run on threads of their own (in coop_jobs_, mu_)
  CoopBarrier barrier;             // SyncAll of a co-operative launch
  CrossFlags cross;                // its cross-core flags
};

struct AiCorePool::Core {
  uint32_t id = 0;
  pthread_t thread{};
  BlockThreadState* state = nullptr;
  std::atomic<Job*> running{nullptr};
  uint8_t* map = nullptr;  // guard page, unified buffer, guard page
  uint8_t* ub = nullptr;
  size_t map_bytes = 0;
  Job* job_cache = nullptr;  // an executor's recycled jobs (only its thread touches the list)
};

AiCorePool::AiCorePool(uint32_t cores, DeadlineTimer* timer) : cores_(cores == 0 ? 1 : cores), timer_(timer) {}

AiCorePool::~AiCorePool() {
  {
    // Co-operative blocks end on their own (a launch completes only once all its blocks ended).
    std::unique_lock<std::mutex> lock(mu_);
    coop_ended_.wait(lock, [&] { return coop_threads_ == 0; });
  }
  stop_.store(true, std::memory_order_release);
  work_signal_.Notify();
  for (auto& t : threads_) t.join();
  timer_->CancelAll(this);
  for (auto* cores : {&core_state_, &executor_cores_}) {
    for (auto& core : *cores) {
      if (core->map != nullptr) munmap(core->map, core->map_bytes);
    }
  }
  for (Job* j : free_jobs_) delete j;
  auto delete_list = [](Job* j) {
    while (j != nullptr) delete std::exchange(j, j->next_free);
  };
  delete_list(returned_jobs_.exchange(nullptr));
  for (auto& core : executor_cores_) delete_list(core->job_cache);
}

void AiCorePool::EnsureStarted() {
  std::call_once(started_, [this] {
    for (uint32_t i = 0; i < cores_; ++i) {
      auto core = std::make_unique<Core>();
      core->id = i;
      MapUnifiedBuffer(*core);
      core_state_.push_back(std::move(core));
    }
    for (auto& core : core_state_) {
      Core* c = core.get();
      threads_.emplace_back([this, c] { CoreLoop(c); });
    }
    cores_ready_.store(true, std::memory_order_release);
  });
}

AiCorePool::Job* AiCorePool::NewJob(hal::KernelLaunch* launch, SimQueue* queue, Core* executor) {
  Job* job = nullptr;
  if (executor != nullptr) {
    if (executor->job_cache == nullptr) executor->job_cache = returned_jobs_.exchange(nullptr, std::memory_order_acquire);
    job = executor->job_cache;
    if (job != nullptr) executor->job_cache = job->next_free;
  } else {
    std::lock_guard<std::mutex> lock(mu_);
    if (!free_jobs_.empty()) {
      job = free_jobs_.back();
      free_jobs_.pop_back();
    }
  }
  if (job == nullptr) job = new Job();
  job->launch = launch;
  job->queue = queue;
  job->next = 0;
  job->end = Units(*launch);  // every participant of every block
  job->finished.store(0, std::memory_order_relaxed);
  job->code.store(0, std::memory_order_relaxed);
  job->timed_out.store(false, std::memory_order_relaxed);
  job->done.store(false, std::memory_order_relaxed);
  job->refs.store(queue != nullptr ? 1 : 2, std::memory_order_relaxed);
  job->deadline_ns = launch->timeout_ns != 0 ? NowNs() + launch->timeout_ns : 0;
  job->allowed_cores = AllowedCores(*launch);
  job->cooperative = false;
  // Read before writing: the launch record belongs to the launching thread's cache, and a store here
  // would cost its next launch a miss.
  if (!launch->failure.empty()) launch->failure.clear();
  return job;
}

void AiCorePool::Submit(Job* job, bool wake_cores) {
  EnsureStarted();
  if (job->deadline_ns != 0) timer_->Arm(job->deadline_ns, this, reinterpret_cast<uintptr_t>(job));
  if (job->next >= job->end) return;  // the executor took the only block: nothing for the cores
  {
    std::lock_guard<std::mutex> lock(mu_);
    active_.push_back(job);
    if (job->allowed_cores > widest_.load(std::memory_order_relaxed)) {
      widest_.store(job->allowed_cores, std::memory_order_seq_cst);
    }
    active_count_.fetch_add(1, std::memory_order_seq_cst);
  }
  if (wake_cores) work_signal_.NotifyIfSleeping();
}

void AiCorePool::RecycleJob(Job* job) {
  if (job->queue == nullptr) {
    std::lock_guard<std::mutex> lock(mu_);
    free_jobs_.push_back(job);
    return;
  }
  Job* head = returned_jobs_.load(std::memory_order_relaxed);
  do {
    job->next_free = head;
  } while (!returned_jobs_.compare_exchange_weak(head, job, std::memory_order_release, std::memory_order_relaxed));
}

bool AiCorePool::Start(hal::KernelLaunch* launch, SimQueue* queue, int32_t* code) {
  // One block, every core allowed and no timeout: only this executor takes part, so no job is needed
  // (no core claims a block, no deadline timer looks for it) and the launch completes here.
  if (RunsOnExecutorAlone(*launch) && launch->timeout_ns == 0) {
    Core& core = ExecutorCore();
    // Read before writing: the launch record belongs to the launching thread's cache.
    if (!launch->failure.empty()) launch->failure.clear();
    std::string message;
    *code = ExecuteBlock(core, launch, nullptr, 0, &message);
    if (*code != 0) launch->failure = std::move(message);
    return true;
  }
  if (launch->cooperative != 0) return !StartCooperative(NewJob(launch, queue), code);
  // With a core limit (aclrtSetStreamResLimit) only the cores may run it; otherwise the executor takes a
  // block too, and the cores are woken only for the rest: a hand-off to another thread and back costs
  // tens of microseconds when the cores sleep, longer than a small kernel runs.
  if (AllowedCores(*launch) != cores_) {
    Submit(NewJob(launch, queue), true);
    return false;
  }
  // Executors serve one device each: the calling thread's core of this pool, made on first use.
  Core& core = ExecutorCore();
  Job* job = NewJob(launch, queue, &core);
  // The executor's block is claimed before the job is published: until that block is counted the job
  // cannot complete, so the cores cannot finish it, recycle it for another launch and resume the queue
  // while this executor still uses it.
  const uint32_t block = job->next++;
  Submit(job, Units(*launch) > 1);
  RunBlock(core, job, block);
  return FinishBlocks(job, 1, /*resume=*/false, code);
}

AiCorePool::Core& AiCorePool::ExecutorCore() {
  // Executors serve one device, so one pool per thread; the core lives as long as the pool.
  thread_local AiCorePool* t_pool = nullptr;
  thread_local Core* t_core = nullptr;
  if (t_pool == this && t_core != nullptr) return *t_core;
  PrepareBlockThread();
  auto core = std::make_unique<Core>();
  MapUnifiedBuffer(*core);
  core->state = &CurrentBlockThread();
  core->thread = pthread_self();
  Core* raw = core.get();
  {
    std::lock_guard<std::mutex> lock(mu_);
    raw->id = cores_ + static_cast<uint32_t>(executor_cores_.size());
    executor_cores_.push_back(std::move(core));
  }
  t_pool = this;
  t_core = raw;
  return *raw;
}

int32_t AiCorePool::Run(hal::KernelLaunch* launch) {
  Job* job = NewJob(launch, nullptr);
  if (launch->cooperative != 0) {
    int32_t code = 0;
    if (!StartCooperative(job, &code)) return code;
  } else {
    Submit(job, true);
  }
  job->done_signal.WaitUntil([&] { return job->done.load(std::memory_order_acquire); }, UINT64_MAX, kCoreSpinNs);
  const int32_t code = job->code.load(std::memory_order_acquire);
  if (job->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) RecycleJob(job);
  return code;
}

bool AiCorePool::StartCooperative(Job* job, int32_t* code) {
  hal::KernelLaunch* launch = job->launch;
  const uint32_t blocks = Units(*launch);  // every participant runs at once
  std::string why;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (blocks > kMaxCooperativeBlocks) {
      why = fmt::format("kernel '{}' synchronises its blocks (SyncAll), so all {} blocks must run at once; the sim "
                        "runs at most {} blocks of such a kernel",
                        launch->name, blocks, kMaxCooperativeBlocks);
    } else if (coop_threads_ + blocks > kMaxCooperativeThreads) {
      why = fmt::format("kernel '{}' synchronises its blocks (SyncAll), so all {} blocks must run at once, but "
                        "co-operative launches already run {} blocks (at most {} in all)",
                        launch->name, blocks, coop_threads_, kMaxCooperativeThreads);
    } else {
      coop_threads_ += blocks;
      job->cooperative = true;
      coop_jobs_.push_back(job);
    }
  }
  if (!why.empty()) {
    launch->failure = std::move(why);
    *code = ACL_ERROR_RT_AICORE_EXCEPTION;
    RecycleJob(job);
    return false;
  }
  job->next = job->end;  // no core claims its blocks
  job->barrier.Reset(blocks, &job->code);
  job->cross.Reset(launch->num_blocks, launch->MixVectors(), launch->MixCube(), &job->code);
  if (job->deadline_ns != 0) timer_->Arm(job->deadline_ns, this, reinterpret_cast<uintptr_t>(job));
  for (uint32_t b = 0; b < blocks; ++b) {
    try {
      std::thread([this, job, b] { CooperativeBlock(job, b); }).detach();
    } catch (const std::system_error& e) {
      // Blocks b.. never run: the launch fails, the blocks waiting in SyncAll give up.
      {
        std::lock_guard<std::mutex> lock(mu_);
        coop_threads_ -= blocks - b;
        if (coop_threads_ == 0) coop_ended_.notify_all();
      }
      FailJob(job, ACL_ERROR_RT_AICORE_EXCEPTION,
              fmt::format("kernel '{}': no thread for co-operative block {}: {}", launch->name, b, e.what()));
      FinishBlocks(job, blocks - b);
      break;
    }
  }
  return true;
}

void AiCorePool::CooperativeBlock(Job* job, uint32_t block) {
  PrepareBlockThread();
  Core core;
  core.id = block;  // a co-operative block has a core of its own
  MapUnifiedBuffer(core);
  core.state = &CurrentBlockThread();
  core.thread = pthread_self();
  core.state->coop = &job->barrier;
  core.state->cross = &job->cross;
  {
    std::lock_guard<std::mutex> lock(mu_);
    coop_cores_.push_back(&core);
  }
  if (core.ub != nullptr) {
    RunBlock(core, job, block);
  } else {
    FailJob(job, ACL_ERROR_RT_AICORE_EXCEPTION,
            fmt::format("kernel '{}' block {}: no memory for its unified buffer", job->launch->name, block));
  }
  core.state->coop = nullptr;
  core.state->cross = nullptr;
  job->barrier.BlockEnded();
  {
    std::lock_guard<std::mutex> lock(mu_);
    coop_cores_.erase(std::find(coop_cores_.begin(), coop_cores_.end(), &core));
  }
  if (core.map != nullptr) munmap(core.map, core.map_bytes);
  FinishBlocks(job, 1);
  std::lock_guard<std::mutex> lock(mu_);
  if (--coop_threads_ == 0) coop_ended_.notify_all();
}

void AiCorePool::MapUnifiedBuffer(Core& core) {
  // Guard pages around the unified buffer: a kernel that runs off its UB faults instead of corrupting
  // its neighbour's.
  core.map_bytes = kUnifiedBufferBytes + 2 * kPageBytes;
  void* m = mmap(nullptr, core.map_bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m != MAP_FAILED) {
    core.map = static_cast<uint8_t*>(m);
    core.ub = core.map + kPageBytes;
    mprotect(core.ub, kUnifiedBufferBytes, PROT_READ | PROT_WRITE);
  }
}

void AiCorePool::RemoveActiveLocked(Job* job) {
  for (auto it = active_.begin(); it != active_.end(); ++it) {
    if (*it == job) {
      active_.erase(it);
      active_count_.fetch_sub(1, std::memory_order_relaxed);
      UpdateWidest();
      return;
    }
  }
}

void AiCorePool::UpdateWidest() {
  uint32_t widest = 0;
  for (Job* j : active_) widest = j->allowed_cores > widest ? j->allowed_cores : widest;
  widest_.store(widest, std::memory_order_seq_cst);
}

bool AiCorePool::Claim(uint32_t core, Job** job, uint32_t* block) {
  if (active_count_.load(std::memory_order_acquire) == 0) return false;
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t n = active_.size(); n > 0; --n) {
    Job* j = active_.front();
    active_.pop_front();
    if (j->next >= j->end) {
      active_count_.fetch_sub(1, std::memory_order_relaxed);
      UpdateWidest();
      continue;
    }
    if (core >= j->allowed_cores) {  // limited to fewer cores (aclrtSetStreamResLimit): not this one
      active_.push_back(j);
      continue;
    }
    *job = j;
    *block = j->next++;
    // Round robin: the job goes to the back of the line while it has blocks left.
    if (j->next < j->end) {
      active_.push_back(j);
    } else {
      active_count_.fetch_sub(1, std::memory_order_relaxed);
      UpdateWidest();
    }
    return true;
  }
  return false;
}

void AiCorePool::CoreLoop(Core* core) {
  PrepareBlockThread();
  core->state = &CurrentBlockThread();
  core->thread = pthread_self();
  while (!stop_.load(std::memory_order_acquire)) {
    Job* job = nullptr;
    uint32_t block = 0;
    if (!Claim(core->id, &job, &block)) {
      work_signal_.WaitUntil(
          [&] {
            return (active_count_.load(std::memory_order_acquire) != 0 &&
                    core->id < widest_.load(std::memory_order_acquire)) ||
                   stop_.load(std::memory_order_acquire);
          },
          UINT64_MAX, kCoreSpinNs);
      continue;
    }
    RunBlock(*core, job, block);
    FinishBlocks(job, 1);
  }
}

void AiCorePool::RunBlock(Core& core, Job* job, uint32_t block) {
  std::string message;
  const int32_t code = ExecuteBlock(core, job->launch, job, block, &message);
  if (code != 0) FailJob(job, code, std::move(message));
}

int32_t AiCorePool::ExecuteBlock(Core& core, hal::KernelLaunch* launch, Job* job, uint32_t block,
                                 std::string* message) {
  BlockThreadState& st = *core.state;
  // Order matters for timeouts: the stale target is cleared before the deadline timer can see this core run
  // the job, and the job's flag is re-checked once the block is interruptible. A block without a job has
  // no deadline: no deadline timer looks for it.
  if (job != nullptr) {
    st.timed_out_job.store(nullptr, std::memory_order_relaxed);
    core.running.store(job, std::memory_order_seq_cst);
    st.job.store(job, std::memory_order_relaxed);
  } else {
    // Interruptible by its stream (Interrupt): an interruption meant for an earlier launch through the
    // same record is forgotten first. Both are this thread's own line: no store reaches another core.
    if (st.interrupted_launch.load(std::memory_order_relaxed) != nullptr) {
      st.interrupted_launch.store(nullptr, std::memory_order_relaxed);
    }
    st.solo_launch.store(launch, std::memory_order_release);
  }
  // `block` counts participants: of a mixed kernel, the block's index and which participant of it runs.
  npurt_kernel_block ctx{};
  st.unit = block;
  if (launch->mix != 0) [[unlikely]] {
    const uint32_t lanes = Lanes(*launch);
    const uint32_t lane = block % lanes;
    const uint32_t aiv = launch->MixVectors();
    ctx.sub_block = (lane < aiv ? lane : 0u) | (lane >= aiv ? 0x100u : 0u) | (launch->MixCube() ? 0x200u : 0u) | (aiv << 16);
    block /= lanes;
  }
  st.block_idx = block + launch->block_offset;
  st.launch = launch;
  ctx.block_idx = st.block_idx;
  ctx.block_num = launch->num_blocks;
  ctx.core_id = core.id;
  ctx.ub_base = core.ub;
  ctx.ub_size = kUnifiedBufferBytes;
  ctx.services = launch->check_memory != nullptr ? &kServices : &kServicesNoCheck;

  // The argument block was written by the launching thread: fetch its first lines before the entry reads them.
  if (launch->args_size != 0) PrefetchLines(launch->args, std::min<size_t>(launch->args_size, 256));
  volatile int exit = sigsetjmp(st.recovery, 0);
  if (exit == 0) {
    st.active = 1;
    // `active` is read by this thread's own signal handlers: a compiler barrier orders it before the
    // check. Against the deadline timer, running (stored above) and timed_out are both sequentially
    // consistent: either it sees this core run the job and signals it, or this load sees its flag.
    std::atomic_signal_fence(std::memory_order_seq_cst);
    if (job != nullptr && job->timed_out.load(std::memory_order_seq_cst)) {
      st.active = 0;
      exit = static_cast<int>(BlockExit::kTimeout);
    } else {
      // The code handle is the kernel's generated entry (drivers/host/host_kernel_module.h).
      reinterpret_cast<npurt_kernel_entry>(const_cast<void*>(launch->code))(launch->args, &ctx);
      st.active = 0;
    }
  }
  if (exit == static_cast<int>(BlockExit::kSignal) || exit == static_cast<int>(BlockExit::kTimeout) ||
      exit == static_cast<int>(BlockExit::kInterrupt)) {
    pthread_sigmask(SIG_SETMASK, &st.normal_mask, nullptr);  // the handler's mask is still in force
  }
  if (!st.print_line.empty()) FlushPrint(st);
  if (job != nullptr) {
    core.running.store(nullptr, std::memory_order_seq_cst);
    st.job.store(nullptr, std::memory_order_relaxed);
  } else {
    st.solo_launch.store(nullptr, std::memory_order_relaxed);
  }
  st.launch = nullptr;

  switch (static_cast<BlockExit>(static_cast<int>(exit))) {
    case BlockExit::kNone:
      return 0;
    case BlockExit::kSignal: {
      const BlockFault& f = st.fault;
      *message = fmt::format("kernel '{}' block {} on AI core {}: {}", launch->name, ctx.block_idx, core.id,
                             DescribeFault(f));
      if ((f.signo == SIGSEGV || f.signo == SIGBUS) && launch->check_memory != nullptr) {
        const std::string where = launch->check_memory(reinterpret_cast<const void*>(f.address), 0);
        if (!where.empty()) {
          *message += "; " + where;
          return f.is_write ? ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW : ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW;
        }
      }
      return ACL_ERROR_RT_AICORE_EXCEPTION;
    }
    case BlockExit::kFail:
      *message = fmt::format("kernel '{}' block {} on AI core {}: {}", launch->name, ctx.block_idx, core.id,
                             st.fault.fail_message);
      return st.fault.fail_code;
    case BlockExit::kTimeout:
      *message = fmt::format("kernel '{}' did not finish within its execution timeout of {} us (block {} was stopped)",
                             launch->name, launch->timeout_ns / 1000, ctx.block_idx);
      return ACL_ERROR_RT_AICORE_TIMEOUT;
    case BlockExit::kInterrupt:
      *message = fmt::format("kernel '{}' block {} on AI core {} was interrupted: {}", launch->name, ctx.block_idx,
                             core.id, st.interrupt_reason.load(std::memory_order_relaxed));
      return st.interrupt_code.load(std::memory_order_relaxed);
  }
  return 0;
}

void AiCorePool::FailJob(Job* job, int32_t code, std::string message) {
  int32_t none = 0;
  if (job->code.compare_exchange_strong(none, code, std::memory_order_acq_rel)) job->launch->failure = message;
  uint32_t skipped = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (job->next < job->end) {
      skipped = job->end - job->next;
      job->end = job->next;
      RemoveActiveLocked(job);
    }
  }
  if (skipped != 0) FinishBlocks(job, skipped);
}

void AiCorePool::OnTimeout(Job* job) {
  InterruptJob(job, ACL_ERROR_RT_AICORE_TIMEOUT,
               fmt::format("kernel '{}' did not finish within its execution timeout of {} us", job->launch->name,
                           job->launch->timeout_ns / 1000));
}

void AiCorePool::InterruptJob(Job* job, int32_t code, std::string message) {
  // The code first, so that the interrupted blocks' own failures (a timeout exit) do not replace it.
  int32_t none = 0;
  if (job->code.compare_exchange_strong(none, code, std::memory_order_acq_rel)) job->launch->failure = message;
  job->timed_out.store(true, std::memory_order_seq_cst);
  auto interrupt = [job](Core& core) {
    if (core.running.load(std::memory_order_seq_cst) == job && core.state != nullptr) {
      core.state->timed_out_job.store(job, std::memory_order_release);
      pthread_kill(core.thread, TimeoutSignal());
    }
  };
  if (cores_ready_.load(std::memory_order_acquire)) {
    for (auto& core : core_state_) interrupt(*core);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& core : executor_cores_) interrupt(*core);
    for (Core* core : coop_cores_) interrupt(*core);
  }
  FailJob(job, code, std::move(message));
}

bool AiCorePool::Interrupt(const hal::KernelLaunch* launch, int32_t code, const char* reason) {
  // A launch with a job: a core running one of its blocks names the job.
  Job* job = nullptr;
  auto find = [&](Core& core) {
    Job* j = core.running.load(std::memory_order_seq_cst);
    if (j != nullptr && j->launch == launch) job = j;
  };
  if (cores_ready_.load(std::memory_order_acquire)) {
    for (auto& core : core_state_) find(*core);
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& core : executor_cores_) find(*core);
    for (Job* j : active_) {
      if (j->launch == launch) job = j;
    }
    for (Job* j : coop_jobs_) {
      if (j->launch == launch) job = j;
    }
    if (job == nullptr) {
      // A launch running alone on its executor (no job).
      for (auto& core : executor_cores_) {
        BlockThreadState* st = core->state;
        if (st == nullptr || st->solo_launch.load(std::memory_order_seq_cst) != launch) continue;
        st->interrupt_code.store(code, std::memory_order_relaxed);
        st->interrupt_reason.store(reason, std::memory_order_relaxed);
        st->interrupted_launch.store(launch, std::memory_order_release);
        pthread_kill(core->thread, TimeoutSignal());
        return true;
      }
      return false;
    }
  }
  InterruptJob(job, code, fmt::format("kernel '{}' was interrupted: {}", launch->name, reason));
  return true;
}

bool AiCorePool::FinishBlocks(Job* job, uint32_t count, bool resume, int32_t* code) {
  // Read before counting: once this call's blocks are counted another thread may complete the job and
  // recycle it (and its launch record) for another launch.
  const uint32_t total = Units(*job->launch);
  if (job->finished.fetch_add(count, std::memory_order_acq_rel) + count != total) return false;
  const int32_t c = Complete(job, resume);
  if (code != nullptr) *code = c;
  return true;
}

int32_t AiCorePool::Complete(Job* job, bool resume) {
  // Afterwards the timer no longer touches the job (on the timer's thread, the timeout completing it).
  if (job->deadline_ns != 0) timer_->Cancel(this, reinterpret_cast<uintptr_t>(job));
  if (job->cooperative) {
    std::lock_guard<std::mutex> lock(mu_);
    coop_jobs_.erase(std::find(coop_jobs_.begin(), coop_jobs_.end(), job));
  }
  const int32_t code = job->code.load(std::memory_order_acquire);
  SimQueue* queue = resume ? job->queue : nullptr;
  if (job->queue == nullptr) {
    job->done.store(true, std::memory_order_release);
    job->done_signal.Notify();
  }
  if (job->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) RecycleJob(job);
  if (queue != nullptr) queue->Resume(0, code);
  return code;
}

}  // namespace npurt::drivers::sim
