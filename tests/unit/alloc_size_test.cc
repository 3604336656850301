// Size classes and rounding (core/alloc/alloc_size.h), at every boundary.
#include <gtest/gtest.h>

#include "core/alloc/alloc_size.h"

namespace npurt::core::alloc {
namespace {

TEST(AllocSize, NeedAddsAclPaddingOnlyWhenAsked) {
  EXPECT_EQ(64u, NeedFor(1, true));
  EXPECT_EQ(64u, NeedFor(32, true));
  EXPECT_EQ(96u, NeedFor(33, true));
  EXPECT_EQ(32u, NeedFor(1, false));
  EXPECT_EQ(32u, NeedFor(32, false));
  EXPECT_EQ(64u, NeedFor(33, false));
  EXPECT_EQ(0u, NeedFor(SIZE_MAX, false)) << "overflow is reported as 0";
  EXPECT_EQ(0u, NeedFor(SIZE_MAX - 40, true));
}

TEST(AllocSize, BlocksAreMultiplesOf512) {
  EXPECT_EQ(512u, BlockSizeFor(1, 0));
  EXPECT_EQ(512u, BlockSizeFor(512, 0));
  EXPECT_EQ(1024u, BlockSizeFor(513, 0));
  EXPECT_EQ(4608u, BlockSizeFor(NeedFor(4096, true), 0)) << "4 KiB + 32 B padding";
  EXPECT_EQ(4096u, BlockSizeFor(NeedFor(4096, false), 0));
  EXPECT_EQ(kSmallLimit, BlockSizeFor(kSmallLimit, 0));
  EXPECT_EQ(kSmallLimit + 512, BlockSizeFor(kSmallLimit + 1, 0));
}

TEST(AllocSize, PowerOfTwoDivisions) {
  // 4 divisions: between 1 MiB and 2 MiB the steps are 256 KiB.
  EXPECT_EQ((1u << 20) + (256u << 10), BlockSizeFor((1u << 20) + 1, 4));
  EXPECT_EQ(2u << 20, BlockSizeFor((1u << 20) + (768u << 10) + 1, 4));
  EXPECT_EQ(1u << 20, BlockSizeFor(1u << 20, 4)) << "powers of two stay";
  // Below 512 B x divisions the 512 B rounding applies.
  EXPECT_EQ(2048u, BlockSizeFor(1600, 4));
  EXPECT_EQ(3072u, BlockSizeFor(3000, 4));  // step 512 between 2 KiB and 4 KiB
  // Steps never go below 512 B.
  EXPECT_EQ(4608u, BlockSizeFor(4100, 64));
}

TEST(AllocSize, PoolBoundaries) {
  EXPECT_TRUE(IsSmall(512, PageKind::kNormal));
  EXPECT_TRUE(IsSmall(kSmallLimit, PageKind::kNormal));
  EXPECT_TRUE(IsSmall(kSmallLimit, PageKind::kHuge));
  EXPECT_FALSE(IsSmall(kSmallLimit + 512, PageKind::kNormal));
  EXPECT_FALSE(IsSmall(512, PageKind::kHuge1G)) << "1 GiB pages have a single pool";
}

TEST(AllocSize, SegmentSizes) {
  const size_t large = 20u << 20;
  EXPECT_EQ(kSmallSegment, SegmentSizeFor(512, PageKind::kNormal, large));
  EXPECT_EQ(kSmallSegment, SegmentSizeFor(kSmallLimit, PageKind::kNormal, large));
  EXPECT_EQ(large, SegmentSizeFor(kSmallLimit + 512, PageKind::kHuge, large));
  EXPECT_EQ(large, SegmentSizeFor(kMinLargeAlloc - 512, PageKind::kHuge, large));
  EXPECT_EQ(kMinLargeAlloc, SegmentSizeFor(kMinLargeAlloc, PageKind::kHuge, large));
  EXPECT_EQ(12u << 20, SegmentSizeFor(kMinLargeAlloc + 512, PageKind::kHuge, large));
  EXPECT_EQ(4u << 20, SegmentSizeFor(3u << 20, PageKind::kHuge, 2u << 20)) << "segment_size below the block";
  EXPECT_EQ(kHuge1GPage, SegmentSizeFor(512, PageKind::kHuge1G, large));
  EXPECT_EQ(2 * kHuge1GPage, SegmentSizeFor(kHuge1GPage + 512, PageKind::kHuge1G, large));
  EXPECT_EQ(kHuge1GPage, SegmentAlignment(PageKind::kHuge1G));
  EXPECT_EQ(kPage, SegmentAlignment(PageKind::kNormal));
}

TEST(AllocSize, PoliciesChoosePageKinds) {
  const size_t small = 4096, big = 4u << 20;
  EXPECT_EQ(PageKind::kNormal, PageKindForPolicy(0, small));  // HUGE_FIRST: small requests on normal pages
  EXPECT_EQ(PageKind::kHuge, PageKindForPolicy(0, big));
  EXPECT_EQ(PageKind::kHuge, PageKindForPolicy(1, small));    // HUGE_ONLY
  EXPECT_EQ(PageKind::kNormal, PageKindForPolicy(2, big));    // NORMAL_ONLY
  EXPECT_EQ(PageKind::kNormal, PageKindForPolicy(3, small));  // P2P variants follow their base
  EXPECT_EQ(PageKind::kHuge, PageKindForPolicy(4, small));
  EXPECT_EQ(PageKind::kNormal, PageKindForPolicy(5, big));
  EXPECT_EQ(PageKind::kHuge1G, PageKindForPolicy(6, small));
  EXPECT_EQ(PageKind::kHuge1G, PageKindForPolicy(7, big));
  EXPECT_EQ(PageKind::kHuge, PageKindForPolicy(0x1000 | 1, small)) << "bandwidth bits are ignored";
  EXPECT_EQ(PageKind::kNormal, PageKindForPolicy(99, small)) << "out of range: huge from 2 MiB on";
  EXPECT_EQ(PageKind::kHuge, PageKindForPolicy(99, 2u << 20));
}

}  // namespace
}  // namespace npurt::core::alloc
