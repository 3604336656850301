// The host side of Ascend C's normalization library APIs (npurt_kernel/adv_norm.h): DeepNorm and RmsNorm's
// temporary-buffer sizes and tilings. Header-only; included by tiling/tiling_api.h.
//
// The sim computes each row in double and needs no scratch space; the kernels read the tilings' shape fields
// (bLength, sLength, hLength, originalHLength) only. The sizes follow the library's documented shape: the
// minimum holds one row of H in float working copies (two for half) plus one 32-byte block per statistic,
// the maximum all B*S rows. The step fields (rows per pass, loops, tail) are filled from stackBufferSize as
// the library lays them out, so a kernel that reads them sees consistent values.
#ifndef NPURT_TILING_ADV_NORM_TILING_H_
#define NPURT_TILING_ADV_NORM_TILING_H_

#include <algorithm>
#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_types.h"

namespace AscendC {

namespace npurt_norm_tiling {
constexpr uint32_t kBlockFloats = 8;  // one 32-byte block of float

// [B, S, H] from a 3-D shape; false for anything else or a dimension not positive.
inline bool Bsh(const ge::Shape& shape, uint32_t& b, uint32_t& s, uint32_t& h) {
  if (shape.GetDimNum() != 3) return false;
  for (size_t i = 0; i < 3; ++i) {
    if (shape.GetDim(i) <= 0) return false;
  }
  b = static_cast<uint32_t>(shape.GetDim(0));
  s = static_cast<uint32_t>(shape.GetDim(1));
  h = static_cast<uint32_t>(shape.GetDim(2));
  return true;
}

inline uint32_t AlignFloats(uint32_t n) { return (n + kBlockFloats - 1) / kBlockFloats * kBlockFloats; }

// Bytes for `rows` rows: `copies` float copies of each row of h plus `stats` float blocks per row.
inline uint64_t RowsBytes(uint64_t rows, uint32_t h, uint32_t copies, uint32_t stats) {
  return rows * (uint64_t{h} * copies + uint64_t{stats} * kBlockFloats) * sizeof(float);
}

// The isBasicBlock shape rule: H a multiple of 64 (at most 2040 for DeepNorm), B*S a multiple of 8.
inline bool BasicBlockOk(uint32_t b, uint32_t s, uint32_t h) { return h % 64 == 0 && (b * s) % 8 == 0; }
}  // namespace npurt_norm_tiling

// ---- DeepNorm -------------------------------------------------------------------------------------------
// Working copies per row: alpha*x + gx, its centred square, and the output (half: twice, for the float copies).
inline bool GetDeepNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                                     const bool isBasicBlock, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  uint32_t b = 0, s = 0, h = 0;
  if (!npurt_norm_tiling::Bsh(srcShape, b, s, h) || (typeSize != 2 && typeSize != 4)) return false;
  if (isBasicBlock && !npurt_norm_tiling::BasicBlockOk(b, s, h)) return false;
  const uint32_t copies = typeSize == 2 ? 6 : 3;
  minValue = static_cast<uint32_t>(npurt_norm_tiling::RowsBytes(1, h, copies, 2));
  maxValue = static_cast<uint32_t>(npurt_norm_tiling::RowsBytes(uint64_t{b} * s, h, copies, 2));
  return true;
}

inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, AscendC::tiling::DeepNormTiling& tiling) {
  uint32_t maxValue = 0, minValue = 0;
  uint32_t b = 0, s = 0, h = 0, ob = 0, os = 0, oh = 0;
  if (!GetDeepNormMaxMinTmpSize(srcShape, typeSize, isReuseSource, isBasicBlock, maxValue, minValue)) return false;
  if (!npurt_norm_tiling::Bsh(srcShape, b, s, h) || !npurt_norm_tiling::Bsh(originSrcShape, ob, os, oh)) return false;
  if (ob != b || os != s || oh > h || (isBasicBlock && oh != h) || stackBufferSize < minValue) return false;
  tiling = {};
  tiling.bLength = b;
  tiling.sLength = s;
  tiling.hLength = h;
  tiling.originalHLength = oh;
  tiling.inputXSize = b * s * h;
  tiling.meanVarSize = b * s;
  tiling.numberOfTmpBuf = 3;
  const uint32_t rowBytes = minValue;
  const uint32_t rows = std::min<uint32_t>(stackBufferSize / rowBytes, b * s);
  tiling.bsCurLength = rows;
  tiling.bshCurLength = rows * h;
  tiling.tmpBufSize = stackBufferSize / sizeof(float);
  tiling.oneTmpSize = rows * h;
  tiling.firstTmpStartPos = 0;
  tiling.secondTmpStartPos = rows * h;
  tiling.thirdTmpStartPos = 2 * rows * h;
  tiling.meanTmpTensorPos = 3 * rows * h;
  tiling.meanTmpTensorSize = npurt_norm_tiling::AlignFloats(rows);
  tiling.varianceTmpTensorPos = tiling.meanTmpTensorPos + tiling.meanTmpTensorSize;
  tiling.varianceTmpTensorSize = tiling.meanTmpTensorSize;
  tiling.loopRound = (b * s) / rows;
  tiling.inputRoundSize = rows * h;
  tiling.inputTailSize = (b * s) % rows * h;
  tiling.inputTailPos = tiling.loopRound * rows * h;
  tiling.meanVarRoundSize = rows;
  tiling.meanVarTailSize = (b * s) % rows;
  tiling.meanVarTailPos = tiling.loopRound * rows;
  tiling.lastDimValueBack = 1.0f / static_cast<float>(oh);
  return true;
}

// ---- RmsNorm --------------------------------------------------------------------------------------------
// One float copy of each row (two for half) plus its mean square.
inline bool GetRmsNormMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                    uint32_t& minValue, const bool isBasicBlock = false) {
  uint32_t b = 0, s = 0, h = 0;
  if (!npurt_norm_tiling::Bsh(srcShape, b, s, h) || (typeSize != 2 && typeSize != 4)) return false;
  if (isBasicBlock && !npurt_norm_tiling::BasicBlockOk(b, s, h)) return false;
  const uint32_t copies = typeSize == 2 ? 2 : 1;
  minValue = static_cast<uint32_t>(npurt_norm_tiling::RowsBytes(1, h, copies, 1));
  maxValue = static_cast<uint32_t>((uint64_t{b} * s * h * copies + npurt_norm_tiling::AlignFloats(b * s)) * 4);
  return true;
}

inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 AscendC::tiling::RmsNormTiling& tiling, const bool isBasicBlock = false) {
  uint32_t maxValue = 0, minValue = 0;
  uint32_t b = 0, s = 0, h = 0, ob = 0, os = 0, oh = 0;
  if (!GetRmsNormMaxMinTmpSize(srcShape, typeSize, maxValue, minValue, isBasicBlock)) return false;
  if (!npurt_norm_tiling::Bsh(srcShape, b, s, h) || !npurt_norm_tiling::Bsh(originSrcShape, ob, os, oh)) return false;
  if (ob != b || os != s || oh > h || stackBufferByteSize < minValue) return false;
  tiling = {};
  tiling.bLength = b;
  tiling.sLength = s;
  tiling.hLength = h;
  tiling.originalHLength = oh;
  tiling.reciprocalOfHLength = 1.0f / static_cast<float>(oh);
  const uint32_t rows = std::min<uint32_t>(std::min<uint32_t>(stackBufferByteSize / minValue, b * s), 255);
  tiling.mainBsLength = rows;
  tiling.mainBshLength = rows * h;
  tiling.mainBsLengthAlign = npurt_norm_tiling::AlignFloats(rows);
  tiling.loopRound = (b * s) / rows;
  tiling.tailBsLength = (b * s) % rows;
  tiling.tailBshLength = tiling.tailBsLength * h;
  tiling.inputTailPos = tiling.loopRound * rows * h;
  return true;
}

// The optiling:: host classes: filled field by field from the kernel struct.
#define NPURT_NORM_TILING_COPY(field) dst.set_##field(src.field);
inline bool GetDeepNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                  const uint32_t stackBufferSize, const uint32_t typeSize, const bool isReuseSource,
                                  const bool isBasicBlock, optiling::DeepNormTiling& dst) {
  AscendC::tiling::DeepNormTiling src;
  const bool ok =
      GetDeepNormTilingInfo(srcShape, originSrcShape, stackBufferSize, typeSize, isReuseSource, isBasicBlock, src);
  NPURT_NORM_TILING_COPY(bLength) NPURT_NORM_TILING_COPY(sLength) NPURT_NORM_TILING_COPY(hLength)
  NPURT_NORM_TILING_COPY(originalHLength) NPURT_NORM_TILING_COPY(inputXSize) NPURT_NORM_TILING_COPY(meanVarSize)
  NPURT_NORM_TILING_COPY(numberOfTmpBuf) NPURT_NORM_TILING_COPY(meanTmpTensorPos)
  NPURT_NORM_TILING_COPY(meanTmpTensorSize) NPURT_NORM_TILING_COPY(varianceTmpTensorPos)
  NPURT_NORM_TILING_COPY(varianceTmpTensorSize) NPURT_NORM_TILING_COPY(tmpBufSize) NPURT_NORM_TILING_COPY(oneTmpSize)
  NPURT_NORM_TILING_COPY(firstTmpStartPos) NPURT_NORM_TILING_COPY(secondTmpStartPos)
  NPURT_NORM_TILING_COPY(thirdTmpStartPos) NPURT_NORM_TILING_COPY(loopRound) NPURT_NORM_TILING_COPY(inputRoundSize)
  NPURT_NORM_TILING_COPY(inputTailSize) NPURT_NORM_TILING_COPY(inputTailPos) NPURT_NORM_TILING_COPY(meanVarRoundSize)
  NPURT_NORM_TILING_COPY(meanVarTailSize) NPURT_NORM_TILING_COPY(meanVarTailPos) NPURT_NORM_TILING_COPY(bshCurLength)
  NPURT_NORM_TILING_COPY(bsCurLength) NPURT_NORM_TILING_COPY(lastDimValueBack)
  return ok;
}
inline bool GetRmsNormTilingInfo(const ge::Shape& srcShape, const ge::Shape& originSrcShape,
                                 const uint32_t stackBufferByteSize, const uint32_t typeSize,
                                 optiling::RmsNormTiling& dst, const bool isBasicBlock = false) {
  AscendC::tiling::RmsNormTiling src;
  const bool ok = GetRmsNormTilingInfo(srcShape, originSrcShape, stackBufferByteSize, typeSize, src, isBasicBlock);
  NPURT_NORM_TILING_COPY(bLength) NPURT_NORM_TILING_COPY(sLength) NPURT_NORM_TILING_COPY(hLength)
  NPURT_NORM_TILING_COPY(originalHLength) NPURT_NORM_TILING_COPY(reciprocalOfHLength)
  NPURT_NORM_TILING_COPY(mainBshLength) NPURT_NORM_TILING_COPY(mainBsLength) NPURT_NORM_TILING_COPY(mainBsLengthAlign)
  NPURT_NORM_TILING_COPY(loopRound) NPURT_NORM_TILING_COPY(inputTailPos) NPURT_NORM_TILING_COPY(tailBshLength)
  NPURT_NORM_TILING_COPY(tailBsLength)
  return ok;
}
#undef NPURT_NORM_TILING_COPY

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_NORM_TILING_H_
