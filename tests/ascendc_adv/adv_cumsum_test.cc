// CumSum (npurt_kernel/adv_cumsum.h) against a host model (sums in float, in order, rounded once to T): first
// and last axis, with and without the last-row output, half and float; GetCumSumMaxMinTmpSize.
#include "aclrtlaunch_adv_cumsum.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvCumSumTest : public VecTest {};

template <typename T>
void RunCumSum(aclrtStream stream, uint32_t outter, uint32_t inner, uint32_t mode, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t n = outter * inner, last_n = mode == 0 ? inner : outter;
  const std::vector<T> x = RandomValues<T>(n, rng, -10, 10), y0 = RandomValues<T>(n, rng, -1, 1);
  const std::vector<T> l0 = RandomValues<T>(last_n, rng, -1, 1);
  DevMem dx(n * sizeof(T)), dy(n * sizeof(T)), dl(last_n * sizeof(T));
  CopyIn(dx, x.data(), n * sizeof(T));
  CopyIn(dy, y0.data(), n * sizeof(T));
  CopyIn(dl, l0.data(), last_n * sizeof(T));
  ASSERT_EQ(aclrtlaunch_adv_cumsum(1, stream, dx.get(), dy.get(), dl.get(), outter, inner, last_n, mode,
                                   sizeof(T) == 2),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(n), got_l(last_n), want(n), want_l = l0;
  CopyOut(got.data(), dy, n * sizeof(T));
  CopyOut(got_l.data(), dl, last_n * sizeof(T));
  std::vector<float> acc(n);
  for (uint32_t r = 0; r < outter; ++r) {
    for (uint32_t c = 0; c < inner; ++c) {
      const uint32_t i = r * inner + c;
      const float prev = mode == 0 ? (r == 0 ? 0.0f : acc[i - inner]) : (c == 0 ? 0.0f : acc[i - 1]);
      acc[i] = (mode == 0 ? r == 0 : c == 0) ? static_cast<float>(x[i]) : prev + static_cast<float>(x[i]);
      want[i] = static_cast<T>(acc[i]);
    }
  }
  if (mode == 0) {
    for (uint32_t c = 0; c < inner; ++c) want_l[c] = want[(outter - 1) * inner + c];
  } else if (mode == 1) {
    for (uint32_t r = 0; r < outter; ++r) want_l[r] = want[r * inner + inner - 1];
  }
  const std::string where = "mode " + std::to_string(mode) + " " + std::to_string(outter) + "x" +
                            std::to_string(inner) + " half " + std::to_string(sizeof(T) == 2);
  EXPECT_EQ(Mismatches(got, want), "") << where;
  EXPECT_EQ(Mismatches(got_l, want_l), "") << "lastRow " << where;
}

TEST_F(AdvCumSumTest, RunningSumsAlongEitherAxis) {
  uint64_t seed = 1100;
  for (uint32_t mode = 0; mode < 3; ++mode) {
    RunCumSum<float>(stream_, 32, 160, mode, ++seed);  // the sample's shape
    RunCumSum<float>(stream_, 5, 8, mode, ++seed);
    RunCumSum<half>(stream_, 7, 48, mode, ++seed);
    RunCumSum<half>(stream_, 1, 16, mode, ++seed);
  }
}

TEST(AdvCumSumTiling, SizesCoverAFloatCopy) {
  uint32_t maxv = 0, minv = 0;
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({32, 160}), 4, true, false, maxv, minv);
  EXPECT_GE(maxv, 32u * 160u * 4u);
  EXPECT_GT(minv, 0u);
  EXPECT_GE(maxv, minv);
}

}  // namespace
}  // namespace vectest
