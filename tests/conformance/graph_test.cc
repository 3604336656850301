// Model running instances (aclmdlRI*): stream capture and replay, capture modes and their refusals,
// joined streams, events inside and outside a capture, explicit building on persistent streams with
// activation and switches, task introspection and updates, task groups, conditional tasks, names, ids,
// destroy callbacks, debug output, and a capture/replay stress test.
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

#include "test_util.h"

namespace cts {
namespace {

using GraphTest = CtsTest;

constexpr size_t kBytes = 4096;

// Captures `body(stream)` on `stream` in `mode` and returns the model.
template <typename Body>
aclmdlRI Capture(aclrtStream stream, Body body, aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) {
  aclmdlRI ri = nullptr;
  EXPECT_ACL_OK(aclmdlRICaptureBegin(stream, mode));
  body(stream);
  EXPECT_ACL_OK(aclmdlRICaptureEnd(stream, &ri));
  return ri;
}

TEST_F(GraphTest, CapturedWorkRunsOnlyWhenReplayed) {
  Stream s;
  DevBuf src(kBytes), dst(kBytes);
  const auto first = RandomBytes(kBytes, 1);
  ASSERT_ACL_OK(src.Upload(first.data(), kBytes));
  ASSERT_ACL_OK(aclrtMemset(dst.get(), kBytes, 0x5a, kBytes));
  aclmdlRI ri = Capture(s, [&](aclrtStream st) {
    aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI current = nullptr;
    EXPECT_ACL_OK(aclmdlRICaptureGetInfo(st, &status, &current));
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    EXPECT_NE(current, nullptr);
    EXPECT_ACL_OK(aclrtMemcpyAsync(dst.get(), kBytes, src.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, st));
    EXPECT_ACL_OK(aclrtMemsetAsync(dst.bytes() + 16, 16, 0x11, 16, st));
  });
  ASSERT_NE(ri, nullptr);
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_TRUE(AllBytesAre(dst.Read().data(), kBytes, 0x5a)) << "captured tasks ran at capture time";
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, nullptr));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  for (uint64_t round = 0; round < 3; ++round) {
    auto data = RandomBytes(kBytes, 10 + round);
    ASSERT_ACL_OK(src.Upload(data.data(), kBytes));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    std::memset(data.data() + 16, 0x11, 16);
    EXPECT_EQ(FirstDifference(dst.Read().data(), data.data(), kBytes), -1) << "replay " << round;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, CaptureArgumentErrors) {
  Stream s;
  aclmdlRI ri = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureBegin(s, static_cast<aclmdlRICaptureMode>(7)));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureEnd(s, &ri));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureGetInfo(s, nullptr, &ri));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURED, aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeStream(s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURED, aclrtSynchronizeStreamWithTimeout(s, 100));
  aclmdlRI current = nullptr;
  aclmdlRICaptureStatus status;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, &current));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MODEL_CAPTURED, aclmdlRIDestroy(current));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(current, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureEnd(s, nullptr));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  EXPECT_EQ(ri, current);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecuteAsync(nullptr, s));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
  EXPECT_BAD_HANDLE(aclmdlRIDestroy(ri));
  EXPECT_BAD_HANDLE(aclmdlRIExecuteAsync(ri, s));
  EXPECT_BAD_HANDLE(aclmdlRIExecuteAsync(s.get(), s));
}

TEST_F(GraphTest, UnsafeCallsRefusedInGlobalModeInvalidateTheCapture) {
  Stream s;
  DevBuf d(kBytes);
  auto host = RandomBytes(kBytes, 3);
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                 aclrtMemcpy(d.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_NE(std::string(aclGetRecentErrMsg()), "");
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, nullptr));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtMemset(d.get(), kBytes, 1, kBytes));
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclrtMemsetD32(d.get(), kBytes, 1, 4));
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                 aclrtMemcpy2d(d.get(), 64, host.data(), 64, 64, 2, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
                 aclrtMemcpyAsync(d.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE, s));
  // A 2D copy of pageable memory takes the same path (it would read the host rows at replay time).
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC,
                 aclrtMemcpy2dAsync(d.get(), 64, host.data(), 64, 64, 2, ACL_MEMCPY_HOST_TO_DEVICE, s));
  aclmdlRI ri = reinterpret_cast<aclmdlRI>(0x1);
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclmdlRICaptureEnd(s, &ri));
  EXPECT_EQ(ri, nullptr);
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, nullptr));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
  EXPECT_ACL_OK(aclrtMemcpy(d.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE)) << "capture is over";
}

TEST_F(GraphTest, ThreadExchangeModeAndRelaxedCaptures) {
  Stream s;
  DevBuf d(kBytes);
  auto host = RandomBytes(kBytes, 4);
  aclmdlRICaptureMode mode = static_cast<aclmdlRICaptureMode>(9);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureThreadExchangeMode(&mode));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureThreadExchangeMode(nullptr));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
  ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
  EXPECT_ACL_OK(aclrtMemcpy(d.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
  EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
  // A relaxed capture forbids nothing.
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  EXPECT_ACL_OK(aclrtMemcpy(d.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, ThreadLocalCaptureAllowsOtherThreadsGlobalDoesNot) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  Stream s;
  DevBuf d(kBytes);
  auto host = RandomBytes(kBytes, 5);
  auto other_thread_copy = [&] {
    aclError r = ACL_SUCCESS;
    std::thread t([&] {
      aclrtSetCurrentContext(ctx);
      r = aclrtMemcpy(d.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE);
    });
    t.join();
    return r;
  };
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
  EXPECT_ACL_OK(other_thread_copy());
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                 aclrtMemcpy(d.get(), kBytes, host.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, aclmdlRICaptureEnd(s, &ri));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_ERR(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, other_thread_copy());
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri)) << "another thread's refusal does not invalidate this capture";
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, CaptureEndOnAnotherThreadIsRefusedUnlessRelaxed) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  Stream s;
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  aclError r = ACL_SUCCESS;
  std::thread([&] {
    aclrtSetCurrentContext(ctx);
    r = aclmdlRICaptureEnd(s, &ri);
  }).join();
  EXPECT_EQ(r, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &ri));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
  std::thread([&] {
    aclrtSetCurrentContext(ctx);
    r = aclmdlRICaptureEnd(s, &ri);
  }).join();
  EXPECT_EQ(r, ACL_SUCCESS);
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, ExecuteWaitsAndChecksItsTimeout) {
  Stream s;
  DevBuf d(kBytes);
  aclmdlRI ri = Capture(s, [&](aclrtStream st) { EXPECT_ACL_OK(aclrtMemsetAsync(d.get(), kBytes, 0x3c, kBytes, st)); });
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIExecute(ri, -2));
  ASSERT_ACL_OK(aclmdlRIExecute(ri, -1));
  EXPECT_TRUE(AllBytesAre(d.Read().data(), kBytes, 0x3c));
  ASSERT_ACL_OK(aclrtMemset(d.get(), kBytes, 0, kBytes));
  ASSERT_ACL_OK(aclmdlRIExecute(ri, 5000));
  EXPECT_TRUE(AllBytesAre(d.Read().data(), kBytes, 0x3c));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclmdlRIAbort(ri));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, StreamsJoinedThroughEventsReplayInOrder) {
  Stream s1, s2;
  Event fork, join;
  DevBuf a(kBytes), b(kBytes), c(kBytes);
  aclmdlRI ri = Capture(s1, [&](aclrtStream st) {
    EXPECT_ACL_OK(aclrtMemsetAsync(a.get(), kBytes, 0x21, kBytes, st));
    EXPECT_ACL_OK(aclrtRecordEvent(fork, st));
    EXPECT_ACL_OK(aclrtStreamWaitEvent(s2, fork));  // s2 joins the capture
    aclmdlRICaptureStatus status;
    EXPECT_ACL_OK(aclmdlRICaptureGetInfo(s2, &status, nullptr));
    EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    EXPECT_ACL_OK(aclrtMemcpyAsync(b.get(), kBytes, a.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
    EXPECT_ACL_OK(aclrtRecordEvent(join, s2));
    EXPECT_ACL_OK(aclrtStreamWaitEvent(st, join));
    EXPECT_ACL_OK(aclrtMemcpyAsync(c.get(), kBytes, b.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, st));
  });
  ASSERT_NE(ri, nullptr);
  uint32_t n = 0;
  ASSERT_ACL_OK(aclmdlRIGetStreams(ri, nullptr, &n));
  EXPECT_EQ(n, 2u);
  for (int round = 0; round < 3; ++round) {
    ASSERT_ACL_OK(aclrtMemset(c.get(), kBytes, 0, kBytes));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s1));
    ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
    EXPECT_TRUE(AllBytesAre(c.Read().data(), kBytes, 0x21)) << round;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, JoinedStreamThatDoesNotRejoinFailsTheCapture) {
  Stream s1, s2;
  Event fork;
  DevBuf a(kBytes);
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  ASSERT_ACL_OK(aclrtRecordEvent(fork, s1));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s2, fork));
  ASSERT_ACL_OK(aclrtMemsetAsync(a.get(), kBytes, 1, kBytes, s2));
  aclmdlRI ri = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, aclmdlRICaptureEnd(s2, &ri));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_UNJOINED, aclmdlRICaptureEnd(s1, &ri));
  EXPECT_EQ(ri, nullptr);
  EXPECT_ACL_OK(aclrtSynchronizeStream(s2)) << "s2 left the capture";
}

TEST_F(GraphTest, WaitOnEventRecordedOutsideWaitsForTheNextRecord) {
  Stream graph_stream, other;
  Event e(ACL_EVENT_SYNC, true);
  DevBuf src(kBytes), dst(kBytes);
  auto data = RandomBytes(kBytes, 6);
  aclmdlRI ri = Capture(graph_stream, [&](aclrtStream st) {
    EXPECT_ACL_OK(aclrtStreamWaitEventWithFlag(st, e, 0, ACL_EVENT_WAIT_EXTERNAL));
    EXPECT_ACL_OK(aclrtMemcpyAsync(dst.get(), kBytes, src.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, st));
    EXPECT_ACL_OK(aclrtResetEvent(e, st));
  }, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  for (int round = 0; round < 2; ++round) {
    data[0] = static_cast<uint8_t>(round + 1);
    ASSERT_ACL_OK(src.Upload(data.data(), kBytes));
    ASSERT_ACL_OK(aclrtRecordEvent(e, other));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, graph_stream));
    ASSERT_ACL_OK(aclrtSynchronizeStream(graph_stream));
    EXPECT_EQ(FirstDifference(dst.Read().data(), data.data(), kBytes), -1) << round;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, RecordInsideAGraphIsSeenByStreamsOutside) {
  Stream graph_stream, other;
  Event e(ACL_EVENT_SYNC, true);
  DevBuf src(kBytes), dst(kBytes);
  auto data = RandomBytes(kBytes, 7);
  ASSERT_ACL_OK(src.Upload(data.data(), kBytes));
  aclmdlRI ri = Capture(graph_stream, [&](aclrtStream st) {
    EXPECT_ACL_OK(aclrtMemcpyAsync(dst.get(), kBytes, src.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, st));
    EXPECT_ACL_OK(aclrtRecordEventWithFlag(e, st, ACL_EVENT_RECORD_EXTERNAL));
  }, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
  PinnedBuf out(kBytes);
  for (int round = 0; round < 2; ++round) {
    std::memset(out.get(), 0, kBytes);
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, graph_stream));
    ASSERT_ACL_OK(aclrtStreamWaitEvent(other, e));
    ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kBytes, dst.get(), kBytes, ACL_MEMCPY_DEVICE_TO_HOST, other));
    ASSERT_ACL_OK(aclrtSynchronizeStream(other));
    EXPECT_EQ(FirstDifference(out.get(), data.data(), kBytes), -1) << round;
  }
  ASSERT_ACL_OK(aclrtSynchronizeEvent(e));
  ASSERT_ACL_OK(aclrtSynchronizeStream(graph_stream));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

void CountCall(void* arg) { ++*static_cast<int*>(arg); }
void OtherCall(void*) {}

TEST_F(GraphTest, NamesIdsAndDestroyCallbacks) {
  Stream s;
  aclmdlRI a = Capture(s, [](aclrtStream) {});
  aclmdlRI b = Capture(s, [](aclrtStream) {});
  uint32_t ida = 0, idb = 0;
  ASSERT_ACL_OK(aclmdlRIGetId(a, &ida));
  ASSERT_ACL_OK(aclmdlRIGetId(b, &idb));
  EXPECT_NE(ida, idb);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetId(a, nullptr));
  char name[32];
  ASSERT_ACL_OK(aclmdlRIGetName(a, sizeof(name), name));
  EXPECT_STREQ(name, "");
  ASSERT_ACL_OK(aclmdlRISetName(a, "decoder-step"));
  ASSERT_ACL_OK(aclmdlRIGetName(a, sizeof(name), name));
  EXPECT_STREQ(name, "decoder-step");
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(a, 4, name));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetName(a, 0, name));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRISetName(a, nullptr));
  int calls = 0, unregistered = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroyRegisterCallback(a, nullptr, &calls));
  ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(a, CountCall, &calls));
  ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(a, CountCall, &calls));
  ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(b, CountCall, &unregistered));
  ASSERT_ACL_OK(aclmdlRIDestroyUnregisterCallback(b, CountCall));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIDestroyUnregisterCallback(b, OtherCall));
  EXPECT_ACL_OK(aclmdlRIDestroy(a));
  EXPECT_ACL_OK(aclmdlRIDestroy(b));
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(unregistered, 0);
}

TEST_F(GraphTest, DestroyDuringReplaysIsDeferredUntilTheyFinish) {
  Stream s;
  DevBuf src(kBytes), dst(kBytes);
  const auto data = RandomBytes(kBytes, 8);
  ASSERT_ACL_OK(src.Upload(data.data(), kBytes));
  aclmdlRI ri = Capture(s, [&](aclrtStream st) {
    for (int i = 0; i < 8; ++i) {
      EXPECT_ACL_OK(aclrtMemcpyAsync(dst.get(), kBytes, src.get(), kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, st));
    }
  });
  int calls = 0;
  ASSERT_ACL_OK(aclmdlRIDestroyRegisterCallback(ri, CountCall, &calls));
  for (int i = 0; i < 20; ++i) ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclmdlRIDestroy(ri));  // does not wait; the replays keep what they use
  EXPECT_EQ(calls, 1);
  EXPECT_BAD_HANDLE(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(FirstDifference(dst.Read().data(), data.data(), kBytes), -1);
}

TEST_F(GraphTest, DebugPrintWritesJson) {
  Stream s;
  DevBuf d(kBytes);
  aclmdlRI ri = Capture(s, [&](aclrtStream st) {
    EXPECT_ACL_OK(aclrtMemsetAsync(d.get(), kBytes, 1, kBytes, st));
    EXPECT_ACL_OK(aclrtValueWrite(d.get(), 7, 0, st));
  });
  const std::string path = testing::TempDir() + "graph_debug.json";
  ASSERT_ACL_OK(aclmdlRIDebugJsonPrint(ri, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE));
  std::ifstream f(path);
  std::stringstream text;
  text << f.rdbuf();
  EXPECT_NE(text.str().find("\"VALUE_WRITE\""), std::string::npos) << text.str();
  ASSERT_ACL_OK(aclmdlRIDebugJsonPrint(ri, path.c_str(), ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(ri, path.c_str(), 2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(ri, nullptr, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIDebugJsonPrint(ri, "/nonexistent-dir/x.json", 0));
  EXPECT_ACL_OK(aclmdlRIDebugPrint(ri));
  std::remove(path.c_str());
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, TasksIntrospectionAndParameterUpdates) {
  Stream s;
  Event e(ACL_EVENT_SYNC, true);
  DevBuf d(kBytes);
  ASSERT_ACL_OK(aclrtMemset(d.get(), kBytes, 0, kBytes));
  aclmdlRI ri = Capture(s, [&](aclrtStream st) {
    EXPECT_ACL_OK(aclrtMemsetAsync(d.get(), 64, 0x44, 64, st));
    EXPECT_ACL_OK(aclrtValueWrite(d.bytes() + 128, 0x1234, 0, st));
    EXPECT_ACL_OK(aclrtRecordEvent(e, st));
    EXPECT_ACL_OK(aclrtValueWrite(d.bytes() + 256, 0x99, 0, st));
  });
  uint32_t n = 0;
  ASSERT_ACL_OK(aclmdlRIGetStreams(ri, nullptr, &n));
  ASSERT_EQ(n, 1u);
  aclrtStream streams[1] = {};
  uint32_t zero = 0;
  EXPECT_ACL_ERR(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, aclmdlRIGetStreams(ri, streams, &zero));
  ASSERT_ACL_OK(aclmdlRIGetStreams(ri, streams, &n));
  EXPECT_EQ(streams[0], s.get());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIGetStreams(ri, streams, nullptr));
  uint32_t count = 0;
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(s, nullptr, &count));
  ASSERT_EQ(count, 4u);
  aclmdlRITask tasks[4] = {};
  uint32_t small = 2;
  EXPECT_ACL_ERR(ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY, aclmdlRIGetTasksByStream(s, tasks, &small));
  ASSERT_ACL_OK(aclmdlRIGetTasksByStream(s, tasks, &count));
  const aclmdlRITaskType want[] = {ACL_MODEL_RI_TASK_DEFAULT, ACL_MODEL_RI_TASK_VALUE_WRITE,
                                   ACL_MODEL_RI_TASK_EVENT_RECORD, ACL_MODEL_RI_TASK_VALUE_WRITE};
  for (uint32_t i = 0; i < 4; ++i) {
    aclmdlRITaskType type;
    ASSERT_ACL_OK(aclmdlRITaskGetType(tasks[i], &type));
    EXPECT_EQ(type, want[i]) << i;
    uint32_t seq = 99;
    ASSERT_ACL_OK(aclmdlRITaskGetSeqId(tasks[i], &seq));
    EXPECT_EQ(seq, i);
  }
  aclmdlRITaskParams p;
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[1], &p));
  EXPECT_EQ(p.type, ACL_MODEL_RI_TASK_VALUE_WRITE);
  EXPECT_EQ(p.valueWriteTaskParams.devAddr, d.bytes() + 128);
  EXPECT_EQ(p.valueWriteTaskParams.value, 0x1234u);
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[2], &p));
  EXPECT_EQ(p.eventRecordTaskParams.event, e.get());
  // Change the first value write, disable the second; effective after aclmdlRIUpdate.
  ASSERT_ACL_OK(aclmdlRITaskGetParams(tasks[1], &p));
  p.valueWriteTaskParams.value = 0xabcdef;
  ASSERT_ACL_OK(aclmdlRITaskSetParams(tasks[1], &p));
  ASSERT_ACL_OK(aclmdlRITaskDisable(tasks[3]));
  p.type = ACL_MODEL_RI_TASK_KERNEL;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(tasks[1], &p));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskSetParams(tasks[1], nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRITaskGetType(nullptr, nullptr));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  uint64_t v = 0;
  ASSERT_ACL_OK(d.Download(&v, 8, 128));
  EXPECT_EQ(v, 0x1234u) << "not yet applied";
  ASSERT_ACL_OK(d.Download(&v, 8, 256));
  EXPECT_EQ(v, 0x99u);
  ASSERT_ACL_OK(aclrtMemset(d.get(), kBytes, 0, kBytes));
  ASSERT_ACL_OK(aclmdlRIUpdate(ri));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(d.Download(&v, 8, 128));
  EXPECT_EQ(v, 0xabcdefu);
  ASSERT_ACL_OK(d.Download(&v, 8, 256));
  EXPECT_EQ(v, 0u) << "disabled task ran";
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
  aclmdlRITaskType type;
  EXPECT_BAD_HANDLE(aclmdlRITaskGetType(tasks[0], &type));
}

TEST_F(GraphTest, TaskGroupsAreRecapturedInPlace) {
  Stream s, update;
  DevBuf d(kBytes);
  aclrtTaskGrp grp = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRICaptureTaskGrpBegin(s));
  aclmdlRI ri = Capture(s, [&](aclrtStream st) {
    EXPECT_ACL_OK(aclrtMemsetAsync(d.get(), 64, 0x01, 64, st));
    EXPECT_ACL_ERR(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpEnd(st, &grp));
    EXPECT_ACL_OK(aclmdlRICaptureTaskGrpBegin(st));
    EXPECT_ACL_ERR(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskGrpBegin(st));
    EXPECT_ACL_OK(aclrtMemsetAsync(d.bytes() + 64, 64, 0x02, 64, st));
    EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICaptureTaskGrpEnd(st, nullptr));
    EXPECT_ACL_OK(aclmdlRICaptureTaskGrpEnd(st, &grp));
  });
  ASSERT_NE(grp, nullptr);
  ASSERT_ACL_OK(aclmdlRIExecute(ri, -1));
  auto bytes = d.Read();
  EXPECT_TRUE(AllBytesAre(bytes.data() + 64, 64, 0x02));
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateBegin(update, grp));
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_TASK_GROUP_STATUS, aclmdlRICaptureTaskUpdateBegin(update, grp));
  ASSERT_ACL_OK(aclrtMemsetAsync(d.bytes() + 64, 64, 0x7e, 64, update));
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateEnd(update));
  ASSERT_ACL_OK(aclmdlRIExecute(ri, -1));
  bytes = d.Read();
  EXPECT_TRUE(AllBytesAre(bytes.data(), 64, 0x01));
  EXPECT_TRUE(AllBytesAre(bytes.data() + 64, 64, 0x7e));
  // An update that does not match the group's tasks fails and leaves the graph as it was.
  ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateBegin(update, grp));
  ASSERT_ACL_OK(aclrtMemsetAsync(d.bytes() + 64, 64, 0x10, 64, update));
  ASSERT_ACL_OK(aclrtMemsetAsync(d.bytes() + 64, 64, 0x11, 64, update));
  EXPECT_ACL_ERR(ACL_ERROR_RT_MODEL_UPDATE_FAILED, aclmdlRICaptureTaskUpdateEnd(update));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, aclmdlRICaptureTaskUpdateEnd(update));
  ASSERT_ACL_OK(aclmdlRIExecute(ri, -1));
  EXPECT_TRUE(AllBytesAre(d.Read().data() + 64, 64, 0x7e));
  EXPECT_BAD_HANDLE(aclmdlRICaptureTaskUpdateBegin(update, s.get()));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, ExplicitBuildWithActivationAndSwitch) {
  Stream head(0, ACL_STREAM_PERSISTENT), branch(0, ACL_STREAM_PERSISTENT), other(0, ACL_STREAM_PERSISTENT);
  Stream plain, exec;
  DevBuf d(kBytes), sel(16);
  aclmdlRI ri = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(&ri, 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildBegin(nullptr, 0));
  ASSERT_ACL_OK(aclmdlRIBuildBegin(&ri, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, plain, ACL_MODEL_STREAM_FLAG_HEAD));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, head, 5));
  ASSERT_ACL_OK(aclmdlRIBindStream(ri, head, ACL_MODEL_STREAM_FLAG_HEAD));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, branch, ACL_MODEL_STREAM_FLAG_HEAD));
  ASSERT_ACL_OK(aclmdlRIBindStream(ri, branch, ACL_MODEL_STREAM_FLAG_DEFAULT));
  ASSERT_ACL_OK(aclmdlRIBindStream(ri, other, ACL_MODEL_STREAM_FLAG_DEFAULT));
  ASSERT_ACL_OK(aclrtSynchronizeStream(head)) << "a bound persistent stream synchronizes at once";
  // head: fill, then run `branch` if sel[0] == sel[1] (int32), else `other`; always activate `other`.
  ASSERT_ACL_OK(aclrtMemsetAsync(d.get(), 64, 0x0a, 64, head));
  ASSERT_ACL_OK(aclrtSwitchStream(sel.get(), ACL_RT_EQUAL, sel.bytes() + 4, ACL_RT_SWITCH_INT32, branch, nullptr, head));
  ASSERT_ACL_OK(aclrtActiveStream(other, head));
  ASSERT_ACL_OK(aclrtMemsetAsync(d.bytes() + 64, 64, 0x0b, 64, branch));
  ASSERT_ACL_OK(aclrtMemsetAsync(d.bytes() + 128, 64, 0x0c, 64, other));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtSwitchStream(sel.get(), static_cast<aclrtCondition>(9), sel.get(), ACL_RT_SWITCH_INT32, branch,
                                   nullptr, head));
  EXPECT_ACL_ERR(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, aclrtActiveStream(other, plain));
  ASSERT_ACL_OK(aclmdlRIEndTask(ri, head));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBuildEnd(ri, d.get()));
  ASSERT_ACL_OK(aclmdlRIBuildEnd(ri, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIBindStream(ri, plain, ACL_MODEL_STREAM_FLAG_DEFAULT));
  const int32_t equal[2] = {5, 5}, differ[2] = {5, 6};
  for (int round = 0; round < 2; ++round) {
    ASSERT_ACL_OK(sel.Upload(round == 0 ? equal : differ, 8));
    ASSERT_ACL_OK(aclrtMemset(d.get(), kBytes, 0, kBytes));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, exec));
    ASSERT_ACL_OK(aclrtSynchronizeStream(exec));
    auto bytes = d.Read();
    EXPECT_TRUE(AllBytesAre(bytes.data(), 64, 0x0a));
    EXPECT_TRUE(AllBytesAre(bytes.data() + 64, 64, round == 0 ? 0x0b : 0x00)) << round;
    EXPECT_TRUE(AllBytesAre(bytes.data() + 128, 64, 0x0c));
  }
  ASSERT_ACL_OK(aclmdlRIUnbindStream(ri, head));
  ASSERT_ACL_OK(aclmdlRIUnbindStream(ri, branch));
  ASSERT_ACL_OK(aclmdlRIUnbindStream(ri, other));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIUnbindStream(ri, plain));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIEndTask(ri, head));
  EXPECT_ACL_OK(aclrtPersistentTaskClean(head));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtPersistentTaskClean(plain));
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

TEST_F(GraphTest, ConditionalTasksIfWhileSwitch) {
  Stream s, sub, exec;
  DevBuf d(kBytes), zero(8);
  ASSERT_ACL_OK(aclrtMemset(zero.get(), 8, 0, 8));
  aclmdlRI parent = nullptr;
  uint64_t* cond = nullptr;
  aclmdlRI branches[3] = {};
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
  aclmdlRICaptureStatus status = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &status, &parent));
  EXPECT_EQ(status, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
  aclmdlRICondHandle h = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleCreate(parent, 0, static_cast<aclmdlRICondHandleFlag>(5), &h));
  ASSERT_ACL_OK(aclmdlRICondHandleCreate(parent, 0, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
  ASSERT_ACL_OK(aclmdlRICondHandleGetCondPtr(h, &cond));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRICondHandleGetCondPtr(h, nullptr));
  aclmdlRICondTaskParams p{h, ACL_MODEL_RI_COND_TYPE_SWITCH, 3, branches};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIAddCondTask(p, s, 1));
  aclmdlRICondTaskParams bad{h, ACL_MODEL_RI_COND_TYPE_WHILE, 2, branches};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclmdlRIAddCondTask(bad, s, 0));
  EXPECT_ACL_ERR(ACL_ERROR_RT_STREAM_NOT_CAPTURED, aclmdlRIAddCondTask(p, exec, 0));
  ASSERT_ACL_OK(aclmdlRIAddCondTask(p, s, 0));
  for (int i = 0; i < 3; ++i) {
    ASSERT_NE(branches[i], nullptr);
    ASSERT_ACL_OK(aclmdlRICaptureToModelRIBegin(sub, branches[i], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
    ASSERT_ACL_OK(aclrtMemsetAsync(d.get(), 64, 0x30 + i, 64, sub));
    ASSERT_ACL_OK(aclmdlRICaptureEnd(sub, &branches[i]));
  }
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &parent));
  for (uint64_t v : {2u, 0u, 1u, 7u}) {
    ASSERT_ACL_OK(aclrtMemset(d.get(), kBytes, 0, kBytes));
    ASSERT_ACL_OK(aclrtMemcpy(cond, 8, &v, 8, ACL_MEMCPY_HOST_TO_DEVICE));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(parent, exec));
    ASSERT_ACL_OK(aclrtSynchronizeStream(exec));
    EXPECT_TRUE(AllBytesAre(d.Read().data(), 64, v < 3 ? static_cast<uint8_t>(0x30 + v) : 0)) << v;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(parent));
  // WHILE: the body clears the condition, so it runs once per launch; IF with a single branch.
  aclmdlRI body[1] = {};
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
  aclmdlRICaptureStatus st;
  ASSERT_ACL_OK(aclmdlRICaptureGetInfo(s, &st, &parent));
  ASSERT_ACL_OK(aclmdlRICondHandleCreate(parent, 1, ACL_MODEL_RI_COND_HANDLE_ASSIGN_DEFAULT, &h));
  ASSERT_ACL_OK(aclmdlRICondHandleGetCondPtr(h, &cond));
  aclmdlRICondTaskParams w{h, ACL_MODEL_RI_COND_TYPE_WHILE, 1, body};
  ASSERT_ACL_OK(aclmdlRIAddCondTask(w, s, 0));
  ASSERT_ACL_OK(aclmdlRICaptureToModelRIBegin(sub, body[0], ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL));
  ASSERT_ACL_OK(aclrtMemcpyAsync(d.get(), 8, d.bytes() + 8, 8, ACL_MEMCPY_DEVICE_TO_DEVICE, sub));
  ASSERT_ACL_OK(aclrtMemcpyAsync(cond, 8, zero.get(), 8, ACL_MEMCPY_DEVICE_TO_DEVICE, sub));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(sub, &body[0]));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s, &parent));
  const uint64_t marker = 0x1122334455667788ull, one = 1;
  ASSERT_ACL_OK(aclrtMemset(d.get(), kBytes, 0, kBytes));
  ASSERT_ACL_OK(d.Upload(&marker, 8, 8));
  ASSERT_ACL_OK(aclmdlRIExecuteAsync(parent, exec));
  ASSERT_ACL_OK(aclrtSynchronizeStream(exec));
  uint64_t got = 0, c = 9;
  ASSERT_ACL_OK(d.Download(&got, 8));
  EXPECT_EQ(got, marker);
  ASSERT_ACL_OK(aclrtMemcpy(&c, 8, cond, 8, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT_EQ(c, 0u);
  ASSERT_ACL_OK(aclrtMemcpy(cond, 8, &one, 8, ACL_MEMCPY_HOST_TO_DEVICE));
  ASSERT_ACL_OK(aclmdlRIExecute(parent, -1));
  EXPECT_ACL_OK(aclmdlRIDestroy(parent));
  EXPECT_BAD_HANDLE(aclmdlRICondHandleGetCondPtr(h, &cond));
}

// Capture while other threads launch on their own streams; replay one graph from several streams and
// threads; update it between replays. Every replay's result is checked.
TEST_F(GraphTest, StressCaptureReplayAndUpdate) {
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  constexpr int kTasks = 64;
  Stream cap;
  DevBuf d(kTasks * 64);
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> noise;
  for (int t = 0; t < 2; ++t) {
    noise.emplace_back([&, t] {
      aclrtSetCurrentContext(ctx);
      aclrtStream st = nullptr;
      void* buf = nullptr;
      if (aclrtCreateStream(&st) != ACL_SUCCESS || aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        ++failures;
        return;
      }
      while (!stop.load()) {
        for (int i = 0; i < 16; ++i) {
          if (aclrtMemsetAsync(buf, 4096, t + i, 4096, st) != ACL_SUCCESS) ++failures;
        }
        if (aclrtSynchronizeStream(st) != ACL_SUCCESS) ++failures;
      }
      aclrtDestroyStream(st);
      aclrtFree(buf);
    });
  }
  aclrtTaskGrp grp = nullptr;
  aclmdlRI ri = Capture(cap, [&](aclrtStream st) {
    for (int i = 0; i < kTasks; ++i) {
      if (i == kTasks / 2) {
        EXPECT_ACL_OK(aclmdlRICaptureTaskGrpBegin(st));
      }
      EXPECT_ACL_OK(aclrtMemsetAsync(d.bytes() + i * 64, 64, i + 1, 64, st));
      if (i == kTasks / 2) {
        EXPECT_ACL_OK(aclmdlRICaptureTaskGrpEnd(st, &grp));
      }
    }
  }, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
  ASSERT_NE(ri, nullptr);
  std::vector<std::thread> players;
  for (int t = 0; t < 3; ++t) {
    players.emplace_back([&] {
      aclrtSetCurrentContext(ctx);
      aclrtStream st = nullptr;
      if (aclrtCreateStream(&st) != ACL_SUCCESS) {
        ++failures;
        return;
      }
      for (int r = 0; r < 40; ++r) {
        if (aclmdlRIExecuteAsync(ri, st) != ACL_SUCCESS) ++failures;
      }
      if (aclrtSynchronizeStream(st) != ACL_SUCCESS) ++failures;
      aclrtDestroyStream(st);
    });
  }
  Stream update;
  for (int u = 0; u < 10; ++u) {
    ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateBegin(update, grp));
    ASSERT_ACL_OK(aclrtMemsetAsync(d.bytes() + (kTasks / 2) * 64, 64, 0x80 + u, 64, update));
    ASSERT_ACL_OK(aclmdlRICaptureTaskUpdateEnd(update));
  }
  for (auto& t : players) t.join();
  stop.store(true);
  for (auto& t : noise) t.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_ACL_OK(aclmdlRIExecute(ri, -1));
  auto bytes = d.Read();
  for (int i = 0; i < kTasks; ++i) {
    EXPECT_TRUE(AllBytesAre(bytes.data() + i * 64, 64, i == kTasks / 2 ? 0x89 : i + 1)) << i;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

}  // namespace
}  // namespace cts
