// aclnn operator aclnnGelu (libopapi.so): the two-phase pair of each function, see aclnn/acl_meta.h.
#ifndef NPURT_ACLNNOP_ACLNN_GELU_H
#define NPURT_ACLNNOP_ACLNN_GELU_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== [aclnnop] aclnn operators ==== */

// out = gelu(self), erf form
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGelu(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACLNNOP_ACLNN_GELU_H
