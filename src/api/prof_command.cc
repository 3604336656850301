// Command-mode profiling: started for the whole process by `msprof` (environment handshake, at library
// load) or by the "profiler" section of the aclInit JSON (an init hook), as in CANN. While it runs the
// aclprof* control calls return ACL_ERROR_PROF_ALREADY_RUN.
//
//   NPURT_PROF_RAW_DIR   directory for the raw data (msprof creates PROF_*/raw and passes it)
//   NPURT_PROF_MASK      data types (ACL_PROF_* bits, hex or decimal; default CANN's: task time and
//                        the AscendCL API)
#include <unistd.h>

#include <cstdlib>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "acl/acl_prof.h"
#include "base/env.h"
#include "base/wall_clock.h"
#include "core/hooks.h"
#include "dfx/log.h"
#include "dfx/profiler.h"

namespace {

using npurt::dfx::Profiler;

// CANN's defaults (msprof and the aclInit "profiler" section): task time and AscendCL API on; runtime API,
// task memory and msproftx off.
constexpr uint64_t kDefaultMask = ACL_PROF_TASK_TIME | ACL_PROF_ACL_API;
// Hook component id of the profiler (outside the aclRegisterType range users pass).
constexpr int32_t kProfilerHookType = 0x7fff0001;

bool g_started_by_json = false;

bool SwitchOn(const nlohmann::json& section, const char* key, bool fallback) {
  if (!section.contains(key)) return fallback;
  const auto& v = section[key];
  if (v.is_string()) return v.get<std::string>() == "on";
  if (v.is_boolean()) return v.get<bool>();
  return fallback;
}

std::string Stamp() { return npurt::CompactStamp(npurt::NowLocal(), 0); }

int32_t OnAclInit(const char* config, size_t len, void*) {
  if (config == nullptr || len == 0) return 0;
  nlohmann::json doc = nlohmann::json::parse(std::string(config, len), nullptr, false);
  if (doc.is_discarded() || !doc.is_object() || !doc.contains("profiler") || !doc["profiler"].is_object()) return 0;
  const auto& p = doc["profiler"];
  if (!SwitchOn(p, "switch", false)) return 0;
  if (Profiler::Get().mode() != npurt::dfx::ProfMode::kOff) {
    NPURT_LOG_WARNING("PROFILING", "aclInit profiler config ignored: profiling is already running");
    return 0;
  }
  uint64_t mask = 0;
  // task_time is on, off or a level as in CANN: l1 (= on) or l0 (tasks without the operator details).
  if (p.contains("task_time") && p["task_time"].is_string() && p["task_time"].get<std::string>() == "l0") {
    mask |= ACL_PROF_TASK_TIME_L0;
  } else if (SwitchOn(p, "task_time", true) ||
             (p.contains("task_time") && p["task_time"].is_string() && p["task_time"].get<std::string>() == "l1")) {
    mask |= ACL_PROF_TASK_TIME;
  }
  if (SwitchOn(p, "ascendcl", true)) mask |= ACL_PROF_ACL_API;
  if (SwitchOn(p, "runtime_api", false)) mask |= ACL_PROF_RUNTIME_API;
  if (SwitchOn(p, "task_memory", false)) mask |= ACL_PROF_TASK_MEMORY;
  if (SwitchOn(p, "msproftx", false)) mask |= ACL_PROF_MSPROFTX;
  std::string output;
  if (p.contains("output") && p["output"].is_string()) output = p["output"].get<std::string>();
  const std::string raw =
      fmt::format("{}/PROF_{:06d}_{}/raw", output.empty() ? std::string_view(".") : std::string_view(output),
                  getpid(), Stamp());
  npurt::Status st = Profiler::Get().StartCommand(raw, mask);
  if (!st.ok()) {
    NPURT_LOG_ERROR("PROFILING", "cannot start profiling from the aclInit config: {}", st.message());
    return st.code();
  }
  g_started_by_json = true;
  return 0;
}

int32_t OnAclFinalize(void*) {
  Profiler& p = Profiler::Get();
  if (p.mode() != npurt::dfx::ProfMode::kCommand) return 0;
  if (g_started_by_json) {
    g_started_by_json = false;
    (void)p.StopCommand();
  } else {
    p.Flush();  // msprof: the session lasts until exit, but what happened so far is on disk
  }
  return 0;
}

struct CommandModeStarter {
  CommandModeStarter() {
    (void)npurt::core::AddInitHook(kProfilerHookType, &OnAclInit, nullptr);
    (void)npurt::core::AddFinalizeHook(kProfilerHookType, &OnAclFinalize, nullptr);
    const char* dir = npurt::env::Raw(npurt::env::Var::kProfRawDir);
    if (dir == nullptr || *dir == '\0') return;
    uint64_t mask = kDefaultMask;
    if (const char* m = npurt::env::Raw(npurt::env::Var::kProfMask)) {
      char* end = nullptr;
      const unsigned long long v = std::strtoull(m, &end, 0);
      if (end != m && *end == '\0') mask = v;
    }
    npurt::Status st = Profiler::Get().StartCommand(dir, mask);
    if (!st.ok()) NPURT_LOG_ERROR("PROFILING", "msprof handshake failed: {}", st.message());
  }
} g_command_mode_starter;

}  // namespace
