// Inter-process notifies under stress: thousands of ping-pongs between this process and a CTS_CHILD
// child with random delays on both sides (so that waits are satisfied by the executor's spin, by the
// watcher after the queue parked, and before they start), every wait bounded by a timeout so that a
// lost wake-up fails instead of hanging; queues parked on a shared notify leave the device's executors
// to other streams; a stream parked on a shared notify stays abortable.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <thread>

#include "test_util.h"

namespace cts {
namespace {

using IpcStressTest = CtsTest;

constexpr int kRoundTrips = 2000;
constexpr uint32_t kWaitTimeoutMs = 5000;  // a lost wake-up fails the wait instead of hanging
// 2000 round trips take about 1 s on an idle 2-core machine; the bound is a hang guard.
constexpr auto kTimeBound = std::chrono::seconds(10 * kSanitizerSlowdown);

std::string ExportKey(aclrtNotify n) {
  char key[128] = {};
  EXPECT_ACL_OK(aclrtNotifyGetExportKey(n, key, sizeof key, ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION));
  return key;
}

// A random pause: none, a few microseconds (within the executor's spin on a shared flag), or longer
// than the spin (the queue parks and the watcher resumes it), now and then a millisecond.
void RandomPause(std::mt19937& rng) {
  const uint32_t r = rng() % 100;
  if (r < 40) return;
  const auto us = r < 70 ? rng() % 20 : r < 97 ? 60 + rng() % 200 : 1000 + rng() % 1000;
  const auto end = std::chrono::steady_clock::now() + std::chrono::microseconds(us);
  if (us < 100) {
    while (std::chrono::steady_clock::now() < end) {
    }
  } else {
    std::this_thread::sleep_until(end);
  }
}

// Child: answers every ping with a pong, sometimes queuing several answers ahead, sometimes one at a
// time with a host synchronize, with random pauses between.
CTS_CHILD(ipc_pingpong_peer) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtNotify ping = nullptr, pong = nullptr;
  if (aclrtNotifyImportByKey(&ping, EnvOr("CTS_IPC_PING", ""), 0) != ACL_SUCCESS) return 3;
  if (aclrtNotifyImportByKey(&pong, EnvOr("CTS_IPC_PONG", ""), 0) != ACL_SUCCESS) return 4;
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 5;
  std::mt19937 rng(static_cast<uint32_t>(std::atoi(EnvOr("CTS_IPC_SEED", "1"))));
  aclError first_error = ACL_SUCCESS;
  int answered = 0;
  while (answered < kRoundTrips && first_error == ACL_SUCCESS) {
    const int batch = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < batch && answered < kRoundTrips; ++i, ++answered) {
      aclError rc = aclrtWaitAndResetNotify(ping, stream, kWaitTimeoutMs);
      if (rc == ACL_SUCCESS) rc = aclrtRecordNotify(pong, stream);
      if (rc != ACL_SUCCESS && first_error == ACL_SUCCESS) first_error = rc;
    }
    if (rng() % 2 == 0) {
      const aclError rc = aclrtSynchronizeStreamWithTimeout(stream, 2 * kWaitTimeoutMs);
      if (rc != ACL_SUCCESS && first_error == ACL_SUCCESS) first_error = rc;
    }
    RandomPause(rng);
  }
  const aclError sync = aclrtSynchronizeStreamWithTimeout(stream, 2 * kWaitTimeoutMs);
  ChildReport("answered", answered);
  ChildReport("error", first_error);
  ChildReport("sync", sync);
  (void)aclrtDestroyStream(stream);
  (void)aclrtDestroyNotify(ping);
  (void)aclrtDestroyNotify(pong);
  return FinishChildOnDevice0();
}

TEST_F(IpcStressTest, PingPongBetweenTwoProcessesWithRandomDelaysNeverHangs) {
  aclrtNotify ping = nullptr, pong = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&ping, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtCreateNotify(&pong, ACL_NOTIFY_DEFAULT));
  const std::string ping_key = ExportKey(ping), pong_key = ExportKey(pong);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  const uint32_t seed = static_cast<uint32_t>(std::random_device{}());
  SCOPED_TRACE("seed " + std::to_string(seed));
  ChildResult child;
  std::thread runner([&] {
    child = RunChild("ipc_pingpong_peer",
                     {{"CTS_IPC_PING", ping_key}, {"CTS_IPC_PONG", pong_key}, {"CTS_IPC_SEED", std::to_string(seed + 1)}},
                     60);
  });
  std::mt19937 rng(seed);
  const auto start = std::chrono::steady_clock::now();
  aclError first_error = ACL_SUCCESS;
  int done = 0;
  // Rounds of 1-8 pings, each waiting for its pong; a host synchronize after every round or every ping.
  while (done < kRoundTrips && first_error == ACL_SUCCESS && std::chrono::steady_clock::now() - start < kTimeBound) {
    const int round = 1 + static_cast<int>(rng() % 8);
    const bool sync_each = rng() % 2 == 0;
    for (int i = 0; i < round && done < kRoundTrips; ++i, ++done) {
      RandomPause(rng);
      aclError rc = aclrtRecordNotify(ping, stream);
      if (rc == ACL_SUCCESS) rc = aclrtWaitAndResetNotify(pong, stream, kWaitTimeoutMs);
      if (rc == ACL_SUCCESS && sync_each) rc = aclrtSynchronizeStreamWithTimeout(stream, 2 * kWaitTimeoutMs);
      if (rc != ACL_SUCCESS && first_error == ACL_SUCCESS) first_error = rc;
    }
    const aclError rc = aclrtSynchronizeStreamWithTimeout(stream, 2 * kWaitTimeoutMs);
    if (rc != ACL_SUCCESS && first_error == ACL_SUCCESS) first_error = rc;
  }
  const auto took = std::chrono::steady_clock::now() - start;
  // Pings the child still waits for (after a failure here): release them so that it finishes.
  for (int i = done; i < kRoundTrips; ++i) (void)aclrtRecordNotify(ping, stream);
  (void)aclrtSynchronizeStreamWithTimeout(stream, 2 * kWaitTimeoutMs);
  runner.join();
  EXPECT_EQ(ACL_SUCCESS, first_error) << "after " << done << " round trips";
  EXPECT_EQ(kRoundTrips, done) << "round trips within " << kTimeBound.count() << " s";
  EXPECT_LT(took, kTimeBound);
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(kRoundTrips, child.Int("answered"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("error"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("sync"));
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtDestroyNotify(ping));
  EXPECT_ACL_OK(aclrtDestroyNotify(pong));
}

// Child: records the notify once the parent says so.
CTS_CHILD(ipc_late_recorder) {
  const std::string dir = EnvOr("CTS_IPC_DIR", "");
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  aclrtNotify notify = nullptr;
  if (aclrtNotifyImportByKey(&notify, EnvOr("CTS_IPC_KEY", ""), 0) != ACL_SUCCESS) return 3;
  std::string go;
  if (!WaitForFile(dir + "/go", &go, 30)) return 4;
  const int records = std::atoi(go.c_str());
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 5;
  for (int i = 0; i < records; ++i) ChildReport("record", aclrtRecordNotify(notify, stream));
  ChildReport("sync", aclrtSynchronizeStream(stream));
  (void)aclrtDestroyStream(stream);
  (void)aclrtDestroyNotify(notify);
  return FinishChildOnDevice0();
}

// More streams wait on another process's notify than the device has executors: the other streams of the
// device still run (a queue waiting on a shared flag never holds an executor for long).
TEST_F(IpcStressTest, StreamsWaitingOnAnotherProcessDoNotStarveTheDevice) {
  constexpr int kWaiters = 6;
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  const std::string key = ExportKey(notify);
  const std::string dir = TempDir();
  ChildResult child;
  std::thread runner([&] { child = RunChild("ipc_late_recorder", {{"CTS_IPC_DIR", dir}, {"CTS_IPC_KEY", key}}, 60); });
  std::vector<std::unique_ptr<Stream>> waiters;
  std::vector<std::unique_ptr<DevBuf>> outs;
  const std::vector<uint8_t> data = RandomBytes(4096, 11);
  PinnedBuf src(4096);
  std::memcpy(src.get(), data.data(), data.size());
  for (int i = 0; i < kWaiters; ++i) {
    waiters.push_back(std::make_unique<Stream>());
    outs.push_back(std::make_unique<DevBuf>(4096));
    EXPECT_ACL_OK(aclrtWaitAndResetNotify(notify, waiters.back()->get(), 20000));
    EXPECT_ACL_OK(aclrtMemcpyAsync(outs.back()->get(), 4096, src.get(), 4096, ACL_MEMCPY_HOST_TO_DEVICE,
                                   waiters.back()->get()));
  }
  // Meanwhile another stream of the device copies data back and forth.
  Stream other;
  DevBuf a(4096), b(4096);
  PinnedBuf back(4096);
  for (int i = 0; i < 200; ++i) {
    EXPECT_ACL_OK(aclrtMemcpyAsync(a.get(), 4096, src.get(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, other.get()));
    EXPECT_ACL_OK(aclrtMemcpyAsync(b.get(), 4096, a.get(), 4096, ACL_MEMCPY_DEVICE_TO_DEVICE, other.get()));
    EXPECT_ACL_OK(aclrtMemcpyAsync(back.get(), 4096, b.get(), 4096, ACL_MEMCPY_DEVICE_TO_HOST, other.get()));
    if (i % 20 == 19) {
      ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(other.get(), 5000)) << "round " << i;
    }
  }
  EXPECT_EQ(0, std::memcmp(back.get(), data.data(), data.size()));
  for (auto& w : waiters) {
    aclrtStreamStatus status = ACL_STREAM_STATUS_COMPLETE;
    EXPECT_ACL_OK(aclrtStreamQuery(w->get(), &status));
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, status) << "the waits still wait for the child";
  }
  WriteFile(dir + "/go", std::to_string(kWaiters));
  for (int i = 0; i < kWaiters; ++i) {
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(waiters[i]->get(), 10000));
    EXPECT_EQ(outs[i]->Read(), data);
  }
  runner.join();
  ASSERT_EQ(0, child.exit_code) << child.output;
  EXPECT_EQ(ACL_SUCCESS, child.Int("record"));
  EXPECT_EQ(ACL_SUCCESS, child.Int("sync"));
  waiters.clear();
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
  std::remove((dir + "/go").c_str());
  rmdir(dir.c_str());
}

// A stream parked on a shared notify that nobody records: abort releases it at once.
TEST_F(IpcStressTest, StreamWaitingOnASharedNotifyIsAbortable) {
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  (void)ExportKey(notify);
  aclrtStream stream = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&stream));
  for (int i = 0; i < 3; ++i) {
    const auto start = std::chrono::steady_clock::now();
    EXPECT_ACL_OK(aclrtWaitAndResetNotify(notify, stream, 0));  // no timeout: only the abort ends it
    if (i > 0) std::this_thread::sleep_for(std::chrono::milliseconds(i == 1 ? 0 : 5));  // spinning, then parked
    EXPECT_ACL_OK(aclrtStreamAbort(stream));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(stream, 5000));
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  }
  EXPECT_ACL_OK(aclrtDestroyStream(stream));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

}  // namespace
}  // namespace cts
