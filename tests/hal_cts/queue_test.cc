// Queues: tasks of one queue run in order and complete; copies and fills move the bytes; every cleanup runs
// exactly once, also for discarded tasks; a failure is sticky, reaches the failure hook once, and with
// stop-on-failure discards the rest; host waits honour their deadlines; queues submitted from many threads.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "base/clock.h"
#include "cts.h"

namespace hal_cts {
namespace {

using QueueSuite = DeviceTest;

std::vector<uint8_t> RandomBytes(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng() | 1);  // never zero
  return v;
}

// A compute task that appends `index` to a log: the order tasks ran in.
struct OrderLog {
  std::vector<uint32_t> ran;
};
struct Step {
  OrderLog* log;
  uint32_t index;
};
// A host-function task (the one kind whose running the host sees directly): logs its step and completes.
void RecordStep(void* arg, hal::Queue* queue) {
  auto* s = static_cast<Step*>(arg);
  s->log->ran.push_back(s->index);
  queue->CompleteHostTask(0);
}

void CountCleanup(void* arg) { static_cast<std::atomic<int>*>(arg)->fetch_add(1); }

// Submits one host-function task per step (each logs its index when it runs, and counts its cleanup); returns the last
// task's sequence number.
uint64_t SubmitSteps(hal::Queue* queue, OrderLog* log, std::vector<Step>* steps, std::atomic<int>* cleanups) {
  uint64_t last = 0;
  for (uint32_t i = 0; i < steps->size(); ++i) {
    (*steps)[i] = {log, i};
    hal::Task t;
    t.kind = hal::TaskKind::kHostFunc;
    t.host_fn = &RecordStep;
    t.host_arg = &(*steps)[i];
    t.cleanup = &CountCleanup;
    t.cleanup_arg = cleanups;
    last = queue->Submit(t);
  }
  return last;
}

TEST_P(QueueSuite, TasksRunInSubmissionOrderAndComplete) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  OrderLog log;
  std::vector<Step> steps(200);
  uint64_t last = 0;
  for (uint32_t i = 0; i < steps.size(); ++i) {
    steps[i] = {&log, i};
    hal::Task t;
    t.kind = hal::TaskKind::kHostFunc;
    t.host_fn = &RecordStep;
    t.host_arg = &steps[i];
    const uint64_t seq = queue_->Submit(t);
    EXPECT_EQ(seq, last + 1);
    last = seq;
  }
  ASSERT_TRUE(queue_->WaitHost(last, DeadlineIn(10000)));
  EXPECT_EQ(queue_->completed(), queue_->submitted());
  ASSERT_EQ(log.ran.size(), steps.size());
  for (uint32_t i = 0; i < steps.size(); ++i) EXPECT_EQ(log.ran[i], i);
  EXPECT_EQ(queue_->error(), 0);
}

TEST_P(QueueSuite, CopiesAndFillsMoveTheBytes) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  if (!caps().host_visible_memory) GTEST_SKIP() << "device memory is not host-visible";
  constexpr size_t kBytes = 256 << 10;
  uint8_t* a = device_->memory_base();
  uint8_t* b = a + kBytes;
  device_->Prefault(a, 2 * kBytes);
  const std::vector<uint8_t> src = RandomBytes(kBytes, 7);
  std::vector<uint8_t> back(kBytes, 0);
  // host -> a, a -> b, a fill over the middle of b, b -> host: all in order on one queue.
  queue_->Submit(Copy(a, src.data(), kBytes));
  queue_->Submit(Copy(b, a, kBytes));
  queue_->Submit(Fill(b + 1000, 3000, 0x5a));
  ASSERT_TRUE(RunAndWait(Copy(back.data(), b, kBytes)));
  for (size_t i = 0; i < kBytes; ++i) {
    const uint8_t want = i >= 1000 && i < 4000 ? 0x5a : src[i];
    ASSERT_EQ(back[i], want) << "byte " << i;
  }
}

TEST_P(QueueSuite, EveryCleanupRunsExactlyOnce) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  std::atomic<int> cleanups{0};
  constexpr int kTasks = 500;
  uint64_t last = 0;
  for (int i = 0; i < kTasks; ++i) {
    hal::Task t;  // a kNop: nothing but its place in the queue
    t.cleanup = &CountCleanup;
    t.cleanup_arg = &cleanups;
    last = queue_->Submit(t);
  }
  ASSERT_TRUE(queue_->WaitHost(last, DeadlineIn(10000)));
  // The cleanup runs after the task finished, on a driver thread: it may trail the completion briefly.
  for (int spin = 0; spin < 1000 && cleanups.load() < kTasks; ++spin) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(cleanups.load(), kTasks);
}

TEST_P(QueueSuite, DiscardedTasksCompleteWithoutRunningAndAreCleanedUp) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto flag = device_->CreateFlag();
  hal::Task wait;  // parks the queue: the tasks behind it stay queued
  wait.kind = hal::TaskKind::kFlagWait;
  wait.flag = flag.get();
  wait.value = 1;
  queue_->Submit(wait);
  OrderLog log;
  std::vector<Step> steps(20);
  std::atomic<int> cleanups{0};
  const uint64_t last = SubmitSteps(queue_.get(), &log, &steps, &cleanups);
  EXPECT_FALSE(queue_->WaitHost(last, DeadlineIn(20))) << "tasks behind an unsignalled wait completed";
  queue_->Discard();  // releases the parked wait too
  ASSERT_TRUE(queue_->WaitHost(last, DeadlineIn(10000)));
  for (int spin = 0; spin < 1000 && cleanups.load() < 20; ++spin) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_TRUE(log.ran.empty()) << log.ran.size() << " discarded tasks ran";
  EXPECT_EQ(cleanups.load(), 20);
}

struct HookLog {
  std::atomic<int> calls{0};
  std::atomic<uint32_t> task_id{0};
  std::atomic<int32_t> code{0};
};
void OnFailure(void* ctx, hal::Queue*, const hal::TaskFailure& failure) {
  auto* log = static_cast<HookLog*>(ctx);
  log->calls.fetch_add(1);
  log->task_id.store(failure.task_id);
  log->code.store(failure.code);
}

TEST_P(QueueSuite, AFailureIsStickyAndReachesTheHookOnce) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  HookLog hook;
  hal::QueueOptions options;
  options.on_failure = &OnFailure;
  options.hook_ctx = &hook;
  auto queue = device_->CreateQueue(options);
  hal::Task fail;
  fail.kind = hal::TaskKind::kFail;
  fail.id = 4242;
  fail.aux = 507015;
  queue->Submit(fail);
  OrderLog log;
  Step after{&log, 1};
  hal::Task next;  // not stop-on-failure: runs anyway
  next.kind = hal::TaskKind::kHostFunc;
  next.host_fn = &RecordStep;
  next.host_arg = &after;
  ASSERT_TRUE(RunAndWait(next, queue.get()));
  EXPECT_EQ(queue->error(), 507015);
  EXPECT_FALSE(queue->error_message().empty());
  EXPECT_EQ(hook.calls.load(), 1);
  EXPECT_EQ(hook.task_id.load(), 4242u);
  EXPECT_EQ(hook.code.load(), 507015);
  EXPECT_EQ(log.ran.size(), 1u);
  EXPECT_EQ(queue->error(), 507015) << "the error is sticky";
  queue->ClearError();
  EXPECT_EQ(queue->error(), 0);
}

TEST_P(QueueSuite, StopOnFailureDiscardsTheTasksBehindTheFailure) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  hal::QueueOptions options;
  options.stop_on_failure = true;
  auto queue = device_->CreateQueue(options);
  hal::Task fail;
  fail.kind = hal::TaskKind::kFail;
  fail.aux = 507011;
  queue->Submit(fail);
  OrderLog log;
  std::vector<Step> steps(10);
  std::atomic<int> cleanups{0};
  const uint64_t last = SubmitSteps(queue.get(), &log, &steps, &cleanups);
  ASSERT_TRUE(queue->WaitHost(last, DeadlineIn(10000)));
  for (int spin = 0; spin < 1000 && cleanups.load() < 10; ++spin) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  EXPECT_EQ(queue->error(), 507011);
  EXPECT_TRUE(log.ran.empty());
  EXPECT_EQ(cleanups.load(), 10);
}

TEST_P(QueueSuite, HostWaitOnAParkedQueueHonoursItsDeadline) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto flag = device_->CreateFlag();
  hal::Task wait;
  wait.kind = hal::TaskKind::kFlagWait;
  wait.flag = flag.get();
  wait.value = 1;
  const uint64_t seq = queue_->Submit(wait);
  const uint64_t start = npurt::NowNs();
  EXPECT_FALSE(queue_->WaitHost(seq, DeadlineIn(30)));
  const uint64_t waited_ms = (npurt::NowNs() - start) / 1000000;
  EXPECT_GE(waited_ms, 25u);
  EXPECT_LT(waited_ms, 5000u) << "the deadline was not honoured";
  EXPECT_TRUE(queue_->ParkedOnWait());
  // Released by a signal from another queue.
  auto other = device_->CreateQueue(hal::QueueOptions{});
  hal::Task signal;
  signal.kind = hal::TaskKind::kFlagSignal;
  signal.flag = flag.get();
  signal.value = 1;
  ASSERT_TRUE(RunAndWait(signal, other.get()));
  EXPECT_TRUE(queue_->WaitHost(seq, DeadlineIn(10000)));
  EXPECT_EQ(queue_->error(), 0);
}

TEST_P(QueueSuite, ManyThreadsSubmitToOneQueue) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  constexpr int kThreads = 4;
  constexpr int kPerThread = 500;
  std::atomic<int> cleanups{0};
  std::vector<std::vector<uint64_t>> seqs(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        hal::Task task;
        task.cleanup = &CountCleanup;
        task.cleanup_arg = &cleanups;
        seqs[t].push_back(queue_->Submit(task));
      }
    });
  }
  for (auto& th : threads) th.join();
  std::vector<uint64_t> all;
  for (const auto& s : seqs) all.insert(all.end(), s.begin(), s.end());
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), static_cast<size_t>(kThreads * kPerThread));
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i + 1) << "sequence numbers are unique and dense";
  ASSERT_TRUE(queue_->WaitHost(all.back(), DeadlineIn(10000)));
  for (int spin = 0; spin < 1000 && cleanups.load() < kThreads * kPerThread; ++spin) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_EQ(cleanups.load(), kThreads * kPerThread);
}

INSTANTIATE_TEST_SUITE_P(Cts, QueueSuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
