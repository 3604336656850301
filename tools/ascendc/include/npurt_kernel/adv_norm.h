// Ascend C's normalization library APIs for the sim: DeepNorm and RmsNorm over [B, S, H] tensors whose rows
// (H elements, of which the first originalHLength are data) are normalised one by one. Part of
// kernel_operator.h; the host tilings are tiling/adv_norm_tiling.h.
//
// Each row is computed in double from its elements (converted from half/float) and every result is rounded
// once to the tensor's type, so the sim needs no scratch space: sharedTmpBuffer is accepted and left untouched.
// Statistics (mean, variance, mean square) are over the first originalHLength elements of the row; every one
// of the row's H outputs is written (padding elements are normalised with the row's statistics, as the
// library's vector code does). The shape comes from the tiling's bLength, sLength, hLength, originalHLength.
#pragma once

#include <cmath>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npurt_kernel/adv_math.h"

namespace AscendC {

namespace npurt_detail {

// The tensor holds at least n elements (and they lie in the unified buffer).
template <typename T>
inline void NormCheck(const LocalTensor<T>& t, uint64_t n, const char* api, const char* what) {
  if (n > t.GetSize()) Fail("%s: %s holds %u elements, the tiling needs %llu", api, what, t.GetSize(),
                            static_cast<unsigned long long>(n));
  CheckLocal(t.GetPhyAddr(), n * sizeof(T), api);
}

struct NormShape {
  uint64_t rows;
  uint32_t h;
  uint32_t valid;
};

inline NormShape NormShapeOf(uint32_t b, uint32_t s, uint32_t h, uint32_t oh, const char* api) {
  if (h == 0 || oh == 0 || oh > h) Fail("%s: tiling with hLength %u and originalHLength %u", api, h, oh);
  return {uint64_t{b} * s, h, oh};
}

}  // namespace npurt_detail

// ---- DeepNorm: y = gamma * (z - mean) / sqrt(variance + epsilon) + beta, z = alpha * x + gx ---------------
// mean and variance (the biased one, over originalHLength) go to meanLocal / rstdLocal, one per row (B*S).
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const T alpha, const T epsilon, DeepNormTiling& tiling) {
  static_assert(npurt_detail::kAdvFloat<T>, "DeepNorm takes half or float tensors");
  (void)sharedTmpBuffer;
  constexpr const char* kApi = "DeepNorm";
  const auto sh = npurt_detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                            kApi);
  const uint64_t n = sh.rows * sh.h;
  npurt_detail::NormCheck(dstLocal, n, kApi, "dstLocal");
  npurt_detail::NormCheck(srcLocal, n, kApi, "srcLocal");
  npurt_detail::NormCheck(gxLocal, n, kApi, "gxLocal");
  npurt_detail::NormCheck(betaLocal, sh.h, kApi, "betaLocal");
  npurt_detail::NormCheck(gammaLocal, sh.h, kApi, "gammaLocal");
  npurt_detail::NormCheck(meanLocal, sh.rows, kApi, "meanLocal");
  npurt_detail::NormCheck(rstdLocal, sh.rows, kApi, "rstdLocal");
  const double a = npurt_detail::AdvLoad(alpha);
  const double eps = npurt_detail::AdvLoad(epsilon);
  std::vector<double> z(sh.h);
  for (uint64_t r = 0; r < sh.rows; ++r) {
    const T* x = srcLocal.GetPhyAddr() + r * sh.h;
    const T* gx = gxLocal.GetPhyAddr() + r * sh.h;
    double sum = 0;
    for (uint32_t j = 0; j < sh.h; ++j) {
      z[j] = a * npurt_detail::AdvLoad(x[j]) + npurt_detail::AdvLoad(gx[j]);
      if (j < sh.valid) sum += z[j];
    }
    const double mean = sum / sh.valid;
    double sq = 0;
    for (uint32_t j = 0; j < sh.valid; ++j) sq += (z[j] - mean) * (z[j] - mean);
    const double var = sq / sh.valid;
    const double inv = 1.0 / std::sqrt(var + eps);
    T* y = dstLocal.GetPhyAddr() + r * sh.h;
    for (uint32_t j = 0; j < sh.h; ++j) {
      y[j] = npurt_detail::AdvStore<T>(npurt_detail::AdvLoad(gammaLocal.GetPhyAddr()[j]) * (z[j] - mean) * inv +
                                       npurt_detail::AdvLoad(betaLocal.GetPhyAddr()[j]));
    }
    meanLocal.GetPhyAddr()[r] = npurt_detail::AdvStore<T>(mean);
    rstdLocal.GetPhyAddr()[r] = npurt_detail::AdvStore<T>(var);
  }
}
template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
                                DeepNormTiling& tiling) {
  DeepNorm<T, isReuseSrc, isBasicBlock>(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal,
                                        LocalTensor<uint8_t>(), alpha, epsilon, tiling);
}

// ---- RmsNorm: y = x / sqrt(mean(x^2) + epsilon) * gamma --------------------------------------------------
template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                               const T epsilon, const RmsNormTiling& tiling) {
  static_assert(npurt_detail::kAdvFloat<T>, "RmsNorm takes half or float tensors");
  (void)sharedTmpBuffer;
  constexpr const char* kApi = "RmsNorm";
  const auto sh = npurt_detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                            kApi);
  const uint64_t n = sh.rows * sh.h;
  npurt_detail::NormCheck(dstLocal, n, kApi, "dstLocal");
  npurt_detail::NormCheck(srcLocal, n, kApi, "srcLocal");
  npurt_detail::NormCheck(gammaLocal, sh.h, kApi, "gammaLocal");
  const double eps = npurt_detail::AdvLoad(epsilon);
  for (uint64_t r = 0; r < sh.rows; ++r) {
    const T* x = srcLocal.GetPhyAddr() + r * sh.h;
    double sq = 0;
    for (uint32_t j = 0; j < sh.valid; ++j) sq += npurt_detail::AdvLoad(x[j]) * npurt_detail::AdvLoad(x[j]);
    const double inv = 1.0 / std::sqrt(sq / sh.valid + eps);
    T* y = dstLocal.GetPhyAddr() + r * sh.h;
    for (uint32_t j = 0; j < sh.h; ++j) {
      y[j] = npurt_detail::AdvStore<T>(npurt_detail::AdvLoad(x[j]) * inv *
                                       npurt_detail::AdvLoad(gammaLocal.GetPhyAddr()[j]));
    }
  }
}
template <typename T, bool isBasicBlock = false>
__aicore__ inline void RmsNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                               const LocalTensor<T>& gammaLocal, const T epsilon, const RmsNormTiling& tiling) {
  RmsNorm<T, isBasicBlock>(dstLocal, srcLocal, gammaLocal, LocalTensor<uint8_t>(), epsilon, tiling);
}

}  // namespace AscendC
