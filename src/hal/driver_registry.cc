// The list of drivers built into the runtime. Drivers are mechanism only and never include core;
// each exposes one factory function, declared here rather than through a driver header so that hal
// does not depend on any driver's internals.
#include "acl/error_codes/rt_error_codes.h"
#include "hal/hal.h"

namespace npurt::drivers {
StatusOr<std::unique_ptr<hal::Driver>> CreateSimDriver(const hal::DriverOptions& options);
StatusOr<std::unique_ptr<hal::Driver>> CreateNullDriver(const hal::DriverOptions& options);
}  // namespace npurt::drivers

namespace npurt::hal {

StatusOr<std::unique_ptr<Driver>> CreateDriver(const std::string& name, const DriverOptions& options) {
  if (name == "sim") return drivers::CreateSimDriver(options);
  if (name == "null") return drivers::CreateNullDriver(options);
  return Err(ACL_ERROR_RT_NO_DEVICE, "unknown driver '{}' (known: sim, null)", name);
}

std::vector<std::string> DriverNames() { return {"sim", "null"}; }

}  // namespace npurt::hal
