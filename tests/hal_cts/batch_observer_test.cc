// Prepared lists (kBatch, graph replay) run in place, in order, as one task, as often as they are replayed,
// and end at the first failure; the task observer (profiling) sees every task once, with its times.
#include <atomic>
#include <mutex>
#include <vector>

#include "cts.h"
#include "hal/observer.h"

namespace hal_cts {
namespace {

using BatchSuite = DeviceTest;
using ObserverSuite = DeviceTest;

TEST_P(BatchSuite, AListRunsInOrderOnEveryReplay) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  std::vector<uint32_t> ran;
  std::vector<Appender> appenders;
  for (uint32_t i = 0; i < 16; ++i) appenders.push_back({&ran, i * 7 + 3});
  std::vector<hal::Task> tasks;
  for (auto& a : appenders) tasks.push_back(HostStep(&a));
  auto counter = device_->CreateFlag();
  hal::Task inc;
  inc.kind = hal::TaskKind::kFlagSignal;
  inc.flag = counter.get();
  inc.aux = hal::kFlagIncrement;
  tasks.push_back(inc);
  hal::TaskList list{tasks.data(), static_cast<uint32_t>(tasks.size()), nullptr};
  hal::Task batch;
  batch.kind = hal::TaskKind::kBatch;
  batch.batch = &list;
  for (uint64_t replay = 1; replay <= 3; ++replay) {
    const uint64_t before = queue_->submitted();
    batch.value = replay;
    ASSERT_TRUE(RunAndWait(batch));
    EXPECT_EQ(queue_->submitted(), before + 1) << "a list is one task of its queue";
    EXPECT_EQ(counter->value(), replay);
  }
  ASSERT_EQ(ran.size(), 3 * appenders.size());
  for (size_t i = 0; i < ran.size(); ++i) EXPECT_EQ(ran[i], appenders[i % appenders.size()].value);
  EXPECT_EQ(queue_->error(), 0);
}

TEST_P(BatchSuite, AFailureEndsTheListAndFailsTheBatch) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  std::vector<uint32_t> ran;
  Appender first{&ran, 1};
  Appender skipped{&ran, 2};
  hal::Task fail;
  fail.kind = hal::TaskKind::kFail;
  fail.aux = 507015;
  std::vector<hal::Task> tasks = {HostStep(&first), fail, HostStep(&skipped)};
  hal::TaskList list{tasks.data(), static_cast<uint32_t>(tasks.size()), nullptr};
  hal::Task batch;
  batch.kind = hal::TaskKind::kBatch;
  batch.batch = &list;
  ASSERT_TRUE(RunAndWait(batch));
  EXPECT_EQ(queue_->error(), 507015);
  ASSERT_EQ(ran.size(), 1u);
  EXPECT_EQ(ran[0], 1u);
}

class CountingObserver final : public hal::TaskObserver {
 public:
  void OnTaskDone(const hal::QueueOptions& queue, const hal::Task& task, uint64_t start_ns, uint64_t end_ns,
                  int32_t code) override {
    std::lock_guard<std::mutex> lock(mu);
    if (queue.trace_stream != kStream) return;  // another test's queue
    ids.push_back(task.id);
    ordered = ordered && start_ns <= end_ns && start_ns != 0;
    if (code != 0) ++failed;
  }
  static constexpr int32_t kStream = 77;
  std::mutex mu;
  std::vector<uint32_t> ids;
  bool ordered = true;
  int failed = 0;
};

TEST_P(ObserverSuite, SeesEveryTaskOnceWithItsTimes) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  CountingObserver observer;
  hal::QueueOptions options;
  options.trace_stream = CountingObserver::kStream;
  auto queue = device_->CreateQueue(options);
  device_->SetTaskObserver(&observer);
  uint64_t last = 0;
  for (uint32_t i = 1; i <= 50; ++i) {
    hal::Task t;
    t.id = 1000 + i;
    if (i == 25) {
      t.kind = hal::TaskKind::kFail;
      t.aux = 507015;
    }
    last = queue->Submit(t);
  }
  const bool drained = queue->WaitHost(last, DeadlineIn(10000));
  device_->SetTaskObserver(nullptr);
  ASSERT_TRUE(drained);
  std::lock_guard<std::mutex> lock(observer.mu);
  ASSERT_EQ(observer.ids.size(), 50u);
  for (uint32_t i = 0; i < 50; ++i) EXPECT_EQ(observer.ids[i], 1001 + i);
  EXPECT_TRUE(observer.ordered);
  EXPECT_EQ(observer.failed, 1);
}

INSTANTIATE_TEST_SUITE_P(Cts, BatchSuite, testing::ValuesIn(Backends()), BackendName);
INSTANTIATE_TEST_SUITE_P(Cts, ObserverSuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
