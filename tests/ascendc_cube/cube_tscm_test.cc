// TSCM (kernels/cube_tscm_kernels.cpp): A in NZ copied into the cube's share of L1 through a TSCM<GM> queue,
// the Matmul reading it from TPosition::TSCM, against the host GEMM on random data (m not a multiple of 16).
#include "cube_tscm_kernels.h"
#include "cube_test_util.h"
#include "kernel_tiling/kernel_tiling.h"
#include "tiling/tiling_api.h"

namespace cube_test {
namespace {

class CubeTscmTest : public CubeTest {};

TEST_F(CubeTscmTest, MatmulReadsANzFromTscm) {
  const uint32_t m = 40, n = 72, k = 64, m16 = 48;
  using matmul_tiling::CubeFormat;
  using matmul_tiling::DataType;
  using matmul_tiling::TPosition;
  matmul_tiling::MatmulApiTiling api;
  api.SetAType(TPosition::TSCM, CubeFormat::NZ, DataType::DT_FLOAT16);
  api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  api.SetShape(m, n, k);
  api.SetOrgShape(m, n, k);
  api.SetBufferSpace(-1, -1, -1);
  AscendC::tiling::TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  const auto a = RandomValues(size_t{m} * k, 7, RoundHalf);
  const auto b = RandomValues(size_t{k} * n, 9, RoundHalf);
  std::vector<float> aNz(size_t{m16} * k, 0.0f);  // column blocks of 16, m16 rows each
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t q = 0; q < k; ++q) aNz[(size_t{q / 16} * m16 + r) * 16 + q % 16] = a[size_t{r} * k + q];
  }
  void* dc = Alloc(size_t{m} * n * sizeof(float));
  ASSERT_EQ(CubeMmTscm(stream_, Upload(HalfBits(aNz)), Upload(HalfBits(b)), dc,
                       Upload(std::vector<AscendC::tiling::TCubeTiling>{t}), m16 * k),
            ACL_SUCCESS);
  ASSERT_EQ(Sync(), ACL_SUCCESS);
  const auto want = RefGemm(a, b, nullptr, m, n, k, false, false);
  EXPECT_LE(MaxRelError(Download<float>(dc, want.size()), want), 1e-5);
}

}  // namespace
}  // namespace cube_test
