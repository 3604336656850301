/*
 * mstx: the MindStudio tools extension API (markers and ranges in a profile), as npurt provides it.
 *
 * Markers and ranges are recorded into the msprof timeline while ACL_PROF_MSPROFTX data is collected
 * (aclprofStart with that type, or `msprof --msproftx=on`), and cost a few nanoseconds otherwise. A
 * domain groups markers and ranges under a name; the global functions use the default domain. The calls
 * report no errors: bad input (a null message, an unknown range id or domain) is ignored, and a range
 * start that cannot be recorded returns MSTX_INVALID_RANGE_ID.
 */
#ifndef MSTX_MS_TOOLS_EXT_H_
#define MSTX_MS_TOOLS_EXT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MSTX_INVALID_RANGE_ID 0

typedef uint64_t mstxRangeId;
typedef struct mstxDomainRegistration_st mstxDomainRegistration_t;
typedef mstxDomainRegistration_t* mstxDomainHandle_t;

typedef void* mstxStream_t; /* an aclrtStream (NULL: no stream) */

/* An instantaneous marker with `message` (on the timeline of `stream` when it is not NULL). */
void mstxMarkA(const char* message, mstxStream_t stream);
/* Opens a range; mstxRangeEnd closes it (from any thread). */
mstxRangeId mstxRangeStartA(const char* message, mstxStream_t stream);
void mstxRangeEnd(mstxRangeId id);

/* Domains: a name that groups markers and ranges (shown as "<domain>::<message>"). */
mstxDomainHandle_t mstxDomainCreateA(const char* name);
void mstxDomainDestroy(mstxDomainHandle_t domain);
void mstxDomainMarkA(mstxDomainHandle_t domain, const char* message, mstxStream_t stream);
mstxRangeId mstxDomainRangeStartA(mstxDomainHandle_t domain, const char* message, mstxStream_t stream);
void mstxDomainRangeEnd(mstxDomainHandle_t domain, mstxRangeId id);

#ifdef __cplusplus
}
#endif

#endif /* MSTX_MS_TOOLS_EXT_H_ */
