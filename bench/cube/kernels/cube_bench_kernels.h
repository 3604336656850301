// Host function of cube_bench_kernels.cpp: launches the Matmul kernel on `blocks` blocks with <<<>>>.
#pragma once

#include <cstdint>

// C (float, M x N) = A (half, M x K) x B (half, K x N), all ND, as `tiling` (a device copy of the kernel-side
// TCubeTiling) splits it over the blocks.
int32_t BenchCubeMatmul(uint32_t blocks, void* stream, void* a, void* b, void* c, void* workspace, void* tiling);
