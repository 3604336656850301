// Ascend C vector instructions with a scalar operand, beyond vector_ops.h's list, for the sim:
//   ShiftLeft / ShiftRight(dst, src, scalarValue, count | mask, repeatTime, UnaryRepeatParams[, roundEn])
//       int16/uint16/int32/uint32, shift by 0..bit width (else the kernel fails). Unsigned: logical shifts.
//       Signed: ShiftRight is arithmetic (roundEn adds the last bit shifted out); ShiftLeft keeps the sign
//       bit and shifts the others (the reference's "arithmetic left shift").
//   Axpy(dst, src, scalarValue, count | mask, repeatTime, UnaryRepeatParams): dst = scalar * src + dst,
//       half/half, float/float and (count form) half src into float dst; fused in float, rounded once
//       to the destination type.
//   CreateVecIndex(dst, firstValue, count): dst[i] = firstValue + i (int16/int32/half/float).
// Masks, repeats and strides as vector_mask.h describes; count 0 / repeatTime 0 write nothing.
// Part of kernel_operator.h (through vector_level0.h).
#pragma once

#include <cmath>
#include <type_traits>

#include "npurt_kernel/vector_level0.h"

namespace AscendC {
namespace npurt_detail {

template <typename T>
constexpr bool kIsShiftType = std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                              std::is_same<T, int32_t>::value || std::is_same<T, uint32_t>::value;

template <typename T>
inline uint32_t CheckShift(T s, const char* what) {
  constexpr int64_t bits = 8 * sizeof(T);
  if (static_cast<int64_t>(s) < 0 || static_cast<int64_t>(s) > bits) {
    Fail("%s: shift by %lld bits; the Atlas A2 vector unit shifts %d-bit elements by 0..%d", what,
         static_cast<long long>(s), static_cast<int>(bits), static_cast<int>(bits));
  }
  return static_cast<uint32_t>(s);
}

template <typename T>
inline T ShiftLeftOne(T a, uint32_t s) {
  using U = typename std::make_unsigned<T>::type;
  constexpr uint32_t bits = 8 * sizeof(T);
  const U u = static_cast<U>(a);
  const U shifted = s >= bits ? U(0) : static_cast<U>(u << s);
  if constexpr (std::is_signed<T>::value) {
    const U sign = static_cast<U>(U(1) << (bits - 1));
    return static_cast<T>(static_cast<U>((shifted & static_cast<U>(~sign)) | (u & sign)));
  } else {
    return static_cast<T>(shifted);
  }
}

template <typename T>
inline T ShiftRightOne(T a, uint32_t s, bool round) {
  constexpr uint32_t bits = 8 * sizeof(T);
  if constexpr (std::is_signed<T>::value) {
    const int64_t v = static_cast<int64_t>(a);
    int64_t r = v >> (s >= bits ? bits - 1 : s);  // shifting by the whole width leaves the sign
    if (s >= bits) r = v < 0 ? -1 : 0;
    if (round && s >= 1) r += (v >> (s - 1 >= bits ? bits - 1 : s - 1)) & 1;
    return static_cast<T>(r);
  } else {
    return s >= bits ? T(0) : static_cast<T>(a >> s);
  }
}

template <typename T, typename Op>
inline void ShiftCount(const LocalTensor<T>& dst, const LocalTensor<T>& src, int32_t count, Op op, const char* what) {
  static_assert(kIsShiftType<T>, "ShiftLeft/ShiftRight: int16_t, uint16_t, int32_t or uint32_t elements on Atlas A2");
  CheckOperand(dst, count, what);
  CheckOperand(src, count, what);
  T* d = dst.GetPhyAddr();
  const T* a = src.GetPhyAddr();
  for (int32_t i = 0; i < count; ++i) d[i] = op(a[i]);
}

template <typename T, typename Op>
inline void ShiftLevel0(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool set_mask, MaskArg m,
                        uint8_t repeat_times, const UnaryRepeatParams& rp, Op op, const char* what) {
  static_assert(kIsShiftType<T>, "ShiftLeft/ShiftRight: int16_t, uint16_t, int32_t or uint32_t elements on Atlas A2");
  const MaskPlan p = PlanFor<T>(set_mask, m, repeat_times, what);
  const Stride ds{rp.dstBlkStride, rp.dstRepStride}, ss{rp.srcBlkStride, rp.srcRepStride};
  CheckPlanned(dst.GetPhyAddr(), p, ds, what);
  CheckPlanned(src.GetPhyAddr(), p, ss, what);
  Level0Write<T, false>(p, dst, ds, [&](uint32_t r, uint32_t k) { return op(SrcAt(src, ss, r, k)); });
}

template <typename T, typename U>
constexpr void CheckAxpyTypes() {
  static_assert((std::is_same<T, half>::value && std::is_same<U, half>::value) ||
                    (std::is_same<T, float>::value && std::is_same<U, float>::value) ||
                    (std::is_same<T, float>::value && std::is_same<U, half>::value),
                "Axpy: (dst, src) types half/half, float/float or float/half on Atlas A2");
}

}  // namespace npurt_detail

// ---- ShiftLeft / ShiftRight ------------------------------------------------------------------------------
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                 const npurt_detail::NoDeduce<T>& scalarValue, const int32_t& count) {
  const int32_t n = npurt_detail::CountOf<isSetMask>(count, "ShiftLeft");
  const uint32_t s = npurt_detail::CheckShift<T>(scalarValue, "ShiftLeft");
  npurt_detail::ShiftCount(dst, src, n, [s](T a) { return npurt_detail::ShiftLeftOne(a, s); }, "ShiftLeft");
}
template <typename T, bool isSetMask = true>
__aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                  const npurt_detail::NoDeduce<T>& scalarValue, const int32_t& count) {
  const int32_t n = npurt_detail::CountOf<isSetMask>(count, "ShiftRight");
  const uint32_t s = npurt_detail::CheckShift<T>(scalarValue, "ShiftRight");
  npurt_detail::ShiftCount(dst, src, n, [s](T a) { return npurt_detail::ShiftRightOne(a, s, false); }, "ShiftRight");
}

#define NPURT_ASCENDC_L0_SHIFTS(MaskParam)                                                                         \
  template <typename T, bool isSetMask = true>                                                                     \
  __aicore__ inline void ShiftLeft(const LocalTensor<T>& dst, const LocalTensor<T>& src,                          \
                                   const npurt_detail::NoDeduce<T>& scalarValue, MaskParam,                       \
                                   const uint8_t repeatTime, const UnaryRepeatParams& repeatParams) {             \
    const uint32_t s = npurt_detail::CheckShift<T>(scalarValue, "ShiftLeft");                                     \
    npurt_detail::ShiftLevel0(dst, src, isSetMask, npurt_detail::MaskOf(mask), repeatTime, repeatParams,          \
                              [s](T a) { return npurt_detail::ShiftLeftOne(a, s); }, "ShiftLeft");                \
  }                                                                                                                \
  template <typename T, bool isSetMask = true>                                                                     \
  __aicore__ inline void ShiftRight(const LocalTensor<T>& dst, const LocalTensor<T>& src,                         \
                                    const npurt_detail::NoDeduce<T>& scalarValue, MaskParam,                      \
                                    const uint8_t repeatTime, const UnaryRepeatParams& repeatParams,              \
                                    bool roundEn = false) {                                                        \
    const uint32_t s = npurt_detail::CheckShift<T>(scalarValue, "ShiftRight");                                    \
    const bool round = roundEn && std::is_signed<T>::value; /* rounding applies to int16/int32 only */            \
    npurt_detail::ShiftLevel0(dst, src, isSetMask, npurt_detail::MaskOf(mask), repeatTime, repeatParams,          \
                              [s, round](T a) { return npurt_detail::ShiftRightOne(a, s, round); }, "ShiftRight"); \
  }
NPURT_ASCENDC_L0_SHIFTS(const uint64_t mask[])
NPURT_ASCENDC_L0_SHIFTS(uint64_t mask)
#undef NPURT_ASCENDC_L0_SHIFTS

// ---- Axpy ----------------------------------------------------------------------------------------------
template <typename T, typename U, bool isSetMask = true>
__aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,
                            const npurt_detail::NoDeduce<U>& scalarValue, const int32_t& count) {
  npurt_detail::CheckAxpyTypes<T, U>();
  const int32_t n = npurt_detail::CountOf<isSetMask>(count, "Axpy");
  npurt_detail::CheckOperand(dst, n, "Axpy");
  npurt_detail::CheckOperand(src, n, "Axpy");
  const float s = static_cast<float>(scalarValue);
  T* d = dst.GetPhyAddr();
  const U* a = src.GetPhyAddr();
  for (int32_t i = 0; i < n; ++i) {
    d[i] = static_cast<T>(std::fma(s, static_cast<float>(a[i]), static_cast<float>(d[i])));
  }
  npurt_detail::CheckResults(d, static_cast<uint32_t>(n < 0 ? 0 : n));
}

// The mask / repeat form: same-type operands (the half -> float form, whose source repeat covers half as
// many bytes as its destination's, is not modelled: it fails at build time).
#define NPURT_ASCENDC_L0_AXPY(MaskParam)                                                                            \
  template <typename T, typename U, bool isSetMask = true>                                                          \
  __aicore__ inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src,                                \
                              const npurt_detail::NoDeduce<U>& scalarValue, MaskParam, const uint8_t repeatTime,    \
                              const UnaryRepeatParams& repeatParams) {                                              \
    npurt_detail::CheckAxpyTypes<T, U>();                                                                           \
    static_assert(std::is_same<T, U>::value,                                                                        \
                  "Axpy: the mask/repeat form with a half source and a float destination is not modelled on the sim"); \
    const npurt_detail::MaskPlan p = npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTime, "Axpy"); \
    const npurt_detail::Stride ds{repeatParams.dstBlkStride, repeatParams.dstRepStride},                           \
        ss{repeatParams.srcBlkStride, repeatParams.srcRepStride};                                                   \
    npurt_detail::CheckPlanned(dst.GetPhyAddr(), p, ds, "Axpy");                                                    \
    npurt_detail::CheckPlanned(src.GetPhyAddr(), p, ss, "Axpy");                                                    \
    const float s = static_cast<float>(scalarValue);                                                                \
    npurt_detail::Level0Write(p, dst, ds, [&](uint32_t r, uint32_t k) {                                            \
      return static_cast<T>(std::fma(s, static_cast<float>(npurt_detail::SrcAt(src, ss, r, k)),                    \
                                     static_cast<float>(npurt_detail::SrcAt(dst, ds, r, k))));                     \
    });                                                                                                             \
  }
NPURT_ASCENDC_L0_AXPY(const uint64_t mask[])
NPURT_ASCENDC_L0_AXPY(uint64_t mask)
#undef NPURT_ASCENDC_L0_AXPY

// ---- CreateVecIndex ------------------------------------------------------------------------------------------
template <typename T>
__aicore__ inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count) {
  static_assert(std::is_same<T, int16_t>::value || std::is_same<T, int32_t>::value || std::is_same<T, half>::value ||
                    std::is_same<T, float>::value,
                "CreateVecIndex: int16_t, int32_t, half or float elements on Atlas A2");
  npurt_detail::CheckOperand(dst, static_cast<int32_t>(count), "CreateVecIndex");
  T* d = dst.GetPhyAddr();
  if constexpr (std::is_integral<T>::value) {
    for (uint32_t i = 0; i < count; ++i) d[i] = static_cast<T>(static_cast<int64_t>(firstValue) + i);
  } else {
    for (uint32_t i = 0; i < count; ++i) d[i] = static_cast<T>(static_cast<double>(firstValue) + i);
  }
}
// The mask / repeat forms: which index each active lane of each repeat gets is not pinned down by the
// reference; not modelled, so a kernel using them fails to build rather than computing a guess.
template <typename T, typename M>
__aicore__ inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, M mask, uint8_t repeatTime,
                                      uint16_t dstBlkStride, uint8_t dstRepStride) {
  static_assert(sizeof(M) == 0, "CreateVecIndex: the mask/repeat form is not modelled on the sim (use the count form)");
}

}  // namespace AscendC
