// A kernel defined in a header (included by gen_kernels.cpp only), written without extern "C" as CANN's
// newer samples write kernels: its entry goes into the device pass of the source that includes it.
#pragma once

#include "kernel_operator.h"

__global__ __aicore__ void gen_in_header(GM_ADDR out, uint32_t value) {
  const uint32_t b = static_cast<uint32_t>(AscendC::GetBlockIdx());
  reinterpret_cast<__gm__ uint32_t*>(out)[b] = value + 7u * b;
}
