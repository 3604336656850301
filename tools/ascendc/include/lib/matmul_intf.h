// lib/matmul_intf.h for npurt's simulated NPU: the Matmul high-level API (CANN's include path), for kernels
// built with npurt's ascendc.cmake.
//
//   using namespace matmul;  (or AscendC::)
//   Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
//          MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
//   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
//   mm.SetTensorA(aGm); mm.SetTensorB(bGm); mm.SetBias(biasGm); mm.IterateAll(cGm); mm.End();
//
// The tiling is the kernel-side TCubeTiling (kernel_tiling/kernel_tiling.h) that the host's
// matmul_tiling::MultiCoreMatmulTiling / MatmulApiTiling compute. What the sim does and supports:
// npurt_kernel/matmul_impl.h and docs/kernels.md.
#ifndef NPURT_LIB_MATMUL_INTF_H_
#define NPURT_LIB_MATMUL_INTF_H_

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "npurt_kernel/matmul_impl.h"

// CANN's kernels write `using namespace matmul;` and then call every AscendC name unqualified
// (GetBlockIdx(), GetSysWorkSpacePtr(), TPosition, ...): the namespace brings in all of AscendC, Matmul included.
namespace matmul {
using namespace AscendC;
}  // namespace matmul

// Global, as in CANN: Matmul kernels call GetTPipePtr() unqualified.
using AscendC::GetTPipePtr;

#endif  // NPURT_LIB_MATMUL_INTF_H_
