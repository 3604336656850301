// Host function of cube_co1_kernels.cpp: Matmul::Iterate into the kernel's own CO1 tensor on one cube core.
#pragma once

#include <cstdint>

// C (M x N floats) = 2 * (A x B + bias): every block computed twice into its CO1 slot, the second time with
// enPartialSum, then taken out with Fixpipe. tiling: a device copy of a kernel-side TCubeTiling (M first).
int32_t CubeMmCo1(void* stream, void* a, void* b, void* bias, void* c, void* tiling);
