// Static-tensor cube programming (kernels/cube_static_kernels.cpp): the kernel places A1/B1/A2/B2/CO1 itself,
// with LocalMemAllocator over L1, L0A, L0B and L0C or at byte addresses with LocalTensor(TPosition, address,
// length); the product is checked against a host GEMM on random data with shapes that are not multiples of 16.
#include <string>

#include "cube_static_kernels.h"
#include "cube_test_util.h"

namespace cube_test {
namespace {

class CubeStaticTest : public CubeTest {};

TEST_F(CubeStaticTest, AllocatorsAndAddressesPlaceTheCubeOperands) {
  struct Shape {
    uint32_t m, n, k;
  };
  for (uint32_t explicit_addresses = 0; explicit_addresses < 2; ++explicit_addresses) {
    for (const Shape& s : {Shape{16, 16, 16}, Shape{37, 53, 29}, Shape{64, 48, 130}}) {
      SCOPED_TRACE(std::to_string(s.m) + "x" + std::to_string(s.n) + "x" + std::to_string(s.k) +
                   " explicit=" + std::to_string(explicit_addresses));
      const auto a = RandomValues(size_t{s.m} * s.k, s.m * 5 + s.k, RoundHalf);
      const auto b = RandomValues(size_t{s.k} * s.n, s.n * 3 + s.k, RoundHalf);
      void* dc = Alloc(size_t{s.m} * s.n * sizeof(float));
      const CubeMmArgs args{s.m, s.n, s.k, 0, 0, 0, 0, 0, 0};
      ASSERT_EQ(CubeMmStaticF16(stream_, Upload(HalfBits(a)), Upload(HalfBits(b)), dc, args, explicit_addresses),
                ACL_SUCCESS);
      ASSERT_EQ(Sync(), ACL_SUCCESS);
      const auto want = RefGemm(a, b, nullptr, s.m, s.n, s.k, false, false);
      EXPECT_LE(MaxRelError(Download<float>(dc, want.size()), want), 1e-3);
    }
  }
}

}  // namespace
}  // namespace cube_test
