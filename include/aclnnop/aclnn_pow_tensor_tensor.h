// aclnn operator aclnnPowTensorTensor (libopapi.so): the two-phase pair of each function, see aclnn/acl_meta.h.
#ifndef NPURT_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H
#define NPURT_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== [aclnnop] aclnn operators ==== */

// out = self ** exponent
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorTensorGetWorkspaceSize(const aclTensor* self, const aclTensor* exponent, aclTensor* out, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnPowTensorTensor(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACLNNOP_ACLNN_POW_TENSOR_TENSOR_H
