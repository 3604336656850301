// DataCopy out of L0C through the fixpipe with DataCopyCO12DstParams (CO1 -> GM, or CO1 -> A1/B1), and the
// fixpipe's registers that form reads: SetFixpipePreQuantFlag (the scalar quantisation word) and
// SetFixpipeNz2ndFlag (ndNum, srcNdStride, dstNdStride of the NZ-to-ND conversion). Part of kernel_operator.h.
//
// The copy is Fixpipe (fixpipe.h) with: nSize, mSize, srcStride (NZ rows of the source), dstStride (ND: elements
// between rows; NZ: 32-byte units between 16-column blocks), quantPre, reluPre (0 none, 1 relu), nz2ndEn (ND
// output, the Nz2nd flag's matrices; else NZ), the scalar from SetFixpipePreQuantFlag (its float in the low 32
// bits) and the per-column scales from SetFixPipeConfig. reluPre other than 0 and 1, channelSplit and
// eltWiseOp fail the kernel.
#pragma once

#include "npurt_kernel/fixpipe.h"

namespace AscendC {

constexpr uint16_t DEFAULT_DATA_COPY_STRIDE = 0;

struct DataCopyCO12DstParams {
  __aicore__ DataCopyCO12DstParams() = default;
  __aicore__ DataCopyCO12DstParams(uint16_t nSizeIn, uint16_t mSizeIn, uint32_t dstStrideIn, uint16_t srcStrideIn,
                                   QuantMode_t quantPreIn, uint8_t reluPreIn, bool channelSplitIn, bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}
  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = DEFAULT_DATA_COPY_STRIDE;
  uint16_t srcStride = DEFAULT_DATA_COPY_STRIDE;
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;
  uint8_t eltWiseOp = 0;
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

namespace npurt_detail {

// The fixpipe's flag registers, for the block that set them (a block starts with ndNum 1 and a zero scalar).
struct FixpipeFlagRegisters {
  const void* quantBlock = nullptr;
  uint64_t quant = 0;
  const void* ndBlock = nullptr;
  uint16_t ndNum = 1, srcNdStride = 0, dstNdStride = 0;
};
inline thread_local FixpipeFlagRegisters g_fpflags;

template <typename T, typename U>
inline void CopyCo1Out(T* dst, bool dstGlobal, const U* src, const DataCopyCO12DstParams& p) {
  if (p.reluPre > 1) Fail("DataCopy(DataCopyCO12DstParams): reluPre %u is not supported (0 none, 1 relu)", p.reluPre);
  if (p.channelSplit) Fail("DataCopy(DataCopyCO12DstParams): channelSplit is not supported on the sim");
  if (p.eltWiseOp != 0 || p.clipReluPre != 0) {
    Fail("DataCopy(DataCopyCO12DstParams): eltWiseOp and clipReluPre are not supported on the sim");
  }
  FixpipeParamsV220 f(p.nSize, p.mSize, p.srcStride, p.dstStride, p.reluPre == 1);
  f.quantPre = p.quantPre;
  f.deqScalar = g_fpflags.quantBlock == g_state.block ? g_fpflags.quant : 0;
  if (p.nz2ndEn && g_fpflags.ndBlock == g_state.block) {
    f.ndNum = g_fpflags.ndNum, f.srcNdStride = g_fpflags.srcNdStride, f.dstNdStride = g_fpflags.dstNdStride;
  }
  if (p.nz2ndEn) {
    FixpipeRun<T, U, CO2Layout::ROW_MAJOR>(dst, dstGlobal, src, f, ConfiguredScales());
  } else {
    FixpipeRun<T, U, CO2Layout::NZ>(dst, dstGlobal, src, f, ConfiguredScales());
  }
}

}  // namespace npurt_detail

__aicore__ inline void SetFixpipePreQuantFlag(uint64_t config) {
  npurt_detail::g_fpflags.quantBlock = npurt_detail::g_state.block;
  npurt_detail::g_fpflags.quant = config;
}

__aicore__ inline void SetFixpipeNz2ndFlag(uint16_t ndNum, uint16_t srcNdStride, uint16_t dstNdStride) {
  auto& r = npurt_detail::g_fpflags;
  r.ndBlock = npurt_detail::g_state.block, r.ndNum = ndNum, r.srcNdStride = srcNdStride, r.dstNdStride = dstNdStride;
}

template <typename T, typename U>
__aicore__ inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p) {
  npurt_detail::CopyCo1Out(dst.GetPhyAddr(), true, src.GetPhyAddr(), p);
}

template <typename T, typename U>
__aicore__ inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const DataCopyCO12DstParams& p) {
  npurt_detail::CopyCo1Out(dst.GetPhyAddr(), false, src.GetPhyAddr(), p);
}

}  // namespace AscendC
