// aclnn operator aclnnGeluV2 (libopapi.so): the two-phase pair of each function, see aclnn/acl_meta.h.
#ifndef NPURT_ACLNNOP_ACLNN_GELU_V2_H
#define NPURT_ACLNNOP_ACLNN_GELU_V2_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== [aclnnop] aclnn operators ==== */

// out = gelu(self); approximate 0 = erf form, 1 = tanh form
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* self, int64_t approximate, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACLNNOP_ACLNN_GELU_V2_H
