// The sim driver: N simulated NPUs running on the host CPU.
#include <thread>

#include "acl/error_codes/rt_error_codes.h"
#include "drivers/host/host_kernel_module.h"
#include "drivers/host/ops/host_op_backend.h"
#include "drivers/sim/sim_device.h"
#include "drivers/sim/sim_options.h"
#include "hal/driver_registry.h"

namespace npurt::drivers {
namespace {

class SimDriver final : public hal::Driver {
 public:
  explicit SimDriver(const sim::SimOptions& options) : options_(options) {}
  const char* name() const override { return "sim"; }
  uint32_t device_count() const override { return options_.device_count; }
  std::string soc_name() const override { return options_.soc_name; }
  // Operators are the host kernels (drivers/host/ops/), run on the executors that reach their queue;
  // kernel binaries are host shared objects (drivers/host/host_kernel_module.h), whose blocks the AI cores run.
  const hal::OpBackend* op_backend() const override { return host::OpBackend(); }
  const hal::KernelLoader* kernel_loader() const override { return host::KernelLoader(); }

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
    // An Ascend 910B's figures, where the simulation has them; the arena is host memory (declared
    // host-visible unless the configuration asks the sim to pose as a discrete device), every device of
    // the process reaches every other's, and the memfd arena is shared with other processes (sim_memory.cc).
    hal::DeviceCapabilities& caps = dev.info.caps;
    caps.host_visible_memory = options_.host_visible_memory;
    caps.virtual_memory = true;
    caps.ipc_memory = true;
    caps.shared_flags = true;
    caps.peer_access = true;
    caps.unified_buffer_bytes = sim::AiCorePool::kUnifiedBufferBytes;
    caps.l2_cache_bytes = 192ull << 20;
    caps.max_blocks_per_launch = 65535;
    caps.max_threads_per_core = 2048;
    caps.max_threads_per_block = 1024;
    caps.max_block_dim_x = 1024;
    caps.warp_size = 32;
    caps.npu_arch = 2201;
    caps.concurrent_queues = !options_.synchronous;  // the synchronous sim runs every task on its submitter
    dev.synchronous = options_.synchronous;
    // Executors run queues (copies, fills, waits); two keep copy and compute streams overlapping
    // without oversubscribing small machines.
    dev.executors = std::max(2u, std::min(4u, hw));
    auto created = sim::SimDevice::Create(dev);
    if (!created.ok()) return std::move(created).status();
    return std::unique_ptr<hal::Device>(std::move(created.value()));
  }

 private:
  sim::SimOptions options_;
};

StatusOr<std::unique_ptr<hal::Driver>> CreateSimDriver(const hal::DriverConfig& config) {
  auto options = sim::ParseSimOptions(config);
  if (!options.ok()) return std::move(options).status();
  return std::unique_ptr<hal::Driver>(new SimDriver(options.value()));
}

Status CheckSimConfig(const hal::DriverConfig& config) { return sim::ParseSimOptions(config).status(); }

}  // namespace

namespace sim {
void Register() { hal::RegisterDriver("sim", &CreateSimDriver, &CheckSimConfig); }
}  // namespace sim

}  // namespace npurt::drivers
