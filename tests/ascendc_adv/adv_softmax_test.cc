// SoftMax with a shape info of fewer rows than its tiling (SoftmaxConfig::isCheckTiling: the library
// re-tiles), AdjustSoftMaxRes (the rows whose max has the given bit pattern become the given value),
// LogSoftMax (base-10 log of the softmax, with max and sum per row) and SoftmaxFlashV2 over two column
// blocks, against double references.
#include <cmath>
#include <cstring>

#include "aclrtlaunch_adv_flashv2.h"
#include "aclrtlaunch_adv_logsoftmax.h"
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

template <typename T>
void RunLogSoftMax(aclrtStream stream, uint32_t rows, uint32_t cols, uint32_t use_shape, uint32_t in_place,
                   uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<T> x = RandomValues<T>(rows * cols, rng, -10, 10);
  LogSoftMaxTiling tiling{};
  if (use_shape == 0) AscendC::LogSoftMaxTilingFunc(ge::Shape({rows, cols}), sizeof(T), 4 * cols + 64, tiling);
  const uint32_t block = 32 / sizeof(T);
  DevMem dx(x.size() * sizeof(T)), dy(x.size() * sizeof(T)), dmax(rows * 32), dsum(rows * 32), dt(sizeof tiling);
  CopyIn(dx, x.data(), x.size() * sizeof(T));
  CopyIn(dt, &tiling, sizeof tiling);
  ASSERT_EQ(aclrtlaunch_adv_logsoftmax(1, stream, dx.get(), dy.get(), dmax.get(), dsum.get(), dt.get(), rows, cols,
                                       use_shape, sizeof(T) == 2, in_place),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> y(x.size()), mx(rows * block), sm(rows * block);
  CopyOut(y.data(), dy, y.size() * sizeof(T));
  CopyOut(mx.data(), dmax, rows * 32);
  CopyOut(sm.data(), dsum, rows * 32);
  const double tol = sizeof(T) == 2 ? 2e-3 : 1e-5;
  for (uint32_t r = 0; r < rows; ++r) {
    double m = static_cast<float>(x[r * cols]), total = 0;
    for (uint32_t c = 1; c < cols; ++c) m = std::fmax(m, static_cast<float>(x[r * cols + c]));
    for (uint32_t c = 0; c < cols; ++c) total += std::exp(static_cast<float>(x[r * cols + c]) - m);
    for (uint32_t j = 0; j < block; ++j) {
      EXPECT_EQ(static_cast<float>(mx[r * block + j]), static_cast<float>(static_cast<T>(m))) << "row " << r;
      EXPECT_NEAR(static_cast<float>(sm[r * block + j]), total, total * tol) << "row " << r;
    }
    for (uint32_t c = 0; c < cols; ++c) {
      const double want = std::log10(std::exp(static_cast<float>(x[r * cols + c]) - m) / total);
      EXPECT_NEAR(static_cast<float>(y[r * cols + c]), want, std::fabs(want) * tol + tol) << "row " << r << " col " << c;
    }
  }
}

TEST_F(AdvSoftMaxTest, LogSoftMaxIsTheBase10LogOfTheSoftMax) {
  RunLogSoftMax<float>(stream_, 16, 128, 1, 0, 11);  // the sample's way: a default tiling and the shape info
  RunLogSoftMax<float>(stream_, 8, 64, 0, 1, 12);    // the tiling's shape, in place
  RunLogSoftMax<half>(stream_, 4, 32, 1, 0, 13);
  RunLogSoftMax<half>(stream_, 6, 48, 0, 1, 14);
}

TEST_F(AdvSoftMaxTest, SoftmaxFlashV2UpdatesMaxAndSumAcrossColumnBlocks) {
  std::mt19937_64 rng(21);
  const uint32_t rows = 8, k1 = 64, k2 = 32;
  std::vector<float> x1 = RandomValues<float>(rows * k1, rng, -5, 5), x2 = RandomValues<float>(rows * k2, rng, -5, 8);
  x2[0] = -20.0f;  // a row whose second block has a lower max than its first
  SoftMaxTiling tiling;
  AscendC::SoftMaxFlashV2TilingFunc(ge::Shape({rows, k1}), 4, 4, 1 << 14, tiling, true);
  DevMem d1(x1.size() * 4), d2(x2.size() * 4), dy(x2.size() * 4), dmax(rows * 32), dsum(rows * 32), dexp(rows * 32),
      dt(sizeof tiling);
  CopyIn(d1, x1.data(), x1.size() * 4);
  CopyIn(d2, x2.data(), x2.size() * 4);
  CopyIn(dt, &tiling, sizeof tiling);
  ASSERT_EQ(aclrtlaunch_adv_flashv2(1, stream_, d1.get(), d2.get(), dy.get(), dmax.get(), dsum.get(), dexp.get(),
                                    dt.get(), rows, k1, k2),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<float> y(x2.size()), mx(rows * 8), sm(rows * 8), ex(rows * 8);
  CopyOut(y.data(), dy, y.size() * 4);
  CopyOut(mx.data(), dmax, rows * 32);
  CopyOut(sm.data(), dsum, rows * 32);
  CopyOut(ex.data(), dexp, rows * 32);
  for (uint32_t r = 0; r < rows; ++r) {
    double m1 = x1[r * k1], m2 = x2[r * k2], s1 = 0, s2 = 0;
    for (uint32_t c = 0; c < k1; ++c) m1 = std::fmax(m1, x1[r * k1 + c]);
    for (uint32_t c = 0; c < k2; ++c) m2 = std::fmax(m2, x2[r * k2 + c]);
    for (uint32_t c = 0; c < k1; ++c) s1 += std::exp(x1[r * k1 + c] - m1);
    const double m = std::fmax(m1, m2);
    for (uint32_t c = 0; c < k2; ++c) s2 += std::exp(x2[r * k2 + c] - m);
    const double e = std::exp(m1 - m), total = e * s1 + s2;
    for (uint32_t j = 0; j < 8; ++j) {
      EXPECT_EQ(mx[r * 8 + j], static_cast<float>(m)) << "row " << r;
      EXPECT_NEAR(sm[r * 8 + j], total, total * 1e-5) << "row " << r;
      EXPECT_NEAR(ex[r * 8 + j], e, e * 1e-6 + 1e-30) << "row " << r;
    }
    for (uint32_t c = 0; c < k2; ++c) {
      const double want = std::exp(x2[r * k2 + c] - m);  // not divided by the sum
      EXPECT_NEAR(y[r * k2 + c], want, want * 1e-6) << "row " << r << " col " << c;
    }
  }
}

}  // namespace
}  // namespace vectest
