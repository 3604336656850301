// WelfordUpdate and WelfordFinalize (npurt_kernel/adv_welford.h) against host models doing the same float steps
// in the same order (no fused multiply-add): compute length short of abLength (the tail copied), half and float
// x; WelfordFinalize without counts, with counts, with head / tail coefficients; their tmp-size functions.
#include "aclrtlaunch_adv_welford_finalize.h"
#include "aclrtlaunch_adv_welford_update.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvWelfordTest : public VecTest {};

template <typename T>
void RunWelfordUpdate(aclrtStream stream, uint32_t rn, uint32_t ab, uint32_t abc, uint32_t n_den, uint32_t inplace,
                      uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t n = rn * ab;
  const std::vector<T> x = RandomValues<T>(n, rng, 1, 100);
  const std::vector<float> m = RandomValues<float>(n, rng, -600, 600), v = RandomValues<float>(n, rng, 0, 600);
  const std::vector<float> o0 = RandomValues<float>(n, rng, -1, 1);
  DevMem dx(n * sizeof(T)), dm(n * 4), dv(n * 4), dom(n * 4), dov(n * 4);
  CopyIn(dx, x.data(), n * sizeof(T));
  CopyIn(dm, m.data(), n * 4);
  CopyIn(dv, v.data(), n * 4);
  CopyIn(dom, o0.data(), n * 4);
  CopyIn(dov, o0.data(), n * 4);
  ASSERT_EQ(aclrtlaunch_adv_welford_update(1, stream, dx.get(), dm.get(), dv.get(), dom.get(), dov.get(), rn, ab, abc,
                                           n_den, inplace, sizeof(T) == 2),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<float> got_m(n), got_v(n), want_m = m, want_v = v;
  CopyOut(got_m.data(), dom, n * 4);
  CopyOut(got_v.data(), dov, n * 4);
  const float rec = 1.0f / static_cast<float>(n_den);
  for (uint32_t i = 0; i < n; ++i) {
    if (i % ab >= abc) continue;
    const float xi = static_cast<float>(x[i]), d = xi - m[i];
    const volatile float step = d * rec;
    want_m[i] = m[i] + step;
    const volatile float sq = d * (xi - want_m[i]);
    want_v[i] = v[i] + sq;
  }
  const std::string where = std::to_string(rn) + "x" + std::to_string(ab) + " compute " + std::to_string(abc) +
                            " inplace " + std::to_string(inplace) + " half " + std::to_string(sizeof(T) == 2);
  EXPECT_EQ(Mismatches(got_m, want_m), "") << where;
  EXPECT_EQ(Mismatches(got_v, want_v), "") << "variance " << where;
}

TEST_F(AdvWelfordTest, UpdateStepsTheComputedColumns) {
  uint64_t seed = 1500;
  RunWelfordUpdate<float>(stream_, 1, 64, 35, 8, 1, ++seed);  // the sample's shape
  RunWelfordUpdate<float>(stream_, 3, 16, 16, 3, 0, ++seed);
  RunWelfordUpdate<float>(stream_, 2, 40, 33, 5, 0, ++seed);
  RunWelfordUpdate<half>(stream_, 4, 32, 20, 7, 1, ++seed);
  RunWelfordUpdate<half>(stream_, 1, 16, 16, 2, 0, ++seed);
}

void RunWelfordFinalize(aclrtStream stream, uint32_t rn, uint32_t ab, uint32_t head, uint32_t head_len, uint32_t tail,
                        uint32_t tail_len, uint32_t r_den, uint32_t mode, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<float> m = RandomValues<float>(ab, rng, -50, 50), v = RandomValues<float>(ab, rng, 0, 500);
  const std::vector<int32_t> c = RandomValues<int32_t>(ab, rng, 1, 9);
  const std::vector<float> o0 = RandomValues<float>(8, rng, 1, 2);
  DevMem dm(ab * 4), dv(ab * 4), dc(ab * 4), dom(32), dov(32);
  CopyIn(dm, m.data(), ab * 4);
  CopyIn(dv, v.data(), ab * 4);
  CopyIn(dc, c.data(), ab * 4);
  CopyIn(dom, o0.data(), 32);
  CopyIn(dov, o0.data(), 32);
  ASSERT_EQ(aclrtlaunch_adv_welford_finalize(1, stream, dm.get(), dv.get(), dc.get(), dom.get(), dov.get(), rn, ab,
                                             head, head_len, tail, tail_len, r_den, mode),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<float> got_m(8), got_v(8), want_m(8, 0.0f), want_v(8, 0.0f);
  CopyOut(got_m.data(), dom, 32);
  CopyOut(got_v.data(), dov, 32);
  const float ab_rec = 1.0f / static_cast<float>(ab), r_rec = 1.0f / static_cast<float>(r_den);
  const bool has_tail = mode == 2 && tail != 0 && tail_len != 0;
  auto coef = [&](uint32_t i) {
    if (mode == 1) return static_cast<float>(c[i]);
    if (has_tail) return static_cast<float>(i < head_len ? head : tail);
    return static_cast<float>(rn);
  };
  for (uint32_t i = 0; i < ab; ++i) {
    const volatile float term = (mode == 1 || has_tail) ? coef(i) * m[i] * r_rec : m[i] * ab_rec;
    want_m[0] += term;
  }
  for (uint32_t i = 0; i < ab; ++i) {
    const float d = m[i] - want_m[0];
    const volatile float sq = d * d * coef(i);
    const volatile float term = (v[i] + sq) * r_rec;
    want_v[0] += term;
  }
  const std::string where = "mode " + std::to_string(mode) + " ab " + std::to_string(ab);
  EXPECT_EQ(Mismatches(got_m, want_m), "") << where;
  EXPECT_EQ(Mismatches(got_v, want_v), "") << "variance " << where;
}

TEST_F(AdvWelfordTest, FinalizeCombinesThePartials) {
  uint64_t seed = 1600;
  RunWelfordFinalize(stream_, 4, 8, 0, 0, 0, 0, 32, 0, ++seed);
  RunWelfordFinalize(stream_, 1, 8, 1, 8, 0, 0, 1, 1, ++seed);  // the sample's form
  RunWelfordFinalize(stream_, 3, 24, 0, 0, 0, 0, 90, 1, ++seed);
  RunWelfordFinalize(stream_, 5, 16, 5, 10, 3, 6, 68, 2, ++seed);
}

TEST(AdvWelfordTiling, SizesCoverTheWorkingCopies) {
  uint32_t maxv = 0, minv = 0;
  ASSERT_TRUE(AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 4, 4, false, true, maxv, minv));
  EXPECT_GE(maxv, 64u * 2u * 4u);
  EXPECT_GT(minv, 0u);
  EXPECT_GE(maxv, minv);
  EXPECT_FALSE(AscendC::GetWelfordUpdateMaxMinTmpSize(ge::Shape({1, 64}), 4, 2, false, true, maxv, minv));
  ASSERT_TRUE(AscendC::GetWelfordFinalizeMaxMinTmpSize(ge::Shape({64}), 4, false, maxv, minv));
  EXPECT_GT(minv, 0u);
  EXPECT_GE(maxv, minv);
}

}  // namespace
}  // namespace vectest
