// Ascend C's CumSum library API for the sim: running sums of an [outter, inner] tensor down its rows (first
// axis) or along them (last axis), with the last row of sums as a second output. Part of kernel_operator.h;
// the host tmp size is GetCumSumMaxMinTmpSize (tiling/adv_cumsum_tiling.h).
//
// The line-by-line algorithm (the only one Atlas A2 has): each sum is the previous one plus the element,
// added in float (half converted to float first) and rounded once to T at the end, as the library's float
// working copy does. First axis: lastRow gets the last row (inner elements); last axis (computed on the
// transposed tensor by the library): lastRow gets each row's total (outter elements). inner * sizeof(T) is a
// multiple of 32 bytes. The Sklansky algorithm exists on Ascend 950 only and is refused at build time.
// sharedTmpBuffer is accepted and left untouched.
#pragma once

#include <vector>

#include "npurt_kernel/adv_math.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };

struct CumSumConfig {
  bool isLastAxis{true};
  bool isReuseSource{false};
  bool outputLastRow{false};
  CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};

struct CumSumInfo {
  uint32_t outter{0};
  uint32_t inner{0};
};

constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo) {
  static_assert(npurt_detail::kAdvFloat<T>, "CumSum takes half or float tensors");
  static_assert(config.algorithm == CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE,
                "CumSum: config.algorithm CUMSUM_ALGORITHM_SKLANSKY exists on Ascend 950 only");
  (void)sharedTmpBuffer;
  constexpr const char* kApi = "CumSum";
  const uint32_t rows = cumSumInfo.outter, cols = cumSumInfo.inner;
  if (rows == 0 || cols == 0 || (cols * sizeof(T)) % 32 != 0) {
    npurt_detail::Fail("CumSum: CumSumInfo {outter %u, inner %u}: both positive, inner a multiple of 32 bytes", rows,
                       cols);
  }
  const uint64_t n = uint64_t{rows} * cols;
  const uint32_t last_n = config.isLastAxis ? rows : cols;
  if (n > srcTensor.GetSize() || n > dstTensor.GetSize() ||
      (config.outputLastRow && last_n > lastRowTensor.GetSize())) {
    npurt_detail::Fail("CumSum: {outter %u, inner %u} needs %llu elements (lastRow %u), the tensors hold src %u, "
                       "dst %u, lastRow %u",
                       rows, cols, static_cast<unsigned long long>(n), last_n, srcTensor.GetSize(),
                       dstTensor.GetSize(), lastRowTensor.GetSize());
  }
  npurt_detail::CheckLocal(srcTensor.GetPhyAddr(), n * sizeof(T), kApi);
  npurt_detail::CheckLocal(dstTensor.GetPhyAddr(), n * sizeof(T), kApi);
  std::vector<float> acc(n);
  const T* s = srcTensor.GetPhyAddr();
  for (uint32_t r = 0; r < rows; ++r) {
    for (uint32_t c = 0; c < cols; ++c) {
      const uint64_t i = uint64_t{r} * cols + c;
      const float x = static_cast<float>(s[i]);
      if (config.isLastAxis) {
        acc[i] = c == 0 ? x : acc[i - 1] + x;
      } else {
        acc[i] = r == 0 ? x : acc[i - cols] + x;
      }
    }
  }
  T* d = dstTensor.GetPhyAddr();
  for (uint64_t i = 0; i < n; ++i) d[i] = static_cast<T>(acc[i]);
  if constexpr (config.outputLastRow) {
    npurt_detail::CheckLocal(lastRowTensor.GetPhyAddr(), uint64_t{last_n} * sizeof(T), kApi);
    for (uint32_t k = 0; k < last_n; ++k) {
      lastRowTensor.GetPhyAddr()[k] =
          static_cast<T>(config.isLastAxis ? acc[uint64_t{k} * cols + cols - 1] : acc[uint64_t{rows - 1} * cols + k]);
    }
  }
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
__aicore__ inline void CumSum(LocalTensor<T>& dstTensor, LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                              const CumSumInfo& cumSumInfo) {
  LocalTensor<uint8_t> none;
  CumSum<T, config>(dstTensor, lastRowTensor, srcTensor, none, cumSumInfo);
}

}  // namespace AscendC
