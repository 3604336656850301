// Ascend C vector instructions for the sim in their level-0 (mask / repeat) form:
//   Op(dst, src0, src1, mask[] or mask, repeatTimes, BinaryRepeatParams)     Add Sub Mul Div Max Min And Or MulAddDst
//   Op(dst, src, mask[] or mask, repeatTimes, UnaryRepeatParams)             Exp Ln Abs Sqrt Rsqrt Relu Reciprocal Not
//   Op(dst, src, scalar, mask[] or mask, repeatTimes, UnaryRepeatParams)     Adds Muls Maxs Mins LeakyRelu
//   Duplicate(dst, scalar, mask[] or mask, repeatTimes, dstBlockStride, dstRepeatStride)
//   Copy(dst, src, mask[] or mask, repeatTimes, CopyRepeatParams)            (unified buffer to unified buffer;
//                                                                             counter mode: mask elements per repeat)
// Masks, repeats and strides as vector_mask.h describes; values as the count forms compute them
// (vector_ops.h: half/bfloat16 in float, rounded once). Each repeat reads all its source elements before
// it writes, as the vector unit does, so in-place instructions see the old values. Part of kernel_operator.h.
#pragma once

#include <vector>

#include "npurt_kernel/vector_mask.h"
#include "npurt_kernel/vector_ops.h"

namespace AscendC {

constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;

struct BinaryRepeatParams {
  __aicore__ BinaryRepeatParams() {}
  __aicore__ BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn, const uint8_t src1BlkStrideIn,
                                const uint8_t dstRepStrideIn, const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;  // reserved
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;  // reserved
  bool strideSizeMode = false;    // reserved
};

struct UnaryRepeatParams {
  __aicore__ UnaryRepeatParams() {}
  __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                               const uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), srcBlkStride(srcBlkStrideIn), dstRepStride(dstRepStrideIn), srcRepStride(srcRepStrideIn) {}
  __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn, const uint8_t dstRepStrideIn,
                               const uint8_t srcRepStrideIn, const bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn),
        halfBlock(halfBlockIn) {}
  uint32_t blockNumber = DEFAULT_BLK_NUM;  // reserved
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;  // reserved
  bool strideSizeMode = false;    // reserved
  bool halfBlock = false;         // reserved
};

// Copy's strides: dstStride/srcStride between the blocks of a repeat, dstRepeatSize/srcRepeatSize between
// repeats, in 32-byte blocks.
struct CopyRepeatParams {
  __aicore__ CopyRepeatParams() {}
  __aicore__ CopyRepeatParams(const uint16_t dstStrideIn, const uint16_t srcStrideIn, uint16_t dstRepeatSizeIn,
                              uint16_t srcRepeatSizeIn)
      : dstStride(dstStrideIn), srcStride(srcStrideIn), dstRepeatSize(dstRepeatSizeIn), srcRepeatSize(srcRepeatSizeIn) {}
  uint16_t dstStride = DEFAULT_BLK_STRIDE;
  uint16_t srcStride = DEFAULT_BLK_STRIDE;
  uint16_t dstRepeatSize = DEFAULT_REPEAT_STRIDE;
  uint16_t srcRepeatSize = DEFAULT_REPEAT_STRIDE;
};

namespace npurt_detail {

// The mask argument of a level-0 call: mask[] (arr) or the continuous count.
struct MaskArg {
  const uint64_t* arr;
  uint64_t continuous;
};
inline MaskArg MaskOf(const uint64_t* arr) { return {arr, 0}; }
inline MaskArg MaskOf(uint64_t continuous) { return {nullptr, continuous}; }

template <typename T>
inline MaskPlan PlanFor(bool set_mask, MaskArg m, int32_t repeat_times, const char* what) {
  return PlanMask(sizeof(T), set_mask, m.arr, m.continuous, repeat_times, what);
}

// Runs an element-wise instruction writing dst: value(r, k) gives element k of repeat r. A repeat's values are all computed before any is
// written. Float results of arithmetic (`arith`) that are Inf/NaN raise the overflow status (vector_ops.h);
// moves (Copy, Duplicate) raise nothing.
template <typename D, bool arith = true, typename F>
inline void Level0Write(const MaskPlan& p, const LocalTensor<D>& dst, Stride ds, F value) {
  D* d = dst.GetPhyAddr();
  D vals[128];
  uint64_t offs[128];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    uint32_t n = 0;
    for (uint32_t k = 0; k < p.per_repeat; ++k) {
      if (!Active(p, r, k)) continue;
      vals[n] = value(r, k);
      offs[n++] = ElemOffset(ds, r, k, sizeof(D));
    }
    for (uint32_t i = 0; i < n; ++i) d[offs[i]] = vals[i];
    if (arith) CheckResults(vals, n);
  }
}

// Element k of repeat r of a source operand.
template <typename T>
inline T SrcAt(const LocalTensor<T>& t, Stride s, uint32_t r, uint32_t k) {
  return t.GetPhyAddr()[ElemOffset(s, r, k, sizeof(T))];
}

// A binary instruction whose op may also read the destination's old value: op(a, b, d) with a from
// src0, b from src1, d from dst, all in ComputeType<T>.
template <typename T, typename Op>
inline void Level0Ternary(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                          const MaskPlan& p, const BinaryRepeatParams& rp, Op op, const char* what) {
  const Stride ds{rp.dstBlkStride, rp.dstRepStride}, s0{rp.src0BlkStride, rp.src0RepStride},
      s1{rp.src1BlkStride, rp.src1RepStride};
  CheckPlanned(dst.GetPhyAddr(), p, ds, what);
  CheckPlanned(src0.GetPhyAddr(), p, s0, what);
  CheckPlanned(src1.GetPhyAddr(), p, s1, what);
  using C = ComputeType<T>;
  Level0Write(p, dst, ds, [&](uint32_t r, uint32_t k) {
    return static_cast<T>(op(static_cast<C>(SrcAt(src0, s0, r, k)), static_cast<C>(SrcAt(src1, s1, r, k)),
                             static_cast<C>(SrcAt(dst, ds, r, k))));
  });
}

template <typename T, typename Op>
inline void Level0Binary(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, bool set_mask,
                         MaskArg m, uint8_t repeat_times, const BinaryRepeatParams& rp, Op op, const char* what) {
  Level0Ternary(dst, src0, src1, PlanFor<T>(set_mask, m, repeat_times, what), rp,
                [op](auto a, auto b, auto) { return op(a, b); }, what);
}

template <typename T, typename Op>
inline void Level0Unary(const LocalTensor<T>& dst, const LocalTensor<T>& src, bool set_mask, MaskArg m,
                        uint8_t repeat_times, const UnaryRepeatParams& rp, Op op, const char* what) {
  const MaskPlan p = PlanFor<T>(set_mask, m, repeat_times, what);
  const Stride ds{rp.dstBlkStride, rp.dstRepStride}, ss{rp.srcBlkStride, rp.srcRepStride};
  CheckPlanned(dst.GetPhyAddr(), p, ds, what);
  CheckPlanned(src.GetPhyAddr(), p, ss, what);
  using C = ComputeType<T>;
  Level0Write(p, dst, ds,
              [&](uint32_t r, uint32_t k) { return static_cast<T>(op(static_cast<C>(SrcAt(src, ss, r, k)))); });
}

}  // namespace npurt_detail

// ---- binary ------------------------------------------------------------------------------------------
// Each op of vector_ops.h's lists gets its two mask forms: `uint64_t mask[]` (bits) and `uint64_t mask`
// (continuous / counter).
#define NPURT_ASCENDC_L0_BINARY_FORM(Name, expr, MaskParam)                                                     \
  template <typename T, bool isSetMask = true>                                                                 \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                              MaskParam, const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams) {  \
    npurt_detail::Level0Binary(dst, src0, src1, isSetMask, npurt_detail::MaskOf(mask), repeatTimes, repeatParams, \
                               [](auto a, auto b) { return expr; }, #Name);                                    \
  }
#define NPURT_ASCENDC_L0_BINARY(Name, expr)                              \
  NPURT_ASCENDC_L0_BINARY_FORM(Name, expr, const uint64_t mask[])        \
  NPURT_ASCENDC_L0_BINARY_FORM(Name, expr, uint64_t mask)
NPURT_ASCENDC_BINARY_OPS(NPURT_ASCENDC_L0_BINARY)
#undef NPURT_ASCENDC_L0_BINARY
#undef NPURT_ASCENDC_L0_BINARY_FORM

namespace npurt_detail {
// a * b + c with one rounding for floats (what the compiler makes of the count form's a * b + c where
// the CPU has FMA; explicit here so results do not depend on the kernel's -march).
template <typename C>
inline C MulAdd(C a, C b, C c) {
  if constexpr (std::is_floating_point<C>::value) {
    return std::fma(a, b, c);
  } else {
    return static_cast<C>(a * b + c);
  }
}
}  // namespace npurt_detail

// dst = src0 * src1 + dst: fused (one rounding in float; half then rounds the float result once).
#define NPURT_ASCENDC_L0_MULADDDST(MaskParam)                                                                       \
  template <typename T, bool isSetMask = true>                                                                     \
  __aicore__ inline void MulAddDst(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                   MaskParam, const uint8_t repeatTimes, const BinaryRepeatParams& repeatParams) {  \
    npurt_detail::Level0Ternary(dst, src0, src1,                                                                   \
                                npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, "MulAddDst"), \
                                repeatParams, [](auto a, auto b, auto d) { return npurt_detail::MulAdd(a, b, d); }, \
                                "MulAddDst");                                                                      \
  }
NPURT_ASCENDC_L0_MULADDDST(const uint64_t mask[])
NPURT_ASCENDC_L0_MULADDDST(uint64_t mask)
#undef NPURT_ASCENDC_L0_MULADDDST

// ---- tensor and scalar ---------------------------------------------------------------------------------
#define NPURT_ASCENDC_L0_SCALAR_FORM(Name, expr, MaskParam)                                                    \
  template <typename T, bool isSetMask = true>                                                                \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src,                           \
                              const npurt_detail::NoDeduce<T>& scalarValue, MaskParam, const uint8_t repeatTimes, \
                              const UnaryRepeatParams& repeatParams) {                                        \
    const npurt_detail::ComputeType<T> s = static_cast<npurt_detail::ComputeType<T>>(scalarValue);            \
    npurt_detail::Level0Unary(dst, src, isSetMask, npurt_detail::MaskOf(mask), repeatTimes, repeatParams,     \
                              [s](auto a) { return expr; }, #Name);                                           \
  }
#define NPURT_ASCENDC_L0_SCALAR(Name, expr)                        \
  NPURT_ASCENDC_L0_SCALAR_FORM(Name, expr, const uint64_t mask[])  \
  NPURT_ASCENDC_L0_SCALAR_FORM(Name, expr, uint64_t mask)
NPURT_ASCENDC_SCALAR_OPS(NPURT_ASCENDC_L0_SCALAR)
#undef NPURT_ASCENDC_L0_SCALAR
#undef NPURT_ASCENDC_L0_SCALAR_FORM

// ---- unary -------------------------------------------------------------------------------------------------
#define NPURT_ASCENDC_L0_UNARY_FORM(Name, expr, MaskParam)                                                     \
  template <typename T, bool isSetMask = true>                                                                \
  __aicore__ inline void Name(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskParam,                 \
                              const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {             \
    npurt_detail::Level0Unary(dst, src, isSetMask, npurt_detail::MaskOf(mask), repeatTimes, repeatParams,     \
                              [](auto a) { return expr; }, #Name);                                            \
  }
#define NPURT_ASCENDC_L0_UNARY(Name, expr)                        \
  NPURT_ASCENDC_L0_UNARY_FORM(Name, expr, const uint64_t mask[])  \
  NPURT_ASCENDC_L0_UNARY_FORM(Name, expr, uint64_t mask)
NPURT_ASCENDC_UNARY_OPS(NPURT_ASCENDC_L0_UNARY)
#undef NPURT_ASCENDC_L0_UNARY
#undef NPURT_ASCENDC_L0_UNARY_FORM

// ---- Duplicate and Copy ----------------------------------------------------------------------------------
#define NPURT_ASCENDC_L0_DUPLICATE(MaskParam)                                                                 \
  template <typename T, bool isSetMask = true>                                                               \
  __aicore__ inline void Duplicate(const LocalTensor<T>& dst, const npurt_detail::NoDeduce<T>& scalarValue,  \
                                   MaskParam, const uint8_t repeatTimes, const uint16_t dstBlockStride,      \
                                   const uint8_t dstRepeatStride) {                                          \
    const npurt_detail::MaskPlan p =                                                                         \
        npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, "Duplicate");           \
    const npurt_detail::Stride ds{dstBlockStride, dstRepeatStride};                                          \
    npurt_detail::CheckPlanned(dst.GetPhyAddr(), p, ds, "Duplicate");                             \
    const T v = scalarValue;                                                                                 \
    npurt_detail::Level0Write<T, false>(p, dst, ds, [v](uint32_t, uint32_t) { return v; });                 \
  }
NPURT_ASCENDC_L0_DUPLICATE(const uint64_t mask[])
NPURT_ASCENDC_L0_DUPLICATE(uint64_t mask)
#undef NPURT_ASCENDC_L0_DUPLICATE

namespace npurt_detail {
// Copy in counter mode differs from the other instructions (the reference says so for Copy): the mask
// is the element count of each repeat, and repeatTimes counts; a repeat of `count` elements covers
// ceil(count * sizeof(T) / 32) blocks at the block stride (more than 8 when count is above a repeat's).
// A repeat reads all its elements before it writes.
template <typename T>
inline void CopyCounterMode(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint64_t count, uint32_t repeats,
                            Stride ds, Stride ss) {
  std::vector<T> vals(count);
  for (uint32_t r = 0; r < repeats; ++r) {
    for (uint64_t k = 0; k < count; ++k) {
      const T* sp = src.GetPhyAddr() + ElemOffset(ss, r, static_cast<uint32_t>(k), sizeof(T));
      CheckLocal(sp, sizeof(T), "Copy");
      vals[k] = *sp;
    }
    for (uint64_t k = 0; k < count; ++k) {
      T* dp = dst.GetPhyAddr() + ElemOffset(ds, r, static_cast<uint32_t>(k), sizeof(T));
      CheckLocal(dp, sizeof(T), "Copy");
      *dp = vals[k];
    }
  }
}
}  // namespace npurt_detail

#define NPURT_ASCENDC_L0_COPY(MaskParam)                                                                       \
  template <typename T, bool isSetMask = true>                                                                \
  __aicore__ inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, MaskParam,                \
                              const uint8_t repeatTimes, const CopyRepeatParams& repeatParams) {              \
    static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Copy: 16- or 32-bit elements only");                    \
    const npurt_detail::MaskPlan p = npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, "Copy"); \
    const npurt_detail::Stride ds{repeatParams.dstStride, repeatParams.dstRepeatSize},                        \
        ss{repeatParams.srcStride, repeatParams.srcRepeatSize};                                               \
    if (p.counter) {                                                                                          \
      npurt_detail::CopyCounterMode(dst, src, p.count, repeatTimes, ds, ss);                                  \
      return;                                                                                                 \
    }                                                                                                         \
    npurt_detail::CheckPlanned(dst.GetPhyAddr(), p, ds, "Copy");                                   \
    npurt_detail::CheckPlanned(src.GetPhyAddr(), p, ss, "Copy");                                   \
    npurt_detail::Level0Write<T, false>(p, dst, ds,                                                \
                                        [&](uint32_t r, uint32_t k) { return npurt_detail::SrcAt(src, ss, r, k); }); \
  }
NPURT_ASCENDC_L0_COPY(const uint64_t mask[])
NPURT_ASCENDC_L0_COPY(uint64_t mask)
#undef NPURT_ASCENDC_L0_COPY

}  // namespace AscendC
#include "npurt_kernel/vector_shift_axpy.h"
#include "npurt_kernel/transpose.h"
