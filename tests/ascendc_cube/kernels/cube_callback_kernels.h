// Host function of cube_callback_kernels.cpp: a Matmul whose A and B come through MatmulCallBackFunc's
// CopyA1 / CopyB1 on one cube core.
#pragma once

#include <cstdint>

// a: M x K half with rows lda (> K) elements apart; list: a device uint64 holding B's address (K x N half);
// bias and c: N floats and M x N floats; tiling: a device copy of a kernel-side TCubeTiling for M x N x K.
int32_t CubeMmCallback(void* stream, void* a, uint32_t lda, void* list, void* bias, void* c, void* tiling);
