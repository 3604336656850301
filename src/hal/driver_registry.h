// The drivers a runtime can open, by name. Drivers register themselves: each has a Register() that adds its
// factory here, and the build's driver list (src/drivers/builtin_drivers.cc.in, one CMake option per driver:
// NPURT_DRIVER_SIM, NPURT_DRIVER_NULL) calls those of the drivers it links in. hal names no driver.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "hal/driver.h"

namespace npurt::hal {

// A driver's factory, given its configuration section (hal/driver_config.h), and the check of a section
// alone: aclInit checks the file's sections of every registered driver each time it reads the file, also
// once the driver is up, so a bad setting is refused whenever it is given. Null: the driver reads no settings.
using DriverFactoryFn = StatusOr<std::unique_ptr<Driver>> (*)(const DriverConfig& config);
using DriverConfigCheckFn = Status (*)(const DriverConfig& config);

// Adds driver `name` (a string literal). Registering a name again replaces its factory.
void RegisterDriver(const char* name, DriverFactoryFn create, DriverConfigCheckFn check = nullptr);
// Registers every driver this build links in (defined by the generated driver list). Idempotent.
void RegisterBuiltinDrivers();

// Creates the driver called `name` (ACL_ERROR_RT_NO_DEVICE naming the registered ones if there is none).
StatusOr<std::unique_ptr<Driver>> CreateDriver(const std::string& name, const DriverConfig& config = {});
// Checks `config` as driver `name`'s section; OK when no driver of that name is registered (a section of a
// driver this build does not have is ignored, like any unknown key).
Status CheckDriverConfig(const std::string& name, const DriverConfig& config);
// The registered drivers' names, in registration order.
std::vector<std::string> DriverNames();

}  // namespace npurt::hal
