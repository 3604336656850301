// Drivers: enumerate and open devices (hal/driver_registry.h opens a driver by name). Part of the driver
// interface (hal/hal.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "hal/device.h"
#include "hal/kernel_module.h"
#include "hal/op_backend.h"

namespace npurt::hal {

struct DriverOptions {
  uint32_t device_count = 2;
  uint64_t memory_bytes = 16ull << 30;
  uint32_t aicore_count = 0;  // 0 = hardware threads
  std::string soc_name = "Ascend910B1";
  bool synchronous = false;   // execute every task inline at submission (deterministic reference)
};

class Driver {
 public:
  virtual ~Driver() = default;
  virtual const char* name() const = 0;
  virtual uint32_t device_count() const = 0;
  virtual StatusOr<std::unique_ptr<Device>> OpenDevice(uint32_t index) = 0;
  // The driver's operator backend (hal/op_backend.h), alive as long as the driver; null: none.
  virtual const OpBackend* op_backend() const { return nullptr; }
  // The driver's kernel loader (hal/kernel_module.h), alive as long as the driver; null: none.
  virtual const KernelLoader* kernel_loader() const { return nullptr; }
};

}  // namespace npurt::hal
