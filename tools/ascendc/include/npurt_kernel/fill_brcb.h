// Ascend C fills for the sim: InitGlobalMemory / Fill (global memory) and Brcb (unified buffer).
// Part of kernel_operator.h.
//   InitGlobalMemory(gm, size, value), Fill, InitOutput (same)   gm[0 .. size) = value (checked under
//       NPURT_SIM_MEMCHECK, as DataCopy is)
//   Brcb(dst, src, repeatTimes, BrcbRepeatParams)   repeat r takes src[8r .. 8r + 8) and fills dst's block
//       b of that repeat (at r * dstRepStride + b * dstBlkStride 32-byte blocks; a dstBlkStride of 0
//       counts as 1) with src[8r + b].
#pragma once

#include "npurt_kernel/tensor.h"

namespace AscendC {

template <typename T>
__aicore__ inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  __gm__ T* p = gmWorkspaceAddr.GetPhyAddr();
  npurt_detail::CheckGlobal(p, size * sizeof(T), true, "InitGlobalMemory");
  for (uint64_t i = 0; i < size; ++i) p[i] = value;
}

template <typename T>
__aicore__ inline void Fill(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const T value) {
  InitGlobalMemory(gmWorkspaceAddr, size, value);
}

// The older name of InitGlobalMemory (samples still call it to zero an output before atomic accumulation).
template <typename T>
__aicore__ inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, const uint64_t size, const T value) {
  InitGlobalMemory(gmWorkspaceAddr, size, value);
}

struct BrcbRepeatParams {
  __aicore__ BrcbRepeatParams() {}
  __aicore__ BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
      : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
  uint32_t blockNumber = 8;  // reserved
  uint16_t dstBlkStride = 1;
  uint16_t src0BlkStride = 1;  // reserved
  uint16_t src1BlkStride = 1;  // reserved
  uint16_t dstRepStride = 8;
  uint8_t src0RepStride = 8;  // reserved
  uint8_t src1RepStride = 8;  // reserved
  bool repeatStrideMode = false;  // reserved
  bool strideSizeMode = false;    // reserved
};

template <typename T>
__aicore__ inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t repeatTimes,
                            const BrcbRepeatParams& repeatParams) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "Brcb: 16- or 32-bit elements only");
  constexpr uint32_t kPerBlock = 32 / sizeof(T);
  const uint64_t blk = repeatParams.dstBlkStride == 0 ? 1 : repeatParams.dstBlkStride;
  if (repeatTimes == 0) return;
  const uint64_t last_block = (repeatTimes - 1ull) * repeatParams.dstRepStride + 7 * blk;  // in 32-byte blocks
  npurt_detail::CheckLocal(src0.GetPhyAddr(), 8ull * repeatTimes * sizeof(T), "Brcb");
  npurt_detail::CheckLocal(dst.GetPhyAddr(), (last_block + 1) * 32, "Brcb");
  const T* s = src0.GetPhyAddr();
  T* d = dst.GetPhyAddr();
  for (uint32_t r = 0; r < repeatTimes; ++r) {
    for (uint32_t b = 0; b < 8; ++b) {
      T* block = d + (r * uint64_t{repeatParams.dstRepStride} + b * blk) * kPerBlock;
      for (uint32_t e = 0; e < kPerBlock; ++e) block[e] = s[8 * r + b];
    }
  }
}

}  // namespace AscendC
