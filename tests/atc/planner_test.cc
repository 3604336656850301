// The arena planner on synthetic lifetimes: overlapping lifetimes never share bytes (every pair checked),
// the arena reaches the lower bound where it is reachable and stays near it on random graphs.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "memory_planner.h"

namespace npurt::atc {
namespace {

constexpr uint64_t kAlign = 64;

TEST(Planner, EmptyAndSingle) {
  MemoryPlan p = PlanMemory({}, kAlign);
  EXPECT_EQ(p.arena, 0u);
  EXPECT_EQ(p.lower_bound, 0u);
  p = PlanMemory({{100, 0, 0}}, kAlign);
  EXPECT_EQ(p.arena, 128u);
  EXPECT_EQ(p.lower_bound, 128u);
  EXPECT_EQ(p.no_reuse, 128u);
  EXPECT_EQ(p.offsets[0], 0u);
}

TEST(Planner, ChainReusesTwoBuffers) {
  // A chain: tensor i written at step i, read at step i+1. Two live at a time.
  std::vector<PlanBuffer> b;
  for (int i = 0; i < 50; ++i) b.push_back({4096, i, i + 1});
  MemoryPlan p = PlanMemory(b, kAlign);
  EXPECT_TRUE(PlanIsValid(b, p, kAlign));
  EXPECT_EQ(p.lower_bound, 2u * 4096);
  EXPECT_EQ(p.arena, p.lower_bound);
  EXPECT_EQ(p.no_reuse, 50u * 4096);
}

TEST(Planner, DisjointLifetimesShareOneRange) {
  std::vector<PlanBuffer> b = {{1000, 0, 0}, {2000, 1, 1}, {500, 2, 2}};
  MemoryPlan p = PlanMemory(b, kAlign);
  EXPECT_TRUE(PlanIsValid(b, p, kAlign));
  EXPECT_EQ(p.arena, 2048u);  // the largest, aligned
}

TEST(Planner, OverlappingLifetimesNeverOverlapInMemory) {
  std::vector<PlanBuffer> b = {{1000, 0, 5}, {1000, 1, 2}, {3000, 2, 4}, {10, 3, 3}, {64, 0, 9}};
  MemoryPlan p = PlanMemory(b, kAlign);
  ASSERT_TRUE(PlanIsValid(b, p, kAlign));
  EXPECT_GE(p.arena, p.lower_bound);
  for (uint64_t off : p.offsets) EXPECT_EQ(off % kAlign, 0u);
}

TEST(Planner, NoReuseGivesEachBufferItsOwnRange) {
  std::vector<PlanBuffer> b = {{100, 0, 0}, {100, 1, 1}, {100, 2, 2}};
  MemoryPlan p = PlanMemory(b, kAlign, /*disable_reuse=*/true);
  EXPECT_TRUE(PlanIsValid(b, p, kAlign));
  EXPECT_EQ(p.arena, 3u * 128);
  EXPECT_EQ(p.arena, p.no_reuse);
}

TEST(Planner, ValidityCheckCatchesAnOverlap) {
  std::vector<PlanBuffer> b = {{128, 0, 1}, {128, 1, 2}};
  MemoryPlan p = PlanMemory(b, kAlign);
  ASSERT_TRUE(PlanIsValid(b, p, kAlign));
  p.offsets[1] = p.offsets[0];
  EXPECT_FALSE(PlanIsValid(b, p, kAlign));
}

// Random DAG-like schedules: each step writes one tensor read by up to three later steps, plus skip
// connections (as in residual networks) and a few long-lived tensors.
std::vector<PlanBuffer> RandomSchedule(std::mt19937& rng, int steps) {
  std::uniform_int_distribution<int> size_class(0, 5), reach(1, 6), skip(0, 9);
  std::vector<PlanBuffer> b;
  for (int s = 0; s < steps; ++s) {
    const uint64_t size = (uint64_t{1} << (10 + size_class(rng))) + static_cast<uint64_t>(rng() % 4096);
    int last = std::min(steps - 1, s + reach(rng));
    if (skip(rng) == 0) last = std::min(steps - 1, s + 20);
    b.push_back({size, s, last});
  }
  return b;
}

TEST(Planner, RandomGraphsAreValidAndNearTheLowerBound) {
  std::mt19937 rng(7);
  double worst = 1.0, sum = 0.0;
  const int kGraphs = 200;
  for (int g = 0; g < kGraphs; ++g) {
    const auto b = RandomSchedule(rng, 20 + static_cast<int>(rng() % 200));
    MemoryPlan p = PlanMemory(b, kAlign);
    ASSERT_TRUE(PlanIsValid(b, p, kAlign)) << "graph " << g;
    ASSERT_GE(p.arena, p.lower_bound);
    ASSERT_LE(p.arena, p.no_reuse);
    const double ratio = static_cast<double>(p.arena) / static_cast<double>(p.lower_bound);
    worst = std::max(worst, ratio);
    sum += ratio;
  }
  const double mean = sum / kGraphs;
  RecordProperty("mean_ratio", std::to_string(mean));
  RecordProperty("worst_ratio", std::to_string(worst));
  EXPECT_LT(mean, 1.15) << "mean arena / lower bound over random graphs";
  EXPECT_LT(worst, 1.5);
}

TEST(Planner, ThousandTensorsPlanQuickly) {
  std::mt19937 rng(11);
  const auto b = RandomSchedule(rng, 1000);
  const auto t0 = std::chrono::steady_clock::now();
  MemoryPlan p = PlanMemory(b, kAlign);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_TRUE(PlanIsValid(b, p, kAlign));
  RecordProperty("plan_ms", std::to_string(ms));
  EXPECT_LT(ms, 2000.0);  // generous for sanitizer builds; ~10 ms in release
}

}  // namespace
}  // namespace npurt::atc
