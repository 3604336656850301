#include "base/env.h"

#include <cstdlib>
#include <cstring>

namespace npurt::env {
namespace {

constexpr VarInfo kTable[] = {
    {Var::kDriver, "NPURT_DRIVER", "the driver to open: sim (default) or null (no devices)"},
    {Var::kSimDeviceCount, "NPURT_SIM_DEVICE_COUNT", "sim: number of devices, 0..64 (2)", "sim", "device_count"},
    {Var::kSimMemoryMb, "NPURT_SIM_MEMORY_MB", "sim: device memory in MiB per device, 16..2^24 (16384)", "sim",
     "memory_mb"},
    {Var::kSimAicoreCount, "NPURT_SIM_AICORE_COUNT", "sim: AI cores per device, 0 = the host's hardware threads (0)",
     "sim", "aicore_count"},
    {Var::kSimSoc, "NPURT_SIM_SOC", "sim: the SoC name devices report (Ascend910B1)", "sim", "soc"},
    {Var::kSimMode, "NPURT_SIM_MODE", "sim: async (executor threads, default) or sync (every task inline)", "sim",
     "mode"},
    {Var::kSimHostVisibleMemory, "NPURT_SIM_HOST_VISIBLE_MEMORY",
     "sim: 0 makes devices declare their memory not host-addressable, as a discrete device (1)", "sim",
     "host_visible_memory"},
    {Var::kStreamLimit, "NPURT_STREAM_LIMIT", "streams per device, 2..65536 (1984)"},
    {Var::kVisibleDevices, "ASCEND_RT_VISIBLE_DEVICES", "which physical devices the process sees, and in which order"},
    {Var::kAllocConf, "NPURT_ALLOC_CONF", "the caching allocator's settings (docs/memory.md), e.g. expandable_segments:False"},
    {Var::kAllocSnapshot, "NPURT_ALLOC_SNAPSHOT", "path: an allocator snapshot (JSON) on every failed allocation and at exit"},
    {Var::kIpcDir, "NPURT_IPC_DIR", "directory of IPC memory export records (/dev/shm)"},
    {Var::kSimMemcheck, "NPURT_SIM_MEMCHECK", "1: check every global-memory access of sim kernels (docs/kernels.md)"},
    {Var::kRacecheck, "NPURT_RACECHECK", "1: the device-memory race detector (docs/racecheck.md)"},
    {Var::kSanitizerLog, "NPURT_SANITIZER_LOG",
     "file the checks append their findings to, one JSON line each; set by mssanitizer (docs/sanitizer.md)"},
    {Var::kTmpDir, "TMPDIR", "system: where kernel binaries loaded from memory are staged (/tmp)"},
    {Var::kAscc, "NPURT_ASCC", "path of the npurt-ascc that aclrtcCompileProg runs (default: <package>/bin/npurt-ascc)"},
    {Var::kRtcCompileTimeout, "NPURT_RTC_COMPILE_TIMEOUT_S",
     "seconds an aclrtcCompileProg compile may run before it is stopped (600)"},
    {Var::kOpCacheCapacity, "NPURT_OP_CACHE_CAPACITY", "compiled operators kept in the compile cache (1024)"},
    {Var::kAscendOpCacheMaxSize, "ASCEND_OP_CACHE_MAX_SIZE",
     "compiled operators kept in the compile cache (entries); wins over NPURT_OP_CACHE_CAPACITY"},
    {Var::kOpCacheStats, "NPURT_OP_CACHE_STATS", "1: log every compile-cache hit and miss"},
    {Var::kKernelRetile, "NPURT_KERNEL_RETILE", "0: compile each new shape of an operator from scratch instead of re-tiling the kernel of an earlier shape (default 1)"},
    {Var::kConvWinograd, "NPURT_CONV_WINOGRAD",
     "0: convolutions atc marked for Winograd (--op_select_implmode=high_performance, the default) run the direct "
     "algorithm (default 1)"},
    {Var::kModelShapeCache, "NPURT_MODEL_SHAPE_CACHE", "compiled shapes a dynamic-shape model keeps (1 to 4096; default 32)"},
    {Var::kShapeCompiler, "NPURT_SHAPE_COMPILER", "path of libnpurt_shape_compiler.so (default: beside libascendcl.so)"},
    {Var::kProcessLogPath, "ASCEND_PROCESS_LOG_PATH", "directory of the plog files (docs/logging.md)"},
    {Var::kWorkPath, "ASCEND_WORK_PATH", "root of logs (<path>/log) and dumps when their own paths are unset"},
    {Var::kHome, "HOME", "system: logs go to $HOME/ascend/log when no path above is set"},
    {Var::kGlobalLogLevel, "ASCEND_GLOBAL_LOG_LEVEL", "0 DEBUG, 1 INFO, 2 WARNING, 3 ERROR (default), 4 NULL"},
    {Var::kModuleLogLevel, "ASCEND_MODULE_LOG_LEVEL", "per-module levels, e.g. RUNTIME=1:PROFILING=0"},
    {Var::kGlobalEventEnable, "ASCEND_GLOBAL_EVENT_ENABLE", "0 turns EVENT log lines off (on)"},
    {Var::kLogPrintToStdout, "ASCEND_LOG_PRINT_TO_STDOUT", "1: log lines go to stdout instead of the plog files"},
    {Var::kSlogPrintToStdout, "ASCEND_SLOG_PRINT_TO_STDOUT", "deprecated spelling of ASCEND_LOG_PRINT_TO_STDOUT"},
    {Var::kLogSyncSave, "ASCEND_LOG_SYNC_SAVE", "1: each log line is written before the logging call returns"},
    {Var::kHostLogFileNum, "ASCEND_HOST_LOG_FILE_NUM", "plog files kept per process, 1..1000 (10)"},
    {Var::kLogFileSize, "NPURT_LOG_FILE_SIZE", "bytes per plog file before a new one starts (20 MiB)"},
    {Var::kStatusDir, "NPURT_STATUS_DIR", "directory of the status file npu-smi reads (/dev/shm/npurt)"},
    {Var::kStatusDisable, "NPURT_STATUS_DISABLE", "set: no status file (npu-smi then sees no process)"},
    {Var::kProfRawDir, "NPURT_PROF_RAW_DIR", "msprof's handshake: profile the whole process into this directory"},
    {Var::kProfMask, "NPURT_PROF_MASK", "msprof's handshake: the ACL_PROF_* data types to collect"},
    {Var::kCollectPath, "NPU_COLLECT_PATH", "root of exception dumps and collected data (docs/dump.md)"},
    {Var::kHcclExecTimeout, "HCCL_EXEC_TIMEOUT",
     "seconds a collective waits for its peers before it fails its stream (default 1836; 0 = no limit)"},
    {Var::kHcclConnectTimeout, "HCCL_CONNECT_TIMEOUT",
     "seconds communicator creation waits for every rank (default 120; the wait is this + 20 s)"},
    {Var::kHcclBuffSize, "HCCL_BUFFSIZE", "MB of staging buffer per communicator (default 200; >= 1)"},
    {Var::kHcclIfIp, "HCCL_IF_IP", "host IPv4 address the root's rendezvous listener binds and publishes"},
    {Var::kHcclIfBasePort, "HCCL_IF_BASE_PORT",
     "first port of the root's listener (default 60000; 32 ports are tried)"},
    {Var::kHcclHostSocketPortRange, "HCCL_HOST_SOCKET_PORT_RANGE",
     "'auto' (any free port) or 'first-last': the root listener's ports, instead of HCCL_IF_BASE_PORT"},
    {Var::kHcclSocketIfname, "HCCL_SOCKET_IFNAME", "host interface whose address the listener uses, when HCCL_IF_IP is unset"},
    {Var::kHcclDeterministic, "HCCL_DETERMINISTIC",
     "false/true/strict: reductions are always deterministic on npurt (fixed rank order)"},
    {Var::kHcclTransport, "NPURT_HCCL_TRANSPORT",
     "'auto' (default: shared device memory between processes of one machine, Gloo across machines) or 'gloo' "
     "(Gloo between all processes)"},
};
static_assert(std::size(kTable) == static_cast<size_t>(Var::kCount), "one row per variable");

constexpr bool InOrder() {
  for (size_t i = 0; i < std::size(kTable); ++i) {
    if (static_cast<size_t>(kTable[i].var) != i) return false;
  }
  return true;
}
static_assert(InOrder(), "rows in Var order");

}  // namespace

std::span<const VarInfo> All() { return kTable; }
const VarInfo& Info(Var var) { return kTable[static_cast<size_t>(var)]; }

const char* Raw(Var var) { return std::getenv(Info(var).name); }

bool IsSet(Var var) {
  const char* v = Raw(var);
  return v != nullptr && v[0] != '\0';
}

bool IsOne(Var var) {
  const char* v = Raw(var);
  return v != nullptr && std::strcmp(v, "1") == 0;
}

}  // namespace npurt::env
