// Ascend C's SoftMax-family library APIs beyond SoftMax itself (npurt_kernel/softmax_pad.h), for the sim:
// AdjustSoftMaxRes, LogSoftMax, SoftmaxFlashV2, SoftmaxGrad and SoftmaxGradFront. Part of kernel_operator.h.
#pragma once

#include "npurt_kernel/adv_math.h"
#include "npurt_kernel/softmax_pad.h"

namespace AscendC {

// AdjustSoftMaxRes: for each of the srcM rows whose max (the SoftMax max output: one 32-byte block of T2 per
// row, its first element read) has the bit pattern `from` (the low 16 bits for half), every one of the
// row's srcK results becomes `to`. Returns whether any row was adjusted.
template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
__aicore__ inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor,
                                        const uint32_t from, const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo) {
  static_assert(!isDataFormatNZ, "AdjustSoftMaxRes: the NZ data format is not supported on the sim");
  static_assert(stepSizeMode == 0, "AdjustSoftMaxRes: stepSizeMode != 0 (a max element per row) is not supported on "
                                   "the sim");
  static_assert(sizeof(T2) == 2 || sizeof(T2) == 4, "AdjustSoftMaxRes: the max tensor is half or float");
  const uint32_t rows = softmaxShapeInfo.srcM, cols = softmaxShapeInfo.srcK, block = 32 / sizeof(T2);
  const uint64_t n = uint64_t{rows} * cols, nmax = uint64_t{rows} * block;
  if (n > softMaxRes.GetSize() || nmax > maxTensor.GetSize()) {
    npurt_detail::Fail("AdjustSoftMaxRes: %u x %u needs %llu result and %llu max elements, the tensors hold %u and %u",
                       rows, cols, static_cast<unsigned long long>(n), static_cast<unsigned long long>(nmax),
                       softMaxRes.GetSize(), maxTensor.GetSize());
  }
  npurt_detail::CheckLocal(softMaxRes.GetPhyAddr(), n * sizeof(T1), "AdjustSoftMaxRes");
  npurt_detail::CheckLocal(maxTensor.GetPhyAddr(), nmax * sizeof(T2), "AdjustSoftMaxRes");
  const uint32_t want = sizeof(T2) == 2 ? (from & 0xffffu) : from;
  bool adjusted = false;
  for (uint32_t r = 0; r < rows; ++r) {
    uint32_t bits = 0;
    std::memcpy(&bits, maxTensor.GetPhyAddr() + uint64_t{r} * block, sizeof(T2));
    if (bits != want) continue;
    adjusted = true;
    for (uint32_t c = 0; c < cols; ++c) softMaxRes.GetPhyAddr()[uint64_t{r} * cols + c] = to;
  }
  return adjusted;
}

// LogSoftMax: per row of the [m, k] source, max = the row's maximum, sum = sum(exp(x - max)),
// dst = log10(exp(x - max) / sum) (base 10, as the library documents it); max and sum are written as one
// 32-byte block of T per row. The shape is softmaxShapeInfo's when given (srcK != 0), else the tiling's;
// the sim needs no tiling beyond that (a kernel may pass a default one with the shape info) and no scratch.
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void LogSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor,
                                  const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                  const LocalTensor<uint8_t>& sharedTmpBuffer, const LogSoftMaxTiling& tiling,
                                  const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "LogSoftMax: the NZ data format is not supported on the sim");
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "LogSoftMax: T must be half or float");
  (void)sharedTmpBuffer;
  const bool given = softmaxShapeInfo.srcK != 0;
  const uint32_t m = given ? softmaxShapeInfo.srcM : tiling.srcM, k = given ? softmaxShapeInfo.srcK : tiling.srcK;
  if (given && ((softmaxShapeInfo.oriSrcK != 0 && softmaxShapeInfo.oriSrcK != k) ||
                (softmaxShapeInfo.oriSrcM != 0 && softmaxShapeInfo.oriSrcM != m))) {
    npurt_detail::Fail("LogSoftMax: a shape with padding (oriSrcM %u, oriSrcK %u of %u x %u) is not supported on the sim",
                       softmaxShapeInfo.oriSrcM, softmaxShapeInfo.oriSrcK, m, k);
  }
  if (m == 0 || k == 0) npurt_detail::Fail("LogSoftMax: no shape (%u x %u) in the shape info or the tiling", m, k);
  const uint32_t block = 32 / sizeof(T);
  const uint64_t n = uint64_t{m} * k, reduced = uint64_t{m} * block;
  if (n > srcTensor.GetSize() || n > dstTensor.GetSize() || reduced > sumTensor.GetSize() ||
      reduced > maxTensor.GetSize()) {
    npurt_detail::Fail("LogSoftMax: %u x %u needs %llu source and destination and %llu max and sum elements (given %u, "
                       "%u, %u, %u)",
                       m, k, static_cast<unsigned long long>(n), static_cast<unsigned long long>(reduced),
                       srcTensor.GetSize(), dstTensor.GetSize(), maxTensor.GetSize(), sumTensor.GetSize());
  }
  npurt_detail::CheckLocal(srcTensor.GetPhyAddr(), n * sizeof(T), "LogSoftMax");
  npurt_detail::CheckLocal(dstTensor.GetPhyAddr(), n * sizeof(T), "LogSoftMax");
  npurt_detail::CheckLocal(sumTensor.GetPhyAddr(), reduced * sizeof(T), "LogSoftMax");
  npurt_detail::CheckLocal(maxTensor.GetPhyAddr(), reduced * sizeof(T), "LogSoftMax");
  for (uint32_t r = 0; r < m; ++r) {
    const T* x = srcTensor.GetPhyAddr() + uint64_t{r} * k;
    T* y = dstTensor.GetPhyAddr() + uint64_t{r} * k;
    double mx = npurt_detail::AdvLoad(x[0]);
    for (uint32_t i = 1; i < k; ++i) mx = std::fmax(mx, npurt_detail::AdvLoad(x[i]));
    double total = 0;
    for (uint32_t i = 0; i < k; ++i) total += std::exp(npurt_detail::AdvLoad(x[i]) - mx);
    // Written after the row is read: dst may be src.
    for (uint32_t i = 0; i < k; ++i) {
      y[i] = npurt_detail::AdvStore<T>(std::log10(std::exp(npurt_detail::AdvLoad(x[i]) - mx) / total));
    }
    for (uint32_t j = 0; j < block; ++j) {
      maxTensor.GetPhyAddr()[uint64_t{r} * block + j] = npurt_detail::AdvStore<T>(mx);
      sumTensor.GetPhyAddr()[uint64_t{r} * block + j] = npurt_detail::AdvStore<T>(total);
    }
  }
}

namespace npurt_detail {
// The [m, k] of a softmax-family call: the shape info's when given (srcK != 0, no padding), else the tiling's.
inline void SoftMaxFamilyShape(const char* api, const SoftMaxShapeInfo& info, const SoftMaxTiling& tiling, uint32_t& m,
                               uint32_t& k) {
  const bool given = info.srcK != 0;
  m = given ? info.srcM : tiling.srcM;
  k = given ? info.srcK : tiling.srcK;
  if (given && ((info.oriSrcK != 0 && info.oriSrcK != k) || (info.oriSrcM != 0 && info.oriSrcM != m))) {
    Fail("%s: a shape with padding (oriSrcM %u, oriSrcK %u of %u x %u) is not supported on the sim", api,
         info.oriSrcM, info.oriSrcK, m, k);
  }
  if (m == 0 || k == 0) Fail("%s: no shape (%u x %u) in the shape info or the tiling", api, m, k);
}

template <typename T>
inline void SoftMaxFamilyCheck(const char* api, const LocalTensor<T>& t, uint64_t elems) {
  if (elems > t.GetSize()) Fail("%s: an operand needs %llu elements, the tensor holds %u", api,
                                static_cast<unsigned long long>(elems), t.GetSize());
  CheckLocal(t.GetPhyAddr(), elems * sizeof(T), api);
}
}  // namespace npurt_detail

// SoftmaxFlashV2, one step of a softmax computed over column blocks of the [m, k] source:
//   isUpdate = false: max = rowmax(x); dst = exp(x - max); expSum = rowsum(dst).
//   isUpdate = true:  max = max(inMax, rowmax(x)); dst = exp(x - max); expMax = exp(inMax - max);
//                     expSum = expMax * inExpSum + rowsum(dst).
// dst is not divided by the sum. max, expSum, expMax and the inputs inMax, inExpSum hold one 32-byte block of
// T per row (the row's value repeated; the first element read). The outputs may be the inputs (the usual
// call passes the same sum and max tensors in and out): every row is read before it is written.
template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
__aicore__ inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                                      const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                                      const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                                      const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                      const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxFlashV2: the NZ data format is not supported on the sim");
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value,
                "SoftmaxFlashV2: T must be half or float");
  (void)sharedTmpBuffer;
  const char* api = "SoftmaxFlashV2";
  uint32_t m = 0, k = 0;
  npurt_detail::SoftMaxFamilyShape(api, softmaxShapeInfo, tiling, m, k);
  const uint32_t block = 32 / sizeof(T);
  const uint64_t n = uint64_t{m} * k, reduced = uint64_t{m} * block;
  npurt_detail::SoftMaxFamilyCheck(api, srcTensor, n);
  npurt_detail::SoftMaxFamilyCheck(api, dstTensor, n);
  npurt_detail::SoftMaxFamilyCheck(api, expSumTensor, reduced);
  npurt_detail::SoftMaxFamilyCheck(api, maxTensor, reduced);
  if (isUpdate) {
    npurt_detail::SoftMaxFamilyCheck(api, expMaxTensor, reduced);
    npurt_detail::SoftMaxFamilyCheck(api, inExpSumTensor, reduced);
    npurt_detail::SoftMaxFamilyCheck(api, inMaxTensor, reduced);
  }
  using npurt_detail::AdvLoad;
  using npurt_detail::AdvStore;
  for (uint32_t r = 0; r < m; ++r) {
    const T* x = srcTensor.GetPhyAddr() + uint64_t{r} * k;
    T* y = dstTensor.GetPhyAddr() + uint64_t{r} * k;
    double mx = AdvLoad(x[0]);
    for (uint32_t i = 1; i < k; ++i) mx = std::fmax(mx, AdvLoad(x[i]));
    double in_max = 0, in_sum = 0;
    if (isUpdate) {
      in_max = AdvLoad(inMaxTensor.GetPhyAddr()[uint64_t{r} * block]);
      in_sum = AdvLoad(inExpSumTensor.GetPhyAddr()[uint64_t{r} * block]);
      mx = std::fmax(mx, in_max);
    }
    // The max as T: the exponentials subtract the value the max tensor holds.
    const double mx_t = AdvLoad(AdvStore<T>(mx));
    double total = 0;
    for (uint32_t i = 0; i < k; ++i) {
      const T e = AdvStore<T>(std::exp(AdvLoad(x[i]) - mx_t));
      total += AdvLoad(e);
      y[i] = e;
    }
    double exp_max = 0;
    if (isUpdate) {
      exp_max = AdvLoad(AdvStore<T>(std::exp(in_max - mx_t)));
      total += exp_max * in_sum;
    }
    for (uint32_t j = 0; j < block; ++j) {
      maxTensor.GetPhyAddr()[uint64_t{r} * block + j] = AdvStore<T>(mx_t);
      expSumTensor.GetPhyAddr()[uint64_t{r} * block + j] = AdvStore<T>(total);
      if (isUpdate) expMaxTensor.GetPhyAddr()[uint64_t{r} * block + j] = AdvStore<T>(exp_max);
    }
  }
}

// SoftmaxGrad: per row of the [m, k] operands, d = rowsum(grad * src); dst = (grad - d) * src, or with
// isFront dst = d as one 32-byte block of T per row. SoftmaxGradFront is the isFront form. dst may be one of
// the inputs: each row is read before it is written.
namespace npurt_detail {
template <typename T>
inline void SoftmaxGradImpl(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                            const LocalTensor<T>& src, const SoftMaxTiling& tiling, bool front,
                            const SoftMaxShapeInfo& info) {
  static_assert(std::is_same<T, half>::value || std::is_same<T, float>::value, "SoftmaxGrad: T must be half or float");
  uint32_t m = 0, k = 0;
  SoftMaxFamilyShape(api, info, tiling, m, k);
  const uint32_t block = 32 / sizeof(T);
  const uint64_t n = uint64_t{m} * k;
  SoftMaxFamilyCheck(api, grad, n);
  SoftMaxFamilyCheck(api, src, n);
  SoftMaxFamilyCheck(api, dst, front ? uint64_t{m} * block : n);
  for (uint32_t r = 0; r < m; ++r) {
    const T* g = grad.GetPhyAddr() + uint64_t{r} * k;
    const T* x = src.GetPhyAddr() + uint64_t{r} * k;
    double d = 0;
    for (uint32_t i = 0; i < k; ++i) d += AdvLoad(g[i]) * AdvLoad(x[i]);
    if (front) {
      for (uint32_t j = 0; j < block; ++j) dst.GetPhyAddr()[uint64_t{r} * block + j] = AdvStore<T>(d);
    } else {
      const double dt = AdvLoad(AdvStore<T>(d));
      T* y = dst.GetPhyAddr() + uint64_t{r} * k;
      for (uint32_t i = 0; i < k; ++i) y[i] = AdvStore<T>((AdvLoad(g[i]) - dt) * AdvLoad(x[i]));
    }
  }
}
}  // namespace npurt_detail

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: the NZ data format is not supported on the sim");
  (void)sharedTmpBuffer;
  npurt_detail::SoftmaxGradImpl("SoftmaxGrad", dstTensor, gradTensor, srcTensor, tiling, isFront, softmaxShapeInfo);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxGrad: the NZ data format is not supported on the sim");
  npurt_detail::SoftmaxGradImpl("SoftmaxGrad", dstTensor, gradTensor, srcTensor, tiling, isFront, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: the NZ data format is not supported on the sim");
  (void)sharedTmpBuffer;
  npurt_detail::SoftmaxGradImpl("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, tiling, true, softmaxShapeInfo);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  static_assert(!isDataFormatNZ, "SoftmaxGradFront: the NZ data format is not supported on the sim");
  npurt_detail::SoftmaxGradImpl("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, tiling, true, softmaxShapeInfo);
}

}  // namespace AscendC
