// CoopBarrier: SyncAll across the blocks of a co-operative launch (npurt_kernel_services.sync_all).
//
// A kernel whose table entry carries NPURT_KERNEL_FLAG_COOPERATIVE may wait for its other blocks, so the
// AI-core pool runs every block of such a launch at once, each on a thread of its own
// (AiCorePool::StartCooperative): a barrier then always completes, however many blocks the launch has
// and however few AI cores the device has. The barrier counts arrivals per round; waiters sleep on the
// round number. Waiting is interruptible like any kernel code (timeouts, aclrtStreamAbort leave through
// the block's recovery point: the barrier holds no lock), and a waiter gives up when the launch failed
// (another block faulted) or, for a barrier over every block, when a block ended without reaching it,
// which on an NPU would hang the kernel.
#pragma once

#include <atomic>
#include <cstdint>

namespace npurt::drivers::sim {

// A participant waiting at a barrier or for a cross-core flag re-checks its launch's failure this often (a
// failing participant does not wake the others).
constexpr uint64_t kCoopRecheckNs = 2'000'000;

class CoopBarrier {
 public:
  // Before the launch's blocks start: `blocks` blocks; `failed` is the launch's failure code (0 = none).
  void Reset(uint32_t blocks, const std::atomic<int32_t>* failed);
  // A block arrives and waits for `count` arrivals in this round. Leaves the block through
  // FailRunningBlock when the barrier can no longer complete.
  void Arrive(uint32_t count, uint32_t block_idx);
  // A block of the launch ended (after its entry returned or it failed).
  void BlockEnded();

 private:
  std::atomic<uint32_t> arrived_{0};
  std::atomic<uint32_t> round_{0};
  std::atomic<uint32_t> ended_{0};
  uint32_t blocks_ = 0;
  const std::atomic<int32_t>* failed_ = nullptr;
};

// The kernel service (kernel_abi.h): the running block's barrier, or a failure when its launch is not
// co-operative.
void ServiceSyncAll(uint32_t count);

}  // namespace npurt::drivers::sim
