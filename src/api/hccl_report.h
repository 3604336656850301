// Error reporting of the HCCL entry points (src/api/hccl_*.cc). Private to the runtime.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/hccl_report.h is private to the npurt runtime"
#endif

#include <cstdint>

#include "base/status.h"

namespace npurt::api {

// Records a failed collective call whose status carries an HcclResult: the message for aclGetRecentErrMsg
// and the log. Returns the HcclResult (0 for an OK status); the thread's last ACL error is left alone.
int32_t ReportHccl(const char* function, const Status& status);

}  // namespace npurt::api
