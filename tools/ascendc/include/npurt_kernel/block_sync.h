// Ascend C synchronisation of blocks through global memory, for the sim. Part of kernel_operator.h.
//
//   IBSet<isAIVOnly>(gm, ub, blockIdx, eventID) / IBWait<isAIVOnly>(gm, ub, blockIdx, eventID)
//       A one-place handshake on the flag of (blockIdx, eventID): the int32 at element
//       (eventID * cores + blockIdx) * 8 of `gm` (cores: GetBlockNum(), or GetBlockNum() * 2 with
//       isAIVOnly = false), so `gm` needs cores * 32 * eventID_max + blockIdx_max * 32 + 32 bytes, zeroed
//       before the launch. blockIdx names the block that sets (the producer); the pair passes the same
//       blockIdx and eventID. IBSet waits until the flag is clear and sets it; IBWait waits until it is set
//       and clears it, so each IBSet is taken by exactly one IBWait and the pair can be used again.
//       Global-memory writes made before IBSet are visible after the matching IBWait.
//   InitDetermineComputeWorkspace(gm, ub), WaitPreBlock(gm, ub), NotifyNextBlock(gm, ub)
//       Deterministic (ordered) execution of the vector blocks: between WaitPreBlock and NotifyNextBlock the
//       blocks take turns in the order 0, 1, ..., n-1, 0, 1, ... (n = GetBlockNum() * GetSubBlockNum()).
//       Block b's k-th WaitPreBlock returns once block b-1 has notified k times (block 0: once block n-1
//       has notified k-1 times). `gm` holds one 32-byte slot per block (its notifications) and need not
//       be zeroed: InitDetermineComputeWorkspace, called by every block before the first WaitPreBlock,
//       clears the caller's slot and then waits for all blocks (a barrier), as CANN requires no zeroed
//       memory either. Every block must call WaitPreBlock / NotifyNextBlock equally often.
//   GroupBarrier<PipeMode::MTE3_MODE>(workspace, arriveSize, waitSize): .Arrive(i), i < arriveSize, and
//       .Wait(j), j < waitSize. The k-th Wait of an object returns once every arriver 0..arriveSize-1 has
//       arrived k times. `workspace` (512-byte aligned, waitSize * 512 bytes, zeroed by the user) keeps
//       one arrival counter per arriver.
//   WaitPreTaskEnd() / SetNextTaskStart(): the sim runs the tasks of a stream one after the other, so the
//       previous task has ended before this one starts and nothing starts early: both return at once.
//
// ubWorkspace of these calls is checked for the documented size and otherwise unused: the sim reads and
// writes the flags in global memory atomically (a block is a thread). The calls synchronise the vector
// blocks (AIV); on a mixed kernel's cube part they do nothing, as on an NPU. Waits are bounded
// (npurt_kernel/block_wait.h): a wait that can never complete fails the kernel with a message.
#pragma once

#include "npurt_kernel/block_wait.h"
#include "npurt_kernel/fill_brcb.h"
#include "npurt_kernel/sync_all.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {

// ---- IBSet / IBWait ---------------------------------------------------------------------------------
namespace npurt_detail {

template <bool isAIVOnly>
inline __gm__ int32_t* IBFlag(const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub, int32_t blockIdx,
                              int32_t eventID, const char* what) {
  const int64_t cores = isAIVOnly ? GetBlockNum() : GetBlockNum() * 2;
  if (blockIdx < 0 || blockIdx >= cores) {
    Fail("%s: blockIdx %d is outside 0..%lld (the launch's %s cores)", what, blockIdx,
         static_cast<long long>(cores - 1), isAIVOnly ? "vector" : "mixed-mode");
  }
  if (eventID < 0) Fail("%s: eventID %d is negative", what, eventID);
  if (ub.GetSize() < 8) Fail("%s: ubWorkspace has %u int32 elements; it needs at least 32 bytes", what, ub.GetSize());
  const uint64_t index = (static_cast<uint64_t>(eventID) * static_cast<uint64_t>(cores) +
                          static_cast<uint64_t>(blockIdx)) * 8u;
  if (gm.GetSize() != 0 && index >= gm.GetSize()) {
    Fail("%s: the flag of block %d, event %d is element %llu of gmWorkspace, which has %llu elements", what,
         blockIdx, eventID, static_cast<unsigned long long>(index), static_cast<unsigned long long>(gm.GetSize()));
  }
  return gm.GetPhyAddr() + index;
}

// The flag is 0 (clear) or 1 (set); anything else means the workspace was not zeroed before the launch.
inline void CheckIBFlag(int32_t v, const char* what, int32_t blockIdx, int32_t eventID) {
  if (v != 0 && v != 1) {
    Fail("%s: the flag of block %d, event %d holds %d: gmWorkspace must be zeroed before the launch", what, blockIdx,
         eventID, v);
  }
}

}  // namespace npurt_detail

template <bool isAIVOnly = true>
__aicore__ inline void IBSet(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                             int32_t blockIdx, int32_t eventID) {
  if (npurt_detail::OnCubePart()) return;
  auto flag = npurt_detail::GmWord(npurt_detail::IBFlag<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, "IBSet"),
                                   "IBSet");
  npurt_detail::WaitUntil(
      [&] {
        int32_t v = flag.load(std::memory_order_acquire);
        npurt_detail::CheckIBFlag(v, "IBSet", blockIdx, eventID);
        return v == 0 && flag.compare_exchange_strong(v, 1, std::memory_order_acq_rel);
      },
      [&](double s) {
        npurt_detail::Fail("IBSet: block %lld waited %.0f s for the previous IBSet of block %d, event %d to be taken by "
                           "an IBWait (a set flag must be cleared by IBWait before it is set again; on an NPU the "
                           "kernel would hang)",
                           static_cast<long long>(GetBlockIdx()), s, blockIdx, eventID);
      });
}

template <bool isAIVOnly = true>
__aicore__ inline void IBWait(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                              int32_t blockIdx, int32_t eventID) {
  if (npurt_detail::OnCubePart()) return;
  auto flag = npurt_detail::GmWord(
      npurt_detail::IBFlag<isAIVOnly>(gmWorkspace, ubWorkspace, blockIdx, eventID, "IBWait"), "IBWait");
  npurt_detail::WaitUntil(
      [&] {
        int32_t v = flag.load(std::memory_order_acquire);
        npurt_detail::CheckIBFlag(v, "IBWait", blockIdx, eventID);
        return v == 1 && flag.compare_exchange_strong(v, 0, std::memory_order_acq_rel);
      },
      [&](double s) {
        npurt_detail::Fail("IBWait: block %lld waited %.0f s for block %d to IBSet event %d, and it did not (on an NPU "
                           "the kernel would hang)",
                           static_cast<long long>(GetBlockIdx()), s, blockIdx, eventID);
      });
}

// ---- ordered execution: InitDetermineComputeWorkspace / WaitPreBlock / NotifyNextBlock ----------------
namespace npurt_detail {

struct SeqSlots {
  __gm__ int32_t* base = nullptr;  // slot of block b: base[b * 8] (notifications so far)
  int64_t blocks = 0;
  int64_t self = 0;
};

inline SeqSlots SeqState(const GlobalTensor<int32_t>& gm, const LocalTensor<int32_t>& ub, const char* what) {
  SeqSlots s;
  s.blocks = GetBlockNum() * GetSubBlockNum();
  s.self = GetBlockIdx();
  if (ub.GetSize() < static_cast<uint64_t>(s.blocks) * 8u + 8u) {
    Fail("%s: ubWorkspace has %u int32 elements; %lld blocks need blockNum * 32 + 32 bytes (%lld elements)", what,
         ub.GetSize(), static_cast<long long>(s.blocks), static_cast<long long>(s.blocks * 8 + 8));
  }
  if (gm.GetSize() != 0 && gm.GetSize() < static_cast<uint64_t>(s.blocks) * 8u) {
    Fail("%s: gmWorkspace has %llu int32 elements; %lld blocks need blockNum * 32 bytes", what,
         static_cast<unsigned long long>(gm.GetSize()), static_cast<long long>(s.blocks));
  }
  s.base = gm.GetPhyAddr();
  return s;
}

inline GmAtomic<int32_t> SeqSlot(const SeqSlots& s, int64_t block, const char* what) {
  return GmWord(s.base + block * 8, what);
}

}  // namespace npurt_detail

__aicore__ inline void InitDetermineComputeWorkspace(GlobalTensor<int32_t>& gmWorkspace,
                                                     LocalTensor<int32_t>& ubWorkspace) {
  if (npurt_detail::OnCubePart()) return;
  const npurt_detail::SeqSlots s = npurt_detail::SeqState(gmWorkspace, ubWorkspace, "InitDetermineComputeWorkspace");
  npurt_detail::SeqSlot(s, s.self, "InitDetermineComputeWorkspace").store(0, std::memory_order_release);
  // No block may look at another's slot before that block has cleared it.
  npurt_detail::SyncBlocks(static_cast<uint32_t>(s.blocks), "InitDetermineComputeWorkspace");
}

__aicore__ inline void WaitPreBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  if (npurt_detail::OnCubePart()) return;
  const npurt_detail::SeqSlots s = npurt_detail::SeqState(gmWorkspace, ubWorkspace, "WaitPreBlock");
  if (s.blocks <= 1) return;
  const int32_t mine = npurt_detail::SeqSlot(s, s.self, "WaitPreBlock").load(std::memory_order_relaxed);
  if (mine < 0) {
    npurt_detail::Fail("WaitPreBlock: block %lld's slot holds %d: call InitDetermineComputeWorkspace first",
                       static_cast<long long>(s.self), mine);
  }
  const int64_t prev = s.self == 0 ? s.blocks - 1 : s.self - 1;
  const int32_t need = s.self == 0 ? mine : mine + 1;  // turn `mine + 1` of this block
  auto slot = npurt_detail::SeqSlot(s, prev, "WaitPreBlock");
  npurt_detail::WaitUntil([&] { return slot.load(std::memory_order_acquire) >= need; },
                          [&](double secs) {
                            npurt_detail::Fail(
                                "WaitPreBlock: block %lld waited %.0f s for block %lld's NotifyNextBlock number %d "
                                "(it has notified %d times; every block must call WaitPreBlock and NotifyNextBlock "
                                "equally often, after InitDetermineComputeWorkspace; on an NPU the kernel would hang)",
                                static_cast<long long>(s.self), secs, static_cast<long long>(prev), need,
                                slot.load(std::memory_order_relaxed));
                          });
}

__aicore__ inline void NotifyNextBlock(GlobalTensor<int32_t>& gmWorkspace, LocalTensor<int32_t>& ubWorkspace) {
  if (npurt_detail::OnCubePart()) return;
  const npurt_detail::SeqSlots s = npurt_detail::SeqState(gmWorkspace, ubWorkspace, "NotifyNextBlock");
  npurt_detail::SeqSlot(s, s.self, "NotifyNextBlock").fetch_add(1, std::memory_order_acq_rel);
}

// ---- GroupBarrier -------------------------------------------------------------------------------------
enum class PipeMode : uint8_t { SCALAR_MODE = 0, MTE3_MODE = 1, MAX };

template <PipeMode pipeMode>
class GroupBarrier {
  static_assert(pipeMode == PipeMode::MTE3_MODE, "GroupBarrier: only PipeMode::MTE3_MODE is supported");

 public:
  __aicore__ inline GroupBarrier(GM_ADDR groupWorkspace, uint32_t arriveSizeIn, uint32_t waitSizeIn)
      : counters_(reinterpret_cast<__gm__ int32_t*>(groupWorkspace)), arrive_(arriveSizeIn), wait_(waitSizeIn) {
    if (groupWorkspace == nullptr || (reinterpret_cast<uintptr_t>(groupWorkspace) & 511u) != 0) {
      npurt_detail::Fail("GroupBarrier: the workspace %p must be 512-byte aligned", static_cast<void*>(groupWorkspace));
    }
    if (arrive_ == 0 || wait_ == 0) {
      npurt_detail::Fail("GroupBarrier: %u arrivers and %u waiters; both groups need at least one block", arrive_, wait_);
    }
    if (static_cast<uint64_t>(arrive_) * 4u > GetWorkspaceLen()) {
      npurt_detail::Fail("GroupBarrier: %u arrivers do not fit the %llu-byte workspace of %u waiters", arrive_,
                         static_cast<unsigned long long>(GetWorkspaceLen()), wait_);
    }
  }

  // Bytes of global memory the barrier uses: 512 per waiter.
  __aicore__ inline uint64_t GetWorkspaceLen() const { return static_cast<uint64_t>(wait_) * 512u; }

  __aicore__ inline void Arrive(uint32_t arriveIndex) {
    if (arriveIndex >= arrive_) {
      npurt_detail::Fail("GroupBarrier::Arrive(%u): the arrive group has %u blocks", arriveIndex, arrive_);
    }
    npurt_detail::GmWord(counters_ + arriveIndex, "GroupBarrier::Arrive").fetch_add(1, std::memory_order_acq_rel);
  }

  __aicore__ inline void Wait(uint32_t waitIndex) {
    if (waitIndex >= wait_) {
      npurt_detail::Fail("GroupBarrier::Wait(%u): the wait group has %u blocks", waitIndex, wait_);
    }
    const int32_t round = ++rounds_;
    npurt_detail::GmWord(counters_, "GroupBarrier::Wait");  // alignment
    npurt_detail::CheckGlobal(counters_, static_cast<uint64_t>(arrive_) * 4u, false, "GroupBarrier::Wait");
    uint32_t missing = 0;
    npurt_detail::WaitUntil(
        [&] {
          for (uint32_t i = 0; i < arrive_; ++i) {
            if (npurt_detail::GmAtomic<int32_t>{counters_ + i}.load(std::memory_order_acquire) < round) {
              missing = i;
              return false;
            }
          }
          return true;
        },
        [&](double s) {
          npurt_detail::Fail("GroupBarrier::Wait(%u): block %lld waited %.0f s for arriver %u to Arrive (round %d); "
                             "on an NPU the kernel would hang",
                             waitIndex, static_cast<long long>(GetBlockIdx()), s, missing, round);
        });
  }

 private:
  __gm__ int32_t* counters_;
  uint32_t arrive_;
  uint32_t wait_;
  int32_t rounds_ = 0;  // Waits of this object so far
};

// ---- task overlap ---------------------------------------------------------------------------------------
__aicore__ inline void WaitPreTaskEnd() {}
__aicore__ inline void SetNextTaskStart() {}

}  // namespace AscendC
