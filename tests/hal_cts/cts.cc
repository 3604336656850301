#include "cts.h"

#include "base/clock.h"

namespace hal_cts {
namespace {
std::vector<Backend>& Registry() {
  static std::vector<Backend> backends;
  return backends;
}
}  // namespace

bool RegisterBackend(Backend backend) {
  Registry().push_back(std::move(backend));
  return true;
}

std::vector<const Backend*> Backends() {
  std::vector<const Backend*> out;
  for (const Backend& b : Registry()) out.push_back(&b);
  return out;
}

std::string BackendName(const testing::TestParamInfo<const Backend*>& info) { return info.param->name; }

void DriverTest::SetUp() {
  hal::RegisterBuiltinDrivers();
  auto driver = hal::CreateDriver(backend().driver, backend().config);
  ASSERT_TRUE(driver.ok()) << backend().driver << ": " << driver.status().message();
  driver_ = std::move(driver.value());
}

void DeviceTest::SetUp() {
  DriverTest::SetUp();
  if (HasFatalFailure()) return;
  if (driver_->device_count() == 0) GTEST_SKIP() << "driver '" << backend().driver << "' has no device here";
  auto device = driver_->OpenDevice(0);
  ASSERT_TRUE(device.ok()) << device.status().message();
  device_ = std::move(device.value());
  queue_ = device_->CreateQueue(hal::QueueOptions{});
  ASSERT_NE(queue_, nullptr);
}

void DeviceTest::TearDown() {
  if (queue_ != nullptr) {
    queue_->Discard();
    EXPECT_TRUE(queue_->WaitHost(queue_->submitted(), DeadlineIn(10000))) << "the queue did not drain";
  }
  queue_.reset();
  device_.reset();
  driver_.reset();
}

bool DeviceTest::RunAndWait(const hal::Task& task, hal::Queue* queue) {
  hal::Queue* q = queue != nullptr ? queue : queue_.get();
  return q->WaitHost(q->Submit(task), DeadlineIn(10000));
}

uint64_t DeviceTest::DeadlineIn(uint64_t ms) { return npurt::NowNs() + ms * 1000000ull; }

hal::Task Copy(void* dst, const void* src, size_t n) {
  hal::Task t;
  t.kind = hal::TaskKind::kCopy;
  t.dst = dst;
  t.src = src;
  t.size = n;
  return t;
}

hal::Task Fill(void* dst, size_t n, uint8_t v) {
  hal::Task t;
  t.kind = hal::TaskKind::kFill8;
  t.dst = dst;
  t.size = n;
  t.value = v;
  return t;
}

namespace {
void Append(void* arg, hal::Queue* queue) {
  auto* a = static_cast<Appender*>(arg);
  a->out->push_back(a->value);
  queue->CompleteHostTask(0);
}
}  // namespace

hal::Task HostStep(Appender* appender) {
  hal::Task t;
  t.kind = hal::TaskKind::kHostFunc;
  t.host_fn = &Append;
  t.host_arg = appender;
  return t;
}

}  // namespace hal_cts
