#include "core/config.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "acl/acl_base_rt.h"
#include "base/env.h"
#include "hal/driver_registry.h"

namespace npurt::core {
namespace {

bool ParseUint(const char* text, uint64_t* out) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  errno = 0;
  unsigned long long v = std::strtoull(text, &end, 10);
  if (errno != 0 || *end != '\0') return false;
  *out = v;
  return true;
}

Status EnvUint(env::Var var, uint64_t min, uint64_t max, uint64_t* out) {
  const char* name = env::Info(var).name;
  const char* text = env::Raw(var);
  if (text == nullptr) return Status::Ok();
  uint64_t v = 0;
  if (!ParseUint(text, &v) || v < min || v > max) {
    return Err(ACL_ERROR_INVALID_PARAM, "environment variable {}='{}' is not an integer in [{}, {}]", name, text,
               min, max);
  }
  *out = v;
  return Status::Ok();
}

// An integer of the aclInit config in [min, max]. nlohmann's get<int>() would convert a float by a
// plain cast (undefined behaviour out of range) and wrap a negative into an unsigned type.
template <typename T>
StatusOr<T> JsonInt(const nlohmann::json& v, const char* key, int64_t min, int64_t max) {
  if (!v.is_number_integer()) {
    return Err(ACL_ERROR_FILE_ATTR_INVALID, "{} in the aclInit config must be an integer, not {}", key, v.dump());
  }
  const int64_t value = v.is_number_unsigned() ? static_cast<int64_t>(std::min<uint64_t>(v.get<uint64_t>(), INT64_MAX))
                                               : v.get<int64_t>();
  if (value < min || value > max) {
    return Err(ACL_ERROR_FILE_ATTR_INVALID, "{} in the aclInit config is {}, not an integer in [{}, {}]", key,
               v.dump(), min, max);
  }
  return static_cast<T>(value);
}

#define NPURT_JSON_INT(target, T, json, key, min, max)            \
  do {                                                             \
    auto v_or_ = JsonInt<T>((json), (key), (min), (max));          \
    if (!v_or_.ok()) return v_or_.status();                        \
    (target) = v_or_.value();                                      \
  } while (0)

// A value of a driver's section in the file, kept in its JSON spelling for the driver to read.
hal::DriverConfig::Setting JsonSetting(const std::string& section, const std::string& key, const nlohmann::json& v) {
  using Form = hal::DriverConfig::Form;
  hal::DriverConfig::Setting s;
  s.origin = fmt::format("npurt.{}.{} in the aclInit config", section, key);
  s.error_code = ACL_ERROR_FILE_ATTR_INVALID;
  s.form = v.is_string()           ? Form::kString
           : v.is_number_integer() ? Form::kNumber
           : v.is_boolean()        ? Form::kBool
                                   : Form::kOther;  // a float is no integer: kept as text that no read accepts
  s.text = v.is_string() ? v.get<std::string>() : v.dump();
  return s;
}

}  // namespace

const hal::DriverConfig& DriverSection(const RuntimeConfig& config, const std::string& name) {
  static const hal::DriverConfig* const kNone = new hal::DriverConfig();
  auto it = config.driver_sections.find(name);
  return it != config.driver_sections.end() ? it->second : *kNone;
}

Status CheckDriverSections(const RuntimeConfig& config) {
  hal::RegisterBuiltinDrivers();
  for (const auto& [name, section] : config.driver_sections) NPURT_RETURN_IF_ERROR(hal::CheckDriverConfig(name, section));
  return Status::Ok();
}

StatusOr<RuntimeConfig> ConfigFromEnvironment() {
  RuntimeConfig config;
  if (const char* d = npurt::env::Raw(npurt::env::Var::kDriver)) config.driver = d;
  for (const env::VarInfo& var : env::All()) {
    if (var.section == nullptr) continue;
    if (const char* text = env::Raw(var.var)) {
      config.driver_sections[var.section].SetText(var.key, text, fmt::format("environment variable {}", var.name));
    }
  }
  uint64_t v = config.stream_limit;
  NPURT_RETURN_IF_ERROR(EnvUint(npurt::env::Var::kStreamLimit, 2, 65536, &v));
  config.stream_limit = static_cast<uint32_t>(v);
  if (const char* vis = npurt::env::Raw(npurt::env::Var::kVisibleDevices)) {
    config.visible_devices = vis;
    config.visible_devices_set = true;
  }
  return config;
}

Status ApplyJsonConfig(const std::string& json_text, RuntimeConfig* config) {
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(json_text);
  } catch (const nlohmann::json::exception& e) {
    return Err(ACL_ERROR_PARSE_FILE, "the aclInit config is not valid JSON: {}", e.what());
  }
  if (!doc.is_object()) return Err(ACL_ERROR_PARSE_FILE, "the aclInit config must be a JSON object");
  try {
    if (doc.contains("err_msg_mode")) {
      config->process_level_errors = doc["err_msg_mode"].is_string() && doc["err_msg_mode"] == "1";
    }
    if (doc.contains("defaultDevice") && doc["defaultDevice"].is_object() &&
        doc["defaultDevice"].contains("default_device")) {
      const auto& d = doc["defaultDevice"]["default_device"];
      if (d.is_string()) {
        config->default_device = std::stoi(d.get<std::string>());
      } else {
        NPURT_JSON_INT(config->default_device, int32_t, d, "defaultDevice.default_device", 0, INT32_MAX);
      }
    }
    if (doc.contains("npurt") && doc["npurt"].is_object()) {
      const auto& n = doc["npurt"];
      if (n.contains("driver")) config->driver = n["driver"].get<std::string>();
      // The same ranges as the NPURT_* environment variables.
      if (n.contains("stream_limit")) {
        NPURT_JSON_INT(config->stream_limit, uint32_t, n["stream_limit"], "npurt.stream_limit", 2, 65536);
      }
      // Every other object is a driver's section, read by that driver (hal/driver_config.h).
      for (auto section = n.begin(); section != n.end(); ++section) {
        if (!section->is_object()) continue;
        hal::DriverConfig& dc = config->driver_sections[section.key()];
        for (auto item = section->begin(); item != section->end(); ++item) {
          dc.Set(item.key(), JsonSetting(section.key(), item.key(), item.value()));
        }
      }
    }
  } catch (const std::exception& e) {
    return Err(ACL_ERROR_FILE_ATTR_INVALID, "invalid attribute in the aclInit config: {}", e.what());
  }
  return Status::Ok();
}

std::vector<uint32_t> ParseVisibleDevices(const std::string& spec, uint32_t physical_count) {
  std::vector<uint32_t> ids;
  size_t pos = 0;
  while (pos < spec.size()) {
    size_t end = spec.find(',', pos);
    std::string item = spec.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    uint64_t id = 0;
    if (!ParseUint(item.c_str(), &id)) break;            // parsing stops at the first invalid entry
    if (!ids.empty() && id <= ids.back()) break;         // ids must ascend
    if (id < physical_count) ids.push_back(static_cast<uint32_t>(id));
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return ids;
}

}  // namespace npurt::core
