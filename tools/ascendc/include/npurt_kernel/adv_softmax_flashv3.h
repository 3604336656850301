// Ascend C's SoftmaxFlashV3 for the sim (FlashAttention V3's softmax step with a running mean shift) and its
// SoftMaxParams. Part of kernel_operator.h.
//
// Per row of the [srcM, srcK] source x (T half; U float statistics, one 32-byte block per row, the value
// repeated), computed in double, with a = alpha / (1 - alpha) and G = splitMeanCnt groups:
//   local[g]  = the mean of group g's srcK / G elements, where the first G 64-element repeats go whole to
//               groups 0..G-1 and every later repeat gives its 8-element block b to group b (the library's
//               reduction layout; G must be 8, srcK a multiple of 64 and at least 512);
//   global    = the mean of the G locals;  x' = x - (global - local[c / (srcK / G)]) * a for column c;
//   mean      = global (isUpdate: (global + inMean * (loopCnt - 1)) / loopCnt);
//   shiftCurr = (global - mean) * a;  max = rowmax(x') + shiftCurr
//   (isUpdate: shiftPrev = (inMean - mean) * a; max = max(max, inMax + shiftPrev);
//              expMax = exp(inMax - max + shiftPrev), stored as T);
//   dst = exp(x' - (max - shiftCurr)) as T;  expSum = rowsum(exp(...)) (isUpdate: + expMax * inExpSum).
// dst is not divided by the sum. The outputs may be the inputs: every row is read before it is written.
// oriSrcM / oriSrcK other than srcM / srcK (padding) fail when run.
#pragma once

#include <cmath>
#include <vector>

#include "npurt_kernel/adv_softmax.h"

namespace AscendC {

struct SoftMaxParams {
  uint32_t srcM;
  uint32_t srcK;
  uint32_t oriSrcM;
  uint32_t oriSrcK;
  uint32_t loopCnt;
  uint32_t splitMeanCnt;
  float alpha;
};

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                      const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxParams& params) {
  static_assert(!isDataFormatNZ, "SoftmaxFlashV3: the NZ data format is not supported on the sim");
  static_assert(std::is_same<T, half>::value && std::is_same<U, float>::value,
                "SoftmaxFlashV3: T must be half and U float");
  (void)sharedTmpBuffer;
  (void)tiling;
  const char* api = "SoftmaxFlashV3";
  const uint32_t m = params.srcM, k = params.srcK, groups = params.splitMeanCnt;
  if (params.oriSrcM != m || params.oriSrcK != k) {
    npurt_detail::Fail("%s: padding (oriSrcM %u, oriSrcK %u of %u x %u) is not supported on the sim", api,
                       params.oriSrcM, params.oriSrcK, m, k);
  }
  if (groups != 8 || k % 64 != 0 || k < 512 || m == 0 || params.loopCnt == 0 || params.alpha >= 1.0f) {
    npurt_detail::Fail("%s: srcK %u, splitMeanCnt %u, loopCnt %u, alpha %f (the sim takes splitMeanCnt 8, srcK a "
                       "multiple of 64 from 512, loopCnt >= 1, alpha < 1)", api, k, groups, params.loopCnt,
                       static_cast<double>(params.alpha));
  }
  const uint32_t ublock = 32 / sizeof(U), tblock = 32 / sizeof(T);
  const uint64_t n = uint64_t{m} * k, reduced = uint64_t{m} * ublock;
  npurt_detail::SoftMaxFamilyCheck(api, srcTensor, n);
  npurt_detail::SoftMaxFamilyCheck(api, dstTensor, n);
  npurt_detail::SoftMaxFamilyCheck(api, meanTensor, reduced);
  npurt_detail::SoftMaxFamilyCheck(api, expSumTensor, reduced);
  npurt_detail::SoftMaxFamilyCheck(api, maxTensor, reduced);
  if (isUpdate) {
    npurt_detail::SoftMaxFamilyCheck(api, expMaxTensor, uint64_t{m} * tblock);
    npurt_detail::SoftMaxFamilyCheck(api, inMeanTensor, reduced);
    npurt_detail::SoftMaxFamilyCheck(api, inExpSumTensor, reduced);
    npurt_detail::SoftMaxFamilyCheck(api, inMaxTensor, reduced);
  }
  using npurt_detail::AdvLoad;
  using npurt_detail::AdvStore;
  const double a = static_cast<double>(params.alpha) / (1.0 - static_cast<double>(params.alpha));
  const uint32_t per_group = k / groups;
  std::vector<double> xs(k), local(groups);
  for (uint32_t r = 0; r < m; ++r) {
    const T* x = srcTensor.GetPhyAddr() + uint64_t{r} * k;
    for (uint32_t g = 0; g < groups; ++g) local[g] = 0;
    for (uint32_t c = 0; c < k; ++c) {
      const uint32_t g = c < 64 * groups ? c / 64 : (c % 64) / 8;
      local[g] += AdvLoad(x[c]);
    }
    double global = 0;
    for (uint32_t g = 0; g < groups; ++g) global += local[g] / per_group;
    global /= groups;
    double row_max = -INFINITY;
    for (uint32_t c = 0; c < k; ++c) {
      xs[c] = AdvLoad(x[c]) - (global - local[c / per_group] / per_group) * a;
      row_max = std::fmax(row_max, xs[c]);
    }
    const uint64_t u0 = uint64_t{r} * ublock;
    double mean = global, in_max = 0, in_sum = 0, shift_prev = 0;
    if (isUpdate) {
      const double in_mean = inMeanTensor.GetPhyAddr()[u0];
      in_max = inMaxTensor.GetPhyAddr()[u0];
      in_sum = inExpSumTensor.GetPhyAddr()[u0];
      mean = (global + in_mean * (params.loopCnt - 1)) / params.loopCnt;
      shift_prev = (in_mean - mean) * a;
    }
    const double shift_curr = (global - mean) * a;
    double mx = row_max + shift_curr;
    if (isUpdate) mx = std::fmax(mx, in_max + shift_prev);
    const double sub = mx - shift_curr;
    double total = 0;
    T* y = dstTensor.GetPhyAddr() + uint64_t{r} * k;
    for (uint32_t c = 0; c < k; ++c) {
      const double e = std::exp(xs[c] - sub);
      total += e;
      y[c] = AdvStore<T>(e);
    }
    if (isUpdate) {
      const double exp_max = std::exp(in_max - mx + shift_prev);
      total += exp_max * in_sum;
      for (uint32_t j = 0; j < tblock; ++j) expMaxTensor.GetPhyAddr()[uint64_t{r} * tblock + j] = AdvStore<T>(exp_max);
    }
    for (uint32_t j = 0; j < ublock; ++j) {
      meanTensor.GetPhyAddr()[u0 + j] = static_cast<U>(mean);
      maxTensor.GetPhyAddr()[u0 + j] = static_cast<U>(mx);
      expSumTensor.GetPhyAddr()[u0 + j] = static_cast<U>(total);
    }
  }
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                                      const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                                      const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                                      const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                                      const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                                      const SoftMaxParams& params) {
  SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
      dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor,
      inMaxTensor, LocalTensor<uint8_t>(), tiling, params);
}

}  // namespace AscendC
