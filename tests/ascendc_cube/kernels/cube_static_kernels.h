// Host function of cube_static_kernels.cpp: launches its kernel with <<<>>> on `stream`, returns the aclError.
#pragma once

#include <cstdint>

#include "cube_basic_kernels.h"

// C[m, n] (float) = A[m, k] x B[k, n] (half), with the cube memories carved by LocalMemAllocator<Hardware::L1,
// L0A, L0B, L0C> (explicit 0) or placed at byte addresses with LocalTensor(TPosition, address, length) (1).
int32_t CubeMmStaticF16(void* stream, void* a, void* b, void* c, CubeMmArgs args, uint32_t explicit_addresses);
