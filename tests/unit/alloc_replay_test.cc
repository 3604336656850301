// The shipped allocation traces (bench/traces) through the replay tool's library: the fragmentation
// targets of the memory issue hold with expandable segments, and the figures without them show what
// expandable segments buy.
#include <gtest/gtest.h>

#include <sstream>

#include "replay.h"

namespace npurt::tools {
namespace {

std::string TracePath(const char* name) { return std::string(NPURT_SOURCE_DIR) + "/bench/traces/" + name + ".trace"; }

class ShippedTrace : public ::testing::TestWithParam<const char*> {};

TEST_P(ShippedTrace, ExpandableSegmentsKeepReservedWithin15Percent) {
  auto trace = LoadTrace(TracePath(GetParam()));
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  core::AllocatorConfig c;
  c.expandable_segments = true;
  c.debug_checks = trace->events.size() < 10000;  // walk every pool on the short traces
  auto with = Replay(trace.value(), c);
  ASSERT_TRUE(with.ok()) << with.status().message();
  c.expandable_segments = false;
  auto without = Replay(trace.value(), c);
  ASSERT_TRUE(without.ok()) << without.status().message();
  EXPECT_LE(with->frag_ratio, 1.15) << GetParam();
  EXPECT_GE(with->frag_ratio, 1.0);
  EXPECT_GE(without->frag_ratio, with->frag_ratio) << GetParam();
  EXPECT_EQ(with->allocs, with->frees) << "the shipped traces free everything";
  std::printf("%s: frag_ratio %.3f with expandable segments, %.3f without\n", GetParam(), with->frag_ratio,
              without->frag_ratio);
}

INSTANTIATE_TEST_SUITE_P(Traces, ShippedTrace, ::testing::Values("devlog", "kv_cache", "random"));

TEST(Replay, DevlogPatternWithoutExpandableSegmentsDoublesTheReservation) {
  auto trace = LoadTrace(TracePath("devlog"));
  ASSERT_TRUE(trace.ok());
  core::AllocatorConfig fixed;
  fixed.expandable_segments = false;
  auto r = Replay(trace.value(), fixed);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(128u << 20, r->peak_allocated);
  EXPECT_EQ(256u << 20, r->peak_reserved) << "16 MiB segments cannot hold 32 MiB blocks";
}

TEST(Replay, MalformedTracesAreErrors) {
  std::istringstream unknown("a 1 100\nf 2\n");
  auto t = ParseTrace(unknown, "t");
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(Replay(t.value(), core::AllocatorConfig()).ok()) << "freeing an id that is not live";
  std::istringstream twice("a 1 100\na 1 100\n");
  EXPECT_FALSE(Replay(ParseTrace(twice, "t").value(), core::AllocatorConfig()).ok());
  std::istringstream junk("x 1 2\n");
  EXPECT_FALSE(ParseTrace(junk, "t").ok());
  std::istringstream zero("a 1 0\n");
  EXPECT_FALSE(ParseTrace(zero, "t").ok());
  std::istringstream huge("# capacity 67108864\na 1 1000000000\n");
  EXPECT_FALSE(Replay(ParseTrace(huge, "t").value(), core::AllocatorConfig()).ok()) << "beyond the capacity";
}

}  // namespace
}  // namespace npurt::tools
