// Stream-ordered reuse on the simulated device with real streams: a block freed while a stream may
// still use it is reused on that stream at once and elsewhere only after the stream passed the free
// point; the free itself never waits for the device.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <vector>

#include "alloc_device_fixture.h"
#include "core/alloc/alloc_caching.h"

namespace npurt::core {
namespace {

using testing::DeviceFixture;
constexpr size_t kSegmentExact = (20u << 20) - 64;  // + 32 B padding: exactly one 20 MiB segment

class StreamOrderedTest : public DeviceFixture {
 protected:
  CachingStats Stats() { return allocator().caching().Stats(); }
};

TEST_F(StreamOrderedTest, FreeWhileAStreamIsBusyDefersReuseWithoutWaiting) {
  Stream* s = NewStream();
  ASSERT_NE(nullptr, s);
  void* p = allocator().Allocate(kSegmentExact, ctx_).value();
  const uint64_t reserved0 = Stats().total.reserved;
  Block(s);
  ASSERT_TRUE(Memset(p, kSegmentExact, 0x5a, kSegmentExact, s).ok());  // queued behind the gate
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_TRUE(FreeNow(p).ok());
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(2)) << "the free did not wait";
  EXPECT_EQ(1u, Stats().pending_count);
  void* q = allocator().Allocate(kSegmentExact, ctx_).value();
  EXPECT_NE(p, q) << "the stream may still write p";
  ASSERT_TRUE(FreeNow(q).ok());
  EXPECT_EQ(2u, Stats().pending_count) << "every busy stream fences a free";
  Open();
  ASSERT_TRUE(s->Synchronize(-1).ok());
  void* r = allocator().Allocate(kSegmentExact, ctx_).value();
  EXPECT_TRUE(r == p || r == q);
  EXPECT_EQ(0u, Stats().pending_count);
  EXPECT_EQ(reserved0 + (20u << 20), Stats().total.reserved) << "no third segment";
  ASSERT_TRUE(FreeNow(r).ok());
  s->Destroy(false);
}

TEST_F(StreamOrderedTest, SameStreamReusesAtOnceOtherStreamsAfterTheFence) {
  Stream* s1 = NewStream();
  Stream* s2 = NewStream();
  ASSERT_TRUE(s1 && s2);
  CachingAllocator::Options o;
  o.thread_cache = false;
  o.config.debug_checks = true;
  o.name = "test pool";
  CachingAllocator pool(&allocator().memory(), &allocator().index(), o);
  auto key = [](Stream* s) { return reinterpret_cast<uintptr_t>(s); };
  auto req = [&](Stream* s) {
    AllocRequest r;
    r.size = 256 << 10;
    r.stream = key(s);
    return r;
  };
  auto free_on = [&](void* p, Stream* s) {
    StreamFence f{Ref<Stream>(s), s->queue()->submitted()};
    const auto a = reinterpret_cast<uintptr_t>(p);
    return pool.Free(a, allocator().index().SegmentAt(a), &f, 1, key(s));
  };
  Block(s1);
  void* p = pool.Allocate(req(s1)).value();
  ASSERT_TRUE(free_on(p, s1).ok());
  EXPECT_EQ(1u, pool.Stats().pending_count);
  void* q = pool.Allocate(req(s1)).value();
  EXPECT_EQ(p, q) << "work on s1 after the free is ordered after it";
  EXPECT_EQ(0u, pool.Stats().pending_count);
  ASSERT_TRUE(free_on(q, s1).ok());
  void* r = pool.Allocate(req(s2)).value();
  EXPECT_NE(p, r) << "s2 must not see p before s1 passed the free";
  Open();
  ASSERT_TRUE(s1->Synchronize(-1).ok());
  void* t = pool.Allocate(req(s2)).value();
  EXPECT_EQ(0u, pool.Stats().pending_count) << "the passed fence released p to everyone";
  EXPECT_EQ(p, t);
  for (void* x : {r, t}) {
    const auto a = reinterpret_cast<uintptr_t>(x);
    ASSERT_TRUE(pool.Free(a, allocator().index().SegmentAt(a), nullptr, 0, 0).ok());
  }
  s1->Destroy(false);
  s2->Destroy(false);
}

TEST_F(StreamOrderedTest, DestroyingAContextFreesItsMemory) {
  auto created = Context::Create(device_, /*is_default=*/false);
  ASSERT_TRUE(created.ok());
  Context* ctx = created.value();
  const uint64_t live0 = Stats().total.allocated;
  void* a = allocator().Allocate(4096, ctx).value();
  void* b = allocator().Allocate(3 << 20, ctx).value();
  EXPECT_GT(Stats().total.allocated, live0);
  ctx->Destroy();  // logs a leak report
  EXPECT_EQ(live0, Stats().total.allocated);
  AllocationInfo info;
  EXPECT_FALSE(allocator().Lookup(a, &info));
  EXPECT_FALSE(allocator().Lookup(b, &info));
  SetCurrentContext(ctx_);
}

TEST_F(StreamOrderedTest, DevicePointersAreRealMemory) {
  AllocRequest r;
  r.size = 1 << 20;
  r.policy = ACL_MEM_MALLOC_NORMAL_ONLY;
  r.owner = ctx_;
  void* p = allocator().Allocate(r).value();
  std::vector<uint8_t> in(1 << 20), out(1 << 20);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 131 + 7);
  ASSERT_TRUE(Memcpy(p, in.size(), in.data(), in.size(), ACL_MEMCPY_HOST_TO_DEVICE, nullptr).ok());
  ASSERT_TRUE(Memcpy(out.data(), out.size(), p, out.size(), ACL_MEMCPY_DEVICE_TO_HOST, nullptr).ok());
  EXPECT_EQ(0, std::memcmp(in.data(), out.data(), in.size()));
  ASSERT_TRUE(FreeNow(p).ok());
}

}  // namespace
}  // namespace npurt::core
