// Process log, CANN style ("plog"): every npurt component logs through these macros.
//
//   NPURT_LOG_ERROR("RUNTIME", "stream {} failed: {}", id, why);   // fmt-style message
//
// Levels are the CANN ones: DEBUG 0, INFO 1, WARNING 2, ERROR 3, NULL 4 (off), plus EVENT lines (run-time
// milestones, switched by ASCEND_GLOBAL_EVENT_ENABLE rather than by level). Configuration comes from the
// environment once, at load (see docs/logging.md):
//   ASCEND_GLOBAL_LOG_LEVEL      default level of every module (default 3, ERROR)
//   ASCEND_MODULE_LOG_LEVEL      per-module override, "RUNTIME=0:ASCENDCL=1"
//   ASCEND_GLOBAL_EVENT_ENABLE   0 turns EVENT lines off (default on)
//   ASCEND_LOG_PRINT_TO_STDOUT   1 prints to stdout instead of files (ASCEND_SLOG_PRINT_TO_STDOUT is the
//                                deprecated spelling, still honoured)
//   ASCEND_PROCESS_LOG_PATH > ASCEND_WORK_PATH/log > $HOME/ascend/log: the root; this process writes
//                                <root>/debug/plog/plog-<pid>_<yyyymmddhhmmssmmm>.log
//   ASCEND_HOST_LOG_FILE_NUM     files kept per process before the oldest is deleted (1..1000, default 10)
//   NPURT_LOG_FILE_SIZE          bytes per file before rotating (default 20 MiB; CANN's slog.conf value)
//   ASCEND_LOG_SYNC_SAVE         1 writes each line before the call returns (default: asynchronous)
//
// Cost: a disabled line is one relaxed load and a compare (the message is not even formatted). An enabled
// line is formatted on the calling thread and handed to a writer thread under a short lock; the caller
// never waits for I/O unless ASCEND_LOG_SYNC_SAVE=1. If the writer falls behind by more than 16 MiB, lines
// are dropped and counted (the count is logged when the writer catches up), never blocking the caller.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include <fmt/format.h>

namespace npurt::dfx {

enum class LogLevel : int32_t { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kOff = 4, kEvent = 5 };

// The most verbose level any module logs at (the fast-path threshold); module levels refine it.
extern std::atomic<int32_t> g_log_level;
extern std::atomic<bool> g_log_event_enabled;

inline bool LogEnabled(LogLevel level) {
  if (level == LogLevel::kEvent) return g_log_event_enabled.load(std::memory_order_relaxed);
  return static_cast<int32_t>(level) >= g_log_level.load(std::memory_order_relaxed);
}

// True if `module` logs at `level` (module overrides applied). Slow path; the macros call it only after
// LogEnabled passed.
bool ModuleLogEnabled(LogLevel level, const char* module);

// Formats one line and hands it to the writer. `file` may be a full path (its base name is printed).
void LogWrite(LogLevel level, const char* module, const char* file, int line, const std::string& message);

// Re-reads the environment (called once at load; tests call it after changing variables).
void InitLogFromEnvironment();

// Waits (bounded by `timeout_ms`) until every line handed over so far is written.
void LogFlush(int timeout_ms = 2000);

// Where this process's log lines go: the current plog file, or "stdout".
std::string LogDestination();

// Lines dropped because the writer fell behind (never expected in practice; reported by tests).
uint64_t LogDroppedLines();

// The level of `module` after ASCEND_MODULE_LOG_LEVEL (for diagnostics and tests).
LogLevel ModuleLogLevel(const char* module);

}  // namespace npurt::dfx

#define NPURT_LOG(level, module, ...)                                                                   \
  do {                                                                                                  \
    if (::npurt::dfx::LogEnabled(level) && ::npurt::dfx::ModuleLogEnabled(level, module)) {             \
      ::npurt::dfx::LogWrite(level, module, __FILE__, __LINE__, fmt::format(__VA_ARGS__));              \
    }                                                                                                   \
  } while (0)
#define NPURT_LOG_DEBUG(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kDebug, module, __VA_ARGS__)
#define NPURT_LOG_INFO(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kInfo, module, __VA_ARGS__)
#define NPURT_LOG_WARNING(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kWarning, module, __VA_ARGS__)
#define NPURT_LOG_ERROR(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kError, module, __VA_ARGS__)
#define NPURT_LOG_EVENT(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kEvent, module, __VA_ARGS__)
