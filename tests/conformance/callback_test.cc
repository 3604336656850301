// Report callbacks (subscribe / launch / process / unsubscribe), host functions (runtime-run and
// subscribed), exception-info callbacks and accessors, thread task ids.
#include <array>
#include <mutex>

#include "test_util.h"

namespace cts {
namespace {

using CallbackTest = CtsTest;

struct Recorder {
  std::mutex mu;
  std::vector<int> order;
  std::vector<std::thread::id> threads;
  std::vector<std::vector<uint8_t>> seen;  // snapshot of `watch` when the callback ran
  const uint8_t* watch = nullptr;
  size_t watch_size = 0;
  std::atomic<int> count{0};
};

struct Call {
  Recorder* rec;
  int index;
};

void RecordCall(void* arg) {
  auto* c = static_cast<Call*>(arg);
  Recorder* r = c->rec;
  std::lock_guard<std::mutex> lock(r->mu);
  r->order.push_back(c->index);
  r->threads.push_back(std::this_thread::get_id());
  if (r->watch != nullptr) r->seen.emplace_back(r->watch, r->watch + r->watch_size);
  r->count.fetch_add(1);
}

TEST_F(CallbackTest, LaunchedCallbacksRunInOrderOnTheSubscribedThread) {
  for (aclrtCallbackBlockType block : {ACL_CALLBACK_NO_BLOCK, ACL_CALLBACK_BLOCK}) {
    SCOPED_TRACE(block);
    Stream s;
    CallbackThread worker;
    ASSERT_ACL_OK(aclrtSubscribeReport(worker.id(), s));
    worker.Start();
    Recorder rec;
    constexpr int kCalls = 50;
    std::vector<Call> calls;
    for (int i = 0; i < kCalls; ++i) calls.push_back({&rec, i});
    for (int i = 0; i < kCalls; ++i) {
      ASSERT_ACL_OK(aclrtLaunchCallback(&RecordCall, &calls[i], block, s));
    }
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
    if (block == ACL_CALLBACK_BLOCK) {
      EXPECT_EQ(kCalls, rec.count.load()) << "blocking callbacks have run when the stream is done";
    }
    ASSERT_TRUE(WaitFor([&] { return rec.count.load() == kCalls; }));
    worker.Stop();
    ASSERT_ACL_OK(aclrtUnSubscribeReport(worker.id(), s));
    std::lock_guard<std::mutex> lock(rec.mu);
    for (int i = 0; i < kCalls; ++i) {
      EXPECT_EQ(i, rec.order[i]);
      EXPECT_EQ(worker.std_id(), rec.threads[i]) << "callbacks run on the subscribed thread";
    }
    EXPECT_EQ(0, worker.unexpected_errors());
  }
}

TEST_F(CallbackTest, BlockingCallbackIsOrderedWithCopies) {
  // H2D(X) -> D2H(pinned) -> callback (sees X) -> H2D(Y) -> D2H(pinned): with ACL_CALLBACK_BLOCK the
  // second D2H waits for the callback, so the callback's snapshot is exactly X.
  constexpr size_t n = 256 << 10;
  Stream s;
  CallbackThread worker;
  ASSERT_ACL_OK(aclrtSubscribeReport(worker.id(), s));
  worker.Start();
  DevBuf dev(n);
  PinnedBuf pinned(n);
  std::memset(pinned.get(), 0, n);
  const std::vector<uint8_t> x = RandomBytes(n, 101), y = RandomBytes(n, 102);
  Recorder rec;
  rec.watch = pinned.bytes();
  rec.watch_size = n;
  Call first{&rec, 0}, second{&rec, 1};
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, x.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(pinned.get(), n, dev.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtLaunchCallback(&RecordCall, &first, ACL_CALLBACK_BLOCK, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, y.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(pinned.get(), n, dev.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtLaunchCallback(&RecordCall, &second, ACL_CALLBACK_BLOCK, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  worker.Stop();
  ASSERT_ACL_OK(aclrtUnSubscribeReport(worker.id(), s));
  std::lock_guard<std::mutex> lock(rec.mu);
  ASSERT_EQ(2u, rec.seen.size());
  EXPECT_EQ(x, rec.seen[0]);
  EXPECT_EQ(y, rec.seen[1]);
}

TEST_F(CallbackTest, OneThreadServesSeveralStreams) {
  Stream a, b, c;
  CallbackThread worker;
  for (aclrtStream s : {a.get(), b.get(), c.get()}) {
    ASSERT_ACL_OK(aclrtSubscribeReport(worker.id(), s));
  }
  worker.Start();
  Recorder rec;
  std::vector<Call> calls;
  for (int i = 0; i < 30; ++i) calls.push_back({&rec, i});
  aclrtStream streams[] = {a.get(), b.get(), c.get()};
  for (int i = 0; i < 30; ++i) {
    ASSERT_ACL_OK(aclrtLaunchCallback(&RecordCall, &calls[i], ACL_CALLBACK_BLOCK, streams[i % 3]));
  }
  for (aclrtStream s : streams) {
    ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  }
  EXPECT_EQ(30, rec.count.load());
  worker.Stop();
  for (aclrtStream s : streams) {
    ASSERT_ACL_OK(aclrtUnSubscribeReport(worker.id(), s));
  }
}

TEST_F(CallbackTest, SubscriptionErrors) {
  Stream s;
  Recorder rec;
  Call call{&rec, 0};
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtLaunchCallback(&RecordCall, &call, ACL_CALLBACK_BLOCK, s));
  EXPECT_ACL_ERR(ACL_ERROR_THREAD_NOT_SUBSCRIBE, aclrtProcessReport(10));
  const uint64_t me = CurrentThreadId();
  ASSERT_ACL_OK(aclrtSubscribeReport(me, s));
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_SUBSCRIBE, aclrtSubscribeReport(me, s));
  CallbackThread other;
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_SUBSCRIBE, aclrtSubscribeReport(other.id(), s)) << "one thread per stream";
  // Subscribed but nothing to do: the wait times out.
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_ACL_ERR(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, aclrtProcessReport(30));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(25));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(-2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProcessReport(0)) << "0 is not a valid timeout";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchCallback(nullptr, &call, ACL_CALLBACK_BLOCK, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM,
                 aclrtLaunchCallback(&RecordCall, &call, static_cast<aclrtCallbackBlockType>(5), s));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(me, s));
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtUnSubscribeReport(me, s));
  EXPECT_ACL_ERR(ACL_ERROR_THREAD_NOT_SUBSCRIBE, aclrtProcessReport(10));
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtLaunchCallback(&RecordCall, &call, ACL_CALLBACK_NO_BLOCK, s));
  EXPECT_EQ(0, rec.count.load());
}

TEST_F(CallbackTest, ProcessReportOnTheLaunchingThread) {
  // A single thread may launch non-blocking callbacks and process them itself.
  Stream s;
  ASSERT_ACL_OK(aclrtSubscribeReport(CurrentThreadId(), s));
  Recorder rec;
  Call a{&rec, 0}, b{&rec, 1};
  ASSERT_ACL_OK(aclrtLaunchCallback(&RecordCall, &a, ACL_CALLBACK_NO_BLOCK, s));
  ASSERT_ACL_OK(aclrtLaunchCallback(&RecordCall, &b, ACL_CALLBACK_NO_BLOCK, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (rec.count.load() < 2 && std::chrono::steady_clock::now() < deadline) {
    const aclError e = aclrtProcessReport(100);
    ASSERT_TRUE(e == ACL_SUCCESS || e == ACL_ERROR_WAIT_CALLBACK_TIMEOUT) << e;
  }
  EXPECT_EQ(2, rec.count.load());
  EXPECT_EQ(std::this_thread::get_id(), rec.threads[0]);
  ASSERT_ACL_OK(aclrtUnSubscribeReport(CurrentThreadId(), s));
}

// ---------------------------------------------------------------------------------------------
// Host functions
// ---------------------------------------------------------------------------------------------

TEST_F(CallbackTest, HostFunctionsRunInStreamOrder) {
  Stream s;
  Recorder rec;
  constexpr int kCalls = 200;
  std::vector<Call> calls;
  for (int i = 0; i < kCalls; ++i) calls.push_back({&rec, i});
  for (int i = 0; i < kCalls; ++i) {
    ASSERT_ACL_OK(aclrtLaunchHostFunc(s, &RecordCall, &calls[i]));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(kCalls, rec.count.load()) << "the stream waits for its host functions";
  for (int i = 0; i < kCalls; ++i) {
    EXPECT_EQ(i, rec.order[i]);
  }
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtLaunchHostFunc(s, nullptr, nullptr));
}

struct Rewrite {
  uint8_t* pinned;
  size_t n;
  std::vector<uint8_t> seen;
  std::vector<uint8_t> replacement;
};

void SnapshotAndRewrite(void* arg) {
  auto* r = static_cast<Rewrite*>(arg);
  r->seen.assign(r->pinned, r->pinned + r->n);
  std::memcpy(r->pinned, r->replacement.data(), r->n);
}

TEST_F(CallbackTest, HostFunctionIsOrderedWithCopiesBothWays) {
  // The host function sees the preceding D2H and its write is seen by the following H2D.
  constexpr size_t n = 128 << 10;
  Stream s;
  DevBuf dev(n), dev2(n);
  PinnedBuf pinned(n);
  const std::vector<uint8_t> x = RandomBytes(n, 103);
  Rewrite r{pinned.bytes(), n, {}, RandomBytes(n, 104)};
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev.get(), n, x.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtMemcpyAsync(pinned.get(), n, dev.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, s));
  ASSERT_ACL_OK(aclrtLaunchHostFunc(s, &SnapshotAndRewrite, &r));
  ASSERT_ACL_OK(aclrtMemcpyAsync(dev2.get(), n, pinned.get(), n, ACL_MEMCPY_HOST_TO_DEVICE, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(x, r.seen);
  EXPECT_EQ(r.replacement, dev2.Read());
}

TEST_F(CallbackTest, SubscribedHostFunctionsRunOnTheSubscribedThread) {
  Stream s;
  CallbackThread worker(CallbackThread::Kind::kHostFunc);
  ASSERT_ACL_OK(aclrtSubscribeHostFunc(worker.id(), s));
  worker.Start();
  Recorder rec;
  std::vector<Call> calls;
  for (int i = 0; i < 20; ++i) calls.push_back({&rec, i});
  for (int i = 0; i < 20; ++i) {
    ASSERT_ACL_OK(aclrtLaunchHostFunc(s, &RecordCall, &calls[i]));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_EQ(20, rec.count.load());
  for (int i = 0; i < 20; ++i) {
    EXPECT_EQ(i, rec.order[i]);
    EXPECT_EQ(worker.std_id(), rec.threads[i]);
  }
  worker.Stop();
  EXPECT_ACL_ERR(ACL_ERROR_REPEAT_SUBSCRIBE, aclrtSubscribeHostFunc(worker.id(), s));
  ASSERT_ACL_OK(aclrtUnSubscribeHostFunc(worker.id(), s));
  EXPECT_ACL_ERR(ACL_ERROR_STREAM_NOT_SUBSCRIBE, aclrtUnSubscribeHostFunc(worker.id(), s));
  // Unsubscribed: the runtime runs host functions itself again.
  Call last{&rec, 20};
  ASSERT_ACL_OK(aclrtLaunchHostFunc(s, &RecordCall, &last));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(21, rec.count.load());
  EXPECT_NE(worker.std_id(), rec.threads[20]);
  EXPECT_EQ(0, worker.unexpected_errors());
}

TEST_F(CallbackTest, ProcessHostFuncErrors) {
  EXPECT_ACL_ERR(ACL_ERROR_THREAD_NOT_SUBSCRIBE, aclrtProcessHostFunc(10));
  Stream s;
  ASSERT_ACL_OK(aclrtSubscribeHostFunc(CurrentThreadId(), s));
  EXPECT_ACL_ERR(ACL_ERROR_WAIT_CALLBACK_TIMEOUT, aclrtProcessHostFunc(20));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtProcessHostFunc(-3));
  ASSERT_ACL_OK(aclrtUnSubscribeHostFunc(CurrentThreadId(), s));
}

// ---------------------------------------------------------------------------------------------
// Exception callbacks and task ids
// ---------------------------------------------------------------------------------------------

struct ExceptionLog {
  std::mutex mu;
  std::vector<std::array<uint32_t, 5>> infos;  // task, stream, thread, device, error
};
ExceptionLog* g_exceptions = nullptr;

void OnException(aclrtExceptionInfo* info) {
  if (g_exceptions == nullptr) return;
  std::lock_guard<std::mutex> lock(g_exceptions->mu);
  g_exceptions->infos.push_back({aclrtGetTaskIdFromExceptionInfo(info), aclrtGetStreamIdFromExceptionInfo(info),
                                 aclrtGetThreadIdFromExceptionInfo(info), aclrtGetDeviceIdFromExceptionInfo(info),
                                 aclrtGetErrorCodeFromExceptionInfo(info)});
}

void OnExceptionToo(aclrtExceptionInfo* info) { OnException(info); }

TEST_F(CallbackTest, ExceptionCallbackRegistration) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackRegister(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtExceptionInfoCallbackUnregister(nullptr));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(&OnException));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(&OnException));
  EXPECT_ACL_OK(aclrtSetExceptionInfoCallback(&OnException));
  EXPECT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
}

TEST_F(CallbackTest, ExceptionCallbackRegisteredTwiceFiresOnce) {
  // Registering the same callback again is either rejected or has no further effect; either way one
  // failure calls it once, and one unregister removes it.
  ExceptionLog log;
  g_exceptions = &log;
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(&OnException));
  const aclError again = aclrtExceptionInfoCallbackRegister(&OnException);
  EXPECT_TRUE(again == ACL_SUCCESS || again == ACL_ERROR_INVALID_PARAM) << again;
  ClearErrorState();
  Stream s;
  aclrtNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s, 5));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(s));
  {
    std::lock_guard<std::mutex> lock(log.mu);
    EXPECT_EQ(1u, log.infos.size());
  }
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(&OnException));
  Stream t;
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, t, 5));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(t));
  {
    std::lock_guard<std::mutex> lock(log.mu);
    EXPECT_EQ(1u, log.infos.size()) << "unregistered callbacks are not called";
  }
  g_exceptions = nullptr;
  const aclError unknown = aclrtExceptionInfoCallbackUnregister(&OnException);
  EXPECT_TRUE(unknown == ACL_SUCCESS || unknown == ACL_ERROR_INVALID_PARAM) << unknown;
  ClearErrorState();
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

TEST_F(CallbackTest, ExceptionInfoAccessorsOnNull) {
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetTaskIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetStreamIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetThreadIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetDeviceIdFromExceptionInfo(nullptr));
  EXPECT_EQ(0xFFFFFFFFu, aclrtGetErrorCodeFromExceptionInfo(nullptr));
  void* args = nullptr;
  uint32_t len = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetArgsFromExceptionInfo(nullptr, &args, &len));
  aclrtFuncHandle func = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetFuncHandleFromExceptionInfo(nullptr, &func));
}

TEST_F(CallbackTest, ExceptionCallbacksDescribeAFailedTask) {
  ExceptionLog log;
  g_exceptions = &log;
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackRegister(&OnException));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(&OnExceptionToo));
  Stream s;
  aclrtNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s, 10));  // nobody records: times out
  uint32_t task = 0;
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&task));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(s));
  int32_t stream_id = -1;
  ASSERT_ACL_OK(aclrtStreamGetId(s, &stream_id));
  ASSERT_ACL_OK(aclrtExceptionInfoCallbackUnregister(&OnException));
  ASSERT_ACL_OK(aclrtSetExceptionInfoCallback(nullptr));
  g_exceptions = nullptr;
  std::lock_guard<std::mutex> lock(log.mu);
  ASSERT_EQ(2u, log.infos.size()) << "both the registered and the legacy callback fire once";
  for (const auto& info : log.infos) {
    EXPECT_EQ(task, info[0]);
    EXPECT_EQ(static_cast<uint32_t>(stream_id), info[1]);
    EXPECT_EQ(0u, info[3]);
    EXPECT_EQ(static_cast<uint32_t>(ACL_ERROR_RT_TASK_TIMEOUT), info[4]);
  }
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

TEST_F(CallbackTest, ThreadLastTaskIdIncreases) {
  Stream s;
  DevBuf buf(4096);
  uint32_t prev = 0;
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&prev));
  for (int i = 0; i < 20; ++i) {
    ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), 4096, i, 4096, i % 2 ? s.get() : nullptr));
    uint32_t id = 0;
    ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&id));
    EXPECT_GT(id, prev) << "submission " << i;
    prev = id;
  }
  ASSERT_ACL_OK(aclrtSynchronizeDevice());
  uint32_t after_sync = 0;
  ASSERT_ACL_OK(aclrtGetThreadLastTaskId(&after_sync));
  EXPECT_EQ(prev, after_sync) << "synchronizing submits nothing";
  uint32_t theirs = 1;
  std::thread([&] { EXPECT_ACL_OK(aclrtGetThreadLastTaskId(&theirs)); }).join();
  EXPECT_EQ(0u, theirs) << "a thread that submitted nothing has no last task";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetThreadLastTaskId(nullptr));
}

TEST_F(CallbackTest, ProcessReportWithoutTimeoutWaitsForACallback) {
  Stream s;
  Recorder rec;
  Call call{&rec, 0};
  std::atomic<uint64_t> id{0};
  std::atomic<aclError> result{-1};
  std::thread worker([&] {
    id.store(CurrentThreadId());
    while (aclrtProcessReport(-1) == ACL_ERROR_THREAD_NOT_SUBSCRIBE) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));  // until the main thread subscribed us
    }
    result.store(ACL_SUCCESS);
  });
  ASSERT_TRUE(WaitFor([&] { return id.load() != 0; }));
  ASSERT_ACL_OK(aclrtSubscribeReport(id.load(), s));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(-1, result.load()) << "aclrtProcessReport(-1) returned with nothing to run";
  ASSERT_ACL_OK(aclrtLaunchCallback(&RecordCall, &call, ACL_CALLBACK_NO_BLOCK, s));
  worker.join();
  EXPECT_EQ(ACL_SUCCESS, result.load());
  EXPECT_EQ(1, rec.count.load());
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclrtUnSubscribeReport(id.load(), s));
}

}  // namespace
}  // namespace cts
