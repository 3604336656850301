// Memory: device allocation (every policy, alignment, size errors), frees (double, interior,
// foreign), host memory, memory information, pointer attributes, usage statistics, stream-ordered
// frees.
#include <algorithm>
#include <set>

#include "test_util.h"

namespace cts {
namespace {

using MemoryTest = CtsTest;

bool Aligned(const void* p, size_t a) { return reinterpret_cast<uintptr_t>(p) % a == 0; }

void ExpectRoundTrip(void* dev, size_t size, uint64_t seed) {
  const std::vector<uint8_t> data = RandomBytes(size, seed);
  std::vector<uint8_t> back(size);
  ASSERT_ACL_OK(aclrtMemcpy(dev, size, data.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), size, dev, size, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(-1, FirstDifference(data.data(), back.data(), size));
}

TEST_F(MemoryTest, MallocEveryPolicy) {
  const uint32_t policies[] = {
      ACL_MEM_MALLOC_HUGE_FIRST,
      ACL_MEM_MALLOC_HUGE_ONLY,
      ACL_MEM_MALLOC_NORMAL_ONLY,
      ACL_MEM_MALLOC_HUGE_FIRST_P2P,
      ACL_MEM_MALLOC_HUGE_ONLY_P2P,
      ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
      ACL_MEM_MALLOC_HUGE1G_ONLY,
      ACL_MEM_MALLOC_HUGE1G_ONLY_P2P,
      ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH,
      ACL_MEM_MALLOC_NORMAL_ONLY | ACL_MEM_TYPE_LOW_BAND_WIDTH,
      99,  // out of range: treated as the default policy
  };
  uint64_t seed = 60;
  for (uint32_t policy : policies) {
    for (size_t size : {size_t(1), size_t(31), size_t(4096), size_t(3 << 20) + 7}) {
      SCOPED_TRACE(testing::Message() << "policy " << policy << " size " << size);
      void* p = nullptr;
      ASSERT_ACL_OK(aclrtMalloc(&p, size, static_cast<aclrtMemMallocPolicy>(policy)));
      ASSERT_NE(nullptr, p);
      EXPECT_TRUE(Aligned(p, 64)) << p;
      ExpectRoundTrip(p, size, ++seed);
      EXPECT_ACL_OK(aclrtFree(p));
    }
  }
}

TEST_F(MemoryTest, MallocVariants) {
  void* a = nullptr;
  void* b = nullptr;
  void* c = nullptr;
  ASSERT_ACL_OK(aclrtMallocAlign32(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtMallocCached(&b, 1000, ACL_MEM_MALLOC_NORMAL_ONLY));
  ASSERT_ACL_OK(aclrtMallocWithCfg(&c, 1000, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  for (void* p : {a, b, c}) {
    EXPECT_TRUE(Aligned(p, 64));
    ExpectRoundTrip(p, 1000, 61);
  }
  EXPECT_EQ(3u, std::set<void*>({a, b, c}).size());
  aclrtMallocAttribute attrs[1];
  attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
  attrs[0].value.moduleId = 7;
  aclrtMallocConfig cfg = {attrs, 1};
  void* d = nullptr;
  ASSERT_ACL_OK(aclrtMallocWithCfg(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  ExpectRoundTrip(d, 4096, 62);
  // aclrtFree releases every variant.
  for (void* p : {a, b, c, d}) {
    EXPECT_ACL_OK(aclrtFree(p));
  }
  aclrtMallocConfig broken = {nullptr, 2};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocWithCfg(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST, &broken));
}

TEST_F(MemoryTest, MallocWithCfgOnAnotherDevice) {
  CTS_REQUIRE_DEVICES(2);
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtContext ctx1 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx1));
  ASSERT_ACL_OK(aclrtSetDevice(0));
  ASSERT_ACL_OK(aclrtResetDevice(0));  // balance: the fixture holds one reference
  aclrtMallocAttribute attrs[1];
  attrs[0].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  attrs[0].value.deviceId = 1;
  aclrtMallocConfig cfg = {attrs, 1};
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMallocWithCfg(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  aclrtPtrAttributes attr;
  ASSERT_ACL_OK(aclrtPointerGetAttributes(p, &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, attr.location.type);
  EXPECT_EQ(1u, attr.location.id);
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(0, dev) << "the current device is unchanged";
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_OK(aclrtResetDevice(1));
}

TEST_F(MemoryTest, MallocSizeErrors) {
  void* p = reinterpret_cast<void*>(uintptr_t(0x1234));
  const aclError zero = aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST);
  EXPECT_TRUE(zero == ACL_ERROR_INVALID_PARAM || zero == ACL_ERROR_RT_PARAM_INVALID) << zero;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST));
  p = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&p, ~size_t(0), ACL_MEM_MALLOC_HUGE_FIRST));
  EXPECT_EQ(nullptr, p);
  size_t free = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMalloc(&p, total + 1, ACL_MEM_MALLOC_HUGE_FIRST));
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(nullptr, msg);
  EXPECT_NE(std::string::npos, std::string(msg).find("aclrtMalloc")) << msg;
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_ALLOCATION, aclrtMallocCached(&p, size_t(1) << 60, ACL_MEM_MALLOC_HUGE_FIRST));
  // The runtime keeps working.
  DevBuf ok(1 << 20);
  EXPECT_TRUE(ok.ok());
}

TEST_F(MemoryTest, MallocWithoutContextFails) {
  std::thread([] {
    void* p = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST));
    ClearErrorState();
  }).join();
}

TEST_F(MemoryTest, LiveAllocationsDoNotOverlap) {
  std::vector<std::pair<uintptr_t, size_t>> ranges;
  std::mt19937 rng(63);
  std::vector<void*> ptrs;
  for (int i = 0; i < 200; ++i) {
    const size_t size = 1 + rng() % (i % 10 == 0 ? (4 << 20) : 8192);
    void* p = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
    ranges.emplace_back(reinterpret_cast<uintptr_t>(p), size);
    ptrs.push_back(p);
  }
  std::sort(ranges.begin(), ranges.end());
  for (size_t i = 1; i < ranges.size(); ++i) {
    EXPECT_LE(ranges[i - 1].first + ranges[i - 1].second, ranges[i].first) << "allocations overlap";
  }
  for (void* p : ptrs) {
    EXPECT_ACL_OK(aclrtFree(p));
  }
}

TEST_F(MemoryTest, FreeErrors) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFree(nullptr));
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 8192, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::vector<uint8_t> data = RandomBytes(8192, 64);
  ASSERT_ACL_OK(aclrtMemcpy(p, 8192, data.data(), 8192, ACL_MEMCPY_HOST_TO_DEVICE));
  // Interior pointer: rejected, and the allocation stays intact.
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(static_cast<uint8_t*>(p) + 64));
  std::vector<uint8_t> back(8192);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), 8192, p, 8192, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(data, back);
  // Foreign pointers: stack, heap, pinned host memory.
  int on_stack[32];
  std::vector<int> on_heap(32);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(&on_stack[5]));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(on_heap.data()));
  void* host = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&host, 4096));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(host));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFreeHost(p)) << "device memory is not freed with aclrtFreeHost";
  EXPECT_ACL_OK(aclrtFreeHost(host));
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(p)) << "double free";
  // A freed block is not addressable any more.
  EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(p, 8192, data.data(), 8192, ACL_MEMCPY_HOST_TO_DEVICE));
}

TEST_F(MemoryTest, FreeWithDevSyncWaitsForQueuedWork) {
  constexpr size_t kSize = 4 << 20;
  Stream s;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  PinnedBuf src(kSize), out(kSize);
  FillRandom(src.get(), kSize, 65);
  std::memset(out.get(), 0, kSize);
  for (int i = 0; i < 4; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(p, kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  }
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, p, kSize, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtFreeWithDevSync(p));
  EXPECT_EQ(-1, FirstDifference(out.get(), src.get(), kSize)) << "the work finished before the free returned";
  aclrtStreamStatus st;
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFreeWithDevSync(p));
}

TEST_F(MemoryTest, HostMemory) {
  void* h = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&h, 100000));
  ASSERT_NE(nullptr, h);
  EXPECT_TRUE(Aligned(h, 64));
  FillRandom(h, 100000, 66);  // writable by the host
  const std::vector<uint8_t> copy(static_cast<uint8_t*>(h), static_cast<uint8_t*>(h) + 100000);
  EXPECT_EQ(RandomBytes(100000, 66), copy);
  void* h2 = nullptr;
  ASSERT_ACL_OK(aclrtMallocHostWithCfg(&h2, 4096, nullptr));
  EXPECT_NE(h, h2);
  EXPECT_ACL_OK(aclrtFreeHost(h2));
  EXPECT_ACL_OK(aclrtFreeHost(h));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFreeHost(h)) << "double free";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreeHost(nullptr));
  std::vector<uint8_t> heap(64);
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFreeHost(heap.data()));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(nullptr, 64));
  void* z = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocHost(&z, 0));
  // aclrtFreeHostWithDevSync.
  void* h3 = nullptr;
  ASSERT_ACL_OK(aclrtMallocHost(&h3, 4096));
  EXPECT_ACL_OK(aclrtFreeHostWithDevSync(h3));
}

TEST_F(MemoryTest, HostMemoryWorksWithoutAContext) {
  std::thread([] {
    void* h = nullptr;
    ASSERT_ACL_OK(aclrtMallocHost(&h, 4096));
    std::memset(h, 0xA5, 4096);
    EXPECT_ACL_OK(aclrtFreeHost(h));
  }).join();
}

TEST_F(MemoryTest, MemInfoFreeDecreasesByTheAllocation) {
  size_t free0 = 0, total0 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total0));
  EXPECT_GT(total0, 0u);
  EXPECT_LE(free0, total0);
  constexpr size_t kSize = 64 << 20;
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free1 = 0, total1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total1));
  EXPECT_EQ(total0, total1);
  EXPECT_LE(free1 + kSize, free0);
  ASSERT_ACL_OK(aclrtFree(p));
  size_t free2 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total1));
  EXPECT_EQ(free2, free0) << "aclrtFree releases the memory, as on CANN (the allocator's idle cache is free)";
  ASSERT_ACL_OK(aclrtMalloc(&p, kSize, ACL_MEM_MALLOC_HUGE_FIRST));
  size_t free3 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free3, &total1));
  EXPECT_EQ(free3, free1) << "the same allocation again reuses the cached block";
  ASSERT_ACL_OK(aclrtFree(p));
  for (int attr = ACL_DDR_MEM; attr <= ACL_MEM_P2P_HUGE1G; ++attr) {
    size_t f = 0, t = 0;
    EXPECT_ACL_OK(aclrtGetMemInfo(static_cast<aclrtMemAttr>(attr), &f, &t)) << "attribute " << attr;
    EXPECT_LE(f, t);
  }
  size_t f = 0, t = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(static_cast<aclrtMemAttr>(99), &f, &t));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, nullptr, &t));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemInfo(ACL_HBM_MEM, &f, nullptr));
  std::thread([] {
    size_t f2 = 0, t2 = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetMemInfo(ACL_HBM_MEM, &f2, &t2));
    ClearErrorState();
  }).join();
}

TEST_F(MemoryTest, PointerAttributes) {
  DevBuf dev(4096);
  PinnedBuf pinned(4096);
  std::vector<uint8_t> heap(4096);
  int on_stack = 0;
  aclrtPtrAttributes a;
  ASSERT_ACL_OK(aclrtPointerGetAttributes(dev.get(), &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, a.location.type);
  EXPECT_EQ(0u, a.location.id);
  EXPECT_GT(a.pageSize, 0u);
  ASSERT_ACL_OK(aclrtPointerGetAttributes(dev.bytes() + 100, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, a.location.type) << "interior pointers are classified too";
  ASSERT_ACL_OK(aclrtPointerGetAttributes(pinned.get(), &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, a.location.type);
  ASSERT_ACL_OK(aclrtPointerGetAttributes(heap.data(), &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, a.location.type);
  ASSERT_ACL_OK(aclrtPointerGetAttributes(&on_stack, &a));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, a.location.type);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(nullptr, &a));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPointerGetAttributes(dev.get(), nullptr));
}

TEST_F(MemoryTest, MemUsageInfo) {
  aclrtMemUsageInfo rows[8];
  size_t n = 0;
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, rows, 8, &n));
  ASSERT_GT(n, 0u);
  ASSERT_LE(n, 8u);
  const uint64_t cur0 = rows[0].curMemSize;
  constexpr size_t kSize = 16 << 20;
  DevBuf big(kSize);
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, rows, 8, &n));
  for (size_t i = 0; i < n; ++i) {
    EXPECT_NE('\0', rows[i].name[0]) << "row " << i << " has a name";
    EXPECT_NE(nullptr, std::memchr(rows[i].name, '\0', sizeof rows[i].name));
    EXPECT_GE(rows[i].memPeakSize, rows[i].curMemSize);
  }
  EXPECT_GE(rows[0].curMemSize, cur0 + kSize);
  size_t one = 0;
  ASSERT_ACL_OK(aclrtGetMemUsageInfo(0, rows, 1, &one));
  EXPECT_EQ(1u, one) << "never more rows than asked for";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, rows, 0, &n));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, nullptr, 8, &n));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUsageInfo(0, rows, 8, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetMemUsageInfo(static_cast<int32_t>(DeviceCount()), rows, 8, &n));
}

TEST_F(MemoryTest, FlushAndInvalidate) {
  DevBuf dev(4096);
  EXPECT_ACL_OK(aclrtMemFlush(dev.get(), 4096));
  EXPECT_ACL_OK(aclrtMemInvalidate(dev.bytes() + 1024, 1024));
  EXPECT_NE(ACL_SUCCESS, aclrtMemFlush(nullptr, 16));
  EXPECT_NE(ACL_SUCCESS, aclrtMemInvalidate(dev.get(), 8192)) << "the range overruns the allocation";
}

// Stream-ordered frees: a buffer freed while queued work still reads it is not handed out again until
// the stream passed the free.
void StreamOrderedFree(size_t size) {
  Stream s;
  void* a = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&a, size, ACL_MEM_MALLOC_HUGE_FIRST));
  const std::vector<uint8_t> data = RandomBytes(size, 67 + size);
  ASSERT_ACL_OK(aclrtMemcpy(a, size, data.data(), size, ACL_MEMCPY_HOST_TO_DEVICE));
  constexpr int kReaders = 8;
  std::vector<std::unique_ptr<DevBuf>> copies;
  for (int i = 0; i < kReaders; ++i) copies.push_back(std::make_unique<DevBuf>(size));
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  for (int i = 0; i < kReaders; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(copies[i]->get(), size, a, size, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
  }
  ASSERT_ACL_OK(aclrtFree(a));
  // While the readers are queued, new allocations of the same size must not alias the freed block;
  // scribble over them to catch it.
  std::vector<void*> fresh;
  for (int i = 0; i < 6; ++i) {
    void* p = nullptr;
    ASSERT_ACL_OK(aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST));
    EXPECT_NE(a, p) << "allocation " << i << " reuses a block that queued work still reads";
    ASSERT_ACL_OK(aclrtMemset(p, size, 0xEE, size));
    fresh.push_back(p);
  }
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  for (int i = 0; i < kReaders; ++i) {
    EXPECT_EQ(data, copies[i]->Read()) << "reader " << i << " saw the block after it was reused";
  }
  for (void* p : fresh) {
    EXPECT_ACL_OK(aclrtFree(p));
  }
}

TEST_F(MemoryTest, StreamOrderedFreeOfACachedSizeBlock) { StreamOrderedFree(64 << 10); }

TEST_F(MemoryTest, StreamOrderedFreeOfALargeBlock) { StreamOrderedFree((2 << 20) + 512); }

TEST_F(MemoryTest, FreeFromAnotherThreadAndContext) {
  CTS_REQUIRE_DEVICES(2);
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 1 << 16, ACL_MEM_MALLOC_HUGE_FIRST));
  ExpectRoundTrip(p, 1 << 16, 68);
  std::thread([p] {
    ASSERT_ACL_OK(aclrtSetDevice(1));  // a context of another device is current
    EXPECT_ACL_OK(aclrtFree(p)) << "device memory is freed whatever the current context";
    EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(p));
    EXPECT_ACL_OK(aclrtResetDevice(1));
    ClearErrorState();
  }).join();
}

}  // namespace
}  // namespace cts
