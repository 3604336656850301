// The Matmul's half / bfloat16 product on Intel AMX (lib/matmul_intf.h, npurt_kernel/matmul_impl.h), where the
// kernel is compiled for a CPU with AMX-BF16 and the process may use it: TDPBF16PS multiplies bfloat16 pairs
// exactly and accumulates in float, as the cube does. A half value x is split into two bfloat16 values,
// hi = x rounded to bfloat16 and lo = x - hi (exact: x has 11 significant bits, hi 8), and
// A x B = Ah Bh + Al Bh + Ah Bl (+ Al Bl, below 2^-16 of the product and left out); bfloat16 operands need
// Ah Bh only, which is exact. Accumulation order differs from the AVX-512 path (npurt_kernel/cube_kernel.h),
// not the precision: every product is exact and every sum rounds in float.
//
// Packed layouts (uint16_t bfloat16 bits), K in blocks of 32 (zeros past K):
//   A: per 16-row panel and K block, a 16 x 32 tile of hi, then one of lo (2 KiB): AmxTileA(p, kb)
//   B: per 16-column panel and K block, a 16 x 16 x 2 "VNNI" tile (row q: columns' K elements 2q, 2q+1) of
//      hi, then one of lo.
// NPURT_SIM_CUBE_AMX=0 in the environment keeps the AVX-512 path (tests run both).
#pragma once

#include "npurt_kernel/cube_kernel.h"

#if defined(__AMX_TILE__) && defined(__AMX_BF16__) && defined(__AVX512BF16__) && defined(__AVX512BW__) && \
    defined(__AVX512VL__) && defined(__linux__)
#define NPURT_CUBE_AMX 1
#include <sys/syscall.h>
#include <unistd.h>
#else
#define NPURT_CUBE_AMX 0
#endif

namespace AscendC {
namespace npurt_detail {

constexpr int kAmxK = 32;                  // K elements of one tile row
constexpr size_t kAmxTile = 16 * 32;       // uint16_t elements of one tile
constexpr size_t kAmxPair = 2 * kAmxTile;  // hi tile + lo tile

#if NPURT_CUBE_AMX

// Whether this process may use AMX tiles (asks Linux once; ARCH_REQ_XCOMP_PERM for XTILEDATA).
inline bool AmxUsable() {
  static const bool usable = [] {
    const char* env = std::getenv("NPURT_SIM_CUBE_AMX");
    if (env != nullptr && env[0] == '0') return false;
    return syscall(SYS_arch_prctl, 0x1023 /* ARCH_REQ_XCOMP_PERM */, 18 /* XFEATURE_XTILEDATA */) == 0;
  }();
  return usable;
}

// 16 float values -> bfloat16 hi and lo (x = hi + lo, both exact for values with at most 16 significant bits).
inline void SplitBf16(__m512 x, __m256i* hi, __m256i* lo) {
  const __m256i h = reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(x));
  const __m512 hf = _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(h), 16));
  *hi = h;
  *lo = reinterpret_cast<__m256i>(_mm512_cvtneps_pbh(_mm512_sub_ps(x, hf)));
}

// `n` (<= 16) consecutive elements as floats (the rest zero).
template <typename Src>
inline __m512 LoadFloats16(const Src* p, int n) {
  const __mmask16 m = n >= 16 ? static_cast<__mmask16>(0xffff) : static_cast<__mmask16>((1u << n) - 1u);
  const __m256i raw = _mm256_maskz_loadu_epi16(m, p);
  if constexpr (std::is_same<Src, half>::value) {
    return _mm512_cvtph_ps(raw);
  } else {
    return _mm512_castsi512_ps(_mm512_slli_epi32(_mm512_cvtepu16_epi32(raw), 16));
  }
}

// Tile configuration: tiles 0-3 C (16 x 16 float), 4-5 A (16 x 32 bf16), 6-7 B (16 x 16 x 2 bf16).
struct alignas(64) AmxConfig {
  uint8_t palette = 1;
  uint8_t start_row = 0;
  uint8_t reserved[14] = {};
  uint16_t colsb[16] = {64, 64, 64, 64, 64, 64, 64, 64};
  uint8_t rows[16] = {16, 16, 16, 16, 16, 16, 16, 16};
};

// C tiles 0-3 += A tiles 4-5 x B tiles 6-7 (the MP x NP of them in use).
template <int MP, int NP>
inline void AmxDot() {
  _tile_dpbf16ps(0, 4, 6);
  if (NP == 2) _tile_dpbf16ps(1, 4, 7);
  if (MP == 2) _tile_dpbf16ps(2, 5, 6);
  if (MP == 2 && NP == 2) _tile_dpbf16ps(3, 5, 7);
}

// C (row stride ldc floats) += the MP x NP panels' product over kb K blocks. a: A panel i's first pair, the
// next panel aStride elements on; b likewise.
template <int MP, int NP>
inline void AmxBlock(const uint16_t* a, size_t aStride, const uint16_t* b, size_t bStride, int kb, float* c, size_t ldc,
                     bool lo_terms) {
  const size_t cs = ldc * sizeof(float);
  _tile_loadd(0, c, cs);
  if (NP == 2) _tile_loadd(1, c + 16, cs);
  if (MP == 2) _tile_loadd(2, c + 16 * ldc, cs);
  if (MP == 2 && NP == 2) _tile_loadd(3, c + 16 * ldc + 16, cs);
  for (int q = 0; q < kb; ++q) {
    const uint16_t* aq = a + q * kAmxPair;
    const uint16_t* bq = b + q * kAmxPair;
    // hi x hi
    _tile_loadd(4, aq, 64);
    if (MP == 2) _tile_loadd(5, aq + aStride, 64);
    _tile_loadd(6, bq, 64);
    if (NP == 2) _tile_loadd(7, bq + bStride, 64);
    AmxDot<MP, NP>();
    if (!lo_terms) continue;
    // lo(A) x hi(B)
    _tile_loadd(4, aq + kAmxTile, 64);
    if (MP == 2) _tile_loadd(5, aq + aStride + kAmxTile, 64);
    AmxDot<MP, NP>();
    // hi(A) x lo(B)
    _tile_loadd(4, aq, 64);
    if (MP == 2) _tile_loadd(5, aq + aStride, 64);
    _tile_loadd(6, bq + kAmxTile, 64);
    if (NP == 2) _tile_loadd(7, bq + bStride + kAmxTile, 64);
    AmxDot<MP, NP>();
  }
  _tile_stored(0, c, cs);
  if (NP == 2) _tile_stored(1, c + 16, cs);
  if (MP == 2) _tile_stored(2, c + 16 * ldc, cs);
  if (MP == 2 && NP == 2) _tile_stored(3, c + 16 * ldc + 16, cs);
}

// C[m1 * 16][n1 * 16] (row stride ldc) += A panels x B panels over kb K blocks; panels kb pairs apart.
inline void AmxMultiply(const uint16_t* a, int m1, const uint16_t* b, int n1, int kb, float* c, size_t ldc,
                        bool lo_terms) {
  static const AmxConfig config;
  _tile_loadconfig(&config);
  const size_t stride = static_cast<size_t>(kb) * kAmxPair;
  for (int l = 0; l < n1; l += 2) {
    for (int i = 0; i < m1; i += 2) {
      const uint16_t* ap = a + i * stride;
      const uint16_t* bp = b + l * stride;
      float* cp = c + static_cast<size_t>(i) * 16 * ldc + l * 16;
      const bool two_m = i + 1 < m1, two_n = l + 1 < n1;
      if (two_m && two_n)
        AmxBlock<2, 2>(ap, stride, bp, stride, kb, cp, ldc, lo_terms);
      else if (two_m)
        AmxBlock<2, 1>(ap, stride, bp, stride, kb, cp, ldc, lo_terms);
      else if (two_n)
        AmxBlock<1, 2>(ap, stride, bp, stride, kb, cp, ldc, lo_terms);
      else
        AmxBlock<1, 1>(ap, stride, bp, stride, kb, cp, ldc, lo_terms);
    }
  }
  _tile_release();
}

// A row (16 floats of K at a time) into panel p's tiles: hi and lo rows r of K block q.
inline void StoreARow16(uint16_t* pair, int r, int half_idx, __m512 x) {
  __m256i hi, lo;
  SplitBf16(x, &hi, &lo);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(pair + r * kAmxK + half_idx * 16), hi);
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(pair + kAmxTile + r * kAmxK + half_idx * 16), lo);
}

// Two K rows (k = 2q, 2q+1) of a B panel's 16 columns, interleaved into VNNI row q of hi and lo.
inline void StoreBRows16(uint16_t* pair, int q, __m512 even, __m512 odd) {
  __m256i he, le, ho, lo;
  SplitBf16(even, &he, &le);
  SplitBf16(odd, &ho, &lo);
  const __m512i hi = _mm512_or_si512(_mm512_cvtepu16_epi32(he), _mm512_slli_epi32(_mm512_cvtepu16_epi32(ho), 16));
  const __m512i lw = _mm512_or_si512(_mm512_cvtepu16_epi32(le), _mm512_slli_epi32(_mm512_cvtepu16_epi32(lo), 16));
  _mm512_storeu_si512(pair + q * 32, hi);
  _mm512_storeu_si512(pair + kAmxTile + q * 32, lw);
}

#else

inline bool AmxUsable() { return false; }

#endif

}  // namespace npurt_detail
}  // namespace AscendC
