// Ascend C's LayerNorm library APIs for the sim: LayerNorm (mean / variance outputs), LayerNormGrad and
// LayerNormGradBeta over [B, S, H] tensors, row by row (H elements, the first originalHLength of them data).
// Part of kernel_operator.h; the host tilings are tiling/adv_layernorm_tiling.h.
//
// Each row is computed in double from its elements and every result rounded once to T (half or float); the
// sim needs no scratch space (sharedTmpBuffer is accepted and left untouched). Statistics are over the first
// originalHLength elements (N below); all H outputs of a row are written. With d = x - mean and
// r = 1 / sqrt(var + epsilon):
//   LayerNorm:      y = gamma * d * r + beta; mean and the biased variance per row (B*S values).
//   LayerNormGrad:  resForGamma = d * r; g = dy * gamma; pdVar = sum(-0.5 * g * d * r^3);
//                   pdMean = sum(-g * r) + pdVar / N * sum(-2 * d); pdX = pdMean / N + pdVar * 2 / N * d + g * r.
//   LayerNormGradBeta: pdGamma[h] = sum over the B*S rows of dy * resForGamma, pdBeta[h] = sum of dy.
#pragma once

#include <cmath>
#include <vector>

#include "kernel_tiling/kernel_tiling.h"
#include "npurt_kernel/adv_norm.h"

namespace AscendC {

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                                 LayerNormTiling& tiling) {
  static_assert(npurt_detail::kAdvFloat<T>, "LayerNorm takes half or float tensors");
  (void)sharedTmpBuffer;
  constexpr const char* kApi = "LayerNorm";
  const auto sh = npurt_detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                            kApi);
  const uint64_t n = sh.rows * sh.h;
  npurt_detail::NormCheck(output, n, kApi, "output");
  npurt_detail::NormCheck(inputX, n, kApi, "inputX");
  npurt_detail::NormCheck(gamma, sh.h, kApi, "gamma");
  npurt_detail::NormCheck(beta, sh.h, kApi, "beta");
  npurt_detail::NormCheck(outputMean, sh.rows, kApi, "outputMean");
  npurt_detail::NormCheck(outputVariance, sh.rows, kApi, "outputVariance");
  const double eps = npurt_detail::AdvLoad(epsilon);
  for (uint64_t r = 0; r < sh.rows; ++r) {
    const T* x = inputX.GetPhyAddr() + r * sh.h;
    double sum = 0;
    for (uint32_t j = 0; j < sh.valid; ++j) sum += npurt_detail::AdvLoad(x[j]);
    const double mean = sum / sh.valid;
    double sq = 0;
    for (uint32_t j = 0; j < sh.valid; ++j) {
      const double d = npurt_detail::AdvLoad(x[j]) - mean;
      sq += d * d;
    }
    const double var = sq / sh.valid;
    const double inv = 1.0 / std::sqrt(var + eps);
    T* y = output.GetPhyAddr() + r * sh.h;
    for (uint32_t j = 0; j < sh.h; ++j) {
      y[j] = npurt_detail::AdvStore<T>(npurt_detail::AdvLoad(gamma.GetPhyAddr()[j]) *
                                           (npurt_detail::AdvLoad(x[j]) - mean) * inv +
                                       npurt_detail::AdvLoad(beta.GetPhyAddr()[j]));
    }
    outputMean.GetPhyAddr()[r] = npurt_detail::AdvStore<T>(mean);
    outputVariance.GetPhyAddr()[r] = npurt_detail::AdvStore<T>(var);
  }
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling) {
  LayerNorm<T, isReuseSource>(output, outputMean, outputVariance, inputX, gamma, beta, LocalTensor<uint8_t>(),
                              epsilon, tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     T epsilon, LayerNormGradTiling& tiling) {
  static_assert(npurt_detail::kAdvFloat<T>, "LayerNormGrad takes half or float tensors");
  (void)sharedTmpBuffer;
  constexpr const char* kApi = "LayerNormGrad";
  const auto sh = npurt_detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                            kApi);
  const uint64_t n = sh.rows * sh.h;
  npurt_detail::NormCheck(outputPdX, n, kApi, "outputPdX");
  npurt_detail::NormCheck(resForGamma, n, kApi, "resForGamma");
  npurt_detail::NormCheck(inputDy, n, kApi, "inputDy");
  npurt_detail::NormCheck(inputX, n, kApi, "inputX");
  npurt_detail::NormCheck(inputVariance, sh.rows, kApi, "inputVariance");
  npurt_detail::NormCheck(inputMean, sh.rows, kApi, "inputMean");
  npurt_detail::NormCheck(inputGamma, sh.h, kApi, "inputGamma");
  const double eps = npurt_detail::AdvLoad(epsilon);
  const double nv = sh.valid;
  std::vector<double> d(sh.h), g(sh.h);
  for (uint64_t r = 0; r < sh.rows; ++r) {
    const uint64_t base = r * sh.h;
    const double mean = npurt_detail::AdvLoad(inputMean.GetPhyAddr()[r]);
    const double inv = 1.0 / std::sqrt(npurt_detail::AdvLoad(inputVariance.GetPhyAddr()[r]) + eps);
    double pd_var = 0, sum_g = 0, sum_d = 0;
    for (uint32_t j = 0; j < sh.h; ++j) {
      d[j] = npurt_detail::AdvLoad(inputX.GetPhyAddr()[base + j]) - mean;
      g[j] = npurt_detail::AdvLoad(inputDy.GetPhyAddr()[base + j]) * npurt_detail::AdvLoad(inputGamma.GetPhyAddr()[j]);
      if (j < sh.valid) {
        pd_var += -0.5 * g[j] * d[j] * inv * inv * inv;
        sum_g += -g[j] * inv;
        sum_d += -2.0 * d[j];
      }
    }
    const double pd_mean = sum_g + pd_var / nv * sum_d;
    for (uint32_t j = 0; j < sh.h; ++j) {
      resForGamma.GetPhyAddr()[base + j] = npurt_detail::AdvStore<T>(d[j] * inv);
      outputPdX.GetPhyAddr()[base + j] =
          npurt_detail::AdvStore<T>(pd_mean / nv + pd_var * 2.0 / nv * d[j] + g[j] * inv);
    }
  }
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling) {
  LayerNormGrad<T, isReuseSource>(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                                  LocalTensor<uint8_t>(), epsilon, tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const LayerNormGradBetaTiling& tiling) {
  static_assert(npurt_detail::kAdvFloat<T>, "LayerNormGradBeta takes half or float tensors");
  (void)sharedTmpBuffer;
  constexpr const char* kApi = "LayerNormGradBeta";
  const auto sh = npurt_detail::NormShapeOf(tiling.bLength, tiling.sLength, tiling.hLength, tiling.originalHLength,
                                            kApi);
  const uint64_t n = sh.rows * sh.h;
  npurt_detail::NormCheck(resForGamma, n, kApi, "resForGamma");
  npurt_detail::NormCheck(inputDy, n, kApi, "inputDy");
  npurt_detail::NormCheck(outputPdGamma, sh.h, kApi, "outputPdGamma");
  npurt_detail::NormCheck(outputPdBeta, sh.h, kApi, "outputPdBeta");
  for (uint32_t j = 0; j < sh.h; ++j) {
    double pg = 0, pb = 0;
    for (uint64_t r = 0; r < sh.rows; ++r) {
      const double dy = npurt_detail::AdvLoad(inputDy.GetPhyAddr()[r * sh.h + j]);
      pg += dy * npurt_detail::AdvLoad(resForGamma.GetPhyAddr()[r * sh.h + j]);
      pb += dy;
    }
    outputPdGamma.GetPhyAddr()[j] = npurt_detail::AdvStore<T>(pg);
    outputPdBeta.GetPhyAddr()[j] = npurt_detail::AdvStore<T>(pb);
  }
}
template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         const LayerNormGradBetaTiling& tiling) {
  LayerNormGradBeta<T, isReuseSource>(outputPdGamma, outputPdBeta, resForGamma, inputDy, LocalTensor<uint8_t>(),
                                      tiling);
}

}  // namespace AscendC
