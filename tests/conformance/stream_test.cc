// Streams: creation variants and configuration handles, destroy (waiting / forced) with queued work,
// synchronize with timeouts, query, id/priority/flags, failure mode, attributes, abort, availability
// and the per-device stream limit, and the NULL (default) stream.
#include <set>

#include "test_util.h"

namespace cts {
namespace {

using StreamTest = CtsTest;

TEST_F(StreamTest, CreateVariantsAndTheirProperties) {
  aclrtStream plain = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&plain));
  ASSERT_NE(nullptr, plain);
  uint32_t prio = 99, flags = 99;
  ASSERT_ACL_OK(aclrtStreamGetPriority(plain, &prio));
  EXPECT_EQ(0u, prio) << "aclrtCreateStream gives the highest priority";
  ASSERT_ACL_OK(aclrtStreamGetFlags(plain, &flags));
  EXPECT_EQ(0u, flags);

  aclrtStream configured = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&configured, 3, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC));
  ASSERT_ACL_OK(aclrtStreamGetPriority(configured, &prio));
  EXPECT_EQ(3u, prio);
  ASSERT_ACL_OK(aclrtStreamGetFlags(configured, &flags));
  EXPECT_EQ(uint32_t(ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC), flags);

  aclrtStream lowest = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamWithConfig(&lowest, 7, 0));
  ASSERT_ACL_OK(aclrtStreamGetPriority(lowest, &prio));
  EXPECT_EQ(7u, prio);
  aclrtStream unknown_flags = nullptr;
  EXPECT_ACL_OK(aclrtCreateStreamWithConfig(&unknown_flags, 0, 0x40000)) << "unknown bits give a normal stream";

  int32_t ids[4] = {-1, -1, -1, -1};
  ASSERT_ACL_OK(aclrtStreamGetId(plain, &ids[0]));
  ASSERT_ACL_OK(aclrtStreamGetId(configured, &ids[1]));
  ASSERT_ACL_OK(aclrtStreamGetId(lowest, &ids[2]));
  ASSERT_ACL_OK(aclrtStreamGetId(nullptr, &ids[3]));
  EXPECT_EQ(4u, std::set<int32_t>(ids, ids + 4).size()) << "stream ids are distinct";

  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamWithConfig(&plain, 8, 0)) << "priority is 0..7";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStream(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamWithConfig(nullptr, 0, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetPriority(plain, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetFlags(plain, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamGetId(plain, nullptr));
  for (aclrtStream s : {plain, configured, lowest, unknown_flags}) {
    if (s != nullptr) {
      EXPECT_ACL_OK(aclrtDestroyStream(s));
    }
  }
}

TEST_F(StreamTest, CreateWithoutContextFails) {
  std::thread([] {
    aclrtStream s = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateStream(&s));
    EXPECT_EQ(nullptr, s);
    ClearErrorState();
  }).join();
}

TEST_F(StreamTest, CreateV2WithConfigHandle) {
  aclrtStreamConfigHandle* h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(nullptr, h);
  const uint32_t prio = 5;
  const uint32_t flag = ACL_STREAM_FAST_SYNC;
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
  ASSERT_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, sizeof flag));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&s, h));
  uint32_t got = 0;
  ASSERT_ACL_OK(aclrtStreamGetPriority(s, &got));
  EXPECT_EQ(prio, got);
  ASSERT_ACL_OK(aclrtStreamGetFlags(s, &got));
  EXPECT_EQ(flag, got);
  // The stream works.
  DevBuf buf(1024);
  const std::vector<uint8_t> data = RandomBytes(1024, 31);
  ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), 1024, data.data(), 1024, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(data, buf.Read());
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  // The handle is a plain configuration: it may be destroyed while the stream lives, and reused.
  aclrtStream s2 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&s2, h));
  ASSERT_ACL_OK(aclrtDestroyStreamConfigHandle(h));
  ASSERT_ACL_OK(aclrtStreamGetPriority(s2, &got));
  EXPECT_EQ(prio, got);
  EXPECT_ACL_OK(aclrtDestroyStream(s2));
  // A NULL handle gives a default-configured stream.
  aclrtStream s3 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&s3, nullptr));
  ASSERT_ACL_OK(aclrtStreamGetPriority(s3, &got));
  EXPECT_EQ(0u, got);
  EXPECT_ACL_OK(aclrtDestroyStream(s3));
}

TEST_F(StreamTest, ConfigHandleErrors) {
  aclrtStreamConfigHandle* h = aclrtCreateStreamConfigHandle();
  ASSERT_NE(nullptr, h);
  const uint32_t prio = 2;
  const uint32_t bad_prio = 8;
  const uint64_t wide = 2;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(nullptr, ACL_RT_STREAM_PRIORITY, &prio, 4));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, nullptr, 4));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &wide, sizeof wide))
      << "wrong value size";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &bad_prio, 4));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtSetStreamConfigOpt(h, static_cast<aclrtStreamConfigAttr>(77), &prio, sizeof prio));
  // Failed settings leave the handle unchanged.
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStreamV2(&s, h));
  uint32_t got = 99;
  ASSERT_ACL_OK(aclrtStreamGetPriority(s, &got));
  EXPECT_EQ(0u, got);
  EXPECT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateStreamV2(nullptr, h));
  ASSERT_ACL_OK(aclrtDestroyStreamConfigHandle(h));
  // Destroyed, NULL and foreign handles.
  EXPECT_BAD_HANDLE(aclrtDestroyStreamConfigHandle(h));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamConfigHandle(nullptr));
  EXPECT_BAD_HANDLE(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
  aclrtStream s2 = nullptr;
  EXPECT_BAD_HANDLE(aclrtCreateStreamV2(&s2, h));
  aclrtStreamConfigHandle fake = {nullptr, 0, 0, 3};
  EXPECT_BAD_HANDLE(aclrtCreateStreamV2(&s2, &fake));
  EXPECT_BAD_HANDLE(aclrtSetStreamConfigOpt(&fake, ACL_RT_STREAM_PRIORITY, &prio, sizeof prio));
  EXPECT_BAD_HANDLE(aclrtDestroyStreamConfigHandle(&fake));
  EXPECT_EQ(nullptr, s2);
}

TEST_F(StreamTest, DestroyWaitsForQueuedWork) {
  constexpr size_t kSize = 1 << 20;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  DevBuf dev(kSize);
  PinnedBuf src(kSize), out(kSize);
  FillRandom(src.get(), kSize, 32);
  std::memset(out.get(), 0, kSize);
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, dev.get(), kSize, ACL_MEMCPY_DEVICE_TO_HOST, s));
  std::atomic<bool> destroyed{false};
  std::thread destroyer([&] {
    EXPECT_ACL_OK(aclrtDestroyStream(s));
    destroyed.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(destroyed.load()) << "aclrtDestroyStream must wait for queued work";
  ASSERT_ACL_OK(gate.Open());
  destroyer.join();
  EXPECT_EQ(-1, FirstDifference(out.get(), src.get(), kSize)) << "the queued work ran before the destroy returned";
}

TEST_F(StreamTest, DestroyForceDiscardsQueuedWork) {
  constexpr size_t kSize = 64 << 10;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  DevBuf dev(kSize);
  const std::vector<uint8_t> before = RandomBytes(kSize, 33);
  ASSERT_ACL_OK(dev.Upload(before.data(), kSize));
  PinnedBuf src(kSize);
  FillRandom(src.get(), kSize, 34);
  {
    DeviceGate gate;
    ASSERT_ACL_OK(gate.Block(s));
    for (int i = 0; i < 16; ++i) {
      ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
    }
    ASSERT_ACL_OK(aclrtMemsetAsync(dev.get(), kSize, 0x77, kSize / 2, s));
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_ACL_OK(aclrtDestroyStreamForce(s));
    EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5)) << "a forced destroy does not wait";
    aclrtStreamStatus st;
    EXPECT_BAD_HANDLE(aclrtStreamQuery(s, &st));
  }
  EXPECT_EQ(before, dev.Read()) << "discarded tasks must not run";
}

TEST_F(StreamTest, DestroyForceLetsRunnableWorkFinish) {
  // Work that nothing holds back would already be on the device: a forced destroy does not drop it.
  constexpr size_t kSize = 4096;
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  DevBuf dev(kSize);
  const std::vector<uint8_t> data = RandomBytes(kSize, 35);
  PinnedBuf src(kSize);
  std::memcpy(src.get(), data.data(), kSize);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtDestroyStreamForce(s));
  EXPECT_EQ(data, dev.Read());
}

TEST_F(StreamTest, DestroyErrors) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStream(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyStreamForce(nullptr));
  aclrtStream def = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
  EXPECT_NE(ACL_SUCCESS, aclrtDestroyStream(def)) << "the default stream cannot be destroyed";
  EXPECT_ACL_OK(aclrtSynchronizeStream(def));
  aclrtStream s = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtDestroyStream(s));
  EXPECT_BAD_HANDLE(aclrtDestroyStream(s));
  EXPECT_BAD_HANDLE(aclrtDestroyStreamForce(s));
}

TEST_F(StreamTest, SynchronizeWithTimeout) {
  Stream s;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  const auto t0 = std::chrono::steady_clock::now();
  const aclError e = aclrtSynchronizeStreamWithTimeout(s, 40);
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_TRUE(e == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || e == ACL_ERROR_RT_TASK_TIMEOUT) << e;
  EXPECT_GE(waited, std::chrono::milliseconds(35));
  EXPECT_LT(waited, std::chrono::seconds(5));
  const aclError polled = aclrtSynchronizeStreamWithTimeout(s, 0);
  EXPECT_TRUE(polled == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT || polled == ACL_ERROR_RT_TASK_TIMEOUT)
      << "0 only checks: " << polled;
  ASSERT_ACL_OK(gate.Open());
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, -1));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeStreamWithTimeout(s, -2));
}

TEST_F(StreamTest, QueryReportsPendingWork) {
  Stream s;
  aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamQuery(s, nullptr));
}

TEST_F(StreamTest, QueryAfterCompletedWork) {
  Stream s;
  DevBuf buf(1 << 16);
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), buf.size(), 0x3c, buf.size(), s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  aclrtStreamStatus st = ACL_STREAM_STATUS_RESERVED;
  ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  ASSERT_ACL_OK(aclrtStreamQuery(nullptr, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_COMPLETE, st);
  const std::vector<uint8_t> back = buf.Read();
  EXPECT_TRUE(AllBytesAre(back.data(), back.size(), 0x3c));
}

TEST_F(StreamTest, NullStreamIsTheDefaultStream) {
  constexpr size_t kSize = 256 << 10;
  DevBuf buf(kSize);
  PinnedBuf out(kSize);
  const std::vector<uint8_t> data = RandomBytes(kSize, 35);
  ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), kSize, data.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, nullptr));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, buf.get(), kSize, ACL_MEMCPY_DEVICE_TO_HOST, nullptr));
  aclrtStream def = nullptr;
  ASSERT_ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
  ASSERT_ACL_OK(aclrtSynchronizeStream(def));  // the same queue as NULL
  EXPECT_EQ(-1, FirstDifference(out.get(), data.data(), kSize));
  uint32_t prio = 9;
  ASSERT_ACL_OK(aclrtStreamGetPriority(nullptr, &prio));
  EXPECT_EQ(0u, prio);
  ASSERT_ACL_OK(aclrtSynchronizeStream(nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(nullptr, 1000));
}

TEST_F(StreamTest, FailureModeSetting) {
  Stream s;
  aclrtStreamAttrValue v;
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
  EXPECT_EQ(uint64_t(ACL_CONTINUE_ON_FAILURE), v.failureMode);
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
  EXPECT_EQ(uint64_t(ACL_STOP_ON_FAILURE), v.failureMode);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamFailureMode(s, 2));
  EXPECT_NE(ACL_SUCCESS, aclrtSetStreamFailureMode(nullptr, ACL_STOP_ON_FAILURE))
      << "the default stream's failure mode cannot be changed";
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE));
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
  EXPECT_EQ(uint64_t(ACL_CONTINUE_ON_FAILURE), v.failureMode);
}

// A task failure that every backend can produce: a notify wait that times out.
void SubmitFailingWait(aclrtStream s, aclrtNotify n) { ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s, 20)); }

TEST_F(StreamTest, StopOnFailureDiscardsLaterWorkAndErrorsAreSticky) {
  constexpr size_t kSize = 4096;
  DevBuf dev(kSize);
  const std::vector<uint8_t> before = RandomBytes(kSize, 36);
  const std::vector<uint8_t> after = RandomBytes(kSize, 37);
  for (uint64_t mode : {uint64_t(ACL_STOP_ON_FAILURE), uint64_t(ACL_CONTINUE_ON_FAILURE)}) {
    SCOPED_TRACE(mode);
    ASSERT_ACL_OK(dev.Upload(before.data(), kSize));
    Stream s;
    ASSERT_ACL_OK(aclrtSetStreamFailureMode(s, mode));
    aclrtNotify n = nullptr;
    ASSERT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
    SubmitFailingWait(s, n);
    ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, after.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
    EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(s));
    const char* msg = aclGetRecentErrMsg();
    ASSERT_NE(nullptr, msg);
    EXPECT_NE(std::string::npos, std::string(msg).find("aclrtSynchronizeStream")) << msg;
    EXPECT_EQ(ACL_ERROR_RT_TASK_TIMEOUT, aclrtGetLastError(ACL_RT_THREAD_LEVEL));
    EXPECT_EQ(mode == ACL_STOP_ON_FAILURE ? before : after, dev.Read());
    if (mode == ACL_STOP_ON_FAILURE) {
      EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(s)) << "a stop-on-failure stream's error is sticky";
      EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeDevice()) << "device sync reports it too";
    } else {
      // CANN: the synchronize that reports a continue-on-failure stream's error clears it.
      EXPECT_ACL_OK(aclrtSynchronizeStream(s)) << "reported once";
      EXPECT_ACL_OK(aclrtSynchronizeDevice());
    }
    EXPECT_ACL_OK(aclrtDestroyNotify(n));
  }
  EXPECT_ACL_OK(aclrtSynchronizeDevice()) << "the failed streams are gone";
}

// The official sample 1_basic_features/stream/1_stream_with_failure_mode: a failure on a continue-on-failure
// stream, reported by a synchronize, does not make the stream discard what is queued after it is switched to
// stop-on-failure: only the tasks after the next failure are discarded.
TEST_F(StreamTest, SwitchingToStopOnFailureAfterAReportedFailureKeepsEarlierTasks) {
  constexpr size_t kSize = 4096;
  DevBuf dev(kSize);
  const std::vector<uint8_t> first = RandomBytes(kSize, 41), second = RandomBytes(kSize, 42);
  Stream s;
  aclrtNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  SubmitFailingWait(s, n);
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, first.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  SubmitFailingWait(s, n);
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, second.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(s));
  EXPECT_EQ(first, dev.Read()) << "the copy before the new failure ran, the one after it was discarded";
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

TEST_F(StreamTest, Attributes) {
  Stream s;
  aclrtStreamAttrValue v;
  std::memset(&v, 0, sizeof v);
  v.overflowSwitch = 1;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
  std::memset(&v, 0, sizeof v);
  v.userCustomTag = 0xBEEF;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
  std::memset(&v, 0, sizeof v);
  v.cacheOpInfoSwitch = 1;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
  std::memset(&v, 0, sizeof v);
  v.streamPriority = 6;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
  std::memset(&v, 0, sizeof v);
  v.failureMode = ACL_STOP_ON_FAILURE;
  ASSERT_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));

  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v));
  EXPECT_EQ(1u, v.overflowSwitch);
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
  EXPECT_EQ(0xBEEFu, v.userCustomTag);
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
  EXPECT_EQ(1u, v.cacheOpInfoSwitch);
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
  EXPECT_EQ(6u, v.streamPriority);
  uint32_t prio = 0;
  ASSERT_ACL_OK(aclrtStreamGetPriority(s, &prio));
  EXPECT_EQ(6u, prio) << "the priority attribute is the stream's priority";
  ASSERT_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
  EXPECT_EQ(uint64_t(ACL_STOP_ON_FAILURE), v.failureMode);
  uint32_t overflow = 0;
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(s, &overflow));
  EXPECT_EQ(1u, overflow);
  ASSERT_ACL_OK(aclrtSetStreamOverflowSwitch(s, 0));
  ASSERT_ACL_OK(aclrtGetStreamOverflowSwitch(s, &overflow));
  EXPECT_EQ(0u, overflow);

  v.streamPriority = 8;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, static_cast<aclrtStreamAttr>(99), &v));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAttribute(s, static_cast<aclrtStreamAttr>(0), &v));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamOverflowSwitch(s, nullptr));
}

TEST_F(StreamTest, AbortDiscardsQueuedWorkAndTheStreamStaysUsable) {
  constexpr size_t kSize = 64 << 10;
  Stream s;
  DevBuf dev(kSize);
  const std::vector<uint8_t> before = RandomBytes(kSize, 38);
  const std::vector<uint8_t> later = RandomBytes(kSize, 39);
  ASSERT_ACL_OK(dev.Upload(before.data(), kSize));
  PinnedBuf src(kSize);
  FillRandom(src.get(), kSize, 40);
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  for (int i = 0; i < 8; ++i) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  }
  ASSERT_ACL_OK(aclrtStreamAbort(s));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000)) << "abort completes the queue without waiting";
  EXPECT_EQ(before, dev.Read()) << "aborted tasks must not run";
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), kSize, later.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(later, dev.Read()) << "work submitted after the abort runs";
}

TEST_F(StreamTest, AvailableCountTracksCreateAndDestroy) {
  uint32_t a0 = 0, a1 = 0, a2 = 0;
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&a0));
  EXPECT_GT(a0, 0u);
  aclrtStream s = nullptr, t = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s));
  ASSERT_ACL_OK(aclrtCreateStream(&t));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&a1));
  EXPECT_EQ(a0 - 2, a1);
  ASSERT_ACL_OK(aclrtDestroyStream(s));
  ASSERT_ACL_OK(aclrtDestroyStreamForce(t));
  ASSERT_ACL_OK(aclrtGetStreamAvailableNum(&a2));
  EXPECT_EQ(a0, a2);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetStreamAvailableNum(nullptr));
}

CTS_CHILD(stream_limit) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
  uint32_t avail = 0;
  ChildReport("avail_initial_rc", aclrtGetStreamAvailableNum(&avail));
  ChildReport("avail_initial", avail);
  std::vector<aclrtStream> streams;
  aclError last = ACL_SUCCESS;
  for (int i = 0; i < 100; ++i) {
    aclrtStream s = nullptr;
    last = aclrtCreateStream(&s);
    if (last != ACL_SUCCESS) break;
    streams.push_back(s);
  }
  ChildReport("created", static_cast<long long>(streams.size()));
  ChildReport("error", last);
  const char* msg = aclGetRecentErrMsg();
  ChildReportText("message", msg != nullptr ? msg : "");
  aclrtStream s = nullptr;
  ChildReport("with_config", aclrtCreateStreamWithConfig(&s, 1, 0));
  ChildReport("v2", aclrtCreateStreamV2(&s, nullptr));
  aclrtContext ctx = nullptr;
  ChildReport("context", aclrtCreateContext(&ctx, 0));  // needs a default stream
  ChildReport("avail_full_rc", aclrtGetStreamAvailableNum(&avail));
  ChildReport("avail_full", avail);
  // Destroying one makes room again.
  ChildReport("destroy_rc", aclrtDestroyStream(streams.back()));
  streams.pop_back();
  ChildReport("recreate", aclrtCreateStream(&s));
  if (s != nullptr) streams.push_back(s);
  for (aclrtStream x : streams) (void)aclrtDestroyStream(x);
  ChildReport("reset", aclrtResetDevice(0));
  ChildReport("finalize", aclFinalize());
  return 0;
}

TEST_F(StreamTest, StreamLimitGivesNoStreamResource) {
  ChildResult r = RunChild("stream_limit", {{"NPURT_STREAM_LIMIT", "8"}});
  ASSERT_EQ(0, r.exit_code) << r.output;
  EXPECT_EQ(ACL_SUCCESS, r.Int("avail_initial_rc"));
  EXPECT_EQ(7, r.Int("avail_initial")) << "the limit counts the default stream";
  EXPECT_EQ(7, r.Int("created"));
  EXPECT_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, r.Int("error"));
  EXPECT_NE(std::string::npos, r.Text("message").find("aclrtCreateStream")) << r.Text("message");
  EXPECT_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, r.Int("with_config"));
  EXPECT_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, r.Int("v2"));
  EXPECT_EQ(ACL_ERROR_RT_NO_STREAM_RESOURCE, r.Int("context"));
  EXPECT_EQ(0, r.Int("avail_full"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("destroy_rc"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("recreate"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("reset"));
  EXPECT_EQ(ACL_SUCCESS, r.Int("finalize"));
}

TEST_F(StreamTest, StreamsRunConcurrentlyAndIndependently) {
  // A parked stream does not hold back another stream of the same context.
  Stream blocked, free_running;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(blocked));
  DevBuf buf(4096);
  const std::vector<uint8_t> data = RandomBytes(4096, 41);
  ASSERT_ACL_OK(aclrtMemcpyAsync(buf.get(), 4096, data.data(), 4096, ACL_MEMCPY_HOST_TO_DEVICE, free_running));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(free_running, 10000));
  EXPECT_EQ(data, buf.Read());
  aclrtStreamStatus st;
  ASSERT_ACL_OK(aclrtStreamQuery(blocked, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);
  ASSERT_ACL_OK(gate.Open());
}

}  // namespace
}  // namespace cts
