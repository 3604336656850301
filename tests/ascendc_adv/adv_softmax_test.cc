// SoftMax with a shape info of fewer rows than its tiling (SoftmaxConfig::isCheckTiling: the library
// re-tiles), and AdjustSoftMaxRes: the rows whose max has the given bit pattern become the given value.
#include <cmath>
#include <cstring>

#include "aclrtlaunch_adv_softmax_adjust.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvSoftMaxTest : public VecTest {};

void RunAdjust(aclrtStream stream, uint32_t rows, uint32_t cols, int adjust_row, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<float> x = RandomValues<float>(rows * cols, rng, -1, 1);
  SoftMaxTiling tiling;
  AscendC::SoftMaxTilingFunc(ge::Shape({2 * rows, cols}), 4, 4 * cols + 64, tiling);  // tiled for twice the rows
  // The bit pattern to match: row adjust_row's max (exact: an input element), or -FLT_MAX's (no row).
  uint32_t from = 0xFF7FFFFFu;
  if (adjust_row >= 0) {
    float mx = x[adjust_row * cols];
    for (uint32_t c = 1; c < cols; ++c) mx = std::fmax(mx, x[adjust_row * cols + c]);
    std::memcpy(&from, &mx, 4);
  }
  DevMem dx(x.size() * 4), dy(x.size() * 4), dmax(rows * 32), dadj(32), dt(sizeof tiling);
  CopyIn(dx, x.data(), x.size() * 4);
  CopyIn(dt, &tiling, sizeof tiling);
  ASSERT_EQ(aclrtlaunch_adv_softmax_adjust(1, stream, dx.get(), dy.get(), dmax.get(), dadj.get(), dt.get(), rows,
                                           cols, from, -3.5f),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<float> y(x.size());
  uint32_t adjusted = 7;
  CopyOut(y.data(), dy, y.size() * 4);
  CopyOut(&adjusted, dadj, 4);
  EXPECT_EQ(adjusted, adjust_row >= 0 ? 1u : 0u);
  for (uint32_t r = 0; r < rows; ++r) {
    double mx = x[r * cols], total = 0;
    for (uint32_t c = 1; c < cols; ++c) mx = std::fmax(mx, x[r * cols + c]);
    for (uint32_t c = 0; c < cols; ++c) total += std::exp(x[r * cols + c] - mx);
    for (uint32_t c = 0; c < cols; ++c) {
      const float want = static_cast<int>(r) == adjust_row ? -3.5f : static_cast<float>(std::exp(x[r * cols + c] - mx) / total);
      EXPECT_NEAR(y[r * cols + c], want, 1e-6) << "row " << r << " col " << c;
    }
  }
}

TEST_F(AdvSoftMaxTest, SoftMaxRetilesAndAdjustSoftMaxResReplacesMatchingRows) {
  RunAdjust(stream_, 4, 32, 2, 1);
  RunAdjust(stream_, 8, 64, -1, 2);
  RunAdjust(stream_, 3, 16, 0, 3);
}

}  // namespace
}  // namespace vectest
