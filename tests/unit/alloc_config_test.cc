// NPURT_ALLOC_CONF parsing (core/alloc/alloc_config.h).
#include <gtest/gtest.h>

#include "core/alloc/alloc_config.h"

namespace npurt::core {
namespace {

TEST(AllocConfig, DefaultsForEmptyText) {
  auto c = ParseAllocatorConfig("");
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(c->expandable_segments) << "the default does not fragment (issue 14)";
  EXPECT_EQ(UINT64_MAX, c->max_split_size);
  EXPECT_EQ(0.0, c->gc_threshold);
  EXPECT_EQ(20ull << 20, c->large_segment_size);
  EXPECT_TRUE(c->thread_cache);
}

TEST(AllocConfig, EveryKey) {
  auto c = ParseAllocatorConfig(
      " expandable_segments:False, max_split_size_mb:256,garbage_collection_threshold:0.6,segment_size_mb:31,"
      "roundup_power2_divisions:8,thread_cache:False,thread_cache_kb:256,record_sites:true,history:100,"
      "debug_checks:1,");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_FALSE(c->expandable_segments);
  EXPECT_EQ(256ull << 20, c->max_split_size);
  EXPECT_DOUBLE_EQ(0.6, c->gc_threshold);
  EXPECT_EQ(32ull << 20, c->large_segment_size) << "rounded up to whole 2 MiB pages";
  EXPECT_EQ(8u, c->roundup_power2_divisions);
  EXPECT_FALSE(c->thread_cache);
  EXPECT_EQ(256ull << 10, c->thread_cache_bytes);
  EXPECT_TRUE(c->record_sites);
  EXPECT_EQ(100u, c->history);
  EXPECT_TRUE(c->debug_checks);
  // The formatted form parses back to the same values.
  auto again = ParseAllocatorConfig(FormatAllocatorConfig(c.value()));
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(FormatAllocatorConfig(c.value()), FormatAllocatorConfig(again.value()));
}

TEST(AllocConfig, ErrorsNameTheKey) {
  const char* bad[] = {"expandable_segments:yes", "max_split_size_mb:10",        "max_split_size_mb:-5",
                       "garbage_collection_threshold:1.5", "garbage_collection_threshold:x", "segment_size_mb:0",
                       "roundup_power2_divisions:3", "thread_cache_kb:1", "history:abc", "no_such_key:1",
                       "expandable_segments"};
  for (const char* text : bad) {
    auto c = ParseAllocatorConfig(text);
    ASSERT_FALSE(c.ok()) << text;
    EXPECT_NE(std::string::npos, c.status().message().find("NPURT_ALLOC_CONF")) << c.status().message();
  }
  EXPECT_NE(std::string::npos, ParseAllocatorConfig("no_such_key:1").status().message().find("no_such_key"));
}

}  // namespace
}  // namespace npurt::core
