// Typical C++ use of the public headers, compiled (never run) as C++11 and with the samples' flags:
// error codes as switch labels, dim3 constructors, and every overload of acl_rt_api.h instantiated so
// that an ambiguous or broken overload fails the build.
#include "acl/acl.h"
#include "acl/acl_rt_api.h"
#include "acl/acl_rt_memory_soma.h"

namespace {

const char* Describe(aclError ret)
{
    switch (ret) {  // ACL-layer codes are static const int, usable as case labels
        case ACL_SUCCESS:
            return "ok";
        case ACL_ERROR_INVALID_PARAM:
            return "invalid parameter";
        case ACL_ERROR_RT_FEATURE_NOT_SUPPORT:
            return "not supported";
        default:
            return "error";
    }
}

struct Symbol {
    float value;
};
Symbol g_symbol;

}  // namespace

int npurt_header_usage_cxx(aclrtStream stream, aclrtEvent event)
{
    constexpr dim3 grid(8);
    dim3 block;
    int ret = 0;
    float* dev = nullptr;
    float* host = nullptr;
    const float* csrc = nullptr;
    size_t sizes[1] = {4};
    size_t destMaxs[1] = {4};
    size_t failIndex = 0;
    aclrtMemcpyBatchAttr batchAttr = {};
    size_t attrIdx[1] = {0};
    aclrtMemManagedLocation loc = {ACL_MEM_LOCATIONTYPE_DEVICE, 0};
    size_t locIdx[1] = {0};
    aclrtPtrAttributes ptrAttrs;
    void* raw = nullptr;
    size_t symSize = 0;

    ret += aclrtSynchronizeDevice(1000);
    ret += aclrtSynchronizeStream(stream, 1000);
    ret += aclrtSynchronizeEvent(event, -1);
    ret += aclrtStreamWaitEvent(stream, event, 10);
    ret += aclrtCreateStream(&stream, 0, ACL_STREAM_FAST_LAUNCH);
    uint64_t actual = 0;
    ret += aclrtSetOpExecuteTimeOut(uint64_t(1000), &actual);
    ret += aclrtCreateEvent(&event, ACL_EVENT_SYNC);

    ret += aclrtMalloc(&dev, 16);
    ret += aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_NORMAL_ONLY);
    ret += aclrtMalloc(&raw, 16, ACL_MEM_MALLOC_HUGE_FIRST);  // the C function
    ret += aclrtMallocHost(&host, 16);
    ret += aclrtMemAllocManaged(&dev, 16);
    ret += aclrtMemcpy(dev, 16, csrc, 16, ACL_MEMCPY_HOST_TO_DEVICE);
    ret += aclrtMemcpy(raw, 16, raw, 16, ACL_MEMCPY_DEVICE_TO_DEVICE);  // the C function
    ret += aclrtMemcpyAsync(dev, 16, host, 16, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    ret += aclrtMemcpy2d(dev, 16, host, 16, 16, 1, ACL_MEMCPY_HOST_TO_DEVICE);
    ret += aclrtMemcpy2dAsync(dev, 16, host, 16, 16, 1, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    ret += aclrtMemcpyBatch(&dev, destMaxs, &host, sizes, 1, batchAttr);
    ret += aclrtMemcpyBatch(&dev, destMaxs, &host, sizes, 1, &batchAttr, attrIdx, 1, &failIndex);
    ret += aclrtMemcpyBatchAsync(&dev, destMaxs, &host, sizes, 1, batchAttr, stream);
    ret += aclrtMemcpyBatchAsync(&dev, destMaxs, &host, sizes, 1, &batchAttr, attrIdx, 1, stream);
    ret += aclrtMemcpyBatchAsync(&dev, destMaxs, &host, sizes, 1, batchAttr, &failIndex, stream);
    ret += aclrtMemcpyBatchAsync(&dev, destMaxs, &host, sizes, 1, &batchAttr, attrIdx, 1, &failIndex, stream);
    ret += aclrtPointerGetAttributes(dev, &ptrAttrs);
    ret += aclrtHostRegister(host, 16, ACL_HOST_REGISTER_MAPPED, &dev);
    ret += aclrtHostRegister(host, 16, uint32_t(ACL_HOST_REG_PINNED));
    ret += aclrtHostGetDevicePointer(host, &dev, 0);
    ret += aclrtHostUnregister(host);
    ret += aclrtMemManagedPrefetchAsync(csrc, 16, loc, 0, stream);
    ret += aclrtMemManagedPrefetchBatchAsync(&csrc, sizes, 1, loc, 0, stream);
    ret += aclrtMemManagedPrefetchBatchAsync(&csrc, sizes, 1, &loc, locIdx, 1, 0, stream);
    ret += aclrtGetSymbolAddress(g_symbol, &raw);
    ret += aclrtGetSymbolSize(g_symbol, &symSize);
    ret += aclrtMemcpyFromSymbol(host, 4, g_symbol, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST);
    ret += aclrtMemcpyFromSymbolAsync(host, 4, g_symbol, 4, 0, ACL_MEMCPY_DEVICE_TO_HOST, stream);
    ret += aclrtMemcpyToSymbol(g_symbol, host, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE);
    ret += aclrtMemcpyToSymbolAsync(g_symbol, host, 4, 0, ACL_MEMCPY_HOST_TO_DEVICE, stream);

    ACL_APP_LOG(ACL_INFO, "%s", Describe(ret));
    ACL_APP_LOG(ACL_INFO, "done");
    return ret + static_cast<int>(grid.x + block.y);
}
