// Kernels of the batch matmul tests: the Matmul API's IterateBatch / IterateNBatch over LayoutMode BSNGD,
// SBNGD, BNGS1S2 and NORMAL operands, as asc-devkit's batch_matmul samples drive them.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "cube_kernel_tiling.h"
#include "cube_batch_kernels.h"

using namespace AscendC;

namespace {

constexpr MatmulConfig kBiasOnce = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false});
constexpr MatmulConfig kNBatch = GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
    MatmulBatchParams{true, BatchMode::BATCH_LESS_THAN_L1});

template <LayoutMode LA, LayoutMode LB, LayoutMode LC, bool TA, bool TB, const auto& CFG = CFG_NORM>
using BatchMm = Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half, TA, LA>,
                       MatmulType<TPosition::GM, CubeFormat::ND, half, TB, LB>,
                       MatmulType<TPosition::GM, CubeFormat::ND, float, false, LC>,
                       MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG>;

template <class MM>
__aicore__ inline void Setup(MM& mm, TPipe& pipe, const TCubeTiling& t, GM_ADDR a, GM_ADDR b, GM_ADDR bias,
                             bool ta, bool tb) {
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> biasGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a));
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b));
  biasGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(bias));
  mm.SetTensorA(aGm, ta);
  mm.SetTensorB(bGm, tb);
  if (t.isBias) mm.SetBias(biasGm);
}

}  // namespace

extern "C" __global__ __aicore__ void cube_mm_batch(uint32_t variant, GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    GM_ADDR ws, GM_ADDR tilingGm, uint32_t batchA, uint32_t batchB,
                                                    uint32_t loops) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);
  TCubeTiling t = LoadCubeTiling(tilingGm);
  GlobalTensor<float> cGm;
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c));
  TPipe pipe;
  if (variant == 0) {
    BatchMm<LayoutMode::BSNGD, LayoutMode::BSNGD, LayoutMode::BSNGD, false, true> mm;
    Setup(mm, pipe, t, a, b, bias, false, true);
    mm.IterateBatch(cGm, batchA, batchB, false);
    mm.End();
  } else if (variant == 1) {
    BatchMm<LayoutMode::NORMAL, LayoutMode::NORMAL, LayoutMode::NORMAL, true, false, kBiasOnce> mm;
    Setup(mm, pipe, t, a, b, bias, true, false);
    mm.IterateBatch(cGm, batchA, batchB, false);
    mm.End();
  } else if (variant == 2) {
    BatchMm<LayoutMode::SBNGD, LayoutMode::SBNGD, LayoutMode::BNGS1S2, false, false> mm;
    Setup(mm, pipe, t, a, b, bias, false, false);
    const uint32_t elems = static_cast<uint32_t>(t.CLayoutInfoB * t.CLayoutInfoN * t.CLayoutInfoG) *
                           static_cast<uint32_t>(t.CLayoutInfoS1 * t.CLayoutInfoS2);
    TQue<TPosition::VECIN, 1> q;
    pipe.InitBuffer(q, 1, elems * sizeof(float));
    LocalTensor<float> ub = q.AllocTensor<float>();
    mm.IterateBatch(ub, batchA, batchB, false);
    mm.End();
    DataCopy(cGm, ub, elems);
    q.FreeTensor(ub);
  } else {
    BatchMm<LayoutMode::BSNGD, LayoutMode::BSNGD, LayoutMode::BSNGD, false, true, kNBatch> mm;
    Setup(mm, pipe, t, a, b, bias, false, true);
    GlobalTensor<float> wsGm;
    wsGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(ws));
    mm.SetWorkspace(wsGm);
    mm.IterateNBatch(loops, batchA, batchB, true);
    mm.WaitIterateBatch();
    mm.End();
  }
}

int32_t CubeMmBatch(void* stream, uint32_t variant, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                    uint32_t batchA, uint32_t batchB, uint32_t loops) {
  return cube_mm_batch<<<1, nullptr, stream>>>(variant, static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                               static_cast<uint8_t*>(bias), static_cast<uint8_t*>(c),
                                               static_cast<uint8_t*>(ws), static_cast<uint8_t*>(tiling), batchA,
                                               batchB, loops);
}
