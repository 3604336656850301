// Drivers register themselves (src/hal/driver_registry.h): the build's list registers each driver it links in,
// every registered name opens a driver of that name, an unknown name fails with ACL_ERROR_RT_NO_DEVICE naming
// the known ones, and a driver registered at run time (a test double here) is opened like a built-in one.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "acl/error_codes/rt_error_codes.h"
#include "hal/driver_registry.h"

namespace npurt::hal {
namespace {

class FakeDriver final : public Driver {
 public:
  explicit FakeDriver(uint32_t devices) : devices_(devices) {}
  const char* name() const override { return "unit_fake"; }
  uint32_t device_count() const override { return devices_; }
  StatusOr<std::unique_ptr<Device>> OpenDevice(uint32_t index) override {
    return Err(ACL_ERROR_RT_INVALID_DEVICEID, "fake device {}", index);
  }

 private:
  uint32_t devices_;
};

TEST(DriverRegistryTest, EveryBuiltinDriverOpensUnderItsName) {
  RegisterBuiltinDrivers();
  RegisterBuiltinDrivers();  // idempotent
  const std::vector<std::string> names = DriverNames();
  ASSERT_FALSE(names.empty());
  EXPECT_NE(std::find(names.begin(), names.end(), "sim"), names.end());  // the runtime's default
  for (const std::string& name : names) {
    EXPECT_EQ(std::count(names.begin(), names.end(), name), 1) << name;
    DriverConfig c;
    c.SetText("device_count", "1");
    c.SetText("memory_mb", "16");
    auto driver = CreateDriver(name, c);
    ASSERT_TRUE(driver.ok()) << name << ": " << driver.status().message();
    EXPECT_EQ(std::string(driver.value()->name()), name);
  }
}

TEST(DriverRegistryTest, UnknownDriverNamesTheKnownOnes) {
  RegisterBuiltinDrivers();
  auto driver = CreateDriver("no_such_driver", DriverConfig{});
  ASSERT_FALSE(driver.ok());
  EXPECT_EQ(driver.status().code(), ACL_ERROR_RT_NO_DEVICE);
  const std::string message = driver.status().message();
  EXPECT_NE(message.find("unknown driver 'no_such_driver'"), std::string::npos) << message;
  for (const std::string& name : DriverNames()) EXPECT_NE(message.find(name), std::string::npos) << message;
}

TEST(DriverRegistryTest, DriverRegisteredAtRunTimeOpensAndCanBeReplaced) {
  RegisterDriver("unit_fake", [](const DriverConfig& c) -> StatusOr<std::unique_ptr<Driver>> {
    uint64_t devices = 0;
    NPURT_RETURN_IF_ERROR(c.ReadUint("devices", 0, 8, &devices));
    return std::unique_ptr<Driver>(new FakeDriver(static_cast<uint32_t>(devices)));
  });
  DriverConfig o;
  o.SetText("devices", "3");
  auto first = CreateDriver("unit_fake", o);
  ASSERT_TRUE(first.ok()) << first.status().message();
  EXPECT_EQ(first.value()->device_count(), 3u);
  // Registering the name again replaces the factory; the name is listed once.
  RegisterDriver("unit_fake", [](const DriverConfig&) -> StatusOr<std::unique_ptr<Driver>> {
    return std::unique_ptr<Driver>(new FakeDriver(7));
  });
  auto second = CreateDriver("unit_fake", o);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second.value()->device_count(), 7u);
  const std::vector<std::string> names = DriverNames();
  EXPECT_EQ(std::count(names.begin(), names.end(), "unit_fake"), 1);
}

}  // namespace
}  // namespace npurt::hal
