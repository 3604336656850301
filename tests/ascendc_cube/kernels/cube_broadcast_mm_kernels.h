// Host function of cube_broadcast_mm_kernels.cpp: BroadCastVecToMM from the unified buffer into L0C.
#pragma once

#include <cstdint>

// `src` (float) -> UB; BroadCastVecToMM(CO1, UB, blockCount, blockLen, srcGap, dstGap) over L0C filled with
// `fill`; the first `outElems` floats of L0C -> `out`.
int32_t CubeBroadcastVecToMm(void* stream, void* src, void* out, uint32_t srcElems, uint32_t outElems,
                             uint32_t blockCount, uint32_t blockLen, uint32_t srcGap, uint32_t dstGap, float fill);
