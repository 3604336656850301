// The sim driver: N simulated NPUs running on the host CPU.
#include <thread>

#include "acl/error_codes/rt_error_codes.h"
#include "drivers/sim/sim_device.h"
#include "hal/driver_registry.h"

namespace npurt::drivers {
namespace {

class SimDriver final : public hal::Driver {
 public:
  explicit SimDriver(const hal::DriverOptions& options) : options_(options) {}
  const char* name() const override { return "sim"; }
  uint32_t device_count() const override { return options_.device_count; }

  StatusOr<std::unique_ptr<hal::Device>> OpenDevice(uint32_t index) override {
    if (index >= options_.device_count) {
      return Err(ACL_ERROR_RT_INVALID_DEVICEID, "sim device {} does not exist ({} devices)", index,
                 options_.device_count);
    }
    const uint32_t hw = std::max(1u, std::thread::hardware_concurrency());
    sim::SimDeviceOptions dev;
    dev.info.soc_name = options_.soc_name;
    dev.info.aicore_count = options_.aicore_count != 0 ? options_.aicore_count : hw;
    dev.info.memory_bytes = options_.memory_bytes;
    dev.synchronous = options_.synchronous;
    // Executors run queues (copies, fills, waits); two keep copy and compute streams overlapping
    // without oversubscribing small machines.
    dev.executors = std::max(2u, std::min(4u, hw));
    auto created = sim::SimDevice::Create(dev);
    if (!created.ok()) return std::move(created).status();
    return std::unique_ptr<hal::Device>(std::move(created.value()));
  }

 private:
  hal::DriverOptions options_;
};

StatusOr<std::unique_ptr<hal::Driver>> CreateSimDriver(const hal::DriverOptions& options) {
  return std::unique_ptr<hal::Driver>(new SimDriver(options));
}

}  // namespace

namespace sim {
void Register() { hal::RegisterDriver("sim", &CreateSimDriver); }
}  // namespace sim

}  // namespace npurt::drivers
