// Ascend C's quantization library APIs for the sim (Atlas A2 forms): AscendQuant per tensor (half/float
// to int8_t) and AscendDequant (int32_t to half/float/bfloat16_t with a vector or scalar deqScale).
// Part of kernel_operator.h.
//
// Each follows the library's documented steps, with their roundings, so the results are the device's:
//   AscendQuant:   src, scale and offset to half; t = half(src * scale); t = half(t + offset);
//                  dst = int8 (round half to even, saturating).
//   AscendDequant: src and deqScale to float; dst = dstT(float(src) * scale) (round to nearest even), row
//                  by row over DequantParams {m, n, calCount}.
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

}  // namespace AscendC
