// The device code and its launch, in the mixed style of Ascend C: `VectorAdd<<<blocks, l2ctrl, stream>>>`.
#include "kernel_operator.h"
#include "vector_add_kernel.h"

// A plain scalar loop: each block takes a contiguous slice of the vectors.
extern "C" __global__ __aicore__ void VectorAdd(__gm__ const float* x, __gm__ const float* y, __gm__ float* z,
                                                float alpha, uint32_t n)
{
    const uint32_t blocks = static_cast<uint32_t>(AscendC::GetBlockNum());
    const uint32_t per = (n + blocks - 1) / blocks;
    const uint32_t begin = per * static_cast<uint32_t>(AscendC::GetBlockIdx());
    const uint32_t end = begin + per < n ? begin + per : n;
    for (uint32_t i = begin; i < end; ++i) {
        z[i] = x[i] + alpha * y[i];
    }
}

int32_t LaunchVectorAdd(uint32_t blockDim, void* stream, const float* x, const float* y, float* z, float alpha,
                        uint32_t n)
{
    return static_cast<int32_t>(VectorAdd<<<blockDim, nullptr, stream>>>(x, y, z, alpha, n));
}
