// Host functions that launch the kernels of block_sync_kernels.cpp (blocks synchronising through global
// memory). Each returns the launch's aclError.
#pragma once

#include <cstdint>

int32_t IbChain(uint32_t blocks, void* stream, const int32_t* x, int32_t* out, int32_t* sync, uint32_t rounds);
int32_t OrderedLog(uint32_t blocks, void* stream, int32_t* log, int32_t* ws, uint32_t rounds);
int32_t GroupBarrierSum(uint32_t blocks, void* stream, const int32_t* x, int32_t* vals, int32_t* out, void* ws,
                        uint32_t arrive, uint32_t wait, uint32_t rounds);
int32_t BypassPoll(uint32_t blocks, void* stream, int32_t* data, int32_t* flag, int32_t* out, uint32_t n,
                   int32_t seed);
int32_t IbWaitForever(uint32_t blocks, void* stream, int32_t* sync);
