// Counting notifies: every record mode (set, add, or, and) and wait mode (less, equal, greater,
// greater-or-equal, all bits of a mask), waits that park until a record from another stream makes them
// true, clearing on wait, timeouts, reset, and every bad argument.
#include <chrono>
#include <thread>

#include "test_util.h"

namespace cts {
namespace {

using CntNotifyTest = CtsTest;

aclError Record(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyRecordMode mode, uint32_t value) {
  aclrtCntNotifyRecordInfo info{mode, value};
  return aclrtCntNotifyRecord(n, s, &info);
}

aclError Wait(aclrtCntNotify n, aclrtStream s, aclrtCntNotifyWaitMode mode, uint32_t value, uint32_t timeout_ms = 5000,
              bool clear = false) {
  aclrtCntNotifyWaitInfo info{mode, value, timeout_ms, static_cast<uint8_t>(clear ? 1 : 0), {0, 0, 0}};
  return aclrtCntNotifyWaitWithTimeout(n, s, &info);
}

TEST_F(CntNotifyTest, RecordModesAndSatisfiedWaits) {
  aclrtCntNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&n, ACL_NOTIFY_DEFAULT));
  Stream s;
  ASSERT_ACL_OK(Record(n, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 12));
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 12));
  ASSERT_ACL_OK(Record(n, s, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 5));             // 17
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE, 16));
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 17));
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE, 18));
  ASSERT_ACL_OK(Record(n, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE, 0x40));       // 0x51
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE, 0x41));
  ASSERT_ACL_OK(Record(n, s, ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE, 0x0f));      // 0x01
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 1, 5000, true));  // then cleared
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));
  ASSERT_ACL_OK(Record(n, s, ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE, 9));
  ASSERT_ACL_OK(aclrtCntNotifyReset(n, s));
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0));
  EXPECT_ACL_OK(aclrtSynchronizeStream(s));
  uint32_t id = 0xffffffff;
  EXPECT_ACL_OK(aclrtCntNotifyGetId(n, &id));
  EXPECT_NE(0xffffffffu, id);
  EXPECT_ACL_OK(aclrtCntNotifyDestroy(n));
}

TEST_F(CntNotifyTest, WaitParksUntilARecordFromAnotherStream) {
  aclrtCntNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&n, ACL_NOTIFY_DEFAULT));
  Stream waiter, recorder;
  DevBuf out(64);
  const std::vector<uint8_t> data = RandomBytes(64, 8);
  PinnedBuf src(64);
  std::memcpy(src.get(), data.data(), 64);
  aclrtContext ctx = nullptr;
  ASSERT_ACL_OK(aclrtGetCurrentContext(&ctx));
  const auto start = std::chrono::steady_clock::now();
  // The wait (and the copy behind it) from a second host thread: a sync backend runs it at submission.
  std::thread t([&] {
    EXPECT_ACL_OK(aclrtSetCurrentContext(ctx));
    EXPECT_ACL_OK(Wait(n, waiter, ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE, 3));
    EXPECT_ACL_OK(aclrtMemcpyAsync(out.get(), 64, src.get(), 64, ACL_MEMCPY_HOST_TO_DEVICE, waiter));
    EXPECT_ACL_OK(aclrtSynchronizeStream(waiter));
  });
  for (int i = 0; i < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_ACL_OK(Record(n, recorder, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1));
  }
  t.join();
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(55));
  EXPECT_ACL_OK(aclrtSynchronizeStream(recorder));
  EXPECT_EQ(data, out.Read());
  EXPECT_ACL_OK(aclrtCntNotifyDestroy(n));
}

TEST_F(CntNotifyTest, UnsatisfiedWaitTimesOut) {
  aclrtCntNotify n = nullptr;
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&n, ACL_NOTIFY_DEVICE_USE_ONLY));
  Stream s;
  ASSERT_ACL_OK(Wait(n, s, ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 4, 50));
  EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStream(s));
  EXPECT_ACL_OK(aclrtCntNotifyDestroy(n));
}

TEST_F(CntNotifyTest, BadInputs) {
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyCreate(nullptr, 0));
  aclrtCntNotify n = nullptr;
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyCreate(&n, 5));
  ASSERT_ACL_OK(aclrtCntNotifyCreate(&n, 0));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, Record(n, nullptr, static_cast<aclrtCntNotifyRecordMode>(3), 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, Wait(n, nullptr, static_cast<aclrtCntNotifyWaitMode>(5), 1));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyRecord(n, nullptr, nullptr));
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout(n, nullptr, nullptr));
  aclrtCntNotifyWaitInfo info{ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE, 0, 10, 2, {0, 0, 0}};
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyWaitWithTimeout(n, nullptr, &info)) << "isClear 2";
  EXPECT_ACL_ERR(ACL_ERROR_INVALID_PARAM, aclrtCntNotifyGetId(n, nullptr));
  EXPECT_ACL_OK(aclrtCntNotifyDestroy(n));
  uint32_t id = 0;
  EXPECT_BAD_HANDLE(aclrtCntNotifyGetId(n, &id));
  EXPECT_BAD_HANDLE(aclrtCntNotifyReset(n, nullptr));
  EXPECT_BAD_HANDLE(aclrtCntNotifyDestroy(n));
  EXPECT_BAD_HANDLE(Record(n, nullptr, ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE, 1));
}

}  // namespace
}  // namespace cts
