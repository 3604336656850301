// Static-tensor programming (the basic-API style of asc-devkit's examples): InitSocState, a bump allocator
// over a core memory (LocalMemAllocator<Hardware::UB>), and LocalTensor(TPosition, address, length) over a
// byte address of the unified buffer, for kernels that manage the UB themselves instead of through TPipe.
// Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/pipe.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {

// The core memories a LocalMemAllocator can carve. The sim's allocator serves the unified buffer; the cube
// memories are carved by TPipe::InitBuffer on their positions (npurt_kernel/local_memory.h).
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// The core's state at a kernel's start, set again: the vector mask register in normal mode with every
// element, atomic copies off. (A block already starts so; kernels call it first.)
__aicore__ inline void InitSocState() {
  npurt_detail::g_state.vector_mask[0] = ~0ull;
  npurt_detail::g_state.vector_mask[1] = ~0ull;
  npurt_detail::g_state.mask_counter = false;
  npurt_detail::g_state.atomic_op = npurt_detail::kAtomicNone;
}

// Hands out consecutive 32-byte-aligned pieces of the unified buffer, from what TPipe has not taken; the
// buffer's capacity is enforced (the kernel fails past it). Pieces are not returned: a kernel's allocations
// last until it ends.
template <Hardware hw = Hardware::UB>
class LocalMemAllocator {
  static_assert(hw == Hardware::UB, "LocalMemAllocator: the simulated NPU carves Hardware::UB; use TPipe::InitBuffer "
                                    "on the cube positions (A1, B1, CO1, ...) for the cube memories");

 public:
  template <typename T, uint32_t count>
  __aicore__ inline LocalTensor<T> Alloc() {
    return Alloc<T>(count);
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> Alloc(uint32_t count) {
    uint8_t* p = npurt_detail::CarveUnifiedBuffer(uint64_t{count} * sizeof(T), "LocalMemAllocator::Alloc");
    return LocalTensor<T>(reinterpret_cast<T*>(p), count, TPosition::VECCALC);
  }
  // The byte address (offset in the unified buffer) the next piece would start at.
  __aicore__ inline uint32_t GetCurAddr() const { return static_cast<uint32_t>(npurt_detail::g_state.ub_used); }
};

namespace npurt_detail {
// The unified buffer at byte `addr`, `bytes` long, for a tensor of position `pos` (the vector positions).
inline uint8_t* UnifiedBufferAt(TPosition pos, uint64_t addr, uint64_t bytes) {
  if (pos != TPosition::VECIN && pos != TPosition::VECOUT && pos != TPosition::VECCALC) {
    Fail("LocalTensor(TPosition, address, length): position %d is not a unified-buffer position (VECIN, VECOUT, "
         "VECCALC); the sim places such tensors in the unified buffer only", static_cast<int>(pos));
  }
  const npurt_kernel_block* b = Block();
  if (addr + bytes > b->ub_size) {
    Fail("LocalTensor(TPosition, address, length): bytes [%llu, %llu) lie outside the core's %llu-byte unified "
         "buffer", static_cast<unsigned long long>(addr), static_cast<unsigned long long>(addr + bytes),
         static_cast<unsigned long long>(b->ub_size));
  }
  return static_cast<uint8_t*>(b->ub_base) + addr;
}
}  // namespace npurt_detail

template <typename T>
__aicore__ inline LocalTensor<T>::LocalTensor(TPosition pos, uint32_t address, uint32_t length)
    : addr_(reinterpret_cast<T*>(npurt_detail::UnifiedBufferAt(pos, address, uint64_t{length} * sizeof(T)))),
      size_(length),
      pos_(pos) {}

}  // namespace AscendC
