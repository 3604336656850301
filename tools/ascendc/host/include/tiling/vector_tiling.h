// The host tiling functions of Ascend C's vector library APIs (SoftMax, SimpleSoftMax, LogSoftMax,
// SoftmaxFlashV2, Pad, UnPad): the temporary-buffer sizes a kernel must reserve and the tiling structures
// the kernel-side APIs read. What every field means on the simulated NPU is in docs/kernels.md ("Host
// tiling", "Vector tilings"). Included by tiling/tiling_api.h; in libtiling_api.so.
#ifndef NPURT_TILING_VECTOR_TILING_H_
#define NPURT_TILING_VECTOR_TILING_H_

#include <cstdint>

#include "graph/tensor.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"

namespace AscendC {

// SoftMax / SimpleSoftMax. srcShape: [..., K], the rows are the product of the leading dimensions;
// dataTypeSize: the size of the max and sum elements (half = 2, float = 4).
uint32_t GetSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
uint32_t GetSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       optiling::SoftMaxTiling& softmaxTiling);
void SoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       AscendC::tiling::SoftMaxTiling& softmaxTiling);

// LogSoftMax: the same tiling as SoftMax, in its own type.
uint32_t GetLogSoftMaxMaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
uint32_t GetLogSoftMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize, const bool isReuseSource);
void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling);
void LogSoftMaxTilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          AscendC::tiling::LogSoftMaxTiling& softmaxTiling);

// SoftmaxFlashV2. dataTypeSize1: the source elements; dataTypeSize2: the max and sum elements.
uint32_t GetSoftMaxFlashV2MinTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);
uint32_t GetSoftMaxFlashV2MaxTmpSize(const ge::Shape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const bool isUpdate, const bool isBasicBlock = false,
                                     const bool isFlashOutputBrc = false);
void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false);
void SoftMaxFlashV2TilingFunc(const ge::Shape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool isBasicBlock = false, const bool isFlashOutputBrc = false);

// Pad: srcShape [height, width] (width: the row's storage, oriSrcShape's width the valid elements);
// typeSize: the element size (2 or 4); stackBufferSize: the bytes of temporary buffer the kernel gives Pad.
void GetPadMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, optiling::PadTiling& tiling);
void PadTilingFunc(const ge::Shape srcShape, const ge::Shape oriSrcShape, const uint32_t stackBufferSize,
                   const uint32_t typeSize, AscendC::tiling::PadTiling& tiling);

// UnPad: srcShape [height, width].
void GetUnPadMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const ge::Shape& srcShape,
                           const uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     optiling::UnPadTiling& tiling);
void UnPadTilingFunc(const ge::Shape srcShape, const uint32_t stackBufferSize, const uint32_t typeSize,
                     AscendC::tiling::UnPadTiling& tiling);

}  // namespace AscendC

// Calls that name no namespace find the functions through their optiling:: argument.
namespace optiling {
using AscendC::LogSoftMaxTilingFunc;
using AscendC::PadTilingFunc;
using AscendC::SoftMaxFlashV2TilingFunc;
using AscendC::SoftMaxTilingFunc;
using AscendC::UnPadTilingFunc;
}  // namespace optiling

#endif  // NPURT_TILING_VECTOR_TILING_H_
