// Where batch matmul's matrices lie (Matmul::IterateBatch / IterateNBatch, npurt_kernel/matmul_impl.h): the
// start and row stride of matrix `idx` of an operand in its LayoutMode, from the tiling's layout axes.
//
// A and B are B x S x N x G x D (C: B x S1 x N x G x S2); one matrix is S rows of D elements (C: S1 x S2),
// read as the operand's ND matrix (transposed or not). The batches run over B, N, G with G fastest:
//   BSNGD   [B, S, N, G, D]: matrix (b, n, g) at b*S*N*G*D + (n*G + g)*D, row stride N*G*D
//   SBNGD   [S, B, N, G, D]: at ((b*N + n)*G + g)*D, row stride B*N*G*D
//   BNGS1S2 [B, N, G, S, D]: at idx*S*D, row stride D
//   NORMAL  (BMNK): at idx * matrixStride (0: the matrix's own size), the row stride of the original shape.
// Broadcast (fewer batches of A or B than of C): with A/B and C in layouts, axis by axis (C's (b, n, g) takes
// the operand's (b * Bx / Bc, n * Nx / Nc, g * Gx / Gc): numpy's broadcast where an axis is 1); with NORMAL,
// C's matrix i takes the operand's i / (batchC / batchX).
#pragma once

#include <cstdint>

#include "kernel_tiling/kernel_tiling.h"
#include "npurt_kernel/matmul_types.h"

namespace AscendC {
namespace npurt_detail {

struct BatchAxes {
  int64_t b = 0, s = 0, n = 0, g = 0, d = 0;
};
inline BatchAxes BatchAxesA(const TCubeTiling& t) {
  return {t.ALayoutInfoB, t.ALayoutInfoS, t.ALayoutInfoN, t.ALayoutInfoG, t.ALayoutInfoD};
}
inline BatchAxes BatchAxesB(const TCubeTiling& t) {
  return {t.BLayoutInfoB, t.BLayoutInfoS, t.BLayoutInfoN, t.BLayoutInfoG, t.BLayoutInfoD};
}
inline BatchAxes BatchAxesC(const TCubeTiling& t) {
  return {t.CLayoutInfoB, t.CLayoutInfoS1, t.CLayoutInfoN, t.CLayoutInfoG, t.CLayoutInfoS2};
}

struct BatchMatrix {
  int64_t offset = 0;  // elements from the tensor's start
  int64_t ld = 0;      // row stride; 0: the original shape's
};

// Matrix `idx` of an operand in layout L; `size` is a NORMAL matrix's elements, `stride` the kernel's
// matrixStride (NORMAL only). `what` names the operand for the failure.
template <LayoutMode L>
inline BatchMatrix BatchMatrixAt(const BatchAxes& x, int64_t idx, int64_t size, int64_t stride, const char* what) {
  static_assert(L != LayoutMode::NONE, "Matmul::IterateBatch: every MatmulType needs a LayoutMode (BSNGD, SBNGD, "
                                       "BNGS1S2 or NORMAL) for batch matmul");
  if constexpr (L == LayoutMode::NORMAL) {
    return {idx * (stride > 0 ? stride : size), 0};
  } else {
    if (x.b <= 0 || x.s <= 0 || x.n <= 0 || x.g <= 0 || x.d <= 0) {
      Fail("Matmul::IterateBatch: %s's layout axes %lld/%lld/%lld/%lld/%lld are not set (SetALayout/SetBLayout/"
           "SetCLayout in the tiling)", what, static_cast<long long>(x.b), static_cast<long long>(x.s),
           static_cast<long long>(x.n), static_cast<long long>(x.g), static_cast<long long>(x.d));
    }
    if (stride != 0) Fail("Matmul::IterateBatch: a matrixStride for %s applies to LayoutMode::NORMAL only", what);
    if (idx >= x.b * x.n * x.g) {
      Fail("Matmul::IterateBatch: batch %lld of %s is past its layout's %lld", static_cast<long long>(idx), what,
           static_cast<long long>(x.b * x.n * x.g));
    }
    const int64_t g = idx % x.g, n = (idx / x.g) % x.n, b = idx / (x.g * x.n);
    if constexpr (L == LayoutMode::BSNGD) return {b * x.s * x.n * x.g * x.d + (n * x.g + g) * x.d, x.n * x.g * x.d};
    if constexpr (L == LayoutMode::SBNGD) return {((b * x.n + n) * x.g + g) * x.d, x.b * x.n * x.g * x.d};
    return {idx * x.s * x.d, x.d};  // BNGS1S2
  }
}

// The operand's matrix for C's matrix ic (see Broadcast above).
template <LayoutMode LX, LayoutMode LC>
inline int64_t OperandBatch(const BatchAxes& x, const BatchAxes& c, int64_t ic, int64_t batchC, int64_t batchX) {
  if constexpr (LX != LayoutMode::NORMAL && LC != LayoutMode::NORMAL) {
    if (c.b > 0 && c.n > 0 && c.g > 0 && x.b > 0 && x.n > 0 && x.g > 0) {
      const int64_t g = ic % c.g, n = (ic / c.g) % c.n, b = ic / (c.g * c.n);
      return ((b * x.b / c.b) * x.n + n * x.n / c.n) * x.g + g * x.g / c.g;
    }
  }
  return ic / (batchC / batchX);
}

}  // namespace npurt_detail
}  // namespace AscendC
