// ExtentAllocator (core/memory/mem_extent.h): best fit, alignment, merging.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/memory/mem_extent.h"

namespace npurt::core {
namespace {

constexpr uint64_t kG = 2u << 20;

TEST(ExtentAllocator, FillsFromTheBottomAndMerges) {
  ExtentAllocator e(16 * kG, kG);
  EXPECT_EQ(16 * kG, e.capacity());
  auto a = e.Allocate(2 * kG, kG);
  auto b = e.Allocate(kG, kG);
  auto c = e.Allocate(3 * kG, kG);
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(0u, *a);
  EXPECT_EQ(2 * kG, *b);
  EXPECT_EQ(3 * kG, *c);
  EXPECT_EQ(6 * kG, e.used());
  e.Free(*b, kG);
  // Best fit: the 1-page hole, not the big tail.
  auto d = e.Allocate(kG, kG);
  ASSERT_TRUE(d);
  EXPECT_EQ(2 * kG, *d);
  e.Free(*a, 2 * kG);
  e.Free(*d, kG);
  e.Free(*c, 3 * kG);
  EXPECT_EQ(0u, e.used());
  EXPECT_EQ(16 * kG, e.largest_free()) << "all runs merged back";
}

TEST(ExtentAllocator, AlignmentAndAllocateAt) {
  ExtentAllocator e(64 * kG, kG);
  ASSERT_TRUE(e.Allocate(kG, kG));
  auto big = e.Allocate(8 * kG, 16 * kG);
  ASSERT_TRUE(big);
  EXPECT_EQ(0u, *big % (16 * kG));
  EXPECT_FALSE(e.AllocateAt(*big, kG)) << "taken";
  EXPECT_TRUE(e.AllocateAt(40 * kG, 2 * kG));
  EXPECT_FALSE(e.IsFree(40 * kG, kG));
  EXPECT_TRUE(e.IsFree(42 * kG, kG));
  EXPECT_FALSE(e.Allocate(kG + 1, kG)) << "not a granule multiple";
  EXPECT_FALSE(e.Allocate(128 * kG, kG)) << "larger than the capacity";
  EXPECT_GE(e.largest_free_aligned(16 * kG), 16 * kG);
}

TEST(ExtentAllocator, RandomOperationsKeepAccounts) {
  ExtentAllocator e(256 * kG, kG);
  std::mt19937_64 rng(7);
  std::vector<std::pair<uint64_t, uint64_t>> live;
  for (int i = 0; i < 4000; ++i) {
    if (!live.empty() && rng() % 2 == 0) {
      const size_t k = rng() % live.size();
      e.Free(live[k].first, live[k].second);
      live.erase(live.begin() + static_cast<long>(k));
    } else {
      const uint64_t size = (1 + rng() % 8) * kG;
      if (auto off = e.Allocate(size, kG)) {
        for (const auto& [o, s] : live) ASSERT_TRUE(*off + size <= o || o + s <= *off) << "overlap";
        live.emplace_back(*off, size);
      }
    }
    uint64_t used = 0;
    for (const auto& [o, s] : live) used += s;
    ASSERT_EQ(used, e.used());
  }
}

}  // namespace
}  // namespace npurt::core
