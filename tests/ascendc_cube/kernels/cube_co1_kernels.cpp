// Kernel of the CO1-output Matmul test: C as MatmulType<TPosition::CO1, CubeFormat::NZ, float>, the blocks
// kept in a CO1 queue of Impl::QUEUE_DEPTH the kernel owns, as asc-devkit's matmul_co1_output drives it.
#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
#include "cube_kernel_tiling.h"
#include "cube_co1_kernels.h"

using namespace AscendC;

extern "C" __global__ __cube__ void cube_mm_co1(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm) {
  TCubeTiling t = LoadCubeTiling(tilingGm);
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::CO1, CubeFormat::NZ, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> biasGm, cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  mm.SetTensorA(aGm);
  mm.SetTensorB(bGm);
  mm.SetBias(biasGm);
  const int32_t mIter = (t.singleCoreM + t.baseM - 1) / t.baseM, nIter = (t.singleCoreN + t.baseN - 1) / t.baseN;
  const int32_t slot = t.baseM * t.baseN;
  TQue<TPosition::CO1, Impl::QUEUE_DEPTH> co1;
  pipe.InitBuffer(co1, 1, mIter * nIter * slot * sizeof(float));
  LocalTensor<float> l0c = co1.AllocTensor<float>();
  for (int pass = 0; pass < 2; ++pass) {
    for (int32_t i = 0; mm.Iterate(pass == 1, l0c[i * slot]); ++i) {
    }
  }
  co1.EnQue(l0c);
  co1.DeQue<float>();
  for (int32_t i = 0; i < mIter * nIter; ++i) {
    const int32_t m0 = (i % mIter) * t.baseM, n0 = (i / mIter) * t.baseN;  // iterateOrder 0: along M first
    FixpipeParamsV220 p;
    p.mSize = static_cast<uint16_t>(t.singleCoreM - m0 < t.baseM ? t.singleCoreM - m0 : t.baseM);
    p.nSize = static_cast<uint16_t>(t.singleCoreN - n0 < t.baseN ? t.singleCoreN - n0 : t.baseN);
    p.srcStride = static_cast<uint16_t>((p.mSize + 15) / 16 * 16);
    p.dstStride = static_cast<uint32_t>(t.N);
    Fixpipe<float, float, CFG_ROW_MAJOR>(cGm[m0 * t.N + n0], l0c[i * slot], p);
  }
  co1.FreeTensor(l0c);
  co1.FreeAllEvent();
  mm.End();
}

int32_t CubeMmCo1(void* stream, void* a, void* b, void* bias, void* c, void* tiling) {
  return cube_mm_co1<<<1, nullptr, stream>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                             static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c),
                                             static_cast<uint8_t*>(tiling));
}
