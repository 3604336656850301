// Ascend C's quantization library APIs for the sim (Atlas A2 forms): AscendQuant per tensor (half/float
// to int8_t), AscendDequant (int32_t to half/float/bfloat16_t with a vector or scalar deqScale) and
// AscendAntiQuant (int8_t to half/bfloat16_t, per channel/group or per tensor). Part of kernel_operator.h.
//
// Each follows the library's documented steps, with their roundings, so the results are the device's:
//   AscendQuant:   src, scale and offset to half; t = half(src * scale); t = half(t + offset);
//                  dst = int8 (round half to even, saturating).
//   AscendDequant: src and deqScale to float; dst = dstT(float(src) * scale) (round to nearest even), row
//                  by row over DequantParams {m, n, calCount}.
//   AscendAntiQuant: dst = scale * (src + offset); half out: src to half, half add, half multiply; bfloat16
//                  out: src (via half), offset and scale to float, float add and multiply, one rounding to
//                  bfloat16.
// sharedTmpBuffer is accepted and unused: the sim needs no scratch space (the host sizes are in
// tiling/adv_quant_tiling.h).
#pragma once

#include "npurt_kernel/adv_math.h"

namespace AscendC {

namespace npurt_detail {
inline int8_t QuantToInt8(half v) {
  const float f = static_cast<float>(v);
  if (std::isnan(f)) return 0;
  const float r = std::nearbyint(f);  // the default rounding mode: to nearest, ties to even
  return static_cast<int8_t>(r > 127.0f ? 127.0f : r < -128.0f ? -128.0f : r);
}
}  // namespace npurt_detail

// ---- AscendQuant, per tensor --------------------------------------------------------------------------
template <typename T, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                                   const uint32_t calCount) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "AscendQuant takes half or float");
  (void)sharedTmpBuffer;
  const uint32_t n = npurt_detail::AdvCount(dstTensor, srcTensor, calCount, "AscendQuant");
  const half hs = static_cast<half>(scale);
  const half ho = static_cast<half>(offset);
  const T* s = srcTensor.GetPhyAddr();
  int8_t* d = dstTensor.GetPhyAddr();
  for (uint32_t i = 0; i < n; ++i) {
    const half x = static_cast<half>(static_cast<float>(s[i]));
    const half t = static_cast<half>(static_cast<float>(x) * static_cast<float>(hs));
    const half u = static_cast<half>(static_cast<float>(t) + static_cast<float>(ho));
    d[i] = npurt_detail::QuantToInt8(u);
  }
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset) {
  AscendQuant<T, isReuseSource>(dstTensor, srcTensor, sharedTmpBuffer, scale, offset, srcTensor.GetSize());
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset, const uint32_t calCount) {
  AscendQuant<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scale, offset, calCount);
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                                   const float scale, const float offset) {
  AscendQuant<T, isReuseSource>(dstTensor, srcTensor, LocalTensor<uint8_t>(), scale, offset, srcTensor.GetSize());
}

// ---- AscendDequant --------------------------------------------------------------------------------------
// src is m rows of n int32_t (n * 4 bytes a multiple of 32); in each row the first calCount elements are
// multiplied by deqScale[0 .. calCount) and written to the same place of dst, whose rows are n rounded up
// to 32 bytes of dstT; the rest of each dst row is left as it was.
struct DequantParams {
  uint32_t m;
  uint32_t n;
  uint32_t calCount;
};
// DEQUANT_WITH_SINGLE_ROW: {1, n, calCount} with calCount a multiple of 32 bytes of dstT and n a multiple of
// calCount is computed as {n / calCount, calCount, calCount} (the scale repeats along the row).
enum class DeQuantMode { DEQUANT_WITH_SINGLE_ROW = 0, DEQUANT_WITH_MULTI_ROW };

namespace npurt_detail {
// The float a deqScale element stands for (uint64_t: its low 32 bits hold the float).
template <typename S>
inline float DeqScaleValue(S v) {
  if constexpr (std::is_same<S, uint64_t>::value) {
    const uint32_t lo = static_cast<uint32_t>(v);
    float f;
    std::memcpy(&f, &lo, 4);
    return f;
  } else {
    return static_cast<float>(v);
  }
}

template <typename D, typename S, DeQuantMode mode, typename ScaleAt>
inline void Dequant(const LocalTensor<D>& dst, const LocalTensor<int32_t>& src, DequantParams p, uint32_t scale_count,
                    ScaleAt scale_at) {
  static_assert(std::is_same<D, half>::value || std::is_same<D, float>::value || std::is_same<D, bfloat16_t>::value,
                "AscendDequant: dstT is half, float or bfloat16_t");
  static_assert(std::is_same<S, half>::value || std::is_same<S, float>::value || std::is_same<S, bfloat16_t>::value ||
                    std::is_same<S, uint64_t>::value,
                "AscendDequant: scaleT is half, float, bfloat16_t or uint64_t");
  const uint32_t dst_block = 32 / sizeof(D);
  if (mode == DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 && p.calCount != 0 && p.calCount % dst_block == 0 &&
      p.n % p.calCount == 0) {
    p = DequantParams{p.n / p.calCount, p.calCount, p.calCount};
  }
  if (p.n % 8 != 0) Fail("AscendDequant: a row of n = %u int32_t is not a multiple of 32 bytes", p.n);
  if (p.calCount > p.n) Fail("AscendDequant: calCount %u is more than the row's n = %u", p.calCount, p.n);
  if (p.calCount > scale_count) {
    Fail("AscendDequant: calCount %u is more than the %u elements of deqScale", p.calCount, scale_count);
  }
  const uint32_t n_dst = (p.n + dst_block - 1) / dst_block * dst_block;
  const uint64_t src_elems = uint64_t{p.m} * p.n, dst_elems = uint64_t{p.m} * n_dst;
  if (src_elems > src.GetSize() || dst_elems > dst.GetSize()) {
    Fail("AscendDequant: {m %u, n %u} needs %llu source and %llu destination elements, the tensors hold %u and %u",
         p.m, p.n, static_cast<unsigned long long>(src_elems), static_cast<unsigned long long>(dst_elems),
         src.GetSize(), dst.GetSize());
  }
  CheckLocal(src.GetPhyAddr(), src_elems * 4, "AscendDequant");
  CheckLocal(dst.GetPhyAddr(), dst_elems * sizeof(D), "AscendDequant");
  const int32_t* s = src.GetPhyAddr();
  D* d = dst.GetPhyAddr();
  for (uint32_t r = 0; r < p.m; ++r) {
    for (uint32_t j = 0; j < p.calCount; ++j) {
      const float prod = static_cast<float>(s[uint64_t{r} * p.n + j]) * scale_at(j);
      d[uint64_t{r} * n_dst + j] = static_cast<D>(prod);
    }
  }
}
}  // namespace npurt_detail

// deqScale a vector (its first calCount elements apply to each row).
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
  (void)sharedTmpBuffer;
  const scaleT* sc = deqScale.GetPhyAddr();
  npurt_detail::CheckLocal(sc, uint64_t{deqScale.GetSize()} * sizeof(scaleT), "AscendDequant");
  npurt_detail::Dequant<dstT, scaleT, mode>(dstTensor, srcTensor, params, deqScale.GetSize(),
                                            [sc](uint32_t j) { return npurt_detail::DeqScaleValue(sc[j]); });
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const LocalTensor<scaleT>& deqScale, DequantParams params) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, LocalTensor<uint8_t>(), params);
}
// deqScale a scalar.
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     DequantParams params) {
  (void)sharedTmpBuffer;
  const float v = npurt_detail::DeqScaleValue(deqScale);
  npurt_detail::Dequant<dstT, scaleT, mode>(dstTensor, srcTensor, params, UINT32_MAX, [v](uint32_t) { return v; });
}
template <typename dstT, typename scaleT, DeQuantMode mode = DeQuantMode::DEQUANT_WITH_SINGLE_ROW>
__aicore__ inline void AscendDequant(const LocalTensor<dstT>& dstTensor, const LocalTensor<int32_t>& srcTensor,
                                     const scaleT deqScale, DequantParams params) {
  AscendDequant<dstT, scaleT, mode>(dstTensor, srcTensor, deqScale, LocalTensor<uint8_t>(), params);
}

// ---- AscendAntiQuant ------------------------------------------------------------------------------------
// src is [K, N] (isTranspose false) or [N, K] (true), N = the elements / K. The offset and scale tensors are
// [groups, N] (or [N, groups] transposed) and each group of K / groups rows (columns) shares a row (column)
// of them. Their shape comes from shapeInfo when it is given (non-zero), else from the offset and scale
// tensors' SetShapeInfo (the scale's defaulting to the offset's).
struct AntiQuantShapeInfo {
  uint32_t offsetHeight = 0;
  uint32_t offsetWidth = 0;
  uint32_t scaleHeight = 0;
  uint32_t scaleWidth = 0;
};

namespace npurt_detail {
template <typename O>
inline O AntiQuantOne(int8_t x, O offset, O scale) {
  if constexpr (std::is_same<O, half>::value) {
    const half sum = static_cast<half>(static_cast<float>(x) + static_cast<float>(offset));
    return static_cast<half>(static_cast<float>(sum) * static_cast<float>(scale));
  } else {
    return static_cast<O>((static_cast<float>(x) + static_cast<float>(offset)) * static_cast<float>(scale));
  }
}

// The [height, width] of a per-channel operand: shapeInfo's when set, else the tensor's own ShapeInfo; false
// when neither gives one.
template <typename O>
inline bool AntiQuantShape(const LocalTensor<O>& t, uint32_t height, uint32_t width, uint32_t& h, uint32_t& w) {
  if (height != 0 && width != 0) {
    h = height;
    w = width;
    return true;
  }
  const ShapeInfo info = t.GetShapeInfo();
  if (info.shapeDim != 2) return false;
  h = info.shape[0];
  w = info.shape[1];
  return true;
}

template <typename I, typename O, bool isTranspose, typename OffsetAt, typename ScaleAt>
inline void AntiQuantRun(const LocalTensor<O>& dst, const LocalTensor<I>& src, uint32_t k, uint32_t groups,
                         OffsetAt offset_at, ScaleAt scale_at) {
  static_assert(std::is_same<I, int8_t>::value, "AscendAntiQuant: the sim takes int8_t sources");
  static_assert(std::is_same<O, half>::value || std::is_same<O, bfloat16_t>::value,
                "AscendAntiQuant: the output is half or bfloat16_t");
  const uint32_t total = src.GetSize();
  if (k == 0 || total % k != 0) Fail("AscendAntiQuant: K = %u does not divide the source's %u elements", k, total);
  if (groups == 0 || k % groups != 0) Fail("AscendAntiQuant: K = %u is not a multiple of the %u groups", k, groups);
  if (dst.GetSize() < total) Fail("AscendAntiQuant: dst holds %u elements, src %u", dst.GetSize(), total);
  CheckLocal(src.GetPhyAddr(), total, "AscendAntiQuant");
  CheckLocal(dst.GetPhyAddr(), uint64_t{total} * sizeof(O), "AscendAntiQuant");
  const uint32_t n = total / k, group = k / groups;
  const uint32_t rows = isTranspose ? n : k, cols = isTranspose ? k : n;
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) {
      // The parameter's element: row i / group of [groups, N], or column j / group of [N, groups].
      const uint32_t pr = isTranspose ? i : i / group, pc = isTranspose ? j / group : j;
      const uint64_t e = uint64_t{i} * cols + j;
      dst.GetPhyAddr()[e] = AntiQuantOne<O>(src.GetPhyAddr()[e], offset_at(pr, pc), scale_at(pr, pc));
    }
  }
}
}  // namespace npurt_detail

// Per channel / per group: offset and scale tensors.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t K,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  (void)sharedTmpBuffer;
  // The offset's shape is needed (a sample sets only the offset's); the scale has the same shape unless it
  // says otherwise.
  uint32_t oh = 0, ow = 0;
  if (!npurt_detail::AntiQuantShape(offset, shapeInfo.offsetHeight, shapeInfo.offsetWidth, oh, ow)) {
    npurt_detail::Fail("AscendAntiQuant: the offset tensor has no 2-D shape (SetShapeInfo, or AntiQuantShapeInfo)");
  }
  uint32_t sh = oh, sw = ow;
  npurt_detail::AntiQuantShape(scale, shapeInfo.scaleHeight, shapeInfo.scaleWidth, sh, sw);
  if (oh != sh || ow != sw) {
    npurt_detail::Fail("AscendAntiQuant: offset [%u, %u] and scale [%u, %u] differ in shape", oh, ow, sh, sw);
  }
  const uint32_t n = K == 0 ? 0 : src.GetSize() / K;
  const uint32_t groups = isTranspose ? ow : oh, across = isTranspose ? oh : ow;
  if (across != n) {
    npurt_detail::Fail("AscendAntiQuant: offset/scale [%u, %u] do not match N = %u (%s)", oh, ow, n,
                       isTranspose ? "transposed: [N, groups]" : "[groups, N]");
  }
  if (uint64_t{oh} * ow > offset.GetSize() || uint64_t{oh} * ow > scale.GetSize()) {
    npurt_detail::Fail("AscendAntiQuant: offset/scale [%u, %u] is more than the tensors hold", oh, ow);
  }
  const OutputDataType* po = offset.GetPhyAddr();
  const OutputDataType* ps = scale.GetPhyAddr();
  npurt_detail::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(
      dst, src, K, groups, [po, ow](uint32_t r, uint32_t c) { return po[uint64_t{r} * ow + c]; },
      [ps, ow](uint32_t r, uint32_t c) { return ps[uint64_t{r} * ow + c]; });
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const LocalTensor<OutputDataType>& offset,
                                       const LocalTensor<OutputDataType>& scale, const uint32_t K,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale, LocalTensor<uint8_t>(), K,
                                                              shapeInfo);
}
// Per tensor: offset and scale scalars.
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t K,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  (void)sharedTmpBuffer;
  (void)shapeInfo;
  npurt_detail::AntiQuantRun<InputDataType, OutputDataType, isTranspose>(
      dst, src, K, 1, [offset](uint32_t, uint32_t) { return offset; },
      [scale](uint32_t, uint32_t) { return scale; });
}
template <typename InputDataType, typename OutputDataType, bool isTranspose>
__aicore__ inline void AscendAntiQuant(const LocalTensor<OutputDataType>& dst, const LocalTensor<InputDataType>& src,
                                       const OutputDataType offset, const OutputDataType scale, const uint32_t K,
                                       const AntiQuantShapeInfo& shapeInfo = {}) {
  AscendAntiQuant<InputDataType, OutputDataType, isTranspose>(dst, src, offset, scale, LocalTensor<uint8_t>(), K,
                                                              shapeInfo);
}

}  // namespace AscendC
