// Ascend C's rstd-output LayerNorm (LayerNormConfig, LayerNormPara, LayerNormSeparateTiling) and Normalize
// (NormalizeConfig, NormalizePara) for the sim, over [aLength, rLength] rows stored rLengthWithPad apart.
// Part of kernel_operator.h; the host side is tiling/adv_layernorm_v2_tiling.h.
//
// Each row is computed in double and every result rounded once; x is T (half or float), gamma / beta U (T or
// float), mean / rstd / variance float. With r = 1 / sqrt(var + epsilon):
//   LayerNorm<U, T, isReuseSource, LayerNormConfig>(y, mean, rstd, x, gamma, beta, epsilon, [tmp,] para, tiling):
//     mean and the biased variance over the row's rLength elements; y = gamma * (x - mean) * r + beta (no gamma
//     / no beta with isNoGamma / isNoBeta); mean and r written unless isOnlyOutput.
//   Normalize<U, T, isReuseSource, NormalizeConfig>(y, rstd, mean, variance, x, gamma, beta, [tmp,] epsilon, para):
//     y from the given mean and variance as above; r written unless isOnlyOutput.
// The padding columns (rLength to rLengthWithPad) of y are left as they were. LayerNormConfig::isOutputRstd
// false (a variance output) and NormalizeConfig's ReducePattern::RA are refused at build time. The sim needs no
// scratch space: tmp is accepted and left untouched.
#pragma once

#include <cmath>

#include "kernel_tiling/kernel_tiling.h"
#include "npurt_kernel/adv_norm.h"

namespace AscendC {

struct LayerNormConfig {
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
  bool isOutputRstd = true;
};
constexpr LayerNormConfig LNCFG_NORM = {false, false, false, true};

struct LayerNormPara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPad;
};

struct NormalizeConfig {
  ReducePattern reducePattern = ReducePattern::AR;
  int32_t aLength = -1;
  bool isNoBeta = false;
  bool isNoGamma = false;
  bool isOnlyOutput = false;
};
constexpr NormalizeConfig NLCFG_NORM = {ReducePattern::AR, -1, false, false, false};
constexpr NormalizeConfig NLCFG_NOBETA = {ReducePattern::AR, -1, true, false, false};
constexpr NormalizeConfig NLCFG_NOGAMMA = {ReducePattern::AR, -1, false, true, false};
constexpr NormalizeConfig NLCFG_NOOPT = {ReducePattern::AR, -1, true, true, false};

struct NormalizePara {
  uint32_t aLength;
  uint32_t rLength;
  uint32_t rLengthWithPad;
};

namespace npurt_detail {

template <typename U, typename T>
inline void NormRowsAR(const char* api, const LocalTensor<T>& y, const LocalTensor<float>* meanOut,
                       const LocalTensor<float>& rstdOut, const LocalTensor<float>* meanIn,
                       const LocalTensor<float>* varIn, const LocalTensor<T>& x, const LocalTensor<U>& gamma,
                       const LocalTensor<U>& beta, double eps, uint32_t a, uint32_t r, uint32_t pad, bool noGamma,
                       bool noBeta, bool onlyOutput) {
  static_assert(kAdvFloat<T> && (std::is_same<U, T>::value || std::is_same<U, float>::value),
                "LayerNorm / Normalize: x half or float, gamma and beta x's type or float");
  if (a == 0 || r == 0 || pad < r) Fail("%s: aLength %u, rLength %u, rLengthWithPad %u", api, a, r, pad);
  const uint64_t n = uint64_t{a - 1} * pad + r;
  NormCheck(x, n, api, "inputX");
  NormCheck(y, n, api, "output");
  if (!noGamma) NormCheck(gamma, r, api, "gamma");
  if (!noBeta) NormCheck(beta, r, api, "beta");
  if (!onlyOutput) NormCheck(rstdOut, a, api, "outputRstd");
  if (!onlyOutput && meanOut != nullptr) NormCheck(*meanOut, a, api, "outputMean");
  if (meanIn != nullptr) {
    NormCheck(*meanIn, a, api, "inputMean");
    NormCheck(*varIn, a, api, "inputVariance");
  }
  for (uint32_t i = 0; i < a; ++i) {
    const T* xr = x.GetPhyAddr() + uint64_t{i} * pad;
    double mean = 0, var = 0;
    if (meanIn != nullptr) {
      mean = meanIn->GetPhyAddr()[i];
      var = varIn->GetPhyAddr()[i];
    } else {
      for (uint32_t j = 0; j < r; ++j) mean += AdvLoad(xr[j]);
      mean /= r;
      for (uint32_t j = 0; j < r; ++j) var += (AdvLoad(xr[j]) - mean) * (AdvLoad(xr[j]) - mean);
      var /= r;
    }
    const double rs = 1.0 / std::sqrt(var + eps);
    T* yr = y.GetPhyAddr() + uint64_t{i} * pad;
    for (uint32_t j = 0; j < r; ++j) {
      double v = (AdvLoad(xr[j]) - mean) * rs;
      if (!noGamma) v *= AdvLoad(gamma.GetPhyAddr()[j]);
      if (!noBeta) v += AdvLoad(beta.GetPhyAddr()[j]);
      yr[j] = AdvStore<T>(v);
    }
    if (!onlyOutput) {
      rstdOut.GetPhyAddr()[i] = static_cast<float>(rs);
      if (meanOut != nullptr) meanOut->GetPhyAddr()[i] = static_cast<float>(mean);
    }
  }
}

}  // namespace npurt_detail

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling) {
  static_assert(config.isOutputRstd, "LayerNorm: LayerNormConfig::isOutputRstd false (a variance output) is not "
                                     "supported on the sim");
  (void)sharedTmpBuffer;
  (void)tiling;
  npurt_detail::NormRowsAR<U, T>("LayerNorm", output, &outputMean, outputRstd, nullptr, nullptr, inputX, gamma, beta,
                                 epsilon, para.aLength, para.rLength, para.rLengthWithPad, config.isNoGamma,
                                 config.isNoBeta, config.isOnlyOutput);
}
template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LayerNormPara& para, const LayerNormSeparateTiling& tiling) {
  LayerNorm<U, T, isReuseSource, config>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon,
                                         LocalTensor<uint8_t>(), para, tiling);
}

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                                 const LocalTensor<U>& beta, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                 const float epsilon, const NormalizePara& para) {
  static_assert(config.reducePattern == ReducePattern::AR, "Normalize: only ReducePattern::AR is supported");
  (void)sharedTmpBuffer;
  const uint32_t a = config.aLength == -1 ? para.aLength : static_cast<uint32_t>(config.aLength);
  npurt_detail::NormRowsAR<U, T>("Normalize", output, nullptr, outputRstd, &inputMean, &inputVariance, inputX, gamma,
                                 beta, epsilon, a, para.rLength, para.rLengthWithPad, config.isNoGamma,
                                 config.isNoBeta, config.isOnlyOutput);
}
template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma,
                                 const LocalTensor<U>& beta, const float epsilon, const NormalizePara& para) {
  Normalize<U, T, isReuseSource, config>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta,
                                         LocalTensor<uint8_t>(), epsilon, para);
}

}  // namespace AscendC
