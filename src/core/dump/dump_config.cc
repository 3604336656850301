#include "core/dump/dump_config.h"

#include <limits.h>
#include <stdlib.h>
#include <unistd.h>

#include <fstream>
#include <mutex>
#include <sstream>

#include <nlohmann/json.hpp>

#include "acl/acl_base_rt.h"
#include "core/dump/dump_writer.h"
#include "core/runtime.h"
#include "dfx/log.h"
#include "dfx/plog_file.h"

namespace npurt::core::dump {
namespace {

// Declares `var` from a StatusOr expression or returns its error.
#define DUMP_ASSIGN(var, expr)                         \
  auto var##_or_ = (expr);                             \
  if (!var##_or_.ok()) return var##_or_.status();      \
  auto var = std::move(var##_or_.value())

struct State {
  std::mutex mu;
  std::shared_ptr<const Config> init;   // aclInit's "dump" section (null: none)
  std::shared_ptr<const Config> model;  // aclmdlSetDump's (null: none)
  bool model_inited = false;            // between aclmdlInitDump and aclmdlFinalizeDump
  std::string args_path;                // aclopStartDumpArgs ("" = off)
};
State& S() {
  static State* s = new State();  // never destroyed: executors may read it at exit
  return *s;
}

// Under S().mu.
std::shared_ptr<const Config> ActiveLocked() {
  State& s = S();
  if (s.model != nullptr && s.model->tensors) return s.model;
  if (s.init != nullptr && s.init->tensors) return s.init;
  return nullptr;
}

void UpdateSwitchesLocked() {
  uint32_t w = 0;
  if (ActiveLocked() != nullptr) w |= kTensors;
  if (!S().args_path.empty()) w |= kArgs;
  g_switches.store(w, std::memory_order_relaxed);
}

Status Bad(const std::string& what) { return Err(ACL_ERROR_INVALID_DUMP_CONFIG, "dump config: {}", what); }

StatusOr<std::string> StringKey(const nlohmann::json& d, const char* key) {
  if (!d.contains(key)) return std::string();
  if (!d[key].is_string()) return Bad(fmt::format("\"{}\" must be a string", key));
  return d[key].get<std::string>();
}

Status ParseList(const nlohmann::json& list, Config* c) {
  if (!list.is_array()) return Bad("\"dump_list\" must be an array of objects");
  bool every_op = false;
  for (const auto& entry : list) {
    if (!entry.is_object()) return Bad("every \"dump_list\" entry must be an object (\"dump_list\": [{}] dumps every op)");
    if (entry.contains("model_name") && !entry["model_name"].is_string()) {
      return Bad("\"model_name\" in \"dump_list\" must be a string");
    }
    if (!entry.contains("layer")) {
      every_op = true;
      continue;
    }
    if (!entry["layer"].is_array()) return Bad("\"layer\" in \"dump_list\" must be an array of operator names");
    for (const auto& l : entry["layer"]) {
      if (!l.is_string() || l.get<std::string>().empty()) return Bad("\"layer\" entries must be non-empty strings");
      c->layers.push_back(l.get<std::string>());
    }
  }
  if (every_op) c->layers.clear();
  // An empty list leaves the switch to dump_op_switch; any entry asks for a dump.
  if (!list.empty()) c->tensors = true;
  return Status::Ok();
}

Status ParseStats(const nlohmann::json& d, Config* c) {
  if (!d.contains("dump_stats")) return Status::Ok();
  if (!d["dump_stats"].is_array()) return Bad("\"dump_stats\" must be an array such as [\"Max\", \"Min\"]");
  static const std::pair<const char*, uint32_t> kNames[] = {{"Max", kMax},   {"Min", kMin},
                                                            {"Avg", kAvg},   {"Nan", kNan},
                                                            {"Negative Inf", kNegInf}, {"Positive Inf", kPosInf},
                                                            {"L2norm", kL2Norm}};
  uint32_t mask = 0;
  for (const auto& item : d["dump_stats"]) {
    bool known = false;
    for (const auto& [name, bit] : kNames) {
      if (item.is_string() && item.get<std::string>() == name) {
        mask |= bit;
        known = true;
      }
    }
    if (!known) {
      return Bad(fmt::format("\"dump_stats\" item {} is unknown (Max, Min, Avg, Nan, Negative Inf, Positive Inf, L2norm)",
                             item.dump()));
    }
  }
  if (mask != 0) c->stat_mask = mask;
  return Status::Ok();
}

// yyyymmddhhmmss: the <time> directory of a config.
std::string SessionTime() { return TimeStamp().substr(0, 14); }

StatusOr<Config> ParseSection(const nlohmann::json& d) {
  if (!d.is_object()) return Bad("\"dump\" must be an object");
  Config c;
  DUMP_ASSIGN(path, StringKey(d, "dump_path"));
  DUMP_ASSIGN(op_switch, StringKey(d, "dump_op_switch"));
  DUMP_ASSIGN(mode, StringKey(d, "dump_mode"));
  DUMP_ASSIGN(data, StringKey(d, "dump_data"));
  DUMP_ASSIGN(scene, StringKey(d, "dump_scene"));
  DUMP_ASSIGN(debug, StringKey(d, "dump_debug"));
  DUMP_ASSIGN(level, StringKey(d, "dump_level"));
  DUMP_ASSIGN(step, StringKey(d, "dump_step"));

  if (op_switch == "on") {
    c.tensors = true;
  } else if (!op_switch.empty() && op_switch != "off") {
    return Bad(fmt::format("\"dump_op_switch\" is \"{}\"; use \"on\" or \"off\"", op_switch));
  }
  if (d.contains("dump_list")) NPURT_RETURN_IF_ERROR(ParseList(d["dump_list"], &c));
  if (mode == "input") {
    c.mode = kInput;
  } else if (mode == "all") {
    c.mode = kAll;
  } else if (!mode.empty() && mode != "output") {
    return Bad(fmt::format("\"dump_mode\" is \"{}\"; use \"input\", \"output\" or \"all\"", mode));
  }
  if (data == "stats") {
    c.stats = true;
  } else if (!data.empty() && data != "tensor") {
    return Bad(fmt::format("\"dump_data\" is \"{}\"; use \"tensor\" or \"stats\"", data));
  }
  NPURT_RETURN_IF_ERROR(ParseStats(d, &c));
  if (!level.empty() && level != "op" && level != "kernel" && level != "all") {
    return Bad(fmt::format("\"dump_level\" is \"{}\"; use \"op\", \"kernel\" or \"all\"", level));
  }
  if (scene == "aic_err_brief_dump" || scene == "aic_err_norm_dump" || scene == "aic_err_detail_dump" ||
      scene == "lite_exception") {
    c.exception_scene = true;
  } else if (!scene.empty()) {
    return Bad(fmt::format("\"dump_scene\" \"{}\" is not supported by npurt (aic_err_brief_dump, aic_err_norm_dump, "
                           "aic_err_detail_dump, lite_exception)", scene));
  }
  if (!debug.empty() && debug != "off") {
    return Bad("\"dump_debug\" (overflow dump) is not supported by npurt; use aclrtSetStreamOverflowSwitch");
  }
  if (c.exception_scene && c.tensors) {
    return Bad("an exception dump (\"dump_scene\") cannot be combined with an operator dump (dump_op_switch / dump_list)");
  }
  if (!step.empty()) {
    NPURT_LOG_WARNING("DUMP", "dump config: \"dump_step\" \"{}\" is ignored (npurt dumps every execution)", step);
  }
  if (c.tensors) {
    if (path.empty()) return Bad("\"dump_path\" is required for an operator dump");
    DUMP_ASSIGN(dir, PrepareDir(path, ACL_ERROR_INVALID_DUMP_CONFIG, "dump_path"));
    c.path = dir;
    c.session = SessionTime();
  } else {
    c.path = path;
  }
  return c;
}

}  // namespace

bool Config::Wants(std::string_view type, std::string_view name) const {
  if (layers.empty()) return true;
  for (const std::string& l : layers) {
    if (l == type || l == name) return true;
  }
  return false;
}

StatusOr<std::string> PrepareDir(const std::string& dir, int32_t code, const char* what) {
  if (dir.empty()) return Err(code, "{} is empty", what);
  if (!dfx::MakeDirs(dir)) return Err(code, "{} '{}' cannot be created", what, dir);
  if (access(dir.c_str(), W_OK | X_OK) != 0) return Err(code, "{} '{}' is not writable", what, dir);
  char resolved[PATH_MAX];
  if (realpath(dir.c_str(), resolved) == nullptr) return Err(code, "{} '{}' cannot be resolved", what, dir);
  return std::string(resolved);
}

StatusOr<Config> ParseConfigText(const std::string& text, bool* found) {
  *found = false;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) return Config();
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_discarded()) return Err(ACL_ERROR_PARSE_FILE, "the dump config is not valid JSON");
  if (!doc.is_object() || !doc.contains("dump")) return Config();
  *found = true;
  return ParseSection(doc["dump"]);
}

Status ApplyInitConfig(const std::string& text) {
  bool found = false;
  DUMP_ASSIGN(c, ParseConfigText(text, &found));
  std::lock_guard<std::mutex> lock(S().mu);
  S().init = found ? std::make_shared<const Config>(std::move(c)) : nullptr;
  UpdateSwitchesLocked();
  return Status::Ok();
}

void Reset() {
  std::lock_guard<std::mutex> lock(S().mu);
  S().init.reset();
  S().model.reset();
  S().model_inited = false;
  S().args_path.clear();
  UpdateSwitchesLocked();
}

Status ModelInit() {
  if (!Runtime::Get().initialized()) return Err(ACL_ERROR_UNINITIALIZE, "aclmdlInitDump needs aclInit first");
  std::lock_guard<std::mutex> lock(S().mu);
  if (S().init != nullptr && S().init->tensors) {
    return Err(ACL_ERROR_DUMP_ALREADY_RUN, "the aclInit config already enabled an operator dump");
  }
  if (S().model_inited) return Err(ACL_ERROR_DUMP_ALREADY_RUN, "aclmdlInitDump was already called");
  S().model_inited = true;
  return Status::Ok();
}

Status ModelSet(const char* file) {
  {
    std::lock_guard<std::mutex> lock(S().mu);
    if (!S().model_inited) return Err(ACL_ERROR_DUMP_NOT_RUN, "aclmdlSetDump needs aclmdlInitDump first");
  }
  std::ifstream in(file);
  if (!in) return Err(ACL_ERROR_INVALID_FILE, "cannot open the dump config file '{}'", file);
  std::stringstream text;
  text << in.rdbuf();
  bool found = false;
  auto c = ParseConfigText(text.str(), &found);
  if (!c.ok()) return Err(c.status().code(), "{}: {}", file, c.status().message());
  if (!found) return Err(ACL_ERROR_INVALID_DUMP_CONFIG, "{} has no \"dump\" object", file);
  std::lock_guard<std::mutex> lock(S().mu);
  if (!S().model_inited) return Err(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump was called meanwhile");
  S().model = std::make_shared<const Config>(std::move(c.value()));
  UpdateSwitchesLocked();
  return Status::Ok();
}

Status ModelFinalize() {
  std::lock_guard<std::mutex> lock(S().mu);
  if (!S().model_inited) return Err(ACL_ERROR_DUMP_NOT_RUN, "aclmdlFinalizeDump without aclmdlInitDump");
  S().model_inited = false;
  S().model.reset();
  UpdateSwitchesLocked();
  return Status::Ok();
}

Status StartArgs(const char* path) {
  DUMP_ASSIGN(dir, PrepareDir(path, ACL_ERROR_INVALID_PARAM, "the dump path"));
  std::lock_guard<std::mutex> lock(S().mu);
  S().args_path = dir;
  UpdateSwitchesLocked();
  return Status::Ok();
}

void StopArgs() {
  std::lock_guard<std::mutex> lock(S().mu);
  S().args_path.clear();
  UpdateSwitchesLocked();
}

std::shared_ptr<const Config> ActiveTensors() {
  std::lock_guard<std::mutex> lock(S().mu);
  return ActiveLocked();
}

std::string ArgsPath() {
  std::lock_guard<std::mutex> lock(S().mu);
  return S().args_path;
}

std::string ExceptionDumpPath() {
  std::lock_guard<std::mutex> lock(S().mu);
  if (S().model != nullptr && S().model->exception_scene && !S().model->path.empty()) return S().model->path;
  return S().init != nullptr ? S().init->path : std::string();
}

bool ExceptionScene() {
  std::lock_guard<std::mutex> lock(S().mu);
  return (S().init != nullptr && S().init->exception_scene) || (S().model != nullptr && S().model->exception_scene);
}

std::string DataDumpPath() {
  std::lock_guard<std::mutex> lock(S().mu);
  if (auto c = ActiveLocked()) return c->path;
  if (S().model != nullptr && !S().model->path.empty()) return S().model->path;
  if (!S().args_path.empty()) return S().args_path;
  return S().init != nullptr ? S().init->path : std::string();
}

}  // namespace npurt::core::dump
