#include "drivers/sim/sim_coop.h"

#include <cstdio>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "base/futex.h"
#include "drivers/sim/sim_aicore_fault.h"
#include "hal/hal.h"

namespace npurt::drivers::sim {
void CoopBarrier::Reset(uint32_t blocks, const std::atomic<int32_t>* failed) {
  arrived_.store(0, std::memory_order_relaxed);
  round_.store(0, std::memory_order_relaxed);
  ended_.store(0, std::memory_order_relaxed);
  blocks_ = blocks;
  failed_ = failed;
}

void CoopBarrier::BlockEnded() {
  ended_.fetch_add(1, std::memory_order_acq_rel);
  FutexWake(&round_, INT32_MAX);  // a barrier over every block can no longer complete
}

void CoopBarrier::Arrive(uint32_t count, uint32_t block_idx) {
  // The round is read before arriving: the last arrival resets the count, then opens the next round, so a
  // block that left this round and arrives at the next one counts there.
  const uint32_t round = round_.load(std::memory_order_acquire);
  if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == count) {
    arrived_.store(0, std::memory_order_relaxed);
    round_.store(round + 1, std::memory_order_release);
    FutexWake(&round_, INT32_MAX);
    return;
  }
  while (round_.load(std::memory_order_acquire) == round) {
    if (failed_->load(std::memory_order_acquire) != 0) {
      FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll: another block of the launch failed");
    }
    if (count == blocks_ && ended_.load(std::memory_order_acquire) != 0) {
      char message[256];
      std::snprintf(message, sizeof message,
                    "SyncAll: block %u waits for all %u blocks, but a block ended without reaching it (the kernel "
                    "would hang on an NPU)",
                    block_idx, blocks_);
      FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION, message);
    }
    FutexWait(&round_, round, NowNs() + kCoopRecheckNs);
  }
}

void ServiceSyncAll(uint32_t count) {
  BlockThreadState& st = CurrentBlockThread();
  const auto* launch = static_cast<const hal::KernelLaunch*>(st.launch);
  if (launch == nullptr || launch->cooperative == 0) {
    FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION,
                     "SyncAll in a kernel not marked co-operative: its blocks may not all run at once. npurt's "
                     "kernel generator marks kernels whose source, or a header it includes with quotes, calls "
                     "SyncAll (a call reached only through an angle-bracket include is not seen)");
  }
  const uint32_t lanes = launch->MixVectors() + (launch->MixCube() ? 1u : 0u);
  const uint32_t participants = launch->num_blocks * (lanes == 0 ? 1u : lanes);
  if (count <= 1 || participants <= 1) return;
  if (count > participants) {
    FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll: more blocks to wait for than the launch has");
  }
  if (st.coop == nullptr) {
    FailRunningBlock(ACL_ERROR_RT_AICORE_EXCEPTION, "SyncAll: the block runs outside a co-operative launch");
  }
  static_cast<CoopBarrier*>(st.coop)->Arrive(count, st.block_idx);
}

}  // namespace npurt::drivers::sim
