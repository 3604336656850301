// A driver's configuration section: the settings one driver reads, by key. Core gathers them without
// knowing any driver's keys: from the environment (the variables base/env.h assigns to the driver's section,
// e.g. NPURT_SIM_MEMORY_MB is the sim's "memory_mb") and from the aclInit file's "npurt.<driver>" object,
// which wins. Each driver reads and checks its own keys (drivers/sim/sim_options.cc), and a bad value's
// error names where it came from, with that origin's error code. Part of the driver interface (hal/hal.h).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "base/status.h"

namespace npurt::hal {

class DriverConfig {
 public:
  // How a value was spelled: environment text, or a JSON string, number or boolean (any other JSON value,
  // an array or object, is kept as kOther so that every typed read refuses it).
  enum class Form : uint8_t { kText, kString, kNumber, kBool, kOther };
  struct Setting {
    std::string text;    // the value: the variable's text, the JSON string, or the JSON spelling otherwise
    std::string origin;  // "environment variable NPURT_SIM_SOC", "npurt.sim.soc in the aclInit config"
    int32_t error_code = 0;  // what a bad value returns (ACL_ERROR_INVALID_PARAM, ACL_ERROR_FILE_ATTR_INVALID)
    Form form = Form::kText;
  };

  // Sets `key`, replacing what an earlier source gave.
  void Set(std::string key, Setting setting);
  // Environment-style text for `key` (tests, and programs that build a driver themselves).
  void SetText(std::string key, std::string text, std::string origin = "the driver configuration");
  const Setting* Find(std::string_view key) const;
  bool empty() const { return settings_.empty(); }

  // Typed reads: `*value` keeps its default when the key is absent; a bad value is an error naming its origin.
  Status ReadUint(std::string_view key, uint64_t min, uint64_t max, uint64_t* value) const;
  Status ReadString(std::string_view key, std::string* value) const;
  // true/false; from the environment also 1/0.
  Status ReadBool(std::string_view key, bool* value) const;

 private:
  std::map<std::string, Setting, std::less<>> settings_;
};

}  // namespace npurt::hal
