// A kernel as CANN's mixed Matmul samples write it: `__global__ __aicore__`, the Matmul object registered in its
// body, no ASCENDC_CUBE_ONLY, the system workspace marked `__kfc_workspace__`. The generator makes it mixed (one
// cube and two vector cores per block) and its entry hands the workspace to SetSysWorkspace.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "cube_mix_kernels.h"

using namespace AscendC;

// Each vector core writes {GetBlockIdx(), GetBlockNum(), whether GetSysWorkSpacePtr() is the workspace} at its
// index in `out` (int32 triples).
extern "C" __global__ __aicore__ void cube_mix_matmul_ids(GM_ADDR out, __kfc_workspace__ GM_ADDR workspace,
                                                          GM_ADDR tilingGm) {
  TCubeTiling tiling;
  auto* src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
  auto* dst = reinterpret_cast<int32_t*>(&tiling);
  for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
  TPipe pipe;
  Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
         MatmulType<TPosition::GM, CubeFormat::ND, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  auto* ids = reinterpret_cast<__gm__ int32_t*>(out) + 3 * GetBlockIdx();
  ids[0] = static_cast<int32_t>(GetBlockIdx());
  ids[1] = static_cast<int32_t>(GetBlockNum());
  ids[2] = GetSysWorkSpacePtr() == workspace ? 1 : 0;
}

int32_t CubeMixMatmulIds(uint32_t blocks, void* stream, void* out, void* workspace, void* tiling) {
  return cube_mix_matmul_ids<<<blocks, nullptr, stream>>>(static_cast<uint8_t*>(out), static_cast<uint8_t*>(workspace),
                                                          static_cast<uint8_t*>(tiling));
}
