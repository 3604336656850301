// Kernels of the constant-tiling Matmul tests: MatmulApiStaticTiling from GetMatmulApiTiling over
// GetMMConfig<CONFIG_MDL>(MatmulShapeParams), with and without the single-core shape, as asc-devkit's
// matmul_constant_tiling and matmul_l0cache samples build them.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
#include "cube_const_tiling_kernels.h"

using namespace AscendC;

namespace {

using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;

constexpr MatmulApiStaticTiling kShaped =
    GetMatmulApiTiling<AType, BType, CType, CType>(GetMMConfig<MatmulConfigMode::CONFIG_MDL>(
        MatmulShapeParams{40, 72, 50, 32, 32, 32}));
constexpr MatmulApiStaticTiling kBaseOnly =
    GetMatmulApiTiling<AType, BType, CType, CType>(GetMMConfig<MatmulConfigMode::CONFIG_NORM>(
        MatmulShapeParams{0, 0, 0, 32, 48, 32}));
static_assert(kShaped.baseM == 32 && kShaped.singleCoreN == 72 && kShaped.Ka == 50, "the shaped constant tiling");
static_assert(kBaseOnly.baseN == 48 && kBaseOnly.singleCoreM == -1, "the base-only constant tiling");
static_assert(Ceil<int64_t>(7, 2) == 4 && Ceil<int64_t>(8, 2) == 4, "Ceil of integers rounds up");

template <const auto& CFG>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n, uint32_t k, bool setShape) {
  GlobalTensor<half> aGm, bGm;
  GlobalTensor<float> cGm;
  aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), m * k);
  bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), k * n);
  cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), m * n);
  TPipe pipe;
  Matmul<AType, BType, CType, CType, CFG> mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, (TCubeTiling*)nullptr);
  if (setShape) {
    mm.SetOrgShape(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k));
    mm.SetSingleShape(static_cast<int>(m), static_cast<int>(n), static_cast<int>(k));
  }
  mm.SetTensorA(aGm);
  mm.SetTensorB(bGm);
  mm.IterateAll(cGm);
  mm.End();
}

}  // namespace

extern "C" __global__ __aicore__ void cube_mm_const_tiling(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t m, uint32_t n,
                                                           uint32_t k, uint32_t withShape) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  if (withShape != 0) {
    Run<kShaped>(a, b, c, m, n, k, false);
  } else {
    Run<kBaseOnly>(a, b, c, m, n, k, true);
  }
}

int32_t CubeMmConstTiling(void* s, void* a, void* b, void* c, uint32_t m, uint32_t n, uint32_t k,
                          uint32_t withShape) {
  return cube_mm_const_tiling<<<1, nullptr, s>>>(static_cast<uint8_t*>(a), static_cast<uint8_t*>(b),
                                                 static_cast<uint8_t*>(c), m, n, k, withShape);
}
