// Base header of the aclnn operator API: the meta objects (acl_meta.h). Operator headers include it.
#ifndef NPURT_ACLNN_ACLNN_BASE_H
#define NPURT_ACLNN_ACLNN_BASE_H

#include "aclnn/acl_meta.h"

#endif  // NPURT_ACLNN_ACLNN_BASE_H
