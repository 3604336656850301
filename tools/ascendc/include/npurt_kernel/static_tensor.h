// Static-tensor programming (the basic-API style of asc-devkit's examples): InitSocState, a bump allocator
// over a core memory (LocalMemAllocator<Hardware::UB>, <Hardware::L1>, <Hardware::L0A>, ...), and
// LocalTensor(TPosition, address, length) over a byte address of the memory its position lives in, for
// kernels that manage the core's memories themselves instead of through TPipe.
// Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/pipe.h"
#include "npurt_kernel/tensor.h"

namespace AscendC {

// The core memories (what a LocalMemAllocator carves).
enum class Hardware : uint8_t { GM, UB, L1, L0A, L0B, L0C, BIAS, FIXBUF, MAX };

// The core's state at a kernel's start, set again: the vector mask register in normal mode with every
// element, atomic copies off. (A block already starts so; kernels call it first.)
__aicore__ inline void InitSocState() {
  npurt_detail::g_state.vector_mask[0] = ~0ull;
  npurt_detail::g_state.vector_mask[1] = ~0ull;
  npurt_detail::g_state.mask_counter = false;
  npurt_detail::g_state.atomic_op = npurt_detail::kAtomicNone;
}

namespace npurt_detail {
constexpr LocalMem MemOfHardware(Hardware hw) {
  switch (hw) {
    case Hardware::L1: return LocalMem::kL1;
    case Hardware::L0A: return LocalMem::kL0A;
    case Hardware::L0B: return LocalMem::kL0B;
    case Hardware::L0C: return LocalMem::kL0C;
    case Hardware::BIAS: return LocalMem::kBT;
    case Hardware::FIXBUF: return LocalMem::kFB;
    default: return LocalMem::kUB;
  }
}
// The position a piece of memory `hw` gets when Alloc names none.
constexpr TPosition DefaultPositionOf(Hardware hw) {
  switch (hw) {
    case Hardware::L1: return TPosition::A1;
    case Hardware::L0A: return TPosition::A2;
    case Hardware::L0B: return TPosition::B2;
    case Hardware::L0C: return TPosition::CO1;
    case Hardware::BIAS: return TPosition::C2;
    case Hardware::FIXBUF: return TPosition::C2PIPE2GM;
    default: return TPosition::VECCALC;
  }
}
// Byte `addr` of the running core's memory `m`, `bytes` long; fails the kernel past the memory's end.
inline uint8_t* CoreMemoryAt(LocalMem m, uint64_t addr, uint64_t bytes, const char* what);
}  // namespace npurt_detail

// Hands out consecutive 32-byte-aligned pieces of one core memory, from its address 0, in the order asked
// for: what a kernel would do by hand with LocalTensor(TPosition, address, length). As on the NPU, each
// allocator starts at address 0 of its memory (an allocator made per tile reuses the memory) and knows
// nothing of TPipe's buffers or of other allocators; the memory's capacity is enforced (the kernel fails
// past it). Pieces are not returned.
template <Hardware hw = Hardware::UB>
class LocalMemAllocator {
  static_assert(hw != Hardware::GM && hw != Hardware::MAX, "LocalMemAllocator: Hardware::GM and MAX are not core memories");
  static constexpr npurt_detail::LocalMem kMem = npurt_detail::MemOfHardware(hw);

 public:
  template <typename T, uint32_t count>
  __aicore__ inline LocalTensor<T> Alloc() {
    return Alloc<npurt_detail::DefaultPositionOf(hw), T>(count);
  }
  template <typename T>
  __aicore__ inline LocalTensor<T> Alloc(uint32_t count) {
    return Alloc<npurt_detail::DefaultPositionOf(hw), T>(count);
  }
  template <TPosition pos, typename T, uint32_t count>
  __aicore__ inline LocalTensor<T> Alloc() {
    return Alloc<pos, T>(count);
  }
  template <TPosition pos, typename T>
  __aicore__ inline LocalTensor<T> Alloc(uint32_t count) {
    static_assert(npurt_detail::MemOf(pos) == kMem,
                  "LocalMemAllocator::Alloc: the position does not live in this allocator's memory");
    const uint64_t bytes = uint64_t{count} * sizeof(T);
    uint8_t* p = npurt_detail::CoreMemoryAt(kMem, head_, bytes, "LocalMemAllocator::Alloc");
    head_ += (bytes + 31) / 32 * 32;
    return LocalTensor<T>(reinterpret_cast<T*>(p), count, pos);
  }
  // The byte address in the memory that the next piece starts at.
  __aicore__ inline uint32_t GetCurAddr() const { return static_cast<uint32_t>(head_); }

 private:
  uint64_t head_ = 0;
};

namespace npurt_detail {
inline uint8_t* CoreMemoryAt(LocalMem m, uint64_t addr, uint64_t bytes, const char* what) {
  const npurt_kernel_block* b = Block();
  const uint64_t size = m == LocalMem::kUB ? b->ub_size : LocalMemBytes(m);
  if (addr > size || bytes > size - addr) {
    Fail("%s: bytes [%llu, %llu) lie outside the core's %llu-byte %s", what, static_cast<unsigned long long>(addr),
         static_cast<unsigned long long>(addr + bytes), static_cast<unsigned long long>(size), LocalMemName(m));
  }
  uint8_t* base = m == LocalMem::kUB ? static_cast<uint8_t*>(b->ub_base) : CubeBase(m);
  return base + addr;
}
}  // namespace npurt_detail

template <typename T>
__aicore__ inline LocalTensor<T>::LocalTensor(TPosition pos, uint32_t address, uint32_t length)
    : addr_(reinterpret_cast<T*>(npurt_detail::CoreMemoryAt(npurt_detail::MemOf(pos), address, uint64_t{length} * sizeof(T),
                                                            "LocalTensor(TPosition, address, length)"))),
      size_(length),
      pos_(pos) {}

}  // namespace AscendC
#include "npurt_kernel/list_tensor.h"
