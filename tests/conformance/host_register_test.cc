// Registration of existing host memory (aclrtHostRegister / V2 / GetDevicePointer / Unregister) and the
// host memory-map capabilities.
#include <cstdlib>

#include "test_util.h"

namespace cts {
namespace {

using HostRegisterTest = CtsTest;

struct HostBuffer {
  explicit HostBuffer(size_t n) : size(n), ptr(static_cast<uint8_t*>(std::aligned_alloc(4096, n))) {}
  ~HostBuffer() { std::free(ptr); }
  size_t size;
  uint8_t* ptr;
};

TEST_F(HostRegisterTest, RegisteredMemoryIsUsableByAsyncCopies) {
  HostBuffer host(1 << 20);
  FillRandom(host.ptr, host.size, 21);
  void* dev_view = nullptr;
  ASSERT_ACL_OK(aclrtHostRegister(host.ptr, host.size, ACL_HOST_REGISTER_MAPPED, &dev_view));
  ASSERT_NE(nullptr, dev_view);
  void* inner = nullptr;
  ASSERT_ACL_OK(aclrtHostGetDevicePointer(host.ptr + 4096, &inner, 0));
  EXPECT_EQ(static_cast<uint8_t*>(dev_view) + 4096, inner);
  aclrtPtrAttributes attr;
  ASSERT_ACL_OK(aclrtPointerGetAttributes(host.ptr + 100, &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_HOST, attr.location.type) << "registered memory is host memory";
  DevBuf dev(host.size);
  Stream s;
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), host.size, host.ptr, host.size, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::vector<uint8_t> back = dev.Read();
  EXPECT_EQ(-1, FirstDifference(host.ptr, back.data(), host.size));
  ASSERT_ACL_OK(aclrtHostUnregister(host.ptr));
  ASSERT_ACL_OK(aclrtPointerGetAttributes(host.ptr + 100, &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_UNREGISTERED, attr.location.type);
}

TEST_F(HostRegisterTest, V2FlagsAndErrors) {
  HostBuffer a(64 << 10), b(64 << 10);
  ASSERT_ACL_OK(aclrtHostRegisterV2(a.ptr, a.size, ACL_HOST_REG_MAPPED | ACL_HOST_REG_PINNED));
  EXPECT_ACL_ERR(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, aclrtHostRegisterV2(a.ptr, a.size, ACL_HOST_REG_MAPPED));
  EXPECT_ACL_ERR(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
                 aclrtHostRegisterV2(a.ptr + 4096, 4096, ACL_HOST_REG_MAPPED)) << "overlaps";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(b.ptr, b.size, 0x40)) << "unknown flag";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(nullptr, 4096, ACL_HOST_REG_MAPPED));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostRegisterV2(b.ptr, 0, ACL_HOST_REG_MAPPED));
  ASSERT_ACL_OK(aclrtHostRegisterV2(b.ptr, b.size, ACL_HOST_REG_READONLY | ACL_HOST_REG_MAPPED));
  void* d = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(b.ptr, &d, 1)) << "flag must be 0";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostGetDevicePointer(b.ptr, nullptr, 0));
  std::vector<uint8_t> other(64);
  EXPECT_ACL_ERR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostGetDevicePointer(other.data(), &d, 0));
  EXPECT_ACL_ERR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostUnregister(a.ptr + 4096)) << "not the start";
  EXPECT_ACL_ERR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostUnregister(other.data()));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostRegister(a.ptr, a.size, static_cast<aclrtHostRegisterType>(3), &d));
  ASSERT_ACL_OK(aclrtHostUnregister(a.ptr));
  ASSERT_ACL_OK(aclrtHostUnregister(b.ptr));
  EXPECT_ACL_ERR(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, aclrtHostUnregister(a.ptr)) << "twice";
}

TEST_F(HostRegisterTest, MapCapabilities) {
  aclrtHostMemMapCapability cap = ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
  ASSERT_ACL_OK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, &cap));
  EXPECT_EQ(ACL_RT_HOST_MEM_MAP_SUPPORTED, cap);
  ASSERT_ACL_OK(aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_RDMA, &cap));
  EXPECT_EQ(ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED, cap);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostMemMapCapabilities(0, static_cast<aclrtHacType>(99), &cap));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtHostMemMapCapabilities(DeviceCount(), ACL_RT_HAC_TYPE_AIC, &cap));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtHostMemMapCapabilities(0, ACL_RT_HAC_TYPE_AIC, nullptr));
}

}  // namespace
}  // namespace cts
