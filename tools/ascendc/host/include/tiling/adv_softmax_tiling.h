// The host side of the SoftMax-family library APIs npurt_kernel/adv_softmax.h adds: SoftmaxGrad's
// temporary-buffer sizes and tiling. Header-only; included by tiling/tiling_api.h. SoftmaxGrad reads a row
// at a time as SoftMax does, so its sizes and tiling are SoftMax's (tiling/vector_tiling.h, "Vector
// tilings" in docs/kernels.md) for the same shape.
#ifndef NPURT_TILING_ADV_SOFTMAX_TILING_H_
#define NPURT_TILING_ADV_SOFTMAX_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "tiling/vector_tiling.h"

namespace AscendC {

inline uint32_t GetSoftMaxGradMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isFront;
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline uint32_t GetSoftMaxGradMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isFront,
                                         const bool isReuseSource) {
  (void)isFront;
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
  (void)isFront;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling);
}
inline void SoftMaxGradTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize,
                                  const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxGradTiling,
                                  const bool isFront = false) {
  (void)isFront;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxGradTiling);
}

}  // namespace AscendC

namespace optiling {
using AscendC::SoftMaxGradTilingFunc;
}  // namespace optiling

#endif  // NPURT_TILING_ADV_SOFTMAX_TILING_H_
