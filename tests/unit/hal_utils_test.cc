// The driver emulation layer (src/hal/utils/): ACL's stream semantics that every driver shares, checked
// without a driver.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "acl/error_codes/rt_error_codes.h"
#include "hal/utils/batch_cursor.h"
#include "hal/utils/conditional.h"
#include "hal/utils/discard_policy.h"
#include "hal/utils/label_skip.h"
#include "hal/utils/value_ops.h"

namespace npurt::hal::utils {
namespace {

// The tests' "device memory" is host memory: a plain read, as a host-visible driver does.
uint64_t ReadWord(const void* addr, uint32_t bytes) {
  if (bytes == 4) return *static_cast<const uint32_t*>(addr);
  return *static_cast<const uint64_t*>(addr);
}

Task Fill(uint64_t value) {
  Task t;
  t.kind = TaskKind::kFill8;
  t.value = value;
  return t;
}

Task Batch(const TaskList* list, uint64_t base = 0) {
  Task t;
  t.kind = TaskKind::kBatch;
  t.batch = list;
  t.value = base;
  return t;
}

// Every leaf a cursor yields for `batch`, by value (Fill's values; flags: their resolved values).
std::vector<uint64_t> Walk(const Task& batch) {
  BatchCursor cursor(&ReadWord);
  cursor.Begin(batch);
  std::vector<uint64_t> seen;
  Task leaf;
  while (cursor.Next(&leaf) == BatchCursor::Step::kTask) {
    seen.push_back(leaf.value);
    cursor.Advance();
  }
  EXPECT_FALSE(cursor.active());
  return seen;
}

TEST(BatchCursorTest, WalksNestedListsInOrderAndOffsetsRelativeFlagsByTheOuterBase) {
  std::mt19937_64 rng(11);
  const uint64_t base = rng() >> 8;
  const uint64_t a = rng() >> 8, b = rng() >> 8, c = rng() >> 8, d = rng() >> 8;
  Task relative_signal;
  relative_signal.kind = TaskKind::kFlagSignal;
  relative_signal.aux = kFlagRelative;
  relative_signal.value = c;
  Task absolute_wait;
  absolute_wait.kind = TaskKind::kFlagWait;
  absolute_wait.value = d;
  const Task inner_tasks[] = {Fill(b), relative_signal};
  const TaskList inner{inner_tasks, 2};
  const TaskList empty{nullptr, 0};
  // The inner batch's own base is ignored: relative values follow the head batch's (one replay's base).
  const Task outer_tasks[] = {Fill(a), Batch(&inner, rng()), Batch(&empty), absolute_wait};
  const TaskList outer{outer_tasks, 4};
  EXPECT_EQ(Walk(Batch(&outer, base)), (std::vector<uint64_t>{a, b, c + base, d}));
}

TEST(BatchCursorTest, TheSameLeafComesBackUntilAdvancedSoAParkedTaskResumesInPlace) {
  const Task tasks[] = {Fill(7), Fill(9)};
  const TaskList list{tasks, 2};
  BatchCursor cursor(&ReadWord);
  cursor.Begin(Batch(&list));
  Task leaf;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(cursor.Next(&leaf), BatchCursor::Step::kTask);
    EXPECT_EQ(leaf.value, 7u);
  }
  cursor.Advance();
  ASSERT_EQ(cursor.Next(&leaf), BatchCursor::Step::kTask);
  EXPECT_EQ(leaf.value, 9u);
  cursor.Reset();  // a failure abandons the rest
  EXPECT_FALSE(cursor.active());
  EXPECT_EQ(cursor.Next(&leaf), BatchCursor::Step::kDone);
}

// A loop body that counts down the loop's condition word: the body's "device task".
struct Countdown {
  uint64_t* word;
  int runs = 0;
};

TEST(BatchCursorTest, AWhileBatchRunsItsBodyWhileItsWordIsNonZeroReadingItEveryRound) {
  std::mt19937 rng(5);
  const Task body_tasks[] = {Fill(1), Fill(2)};
  const TaskList body{body_tasks, 2};
  for (uint64_t rounds : {uint64_t{0}, uint64_t{1}, uint64_t{2 + rng() % 5}}) {
    uint64_t word = rounds;
    CondBranch branch{&body};
    const CondBranch* branches[] = {&branch};
    Conditional loop;
    loop.kind = CondKind::kWhile;
    loop.word = &word;
    loop.branches = branches;
    loop.branch_count = 1;
    Task cond;
    cond.kind = TaskKind::kBatch;
    cond.cond = &loop;
    const Task outer_tasks[] = {Fill(100), cond, Fill(200)};
    const TaskList outer{outer_tasks, 3};
    BatchCursor cursor(&ReadWord);
    cursor.Begin(Batch(&outer));
    std::vector<uint64_t> seen;
    Task leaf;
    while (cursor.Next(&leaf) == BatchCursor::Step::kTask) {
      seen.push_back(leaf.value);
      if (leaf.value == 2) --word;  // the body's last task counts the word down, as a device task would
      cursor.Advance();
    }
    std::vector<uint64_t> expected{100};
    for (uint64_t r = 0; r < rounds; ++r) expected.insert(expected.end(), {1, 2});
    expected.push_back(200);
    EXPECT_EQ(seen, expected) << rounds << " rounds";
    EXPECT_EQ(word, 0u);
  }
}

// The branch a one-round conditional takes, by the value of the first list task it yields (or 0: none).
uint64_t Taken(const Conditional& c) {
  Task cond;
  cond.kind = TaskKind::kBatch;
  cond.cond = &c;
  const std::vector<uint64_t> seen = Walk(cond);
  EXPECT_LE(seen.size(), 1u) << "one round only";
  return seen.empty() ? 0 : seen[0];
}

TEST(BatchCursorTest, IfSwitchAndCompareTakeTheBranchTheirWordsSelect) {
  std::mt19937_64 rng(9);
  std::vector<Task> tasks;
  for (uint64_t i = 1; i <= 5; ++i) tasks.push_back(Fill(i * 10));
  std::vector<TaskList> lists;
  for (auto& t : tasks) lists.push_back(TaskList{&t, 1});
  std::vector<CondBranch> slots(5);
  std::vector<const CondBranch*> branches;
  for (size_t i = 0; i < 5; ++i) {
    slots[i].store(&lists[i]);
    branches.push_back(&slots[i]);
  }
  uint64_t word = 0;
  Conditional c;
  c.word = &word;
  c.branches = branches.data();

  c.kind = CondKind::kIf;
  c.branch_count = 2;
  word = 1 + rng() % 1000;
  EXPECT_EQ(Taken(c), 10u);  // non-zero: the first branch
  word = 0;
  EXPECT_EQ(Taken(c), 20u);  // zero: the else branch
  c.branch_count = 1;
  EXPECT_EQ(Taken(c), 0u);  // zero and no else branch: nothing

  c.kind = CondKind::kSwitch;
  c.branch_count = 5;
  for (uint64_t v = 0; v < 5; ++v) {
    word = v;
    EXPECT_EQ(Taken(c), (v + 1) * 10);
  }
  word = 5 + rng() % 100;
  EXPECT_EQ(Taken(c), 0u);  // past the last branch: nothing
  slots[2].store(nullptr);  // a branch not (yet) published runs nothing
  word = 2;
  EXPECT_EQ(Taken(c), 0u);

  // Compare: signed, 4 or 8 bytes (a 4-byte operand's upper word is not read).
  c.kind = CondKind::kCompare;
  c.branch_count = 2;
  struct {
    int64_t left, right;
  } cases[] = {{-3, 2}, {2, -3}, {7, 7}, {static_cast<int64_t>(rng() >> 1), -static_cast<int64_t>(rng() >> 1)}};
  for (const auto& k : cases) {
    for (uint32_t width : {4u, 8u}) {
      int64_t l = k.left, r = k.right;
      if (width == 4) {
        l = static_cast<int32_t>(l);
        r = static_cast<int32_t>(r);
      }
      // Little-endian: the 4-byte operand is the word's low half; the high half holds noise.
      uint64_t left_word = static_cast<uint64_t>(l), right_word = static_cast<uint64_t>(r);
      if (width == 4) {
        left_word = (static_cast<uint64_t>(static_cast<uint32_t>(l))) | (rng() << 32);
        right_word = (static_cast<uint64_t>(static_cast<uint32_t>(r))) | (rng() << 32);
      }
      c.word = &left_word;
      c.right = &right_word;
      c.width = width;
      const std::pair<CondCompare, bool> ops[] = {{CondCompare::kEqual, l == r},   {CondCompare::kNotEqual, l != r},
                                                  {CondCompare::kGreater, l > r},  {CondCompare::kGreaterEqual, l >= r},
                                                  {CondCompare::kLess, l < r},     {CondCompare::kLessEqual, l <= r}};
      for (const auto& [op, holds] : ops) {
        c.compare = op;
        EXPECT_EQ(Taken(c), holds ? 10u : 20u) << l << " vs " << r << ", width " << width;
      }
    }
  }
}

TEST(BatchCursorTest, BatchesNestedDeeperThanTheLimitFailAndResetTheCursor) {
  // kMaxBatchDepth levels in all run; one more fails.
  for (int levels : {kMaxBatchDepth, kMaxBatchDepth + 1}) {
    std::vector<Task> tasks(levels);
    std::vector<TaskList> lists(levels);
    tasks[levels - 1] = Fill(42);
    lists[levels - 1] = TaskList{&tasks[levels - 1], 1};
    for (int i = levels - 2; i >= 0; --i) {
      tasks[i] = Batch(&lists[i + 1]);
      lists[i] = TaskList{&tasks[i], 1};
    }
    BatchCursor cursor(&ReadWord);
    cursor.Begin(Batch(&lists[0]));
    Task leaf;
    if (levels <= kMaxBatchDepth) {
      ASSERT_EQ(cursor.Next(&leaf), BatchCursor::Step::kTask);
      EXPECT_EQ(leaf.value, 42u);
      cursor.Advance();
      EXPECT_EQ(cursor.Next(&leaf), BatchCursor::Step::kDone);
    } else {
      EXPECT_EQ(cursor.Next(&leaf), BatchCursor::Step::kTooDeep);
      EXPECT_FALSE(cursor.active());
    }
  }
}

TEST(LabelSkipTest, ATakenSwitchSkipsEverythingUpToItsTargetLabel) {
  const uint64_t labels[] = {31, 57, 90};
  Task sw;
  sw.kind = TaskKind::kLabelSwitch;
  sw.host_arg = const_cast<uint64_t*>(labels);
  sw.size = 3;
  auto label = [](uint64_t id) {
    Task t;
    t.kind = TaskKind::kLabelSet;
    t.value = id;
    return t;
  };
  LabelSkip skip;
  EXPECT_FALSE(skip.Skips(Fill(1)));
  std::string message;
  ASSERT_EQ(skip.Switch(sw, 1, &message), 0);
  EXPECT_TRUE(skip.Skips(Fill(2)));
  EXPECT_TRUE(skip.Skips(label(31)));  // another label does not end the skip
  EXPECT_TRUE(skip.Skips(Fill(3)));
  EXPECT_FALSE(skip.Skips(label(57)));  // the target runs, and so does what follows
  EXPECT_FALSE(skip.Skips(Fill(4)));
  // An index past the table fails and leaves the queue running in order.
  EXPECT_EQ(skip.Switch(sw, 3, &message), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(message, "label switch index 3 is not below the list's 3 labels");
  EXPECT_FALSE(skip.Skips(Fill(5)));
}

TEST(DiscardPolicyTest, DiscardsStopOnFailureAndTheSparedKernel) {
  std::mt19937_64 rng(3);
  DiscardPolicy policy;
  const uint64_t through = 10 + rng() % 100;
  EXPECT_FALSE(policy.Discards(1));
  policy.Discard(through);
  policy.Discard(through / 2);  // never moves back
  EXPECT_EQ(policy.discarded_through(), through);
  EXPECT_TRUE(policy.Discards(1));
  EXPECT_TRUE(policy.Discards(through));
  EXPECT_FALSE(policy.Discards(through + 1));
  policy.Spare(through);
  EXPECT_FALSE(policy.Discards(through));
  EXPECT_TRUE(policy.Discards(through - 1));

  // A failure is sticky; it stops later tasks only in stop-on-failure mode.
  const int32_t code = 507000 + static_cast<int32_t>(rng() % 100);
  policy.RecordFailure(code, "first");
  policy.RecordFailure(code + 1, "second");
  EXPECT_EQ(policy.error(), code);
  EXPECT_EQ(policy.error_message(), "first");
  EXPECT_FALSE(policy.Discards(through + 1));
  policy.SetStopOnFailure(true);
  EXPECT_TRUE(policy.Discards(through + 1));
  policy.ClearError();
  EXPECT_EQ(policy.error(), 0);
  EXPECT_EQ(policy.error_message(), "");
  EXPECT_FALSE(policy.Discards(through + 1));
}

TEST(ValueOpsTest, ComparisonsAndUpdatesMatchTheirDefinitionsOnRandomWords) {
  std::mt19937_64 rng(17);
  for (int i = 0; i < 2000; ++i) {
    // Small values too, so that equality and the bit tests hit both outcomes.
    const uint64_t v = i % 2 == 0 ? rng() : rng() % 4;
    const uint64_t op = i % 3 == 0 ? rng() : (i % 3 == 1 ? v : rng() % 4);
    EXPECT_EQ(ValueSatisfies(v, op, static_cast<uint32_t>(ValueCompare::kGreaterEqual)), v >= op);
    EXPECT_EQ(ValueSatisfies(v, op, static_cast<uint32_t>(ValueCompare::kEqual)), v == op);
    EXPECT_EQ(ValueSatisfies(v, op, static_cast<uint32_t>(ValueCompare::kAnd)), (v & op) != 0);
    EXPECT_EQ(ValueSatisfies(v, op, static_cast<uint32_t>(ValueCompare::kNor)), ~(v | op) != 0);
    EXPECT_EQ(ValueSatisfies(v, op, static_cast<uint32_t>(ValueCompare::kLess)), v < op);
    EXPECT_EQ(ValueSatisfies(v, op, static_cast<uint32_t>(ValueCompare::kGreater)), v > op);
    EXPECT_EQ(ValueSatisfies(v, op, static_cast<uint32_t>(ValueCompare::kAllBits)), (v & op) == op);
    EXPECT_FALSE(ValueSatisfies(v, op, 99));  // an unknown comparison is never satisfied
    uint64_t w = v;
    ApplyValueUpdate(&w, op, static_cast<uint32_t>(ValueUpdate::kAdd));
    EXPECT_EQ(w, v + op);
    ApplyValueUpdate(&w, op, static_cast<uint32_t>(ValueUpdate::kOr));
    EXPECT_EQ(w, (v + op) | op);
    ApplyValueUpdate(&w, v, static_cast<uint32_t>(ValueUpdate::kAnd));
    EXPECT_EQ(w, ((v + op) | op) & v);
    ApplyValueUpdate(&w, op, static_cast<uint32_t>(ValueUpdate::kSet));
    EXPECT_EQ(w, op);
  }
}

}  // namespace
}  // namespace npurt::hal::utils
