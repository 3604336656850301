// The backends the conformance suite knows, their capabilities, and the tests each cannot run.
//
// One table per concern, in the spirit of IREE's cts backends: a test listed here for a backend is
// reported as SKIPPED with the reason given (never silently dropped). Add a test here only when the
// backend genuinely lacks the capability the test exercises; runtime bugs are not capabilities (mark
// those in the test itself with GTEST_SKIP() << "npurt bug: ...").
#include "backends.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

namespace cts {
namespace {

struct BackendCaps {
  const char* name;
  bool deferred_execution;
};

// sim_async: the simulated NPU with executor threads (the default).
// sim_sync:  every task runs inline on the submitting thread (the deterministic reference).
constexpr BackendCaps kBackends[] = {
    {"sim_async", true},
    {"sim_sync", false},
};

struct Unsupported {
  const char* backend;
  const char* test;  // "Suite.Name"
  const char* reason;
};

// Why sync mode cannot run a test. Such tests keep work queued behind a blocked task (a DeviceGate)
// while the same host thread goes on to observe it; in sync mode the blocking task would block the
// submitting thread itself, forever.
constexpr const char* kNeedsQueuedWork =
    "needs work to stay queued behind a blocked task while the submitting thread continues; sync mode runs "
    "every task at submission, so the blocked task would block this thread forever";
constexpr const char* kNeedsPendingState =
    "observes a stream or event in its pending (not ready) state, which sync mode never exposes: tasks have "
    "completed when the submitting call returns";

constexpr const char* kNeedsConcurrentBranches =
    "needs a graph's captured streams to replay concurrently; the synchronous sim replays them in capture order "
    "(a wait that only the other branch satisfies would wait forever)";

constexpr Unsupported kUnsupported[] = {
    {"sim_sync", "GraphBranchesTest.BranchesThatWaitForEachOtherCompleteEveryReplay", kNeedsConcurrentBranches},
    {"sim_sync", "GraphBranchesTest.ABranchParkedOnAValueSeesAnEarlierCopyOfTheOriginThatThenWaitsForIt",
     kNeedsConcurrentBranches},
    {"sim_sync", "DeviceSyncTest.SynchronizeDeviceWithTimeoutExpiresOnBlockedWork", kNeedsQueuedWork},
    {"sim_sync", "DeviceSyncTest.SynchronizeDeviceCoversOnlyTheCurrentDevice", kNeedsQueuedWork},
    {"sim_sync", "StreamTest.DestroyWaitsForQueuedWork", kNeedsQueuedWork},
    {"sim_sync", "StreamTest.DestroyForceDiscardsQueuedWork", kNeedsQueuedWork},
    {"sim_sync", "StreamTest.SynchronizeWithTimeout", kNeedsQueuedWork},
    {"sim_sync", "StreamTest.QueryReportsPendingWork", kNeedsPendingState},
    {"sim_sync", "StreamTest.AbortDiscardsQueuedWorkAndTheStreamStaysUsable", kNeedsQueuedWork},
    {"sim_sync", "DeviceExtrasTest.DeviceTaskAbortDiscardsQueuedWorkOfEveryStream", kNeedsQueuedWork},
    {"sim_sync", "StreamTest.StreamsRunConcurrentlyAndIndependently", kNeedsQueuedWork},
    {"sim_sync", "EventTest.QueryStatusNumberingsWhilePendingAndAfterCompletion", kNeedsPendingState},
    {"sim_sync", "EventTest.SynchronizeWithTimeout", kNeedsQueuedWork},
    {"sim_sync", "EventTest.HostSynchronizeFromAnotherThread", kNeedsQueuedWork},
    {"sim_sync", "EventTest.StreamWaitOrdersWorkAcrossStreams", kNeedsQueuedWork},
    {"sim_sync", "EventTest.StreamWaitWithTimeoutFailsTheWaitingStream", kNeedsQueuedWork},
    {"sim_sync", "EventTest.StreamWaitWithTimeoutSucceedsWhenTheEventArrives", kNeedsQueuedWork},
    {"sim_sync", "EventTest.ElapsedTimeOfAPendingEvent", kNeedsPendingState},
    {"sim_sync", "EventTest.DestroyWithPendingRecordIsSafe", kNeedsQueuedWork},
    {"sim_sync", "EventTest.RecordDiscardedByAStreamAbortDoesNotHang", kNeedsQueuedWork},
    {"sim_sync", "EventTest.StreamWaitAcrossDevices", kNeedsQueuedWork},
    {"sim_sync", "MemcpyTest.PageableSourceIsCapturedEvenWhileTheStreamIsBlocked", kNeedsQueuedWork},
    {"sim_sync", "MemcpyTest.PinnedSourceIsReadWhenTheCopyRuns", kNeedsQueuedWork},
    {"sim_sync", "MemoryTest.StreamOrderedFreeOfACachedSizeBlock", kNeedsQueuedWork},
    {"sim_sync", "MemoryTest.StreamOrderedFreeOfALargeBlock", kNeedsQueuedWork},
    {"sim_sync", "ValueTest.UnsatisfiedComparisonsWaitForAWrite", kNeedsPendingState},
    {"sim_sync", "ValueTest.OpWaitTimeoutBoundsEventWaits", kNeedsQueuedWork},
    {"sim_sync", "MemoryPoolTest.OtherStreamsReuseOnlyAfterTheFreeingStreamPassedTheFree", kNeedsQueuedWork},
    {"sim_sync", "StreamSwitchTest.StreamStopDiscardsQueuedWork", kNeedsQueuedWork},
    {"sim_sync", "IpcStressTest.StreamsWaitingOnAnotherProcessDoNotStarveTheDevice", kNeedsQueuedWork},
    {"sim_sync", "IpcStressTest.StreamWaitingOnASharedNotifyIsAbortable", kNeedsQueuedWork},
    {"sim_sync", "RacecheckTest.ANotifyWaitedForBeforeItIsRecordedStillOrdersTheStreams", kNeedsQueuedWork},
    {"sim_sync", "RacecheckTest.AValueWaitOrdersTheWaiterAfterTheWrite", kNeedsQueuedWork},
};

std::string Env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && v[0] != '\0' ? std::string(v) : std::string(fallback);
}

}  // namespace

const BackendInfo& Backend() {
  static const BackendInfo info = [] {
    BackendInfo b;
    // The backend is whatever the runtime will configure itself as (same variables, same defaults).
    const std::string driver = Env("NPURT_DRIVER", "sim");
    b.name = driver == "sim" ? driver + "_" + Env("NPURT_SIM_MODE", "async") : driver;
    for (const BackendCaps& caps : kBackends) {
      if (b.name == caps.name) b.deferred_execution = caps.deferred_execution;
    }
    return b;
  }();
  return info;
}

const char* UnsupportedReason(const std::string& full_test_name) {
  for (const Unsupported& u : kUnsupported) {
    if (Backend().name == u.backend && full_test_name == u.test) return u.reason;
  }
  return nullptr;
}

const char* UnsupportedReasonForCurrentTest() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return nullptr;
  return UnsupportedReason(std::string(info->test_suite_name()) + "." + info->name());
}

void ForEachUnsupportedEntry(void (*fn)(const char* backend, const char* test, void* arg), void* arg) {
  for (const Unsupported& u : kUnsupported) fn(u.backend, u.test, arg);
}

namespace {

// The table must name existing tests of known backends: a renamed test would otherwise silently run
// (and hang) on the backend that cannot support it.
TEST(BackendsTest, UnsupportedEntriesNameExistingTests) {
  std::set<std::string> tests;
  const testing::UnitTest& unit = *testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const testing::TestSuite& suite = *unit.GetTestSuite(i);
    for (int j = 0; j < suite.total_test_count(); ++j) {
      tests.insert(std::string(suite.name()) + "." + suite.GetTestInfo(j)->name());
    }
  }
  // Under a --gtest_filter only the selected tests are listed as "to run", but total_test_count covers all.
  for (const Unsupported& u : kUnsupported) {
    EXPECT_TRUE(tests.count(u.test) != 0) << "backends.cc lists unknown test " << u.test;
    bool known = false;
    for (const BackendCaps& caps : kBackends) known = known || std::strcmp(caps.name, u.backend) == 0;
    EXPECT_TRUE(known) << "backends.cc lists unknown backend " << u.backend;
    EXPECT_GT(std::strlen(u.reason), 20u) << u.test << " needs a real reason";
  }
}

TEST(BackendsTest, BackendIsKnown) {
  bool known = false;
  for (const BackendCaps& caps : kBackends) known = known || Backend().name == caps.name;
  EXPECT_TRUE(known) << "backend '" << Backend().name << "' has no entry in backends.cc";
}

}  // namespace
}  // namespace cts
