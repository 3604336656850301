// The host side of Ascend C's element-wise library APIs (npurt_kernel/adv_math.h): AscendC::TensorShape
// and the temporary-buffer sizes the kernels are told to reserve (GetXxxMaxMinTmpSize,
// GetXxxTmpBufferFactorSize). Header-only; included by tiling/tiling_api.h.
//
// The sim computes these functions without scratch space, so any size works on it. The sizes returned
// follow the library's documented shape (maxTmp = maxLiveNodeCount * inputSize * typeSize + extraBuf,
// min = the same for one 256-byte vector repeat) with the live nodes of a float working copy: a kernel
// whose tiling divides its unified buffer by them gets tiles that would also fit a real device.
#ifndef NPURT_TILING_ADV_MATH_TILING_H_
#define NPURT_TILING_ADV_MATH_TILING_H_

#include <algorithm>
#include <cstdint>

#include "graph/tensor.h"

namespace AscendC {

// The library's name for the host shape its tiling functions take.
using TensorShape = ge::Shape;

namespace npurt_adv_tiling {
constexpr uint32_t kRepeatBytes = 256;  // one vector repeat

// Live float-sized nodes per input element: one float copy (two for half, whose float copy is twice its
// size) times the function's intermediate results.
inline uint32_t Nodes(uint32_t typeSize, uint32_t intermediates) {
  return intermediates * (typeSize == 2 ? 2u : 1u);
}

inline void MaxMin(const ge::Shape& shape, uint32_t typeSize, uint32_t intermediates, uint32_t& maxValue,
                   uint32_t& minValue) {
  const int64_t n = shape.GetShapeSize();
  const uint64_t elems = n > 0 ? static_cast<uint64_t>(n) : 0;
  const uint64_t nodes = Nodes(typeSize, intermediates);
  const uint64_t max = nodes * std::max<uint64_t>(elems * typeSize, kRepeatBytes);
  maxValue = static_cast<uint32_t>(std::min<uint64_t>(max, UINT32_MAX));
  minValue = static_cast<uint32_t>(nodes * kRepeatBytes);
}

inline void Factor(uint32_t typeSize, uint32_t intermediates, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  maxLiveNodeCount = Nodes(typeSize, intermediates);
  extraBuf = 0;
}
}  // namespace npurt_adv_tiling

// GetXxxMaxMinTmpSize(srcShape, typeSize, isReuseSource, maxValue, minValue) and
// GetXxxTmpBufferFactorSize(typeSize, maxLiveNodeCount, extraBuf) for each function; the second argument
// of X is the intermediates that function keeps per element.
#define NPURT_ADV_TILING_FUNCS(X) \
  X(Acosh, 2) X(Ceil, 1) X(Frac, 1) X(Erf, 3) X(Log, 1) X(Exp, 2) X(Sigmoid, 1) X(GeGLU, 2) X(Xor, 1) \
  X(Clamp, 1) X(Fmod, 2) X(Axpy, 1) X(Sin, 3) X(Cos, 3) X(Tan, 4) X(Tanh, 2) X(Asin, 3) X(Acos, 3) X(Atan, 4) \
  X(Sinh, 2) X(Cosh, 2) X(Asinh, 2) X(Atanh, 2) X(Floor, 1) X(Round, 1) X(Rint, 1) X(Sign, 2) X(Trunc, 1)      \
  X(IsFinite, 1) X(Erfc, 4) X(Digamma, 5) X(Lgamma, 6)
#define NPURT_ADV_TILING_DEFINE(Name, k)                                                                    \
  inline void Get##Name##MaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize,                   \
                                       const bool isReuseSource, uint32_t& maxValue, uint32_t& minValue) {   \
    (void)isReuseSource;                                                                                     \
    npurt_adv_tiling::MaxMin(srcShape, typeSize, k, maxValue, minValue);                                     \
  }                                                                                                          \
  inline void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount,            \
                                             uint32_t& extraBuf) {                                           \
    npurt_adv_tiling::Factor(typeSize, k, maxLiveNodeCount, extraBuf);                                       \
  }
NPURT_ADV_TILING_FUNCS(NPURT_ADV_TILING_DEFINE)
#undef NPURT_ADV_TILING_DEFINE
#undef NPURT_ADV_TILING_FUNCS

// Swish and Silu name theirs GetXxxTmpSize.
inline void GetSwishTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                            uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 1, maxValue, minValue);
}
inline void GetSiluTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, const bool isReuseSource,
                           uint32_t& maxValue, uint32_t& minValue) {
  (void)isReuseSource;
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 1, maxValue, minValue);
}

// SwiGLU takes isReuseSource last.
inline void GetSwiGLUMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue, const bool isReuseSource = false) {
  (void)isReuseSource;
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 2, maxValue, minValue);
}

// Gelu returns the two sizes separately.
inline uint32_t GetGeluMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0;
  uint32_t minValue = 0;
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 2, maxValue, minValue);
  return maxValue;
}
inline uint32_t GetGeluMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0;
  uint32_t minValue = 0;
  npurt_adv_tiling::MaxMin(srcShape, typeSize, 2, maxValue, minValue);
  return minValue;
}

// Power: the shapes of base and exponent (a scalar side is shape {1}); the larger one sizes the buffer.
inline void GetPowerMaxMinTmpSize(const ge::Shape& srcShape1, const ge::Shape& srcShape2, const bool typeIsInt,
                                  const uint32_t typeSize, const bool isReuseSource, uint32_t& maxValue,
                                  uint32_t& minValue) {
  (void)isReuseSource;
  const ge::Shape& shape = srcShape1.GetShapeSize() >= srcShape2.GetShapeSize() ? srcShape1 : srcShape2;
  npurt_adv_tiling::MaxMin(shape, typeSize, typeIsInt ? 3 : 2, maxValue, minValue);
}

}  // namespace AscendC

#endif  // NPURT_TILING_ADV_MATH_TILING_H_
