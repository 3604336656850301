// Flags and value words: a signal raises a flag and releases the queues and host threads waiting for it; a
// host wait honours its deadline; a flag never goes down; a value written by one queue releases a value wait
// of another. The waiting queue's tasks are submitted from a thread of their own, so that a backend that runs
// every task at submission (the waiter then blocks its submitting thread) runs these tests too.
#include <atomic>
#include <thread>

#include "base/clock.h"
#include "cts.h"

namespace hal_cts {
namespace {

using FlagSuite = DeviceTest;

hal::Task Signal(hal::Flag* flag, uint64_t value) {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagSignal;
  t.flag = flag;
  t.value = value;
  return t;
}

hal::Task Wait(hal::Flag* flag, uint64_t value) {
  hal::Task t;
  t.kind = hal::TaskKind::kFlagWait;
  t.flag = flag;
  t.value = value;
  return t;
}

// A host-function task: the host sees it run (and completes it).
void SetFlag(void* arg, hal::Queue* queue) {
  static_cast<std::atomic<int>*>(arg)->store(1);
  queue->CompleteHostTask(0);
}

TEST_P(FlagSuite, ASignalReleasesTheQueueWaitingForIt) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto flag = device_->CreateFlag();
  EXPECT_EQ(flag->value(), 0u);
  std::atomic<int> ran{0};
  std::atomic<uint64_t> last{0};
  std::thread waiter([&] {
    queue_->Submit(Wait(flag.get(), 3));
    hal::Task after;
    after.kind = hal::TaskKind::kHostFunc;
    after.host_fn = &SetFlag;
    after.host_arg = &ran;
    last.store(queue_->Submit(after));
  });
  // A lower value does not release it.
  auto signaller = device_->CreateQueue(hal::QueueOptions{});
  ASSERT_TRUE(RunAndWait(Signal(flag.get(), 2), signaller.get()));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(ran.load(), 0) << "a wait for 3 was released by 2";
  ASSERT_TRUE(RunAndWait(Signal(flag.get(), 3), signaller.get()));
  waiter.join();
  ASSERT_TRUE(queue_->WaitHost(last.load(), DeadlineIn(10000)));
  EXPECT_EQ(ran.load(), 1);
  EXPECT_EQ(flag->value(), 3u);
  EXPECT_GT(flag->timestamp_ns(), 0u);
}

TEST_P(FlagSuite, HostWaitReturnsOnTheSignalOrAtItsDeadline) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto flag = device_->CreateFlag();
  const uint64_t start = npurt::NowNs();
  EXPECT_FALSE(flag->WaitHost(1, DeadlineIn(30)));
  const uint64_t waited_ms = (npurt::NowNs() - start) / 1000000;
  EXPECT_GE(waited_ms, 25u);
  EXPECT_LT(waited_ms, 5000u);
  std::thread signaller([&] { RunAndWait(Signal(flag.get(), 1)); });
  EXPECT_TRUE(flag->WaitHost(1, DeadlineIn(10000)));
  signaller.join();
  EXPECT_TRUE(flag->WaitHost(1, DeadlineIn(0))) << "a reached value is seen at once";
}

TEST_P(FlagSuite, AFlagNeverGoesDown) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto flag = device_->CreateFlag();
  ASSERT_TRUE(RunAndWait(Signal(flag.get(), 10)));
  ASSERT_TRUE(RunAndWait(Signal(flag.get(), 4)));
  EXPECT_EQ(flag->value(), 10u);
}

TEST_P(FlagSuite, AValueWriteReleasesAValueWaitOfAnotherQueue) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  if (!caps().host_visible_memory) GTEST_SKIP() << "device memory is not host-visible";
  auto* word = reinterpret_cast<uint64_t*>(device_->memory_base());
  device_->Prefault(word, 4096);
  *word = 0;
  device_->NotifyMemoryWritten();
  std::atomic<int> ran{0};
  std::atomic<uint64_t> last{0};
  std::thread waiter([&] {
    hal::Task wait;
    wait.kind = hal::TaskKind::kValueWait;
    wait.dst = word;
    wait.value = 0x5eed;
    wait.aux = static_cast<uint32_t>(hal::ValueCompare::kEqual);
    queue_->Submit(wait);
    hal::Task after;
    after.kind = hal::TaskKind::kHostFunc;
    after.host_fn = &SetFlag;
    after.host_arg = &ran;
    last.store(queue_->Submit(after));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_EQ(ran.load(), 0);
  auto writer = device_->CreateQueue(hal::QueueOptions{});
  hal::Task write;
  write.kind = hal::TaskKind::kValueWrite;
  write.dst = word;
  write.value = 0x5eed;
  ASSERT_TRUE(RunAndWait(write, writer.get()));
  waiter.join();
  ASSERT_TRUE(queue_->WaitHost(last.load(), DeadlineIn(10000)));
  EXPECT_EQ(ran.load(), 1);
  EXPECT_EQ(*word, 0x5eedu);
}

TEST_P(FlagSuite, AWaitWithATimeoutFailsTheTask) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  auto flag = device_->CreateFlag();
  hal::Task wait = Wait(flag.get(), 1);
  wait.timeout_ns = 20 * 1000000ull;
  ASSERT_TRUE(RunAndWait(wait));
  EXPECT_NE(queue_->error(), 0) << "a wait that timed out completed without an error";
  EXPECT_FALSE(queue_->error_message().empty());
}

INSTANTIATE_TEST_SUITE_P(Cts, FlagSuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
