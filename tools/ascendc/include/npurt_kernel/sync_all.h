// Ascend C synchronisation across the blocks of a launch for the sim: SyncAll, hard (no arguments) and
// soft (a global-memory and a unified-buffer workspace, usedCores). Both wait until the blocks taking part
// have reached the call; global-memory writes made before it are visible to every block after it.
//
// Every block must be running for the barrier to complete: the toolchain's generator marks a kernel whose
// source (or a header it includes with quotes) calls SyncAll as co-operative in the kernel table, and the
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

}  // namespace npurt_detail

// Hard synchronisation of every block of the launch. isAIVOnly = false synchronises the cube and vector
// cores of a mixed kernel; the sim runs a mixed kernel's blocks as one vector block each (GetSubBlockNum()
// is 1), so both forms are the same barrier over the launch's blocks.
template <bool isAIVOnly = true>
__aicore__ inline void SyncAll() {
  npurt_detail::SyncBlocks(static_cast<uint32_t>(GetBlockNum()), "SyncAll");
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
