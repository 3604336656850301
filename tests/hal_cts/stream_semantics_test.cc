// ACL's stream semantics as a queue runs them (src/hal/utils/: the emulation layer a driver builds on, or
// its hardware's own): label switches skip to their target; conditional batches (if / while / switch /
// compare) take the branch their device words select, reading them when the round starts; value updates;
// a task that parks inside nested lists resumes where it stopped. Device memory is set and read through
// the device (CopyNow), so the tests run on devices without a host mapping too.
#include <cstring>
#include <random>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "cts.h"

namespace hal_cts {
namespace {

using StreamSemanticsSuite = DeviceTest;

hal::Task Label(uint64_t id) {
  hal::Task t;
  t.kind = hal::TaskKind::kLabelSet;
  t.value = id;
  return t;
}

hal::Task Batch(const hal::TaskList* list) {
  hal::Task t;
  t.kind = hal::TaskKind::kBatch;
  t.batch = list;
  return t;
}

class Words {
 public:
  Words(hal::Device* device, uint8_t* base) : device_(device), base_(base) {}
  uint8_t* at(size_t offset) const { return base_ + offset; }
  void Put(size_t offset, const void* src, size_t n) { ASSERT_TRUE(device_->CopyNow(at(offset), src, n).ok()); }
  void Put64(size_t offset, uint64_t v) { Put(offset, &v, 8); }
  std::vector<uint8_t> Get(size_t offset, size_t n) {
    std::vector<uint8_t> v(n);
    EXPECT_TRUE(device_->CopyNow(v.data(), at(offset), n).ok());
    return v;
  }
  uint64_t Get64(size_t offset) {
    uint64_t v = 0;
    EXPECT_TRUE(device_->CopyNow(&v, at(offset), 8).ok());
    return v;
  }

 private:
  hal::Device* device_;
  uint8_t* base_;
};

TEST_P(StreamSemanticsSuite, ALabelSwitchSkipsToItsTargetAndABadIndexFailsTheTask) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  uint8_t* base = device_->memory_base();
  device_->Prefault(base, 1 << 16);
  Words w(device_.get(), base);
  std::mt19937 rng(23);
  const uint64_t labels[] = {100 + rng() % 100, 300 + rng() % 100, 500 + rng() % 100};
  w.Put(0, std::vector<uint8_t>(64, 0).data(), 64);
  const uint32_t index = 2;
  w.Put(64, &index, 4);
  hal::Task sw;
  sw.kind = hal::TaskKind::kLabelSwitch;
  sw.src = w.at(64);
  sw.host_arg = const_cast<uint64_t*>(labels);
  sw.size = 3;
  // Taken to labels[2]: the fills before it (and another label) are skipped, the ones after run.
  queue_->Submit(sw);
  queue_->Submit(Fill(w.at(0), 8, 0x11));
  queue_->Submit(Label(labels[0]));
  queue_->Submit(Fill(w.at(8), 8, 0x22));
  queue_->Submit(Label(labels[2]));
  ASSERT_TRUE(RunAndWait(Fill(w.at(16), 8, 0x33)));
  EXPECT_EQ(w.Get(0, 24), (std::vector<uint8_t>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                                 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33, 0x33}));
  EXPECT_EQ(queue_->error(), 0);
  // An index past the table fails the switch; the queue goes on in order.
  const uint32_t bad = 3 + rng() % 10;
  w.Put(64, &bad, 4);
  queue_->Submit(sw);
  ASSERT_TRUE(RunAndWait(Fill(w.at(24), 8, 0x44)));
  EXPECT_EQ(queue_->error(), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_NE(queue_->error_message().find("label switch index"), std::string::npos) << queue_->error_message();
  EXPECT_EQ(w.Get(24, 1)[0], 0x44);
}

TEST_P(StreamSemanticsSuite, AWhileBatchRunsItsBodyUntilTheBodyClearsItsWord) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  uint8_t* base = device_->memory_base();
  device_->Prefault(base, 1 << 16);
  Words w(device_.get(), base);
  std::mt19937 rng(29);
  const uint64_t times = 2 + rng() % 6;
  w.Put64(0, times);  // the condition
  w.Put64(8, 0);      // what the body accumulates
  const uint64_t step = 1 + rng() % 1000;
  hal::Task add;
  add.kind = hal::TaskKind::kValueUpdate;
  add.dst = w.at(8);
  add.value = step;
  add.aux = static_cast<uint32_t>(hal::ValueUpdate::kAdd);
  hal::Task dec = add;  // the condition counts down: word += -1
  dec.dst = w.at(0);
  dec.value = ~uint64_t{0};
  std::vector<hal::Task> body_tasks = {add, dec};
  hal::TaskList body{body_tasks.data(), 2, nullptr};
  hal::CondBranch branch{&body};
  const hal::CondBranch* branches[] = {&branch};
  hal::Conditional loop;
  loop.kind = hal::CondKind::kWhile;
  loop.word = w.at(0);
  loop.branches = branches;
  loop.branch_count = 1;
  hal::Task cond;
  cond.kind = hal::TaskKind::kBatch;
  cond.cond = &loop;
  ASSERT_TRUE(RunAndWait(cond));
  EXPECT_EQ(queue_->error(), 0);
  EXPECT_EQ(w.Get64(0), 0u);
  EXPECT_EQ(w.Get64(8), times * step);
  // A word already zero runs nothing.
  ASSERT_TRUE(RunAndWait(cond));
  EXPECT_EQ(w.Get64(8), times * step);
}

TEST_P(StreamSemanticsSuite, IfSwitchAndCompareTakeTheBranchTheirWordsSelect) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  uint8_t* base = device_->memory_base();
  device_->Prefault(base, 1 << 16);
  Words w(device_.get(), base);
  // Branch i fills the result byte with 0x10 + i.
  std::vector<hal::Task> fills;
  for (uint8_t i = 0; i < 4; ++i) fills.push_back(Fill(w.at(256), 1, static_cast<uint8_t>(0x10 + i)));
  std::vector<hal::TaskList> lists;
  for (auto& f : fills) lists.push_back({&f, 1, nullptr});
  std::vector<hal::CondBranch> slots(4);
  std::vector<const hal::CondBranch*> branches;
  for (size_t i = 0; i < 4; ++i) {
    slots[i].store(&lists[i]);
    branches.push_back(&slots[i]);
  }
  hal::Conditional c;
  c.word = w.at(0);
  c.right = w.at(8);
  c.branches = branches.data();
  hal::Task cond;
  cond.kind = hal::TaskKind::kBatch;
  cond.cond = &c;
  // The branch a run took: the result byte (0 = none).
  auto run = [&]() -> int {
    const uint8_t none = 0;
    w.Put(256, &none, 1);
    if (!RunAndWait(cond)) return -1;
    const uint8_t got = w.Get(256, 1)[0];
    return got == 0 ? -2 : got - 0x10;
  };
  std::mt19937_64 rng(31);
  c.kind = hal::CondKind::kIf;
  c.branch_count = 2;
  w.Put64(0, 1 + rng() % 1000);
  EXPECT_EQ(run(), 0);
  w.Put64(0, 0);
  EXPECT_EQ(run(), 1);
  c.branch_count = 1;
  EXPECT_EQ(run(), -2) << "false, and no else branch";
  c.kind = hal::CondKind::kSwitch;
  c.branch_count = 4;
  for (uint64_t v : {3u, 0u, 2u, 1u}) {
    w.Put64(0, v);
    EXPECT_EQ(run(), static_cast<int>(v));
  }
  w.Put64(0, 4 + rng() % 100);
  EXPECT_EQ(run(), -2) << "past the last branch";
  // Compare: signed, on 4 bytes (the high halves hold noise) and on 8.
  c.kind = hal::CondKind::kCompare;
  c.branch_count = 2;
  c.compare = hal::CondCompare::kLess;
  c.width = 4;
  const int32_t l32 = -5, r32 = 3;
  w.Put64(0, static_cast<uint32_t>(l32) | (rng() << 32));
  w.Put64(8, static_cast<uint32_t>(r32) | (rng() << 32));
  EXPECT_EQ(run(), 0) << "-5 < 3 as int32";
  c.compare = hal::CondCompare::kGreaterEqual;
  EXPECT_EQ(run(), 1);
  c.width = 8;
  w.Put64(0, static_cast<uint64_t>(int64_t{-1} << 40));
  w.Put64(8, 7);
  c.compare = hal::CondCompare::kLessEqual;
  EXPECT_EQ(run(), 0) << "-2^40 <= 7 as int64";
  c.compare = hal::CondCompare::kNotEqual;
  EXPECT_EQ(run(), 0);
  c.compare = hal::CondCompare::kEqual;
  EXPECT_EQ(run(), 1);
  EXPECT_EQ(queue_->error(), 0);
}

TEST_P(StreamSemanticsSuite, TasksThatParkInsideNestedListsResumeWhereTheyStopped) {
  HAL_CTS_SKIP_IF_UNSUPPORTED();
  // Host functions park an asynchronous queue until they complete: each resumption must go on at the next
  // task of the innermost list, then climb out.
  std::vector<uint32_t> ran;
  std::vector<Appender> a;
  for (uint32_t i = 0; i < 6; ++i) a.push_back({&ran, i});
  auto host = [&](int i) { return HostStep(&a[i]); };
  std::vector<hal::Task> inner_tasks = {host(2), host(3)};
  hal::TaskList inner{inner_tasks.data(), 2, nullptr};
  std::vector<hal::Task> middle_tasks = {host(1), Batch(&inner), host(4)};
  hal::TaskList middle{middle_tasks.data(), 3, nullptr};
  std::vector<hal::Task> outer_tasks = {host(0), Batch(&middle), host(5)};
  hal::TaskList outer{outer_tasks.data(), 3, nullptr};
  for (int replay = 0; replay < 3; ++replay) ASSERT_TRUE(RunAndWait(Batch(&outer)));
  ASSERT_EQ(ran.size(), 18u);
  for (size_t i = 0; i < ran.size(); ++i) EXPECT_EQ(ran[i], i % 6) << i;
  EXPECT_EQ(queue_->error(), 0);
}

INSTANTIATE_TEST_SUITE_P(Cts, StreamSemanticsSuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
