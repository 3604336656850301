// The small device groups of acl_rt.h: compute groups, device-wide task abort with its callbacks,
// uncorrectable-memory-error reports and repairs, atomic capability queries, and the refused process
// snapshots.
#include <unistd.h>

#include <string>
#include <vector>

#include "test_util.h"

namespace cts {
namespace {

using DeviceExtrasTest = CtsTest;

TEST_F(DeviceExtrasTest, ComputeGroups) {
  uint32_t count = 0;
  ASSERT_ACL_OK(aclrtGetGroupCount(&count));
  ASSERT_EQ(1u, count);
  EXPECT_ACL_OK(aclrtSetGroup(0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetGroup(1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetGroup(-1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetGroupCount(nullptr));

  aclrtGroupInfo* info = aclrtCreateGroupInfo();
  ASSERT_NE(nullptr, info);
  int32_t value = -1;
  size_t ret = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, 4, &ret));
  ASSERT_ACL_OK(aclrtGetAllGroupInfo(info));
  int64_t cores = 0;
  ASSERT_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &cores));
  ASSERT_ACL_OK(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, sizeof(value), &ret));
  EXPECT_EQ(cores, value);
  EXPECT_EQ(sizeof(int32_t), ret);
  ASSERT_ACL_OK(aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_GROUPID_INT, &value, sizeof(value), &ret));
  EXPECT_EQ(0, value);
  for (aclrtGroupAttr attr : {ACL_GROUP_AIV_INT, ACL_GROUP_AIC_INT, ACL_GROUP_SDMANUM_INT, ACL_GROUP_ASQNUM_INT}) {
    value = -1;
    ASSERT_ACL_OK(aclrtGetGroupInfoDetail(info, 0, attr, &value, sizeof(value), &ret));
    EXPECT_GT(value, 0) << attr;
  }
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetGroupInfoDetail(info, 1, ACL_GROUP_AICORE_INT, &value, 4, &ret));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, 2, &ret));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtGetGroupInfoDetail(info, 0, static_cast<aclrtGroupAttr>(40), &value, 4, &ret));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, nullptr, 4, &ret));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetGroupInfoDetail(info, 0, ACL_GROUP_AICORE_INT, &value, 4, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetAllGroupInfo(nullptr));
  ASSERT_ACL_OK(aclrtDestroyGroupInfo(info));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyGroupInfo(info));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetAllGroupInfo(info));
  int local = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyGroupInfo(reinterpret_cast<aclrtGroupInfo*>(&local)));
}

struct AbortLog {
  std::vector<std::string> calls;
  int32_t fail_stage = -1;
};

int32_t RecordAbort(int32_t deviceId, aclrtDeviceTaskAbortStage stage, uint32_t timeout, void* args) {
  auto* log = static_cast<AbortLog*>(args);
  log->calls.push_back(std::to_string(deviceId) + ":" + std::to_string(stage) + ":" + std::to_string(timeout));
  return static_cast<int32_t>(stage) == log->fail_stage ? 1 : 0;
}

TEST_F(DeviceExtrasTest, DeviceTaskAbortRunsCallbacks) {
  AbortLog log;
  ASSERT_ACL_OK(aclrtSetDeviceTaskAbortCallback("cts_abort", &RecordAbort, &log));
  ASSERT_ACL_OK(aclrtDeviceTaskAbort(0, 500));
  ASSERT_EQ(2u, log.calls.size());
  EXPECT_EQ("0:0:500", log.calls[0]);
  EXPECT_EQ("0:1:500", log.calls[1]);
  log.fail_stage = ACL_RT_DEVICE_TASK_ABORT_POST;
  EXPECT_NE(ACL_SUCCESS, aclrtDeviceTaskAbort(0, 0));
  // A null callback removes the registration.
  ASSERT_ACL_OK(aclrtSetDeviceTaskAbortCallback("cts_abort", nullptr, nullptr));
  log.calls.clear();
  ASSERT_ACL_OK(aclrtDeviceTaskAbort(0, 0));
  EXPECT_TRUE(log.calls.empty());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetDeviceTaskAbortCallback(nullptr, &RecordAbort, &log));
  EXPECT_NE(ACL_SUCCESS, aclrtDeviceTaskAbort(4096, 0));
}

TEST_F(DeviceExtrasTest, DeviceTaskAbortDiscardsQueuedWorkOfEveryStream) {
  constexpr size_t kSize = 32 << 10;
  Stream s1, s2;
  DevBuf dev(kSize);
  const std::vector<uint8_t> before = RandomBytes(kSize, 91);
  ASSERT_ACL_OK(dev.Upload(before.data(), kSize));
  PinnedBuf src(kSize);
  FillRandom(src.get(), kSize, 92);
  DeviceGate g1, g2;
  ASSERT_ACL_OK(g1.Block(s1));
  ASSERT_ACL_OK(g2.Block(s2));
  for (int i = 0; i < 4; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s2));
  }
  ASSERT_ACL_OK(aclrtDeviceTaskAbort(0, 10000));
  EXPECT_EQ(before, dev.Read()) << "aborted tasks must not run";
  const std::vector<uint8_t> later = RandomBytes(kSize, 93);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, later.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s2));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s2));
  EXPECT_EQ(later, dev.Read()) << "work submitted after the abort runs";
}

TEST_F(DeviceExtrasTest, NoUncorrectableMemoryErrors) {
  std::vector<aclrtMemUceInfo> infos(4);
  size_t ret = 99;
  ASSERT_ACL_OK(aclrtGetMemUceInfo(0, infos.data(), infos.size(), &ret));
  EXPECT_EQ(0u, ret);
  EXPECT_ACL_OK(aclrtMemUceRepair(0, infos.data(), infos.size()));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUceInfo(0, nullptr, 4, &ret));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUceInfo(0, infos.data(), 4, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetMemUceInfo(0, infos.data(), 0, &ret));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemUceRepair(0, nullptr, 4));
  EXPECT_NE(ACL_SUCCESS, aclrtGetMemUceInfo(4096, infos.data(), 4, &ret));

  aclrtErrorInfo err;
  ASSERT_ACL_OK(aclrtGetErrorVerbose(0, &err));
  EXPECT_EQ(ACL_RT_NO_ERROR, err.errorType);
  EXPECT_ACL_OK(aclrtRepairError(0, &err));
  err.errorType = ACL_RT_ERROR_AICORE;
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtRepairError(0, &err));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRepairError(0, nullptr));
}

TEST_F(DeviceExtrasTest, UnsupportedFunctionsSayWhy) {
  void* addr = reinterpret_cast<void*>(0x1);
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtGetHardwareSyncAddr(&addr));
  const char* msg = aclGetRecentErrMsg();
  ASSERT_NE(nullptr, msg);
  EXPECT_NE(std::string(msg).find("aclrtGetHardwareSyncAddr"), std::string::npos) << msg;
  EXPECT_NE(std::string(msg).find("no hardware synchronisation registers"), std::string::npos) << msg;
  aclrtFuncHandle f = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtRegisterCpuFunc(nullptr, "f", "k", &f));
  msg = aclGetRecentErrMsg();
  ASSERT_NE(nullptr, msg);
  EXPECT_NE(std::string(msg).find("AI CPU kernels are not simulated"), std::string::npos) << msg;
}

TEST_F(DeviceExtrasTest, TaskSchedulerMemoryIsDeviceMemory) {
  void* p = nullptr;
  ASSERT_ACL_OK(aclrtMallocForTaskScheduler(&p, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  ASSERT_NE(nullptr, p);
  const std::vector<uint8_t> data = RandomBytes(1 << 20, 57);
  std::vector<uint8_t> back(data.size());
  ASSERT_ACL_OK(aclrtMemcpy(p, data.size(), data.data(), data.size(), ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), back.size(), p, data.size(), ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(data, back);
  aclrtPtrAttributes attr{};
  ASSERT_ACL_OK(aclrtPointerGetAttributes(p, &attr));
  EXPECT_EQ(ACL_MEM_LOCATION_TYPE_DEVICE, attr.location.type);
  EXPECT_ACL_OK(aclrtFree(p));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocForTaskScheduler(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMallocForTaskScheduler(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST, nullptr));
}

TEST_F(DeviceExtrasTest, AtomicCapabilities) {
  const aclrtAtomicOperation ops[] = {ACL_RT_ATOMIC_OPERATION_INTEGER_ADD, ACL_RT_ATOMIC_OPERATION_CAS,
                                      ACL_RT_ATOMIC_OPERATION_FLOAT_ADD, ACL_RT_ATOMIC_OPERATION_DMA_ADD};
  uint32_t caps[4] = {0xdead, 0xdead, 0xdead, 0xdead};
  ASSERT_ACL_OK(aclrtDeviceGetHostAtomicCapabilities(caps, ops, 4, 0));
  EXPECT_NE(0u, caps[0] & ACL_RT_ATOMIC_CAPABILITY_SCALAR64);
  EXPECT_NE(0u, caps[1] & ACL_RT_ATOMIC_CAPABILITY_SIGNED);
  EXPECT_NE(0u, caps[2] & ACL_RT_ATOMIC_CAPABILITY_SCALAR32);
  EXPECT_EQ(0u, caps[3]);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetHostAtomicCapabilities(nullptr, ops, 4, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetHostAtomicCapabilities(caps, nullptr, 4, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetHostAtomicCapabilities(caps, ops, 0, 0));
  if (DeviceCount() >= 2) {
    uint32_t p2p[4] = {};
    ASSERT_ACL_OK(aclrtDeviceGetP2PAtomicCapabilities(p2p, ops, 4, 0, 1));
    EXPECT_EQ(caps[0], p2p[0]);
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDeviceGetP2PAtomicCapabilities(p2p, ops, 4, 0, 0));
  }
}

TEST_F(DeviceExtrasTest, ProcessSnapshotsAreRefused) {
  const int pid = static_cast<int>(getpid());
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSnapShotProcessLock(pid, nullptr));
  EXPECT_NE(nullptr, aclGetRecentErrMsg());
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSnapShotProcessUnlock(pid, nullptr));
  aclrtSnapShotBackupArgs backup = {};
  aclrtSnapShotRestoreArgs restore = {};
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSnapShotProcessBackup(pid, &backup));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSnapShotProcessRestore(pid, &restore));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 aclrtSnapShotCallbackRegister(ACL_RT_SNAPSHOT_LOCK_PRE, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtSnapShotCallbackUnregister(ACL_RT_SNAPSHOT_LOCK_PRE, nullptr));
}

}  // namespace
}  // namespace cts
