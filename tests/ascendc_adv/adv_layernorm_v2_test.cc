// The rstd-output LayerNorm and Normalize (npurt_kernel/adv_layernorm_v2.h) against a host model (each row in
// double, results rounded once): padded rows (their padding left as it was), with and without gamma / beta,
// float, half, half x with float gamma / beta; the host sizes and LayerNormSeparateTiling.
#include <cmath>
#include <memory>

#include "aclrtlaunch_adv_layernorm_v2.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvLayerNormV2Test : public VecTest {};

template <typename U, typename T>
void RunLayerNormV2(aclrtStream stream, uint32_t a, uint32_t r, uint32_t pad, uint32_t mode, uint32_t kind,
                    uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t n = a * pad;
  const std::vector<T> x = RandomValues<T>(n, rng, -8, 8), y0 = RandomValues<T>(n, rng, -1, 1);
  const std::vector<U> gamma = RandomValues<U>(r, rng, -2, 2), beta = RandomValues<U>(r, rng, -2, 2);
  const std::vector<float> nm = RandomValues<float>(a, rng, -1, 1), nv = RandomValues<float>(a, rng, 0.5, 20);
  const std::vector<float> s0 = RandomValues<float>(a, rng, -1, 1);
  std::vector<std::unique_ptr<DevMem>> d;
  const size_t bytes[10] = {n * sizeof(T), r * sizeof(U), r * sizeof(U), n * sizeof(T), a * 4u,
                            a * 4u,        a * 4u,        a * 4u,        n * sizeof(T), a * 4u};
  for (size_t b : bytes) d.push_back(std::make_unique<DevMem>(b));
  CopyIn(*d[0], x.data(), bytes[0]);
  CopyIn(*d[1], gamma.data(), bytes[1]);
  CopyIn(*d[2], beta.data(), bytes[2]);
  CopyIn(*d[3], y0.data(), bytes[3]);
  CopyIn(*d[4], s0.data(), bytes[4]);
  CopyIn(*d[5], s0.data(), bytes[5]);
  CopyIn(*d[6], nm.data(), bytes[6]);
  CopyIn(*d[7], nv.data(), bytes[7]);
  CopyIn(*d[8], y0.data(), bytes[8]);
  CopyIn(*d[9], s0.data(), bytes[9]);
  ASSERT_EQ(aclrtlaunch_adv_layernorm_v2(1, stream, d[0]->get(), d[1]->get(), d[2]->get(), d[3]->get(), d[4]->get(),
                                         d[5]->get(), d[6]->get(), d[7]->get(), d[8]->get(), d[9]->get(), a, r, pad,
                                         mode, kind),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got_y(n), got_ny(n), want_y = y0, want_ny = y0;
  std::vector<float> got_m(a), got_r(a), got_nr(a), want_m(a), want_r(a), want_nr(a);
  CopyOut(got_y.data(), *d[3], bytes[3]);
  CopyOut(got_m.data(), *d[4], bytes[4]);
  CopyOut(got_r.data(), *d[5], bytes[5]);
  CopyOut(got_ny.data(), *d[8], bytes[8]);
  CopyOut(got_nr.data(), *d[9], bytes[9]);
  const double eps = static_cast<double>(0.0001f);
  for (uint32_t i = 0; i < a; ++i) {
    const T* xr = x.data() + i * pad;
    double mean = 0, var = 0;
    for (uint32_t j = 0; j < r; ++j) mean += static_cast<double>(xr[j]);
    mean /= r;
    for (uint32_t j = 0; j < r; ++j) var += (static_cast<double>(xr[j]) - mean) * (static_cast<double>(xr[j]) - mean);
    var /= r;
    const double rs = 1.0 / std::sqrt(var + eps), nrs = 1.0 / std::sqrt(static_cast<double>(nv[i]) + eps);
    for (uint32_t j = 0; j < r; ++j) {
      const double g = static_cast<double>(gamma[j]), b = static_cast<double>(beta[j]);
      const double ln = (static_cast<double>(xr[j]) - mean) * rs;
      want_y[i * pad + j] = static_cast<T>(mode == 0 ? ln * g + b : ln);
      const double nz = (static_cast<double>(xr[j]) - nm[i]) * nrs * g;
      want_ny[i * pad + j] = static_cast<T>(mode == 0 ? nz + b : nz);
    }
    want_m[i] = static_cast<float>(mean);
    want_r[i] = static_cast<float>(rs);
    want_nr[i] = static_cast<float>(nrs);
  }
  const std::string where = std::to_string(a) + "x" + std::to_string(r) + " pad " + std::to_string(pad) +
                            " mode " + std::to_string(mode) + " kind " + std::to_string(kind);
  EXPECT_EQ(Mismatches(got_y, want_y, 1), "") << "LayerNorm " << where;
  EXPECT_EQ(Mismatches(got_m, want_m, 1), "") << "mean " << where;
  EXPECT_EQ(Mismatches(got_r, want_r, 1), "") << "rstd " << where;
  EXPECT_EQ(Mismatches(got_ny, want_ny, 1), "") << "Normalize " << where;
  EXPECT_EQ(Mismatches(got_nr, want_nr, 1), "") << "Normalize rstd " << where;
}

TEST_F(AdvLayerNormV2Test, RstdLayerNormAndNormalize) {
  uint64_t seed = 1900;
  RunLayerNormV2<float, float>(stream_, 32, 32, 32, 0, 0, ++seed);  // the sample's shape
  RunLayerNormV2<float, float>(stream_, 5, 20, 24, 1, 0, ++seed);
  RunLayerNormV2<half, half>(stream_, 4, 30, 32, 0, 1, ++seed);
  RunLayerNormV2<float, half>(stream_, 3, 16, 16, 1, 2, ++seed);
  RunLayerNormV2<float, half>(stream_, 6, 40, 48, 0, 2, ++seed);
}

TEST(AdvLayerNormV2Tiling, SeparateTilingCarriesTheShape) {
  uint32_t maxv = 0, minv = 0;
  ASSERT_TRUE(AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({32, 32}), 4, false, true, false, maxv, minv));
  EXPECT_GT(minv, 0u);
  EXPECT_GE(maxv, minv);
  AscendC::tiling::LayerNormSeparateTiling t;
  ASSERT_TRUE(AscendC::GetLayerNormNDTilingInfo(ge::Shape({32, 20}), minv, 4, false, true, t));
  EXPECT_EQ(t.aLength, 32u);
  EXPECT_EQ(t.rLength, 20u);
  EXPECT_FLOAT_EQ(t.rValueBack, 1.0f / 20.0f);
  ASSERT_TRUE(AscendC::GetNormalizeMaxMinTmpSize(ge::Shape({32, 32}), 4, 2, false, true, false, maxv, minv));
  EXPECT_GE(maxv, minv);
  EXPECT_FALSE(AscendC::GetNormalizeMaxMinTmpSize(ge::Shape({32}), 4, 4, false, true, false, maxv, minv));
  optiling::LayerNormSeparateTiling host;
  EXPECT_EQ(host.GetDataSize(), sizeof(AscendC::tiling::LayerNormSeparateTiling));
}

}  // namespace
}  // namespace vectest
