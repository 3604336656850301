// Drivers: every backend's driver opens under its name, counts its devices, and refuses a device it does not
// have with ACL_ERROR_RT_INVALID_DEVICEID and a message. Runs on every backend, with or without hardware.
#include "acl/error_codes/rt_error_codes.h"
#include "cts.h"

namespace hal_cts {
namespace {

using DriverSuite = DriverTest;

TEST_P(DriverSuite, OpensUnderItsRegisteredName) {
  EXPECT_EQ(std::string(driver_->name()), backend().driver);
}

TEST_P(DriverSuite, RefusesADeviceItDoesNotHave) {
  const uint32_t count = driver_->device_count();
  auto device = driver_->OpenDevice(count);
  ASSERT_FALSE(device.ok());
  EXPECT_EQ(device.status().code(), ACL_ERROR_RT_INVALID_DEVICEID);
  EXPECT_FALSE(device.status().message().empty());
}

TEST_P(DriverSuite, EveryDeviceOpensWithADescription) {
  for (uint32_t i = 0; i < driver_->device_count(); ++i) {
    auto device = driver_->OpenDevice(i);
    ASSERT_TRUE(device.ok()) << "device " << i << ": " << device.status().message();
    const hal::DeviceInfo& info = device.value()->info();
    EXPECT_FALSE(info.soc_name.empty());
    EXPECT_GT(info.aicore_count, 0u);
    EXPECT_GT(device.value()->memory_size(), 0u);
    EXPECT_GE(device.value()->address_size(), device.value()->memory_size());
    // The limits core and api check launches against and report (aclrtGetDeviceInfo).
    const hal::DeviceCapabilities& caps = info.caps;
    EXPECT_EQ(caps.page_bytes, hal::kPhysicalPageBytes) << "core's allocator is built on 2 MiB pages";
    EXPECT_GT(caps.unified_buffer_bytes, 0u);
    EXPECT_GT(caps.max_blocks_per_launch, 0u);
    if (caps.host_visible_memory) {
      EXPECT_NE(device.value()->memory_base(), nullptr);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Cts, DriverSuite, testing::ValuesIn(Backends()), BackendName);

}  // namespace
}  // namespace hal_cts
