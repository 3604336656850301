// The vector unit's mask for the sim: SetMaskNorm / SetMaskCount / SetVectorMask / ResetMask, and the
// walk over the elements one level-0 (mask / repeat) instruction touches. Part of kernel_operator.h.
//
// A level-0 instruction runs `repeatTimes` repeats of 256 bytes each, eight 32-byte blocks; an operand's
// block stride is the distance between the blocks of one repeat and its repeat stride the distance
// between repeats, both in 32-byte blocks. Which elements of a repeat take part is the mask:
//   normal mode   a bit per element (bit k of mask[0] = element k, of mask[1] = element 64 + k; 32-bit
//                 types use mask[0] only), or `mask` = the first `mask` elements (continuous form);
//   counter mode  `mask` (mask[0]) = the number of elements of the whole instruction: as many full
//                 repeats as it takes, the last one partial; repeatTimes is ignored.
// Elements outside the mask are neither read nor written. The instruction's mask comes from its own
// argument (isSetMask = true, which also loads it into the mask register, as the hardware API does) or
// from the register that SetVectorMask set (isSetMask = false; the argument is MASK_PLACEHOLDER).
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {

enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };

// The mask argument of an instruction that uses the mask register (isSetMask = false).
constexpr uint64_t MASK_PLACEHOLDER = 0;
#define MASK_PLACEHOLDER_LIST {0, 0}

// Mask register: the mode (SetMaskNorm / SetMaskCount) and the value (SetVectorMask).
__aicore__ inline void SetMaskNorm() { npurt_detail::g_state.mask_counter = false; }
__aicore__ inline void SetMaskCount() { npurt_detail::g_state.mask_counter = true; }

// Normal mode: the bits (maskHigh: elements 64..127). Counter mode: maskLow = the element count.
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow) {
  npurt_detail::g_state.vector_mask[0] = maskLow;
  npurt_detail::g_state.vector_mask[1] = mode == MaskMode::COUNTER ? 0 : maskHigh;
}

namespace npurt_detail {
// The bits of the first `n` elements (n <= 128).
inline void PrefixBits(uint64_t n, uint64_t bits[2]) {
  bits[0] = n >= 64 ? ~0ull : (1ull << n) - 1;
  bits[1] = n >= 128 ? ~0ull : n > 64 ? (1ull << (n - 64)) - 1 : 0;
}
}  // namespace npurt_detail

// Normal mode: the first `len` elements of each repeat. Counter mode: `len` elements in all.
template <typename T, MaskMode mode = MaskMode::NORMAL>
__aicore__ static inline void SetVectorMask(int32_t len) {
  if (len < 0) npurt_detail::Fail("SetVectorMask: negative length %d", len);
  if (mode == MaskMode::COUNTER) {
    SetVectorMask<T, mode>(0, static_cast<uint64_t>(len));
  } else {
    uint64_t bits[2];
    npurt_detail::PrefixBits(static_cast<uint64_t>(len), bits);
    SetVectorMask<T, mode>(bits[1], bits[0]);
  }
}

// Every element (the register's value at the start of a block).
__aicore__ inline void ResetMask() {
  npurt_detail::g_state.vector_mask[0] = ~0ull;
  npurt_detail::g_state.vector_mask[1] = ~0ull;
}

namespace npurt_detail {

// Elements of one repeat (256 bytes) and of one 32-byte block for elements of `bytes` bytes.
constexpr uint32_t RepeatElems(uint32_t bytes) { return 256 / bytes; }
constexpr uint32_t BlockElems(uint32_t bytes) { return 32 / bytes; }

// The elements one instruction touches: normal mode, `repeats` repeats with the element bits `bits`;
// counter mode, `count` elements from the start of repeat 0 on.
struct MaskPlan {
  bool counter = false;
  uint64_t bits[2] = {0, 0};
  uint64_t count = 0;
  uint32_t repeats = 0;
  uint32_t per_repeat = 0;  // elements per repeat
};

// The plan of an instruction whose mask is that of elements of `elem_bytes` bytes (2 or 4): from the
// argument (`arr` = mask[], else `continuous`) when set_mask, else from the register.
inline MaskPlan PlanMask(uint32_t elem_bytes, bool set_mask, const uint64_t* arr, uint64_t continuous,
                         int32_t repeat_times, const char* what) {
  if (elem_bytes != 2 && elem_bytes != 4) Fail("%s: the mask covers 16- or 32-bit elements only", what);
  MaskPlan p;
  p.per_repeat = RepeatElems(elem_bytes);
  if (set_mask) {
    if (g_state.mask_counter) {
      SetVectorMask<uint16_t, MaskMode::COUNTER>(0, arr != nullptr ? arr[0] : continuous);
    } else if (arr != nullptr) {
      SetVectorMask<uint16_t>(elem_bytes == 4 ? 0 : arr[1], arr[0]);
    } else {
      if (continuous == 0 || continuous > p.per_repeat) {
        Fail("%s: continuous mask %llu outside [1, %u] for %u-byte elements", what,
             static_cast<unsigned long long>(continuous), p.per_repeat, elem_bytes);
      }
      SetVectorMask<uint16_t>(static_cast<int32_t>(continuous));
    }
  }
  p.counter = g_state.mask_counter;
  if (p.counter) {
    p.count = g_state.vector_mask[0];
    p.repeats = static_cast<uint32_t>((p.count + p.per_repeat - 1) / p.per_repeat);
  } else {
    if (repeat_times < 0 || repeat_times > 255) Fail("%s: repeatTimes %d outside [0, 255]", what, repeat_times);
    p.bits[0] = g_state.vector_mask[0];
    p.bits[1] = elem_bytes == 4 ? 0 : g_state.vector_mask[1];
    p.repeats = static_cast<uint32_t>(repeat_times);
  }
  return p;
}

// Whether element k (0 .. per_repeat-1) of repeat r takes part.
inline bool Active(const MaskPlan& p, uint32_t r, uint32_t k) {
  if (p.counter) return static_cast<uint64_t>(r) * p.per_repeat + k < p.count;
  return ((k < 64 ? p.bits[0] >> k : p.bits[1] >> (k - 64)) & 1u) != 0;
}

// The largest element index (r * per_repeat + k) a plan touches, +1 (0: none).
inline uint64_t PlanBitEnd(const MaskPlan& p) {
  if (p.counter) return p.count;
  for (uint32_t k = p.per_repeat; k > 0; --k) {
    if (p.repeats > 0 && Active(p, p.repeats - 1, k - 1)) return uint64_t{p.repeats - 1} * p.per_repeat + k;
  }
  return 0;
}

// Where an operand's elements are: strides in 32-byte blocks.
struct Stride {
  uint32_t block;
  uint32_t repeat;
};

// Offset in elements (of `bytes` bytes) of element k of repeat r: its block is k / (elements of a
// 32-byte block of this operand), so in a Cast between half and float the half operand's 64 elements of
// a repeat lie in 4 of its blocks and the float operand's in 8.
inline uint64_t ElemOffset(Stride s, uint32_t r, uint32_t k, uint32_t bytes) {
  const uint32_t per_block = BlockElems(bytes);
  const uint64_t byte_off = static_cast<uint64_t>(r) * s.repeat * 32ull + (k / per_block) * s.block * 32ull;
  return byte_off / bytes + k % per_block;
}

// Fails the kernel unless every element the plan touches of an operand at `base` lies in the unified
// buffer (the largest offset: the last repeat that has elements, its last active element's block).
template <typename T>
inline void CheckPlanned(const T* base, const MaskPlan& p, Stride s, const char* what) {
  if (p.repeats == 0 || (p.counter && p.count == 0)) return;
  uint64_t max_off = 0;
  bool any = false;
  // The repeats that can hold the largest offset: the last, and in counter mode the one before (a
  // partial last repeat with a smaller block index).
  const uint32_t first = p.repeats >= 2 ? p.repeats - 2 : 0;
  for (uint32_t r = first; r < p.repeats; ++r) {
    for (uint32_t k = 0; k < p.per_repeat; ++k) {
      if (!Active(p, r, k)) continue;
      const uint64_t off = ElemOffset(s, r, k, sizeof(T));
      if (!any || off > max_off) max_off = off;
      any = true;
    }
  }
  if (any) CheckLocal(base, (max_off + 1) * sizeof(T), what);
}

}  // namespace npurt_detail
}  // namespace AscendC
