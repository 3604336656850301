// Devices: count, set/reset reference counting, invalid ids, ASCEND_RT_VISIBLE_DEVICES, device
// information and capabilities, priority range, id mappings, peer access, device synchronization.
#include <set>
#include <string>

#include "test_util.h"

namespace cts {
namespace {

using DeviceTest = CtsNoDeviceTest;

TEST_F(DeviceTest, CountIsPositive) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetDeviceCount(&count));
  EXPECT_GE(count, 1u);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCount(nullptr));
}

TEST_F(DeviceTest, GetDeviceWithoutSetFails) {
  // A fresh thread has no current context.
  std::thread([] {
    int32_t dev = 12345;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
    EXPECT_EQ(12345, dev) << "the output must not be written on failure";
    aclrtContext ctx = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetCurrentContext(&ctx));
    ClearErrorState();
  }).join();
}

TEST_F(DeviceTest, SetDeviceMakesItCurrentPerThread) {
  const uint32_t n = DeviceCount();
  ASSERT_ACL_OK(aclrtSetDevice(0));
  int32_t dev = -1;
  ASSERT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(0, dev);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDevice(nullptr));
  if (n >= 2) {
    std::thread([] {
      ASSERT_ACL_OK(aclrtSetDevice(1));
      int32_t d = -1;
      EXPECT_ACL_OK(aclrtGetDevice(&d));
      EXPECT_EQ(1, d);
      EXPECT_ACL_OK(aclrtResetDevice(1));
    }).join();
    ASSERT_ACL_OK(aclrtGetDevice(&dev));
    EXPECT_EQ(0, dev) << "another thread's aclrtSetDevice must not change this thread's device";
    ASSERT_ACL_OK(aclrtSetDevice(1));
    ASSERT_ACL_OK(aclrtGetDevice(&dev));
    EXPECT_EQ(1, dev);
    EXPECT_ACL_OK(aclrtResetDevice(1));
  }
  EXPECT_ACL_OK(aclrtResetDevice(0));
}

TEST_F(DeviceTest, InvalidDeviceIdsAreRejected) {
  const int32_t n = static_cast<int32_t>(DeviceCount());
  for (int32_t bad : {-1, n, n + 1, 1 << 20, INT32_MIN}) {
    SCOPED_TRACE(bad);
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtSetDevice(bad));
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDevice(bad));
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtResetDeviceForce(bad));
    aclrtContext ctx = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtCreateContext(&ctx, bad));
    int64_t v = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetDeviceInfo(static_cast<uint32_t>(bad),
                                                                     ACL_DEV_ATTR_AICORE_CORE_NUM, &v));
    int32_t can = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceCanAccessPeer(&can, 0, bad));
    aclrtDeviceStatus status;
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtQueryDeviceStatus(bad, &status));
    int32_t phy = 0;
    EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtGetPhyDevIdByLogicDevId(bad, &phy));
  }
  int32_t dev = -1;
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev)) << "failed sets must not set a device";
}

TEST_F(DeviceTest, SetDeviceIsReferenceCounted) {
  CTS_REQUIRE_DEVICES(2);
  uint32_t flags = 0;
  int32_t active = -1;
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, &flags, &active));
  EXPECT_EQ(0, active);
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, &flags, &active));
  EXPECT_EQ(1, active);
  ASSERT_ACL_OK(aclrtResetDevice(1));
  // One reference left: the default context and its streams live on.
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, &flags, &active));
  EXPECT_EQ(1, active);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  int32_t dev = -1;
  EXPECT_ACL_OK(aclrtGetDevice(&dev));
  EXPECT_EQ(1, dev);
  ASSERT_ACL_OK(aclrtResetDevice(1));
  // Released: the stream of the default context went with it.
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, &flags, &active));
  EXPECT_EQ(0, active);
  EXPECT_BAD_HANDLE(aclrtSynchronizeStream(s));
  EXPECT_NE(ACL_SUCCESS, aclrtResetDevice(1)) << "resetting a device that is not set is an error";
  EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtGetDevice(&dev));
  // And it can be set again.
  ASSERT_ACL_OK(aclrtSetDevice(1));
  EXPECT_ACL_OK(aclrtResetDevice(1));
}

TEST_F(DeviceTest, ResetDeviceForceReleasesEveryReference) {
  CTS_REQUIRE_DEVICES(2);
  for (int i = 0; i < 3; ++i) {
    ASSERT_ACL_OK(aclrtSetDevice(1));
  }
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&p, 1 << 16, ACL_MEM_MALLOC_HUGE_FIRST));
  ASSERT_ACL_OK(aclrtResetDeviceForce(1));
  uint32_t flags = 0;
  int32_t active = -1;
  ASSERT_ACL_OK(aclrtGetPrimaryCtxState(1, &flags, &active));
  EXPECT_EQ(0, active);
  EXPECT_BAD_HANDLE(aclrtSynchronizeStream(s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MEMORY_FREE, aclrtFree(p)) << "the default context's memory was released";
  EXPECT_NE(ACL_SUCCESS, aclrtResetDevice(1));
  EXPECT_NE(ACL_SUCCESS, aclrtResetDeviceForce(1));
}

TEST_F(DeviceTest, ThreadsShareTheDefaultContextOfADevice) {
  ASSERT_ACL_OK(aclrtSetDevice(0));
  aclrtContext mine = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&mine));
  aclrtContext theirs = nullptr;
  std::thread([&] {
    ASSERT_ACL_OK(aclrtSetDevice(0));
    EXPECT_ACL_OK(aclrtGetCurrentContext(&theirs));
    EXPECT_ACL_OK(aclrtResetDevice(0));
  }).join();
  EXPECT_EQ(mine, theirs) << "aclrtSetDevice reuses the process-wide default context";
  EXPECT_ACL_OK(aclrtResetDevice(0));
}

// ---------------------------------------------------------------------------------------------
// ASCEND_RT_VISIBLE_DEVICES (fresh processes)
// ---------------------------------------------------------------------------------------------

CTS_CHILD(visible_devices) {
  uint32_t count = 0;
  ChildReport("count_rc", aclrtGetDeviceCount(&count));
  ChildReport("count", count);
  for (uint32_t i = 0; i < count; ++i) {
    int32_t phy = -1;
    const std::string key = "phy" + std::to_string(i);
    if (aclrtGetPhyDevIdByLogicDevId(static_cast<int32_t>(i), &phy) == ACL_SUCCESS) ChildReport(key.c_str(), phy);
    int32_t back = -1;
    if (aclrtGetLogicDevIdByPhyDevId(phy, &back) == ACL_SUCCESS) ChildReport(("logic" + key).c_str(), back);
  }
  const aclError set0 = aclrtSetDevice(0);
  ChildReport("set0", set0);
  if (set0 == ACL_SUCCESS) {
    int64_t mem = 0;
    ChildReport("info0", aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &mem));
    ChildReport("reset0", aclrtResetDevice(0));
  }
  ChildReport("set_count", aclrtSetDevice(static_cast<int32_t>(count)));
  return 0;
}

TEST_F(DeviceTest, VisibleDevicesRenumbersDevices) {
  const uint32_t physical = DeviceCount();
  if (physical < 2) GTEST_SKIP() << "needs 2 devices";
  ChildResult r = RunChild("visible_devices", {{"ASCEND_RT_VISIBLE_DEVICES", "1"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("count_rc"));
  EXPECT_EQ(1, r.Int("count"));
  EXPECT_EQ(1, r.Int("phy0")) << "logical device 0 is physical device 1";
  EXPECT_EQ(0, r.Int("logicphy0"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("set0"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("info0"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("reset0"));
  EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, r.Int("set_count")) << "the physical id is not a valid logical id";
}

TEST_F(DeviceTest, VisibleDevicesListingAllDevices) {
  const uint32_t physical = DeviceCount();
  std::string all;
  for (uint32_t i = 0; i < physical; ++i) all += (i ? "," : "") + std::to_string(i);
  ChildResult r = RunChild("visible_devices", {{"ASCEND_RT_VISIBLE_DEVICES", all}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(static_cast<long long>(physical), r.Int("count"));
  for (uint32_t i = 0; i < physical; ++i) {
    EXPECT_EQ(static_cast<long long>(i), r.Int("phy" + std::to_string(i)));
  }
}

TEST_F(DeviceTest, VisibleDevicesParsingStopsAtTheFirstInvalidEntry) {
  const uint32_t physical = DeviceCount();
  if (physical < 2) GTEST_SKIP() << "needs 2 devices";
  // Non-ascending, garbage, and ids that do not exist.
  const struct {
    const char* spec;
    long long count;
    long long phy0;
  } cases[] = {
      {"1,0", 1, 1},
      {"0,x,1", 1, 0},
      {"1,1", 1, 1},
      {"1,999", 1, 1},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.spec);
    ChildResult r = RunChild("visible_devices", {{"ASCEND_RT_VISIBLE_DEVICES", c.spec}});
    ASSERT_EQ(0, r.exit_code) << r.output;
    EXPECT_EQ(c.count, r.Int("count"));
    EXPECT_EQ(c.phy0, r.Int("phy0"));
  }
}

TEST_F(DeviceTest, VisibleDevicesWithNoValidIdLeavesNoDevice) {
  ChildResult r = RunChild("visible_devices", {{"ASCEND_RT_VISIBLE_DEVICES", "999"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(0, r.Int("count"));
  const long long set0 = r.Int("set0");
  EXPECT_TRUE(set0 == ACL_ERROR_RT_INVALID_DEVICEID || set0 == ACL_ERROR_RT_NO_DEVICE) << set0;
}

// ---------------------------------------------------------------------------------------------
// Information and capabilities
// ---------------------------------------------------------------------------------------------

using DeviceInfoTest = CtsTest;

TEST_F(DeviceInfoTest, EveryAttributeHasAPlausibleValue) {
  const aclrtDevAttr attrs[] = {
      ACL_DEV_ATTR_AICPU_CORE_NUM,       ACL_DEV_ATTR_AICORE_CORE_NUM,        ACL_DEV_ATTR_CUBE_CORE_NUM,
      ACL_DEV_ATTR_VECTOR_CORE_NUM,      ACL_DEV_ATTR_WARP_SIZE,              ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE,
      ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, ACL_DEV_ATTR_MAX_GRID_DIM_X,         ACL_DEV_ATTR_MAX_GRID_DIM_Y,
      ACL_DEV_ATTR_MAX_GRID_DIM_Z,       ACL_DEV_ATTR_MAX_BLOCK_PER_GRID,     ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK,
      ACL_DEV_ATTR_MAX_BLOCK_DIM_X,      ACL_DEV_ATTR_MAX_BLOCK_DIM_Y,        ACL_DEV_ATTR_MAX_BLOCK_DIM_Z,
      ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, ACL_DEV_ATTR_L2_CACHE_SIZE,         ACL_DEV_ATTR_SMP_ID,
      ACL_DEV_ATTR_PHY_CHIP_ID,          ACL_DEV_ATTR_SUPER_POD_DEVICE_ID,    ACL_DEV_ATTR_SUPER_POD_SERVER_ID,
      ACL_DEV_ATTR_SUPER_POD_ID,         ACL_DEV_ATTR_CUST_OP_PRIVILEGE,      ACL_DEV_ATTR_MAINBOARD_ID,
      ACL_DEV_ATTR_HD_CONNECT_TYPE,      ACL_DEV_ATTR_DEVICE_FORM_FACTOR,     ACL_DEV_ATTR_IS_VIRTUAL,
      ACL_DEV_ATTR_NPU_ARCH,
  };
  for (uint32_t dev = 0; dev < DeviceCount(); ++dev) {
    for (aclrtDevAttr a : attrs) {
      int64_t v = -12345;
      EXPECT_ACL_OK(aclrtGetDeviceInfo(dev, a, &v)) << "attribute " << a;
      EXPECT_GE(v, 0) << "attribute " << a;
    }
    int64_t cores = 0, mem = 0, l2 = 0;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(dev, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
    ASSERT_ACL_OK(aclrtGetDeviceInfo(dev, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &mem));
    ASSERT_ACL_OK(aclrtGetDeviceInfo(dev, ACL_DEV_ATTR_L2_CACHE_SIZE, &l2));
    EXPECT_GT(cores, 0);
    EXPECT_GE(mem, int64_t(16) << 20);
    EXPECT_GT(l2, 0);
    int64_t form = -1, conn = -1, virt = -1;
    ASSERT_ACL_OK(aclrtGetDeviceInfo(dev, ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &form));
    ASSERT_ACL_OK(aclrtGetDeviceInfo(dev, ACL_DEV_ATTR_HD_CONNECT_TYPE, &conn));
    ASSERT_ACL_OK(aclrtGetDeviceInfo(dev, ACL_DEV_ATTR_IS_VIRTUAL, &virt));
    EXPECT_LE(form, 3);
    EXPECT_LE(conn, 2);
    EXPECT_LE(virt, 1);
  }
}

TEST_F(DeviceInfoTest, TotalMemoryMatchesMemInfo) {
  int64_t total_attr = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE, &total_attr));
  size_t free = 0, total = 0;
  ASSERT_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free, &total));
  EXPECT_EQ(static_cast<size_t>(total_attr), total);
}

TEST_F(DeviceInfoTest, BadAttributeAndNullOutputAreRejected) {
  int64_t v = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceInfo(0, static_cast<aclrtDevAttr>(9999), &v));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, nullptr));
}

TEST_F(DeviceInfoTest, BaseDeviceCapabilityAgreesWithDeviceInfo) {
  int64_t cores = 0, via_base = 0, vec = 0, l2 = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  ASSERT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_AI_CORE_NUM, &via_base));
  EXPECT_EQ(cores, via_base);
  EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_VECTOR_CORE_NUM, &vec));
  EXPECT_GT(vec, 0);
  EXPECT_ACL_OK(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, &l2));
  EXPECT_GT(l2, 0);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED, &l2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclGetDeviceCapability(DeviceCount(), ACL_DEVICE_INFO_L2_SIZE, &l2));
}

TEST_F(DeviceInfoTest, FeatureCapabilities) {
  int32_t v = -1;
  EXPECT_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
  EXPECT_EQ(ACL_DEV_FEATURE_SUPPORT, v) << "kernel tasks of a model instance can be updated";
  v = -1;
  EXPECT_ACL_OK(aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v));
  EXPECT_EQ(ACL_DEV_FEATURE_NOT_SUPPORT, v);
  v = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceCapability(0, static_cast<aclrtDevFeatureType>(777), &v));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtGetDeviceCapability(0, ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, nullptr));
}

TEST_F(DeviceInfoTest, StreamPriorityRange) {
  int32_t least = -1, greatest = -1;
  ASSERT_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_EQ(0, greatest) << "0 is the highest priority";
  EXPECT_EQ(7, least);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetStreamPriorityRange(nullptr, &greatest));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetStreamPriorityRange(&least, nullptr));
}

TEST_F(DeviceInfoTest, StatusUuidUtilizationAndSatMode) {
  std::set<std::string> uuids;
  for (uint32_t d = 0; d < DeviceCount(); ++d) {
    aclrtDeviceStatus status = ACL_RT_DEVICE_STATUS_ABNORMAL;
    EXPECT_ACL_OK(aclrtQueryDeviceStatus(static_cast<int32_t>(d), &status));
    EXPECT_EQ(ACL_RT_DEVICE_STATUS_NORMAL, status);
    aclrtUuid uuid;
    std::memset(&uuid, 0, sizeof uuid);
    ASSERT_ACL_OK(aclrtDeviceGetUuid(static_cast<int32_t>(d), &uuid));
    uuids.insert(std::string(uuid.bytes, sizeof uuid.bytes));
  }
  EXPECT_EQ(DeviceCount(), uuids.size()) << "device UUIDs must be distinct";
  aclrtUtilizationInfo util;
  ASSERT_ACL_OK(aclrtGetDeviceUtilizationRate(0, &util));
  for (int32_t u : {util.cubeUtilization, util.vectorUtilization, util.aicpuUtilization, util.memoryUtilization}) {
    EXPECT_TRUE(u == -1 || (u >= 0 && u <= 100)) << u;
  }
  aclrtFloatOverflowMode mode = ACL_RT_OVERFLOW_MODE_UNDEF;
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  const aclrtFloatOverflowMode original = mode;
  EXPECT_EQ(ACL_RT_OVERFLOW_MODE_INFNAN, original) << "devices start in INF/NAN mode (every test restores it)";
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_INFNAN));
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(ACL_RT_OVERFLOW_MODE_INFNAN, mode);
  ASSERT_ACL_OK(aclrtSetDeviceSatMode(ACL_RT_OVERFLOW_MODE_SATURATION));
  ASSERT_ACL_OK(aclrtGetDeviceSatMode(&mode));
  EXPECT_EQ(ACL_RT_OVERFLOW_MODE_SATURATION, mode);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceSatMode(static_cast<aclrtFloatOverflowMode>(42)));
  EXPECT_ACL_OK(aclrtSetDeviceSatMode(original));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryDeviceStatus(0, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetUuid(0, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceUtilizationRate(0, nullptr));
}

TEST_F(DeviceInfoTest, IdMappingsRoundTrip) {
  for (int32_t d = 0; d < static_cast<int32_t>(DeviceCount()); ++d) {
    int32_t phy = -1, logic = -1, user = -1, back = -1;
    ASSERT_ACL_OK(aclrtGetPhyDevIdByLogicDevId(d, &phy));
    ASSERT_ACL_OK(aclrtGetLogicDevIdByPhyDevId(phy, &logic));
    EXPECT_EQ(d, logic);
    ASSERT_ACL_OK(aclrtGetUserDevIdByLogicDevId(d, &user));
    ASSERT_ACL_OK(aclrtGetLogicDevIdByUserDevId(user, &back));
    EXPECT_EQ(d, back);
    ASSERT_ACL_OK(aclrtGetPhyDevIdByUserDevId(user, &back));
    EXPECT_EQ(phy, back);
    ASSERT_ACL_OK(aclrtGetUserDevIdByPhyDevId(phy, &back));
    EXPECT_EQ(user, back);
  }
  int32_t out = 0;
  EXPECT_NE(ACL_SUCCESS, aclrtGetLogicDevIdByPhyDevId(100000, &out));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetPhyDevIdByLogicDevId(0, nullptr));
}

TEST_F(DeviceInfoTest, TsDevice) {
  EXPECT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AICORE));
  EXPECT_ACL_OK(aclrtSetTsDevice(ACL_TS_ID_AIVECTOR));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetTsDevice(static_cast<aclrtTsId>(99)));
}

// ---------------------------------------------------------------------------------------------
// Peer access
// ---------------------------------------------------------------------------------------------

class PeerTest : public CtsTest {
 protected:
  void SetUp() override {
    CtsTest::SetUp();
    if (IsSkipped() || HasFatalFailure()) return;
    CTS_REQUIRE_DEVICES(2);
  }
};

TEST_F(PeerTest, CanAccessPeer) {
  int32_t can = -1;
  ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 0, 1));
  EXPECT_EQ(1, can);
  ASSERT_ACL_OK(aclrtDeviceCanAccessPeer(&can, 1, 0));
  EXPECT_EQ(1, can);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceCanAccessPeer(&can, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceCanAccessPeer(nullptr, 0, 1));
}

TEST_F(PeerTest, EnableAndDisable) {
  int32_t status = -1;
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(0, status);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceEnablePeerAccess(1, 1)) << "flags must be 0";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceEnablePeerAccess(0, 0)) << "a device is not its own peer";
  EXPECT_ACL_ERR(ACL_ERROR_RT_INVALID_DEVICEID, aclrtDeviceEnablePeerAccess(static_cast<int32_t>(DeviceCount()), 0));
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(1, status);
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  ASSERT_ACL_OK(aclrtDevicePeerAccessStatus(0, 1, &status));
  EXPECT_EQ(0, status);
  EXPECT_NE(ACL_SUCCESS, aclrtDeviceDisablePeerAccess(1)) << "disabling twice is an error";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDevicePeerAccessStatus(0, 1, nullptr));
}

TEST_F(PeerTest, CrossDeviceCopiesNeedPeerAccess) {
  constexpr size_t kSize = 64 << 10;
  const std::vector<uint8_t> data = RandomBytes(kSize, 11);
  const std::vector<uint8_t> sentinel = RandomBytes(kSize, 12);
  DevBuf src0(kSize);
  ASSERT_TRUE(src0.ok());
  ASSERT_ACL_OK(src0.Upload(data.data(), kSize));
  aclrtContext ctx0 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  void* dst1 = nullptr;
  ASSERT_ACL_OK(aclrtMalloc(&dst1, kSize, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
  ASSERT_ACL_OK(aclrtMemcpy(dst1, kSize, sentinel.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
  std::vector<uint8_t> back(kSize);

  // Refused without peer access, before any byte moves.
  for (aclrtMemcpyKind kind : {ACL_MEMCPY_DEVICE_TO_DEVICE, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, ACL_MEMCPY_DEFAULT}) {
    EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(dst1, kSize, src0.get(), kSize, kind)) << "kind " << kind;
  }
  EXPECT_NE(ACL_SUCCESS, aclrtMemcpyAsync(dst1, kSize, src0.get(), kSize, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kSize, dst1, kSize, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(sentinel, back) << "a refused copy must not move any byte";
  // INNER_DEVICE_TO_DEVICE never crosses devices.
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemcpy(dst1, kSize, src0.get(), kSize, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE));

  // Works with it, synchronously and on a stream.
  ASSERT_ACL_OK(aclrtMemcpy(dst1, kSize, src0.get(), kSize / 2, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpyAsync(static_cast<uint8_t*>(dst1) + kSize / 2, kSize / 2, src0.bytes() + kSize / 2,
                                 kSize / 2, ACL_MEMCPY_DEVICE_TO_DEVICE, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), kSize, dst1, kSize, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(data, back);
  ASSERT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  EXPECT_NE(ACL_SUCCESS, aclrtMemcpy(dst1, kSize, src0.get(), kSize, ACL_MEMCPY_DEVICE_TO_DEVICE))
      << "refused again once peer access is disabled";

  EXPECT_ACL_OK(aclrtFree(dst1));
  EXPECT_ACL_OK(aclrtResetDevice(1));
}

// ---------------------------------------------------------------------------------------------
// Device synchronization
// ---------------------------------------------------------------------------------------------

using DeviceSyncTest = CtsTest;

TEST_F(DeviceSyncTest, SynchronizeDeviceWaitsForEveryStream) {
  constexpr size_t kSize = 1 << 20;
  constexpr int kStreams = 4;
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<std::unique_ptr<DevBuf>> dev;
  std::vector<std::unique_ptr<PinnedBuf>> out;
  std::vector<std::vector<uint8_t>> data;
  for (int i = 0; i < kStreams; ++i) {
    streams.push_back(std::make_unique<Stream>());
    dev.push_back(std::make_unique<DevBuf>(kSize));
    out.push_back(std::make_unique<PinnedBuf>(kSize));
    data.push_back(RandomBytes(kSize, 100 + i));
    std::memset(out[i]->get(), 0, kSize);
    ASSERT_ACL_OK(aclrtMemcpyAsync(dev[i]->get(), kSize, data[i].data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE,
                                   *streams[i]));
    ASSERT_ACL_OK(aclrtMemcpyAsync(out[i]->get(), kSize, dev[i]->get(), kSize, ACL_MEMCPY_DEVICE_TO_HOST,
                                   *streams[i]));
  }
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  for (int i = 0; i < kStreams; ++i) {
    EXPECT_EQ(-1, FirstDifference(out[i]->get(), data[i].data(), kSize)) << i;
  }
}

TEST_F(DeviceSyncTest, SynchronizeDeviceWithTimeoutExpiresOnBlockedWork) {
  Stream s;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  const aclError e = aclrtSynchronizeDeviceWithTimeout(30);
  EXPECT_TRUE(e == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || e == ACL_ERROR_RT_TASK_TIMEOUT) << e;
  ASSERT_ACL_OK(gate.Open());
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(10000));
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(-1));
  EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(0)) << "0 polls: nothing is pending any more";
}

TEST_F(DeviceSyncTest, BadTimeoutsAndMissingContext) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeDeviceWithTimeout(-2));
  std::thread([] {
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDevice());
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtSynchronizeDeviceWithTimeout(10));
    ClearErrorState();
  }).join();
}

TEST_F(DeviceSyncTest, SynchronizeDeviceCoversOnlyTheCurrentDevice) {
  CTS_REQUIRE_DEVICES(2);
  aclrtContext ctx0 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtStream s1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  {
    DeviceGate gate;  // device 1
    ASSERT_ACL_OK(gate.Block(s1));
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
    EXPECT_ACL_OK(aclrtSynchronizeDeviceWithTimeout(5000)) << "device 1's blocked stream is not device 0's work";
    ASSERT_ACL_OK(aclrtSetDevice(1));
    const aclError e = aclrtSynchronizeDeviceWithTimeout(20);
    EXPECT_TRUE(e == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || e == ACL_ERROR_RT_TASK_TIMEOUT) << e;
    ASSERT_ACL_OK(gate.Open());
  }
  EXPECT_ACL_OK(aclrtDestroyStream(s1));
  ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
  EXPECT_ACL_OK(aclrtResetDevice(1));
  EXPECT_ACL_OK(aclrtResetDevice(1));
}

using ResourceLimitTest = CtsTest;

TEST_F(ResourceLimitTest, CoreLimitsForDeviceStreamAndThread) {
  // The limits name cores of the simulated SoC (up to 24 cube / 48 vector).
  uint32_t base = 0;
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_VECTOR_CORE, &base));
  EXPECT_GT(base, 0u);
  ASSERT_ACL_OK(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 8));
  uint32_t v = 0;
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(8u, v);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 100000));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceResLimit(0, static_cast<aclrtDevResLimitType>(7), 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, nullptr));
  EXPECT_NE(ACL_SUCCESS, aclrtSetDeviceResLimit(999, ACL_RT_DEV_RES_CUBE_CORE, 1));
  // A stream's limit stays within the device's, and the thread that uses the stream's resources sees it.
  Stream s;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 9));
  ASSERT_ACL_OK(aclrtSetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, 3));
  ASSERT_ACL_OK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(3u, v);
  ASSERT_ACL_OK(aclrtUseStreamResInCurrentThread(s));
  ASSERT_ACL_OK(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(3u, v);
  ASSERT_ACL_OK(aclrtUnuseStreamResInCurrentThread(s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtUnuseStreamResInCurrentThread(s)) << "not in use any more";
  ASSERT_ACL_OK(aclrtResetStreamResLimit(s));
  ASSERT_ACL_OK(aclrtGetStreamResLimit(s, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(8u, v) << "back to the device's limit";
  ASSERT_ACL_OK(aclrtResetDeviceResLimit(0));
  ASSERT_ACL_OK(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v));
  EXPECT_EQ(base, v);
}

}  // namespace
}  // namespace cts
