// Host function of cube_mix_kernels.cpp: launches the mixed Matmul kernel on `blocks` blocks.
#pragma once

#include <cstdint>

// out: 3 int32 per vector core (2 per block); tiling: a device copy of a kernel-side TCubeTiling.
int32_t CubeMixMatmulIds(uint32_t blocks, void* stream, void* out, void* workspace, void* tiling);
