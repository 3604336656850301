// Ascend C Compare / CompareScalar (Compares) and Select for the sim. Part of kernel_operator.h.
//
// Bit masks: element i of an instruction is bit i % 8 of byte i / 8 of the mask tensor (least
// significant bit first), whatever the tensor's element type (uint8_t, uint16_t, ...). In the level-0
// forms element i is element k of repeat r, i = r * (elements per repeat) + k, so a repeat's bits follow
// the previous repeat's: Compare's output feeds Select directly.
//   Compare(dst, src0, src1, cmpMode, count | mask, repeatTimes, BinaryRepeatParams)
//   CompareScalar / Compares(dst, src0, scalar, cmpMode, count | mask, repeatTimes, UnaryRepeatParams)
//       bit i = (src0[i] cmp src1[i]); bits of elements outside the mask (and past count) keep their
//       value; the destination's strides are not used (the bits are packed).
//   Compare(src0, src1, cmpMode, mask, BinaryRepeatParams)   one repeat into the 128-bit CmpMask
//       register: bit k = the result of element k, 0 outside the mask (GetCmpMask copies its 16 bytes
//       out, SetCmpMask loads them).
//   Select(dst, selMask, src0, src1 | scalar, selMode, count | mask, repeatTimes, BinaryRepeatParams)
//       dst[i] = bit ? src0[i] : src1[i] (scalar); VSEL_TENSOR_TENSOR_MODE and VSEL_TENSOR_SCALAR_MODE
//       take bit i of selMask; VSEL_CMPMASK_SPR takes bit k of selMask for element k of every repeat.
//       Elements outside the mask keep their value.
//   Select<T, SELMODE::VSEL_CMPMASK_SPR>(dst, src0, src1, repeatTimes, BinaryRepeatParams)
//       bit k of the CmpMask register (SetCmpMask / register Compare) for element k of every repeat,
//       with the mask register's mask (SetVectorMask).
// Comparisons are IEEE's (NaN compares unequal to everything, NE true).
#pragma once

#include "npurt_kernel/vector_level0.h"

namespace AscendC {

enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };

namespace npurt_detail {

// The CmpMask register of this core (128 bits); undefined until a register Compare or SetCmpMask.
inline thread_local uint64_t g_cmp_mask[2] = {0, 0};

template <typename C>
inline bool CompareValues(C a, C b, CMPMODE mode) {
  switch (mode) {
    case CMPMODE::LT: return a < b;
    case CMPMODE::GT: return a > b;
    case CMPMODE::EQ: return a == b;
    case CMPMODE::LE: return a <= b;
    case CMPMODE::GE: return a >= b;
    default: return a != b;
  }
}

inline bool GetBit(const void* base, uint64_t i) {
  return ((static_cast<const uint8_t*>(base)[i / 8] >> (i % 8)) & 1u) != 0;
}
inline void PutBit(void* base, uint64_t i, bool v) {
  uint8_t& byte = static_cast<uint8_t*>(base)[i / 8];
  byte = static_cast<uint8_t>(v ? byte | (1u << (i % 8)) : byte & ~(1u << (i % 8)));
}

// Writes bit r * per_repeat + k of dst for every active element: bit(r, k). A repeat's bits are all
// computed before any is written.
template <typename U, typename F>
inline void Level0Bits(const MaskPlan& p, const LocalTensor<U>& dst, F bit, const char* what) {
  CheckLocal(dst.GetPhyAddr(), (PlanBitEnd(p) + 7) / 8, what);
  bool bits[128];
  for (uint32_t r = 0; r < p.repeats; ++r) {
    for (uint32_t k = 0; k < p.per_repeat; ++k) bits[k] = Active(p, r, k) && bit(r, k);
    for (uint32_t k = 0; k < p.per_repeat; ++k) {
      if (Active(p, r, k)) PutBit(dst.GetPhyAddr(), uint64_t{r} * p.per_repeat + k, bits[k]);
    }
  }
}

// A count-form call as a counter-mode plan (the hardware API runs it so, then restores normal mode and
// the full mask: CountOf in vector_ops.h).
inline MaskPlan CountPlan(uint32_t elem_bytes, uint32_t count) {
  CountOf<true>(static_cast<int32_t>(count), "");
  MaskPlan p;
  p.counter = true;
  p.per_repeat = RepeatElems(elem_bytes);
  p.count = count;
  p.repeats = static_cast<uint32_t>((p.count + p.per_repeat - 1) / p.per_repeat);
  return p;
}

template <typename T, typename U>
inline void CompareImpl(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE mode,
                        const MaskPlan& p, Stride s0, Stride s1, const char* what) {
  CheckPlanned(src0.GetPhyAddr(), p, s0, what);
  CheckPlanned(src1.GetPhyAddr(), p, s1, what);
  using C = ComputeType<T>;
  Level0Bits(p, dst, [&](uint32_t r, uint32_t k) {
    return CompareValues(static_cast<C>(SrcAt(src0, s0, r, k)), static_cast<C>(SrcAt(src1, s1, r, k)), mode);
  }, what);
}

template <typename T, typename U>
inline void CompareScalarImpl(const LocalTensor<U>& dst, const LocalTensor<T>& src0, T scalar, CMPMODE mode,
                              const MaskPlan& p, Stride s0, const char* what) {
  CheckPlanned(src0.GetPhyAddr(), p, s0, what);
  using C = ComputeType<T>;
  const C s = static_cast<C>(scalar);
  Level0Bits(p, dst, [&](uint32_t r, uint32_t k) { return CompareValues(static_cast<C>(SrcAt(src0, s0, r, k)), s, mode); },
             what);
}

// The selMask bytes an instruction reads: the first repeat's bits (VSEL_CMPMASK_SPR) or all of them.
template <typename U>
inline const uint8_t* SelBits(const LocalTensor<U>& sel, SELMODE mode, const MaskPlan& p, const char* what) {
  CheckLocal(sel.GetPhyAddr(), mode == SELMODE::VSEL_CMPMASK_SPR ? p.per_repeat / 8 : (PlanBitEnd(p) + 7) / 8, what);
  return reinterpret_cast<const uint8_t*>(sel.GetPhyAddr());
}

// Select: `second(r, k)` gives the second choice of element k of repeat r (a tensor element or the scalar).
template <typename T, typename Second>
inline void SelectImpl(const LocalTensor<T>& dst, const uint8_t* sel, const LocalTensor<T>& src0, SELMODE mode,
                       const MaskPlan& p, Stride ds, Stride s0, Second second, const char* what) {
  CheckPlanned(dst.GetPhyAddr(), p, ds, what);
  CheckPlanned(src0.GetPhyAddr(), p, s0, what);
  const bool same_bits = mode == SELMODE::VSEL_CMPMASK_SPR;
  Level0Write<T, false>(p, dst, ds, [&](uint32_t r, uint32_t k) {
    const uint64_t i = same_bits ? k : uint64_t{r} * p.per_repeat + k;
    return GetBit(sel, i) ? SrcAt(src0, s0, r, k) : second(r, k);
  });
}

}  // namespace npurt_detail

// ---- Compare ---------------------------------------------------------------------------------------------
template <typename T, typename U>
__aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                               CMPMODE cmpMode, uint32_t count) {
  const npurt_detail::Stride c{1, 8};
  npurt_detail::CompareImpl(dst, src0, src1, cmpMode, npurt_detail::CountPlan(sizeof(T), count), c, c, "Compare");
}

#define NPURT_ASCENDC_COMPARE_L0(MaskParam)                                                                      \
  template <typename T, typename U, bool isSetMask = true>                                                      \
  __aicore__ inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, \
                                 CMPMODE cmpMode, MaskParam, uint8_t repeatTimes, const BinaryRepeatParams& rp) { \
    npurt_detail::CompareImpl(dst, src0, src1, cmpMode,                                                         \
                              npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, "Compare"), \
                              {rp.src0BlkStride, rp.src0RepStride}, {rp.src1BlkStride, rp.src1RepStride}, "Compare"); \
  }                                                                                                             \
  /* One repeat into the CmpMask register. */                                                                   \
  template <typename T, bool isSetMask = true>                                                                  \
  __aicore__ inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,       \
                                 MaskParam, const BinaryRepeatParams& rp) {                                     \
    const npurt_detail::MaskPlan p = npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), 1, "Compare"); \
    npurt_detail::CheckPlanned(src0.GetPhyAddr(), p, {rp.src0BlkStride, rp.src0RepStride}, "Compare"); \
    npurt_detail::CheckPlanned(src1.GetPhyAddr(), p, {rp.src1BlkStride, rp.src1RepStride}, "Compare"); \
    using C = npurt_detail::ComputeType<T>;                                                                     \
    npurt_detail::g_cmp_mask[0] = npurt_detail::g_cmp_mask[1] = 0;                                              \
    for (uint32_t k = 0; k < p.per_repeat; ++k) {                                                               \
      if (!npurt_detail::Active(p, 0, k)) continue;                                                             \
      npurt_detail::PutBit(npurt_detail::g_cmp_mask, k,                                                         \
                           npurt_detail::CompareValues(                                                         \
                               static_cast<C>(npurt_detail::SrcAt(src0, {rp.src0BlkStride, rp.src0RepStride}, 0, k)), \
                               static_cast<C>(npurt_detail::SrcAt(src1, {rp.src1BlkStride, rp.src1RepStride}, 0, k)), \
                               cmpMode));                                                                       \
    }                                                                                                           \
  }
NPURT_ASCENDC_COMPARE_L0(const uint64_t mask[])
NPURT_ASCENDC_COMPARE_L0(const uint64_t mask)
#undef NPURT_ASCENDC_COMPARE_L0

// The CmpMask register's 16 bytes to / from a tensor.
template <typename T>
__aicore__ inline void GetCmpMask(const LocalTensor<T>& dst) {
  npurt_detail::CheckLocal(dst.GetPhyAddr(), 16, "GetCmpMask");
  std::memcpy(dst.GetPhyAddr(), npurt_detail::g_cmp_mask, 16);
}
template <typename T>
__aicore__ inline void SetCmpMask(const LocalTensor<T>& src) {
  npurt_detail::CheckLocal(src.GetPhyAddr(), 16, "SetCmpMask");
  std::memcpy(npurt_detail::g_cmp_mask, src.GetPhyAddr(), 16);
}

// ---- CompareScalar (also spelled Compares) ----------------------------------------------------------------
#define NPURT_ASCENDC_COMPARE_SCALAR(Name)                                                                       \
  template <typename T, typename U>                                                                             \
  __aicore__ inline void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                            \
                              const npurt_detail::NoDeduce<T> src1Scalar, CMPMODE cmpMode, uint32_t count) {    \
    npurt_detail::CompareScalarImpl(dst, src0, src1Scalar, cmpMode, npurt_detail::CountPlan(sizeof(T), count),  \
                                    {1, 8}, #Name);                                                             \
  }                                                                                                             \
  template <typename T, typename U, bool isSetMask = true>                                                      \
  __aicore__ inline void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                            \
                              const npurt_detail::NoDeduce<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask[], \
                              uint8_t repeatTimes, const UnaryRepeatParams& rp) {                               \
    npurt_detail::CompareScalarImpl(dst, src0, src1Scalar, cmpMode,                                             \
                                    npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, #Name), \
                                    {rp.srcBlkStride, rp.srcRepStride}, #Name);                                 \
  }                                                                                                             \
  template <typename T, typename U, bool isSetMask = true>                                                      \
  __aicore__ inline void Name(const LocalTensor<U>& dst, const LocalTensor<T>& src0,                            \
                              const npurt_detail::NoDeduce<T> src1Scalar, CMPMODE cmpMode, const uint64_t mask,  \
                              uint8_t repeatTimes, const UnaryRepeatParams& rp) {                               \
    npurt_detail::CompareScalarImpl(dst, src0, src1Scalar, cmpMode,                                             \
                                    npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, #Name), \
                                    {rp.srcBlkStride, rp.srcRepStride}, #Name);                                 \
  }
NPURT_ASCENDC_COMPARE_SCALAR(CompareScalar)
NPURT_ASCENDC_COMPARE_SCALAR(Compares)
#undef NPURT_ASCENDC_COMPARE_SCALAR

// ---- Select ----------------------------------------------------------------------------------------------
template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const LocalTensor<T>& src1, SELMODE selMode, uint32_t count) {
  const npurt_detail::Stride c{1, 8};
  npurt_detail::CheckPlanned(src1.GetPhyAddr(), npurt_detail::CountPlan(sizeof(T), count), c, "Select");
  const npurt_detail::MaskPlan p = npurt_detail::CountPlan(sizeof(T), count);
  npurt_detail::SelectImpl(dst, npurt_detail::SelBits(selMask, selMode, p, "Select"), src0, selMode, p, c, c,
                           [&](uint32_t r, uint32_t k) { return npurt_detail::SrcAt(src1, c, r, k); }, "Select");
}

template <typename T, typename U>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                              const npurt_detail::NoDeduce<T> src1, SELMODE selMode, uint32_t count) {
  const npurt_detail::Stride c{1, 8};
  const npurt_detail::MaskPlan p = npurt_detail::CountPlan(sizeof(T), count);
  npurt_detail::SelectImpl(dst, npurt_detail::SelBits(selMask, selMode, p, "Select"), src0, selMode, p, c, c,
                           [src1](uint32_t, uint32_t) { return src1; }, "Select");
}

#define NPURT_ASCENDC_SELECT_L0(MaskParam)                                                                       \
  template <typename T, typename U, bool isSetMask = true>                                                      \
  __aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, \
                                const LocalTensor<T>& src1, SELMODE selMode, MaskParam, uint8_t repeatTimes,    \
                                const BinaryRepeatParams& rp) {                                                 \
    const npurt_detail::MaskPlan p = npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, "Select"); \
    const npurt_detail::Stride s1{rp.src1BlkStride, rp.src1RepStride};                                          \
    npurt_detail::CheckPlanned(src1.GetPhyAddr(), p, s1, "Select");                                  \
    npurt_detail::SelectImpl(dst, npurt_detail::SelBits(selMask, selMode, p, "Select"), src0, selMode, p,       \
                             {rp.dstBlkStride, rp.dstRepStride},                                                \
                             {rp.src0BlkStride, rp.src0RepStride},                                              \
                             [&](uint32_t r, uint32_t k) { return npurt_detail::SrcAt(src1, s1, r, k); }, "Select"); \
  }                                                                                                             \
  template <typename T, typename U, bool isSetMask = true>                                                      \
  __aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, \
                                const npurt_detail::NoDeduce<T> src1, SELMODE selMode, MaskParam, uint8_t repeatTimes, \
                                const BinaryRepeatParams& rp) {                                                 \
    const npurt_detail::MaskPlan p = npurt_detail::PlanFor<T>(isSetMask, npurt_detail::MaskOf(mask), repeatTimes, "Select"); \
    npurt_detail::SelectImpl(dst, npurt_detail::SelBits(selMask, selMode, p, "Select"), src0, selMode, p,       \
                             {rp.dstBlkStride, rp.dstRepStride}, {rp.src0BlkStride, rp.src0RepStride},          \
                             [src1](uint32_t, uint32_t) { return src1; }, "Select");                            \
  }
NPURT_ASCENDC_SELECT_L0(const uint64_t mask[])
NPURT_ASCENDC_SELECT_L0(const uint64_t mask)
#undef NPURT_ASCENDC_SELECT_L0

// VSEL_CMPMASK_SPR with the CmpMask register and the mask register.
template <typename T, SELMODE selMode>
__aicore__ inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                              uint8_t repeatTimes, const BinaryRepeatParams& rp) {
  static_assert(selMode == SELMODE::VSEL_CMPMASK_SPR,
                "Select without selMask: only SELMODE::VSEL_CMPMASK_SPR is supported on the sim");
  const npurt_detail::MaskPlan p = npurt_detail::PlanFor<T>(false, npurt_detail::MaskOf(uint64_t{0}), repeatTimes, "Select");
  const npurt_detail::Stride s1{rp.src1BlkStride, rp.src1RepStride};
  npurt_detail::CheckPlanned(src1.GetPhyAddr(), p, s1, "Select");
  npurt_detail::SelectImpl(dst, reinterpret_cast<const uint8_t*>(npurt_detail::g_cmp_mask), src0, selMode, p, {rp.dstBlkStride, rp.dstRepStride},
                           {rp.src0BlkStride, rp.src0RepStride},
                           [&](uint32_t r, uint32_t k) { return npurt_detail::SrcAt(src1, s1, r, k); }, "Select");
}

}  // namespace AscendC
