// Placeholder for single-operator execution (aclop*).
// The runtime ships this header without declarations so that programs including acl.h or acl_base.h
// compile; the declarations arrive with the layer that implements them.
#ifndef NPURT_ACL_ACL_OP_H
#define NPURT_ACL_ACL_OP_H

#include "acl_base_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_OP_H
