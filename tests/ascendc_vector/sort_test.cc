// Sort32 and MrgSort against a host model: random scores with repeated values (equal scores keep their
// order; merges take an equal score from the earlier list first), half and float, 2..4 lists, with and
// without exhausted suspension.
#include <algorithm>
#include <numeric>

#include "aclrtlaunch_vec_mrgsort_repeat.h"
#include "aclrtlaunch_vec_sort.h"
#include "vec_test_util.h"

namespace vectest {
namespace {

// One 8-byte (score, index) structure as bytes: score in the low bytes, index in the high 4.
struct SortEntry {
  uint8_t bytes[8];
};

class SortTest : public VecTest {
 protected:
  template <typename T>
  void Run(uint32_t repeat, uint32_t merge_lists, bool suspend, uint64_t seed) {
    std::mt19937_64 rng(seed);
    const uint32_t n = 32 * repeat;
    std::vector<T> scores = RandomValues<T>(n, rng, -8, 8);
    for (auto& s : scores) s = static_cast<T>(std::floor(static_cast<double>(s) * 2) / 2);  // many ties
    std::vector<uint32_t> indices(n);
    for (auto& i : indices) i = static_cast<uint32_t>(rng());
    std::vector<uint8_t> sorted0(n * 8), merged0(n * 8);
    for (auto& b : sorted0) b = static_cast<uint8_t>(rng());
    for (auto& b : merged0) b = static_cast<uint8_t>(rng());
    DevMem ds(n * sizeof(T)), di(n * 4), dso(n * 8), dm(n * 8), dn(16);
    CopyIn(ds, scores.data(), n * sizeof(T));
    CopyIn(di, indices.data(), n * 4);
    CopyIn(dso, sorted0.data(), n * 8);
    CopyIn(dm, merged0.data(), n * 8);
    const uint32_t zeros[4] = {0, 0, 0, 0};
    CopyIn(dn, zeros, 16);
    ASSERT_EQ(aclrtlaunch_vec_sort(1, stream_, ds.get(), di.get(), dso.get(), dm.get(), dn.get(), repeat, merge_lists,
                                   suspend ? 1 : 0, sizeof(T) == 2 ? 1 : 0),
              ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
    std::vector<uint8_t> sorted(n * 8), merged(n * 8);
    uint32_t sorted_num[4];
    CopyOut(sorted.data(), dso, n * 8);
    CopyOut(merged.data(), dm, n * 8);
    CopyOut(sorted_num, dn, 16);

    // Sort32: per 32, stable by descending score.
    std::vector<uint8_t> want = sorted0;
    for (uint32_t r = 0; r < repeat; ++r) {
      std::vector<uint32_t> order(32);
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return static_cast<float>(scores[32 * r + a]) > static_cast<float>(scores[32 * r + b]);
      });
      for (uint32_t i = 0; i < 32; ++i) {
        std::memcpy(&want[(32 * r + i) * 8], &scores[32 * r + order[i]], sizeof(T));
        std::memcpy(&want[(32 * r + i) * 8 + 4], &indices[32 * r + order[i]], 4);
      }
    }
    EXPECT_EQ(sorted, want) << "Sort32, repeat " << repeat;
    if (merge_lists < 2) return;

    // MrgSort of the first merge_lists lists of 32.
    std::vector<uint8_t> want_m = merged0;
    uint32_t pos[4] = {0, 0, 0, 0};
    uint32_t out = 0;
    auto score = [&](uint32_t q, uint32_t i) {
      T v;
      std::memcpy(&v, &want[(32 * q + i) * 8], sizeof(T));
      return static_cast<float>(v);
    };
    while (true) {
      int best = -1;
      bool exhausted = false;
      for (uint32_t q = 0; q < merge_lists; ++q) {
        if (pos[q] == 32) {
          exhausted = true;
          continue;
        }
        if (best < 0 || score(q, pos[q]) > score(best, pos[best])) best = static_cast<int>(q);
      }
      if (best < 0 || (suspend && exhausted)) break;
      std::memcpy(&want_m[out * 8], &want[(32 * best + pos[best]) * 8], 8);
      ++pos[best];
      ++out;
    }
    EXPECT_EQ(merged, want_m) << "MrgSort of " << merge_lists << " lists, suspend " << suspend;
    for (uint32_t q = 0; q < 4; ++q) EXPECT_EQ(sorted_num[q], pos[q]) << "list " << q;
  }
};

TEST_F(SortTest, Sort32Float) { Run<float>(3, 0, false, 71); }
TEST_F(SortTest, Sort32Half) { Run<half>(2, 0, false, 72); }
TEST_F(SortTest, MergeTwoThreeFourFloat) {
  Run<float>(4, 2, false, 73);
  Run<float>(4, 3, false, 74);
  Run<float>(4, 4, false, 75);
}
TEST_F(SortTest, MergeHalfWithExhaustedSuspension) {
  Run<half>(4, 4, true, 76);
  Run<half>(4, 2, true, 77);
}

// MrgSort with repeatTimes > 1 (four contiguous lists of 32 each time, validBit 0b1111): each group of
// 128 comes out sorted by score, largest first, equal scores in their input order.
TEST_F(SortTest, MrgSortRepeats) {
  std::mt19937_64 rng(77);
  const uint32_t groups = 3, n = 128 * groups;
  std::vector<float> scores(n);
  for (auto& v : scores) v = static_cast<float>(static_cast<int>(rng() % 50)) * 0.5f;  // many equal scores
  DevMem ds(n * 4), dm(n * 8);
  CopyIn(ds, scores.data(), n * 4);
  ASSERT_EQ(aclrtlaunch_vec_mrgsort_repeat(1, stream_, ds.get(), dm.get(), groups), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS) << RecentError();
  std::vector<uint32_t> got(2 * n);
  CopyOut(got.data(), dm, n * 8);
  for (uint32_t g = 0; g < groups; ++g) {
    std::vector<uint32_t> order(128);
    for (uint32_t i = 0; i < 128; ++i) order[i] = g * 128 + i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return scores[a] > scores[b]; });
    for (uint32_t i = 0; i < 128; ++i) {
      float s;
      std::memcpy(&s, &got[2 * (g * 128 + i)], 4);
      ASSERT_EQ(s, scores[order[i]]) << "group " << g << " position " << i;
      ASSERT_EQ(got[2 * (g * 128 + i) + 1], order[i]) << "group " << g << " position " << i;
    }
  }
}

}  // namespace
}  // namespace vectest
