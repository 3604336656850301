// The arithmetic of the simulated cube unit, shared by Mmad (npurt_kernel/mmad.h) and the Matmul
// high-level API (lib/matmul_intf.h): operands are packed into panels of the accumulation type (half and
// bfloat16 are converted to float exactly, int8 to int32) and a 16 x 16 micro kernel accumulates
// C += A x B over a K chunk, in float (half/bfloat16/float inputs) or int32 (int8 inputs), as the cube
// accumulates in L0C. Part of kernel_operator.h.
//
// Packed panels (Acc = the accumulation type):
//   A panel: 16 rows of one K chunk, row r at a + r * kPackK (rows past M are zero);
//   B panel: the K chunk's rows of 16 columns, row k at b + k * 16 (columns past N are zero).
// The micro kernel keeps the 16 x 16 block of C in 16 vector registers (AVX-512) while it runs over the
// chunk: one load of B and 16 broadcast multiply-adds per k.
#pragma once

#include "npurt_kernel/int4b.h"
#include "npurt_kernel/vector_ops.h"

namespace AscendC {
namespace npurt_detail {

constexpr int kPackK = 256;  // elements of K per packed chunk (a multiple of every C0: 8, 16, 32, 64)

template <typename Src>
struct CubeAccOf {
  static_assert(std::is_same<Src, half>::value || std::is_same<Src, bfloat16_t>::value ||
                    std::is_same<Src, float>::value || std::is_same<Src, int8_t>::value ||
                    std::is_same<Src, int4b_t>::value,
                "the cube unit of the sim multiplies half, bfloat16_t, float, int8_t and int4b_t operands");
  using type = typename std::conditional<std::is_same<Src, int8_t>::value || std::is_same<Src, int4b_t>::value,
                                         int32_t, float>::type;
};
template <typename Src>
using CubeAcc = typename CubeAccOf<Src>::type;

// `n` elements to the accumulation type (exact).
template <typename Acc, typename Src>
inline void ToAcc(Acc* __restrict out, const Src* __restrict in, uint32_t n) {
  if constexpr (std::is_same<Src, half>::value) {
    HalfToFloat(out, in, n);
  } else if constexpr (std::is_same<Src, bfloat16_t>::value) {
    const auto* bits = reinterpret_cast<const uint16_t*>(in);
    auto* o = reinterpret_cast<uint32_t*>(out);
    for (uint32_t i = 0; i < n; ++i) o[i] = static_cast<uint32_t>(bits[i]) << 16;
  } else {
    for (uint32_t i = 0; i < n; ++i) out[i] = static_cast<Acc>(in[i]);
  }
}

// Elements of K in one 32-byte fractal row: C0 (64 for int4b_t, two elements a byte).
template <typename Src>
constexpr uint32_t kCubeC0 = kIsInt4<Src> ? 64u : ONE_BLK_SIZE / sizeof(Src);

// `n` elements from element `index` of `base` to the accumulation type (int4b_t: nibble `index` on).
template <typename Acc, typename Src>
inline void LoadAcc(Acc* __restrict out, const Src* base, uint64_t index, uint32_t n) {
  if constexpr (kIsInt4<Src>) {
    for (uint32_t i = 0; i < n; ++i) out[i] = static_cast<Acc>(GetInt4(base, index + i));
  } else {
    ToAcc(out, base + index, n);
  }
}

// Growable per-core scratch for packed panels (freed when the core's thread ends).
struct PackScratch {
  void* a = nullptr;
  size_t a_bytes = 0;
  void* b = nullptr;
  size_t b_bytes = 0;
  void* c = nullptr;  // a Matmul's accumulators when the kernel has no pipe
  size_t c_bytes = 0;
  ~PackScratch() {
    std::free(a);
    std::free(b);
    std::free(c);
  }
};
inline thread_local PackScratch g_pack;

inline void* Grow(void*& p, size_t& have, size_t want) {
  if (want > have) {
    std::free(p);
    p = std::aligned_alloc(64, (want + 63) / 64 * 64);
    if (p == nullptr) Fail("out of host memory for the cube unit's packed operands (%zu bytes)", want);
    have = want;
  }
  return p;
}
template <typename Acc>
inline Acc* PackA(size_t elements) {
  return static_cast<Acc*>(Grow(g_pack.a, g_pack.a_bytes, elements * sizeof(Acc)));
}
template <typename Acc>
inline Acc* PackB(size_t elements) {
  return static_cast<Acc*>(Grow(g_pack.b, g_pack.b_bytes, elements * sizeof(Acc)));
}

// C[16][16] (row stride ldc) += A panel x B panel over kc elements of K: the portable form (int32, and float
// without AVX-512), one row of C at a time.
template <typename Acc>
inline void MicroKernelRows(const Acc* __restrict a, const Acc* __restrict b, int kc, Acc* __restrict c, size_t ldc) {
  for (int r = 0; r < 16; ++r) {
    Acc row[16];
    for (int j = 0; j < 16; ++j) row[j] = c[r * ldc + j];
    for (int k = 0; k < kc; ++k) {
      const Acc av = a[r * kPackK + k];
      for (int j = 0; j < 16; ++j) row[j] += av * b[16 * k + j];
    }
    for (int j = 0; j < 16; ++j) c[r * ldc + j] = row[j];
  }
}

// The float form keeps the 16 x 16 block in 16 AVX-512 registers: per k one load of B's row and 16
// multiply-adds with A's elements broadcast from memory.
inline void MicroKernel(const float* __restrict a, const float* __restrict b, int kc, float* __restrict c, size_t ldc) {
#if defined(__AVX512F__)
  __m512 acc[16];
#pragma GCC unroll 16
  for (int r = 0; r < 16; ++r) acc[r] = _mm512_loadu_ps(c + r * ldc);
  for (int k = 0; k < kc; ++k) {
    const __m512 bv = _mm512_load_ps(b + 16 * k);
#pragma GCC unroll 16
    for (int r = 0; r < 16; ++r) acc[r] = _mm512_fmadd_ps(_mm512_set1_ps(a[r * kPackK + k]), bv, acc[r]);
  }
#pragma GCC unroll 16
  for (int r = 0; r < 16; ++r) _mm512_storeu_ps(c + r * ldc, acc[r]);
#else
  MicroKernelRows(a, b, kc, c, ldc);
#endif
}

inline void MicroKernel(const int32_t* __restrict a, const int32_t* __restrict b, int kc, int32_t* __restrict c,
                        size_t ldc) {
  MicroKernelRows(a, b, kc, c, ldc);
}

}  // namespace npurt_detail
}  // namespace AscendC
