// Wall-clock stamps (base/wall_clock.h) as CANN spells them: compact with 0, 3 or 6 fraction digits, and
// dashed; all from one reading of the clock.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>

#include "base/wall_clock.h"

namespace npurt {
namespace {

WallTime Fixed(int year, int mon, int day, int h, int m, int s, uint32_t us) {
  WallTime w{};
  w.local.tm_year = year - 1900;
  w.local.tm_mon = mon - 1;
  w.local.tm_mday = day;
  w.local.tm_hour = h;
  w.local.tm_min = m;
  w.local.tm_sec = s;
  w.us = us;
  w.ms = us / 1000;
  return w;
}

TEST(WallClockTest, StampsOfAKnownTime) {
  std::mt19937 rng(std::random_device{}());
  const uint32_t us = rng() % 1000000;
  const WallTime w = Fixed(2026, 3, 7, 9, 5, 2, us);
  char ms[8], full[8];
  std::snprintf(ms, sizeof ms, "%03u", us / 1000);
  std::snprintf(full, sizeof full, "%06u", us);
  EXPECT_EQ(CompactStamp(w, 0), "20260307090502");
  EXPECT_EQ(CompactStamp(w, 3), std::string("20260307090502") + ms);
  EXPECT_EQ(CompactStamp(w, 6), std::string("20260307090502") + full);
  EXPECT_EQ(DashedStamp(w), "2026-03-07-09:05:02");
}

TEST(WallClockTest, NowIsOneConsistentReading) {
  const WallTime w = NowLocal();
  EXPECT_LT(w.us, 1000000u);
  EXPECT_EQ(w.ms, w.us / 1000);
  EXPECT_GE(w.local.tm_year + 1900, 2024);
  // Shapes checked by hand (no std::regex: GCC 12 reports false maybe-uninitialized errors in it under ASan).
  const std::string compact = CompactStamp(w, 6);
  ASSERT_EQ(compact.size(), 20u) << compact;
  for (char c : compact) EXPECT_TRUE(c >= '0' && c <= '9') << compact;
  const std::string dashed = DashedStamp(w);
  const std::string shape = "dddd-dd-dd-dd:dd:dd";
  ASSERT_EQ(dashed.size(), shape.size()) << dashed;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 'd') {
      EXPECT_TRUE(dashed[i] >= '0' && dashed[i] <= '9') << dashed;
    } else {
      EXPECT_EQ(dashed[i], shape[i]) << dashed;
    }
  }
}

}  // namespace
}  // namespace npurt
