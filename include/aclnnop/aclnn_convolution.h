// aclnn operator aclnnConvolution (libopapi.so): the two-phase pair of each function, see aclnn/acl_meta.h.
#ifndef NPURT_ACLNNOP_ACLNN_CONVOLUTION_H
#define NPURT_ACLNNOP_ACLNN_CONVOLUTION_H

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ==== [aclnnop] aclnn operators ==== */

// 2-D convolution (NCHW; transposed must be false)
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolutionGetWorkspaceSize(const aclTensor* input, const aclTensor* weight, const aclTensor* bias, const aclIntArray* stride, const aclIntArray* padding, const aclIntArray* dilation, bool transposed, const aclIntArray* outputPadding, const int64_t groups, aclTensor* output, int8_t cubeMathType, uint64_t* workspaceSize,
                                                  aclOpExecutor** executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnConvolution(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACLNNOP_ACLNN_CONVOLUTION_H
