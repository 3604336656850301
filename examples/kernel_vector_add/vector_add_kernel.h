// Launches VectorAdd on `blockDim` blocks: z[i] = x[i] + alpha * y[i] for i < n. Returns an aclError code.
#pragma once

#include <cstdint>

int32_t LaunchVectorAdd(uint32_t blockDim, void* stream, const float* x, const float* y, float* z, float alpha,
                        uint32_t n);
