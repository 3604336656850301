// Ascend C's Welford library APIs for the sim: WelfordUpdate (one online step over [rnLength, abLength] means
// and M2 sums) and WelfordFinalize (the split reduce axis's partial means / M2 sums combined into one mean and
// variance). Part of kernel_operator.h; the host sizes are tiling/adv_welford_tiling.h.
//
// WelfordUpdate<T, U, isReuseSource, WelfordUpdateConfig>(outMean, outVar, inMean, inVar, x, [tmp,] param):
//   for each row and each of its first abComputeLength columns, in float, in this order:
//     mean' = mean + (x - mean) * nRec;   var' = var + (x - mean) * (x - mean')
//   x is half or float (T), the means and sums float (U). The columns from abComputeLength to abLength are
//   copied from the inputs with or without config.isInplace (the library's isInplace form guarantees it; its
//   other form leaves them unspecified, so a copy is a valid result).
// WelfordFinalize<isReuseSource>(outMean, outVar, inMean, inVar, [counts,] tmp, para): over the abLength
//   partial results, with coefficient c_i = counts[i] (counts form), else headCount for i < headCountLength
//   and tailCount after it when a tail is given (tailCount and tailCountLength non-zero):
//     Mean = sum(c_i * mean_i) * rRec,  Var = sum(var_i + c_i * (mean_i - Mean)^2) * rRec
//   and without a tail (no counts):  Mean = sum(mean_i) * abRec,  Var = sum(var_i + rnLength * (mean_i - Mean)^2)
//   * rRec. Sums in float in index order; the results go to element 0 of the outputs, elements 1..7 are zeroed.
// The sim needs no scratch space: tmp is accepted and left untouched.
#pragma once

#include "npurt_kernel/adv_math.h"

namespace AscendC {

struct WelfordUpdateParam {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t abComputeLength;
  float nRec;
};

struct WelfordUpdateConfig {
  bool isInplace = false;
};
constexpr WelfordUpdateConfig WFUPDATE_DEFAULT_CFG = {false};

struct WelfordFinalizePara {
  uint32_t rnLength;
  uint32_t abLength;
  uint32_t headCount;
  uint32_t headCountLength;
  uint32_t tailCount;
  uint32_t tailCountLength;
  float abRec;
  float rRec;
};

namespace npurt_detail {

inline void WelfordFinalizeImpl(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                const int32_t* counts, const WelfordFinalizePara& para) {
  constexpr const char* kApi = "WelfordFinalize";
  const uint32_t n = para.abLength;
  if (n == 0) Fail("%s: abLength 0", kApi);
  CheckLocal(inputMean.GetPhyAddr(), uint64_t{n} * 4, kApi);
  CheckLocal(inputVariance.GetPhyAddr(), uint64_t{n} * 4, kApi);
  if (counts != nullptr) CheckLocal(counts, uint64_t{n} * 4, kApi);
  CheckLocal(outputMean.GetPhyAddr(), 32, kApi);
  CheckLocal(outputVariance.GetPhyAddr(), 32, kApi);
  const float* m = inputMean.GetPhyAddr();
  const float* v = inputVariance.GetPhyAddr();
  const bool tail = para.tailCountLength != 0 && para.tailCount != 0;
  auto coef = [&](uint32_t i) -> float {
    if (counts != nullptr) return static_cast<float>(counts[i]);
    if (tail) return static_cast<float>(i < para.headCountLength ? para.headCount : para.tailCount);
    return static_cast<float>(para.rnLength);
  };
  float mean = 0.0f;
  for (uint32_t i = 0; i < n; ++i) {
    const volatile float term = (counts != nullptr || tail) ? coef(i) * m[i] * para.rRec : m[i] * para.abRec;
    mean += term;
  }
  float var = 0.0f;
  for (uint32_t i = 0; i < n; ++i) {
    const float d = m[i] - mean;
    const volatile float sq = d * d * coef(i);
    const volatile float term = (v[i] + sq) * para.rRec;
    var += term;
  }
  for (uint32_t i = 0; i < 8; ++i) {
    outputMean.GetPhyAddr()[i] = i == 0 ? mean : 0.0f;
    outputVariance.GetPhyAddr()[i] = i == 0 ? var : 0.0f;
  }
}

}  // namespace npurt_detail

template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const WelfordUpdateParam& para) {
  static_assert(npurt_detail::kAdvFloat<T>, "WelfordUpdate: inputX (T) must be half or float");
  static_assert(std::is_same<U, float>::value, "WelfordUpdate: the means and variances (U) must be float");
  (void)sharedTmpBuffer;
  constexpr const char* kApi = "WelfordUpdate";
  if (para.abComputeLength > para.abLength) {
    npurt_detail::Fail("%s: abComputeLength %u above abLength %u", kApi, para.abComputeLength, para.abLength);
  }
  const uint64_t n = uint64_t{para.rnLength} * para.abLength;
  npurt_detail::CheckLocal(inputX.GetPhyAddr(), n * sizeof(T), kApi);
  npurt_detail::CheckLocal(inputMean.GetPhyAddr(), n * 4, kApi);
  npurt_detail::CheckLocal(inputVariance.GetPhyAddr(), n * 4, kApi);
  npurt_detail::CheckLocal(outputMean.GetPhyAddr(), n * 4, kApi);
  npurt_detail::CheckLocal(outputVariance.GetPhyAddr(), n * 4, kApi);
  for (uint64_t i = 0; i < n; ++i) {
    const float mean = inputMean.GetPhyAddr()[i], var = inputVariance.GetPhyAddr()[i];
    if (i % para.abLength >= para.abComputeLength) {
      outputMean.GetPhyAddr()[i] = mean;
      outputVariance.GetPhyAddr()[i] = var;
      continue;
    }
    const float x = static_cast<float>(inputX.GetPhyAddr()[i]);
    const float d = x - mean;
    // Each product rounded on its own, as the vector unit's Mul / Add steps do (no fused multiply-add).
    const volatile float step = d * para.nRec;
    const float next = mean + step;
    const volatile float sq = d * (x - next);
    outputMean.GetPhyAddr()[i] = next;
    outputVariance.GetPhyAddr()[i] = var + sq;
  }
}
template <typename T, typename U, bool isReuseSource = false,
          const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
  WelfordUpdate<T, U, isReuseSource, config>(outputMean, outputVariance, inputMean, inputVariance, inputX,
                                             LocalTensor<uint8_t>(), para);
}

template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<uint8_t>& sharedTmpBuffer, WelfordFinalizePara& para) {
  (void)sharedTmpBuffer;
  npurt_detail::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, nullptr, para);
}
template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                       WelfordFinalizePara& para) {
  (void)sharedTmpBuffer;
  npurt_detail::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, counts.GetPhyAddr(), para);
}
template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       WelfordFinalizePara& para) {
  npurt_detail::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, nullptr, para);
}
template <bool isReuseSource = false>
__aicore__ inline void WelfordFinalize(const LocalTensor<float>& outputMean, const LocalTensor<float>& outputVariance,
                                       const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                       const LocalTensor<int32_t>& counts, WelfordFinalizePara& para) {
  npurt_detail::WelfordFinalizeImpl(outputMean, outputVariance, inputMean, inputVariance, counts.GetPhyAddr(), para);
}

}  // namespace AscendC
