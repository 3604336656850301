/*
 * npurt: the part of libprofapi's public header that client programs call (profiling/aprof_pub.h).
 *
 * Frameworks that run their own model executors tell the profiler which device runs a model, so that
 * operator subscriptions (aclprofModelSubscribe) of that model land on the right device. The functions
 * return 0 on success and an ACL error code otherwise (aclGetRecentErrMsg says why).
 */
#ifndef NPURT_PROFILING_APROF_PUB_H_
#define NPURT_PROFILING_APROF_PUB_H_

#include <stddef.h>
#include <stdint.h>

#ifndef MSVP_PROF_API
#define MSVP_PROF_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ==== [prof] Profiling ==== */

/* Records that model `geModelIdx` runs on device `deviceId`. */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

/* Forgets that record (the model was unloaded). */
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx, const uint32_t deviceId);

/* The timestamp the profiler stamps its records with (CLOCK_MONOTONIC, nanoseconds). */
MSVP_PROF_API uint64_t MsprofSysCycleTime(void);

#ifdef __cplusplus
}
#endif

#endif /* NPURT_PROFILING_APROF_PUB_H_ */
