// The benchmark's Matmul kernel, as CANN's matmul sample writes it: each block takes its singleCoreM x
// singleCoreN tile of C from its index, sets its tail and runs IterateAll.
#include "kernel_operator.h"
// A cube-only kernel (GM operands, one block per cube core), as CANN's cube-only samples declare it: without
// this the kernel would be mixed, two vector cores per block driving the Matmul.
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
#include "cube_bench_kernels.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void bench_cube_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace,
                                                        GM_ADDR tilingGm) {
  SetSysWorkspace(workspace);
  TCubeTiling tiling;
  auto* words = reinterpret_cast<int32_t*>(&tiling);
  for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i)
    words[i] = reinterpret_cast<__gm__ int32_t*>(tilingGm)[i];
  if (GetBlockIdx() >= tiling.usedCoreNum) return;
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  const int32_t mBlocks = (tiling.M + tiling.singleCoreM - 1) / tiling.singleCoreM;
  const int32_t mIdx = static_cast<int32_t>(GetBlockIdx()) % mBlocks,
                nIdx = static_cast<int32_t>(GetBlockIdx()) / mBlocks;
  const int32_t m0 = mIdx * tiling.singleCoreM, n0 = nIdx * tiling.singleCoreN;
  mm.SetTail(tiling.M - m0 < tiling.singleCoreM ? tiling.M - m0 : tiling.singleCoreM,
             tiling.N - n0 < tiling.singleCoreN ? tiling.N - n0 : tiling.singleCoreN);
  mm.SetTensorA(aGm[static_cast<uint64_t>(m0) * tiling.Ka]);
  mm.SetTensorB(bGm[n0]);
  mm.IterateAll(cGm[static_cast<uint64_t>(m0) * tiling.N + n0]);
  mm.End();
}

int32_t BenchCubeMatmul(uint32_t blocks, void* stream, void* a, void* b, void* c, void* workspace, void* tiling) {
  return bench_cube_matmul<<<blocks, nullptr, stream>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                                        static_cast<uint8_t*>(c), static_cast<uint8_t*>(workspace),
                                                        static_cast<uint8_t*>(tiling));
}
