/* Typical C use of the public headers, compiled (never run) with -std=c99 -Wall -Wextra -Werror:
 * aggregate initialization, the unnamed union of aclmdlRITaskParams, ACL_APP_LOG, flag macros. */
#include "acl/acl.h"
#include "acl/acl_rt_memory_soma.h"

int npurt_header_usage_c(aclrtStream stream);

int npurt_header_usage_c(aclrtStream stream)
{
    aclrtLaunchKernelAttr attr;
    aclrtLaunchKernelCfg cfg;
    aclmdlRITaskParams params;
    aclrtMemPoolProps props;
    dim3 grid = {4, 1, 1};
    void* dev = NULL;
    aclError ret;

    attr.id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
    attr.value.dynUBufSize = 1024;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    params.type = ACL_MODEL_RI_TASK_KERNEL;
    params.kernelTaskParams.numBlocks = grid.x;  /* member of the unnamed union */
    params.kernelTaskParams.cfg = &cfg;
    props.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    props.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    props.location.id = 0;

    ret = aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST);
    if (ret != ACL_SUCCESS || ret == ACL_ERROR_RT_FEATURE_NOT_SUPPORT) {
        ACL_APP_LOG(ACL_ERROR, "aclrtMalloc failed: %d", ret);
        ACL_APP_LOG(ACL_ERROR, "no arguments");
        return ret;
    }
    (void)aclrtMemcpyAsync(dev, 64, dev, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, stream);
    (void)aclrtCreateStreamWithConfig(&stream, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    return (int)(params.kernelTaskParams.numBlocks + props.location.id + (uint32_t)ACL_ERROR_GE_PARAM_INVALID) +
           (int)sizeof(aclrtIpcEventHandle) + (int)ACL_MAJOR_VERSION;
}
