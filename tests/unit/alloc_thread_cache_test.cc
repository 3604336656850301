// The thread cache (core/alloc/alloc_thread_cache.h): hits without locks, bounds, cross-thread frees, thread
// exit, flush on memory pressure, accounting under two threads, allocators going away under live caches.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "alloc_test_util.h"
#include "core/alloc/alloc_thread_cache.h"

namespace npurt::core {
namespace {

using namespace npurt::core::testing;  // NOLINT

TEST(ThreadCache, FreeThenAllocateHitsTheCache) {
  auto d = MakeDevice(64 * kMiB, TestConfig(/*thread_cache=*/true));
  void* p = MustAlloc(*d, 4096);
  ASSERT_TRUE(d->Free(p, {}).ok());
  EXPECT_EQ(4608u, d->caching().Stats().thread_cached_bytes);
  AllocationInfo info;
  EXPECT_FALSE(d->Lookup(p, &info)) << "a cached block is not live";
  EXPECT_EQ(ACL_ERROR_RT_MEMORY_FREE, d->Free(p, {}).code()) << "double free of a cached block";
  void* q = MustAlloc(*d, 4096);
  EXPECT_EQ(p, q);
  const CachingStats s = d->caching().Stats();
  EXPECT_EQ(1u, s.thread_cache_hits);
  EXPECT_EQ(4608u, s.total.allocated);
  EXPECT_EQ(1u, s.total.live_blocks);
  EXPECT_EQ(0u, s.thread_cached_bytes);
  ASSERT_TRUE(d->Lookup(q, &info));
  EXPECT_EQ(4096u, info.size);
  ASSERT_TRUE(d->Free(q, {}).ok());
  EXPECT_EQ(0u, d->caching().Stats().total.allocated);
}

TEST(ThreadCache, OnlySmallDefaultPoolBlocksAreCached) {
  auto d = MakeDevice(64 * kMiB, TestConfig(true));
  void* big = MustAlloc(*d, 64 * 1024);        // 64 KiB + pad: above the thread-cache limit
  void* huge = MustAlloc(*d, 4096, /*HUGE_ONLY=*/1);
  ASSERT_TRUE(d->Free(big, {}).ok());
  ASSERT_TRUE(d->Free(huge, {}).ok());
  EXPECT_EQ(0u, d->caching().Stats().thread_cached_bytes);
}

TEST(ThreadCache, BinsAndBytesAreBounded) {
  auto d = MakeDevice(64 * kMiB, TestConfig(true));
  std::vector<void*> p;
  for (int i = 0; i < 40; ++i) p.push_back(MustAlloc(*d, 4096));
  for (void* q : p) ASSERT_TRUE(d->Free(q, {}).ok());
  EXPECT_EQ(ThreadCache::kBinCapacity * 4608u, d->caching().Stats().thread_cached_bytes);
  // The byte budget (1 MiB) bounds the cache across sizes.
  p.clear();
  for (int i = 0; i < 30; ++i) p.push_back(MustAlloc(*d, 60 * 1024));
  for (void* q : p) ASSERT_TRUE(d->Free(q, {}).ok());
  EXPECT_LE(d->caching().Stats().thread_cached_bytes, 1u << 20);
  EXPECT_EQ(0u, d->caching().Stats().total.allocated);
}

TEST(ThreadCache, CrossThreadFreesLandInTheFreeingThread) {
  auto d = MakeDevice(64 * kMiB, TestConfig(true));
  void* p = MustAlloc(*d, 2048);
  std::thread([&] {
    ASSERT_TRUE(d->Free(p, {}).ok());
    EXPECT_EQ(p, MustAlloc(*d, 2048)) << "the freeing thread reuses it";
    ASSERT_TRUE(d->Free(p, {}).ok());
  }).join();
  // The other thread exited: its cache went back to the pool, and the block merged.
  const CachingStats s = d->caching().Stats();
  EXPECT_EQ(0u, s.thread_cached_bytes);
  EXPECT_EQ(0u, s.total.allocated);
  EXPECT_EQ(0u, s.total.live_blocks);
  const auto snap = d->caching().Snapshot();
  ASSERT_EQ(1u, snap["segments"].size());
  EXPECT_EQ(1u, snap["segments"][0]["blocks"].size());
}

TEST(ThreadCache, MemoryPressureReturnsCaches) {
  auto d = MakeDevice(8 * kMiB, TestConfig(true));
  // Fill all four small segments with cached blocks of this thread.
  std::vector<void*> p;
  for (int i = 0; i < 4 * 128; ++i) {
    auto r = d->Allocate(Req(16 * 1024 - 32));
    if (!r.ok()) break;
    p.push_back(r.value());
  }
  ASSERT_GT(p.size(), 400u);
  for (void* q : p) ASSERT_TRUE(d->Free(q, {}).ok());
  EXPECT_GT(d->caching().Stats().thread_cached_bytes, 0u);
  // A large block needs those segments back: the retry returns this thread's cache and releases them.
  void* big = MustAlloc(*d, 6 * kMiB);
  ASSERT_NE(nullptr, big);
  EXPECT_EQ(0u, d->caching().Stats().thread_cached_bytes);
  EXPECT_EQ(1u, d->caching().Stats().retries);
  ASSERT_TRUE(d->Free(big, {}).ok());
}

TEST(ThreadCache, OtherThreadsReturnTheirCacheAfterAFlushRequest) {
  auto d = MakeDevice(8 * kMiB, TestConfig(true));
  std::atomic<int> phase{0};
  std::thread t([&] {
    std::vector<void*> p;
    for (int i = 0; i < 32; ++i) p.push_back(MustAlloc(*d, 4096));
    for (void* q : p) ASSERT_TRUE(d->Free(q, {}).ok());
    phase = 1;
    while (phase.load() != 2) std::this_thread::yield();
    // Next call: sees the flush request and returns the cache first.
    void* q = MustAlloc(*d, 1024);
    ASSERT_TRUE(d->Free(q, {}).ok());
    phase = 3;
    while (phase.load() != 4) std::this_thread::yield();
  });
  while (phase.load() != 1) std::this_thread::yield();
  EXPECT_EQ(32u * 4608u, d->caching().Stats().thread_cached_bytes);
  // A failing allocation asks every thread to return its cache.
  EXPECT_FALSE(d->Allocate(Req(7 * kMiB)).ok());
  phase = 2;
  while (phase.load() != 3) std::this_thread::yield();
  EXPECT_LE(d->caching().Stats().thread_cached_bytes, 1536u) << "only the block freed after the flush";
  EXPECT_TRUE(d->Allocate(Req(5 * kMiB)).ok());
  phase = 4;
  t.join();
}

TEST(ThreadCache, TwoThreadsKeepExactAccounts) {
  auto d = MakeDevice(256 * kMiB, TestConfig(true));
  auto work = [&](int seed) {
    std::vector<void*> live;
    uint32_t x = static_cast<uint32_t>(seed) * 2654435761u;
    for (int i = 0; i < 4000; ++i) {
      x = x * 1664525u + 1013904223u;
      if (!live.empty() && (x >> 28) < 7) {
        ASSERT_TRUE(d->Free(live.back(), {}).ok());
        live.pop_back();
      } else {
        live.push_back(MustAlloc(*d, 512 + (x >> 8) % 60000));
      }
    }
    for (void* p : live) ASSERT_TRUE(d->Free(p, {}).ok());
  };
  std::thread a(work, 1), b(work, 2);
  a.join();
  b.join();
  const CachingStats s = d->caching().Stats();
  EXPECT_EQ(0u, s.total.allocated);
  EXPECT_EQ(0u, s.total.live_blocks);
  EXPECT_EQ(s.alloc_count, s.free_count);
  EXPECT_GT(s.thread_cache_hits, 0u);
  EXPECT_TRUE(d->caching().CheckInvariants().ok());
}

TEST(ThreadCache, AllocatorsMayGoAwayUnderLiveCaches) {
  std::atomic<int> phase{0};
  std::unique_ptr<DeviceAllocator> d = MakeDevice(64 * kMiB, TestConfig(true));
  std::thread t([&] {
    void* p = MustAlloc(*d, 4096);
    ASSERT_TRUE(d->Free(p, {}).ok());  // cached in this thread
    phase = 1;
    while (phase.load() != 2) std::this_thread::yield();
    // A new allocator may have taken the same slot: the stale cache must not leak into it.
    void* q = MustAlloc(*d, 4096);
    ASSERT_TRUE(d->Free(q, {}).ok());
  });
  while (phase.load() != 1) std::this_thread::yield();
  d.reset();
  d = MakeDevice(64 * kMiB, TestConfig(true));
  phase = 2;
  t.join();
  EXPECT_EQ(0u, d->caching().Stats().total.allocated);
}

}  // namespace
}  // namespace npurt::core
