// The caching allocator's pools (core/alloc/alloc_caching.h) on bookkeeping-only memory: best fit, split,
// merge, segment sizing, max_split_size, expandable segments, release-and-retry, OOM messages, frees of
// bad pointers, owners, trimming, garbage collection, snapshots. Every test runs with the expensive
// invariant walk after each operation.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "alloc_test_util.h"

namespace npurt::core {
namespace {

using namespace npurt::core::testing;  // NOLINT

TEST(CachingAllocator, EverySizeClassBoundaryGetsItsBlockAndPool) {
  auto d = MakeDevice(256 * kMiB, TestConfig());
  struct Case {
    size_t size;
    size_t capacity;
    size_t reserved_after;  // the pool's segment size
  } cases[] = {
      {1, 512, 2 * kMiB},
      {480, 512, 2 * kMiB},                                 // 480 + 32 pad = 512
      {481, 1024, 2 * kMiB},
      {kMiB - 32, kMiB, 2 * kMiB},                          // largest small block
      {kMiB - 31, kMiB + 512, 20 * kMiB},                   // first large block: 20 MiB segment
      {10 * kMiB - 544, 10 * kMiB - 512, 20 * kMiB},        // largest block with a 20 MiB segment
      {10 * kMiB - 32, 10 * kMiB, 10 * kMiB},               // from 10 MiB on, segments fit the block
      {10 * kMiB - 31, 10 * kMiB + 512, 12 * kMiB},         // rounded up to whole 2 MiB pages
  };
  for (const Case& c : cases) {
    auto fresh = MakeDevice(256 * kMiB, TestConfig());
    void* p = MustAlloc(*fresh, c.size);
    EXPECT_EQ(c.capacity, CapacityOf(*fresh, p)) << "size " << c.size;
    EXPECT_EQ(c.reserved_after, fresh->caching().Stats().total.reserved) << "size " << c.size;
    EXPECT_EQ(0u, U(p) % 512) << "every block is 512-byte aligned";
    ASSERT_TRUE(fresh->Free(p, {}).ok());
  }
}

TEST(CachingAllocator, SplitsAndMergesNeighbours) {
  auto d = MakeDevice(64 * kMiB, TestConfig());
  void* a = MustAlloc(*d, 1000);
  void* b = MustAlloc(*d, 1000);
  void* c = MustAlloc(*d, 1000);
  EXPECT_EQ(U(a) + 1536, U(b)) << "carved one after another from one segment";
  EXPECT_EQ(U(b) + 1536, U(c));
  ASSERT_TRUE(d->Free(b, {}).ok());
  void* b2 = MustAlloc(*d, 1000);
  EXPECT_EQ(b, b2) << "best fit reuses the hole";
  ASSERT_TRUE(d->Free(a, {}).ok());
  ASSERT_TRUE(d->Free(c, {}).ok());
  ASSERT_TRUE(d->Free(b2, {}).ok());
  const auto snap = d->caching().Snapshot();
  ASSERT_EQ(1u, snap["segments"].size());
  ASSERT_EQ(1u, snap["segments"][0]["blocks"].size()) << "everything merged back into one free block";
  EXPECT_EQ("free", snap["segments"][0]["blocks"][0]["state"]);
  EXPECT_EQ(2 * kMiB, snap["segments"][0]["blocks"][0]["size"]);
}

TEST(CachingAllocator, BestFitPicksTheSmallestHoleThatFits) {
  auto d = MakeDevice(64 * kMiB, TestConfig());
  std::vector<void*> p;
  for (size_t kib : {4, 1, 8, 1, 16, 1}) p.push_back(MustAlloc(*d, kib * 1024 - 32));
  ASSERT_TRUE(d->Free(p[0], {}).ok());  // 4 KiB hole
  ASSERT_TRUE(d->Free(p[2], {}).ok());  // 8 KiB hole
  ASSERT_TRUE(d->Free(p[4], {}).ok());  // 16 KiB hole
  EXPECT_EQ(p[2], MustAlloc(*d, 6 * 1024)) << "6 KiB goes to the 8 KiB hole";
  EXPECT_EQ(p[0], MustAlloc(*d, 3 * 1024)) << "3 KiB goes to the 4 KiB hole";
  EXPECT_EQ(p[4], MustAlloc(*d, 12 * 1024));
}

TEST(CachingAllocator, LargeBlocksShareTwentyMegabyteSegments) {
  auto d = MakeDevice(256 * kMiB, TestConfig());
  void* a = MustAlloc(*d, 2 * kMiB);
  void* b = MustAlloc(*d, 3 * kMiB);
  EXPECT_EQ(U(a) + 2 * kMiB + 512, U(b)) << "split from the same 20 MiB segment";
  EXPECT_EQ(20 * kMiB, d->caching().Stats().total.reserved);
  void* c = MustAlloc(*d, 16 * kMiB);
  EXPECT_EQ(20 * kMiB + 16 * kMiB + 2 * kMiB, d->caching().Stats().total.reserved) << "16 MiB + pad -> 18 MiB";
  // Split remainders of the large pool stay above 1 MiB: a 19 MiB request takes the whole 20 MiB block.
  for (void* p : {a, b, c}) ASSERT_TRUE(d->Free(p, {}).ok());
  void* e = MustAlloc(*d, 19 * kMiB + 100);
  EXPECT_EQ(20 * kMiB, CapacityOf(*d, e));
  ASSERT_TRUE(d->Free(e, {}).ok());
}

TEST(CachingAllocator, MaxSplitSizeKeepsOversizeBlocksWhole) {
  AllocatorConfig c = TestConfig();
  c.max_split_size = 20 * kMiB;
  auto d = MakeDevice(512 * kMiB, c);
  void* big = MustAlloc(*d, 40 * kMiB);
  ASSERT_TRUE(d->Free(big, {}).ok());
  void* small = MustAlloc(*d, 5 * kMiB);
  EXPECT_NE(big, small) << "a request below max_split_size never takes an oversize block";
  EXPECT_EQ(40 * kMiB + 2 * kMiB + 20 * kMiB, d->caching().Stats().total.reserved);
  void* again = MustAlloc(*d, 39 * kMiB);
  EXPECT_EQ(big, again) << "an oversize request reuses an oversize block within 20 MiB";
  EXPECT_EQ(42 * kMiB, CapacityOf(*d, again)) << "and does not split it";
  ASSERT_TRUE(d->Free(again, {}).ok());
  void* huge = MustAlloc(*d, 80 * kMiB);
  EXPECT_NE(big, huge);
  ASSERT_TRUE(d->Free(huge, {}).ok());
  void* mid = MustAlloc(*d, 21 * kMiB);
  EXPECT_NE(huge, mid) << "the best fit (42 MiB) is 20 MiB or more over a 21 MiB request";
  EXPECT_NE(big, mid);
  for (void* p : {small, mid}) ASSERT_TRUE(d->Free(p, {}).ok());
}

TEST(CachingAllocator, ReleasesCachedSegmentsAndRetriesBeforeFailing) {
  auto d = MakeDevice(64 * kMiB, TestConfig());
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) blocks.push_back(MustAlloc(*d, 12 * kMiB));
  for (void* p : blocks) ASSERT_TRUE(d->Free(p, {}).ok());
  EXPECT_EQ(4 * 14 * kMiB, d->caching().Stats().total.reserved) << "freed segments stay cached";
  void* big = MustAlloc(*d, 40 * kMiB);
  ASSERT_NE(nullptr, big) << "the cached segments were released to make room";
  const CachingStats s = d->caching().Stats();
  EXPECT_EQ(1u, s.retries);
  EXPECT_EQ(0u, s.ooms);
  EXPECT_EQ(42 * kMiB, s.total.reserved);
  ASSERT_TRUE(d->Free(big, {}).ok());
}

TEST(CachingAllocator, OutOfMemoryMessageHasEveryFigure) {
  auto d = MakeDevice(64 * kMiB, TestConfig());
  void* a = MustAlloc(*d, 30 * kMiB);
  void* b = MustAlloc(*d, 20 * kMiB);
  auto p = d->Allocate(Req(20 * kMiB));
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, p.status().code());
  const std::string& m = p.status().message();
  for (const char* word : {"out of memory", "tried to allocate 20971520 B", "device capacity", "allocated",
                           "reserved", "free on the device", "largest free block", "fragmentation",
                           "stream-ordered frees"}) {
    EXPECT_NE(std::string::npos, m.find(word)) << "missing '" << word << "' in: " << m;
  }
  EXPECT_EQ(1u, d->caching().Stats().ooms);
  // Nothing is corrupted: the live blocks are intact and freeing them works.
  ASSERT_TRUE(d->Free(a, {}).ok());
  ASSERT_TRUE(d->Free(b, {}).ok());
  EXPECT_TRUE(d->Allocate(Req(60 * kMiB)).ok());
}

TEST(CachingAllocator, AbsurdSizesFailCleanly) {
  auto d = MakeDevice(64 * kMiB, TestConfig());
  EXPECT_EQ(ACL_ERROR_INVALID_PARAM, d->Allocate(Req(0)).status().code());
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, d->Allocate(Req(SIZE_MAX)).status().code());
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, d->Allocate(Req(SIZE_MAX - 16)).status().code());
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, d->Allocate(Req(65 * kMiB)).status().code());
  EXPECT_EQ(0u, d->caching().Stats().total.reserved);
}

TEST(CachingAllocator, BadFreesAreErrorsAndCorruptNothing) {
  auto d = MakeDevice(64 * kMiB, TestConfig());
  void* p = MustAlloc(*d, 8192);
  void* big = MustAlloc(*d, 3 * kMiB);
  auto interior = d->Free(static_cast<char*>(p) + 512, {});
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_FREE, interior.code());
  EXPECT_NE(std::string::npos, interior.message().find("inside the allocation")) << interior.message();
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_FREE, d->Free(static_cast<char*>(big) + 4 * kMiB, {}).code()) << "past its end";
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_FREE, d->Free(reinterpret_cast<void*>(kFakeBase + 48 * kMiB), {}).code())
      << "never allocated";
  int on_stack = 0;
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_FREE, d->Free(&on_stack, {}).code()) << "not device memory at all";
  ASSERT_TRUE(d->Free(p, {}).ok());
  auto twice = d->Free(p, {});
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_FREE, twice.code());
  EXPECT_NE(std::string::npos, twice.message().find("already freed")) << twice.message();
  AllocationInfo info;
  EXPECT_TRUE(d->Lookup(big, &info));
  EXPECT_EQ(3 * kMiB, info.size);
  EXPECT_TRUE(d->Lookup(static_cast<char*>(big) + 3 * kMiB - 1, &info)) << "interior pointers are found";
  EXPECT_FALSE(d->Lookup(static_cast<char*>(big) + 3 * kMiB, &info)) << "the padding is not the user's";
  EXPECT_FALSE(d->Lookup(p, &info)) << "freed";
  ASSERT_TRUE(d->Free(big, {}).ok());
}

TEST(CachingAllocator, FreeOwnedByFreesOnlyThatOwner) {
  auto d = MakeDevice(64 * kMiB, TestConfig());
  int owner_a = 0, owner_b = 0;
  std::vector<void*> a, b;
  for (int i = 0; i < 5; ++i) {
    a.push_back(MustAlloc(*d, 1000 * (i + 1), 0, &owner_a));
    b.push_back(MustAlloc(*d, 3 * kMiB, 0, &owner_b));
  }
  auto freed = d->caching().FreeOwnedBy(&owner_a);
  EXPECT_EQ(5u, freed.size());
  AllocationInfo info;
  for (void* p : a) EXPECT_FALSE(d->Lookup(p, &info));
  for (void* p : b) {
    ASSERT_TRUE(d->Lookup(p, &info));
    EXPECT_EQ(static_cast<void*>(&owner_b), static_cast<void*>(info.owner));
  }
  EXPECT_EQ(0u, d->caching().FreeOwnedBy(&owner_a).size());
  EXPECT_EQ(5u, d->FreeOwnedBy(reinterpret_cast<Context*>(&owner_b))) << "the leak-report path";
  EXPECT_EQ(0u, d->caching().Stats().total.allocated);
}

TEST(CachingAllocator, ExpandableSegmentsMergeAcrossTheWholeReservation) {
  AllocatorConfig c = TestConfig();
  c.expandable_segments = true;
  auto d = MakeDevice(1024 * kMiB, c);
  // The devlog pattern: 8 x 16 MiB, freed, then 4 x 32 MiB.
  std::vector<void*> p;
  for (int i = 0; i < 8; ++i) p.push_back(d->Allocate([] {
                                             AllocRequest r = Req(16 * kMiB);
                                             r.pad = false;
                                             return r;
                                           }())
                                              .value());
  for (void* q : p) ASSERT_TRUE(d->Free(q, {}).ok());
  p.clear();
  for (int i = 0; i < 4; ++i) p.push_back(d->Allocate([] {
                                             AllocRequest r = Req(32 * kMiB);
                                             r.pad = false;
                                             return r;
                                           }())
                                              .value());
  const CachingStats s = d->caching().Stats();
  EXPECT_EQ(128 * kMiB, s.total.reserved_peak) << "no second set of segments";
  EXPECT_EQ(64u, s.page_maps);
  for (void* q : p) ASSERT_TRUE(d->Free(q, {}).ok());
  d->caching().Trim(0);
  EXPECT_EQ(0u, d->caching().Stats().total.reserved) << "trimming unmaps every idle page";
  EXPECT_EQ(0u, d->memory().physical_used());
}

TEST(CachingAllocator, ExpandableGrowthMovesIdlePagesInsteadOfMappingNewOnes) {
  AllocatorConfig c = TestConfig();
  c.expandable_segments = true;
  auto d = MakeDevice(256 * kMiB, c);
  auto alloc = [&](size_t n) {
    AllocRequest r = Req(n);
    r.pad = false;
    return d->Allocate(r).value();
  };
  void* a = alloc(8 * kMiB);
  void* keep = alloc(2 * kMiB);
  ASSERT_TRUE(d->Free(a, {}).ok());        // 8 MiB of idle pages below `keep`
  void* b = alloc(12 * kMiB);              // does not fit the hole: grows past `keep`
  EXPECT_GT(U(b), U(keep));
  const CachingStats s = d->caching().Stats();
  EXPECT_EQ(14 * kMiB, s.total.reserved) << "4 idle pages moved up, 2 new ones mapped";
  EXPECT_EQ(4u, s.page_unmaps);
  for (void* q : {keep, b}) ASSERT_TRUE(d->Free(q, {}).ok());
}

TEST(CachingAllocator, ExpandableSegmentsHonourTheLimitAndReportOom) {
  AllocatorConfig c = TestConfig();
  c.expandable_segments = true;
  auto d = MakeDevice(32 * kMiB, c);
  void* a = MustAlloc(*d, 20 * kMiB);
  auto b = d->Allocate(Req(20 * kMiB));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, b.status().code());
  EXPECT_NE(std::string::npos, b.status().message().find("out of memory")) << b.status().message();
  ASSERT_TRUE(d->Free(a, {}).ok());
  EXPECT_TRUE(d->Allocate(Req(30 * kMiB)).ok());
}

TEST(CachingAllocator, HugeOneGigabytePagesAreAlignedOrFailClearly) {
  auto d = MakeDevice(4096 * kMiB, TestConfig());
  constexpr uint32_t kHuge1G = 6;  // ACL_MEM_MALLOC_HUGE1G_ONLY
  void* filler = MustAlloc(*d, 4096);  // takes the first 2 MiB: the free space is off the 1 GiB boundary
  void* p = MustAlloc(*d, 4096, kHuge1G);
  EXPECT_EQ(0u, (U(p) - kFakeBase) % (1024 * kMiB)) << "1 GiB segments start on 1 GiB boundaries";
  EXPECT_EQ(1024 * kMiB, d->caching().Stats().pools[2][1].reserved);
  void* q = MustAlloc(*d, 2048 * kMiB - 4096, kHuge1G);  // a 2 GiB segment
  ASSERT_TRUE(d->Free(q, {}).ok());
  void* r = MustAlloc(*d, 1024 * kMiB, kHuge1G);  // split from the cached 2 GiB segment
  EXPECT_EQ(q, r);
  EXPECT_EQ(3072 * kMiB, d->caching().Stats().pools[2][1].reserved);
  ASSERT_TRUE(d->Free(r, {}).ok());
  ASSERT_TRUE(d->Free(p, {}).ok());
  // With the filler live, the largest 1 GiB-aligned run is 3 GiB even after releasing everything idle.
  auto too_big = d->Allocate(Req(3072 * kMiB + 1, kHuge1G));
  ASSERT_FALSE(too_big.ok());
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_ALLOCATION, too_big.status().code());
  EXPECT_NE(std::string::npos, too_big.status().message().find("huge1g")) << too_big.status().message();
  EXPECT_NE(std::string::npos, too_big.status().message().find("aligned")) << too_big.status().message();
  ASSERT_TRUE(d->Free(filler, {}).ok());
  EXPECT_TRUE(d->Allocate(Req(3072 * kMiB + 1, kHuge1G)).ok()) << "the filler was all that was in the way";
}

TEST(CachingAllocator, PoliciesUseSeparatePools) {
  auto d = MakeDevice(256 * kMiB, TestConfig());
  void* normal = MustAlloc(*d, 4096, 2);  // NORMAL_ONLY
  void* huge = MustAlloc(*d, 4096, 1);    // HUGE_ONLY
  void* first = MustAlloc(*d, 4096, 0);   // HUGE_FIRST, small: normal pages
  const CachingStats s = d->caching().Stats();
  EXPECT_EQ(2 * kMiB, s.pools[0][0].reserved);
  EXPECT_EQ(2 * kMiB, s.pools[1][0].reserved);
  LiveAllocation a;
  ASSERT_TRUE(d->LookupBlock(huge, &a));
  EXPECT_EQ(alloc::PageKind::kHuge, a.kind);
  ASSERT_TRUE(d->LookupBlock(first, &a));
  EXPECT_EQ(alloc::PageKind::kNormal, a.kind);
  for (void* p : {normal, huge, first}) ASSERT_TRUE(d->Free(p, {}).ok());
}

TEST(CachingAllocator, GarbageCollectionReleasesOldIdleSegmentsFirst) {
  AllocatorConfig c = TestConfig();
  c.gc_threshold = 0.5;
  auto d = MakeDevice(128 * kMiB, c);
  void* a = MustAlloc(*d, 24 * kMiB);  // 26 MiB segment
  void* b = MustAlloc(*d, 24 * kMiB);
  ASSERT_TRUE(d->Free(a, {}).ok());
  ASSERT_TRUE(d->Free(b, {}).ok());
  EXPECT_EQ(52 * kMiB, d->caching().Stats().total.reserved);
  void* e = MustAlloc(*d, 30 * kMiB);  // 52 + 32 > 64: the oldest idle segment goes first
  EXPECT_EQ(26 * kMiB + 32 * kMiB, d->caching().Stats().total.reserved);
  EXPECT_EQ(1u, d->caching().Stats().segment_frees);
  EXPECT_EQ(0u, d->caching().Stats().retries) << "collected before, not after, a failure";
  ASSERT_TRUE(d->Free(e, {}).ok());
}

TEST(CachingAllocator, PowerOfTwoRoundingReducesDistinctSizes) {
  AllocatorConfig c = TestConfig();
  c.roundup_power2_divisions = 4;
  auto d = MakeDevice(256 * kMiB, c);
  void* p = MustAlloc(*d, 5 * kMiB + 1);
  EXPECT_EQ(6 * kMiB, CapacityOf(*d, p));
  ASSERT_TRUE(d->Free(p, {}).ok());
}

TEST(CachingAllocator, SnapshotHistoryAndCallSites) {
  AllocatorConfig c = TestConfig();
  c.record_sites = true;
  c.history = 8;
  auto d = MakeDevice(64 * kMiB, c);
  void* p = MustAlloc(*d, 4096);
  void* q = MustAlloc(*d, 3 * kMiB);
  ASSERT_TRUE(d->Free(q, {}).ok());
  const auto snap = d->Snapshot();
  const auto& alloc_snap = snap["default_allocator"];
  EXPECT_EQ(4608u + 20 * kMiB - 20 * kMiB, alloc_snap["stats"]["allocated"].get<uint64_t>());
  bool found = false;
  for (const auto& seg : alloc_snap["segments"]) {
    for (const auto& b : seg["blocks"]) {
      if (b["state"] == "live") {
        found = true;
        EXPECT_EQ(4096u, b["requested"].get<uint64_t>());
        ASSERT_TRUE(b.contains("site"));
        EXPECT_GT(b["site"].size(), 0u);
      }
    }
  }
  EXPECT_TRUE(found);
  const auto history = d->caching().History();
  ASSERT_GE(history.size(), 4u);
  EXPECT_LE(history.size(), 8u);
  EXPECT_EQ(AllocEvent::kFree, history.back().kind);
  EXPECT_EQ(U(q), history.back().addr);
  EXPECT_EQ(alloc_snap["history"].size(), history.size());
  EXPECT_TRUE(snap.contains("usage"));
  ASSERT_TRUE(d->Free(p, {}).ok());
}

TEST(CachingAllocator, UsageRowsReportCurrentAndPeak) {
  auto d = MakeDevice(256 * kMiB, TestConfig());
  void* small = MustAlloc(*d, 4096);
  void* large = MustAlloc(*d, 30 * kMiB);
  ASSERT_TRUE(d->Free(large, {}).ok());
  const auto rows = d->UsageRows();
  auto row = [&](const char* name) {
    for (const auto& r : rows) {
      if (r.name == name) return r;
    }
    ADD_FAILURE() << "no row " << name;
    return MemUsageRow{};
  };
  EXPECT_EQ(4608u, row("device_malloc").current);
  EXPECT_EQ(4608u + 30 * kMiB + 512, row("device_malloc").peak);
  EXPECT_EQ(4608u, row("pool_small_normal").current);
  EXPECT_EQ(30 * kMiB + 512, row("pool_large_huge").peak);
  EXPECT_EQ(0u, row("pool_large_huge").current);
  for (const auto& r : rows) EXPECT_LE(r.name.size(), 31u);
  ASSERT_TRUE(d->Free(small, {}).ok());
}

}  // namespace
}  // namespace npurt::core
