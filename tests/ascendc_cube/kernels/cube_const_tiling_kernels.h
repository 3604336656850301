// Host function of cube_const_tiling_kernels.cpp: Matmul with constant tilings (GetMatmulApiTiling).
#pragma once

#include <cstdint>

// C[m, n] (float) = A[m, k] x B[k, n] (half) on one block. withShape 1: the constant tiling carries the
// single-core shape (m, n, k fixed at 40 x 72 x 50); 0: only the base block, the kernel gives the shapes with
// SetOrgShape and SetSingleShape. Both register the object with a null TCubeTiling.
int32_t CubeMmConstTiling(void* stream, void* a, void* b, void* c, uint32_t m, uint32_t n, uint32_t k,
                          uint32_t withShape);
