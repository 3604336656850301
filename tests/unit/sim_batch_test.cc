// The sim driver's kBatch tasks (graph replay): prepared lists run in place, values relative to the
// batch's base, incrementing signals, waits on a reset mark, nesting with conditions, a task that
// parks inside a list, an update seen by a replay parked before it, failures. Both sim modes.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <thread>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "hal/driver_registry.h"
#include "hal/hal.h"

namespace npurt::hal {
namespace {

class SimBatchTest : public ::testing::TestWithParam<bool> {
 protected:
  void SetUp() override {
    DriverConfig o;
    o.SetText("device_count", "1");
    o.SetText("memory_mb", "64");
    o.SetText("aicore_count", "2");
    o.SetText("mode", GetParam() ? "sync" : "async");
    RegisterBuiltinDrivers();
    auto d = CreateDriver("sim", o);
    ASSERT_TRUE(d.ok()) << d.status().message();
    driver_ = std::move(d.value());
    auto dev = driver_->OpenDevice(0);
    ASSERT_TRUE(dev.ok()) << dev.status().message();
    device_ = std::move(dev.value());
    mem_ = device_->memory_base();
    device_->Prefault(mem_, 1 << 20);
    queue_ = device_->CreateQueue(QueueOptions{});
  }
  void TearDown() override {
    if (queue_) queue_->WaitHost(queue_->submitted(), UINT64_MAX);
    queue_.reset();
    device_.reset();
    driver_.reset();
  }
  static Task Fill(void* dst, size_t n, uint8_t v) {
    Task t;
    t.kind = TaskKind::kFill8;
    t.dst = dst;
    t.size = n;
    t.value = v;
    return t;
  }
  static Task Batch(const TaskList* list, uint64_t base) {
    Task t;
    t.kind = TaskKind::kBatch;
    t.batch = list;
    t.value = base;
    return t;
  }
  bool RunAndWait(const Task& t) {
    const uint64_t seq = queue_->Submit(t);
    return queue_->WaitHost(seq, UINT64_MAX);
  }
  std::unique_ptr<Driver> driver_;
  std::unique_ptr<Device> device_;
  std::unique_ptr<Queue> queue_;
  uint8_t* mem_ = nullptr;
};

TEST_P(SimBatchTest, ListRunsInOrderWithRelativeAndIncrementingSignals) {
  auto relative = device_->CreateFlag();
  auto counter = device_->CreateFlag();
  std::vector<Task> tasks = {Fill(mem_, 64, 1), Fill(mem_ + 32, 32, 2)};
  Task rel;
  rel.kind = TaskKind::kFlagSignal;
  rel.flag = relative.get();
  rel.aux = kFlagRelative;
  rel.value = 0;
  tasks.push_back(rel);
  Task inc;
  inc.kind = TaskKind::kFlagSignal;
  inc.flag = counter.get();
  inc.aux = kFlagIncrement;
  tasks.push_back(inc);
  std::atomic<uint32_t> version{0};
  TaskList list{tasks.data(), static_cast<uint32_t>(tasks.size()), &version};
  for (uint64_t replay = 1; replay <= 3; ++replay) {
    std::memset(mem_, 0, 64);
    ASSERT_TRUE(RunAndWait(Batch(&list, replay)));
    EXPECT_EQ(mem_[0], 1);
    EXPECT_EQ(mem_[40], 2);
    EXPECT_EQ(relative->value(), replay);
    EXPECT_EQ(counter->value(), replay);
  }
  EXPECT_EQ(queue_->error(), 0);
}

TEST_P(SimBatchTest, AWhileConditionRunsItsBodyUntilTheBodyClearsItsWord) {
  auto counter = device_->CreateFlag();
  auto* word = reinterpret_cast<uint64_t*>(mem_ + 64);
  const uint64_t times = 3 + static_cast<uint64_t>(reinterpret_cast<uintptr_t>(counter.get()) >> 4) % 5;
  *word = times;
  Task inc;
  inc.kind = TaskKind::kFlagSignal;
  inc.flag = counter.get();
  inc.aux = kFlagIncrement;
  Task dec;  // the body counts the condition down on the device: word += -1
  dec.kind = TaskKind::kValueUpdate;
  dec.dst = word;
  dec.value = ~uint64_t{0};
  dec.aux = static_cast<uint32_t>(ValueUpdate::kAdd);
  std::vector<Task> body_tasks = {inc, dec};
  TaskList body{body_tasks.data(), 2, nullptr};
  CondBranch branch{&body};
  const CondBranch* branches[] = {&branch};
  Conditional loop;
  loop.kind = CondKind::kWhile;
  loop.word = word;
  loop.branches = branches;
  loop.branch_count = 1;
  Task cond;
  cond.kind = TaskKind::kBatch;
  cond.cond = &loop;
  std::vector<Task> outer = {cond, Fill(mem_, 8, 9)};
  TaskList list{outer.data(), 2, nullptr};
  std::memset(mem_, 0, 8);
  ASSERT_TRUE(RunAndWait(Batch(&list, 1)));
  EXPECT_EQ(counter->value(), times);
  EXPECT_EQ(*word, 0u);
  EXPECT_EQ(mem_[7], 9);
  EXPECT_EQ(queue_->error(), 0);
}

TEST_P(SimBatchTest, WaitOnAResetMarkAndFailureEndsTheList) {
  auto flag = device_->CreateFlag();
  alignas(8) uint64_t mark = 0;
  Task sig;
  sig.kind = TaskKind::kFlagSignal;
  sig.flag = flag.get();
  sig.value = 1;
  ASSERT_TRUE(RunAndWait(sig));
  Task wait;
  wait.kind = TaskKind::kFlagWait;
  wait.flag = flag.get();
  wait.src = &mark;
  wait.value = 1;  // the next value after the mark
  Task fail;
  fail.kind = TaskKind::kFail;
  fail.aux = ACL_ERROR_RT_AICORE_EXCEPTION;
  std::vector<Task> tasks = {wait, Fill(mem_, 8, 3), fail, Fill(mem_, 8, 4)};
  TaskList list{tasks.data(), 4, nullptr};
  std::memset(mem_, 0, 8);
  ASSERT_TRUE(RunAndWait(Batch(&list, 1)));
  EXPECT_EQ(mem_[0], 3) << "the task after the failure ran";
  EXPECT_EQ(queue_->error(), ACL_ERROR_RT_AICORE_EXCEPTION);
}

TEST_P(SimBatchTest, AParkedListSeesAnUpdateMadeBeforeItReachesTheTask) {
  if (GetParam()) GTEST_SKIP() << "sync mode: a wait would block the submitting thread";
  auto gate = device_->CreateFlag();
  Task wait;
  wait.kind = TaskKind::kFlagWait;
  wait.flag = gate.get();
  wait.value = 1;
  std::vector<Task> tasks = {wait, Fill(mem_, 8, 5)};
  std::atomic<uint32_t> version{0};
  TaskList list{tasks.data(), 2, &version};
  std::memset(mem_, 0, 8);
  const uint64_t seq = queue_->Submit(Batch(&list, 1));
  WriteTask(tasks.data(), &version, 1, Fill(mem_, 8, 6));
  auto other = device_->CreateQueue(QueueOptions{});
  Task open;
  open.kind = TaskKind::kFlagSignal;
  open.flag = gate.get();
  open.value = 1;
  other->WaitHost(other->Submit(open), UINT64_MAX);
  ASSERT_TRUE(queue_->WaitHost(seq, UINT64_MAX));
  EXPECT_EQ(mem_[0], 6);
}

INSTANTIATE_TEST_SUITE_P(Modes, SimBatchTest, ::testing::Values(false, true),
                         [](const ::testing::TestParamInfo<bool>& i) { return i.param ? "sync" : "async"; });

}  // namespace
}  // namespace npurt::hal
