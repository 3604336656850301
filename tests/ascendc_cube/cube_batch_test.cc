// Batch matmul with the Matmul API (kernels/cube_batch_kernels.cpp): IterateBatch / IterateNBatch over A, B
// and C in LayoutMode BSNGD, SBNGD, BNGS1S2 and NORMAL, broadcast A/B batches, per-batch and shared bias,
// output to GM, to a VECIN tensor and (IterateNBatch) to the workspace; tilings from the host SDK's
// SetALayout/SetBLayout/SetCLayout/SetBatchNum and SetBatchInfoForNormal; random data with tails (M, N, K not
// multiples of 16), against a host reference that indexes each layout's 5-D tensor directly.
#include <algorithm>
#include <string>

#include "cube_batch_kernels.h"
#include "cube_test_util.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

namespace cube_test {
namespace {

using matmul_tiling::DataType;
enum class Lay { kBSNGD, kSBNGD, kBNGS1S2 };

// One operand as a 5-D tensor: batch axes b, n, g, matrix rows s, row elements d.
struct Tensor5 {
  Lay lay;
  int b, s, n, g, d;
  size_t Size() const { return static_cast<size_t>(b) * s * n * g * d; }
  size_t At(int bb, int ss, int nn, int gg, int dd) const {
    switch (lay) {
      case Lay::kBSNGD: return ((((size_t{0} + bb) * s + ss) * n + nn) * g + gg) * d + dd;
      case Lay::kSBNGD: return ((((size_t{0} + ss) * b + bb) * n + nn) * g + gg) * d + dd;
      default: return ((((size_t{0} + bb) * n + nn) * g + gg) * s + ss) * d + dd;
    }
  }
};

struct BatchCase {
  uint32_t variant;
  Tensor5 a, b, c;  // A: S x D = M x K (transA: K x M); B: K x N (transB: N x K); C: M x N
  bool transA, transB, bias, biasPerBatch;
  uint32_t loops = 1;  // IterateNBatch
};

class CubeBatchTest : public CubeTest {
 protected:
  void Check(const BatchCase& bc, int m, int n, int k) {
    SCOPED_TRACE("variant " + std::to_string(bc.variant));
    matmul_tiling::MultiCoreMatmulTiling api;
    api.SetDim(1);
    api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16, bc.transA);
    api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT16, bc.transB);
    api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    api.SetBiasType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND, DataType::DT_FLOAT);
    api.SetShape(m, n, k);
    api.SetOrgShape(m, n, k);
    api.SetBias(bc.bias);
    api.SetFixSplit(32, 32, -1);  // several base blocks per matrix, with tails
    const int batchA = bc.a.b * bc.a.n * bc.a.g / static_cast<int>(bc.loops);
    const int batchB = bc.b.b * bc.b.n * bc.b.g / static_cast<int>(bc.loops);
    const int batchC = bc.c.b * bc.c.n * bc.c.g;
    if (bc.variant == 1) {
      api.SetBatchInfoForNormal(batchA, batchB, m, n, k);
    } else {
      api.SetALayout(bc.a.b, bc.a.s, bc.a.n, bc.a.g, bc.a.d);
      api.SetBLayout(bc.b.b, bc.b.s, bc.b.n, bc.b.g, bc.b.d);
      api.SetCLayout(bc.c.b, bc.c.s, bc.c.n, bc.c.g, bc.c.d);
    }
    api.SetBatchNum(std::max(batchA, batchB));
    AscendC::tiling::TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0);

    const auto a = RandomValues(bc.a.Size(), 11 + bc.variant, RoundHalf);
    const auto b = RandomValues(bc.b.Size(), 23 + bc.variant, RoundHalf);
    const auto bias = RandomValues(static_cast<size_t>(batchC) * n, 37, RoundNone);
    void* dc = Alloc(bc.c.Size() * sizeof(float) + 64);
    void* ws = Alloc(bc.c.Size() * sizeof(float) + 64);
    ASSERT_EQ(CubeMmBatch(stream_, bc.variant, Upload(HalfBits(a)), Upload(HalfBits(b)), Upload(bias), dc, ws,
                          Upload(std::vector<AscendC::tiling::TCubeTiling>{t}), static_cast<uint32_t>(batchA),
                          static_cast<uint32_t>(batchB), bc.loops),
              ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    const auto got = Download<float>(bc.variant == 3 ? ws : dc, bc.c.Size());

    // The reference: C(b, n, g) = A(b', n', g') x B(b'', n'', g'') with numpy's broadcast of axes of size 1.
    std::vector<double> want(bc.c.Size());
    const bool seq = bc.variant == 3;  // IterateNBatch here writes the matrices one after another
    for (int bb = 0; bb < bc.c.b; ++bb) {
      for (int nn = 0; nn < bc.c.n; ++nn) {
        for (int gg = 0; gg < bc.c.g; ++gg) {
          const int ic = (bb * bc.c.n + nn) * bc.c.g + gg;
          const int ab = bb * bc.a.b / bc.c.b, an = nn * bc.a.n / bc.c.n, ag = gg * bc.a.g / bc.c.g;
          const int b_b = bb * bc.b.b / bc.c.b, b_n = nn * bc.b.n / bc.c.n, b_g = gg * bc.b.g / bc.c.g;
          for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) {
              double s = bc.bias ? bias[static_cast<size_t>(bc.biasPerBatch ? ic : 0) * n + j] : 0.0;
              for (int q = 0; q < k; ++q) {
                const size_t ai = bc.transA ? bc.a.At(ab, q, an, ag, i) : bc.a.At(ab, i, an, ag, q);
                const size_t bi = bc.transB ? bc.b.At(b_b, j, b_n, b_g, q) : bc.b.At(b_b, q, b_n, b_g, j);
                s += static_cast<double>(a[ai]) * b[bi];
              }
              const size_t ci = seq ? (static_cast<size_t>(ic) * m + i) * n + j : bc.c.At(bb, i, nn, gg, j);
              want[ci] = s;
            }
          }
        }
      }
    }
    EXPECT_LE(MaxRelError(got, want), 1e-3);
  }
};

// asc-devkit's batch_matmul: BSNGD A, B transposed, C; here with B broadcast over G (GQA) and over B.
TEST_F(CubeBatchTest, BsngdBroadcastBiasPerBatch) {
  const int m = 40, n = 72, k = 50;
  Check({0, {Lay::kBSNGD, 2, m, 2, 3, k}, {Lay::kBSNGD, 1, n, 2, 1, k}, {Lay::kBSNGD, 2, m, 2, 3, n}, false, true,
         true, true},
        m, n, k);
}

// batch_matmul_bias_reuse: NORMAL (BMNK) matrices one after another, A transposed, one bias row for all.
TEST_F(CubeBatchTest, NormalSharedBias) {
  const int m = 33, n = 48, k = 70;
  Check({1, {Lay::kBNGS1S2, 3, k, 1, 1, m}, {Lay::kBNGS1S2, 3, k, 1, 1, n}, {Lay::kBNGS1S2, 3, m, 1, 1, n}, true,
         false, true, false},
        m, n, k);
}

// SBNGD operands (B not transposed: S = K, D = N), BNGS1S2 result into a VECIN tensor.
TEST_F(CubeBatchTest, SbngdToBngs1s2InUnifiedBuffer) {
  const int m = 24, n = 40, k = 36;
  Check({2, {Lay::kSBNGD, 2, m, 1, 2, k}, {Lay::kSBNGD, 2, k, 1, 2, n}, {Lay::kBNGS1S2, 2, m, 1, 2, n}, false,
         false, true, true},
        m, n, k);
}

// IterateNBatch: 2 loops of 3 batches (batch_matmul_iterate_n_batch), into the workspace, sequentially.
TEST_F(CubeBatchTest, IterateNBatchIntoWorkspace) {
  const int m = 32, n = 64, k = 48;
  Check({3, {Lay::kBSNGD, 2, m, 1, 3, k}, {Lay::kBSNGD, 2, n, 1, 3, k}, {Lay::kBSNGD, 2, m, 1, 3, n}, false, true,
         false, false, 2},
        m, n, k);
}

}  // namespace
}  // namespace cube_test
