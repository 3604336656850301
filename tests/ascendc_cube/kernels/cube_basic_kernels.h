// Host functions of cube_basic_kernels.cpp: each launches its kernel with <<<>>> on `stream` and returns the
// launch's aclError.
#pragma once

#include <cstdint>

// One matrix multiplication through the basic cube API: C[m, n] = A[m, k] x B (+ bias row), with B given as
// k x n (transB 0, fp16/bf16 only) or as its transpose n x k (transB 1).
struct CubeMmArgs {
  uint32_t m;
  uint32_t n;
  uint32_t k;
  uint32_t transB;
  uint32_t bias;   // add the bias row (through C1 -> C2 and the Mmad bias overload)
  uint32_t relu;   // Fixpipe reluEn
  uint32_t twice;  // a second Mmad with cmatrixInitVal false: C = 2 A x B (+ bias)
  float scale;     // DEQF16 scale (int8 -> half kernel)
  uint32_t co2;    // out through DataCopy CO1 -> CO2 (DataCopyEnhancedParams, fractals) and strided UB -> GM
                   // copies per 16-column block, as CANN's basic matmul sample (n a multiple of 16, no quant)
};

// a, b, bias, c: device pointers of the kernel's types.
int32_t CubeMmF16(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);       // half -> float
int32_t CubeInitConst(void* stream, void* c, float a, float b, uint32_t where_ub);  // InitConstValue
int32_t CubeMmF16HBias(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);  // half bias
int32_t CubeMmF16ToF16(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);  // half -> half
int32_t CubeMmBf16(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);      // bf16 -> float
int32_t CubeMmF32(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);       // float -> float
int32_t CubeMmS8(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);        // int8 -> int32
// int4b_t -> int32 (transB 1; A and B^T packed two elements a byte, the even one in the low nibble; k even).
int32_t CubeMmS4(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);
int32_t CubeMmS8Deq(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);     // int8 -> half
// int8 -> half with per-channel scales (VDEQF16): `scales` holds n uint64_t words (the float in the low 32 bits),
// moved to the fixpipe buffer and set with SetFixPipeConfig; the Fixpipe takes no workspace tensor.
int32_t CubeMmS8VDeq(void* stream, void* a, void* b, void* scales, void* c, CubeMmArgs args);
// int8 -> int32 with B given as k x n, loaded to L0B with LoadDataWithTranspose; the bias row (n int32) through
// C1 -> C2 (DataCopyParams, 64-byte units) and C starting from the bias table (cmatrixSource).
int32_t CubeMmS8BTrans(void* stream, void* a, void* b, void* bias, void* c, CubeMmArgs args);
// C[1, n] = A[1, k] x B with B given as B^T (n x k): Mmad in GEMV mode (m == 1, A in L0A as a vector).
int32_t CubeGemvF16(void* stream, void* a, void* bT, void* c, uint32_t n, uint32_t k);
// Asks TPipe for `bytes` of the memory behind position `which` (0 A1, 1 A2, 2 B2, 3 CO1, 4 C2, 5 C2PIPE2GM) in one queue.
int32_t CubeOversize(void* stream, uint32_t which, uint32_t bytes);
