// AiCorePool: the AI cores of a simulated NPU.
//
// One worker thread per core (DeviceInfo::aicore_count), each with its own unified buffer (UB). A kernel
// launch becomes a job: its blocks are claimed one at a time by whichever cores are free, so `numBlocks`
// spread over the cores and the jobs of different streams share them (a core takes its next block from
// the jobs in turn). The executor that reached the kKernel task parks its queue and returns to other
// queues; the core that finishes the job's last block resumes the queue with the launch's result.
//
// Failures: a block that faults, traps or fails in kernel_operator.h stops (sim_aicore_fault.h); its job
// starts no further blocks, lets running ones finish and completes with the first failure. A launch with
// a timeout is watched: when the deadline passes the job stops starting blocks and the cores still running
// one of its blocks are interrupted.
#pragma once

#include <pthread.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/futex.h"
#include "drivers/sim/sim_deadline_timer.h"
#include "hal/hal.h"

namespace npurt::drivers::sim {

class SimQueue;

class AiCorePool final : private DeadlineTimer::Client {
 public:
  // The unified-buffer capacity of a simulated core (an Ascend 910B vector core has 192 KiB).
  static constexpr uint64_t kUnifiedBufferBytes = 192 * 1024;

  // Execution timeouts go to the device's `timer`, which outlives the pool.
  AiCorePool(uint32_t cores, DeadlineTimer* timer);
  ~AiCorePool() override;
  AiCorePool(const AiCorePool&) = delete;
  AiCorePool& operator=(const AiCorePool&) = delete;

  uint32_t cores() const { return cores_; }

  // Runs `launch` for the executor running `queue` (which has parked the queue). The executor runs one
  // block itself (so a 1-block kernel never leaves its thread, and the cores are woken only for the
  // others). Returns true with the launch's code in *code when the launch already completed here (the
  // executor finished its last block): the caller un-parks the queue and goes on. Otherwise the core
  // finishing the last block resumes `queue` with the code (0 = success; launch->failure says why not).
  // A one-block launch with no core limit and no timeout runs on the executor alone, without a job.
  bool Start(hal::KernelLaunch* launch, SimQueue* queue, int32_t* code);
  // True when Start runs every block of `launch` on the calling executor and completes it there (one
  // block, no core limit): nothing else can resume the queue, so it need not park.
  bool RunsOnExecutorAlone(const hal::KernelLaunch& launch) const {
    return Units(launch) == 1 && launch.cooperative == 0 && AllowedCores(launch) == cores_;
  }
  // Participants of each block: the vector sub-blocks and the cube part of a mixed kernel (the cube part
  // alone for a cube kernel), else 1.
  static uint32_t Lanes(const hal::KernelLaunch& launch) {
    const uint32_t n = launch.MixVectors() + (launch.MixCube() ? 1u : 0u);
    return n == 0 ? 1u : n;
  }
  // What the cores run one at a time: every participant of every block.
  static uint32_t Units(const hal::KernelLaunch& launch) { return launch.num_blocks * Lanes(launch); }
  // A co-operative launch (hal::KernelLaunch::cooperative: the kernel calls SyncAll) runs every block at
  // once, each on a thread of its own with its own unified buffer, whatever the number of cores and the
  // core limit: up to this many blocks per launch (more fail the launch with a message).
  static constexpr uint32_t kMaxCooperativeBlocks = 1024;
  // Synchronous mode: runs `launch` and returns its code once it completed.
  int32_t Run(hal::KernelLaunch* launch);
  // Interrupts `launch` if it is running (aclrtStreamAbort / aclrtStreamStop): it starts no further
  // blocks, its running blocks are stopped (sim_aicore_fault.h) and it fails with `code`, `reason` (a
  // string literal) in its message. False if no block of it runs. Any thread.
  bool Interrupt(const hal::KernelLaunch* launch, int32_t code, const char* reason);

 private:
  struct Job;
  struct Core;

  // Cores 0 .. AllowedCores()-1 may run the launch's blocks (its core limit, else every core).
  uint32_t AllowedCores(const hal::KernelLaunch& launch) const {
    return launch.max_cores != 0 && launch.max_cores < cores_ ? launch.max_cores : cores_;
  }
  Job* NewJob(hal::KernelLaunch* launch, SimQueue* queue, Core* executor = nullptr);
  void RecycleJob(Job* job);
  // Makes the job's unclaimed blocks claimable; wakes sleeping cores when `wake_cores`.
  void Submit(Job* job, bool wake_cores);
  // The calling executor thread's core (its own unified buffer), made on first use.
  Core& ExecutorCore();
  bool Claim(uint32_t core, Job** job, uint32_t* block);
  // Recomputes widest_ (mu_ held).
  void UpdateWidest();
  // Takes `job` off the claim line (mu_ held).
  void RemoveActiveLocked(Job* job);
  // Maps the core's unified buffer between two guard pages.
  static void MapUnifiedBuffer(Core& core);
  void RunBlock(Core& core, Job* job, uint32_t block);
  // Runs one block of `launch` on `core` and returns 0, or its failure code with *message. `job` is null
  // for a launch the executor runs alone without a timeout (see Start).
  int32_t ExecuteBlock(Core& core, hal::KernelLaunch* launch, Job* job, uint32_t block, std::string* message);
  // Counts finished blocks; the one that finishes the last completes the job (resuming its queue unless
  // `resume` is false). Returns true if this call completed it, with the launch's code in *code.
  bool FinishBlocks(Job* job, uint32_t count, bool resume = true, int32_t* code = nullptr);
  // Records the job's first failure and stops it from starting further blocks.
  void FailJob(Job* job, int32_t code, std::string message);
  // Starts every block of a co-operative launch, one thread each (see kMaxCooperativeBlocks). False with
  // the failure in *code and launch->failure when the launch cannot run (the job is then recycled).
  bool StartCooperative(Job* job, int32_t* code);
  void CooperativeBlock(Job* job, uint32_t block);
  void OnTimeout(Job* job);
  void OnDeadline(uint64_t job) override { OnTimeout(reinterpret_cast<Job*>(job)); }
  // Fails `job` with `code` (unless it already failed), stops it from starting blocks and interrupts the
  // cores running one of its blocks.
  void InterruptJob(Job* job, int32_t code, std::string message);
  int32_t Complete(Job* job, bool resume);
  void CoreLoop(Core* core);
  void EnsureStarted();

  const uint32_t cores_;
  std::once_flag started_;
  // Raised (release) once core_state_ is complete: Interrupt, on an API thread, walks the cores only after it
  // (acquire). Before that no core runs a block, so there is nothing to interrupt there.
  std::atomic<bool> cores_ready_{false};
  std::vector<std::unique_ptr<Core>> core_state_;
  std::vector<std::thread> threads_;

  std::mutex mu_;                    // guards active_ and each job's claim window
  std::deque<Job*> active_;          // jobs with blocks left to claim, in turn order
  std::atomic<uint32_t> active_count_{0};
  // The most cores any active job may use: cores with a higher id have nothing to claim and sleep.
  std::atomic<uint32_t> widest_{0};
  std::vector<Job*> free_jobs_;      // recycled job records of synchronous runs (mu_)
  // Recycled job records of queued launches: pushed lock-free by whichever thread completes one, taken
  // all at once by an executor whose own cache (its Core) ran dry. No lock between the executor starting
  // launches and the cores finishing them.
  std::atomic<Job*> returned_jobs_{nullptr};
  std::vector<std::unique_ptr<Core>> executor_cores_;  // cores of executor threads (mu_)
  std::vector<Core*> coop_cores_;    // the cores of running co-operative blocks (mu_)
  std::vector<Job*> coop_jobs_;      // co-operative launches not yet completed (mu_)
  uint32_t coop_threads_ = 0;        // threads of co-operative blocks not yet ended (mu_)
  std::condition_variable coop_ended_;  // the pool's destructor waits for coop_threads_ == 0
  std::atomic<bool> stop_{false};
  WaitSignal work_signal_;
  DeadlineTimer* const timer_;
};

}  // namespace npurt::drivers::sim
