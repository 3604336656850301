// The host side of Ascend C's Sum, Select (bytes mask) and DropOut library APIs (npurt_kernel/adv_select_reduce.h):
// their temporary-buffer sizes. Header-only; included by tiling/tiling_api.h. The sim needs no scratch
// space; the sizes follow the library's shape as for the math functions (tiling/adv_math_tiling.h).
#ifndef NPURT_TILING_ADV_SELECT_REDUCE_TILING_H_
#define NPURT_TILING_ADV_SELECT_REDUCE_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "tiling/adv_math_tiling.h"

namespace AscendC {

// Sum of rows of n elements (typeSize: 2 half, 4 float): one row's working copy.
inline void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool isReuseSource,
                                uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  npurt_adv_tiling::MaxMin(ge::Shape({static_cast<int64_t>(n)}), typeSize, 1, maxValue, minValue);
}

// Select with a bytes mask: src0Shape the tensor operand's, src1Shape the scalar's ({1}), maskShape the mask's.
inline void GetSelectWithBytesMaskMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape,
                                                const uint32_t srcTypeSize, const ge::Shape& maskShape,
                                                const uint32_t maskTypeSize, const bool isReuseMask,
                                                uint32_t& maxValue, uint32_t& minValue) {
  (void)src1Shape;
  (void)maskTypeSize;
  (void)isReuseMask;
  const ge::Shape& larger = src0Shape.GetShapeSize() >= maskShape.GetShapeSize() ? src0Shape : maskShape;
  npurt_adv_tiling::MaxMin(larger, srcTypeSize, 1, maxValue, minValue);
}
inline void GetSelectMaxMinTmpSize(const ge::Shape& src0Shape, const ge::Shape& src1Shape, const uint32_t srcTypeSize,
                                   const ge::Shape& maskShape, const uint32_t maskTypeSize, const bool isReuseMask,
                                   uint32_t& maxValue, uint32_t& minValue) {
  GetSelectWithBytesMaskMaxMinTmpSize(src0Shape, src1Shape, srcTypeSize, maskShape, maskTypeSize, isReuseMask,
                                      maxValue, minValue);
}

// DropOut: the source's shape and element size.
inline void GetDropOutMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                    uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 1, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_SELECT_REDUCE_TILING_H_
