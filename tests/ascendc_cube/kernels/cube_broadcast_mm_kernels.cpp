// Kernel of the BroadCastVecToMM test: a vector into the unified buffer, broadcast into L0C fractals, L0C read
// back element by element (the sim's local memories are addressable).
#include "kernel_operator.h"
#include "cube_broadcast_mm_kernels.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void cube_broadcast_vec_to_mm(GM_ADDR src, GM_ADDR out, uint32_t srcElems,
                                                               uint32_t outElems, uint32_t blockCount,
                                                               uint32_t blockLen, uint32_t srcGap, uint32_t dstGap,
                                                               float fill) {
  GlobalTensor<float> srcGm, outGm;
  srcGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(src), srcElems);
  outGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(out), outElems);
  TPipe pipe;
  TQue<TPosition::VECIN, 1> qIn;
  TQue<TPosition::CO1, 1> qCO1;
  pipe.InitBuffer(qIn, 1, srcElems * sizeof(float));
  pipe.InitBuffer(qCO1, 1, outElems * sizeof(float));
  LocalTensor<float> in = qIn.AllocTensor<float>();
  DataCopy(in, srcGm, srcElems);
  LocalTensor<float> co1 = qCO1.AllocTensor<float>();
  for (uint32_t i = 0; i < outElems; ++i) co1.SetValue(i, fill);
  PipeBarrier<PIPE_ALL>();
  BroadCastVecToMM(co1, in, static_cast<int32_t>(blockCount), static_cast<uint8_t>(blockLen),
                   static_cast<uint8_t>(srcGap), static_cast<uint8_t>(dstGap));
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < outElems; ++i) outGm.SetValue(i, co1.GetValue(i));
  qCO1.FreeTensor(co1);
  qIn.FreeTensor(in);
}

int32_t CubeBroadcastVecToMm(void* s, void* src, void* out, uint32_t srcElems, uint32_t outElems, uint32_t blockCount,
                             uint32_t blockLen, uint32_t srcGap, uint32_t dstGap, float fill) {
  return cube_broadcast_vec_to_mm<<<1, nullptr, s>>>(static_cast<uint8_t*>(src), static_cast<uint8_t*>(out), srcElems,
                                                     outElems, blockCount, blockLen, srcGap, dstGap, fill);
}
