// The host side of Ascend C's sort library APIs (npurt_kernel/adv_sort.h): TopK's tiling and temporary-buffer
// sizes, SortConfig / SortType and the high-level Sort's sizes. Header-only; included by tiling/tiling_api.h.
//
// The sim sorts on the host and needs no scratch space; the sizes follow the library's shape (sort
// structures of 8 bytes per element, two copies of a row, or of all rows in TOPK_NSMALL, plus the indices).
// TopKTilingFunc fills the tiling's sizes and alignments; the mask / offset fields stay 0 (the sim reads none).
#ifndef NPURT_TILING_ADV_SORT_TILING_H_
#define NPURT_TILING_ADV_SORT_TILING_H_

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "tiling/adv_quant_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"

namespace AscendC {

namespace npurt_sort_tiling {
inline uint32_t Align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); }

inline bool TopKOk(int32_t inner, int32_t outter, uint32_t typeSize, TopKMode mode) {
  if (inner <= 0 || outter <= 0 || inner % 32 != 0 || (typeSize != 2 && typeSize != 4)) return false;
  return mode == TopKMode::TOPK_NORMAL || inner == 32;
}

inline uint32_t TopKBytes(int32_t inner, int32_t outter, TopKMode mode, bool isInitIndex) {
  const uint64_t rows = mode == TopKMode::TOPK_NSMALL ? static_cast<uint64_t>(outter) : 1;
  const uint64_t elems = rows * static_cast<uint64_t>(inner);
  return Align32(elems * 8 * 2 + (isInitIndex ? 0 : elems * 4));
}
}  // namespace npurt_sort_tiling

inline bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                                 const int32_t outter, const bool isReuseSource, const bool isInitIndex,
                                 enum TopKMode mode, const bool isLargest, const uint32_t dataTypeSize,
                                 uint32_t& maxValue, uint32_t& minValue) {
  (void)ascendcPlatform;
  (void)isReuseSource;
  (void)isLargest;
  if (!npurt_sort_tiling::TopKOk(inner, outter, dataTypeSize, mode)) return false;
  minValue = npurt_sort_tiling::TopKBytes(inner, outter, mode, isInitIndex);
  maxValue = minValue;
  return true;
}

inline bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner,
                           const int32_t outter, const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex,
                           enum TopKMode mode, const bool isLargest, optiling::TopkTiling& topKTiling) {
  (void)ascendcPlatform;
  (void)isLargest;
  if (!npurt_sort_tiling::TopKOk(inner, outter, dataTypeSize, mode) || k < 1 || k > inner) return false;
  const int32_t elems = mode == TopKMode::TOPK_NSMALL ? inner * outter : inner;
  topKTiling.set_tmpLocalSize(static_cast<int32_t>(npurt_sort_tiling::TopKBytes(inner, outter, mode, isInitIndex) /
                                                   dataTypeSize));
  topKTiling.set_allDataSize(inner * outter);
  topKTiling.set_innerDataSize(inner);
  topKTiling.set_sortRepeat(static_cast<uint32_t>(elems / 32));
  topKTiling.set_mrgSortRepeat(elems / 32);
  topKTiling.set_kAlignFourBytes((k + 7) / 8 * 8);
  topKTiling.set_kAlignTwoBytes((k + 15) / 16 * 16);
  topKTiling.set_copyUbToUbBlockCount(static_cast<uint32_t>(inner * dataTypeSize / 32));
  return true;
}

// ---- Sort -----------------------------------------------------------------------------------------------
enum class SortType { RADIX_SORT, MERGE_SORT };

struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
};

// One copy of the elements as sort structures (8 bytes each) at least, two at most.
inline bool GetSortMaxMinTmpSize(const TensorShape& srcShape, const TensorDataType valueType,
                                 const TensorDataType indexType, const bool isReuseSource, const SortConfig& config,
                                 uint32_t& maxValue, uint32_t& minValue) {
  (void)valueType;
  (void)indexType;
  (void)isReuseSource;
  (void)config;
  uint64_t n = 1;
  for (size_t i = 0; i < srcShape.GetDimNum(); ++i) {
    if (srcShape.GetDim(i) <= 0) return false;
    n *= static_cast<uint64_t>(srcShape.GetDim(i));
  }
  minValue = npurt_sort_tiling::Align32(n * 8);
  maxValue = npurt_sort_tiling::Align32(n * 16);
  return true;
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_SORT_TILING_H_
