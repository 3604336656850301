// The driver-level conformance suite (HAL CTS): tests written once against src/hal/ and run against every
// driver configuration ("backend"). Each driver lists its backends in src/drivers/<name>/cts/backends.cc:
// which driver and options, what the driver can do, and the tests it cannot run, each with its reason
// (reported as skipped, never silently dropped). A backend whose driver has no device here (its hardware is
// absent) runs the driver-level tests and skips the device ones.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "hal/driver.h"
#include "hal/driver_registry.h"

namespace hal_cts {

namespace hal = npurt::hal;

// What the suite needs to know of a backend beyond what its devices declare. What a device can do (host-visible
// memory, virtual memory, sharing) is read from the device itself (Device::info().caps, hal/capabilities.h),
// so that a test checks the declaration against the behaviour instead of trusting a second copy of it.
struct Capabilities {
  // Tasks run on driver threads: a task may stay queued behind a parked one while the submitting thread goes
  // on. False where every task runs inline at submission (a wait must then be submitted from its own thread).
  bool deferred_execution = false;
};

struct Backend {
  std::string name;    // the test-name suffix: sim, sim_sync, null
  std::string driver;  // the registered driver name
  hal::DriverConfig config;  // the driver's configuration section (hal/driver_config.h)
  Capabilities caps;
  std::map<std::string, std::string> unsupported;  // "Suite.Test" -> why the backend cannot run it
};

// Adds a backend (backends.cc, at static initialisation). Returns true.
bool RegisterBackend(Backend backend);
std::vector<const Backend*> Backends();
std::string BackendName(const testing::TestParamInfo<const Backend*>& info);

// Fixture of the driver-level tests: the backend's driver, opened.
class DriverTest : public testing::TestWithParam<const Backend*> {
 protected:
  void SetUp() override;
  const Backend& backend() const { return *GetParam(); }
  std::unique_ptr<hal::Driver> driver_;
};

// Fixture of the device tests: device 0 of the backend's driver with one queue; skipped without a device.
class DeviceTest : public DriverTest {
 protected:
  void SetUp() override;
  void TearDown() override;
  // Submits `task` on `queue` (queue_ if null) and waits for it, at most 10 s; false on timeout.
  bool RunAndWait(const hal::Task& task, hal::Queue* queue = nullptr);
  // Deadline `ms` milliseconds from now (CLOCK_MONOTONIC ns, the drivers' clock).
  static uint64_t DeadlineIn(uint64_t ms);
  // What the opened device declares it can do.
  const hal::DeviceCapabilities& caps() const { return device_->info().caps; }
  std::unique_ptr<hal::Device> device_;
  std::unique_ptr<hal::Queue> queue_;
};

// Task builders the suites share.
hal::Task Copy(void* dst, const void* src, size_t n);
hal::Task Fill(void* dst, size_t n, uint8_t v);
// A host-function task that appends `value` to `out` when it runs, then completes (the one kind whose
// running the host sees directly).
struct Appender {
  std::vector<uint32_t>* out;
  uint32_t value;
};
hal::Task HostStep(Appender* appender);

// Every device test starts with it: skips the test if its backend lists it as unsupported.
#define HAL_CTS_SKIP_IF_UNSUPPORTED()                                                           \
  do {                                                                                          \
    const auto* info_ = ::testing::UnitTest::GetInstance()->current_test_info();                \
    std::string test_ = std::string(info_->test_suite_name()) + "." + info_->name();            \
    test_ = test_.substr(test_.find('/') + 1);                                                  \
    test_ = test_.substr(0, test_.rfind('/'));                                                  \
    auto it_ = backend().unsupported.find(test_);                                               \
    if (it_ != backend().unsupported.end()) {                                                   \
      GTEST_SKIP() << "unsupported on backend '" << backend().name << "': " << it_->second;    \
    }                                                                                           \
  } while (0)

}  // namespace hal_cts
