// Drivers: enumerate and open devices (hal/driver_registry.h opens a driver by name, with its configuration
// section, hal/driver_config.h). Part of the driver interface (hal/hal.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "base/status.h"
#include "hal/device.h"
#include "hal/driver_config.h"
#include "hal/kernel_module.h"
#include "hal/op_backend.h"

namespace npurt::hal {

class Driver {
 public:
  virtual ~Driver() = default;
  virtual const char* name() const = 0;
  virtual uint32_t device_count() const = 0;
  // The SoC the driver's devices are (aclrtGetSocName, aclrtCheckArchCompatibility, kernel binaries' core
  // split): a process-level answer, known before any device is opened. "" if the driver has no devices.
  virtual std::string soc_name() const { return ""; }
  virtual StatusOr<std::unique_ptr<Device>> OpenDevice(uint32_t index) = 0;
  // The driver's operator backend (hal/op_backend.h), alive as long as the driver; null: none.
  virtual const OpBackend* op_backend() const { return nullptr; }
  // The driver's kernel loader (hal/kernel_module.h), alive as long as the driver; null: none.
  virtual const KernelLoader* kernel_loader() const { return nullptr; }
};

}  // namespace npurt::hal
