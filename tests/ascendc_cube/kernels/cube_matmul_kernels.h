// Host functions of cube_matmul_kernels.cpp: each launches its Matmul kernel on `blocks` blocks with <<<>>>
// and returns the launch's aclError. `tiling` is a device copy of the kernel-side TCubeTiling.
#pragma once

#include <cstdint>

struct CubeMatmulArgs {
  uint32_t transA;
  uint32_t transB;
  uint32_t bias;
  // 0 IterateAll to GM; 1 Iterate + GetTensorC to GM; 2 Iterate + GetTensorC to a VECIN tensor, copied out by
  // the kernel; 3 IterateAll twice with enAtomic 1 (C = 2 (A x B + bias) on a zeroed C);
  // 4 Iterate + GetTensorC(enSequentialWrite) into a workspace, copied to C by the kernel;
  // 5 Iterate<false> once, then GetTensorC<false> to GM per block (asynchronous); 6 the same into a VECIN
  // tensor per block, copied out by the kernel (asc-devkit's matmul_async_iterate)
  uint32_t mode;
};

using CubeMatmulLaunch = int32_t (*)(uint32_t blocks, void* stream, void* a, void* b, void* bias, void* c,
                                     void* workspace, void* tiling, CubeMatmulArgs args);

int32_t CubeMatmulF16(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);       // half -> float
int32_t CubeMatmulF16ToF16(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);  // half -> half
int32_t CubeMatmulBf16(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);      // bf16 -> float
int32_t CubeMatmulF32(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);  // float -> float
int32_t CubeMatmulS8(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);   // int8 -> int32
// int4b_t (packed two a byte, the even element low; even dimensions) -> int32.
int32_t CubeMatmulS4(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);
int32_t CubeMatmulF16Nz(uint32_t, void*, void*, void*, void*, void*, void*, void*,
                        CubeMatmulArgs);  // NZ half -> NZ float
// A (half) as CubeFormat::VECTOR: GEMV, M == 1.
int32_t CubeMatmulF16Gemv(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);
// C (float) as CubeFormat::ND_ALIGN: ND rows padded to 32 bytes (8 floats), the padding written as zeros.
int32_t CubeMatmulF16NdAlign(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);
// Two Matmul objects (half -> float) on block 0: C[0] = A x B, C[1] = A x B + bias; mode 1 then interleaves
// their Iterate / GetTensorC (refused by the sim when they share L0C).
int32_t CubeMatmulTwoObjects(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);
// A (half, ND) from a VECIN buffer, C (float) through IterateAll into a VECCALC buffer.
int32_t CubeMatmulF16Ub(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);
// int8 -> half through SetQuantScalar (scale 1/512); half A/B with a half bias, float C.
int32_t CubeMatmulS8Deq(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);
int32_t CubeMatmulF16Bias16(uint32_t, void*, void*, void*, void*, void*, void*, void*, CubeMatmulArgs);
