#include "dfx/log.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <cstring>

namespace npurt::dfx {

std::atomic<int32_t> g_log_level{static_cast<int32_t>(LogLevel::kError)};

namespace {
const char* LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "DEBUG";
    case LogLevel::kInfo: return "INFO";
    case LogLevel::kWarning: return "WARNING";
    case LogLevel::kError: return "ERROR";
    case LogLevel::kOff: break;
  }
  return "EVENT";
}

struct EnvInit {
  EnvInit() { InitLogFromEnvironment(); }
} g_env_init;
}  // namespace

void InitLogFromEnvironment() {
  if (const char* v = std::getenv("ASCEND_GLOBAL_LOG_LEVEL")) {
    char* end = nullptr;
    long level = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && level >= 0 && level <= 4) g_log_level.store(static_cast<int32_t>(level));
  }
}

void LogWrite(LogLevel level, const char* module, const char* file, int line, const std::string& message) {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  tm local;
  localtime_r(&ts.tv_sec, &local);
  const char* base = std::strrchr(file, '/');
  base = base ? base + 1 : file;
  // One fprintf per line: stdio locks the stream, so lines from different threads never interleave.
  std::fprintf(stderr, "[%s] %s(%d,%ld):%04d-%02d-%02d-%02d:%02d:%02d.%03ld.%03ld [%s:%d] %s\n", LevelName(level),
               module, getpid(), static_cast<long>(syscall(SYS_gettid)), local.tm_year + 1900, local.tm_mon + 1,
               local.tm_mday, local.tm_hour, local.tm_min, local.tm_sec, ts.tv_nsec / 1000000,
               (ts.tv_nsec / 1000) % 1000, base, line, message.c_str());
}

}  // namespace npurt::dfx
