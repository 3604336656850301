// Host functions of mix_kernels.cpp (mixed cube/vector kernels); each returns the launch's aclError.
#pragma once

#include <cstdint>

// KERNEL_TYPE_MIX_AIC_1_2 without code for the cube part: per vector participant p = GetBlockIdx(),
// ids[4p..4p+3] = {GetBlockIdx, GetSubBlockIdx, GetSubBlockNum, GetTaskRation}; y = 2 * x over `n` floats,
// each block's vector sub-blocks splitting its slice in halves through their own unified buffers.
int32_t MixSubBlocks(uint32_t blocks, void* stream, void* ids, const void* x, void* y, uint32_t n_per_block);
// __mix__(1, 2) with a cube part and cross-core flags, `rounds` times per block b:
//   vector sub-block s: vals[2b+s] = x[(2b+s)*rounds + r]; CrossCoreSetFlag<1>(5) then <2>(3); waits on 5
//   (both sub-blocks set: it reads the other's value into peer[(2b+s)*rounds + r]) and on 4;
//   cube part: waits on 3, sums[b*rounds + r] = vals[2b] + vals[2b+1] + 1000 * g_coreType, sets <2>(4);
//   then each sub-block copies sums[b*rounds + r] into echo[(2b+s)*rounds + r].
int32_t MixFlags(uint32_t blocks, void* stream, const void* x, void* vals, void* peer, void* sums, void* echo,
                 uint32_t rounds);
// A plain vector kernel using mode-0 flags as a barrier: vals[b] = x[b]; set and wait flag 7 (mode 0: every
// block); sums[b] = the sum of all vals.
int32_t MixModeZero(uint32_t blocks, void* stream, const void* x, void* vals, void* sums);
// CrossCoreSetFlag<2> from a vector kernel with no cube part: fails with a message.
int32_t MixFlagWithoutCube(void* stream, void* out);
