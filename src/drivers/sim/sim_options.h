// The sim driver's settings: its configuration section "sim" (hal/driver_config.h), from the NPURT_SIM_*
// environment variables and the aclInit file's "npurt.sim" object (docs/environment.md lists both).
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "hal/driver_config.h"

namespace npurt::drivers::sim {

struct SimOptions {
  uint32_t device_count = 2;             // device_count: 0..64
  uint64_t memory_bytes = 16ull << 30;   // memory_mb: 16..2^24 MiB per device
  uint32_t aicore_count = 0;             // aicore_count: 0..1024, 0 = the host's hardware threads
  std::string soc_name = "Ascend910B1";  // soc
  bool synchronous = false;              // mode: "async" (executor threads) or "sync" (every task inline)
  // host_visible_memory: whether the devices declare their memory host-addressable (true). False makes the
  // sim declare what a discrete device would, so that programs and the runtime can be checked for working
  // without a host mapping (managed memory then refuses; docs/architecture.md).
  bool host_visible_memory = true;
};

// Reads the section; a bad value is an error naming its origin (the variable, or the key of the file).
StatusOr<SimOptions> ParseSimOptions(const hal::DriverConfig& config);

}  // namespace npurt::drivers::sim
