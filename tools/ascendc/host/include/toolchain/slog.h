/* toolchain/slog.h for npurt: CANN's device-log ("dlog") entry points (libascendalog.so), which Ascend C
 * host code and CANN's libraries call. npurt writes their lines to its own log (the ACL log: stderr and
 * the plog files, docs/logging), filtered by ASCEND_GLOBAL_LOG_LEVEL like every other line. The module id
 * is kept in the line; RUN_LOG_MASK (run logs) is accepted and logged as the line's level. */
#ifndef NPURT_TOOLCHAIN_SLOG_H_
#define NPURT_TOOLCHAIN_SLOG_H_

#ifdef __cplusplus
extern "C" {
#endif

#define DLOG_DEBUG 0
#define DLOG_INFO 1
#define DLOG_WARN 2
#define DLOG_ERROR 3
#define DLOG_NULL 4
#define DLOG_EVENT 0x10
#define RUN_LOG_MASK 0x01000000

/* 1 when a line of `level` for `moduleId` would be written (the process log level allows it). */
int CheckLogLevel(int moduleId, int level);
/* Writes one printf-formatted line at `level` (DLOG_*). */
void DlogRecord(int moduleId, int level, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
void DlogInner(int moduleId, int level, const char* fmt, ...) __attribute__((format(printf, 3, 4)));
void DlogErrorInner(int moduleId, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogWarnInner(int moduleId, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogInfoInner(int moduleId, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogDebugInner(int moduleId, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void DlogEventInner(int moduleId, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
/* The process log level (DLOG_*); `enableEvent` (may be null) receives 1. */
int dlog_getlevel(int moduleId, int* enableEvent);
/* Sets the level CheckLogLevel and these functions filter by (moduleId is ignored: one level for all);
 * npurt's log still drops lines below ASCEND_GLOBAL_LOG_LEVEL. 0 on success, -1 for an unknown level. */
int dlog_setlevel(int moduleId, int level, int enableEvent);
/* Lines are written as they come: nothing to flush. */
void DlogFlush(void);

#define dlog_error(moduleId, fmt, ...) DlogRecord(moduleId, DLOG_ERROR, fmt, ##__VA_ARGS__)
#define dlog_warn(moduleId, fmt, ...) DlogRecord(moduleId, DLOG_WARN, fmt, ##__VA_ARGS__)
#define dlog_info(moduleId, fmt, ...) DlogRecord(moduleId, DLOG_INFO, fmt, ##__VA_ARGS__)
#define dlog_debug(moduleId, fmt, ...) DlogRecord(moduleId, DLOG_DEBUG, fmt, ##__VA_ARGS__)
#define dlog_event(moduleId, fmt, ...) DlogRecord(moduleId, DLOG_EVENT, fmt, ##__VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif /* NPURT_TOOLCHAIN_SLOG_H_ */
