// What the device allocator counts as used (DeviceAllocator::UsedBytes, behind aclrtGetMemInfo and
// npu-smi): the idle cache is free, with fixed and expandable segments and through the thread cache; a
// dead owner's memory goes back to the device; idle memory is released on request (aclrtMallocPhysical);
// and the aclrtMalloc/aclrtFree fast paths (AllocateCached / FreeCached) touch the thread cache only.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "alloc_test_util.h"

namespace npurt::core {
namespace {

using namespace npurt::core::testing;  // NOLINT

class UsedBytes : public ::testing::TestWithParam<bool> {
 protected:
  AllocatorConfig Config(bool thread_cache = false) const {
    AllocatorConfig c = TestConfig(thread_cache);
    c.expandable_segments = GetParam();
    return c;
  }
};

std::vector<size_t> RandomSizes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<size_t> sizes;
  for (size_t i = 0; i < n; ++i) sizes.push_back(1 + rng() % (size_t(1) << (rng() % 24)));  // 1 B .. 8 MiB
  return sizes;
}

TEST_P(UsedBytes, FreedMemoryIsFreeWhileItStaysCached) {
  for (bool thread_cache : {false, true}) {
    SCOPED_TRACE(thread_cache ? "thread cache" : "no thread cache");
    auto d = MakeDevice(512 * kMiB, Config(thread_cache));
    EXPECT_EQ(0u, d->UsedBytes());
    std::vector<void*> blocks;
    uint64_t live = 0;
    for (size_t s : RandomSizes(200, 77)) {
      blocks.push_back(MustAlloc(*d, s));
      live += s;
    }
    const uint64_t used = d->UsedBytes();
    EXPECT_GE(used, live);
    EXPECT_EQ(used, d->memory().physical_used()) << "nothing is idle while everything is live";
    std::shuffle(blocks.begin(), blocks.end(), std::mt19937_64(78));
    // Keep one small block: it pins its page (expandable) or its 2 MiB segment (fixed), nothing more.
    void* kept = blocks.back();
    blocks.pop_back();
    for (void* p : blocks) ASSERT_TRUE(d->Free(p, {}).ok());
    if (CapacityOf(*d, kept) <= kMiB) {
      if (GetParam()) {
        EXPECT_GE(d->UsedBytes(), 2 * kMiB) << "its page (or two, if it straddles a boundary)";
        EXPECT_LE(d->UsedBytes(), 4 * kMiB);
      } else {
        EXPECT_EQ(2 * kMiB, d->UsedBytes()) << "its segment";
      }
    }
    EXPECT_GT(d->caching().Stats().total.reserved, 64 * kMiB) << "the cache keeps the freed memory";
    ASSERT_TRUE(d->Free(kept, {}).ok());
    EXPECT_EQ(0u, d->UsedBytes()) << "every freed byte is free";
    EXPECT_GT(d->memory().physical_used(), 0u) << "and still cached";
    EXPECT_EQ(0u, d->caching().Stats().thread_cached_bytes) << "UsedBytes returned this thread's cache";
  }
}

TEST_P(UsedBytes, ADeadOwnersMemoryGoesBackToTheDevice) {
  auto d = MakeDevice(512 * kMiB, Config());
  int owner = 0, other = 0;
  void* survivor = MustAlloc(*d, 3 * kMiB, 0, &other);
  const uint64_t survivor_used = d->UsedBytes();
  for (size_t s : RandomSizes(64, 79)) (void)MustAlloc(*d, s, 0, &owner);
  EXPECT_GT(d->UsedBytes(), survivor_used);
  EXPECT_EQ(64u, d->FreeOwnedBy(reinterpret_cast<Context*>(&owner)));
  EXPECT_EQ(survivor_used, d->UsedBytes());
  EXPECT_EQ(survivor_used, d->memory().physical_used()) << "the idle cache was given back, not only reported free";
  AllocationInfo info;
  EXPECT_TRUE(d->Lookup(survivor, &info));
  ASSERT_TRUE(d->Free(survivor, {}).ok());
}

TEST_P(UsedBytes, ReleaseIdleMemoryEmptiesTheCache) {
  auto d = MakeDevice(256 * kMiB, Config());
  std::vector<void*> blocks;
  for (size_t s : RandomSizes(50, 80)) blocks.push_back(MustAlloc(*d, s));
  for (void* p : blocks) ASSERT_TRUE(d->Free(p, {}).ok());
  ASSERT_GT(d->memory().physical_used(), 0u);
  EXPECT_TRUE(d->ReleaseIdleMemory());
  EXPECT_EQ(0u, d->memory().physical_used());
  EXPECT_FALSE(d->ReleaseIdleMemory()) << "nothing left to release";
  // The device's whole capacity is one physical run again (what aclrtMallocPhysical needs).
  EXPECT_EQ(256 * kMiB, d->memory().largest_free_physical());
}

INSTANTIATE_TEST_SUITE_P(Segments, UsedBytes, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "expandable" : "fixed"; });

TEST(AllocatorFastPaths, TouchOnlyTheThreadCache) {
  auto d = MakeDevice(64 * kMiB, TestConfig(/*thread_cache=*/true));
  int owner = 0;
  EXPECT_EQ(nullptr, d->AllocateCached(4096, 0, true, nullptr)) << "an empty cache";
  void* p = MustAlloc(*d, 4096);
  EXPECT_TRUE(d->FreeCached(p));
  EXPECT_EQ(4608u, d->caching().Stats().thread_cached_bytes);
  EXPECT_FALSE(d->FreeCached(p)) << "a double free is left to Free ...";
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_FREE, d->Free(p, {}).code()) << "... which reports it";
  EXPECT_EQ(nullptr, d->AllocateCached(4096, /*HUGE_ONLY*/ 1, true, nullptr)) << "huge pages: not cached";
  EXPECT_EQ(nullptr, d->AllocateCached(8192, 0, true, nullptr)) << "another size class";
  void* q = d->AllocateCached(4090, /*NORMAL_ONLY*/ 2, true, reinterpret_cast<Context*>(&owner));
  EXPECT_EQ(p, q) << "4090 B with padding is the same 4608 B block";
  LiveAllocation live;
  ASSERT_TRUE(d->LookupBlock(q, &live));
  EXPECT_EQ(4090u, live.size);
  EXPECT_EQ(static_cast<void*>(&owner), live.owner);
  EXPECT_EQ(4608u, d->caching().Stats().total.allocated);
  EXPECT_FALSE(d->FreeCached(static_cast<uint8_t*>(q) + 512)) << "an interior pointer";
  void* large = MustAlloc(*d, 3 * kMiB);
  EXPECT_FALSE(d->FreeCached(large)) << "large blocks never enter the thread cache";
  ASSERT_TRUE(d->LookupBlock(large, &live));
  ASSERT_TRUE(d->Free(large, {}).ok());
  void* medium = MustAlloc(*d, 100 << 10);
  EXPECT_FALSE(d->FreeCached(medium)) << "above 64 KiB";
  ASSERT_TRUE(d->Free(medium, {}).ok());
  EXPECT_EQ(nullptr, d->AllocateCached(0, 0, true, nullptr));
  EXPECT_EQ(nullptr, d->AllocateCached(size_t(1) << 40, 0, true, nullptr));
  int not_device = 0;
  EXPECT_FALSE(d->FreeCached(&not_device));
  ASSERT_TRUE(d->Free(q, {}).ok());
  EXPECT_EQ(0u, d->caching().Stats().total.allocated);
}

TEST(AllocatorFastPaths, ConcurrentDoubleFreesHaveOneWinner) {
  // Two threads free the same block at once, through the fast path or Free: exactly one succeeds, and
  // the accounts stay exact (a block in two caches, or in a cache and the pool, would break them).
  auto d = MakeDevice(64 * kMiB, TestConfig(/*thread_cache=*/true));
  constexpr int kRounds = 2000;
  void* slot = nullptr;            // the round's block, published by `posted`
  std::atomic<int> posted{-1}, arrived{0}, wins{0}, round_done{0};
  auto racer = [&](int who) {
    for (int round = 0; round < kRounds; ++round) {
      while (posted.load(std::memory_order_acquire) != round) std::this_thread::yield();
      void* p = slot;
      arrived.fetch_add(1);
      while (arrived.load() < (round + 1) * 2) std::this_thread::yield();  // both start together
      const bool fast = ((round + who) & 1) == 0;
      const bool ok = fast ? (d->FreeCached(p) || d->Free(p, {}).ok()) : d->Free(p, {}).ok();
      if (ok) wins.fetch_add(1);
      round_done.fetch_add(1);
    }
  };
  std::thread a(racer, 0), b(racer, 1);
  for (int round = 0; round < kRounds; ++round) {
    slot = MustAlloc(*d, 512 + static_cast<size_t>(round % 8) * 512);
    posted.store(round, std::memory_order_release);
    while (round_done.load() != (round + 1) * 2) std::this_thread::yield();
  }
  a.join();
  b.join();
  EXPECT_EQ(kRounds, wins.load()) << "one winner per block";
  EXPECT_EQ(0u, d->caching().Stats().total.live_blocks);
  EXPECT_EQ(0u, d->UsedBytes());
  const Status check = d->caching().CheckInvariants();
  EXPECT_TRUE(check.ok()) << check.message();
}

TEST(AllocatorFastPaths, AStaleFastFreeCannotClaimTheBlocksNextLife) {
  // The loser of two frees of one pointer, descheduled between its checks and its claim, while the winner's
  // block goes to the thread cache and comes back out for a new allocation at the same address: its claim
  // fails (the block is in another life), and the new allocation stays live.
  auto d = MakeDevice(64 * kMiB, TestConfig(/*thread_cache=*/true));
  CachingAllocator& c = d->caching();
  void* p = MustAlloc(*d, 700);
  const CachingAllocator::FastFreeTicket stale = c.CheckFastFree(U(p));
  ASSERT_NE(nullptr, stale.block) << "a live small block passes the checks";
  ASSERT_TRUE(d->FreeCached(p)) << "the winner";
  void* q = d->AllocateCached(700, 0, true, nullptr);
  ASSERT_EQ(p, q) << "setup: the thread cache hands the same block back";
  EXPECT_FALSE(c.ClaimFastFree(stale)) << "the loser's claim must not take the block's next life";
  EXPECT_EQ(1u, c.Stats().total.live_blocks);
  const CachingAllocator::FastFreeTicket fresh = c.CheckFastFree(U(q));
  ASSERT_NE(nullptr, fresh.block);
  EXPECT_TRUE(c.ClaimFastFree(fresh)) << "a ticket of the current life claims";
  EXPECT_EQ(0u, c.Stats().total.live_blocks);
  EXPECT_TRUE(c.CheckInvariants().ok());
}

TEST(AllocatorFastPaths, AStaleFastFreeCannotClaimARecycledRecord) {
  // The window of docs/memory.md: the block the loser checked is returned, merged into its neighbour, and
  // its Block record recycled to describe another live allocation at another address. A claim on the state
  // alone would succeed there and free that allocation under its owner.
  auto d = MakeDevice(64 * kMiB, TestConfig(/*thread_cache=*/true));
  CachingAllocator& c = d->caching();
  void* a1 = MustAlloc(*d, 700);
  void* a2 = MustAlloc(*d, 700);
  ASSERT_EQ(U(a1) + CapacityOf(*d, a1), U(a2)) << "setup: neighbours in one segment";
  const CachingAllocator::FastFreeTicket stale = c.CheckFastFree(U(a2));
  ASSERT_NE(nullptr, stale.block);
  ASSERT_TRUE(d->FreeCached(a1));
  ASSERT_TRUE(d->FreeCached(a2));
  d->UsedBytes();  // returns the thread cache: both merge into a1's block, and a2's record is recycled
  void* b1 = MustAlloc(*d, 1500);  // a1's block, split: the rest gets the most recently recycled record
  void* b2 = MustAlloc(*d, 700);   // the head of that rest
  ASSERT_EQ(U(a1), U(b1));
  ASSERT_EQ(stale.block->addr.get(), U(b2)) << "setup: a2's record now describes b2";
  ASSERT_NE(U(a2), U(b2));
  EXPECT_FALSE(c.ClaimFastFree(stale)) << "the loser's claim must not free b2";
  EXPECT_EQ(2u, c.Stats().total.live_blocks);
  EXPECT_TRUE(d->Free(b2, {}).ok()) << "b2 is still its owner's";
  EXPECT_TRUE(d->Free(b1, {}).ok());
  EXPECT_TRUE(c.CheckInvariants().ok());
}

TEST(AllocatorFastPaths, OffWithoutTheThreadCache) {
  auto d = MakeDevice(64 * kMiB, TestConfig(/*thread_cache=*/false));
  void* p = MustAlloc(*d, 4096);
  EXPECT_FALSE(d->FreeCached(p));
  ASSERT_TRUE(d->Free(p, {}).ok());
  EXPECT_EQ(nullptr, d->AllocateCached(4096, 0, true, nullptr));
}

}  // namespace
}  // namespace npurt::core
