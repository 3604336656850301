// Runtime configuration: built from defaults, then the environment, then the "npurt" section of the
// JSON file given to aclInit (which wins). The runtime's own options are a named struct, validated once;
// drivers' settings are gathered into their sections unread (hal/driver_config.h), for the driver to read.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "hal/hal.h"

namespace npurt::core {

struct RuntimeConfig {
  std::string driver = "sim";
  // Every driver's section that a source gave settings for: "npurt.<name>" objects of the file and the
  // environment variables base/env.h assigns to a section.
  std::map<std::string, hal::DriverConfig> driver_sections;
  uint32_t stream_limit = 1984;   // per device, default streams included (A2/A3 figure)
  uint32_t event_limit = 65536;   // per device
  uint32_t notify_limit = 8192;   // per device
  // ASCEND_RT_VISIBLE_DEVICES, unparsed ("" = all devices visible).
  std::string visible_devices;
  bool visible_devices_set = false;
  // aclInit JSON "err_msg_mode": "1" makes aclGetRecentErrMsg process-wide.
  bool process_level_errors = false;
  int32_t default_device = -1;    // aclInit JSON defaultDevice.default_device
};

// The section of driver `name` (empty if nothing set it).
const hal::DriverConfig& DriverSection(const RuntimeConfig& config, const std::string& name);

// Checks every section against its driver, if this build has it (hal::CheckDriverConfig).
Status CheckDriverSections(const RuntimeConfig& config);

// Defaults overlaid with NPURT_* / ASCEND_* environment variables.
StatusOr<RuntimeConfig> ConfigFromEnvironment();
// Applies an aclInit JSON document (already read) on top of `config`.
Status ApplyJsonConfig(const std::string& json_text, RuntimeConfig* config);
// Parses ASCEND_RT_VISIBLE_DEVICES against `physical_count` devices: ascending ids, parsing stops
// at the first invalid entry (as CANN does); ids that do not exist are dropped.
std::vector<uint32_t> ParseVisibleDevices(const std::string& spec, uint32_t physical_count);

}  // namespace npurt::core
