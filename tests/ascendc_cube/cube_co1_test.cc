// Matmul::Iterate(enPartialSum, localCmatrix) into the kernel's CO1 tensor (kernels/cube_co1_kernels.cpp):
// blocks with tails in M, N and K, each computed twice (the second time accumulated), taken out with Fixpipe,
// against the host GEMM on random data.
#include "cube_co1_kernels.h"
#include "cube_mm_tiling.h"
#include "cube_test_util.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

namespace cube_test {
namespace {

class CubeCo1Test : public CubeTest {};

TEST_F(CubeCo1Test, IterateIntoCo1WithPartialSum) {
  const int m = 40, n = 72, k = 50;
  AscendC::tiling::TCubeTiling t =
      HalfMatmulTiling(m, n, k, 32, 32, -1, matmul_tiling::TPosition::CO1, matmul_tiling::CubeFormat::NZ);
  ASSERT_EQ(t.iterateOrder, 0);

  const auto a = RandomValues(static_cast<size_t>(m) * k, 41, RoundHalf);
  const auto b = RandomValues(static_cast<size_t>(k) * n, 42, RoundHalf);
  const auto bias = RandomValues(n, 43, RoundNone);
  void* dc = Alloc(static_cast<size_t>(m) * n * sizeof(float) + 64);
  ASSERT_EQ(CubeMmCo1(stream_, Upload(HalfBits(a)), Upload(HalfBits(b)), Upload(bias), dc,
                      Upload(std::vector<AscendC::tiling::TCubeTiling>{t})),
            ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  std::vector<double> bias_d(bias.begin(), bias.end());
  auto want = RefGemm(a, b, &bias_d, m, n, k, false, false);
  for (double& w : want) w *= 2;
  EXPECT_LE(MaxRelError(Download<float>(dc, want.size()), want), 1e-3);
}

}  // namespace
}  // namespace cube_test
