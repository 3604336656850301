// Managed memory: allocation reachable from host and device, advice and range attributes, prefetch in
// stream order, and bad input.
#include <cstring>

#include "test_util.h"

namespace cts {
namespace {

using ManagedMemoryTest = CtsTest;

aclrtMemManagedLocation Device0() { return {ACL_MEM_LOCATIONTYPE_DEVICE, 0}; }
aclrtMemManagedLocation Host() { return {ACL_MEM_LOCATIONTYPE_HOST, 0}; }

int32_t Attr(aclrtMemManagedRangeAttribute a, const void* p, size_t size) {
  int32_t v = 12345;
  EXPECT_ACL_OK(aclrtMemManagedGetAttr(a, p, size, &v, sizeof v));
  return v;
}

TEST_F(ManagedMemoryTest, HostAndDeviceSeeTheSameBytes) {
  constexpr size_t kSize = 256 << 10;
  void* m = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&m, kSize, ACL_RT_MEM_ATTACH_GLOBAL));
  aclrtPtrAttributes attr;
  ASSERT_ACL_OK(aclrtPointerGetAttributes(static_cast<char*>(m) + 10, &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_MANAGED, attr.location.type);
  FillRandom(m, kSize, 5);  // the host writes it directly
  DevBuf dev(kSize);
  ASSERT_ACL_OK(aclrtMemcpy(dev.get(), kSize, m, kSize, ACL_MEMCPY_DEFAULT));
  std::vector<uint8_t> back = dev.Read();
  EXPECT_EQ(-1, FirstDifference(m, back.data(), kSize));
  ASSERT_ACL_OK(aclrtMemset(m, kSize, 0x7e, 1024));
  EXPECT_TRUE(AllBytesAre(m, 1024, 0x7e)) << "device writes are visible to the host";
  ASSERT_ACL_OK(aclrtFree(m));
  ASSERT_ACL_OK(aclrtPointerGetAttributes(dev.get(), &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, attr.location.type);
}

TEST_F(ManagedMemoryTest, AdviceAndAttributes) {
  constexpr size_t kSize = 1 << 20;
  void* m = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&m, kSize, ACL_RT_MEM_ATTACH_GLOBAL));
  EXPECT_EQ(0, Attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, kSize));
  EXPECT_EQ(-2, Attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, kSize)) << "none set";
  ASSERT_ACL_OK(aclrtMemManagedAdvise(m, kSize, ACL_MEM_ADVISE_SET_READ_MOSTLY, Device0()));
  EXPECT_EQ(1, Attr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 4096));
  ASSERT_ACL_OK(aclrtMemManagedAdvise(m, kSize, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Device0()));
  EXPECT_EQ(0, Attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, kSize));
  EXPECT_EQ(ACL_MEM_LOCATIONTYPE_DEVICE, Attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE, m, kSize));
  ASSERT_ACL_OK(aclrtMemManagedAdvise(m, kSize, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION, Host()));
  EXPECT_EQ(-1, Attr(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION, m, kSize)) << "the host";
  ASSERT_ACL_OK(aclrtMemManagedAdvise(m, kSize, ACL_MEM_ADVISE_SET_ACCESSED_BY, Device0()));
  int32_t by[4] = {};
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, kSize, by, sizeof by));
  EXPECT_EQ(0, by[0]);
  EXPECT_EQ(-2, by[1]);
  ASSERT_ACL_OK(aclrtMemManagedAdvise(m, kSize, ACL_MEM_ADVISE_UNSET_ACCESSED_BY, Device0()));
  ASSERT_ACL_OK(aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, kSize, by, sizeof by));
  EXPECT_EQ(-2, by[0]);
  ASSERT_ACL_OK(aclrtMemManagedAdvise(m, kSize, ACL_MEM_ADVISE_UNSET_READ_MOSTLY, Device0()));
  ASSERT_ACL_OK(aclrtMemManagedAdvise(m, kSize, ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION, Device0()));
  aclrtMemManagedRangeAttribute attrs[] = {ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY,
                                           ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE};
  int32_t v0 = 9, v1 = 9;
  void* data[] = {&v0, &v1};
  size_t sizes[] = {4, 4};
  ASSERT_ACL_OK(aclrtMemManagedGetAttrs(attrs, 2, m, kSize, data, sizes));
  EXPECT_EQ(0, v0);
  EXPECT_EQ(ACL_MEM_LOCATIONTYPE_INVALID, v1);
  ASSERT_ACL_OK(aclrtFree(m));
}

TEST_F(ManagedMemoryTest, PrefetchIsStreamOrdered) {
  constexpr size_t kSize = 64 << 10;
  void* m = nullptr;
  ASSERT_ACL_OK(aclrtMemAllocManaged(&m, kSize, ACL_RT_MEM_ATTACH_GLOBAL));
  Stream s;
  EXPECT_EQ(-2, Attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, kSize));
  ASSERT_ACL_OK(aclrtMemManagedPrefetchAsync(m, kSize, Device0(), 0, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(0, Attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION, m, kSize));
  const void* ptrs[] = {m, static_cast<char*>(m) + 4096};
  size_t sizes[] = {4096, 4096};
  aclrtMemManagedLocation locs[] = {Device0(), Host()};
  size_t idx[] = {0, 1};
  ASSERT_ACL_OK(aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, idx, 2, 0, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(ACL_MEM_LOCATIONTYPE_HOST, Attr(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE, m, kSize));
  size_t bad_idx[] = {1, 0};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedPrefetchBatchAsync(ptrs, sizes, 2, locs, bad_idx, 2, 0, s));
  ASSERT_ACL_OK(aclrtFree(m));
}

TEST_F(ManagedMemoryTest, BadInput) {
  void* m = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemAllocManaged(&m, 0, ACL_RT_MEM_ATTACH_GLOBAL));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemAllocManaged(&m, 64, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemAllocManaged(nullptr, 64, ACL_RT_MEM_ATTACH_GLOBAL));
  DevBuf plain(4096);
  int32_t v = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, plain.get(), 4096, &v, 4))
      << "not managed memory";
  ASSERT_ACL_OK(aclrtMemAllocManaged(&m, 8192, ACL_RT_MEM_ATTACH_GLOBAL));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 8193, &v, 4))
      << "past the allocation";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 64, &v, 2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY, m, 64, &v, 3));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemManagedGetAttr(static_cast<aclrtMemManagedRangeAttribute>(99), m, 64, &v, 4));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedAdvise(m, 64, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                                                {ACL_MEM_LOCATIONTYPE_INVALID, 0}));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtMemManagedAdvise(m, 64, ACL_MEM_ADVISE_SET_PREFERRED_LOCATION,
                                                                      {ACL_MEM_LOCATIONTYPE_DEVICE, 999}));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemManagedAdvise(m, 64, ACL_MEM_ADVISE_SET_ACCESSED_BY, {ACL_MEM_LOCATIONTYPE_HOST, 0}));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedAdvise(m, 64, static_cast<aclrtMemManagedAdviseType>(42),
                                                                {ACL_MEM_LOCATIONTYPE_HOST, 0}));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedPrefetchAsync(m, 64, Device0(), 1, nullptr)) << "flags";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedPrefetchAsync(plain.get(), 64, Device0(), 0, nullptr));
  ASSERT_ACL_OK(aclrtFree(m));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemManagedGetAttr(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY, m, 64, &v, 4))
      << "freed";
}

}  // namespace
}  // namespace cts
