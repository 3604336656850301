// The host side of Ascend C's Welford library APIs (npurt_kernel/adv_welford.h): their temporary-buffer sizes.
// Header-only; included by tiling/tiling_api.h. The sim needs no scratch space; the sizes follow the library's
// shape (WelfordUpdate: float working copies of the [rnLength, abLength] input, two of them, plus one more
// for a half x; WelfordFinalize: two float copies of the abLength partial results plus the outputs' blocks).
#ifndef NPURT_TILING_ADV_WELFORD_TILING_H_
#define NPURT_TILING_ADV_WELFORD_TILING_H_

#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

namespace npurt_welford_tiling {
inline bool Elements(const ge::Shape& shape, uint64_t& n) {
  if (shape.GetDimNum() == 0) return false;
  n = 1;
  for (size_t i = 0; i < shape.GetDimNum(); ++i) {
    if (shape.GetDim(i) <= 0) return false;
    n *= static_cast<uint64_t>(shape.GetDim(i));
  }
  return true;
}
inline uint32_t Align32(uint64_t bytes) { return static_cast<uint32_t>((bytes + 31) / 32 * 32); }
}  // namespace npurt_welford_tiling

inline bool GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT,
                                          const uint32_t typeSizeU, const bool isReuseSource, const bool isInplace,
                                          uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  (void)isInplace;
  uint64_t n = 0;
  if (!npurt_welford_tiling::Elements(srcShape, n) || (typeSizeT != 2 && typeSizeT != 4) || typeSizeU != 4) {
    return false;
  }
  const uint64_t copies = typeSizeT == 2 ? 3 : 2;
  maxValue = npurt_welford_tiling::Align32(n * copies * 4);
  minValue = npurt_welford_tiling::Align32(copies * 64 * 4);  // one 256-byte repeat per copy
  if (minValue > maxValue) minValue = maxValue;
  return true;
}

inline bool GetWelfordFinalizeMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,
                                            const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  uint64_t n = 0;
  if (!npurt_welford_tiling::Elements(srcShape, n) || typeSize != 4) return false;
  maxValue = npurt_welford_tiling::Align32(n * 2 * 4 + 2 * 32);
  minValue = npurt_welford_tiling::Align32(2 * 64 * 4 + 2 * 32);
  if (minValue > maxValue) minValue = maxValue;
  return true;
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_WELFORD_TILING_H_
