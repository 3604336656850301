// Mmad for the sim: C (CO1, L0C) = [C or bias or 0] + A (A2, L0A) x B (B2, L0B). Part of kernel_operator.h.
//
// Layouts, with C0 = 32 bytes of A/B elements (16 half/bfloat16, 8 float, 32 int8, 64 int4), M1 = ceil(m/16),
// K1 = ceil(k/C0), N1 = ceil(n/16):
//   A in L0A ("zZ"): fractals of 16 x C0, fractal (i, j) at i * K1 + j, rows inside it one after another;
//   B in L0B ("zN"): fractals of C0 x 16 stored column by column (each of the 16 columns' C0 elements of K
//     together), fractal (j, l) at j * N1 + l;
//   C in L0C ("NZ"): fractals of 16 x 16 accumulators, fractal (i, l) at l * M1 + i, rows inside it in order.
// Whole 16 x 16 fractals of C are written (the rows past m and columns past n from the padding of A and B);
// exactly k elements of K are summed. half / bfloat16 / float accumulate in float, int8 / int4 in int32.
// GEMV: with m == 1 the Atlas A2 cube reads A from L0A as a 1 x k vector in ND (its k elements one after
// another, not a zZ fractal's row 0); C keeps its NZ layout, row 0 of each fractal holding the result (the
// other rows are written as zero here). The A2 cube has no switch to turn this off (Ascend 950's disableGemv).
#pragma once

#include "npurt_kernel/cube_copy.h"
#include "npurt_kernel/cube_kernel.h"
#include "npurt_kernel/int4b.h"

namespace AscendC {

// int4b_t (npurt_kernel/int4b.h, Atlas A2): int4 x int4 -> int32, C0 = 64 elements (a 32-byte fractal row
// holds 64 nibbles, the even element in the low nibble), so the fractals of A and B are 16 x 64 and 64 x 16 and
// still 512 bytes; K1 = ceil(k/64).

struct MmadParams {
  uint16_t m = 0;
  uint16_t n = 0;
  uint16_t k = 0;
  bool isBias = false;  // deprecated: true accumulates into C (C += A x B)
  int32_t fmOffset = 0;
  bool enSsparse = false;
  bool enWinogradA = false;
  bool enWinogradB = false;
  uint8_t unitFlag = 0;
  bool kDirectionAlign = false;  // float: A's K in L0A aligned to 16 (an even count of 8-wide fractals)
  bool cmatrixSource = false;  // the initial C comes from the bias table (C2) instead of L0C
  bool cmatrixInitVal = true;  // the initial C is zero
  __aicore__ MmadParams() = default;
  __aicore__ MmadParams(uint16_t m_in, uint16_t n_in, uint16_t k_in, bool is_bias, int32_t fm_offset, bool sparse,
                        bool winograd_a, bool winograd_b)
      : m(m_in),
        n(n_in),
        k(k_in),
        isBias(is_bias),
        fmOffset(fm_offset),
        enSsparse(sparse),
        enWinogradA(winograd_a),
        enWinogradB(winograd_b) {}
  __aicore__ MmadParams(uint16_t m_in, uint16_t n_in, uint16_t k_in, uint8_t unit_flag, bool source, bool init_val)
      : m(m_in), n(n_in), k(k_in), unitFlag(unit_flag), cmatrixSource(source), cmatrixInitVal(init_val) {}
};

namespace npurt_detail {

enum class MmadInit { kZero, kKeep, kBiasRow, kMatrix };

template <typename Acc, typename Src, typename BiasT>
inline void MmadRun(Acc* c, const Src* a, const Src* b, const MmadParams& p, MmadInit init, const BiasT* bias) {
  constexpr uint32_t c0 = kCubeC0<Src>;
  const uint32_t m1 = (p.m + 15u) / 16u, n1 = (p.n + 15u) / 16u, k1 = (p.k + c0 - 1) / c0;
  const bool gemv = p.m == 1;
  // kDirectionAlign (float): A's K in L0A aligned to 16 instead of 8, so a row of fractals holds an even count.
  const uint32_t k1a = p.kDirectionAlign && sizeof(Src) == 4 ? (k1 + 1u) / 2u * 2u : k1;
  CheckCube(a, gemv ? static_cast<uint64_t>(k1) * ONE_BLK_SIZE : static_cast<uint64_t>(m1) * k1a * kFractalBytes,
            LocalMem::kL0A, "Mmad (A in A2)");
  CheckCube(b, static_cast<uint64_t>(k1) * n1 * kFractalBytes, LocalMem::kL0B, "Mmad (B in B2)");
  CheckCube(c, static_cast<uint64_t>(m1) * n1 * 256u * sizeof(Acc), LocalMem::kL0C, "Mmad (C in CO1)");
  const size_t c_elems = static_cast<size_t>(m1) * n1 * 256u;
  if (init == MmadInit::kZero) {
    std::memset(static_cast<void*>(c), 0, c_elems * sizeof(Acc));
  } else if (init == MmadInit::kBiasRow) {
    // Every row of C starts as the bias row (n elements; columns past n start at zero).
    for (uint32_t l = 0; l < n1; ++l) {
      Acc row[16];
      for (uint32_t j = 0; j < 16; ++j) row[j] = l * 16 + j < p.n ? static_cast<Acc>(bias[l * 16 + j]) : Acc(0);
      for (uint32_t i = 0; i < m1 * 16; ++i)
        std::memcpy(c + (static_cast<size_t>(l) * m1 * 16 + i) * 16, row, sizeof row);
    }
  } else if (init == MmadInit::kMatrix && static_cast<const void*>(bias) != static_cast<const void*>(c)) {
    CheckCube(bias, c_elems * sizeof(Acc), LocalMem::kL0C, "Mmad (bias in CO1)");
    std::memmove(c, bias, c_elems * sizeof(Acc));
  }
  Acc* ap = PackA<Acc>(static_cast<size_t>(m1) * 16 * kPackK);
  Acc* bp = PackB<Acc>(static_cast<size_t>(n1) * 16 * kPackK);
  for (uint32_t k0 = 0; k0 < p.k; k0 += kPackK) {
    const uint32_t kc = p.k - k0 < static_cast<uint32_t>(kPackK) ? p.k - k0 : static_cast<uint32_t>(kPackK);
    // A: fractal (i, j) row r holds K elements j*c0 .. j*c0+c0-1 of row i*16+r; GEMV: element k at a[k].
    if (gemv) {
      LoadAcc(ap, a, k0, kc);
      std::memset(static_cast<void*>(ap + kPackK), 0, static_cast<size_t>(15) * kPackK * sizeof(Acc));
    }
    for (uint32_t i = 0; i < (gemv ? 0u : m1); ++i) {
      for (uint32_t r = 0; r < 16; ++r) {
        Acc* dst = ap + (static_cast<size_t>(i) * 16 + r) * kPackK;
        for (uint32_t kk = 0; kk < kc; kk += c0) {
          const uint32_t j = (k0 + kk) / c0;
          const uint32_t cnt = kc - kk < c0 ? kc - kk : c0;
          LoadAcc(dst + kk, a, ((static_cast<uint64_t>(i) * k1a + j) * 16 + r) * c0, cnt);
        }
      }
    }
    // B: fractal (j, l) column q holds K elements j*c0 .. of column l*16+q.
    for (uint32_t l = 0; l < n1; ++l) {
      Acc* panel = bp + static_cast<size_t>(l) * 16 * kPackK;
      for (uint32_t kk = 0; kk < kc; kk += c0) {
        const uint32_t j = (k0 + kk) / c0;
        const uint32_t cnt = kc - kk < c0 ? kc - kk : c0;
        const uint64_t frac = (static_cast<uint64_t>(j) * n1 + l) * 16 * c0;  // its first element
        for (uint32_t q = 0; q < 16; ++q) {
          Acc col[64];
          LoadAcc(col, b, frac + q * c0, cnt);
          for (uint32_t e = 0; e < cnt; ++e) panel[(kk + e) * 16 + q] = col[e];
        }
      }
    }
    for (uint32_t l = 0; l < n1; ++l) {
      for (uint32_t i = 0; i < m1; ++i) {
        MicroKernel(ap + static_cast<size_t>(i) * 16 * kPackK, bp + static_cast<size_t>(l) * 16 * kPackK,
                    static_cast<int>(kc), c + (static_cast<size_t>(l) * m1 + i) * 256, 16);
      }
    }
  }
}

template <typename Dst, typename Src0, typename Src1>
inline void CheckMmadTypes() {
  static_assert(std::is_same<Src0, Src1>::value, "Mmad: the sim's cube multiplies A and B of the same type");
  static_assert(std::is_same<Dst, CubeAcc<Src0>>::value,
                "Mmad: C (CO1) must be float for half/bfloat16_t/float operands and int32_t for int8_t/int4b_t");
}

}  // namespace npurt_detail

template <typename DstT, typename Src0T, typename Src1T>
__aicore__ inline void Mmad(const LocalTensor<DstT>& dst, const LocalTensor<Src0T>& fm,
                            const LocalTensor<Src1T>& filter, const MmadParams& p) {
  using namespace npurt_detail;
  CheckMmadTypes<DstT, Src0T, Src1T>();
  MmadInit init = MmadInit::kKeep;
  const DstT* bias = nullptr;
  if (p.cmatrixInitVal && !p.isBias) {
    init = MmadInit::kZero;
  } else if (p.cmatrixSource) {
    // C starts from the bias table: without a bias tensor, the row at its start (n values of C's type).
    init = MmadInit::kBiasRow;
    bias = reinterpret_cast<const DstT*>(CubeBase(LocalMem::kBT));
    CheckCube(bias, static_cast<uint64_t>(p.n) * sizeof(DstT), LocalMem::kBT, "Mmad (bias at the bias table's start)");
  }
  MmadRun<DstT, Src0T, DstT>(dst.GetPhyAddr(), fm.GetPhyAddr(), filter.GetPhyAddr(), p, init, bias);
}

// With a bias: in C2 (the bias table), a row of n values every row of C starts from; in CO1, a matrix
// of C's layout that C starts from (C += A x B when it is C itself).
template <typename DstT, typename Src0T, typename Src1T, typename BiasT>
__aicore__ inline void Mmad(const LocalTensor<DstT>& dst, const LocalTensor<Src0T>& fm,
                            const LocalTensor<Src1T>& filter, const LocalTensor<BiasT>& bias, const MmadParams& p) {
  using namespace npurt_detail;
  CheckMmadTypes<DstT, Src0T, Src1T>();
  if (bias.GetPosition() == TPosition::CO1) {
    static_assert(sizeof(BiasT) == sizeof(DstT), "Mmad: a bias matrix in CO1 has C's type");
    MmadRun<DstT, Src0T, BiasT>(dst.GetPhyAddr(), fm.GetPhyAddr(), filter.GetPhyAddr(), p, MmadInit::kMatrix,
                                bias.GetPhyAddr());
    return;
  }
  CheckCube(bias.GetPhyAddr(), static_cast<uint64_t>(p.n) * sizeof(BiasT), LocalMem::kBT, "Mmad (bias in C2)");
  MmadRun<DstT, Src0T, BiasT>(dst.GetPhyAddr(), fm.GetPhyAddr(), filter.GetPhyAddr(), p, MmadInit::kBiasRow,
                              bias.GetPhyAddr());
}

}  // namespace AscendC
