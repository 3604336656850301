// Notifies (record / wait-and-reset across streams, wait before record, timeouts, batch reset) and
// memory-value write/wait tasks, plus the operator wait timeout that bounds device-side waits.
// The blocking cases run the waiting and the signalling side on different host threads, so they work
// on backends that execute tasks at submission too.
#include <set>

#include "test_util.h"

namespace cts {
namespace {

using NotifyTest = CtsTest;

TEST_F(NotifyTest, CreateDestroyAndIds) {
  std::set<uint32_t> ids;
  std::vector<aclrtNotify> notifies;
  for (int i = 0; i < 16; ++i) {
    aclrtNotify n = nullptr;
    ASSERT_ACL_OK(aclrtCreateNotify(&n, i % 2 ? ACL_NOTIFY_DEFAULT : ACL_NOTIFY_DEVICE_USE_ONLY));
    uint32_t id = 0;
    ASSERT_ACL_OK(aclrtGetNotifyId(n, &id));
    ids.insert(id);
    notifies.push_back(n);
  }
  EXPECT_EQ(16u, ids.size());
  aclrtNotify n = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(&n, 0x99));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCreateNotify(nullptr, ACL_NOTIFY_DEFAULT));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtGetNotifyId(notifies[0], nullptr));
  for (aclrtNotify x : notifies) {
    EXPECT_ACL_OK(aclrtDestroyNotify(x));
  }
  EXPECT_BAD_HANDLE(aclrtDestroyNotify(notifies[0]));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtDestroyNotify(nullptr));
  std::thread([] {
    aclrtNotify x = nullptr;
    EXPECT_ACL_ERR(ACL_ERROR_RT_CONTEXT_NULL, aclrtCreateNotify(&x, ACL_NOTIFY_DEFAULT));
    ClearErrorState();
  }).join();
}

TEST_F(NotifyTest, RecordThenWaitOrdersStreams) {
  constexpr size_t n = 256 << 10;
  Stream producer, consumer;
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  DevBuf a(n), b(n);
  const std::vector<uint8_t> data = RandomBytes(n, 120);
  for (int round = 0; round < 3; ++round) {
    ASSERT_ACL_OK(aclrtMemcpyAsync(a.get(), n, data.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, producer));
    ASSERT_ACL_OK(aclrtMemsetAsync(a.get(), n, round, 100, producer));
    ASSERT_ACL_OK(aclrtRecordNotify(notify, producer));
    ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer, 10000));
    ASSERT_ACL_OK(aclrtMemcpyAsync(b.get(), n, a.get(), n, ACL_MEMCPY_DEVICE_TO_DEVICE, consumer));
    ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
    std::vector<uint8_t> expect = data;
    std::memset(expect.data(), round, 100);
    EXPECT_EQ(expect, b.Read()) << "round " << round;
  }
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(NotifyTest, WaitBeforeRecordBlocksUntilTheRecord) {
  constexpr size_t n = 64 << 10;
  Stream producer, consumer;
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  DevBuf a(n);
  const std::vector<uint8_t> old = RandomBytes(n, 121), data = RandomBytes(n, 122);
  ASSERT_ACL_OK(a.Upload(old.data(), n));
  PinnedBuf out(n);
  std::memset(out.get(), 0, n);
  std::atomic<bool> queried{false};
  std::atomic<bool> recorded{false};
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  std::thread signaller([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
    // Give the waiting side time to block (or to check that its stream is parked).
    WaitFor([&] { return queried.load(); }, std::chrono::milliseconds(50));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    ASSERT_ACL_OK(aclrtMemcpyAsync(a.get(), n, data.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, producer));
    recorded.store(true);
    ASSERT_ACL_OK(aclrtRecordNotify(notify, producer));
  });
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer, 20000));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), n, a.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, consumer));
  if (Backend().deferred_execution) {
    aclrtStreamStatus st;
    ASSERT_ACL_OK(aclrtStreamQuery(consumer, &st));
    if (!recorded.load()) {
      EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st) << "the wait parks the consumer";
    }
  } else {
    EXPECT_TRUE(recorded.load()) << "an inline wait returns only after the record";
  }
  queried.store(true);
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  signaller.join();
  EXPECT_EQ(-1, FirstDifference(out.get(), data.data(), n)) << "the consumer ran after the producer's record";
  EXPECT_ACL_OK(aclrtSynchronizeStream(producer));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(NotifyTest, EachWaitConsumesOneRecord) {
  Stream producer, consumer;
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtRecordNotify(notify, producer));
  ASSERT_ACL_OK(aclrtRecordNotify(notify, producer));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer, 10000));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer, 10000));
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer, 20));  // a third wait has no record left
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(consumer));
  EXPECT_ACL_OK(aclrtSynchronizeStream(producer));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(NotifyTest, WaitTimeout) {
  Stream consumer;
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer, 30));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStreamWithTimeout(consumer, 10000));
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(waited, std::chrono::milliseconds(25));
  EXPECT_LT(waited, std::chrono::seconds(8));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(NotifyTest, BatchResetDiscardsPendingRecords) {
  Stream producer, consumer;
  aclrtNotify a = nullptr, b = nullptr, dead = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&a, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtCreateNotify(&b, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtCreateNotify(&dead, ACL_NOTIFY_DEFAULT));
  ASSERT_ACL_OK(aclrtDestroyNotify(dead));
  ASSERT_ACL_OK(aclrtRecordNotify(a, producer));
  ASSERT_ACL_OK(aclrtRecordNotify(b, producer));
  ASSERT_ACL_OK(aclrtSynchronizeStream(producer));
  // A batch with a bad entry is rejected as a whole.
  aclrtNotify bad_batch[] = {b, dead};
  EXPECT_BAD_HANDLE(aclrtNotifyBatchReset(bad_batch, 2));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(nullptr, 1));
  aclrtNotify batch[] = {a};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtNotifyBatchReset(batch, 0));
  ASSERT_ACL_OK(aclrtNotifyBatchReset(batch, 1));
  // b kept its record; a lost it.
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(b, consumer, 10000));
  ASSERT_ACL_OK(aclrtSynchronizeStream(consumer));
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(a, consumer, 20));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(consumer));
  EXPECT_ACL_OK(aclrtDestroyNotify(a));
  EXPECT_ACL_OK(aclrtDestroyNotify(b));
}

// ---------------------------------------------------------------------------------------------
// Value write / wait
// ---------------------------------------------------------------------------------------------

using ValueTest = CtsTest;

void SetWord(void* word, uint64_t v) {
  ASSERT_ACL_OK(aclrtMemcpy(word, sizeof v, &v, sizeof v, ACL_MEMCPY_HOST_TO_DEVICE));
}

uint64_t GetWord(const void* word) {
  uint64_t v = 0;
  EXPECT_ACL_OK(aclrtMemcpy(&v, sizeof v, word, sizeof v, ACL_MEMCPY_DEVICE_TO_HOST));
  return v;
}

TEST_F(ValueTest, WriteOnOneStreamReleasesAWaitOnAnother) {
  constexpr size_t n = 64 << 10;
  Stream writer, waiter;
  DevBuf word(64), a(n);
  SetWord(word.get(), 0);
  const std::vector<uint8_t> data = RandomBytes(n, 123);
  PinnedBuf out(n);
  std::memset(out.get(), 0, n);
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  std::thread other([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_ACL_OK(aclrtMemcpyAsync(a.get(), n, data.data(), n, ACL_MEMCPY_HOST_TO_DEVICE, writer));
    ASSERT_ACL_OK(aclrtValueWrite(word.get(), 7, 0, writer));
  });
  ASSERT_ACL_OK(aclrtValueWait(word.get(), 7, ACL_STREAM_WAIT_VALUE_EQ, waiter));
  ASSERT_ACL_OK(aclrtMemcpyAsync(out.get(), n, a.get(), n, ACL_MEMCPY_DEVICE_TO_HOST, waiter));
  ASSERT_ACL_OK(aclrtSynchronizeStream(waiter));
  other.join();
  ASSERT_ACL_OK(aclrtSynchronizeStream(writer));
  EXPECT_EQ(-1, FirstDifference(out.get(), data.data(), n));
  EXPECT_EQ(7u, GetWord(word.get()));
}

TEST_F(ValueTest, SatisfiedComparisonsDoNotBlock) {
  const struct {
    uint64_t value;
    uint64_t operand;
    uint32_t flag;
  } rows[] = {
      {5, 5, ACL_STREAM_WAIT_VALUE_GEQ},   {9, 5, ACL_STREAM_WAIT_VALUE_GEQ},
      {42, 42, ACL_STREAM_WAIT_VALUE_EQ},  {0b1010, 0b0010, ACL_STREAM_WAIT_VALUE_AND},
      {0b0101, 0b0010, ACL_STREAM_WAIT_VALUE_NOR},  // ~(v | operand) != 0
  };
  Stream s;
  DevBuf word(8);
  for (const auto& r : rows) {
    SCOPED_TRACE(testing::Message() << r.value << " vs " << r.operand << " flag " << r.flag);
    SetWord(word.get(), r.value);
    ASSERT_ACL_OK(aclrtValueWait(word.get(), r.operand, r.flag, s));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000));
  }
}

TEST_F(ValueTest, UnsatisfiedComparisonsWaitForAWrite) {
  const struct {
    uint64_t value;
    uint64_t operand;
    uint32_t flag;
    uint64_t release;
  } rows[] = {
      {4, 5, ACL_STREAM_WAIT_VALUE_GEQ, 5},
      {41, 42, ACL_STREAM_WAIT_VALUE_EQ, 42},
      {43, 42, ACL_STREAM_WAIT_VALUE_EQ, 42},
      {0b1000, 0b0011, ACL_STREAM_WAIT_VALUE_AND, 0b0001},
      {~uint64_t(0), 0, ACL_STREAM_WAIT_VALUE_NOR, 1},
  };
  Stream s, writer;
  DevBuf word(8);
  for (const auto& r : rows) {
    SCOPED_TRACE(testing::Message() << r.value << " vs " << r.operand << " flag " << r.flag);
    SetWord(word.get(), r.value);
    ASSERT_ACL_OK(aclrtValueWait(word.get(), r.operand, r.flag, s));
    aclrtStreamStatus st;
    ASSERT_ACL_OK(aclrtStreamQuery(s, &st));
    EXPECT_EQ(ACL_STREAM_STATUS_NOT_READY, st);
    ASSERT_ACL_OK(aclrtValueWrite(word.get(), r.release, 0, writer));
    EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000));
  }
  // A host write releases a wait too.
  SetWord(word.get(), 0);
  ASSERT_ACL_OK(aclrtValueWait(word.get(), 3, ACL_STREAM_WAIT_VALUE_GEQ, s));
  SetWord(word.get(), 3);
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 10000));
}

TEST_F(ValueTest, ArgumentErrors) {
  Stream s;
  DevBuf word(64);
  uint64_t host = 0;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait(word.get(), 1, 4, s)) << "unknown comparison";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(word.get(), 1, 1, s)) << "flag must be 0";
  EXPECT_ACL_ERR(ACL_ERROR_RT_ADDR_UNALIGNED, aclrtValueWait(word.bytes() + 4, 1, ACL_STREAM_WAIT_VALUE_GEQ, s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_ADDR_UNALIGNED, aclrtValueWrite(word.bytes() + 4, 1, 0, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWait(&host, 1, ACL_STREAM_WAIT_VALUE_GEQ, s)) << "host memory";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(&host, 1, 0, s));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(word.bytes() + 64, 1, 0, s)) << "past the allocation";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtValueWrite(nullptr, 1, 0, s));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  EXPECT_EQ(0u, host);
}

// aclrtSetOpWaitTimeout is process-wide: restore it whatever happens.
struct OpWaitTimeout {
  explicit OpWaitTimeout(uint32_t seconds) { EXPECT_ACL_OK(aclrtSetOpWaitTimeout(seconds)); }
  ~OpWaitTimeout() { EXPECT_ACL_OK(aclrtSetOpWaitTimeout(0)); }
};

TEST_F(ValueTest, OpWaitTimeoutBoundsValueWaits) {
  Stream s;
  DevBuf word(8);
  SetWord(word.get(), 0);
  OpWaitTimeout limit(1);
  const auto t0 = std::chrono::steady_clock::now();
  ASSERT_ACL_OK(aclrtValueWait(word.get(), 1, ACL_STREAM_WAIT_VALUE_GEQ, s));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s, 20000));
  const auto waited = std::chrono::steady_clock::now() - t0;
  EXPECT_GE(waited, std::chrono::milliseconds(900));
  EXPECT_LT(waited, std::chrono::seconds(10));
}

TEST_F(ValueTest, OpWaitTimeoutBoundsEventWaits) {
  Stream producer, consumer;
  Event e;
  DeviceGate gate;
  ASSERT_ACL_OK(gate.Block(producer));
  ASSERT_ACL_OK(aclrtRecordEvent(e, producer));
  {
    OpWaitTimeout limit(1);
    ASSERT_ACL_OK(aclrtStreamWaitEvent(consumer, e));
  }
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStreamWithTimeout(consumer, 20000));
  ASSERT_ACL_OK(gate.Open());
  EXPECT_ACL_OK(aclrtSynchronizeStream(producer));
}

TEST_F(NotifyTest, RecordOnOneDeviceReleasesAWaitOnAnother) {
  CTS_REQUIRE_DEVICES(2);
  aclrtContext ctx0 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx0));
  aclrtNotify notify = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT));  // on device 0
  Stream producer;
  ASSERT_ACL_OK(aclrtSetDevice(1));
  aclrtContext ctx1 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx1));
  aclrtStream consumer = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&consumer));
  std::thread signaller([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_ACL_OK(aclrtRecordNotify(notify, producer));
  });
  ASSERT_ACL_OK(aclrtWaitAndResetNotify(notify, consumer, 10000));
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(consumer, 20000));
  signaller.join();
  EXPECT_ACL_OK(aclrtDestroyStream(consumer));
  ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
  EXPECT_ACL_OK(aclrtResetDevice(1));
  EXPECT_ACL_OK(aclrtSynchronizeStream(producer));
  EXPECT_ACL_OK(aclrtDestroyNotify(notify));
}

TEST_F(ValueTest, WaitOnOneDeviceIsReleasedByAWriteFromAnother) {
  CTS_REQUIRE_DEVICES(2);
  aclrtContext ctx0 = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx0));
  DevBuf word(8);  // device 0 memory
  SetWord(word.get(), 0);
  Stream writer;
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(1, 0));
  ASSERT_ACL_OK(aclrtSetDevice(1));
  ASSERT_ACL_OK(aclrtDeviceEnablePeerAccess(0, 0));
  aclrtStream waiter = nullptr;
  ASSERT_ACL_OK(aclrtCreateStream(&waiter));
  std::thread other([&] {
    ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ASSERT_ACL_OK(aclrtValueWrite(word.get(), 1, 0, writer));
    EXPECT_ACL_OK(aclrtSynchronizeStream(writer));
  });
  const auto t0 = std::chrono::steady_clock::now();
  {
    OpWaitTimeout guard(3);  // a wait that is never released fails instead of hanging the run
    ASSERT_ACL_OK(aclrtValueWait(word.get(), 1, ACL_STREAM_WAIT_VALUE_GEQ, waiter));
  }
  EXPECT_ACL_OK(aclrtSynchronizeStreamWithTimeout(waiter, 20000))
      << "a device-1 stream waiting on device-0 memory was not released by device 0's write";
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(2000))
      << "the wait was not released by the write (only by the wait timeout)";
  other.join();
  EXPECT_ACL_OK(aclrtDestroyStream(waiter));
  EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(0));
  ASSERT_ACL_OK(aclrtSetCurrentContext(ctx0));
  EXPECT_ACL_OK(aclrtDeviceDisablePeerAccess(1));
  EXPECT_ACL_OK(aclrtResetDevice(1));
}

}  // namespace
}  // namespace cts
