// DeepNorm and RmsNorm (npurt_kernel/adv_norm.h) with their host tilings (tiling/adv_norm_tiling.h) against
// double-precision host models, half and float, with and without sharedTmpBuffer (PopStackBuffer), rows
// padded past originalHLength, and several rows.
#include <cmath>
#include <cstring>

#include "aclrtlaunch_adv_deepnorm.h"
#include "aclrtlaunch_adv_rmsnorm.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvNormTest : public VecTest {};

template <typename T>
double D(T v) {
  return static_cast<double>(static_cast<float>(v));
}

template <typename T>
std::vector<T> Fetch(const DevMem& m, size_t n) {
  std::vector<T> v(n);
  CopyOut(v.data(), m, n * sizeof(T));
  return v;
}

// Device memory holding v (DevMem does not move, so the caller declares it with v's size).
#define NPURT_PUT(name, v)                                \
  const auto name##_host = (v);                           \
  DevMem name(name##_host.size() * sizeof(name##_host[0])); \
  CopyIn(name, name##_host.data(), name##_host.size() * sizeof(name##_host[0]))

template <typename T>
void RunDeepNorm(aclrtStream stream, uint32_t b, uint32_t s, uint32_t h, uint32_t oh, uint32_t with_tmp,
                 uint64_t seed) {
  std::mt19937_64 rng(seed);
  const ge::Shape shape({b, s, h}), origin({b, s, oh});
  uint32_t maxv = 0, minv = 0;
  ASSERT_TRUE(AscendC::GetDeepNormMaxMinTmpSize(shape, sizeof(T), false, false, maxv, minv));
  ASSERT_GE(maxv, minv);
  AscendC::tiling::DeepNormTiling tiling;
  ASSERT_TRUE(AscendC::GetDeepNormTilingInfo(shape, origin, minv, sizeof(T), false, false, tiling));
  EXPECT_FALSE(AscendC::GetDeepNormTilingInfo(shape, origin, minv - 1, sizeof(T), false, false, tiling));
  ASSERT_TRUE(AscendC::GetDeepNormTilingInfo(shape, origin, maxv, sizeof(T), false, false, tiling));
  const uint32_t rows = b * s, n = rows * h;
  const std::vector<T> x = RandomValues<T>(n, rng, -3, 3), gx = RandomValues<T>(n, rng, -3, 3);
  const std::vector<T> gamma = RandomValues<T>(h, rng, -2, 2), beta = RandomValues<T>(h, rng, -2, 2);
  const float alpha = 0.75f, eps = 1e-3f;
  NPURT_PUT(dx, x);
  NPURT_PUT(dgx, gx);
  NPURT_PUT(dga, gamma);
  NPURT_PUT(dbe, beta);
  NPURT_PUT(dy, RandomValues<T>(n, rng, -1, 1));
  NPURT_PUT(dm, RandomValues<T>(rows, rng, -1, 1));
  NPURT_PUT(dv, RandomValues<T>(rows, rng, -1, 1));
  DevMem dt(sizeof(tiling));
  CopyIn(dt, &tiling, sizeof(tiling));
  ASSERT_EQ(aclrtlaunch_adv_deepnorm(1, stream, dx.get(), dgx.get(), dga.get(), dbe.get(), dy.get(), dm.get(),
                                     dv.get(), dt.get(), alpha, eps, sizeof(T) == 2, with_tmp),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> want_y(n), want_m(rows), want_v(rows);
  const double a = D(static_cast<T>(alpha)), e = D(static_cast<T>(eps));
  for (uint32_t r = 0; r < rows; ++r) {
    std::vector<double> z(h);
    double sum = 0, sq = 0;
    for (uint32_t j = 0; j < h; ++j) z[j] = a * D(x[r * h + j]) + D(gx[r * h + j]);
    for (uint32_t j = 0; j < oh; ++j) sum += z[j];
    const double mean = sum / oh;
    for (uint32_t j = 0; j < oh; ++j) sq += (z[j] - mean) * (z[j] - mean);
    const double var = sq / oh;
    for (uint32_t j = 0; j < h; ++j) {
      want_y[r * h + j] = static_cast<T>(static_cast<float>(D(gamma[j]) * (z[j] - mean) / std::sqrt(var + e) +
                                                            D(beta[j])));
    }
    want_m[r] = static_cast<T>(static_cast<float>(mean));
    want_v[r] = static_cast<T>(static_cast<float>(var));
  }
  const std::string where = " b " + std::to_string(b) + " s " + std::to_string(s) + " h " + std::to_string(h) +
                            " oh " + std::to_string(oh) + " half " + std::to_string(sizeof(T) == 2);
  EXPECT_EQ(Mismatches(Fetch<T>(dy, n), want_y, 1), "") << "y" << where;
  EXPECT_EQ(Mismatches(Fetch<T>(dm, rows), want_m, 1), "") << "mean" << where;
  EXPECT_EQ(Mismatches(Fetch<T>(dv, rows), want_v, 1), "") << "variance" << where;
}

TEST_F(AdvNormTest, DeepNormNormalisesRowsOverTheOriginalLength) {
  uint64_t seed = 500;
  for (uint32_t with_tmp = 0; with_tmp < 2; ++with_tmp) {
    RunDeepNorm<float>(stream_, 4, 16, 64, 64, with_tmp, ++seed);  // the sample's shape
    RunDeepNorm<float>(stream_, 2, 3, 24, 19, with_tmp, ++seed);   // padded rows
    RunDeepNorm<half>(stream_, 1, 5, 32, 32, with_tmp, ++seed);
    RunDeepNorm<half>(stream_, 3, 1, 48, 33, with_tmp, ++seed);
  }
}

template <typename T>
void RunRmsNorm(aclrtStream stream, uint32_t b, uint32_t s, uint32_t h, uint32_t oh, uint32_t with_tmp,
                uint64_t seed) {
  std::mt19937_64 rng(seed);
  const ge::Shape shape({b, s, h}), origin({b, s, oh});
  uint32_t maxv = 0, minv = 0;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(shape, sizeof(T), maxv, minv));
  ASSERT_GE(maxv, minv);
  optiling::RmsNormTiling host;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(shape, origin, minv, sizeof(T), host));
  EXPECT_EQ(host.get_originalHLength(), oh);
  AscendC::tiling::RmsNormTiling tiling;
  ASSERT_TRUE(AscendC::GetRmsNormTilingInfo(shape, origin, maxv, sizeof(T), tiling));
  EXPECT_EQ(tiling.loopRound * tiling.mainBsLength + tiling.tailBsLength, b * s);
  const uint32_t n = b * s * h;
  const std::vector<T> x = RandomValues<T>(n, rng, -3, 3), gamma = RandomValues<T>(h, rng, -2, 2);
  const float eps = 5e-5f;
  NPURT_PUT(dx, x);
  NPURT_PUT(dga, gamma);
  NPURT_PUT(dy, RandomValues<T>(n, rng, -1, 1));
  DevMem dt(sizeof(tiling));
  CopyIn(dt, &tiling, sizeof(tiling));
  ASSERT_EQ(aclrtlaunch_adv_rmsnorm(1, stream, dx.get(), dga.get(), dy.get(), dt.get(), eps, sizeof(T) == 2, with_tmp),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> want(n);
  const double e = D(static_cast<T>(eps));
  for (uint32_t r = 0; r < b * s; ++r) {
    double sq = 0;
    for (uint32_t j = 0; j < oh; ++j) sq += D(x[r * h + j]) * D(x[r * h + j]);
    const double inv = 1.0 / std::sqrt(sq / oh + e);
    for (uint32_t j = 0; j < h; ++j) want[r * h + j] = static_cast<T>(static_cast<float>(D(x[r * h + j]) * inv *
                                                                                         D(gamma[j])));
  }
  EXPECT_EQ(Mismatches(Fetch<T>(dy, n), want, 1), "") << "b " << b << " s " << s << " h " << h << " oh " << oh;
}

TEST_F(AdvNormTest, RmsNormScalesRowsByTheirRootMeanSquare) {
  uint64_t seed = 600;
  for (uint32_t with_tmp = 0; with_tmp < 2; ++with_tmp) {
    RunRmsNorm<float>(stream_, 4, 8, 64, 64, with_tmp, ++seed);  // the sample's shape
    RunRmsNorm<float>(stream_, 1, 3, 16, 13, with_tmp, ++seed);
    RunRmsNorm<half>(stream_, 2, 2, 32, 32, with_tmp, ++seed);
    RunRmsNorm<half>(stream_, 3, 3, 48, 40, with_tmp, ++seed);
  }
}

TEST(AdvNormTiling, RefusesShapesItCannotTile) {
  uint32_t maxv = 0, minv = 0;
  EXPECT_FALSE(AscendC::GetDeepNormMaxMinTmpSize(ge::Shape({4, 64}), 4, false, false, maxv, minv));
  EXPECT_FALSE(AscendC::GetDeepNormMaxMinTmpSize(ge::Shape({1, 3, 64}), 4, false, true, maxv, minv));  // B*S % 8
  EXPECT_FALSE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 0}), 2, maxv, minv));
  AscendC::tiling::RmsNormTiling t;
  ASSERT_TRUE(AscendC::GetRmsNormMaxMinTmpSize(ge::Shape({2, 8, 32}), 2, maxv, minv));
  EXPECT_FALSE(AscendC::GetRmsNormTilingInfo(ge::Shape({2, 8, 32}), ge::Shape({2, 8, 33}), maxv, 2, t));
}

#undef NPURT_PUT

}  // namespace
}  // namespace vectest
