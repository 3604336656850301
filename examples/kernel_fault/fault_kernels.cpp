// Two kernels for the fault example: Scale multiplies a vector in place; ScaleWithBadBlock does the same,
// except that block `badBlock` writes through a pointer that is not device memory.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void Scale(__gm__ float* data, float factor, uint32_t n)
{
    for (uint32_t i = static_cast<uint32_t>(AscendC::GetBlockIdx()); i < n; i += AscendC::GetBlockNum()) {
        data[i] *= factor;
    }
}

extern "C" __global__ __aicore__ void ScaleWithBadBlock(__gm__ float* data, float factor, uint32_t n, uint32_t badBlock)
{
    if (AscendC::GetBlockIdx() == badBlock) {
        __gm__ float* wild = reinterpret_cast<__gm__ float*>(static_cast<uintptr_t>(0x40));
        *wild = factor;  // AI core exception: the address is not mapped
    }
    for (uint32_t i = static_cast<uint32_t>(AscendC::GetBlockIdx()); i < n; i += AscendC::GetBlockNum()) {
        data[i] *= factor;
    }
}
