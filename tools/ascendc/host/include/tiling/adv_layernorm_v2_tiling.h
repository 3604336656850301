// The host side of the rstd-output LayerNorm and of Normalize (npurt_kernel/adv_layernorm_v2.h): their
// temporary-buffer sizes and LayerNormSeparateTiling. Header-only; included by tiling/tiling_api.h.
//
// The shape is [A, R]. The sim computes each row in double and needs no scratch space; the sizes follow the
// library's shape (float working copies of one row, two of them, at least; of all rows at most) and the
// tiling's steps are filled from stackBufferSize as the library lays them out.
#ifndef NPURT_TILING_ADV_LAYERNORM_V2_TILING_H_
#define NPURT_TILING_ADV_LAYERNORM_V2_TILING_H_

#include <algorithm>
#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

namespace npurt_layernorm_v2_tiling {
inline bool Ar(const ge::Shape& shape, uint32_t typeSize, uint32_t& a, uint32_t& r) {
  if (shape.GetDimNum() != 2 || shape.GetDim(0) <= 0 || shape.GetDim(1) <= 0) return false;
  if (typeSize != 2 && typeSize != 4) return false;
  a = static_cast<uint32_t>(shape.GetDim(0));
  r = static_cast<uint32_t>(shape.GetDim(1));
  return true;
}
inline uint32_t RowBytes(uint32_t r) { return ((r + 7) / 8 * 8) * 2 * 4 + 2 * 32; }
}  // namespace npurt_layernorm_v2_tiling

inline bool GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      const bool isComputeRstd, const bool isOnlyOutput, uint32_t& maxValue,
                                      uint32_t& minValue) {
  (void)isReuseSource;
  (void)isComputeRstd;
  (void)isOnlyOutput;
  uint32_t a = 0, r = 0;
  if (!npurt_layernorm_v2_tiling::Ar(srcShape, typeSize, a, r)) return false;
  minValue = npurt_layernorm_v2_tiling::RowBytes(r);
  maxValue = minValue * a;
  return true;
}

inline bool GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource, const bool isComputeRstd,
                                     AscendC::tiling::LayerNormSeparateTiling& tiling) {
  uint32_t maxValue = 0, minValue = 0, a = 0, r = 0;
  if (!GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isComputeRstd, false, maxValue, minValue) ||
      !npurt_layernorm_v2_tiling::Ar(srcShape, typeSize, a, r)) {
    return false;
  }
  const uint32_t rows = std::max<uint32_t>(1, std::min<uint32_t>(stackBufferSize / minValue, a));
  const uint32_t rPad = (r + 7) / 8 * 8;
  uint32_t head = 1;
  while (head * 2 <= r) head *= 2;
  tiling = {};
  tiling.aLength = a;
  tiling.rLength = r;
  tiling.rHeadLength = head;
  tiling.k2Rec = 1.0f / static_cast<float>(head);
  tiling.k2RRec = static_cast<float>(head) / static_cast<float>(r);
  tiling.inputXSize = a * rPad;
  tiling.meanVarSize = a;
  tiling.numberOfTmpBuf = 2;
  tiling.tmpBufSize = stackBufferSize / sizeof(float);
  tiling.oneTmpSize = rows * rPad;
  tiling.secondTmpStartPos = rows * rPad;
  tiling.thirdTmpStartPos = 2 * rows * rPad;
  tiling.varianceTmpTensorPos = 2 * rows * rPad;
  tiling.varianceTmpTensorSize = (rows + 7) / 8 * 8;
  tiling.loopRound = a / rows;
  tiling.inputRoundSize = rows * rPad;
  tiling.inputTailSize = a % rows * rPad;
  tiling.inputTailPos = a / rows * rows * rPad;
  tiling.meanVarRoundSize = rows;
  tiling.meanVarTailSize = a % rows;
  tiling.meanVarTailPos = a / rows * rows;
  tiling.arCurLength = rows * rPad;
  tiling.aCurLength = rows;
  tiling.rValueBack = 1.0f / static_cast<float>(r);
  return true;
}

inline bool GetNormalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeU, const uint32_t typeSizeT,
                                      const bool isReuseSource, const bool isComputeRstd, const bool isOnlyOutput,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  (void)isComputeRstd;
  (void)isOnlyOutput;
  uint32_t a = 0, r = 0;
  if ((typeSizeU != 2 && typeSizeU != 4) || !npurt_layernorm_v2_tiling::Ar(srcShape, typeSizeT, a, r)) return false;
  minValue = npurt_layernorm_v2_tiling::RowBytes(r);
  maxValue = minValue * a;
  return true;
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_LAYERNORM_V2_TILING_H_
