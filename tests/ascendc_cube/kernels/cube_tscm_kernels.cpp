// Kernel of the TSCM test: A (NZ) copied GM -> TSCM (the cube's share of L1) through a TSCM<TPosition::GM>
// queue, then a Matmul with A_TYPE in TPosition::TSCM, as asc-devkit's matmul_tscm sample does on one core.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "cube_tscm_kernels.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void cube_mm_tscm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tilingGm,
                                                   uint32_t aElems) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  TCubeTiling tiling = *reinterpret_cast<__gm__ TCubeTiling*>(tilingGm);
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), aElems);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), tiling.Kb * tiling.N);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), tiling.M * tiling.N);
  TPipe pipe;
  Matmul<MatmulType<TPosition::TSCM, CubeFormat::NZ, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  TSCM<TPosition::GM, 1> scm;
  pipe.InitBuffer(scm, 1, aElems * sizeof(half));
  LocalTensor<half> scmTensor = scm.AllocTensor<half>();
  DataCopy(scmTensor, aGm, aElems);
  scm.EnQue(scmTensor);
  LocalTensor<half> scmLocal = scm.DeQue<half>();
  mm.SetTensorA(scmLocal);
  mm.SetTensorB(bGm);
  mm.IterateAll(cGm);
  mm.End();
  scm.FreeTensor(scmLocal);
}

int32_t CubeMmTscm(void* s, void* a, void* b, void* c, void* tiling, uint32_t aElems) {
  return cube_mm_tscm<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b), static_cast<uint8_t*>(c),
                                         static_cast<uint8_t*>(tiling), aElems);
}
