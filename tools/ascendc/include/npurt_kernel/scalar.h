// Ascend C's scalar-unit API for the sim: bit counts (GetBitCount / ScalarGetCountOfValue), leading zeros
// (CountLeadingZero / ScalarCountLeadingZero), sign-bit runs (CountBitsCntSameAsSignBit), the first 0 or 1
// bit (GetSFFValue / ScalarGetSFFValue), ScalarCast (float to half or int32_t under a RoundMode) and the
// bfloat16 conversions ToBfloat16 / ToFloat. The scalar unit computes them exactly; so does the host.
// Part of kernel_operator.h.
#pragma once

#include <cstdint>
#include <type_traits>

#include "npurt_kernel/cast_reduce.h"

namespace AscendC {

// The count of 1 bits (countValue 1) or 0 bits (countValue 0) of valueIn.
template <int countValue>
__aicore__ inline int64_t GetBitCount(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetBitCount: countValue counts 0 or 1 bits");
  const int64_t ones = __builtin_popcountll(valueIn);
  return countValue == 1 ? ones : 64 - ones;
}
template <int countValue>
__aicore__ inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
  return GetBitCount<countValue>(valueIn);
}

// Leading zero bits of valueIn (64 for 0).
__aicore__ inline int64_t CountLeadingZero(uint64_t valueIn) {
  return valueIn == 0 ? 64 : __builtin_clzll(valueIn);
}
__aicore__ inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }

// The run of bits after the sign bit that equal it (0x0f00000000000000 -> 3); -1 for 0 and -1, whose
// bits all equal the sign, as documented.
__aicore__ inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
  if (valueIn == 0 || valueIn == -1) return -1;
  return __builtin_clrsbll(valueIn);
}

// The position (0 = least significant) of the lowest 1 bit (countValue 1) or 0 bit (countValue 0) of
// valueIn; -1 when it has none.
template <int countValue>
__aicore__ inline int64_t GetSFFValue(uint64_t valueIn) {
  static_assert(countValue == 0 || countValue == 1, "GetSFFValue: countValue finds a 0 or a 1 bit");
  const uint64_t bits = countValue == 1 ? valueIn : ~valueIn;
  return bits == 0 ? -1 : __builtin_ctzll(bits);
}
template <int countValue>
__aicore__ inline int64_t ScalarGetSFFValue(uint64_t valueIn) {
  return GetSFFValue<countValue>(valueIn);
}

// valueIn converted by the scalar unit: float to half (CAST_ODD, round to odd, as documented for this
// pair) or float to int32_t (CAST_ROUND / CAST_RINT / CAST_FLOOR / CAST_CEIL / CAST_TRUNC, saturating).
template <typename T, typename U, RoundMode roundMode>
__aicore__ inline U ScalarCast(T valueIn) {
  static_assert(std::is_same<T, float>::value, "ScalarCast: the source is float");
  static_assert((std::is_same<U, half>::value && roundMode == RoundMode::CAST_ODD) ||
                    (std::is_same<U, int32_t>::value && roundMode != RoundMode::CAST_ODD &&
                     roundMode != RoundMode::CAST_NONE),
                "ScalarCast: float -> half takes CAST_ODD; float -> int32_t takes CAST_ROUND, CAST_RINT, "
                "CAST_FLOOR, CAST_CEIL or CAST_TRUNC");
  return npurt_detail::CastOne<U, T>(valueIn, roundMode);
}

// float <-> bfloat16_t on the scalar unit (to bfloat16: round to nearest, ties to even).
__aicore__ inline bfloat16_t ToBfloat16(const float& fVal) { return bfloat16_t(fVal); }
__aicore__ inline float ToFloat(const bfloat16_t& bVal) { return static_cast<float>(bVal); }

}  // namespace AscendC
