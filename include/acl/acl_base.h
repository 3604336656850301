// Umbrella for the base definitions: handle types, data types and formats, data buffers and every
// error code (ACL, runtime and graph-engine layers). Older programs include this instead of acl.h.
#ifndef NPURT_ACL_ACL_BASE_H
#define NPURT_ACL_ACL_BASE_H

#include "acl_base_rt.h"
#include "acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif  // NPURT_ACL_ACL_BASE_H
