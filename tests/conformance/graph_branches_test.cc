// Captured graphs of several streams replay their branches concurrently (docs/graphs.md, "Branches"): a
// graph whose two branches each wait for a value the other writes completes every replay (in capture
// order it could not: the first wait would wait forever); dependencies captured through events hold across
// replays; a branch's failure fails the launching stream, and the graph and the stream stay usable. The
// synchronous sim replays in capture order (backends.cc lists these tests as needing concurrent queues).
#include "test_util.h"

namespace cts {
namespace {

using GraphBranchesTest = CtsTest;

constexpr size_t kBranchBytes = 4096;

// s1: x = 1, then waits for y >= 1, then copies `a` into `c`; s2 (joined): y = 1, waits for x >= 1, copies `b`
// into `d`. Both then rejoin s1. Either wait passes only when the other branch runs at the same time.
TEST_F(GraphBranchesTest, BranchesThatWaitForEachOtherCompleteEveryReplay) {
  Stream s1, s2;
  Event fork, join;
  DevBuf flags(64), a(kBranchBytes), b(kBranchBytes), c(kBranchBytes), d(kBranchBytes);
  void* x = flags.bytes();
  void* y = flags.bytes() + 8;
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_OK(aclrtRecordEvent(fork, s1));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s2, fork));  // s2 joins
  EXPECT_ACL_OK(aclrtValueWrite(x, 1, 0, s1));
  EXPECT_ACL_OK(aclrtValueWait(y, 1, ACL_STREAM_WAIT_VALUE_GEQ, s1));
  EXPECT_ACL_OK(aclrtMemcpyAsync(c.get(), kBranchBytes, a.get(), kBranchBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
  EXPECT_ACL_OK(aclrtValueWrite(y, 1, 0, s2));
  EXPECT_ACL_OK(aclrtValueWait(x, 1, ACL_STREAM_WAIT_VALUE_GEQ, s2));
  EXPECT_ACL_OK(aclrtMemcpyAsync(d.get(), kBranchBytes, b.get(), kBranchBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
  EXPECT_ACL_OK(aclrtRecordEvent(join, s2));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s1, join));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s1, &ri));
  ASSERT_NE(ri, nullptr);
  for (uint64_t round = 0; round < 4; ++round) {
    ASSERT_ACL_OK(aclrtMemset(flags.get(), 64, 0, 64));
    const auto da = RandomBytes(kBranchBytes, 100 + round), db = RandomBytes(kBranchBytes, 200 + round);
    ASSERT_ACL_OK(a.Upload(da.data(), kBranchBytes));
    ASSERT_ACL_OK(b.Upload(db.data(), kBranchBytes));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s1));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s1, 10000)) << "replay " << round << " did not complete";
    EXPECT_EQ(FirstDifference(c.Read().data(), da.data(), kBranchBytes), -1) << round;
    EXPECT_EQ(FirstDifference(d.Read().data(), db.data(), kBranchBytes), -1) << round;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

// The order that hung about once in 300 replays, forced: the branch parks on a value before the origin
// writes it, and the origin writes it with a copy (a write that a replay announces to parked value waits
// only when its batch stops running), then waits for the branch. The origin's wait must announce its
// batch's writes first, else both streams wait for each other forever.
void SleepTwentyMs(void* /*arg*/) { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }

TEST_F(GraphBranchesTest, ABranchParkedOnAValueSeesAnEarlierCopyOfTheOriginThatThenWaitsForIt) {
  Stream s1, s2;
  Event fork, parked, join;
  DevBuf flag(64), one(64), a(kBranchBytes), c(kBranchBytes);
  const uint64_t kOne = 1;
  ASSERT_ACL_OK(one.Upload(&kOne, sizeof(kOne)));
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_OK(aclrtRecordEvent(fork, s1));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s2, fork));
  EXPECT_ACL_OK(aclrtRecordEvent(parked, s2));
  EXPECT_ACL_OK(aclrtValueWait(flag.get(), 1, ACL_STREAM_WAIT_VALUE_GEQ, s2));
  EXPECT_ACL_OK(aclrtMemcpyAsync(c.get(), kBranchBytes, a.get(), kBranchBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
  EXPECT_ACL_OK(aclrtRecordEvent(join, s2));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s1, parked));
  EXPECT_ACL_OK(aclrtLaunchHostFunc(s1, &SleepTwentyMs, nullptr));  // the branch parks on the flag meanwhile
  EXPECT_ACL_OK(aclrtMemcpyAsync(flag.get(), sizeof(kOne), one.get(), sizeof(kOne), ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s1, join));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s1, &ri));
  ASSERT_NE(ri, nullptr);
  for (uint64_t round = 0; round < 3; ++round) {
    ASSERT_ACL_OK(aclrtMemset(flag.get(), 64, 0, 64));
    const auto data = RandomBytes(kBranchBytes, 400 + round);
    ASSERT_ACL_OK(a.Upload(data.data(), kBranchBytes));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s1));
    ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s1, 5000)) << "replay " << round << " did not complete";
    EXPECT_EQ(FirstDifference(c.Read().data(), data.data(), kBranchBytes), -1) << round;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

// A chain across three streams (s1 -> s2 -> s3 -> s1, each stage reading what the previous wrote), replayed
// back to back without synchronizing in between: every replay's stages see their own predecessor's data.
TEST_F(GraphBranchesTest, EventOrderAcrossBranchesHoldsInBackToBackReplays) {
  Stream s1, s2, s3;
  Event e1, e2, e3;
  DevBuf src(kBranchBytes), m1(kBranchBytes), m2(kBranchBytes), out(kBranchBytes), acc(kBranchBytes * 8);
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_OK(aclrtMemcpyAsync(m1.get(), kBranchBytes, src.get(), kBranchBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
  EXPECT_ACL_OK(aclrtRecordEvent(e1, s1));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s2, e1));
  EXPECT_ACL_OK(aclrtMemcpyAsync(m2.get(), kBranchBytes, m1.get(), kBranchBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s2));
  EXPECT_ACL_OK(aclrtRecordEvent(e2, s2));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s3, e2));
  EXPECT_ACL_OK(aclrtMemcpyAsync(out.get(), kBranchBytes, m2.get(), kBranchBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s3));
  EXPECT_ACL_OK(aclrtRecordEvent(e3, s3));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s1, e3));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s1, &ri));
  ASSERT_NE(ri, nullptr);
  uint32_t n = 0;
  ASSERT_ACL_OK(aclmdlRIGetStreams(ri, nullptr, &n));
  EXPECT_EQ(n, 3u);
  std::vector<std::vector<uint8_t>> sent;
  for (int round = 0; round < 8; ++round) {
    sent.push_back(RandomBytes(kBranchBytes, 300 + round));
    // Stream-ordered: the source for this replay, the replay, and a copy of its result, all queued at once.
    ASSERT_ACL_OK(aclrtMemcpyAsync(src.get(), kBranchBytes, sent.back().data(), kBranchBytes, ACL_MEMCPY_HOST_TO_DEVICE, s1));
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s1));
    ASSERT_ACL_OK(aclrtMemcpyAsync(acc.bytes() + round * kBranchBytes, kBranchBytes, out.get(), kBranchBytes,
                                   ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
  }
  ASSERT_ACL_OK(aclrtSynchronizeStreamWithTimeout(s1, 10000));
  const auto all = acc.Read();
  for (int round = 0; round < 8; ++round) {
    EXPECT_EQ(FirstDifference(all.data() + round * kBranchBytes, sent[static_cast<size_t>(round)].data(), kBranchBytes), -1)
        << "replay " << round;
  }
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
}

// A branch whose task fails (a notify nobody records, with a 10 ms timeout): the replay fails on the launching
// stream with the branch's error, the origin's tasks that wait for the branch are released rather than left
// waiting, and both the graph and the stream take more work.
TEST_F(GraphBranchesTest, ABranchFailureFailsTheLaunchingStream) {
  Stream s1, s2;
  Event fork, join;
  aclrtNotify never = nullptr;
  ASSERT_ACL_OK(aclrtCreateNotify(&never, ACL_NOTIFY_DEFAULT));
  DevBuf a(kBranchBytes), c(kBranchBytes);
  aclmdlRI ri = nullptr;
  ASSERT_ACL_OK(aclmdlRICaptureBegin(s1, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
  EXPECT_ACL_OK(aclrtRecordEvent(fork, s1));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s2, fork));
  EXPECT_ACL_OK(aclrtWaitAndResetNotify(never, s2, 10));
  EXPECT_ACL_OK(aclrtRecordEvent(join, s2));
  EXPECT_ACL_OK(aclrtStreamWaitEvent(s1, join));
  EXPECT_ACL_OK(aclrtMemsetAsync(c.get(), kBranchBytes, 0x6b, kBranchBytes, s1));
  ASSERT_ACL_OK(aclmdlRICaptureEnd(s1, &ri));
  ASSERT_NE(ri, nullptr);
  for (int round = 0; round < 2; ++round) {
    ASSERT_ACL_OK(aclmdlRIExecuteAsync(ri, s1));
    EXPECT_ACL_ERR(ACL_ERROR_RT_TASK_TIMEOUT, aclrtSynchronizeStreamWithTimeout(s1, 10000)) << round;
    // Concurrent replays name the captured stream whose task failed; in capture order the failed task is the
    // launching stream's own.
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("timed out"), std::string::npos) << aclGetRecentErrMsg();
  }
  // The stream goes on (its error was reported) and the graph can still be destroyed cleanly.
  const auto data = RandomBytes(kBranchBytes, 9);
  ASSERT_ACL_OK(a.Upload(data.data(), kBranchBytes));
  ASSERT_ACL_OK(aclrtMemcpyAsync(c.get(), kBranchBytes, a.get(), kBranchBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, s1));
  ASSERT_ACL_OK(aclrtSynchronizeStream(s1));
  EXPECT_EQ(FirstDifference(c.Read().data(), data.data(), kBranchBytes), -1);
  EXPECT_ACL_OK(aclmdlRIDestroy(ri));
  EXPECT_ACL_OK(aclrtDestroyNotify(never));
}

}  // namespace
}  // namespace cts
