// The host side of Ascend C's pattern reductions (npurt_kernel/adv_reduce.h): ReducePattern and the
// GetReduceXxxMaxMinTmpSize functions. Header-only; included by tiling/tiling_api.h.
//
// The sim reduces without scratch space; the sizes follow the library's shape (the documented maximum equals
// the minimum): none when the source may be reused, else one float working copy of the padded source.
#ifndef NPURT_TILING_ADV_REDUCE_TILING_H_
#define NPURT_TILING_ADV_REDUCE_TILING_H_

#include <algorithm>
#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"  // ReducePattern
#include "tiling/adv_quant_tiling.h"

namespace AscendC {

namespace npurt_reduce_tiling {
inline uint32_t TypeSize(TensorDataType t) {
  switch (t) {
    case TensorDataType::DT_FLOAT:
    case TensorDataType::DT_INT32:
      return 4;
    case TensorDataType::DT_INT8:
    case TensorDataType::DT_UINT8:
      return 1;
    default:
      return 2;
  }
}

inline void Sizes(const ge::Shape& srcShape, TensorDataType dataType, ReducePattern pattern, bool isSrcInnerPad,
                  bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  if (srcShape.GetDimNum() != 2 || (pattern != ReducePattern::AR && pattern != ReducePattern::RA)) return;
  const int64_t first = srcShape.GetDim(0), last = srcShape.GetDim(1);
  if (first <= 0 || last <= 0 || isReuseSource) return;
  const uint32_t size = TypeSize(dataType), per = 32 / size;
  const uint64_t inner = isSrcInnerPad ? (static_cast<uint64_t>(last) + per - 1) / per * per : last;
  const uint64_t bytes = static_cast<uint64_t>(first) * inner * sizeof(float);
  maxValue = minValue = static_cast<uint32_t>(std::max<uint64_t>((bytes + 31) / 32 * 32, 256));
}
}  // namespace npurt_reduce_tiling

#define NPURT_REDUCE_TMP_SIZE(Name)                                                                          \
  inline void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const TensorDataType dataType,              \
                                       ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource,         \
                                       uint32_t& maxValue, uint32_t& minValue) {                              \
    npurt_reduce_tiling::Sizes(srcShape, dataType, pattern, isSrcInnerPad, isReuseSource, maxValue, minValue); \
  }
NPURT_REDUCE_TMP_SIZE(ReduceMax)
NPURT_REDUCE_TMP_SIZE(ReduceMin)
NPURT_REDUCE_TMP_SIZE(ReduceSum)
NPURT_REDUCE_TMP_SIZE(ReduceMean)
NPURT_REDUCE_TMP_SIZE(ReduceProd)
NPURT_REDUCE_TMP_SIZE(ReduceAny)
NPURT_REDUCE_TMP_SIZE(ReduceAll)
#undef NPURT_REDUCE_TMP_SIZE

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_REDUCE_TILING_H_
