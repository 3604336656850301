// LayerNorm, LayerNormGrad and LayerNormGradBeta (npurt_kernel/adv_layernorm.h) against a host model (each row
// in double, results rounded once; the grads from the rounded mean and variance, as the kernel reads them):
// padded rows (originalHLength < hLength), half and float; the host tilings and sizes.
#include <cmath>
#include <memory>

#include "aclrtlaunch_adv_layernorm.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvLayerNormTest : public VecTest {};

template <typename T>
void RunLayerNormFamily(aclrtStream stream, uint32_t b, uint32_t s, uint32_t h, uint32_t oh, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t n = b * s * h, bs = b * s;
  const std::vector<T> x = RandomValues<T>(n, rng, -10, 10), gamma = RandomValues<T>(h, rng, -2, 2);
  const std::vector<T> beta = RandomValues<T>(h, rng, -2, 2), dy = RandomValues<T>(n, rng, -3, 3);
  std::vector<std::unique_ptr<DevMem>> mem;
  const size_t sizes[11] = {n, h, h, n, n, bs, bs, n, n, h, h};
  for (size_t sz : sizes) mem.push_back(std::make_unique<DevMem>(sz * sizeof(T)));
  CopyIn(*mem[0], x.data(), n * sizeof(T));
  CopyIn(*mem[1], gamma.data(), h * sizeof(T));
  CopyIn(*mem[2], beta.data(), h * sizeof(T));
  CopyIn(*mem[3], dy.data(), n * sizeof(T));
  ASSERT_EQ(aclrtlaunch_adv_layernorm(1, stream, mem[0]->get(), mem[1]->get(), mem[2]->get(), mem[3]->get(),
                                      mem[4]->get(), mem[5]->get(), mem[6]->get(), mem[7]->get(), mem[8]->get(),
                                      mem[9]->get(), mem[10]->get(), b, s, h, oh, sizeof(T) == 2),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<std::vector<T>> got(11);
  for (int i = 4; i < 11; ++i) {
    got[i].resize(sizes[i]);
    CopyOut(got[i].data(), *mem[i], sizes[i] * sizeof(T));
  }
  std::vector<T> y(n), mean(bs), var(bs), pdx(n), res(n), pdg(h), pdb(h);
  const double eps = static_cast<double>(static_cast<T>(0.0001f));
  for (uint32_t r = 0; r < bs; ++r) {
    const T* xr = x.data() + r * h;
    double sum = 0, sq = 0;
    for (uint32_t j = 0; j < oh; ++j) sum += static_cast<double>(xr[j]);
    const double m = sum / oh;
    for (uint32_t j = 0; j < oh; ++j) sq += (static_cast<double>(xr[j]) - m) * (static_cast<double>(xr[j]) - m);
    const double v = sq / oh, inv = 1.0 / std::sqrt(v + eps);
    for (uint32_t j = 0; j < h; ++j) {
      y[r * h + j] = static_cast<T>(static_cast<double>(gamma[j]) * (static_cast<double>(xr[j]) - m) * inv +
                                    static_cast<double>(beta[j]));
    }
    mean[r] = static_cast<T>(m);
    var[r] = static_cast<T>(v);
    const double gm = static_cast<double>(mean[r]), ginv = 1.0 / std::sqrt(static_cast<double>(var[r]) + eps);
    double pd_var = 0, sum_g = 0, sum_d = 0;
    for (uint32_t j = 0; j < oh; ++j) {
      const double d = static_cast<double>(xr[j]) - gm;
      const double g = static_cast<double>(dy[r * h + j]) * static_cast<double>(gamma[j]);
      pd_var += -0.5 * g * d * ginv * ginv * ginv;
      sum_g += -g * ginv;
      sum_d += -2.0 * d;
    }
    const double pd_mean = sum_g + pd_var / oh * sum_d;
    for (uint32_t j = 0; j < h; ++j) {
      const double d = static_cast<double>(xr[j]) - gm;
      const double g = static_cast<double>(dy[r * h + j]) * static_cast<double>(gamma[j]);
      res[r * h + j] = static_cast<T>(d * ginv);
      pdx[r * h + j] = static_cast<T>(pd_mean / oh + pd_var * 2.0 / oh * d + g * ginv);
    }
  }
  for (uint32_t j = 0; j < h; ++j) {
    double pg = 0, pb = 0;
    for (uint32_t r = 0; r < bs; ++r) {
      pg += static_cast<double>(dy[r * h + j]) * static_cast<double>(res[r * h + j]);
      pb += static_cast<double>(dy[r * h + j]);
    }
    pdg[j] = static_cast<T>(pg);
    pdb[j] = static_cast<T>(pb);
  }
  const std::string where = std::to_string(b) + "x" + std::to_string(s) + "x" + std::to_string(h) + " orig " +
                            std::to_string(oh) + " half " + std::to_string(sizeof(T) == 2);
  EXPECT_EQ(Mismatches(got[4], y, 1), "") << "y " << where;
  EXPECT_EQ(Mismatches(got[5], mean, 1), "") << "mean " << where;
  EXPECT_EQ(Mismatches(got[6], var, 1), "") << "variance " << where;
  EXPECT_EQ(Mismatches(got[7], pdx, 1), "") << "pdX " << where;
  EXPECT_EQ(Mismatches(got[8], res, 1), "") << "resForGamma " << where;
  EXPECT_EQ(Mismatches(got[9], pdg, 1), "") << "pdGamma " << where;
  EXPECT_EQ(Mismatches(got[10], pdb, 1), "") << "pdBeta " << where;
}

TEST_F(AdvLayerNormTest, ForwardAndBothGradients) {
  uint64_t seed = 1700;
  RunLayerNormFamily<float>(stream_, 2, 32, 16, 16, ++seed);  // the sample's shape
  RunLayerNormFamily<float>(stream_, 1, 3, 24, 19, ++seed);
  RunLayerNormFamily<half>(stream_, 2, 4, 32, 32, ++seed);
  RunLayerNormFamily<half>(stream_, 3, 1, 48, 40, ++seed);
}

TEST(AdvLayerNormTiling, TilingsCarryTheShape) {
  const ge::Shape shape({2, 32, 16, 16});
  uint32_t maxv = 0, minv = 0, maxg = 0, ming = 0, maxb = 0, minb = 0;
  ASSERT_TRUE(AscendC::GetLayerNormMaxMinTmpSize(shape, 4, false, maxv, minv));
  ASSERT_TRUE(AscendC::GetLayerNormGradMaxMinTmpSize(shape, 4, false, maxg, ming));
  ASSERT_TRUE(AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, 4, false, maxb, minb));
  EXPECT_GE(maxv, minv);
  EXPECT_GE(maxg, ming);
  EXPECT_GE(maxb, minb);
  EXPECT_GT(minv, 0u);
  optiling::LayerNormTiling t1;
  optiling::LayerNormGradTiling t2;
  optiling::LayerNormGradBetaTiling t3;
  ASSERT_TRUE(AscendC::GetLayerNormNDTilingInfo(shape, ming, 4, false, t1));
  ASSERT_TRUE(AscendC::GetLayerNormGradNDTilingInfo(shape, ming, 4, false, t2));
  ASSERT_TRUE(AscendC::GetLayerNormGradBetaNDTilingInfo(shape, ming, 4, false, t3));
  EXPECT_EQ(t1.get_bLength(), 2u);
  EXPECT_EQ(t1.get_sLength(), 32u);
  EXPECT_EQ(t1.get_hLength(), 16u);
  EXPECT_EQ(t1.get_originalHLength(), 16u);
  EXPECT_EQ(t2.get_hLength(), 16u);
  EXPECT_EQ(t3.get_bsLength(), 64u);
  EXPECT_EQ(t1.GetDataSize(), sizeof(AscendC::tiling::LayerNormTiling));
  EXPECT_EQ(t2.GetDataSize(), sizeof(AscendC::tiling::LayerNormGradTiling));
  EXPECT_EQ(t3.GetDataSize(), sizeof(AscendC::tiling::LayerNormGradBetaTiling));
  EXPECT_FALSE(AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({2, 16}), 4, false, maxv, minv));
}

}  // namespace
}  // namespace vectest
