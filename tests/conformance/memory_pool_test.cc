// Stream-ordered memory pools (acl_rt_memory_soma.h): creation and its bad properties, stream-ordered
// allocation and free with data, same-stream reuse, cross-stream reuse only after the freeing stream
// passed the free, attributes (reuse flags, release threshold, reserved/used current and high), the
// maxSize limit, trimming, destruction with live allocations, and bad frees.
#include <cstring>

#include "acl/acl_rt_memory_soma.h"
#include "test_util.h"

namespace cts {
namespace {

using MemoryPoolTest = CtsTest;

aclrtMemPoolProps Props(uint32_t device = 0, size_t max_size = 0) {
  aclrtMemPoolProps p = {};
  p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  p.maxSize = max_size;
  return p;
}

uint64_t Attr(aclrtMemPool pool, aclrtMemPoolAttr attr) {
  uint64_t v = 0;
  EXPECT_ACL_OK(aclrtMemPoolGetAttr(pool, attr, &v));
  return v;
}

// Writes random bytes through `s` and reads them back.
void ExpectRoundTripOnStream(void* dev, size_t size, aclrtStream s) {
  PinnedBuf in(size), out(size);
  FillRandom(in.get(), size, size);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev, size, in.get(), size, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(-1, FirstDifference(in.get(), out.get(), size));
}

class Pool {
 public:
  explicit Pool(size_t max_size = 0) {
    const aclrtMemPoolProps props = Props(0, max_size);
    EXPECT_ACL_OK(aclrtMemPoolCreate(&pool_, &props));
  }
  ~Pool() {
    if (pool_ != nullptr) {
      EXPECT_ACL_OK(aclrtMemPoolDestroy(pool_));
    }
  }
  aclrtMemPool get() const { return pool_; }
  aclrtMemPool release() { return std::exchange(pool_, nullptr); }

 private:
  aclrtMemPool pool_ = nullptr;
};

TEST_F(MemoryPoolTest, CreateRejectsBadProperties) {
  aclrtMemPool pool = nullptr;
  aclrtMemPoolProps p = Props();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(nullptr, &p));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&pool, nullptr));
  p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&pool, &p));
  p = Props(DeviceCount());
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMemPoolCreate(&pool, &p));
  p = Props();
  p.allocType = static_cast<aclrtMemAllocationType>(7);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&pool, &p));
  p = Props();
  p.handleType = ACL_MEM_HANDLE_TYPE_POSIX;
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtMemPoolCreate(&pool, &p));
  p = Props(0, SIZE_MAX);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolCreate(&pool, &p)) << "maxSize above the device's memory";
  EXPECT_EQ(nullptr, pool);
}

TEST_F(MemoryPoolTest, AllocateUseAndFreeInStreamOrder) {
  Pool pool;
  Stream s;
  constexpr size_t kSize = 3 << 20;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&p, kSize, pool.get(), s));
  ASSERT_NE(nullptr, p);
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(p) % 64);
  PinnedBuf in(kSize), out(kSize);
  FillRandom(in.get(), kSize, 41);
  ASSERT_ACL_OK(aclrtMemcpyAsync(p, kSize, in.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, p, kSize, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(p, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(-1, FirstDifference(in.get(), out.get(), kSize));
  // The same stream reuses the block at once: its work runs after the free.
  void* q = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&q, kSize, pool.get(), s));
  EXPECT_EQ(p, q);
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(q, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  // The null stream is the current context's default stream.
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&q, 100, pool.get(), nullptr));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(q, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
}

TEST_F(MemoryPoolTest, OtherStreamsReuseOnlyAfterTheFreeingStreamPassedTheFree) {
  Pool pool;
  Stream s1, s2;
  DeviceGate gate;
  constexpr size_t kSize = 1 << 20;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&p, kSize, pool.get(), s1));
  ASSERT_ACL_OK(gate.Block(s1));
  ASSERT_ACL_OK(aclrtMemsetAsync(p, kSize, 0x3c, kSize, s1));  // still to run
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(p, s1));
  void* q = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&q, kSize, pool.get(), s2));
  EXPECT_NE(p, q) << "s1 may still write p";
  void* r = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&r, kSize, pool.get(), s1));
  EXPECT_EQ(p, r) << "s1 itself reuses it: its memset runs before anything queued later";
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(r, s1));
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  void* t = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&t, kSize, pool.get(), s2));
  EXPECT_EQ(p, t) << "after s1 passed the free, s2 gets the block";
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(q, s2));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(t, s2));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s2));
}

TEST_F(MemoryPoolTest, AttributesReportAndReset) {
  Pool pool;
  Stream s;
  EXPECT_EQ(0u, Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT));
  EXPECT_EQ(0u, Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&p, 5 << 20, pool.get(), s));
  EXPECT_GE(Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 5u << 20);
  EXPECT_GE(Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 5u << 20);
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(p, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(0u, Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT));
  EXPECT_GE(Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 5u << 20);
  EXPECT_GE(Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 5u << 20) << "the pool caches";
  uint64_t zero = 0;
  ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &zero));
  EXPECT_EQ(0u, Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH));
  ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, &zero));
  EXPECT_EQ(Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
            Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH));
  uint64_t one = 1;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolSetAttr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &one));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolSetAttr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &zero));
  uint64_t threshold = 64 << 20;
  ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool.get(), ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &threshold));
  EXPECT_EQ(64u << 20, Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD));
  for (aclrtMemPoolAttr a : {ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC,
                             ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES}) {
    int32_t v = -1;
    ASSERT_ACL_OK(aclrtMemPoolGetAttr(pool.get(), a, &v));
    EXPECT_EQ(1, v) << "reuse is allowed by default";
    int32_t off = 0;
    ASSERT_ACL_OK(aclrtMemPoolSetAttr(pool.get(), a, &off));
    ASSERT_ACL_OK(aclrtMemPoolGetAttr(pool.get(), a, &v));
    EXPECT_EQ(0, v);
  }
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolGetAttr(pool.get(), static_cast<aclrtMemPoolAttr>(99), &one));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolGetAttr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, nullptr));
}

TEST_F(MemoryPoolTest, MaxSizeLimitsThePoolAndTrimReturnsIdleMemory) {
  Pool pool(8 << 20);
  Stream s;
  void* big = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMemPoolMallocAsync(&big, 9 << 20, pool.get(), s));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&a, 3 << 20, pool.get(), s));
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&b, 3 << 20, pool.get(), s));
  EXPECT_LE(Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 8u << 20);
  void* c = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMemPoolMallocAsync(&c, 3 << 20, pool.get(), s));
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(nullptr, msg);
  EXPECT_NE(nullptr, std::strstr(msg, "limit")) << msg;
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(a, s));
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(b, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclrtMemPoolTrimTo(pool.get(), 0));
  EXPECT_EQ(0u, Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT));
}

TEST_F(MemoryPoolTest, DestroyWithLiveAllocationsKeepsThemUntilFreed) {
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  Pool pool;
  Stream s;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&p, 32 << 20, pool.get(), s));
  aclrtMemPool handle = pool.release();
  ASSERT_ACL_OK(aclrtMemPoolDestroy(handle));
  void* q = nullptr;
  EXPECT_BAD_HANDLE(aclrtMemPoolMallocAsync(&q, 64, handle, s));
  EXPECT_BAD_HANDLE(aclrtMemPoolDestroy(handle));
  ExpectRoundTripOnStream(p, 32 << 20, s);
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(p, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  size_t free1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_GE(free1 + (1 << 20), free0) << "the destroyed pool gave its memory back with its last block";
}

TEST_F(MemoryPoolTest, BadAllocationsAndFrees) {
  Pool pool;
  Stream s;
  void* p = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolMallocAsync(nullptr, 64, pool.get(), s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolMallocAsync(&p, 0, pool.get(), s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolMallocAsync(&p, 64, nullptr, s));
  EXPECT_BAD_HANDLE(aclrtMemPoolMallocAsync(&p, 64, s.get(), s)) << "a stream is not a pool";
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMemPoolMallocAsync(&p, SIZE_MAX, pool.get(), s));
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&p, 4096, pool.get(), s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemPoolFreeAsync(nullptr, s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtMemPoolFreeAsync(static_cast<char*>(p) + 512, s)) << "interior";
  DevBuf plain(4096);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtMemPoolFreeAsync(plain.get(), s)) << "aclrtMalloc memory";
  int host = 0;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtMemPoolFreeAsync(&host, s));
  aclrtStream dead = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&dead));
  ASSERT_ACL_OK(aclrtDestroyStream(dead));
  EXPECT_BAD_HANDLE(aclrtMemPoolFreeAsync(p, dead)) << "a destroyed stream";
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(p, s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtMemPoolFreeAsync(p, s)) << "double free";
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

TEST_F(MemoryPoolTest, AclrtFreeReleasesPoolMemoryToo) {
  Pool pool;
  Stream s;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&p, 1 << 20, pool.get(), s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclrtFree(p));
  EXPECT_EQ(0u, Attr(pool.get(), ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT));
}

TEST_F(MemoryPoolTest, PoolsShowInMemoryUsage) {
  Pool pool;
  Stream s;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMemPoolMallocAsync(&p, 6 << 20, pool.get(), s));
  aclrtMemUsageInfo rows[16];
  size_t n = 0;
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, rows, 16, &n));
  bool found = false;
  for (size_t i = 0; i < n; ++i) {
    if (std::strcmp(rows[i].name, "mem_pools_used") == 0) {
      found = true;
      EXPECT_GE(rows[i].curMemSize, 6u << 20);
    }
  }
  EXPECT_TRUE(found);
  ASSERT_ACL_OK(aclrtMemPoolFreeAsync(p, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

}  // namespace
}  // namespace cts
