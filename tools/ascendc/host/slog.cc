// libascendalog.so: CANN's dlog entry points, written to npurt's log through aclAppLog.
#include "toolchain/slog.h"

#include <acl/acl_base.h>

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace {

// -1: follow ASCEND_GLOBAL_LOG_LEVEL (as the runtime does); otherwise dlog_setlevel's.
std::atomic<int> g_level{-1};

int ProcessLevel() {
  const int set = g_level.load(std::memory_order_relaxed);
  if (set >= 0) return set;
  const char* env = std::getenv("ASCEND_GLOBAL_LOG_LEVEL");
  if (env != nullptr && *env >= '0' && *env <= '4' && env[1] == '\0') return *env - '0';
  return DLOG_ERROR;
}

void Write(int moduleId, int level, const char* fmt, va_list args) {
  if (fmt == nullptr || !CheckLogLevel(moduleId, level)) return;
  level &= ~RUN_LOG_MASK;
  char buf[1024];
  std::vsnprintf(buf, sizeof buf, fmt, args);
  // An EVENT line is a notable, normal event: the runtime's INFO level is its nearest.
  const aclLogLevel acl = level == DLOG_EVENT ? ACL_INFO
                          : level <= DLOG_DEBUG ? ACL_DEBUG
                          : level == DLOG_INFO  ? ACL_INFO
                          : level == DLOG_WARN  ? ACL_WARNING
                                                : ACL_ERROR;
  char module[32];
  std::snprintf(module, sizeof module, "dlog module %d", moduleId & ~RUN_LOG_MASK);
  aclAppLog(acl, module, "dlog", 0, "%s", buf);
}

}  // namespace

extern "C" {

int CheckLogLevel(int moduleId, int level) {
  (void)moduleId;
  level &= ~RUN_LOG_MASK;
  if (level == DLOG_EVENT) return 1;
  return level >= ProcessLevel() && level < DLOG_NULL ? 1 : 0;
}

#define NPURT_DLOG_BODY(module, level)   \
  va_list args;                          \
  va_start(args, fmt);                   \
  Write(module, level, fmt, args);       \
  va_end(args)

void DlogRecord(int moduleId, int level, const char* fmt, ...) { NPURT_DLOG_BODY(moduleId, level); }
void DlogInner(int moduleId, int level, const char* fmt, ...) { NPURT_DLOG_BODY(moduleId, level); }
void DlogErrorInner(int moduleId, const char* fmt, ...) { NPURT_DLOG_BODY(moduleId, DLOG_ERROR); }
void DlogWarnInner(int moduleId, const char* fmt, ...) { NPURT_DLOG_BODY(moduleId, DLOG_WARN); }
void DlogInfoInner(int moduleId, const char* fmt, ...) { NPURT_DLOG_BODY(moduleId, DLOG_INFO); }
void DlogDebugInner(int moduleId, const char* fmt, ...) { NPURT_DLOG_BODY(moduleId, DLOG_DEBUG); }
void DlogEventInner(int moduleId, const char* fmt, ...) { NPURT_DLOG_BODY(moduleId, DLOG_EVENT); }

int dlog_getlevel(int moduleId, int* enableEvent) {
  (void)moduleId;
  if (enableEvent != nullptr) *enableEvent = 1;
  return ProcessLevel();
}

int dlog_setlevel(int moduleId, int level, int enableEvent) {
  (void)moduleId, (void)enableEvent;
  if (level < DLOG_DEBUG || level > DLOG_NULL) return -1;
  g_level.store(level, std::memory_order_relaxed);
  return 0;
}

void DlogFlush(void) {}

}  // extern "C"
