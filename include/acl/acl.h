// Umbrella header of the ACL API: the runtime (acl_rt.h) plus the single-operator (acl_op.h) and
// model (acl_mdl.h) layers. This is what most ACL programs include.
#ifndef NPURT_ACL_ACL_H
#define NPURT_ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif  // NPURT_ACL_ACL_H
