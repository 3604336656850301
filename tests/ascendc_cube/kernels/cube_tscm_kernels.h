// Host function of cube_tscm_kernels.cpp: a Matmul whose A the kernel puts in TSCM itself.
#pragma once

#include <cstdint>

// C[m, n] (float) = A (half, NZ: m aligned to 16 rows, copied GM -> TSCM through a TSCM<GM> queue) x B[k, n]
// (half, ND in GM) on one block; tiling: a device copy of the kernel-side TCubeTiling.
int32_t CubeMmTscm(void* stream, void* a, void* b, void* c, void* tiling, uint32_t aElems);
