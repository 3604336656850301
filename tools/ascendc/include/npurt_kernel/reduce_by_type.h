// Ascend C's reductions named by ReduceType (CANN 9's names for the level-0 reductions of
// vector_reduce.h): ReduceRepeat<SUM|MAX|MIN> is WholeReduceSum/Max/Min (one result per repeat),
// ReduceDataBlock<SUM|MAX|MIN> is BlockReduceSum/Max/Min (one result per 32-byte block) and
// ReducePairElem<SUM> is PairReduceSum (one result per pair), with the same masks, strides and
// results. Note the argument order: mask before repeatTime, for all three. On the Atlas A2 SoC the
// destination and source types must be the same (half or float); other pairings fail at build time.
// Part of kernel_operator.h (through vector_reduce.h).
#pragma once

#include <type_traits>

#include "npurt_kernel/vector_reduce.h"

namespace AscendC {

enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };

namespace npurt_detail {
template <typename T, typename U>
constexpr void CheckSameReduceTypes() {
  static_assert(std::is_same_v<T, U>,
                "ReduceRepeat/ReduceDataBlock/ReducePairElem: on Atlas A2 the destination and source element types "
                "must be the same (the sim models dav-2201)");
}
}  // namespace npurt_detail

#define NPURT_ASCENDC_REDUCE_BY_TYPE(MaskParam)                                                                     \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                  \
  __aicore__ inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, MaskParam,             \
                                      const int32_t repeatTime, const int32_t dstRepStride,                        \
                                      const int32_t srcBlkStride, const int32_t srcRepStride,                      \
                                      ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX) {                        \
    npurt_detail::CheckSameReduceTypes<T, U>();                                                                    \
    if constexpr (reduceType == ReduceType::SUM) {                                                                 \
      WholeReduceSum<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride);          \
    } else if constexpr (reduceType == ReduceType::MAX) {                                                          \
      WholeReduceMax<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);   \
    } else {                                                                                                       \
      WholeReduceMin<T, isSetMask>(dst, src, mask, repeatTime, dstRepStride, srcBlkStride, srcRepStride, order);   \
    }                                                                                                              \
  }                                                                                                                \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                  \
  __aicore__ inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, MaskParam,          \
                                         const int32_t repeatTime, const int32_t dstRepStride,                     \
                                         const int32_t srcBlkStride, const int32_t srcRepStride) {                 \
    npurt_detail::CheckSameReduceTypes<T, U>();                                                                    \
    if constexpr (reduceType == ReduceType::SUM) {                                                                 \
      BlockReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);          \
    } else if constexpr (reduceType == ReduceType::MAX) {                                                          \
      BlockReduceMax<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);          \
    } else {                                                                                                       \
      BlockReduceMin<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);          \
    }                                                                                                              \
  }                                                                                                                \
  template <ReduceType reduceType, typename T, typename U, bool isSetMask = true>                                  \
  __aicore__ inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, MaskParam,           \
                                        const int32_t repeatTime, const int32_t dstRepStride,                      \
                                        const int32_t srcBlkStride, const int32_t srcRepStride) {                  \
    npurt_detail::CheckSameReduceTypes<T, U>();                                                                    \
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem: only ReduceType::SUM exists");                   \
    PairReduceSum<T, isSetMask>(dst, src, repeatTime, mask, dstRepStride, srcBlkStride, srcRepStride);             \
  }
NPURT_ASCENDC_REDUCE_BY_TYPE(const uint64_t mask[])
NPURT_ASCENDC_REDUCE_BY_TYPE(const int32_t mask)
#undef NPURT_ASCENDC_REDUCE_BY_TYPE

}  // namespace AscendC
