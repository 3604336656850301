// Minimal process log (the observability issue replaces the sink with the full CANN-style logger):
// levels follow ASCEND_GLOBAL_LOG_LEVEL (0 debug .. 3 error, 4 off; default 3), lines go to stderr in
// the CANN format "[LEVEL] MODULE(pid,tid):time [file:line] message". A disabled level costs one
// relaxed load and a compare.
#pragma once

#include <atomic>
#include <cstdint>

#include <fmt/format.h>

namespace npurt::dfx {

enum class LogLevel : int32_t { kDebug = 0, kInfo = 1, kWarning = 2, kError = 3, kOff = 4 };

extern std::atomic<int32_t> g_log_level;

inline bool LogEnabled(LogLevel level) {
  return static_cast<int32_t>(level) >= g_log_level.load(std::memory_order_relaxed);
}

void LogWrite(LogLevel level, const char* module, const char* file, int line, const std::string& message);
void InitLogFromEnvironment();

}  // namespace npurt::dfx

#define NPURT_LOG(level, module, ...)                                                                   \
  do {                                                                                                  \
    if (::npurt::dfx::LogEnabled(level)) {                                                              \
      ::npurt::dfx::LogWrite(level, module, __FILE__, __LINE__, fmt::format(__VA_ARGS__));              \
    }                                                                                                   \
  } while (0)
#define NPURT_LOG_DEBUG(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kDebug, module, __VA_ARGS__)
#define NPURT_LOG_INFO(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kInfo, module, __VA_ARGS__)
#define NPURT_LOG_WARNING(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kWarning, module, __VA_ARGS__)
#define NPURT_LOG_ERROR(module, ...) NPURT_LOG(::npurt::dfx::LogLevel::kError, module, __VA_ARGS__)
