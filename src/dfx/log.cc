#include "dfx/log.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <string>
#include <vector>

#include "base/env.h"
#include "base/wall_clock.h"
#include "dfx/log_writer.h"

namespace npurt::dfx {

std::atomic<int32_t> g_log_level{static_cast<int32_t>(LogLevel::kError)};
std::atomic<bool> g_log_event_enabled{true};

namespace {

const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "DEBUG";
    case LogLevel::kInfo: return "INFO";
    case LogLevel::kWarning: return "WARNING";
    case LogLevel::kError: return "ERROR";
    case LogLevel::kEvent: return "EVENT";
    case LogLevel::kOff: break;
  }
  return "NULL";
}

// Module overrides from ASCEND_MODULE_LOG_LEVEL. Written only by InitLogFromEnvironment (at load, or by
// tests before logging starts); read without a lock by ModuleLogEnabled.
struct ModuleLevel {
  char name[24];
  int32_t level;
};
constexpr int kMaxModules = 32;
ModuleLevel g_modules[kMaxModules];
std::atomic<int> g_module_count{0};
std::atomic<int32_t> g_global_level{static_cast<int32_t>(LogLevel::kError)};

LogWriter& Writer() {
  // Never destroyed: driver threads may log during static destruction.
  static LogWriter* w = new LogWriter();
  return *w;
}

bool ParseLevel(const char* text, int32_t* level) {
  if (text == nullptr || *text == '\0') return false;
  char* end = nullptr;
  long v = std::strtol(text, &end, 10);
  if (end == text || *end != '\0' || v < 0 || v > 4) return false;
  *level = static_cast<int32_t>(v);
  return true;
}

bool EnvFlag(env::Var var) { return env::IsOne(var); }

uint64_t EnvUint(env::Var var, uint64_t lo, uint64_t hi, uint64_t fallback) {
  const char* v = env::Raw(var);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  unsigned long long x = std::strtoull(v, &end, 10);
  if (*end != '\0' || x < lo || x > hi) return fallback;
  return x;
}

const char* CachedProcessName() {
  // Read once, by whichever thread logs first (a thread-safe static initialisation).
  static const std::string name = ProcessName();
  return name.c_str();
}

thread_local long t_tid = 0;

struct EnvInit {
  EnvInit() {
    InitLogFromEnvironment();
    pthread_atfork([] { Writer().PrepareFork(); }, [] { Writer().ParentAfterFork(); },
                   [] { Writer().ChildAfterFork(); });
    std::atexit([] { LogFlush(2000); });
  }
} g_env_init;

void FormatAndAppend(LogLevel level, const char* module, const char* file, int line, const std::string& message);

}  // namespace

void InitLogFromEnvironment() {
  int32_t global = static_cast<int32_t>(LogLevel::kError);
  int32_t parsed = 0;
  if (ParseLevel(npurt::env::Raw(npurt::env::Var::kGlobalLogLevel), &parsed)) global = parsed;
  g_global_level.store(global, std::memory_order_relaxed);
  int32_t most_verbose = global;
  int count = 0;
  // "RUNTIME=0:ASCENDCL=1": unknown or malformed entries are skipped (as CANN's slog does).
  if (const char* spec = npurt::env::Raw(npurt::env::Var::kModuleLogLevel)) {
    std::string s(spec);
    size_t pos = 0;
    while (pos <= s.size() && count < kMaxModules) {
      size_t end = s.find(':', pos);
      std::string item = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
      size_t eq = item.find('=');
      int32_t level = 0;
      if (eq != std::string::npos && eq > 0 && eq < sizeof(ModuleLevel::name) &&
          ParseLevel(item.c_str() + eq + 1, &level)) {
        ModuleLevel& m = g_modules[count++];
        std::memset(m.name, 0, sizeof m.name);
        std::memcpy(m.name, item.data(), eq);
        m.level = level;
        if (level < most_verbose) most_verbose = level;
      }
      if (end == std::string::npos) break;
      pos = end + 1;
    }
  }
  g_module_count.store(count, std::memory_order_release);
  g_log_level.store(most_verbose, std::memory_order_relaxed);
  if (const char* ev = npurt::env::Raw(npurt::env::Var::kGlobalEventEnable)) {
    g_log_event_enabled.store(std::strcmp(ev, "0") != 0, std::memory_order_relaxed);
  }

  LogSinkOptions sink;
  const bool deprecated_stdout = EnvFlag(npurt::env::Var::kSlogPrintToStdout);
  sink.to_stdout = EnvFlag(npurt::env::Var::kLogPrintToStdout) || deprecated_stdout;
  sink.synchronous = EnvFlag(npurt::env::Var::kLogSyncSave);
  sink.plog.dir = LogRoot() + "/debug/plog";
  sink.plog.max_files = static_cast<uint32_t>(EnvUint(npurt::env::Var::kHostLogFileNum, 1, 1000, 10));
  sink.plog.max_bytes = EnvUint(npurt::env::Var::kLogFileSize, 1024, 1ull << 40, 20ull << 20);
  Writer().Configure(sink);
  if (deprecated_stdout && npurt::env::Raw(npurt::env::Var::kLogPrintToStdout) == nullptr) {
    // Shown whatever the level: the user asked for output and should learn the current spelling.
    FormatAndAppend(LogLevel::kWarning, "LOG", __FILE__, __LINE__,
                    "ASCEND_SLOG_PRINT_TO_STDOUT is deprecated; use ASCEND_LOG_PRINT_TO_STDOUT");
  }
}

LogLevel ModuleLogLevel(const char* module) {
  const int n = g_module_count.load(std::memory_order_acquire);
  for (int i = 0; i < n; ++i) {
    if (std::strcmp(g_modules[i].name, module) == 0) return static_cast<LogLevel>(g_modules[i].level);
  }
  return static_cast<LogLevel>(g_global_level.load(std::memory_order_relaxed));
}

bool ModuleLogEnabled(LogLevel level, const char* module) {
  if (level == LogLevel::kEvent) return true;
  return static_cast<int32_t>(level) >= static_cast<int32_t>(ModuleLogLevel(module));
}

namespace {
void FormatAndAppend(LogLevel level, const char* module, const char* file, int line, const std::string& message) {
  const WallTime now = NowLocal();
  const tm& local = now.local;
  const char* base = std::strrchr(file, '/');
  base = base ? base + 1 : file;
  if (t_tid == 0) t_tid = static_cast<long>(syscall(SYS_gettid));
  // CANN's plog line: [LEVEL] MODULE(pid,process):yyyy-mm-dd-hh:mm:ss.mmm.uuu [file:line]tid message
  fmt::memory_buffer buf;
  fmt::format_to(std::back_inserter(buf), "[{}] {}({},{}):{:04d}-{:02d}-{:02d}-{:02d}:{:02d}:{:02d}.{:03d}.{:03d} [{}:{}]{} {}\n",
                 LevelName(level), module, getpid(), CachedProcessName(), local.tm_year + 1900, local.tm_mon + 1,
                 local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, now.ms, now.us % 1000, base, line,
                 t_tid, message);
  Writer().Append(std::string_view(buf.data(), buf.size()));
}
}  // namespace

void LogWrite(LogLevel level, const char* module, const char* file, int line, const std::string& message) {
  // Callers outside the macros (aclAppLog) have checked the global threshold only.
  if (!ModuleLogEnabled(level, module)) return;
  FormatAndAppend(level, module, file, line, message);
}

void LogFlush(int timeout_ms) { Writer().Flush(timeout_ms); }

std::string LogDestination() { return Writer().Destination(); }

uint64_t LogDroppedLines() { return Writer().dropped(); }

}  // namespace npurt::dfx
