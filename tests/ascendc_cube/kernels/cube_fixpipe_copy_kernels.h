// Host functions of cube_fixpipe_copy_kernels.cpp: DataCopy(GM, CO1, DataCopyCO12DstParams) of accumulators the
// kernel writes into L0C itself.
#pragma once

#include <cstdint>

// The source: `nd` NZ matrices of m x n accumulators (int32 or float, 16-row fractals, srcStride = m aligned to
// 16 rows, the matrices 1024-byte units apart) copied GM -> CO1 element by element.
struct FixpipeCopyArgs {
  uint32_t m, n, nd;
  uint32_t mode;  // 0 DEQF16 (scalar) -> half, 1 VREQ8 (scales through L1 -> the fixpipe buffer) -> int8, 2 NoQuant
  uint32_t relu;
  uint32_t nz2nd;     // ND output (with SetFixpipeNz2ndFlag(nd, srcNdStride, dstNdStride)), else NZ
  uint32_t dstStride; // DataCopyCO12DstParams::dstStride
  uint32_t srcNdStride, dstNdStride;
  float scale;  // the scalar (mode 0)
};

// src: the NZ accumulators (int32 for modes 0 and 1, float for 2); scales: n uint64_t words (mode 1); out: the
// destination (half, int8, float).
int32_t CubeFixpipeCopy(void* stream, void* src, void* scales, void* out, FixpipeCopyArgs args);
