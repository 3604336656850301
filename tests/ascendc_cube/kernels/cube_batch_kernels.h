// Host function of cube_batch_kernels.cpp: batch matmul (IterateBatch / IterateNBatch) on one cube core.
#pragma once

#include <cstdint>

// variant 0: A, B (transposed), C in BSNGD, half -> float, bias per batch, IterateBatch to GM;
// 1: NORMAL (BMNK), A transposed, one bias for every batch (isBiasBatch false), IterateBatch to GM;
// 2: A and B in SBNGD, C in BNGS1S2, IterateBatch into a VECIN tensor, copied out to c;
// 3: BSNGD, IterateNBatch of `loops` loops (isNBatch) into the workspace `ws`, enSequentialWrite.
// batchA/batchB: the batches of one IterateBatch. tiling: a device copy of a kernel-side TCubeTiling.
int32_t CubeMmBatch(void* stream, uint32_t variant, void* a, void* b, void* bias, void* c, void* ws, void* tiling,
                    uint32_t batchA, uint32_t batchB, uint32_t loops);
