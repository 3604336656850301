// The null driver's backend in the HAL CTS (tests/hal_cts). It has no device, as a driver whose hardware is
// absent: the driver-level tests run, the device tests are skipped. A new driver copies this file and lists
// its capabilities and the tests it cannot run, each with its reason.
#include "cts.h"

namespace hal_cts {
namespace {

[[maybe_unused]] const bool kRegistered = RegisterBackend({"null", "null", hal::DriverConfig{}, Capabilities{}, {}});

}  // namespace
}  // namespace hal_cts
