// Every environment variable npurt reads, in one table (base/env.cc; docs/environment.md lists the same
// variables, and tests/unit/env_test.cc checks that it does). Code reads the environment only through here:
// cmake/CheckLayers.cmake refuses a getenv() anywhere else, so a new variable cannot go undocumented.
#pragma once

#include <cstdint>
#include <span>

namespace npurt::env {

enum class Var : uint8_t {
  // The runtime and its driver (core/config.cc), read at the first aclInit / device call. A driver's own
  // variables name its configuration section and key (VarInfo), and core hands them to the driver as they
  // are (hal/driver_config.h): a driver adds a variable here and reads it, core is not changed.
  kDriver,
  kSimDeviceCount,
  kSimMemoryMb,
  kSimAicoreCount,
  kSimSoc,
  kSimMode,
  kSimHostVisibleMemory,
  kStreamLimit,
  kVisibleDevices,
  // Memory (core/alloc/alloc_config.cc, device_allocator.cc, mem_ipc.cc).
  kAllocConf,
  kAllocSnapshot,
  kIpcDir,
  // Kernels and checking (core/kernel/kernel_memcheck.cc, racecheck.cc, kernel_binary.cc, dfx/sanitizer_log.cc).
  kSimMemcheck,
  kRacecheck,
  kSanitizerLog,
  kTmpDir,
  kAscc,  // core/rtc/rtc_compiler.cc
  kRtcCompileTimeout,
  // Operators (ops/compile_cache.cc, core/operators.cc).
  kOpCacheCapacity,
  kAscendOpCacheMaxSize,
  kOpCacheStats,
  kKernelRetile,
  kConvWinograd,  // drivers/host/ops/kernels/conv.cc
  // Models (models/runtime/shape_variants.cc, shape_compiler.cc).
  kModelShapeCache,
  kShapeCompiler,
  // Logging (dfx/log.cc) and the status file (dfx/status_file.cc, api/prof_device_status.cc).
  kProcessLogPath,
  kWorkPath,
  kHome,
  kGlobalLogLevel,
  kModuleLogLevel,
  kGlobalEventEnable,
  kLogPrintToStdout,
  kSlogPrintToStdout,
  kLogSyncSave,
  kHostLogFileNum,
  kLogFileSize,
  kStatusDir,
  kStatusDisable,
  // Profiling and dumps (api/prof_command.cc, api/dump.cc).
  kProfRawDir,
  kProfMask,
  kCollectPath,
  // Collective communication (hccl/comm_options.cc, hccl/root_info.cc).
  kHcclExecTimeout,
  kHcclConnectTimeout,
  kHcclBuffSize,
  kHcclIfIp,
  kHcclIfBasePort,
  kHcclHostSocketPortRange,
  kHcclSocketIfname,
  kHcclDeterministic,
  kHcclTransport,
  kCount,
};

struct VarInfo {
  Var var;
  const char* name;     // the variable, e.g. "NPURT_SIM_MODE"
  const char* meaning;  // one line: what it does, its values and default
  // A driver's setting: the driver's configuration section ("sim") and the key there ("memory_mb"), the same
  // as in the aclInit file's "npurt.<section>" object. Null for the runtime's own variables.
  const char* section = nullptr;
  const char* key = nullptr;
};

// The table, in Var order.
std::span<const VarInfo> All();
const VarInfo& Info(Var var);

// The variable's value now (nullptr when unset). Read at every call: the environment is the program's.
const char* Raw(Var var);
// Set and not empty.
bool IsSet(Var var);
// Exactly "1".
bool IsOne(Var var);

}  // namespace npurt::env
