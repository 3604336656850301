// The kernel-side TCubeTiling of the cube test kernels, copied out of global memory as CANN's samples do.
#pragma once

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

__aicore__ inline TCubeTiling LoadCubeTiling(GM_ADDR tilingGm) {
  TCubeTiling t;
  auto* src = reinterpret_cast<__gm__ int32_t*>(tilingGm);
  auto* dst = reinterpret_cast<int32_t*>(&t);
  for (size_t i = 0; i < sizeof(TCubeTiling) / sizeof(int32_t); ++i) dst[i] = src[i];
  return t;
}
