// Kernel of the 4:2 sparse matmul test: A GM -> A1 -> A2 (LoadData2D), the dense B and its index GM -> B1,
// LoadDataWithSparse into B2, MmadWithSparse, L0C read back element by element (the sim's memories are
// addressable).
#include "kernel_operator.h"
#include "cube_sparse_kernels.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void cube_sparse_mm(GM_ADDR a, GM_ADDR b, GM_ADDR idx, GM_ADDR c, uint32_t m,
                                                     uint32_t n, uint32_t k, uint32_t twice) {
  const uint32_t m16 = (m + 15) / 16 * 16, n16 = (n + 15) / 16 * 16, k32 = (k + 31) / 32 * 32;
  const uint32_t kd32 = (k / 2 + 31) / 32 * 32;
  const uint32_t aBytes = m16 * k32, bBytes = kd32 * n16, idxBytes = bBytes / 4, cElems = m16 * n16;
  GlobalTensor<int8_t> aGm, bGm;
  GlobalTensor<uint8_t> idxGm;
  GlobalTensor<int32_t> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(a), aBytes);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ int8_t*>(b), bBytes);
  idxGm.SetGlobalBuffer(reinterpret_cast<__gm__ uint8_t*>(idx), idxBytes);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ int32_t*>(c), cElems);
  TPipe pipe;
  TQue<TPosition::A1, 1> qA1;
  TQue<TPosition::B1, 1> qB1, qIdx;
  TQue<TPosition::A2, 1> qA2;
  TQue<TPosition::B2, 1> qB2;
  TQue<TPosition::CO1, 1> qCO1;
  pipe.InitBuffer(qA1, 1, aBytes);
  pipe.InitBuffer(qB1, 1, bBytes);
  pipe.InitBuffer(qIdx, 1, idxBytes);
  pipe.InitBuffer(qA2, 1, aBytes);
  pipe.InitBuffer(qB2, 1, bBytes);
  pipe.InitBuffer(qCO1, 1, cElems * sizeof(int32_t));
  LocalTensor<int8_t> a1 = qA1.AllocTensor<int8_t>();
  LocalTensor<int8_t> b1 = qB1.AllocTensor<int8_t>();
  LocalTensor<uint8_t> ix = qIdx.AllocTensor<uint8_t>();
  DataCopy(a1, aGm, aBytes);
  DataCopy(b1, bGm, bBytes);
  DataCopy(ix, idxGm, idxBytes);
  PipeBarrier<PIPE_ALL>();
  LocalTensor<int8_t> a2 = qA2.AllocTensor<int8_t>();
  LocalTensor<int8_t> b2 = qB2.AllocTensor<int8_t>();
  LoadData(a2, a1, LoadData2DParams(0, static_cast<uint8_t>(aBytes / 512), 1, 0, 0, false, 0));
  LoadData2DParams lp;
  lp.repeatTimes = static_cast<uint8_t>(bBytes / 512);
  LoadDataWithSparse(b2, b1, ix, lp);
  PipeBarrier<PIPE_ALL>();
  LocalTensor<int32_t> co1 = qCO1.AllocTensor<int32_t>();
  MmadParams mp(static_cast<uint16_t>(m), static_cast<uint16_t>(n), static_cast<uint16_t>(k), false, 0, false, false,
                false);
  MmadWithSparse(co1, a2, b2, mp);
  if (twice != 0) {
    mp.cmatrixInitVal = false;
    MmadWithSparse(co1, a2, b2, mp);
  }
  PipeBarrier<PIPE_ALL>();
  for (uint32_t i = 0; i < cElems; ++i) cGm.SetValue(i, co1.GetValue(i));
  qCO1.FreeTensor(co1);
  qA1.FreeTensor(a1);
  qB1.FreeTensor(b1);
  qIdx.FreeTensor(ix);
  qA2.FreeTensor(a2);
  qB2.FreeTensor(b2);
}

int32_t CubeSparseMm(void* s, void* a, void* b, void* idx, void* c, uint32_t m, uint32_t n, uint32_t k,
                     uint32_t twice) {
  return cube_sparse_mm<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                           static_cast<uint8_t*>(idx), static_cast<uint8_t*>(c), m, n, k, twice);
}
