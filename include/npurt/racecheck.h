/* npurt's device-memory race detector (docs/racecheck.md): not part of CANN's API.
 *
 * With NPURT_RACECHECK=1 in the environment the detector is on from the start, prints each race to
 * stderr once, naming both sides, and prints a one-line summary at exit. These functions let a program
 * (or a test) switch it at run time and read the reports.
 *
 * C99 and C++11; every function is thread-safe.
 */
#ifndef NPURT_RACECHECK_H_
#define NPURT_RACECHECK_H_

#include <stddef.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Turns the detector on (enable != 0) or off. Either way it forgets every access, clock and report:
 * turn it on before the work to check is submitted. Returns ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError npurtRacecheckSetEnabled(int enable);

/* 1 while the detector is on, else 0. */
ACL_FUNC_VISIBILITY int npurtRacecheckEnabled(void);

/* The number of races reported since the detector was turned on (or the reports were cleared). */
ACL_FUNC_VISIBILITY size_t npurtRacecheckReportCount(void);

/* Copies report `index` (0-based), as printed on stderr, into `buf` of `len` bytes (truncated, always
 * NUL-terminated) and stores its full length in `*textLen` when textLen is not NULL. Returns
 * ACL_ERROR_INVALID_PARAM for an index past the last report or a NULL buf with len > 0. */
ACL_FUNC_VISIBILITY aclError npurtRacecheckGetReport(size_t index, char *buf, size_t len, size_t *textLen);

/* Forgets the reports (the tracked accesses stay, so a race already reported may be reported again). */
ACL_FUNC_VISIBILITY aclError npurtRacecheckClearReports(void);

#ifdef __cplusplus
}
#endif

#endif /* NPURT_RACECHECK_H_ */
