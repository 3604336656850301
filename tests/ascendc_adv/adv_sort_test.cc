// TopK and the high-level Sort / Concat / Extract (npurt_kernel/adv_sort.h) against host models (a stable
// sort by value, NaN-free data with many equal values), half and float; TopKTilingFunc / GetTopKMaxMinTmpSize
// and GetSortMaxMinTmpSize.
#include <algorithm>
#include <numeric>

#include "aclrtlaunch_adv_sort_full.h"
#include "aclrtlaunch_adv_topk.h"
#include "tiling/tiling_api.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

class AdvSortTest : public VecTest {};

// Values on a 0.5 grid, so that many are equal and the order among them is checked.
template <typename T>
std::vector<T> SortGridValues(size_t n, std::mt19937_64& rng) {
  std::vector<T> v = RandomValues<T>(n, rng, -16, 16);
  for (auto& x : v) x = static_cast<T>(std::round(static_cast<float>(x) * 2) / 2);
  return v;
}

template <typename T>
void RunTopK(aclrtStream stream, uint32_t outter, uint32_t inner, uint32_t n, uint32_t k, uint32_t mode, bool largest,
             uint64_t seed) {
  std::mt19937_64 rng(seed);
  const uint32_t kv = (k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T)), ki = (k + 7) / 8 * 8;
  const uint32_t idx_n = mode == 2 ? outter * inner : inner;
  const std::vector<T> x = SortGridValues<T>(outter * inner, rng), v0 = RandomValues<T>(outter * kv, rng, -1, 1);
  const std::vector<int32_t> idx = RandomValues<int32_t>(idx_n, rng, 0, 100000);
  const std::vector<int32_t> d0 = RandomValues<int32_t>(outter * ki, rng, -50, 50);
  std::vector<uint8_t> fin(outter);
  for (auto& f : fin) f = static_cast<uint8_t>(rng() % 2);
  DevMem dx(x.size() * sizeof(T)), di(idx_n * 4), df(outter), dv(v0.size() * sizeof(T)), dd(d0.size() * 4);
  CopyIn(dx, x.data(), x.size() * sizeof(T));
  CopyIn(di, idx.data(), idx_n * 4);
  CopyIn(df, fin.data(), outter);
  CopyIn(dv, v0.data(), v0.size() * sizeof(T));
  CopyIn(dd, d0.data(), d0.size() * 4);
  ASSERT_EQ(aclrtlaunch_adv_topk(1, stream, dx.get(), di.get(), df.get(), dv.get(), dd.get(), outter, inner, n, k,
                                 mode, largest, sizeof(T) == 2),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got_v(v0.size()), want_v = v0;
  std::vector<int32_t> got_i(d0.size()), want_i = d0;
  CopyOut(got_v.data(), dv, got_v.size() * sizeof(T));
  CopyOut(got_i.data(), dd, got_i.size() * 4);
  for (uint32_t r = 0; r < outter; ++r) {
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    const T* row = x.data() + r * inner;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
      return largest ? static_cast<float>(row[a]) > static_cast<float>(row[b])
                     : static_cast<float>(row[a]) < static_cast<float>(row[b]);
    });
    for (uint32_t i = 0; i < k; ++i) {
      want_v[r * kv + i] = row[order[i]];
      int32_t id = static_cast<int32_t>(order[i]);
      if (mode == 1) id = idx[order[i]];
      if (mode == 2) id = idx[r * inner + order[i]];
      if (mode == 1 && fin[r] != 0) id = static_cast<int32_t>(n);
      want_i[r * ki + i] = id;
    }
  }
  const std::string where = "mode " + std::to_string(mode) + " " + std::to_string(outter) + "x" +
                            std::to_string(inner) + " n " + std::to_string(n) + " k " + std::to_string(k) +
                            " largest " + std::to_string(largest) + " half " + std::to_string(sizeof(T) == 2);
  EXPECT_EQ(Mismatches(got_v, want_v), "") << where;
  EXPECT_EQ(Mismatches(got_i, want_i), "") << "indices " << where;
}

TEST_F(AdvSortTest, TopKLargestOrSmallestPerRow) {
  uint64_t seed = 1300;
  for (bool largest : {false, true}) {
    RunTopK<float>(stream_, 2, 32, 32, 1, 1, largest, ++seed);  // the sample's shape
    RunTopK<float>(stream_, 3, 64, 50, 9, 0, largest, ++seed);
    RunTopK<float>(stream_, 4, 96, 96, 17, 1, largest, ++seed);
    RunTopK<float>(stream_, 5, 32, 32, 5, 2, largest, ++seed);
    RunTopK<half>(stream_, 3, 64, 61, 20, 0, largest, ++seed);
    RunTopK<half>(stream_, 2, 128, 128, 3, 1, largest, ++seed);
    RunTopK<half>(stream_, 4, 32, 30, 32 - 2, 2, largest, ++seed);
  }
}

template <typename T>
void RunSortFull(aclrtStream stream, uint32_t n, bool full, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<T> x = SortGridValues<T>(n, rng);
  const std::vector<uint32_t> idx = RandomValues<uint32_t>(n, rng, 0, 1e9);
  DevMem dx(n * sizeof(T)), di(n * 4), dv(n * sizeof(T)), dd(n * 4);
  CopyIn(dx, x.data(), n * sizeof(T));
  CopyIn(di, idx.data(), n * 4);
  ASSERT_EQ(aclrtlaunch_adv_sort_full(1, stream, dx.get(), di.get(), dv.get(), dd.get(), n, full, sizeof(T) == 2),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << RecentError();
  std::vector<T> got_v(n), want_v(n);
  std::vector<uint32_t> got_i(n), want_i(n), order(n);
  CopyOut(got_v.data(), dv, n * sizeof(T));
  CopyOut(got_i.data(), dd, n * 4);
  std::iota(order.begin(), order.end(), 0u);
  const uint32_t group = full ? n : 32;
  for (uint32_t g = 0; g < n; g += group) {
    std::stable_sort(order.begin() + g, order.begin() + g + group,
                     [&](uint32_t a, uint32_t b) { return static_cast<float>(x[a]) > static_cast<float>(x[b]); });
  }
  for (uint32_t i = 0; i < n; ++i) {
    want_v[i] = x[order[i]];
    want_i[i] = idx[order[i]];
  }
  const std::string where = "n " + std::to_string(n) + " full " + std::to_string(full) + " half " +
                            std::to_string(sizeof(T) == 2);
  EXPECT_EQ(Mismatches(got_v, want_v), "") << where;
  EXPECT_EQ(Mismatches(got_i, want_i), "") << "indices " << where;
}

TEST_F(AdvSortTest, SortConcatExtractDescending) {
  uint64_t seed = 1400;
  for (bool full : {true, false}) {
    RunSortFull<float>(stream_, 128, full, ++seed);  // the sample's shape
    RunSortFull<float>(stream_, 32, full, ++seed);
    RunSortFull<half>(stream_, 96, full, ++seed);
  }
}

TEST(AdvSortTiling, TopKTilingAndSizes) {
  auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
  ASSERT_NE(plat, nullptr);
  optiling::TopkTiling t;
  ASSERT_TRUE(AscendC::TopKTilingFunc(*plat, 64, 3, 9, 4, false, AscendC::TopKMode::TOPK_NORMAL, true, t));
  EXPECT_EQ(t.get_innerDataSize(), 64);
  EXPECT_EQ(t.get_allDataSize(), 192);
  EXPECT_EQ(t.get_kAlignFourBytes(), 16);
  EXPECT_EQ(t.get_kAlignTwoBytes(), 16);
  EXPECT_EQ(t.GetDataSize(), sizeof(AscendC::tiling::TopkTiling));
  EXPECT_FALSE(AscendC::TopKTilingFunc(*plat, 64, 3, 9, 4, false, AscendC::TopKMode::TOPK_NSMALL, true, t));
  uint32_t maxv = 0, minv = 0;
  ASSERT_TRUE(AscendC::GetTopKMaxMinTmpSize(*plat, 32, 2, false, false, AscendC::TopKMode::TOPK_NORMAL, false, 4, maxv,
                                            minv));
  EXPECT_GT(minv, 0u);
  EXPECT_GE(maxv, minv);
  AscendC::SortConfig cfg;
  ASSERT_TRUE(AscendC::GetSortMaxMinTmpSize(AscendC::TensorShape({128}), AscendC::TensorDataType::DT_FLOAT,
                                            AscendC::TensorDataType::DT_UINT32, false, cfg, maxv, minv));
  EXPECT_GE(minv, 128u * 8u);
  EXPECT_GE(maxv, minv);
}

}  // namespace
}  // namespace vectest
