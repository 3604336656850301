/*
 * kernel_fault: a kernel that faults fails its task, not the process.
 *
 * 1. An exception callback is registered (aclrtExceptionInfoCallbackRegister). A stream in stop-on-failure
 *    mode (aclrtSetStreamFailureMode) gets ScaleWithBadBlock, whose block 3 writes through a wild pointer,
 *    followed by a copy. aclrtSynchronizeStream returns ACL_ERROR_RT_VECTOR_CORE_EXCEPTION (507035: Ascend C kernels run on
 *    the vector cores of the Ascend910B family), the
 *    callback reports the task, stream, device and kernel (aclrtGetFuncHandleFromExceptionInfo +
 *    aclrtGetFunctionName), and the copy after the failed kernel was discarded.
 * 2. The device keeps working: Scale runs on a new stream and its result is checked.
 *
 * The kernels are launched through the generated aclrtlaunch_<kernel>.h headers (ACLRT_LAUNCH_KERNEL).
 * Exit status 0 only if everything above happened as described.
 */
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclrtlaunch_Scale.h"
#include "aclrtlaunch_ScaleWithBadBlock.h"

#define CHECK_ACL(expr)                                                                                  \
    do {                                                                                                 \
        const aclError checkRet = (expr);                                                                \
        if (checkRet != ACL_SUCCESS) {                                                                   \
            const char* checkMsg = aclGetRecentErrMsg();                                                 \
            std::printf("[ERROR] %s failed with %d: %s\n", #expr, static_cast<int>(checkRet),             \
                        checkMsg != nullptr ? checkMsg : "(no message)");                                \
            return 1;                                                                                    \
        }                                                                                                \
    } while (0)

namespace {

std::mutex g_mutex;
std::string g_kernelName;
uint32_t g_taskId = 0;
uint32_t g_streamId = 0;
uint32_t g_deviceId = 0;
uint32_t g_errorCode = 0;
std::atomic<int> g_exceptions{0};

void OnException(aclrtExceptionInfo* info)
{
    std::lock_guard<std::mutex> lock(g_mutex);
    g_taskId = aclrtGetTaskIdFromExceptionInfo(info);
    g_streamId = aclrtGetStreamIdFromExceptionInfo(info);
    g_deviceId = aclrtGetDeviceIdFromExceptionInfo(info);
    g_errorCode = aclrtGetErrorCodeFromExceptionInfo(info);
    aclrtFuncHandle func = nullptr;
    char name[128] = "(not a kernel)";
    if (aclrtGetFuncHandleFromExceptionInfo(info, &func) == ACL_SUCCESS) {
        (void)aclrtGetFunctionName(func, sizeof(name), name);
    }
    g_kernelName = name;
    g_exceptions++;
}

} // namespace

int main()
{
    constexpr uint32_t kCount = 4096;
    constexpr uint32_t kBlocks = 8;
    const size_t bytes = kCount * sizeof(float);
    std::vector<float> host(kCount), back(kCount);
    for (uint32_t i = 0; i < kCount; ++i) host[i] = static_cast<float>(i % 100) + 0.5f;

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    CHECK_ACL(aclrtExceptionInfoCallbackRegister(OnException));

    void* data = nullptr;
    void* copy = nullptr;
    CHECK_ACL(aclrtMalloc(&data, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&copy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(data, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemset(copy, bytes, 0, bytes));

    // 1. The faulting kernel on a stop-on-failure stream.
    aclrtStream failing = nullptr;
    CHECK_ACL(aclrtCreateStream(&failing));
    CHECK_ACL(aclrtSetStreamFailureMode(failing, ACL_STOP_ON_FAILURE));
    int32_t failingId = -1;
    CHECK_ACL(aclrtStreamGetId(failing, &failingId));
    CHECK_ACL(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(ScaleWithBadBlock)(kBlocks, failing, data, 2.0f, kCount, 3)));
    uint32_t launchedTask = 0;
    CHECK_ACL(aclrtGetThreadLastTaskId(&launchedTask));
    CHECK_ACL(aclrtMemcpyAsync(copy, bytes, data, bytes, ACL_MEMCPY_DEVICE_TO_DEVICE, failing));
    const aclError syncRet = aclrtSynchronizeStream(failing);
    const char* syncMsg = aclGetRecentErrMsg();
    std::printf("aclrtSynchronizeStream returned %d\n  %s\n", static_cast<int>(syncRet),
                syncMsg != nullptr ? syncMsg : "(no message)");
    bool ok = syncRet == ACL_ERROR_RT_VECTOR_CORE_EXCEPTION;
    {
        std::lock_guard<std::mutex> lock(g_mutex);
        std::printf("exception callback: kernel %s, task %u (launched %u), stream %u (created %d), device %u, "
                    "error %u\n",
                    g_kernelName.c_str(), g_taskId, launchedTask, g_streamId, failingId, g_deviceId, g_errorCode);
        ok = ok && g_exceptions.load() == 1 && g_kernelName == "ScaleWithBadBlock" && g_taskId == launchedTask &&
             g_streamId == static_cast<uint32_t>(failingId) && g_deviceId == 0 &&
             g_errorCode == static_cast<uint32_t>(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    }
    CHECK_ACL(aclrtMemcpy(back.data(), bytes, copy, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    bool copyDiscarded = true;
    for (uint32_t i = 0; i < kCount; ++i) copyDiscarded = copyDiscarded && back[i] == 0.0f;
    std::printf("the copy queued after the failed kernel was %s\n", copyDiscarded ? "discarded" : "executed (wrong)");
    ok = ok && copyDiscarded;
    CHECK_ACL(aclrtDestroyStreamForce(failing));

    // 2. The device keeps working.
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    CHECK_ACL(aclrtMemcpy(data, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(static_cast<aclError>(ACLRT_LAUNCH_KERNEL(Scale)(kBlocks, stream, data, 3.0f, kCount)));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(back.data(), bytes, data, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
    uint32_t wrong = 0;
    for (uint32_t i = 0; i < kCount; ++i) wrong += back[i] != host[i] * 3.0f;
    std::printf("Scale on a new stream after the fault: %u of %u elements wrong\n", wrong, kCount);
    ok = ok && wrong == 0;

    CHECK_ACL(aclrtExceptionInfoCallbackUnregister(OnException));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtFree(data));
    CHECK_ACL(aclrtFree(copy));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    std::printf("%s\n", ok ? "kernel_fault: the fault was contained" : "kernel_fault: FAILED");
    return ok ? 0 : 1;
}
