// tiling/tiling_api.h for npurt: the host tiling SDK of Ascend C programs (libtiling_api.so, with
// libplatform.so and libregister.so): the TilingData macros (register/tilingdata_base.h), the host
// classes of the kernel tiling structures (optiling::TCubeTiling, ...), the platform
// (tiling/platform/platform_ascendc.h), the matmul tiling (tiling/matmul_tiling.h) and the vector APIs'
// tilings (tiling/vector_tiling.h: SoftMax, LogSoftMax, SoftmaxFlashV2, Pad, UnPad). docs/kernels.md,
// "Host tiling".
#ifndef NPURT_TILING_TILING_API_H_
#define NPURT_TILING_TILING_API_H_

// Host programs print with std::cout after including only this (as with CANN, whose tiling headers bring
// <iostream> in: asc-devkit's matmul samples rely on it).
#include <iostream>

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/matmul_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_types.h"
#include "tiling/vector_tiling.h"
#include "tiling/adv_cumsum_tiling.h"
#include "tiling/adv_math_tiling.h"
#include "tiling/adv_norm_tiling.h"
#include "tiling/adv_quant_tiling.h"
#include "tiling/adv_reduce_tiling.h"
#include "tiling/adv_layernorm_tiling.h"
#include "tiling/adv_layernorm_v2_tiling.h"
#include "tiling/adv_sort_tiling.h"
#include "tiling/adv_welford_tiling.h"
#include "tiling/adv_select_reduce_tiling.h"
#include "tiling/adv_softmax_tiling.h"

#endif  // NPURT_TILING_TILING_API_H_
