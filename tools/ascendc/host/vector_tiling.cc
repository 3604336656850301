// libtiling_api.so: the tilings of the vector library APIs (SoftMax family, Pad, UnPad) for the sim.
//
// The sim's kernel-side APIs compute a softmax row in a float copy of the row, plus the row's max and sum
// (one 32-byte block each, in float), so the temporary buffer is sized in rows: a step of the kernel
// processes splitM rows that fit in the workspace it was given. Pad and UnPad stage whole rows, each
// rounded up to 32 bytes, likewise. docs/kernels.md ("Vector tilings") defines every field.
#include "tiling/vector_tiling.h"

#include <acl/acl_base.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

namespace AscendC {
namespace {

constexpr uint32_t kBlock = 32;  // bytes of a unified-buffer block
constexpr uint32_t kFloat = 4;

void Fail(const char* api, const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  aclAppLog(ACL_ERROR, api, __FILE__, __LINE__, "%s: %s", api, buf);
}

// Rows (the product of the leading dimensions) and the last dimension; false for a shape without
// dimensions or with one that is not positive, or that does not fit 32 bits.
bool RowsAndLast(const ge::Shape& shape, uint32_t& rows, uint32_t& last) {
  if (shape.GetDimNum() == 0) return false;
  uint64_t m = 1;
  for (size_t i = 0; i + 1 < shape.GetDimNum(); ++i) {
    if (shape.GetDim(i) <= 0) return false;
    m *= static_cast<uint64_t>(shape.GetDim(i));
    if (m > UINT32_MAX) return false;
  }
  const int64_t k = shape.GetDim(shape.GetDimNum() - 1);
  if (k <= 0 || k > INT32_MAX || m * static_cast<uint64_t>(k) > UINT32_MAX) return false;
  rows = static_cast<uint32_t>(m);
  last = static_cast<uint32_t>(k);
  return true;
}

uint64_t AlignBlock(uint64_t bytes) { return (bytes + kBlock - 1) / kBlock * kBlock; }

uint32_t Clamp32(uint64_t v) { return v > UINT32_MAX ? UINT32_MAX : static_cast<uint32_t>(v); }

// A softmax row's temporary bytes: the row in float, its max and sum blocks, and with `update` (FlashV2)
// the previous max and sum blocks.
uint64_t SoftmaxRowBytes(uint32_t k, bool update) {
  return static_cast<uint64_t>(k) * kFloat + (update ? 4u : 2u) * kBlock;
}

uint32_t SoftmaxTmp(const char* api, const ge::Shape& shape, uint32_t elem, bool update, bool all_rows) {
  uint32_t m = 0, k = 0;
  if (!RowsAndLast(shape, m, k) || (elem != 2 && elem != 4)) {
    Fail(api, "invalid shape or data type size %u (2 or 4)", elem);
    return 0;
  }
  return Clamp32(SoftmaxRowBytes(k, update) * (all_rows ? m : 1u));
}

// outMaxK: the elements of a row of the max and sum tensors (one 32-byte block, or 1 when not broadcast).
void FillSoftmax(const char* api, const ge::Shape& shape, uint32_t elem, uint32_t workspace, bool update,
                 uint32_t out_k_override, tiling::SoftMaxTiling& t) {
  t = tiling::SoftMaxTiling{};
  uint32_t m = 0, k = 0;
  if (!RowsAndLast(shape, m, k) || (elem != 2 && elem != 4)) {
    Fail(api, "invalid shape or data type size %u (2 or 4)", elem);
    return;
  }
  const uint64_t row = SoftmaxRowBytes(k, update);
  const uint32_t split = static_cast<uint32_t>(std::min<uint64_t>(m, workspace / row));
  t.srcM = m;
  t.srcK = k;
  t.srcSize = m * k;
  t.outMaxM = m;
  t.outMaxK = out_k_override != 0 ? out_k_override : kBlock / elem;
  t.outMaxSize = m * t.outMaxK;
  if (split == 0) {
    // The kernel-side API refuses a tiling without rows (splitM 0).
    Fail(api, "localWorkSpaceSize %u is below the %llu bytes one row needs", workspace,
         static_cast<unsigned long long>(row));
    return;
  }
  t.splitM = split;
  t.splitK = k;
  t.splitSize = split * k;
  t.reduceM = split;
  t.reduceK = t.outMaxK;
  t.reduceSize = split * t.reduceK;
  t.rangeM = m / split;
  t.tailM = m % split;
  t.tailSplitSize = t.tailM * k;
  t.tailReduceSize = t.tailM * t.reduceK;
}

// optiling::SoftMaxTiling and optiling::LogSoftMaxTiling: the same fields.
template <typename Host>
void ToHost(const tiling::SoftMaxTiling& s, Host& d) {
  d.set_srcM(s.srcM);
  d.set_srcK(s.srcK);
  d.set_srcSize(s.srcSize);
  d.set_outMaxM(s.outMaxM);
  d.set_outMaxK(s.outMaxK);
  d.set_outMaxSize(s.outMaxSize);
  d.set_splitM(s.splitM);
  d.set_splitK(s.splitK);
  d.set_splitSize(s.splitSize);
  d.set_reduceM(s.reduceM);
  d.set_reduceK(s.reduceK);
  d.set_reduceSize(s.reduceSize);
  d.set_rangeM(s.rangeM);
  d.set_tailM(s.tailM);
  d.set_tailSplitSize(s.tailSplitSize);
  d.set_tailReduceSize(s.tailReduceSize);
}

// Pad and UnPad: [height, width] with width > 0, the element size 2 or 4; the staged row's bytes.
bool RowShape(const char* api, const ge::Shape& shape, uint32_t elem, uint32_t& h, uint32_t& w, uint64_t& row) {
  if (shape.GetDimNum() != 2 || !RowsAndLast(shape, h, w) || (elem != 2 && elem != 4)) {
    Fail(api, "the shape must be [height, width] (positive) and the type size 2 or 4 (got %u)", elem);
    return false;
  }
  row = AlignBlock(static_cast<uint64_t>(w) * elem);
  return true;
}

// Pad's and UnPad's temporary sizes: one staged row at least, every row at most (0 for invalid arguments).
void RowsTmp(const char* api, const ge::Shape& shape, uint32_t elem, uint32_t& max, uint32_t& min) {
  uint32_t h = 0, w = 0;
  uint64_t row = 0;
  max = min = 0;
  if (!RowShape(api, shape, elem, h, w, row)) return;
  min = Clamp32(row);
  max = Clamp32(row * h);
}

// Rows per step in `stack` bytes; 0 (with the reason in the log) when not even one fits.
uint32_t StepRows(const char* api, uint32_t h, uint64_t row, uint32_t stack) {
  const uint32_t rows = static_cast<uint32_t>(std::min<uint64_t>(h, stack / row));
  if (rows == 0) {
    Fail(api, "stackBufferSize %u is below the %llu bytes one row needs", stack, static_cast<unsigned long long>(row));
  }
  return rows;
}

}  // namespace

uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool) {
  return SoftmaxTmp("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize, false, true);
}
uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool) {
  return SoftmaxTmp("GetSoftMaxMinTmpSize", srcShape, dataTypeSize, false, false);
}
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       AscendC::tiling::SoftMaxTiling& softmaxTiling) {
  FillSoftmax("SoftMaxTilingFunc", srcShape, dataTypeSize, localWorkSpaceSize, false, 0, softmaxTiling);
}
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       optiling::SoftMaxTiling& softmaxTiling) {
  tiling::SoftMaxTiling t;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
  ToHost(t, softmaxTiling);
}

// LogSoftMax: SoftMax's tiling (the sim's LogSoftMax keeps the same float row, max and sum).
uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return GetSoftMaxMaxTmpSize(srcShape, dataTypeSize, isReuseSource);
}
uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource) {
  return GetSoftMaxMinTmpSize(srcShape, dataTypeSize, isReuseSource);
}
void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          AscendC::tiling::LogSoftMaxTiling& softmaxTiling) {
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, softmaxTiling);
}
void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling) {
  tiling::LogSoftMaxTiling t;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
  ToHost(t, softmaxTiling);
}

uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t,
                                     const bool isUpdate, const bool, const bool) {
  return SoftmaxTmp("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, isUpdate, false);
}
uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t,
                                     const bool isUpdate, const bool, const bool) {
  return SoftmaxTmp("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, isUpdate, true);
}
void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool, const bool isFlashOutputBrc) {
  if (dataTypeSize1 != 2 && dataTypeSize1 != 4) {
    Fail("SoftMaxFlashV2TilingFunc", "dataTypeSize1 %u is not 2 or 4", dataTypeSize1);
    softmaxFlashTiling = tiling::SoftMaxTiling{};
    return;
  }
  FillSoftmax("SoftMaxFlashV2TilingFunc", srcShape, dataTypeSize2, localWorkSpaceSize, isUpdate,
              isFlashOutputBrc ? 1u : 0u, softmaxFlashTiling);
}
void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool isBasicBlock, const bool isFlashOutputBrc) {
  tiling::SoftMaxTiling t;
  SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock,
                           isFlashOutputBrc);
  ToHost(t, softmaxFlashTiling);
}

void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  RowsTmp("GetPadMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, AscendC::tiling::PadTiling& tiling) {
  tiling = AscendC::tiling::PadTiling{};
  uint32_t h = 0, w = 0, oh = 0, ow = 0;
  uint64_t row = 0;
  if (!RowShape("PadTilingFunc", srcShape, typeSize, h, w, row)) return;
  if (oriSrcShape.GetDimNum() != 2 || !RowsAndLast(oriSrcShape, oh, ow) || oh != h || ow > w) {
    Fail("PadTilingFunc", "oriSrcShape must be [height, oriWidth] with the source's height and oriWidth <= width");
    return;
  }
  tiling.srcHeight = h;
  tiling.srcWidth = w;
  tiling.srcOriWidth = ow;
  tiling.blocksPerRow = static_cast<uint32_t>(row / kBlock);
  tiling.widthWithoutLastBlock = (tiling.blocksPerRow - 1) * kBlock / typeSize;
  tiling.widthTiling = w;
  tiling.widthFractal = 1;
  tiling.maxRepeatTimes = 255;
  const uint32_t rows = StepRows("PadTilingFunc", h, row, stackBufferSize);
  if (rows == 0) return;
  tiling.heightTiling = rows;
  tiling.heightFractal = h / rows;
  tiling.heightFractalTail = h % rows;
  tiling.mainLoopOffset = rows * w;
  tiling.tailBlockOffset = tiling.heightFractal * rows * w;
  tiling.tmpBuffer1RowNum = rows;
  tiling.tmpBuffer1BlockNum = rows * tiling.blocksPerRow;
  tiling.tmpBuffer2Offset = tiling.tmpBuffer1BlockNum * kBlock / typeSize;
}

void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, optiling::PadTiling& tiling) {
  AscendC::tiling::PadTiling t;
  PadTilingFunc(srcShape, oriSrcShape, stackBufferSize, typeSize, t);
  tiling.set_srcHeight(t.srcHeight);
  tiling.set_srcWidth(t.srcWidth);
  tiling.set_srcOriWidth(t.srcOriWidth);
  tiling.set_widthWithoutLastBlock(t.widthWithoutLastBlock);
  tiling.set_blocksPerRow(t.blocksPerRow);
  tiling.set_heightTiling(t.heightTiling);
  tiling.set_heightFractal(t.heightFractal);
  tiling.set_heightFractalTail(t.heightFractalTail);
  tiling.set_mainLoopOffset(t.mainLoopOffset);
  tiling.set_tailBlockOffset(t.tailBlockOffset);
  tiling.set_tmpBuffer1BlockNum(t.tmpBuffer1BlockNum);
  tiling.set_tmpBuffer1RowNum(t.tmpBuffer1RowNum);
  tiling.set_tmpBuffer2Offset(t.tmpBuffer2Offset);
  tiling.set_widthTiling(t.widthTiling);
  tiling.set_widthFractal(t.widthFractal);
  tiling.set_widthFractalTail(t.widthFractalTail);
  tiling.set_widthFractalTailAlingned(t.widthFractalTailAlingned);
  tiling.set_brcbTiling(t.brcbTiling);
  tiling.set_brcbFractal(t.brcbFractal);
  tiling.set_brcbFractalTail(t.brcbFractalTail);
  tiling.set_maxRepeatTimes(t.maxRepeatTimes);
  tiling.set_brcbTilingRepeatTimes(t.brcbTilingRepeatTimes);
  tiling.set_brcbTilingRepeatTimesTail(t.brcbTilingRepeatTimesTail);
  tiling.set_brcbFractalTailRepeatTimes(t.brcbFractalTailRepeatTimes);
  tiling.set_brcbFractalTailRepeatTimesTail(t.brcbFractalTailRepeatTimesTail);
  tiling.set_reserved(t.reserved);
}

void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const ge::Shape& srcShape,
                           const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  RowsTmp("GetUnPadMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     AscendC::tiling::UnPadTiling& tiling) {
  tiling = AscendC::tiling::UnPadTiling{};
  uint32_t h = 0, w = 0;
  uint64_t row = 0;
  if (!RowShape("UnPadTilingFunc", srcShape, typeSize, h, w, row)) return;
  tiling.srcHeight = h;
  tiling.srcWidth = w;
  tiling.widthTiling = w;
  tiling.widthFractal = 1;
  const uint32_t rows = StepRows("UnPadTilingFunc", h, row, stackBufferSize);
  if (rows == 0) return;
  tiling.tmpBuffer1RowNum = rows;
  tiling.tmpBuffer1BlockNum = rows * static_cast<uint32_t>(row / kBlock);
  tiling.tmpBuffer2Offset = tiling.tmpBuffer1BlockNum * kBlock / typeSize;
}

void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     optiling::UnPadTiling& tiling) {
  AscendC::tiling::UnPadTiling t;
  UnPadTilingFunc(srcShape, stackBufferSize, typeSize, t);
  tiling.set_srcHeight(t.srcHeight);
  tiling.set_srcWidth(t.srcWidth);
  tiling.set_tmpBuffer1BlockNum(t.tmpBuffer1BlockNum);
  tiling.set_tmpBuffer1RowNum(t.tmpBuffer1RowNum);
  tiling.set_tmpBuffer2Offset(t.tmpBuffer2Offset);
  tiling.set_widthTiling(t.widthTiling);
  tiling.set_widthFractal(t.widthFractal);
  tiling.set_widthFractalTail(t.widthFractalTail);
}

}  // namespace AscendC
