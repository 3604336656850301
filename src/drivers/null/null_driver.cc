// The null driver: a template for new drivers (copy, rename, fill in). It reports no devices, so the
// runtime behaves as on a machine without accelerators: device calls fail with ACL_ERROR_RT_NO_DEVICE
// or ACL_ERROR_RT_INVALID_DEVICEID and the conformance suite skips device tests.
#include "acl/error_codes/rt_error_codes.h"
#include "hal/driver_registry.h"
#include "hal/hal.h"

namespace npurt::drivers {
namespace {

class NullDriver final : public hal::Driver {
 public:
  const char* name() const override { return "null"; }
  uint32_t device_count() const override { return 0; }
  StatusOr<std::unique_ptr<hal::Device>> OpenDevice(uint32_t index) override {
    return Err(ACL_ERROR_RT_INVALID_DEVICEID, "the null driver has no device {}", index);
  }
};

StatusOr<std::unique_ptr<hal::Driver>> CreateNullDriver(const hal::DriverOptions& /*options*/) {
  return std::unique_ptr<hal::Driver>(new NullDriver());
}

}  // namespace

namespace null {
void Register() { hal::RegisterDriver("null", &CreateNullDriver); }
}  // namespace null

}  // namespace npurt::drivers
