// Ascend C synchronisation across the blocks of a launch for the sim: SyncAll, hard (no arguments) and
// soft (a global-memory and a unified-buffer workspace, usedCores), and the cross-core flags of mixed
// kernels. SyncAll waits until the blocks taking part have reached the call; global-memory writes made
// before it (or before a flag's set) are visible to every block after it (after the matching wait).
//
// Every block must be running for the barrier to complete: the toolchain's generator marks a kernel whose
// source (or a header it includes with quotes) calls SyncAll or a cross-core flag as co-operative in the kernel table, and the
// runtime then runs every block of its launches at once (docs/kernels.md, "Execution"). The barrier itself
// is the runtime's (npurt_kernel_services.sync_all). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {
namespace npurt_detail {

inline void SyncBlocks(uint32_t count, const char* what) {
  const npurt_kernel_block* b = g_state.block;
  if (b == nullptr || count <= 1) return;  // one block: nothing to wait for
  if (b->services->struct_size < offsetof(npurt_kernel_services, sync_all) + sizeof(void (*)()) ||
      b->services->sync_all == nullptr) {
    Fail("%s: this runtime has no barrier across blocks (it predates SyncAll)", what);
  }
  // The state of the kernel library is the block's own (thread-local): the barrier leaves it alone.
  b->services->sync_all(count);
}

// The runtime's services, once it is known to have cross-core flags.
inline const npurt_kernel_services* CrossServices(const char* what) {
  const npurt_kernel_services* s = g_state.block->services;
  if (s->struct_size < offsetof(npurt_kernel_services, cross_wait) + sizeof(void (*)()) || s->cross_set == nullptr) {
    Fail("%s: this runtime has no cross-core flags", what);
  }
  return s;
}

}  // namespace npurt_detail

// Hard synchronisation of every vector participant of the launch (GetBlockNum() * GetSubBlockNum());
// isAIVOnly = false also takes in the cube part of each block of a mixed kernel that has one. The cube part
// calling the vector-only form does not wait (it takes no part in it).
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
  const uint32_t vectors = static_cast<uint32_t>(GetBlockNum() * GetSubBlockNum());
  if constexpr (isAIVOnly) {
    if (npurt_detail::OnCubePart()) return;
    npurt_detail::SyncBlocks(vectors, "SyncAll");
  } else {
    const uint32_t cubes = npurt_detail::HasCubePart() ? static_cast<uint32_t>(GetBlockNum()) : 0u;
    npurt_detail::SyncBlocks(vectors + cubes, "SyncAll<false>");
  }
}

// Cross-core flags (CrossCoreSetFlag / CrossCoreWaitFlag): modeId 0 between all vector participants of the
// launch, 1 between the vector sub-blocks of a block, 2 between a mixed kernel's cube part and the vector
// sub-blocks of its block. A set counts for the setter; once every setter of the scope has set the flag
// (mode 2 from the cube part: at once), each receiver's counter of the flag goes up by one, and
// CrossCoreWaitFlag waits until the caller's counter is non-zero and takes one from it (see
// docs/kernels.md). flagId is 0..15; `pipe` does not matter on the sim (a block runs its pipes in order).
template <uint8_t modeId, pipe_t pipe>
__aicore__ inline void CrossCoreSetFlag(uint16_t flagId) {
  static_assert(modeId <= 2, "CrossCoreSetFlag: modeId is 0, 1 or 2");
  npurt_detail::CrossServices("CrossCoreSetFlag")->cross_set(modeId, flagId);
}
template <uint8_t modeId = 0, pipe_t pipe = PIPE_S>
__aicore__ inline void CrossCoreWaitFlag(uint16_t flagId) {
  static_assert(modeId <= 2, "CrossCoreWaitFlag: modeId is 0, 1 or 2");
  npurt_detail::CrossServices("CrossCoreWaitFlag")->cross_wait(modeId, flagId);
}

// Soft synchronisation of the first `usedCores` blocks (0: all). CANN implements it with flags in
// `gmWorkspace` (at least blocks * 32 bytes, zeroed) and `ubWorkspace`; the sim uses the runtime's barrier
// and leaves both untouched. Exactly `usedCores` blocks must call it each time (CANN: blocks
// 0 .. usedCores-1).
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll(const GlobalTensor<int32_t>& gmWorkspace, const LocalTensor<int32_t>& ubWorkspace,
                               const int32_t usedCores = 0) {
  static_assert(isAIVOnly, "SyncAll<false>(gmWorkspace, ubWorkspace): the soft form synchronises vector blocks only");
  (void)gmWorkspace;
  (void)ubWorkspace;
  const int64_t blocks = GetBlockNum();
  if (usedCores < 0 || usedCores > blocks) {
    npurt_detail::Fail("SyncAll: usedCores %d is outside 0..%lld (the launch's blocks)", usedCores,
                       static_cast<long long>(blocks));
  }
  const uint32_t count = static_cast<uint32_t>(usedCores == 0 ? blocks : usedCores);
  npurt_detail::SyncBlocks(count, "SyncAll");
}

}  // namespace AscendC
