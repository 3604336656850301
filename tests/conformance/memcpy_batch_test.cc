// Batched copies (aclrtMemcpyBatch / V2 / Async / AsyncV2) and device-variable (symbol) copies.
#include <cstring>

#include "test_util.h"

namespace cts {
namespace {

using MemcpyBatchTest = CtsTest;

aclrtMemcpyBatchAttr Attr(aclrtMemLocationType dst, aclrtMemLocationType src) {
  aclrtMemcpyBatchAttr a = {};
  a.dstLoc = {0, dst};
  a.srcLoc = {0, src};
  return a;
}

struct Batch {
  std::vector<void*> dsts, srcs;
  std::vector<size_t> maxs, sizes;
  void Add(void* d, size_t max, const void* s, size_t n) {
    dsts.push_back(d);
    maxs.push_back(max);
    srcs.push_back(const_cast<void*>(s));
    sizes.push_back(n);
  }
};

TEST_F(MemcpyBatchTest, MixedDirectionsSyncAndAsync) {
  constexpr size_t kN = 64 << 10;
  const std::vector<uint8_t> a = RandomBytes(kN, 1), b = RandomBytes(kN, 2);
  DevBuf da(kN), db(kN), dc(kN);
  std::vector<uint8_t> out(kN);
  {
    // H2D, H2D, then D2D: attributes per run of copies.
    Batch batch;
    batch.Add(da.get(), kN, a.data(), kN);
    batch.Add(db.get(), kN, b.data(), kN);
    batch.Add(dc.get(), kN, da.get(), kN);
    aclrtMemcpyBatchAttr attrs[] = {Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST),
                                    Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_DEVICE)};
    size_t idx[] = {0, 2};
    size_t fail = 12345;
    ASSERT_ACL_OK(aclrtMemcpyBatch(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(), batch.sizes.data(), 3,
                                   attrs, idx, 2, &fail));
    EXPECT_EQ(SIZE_MAX, fail);
    EXPECT_EQ(-1, FirstDifference(a.data(), dc.Read().data(), kN));
    EXPECT_EQ(-1, FirstDifference(b.data(), db.Read().data(), kN));
  }
  {
    Stream s;
    PinnedBuf pinned(kN);
    Batch batch;
    batch.Add(pinned.get(), kN, db.get(), kN);
    aclrtMemcpyBatchAttr attrs[] = {Attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_DEVICE)};
    size_t idx[] = {0};
    size_t fail = 0;
    ASSERT_ACL_OK(aclrtMemcpyBatchAsync(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(), batch.sizes.data(), 1,
                                        attrs, idx, 1, &fail, s));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    EXPECT_EQ(-1, FirstDifference(b.data(), pinned.get(), kN));
    ASSERT_ACL_OK(aclrtMemcpyBatchAsyncV2(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(), batch.sizes.data(),
                                          1, attrs, idx, 1, s));
    ASSERT_ACL_OK(aclrtMemcpyBatchV2(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(), batch.sizes.data(), 1,
                                     attrs, idx, 1));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  }
}

TEST_F(MemcpyBatchTest, NothingMovesWhenOneCopyIsBad) {
  constexpr size_t kN = 4096;
  const std::vector<uint8_t> a = RandomBytes(kN, 3);
  DevBuf d0(kN), d1(kN), d2(kN);
  ASSERT_ACL_OK(aclrtMemset(d0.get(), kN, 0, kN));
  Batch batch;
  batch.Add(d0.get(), kN, a.data(), kN);
  batch.Add(d1.get(), kN, a.data(), kN);
  batch.Add(d2.get(), kN / 2, a.data(), kN);  // size > destMax
  aclrtMemcpyBatchAttr attrs[] = {Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST)};
  size_t idx[] = {0};
  size_t fail = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(),
                                                           batch.sizes.data(), 3, attrs, idx, 1, &fail));
  EXPECT_EQ(2u, fail);
  EXPECT_TRUE(AllBytesAre(d0.Read().data(), kN, 0)) << "validation happens before any copy";
  // A location that does not match the pointer.
  batch.maxs[2] = kN;
  aclrtMemcpyBatchAttr wrong[] = {Attr(ACL_MEM_LOCATION_TYPE_DEVICE, ACL_MEM_LOCATION_TYPE_HOST),
                                  Attr(ACL_MEM_LOCATION_TYPE_HOST, ACL_MEM_LOCATION_TYPE_HOST)};
  size_t widx[] = {0, 1};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(),
                                                           batch.sizes.data(), 3, wrong, widx, 2, &fail));
  EXPECT_EQ(1u, fail);
  // Malformed attribute tables are not tied to one copy.
  size_t bad_idx[] = {1};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(),
                                                           batch.sizes.data(), 3, attrs, bad_idx, 1, &fail));
  EXPECT_EQ(SIZE_MAX, fail);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(),
                                                           batch.sizes.data(), 0, attrs, idx, 1, &fail));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(nullptr, batch.maxs.data(), batch.srcs.data(),
                                                           batch.sizes.data(), 3, attrs, idx, 1, &fail));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpyBatch(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(),
                                                           batch.sizes.data(), 3, attrs, idx, 1, nullptr));
  aclrtStream dead = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&dead));
  ASSERT_ACL_OK(aclrtDestroyStream(dead));
  EXPECT_BAD_HANDLE(aclrtMemcpyBatchAsyncV2(batch.dsts.data(), batch.maxs.data(), batch.srcs.data(),
                                            batch.sizes.data(), 3, attrs, idx, 1, dead));
}

TEST_F(MemcpyBatchTest, SymbolsOfUnloadedCodeAreErrors) {
  static int not_a_device_variable = 0;
  void* p = nullptr;
  size_t size = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetSymbolAddress(&not_a_device_variable, &p));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetSymbolSize(&not_a_device_variable, &size));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetSymbolAddress(nullptr, &p));
  int v = 1;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyToSymbol(&not_a_device_variable, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyFromSymbol(&v, 4, &not_a_device_variable, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyToSymbolAsync(&not_a_device_variable, &v, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpyFromSymbolAsync(&v, 4, &not_a_device_variable, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, nullptr));
}

}  // namespace
}  // namespace cts
