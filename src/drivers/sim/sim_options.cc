#include "drivers/sim/sim_options.h"

namespace npurt::drivers::sim {

StatusOr<SimOptions> ParseSimOptions(const hal::DriverConfig& config) {
  SimOptions o;
  uint64_t v = o.device_count;
  NPURT_RETURN_IF_ERROR(config.ReadUint("device_count", 0, 64, &v));
  o.device_count = static_cast<uint32_t>(v);
  v = o.memory_bytes >> 20;
  NPURT_RETURN_IF_ERROR(config.ReadUint("memory_mb", 16, uint64_t{1} << 24, &v));
  o.memory_bytes = v << 20;
  v = o.aicore_count;
  NPURT_RETURN_IF_ERROR(config.ReadUint("aicore_count", 0, 1024, &v));
  o.aicore_count = static_cast<uint32_t>(v);
  NPURT_RETURN_IF_ERROR(config.ReadString("soc", &o.soc_name));
  std::string mode = "async";
  NPURT_RETURN_IF_ERROR(config.ReadString("mode", &mode));
  if (mode != "async" && mode != "sync") {
    const hal::DriverConfig::Setting* s = config.Find("mode");
    return Err(s->error_code, "{} is '{}', not 'async' or 'sync'", s->origin, mode);
  }
  o.synchronous = mode == "sync";
  NPURT_RETURN_IF_ERROR(config.ReadBool("host_visible_memory", &o.host_visible_memory));
  return o;
}

}  // namespace npurt::drivers::sim
