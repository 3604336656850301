// Ascend C's SoftMax-family library APIs beyond SoftMax itself (npurt_kernel/softmax_pad.h), for the sim:
// AdjustSoftMaxRes. Part of kernel_operator.h.
#pragma once

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

}  // namespace AscendC
