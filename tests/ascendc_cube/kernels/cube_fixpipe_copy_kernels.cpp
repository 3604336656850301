// Kernels of the DataCopyCO12DstParams tests: L0C filled from GM element by element (the sim's local memories
// are addressable), then DataCopy CO1 -> GM through the fixpipe with its flag registers, as asc-devkit's
// data_copy_l0c2gm sample drives it.
#include <cstring>

#include "kernel_operator.h"
#include "cube_fixpipe_copy_kernels.h"

using namespace AscendC;

namespace {

template <typename Acc, typename Out>
__aicore__ inline void FixpipeCopy(GM_ADDR src, GM_ADDR scales, GM_ADDR out, const FixpipeCopyArgs& p,
                                   QuantMode_t quant) {
  const uint32_t mA = (p.m + 15) / 16 * 16, nA = (p.n + 15) / 16 * 16;
  const uint32_t matrix = p.srcNdStride * 1024 / sizeof(Acc), total = (p.nd - 1) * matrix + mA * nA;
  GlobalTensor<Acc> srcGm;
  srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ Acc*>(src), total);
  GlobalTensor<Out> outGm;
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ Out*>(out));
  TPipe pipe;
  TQue<TPosition::CO1, 1> qCO1;
  pipe.InitBuffer(qCO1, 1, total * sizeof(Acc));
  LocalTensor<Acc> co1 = qCO1.AllocTensor<Acc>();
  for (uint32_t i = 0; i < total; ++i) co1.SetValue(i, srcGm.GetValue(i));
  if (quant == QuantMode_t::VREQ8) {
    TQue<TPosition::C1, 1> qL1;
    TQue<TPosition::C2PIPE2GM, 1> qFb;
    const uint32_t bursts = (p.n * 8 + 127) / 128;  // L1 -> the fixpipe buffer in 128-byte units
    pipe.InitBuffer(qL1, 1, bursts * 128);
    pipe.InitBuffer(qFb, 1, bursts * 128);
    GlobalTensor<uint64_t> scaleGm;
    scaleGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint64_t*>(scales), bursts * 16);
    LocalTensor<uint64_t> l1 = qL1.AllocTensor<uint64_t>();
    DataCopy(l1, scaleGm, bursts * 16);
    LocalTensor<uint64_t> fb = qFb.AllocTensor<uint64_t>();
    DataCopy(fb, l1, DataCopyParams(1, static_cast<uint16_t>(bursts), 0, 0));
    SetFixPipeConfig(fb);
  }
  uint32_t bits = 0;
  std::memcpy(&bits, &p.scale, sizeof bits);
  SetFixpipePreQuantFlag(bits);
  DataCopyCO12DstParams dp(static_cast<uint16_t>(p.n), static_cast<uint16_t>(p.m), p.dstStride,
                           static_cast<uint16_t>(mA), quant, static_cast<uint8_t>(p.relu), false, p.nz2nd != 0);
  if (p.nz2nd != 0) {
    SetFixpipeNz2ndFlag(static_cast<uint16_t>(p.nd), static_cast<uint16_t>(p.srcNdStride),
                        static_cast<uint16_t>(p.dstNdStride));
  }
  DataCopy(outGm, co1, dp);
  qCO1.FreeTensor(co1);
}

}  // namespace

extern "C" __global__ __aicore__ void cube_fixpipe_copy(GM_ADDR src, GM_ADDR scales, GM_ADDR out, FixpipeCopyArgs p) {
  if (p.mode == 0) {
    FixpipeCopy<int32_t, half>(src, scales, out, p, QuantMode_t::DEQF16);
  } else if (p.mode == 1) {
    FixpipeCopy<int32_t, int8_t>(src, scales, out, p, QuantMode_t::VREQ8);
  } else {
    FixpipeCopy<float, float>(src, scales, out, p, QuantMode_t::NoQuant);
  }
}

int32_t CubeFixpipeCopy(void* s, void* src, void* scales, void* out, FixpipeCopyArgs p) {
  return cube_fixpipe_copy<<<1, nullptr, s>>>(static_cast<uint8_t*>(src), static_cast<uint8_t*>(scales),
                                              static_cast<uint8_t*>(out), p);
}
