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

using DriverFactoryFn = StatusOr<std::unique_ptr<Driver>> (*)(const DriverOptions& options);

// Adds driver `name` (a string literal). Registering a name again replaces its factory.
void RegisterDriver(const char* name, DriverFactoryFn create);
// Registers every driver this build links in (defined by the generated driver list). Idempotent.
void RegisterBuiltinDrivers();

// Creates the driver called `name` (ACL_ERROR_RT_NO_DEVICE naming the registered ones if there is none).
StatusOr<std::unique_ptr<Driver>> CreateDriver(const std::string& name, const DriverOptions& options);
// The registered drivers' names, in registration order.
std::vector<std::string> DriverNames();

}  // namespace npurt::hal
