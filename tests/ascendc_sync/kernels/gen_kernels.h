// Kernels of gen_kernels.cpp declared for another source of the library (gen_launch.cpp), which launches them
// with <<<>>>: the generator declares their launchers after the include of this header.
#pragma once

#include "kernel_operator.h"

template <typename T>
__global__ __aicore__ void gen_scale(GM_ADDR x, GM_ADDR y, T factor, uint32_t n);
__aicore__ __global__ void gen_plain(GM_ADDR out, uint32_t value);

__global__ __aicore__ void gen_in_header(GM_ADDR out, uint32_t value);  // defined in gen_kernel_defs.h
