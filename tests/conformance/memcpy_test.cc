// Copies and fills: every aclrtMemcpyKind with its direction checks, overruns rejected before any
// byte moves, asynchronous copies from pinned and pageable memory, 2D copies, memset / memsetD32.
#include "test_util.h"

namespace cts {
namespace {

using MemcpyTest = CtsTest;

constexpr size_t kSize = 64 << 10;

// The three kinds of memory a copy can touch.
struct Sides {
  DevBuf dev{kSize};
  DevBuf dev2{kSize};
  PinnedBuf pinned{kSize};
  std::vector<uint8_t> pageable = std::vector<uint8_t>(kSize);
  std::vector<uint8_t> pageable2 = std::vector<uint8_t>(kSize);
};

enum class Mem { kPageable, kPinned, kDevice };

void* Ptr(Sides& s, Mem m, bool second) {
  switch (m) {
    case Mem::kPageable: return second ? s.pageable2.data() : s.pageable.data();
    case Mem::kPinned: return s.pinned.get();
    case Mem::kDevice: return second ? s.dev2.get() : s.dev.get();
  }
  return nullptr;
}

// Reads kSize bytes from any side (device memory through a copy).
std::vector<uint8_t> Contents(void* p, Mem m) {
  std::vector<uint8_t> out(kSize);
  if (m == Mem::kDevice) {
    EXPECT_ACL_OK(aclrtMemcpy(out.data(), kSize, p, kSize, ACL_MEMCPY_DEVICE_TO_HOST));
  } else {
    std::memcpy(out.data(), p, kSize);
  }
  return out;
}

void Store(void* p, Mem m, const std::vector<uint8_t>& data) {
  if (m == Mem::kDevice) {
    ASSERT_ACL_OK(aclrtMemcpy(p, kSize, data.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE));
  } else {
    std::memcpy(p, data.data(), kSize);
  }
}

bool IsHost(Mem m) { return m != Mem::kDevice; }

// Whether `kind` accepts a copy from `src` to `dst` memory.
bool KindAccepts(aclrtMemcpyKind kind, Mem dst, Mem src) {
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: return IsHost(dst) && IsHost(src);
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE: return !IsHost(dst) && IsHost(src);
    case ACL_MEMCPY_DEVICE_TO_HOST: return IsHost(dst) && !IsHost(src);
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INNER_DEVICE_TO_DEVICE:
    case ACL_MEMCPY_INTER_DEVICE_TO_DEVICE: return !IsHost(dst) && !IsHost(src);
    case ACL_MEMCPY_DEFAULT: return true;
  }
  return false;
}

void CheckEveryKind(bool async) {
  Sides sides;
  Stream stream;
  const aclrtMemcpyKind kinds[] = {ACL_MEMCPY_HOST_TO_HOST,          ACL_MEMCPY_HOST_TO_DEVICE,
                                   ACL_MEMCPY_DEVICE_TO_HOST,        ACL_MEMCPY_DEVICE_TO_DEVICE,
                                   ACL_MEMCPY_DEFAULT,               ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE,
                                   ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE};
  const Mem mems[] = {Mem::kPageable, Mem::kPinned, Mem::kDevice};
  uint64_t seed = 200;
  for (aclrtMemcpyKind kind : kinds) {
    for (Mem dm : mems) {
      for (Mem sm : mems) {
        if (async && kind == ACL_MEMCPY_HOST_TO_HOST) continue;  // see AsyncHostToHostIsNotSupported
        if (async && (kind == ACL_MEMCPY_DEFAULT) && IsHost(dm) && IsHost(sm)) continue;
        SCOPED_TRACE(testing::Message() << "kind " << kind << " dst " << int(dm) << " src " << int(sm)
                                        << (async ? " async" : " sync"));
        void* dst = Ptr(sides, dm, false);
        void* src = Ptr(sides, sm, true);
        if (dst == src) src = Ptr(sides, sm, false);
        if (dst == src) continue;  // pinned -> pinned: only one pinned buffer
        const std::vector<uint8_t> data = RandomBytes(kSize, ++seed);
        const std::vector<uint8_t> old = RandomBytes(kSize, ++seed);
        Store(src, sm, data);
        Store(dst, dm, old);
        const aclError e = async ? aclrtMemcpyAsync(dst, kSize, src, kSize, kind, stream)
                                 : aclrtMemcpy(dst, kSize, src, kSize, kind);
        if (async) {
          ASSERT_ACL_OK(aclrtSynchronizeStream(stream));
        }
        // A synchronous copy goes where its pointers say whatever valid kind it names (CANN 8: the kind of
        // aclrtMemcpy is reserved); an asynchronous one checks the kind.
        if (!async || KindAccepts(kind, dm, sm)) {
          EXPECT_ACL_OK(e);
          EXPECT_EQ(data, Contents(dst, dm));
        } else {
          EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, e) << "direction mismatch";
          EXPECT_EQ(old, Contents(dst, dm)) << "a rejected copy must not write";
        }
      }
    }
  }
}

TEST_F(MemcpyTest, EveryKindAndDirectionSync) { CheckEveryKind(false); }

TEST_F(MemcpyTest, EveryKindAndDirectionAsync) { CheckEveryKind(true); }

TEST_F(MemcpyTest, AsyncHostToHostIsNotSupported) {
  std::vector<uint8_t> a = RandomBytes(256, 70), b(256, 0);
  Stream s;
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 aclrtMemcpyAsync(b.data(), 256, a.data(), 256, ACL_MEMCPY_HOST_TO_HOST, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_TRUE(AllBytesAre(b.data(), 256, 0));
}

TEST_F(MemcpyTest, InvalidKindAndArguments) {
  DevBuf dev(4096);
  std::vector<uint8_t> host = RandomBytes(4096, 71);
  for (int kind : {-1, 8, 99}) {
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev.get(), 4096, host.data(), 4096,
                                                        static_cast<aclrtMemcpyKind>(kind)));
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyAsync(dev.get(), 4096, host.data(), 4096,
                                                             static_cast<aclrtMemcpyKind>(kind), nullptr));
  }
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(nullptr, 4096, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev.get(), 4096, nullptr, 16, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyAsync(nullptr, 4096, host.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
}

TEST_F(MemcpyTest, CountLargerThanDestMaxIsRejected) {
  DevBuf dev(4096);
  const std::vector<uint8_t> old = RandomBytes(4096, 72);
  ASSERT_ACL_OK(dev.Upload(old.data(), 4096));
  const std::vector<uint8_t> data = RandomBytes(4096, 73);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(dev.get(), 100, data.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyAsync(dev.get(), 100, data.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(old, dev.Read());
}

TEST_F(MemcpyTest, OverrunOfAnAllocationIsRejectedBeforeAnyByteMoves) {
  constexpr size_t kAlloc = 1000;
  DevBuf a(kAlloc), b(kAlloc);
  const std::vector<uint8_t> old_a = RandomBytes(kAlloc, 74), old_b = RandomBytes(kAlloc, 75);
  ASSERT_ACL_OK(a.Upload(old_a.data(), kAlloc));
  ASSERT_ACL_OK(b.Upload(old_b.data(), kAlloc));
  const std::vector<uint8_t> big = RandomBytes(4 * kAlloc, 76);
  std::vector<uint8_t> host(4 * kAlloc);
  FillRandom(host.data(), host.size(), 77);
  const std::vector<uint8_t> old_host = host;
  Stream s;
  // Destination overruns (whole buffer, interior pointer).
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(a.get(), 4 * kAlloc, big.data(), kAlloc + 1, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(a.bytes() + 900, 4 * kAlloc, big.data(), 101, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyAsync(a.bytes() + 500, 4 * kAlloc, big.data(), 501, ACL_MEMCPY_HOST_TO_DEVICE, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(b.get(), 4 * kAlloc, a.get(), kAlloc + 1, ACL_MEMCPY_DEVICE_TO_DEVICE));
  // Source overruns.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host.data(), host.size(), a.get(), kAlloc + 1, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyAsync(host.data(), host.size(), a.bytes() + 999, 2, ACL_MEMCPY_DEVICE_TO_HOST, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(b.get(), kAlloc, a.bytes() + 1, kAlloc, ACL_MEMCPY_DEVICE_TO_DEVICE));
  // Fills.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset(a.get(), 4 * kAlloc, 0, kAlloc + 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(a.bytes() + 10, 4 * kAlloc, 0, kAlloc, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(a.get(), 4 * kAlloc, 0, kAlloc / 4 + 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async(a.get(), 4 * kAlloc, 0, kAlloc / 4 + 1, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(old_a, a.Read());
  EXPECT_EQ(old_b, b.Read());
  EXPECT_EQ(old_host, host);
  // The exact fit works.
  ASSERT_ACL_OK(aclrtMemcpy(a.bytes() + 900, 100, big.data(), 100, ACL_MEMCPY_HOST_TO_DEVICE));
  std::vector<uint8_t> expect = old_a;
  std::memcpy(expect.data() + 900, big.data(), 100);
  EXPECT_EQ(expect, a.Read());
}

TEST_F(MemcpyTest, CopiesInvolvingFreedMemoryAreRejected) {
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtFree(p));
  std::vector<uint8_t> host(4096, 1);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(p, 4096, host.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(host.data(), 4096, p, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset(p, 4096, 0, 4096));
  EXPECT_TRUE(AllBytesAre(host.data(), host.size(), 1));
}

TEST_F(MemcpyTest, PageableSourceMayBeReusedAsSoonAsTheCallReturns) {
  constexpr size_t n = 1 << 20;
  Stream s;
  DevBuf dev(n);
  std::vector<uint8_t> src = RandomBytes(n, 78);
  const std::vector<uint8_t> original = src;
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  FillRandom(src.data(), n, 79);  // overwritten right away
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(original, dev.Read());
}

TEST_F(MemcpyTest, PageableSourceIsCapturedEvenWhileTheStreamIsBlocked) {
  constexpr size_t n = 1 << 20;
  Stream s;
  DevBuf dev(n);
  std::vector<uint8_t> src = RandomBytes(n, 80);
  const std::vector<uint8_t> original = src;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, src.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n / 2, src.data(), n / 2, ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, s));
  FillRandom(src.data(), n, 81);
  src.assign(16, 0);  // even freed and reallocated
  src.shrink_to_fit();
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(original, dev.Read());
}

TEST_F(MemcpyTest, PinnedSourceIsReadWhenTheCopyRuns) {
  constexpr size_t n = 256 << 10;
  Stream s;
  DevBuf dev(n);
  PinnedBuf pinned(n);
  FillRandom(pinned.get(), n, 82);
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, pinned.get(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  FillRandom(pinned.get(), n, 83);  // the copy has not run yet: it reads these bytes
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(RandomBytes(n, 83), dev.Read());
}

TEST_F(MemcpyTest, PageableDestinationIsWrittenWhenTheCallReturns) {
  constexpr size_t n = 1 << 20;
  Stream s;
  DevBuf dev(n);
  const std::vector<uint8_t> data = RandomBytes(n, 84);
  ASSERT_ACL_OK(dev.Upload(data.data(), n));
  std::vector<uint8_t> out(n, 0);
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.data(), n, dev.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  EXPECT_EQ(data, out) << "a copy into pageable memory completes before the call returns";
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
}

TEST_F(MemcpyTest, AsyncCopiesOnOneStreamRunInOrder) {
  constexpr size_t n = 128 << 10;
  constexpr int kSteps = 32;
  Stream s;
  DevBuf dev(n);
  PinnedBuf out(n * kSteps);
  std::vector<std::vector<uint8_t>> data;
  for (int i = 0; i < kSteps; ++i) data.push_back(RandomBytes(n, 300 + i));
  for (int i = 0; i < kSteps; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, data[i].data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
    ASSERT_ACL_OK(aclrtMemcpyAsync(out.bytes() + i * n, n, dev.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  for (int i = 0; i < kSteps; ++i) {
    EXPECT_EQ(-1, FirstDifference(out.bytes() + i * n, data[i].data(), n)) << i;
  }
}

TEST_F(MemcpyTest, AsyncWithConditionIsAnAsyncCopy) {
  Stream s;
  DevBuf dev(4096);
  const std::vector<uint8_t> data = RandomBytes(4096, 85);
  ASSERT_ACL_OK(aclrtMemcpyAsyncWithCondition(dev.get(), 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(data, dev.Read());
}

// ---------------------------------------------------------------------------------------------
// 2D copies
// ---------------------------------------------------------------------------------------------

TEST_F(MemcpyTest, Copy2dRoundTripKeepsPadding) {
  constexpr size_t width = 100, height = 37, spitch = 128, dpitch = 160, hpitch = 112;
  const std::vector<uint8_t> src = RandomBytes(spitch * height, 86);
  DevBuf dev(dpitch * height);
  const std::vector<uint8_t> pad = RandomBytes(dpitch * height, 87);
  ASSERT_ACL_OK(dev.Upload(pad.data(), pad.size()));
  for (bool async : {false, true}) {
    SCOPED_TRACE(async ? "async" : "sync");
    Stream s;
    if (async) {
      ASSERT_ACL_OK(aclrtMemcpy2dAsync(dev.get(), dpitch, src.data(), spitch, width, height,
                                       ACL_MEMCPY_HOST_TO_DEVICE, s));
    } else {
      ASSERT_ACL_OK(aclrtMemcpy2d(dev.get(), dpitch, src.data(), spitch, width, height, ACL_MEMCPY_HOST_TO_DEVICE));
    }
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    const std::vector<uint8_t> d = dev.Read();
    for (size_t r = 0; r < height; ++r) {
      ASSERT_EQ(-1, FirstDifference(d.data() + r * dpitch, src.data() + r * spitch, width)) << "row " << r;
      ASSERT_EQ(-1, FirstDifference(d.data() + r * dpitch + width, pad.data() + r * dpitch + width, dpitch - width))
          << "padding of row " << r << " was written";
    }
    std::vector<uint8_t> back(hpitch * height, 0xCD);
    if (async) {
      ASSERT_ACL_OK(aclrtMemcpy2dAsync(back.data(), hpitch, dev.get(), dpitch, width, height,
                                       ACL_MEMCPY_DEVICE_TO_HOST, s));
    } else {
      ASSERT_ACL_OK(aclrtMemcpy2d(back.data(), hpitch, dev.get(), dpitch, width, height, ACL_MEMCPY_DEVICE_TO_HOST));
    }
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    for (size_t r = 0; r < height; ++r) {
      ASSERT_EQ(-1, FirstDifference(back.data() + r * hpitch, src.data() + r * spitch, width)) << "row " << r;
      ASSERT_TRUE(AllBytesAre(back.data() + r * hpitch + width, hpitch - width, 0xCD)) << "row " << r;
    }
  }
}

TEST_F(MemcpyTest, Copy2dArgumentErrors) {
  DevBuf dev(64 * 64);
  const std::vector<uint8_t> old = RandomBytes(64 * 64, 88);
  ASSERT_ACL_OK(dev.Upload(old.data(), old.size()));
  const std::vector<uint8_t> src = RandomBytes(128 * 128, 89);
  // width larger than a pitch, zero sizes, bad kind, overrun of the destination allocation.
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(dev.get(), 32, src.data(), 64, 33, 2, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(dev.get(), 64, src.data(), 32, 33, 2, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(dev.get(), 64, src.data(), 64, 0, 2, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(dev.get(), 64, src.data(), 64, 16, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpy2d(dev.get(), 64, src.data(), 64, 16, 2, static_cast<aclrtMemcpyKind>(99)));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(dev.get(), 64, src.data(), 64, 64, 65, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(dev.get(), 100, src.data(), 100, 64, 42, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(dev.get(), 64, dev.get(), 64, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE))
      << "direction mismatch";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpy2dAsync(dev.get(), 64, src.data(), 64, 64, 65, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy2d(nullptr, 64, src.data(), 64, 16, 2, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_EQ(old, dev.Read());
}

// ---------------------------------------------------------------------------------------------
// Fills
// ---------------------------------------------------------------------------------------------

TEST_F(MemcpyTest, MemsetSyncAndAsync) {
  constexpr size_t n = 8192;
  DevBuf dev(n);
  const std::vector<uint8_t> old = RandomBytes(n, 90);
  ASSERT_ACL_OK(dev.Upload(old.data(), n));
  ASSERT_ACL_OK(aclrtMemset(dev.bytes() + 100, n - 100, 0x1AB, 1000));  // the value is truncated to a byte
  std::vector<uint8_t> expect = old;
  std::memset(expect.data() + 100, 0xAB, 1000);
  EXPECT_EQ(expect, dev.Read());
  Stream s;
  ASSERT_ACL_OK(aclrtMemsetAsync(dev.bytes() + 4000, n - 4000, -1, 3000, s));
  std::memset(expect.data() + 4000, 0xFF, 3000);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(expect, dev.Read());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset(dev.get(), 10, 0, 11)) << "count > maxCount";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset(nullptr, 10, 0, 10));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(dev.get(), 10, 0, 11, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(expect, dev.Read());
}

TEST_F(MemcpyTest, MemsetOnPinnedHostMemory) {
  PinnedBuf h(4096);
  FillRandom(h.get(), 4096, 91);
  ASSERT_ACL_OK(aclrtMemset(h.get(), 4096, 0x3C, 2048));
  EXPECT_TRUE(AllBytesAre(h.get(), 2048, 0x3C));
  EXPECT_EQ(-1, FirstDifference(h.bytes() + 2048, RandomBytes(4096, 91).data() + 2048, 2048));
  Stream s;
  ASSERT_ACL_OK(aclrtMemsetAsync(h.get(), 4096, 0x4D, 4096, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_TRUE(AllBytesAre(h.get(), 4096, 0x4D));
}

TEST_F(MemcpyTest, MemsetD32SyncAndAsync) {
  constexpr size_t words = 2048;
  DevBuf dev(words * 4);
  const std::vector<uint8_t> old = RandomBytes(words * 4, 92);
  ASSERT_ACL_OK(dev.Upload(old.data(), old.size()));
  ASSERT_ACL_OK(aclrtMemsetD32(dev.bytes() + 16, words * 4 - 16, 0xDEADBEEFu, 100));
  std::vector<uint8_t> expect = old;
  for (size_t i = 0; i < 100; ++i) {
    const uint32_t v = 0xDEADBEEFu;
    std::memcpy(expect.data() + 16 + 4 * i, &v, 4);
  }
  EXPECT_EQ(expect, dev.Read());
  Stream s;
  ASSERT_ACL_OK(aclrtMemsetD32Async(dev.bytes() + 4096, words * 4 - 4096, 0x01020304u, 1024, s));
  for (size_t i = 0; i < 1024; ++i) {
    const uint32_t v = 0x01020304u;
    std::memcpy(expect.data() + 4096 + 4 * i, &v, 4);
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(expect, dev.Read());
  EXPECT_NE(ACL_SUCCESS, aclrtMemsetD32(dev.bytes() + 2, 64, 1, 4)) << "the pointer must be 4-byte aligned";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(dev.get(), 15, 1, 4)) << "4 words need 16 bytes";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32(nullptr, 16, 1, 4));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetD32Async(dev.get(), 15, 1, 4, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(expect, dev.Read());
}

TEST_F(MemcpyTest, LargeAsyncRoundTripThroughTwoStreams) {
  constexpr size_t n = 24 << 20;
  Stream up, down;
  Event uploaded;
  DevBuf dev(n);
  PinnedBuf src(n), out(n);
  FillRandom(src.get(), n, 93);
  std::memset(out.get(), 0, n);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, src.get(), n, ACL_MEMCPY_HOST_TO_DEVICE, up));
  ASSERT_ACL_OK(aclrtRecordEvent(uploaded, up));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(down, uploaded));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), n, dev.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, down));
  ASSERT_ACL_OK(aclrtSynchronizeStream(down));
  EXPECT_EQ(-1, FirstDifference(out.get(), src.get(), n));
}

TEST_F(MemcpyTest, SynchronousFillsAcceptHostMemoryAsynchronousOnesRefusePageable) {
  // CANN tells host from device memory by the address: aclrtMemset and aclrtMemsetD32 fill either.
  std::vector<uint8_t> host = RandomBytes(1000, 77);
  std::vector<uint8_t> expect = host;
  std::memset(expect.data() + 100, 0x5a, 500);
  ASSERT_ACL_OK(aclrtMemset(host.data() + 100, 900, 0x5a, 500));
  EXPECT_EQ(expect, host);
  std::vector<uint32_t> words(64, 7);
  ASSERT_ACL_OK(aclrtMemsetD32(words.data() + 8, 56 * 4, 0xdeadbeefu, 40));
  for (size_t i = 0; i < words.size(); ++i) {
    EXPECT_EQ(i >= 8 && i < 48 ? 0xdeadbeefu : 7u, words[i]) << "word " << i;
  }
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemset(host.data(), 10, 0, 11)) << "count > maxCount";
  // An asynchronous fill runs after the call returned: pageable memory is refused.
  Stream s;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemsetAsync(host.data(), host.size(), 0, host.size(), s));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtMallocHost"), std::string::npos);
}

}  // namespace
}  // namespace cts
