// The host side of Ascend C's LayerNorm library APIs (npurt_kernel/adv_layernorm.h): LayerNorm, LayerNormGrad
// and LayerNormGradBeta's temporary-buffer sizes and ND tilings. Header-only; included by tiling/tiling_api.h.
//
// The sim computes each row in double and needs no scratch space; the kernels read the tilings' shape fields
// (bLength, sLength, hLength, originalHLength). The shape is [B, S, H], or [B, S, H, originalH]. The minimum
// size holds float working copies of one row (two for LayerNorm and LayerNormGradBeta, four for LayerNormGrad;
// twice that for half) plus a block per statistic, the maximum all B*S rows; the step fields are filled from
// stackBufferSize as the library lays them out.
#ifndef NPURT_TILING_ADV_LAYERNORM_TILING_H_
#define NPURT_TILING_ADV_LAYERNORM_TILING_H_

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/adv_norm_tiling.h"
#include "tiling/tiling_types.h"

namespace AscendC {

namespace npurt_layernorm_tiling {
struct Bsh {
  uint32_t b = 0, s = 0, h = 0, oh = 0;
};

inline bool ShapeOf(const ge::Shape& shape, uint32_t typeSize, Bsh& o) {
  const size_t dims = shape.GetDimNum();
  if ((dims != 3 && dims != 4) || (typeSize != 2 && typeSize != 4)) return false;
  for (size_t i = 0; i < dims; ++i) {
    if (shape.GetDim(i) <= 0) return false;
  }
  o.b = static_cast<uint32_t>(shape.GetDim(0));
  o.s = static_cast<uint32_t>(shape.GetDim(1));
  o.h = static_cast<uint32_t>(shape.GetDim(2));
  o.oh = dims == 4 ? static_cast<uint32_t>(shape.GetDim(3)) : o.h;
  return o.oh <= o.h;
}

inline bool Sizes(const ge::Shape& shape, uint32_t typeSize, uint32_t copies, uint32_t& maxValue,
                  uint32_t& minValue) {
  Bsh sh;
  if (!ShapeOf(shape, typeSize, sh)) return false;
  const uint32_t c = typeSize == 2 ? copies * 2 : copies;
  minValue = static_cast<uint32_t>(npurt_norm_tiling::RowsBytes(1, sh.h, c, 2));
  maxValue = static_cast<uint32_t>(npurt_norm_tiling::RowsBytes(uint64_t{sh.b} * sh.s, sh.h, c, 2));
  return true;
}

// Rows that fit in stackBufferSize (at least 1, at most B*S).
inline uint32_t Rows(uint32_t stackBufferSize, uint32_t minValue, const Bsh& sh) {
  return std::max<uint32_t>(1, std::min<uint32_t>(stackBufferSize / std::max<uint32_t>(minValue, 1), sh.b * sh.s));
}
}  // namespace npurt_layernorm_tiling

inline bool GetLayerNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                      uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  return npurt_layernorm_tiling::Sizes(srcShape, typeSize, 2, maxValue, minValue);
}

inline bool GetLayerNormNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                     const uint32_t typeSize, const bool isReuseSource,
                                     optiling::LayerNormTiling& tiling) {
  uint32_t maxValue = 0, minValue = 0;
  npurt_layernorm_tiling::Bsh sh;
  if (!GetLayerNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)) return false;
  npurt_layernorm_tiling::ShapeOf(srcShape, typeSize, sh);
  const uint32_t rows = npurt_layernorm_tiling::Rows(stackBufferSize, minValue, sh), bs = sh.b * sh.s;
  tiling.set_bLength(sh.b);
  tiling.set_sLength(sh.s);
  tiling.set_hLength(sh.h);
  tiling.set_originalHLength(sh.oh);
  tiling.set_inputXSize(bs * sh.h);
  tiling.set_meanVarSize(bs);
  tiling.set_numberOfTmpBuf(2);
  tiling.set_tmpBufSize(stackBufferSize / sizeof(float));
  tiling.set_oneTmpSize(rows * sh.h);
  tiling.set_firstTmpStartPos(0);
  tiling.set_secondTmpStartPos(rows * sh.h);
  tiling.set_thirdTmpStartPos(2 * rows * sh.h);
  tiling.set_meanTmpTensorPos(2 * rows * sh.h);
  tiling.set_meanTmpTensorSize(npurt_norm_tiling::AlignFloats(rows));
  tiling.set_varianceTmpTensorPos(2 * rows * sh.h + npurt_norm_tiling::AlignFloats(rows));
  tiling.set_varianceTmpTensorSize(npurt_norm_tiling::AlignFloats(rows));
  tiling.set_loopRound(bs / rows);
  tiling.set_inputRoundSize(rows * sh.h);
  tiling.set_inputTailSize(bs % rows * sh.h);
  tiling.set_inputTailPos(bs / rows * rows * sh.h);
  tiling.set_meanVarRoundSize(rows);
  tiling.set_meanVarTailSize(bs % rows);
  tiling.set_meanVarTailPos(bs / rows * rows);
  tiling.set_bshCurLength(rows * sh.h);
  tiling.set_bsCurLength(rows);
  tiling.set_lastDimValueBack(1.0f / static_cast<float>(sh.oh));
  return true;
}

inline bool GetLayerNormGradMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                          const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  return npurt_layernorm_tiling::Sizes(srcShape, typeSize, 4, maxValue, minValue);
}

inline bool GetLayerNormGradNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                         const uint32_t typeSize, const bool isReuseSource,
                                         optiling::LayerNormGradTiling& tiling) {
  uint32_t maxValue = 0, minValue = 0;
  npurt_layernorm_tiling::Bsh sh;
  if (!GetLayerNormGradMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)) return false;
  npurt_layernorm_tiling::ShapeOf(srcShape, typeSize, sh);
  const uint32_t rows = npurt_layernorm_tiling::Rows(stackBufferSize, minValue, sh), bs = sh.b * sh.s;
  const uint32_t one = rows * sh.h;
  tiling.set_stackBufferSize(stackBufferSize / sizeof(float));
  tiling.set_bLength(sh.b);
  tiling.set_sLength(sh.s);
  tiling.set_hLength(sh.h);
  tiling.set_originalHLength(sh.oh);
  tiling.set_oneCalSize(one);
  tiling.set_nohCalSize(rows);
  tiling.set_loopNum(bs / rows);
  tiling.set_tailSize(bs % rows * sh.h);
  tiling.set_nohTailSize(bs % rows);
  tiling.set_tmpTensorBSHPos(0);
  tiling.set_tmpTensorBSHSize(one);
  tiling.set_pdVarTensorPos(one);
  tiling.set_pdVarTensorSize(rows);
  tiling.set_pdMeanTensorPos(one + rows);
  tiling.set_pdMeanTensorSize(rows);
  tiling.set_x1TensorPos(one + 2 * rows);
  tiling.set_x1TensorSize(one);
  tiling.set_x2TensorPos(2 * one + 2 * rows);
  tiling.set_x2TensorSize(one);
  tiling.set_x3TensorPos(3 * one + 2 * rows);
  tiling.set_x3TensorSize(one);
  float back = 1.0f / static_cast<float>(sh.oh), back2 = 2.0f / static_cast<float>(sh.oh);
  uint32_t bits = 0, bits2 = 0;
  std::memcpy(&bits, &back, 4);
  std::memcpy(&bits2, &back2, 4);
  tiling.set_lastDimValueBack(bits);  // CANN declares these float bit patterns as uint32_t
  tiling.set_lastDimValueBackMulTwo(bits2);
  return true;
}

inline bool GetLayerNormGradBetaMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                              const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  return npurt_layernorm_tiling::Sizes(srcShape, typeSize, 2, maxValue, minValue);
}

inline bool GetLayerNormGradBetaNDTilingInfo(const ge::Shape& srcShape, const uint32_t stackBufferSize,
                                             const uint32_t typeSize, const bool isReuseSource,
                                             optiling::LayerNormGradBetaTiling& tiling) {
  uint32_t maxValue = 0, minValue = 0;
  npurt_layernorm_tiling::Bsh sh;
  if (!GetLayerNormGradBetaMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue)) return false;
  npurt_layernorm_tiling::ShapeOf(srcShape, typeSize, sh);
  const uint32_t rows = npurt_layernorm_tiling::Rows(stackBufferSize, minValue, sh), bs = sh.b * sh.s;
  tiling.set_stackBufferSize(stackBufferSize / sizeof(float));
  tiling.set_bLength(sh.b);
  tiling.set_sLength(sh.s);
  tiling.set_hLength(sh.h);
  tiling.set_originalHLength(sh.oh);
  tiling.set_bshLength(bs * sh.h);
  tiling.set_bsLength(bs);
  tiling.set_oneCalSize(rows * sh.h);
  tiling.set_numberOfTmpBuf(2);
  tiling.set_loopRound(bs / rows);
  tiling.set_inputTailSize(bs % rows * sh.h);
  tiling.set_inputTailPos(bs / rows * rows * sh.h);
  tiling.set_bsTailSize(bs % rows);
  tiling.set_bshCurLength(rows * sh.h);
  tiling.set_bsCurLength(rows);
  tiling.set_gammaTempTensorPos(0);
  tiling.set_betaTempTensorPos(sh.h);
  tiling.set_inputDyTmpTensorPos(2 * sh.h);
  tiling.set_resForGammaTmpTensorPos(2 * sh.h + rows * sh.h);
  return true;
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_LAYERNORM_TILING_H_
