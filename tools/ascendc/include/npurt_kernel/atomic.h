// Ascend C atomic data movement for the sim: SetAtomicAdd / SetAtomicMax / SetAtomicMin / SetAtomicType,
// SetAtomicNone / DisableDmaAtomic. While an atomic operation is set, every copy from the unified buffer
// to global memory (DataCopy, DataCopyPad) combines each element with the one already in global memory
// (sum, maximum, minimum), element by element with atomic read-modify-writes, so blocks writing the same
// addresses at once lose no update. Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/base.h"

namespace AscendC {
namespace npurt_detail {

// The element type of the atomic operation: the hardware reads the bytes it moves as this type, whatever
// the tensor's own type is.
template <typename T>
constexpr uint8_t AtomicTypeOf() {
  if constexpr (std::is_same_v<T, float>) return kAtomicF32;
  else if constexpr (std::is_same_v<T, half>) return kAtomicF16;
  else if constexpr (std::is_same_v<T, bfloat16_t>) return kAtomicBf16;
  else if constexpr (std::is_same_v<T, int32_t>) return kAtomicS32;
  else if constexpr (std::is_same_v<T, int16_t>) return kAtomicS16;
  else if constexpr (std::is_same_v<T, int8_t>) return kAtomicS8;
  else return kAtomicUnsupported;
}

template <typename T>
constexpr void CheckAtomicType() {
  static_assert(AtomicTypeOf<T>() != kAtomicUnsupported,
                "SetAtomicAdd/SetAtomicMax/SetAtomicMin/SetAtomicType: the type must be float, half, bfloat16_t, "
                "int32_t, int16_t or int8_t");
}

inline uint32_t AtomicTypeBytes(uint8_t type) {
  switch (type) {
    case kAtomicF32: case kAtomicS32: return 4;
    case kAtomicF16: case kAtomicBf16: case kAtomicS16: return 2;
    default: return 1;
  }
}

// Combines one value into `cur` under the set operation. Floating-point values are combined in float and
// rounded once to the element type (half, bfloat16_t); integers wrap around (two's complement).
template <typename T>
inline T CombineAtomic(uint8_t op, T cur, T v) {
  if constexpr (std::is_floating_point_v<T> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
    const float a = static_cast<float>(cur), b = static_cast<float>(v);
    if (op == kAtomicAdd) return T(a + b);
    if (op == kAtomicMax) return b > a ? v : cur;
    return b < a ? v : cur;
  } else {
    if (op == kAtomicAdd) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(static_cast<U>(static_cast<U>(cur) + static_cast<U>(v)));
    }
    if (op == kAtomicMax) return v > cur ? v : cur;
    return v < cur ? v : cur;
  }
}

// One element: a compare-and-swap loop on the element's bits (the element is naturally aligned in global
// memory, as the hardware requires).
template <typename T, typename Bits>
inline void AtomicElement(uint8_t op, void* dst, const void* src) {
  static_assert(sizeof(T) == sizeof(Bits));
  Bits* word = static_cast<Bits*>(dst);
  Bits vbits;
  std::memcpy(&vbits, src, sizeof vbits);
  T v;
  std::memcpy(static_cast<void*>(&v), &vbits, sizeof v);  // T may be half or bfloat16_t (not trivial)
  Bits old = __atomic_load_n(word, __ATOMIC_RELAXED);
  for (;;) {
    T cur;
    std::memcpy(static_cast<void*>(&cur), &old, sizeof cur);
    const T next = CombineAtomic<T>(op, cur, v);
    Bits nbits;
    std::memcpy(&nbits, &next, sizeof nbits);
    if (nbits == old) return;  // the maximum/minimum is already there
    if (__atomic_compare_exchange_n(word, &old, nbits, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) return;
  }
}

// Writes `bytes` from the unified buffer to global memory: a plain copy, or element-wise atomics while
// an atomic operation is set.
inline void StoreGlobal(void* dst, const void* src, uint64_t bytes, const char* what) {
  const uint8_t op = g_state.atomic_op;
  if (op == kAtomicNone) {
    std::memmove(dst, src, bytes);
    return;
  }
  const uint8_t type = g_state.atomic_type;
  const uint32_t size = AtomicTypeBytes(type);
  if (bytes % size != 0 || reinterpret_cast<uintptr_t>(dst) % size != 0) {
    Fail("%s: an atomic copy of %llu bytes to %p is not made of whole, aligned %u-byte elements of the atomic type",
         what, static_cast<unsigned long long>(bytes), dst, size);
  }
  auto* d = static_cast<uint8_t*>(dst);
  const auto* s = static_cast<const uint8_t*>(src);
  for (uint64_t i = 0; i < bytes; i += size) {
    switch (type) {
      case kAtomicF32: AtomicElement<float, uint32_t>(op, d + i, s + i); break;
      case kAtomicF16: AtomicElement<half, uint16_t>(op, d + i, s + i); break;
      case kAtomicBf16: AtomicElement<bfloat16_t, uint16_t>(op, d + i, s + i); break;
      case kAtomicS32: AtomicElement<int32_t, uint32_t>(op, d + i, s + i); break;
      case kAtomicS16: AtomicElement<int16_t, uint16_t>(op, d + i, s + i); break;
      default: AtomicElement<int8_t, uint8_t>(op, d + i, s + i); break;
    }
  }
}

}  // namespace npurt_detail

// Sets the element type of later atomic copies (the operation stays as it is).
template <typename T>
__aicore__ inline void SetAtomicType() {
  npurt_detail::CheckAtomicType<T>();
  npurt_detail::g_state.atomic_type = npurt_detail::AtomicTypeOf<T>();
}
// Later copies to global memory add to what is there.
template <typename T>
__aicore__ inline void SetAtomicAdd() {
  SetAtomicType<T>();
  npurt_detail::g_state.atomic_op = npurt_detail::kAtomicAdd;
}
// Later copies to global memory keep the larger of the two values.
template <typename T>
__aicore__ inline void SetAtomicMax() {
  SetAtomicType<T>();
  npurt_detail::g_state.atomic_op = npurt_detail::kAtomicMax;
}
// Later copies to global memory keep the smaller of the two values.
template <typename T>
__aicore__ inline void SetAtomicMin() {
  SetAtomicType<T>();
  npurt_detail::g_state.atomic_op = npurt_detail::kAtomicMin;
}
// Later copies to global memory overwrite it again.
__aicore__ inline void DisableDmaAtomic() { npurt_detail::g_state.atomic_op = npurt_detail::kAtomicNone; }
__aicore__ inline void SetAtomicNone() { DisableDmaAtomic(); }

}  // namespace AscendC
