// Ascend C Cast in its level-0 (mask / repeat) form for the sim:
//   Cast<T, U, isSetMask>(dst, src, roundMode, mask[] or mask, repeatTimes, UnaryRepeatParams)
// A repeat covers 256 bytes of the wider of the two types (64 elements between half and float), so the
// mask counts elements of the wider type; each operand's blocks are its own 32-byte blocks (a half
// source of a half -> float repeat reads 4 blocks, srcRepStride 4 for contiguous data). Values and
// rounding as the count form (cast_reduce.h). Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/cast_reduce.h"
#include "npurt_kernel/vector_level0.h"

namespace AscendC {

#define NPURT_ASCENDC_CAST_L0(MaskParam)                                                                       \
  template <typename T, typename U, bool isSetMask = true>                                                    \
  __aicore__ inline void Cast(const LocalTensor<T>& dst, const LocalTensor<U>& src, const RoundMode& roundMode, \
                              MaskParam, const uint8_t repeatTimes, const UnaryRepeatParams& repeatParams) {  \
    constexpr uint32_t kMaskBytes = sizeof(T) > sizeof(U) ? sizeof(T) : sizeof(U);                           \
    const npurt_detail::MaskArg m = npurt_detail::MaskOf(mask);                                               \
    const npurt_detail::MaskPlan p = npurt_detail::PlanMask(kMaskBytes, isSetMask, m.arr, m.continuous, repeatTimes, "Cast"); \
    const npurt_detail::Stride ds{repeatParams.dstBlkStride, repeatParams.dstRepStride},                      \
        ss{repeatParams.srcBlkStride, repeatParams.srcRepStride};                                             \
    npurt_detail::CheckPlanned(dst.GetPhyAddr(), p, ds, "Cast");                                   \
    npurt_detail::CheckPlanned(src.GetPhyAddr(), p, ss, "Cast");                                   \
    npurt_detail::Level0Write<T, false>(p, dst, ds, [&](uint32_t r, uint32_t k) {                  \
      return npurt_detail::CastOne<T>(npurt_detail::SrcAt(src, ss, r, k), roundMode);                         \
    });                                                                                                       \
  }
NPURT_ASCENDC_CAST_L0(const uint64_t mask[])
NPURT_ASCENDC_CAST_L0(const uint64_t mask)
#undef NPURT_ASCENDC_CAST_L0

}  // namespace AscendC
