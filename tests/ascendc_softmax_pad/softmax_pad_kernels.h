// Host launchers of softmax_pad_kernels.cpp (kernels of the SoftMax / Pad / UnPad tests).
#pragma once
#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"

// kind: 0 float, 1 half, 2 half data with float max and sum. tmp_bytes 0: the API without a temporary buffer.
uint32_t SpSoftMax(int kind, void* stream, void* x, void* y, void* max, void* sum, const SoftMaxTiling& tiling,
                   uint32_t tmp_bytes, uint32_t in_place);
// kind: 0 int16_t, 1 float.
uint32_t SpPad(int kind, void* stream, void* x, void* y, const PadTiling& tiling, int32_t pad_value,
               uint32_t in_place);
// half.
uint32_t SpUnPad(void* stream, void* x, void* y, const UnPadTiling& tiling, uint32_t right_pad);
