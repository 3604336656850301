// SequenceSignal (core/sync/sequence_signal.h), the signal under events and notifies: record and wait
// numbering, consuming every record, and the move to a shared flag (refused while busy), on a sim device.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "acl/error_codes/rt_error_codes.h"
#include "core/sync/sequence_signal.h"
#include "hal/driver_registry.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

class SequenceSignalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    hal::DriverConfig o;
    o.SetText("device_count", "1");
    o.SetText("memory_mb", "64");
    o.SetText("aicore_count", "1");
    hal::RegisterBuiltinDrivers();
    auto d = hal::CreateDriver("sim", o);
    ASSERT_TRUE(d.ok()) << d.status().message();
    driver_ = std::move(d.value());
    auto dev = driver_->OpenDevice(0);
    ASSERT_TRUE(dev.ok()) << dev.status().message();
    device_ = std::move(dev.value());
    queue_ = device_->CreateQueue(hal::QueueOptions{});
  }
  void TearDown() override {
    if (queue_) queue_->WaitHost(queue_->submitted(), UINT64_MAX);
    queue_.reset();
    device_.reset();
    driver_.reset();
  }
  void Run(const hal::Task& t) { ASSERT_TRUE(queue_->WaitHost(queue_->Submit(t), UINT64_MAX)); }

  std::unique_ptr<hal::Driver> driver_;
  std::unique_ptr<hal::Device> device_;
  std::unique_ptr<hal::Queue> queue_;
};

TEST_F(SequenceSignalTest, RecordsAndConsumingWaitsAreNumberedAndPairUp) {
  SequenceSignal s(device_->CreateFlag());
  EXPECT_EQ(s.shared_flag(), nullptr);
  std::mt19937 rng(41);
  const int n = 3 + static_cast<int>(rng() % 6);
  for (int i = 1; i <= n; ++i) {
    const hal::Task r = s.RecordTask();
    EXPECT_EQ(r.kind, hal::TaskKind::kFlagSignal);
    EXPECT_EQ(r.value, static_cast<uint64_t>(i));
    Run(r);
  }
  EXPECT_TRUE(s.Complete());
  EXPECT_EQ(s.flag()->value(), static_cast<uint64_t>(n));
  const hal::Task w = s.ConsumeTask(5000);
  EXPECT_EQ(w.kind, hal::TaskKind::kFlagWait);
  EXPECT_EQ(w.value, 1u);
  EXPECT_EQ(w.timeout_ns, 5000u);
  Run(w);
  EXPECT_FALSE(s.Idle()) << "records not consumed yet";
  s.ConsumeAll();
  EXPECT_EQ(s.waits(), static_cast<uint64_t>(n));
  EXPECT_TRUE(s.Idle());
  // The next consuming wait needs a new record.
  EXPECT_EQ(s.ConsumeTask(0).value, static_cast<uint64_t>(n) + 1);
  s.AddRecords(2);
  EXPECT_EQ(s.records(), static_cast<uint64_t>(n) + 2);
  EXPECT_FALSE(s.Complete());
}

TEST_F(SequenceSignalTest, OnlyAnIdleSignalMovesToASharedFlagWhoseAreaThenHoldsTheCounters) {
  SequenceSignal s(device_->CreateFlag());
  Run(s.RecordTask());
  EXPECT_EQ(s.MoveToSharedFlag(device_.get()).code(), ACL_ERROR_INVALID_PARAM) << "a record not consumed";
  EXPECT_EQ(s.shared_flag(), nullptr);
  Run(s.ConsumeTask(0));
  hal::Flag* local = s.flag();
  ASSERT_TRUE(s.MoveToSharedFlag(device_.get()).ok());
  ASSERT_NE(s.shared_flag(), nullptr);
  EXPECT_EQ(s.retired_flag(), local);
  EXPECT_EQ(s.records(), 0u) << "a fresh shared flag counts from zero";
  Run(s.RecordTask());
  const auto* area = reinterpret_cast<const uint64_t*>(s.shared_flag()->shared_area());
  EXPECT_EQ(area[0], 1u) << "records live in the shared area";
  Run(s.ConsumeTask(0));
  EXPECT_EQ(area[1], 1u) << "and so do waits";
  EXPECT_TRUE(s.MoveToSharedFlag(device_.get()).ok()) << "already shared: nothing to do";
  EXPECT_EQ(s.flag(), s.shared_flag());
}

}  // namespace
}  // namespace npurt::core
