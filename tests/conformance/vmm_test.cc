// Virtual memory management: granularity, physical allocations, reservations, mappings with data,
// aliases of one physical allocation, access rights, handle retention and lifetime, address ranges,
// and every bad input (maps over mapped ranges, unmaps of unmapped ranges, releases of mapped ranges,
// out-of-range offsets, stale handles).
#include <cstring>

#include "test_util.h"

namespace cts {
namespace {

using VmmTest = CtsTest;

aclrtPhysicalMemProp Prop(aclrtMemAttr attr = ACL_HBM_MEM_HUGE, uint32_t device = 0) {
  aclrtPhysicalMemProp p = {};
  p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  p.memAttr = attr;
  p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = device;
  return p;
}

size_t Granularity() {
  aclrtPhysicalMemProp p = Prop();
  size_t g = 0;
  EXPECT_ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &g));
  return g;
}

void Upload(void* dev, const std::vector<uint8_t>& data) {
  ASSERT_ACL_OK(aclrtMemcpy(dev, data.size(), data.data(), data.size(), ACL_MEMCPY_HOST_TO_DEVICE));
}

std::vector<uint8_t> Download(const void* dev, size_t n) {
  std::vector<uint8_t> out(n);
  EXPECT_ACL_OK(aclrtMemcpy(out.data(), n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST));
  return out;
}

TEST_F(VmmTest, Granularity) {
  const size_t g = Granularity();
  EXPECT_EQ(2u << 20, g);
  size_t r = 0;
  aclrtPhysicalMemProp p = Prop();
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED, &r));
  EXPECT_EQ(0u, r % g);
  p = Prop(ACL_HBM_MEM_HUGE1G);
  ASSERT_ACL_OK(aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &r));
  EXPECT_EQ(1u << 30, r);
  p = Prop();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF, &r));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAllocationGranularity(nullptr, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &r));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, nullptr));
  p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &r));
  p = Prop(ACL_HBM_MEM_HUGE, DeviceCount());
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID,
                 aclrtMemGetAllocationGranularity(&p, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &r));
}

TEST_F(VmmTest, ReserveMapCopyUnmapRelease) {
  const size_t g = Granularity();
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  aclrtPhysicalMemProp prop = Prop();
  aclrtDrvMemHandle h = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&h, 2 * g, &prop, 0));
  size_t free1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_LE(free1 + 2 * g, free0) << "physical memory is taken from the device";
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 4 * g, 0, nullptr, 0));
  ASSERT_NE(nullptr, va);
  EXPECT_EQ(0u, reinterpret_cast<uintptr_t>(va) % g);
  ASSERT_ACL_OK(aclrtMapMem(va, 2 * g, 0, h, 0));
  const std::vector<uint8_t> data = RandomBytes(2 * g, 7);
  Upload(va, data);
  EXPECT_EQ(-1, FirstDifference(data.data(), Download(va, data.size()).data(), data.size()));
  aclrtPtrAttributes attr;
  ASSERT_ACL_OK(aclrtPointerGetAttributes(static_cast<char*>(va) + 5, &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, attr.location.type);
  void* base = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtMemGetAddressRange(static_cast<char*>(va) + g + 3, &base, &size));
  EXPECT_EQ(va, base);
  EXPECT_EQ(2 * g, size);
  // Copies may not run past the mapped part of the reservation.
  std::vector<uint8_t> big(3 * g);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(va, big.size(), big.data(), big.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(va, 16, data.data(), 16, ACL_MEMCPY_HOST_TO_DEVICE)) << "unmapped";
  ClearErrorState();
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(h));
  size_t free2 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free2, &total));
  EXPECT_EQ(free0, free2);
}

TEST_F(VmmTest, TwoMappingsOfOnePhysicalAllocationAlias) {
  const size_t g = Granularity();
  aclrtPhysicalMemProp prop = Prop();
  aclrtDrvMemHandle h = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&h, 2 * g, &prop, 0));
  void* a = nullptr;
  void* b = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&a, 2 * g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&b, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(a, 2 * g, 0, h, 0));
  ASSERT_ACL_OK(aclrtMapMem(b, g, g, h, 0));  // the second page only
  const std::vector<uint8_t> data = RandomBytes(g, 11);
  Upload(static_cast<char*>(a) + g, data);
  EXPECT_EQ(-1, FirstDifference(data.data(), Download(b, g).data(), g)) << "b shows a's second page";
  ASSERT_ACL_OK(aclrtMemsetD32(b, g, 0xdeadbeef, 4));
  uint32_t words[4];
  ASSERT_ACL_OK(aclrtMemcpy(words, 16, static_cast<char*>(a) + g, 16, ACL_MEMCPY_DEVICE_TO_HOST));
  for (uint32_t w : words) EXPECT_EQ(0xdeadbeefu, w);
  ASSERT_ACL_OK(aclrtUnmapMem(a));
  ASSERT_ACL_OK(aclrtUnmapMem(b));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(a));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(b));
  ASSERT_ACL_OK(aclrtFreePhysical(h));
}

TEST_F(VmmTest, AccessRights) {
  const size_t g = Granularity();
  aclrtPhysicalMemProp prop = Prop();
  aclrtDrvMemHandle h = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&h, g, &prop, 0));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMemMapNoAccess(va, g, 0, h, 0));
  aclrtMemLocation loc = {0, ACL_MEM_LOCATION_TYPE_DEVICE};
  uint64_t flags = 99;
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &loc, &flags));
  EXPECT_EQ(static_cast<uint64_t>(ACL_RT_MEM_ACCESS_FLAGS_NONE), flags);
  const std::vector<uint8_t> data = RandomBytes(4096, 3);
  EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(va, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE)) << "no access yet";
  ClearErrorState();
  aclrtMemAccessDesc desc = {};
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  desc.location = loc;
  ASSERT_ACL_OK(aclrtMemSetAccess(va, g, &desc, 1));
  Upload(va, data);
  ASSERT_ACL_OK(aclrtMemGetAccess(va, &loc, &flags));
  EXPECT_EQ(static_cast<uint64_t>(ACL_RT_MEM_ACCESS_FLAGS_READWRITE), flags);
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READ;
  ASSERT_ACL_OK(aclrtMemSetAccess(va, g, &desc, 1));
  EXPECT_EQ(-1, FirstDifference(data.data(), Download(va, 4096).data(), 4096)) << "readable";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemcpy(va, 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE))
      << "read-only memory is not a copy destination";
  desc.flags = static_cast<aclrtMemAccessFlags>(2);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemSetAccess(va, g, &desc, 1));
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  desc.location.type = ACL_MEM_LOCATION_TYPE_HOST;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemSetAccess(va, g, &desc, 1));
  desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemSetAccess(va, 2 * g, &desc, 1)) << "past the mapping";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemSetAccess(va, g, nullptr, 1));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(h));
}

TEST_F(VmmTest, HandlesLiveWhileMappedAndCanBeRetained) {
  const size_t g = Granularity();
  aclrtPhysicalMemProp prop = Prop(ACL_HBM_MEM_NORMAL);
  aclrtDrvMemHandle h = nullptr;
  ASSERT_ACL_OK(aclrtMallocPhysical(&h, g, &prop, 0));
  aclrtPhysicalMemProp back = {};
  ASSERT_ACL_OK(aclrtMemGetAllocationPropertiesFromHandle(h, &back));
  EXPECT_EQ(ACL_HBM_MEM_NORMAL, back.memAttr);
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, back.location.type);
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, g, 0, h, 0));
  aclrtDrvMemHandle retained = nullptr;
  ASSERT_ACL_OK(aclrtMemRetainAllocationHandle(static_cast<char*>(va) + 100, &retained));
  EXPECT_EQ(h, retained);
  ASSERT_ACL_OK(aclrtFreePhysical(h));  // one reference left (the retained one)
  ASSERT_ACL_OK(aclrtFreePhysical(retained));
  EXPECT_BAD_HANDLE(aclrtFreePhysical(h)) << "every reference was dropped";
  // The mapping keeps the pages: the memory still works until it is unmapped.
  const std::vector<uint8_t> data = RandomBytes(8192, 5);
  Upload(va, data);
  EXPECT_EQ(-1, FirstDifference(data.data(), Download(va, data.size()).data(), data.size()));
  size_t free0 = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  size_t free1 = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
  EXPECT_EQ(free0 + g, free1) << "the last mapping gave the pages back";
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

TEST_F(VmmTest, BadInput) {
  const size_t g = Granularity();
  aclrtPhysicalMemProp prop = Prop();
  aclrtDrvMemHandle h = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, g + 1, &prop, 0)) << "not a granularity multiple";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, 0, &prop, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(&h, g, &prop, 1)) << "flags";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocPhysical(nullptr, g, &prop, 0));
  EXPECT_NE(ACL_SUCCESS, aclrtMallocPhysical(&h, size_t(1) << 50, &prop, 0)) << "absurd size";
  ClearErrorState();
  ASSERT_ACL_OK(aclrtMallocPhysical(&h, 2 * g, &prop, 0));
  void* va = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&va, g + 1, 0, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(&va, g, 3, nullptr, 0)) << "alignment";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddress(nullptr, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 4 * g, 0, nullptr, 0));
  char* v = static_cast<char*>(va);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(va, 4 * g, 0, h, 0)) << "larger than the allocation";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(va, g, 2 * g, h, 0)) << "offset past the allocation";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(v + 3 * g, 2 * g, 0, h, 0)) << "past the reservation";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(v + 1, g, 0, h, 0)) << "unaligned";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(va, g, 0, nullptr, 0));
  int host = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(&host, g, 0, h, 0)) << "not a reserved address";
  ASSERT_ACL_OK(aclrtMapMem(v + g, 2 * g, 0, h, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(va, 2 * g, 0, h, 0)) << "overlaps the mapping";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMapMem(v + 2 * g, g, 0, h, 0)) << "over a mapped range";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtUnmapMem(va)) << "nothing mapped there";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtUnmapMem(v + 2 * g)) << "not a mapping's start";
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtReleaseMemAddress(va)) << "still mapped";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReleaseMemAddress(v + g)) << "not a reservation's start";
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(v + g)) << "aclrtFree does not take virtual memory";
  ASSERT_ACL_OK(aclrtUnmapMem(v + g));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtUnmapMem(v + g)) << "unmapped twice";
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReleaseMemAddress(va)) << "released twice";
  aclrtDrvMemHandle none = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemRetainAllocationHandle(va, &none));
  ASSERT_ACL_OK(aclrtFreePhysical(h));
  EXPECT_BAD_HANDLE(aclrtFreePhysical(h));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtFreePhysical(nullptr));
  void* vb = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&vb, g, 0, nullptr, 0));
  EXPECT_BAD_HANDLE(aclrtMapMem(vb, g, 0, h, 0)) << "a freed handle";
  ASSERT_ACL_OK(aclrtReleaseMemAddress(vb));
}

TEST_F(VmmTest, ReservationHonoursAFreeExpectedAddress) {
  const size_t g = Granularity();
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, 2 * g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  void* again = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&again, 2 * g, 0, va, 0));
  EXPECT_EQ(va, again);
  void* fixed = nullptr;
  EXPECT_NE(ACL_SUCCESS, aclrtReserveMemAddressNoUCMemory(&fixed, g, 0, va, 0)) << "that range is taken";
  ClearErrorState();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtReserveMemAddressNoUCMemory(&fixed, g, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(again));
  ASSERT_ACL_OK(aclrtReserveMemAddressNoUCMemory(&fixed, g, 0, va, 0));
  EXPECT_EQ(va, fixed);
  ASSERT_ACL_OK(aclrtReleaseMemAddress(fixed));
}

TEST_F(VmmTest, AddressRangeOfAllocatorMemory) {
  DevBuf buf(10000);
  void* base = nullptr;
  size_t size = 0;
  ASSERT_ACL_OK(aclrtMemGetAddressRange(buf.bytes() + 9999, &base, &size));
  EXPECT_EQ(buf.get(), base);
  EXPECT_EQ(10000u, size);
  ASSERT_ACL_OK(aclrtMemGetAddressRange(buf.get(), nullptr, &size));
  int host = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(&host, &base, &size));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(buf.get(), nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemGetAddressRange(buf.bytes() + 10000, &base, &size)) << "past the end";
}

TEST_F(VmmTest, CheckMemType) {
  const size_t g = Granularity();
  DevBuf buf(4096);
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, g, 0, nullptr, 0));
  void* dev[] = {buf.get()};
  void* rsvd[] = {va};
  int host = 0;
  void* mixed[] = {buf.get(), &host};
  uint32_t result = 7;
  ASSERT_ACL_OK(aclrtCheckMemType(dev, 1, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_EQ(1u, result);
  ASSERT_ACL_OK(aclrtCheckMemType(rsvd, 1, ACL_RT_MEM_TYPE_RSVD, &result, 0));
  EXPECT_EQ(1u, result);
  ASSERT_ACL_OK(aclrtCheckMemType(rsvd, 1, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_EQ(0u, result);
  ASSERT_ACL_OK(aclrtCheckMemType(mixed, 2, ACL_RT_MEM_TYPE_DEV, &result, 0));
  EXPECT_EQ(0u, result);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(dev, 1, 0x80, &result, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCheckMemType(dev, 1, ACL_RT_MEM_TYPE_DEV, &result, 1));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
}

}  // namespace
}  // namespace cts
