// The host side of Ascend C's CumSum (npurt_kernel/adv_cumsum.h): GetCumSumMaxMinTmpSize. Header-only;
// included by tiling/tiling_api.h. The sim needs no scratch space; the sizes follow the library's shape: a float
// working copy of the tensor (half: twice its size), the last axis also a transposed copy, at least one
// 16x16-element block of floats.
#ifndef NPURT_TILING_ADV_CUMSUM_TILING_H_
#define NPURT_TILING_ADV_CUMSUM_TILING_H_

#include <algorithm>
#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

inline void GetCumSumMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                   const bool isLastAxis, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  const int64_t n = srcShape.GetShapeSize();
  const uint64_t elems = n > 0 ? static_cast<uint64_t>(n) : 0;
  const uint64_t copies = (typeSize == 2 ? 1u : 0u) + (isLastAxis ? 2u : 1u);
  const uint64_t block = 16 * 16 * sizeof(float);
  minValue = static_cast<uint32_t>(copies * block);
  maxValue = static_cast<uint32_t>(std::min<uint64_t>(copies * std::max<uint64_t>(elems * sizeof(float), block),
                                                      UINT32_MAX));
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_CUMSUM_TILING_H_
