// Events: creation variants, record/query (three status enums, two numberings), synchronize with
// timeouts, stream waits with and without timeouts, cross-stream ordering, elapsed time and
// timestamps, ids, availability.
#include <set>

#include "test_util.h"

namespace cts {
namespace {

using EventTest = CtsTest;

TEST_F(EventTest, CreateVariants) {
  std::vector<aclrtEvent> events;
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  events.push_back(e);
  for (uint32_t flags : {uint32_t(ACL_EVENT_SYNC), uint32_t(ACL_EVENT_TIME_LINE), uint32_t(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE),
                         uint32_t(ACL_EVENT_CAPTURE_STREAM_PROGRESS), uint32_t(ACL_EVENT_DEVICE_USE_ONLY),
                         uint32_t(ACL_EVENT_EXTERNAL), 0u}) {
    SCOPED_TRACE(flags);
    ASSERT_ACL_OK(aclrtCreateEventWithFlag(&e, flags));
    events.push_back(e);
    ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&e, flags));
    events.push_back(e);
  }
  EXPECT_EQ(events.size(), std::set<aclrtEvent>(events.begin(), events.end()).size());
  for (aclrtEvent x : events) {
    EXPECT_ACL_OK(aclrtDestroyEvent(x));
  }
}

TEST_F(EventTest, CreateRejectsBadFlagsAndArguments) {
  aclrtEvent e = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEvent(nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(&e, 0x80000000u));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(&e, 0x100));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC))
      << "ACL_EVENT_EXTERNAL cannot be combined";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC | ACL_EVENT_TIME_LINE))
      << "ACL_EVENT_IPC cannot be combined";
  EXPECT_EQ(nullptr, e);
  std::thread([] {
    aclrtEvent x = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateEvent(&x));
    ClearErrorState();
  }).join();
}

// CANN (and the official sample 1_basic_features/event/0_event_status): the recorded status of a
// never-recorded event is NOT_READY for events of aclrtCreateEvent/aclrtCreateEventWithFlag and COMPLETE for
// the "new mode" events of aclrtCreateEventExWithFlag; aclrtQueryEvent and the wait status say complete.
TEST_F(EventTest, StatusBeforeAnyRecordFollowsTheCreationMode) {
  for (bool reusable : {false, true}) {
    Event e(ACL_EVENT_SYNC, reusable);
    aclrtEventRecordedStatus rs = reusable ? ACL_EVENT_RECORDED_STATUS_NOT_READY : ACL_EVENT_RECORDED_STATUS_COMPLETE;
    ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
    EXPECT_EQ(reusable ? ACL_EVENT_RECORDED_STATUS_COMPLETE : ACL_EVENT_RECORDED_STATUS_NOT_READY, rs)
        << (reusable ? "aclrtCreateEventExWithFlag" : "aclrtCreateEventWithFlag");
    aclrtEventStatus legacy = ACL_EVENT_STATUS_RESERVED;
    ASSERT_ACL_OK(aclrtQueryEvent(e, &legacy));
    EXPECT_EQ(ACL_EVENT_STATUS_COMPLETE, legacy);
    aclrtEventWaitStatus ws = ACL_EVENT_WAIT_STATUS_RESERVED;
    ASSERT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
    EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);
    EXPECT_ACL_OK(aclrtSynchronizeEvent(e)) << "synchronizing a never-recorded event returns at once";
  }
  aclrtEvent plain = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&plain));
  aclrtEventRecordedStatus rs = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  ASSERT_ACL_OK(aclrtQueryEventStatus(plain, &rs));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_NOT_READY, rs) << "aclrtCreateEvent";
  Stream s;
  ASSERT_ACL_OK(aclrtRecordEvent(plain, s));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(plain));
  ASSERT_ACL_OK(aclrtQueryEventStatus(plain, &rs));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, rs) << "once its record executed";
  ASSERT_ACL_OK(aclrtDestroyEvent(plain));
}

TEST_F(EventTest, QueryStatusNumberingsWhilePendingAndAfterCompletion) {
  // The two status enums number "complete" oppositely: check the raw values too.
  static_assert(ACL_EVENT_STATUS_COMPLETE == 0 && ACL_EVENT_STATUS_NOT_READY == 1, "aclrtEventStatus");
  static_assert(ACL_EVENT_RECORDED_STATUS_NOT_READY == 0 && ACL_EVENT_RECORDED_STATUS_COMPLETE == 1,
                "aclrtEventRecordedStatus");
  Stream s;
  Event e;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  aclrtEventRecordedStatus rs;
  aclrtEventStatus legacy;
  aclrtEventWaitStatus ws;
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(0, static_cast<int>(rs)) << "NOT_READY is 0 in aclrtEventRecordedStatus";
  ASSERT_ACL_OK(aclrtQueryEvent(e, &legacy));
  EXPECT_EQ(1, static_cast<int>(legacy)) << "NOT_READY is 1 in aclrtEventStatus";
  ASSERT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_NOT_READY, ws);
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeEvent(e));
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(1, static_cast<int>(rs));
  ASSERT_ACL_OK(aclrtQueryEvent(e, &legacy));
  EXPECT_EQ(0, static_cast<int>(legacy));
  ASSERT_ACL_OK(aclrtQueryEventWaitStatus(e, &ws));
  EXPECT_EQ(ACL_EVENT_WAIT_STATUS_COMPLETE, ws);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventStatus(e, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEvent(e, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtQueryEventWaitStatus(e, nullptr));
}

TEST_F(EventTest, RecordedEventCompletesWithItsStream) {
  Stream s;
  Event e;
  DevBuf buf(1 << 20);
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), buf.size(), 0x11, buf.size(), s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(e));
  aclrtEventRecordedStatus rs;
  ASSERT_ACL_OK(aclrtQueryEventStatus(e, &rs));
  EXPECT_EQ(ACL_EVENT_RECORDED_STATUS_COMPLETE, rs);
  const std::vector<uint8_t> back = buf.Read();
  EXPECT_TRUE(AllBytesAre(back.data(), back.size(), 0x11)) << "the event captured the fill before it";
  // Record on the NULL (default) stream and with the flag variant.
  ASSERT_ACL_OK(aclrtRecordEvent(e, nullptr));
  ASSERT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 10000));
  ASSERT_ACL_OK(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_DEFAULT));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(e));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtRecordEventWithFlag(e, s, 7));
}

TEST_F(EventTest, SynchronizeWithTimeout) {
  Stream s;
  Event e;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 40));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(35));
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 0)) << "0 polls";
  ASSERT_ACL_OK(gate.Open());
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 10000));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 0));
  EXPECT_ACL_OK(aclrtSynchronizeEventWithTimeout(e, -1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtSynchronizeEventWithTimeout(e, -2));
}

TEST_F(EventTest, HostSynchronizeFromAnotherThread) {
  Stream s;
  Event e;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  std::atomic<bool> done{false};
  std::thread waiter([&] {
    EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
    done.store(true);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(30));
  EXPECT_FALSE(done.load()) << "aclrtSynchronizeEvent returned before the event completed";
  ASSERT_ACL_OK(gate.Open());
  waiter.join();
  EXPECT_TRUE(done.load());
}

TEST_F(EventTest, StreamWaitOrdersWorkAcrossStreams) {
  constexpr size_t kSize = 1 << 20;
  Stream producer, consumer;
  Event e;
  DevBuf a(kSize), b(kSize);
  PinnedBuf src(kSize), out(kSize);
  FillRandom(src.get(), kSize, 51);
  std::memset(out.get(), 0, kSize);
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(producer));
  ASSERT_ACL_OK(aclrtMemcpyAsync(a.get(), kSize, src.get(), kSize, ACL_MEMCPY_HOST_TO_DEVICE, producer));
  ASSERT_ACL_OK(aclrtRecordEvent(e, producer));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, e));
  ASSERT_ACL_OK(aclrtMemcpyAsync(b.get(), kSize, a.get(), kSize, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, b.get(), kSize, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
  aclrtStreamStatus st;
  ASSERT_ACL_OK(aclrtStreamQuery(consumer, &st));
  EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st) << "the consumer waits for the producer's event";
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  EXPECT_EQ(-1, FirstDifference(out.get(), src.get(), kSize));
}

TEST_F(EventTest, ChainedStreamsOnRandomData) {
  // s0 -> s1 -> ... -> s5, each stage waits for the previous stage's event and transforms the data
  // (copy plus a fill of a random slice), several rounds reusing the events.
  constexpr int kStages = 6;
  constexpr int kRounds = 4;
  constexpr size_t kSize = 256 << 10;
  std::vector<std::unique_ptr<Stream>> streams;
  std::vector<std::unique_ptr<Event>> events;
  std::vector<std::unique_ptr<DevBuf>> bufs;
  for (int i = 0; i < kStages; ++i) {
    streams.push_back(std::make_unique<Stream>());
    events.push_back(std::make_unique<Event>());
    bufs.push_back(std::make_unique<DevBuf>(kSize));
  }
  PinnedBuf out(kSize);
  std::mt19937 rng(52);
  for (int round = 0; round < kRounds; ++round) {
    std::vector<uint8_t> expect = RandomBytes(kSize, 1000 + round);
    ASSERT_ACL_OK(aclrtMemcpyAsync(bufs[0]->get(), kSize, expect.data(), kSize, ACL_MEMCPY_HOST_TO_DEVICE,
                                   *streams[0]));
    ASSERT_ACL_OK(aclrtRecordEvent(*events[0], *streams[0]));
    for (int i = 1; i < kStages; ++i) {
      ASSERT_ACL_OK(aclrtStreamWaitEvent(*streams[i], *events[i - 1]));
      ASSERT_ACL_OK(aclrtMemcpyAsync(bufs[i]->get(), kSize, bufs[i - 1]->get(), kSize, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                     *streams[i]));
      const size_t off = rng() % (kSize - 1024), len = 1 + rng() % 1024;
      const uint8_t v = static_cast<uint8_t>(rng());
      ASSERT_ACL_OK(aclrtMemsetAsync(bufs[i]->bytes() + off, kSize - off, v, len, *streams[i]));
      std::memset(expect.data() + off, v, len);
      ASSERT_ACL_OK(aclrtRecordEvent(*events[i], *streams[i]));
    }
    ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), kSize, bufs[kStages - 1]->get(), kSize, ACL_MEMCPY_DEVICE_TO_HOST,
                                   *streams[kStages - 1]));
    ASSERT_ACL_OK(aclrtSynchronizeStream(*streams[kStages - 1]));
    ASSERT_EQ(-1, FirstDifference(out.get(), expect.data(), kSize)) << "round " << round;
    // The next round overwrites bufs[0]: the whole chain must be done with it.
    ASSERT_ACL_OK(aclrtSynchronizeDevice());
  }
}

TEST_F(EventTest, WaitOnANeverRecordedEventDoesNotBlock) {
  Stream s;
  Event e;
  ASSERT_ACL_OK(aclrtStreamWaitEvent(s, e));
  DevBuf buf(4096);
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), 4096, 0x42, 4096, s));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000));
}

TEST_F(EventTest, StreamWaitWithTimeoutFailsTheWaitingStream) {
  Stream producer, consumer;
  Event e;
  DevBuf buf(4096);
  const std::vector<uint8_t> before = RandomBytes(4096, 53);
  ASSERT_ACL_OK(buf.Upload(before.data(), 4096));
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(producer));
  ASSERT_ACL_OK(aclrtRecordEvent(e, producer));
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(consumer, ACL_STOP_ON_FAILURE));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(consumer, e, 30));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), 4096, 0, 4096, consumer));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStreamWithTimeout(consumer, 10000));
  EXPECT_EQ(before, buf.Read()) << "work after the failed wait is discarded (stop on failure)";
  ASSERT_ACL_OK(gate.Open());
  EXPECT_ACL_OK(aclrtSynchronizeStream(producer));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithTimeout(consumer, e, -2));
}

TEST_F(EventTest, StreamWaitWithTimeoutSucceedsWhenTheEventArrives) {
  Stream producer, consumer;
  Event e;
  DevBuf buf(4096);
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(producer));
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), 4096, 0x5e, 4096, producer));
  ASSERT_ACL_OK(aclrtRecordEvent(e, producer));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithTimeout(consumer, e, 20000));
  ASSERT_ACL_OK(aclrtStreamWaitEventWithFlag(consumer, e, 20000, ACL_EVENT_WAIT_DEFAULT));
  PinnedBuf out(4096);
  std::memset(out.get(), 0, 4096);
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), 4096, buf.get(), 4096, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
  std::thread opener([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_ACL_OK(gate.Open());
  });
  EXPECT_ACL_OK(aclrtSynchronizeStream(consumer));
  opener.join();
  EXPECT_TRUE(AllBytesAre(out.get(), 4096, 0x5e));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtStreamWaitEventWithFlag(consumer, e, 0, 9));
}

TEST_F(EventTest, ElapsedTime) {
  Stream s;
  Event start(ACL_EVENT_TIME_LINE), end(ACL_EVENT_TIME_LINE);
  DevBuf buf(8 << 20);
  ASSERT_ACL_OK(aclrtRecordEvent(start, s));
  for (int i = 0; i < 4; ++i) {
    ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), buf.size(), i, buf.size(), s));
  }
  ASSERT_ACL_OK(aclrtRecordEvent(end, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  float ms = -1.0f;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
  EXPECT_GE(ms, 0.0f);
  EXPECT_LT(ms, 60000.0f);
  float zero = -1.0f;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&zero, start, start));
  EXPECT_EQ(0.0f, zero);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventElapsedTime(nullptr, start, end));
}

TEST_F(EventTest, ElapsedTimeReversalAndNotRecorded) {
  Stream s;
  Event first(ACL_EVENT_TIME_LINE), second(ACL_EVENT_TIME_LINE), never(ACL_EVENT_TIME_LINE);
  ASSERT_ACL_OK(aclrtRecordEvent(first, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_ACL_OK(aclrtRecordEvent(second, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  float ms = 0;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, first, second));
  EXPECT_GT(ms, 0.0f);
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL, aclrtEventElapsedTime(&ms, second, first));
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime(&ms, first, never));
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventElapsedTime(&ms, never, first));
}

TEST_F(EventTest, ElapsedTimeOfAPendingEvent) {
  Stream s;
  Event start(ACL_EVENT_TIME_LINE), end(ACL_EVENT_TIME_LINE);
  ASSERT_ACL_OK(aclrtRecordEvent(start, s));
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtRecordEvent(end, s));
  float ms = 0;
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_NOT_COMPLETE, aclrtEventElapsedTime(&ms, start, end));
  ASSERT_ACL_OK(gate.Open());
  ASSERT_ACL_OK(aclrtSynchronizeEvent(end));
  EXPECT_ACL_OK(aclrtEventElapsedTime(&ms, start, end));
}

TEST_F(EventTest, Timestamps) {
  Stream s;
  Event a(ACL_EVENT_TIME_LINE), b(ACL_EVENT_TIME_LINE), never(ACL_EVENT_TIME_LINE);
  uint64_t ta = 0, tb = 0;
  EXPECT_ACL_ERR(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, aclrtEventGetTimestamp(never, &ta));
  ASSERT_ACL_OK(aclrtRecordEvent(a, s));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(a));
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  ASSERT_ACL_OK(aclrtRecordEvent(b, s));
  ASSERT_ACL_OK(aclrtSynchronizeEvent(b));
  ASSERT_ACL_OK(aclrtEventGetTimestamp(a, &ta));
  ASSERT_ACL_OK(aclrtEventGetTimestamp(b, &tb));
  EXPECT_GT(ta, 0u);
  EXPECT_GT(tb, ta);
  float ms = 0;
  ASSERT_ACL_OK(aclrtEventElapsedTime(&ms, a, b));
  EXPECT_NEAR(static_cast<double>(tb - ta) / 1000.0, ms, 0.01 + ms * 0.01) << "timestamps are in microseconds";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtEventGetTimestamp(a, nullptr));
}

TEST_F(EventTest, IdsAreDistinct) {
  std::set<uint32_t> ids;
  std::vector<std::unique_ptr<Event>> events;
  for (int i = 0; i < 32; ++i) {
    events.push_back(std::make_unique<Event>(ACL_EVENT_SYNC, i % 2 == 0));
    uint32_t id = 0;
    ASSERT_ACL_OK(aclrtGetEventId(*events.back(), &id));
    ids.insert(id);
  }
  EXPECT_EQ(32u, ids.size());
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetEventId(*events[0], nullptr));
}

TEST_F(EventTest, AvailableCountTracksEvents) {
  uint32_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&a0));
  EXPECT_GT(a0, 0u);
  aclrtEvent e = nullptr, f = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  ASSERT_ACL_OK(aclrtCreateEventWithFlag(&f, ACL_EVENT_TIME_LINE));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&a1));
  EXPECT_EQ(a0 - 2, a1);
  aclrtEvent reusable = nullptr;
  ASSERT_ACL_OK(aclrtCreateEventExWithFlag(&reusable, ACL_EVENT_SYNC));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&a2));
  EXPECT_EQ(a1, a2) << "aclrtCreateEventExWithFlag events are not hardware-limited";
  ASSERT_ACL_OK(aclrtDestroyEvent(e));
  ASSERT_ACL_OK(aclrtDestroyEvent(f));
  ASSERT_ACL_OK(aclrtDestroyEvent(reusable));
  ASSERT_ACL_OK(aclrtGetEventAvailNum(&a3));
  EXPECT_EQ(a0, a3);
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetEventAvailNum(nullptr));
}

TEST_F(EventTest, ResetSyncEvent) {
  Stream s;
  Event e(ACL_EVENT_SYNC);
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtResetEvent(e, s));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  EXPECT_ACL_OK(aclrtSynchronizeEvent(e));
}

TEST_F(EventTest, DestroyWithPendingRecordIsSafe) {
  Stream s, t;
  aclrtEvent e = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e));
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(t, e));
  ASSERT_ACL_OK(aclrtDestroyEvent(e));
  aclrtEventRecordedStatus rs;
  EXPECT_BAD_HANDLE(aclrtQueryEventStatus(e, &rs));
  ASSERT_ACL_OK(gate.Open());
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(t)) << "the queued wait still completes after the event was destroyed";
}

TEST_F(EventTest, EventsWorkAcrossContextsOfOneDevice) {
  aclrtContext def = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&def));
  Stream s;
  Event e;
  DevBuf buf(4096);
  ASSERT_ACL_OK(aclrtMemsetAsync(buf.get(), 4096, 0x21, 4096, s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtCreateContext(&ctx, 0));
  aclrtStream t = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&t));
  ASSERT_ACL_OK(aclrtStreamWaitEvent(t, e));
  std::vector<uint8_t> out(4096, 0);
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.data(), 4096, buf.get(), 4096, ACL_MEMCPY_DEVICE_TO_HOST, t));
  ASSERT_ACL_OK(aclrtSynchronizeStream(t));
  EXPECT_TRUE(AllBytesAre(out.data(), out.size(), 0x21));
  ASSERT_ACL_OK(aclrtDestroyStream(t));
  ASSERT_ACL_OK(aclrtSetCurrentContext(def));
  ASSERT_ACL_OK(aclrtDestroyContext(ctx));
}

TEST_F(EventTest, RecordBehindAFailedTaskOnAStopOnFailureStreamDoesNotHang) {
  // With ACL_STOP_ON_FAILURE the record after a failed task is discarded; host and stream waiters of
  // the event must not be left waiting forever.
  Stream s, other;
  Event e;
  ASSERT_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
  aclrtNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(n, s, 10));  // times out: the stream fails
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 10000));
  const aclError sync = aclrtSynchronizeEventWithTimeout(e, 2000);
  EXPECT_NE(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, sync) << "the discarded record left the event pending forever";
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(3));  // guard: a hung wait fails the stream instead of the test run
  const aclError wait = aclrtStreamWaitEvent(other, e);
  EXPECT_ACL_OK(aclrtSetOpWaitTimeout(0));
  EXPECT_ACL_OK(wait);
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(other, 10000)) << "a stream waiting on the event hangs";
  EXPECT_ACL_OK(aclrtDestroyNotify(n));
}

TEST_F(EventTest, RecordDiscardedByAStreamAbortDoesNotHang) {
  Stream s, other;
  Event e;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(s));
  ASSERT_ACL_OK(aclrtRecordEvent(e, s));
  ASSERT_ACL_OK(aclrtStreamAbort(s));
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000));
  EXPECT_NE(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, aclrtSynchronizeEventWithTimeout(e, 2000))
      << "the aborted record left the event pending forever";
  ASSERT_ACL_OK(aclrtSetOpWaitTimeout(3));
  const aclError wait = aclrtStreamWaitEvent(other, e);
  EXPECT_ACL_OK(aclrtSetOpWaitTimeout(0));
  EXPECT_ACL_OK(wait);
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(other, 10000)) << "a stream waiting on the event hangs";
}

TEST_F(EventTest, StreamWaitAcrossDevices) {
  CTS_REQUIRE_DEVICES(2);
  aclrtContext ctx0 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtStream s1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&s1));
  aclrtEvent e1 = nullptr;
  ASSERT_ACL_OK(aclrtCreateEvent(&e1));
  void* buf1 = nullptr;
  constexpr size_t n = 1 << 20;
  ASSERT_ACL_OK(aclrtMalloc(&buf1, n, ACL_MEM_MALLOC_HUGE_FIRST));
  {
    DeviceGate gate;  // on device 1
    ASSERT_ACL_OK(gate.Block(s1));
    ASSERT_ACL_OK(aclrtMemsetAsync(buf1, n, 0x6b, n, s1));
    ASSERT_ACL_OK(aclrtRecordEvent(e1, s1));
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
    Stream s0;
    ASSERT_ACL_OK(aclrtStreamWaitEvent(s0, e1));
    aclrtStreamStatus st;
    ASSERT_ACL_OK(aclrtStreamQuery(s0, &st));
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st) << "device 0's stream waits for device 1's event";
    ASSERT_ACL_OK(gate.Open());
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s0, 10000));
    std::vector<uint8_t> back(n);
    ASSERT_ACL_OK(aclrtMemcpy(back.data(), n, buf1, n, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT_TRUE(AllBytesAre(back.data(), n, 0x6b)) << "the event completed before the work it follows";
  }
  EXPECT_ACL_OK(aclrtFree(buf1));
  EXPECT_ACL_OK(aclrtDestroyEvent(e1));
  EXPECT_ACL_OK(aclrtDestroyStream(s1));
  EXPECT_ACL_OK(aclrtResetDevice(1));
  EXPECT_ACL_OK(aclrtSetCurrentContext(ctx0));
}

}  // namespace
}  // namespace cts
