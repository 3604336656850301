// The cube's 4:2 structured sparsity on the sim: LoadDataWithSparse (B1 -> B2 with its index matrix) and
// MmadWithSparse. Part of kernel_operator.h (through cube.h).
//
// B is given dense: of every 4 elements of K (a group), the 2 that are kept, so B holds k / 2 rows; in L1 and
// L0B it is zN int8 (32 x 16 fractals of dense K x N, row-major fractals, each stored column by column). The
// index matrix gives each dense element a 2-bit index: 128 bytes per 512-byte fractal, in the same fractal
// order; inside, byte (n % 16) * 8 + (kd % 32) / 4 holds the indexes of 4 consecutive dense rows kd, the first
// in the low 2 bits. A group's first kept element (even kd) is at position index of the group, the second
// (odd kd) at index + 1, as the API reference's densification algorithm encodes them.
//
// LoadDataWithSparse moves repeatTimes fractals (startIndex 0: other start points fail the kernel) and keeps
// the index bytes they were loaded with beside L0B, so MmadWithSparse must read B where the last
// LoadDataWithSparse of the block put it. MmadWithSparse: C (int32, NZ in L0C) = A (int8, zZ in L0A, k
// columns) x the expanded B, whole 16 x 16 fractals of C, from zero (cmatrixInitVal) or C's own value;
// cmatrixSource fails the kernel.
#pragma once

#include <vector>

#include "npurt_kernel/mmad.h"

namespace AscendC {

namespace npurt_detail {

// The index bytes of the last LoadDataWithSparse of the block, and the L0B fractals they describe.
struct SparseIndexRegister {
  const void* block = nullptr;
  const int8_t* l0b = nullptr;
  uint32_t fractals = 0;
  std::vector<uint8_t> index;
};
inline thread_local SparseIndexRegister g_sparse;

}  // namespace npurt_detail

template <typename T = int8_t, typename U = uint8_t>
__aicore__ inline void LoadDataWithSparse(const LocalTensor<T>& dst, const LocalTensor<T>& src,
                                          const LocalTensor<U>& idx, const LoadData2DParams& p) {
  using namespace npurt_detail;
  static_assert(std::is_same<T, int8_t>::value, "LoadDataWithSparse: the dense weights are int8_t");
  static_assert(sizeof(U) == 1, "LoadDataWithSparse: the index matrix is 8-bit (uint8_t / int8_t)");
  if (p.startIndex != 0) Fail("LoadDataWithSparse: startIndex %u is not supported on the sim", p.startIndex);
  const auto* s = reinterpret_cast<const uint8_t*>(src.GetPhyAddr());
  auto* d = reinterpret_cast<uint8_t*>(dst.GetPhyAddr());
  const auto* ix = reinterpret_cast<const uint8_t*>(idx.GetPhyAddr());
  const uint64_t bytes = static_cast<uint64_t>(p.repeatTimes) * kFractalBytes;
  CheckLocal(s, bytes, "LoadDataWithSparse (weights)");
  CheckLocal(ix, static_cast<uint64_t>(p.repeatTimes) * 128u, "LoadDataWithSparse (index)");
  CheckCube(d, bytes, LocalMem::kL0B, "LoadDataWithSparse (B2)");
  std::memmove(d, s, bytes);
  g_sparse.block = g_state.block;
  g_sparse.l0b = dst.GetPhyAddr();
  g_sparse.fractals = p.repeatTimes;
  g_sparse.index.assign(ix, ix + static_cast<size_t>(p.repeatTimes) * 128u);
}

template <typename T = int32_t, typename U = int8_t>
__aicore__ inline void MmadWithSparse(const LocalTensor<T>& dst, const LocalTensor<U>& fm, const LocalTensor<U>& filter,
                                      const MmadParams& p) {
  using namespace npurt_detail;
  static_assert(std::is_same<T, int32_t>::value && std::is_same<U, int8_t>::value,
                "MmadWithSparse: int8_t A and B into int32_t C");
  if (p.m == 0 || p.n == 0 || p.k == 0) return;
  if (p.cmatrixSource) Fail("MmadWithSparse: cmatrixSource (C from the bias table) is not supported on the sim");
  if (p.k % 4 != 0) Fail("MmadWithSparse: k %u is not a multiple of 4 (groups of 4 elements)", p.k);
  const uint32_t m16 = (p.m + 15u) / 16u * 16u, n1 = (p.n + 15u) / 16u, k1 = (p.k + 31u) / 32u;
  const uint32_t kd = p.k / 2u, kd1 = (kd + 31u) / 32u;
  if (g_sparse.block != g_state.block || g_sparse.l0b != filter.GetPhyAddr() || g_sparse.fractals < kd1 * n1) {
    Fail("MmadWithSparse: B must be the %u fractals the block's last LoadDataWithSparse put in L0B", kd1 * n1);
  }
  const int8_t* a = fm.GetPhyAddr();
  const int8_t* b = filter.GetPhyAddr();
  int32_t* c = dst.GetPhyAddr();
  CheckCube(a, static_cast<uint64_t>(m16 / 16u) * k1 * kFractalBytes, LocalMem::kL0A, "MmadWithSparse (A in A2)");
  CheckCube(c, static_cast<uint64_t>(m16) * n1 * 16u * sizeof(int32_t), LocalMem::kL0C, "MmadWithSparse (C in CO1)");
  const bool keep = !(p.cmatrixInitVal && !p.isBias);
  for (uint32_t j = 0; j < n1 * 16u; ++j) {  // whole 16 x 16 fractals of C, as Mmad writes them
    for (uint32_t r = 0; r < m16; ++r) {
      int32_t acc = 0;
      for (uint32_t e = 0; e < kd; ++e) {
        const size_t frac = static_cast<size_t>(e / 32u) * n1 + j / 16u;
        const int32_t w = b[frac * kFractalBytes + (j % 16u) * 32u + e % 32u];
        const uint8_t byte = g_sparse.index[frac * 128u + (j % 16u) * 8u + (e % 32u) / 4u];
        const uint32_t pos = (byte >> (2u * (e % 4u))) & 3u;
        const uint32_t col = (e / 2u) * 4u + pos + (e % 2u);  // the group's start, then the kept element
        if (col >= p.k) continue;
        acc += w * a[(static_cast<size_t>(r / 16u) * k1 + col / 32u) * kFractalBytes + (r % 16u) * 32u + col % 32u];
      }
      int32_t& out = c[(static_cast<size_t>(j / 16u) * m16 + r) * 16u + j % 16u];
      out = keep ? out + acc : acc;
    }
  }
}

}  // namespace AscendC
