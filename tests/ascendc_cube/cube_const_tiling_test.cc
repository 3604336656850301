// Matmul with constant tilings (kernels/cube_const_tiling_kernels.cpp): a MatmulApiStaticTiling as MM_CFG and a
// null TCubeTiling, with the single-core shape in the constant tiling or given by the kernel, against the host
// GEMM on random data with shapes that end inside the base blocks.
#include <string>

#include "cube_const_tiling_kernels.h"
#include "cube_test_util.h"

namespace cube_test {
namespace {

class CubeConstTilingTest : public CubeTest {};

TEST_F(CubeConstTilingTest, ShapedAndBaseOnlyConstantTilings) {
  struct Case {
    uint32_t m, n, k, withShape;
  };
  for (const Case& c : {Case{40, 72, 50, 1}, Case{70, 100, 90, 0}}) {
    SCOPED_TRACE(std::to_string(c.m) + "x" + std::to_string(c.n) + "x" + std::to_string(c.k));
    const auto a = RandomValues(size_t{c.m} * c.k, c.m + 3, RoundHalf);
    const auto b = RandomValues(size_t{c.k} * c.n, c.n + 5, RoundHalf);
    void* dc = Alloc(size_t{c.m} * c.n * sizeof(float));
    ASSERT_EQ(CubeMmConstTiling(stream_, Upload(HalfBits(a)), Upload(HalfBits(b)), dc, c.m, c.n, c.k, c.withShape),
              ACL_SUCCESS);
    ASSERT_EQ(Sync(), ACL_SUCCESS);
    const auto want = RefGemm(a, b, nullptr, c.m, c.n, c.k, false, false);
    EXPECT_LE(MaxRelError(Download<float>(dc, want.size()), want), 1e-5);
  }
}

}  // namespace
}  // namespace cube_test
