// Sharing device memory between processes: IPC keys (aclrtIpcMem*) and shareable handles of physical
// allocations, each between two real processes (this one and a child running a CTS_CHILD scenario),
// with the pid whitelist honoured; plus same-process imports and every bad input (wrong keys, closed
// exports, foreign keys, short key buffers, ranges outside allocations).
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#include "test_util.h"

namespace cts {
namespace {

using IpcMemoryTest = CtsTest;

constexpr size_t kSize = 1 << 20;
constexpr uint64_t kSeed = 77;

// Reads kSize bytes at p and reports whether they are RandomBytes(kSize, seed).
long long MatchesSeed(const void* p, uint64_t seed) {
  std::vector<uint8_t> back(kSize);
  if (aclrtMemcpy(back.data(), kSize, p, kSize, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) return 0;
  const std::vector<uint8_t> want = RandomBytes(kSize, seed);
  return FirstDifference(want.data(), back.data(), kSize) == -1 ? 1 : 0;
}

// Child: imports an IPC key (first before, then after the parent allowed it), checks the parent's data,
// writes its own, closes the import.
CTS_CHILD(ipc_key_importer) {
  const std::string dir = EnvOr("CTS_IPC_DIR", "");
  const std::string key = EnvOr("CTS_IPC_KEY", "");
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  void* p = nullptr;
  ChildReport("import_before_allowed", aclrtIpcMemImportByKey(&p, key.c_str(), 0));
  WriteFile(dir + "/pid", std::to_string(getpid()));
  std::string go;
  if (!WaitForFile(dir + "/go", &go, 30)) return 3;
  const aclError rc = aclrtIpcMemImportByKey(&p, key.c_str(), 0);
  ChildReport("import", rc);
  if (rc != ACL_SUCCESS) return 4;
  ChildReport("data_matches", MatchesSeed(p, kSeed));
  const std::vector<uint8_t> mine = RandomBytes(kSize, kSeed + 1);
  ChildReport("wrote", aclrtMemcpy(p, kSize, mine.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE));
  ChildReport("close", aclrtIpcMemClose(key.c_str()));
  ChildReport("close_again", aclrtIpcMemClose(key.c_str()));
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return 0;
}

TEST_F(IpcMemoryTest, KeyBetweenTwoProcessesHonoursThePidList) {
  DevBuf buf(kSize);
  ASSERT_ACL_OK(buf.Upload(RandomBytes(kSize, kSeed).data(), kSize));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(buf.get(), kSize, key, sizeof key, 0));
  ASSERT_NE('\0', key[0]);
  const std::string dir = TempDir();
  ChildResult child;
  std::thread runner([&] {
    child = RunChild("ipc_key_importer", {{"CTS_IPC_DIR", dir}, {"CTS_IPC_KEY", key}}, 60);
  });
  std::string pid_text;
  const bool got_pid = WaitForFile(dir + "/pid", &pid_text, 30);
  if (got_pid) {
    int32_t pid = std::atoi(pid_text.c_str());
    EXPECT_ACL_OK(aclrtIpcMemSetImportPid(key, &pid, 1));
  }
  WriteFile(dir + "/go", "1");
  runner.join();
  ASSERT_TRUE(got_pid) << child.output;
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(ACL_ERROR_RT_NO_PERMISSION, child.Int("import_before_allowed")) << "not on the list yet";
  EXPECT_EQ(ACL_SUCCESS, child.Int("import"));
  EXPECT_EQ(1, child.Int("data_matches")) << "the child read our bytes";
  EXPECT_EQ(ACL_SUCCESS, child.Int("wrote"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("close"));
  EXPECT_NE(ACL_SUCCESS, child.Int("close_again"));
  EXPECT_EQ(1, MatchesSeed(buf.get(), kSeed + 1)) << "we read the child's bytes: one memory";
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  std::remove((dir + "/pid").c_str());
  std::remove((dir + "/go").c_str());
  rmdir(dir.c_str());
}

// Child: imports a shareable handle of a physical allocation, maps it, checks and overwrites the data.
CTS_CHILD(shareable_importer) {
  const uint64_t handle = std::strtoull(EnvOr("CTS_SHAREABLE", "0"), nullptr, 10);
  const size_t size = std::strtoull(EnvOr("CTS_SHAREABLE_SIZE", "0"), nullptr, 10);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtDrvMemHandle h = nullptr;
  const aclError rc = aclrtMemImportFromShareableHandle(handle, 0, &h);
  ChildReport("import", rc);
  if (rc != ACL_SUCCESS) return 0;
  void* va = nullptr;
  ChildReport("reserve", aclrtReserveMemAddress(&va, size, 0, nullptr, 0));
  ChildReport("map", aclrtMapMem(va, size, 0, h, 0));
  ChildReport("data_matches", MatchesSeed(va, kSeed));
  const std::vector<uint8_t> mine = RandomBytes(kSize, kSeed + 2);
  ChildReport("wrote", aclrtMemcpy(va, kSize, mine.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE));
  ChildReport("unmap", aclrtUnmapMem(va));
  ChildReport("release", aclrtReleaseMemAddress(va));
  ChildReport("free", aclrtFreePhysical(h));
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return 0;
}

struct Physical {
  aclrtDrvMemHandle handle = nullptr;
  void* va = nullptr;
  size_t size = 0;
};

Physical MakeMappedPhysical() {
  aclrtPhysicalMemProp prop = {};
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_NORMAL;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  Physical p;
  EXPECT_ACL_OK(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &p.size));
  EXPECT_ACL_OK(aclrtMallocPhysical(&p.handle, p.size, &prop, 0));
  EXPECT_ACL_OK(aclrtReserveMemAddress(&p.va, p.size, 0, nullptr, 0));
  EXPECT_ACL_OK(aclrtMapMem(p.va, p.size, 0, p.handle, 0));
  return p;
}

void Destroy(const Physical& p) {
  EXPECT_ACL_OK(aclrtUnmapMem(p.va));
  EXPECT_ACL_OK(aclrtReleaseMemAddress(p.va));
  EXPECT_ACL_OK(aclrtFreePhysical(p.handle));
}

TEST_F(IpcMemoryTest, ShareableHandleBetweenTwoProcesses) {
  Physical p = MakeMappedPhysical();
  ASSERT_ACL_OK(aclrtMemcpy(p.va, kSize, RandomBytes(kSize, kSeed).data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE));
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(p.handle, ACL_MEM_HANDLE_TYPE_NONE,
                                                ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION, &shareable));
  ChildResult child = RunChild("shareable_importer", {{"CTS_SHAREABLE", std::to_string(shareable)},
                                                      {"CTS_SHAREABLE_SIZE", std::to_string(p.size)}});
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(ACL_SUCCESS, child.Int("import")) << child.output;
  EXPECT_EQ(ACL_SUCCESS, child.Int("map"));
  EXPECT_EQ(1, child.Int("data_matches"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("wrote"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("free"));
  EXPECT_EQ(1, MatchesSeed(p.va, kSeed + 2)) << "the child's bytes are in our allocation";
  Destroy(p);
}

TEST_F(IpcMemoryTest, ShareableHandleRefusesProcessesNotOnTheList) {
  Physical p = MakeMappedPhysical();
  uint64_t shareable = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandle(p.handle, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
  int32_t someone_else = getpid() + 1000000;
  ASSERT_ACL_OK(aclrtMemSetPidToShareableHandle(shareable, &someone_else, 1));
  ChildResult child = RunChild("shareable_importer", {{"CTS_SHAREABLE", std::to_string(shareable)},
                                                      {"CTS_SHAREABLE_SIZE", std::to_string(p.size)}});
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(ACL_ERROR_RT_NO_PERMISSION, child.Int("import")) << child.output;
  Destroy(p);
  // Once the allocation is freed, its handle names nothing.
  aclrtDrvMemHandle h = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemImportFromShareableHandle(shareable, 0, &h));
}

TEST_F(IpcMemoryTest, CloseLetsQueuedWorkOnTheImportFinish) {
  // A copy out of an imported range queued just before aclrtIpcMemClose still reads the right bytes: the
  // close does not pull the pages from under work that was launched before it.
  DevBuf buf(kSize);
  const std::vector<uint8_t> data = RandomBytes(kSize, 11);
  ASSERT_ACL_OK(buf.Upload(data.data(), data.size()));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(buf.get(), kSize, key, sizeof key, 0));
  void* alias = nullptr;
  ASSERT_ACL_OK(aclrtIpcMemImportByKey(&alias, key, 0));
  Stream s;
  PinnedBuf out(kSize);
  std::memset(out.get(), 0, kSize);
  for (int i = 0; i < 8; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, alias, kSize, ACL_MEMCPY_DEVICE_TO_HOST, s));
  }
  ASSERT_ACL_OK(aclrtIpcMemClose(key));  // the import
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(-1, FirstDifference(data.data(), static_cast<const uint8_t*>(out.get()), kSize));
  ASSERT_ACL_OK(aclrtIpcMemClose(key));  // the export
}

TEST_F(IpcMemoryTest, SameProcessImportAliasesTheMemory) {
  DevBuf buf(kSize);
  char key[65] = {};
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(buf.bytes() + 4096, 8192, key, sizeof key, 0));
  void* alias = nullptr;
  ASSERT_ACL_OK(aclrtIpcMemImportByKey(&alias, key, 0));  // our own process is always allowed
  EXPECT_NE(buf.bytes() + 4096, alias);
  const std::vector<uint8_t> data = RandomBytes(8192, 9);
  ASSERT_ACL_OK(buf.Upload(data.data(), data.size(), 4096));
  std::vector<uint8_t> back(8192);
  ASSERT_ACL_OK(aclrtMemcpy(back.data(), back.size(), alias, back.size(), ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(-1, FirstDifference(data.data(), back.data(), data.size()));
  void* again = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey(&again, key, 0)) << "already imported";
  ASSERT_ACL_OK(aclrtIpcMemClose(key));  // the import
  ASSERT_ACL_OK(aclrtIpcMemClose(key));  // the export
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemClose(key));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey(&again, key, 0)) << "closed";
  // The V2 forms round-trip both handle kinds.
  Physical p = MakeMappedPhysical();
  uint64_t plain = 0;
  ASSERT_ACL_OK(aclrtMemExportToShareableHandleV2(p.handle, 0, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, &plain));
  aclrtMemFabricHandle fabric = {};
  ASSERT_ACL_OK(aclrtMemExportToShareableHandleV2(p.handle, 0, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &fabric));
  int32_t self = getpid();
  ASSERT_ACL_OK(aclrtMemSetPidToShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, &self, 1));
  aclrtDrvMemHandle h1 = nullptr, h2 = nullptr;
  ASSERT_ACL_OK(aclrtMemImportFromShareableHandleV2(&plain, ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT, 0, &h1));
  ASSERT_ACL_OK(aclrtMemImportFromShareableHandleV2(&fabric, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &h2));
  void* va = nullptr;
  ASSERT_ACL_OK(aclrtReserveMemAddress(&va, p.size, 0, nullptr, 0));
  ASSERT_ACL_OK(aclrtMapMem(va, p.size, 0, h2, 0));
  ASSERT_ACL_OK(aclrtMemsetD32(p.va, p.size, 0x12345678, 16));
  uint32_t word = 0;
  ASSERT_ACL_OK(aclrtMemcpy(&word, 4, va, 4, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(0x12345678u, word);
  ASSERT_ACL_OK(aclrtUnmapMem(va));
  ASSERT_ACL_OK(aclrtReleaseMemAddress(va));
  ASSERT_ACL_OK(aclrtFreePhysical(h1));
  ASSERT_ACL_OK(aclrtFreePhysical(h2));
  Destroy(p);
}

TEST_F(IpcMemoryTest, BadInput) {
  DevBuf buf(kSize);
  char key[65] = {};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemGetExportKey(buf.get(), kSize + 1, key, sizeof key, 0))
      << "past the allocation";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemGetExportKey(buf.get(), 0, key, sizeof key, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemGetExportKey(buf.get(), kSize, key, 4, 0)) << "key buffer";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemGetExportKey(buf.get(), kSize, key, sizeof key, 0x10));
  std::vector<uint8_t> host(64);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemGetExportKey(host.data(), 64, key, sizeof key, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemGetExportKey(nullptr, 64, key, sizeof key, 0));
  void* p = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey(&p, "no-such-key", 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey(&p, "npurt-ipc-1-999999", 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey(&p, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemImportByKey(nullptr, "npurt-ipc-1-1", 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemClose("npurt-ipc-1-999999"));
  int32_t pid = 1;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemSetImportPid("npurt-ipc-1-999999", &pid, 1)) << "not ours";
  ASSERT_ACL_OK(aclrtIpcMemGetExportKey(buf.get(), kSize, key, sizeof key, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemSetImportPid(key, nullptr, 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemSetImportPid(key, &pid, 0));
  int32_t bad = -5;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemSetImportPid(key, &bad, 1));
  EXPECT_ACL_OK(aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcMemSetAttr(key, ACL_RT_IPC_MEM_ATTR_ACCESS_LINK, 9));
  aclrtServerPid server = {0, &pid, 1};
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtIpcMemImportPidInterServer(key, &server, 1));
  ASSERT_ACL_OK(aclrtIpcMemClose(key));
  uint64_t shareable = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemExportToShareableHandle(nullptr, ACL_MEM_HANDLE_TYPE_NONE, 0, &shareable));
  aclrtDrvMemHandle h = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemImportFromShareableHandle(0, 0, &h));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemImportFromShareableHandle(0x0000000100000001ull, 0, &h));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtMemSetPidToShareableHandle(0x0000000100000001ull, &pid, 1));
  aclrtMemFabricHandle junk = {};
  std::memcpy(junk.data, "junk", 4);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtMemImportFromShareableHandleV2(&junk, ACL_MEM_SHARE_HANDLE_TYPE_FABRIC, 0, &h));
}

}  // namespace
}  // namespace cts
