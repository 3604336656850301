// Ascend C for npurt's simulated NPU: the library APIs SoftMax, Pad and UnPad, reading the tilings of the
// host tiling functions (tiling/vector_tiling.h; docs/kernels.md, "Vector tilings"; docs/kernel-api.md).
// Part of kernel_operator.h; do not include alone.
//
// SoftMax of a row: max = the row's maximum, e = exp(x - max) in float, sum = the sum of e in float (in
// order), dst = e / sum rounded once to the destination type; the row's max and sum are written to one
// 32-byte block of the max and sum tensors each (every element of the block). Pad and UnPad move rows of a
// 2-D tensor between widths (docs/kernels.md gives the exact layouts).
#pragma once

#include "kernel_tiling/kernel_tiling.h"

namespace AscendC {

struct SoftMaxShapeInfo {
  uint32_t srcM = 0;
  uint32_t srcK = 0;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};

struct SoftmaxConfig {
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0};

struct PadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
  int32_t padValue = 0;
};

struct UnPadParams {
  uint16_t leftPad = 0;
  uint16_t rightPad = 0;
};

namespace npurt_detail {

// Rows and columns of a softmax: the shape info when given (srcK != 0), else the tiling's; checked against
// the tiling, the tensors and the temporary buffer (-1 bytes: none given). A shape info that differs from
// the tiling's shape is taken when check_tiling (SoftmaxConfig::isCheckTiling, the default): the library
// then works out the tiling for the given shape itself, as a kernel whose last tile has fewer rows relies on.
struct SoftMaxShape {
  uint32_t m, k, block;
};

template <typename T, typename R>
inline SoftMaxShape SoftMaxCheck(const char* api, uint32_t dst_size, uint32_t sum_size, uint32_t max_size,
                                 uint32_t src_size, int64_t tmp_bytes, const tiling::SoftMaxTiling& t,
                                 const SoftMaxShapeInfo& info, bool check_tiling = false) {
  SoftMaxShape s{info.srcK != 0 ? info.srcM : t.srcM, info.srcK != 0 ? info.srcK : t.srcK, 32u / sizeof(R)};
  if (info.srcK != 0 && ((info.oriSrcK != 0 && info.oriSrcK != info.srcK) ||
                         (info.oriSrcM != 0 && info.oriSrcM != info.srcM))) {
    Fail("%s: a shape with padding (oriSrcM %u, oriSrcK %u of %u x %u) is not supported on the sim", api,
         info.oriSrcM, info.oriSrcK, info.srcM, info.srcK);
  }
  const bool retiled = check_tiling && info.srcK != 0 && (t.srcM != s.m || t.srcK != s.k);
  if (!retiled && (t.splitM == 0 || t.srcM != s.m || t.srcK != s.k)) {
    Fail("%s: the tiling (%u x %u, %u rows a step) is not one for a %u x %u source (SoftMaxTilingFunc)", api,
         t.srcM, t.srcK, t.splitM, s.m, s.k);
  }
  const uint64_t n = static_cast<uint64_t>(s.m) * s.k;
  const uint64_t reduced = static_cast<uint64_t>(s.m) * s.block;
  if (src_size < n || dst_size < n || sum_size < reduced || max_size < reduced) {
    Fail("%s: %u x %u needs %llu source and destination elements and %llu max and sum elements "
         "(given %u, %u, %u, %u)", api, s.m, s.k, static_cast<unsigned long long>(n),
         static_cast<unsigned long long>(reduced), src_size, dst_size, sum_size, max_size);
  }
  const uint64_t row_bytes = 4ull * s.k + 64;  // GetSoftMaxMinTmpSize
  if (tmp_bytes >= 0 && static_cast<uint64_t>(tmp_bytes) < row_bytes) {
    Fail("%s: the temporary buffer has %lld bytes, one row needs %llu (GetSoftMaxMinTmpSize)", api,
         static_cast<long long>(tmp_bytes), static_cast<unsigned long long>(row_bytes));
  }
  return s;
}

template <typename T, typename R>
inline void SoftMaxRows(T* dst, R* sum, R* max, const T* src, const SoftMaxShape& s) {
  for (uint32_t r = 0; r < s.m; ++r) {
    const T* x = src + static_cast<uint64_t>(r) * s.k;
    T* y = dst + static_cast<uint64_t>(r) * s.k;
    float mx = static_cast<float>(x[0]);
    for (uint32_t i = 1; i < s.k; ++i) mx = std::fmax(mx, static_cast<float>(x[i]));
    float total = 0.0f;
    for (uint32_t i = 0; i < s.k; ++i) total += std::exp(static_cast<float>(x[i]) - mx);
    // Written after the row is read: dst may be src (isReuseSource, or the same tensor).
    for (uint32_t i = 0; i < s.k; ++i) y[i] = static_cast<T>(std::exp(static_cast<float>(x[i]) - mx) / total);
    for (uint32_t j = 0; j < s.block; ++j) {
      max[static_cast<uint64_t>(r) * s.block + j] = static_cast<R>(mx);
      sum[static_cast<uint64_t>(r) * s.block + j] = static_cast<R>(total);
    }
  }
}

template <typename T, typename R>
inline void SoftMaxImpl(const LocalTensor<T>& dst, const LocalTensor<R>& sum, const LocalTensor<R>& max,
                        const LocalTensor<T>& src, int64_t tmp_bytes, const tiling::SoftMaxTiling& tiling,
                        const SoftMaxShapeInfo& info, bool check_tiling = false) {
  const SoftMaxShape s = SoftMaxCheck<T, R>("SoftMax", dst.GetSize(), sum.GetSize(), max.GetSize(), src.GetSize(),
                                            tmp_bytes, tiling, info, check_tiling);
  SoftMaxRows(dst.GetPhyAddr(), sum.GetPhyAddr(), max.GetPhyAddr(), src.GetPhyAddr(), s);
}

template <typename T>
constexpr bool kPadType = std::is_same<T, int16_t>::value || std::is_same<T, uint16_t>::value ||
                          std::is_same<T, half>::value || std::is_same<T, int32_t>::value ||
                          std::is_same<T, uint32_t>::value || std::is_same<T, float>::value;

// The elements of a row padded to 32 bytes.
template <typename T>
inline uint32_t AlignedWidth(uint32_t width) {
  return (width * static_cast<uint32_t>(sizeof(T)) + 31u) / 32u * 32u / static_cast<uint32_t>(sizeof(T));
}

template <typename T>
inline void PadImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const PadParams& params, int64_t tmp_bytes,
                    const tiling::PadTiling& t) {
  static_assert(kPadType<T>, "Pad: the element type must be int16_t, uint16_t, half, int32_t, uint32_t or float");
  const uint32_t h = t.srcHeight, w = t.srcWidth, ori = t.srcOriWidth, aligned = AlignedWidth<T>(w);
  if (h == 0 || t.heightTiling == 0 || ori == 0 || ori > w) {
    Fail("Pad: the tiling (%u x %u, %u valid, %u rows a step) is not one PadTilingFunc made", h, w, ori,
         t.heightTiling);
  }
  if (ori == aligned) Fail("Pad: rows of %u elements are 32-byte aligned and all valid: nothing to pad", w);
  if (src.GetSize() < static_cast<uint64_t>(h) * w || dst.GetSize() < static_cast<uint64_t>(h) * aligned) {
    Fail("Pad: %u x %u padded to %u x %u needs %u source and %u destination elements (given %u, %u)", h, w, h,
         aligned, h * w, h * aligned, src.GetSize(), dst.GetSize());
  }
  if (tmp_bytes >= 0 && static_cast<uint64_t>(tmp_bytes) < aligned * sizeof(T)) {
    Fail("Pad: the temporary buffer has %lld bytes, one row needs %u (GetPadMaxMinTmpSize)",
         static_cast<long long>(tmp_bytes), static_cast<uint32_t>(aligned * sizeof(T)));
  }
  // Last row first: a destination row starts at or after its source row, so in place nothing unread is
  // overwritten.
  const T pad = static_cast<T>(params.padValue);
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t r = h; r-- > 0;) {
    std::memmove(d + static_cast<uint64_t>(r) * aligned, s + static_cast<uint64_t>(r) * w, ori * sizeof(T));
    for (uint32_t c = ori; c < aligned; ++c) d[static_cast<uint64_t>(r) * aligned + c] = pad;
  }
}

template <typename T>
inline void UnPadImpl(const LocalTensor<T>& dst, const LocalTensor<T>& src, const UnPadParams& params,
                      int64_t tmp_bytes, const tiling::UnPadTiling& t) {
  static_assert(kPadType<T>, "UnPad: the element type must be int16_t, uint16_t, half, int32_t, uint32_t or float");
  const uint32_t h = t.srcHeight, w = t.srcWidth;
  if (h == 0 || t.tmpBuffer1RowNum == 0) {
    Fail("UnPad: the tiling (%u x %u, %u rows a step) is not one UnPadTilingFunc made", h, w, t.tmpBuffer1RowNum);
  }
  if (params.rightPad >= w) Fail("UnPad: rightPad %u leaves nothing of rows of %u", params.rightPad, w);
  const uint32_t out = w - params.rightPad;
  if (src.GetSize() < static_cast<uint64_t>(h) * w || dst.GetSize() < static_cast<uint64_t>(h) * out) {
    Fail("UnPad: %u x %u to %u x %u needs %u source and %u destination elements (given %u, %u)", h, w, h, out, h * w,
         h * out, src.GetSize(), dst.GetSize());
  }
  const uint32_t row = AlignedWidth<T>(w) * static_cast<uint32_t>(sizeof(T));
  if (tmp_bytes >= 0 && static_cast<uint64_t>(tmp_bytes) < row) {
    Fail("UnPad: the temporary buffer has %lld bytes, one row needs %u (GetUnPadMaxMinTmpSize)",
         static_cast<long long>(tmp_bytes), row);
  }
  // First row first: a destination row starts at or before its source row.
  T* d = dst.GetPhyAddr();
  const T* s = src.GetPhyAddr();
  for (uint32_t r = 0; r < h; ++r) {
    std::memmove(d + static_cast<uint64_t>(r) * out, s + static_cast<uint64_t>(r) * w, out * sizeof(T));
  }
}

}  // namespace npurt_detail

// SoftMax with the source's type for max and sum (half or float).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not supported on the sim");
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "SoftMax: T must be half or float");
  npurt_detail::SoftMaxImpl(dstTensor, sumTensor, maxTensor, srcTensor, -1, tiling, softmaxShapeInfo,
                            config.isCheckTiling);
}

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                               const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not supported on the sim");
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "SoftMax: T must be half or float");
  npurt_detail::SoftMaxImpl(dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer.GetSize(), tiling,
                            softmaxShapeInfo, config.isCheckTiling);
}

// SoftMax of half data with float max and sum.
template <typename T = half, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not supported on the sim");
  npurt_detail::SoftMaxImpl(dstTensor, sumTensor, maxTensor, srcTensor, -1, tiling, softmaxShapeInfo,
                            config.isCheckTiling);
}

template <typename T = half, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                               const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                               const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                               const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftMax: the NZ data format is not supported on the sim");
  npurt_detail::SoftMaxImpl(dstTensor, sumTensor, maxTensor, srcTensor, sharedTmpBuffer.GetSize(), tiling,
                            softmaxShapeInfo, config.isCheckTiling);
}

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, PadTiling& tiling) {
  npurt_detail::PadImpl(dstTensor, srcTensor, padParams, sharedTmpBuffer.GetSize(), tiling);
}

template <typename T>
__aicore__ inline void Pad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, PadParams& padParams,
                           PadTiling& tiling) {
  npurt_detail::PadImpl(dstTensor, srcTensor, padParams, -1, tiling);
}

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, LocalTensor<uint8_t>& sharedTmpBuffer, UnPadTiling& tiling) {
  npurt_detail::UnPadImpl(dstTensor, srcTensor, unPadParams, sharedTmpBuffer.GetSize(), tiling);
}

template <typename T>
__aicore__ inline void UnPad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                             UnPadParams& unPadParams, UnPadTiling& tiling) {
  npurt_detail::UnPadImpl(dstTensor, srcTensor, unPadParams, -1, tiling);
}

}  // namespace AscendC
