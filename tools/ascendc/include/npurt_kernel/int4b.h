// AscendC::int4b_t: the 4-bit signed integer (-8..7) that Cast and the cube's int4 paths take. Two
// elements share a byte, the even-indexed one in the low nibble, so a tensor of N int4b_t elements
// covers N / 2 bytes: LocalTensor<int4b_t> counts elements in nibbles (ReinterpretCast, operator[] at
// even offsets, GetLength), and the APIs that take int4b_t address nibbles (cast_reduce.h,
// cast_level0.h). Element access through GetValue/SetValue is not modelled (a build-time error).
// Part of kernel_operator.h (through tensor.h).
#pragma once

#include <cstdint>

namespace AscendC {

struct int4b_t {
  uint8_t storage = 0;  // two elements: even index low nibble, odd index high nibble
};

namespace npurt_detail {

// Bits of one element of T.
template <typename T>
constexpr uint32_t kElemBits = 8 * sizeof(T);
template <>
constexpr uint32_t kElemBits<int4b_t> = 4;

template <typename T>
constexpr bool kIsInt4 = kElemBits<T> == 4;

// Element `index` of the int4 data at `base` (sign-extended), and its store.
inline int GetInt4(const void* base, uint64_t index) {
  const uint8_t byte = static_cast<const uint8_t*>(base)[index / 2];
  const int nibble = index % 2 == 0 ? (byte & 0xF) : (byte >> 4);
  return nibble >= 8 ? nibble - 16 : nibble;
}
inline void PutInt4(void* base, uint64_t index, int value) {
  uint8_t& byte = static_cast<uint8_t*>(base)[index / 2];
  const uint8_t nibble = static_cast<uint8_t>(value) & 0xF;
  byte = index % 2 == 0 ? static_cast<uint8_t>((byte & 0xF0) | nibble) : static_cast<uint8_t>((byte & 0x0F) | (nibble << 4));
}

}  // namespace npurt_detail
}  // namespace AscendC
