// Data-dump configuration (docs/dump.md): the "dump" section of the aclInit JSON or of an aclmdlSetDump
// file, the operator-argument dump switch (aclopStartDumpArgs), and the switch word the launch paths read.
//
// Cost when off: operator and kernel launches read Switches() once (one relaxed atomic load) and do
// nothing else. When a switch is on, a launch takes a snapshot of the active config (a shared_ptr under
// a mutex), so a later aclmdlSetDump / aclmdlFinalizeDump never changes what an op already launched
// dumps, and never races with the executor reading it.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace npurt::core::dump {

enum Switch : uint32_t {
  kTensors = 1u,  // operator inputs/outputs (dump_op_switch / dump_list)
  kArgs = 2u,     // operator info and kernel argument blocks (aclopStartDumpArgs)
};
inline std::atomic<uint32_t> g_switches{0};
inline uint32_t Switches() { return g_switches.load(std::memory_order_relaxed); }

enum Mode : uint32_t { kInput = 1u, kOutput = 2u, kAll = 3u };

// dump_stats items (dump_data "stats").
enum Stat : uint32_t {
  kMax = 1u << 0,
  kMin = 1u << 1,
  kAvg = 1u << 2,
  kNan = 1u << 3,
  kNegInf = 1u << 4,
  kPosInf = 1u << 5,
  kL2Norm = 1u << 6,
  kDefaultStats = kMax | kMin | kAvg | kNan | kNegInf | kPosInf,
};

struct Config {
  std::string path;     // dump_path, absolute ("" when the section has none)
  std::string session;  // the <time> directory of this config (yyyymmddhhmmss), fixed when it took effect
  bool tensors = false;  // operator dump on: dump_op_switch "on" or a non-empty dump_list
  std::vector<std::string> layers;  // dump_list "layer" entries (op names or types); empty = every operator
  uint32_t mode = kOutput;          // dump_mode
  bool stats = false;               // dump_data "stats": one CSV of statistics per execution
  uint32_t stat_mask = kDefaultStats;
  bool exception_scene = false;     // dump_scene asks for the exception dump of failed tasks

  // Whether an operator of `type` launched as `name` is dumped.
  bool Wants(std::string_view type, std::string_view name) const;
};

// Parses a config text. `*found` is false when it has no "dump" object (nothing to apply).
// Errors: ACL_ERROR_PARSE_FILE (not JSON), ACL_ERROR_INVALID_DUMP_CONFIG (a bad value, or a dump_path that
// cannot be created or written), each with a message naming the key.
StatusOr<Config> ParseConfigText(const std::string& text, bool* found);

// aclInit (the config file's text; "" = none) and aclFinalize (forgets every dump setting).
Status ApplyInitConfig(const std::string& text);
void Reset();

// aclmdlInitDump / aclmdlSetDump(file) / aclmdlFinalizeDump.
Status ModelInit();
Status ModelSet(const char* file);
Status ModelFinalize();

// aclopStartDumpArgs(path) / aclopStopDumpArgs.
Status StartArgs(const char* path);
void StopArgs();

// The config operators dump with (aclmdlSetDump's over aclInit's), null when operator dump is off.
std::shared_ptr<const Config> ActiveTensors();
// The aclopStartDumpArgs directory, "" when off.
std::string ArgsPath();
// The exception dump's dump_path (an aclmdlSetDump config with a dump_scene, else aclInit's; "" if none)
// and whether a dump_scene asks for exception dumps.
std::string ExceptionDumpPath();
bool ExceptionScene();
// acldumpGetPath(DATA_DUMP): the operator dump path, else the argument dump path, else "".
std::string DataDumpPath();

// Creates `dir` (and parents) and checks it is writable; returns its absolute path.
StatusOr<std::string> PrepareDir(const std::string& dir, int32_t code, const char* what);

}  // namespace npurt::core::dump
