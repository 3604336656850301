// HcclResult inside the collective layer: npurt::Status codes are HcclResult values here (the public enum of
// hccl/hccl_types.h), and this maps a failed operation to the error its stream reports.
#pragma once

#include <cstdint>

#include "acl/error_codes/rt_error_codes.h"
#include "hccl/hccl_types.h"

namespace npurt::hccl {

// The aclError a stream fails with when a collective on it failed with `result`: a peer that did not arrive
// in time is the device's task timeout (CANN reports these as FFTS+ timeouts); anything else a peer caused
// is a suspected remote error.
inline int32_t StreamErrorFor(int32_t result) {
  return result == HCCL_E_TIMEOUT ? ACL_ERROR_RT_FFTS_PLUS_TIMEOUT : ACL_ERROR_RT_SUSPECT_REMOTE_ERROR;
}

}  // namespace npurt::hccl
