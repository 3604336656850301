// Events and notifies shared between processes: IPC event handles and notify export keys, each between
// two real processes (this one and a CTS_CHILD child), with waits in one process released by records
// in the other, the notify pid allow-list honoured, and every bad input (non-IPC events, wrong handles
// and keys, short key buffers, processes not on the list).
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "test_util.h"

namespace cts {
namespace {

using IpcEventTest = CtsTest;
using IpcNotifyTest = CtsTest;

std::string ToHex(const void* p, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    const uint8_t b = static_cast<const uint8_t*>(p)[i];
    s += kHex[b >> 4];
    s += kHex[b & 15];
  }
  return s;
}

void FromHex(const std::string& s, void* p, size_t n) {
  for (size_t i = 0; i < n && 2 * i + 1 < s.size(); ++i) {
    static_cast<uint8_t*>(p)[i] = static_cast<uint8_t>(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  }
}

bool SyncBackend() { return std::strcmp(EnvOr("NPURT_SIM_MODE", ""), "sync") == 0; }

// Child: opens the parent's IPC event, checks its state, then records it behind a blocked task that it
// releases a little later, so that the parent's stream wait has to be woken by this process.
CTS_CHILD(ipc_event_peer) {
  const std::string dir = EnvOr("CTS_IPC_DIR", "");
  aclrtIpcEventHandle handle;
  FromHex(EnvOr("CTS_IPC_EVENT", ""), handle.reserved, sizeof handle.reserved);
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtEvent event = nullptr;
  const aclError rc = aclrtIpcOpenEventHandle(handle, &event);
  ChildReport("open", rc);
  if (rc != ACL_SUCCESS) return 3;
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  ChildReport("query", aclrtQueryEventStatus(event, &status));
  ChildReport("complete_at_open", status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
  aclrtStream stream = nullptr;
  aclrtStream releaser = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS || aclrtCreateStream(&releaser) != ACL_SUCCESS) return 4;
  ChildReport("wait_recorded", aclrtStreamWaitEvent(stream, event));
  void* gate = nullptr;
  if (aclrtMalloc(&gate, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 5;
  if (aclrtMemset(gate, 64, 0, 64) != ACL_SUCCESS) return 6;
  // Async backends: the record waits behind a value wait until the releaser stream writes the gate.
  if (!SyncBackend()) ChildReport("gate", aclrtValueWait(gate, 1, ACL_STREAM_WAIT_VALUE_GEQ, stream));
  ChildReport("record", aclrtRecordEvent(event, stream));
  WriteFile(dir + "/recorded", "1");
  std::string go;
  if (!WaitForFile(dir + "/waiting", &go, 30)) return 7;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (!SyncBackend()) ChildReport("release", aclrtValueWrite(gate, 1, 0, releaser));
  ChildReport("sync", aclrtSynchronizeStream(stream));
  ChildReport("destroy", aclrtDestroyEvent(event));
  (void)aclrtFree(gate);
  (void)aclrtDestroyStream(stream);
  (void)aclrtDestroyStream(releaser);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return 0;
}

TEST_F(IpcEventTest, WaitInOneProcessIsReleasedByARecordInAnother) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtRecordEvent(event, stream));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(event));
  aclrtIpcEventHandle handle;
  std::memset(&handle, 0, sizeof handle);
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &handle));
  const std::string dir = TempDir();
  ChildResult child;
  std::thread runner([&] {
    child = RunChild("ipc_event_peer",
                     {{"CTS_IPC_DIR", dir}, {"CTS_IPC_EVENT", ToHex(handle.reserved, sizeof handle.reserved)}}, 60);
  });
  std::string text;
  const bool recorded = WaitForFile(dir + "/recorded", &text, 30);
  // The child's record is submitted (the shared record count is 2) but held back: this wait parks our
  // stream until the child's device executes it.
  DevBuf out(256);
  const std::vector<uint8_t> data = RandomBytes(256, 5);
  PinnedBuf src(256);
  std::memcpy(src.get(), data.data(), 256);
  const auto start = std::chrono::steady_clock::now();
  if (recorded) {
    EXPECT_ACL_OK(aclrtStreamWaitEvent(stream, event));
    EXPECT_ACL_OK(aclrtMemcpyAsync(out.get(), 256, src.get(), 256, ACL_MEMCPY_HOST_TO_DEVICE, stream));
  }
  WriteFile(dir + "/waiting", "1");
  EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
  const auto waited = std::chrono::steady_clock::now() - start;
  runner.join();
  ASSERT_TRUE(recorded) << child.output;
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(ACL_SUCCESS, child.Int("open"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("query"));
  EXPECT_EQ(1, child.Int("complete_at_open")) << "our record had completed before the child opened the event";
  EXPECT_EQ(ACL_SUCCESS, child.Int("wait_recorded"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("record"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("sync"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("destroy"));
  if (!SyncBackend()) {
    EXPECT_GE(waited, std::chrono::milliseconds(90)) << "the stream waited for the child's record";
  }
  EXPECT_EQ(out.Read(), data);
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_ACL_OK(aclrtQueryEventStatus(event, &status));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, status);
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
  std::remove((dir + "/recorded").c_str());
  std::remove((dir + "/waiting").c_str());
  rmdir(dir.c_str());
}

TEST_F(IpcEventTest, HandleOpenedInTheSameProcessSharesTheEvent) {
  aclrtEvent event = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&event, ACL_EVENT_IPC));
  aclrtIpcEventHandle handle;
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(event, &handle));
  aclrtEvent opened = nullptr;
  ASSERT_ACL_OK(aclrtIpcOpenEventHandle(handle, &opened));
  ASSERT_NE(opened, event);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  ASSERT_ACL_OK(aclrtRecordEvent(opened, stream));
  EXPECT_ACL_OK(aclrtSynchronizeEvent(event)) << "a record of one handle completes the other";
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_ACL_OK(aclrtQueryEventStatus(event, &status));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, status);
  aclrtIpcEventHandle again;
  EXPECT_ACL_OK(aclrtIpcGetEventHandle(opened, &again)) << "an opened event can be handed on";
  EXPECT_ACL_OK(aclrtDestroyEvent(opened));
  EXPECT_ACL_OK(aclrtDestroyEvent(event));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
}

TEST_F(IpcEventTest, BadInputs) {
  aclrtEvent plain = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&plain, ACL_EVENT_SYNC));
  aclrtIpcEventHandle handle;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcGetEventHandle(plain, &handle)) << "not an IPC event";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcGetEventHandle(plain, nullptr));
  EXPECT_BAD_HANDLE(aclrtIpcGetEventHandle(nullptr, &handle));
  aclrtEvent e = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(&e, ACL_EVENT_IPC)) << "Ex only";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_SYNC));
  FillRandom(handle.reserved, sizeof handle.reserved, 9);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcOpenEventHandle(handle, &e)) << "random bytes";
  aclrtEvent ipc = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&ipc, ACL_EVENT_IPC));
  ASSERT_ACL_OK(aclrtIpcGetEventHandle(ipc, &handle));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtIpcOpenEventHandle(handle, nullptr));
  EXPECT_ACL_OK(aclrtDestroyEvent(ipc));
  EXPECT_ACL_OK(aclrtDestroyEvent(plain));
}

// Child: imports the parent's notify (first before, then after the parent allowed it) and records it
// three times, the first after a pause, so the parent's waits are released from this process.
CTS_CHILD(ipc_notify_peer) {
  const std::string dir = EnvOr("CTS_IPC_DIR", "");
  const std::string key = EnvOr("CTS_IPC_KEY", "");
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtNotify notify = nullptr;
  ChildReport("import_before_allowed", aclrtNotifyImportByKey(&notify, key.c_str(), 0));
  WriteFile(dir + "/pid", std::to_string(getpid()));
  std::string go;
  if (!WaitForFile(dir + "/go", &go, 30)) return 3;
  const aclError rc = aclrtNotifyImportByKey(&notify, key.c_str(), ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS);
  ChildReport("import", rc);
  if (rc != ACL_SUCCESS) return 4;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 5;
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  aclError record = ACL_SUCCESS;
  for (int i = 0; i < 3; ++i) {
    const aclError r = aclrtRecordNotify(notify, stream);
    if (r != ACL_SUCCESS) record = r;
  }
  ChildReport("record", record);
  ChildReport("sync", aclrtSynchronizeStream(stream));
  ChildReport("destroy", aclrtDestroyNotify(notify));
  (void)aclrtDestroyStream(stream);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return 0;
}

TEST_F(IpcNotifyTest, KeyBetweenTwoProcessesHonoursThePidList) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtNotifyGetExportKey(notify, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT));
  ASSERT_NE('\0', key[0]);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  const std::string dir = TempDir();
  ChildResult child;
  std::thread runner([&] { child = RunChild("ipc_notify_peer", {{"CTS_IPC_DIR", dir}, {"CTS_IPC_KEY", key}}, 60); });
  std::string pid_text;
  const bool got_pid = WaitForFile(dir + "/pid", &pid_text, 30);
  if (got_pid) {
    int32_t pid = std::atoi(pid_text.c_str());
    EXPECT_ACL_OK(aclrtNotifySetImportPid(notify, &pid, 1));
  }
  WriteFile(dir + "/go", "1");
  // Three waits consume the child's three records; the copy behind them runs only after the last.
  DevBuf out(128);
  const std::vector<uint8_t> data = RandomBytes(128, 6);
  PinnedBuf src(128);
  std::memcpy(src.get(), data.data(), 128);
  const auto start = std::chrono::steady_clock::now();
  if (got_pid) {
    // Sync backends run a wait at submission: wait from a second host thread there.
    aclrtContext ctx = nullptr;
    EXPECT_ACL_OK(aclrtGetCurrentContext(&ctx));
    std::thread waiter([&] {
      EXPECT_ACL_OK(aclrtSetCurrentContext(ctx));
      for (int i = 0; i < 3; ++i) EXPECT_ACL_OK(aclrtWaitAndResetNotify(notify, stream, 20000));
      EXPECT_ACL_OK(aclrtMemcpyAsync(out.get(), 128, src.get(), 128, ACL_MEMCPY_HOST_TO_DEVICE, stream));
      EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
    });
    waiter.join();
  }
  const auto waited = std::chrono::steady_clock::now() - start;
  runner.join();
  ASSERT_TRUE(got_pid) << child.output;
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(ACL_ERROR_RT_NO_PERMISSION, child.Int("import_before_allowed")) << "not on the list yet";
  EXPECT_EQ(ACL_SUCCESS, child.Int("import"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("record"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("sync"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("destroy"));
  EXPECT_GE(waited, std::chrono::milliseconds(90)) << "the waits were released by the child's records";
  EXPECT_EQ(out.Read(), data);
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  std::remove((dir + "/pid").c_str());
  std::remove((dir + "/go").c_str());
  rmdir(dir.c_str());
}

// Child: exports a notify without pid validation, hands the key over and exits.
CTS_CHILD(ipc_notify_exporter) {
  const std::string dir = EnvOr("CTS_IPC_DIR", "");
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtNotify notify = nullptr;
  if (aclrtCreateNotify(&notify, 0) != ACL_SUCCESS) return 3;
  char key[128] = {};
  ChildReport("export", aclrtNotifyGetExportKey(notify, key, sizeof key,
                                                ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  WriteFile(dir + "/key", key);
  std::string done;
  if (!WaitForFile(dir + "/imported", &done, 30)) return 4;
  (void)aclrtDestroyNotify(notify);
  (void)aclrtResetDevice(0);
  (void)aclFinalize();
  return 0;
}

TEST_F(IpcNotifyTest, KeyWithoutPidValidationAndOfAnExitedProcess) {
  const std::string dir = TempDir();
  ChildResult child;
  std::thread runner([&] { child = RunChild("ipc_notify_exporter", {{"CTS_IPC_DIR", dir}}, 60); });
  std::string key;
  const bool got_key = WaitForFile(dir + "/key", &key, 30);
  aclrtNotify imported = nullptr;
  if (got_key) {
    EXPECT_ACL_OK(aclrtNotifyImportByKey(&imported, key.c_str(), 0)) << "any process may import";
  }
  WriteFile(dir + "/imported", "1");
  runner.join();
  ASSERT_TRUE(got_key) << child.output;
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(ACL_SUCCESS, child.Int("export"));
  aclrtNotify late = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_PARAM_INVALID, aclrtNotifyImportByKey(&late, key.c_str(), 0))
      << "the exporting process has exited";
  if (imported != nullptr) {
    // The notify lives on in this process: a record and a wait still pair up.
    aclrtStream stream = nullptr;
    ASSERT_ACL_OK(aclrtCreateStream(&stream));
    EXPECT_ACL_OK(aclrtRecordNotify(imported, stream));
    EXPECT_ACL_OK(aclrtWaitAndResetNotify(imported, stream, 5000));
    EXPECT_ACL_OK(aclrtSynchronizeStream(stream));
    EXPECT_ACL_OK(aclrtDestroyStream(stream));
    EXPECT_ACL_OK(aclrtDestroyNotify(imported));
  }
  std::remove((dir + "/key").c_str());
  std::remove((dir + "/imported").c_str());
  rmdir(dir.c_str());
}

// A wait that parked and finished leaves no registration behind: discarding the stream's work after its
// (shared) notify was destroyed must not reach the destroyed notify (regression: the driver kept the
// finished wait's park site).
TEST_F(IpcNotifyTest, AbortAfterAFinishedWaitOnADestroyedNotify) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  char key[65] = {};
  ASSERT_ACL_OK(aclrtNotifyGetExportKey(notify, key, sizeof key, 0));
  aclrtStream waiter = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&waiter));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  std::thread recorder([&] {
    EXPECT_ACL_OK(aclrtSetCurrentContext(ctx));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_ACL_OK(aclrtRecordNotify(notify, nullptr));
  });
  EXPECT_ACL_OK(aclrtWaitAndResetNotify(notify, waiter, 5000));  // parks (async) until the record
  recorder.join();
  EXPECT_ACL_OK(aclrtSynchronizeStream(waiter));
  EXPECT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
  EXPECT_ACL_OK(aclrtStreamAbort(waiter));
  EXPECT_ACL_OK(aclrtDestroyStreamForce(waiter));
}

TEST_F(IpcNotifyTest, BadInputs) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  char key[65] = {};
  int32_t pid = getpid();
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifySetImportPid(notify, &pid, 1)) << "not exported yet";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyGetExportKey(notify, nullptr, sizeof key, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyGetExportKey(notify, key, sizeof key, 1)) << "unknown flag";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyGetExportKey(notify, key, 8, 0)) << "buffer too small";
  EXPECT_BAD_HANDLE(aclrtNotifyGetExportKey(nullptr, key, sizeof key, 0));
  ASSERT_ACL_OK(aclrtNotifyGetExportKey(notify, key, sizeof key, 0));
  char again[65] = {};
  EXPECT_ACL_OK(aclrtNotifyGetExportKey(notify, again, sizeof again, 0));
  EXPECT_STREQ(key, again) << "one notify, one key";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifySetImportPid(notify, nullptr, 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifySetImportPid(notify, &pid, 0));
  int32_t bad_pid = -3;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifySetImportPid(notify, &bad_pid, 1));
  EXPECT_ACL_OK(aclrtNotifySetImportPid(notify, &pid, 1));
  aclrtServerPid server{0, &pid, 1};
  EXPECT_ACL_OK(aclrtNotifySetImportPidInterServer(notify, &server, 1));
  aclrtServerPid empty{0, nullptr, 1};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifySetImportPidInterServer(notify, &empty, 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifySetImportPidInterServer(notify, nullptr, 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifySetImportPidInterServer(notify, &server, 0));
  aclrtNotify imported = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyImportByKey(&imported, "npurt-ntf-zz", 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyImportByKey(&imported, "not a key", 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyImportByKey(&imported, key, 7)) << "unknown flag";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyImportByKey(nullptr, key, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyImportByKey(&imported, nullptr, 0));
  ASSERT_ACL_OK(aclrtNotifyImportByKey(&imported, key, 0)) << "the exporter may import its own notify";
  // A notify with an unconsumed record cannot move to shared memory.
  aclrtNotify busy = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&busy, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtRecordNotify(busy, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyGetExportKey(busy, key, sizeof key, 0));
  EXPECT_ACL_OK(aclrtDestroyNotify(busy));
  EXPECT_ACL_OK(aclrtDestroyNotify(imported));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

}  // namespace
}  // namespace cts
