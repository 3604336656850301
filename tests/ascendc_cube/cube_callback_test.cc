// MatmulCallBackFunc's CopyA1 / CopyB1 (kernels/cube_callback_kernels.cpp): A read with a row stride only the
// callback knows, B only through the callback's data pointer, L1 tiles of baseM/baseK/baseN (stepM/N/Ka/Kb 1)
// with tails in every dimension, against the host GEMM on random data.
#include "cube_callback_kernels.h"
#include "cube_mm_tiling.h"
#include "cube_test_util.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

namespace cube_test {
namespace {

class CubeCallbackTest : public CubeTest {};

TEST_F(CubeCallbackTest, CopyA1AndCopyB1FillTheL1Tiles) {
  const int m = 70, n = 50, k = 90, lda = 100;
  AscendC::tiling::TCubeTiling t =
      HalfMatmulTiling(m, n, k, 32, 32, 32, matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND);
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;  // L1 tiles of one base block: 3 x 3 of A, 3 x 2 of B

  const auto a = RandomValues(static_cast<size_t>(m) * k, 5, RoundHalf);
  const auto b = RandomValues(static_cast<size_t>(k) * n, 6, RoundHalf);
  const auto bias = RandomValues(n, 7, RoundNone);
  std::vector<uint16_t> aPadded(static_cast<size_t>(m) * lda, ToHalfBits(100.0f));  // the padding must stay unread
  for (int i = 0; i < m; ++i) {
    for (int q = 0; q < k; ++q) {
      aPadded[static_cast<size_t>(i) * lda + q] = ToHalfBits(a[static_cast<size_t>(i) * k + q]);
    }
  }
  void* db = Upload(HalfBits(b));
  void* list = Upload(std::vector<uint64_t>{reinterpret_cast<uint64_t>(db)});
  void* dc = Alloc(static_cast<size_t>(m) * n * sizeof(float) + 64);
  ASSERT_EQ(CubeMmCallback(stream_, Upload(aPadded), lda, list, Upload(bias), dc,
                           Upload(std::vector<AscendC::tiling::TCubeTiling>{t})),
            ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  std::vector<double> bias_d(bias.begin(), bias.end());
  const auto want = RefGemm(a, b, &bias_d, m, n, k, false, false);
  EXPECT_LE(MaxRelError(Download<float>(dc, want.size()), want), 1e-3);
}

}  // namespace
}  // namespace cube_test
