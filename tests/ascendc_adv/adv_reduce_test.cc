// The pattern reductions (npurt_kernel/adv_reduce.h) against double-precision host models: every op, both
// patterns, half and float, padded and packed rows, lengths that are not block multiples, with and without
// sharedTmpBuffer; and the host tmp sizes (tiling/adv_reduce_tiling.h).
#include <cmath>

#include "aclrtlaunch_adv_reduce.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvReduceTest : public VecTest {};

double Model(uint32_t op, const std::vector<double>& v) {
  double acc = op == 4 ? 1 : op == 6 ? 1 : op == 0 ? -INFINITY : op == 1 ? INFINITY : 0;
  for (double x : v) {
    switch (op) {
      case 0: acc = std::max(acc, x); break;
      case 1: acc = std::min(acc, x); break;
      case 2: case 3: acc += x; break;
      case 4: acc *= x; break;
      case 5: acc = (acc != 0 || x != 0) ? 1 : 0; break;
      default: acc = (acc != 0 && x != 0) ? 1 : 0; break;
    }
  }
  return op == 3 ? acc / static_cast<double>(v.size()) : acc;
}

template <typename T>
void RunReduce(aclrtStream stream, uint32_t op, bool ra, uint32_t first, uint32_t last, bool pad, uint32_t with_tmp,
               uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t per = 32 / sizeof(T), stride = pad ? (last + per - 1) / per * per : last;
  const uint32_t n = first * stride, outs = ra ? last : first;
  // Products stay finite near 1; Any/All see some zeros.
  std::vector<T> x = op == 4 ? RandomValues<T>(n, rng, 0.8, 1.25) : RandomValues<T>(n, rng, -10, 10);
  if (op >= 5) {
    for (uint32_t i = 0; i < n; ++i) {
      if (rng() % 3 != 0) x[i] = T(0);
    }
    for (uint32_t c = 0; c < last; c += 3) x[c] = T(1.5f);  // some rows/columns all set
    for (uint32_t c = 0; c < last; c += 3) {
      for (uint32_t r = 0; r < first; ++r) x[r * stride + c] = T(2.0f);
    }
  }
  const std::vector<T> y0 = RandomValues<T>(outs + 8, rng, -1, 1);
  DevMem dx(n * sizeof(T)), dy(y0.size() * sizeof(T));
  CopyIn(dx, x.data(), n * sizeof(T));
  CopyIn(dy, y0.data(), y0.size() * sizeof(T));
  ASSERT_EQ(aclrtlaunch_adv_reduce(1, stream, dx.get(), dy.get(), op, ra, first, last, n, outs, pad, sizeof(T) == 2,
                                   with_tmp),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got(y0.size()), want(y0);
  CopyOut(got.data(), dy, got.size() * sizeof(T));
  for (uint32_t o = 0; o < outs; ++o) {
    std::vector<double> v;
    for (uint32_t k = 0; k < (ra ? first : last); ++k) v.push_back(D(x[ra ? k * stride + o : o * stride + k]));
    want[o] = static_cast<T>(static_cast<float>(Model(op, v)));
  }
  EXPECT_EQ(Mismatches(got, want, 1), "") << "op " << op << " ra " << ra << " shape " << first << "x" << last
                                          << " pad " << pad << " half " << (sizeof(T) == 2);
}

TEST_F(AdvReduceTest, EveryOpReducesTheNamedAxis) {
  uint64_t seed = 700;
  for (uint32_t op = 0; op < 7; ++op) {
    for (uint32_t ra = 0; ra < 2; ++ra) {
      RunReduce<float>(stream_, op, ra != 0, 32, 136, true, op % 2, ++seed);  // reducemax's shape
      RunReduce<float>(stream_, op, ra != 0, 5, 13, true, 1, ++seed);        // padded rows
      RunReduce<float>(stream_, op, ra != 0, 7, 9, false, 0, ++seed);        // packed rows
      RunReduce<half>(stream_, op, ra != 0, 6, 40, true, op % 2, ++seed);
      RunReduce<half>(stream_, op, ra != 0, 3, 17, true, 0, ++seed);
    }
  }
}

TEST(AdvReduceTiling, SizesForTwoDimensionalPatterns) {
  uint32_t maxv = 1, minv = 1;
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({32, 136}), AscendC::TensorDataType::DT_FLOAT,
                                     AscendC::ReducePattern::RA, true, false, maxv, minv);
  EXPECT_EQ(maxv, minv);
  EXPECT_GE(minv, 32u * 136u * 4u);
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({32, 136}), AscendC::TensorDataType::DT_FLOAT16,
                                     AscendC::ReducePattern::AR, true, true, maxv, minv);
  EXPECT_EQ(minv, 0u);
  AscendC::GetReduceMeanMaxMinTmpSize(ge::Shape({2, 3, 4}), AscendC::TensorDataType::DT_FLOAT,
                                      AscendC::ReducePattern::ARA, true, false, maxv, minv);
  EXPECT_EQ(maxv, 0u);
}

}  // namespace
}  // namespace vectest
