/*
 * p2p_copy: device-to-device copies between two devices with peer access.
 *
 *   1. aclrtGetDeviceCount (needs 2 devices) and aclrtDeviceCanAccessPeer in both directions.
 *   2. Without peer access, a copy from device 0 memory to device 1 memory is refused: the program prints
 *      the error code and message (and fails if the copy is accepted).
 *   3. aclrtDeviceEnablePeerAccess both ways, then
 *        sync  aclrtMemcpy       device 0 -> device 1   (issued with device 1 current)
 *        async aclrtMemcpyAsync  device 0 -> device 1   (on a stream of device 0)
 *        async aclrtMemcpyAsync  device 1 -> device 0   (on a stream of device 1)
 *      each verified byte for byte through a D2H copy.
 *   4. aclrtDeviceDisablePeerAccess both ways; the copy is refused again.
 * The thread switches devices with aclrtSetCurrentContext between the two devices' default contexts.
 * Exit status 0 only if every check passed.
 */
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#include "acl/acl.h"

#define CHECK_ACL(expr)                                                                                    \
    do {                                                                                                   \
        const aclError checkRet = (expr);                                                                  \
        if (checkRet != ACL_SUCCESS) {                                                                     \
            const char* checkMsg = aclGetRecentErrMsg();                                                   \
            std::fprintf(stderr, "[ERROR] %s failed, error code %d (%s:%d)\n  recent error message: %s\n", \
                         #expr, static_cast<int>(checkRet), __FILE__, __LINE__,                           \
                         (checkMsg != nullptr && checkMsg[0] != '\0') ? checkMsg : "(none)");             \
            return false;                                                                                  \
        }                                                                                                  \
    } while (0)

namespace {

constexpr size_t kBytes = 4 * 1024 * 1024;
constexpr uint32_t kSeed = 4242u;

struct Resources {
    bool device0Set = false;
    bool device1Set = false;
    aclrtContext ctx0 = nullptr;  // default context of device 0
    aclrtContext ctx1 = nullptr;  // default context of device 1
    aclrtStream stream0 = nullptr;
    aclrtStream stream1 = nullptr;
    void* dev0 = nullptr;      // source data, device 0
    void* dev0Back = nullptr;  // copied back from device 1
    void* dev1Sync = nullptr;  // target of the synchronous copy, device 1
    void* dev1Async = nullptr; // target of the asynchronous copy, device 1
    uint8_t* hostSrc = nullptr;
    uint8_t* hostDst = nullptr;
};

// Copies `dev` (memory of the device whose context is `ctx`) to the host and compares it with the source.
bool VerifyOnHost(Resources& r, aclrtContext ctx, const void* dev, const char* what) {
    CHECK_ACL(aclrtSetCurrentContext(ctx));
    std::memset(r.hostDst, 0, kBytes);
    CHECK_ACL(aclrtMemcpy(r.hostDst, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    size_t wrong = 0;
    size_t first = kBytes;
    for (size_t i = 0; i < kBytes; ++i) {
        if (r.hostDst[i] != r.hostSrc[i]) {
            if (wrong++ == 0) {
                first = i;
            }
        }
    }
    if (wrong != 0) {
        std::printf("  [FAIL] %s: %zu of %zu bytes differ (first at offset %zu)\n", what, wrong, kBytes, first);
        return false;
    }
    std::printf("  [ok] %s: %zu bytes verified\n", what, kBytes);
    return true;
}

// Without peer access the runtime must refuse a device 0 -> device 1 copy.
bool ExpectRefused(Resources& r, const char* when) {
    CHECK_ACL(aclrtSetCurrentContext(r.ctx1));
    const aclError ret = aclrtMemcpy(r.dev1Sync, kBytes, r.dev0, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE);
    if (ret == ACL_SUCCESS) {
        std::printf("  [FAIL] %s: device 0 -> device 1 copy was accepted without peer access\n", when);
        return false;
    }
    const char* msg = aclGetRecentErrMsg();
    std::printf("  [ok] %s: device 0 -> device 1 copy refused with error code %d\n", when, static_cast<int>(ret));
    std::printf("       message: %s\n", (msg != nullptr && msg[0] != '\0') ? msg : "(none)");
    return true;
}

bool Run(Resources& r) {
    uint32_t count = 0;
    CHECK_ACL(aclrtGetDeviceCount(&count));
    std::printf("devices: %u\n", count);
    if (count < 2) {
        std::printf("[ERROR] this example needs 2 devices (the npurt simulator has 2 by default; see "
                    "NPURT_SIM_DEVICE_COUNT and ASCEND_RT_VISIBLE_DEVICES)\n");
        return false;
    }

    // Open both devices; remember their default contexts to switch between them.
    CHECK_ACL(aclrtSetDevice(0));
    r.device0Set = true;
    CHECK_ACL(aclrtGetCurrentContext(&r.ctx0));
    int32_t can01 = 0;
    int32_t can10 = 0;
    CHECK_ACL(aclrtDeviceCanAccessPeer(&can01, 0, 1));
    CHECK_ACL(aclrtDeviceCanAccessPeer(&can10, 1, 0));
    std::printf("aclrtDeviceCanAccessPeer: 0 -> 1: %d, 1 -> 0: %d\n", can01, can10);
    if (can01 != 1 || can10 != 1) {
        std::printf("[ERROR] the devices cannot access each other\n");
        return false;
    }
    CHECK_ACL(aclrtCreateStream(&r.stream0));
    CHECK_ACL(aclrtMalloc(&r.dev0, kBytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CHECK_ACL(aclrtMalloc(&r.dev0Back, kBytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P));

    CHECK_ACL(aclrtSetDevice(1));
    r.device1Set = true;
    CHECK_ACL(aclrtGetCurrentContext(&r.ctx1));
    CHECK_ACL(aclrtCreateStream(&r.stream1));
    CHECK_ACL(aclrtMalloc(&r.dev1Sync, kBytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CHECK_ACL(aclrtMalloc(&r.dev1Async, kBytes, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
    CHECK_ACL(aclrtMemset(r.dev1Sync, kBytes, 0, kBytes));
    CHECK_ACL(aclrtMemset(r.dev1Async, kBytes, 0, kBytes));

    void* host = nullptr;
    CHECK_ACL(aclrtMallocHost(&host, kBytes));
    r.hostSrc = static_cast<uint8_t*>(host);
    CHECK_ACL(aclrtMallocHost(&host, kBytes));
    r.hostDst = static_cast<uint8_t*>(host);
    std::mt19937 rng(kSeed);
    for (size_t i = 0; i < kBytes; ++i) {
        r.hostSrc[i] = static_cast<uint8_t>(rng() >> 24);
    }

    CHECK_ACL(aclrtSetCurrentContext(r.ctx0));
    CHECK_ACL(aclrtMemcpy(r.dev0, kBytes, r.hostSrc, kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemset(r.dev0Back, kBytes, 0, kBytes));

    bool ok = true;
    std::printf("before aclrtDeviceEnablePeerAccess:\n");
    ok = ExpectRefused(r, "no peer access") && ok;

    CHECK_ACL(aclrtSetCurrentContext(r.ctx0));
    CHECK_ACL(aclrtDeviceEnablePeerAccess(1, 0));
    CHECK_ACL(aclrtSetCurrentContext(r.ctx1));
    CHECK_ACL(aclrtDeviceEnablePeerAccess(0, 0));
    std::printf("peer access enabled 0 <-> 1:\n");

    // Synchronous 0 -> 1, issued with device 1 current.
    CHECK_ACL(aclrtSetCurrentContext(r.ctx1));
    CHECK_ACL(aclrtMemcpy(r.dev1Sync, kBytes, r.dev0, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE));
    ok = VerifyOnHost(r, r.ctx1, r.dev1Sync, "aclrtMemcpy      device 0 -> device 1") && ok;

    // Asynchronous 0 -> 1 on a stream of device 0.
    CHECK_ACL(aclrtSetCurrentContext(r.ctx0));
    CHECK_ACL(aclrtMemcpyAsync(r.dev1Async, kBytes, r.dev0, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, r.stream0));
    CHECK_ACL(aclrtSynchronizeStream(r.stream0));
    ok = VerifyOnHost(r, r.ctx1, r.dev1Async, "aclrtMemcpyAsync device 0 -> device 1 (stream of device 0)") && ok;

    // Asynchronous 1 -> 0 on a stream of device 1.
    CHECK_ACL(aclrtSetCurrentContext(r.ctx1));
    CHECK_ACL(aclrtMemcpyAsync(r.dev0Back, kBytes, r.dev1Async, kBytes, ACL_MEMCPY_DEVICE_TO_DEVICE, r.stream1));
    CHECK_ACL(aclrtSynchronizeStream(r.stream1));
    ok = VerifyOnHost(r, r.ctx0, r.dev0Back, "aclrtMemcpyAsync device 1 -> device 0 (stream of device 1)") && ok;

    CHECK_ACL(aclrtSetCurrentContext(r.ctx0));
    CHECK_ACL(aclrtDeviceDisablePeerAccess(1));
    CHECK_ACL(aclrtSetCurrentContext(r.ctx1));
    CHECK_ACL(aclrtDeviceDisablePeerAccess(0));
    std::printf("after aclrtDeviceDisablePeerAccess:\n");
    ok = ExpectRefused(r, "peer access disabled") && ok;
    return ok;
}

// Streams and memory of each device with that device current, then the devices, in the documented order.
bool Teardown(Resources& r) {
    bool ok = true;
    auto check = [&ok](aclError ret, const char* what) {
        if (ret != ACL_SUCCESS) {
            const char* msg = aclGetRecentErrMsg();
            std::fprintf(stderr, "[ERROR] %s failed, error code %d: %s\n", what, static_cast<int>(ret),
                         (msg != nullptr && msg[0] != '\0') ? msg : "(none)");
            ok = false;
        }
    };
    if (r.ctx0 != nullptr) {
        check(aclrtSetCurrentContext(r.ctx0), "aclrtSetCurrentContext");
        if (r.stream0 != nullptr) check(aclrtDestroyStream(r.stream0), "aclrtDestroyStream");
        if (r.dev0 != nullptr) check(aclrtFree(r.dev0), "aclrtFree");
        if (r.dev0Back != nullptr) check(aclrtFree(r.dev0Back), "aclrtFree");
    }
    if (r.ctx1 != nullptr) {
        check(aclrtSetCurrentContext(r.ctx1), "aclrtSetCurrentContext");
        if (r.stream1 != nullptr) check(aclrtDestroyStream(r.stream1), "aclrtDestroyStream");
        if (r.dev1Sync != nullptr) check(aclrtFree(r.dev1Sync), "aclrtFree");
        if (r.dev1Async != nullptr) check(aclrtFree(r.dev1Async), "aclrtFree");
    }
    if (r.hostSrc != nullptr) check(aclrtFreeHost(r.hostSrc), "aclrtFreeHost");
    if (r.hostDst != nullptr) check(aclrtFreeHost(r.hostDst), "aclrtFreeHost");
    if (r.device1Set) check(aclrtResetDevice(1), "aclrtResetDevice(1)");
    if (r.device0Set) check(aclrtResetDevice(0), "aclrtResetDevice(0)");
    return ok;
}

bool Main() {
    CHECK_ACL(aclInit(nullptr));
    Resources resources;
    const bool ran = Run(resources);
    const bool released = Teardown(resources);
    CHECK_ACL(aclFinalize());
    return ran && released;
}

}  // namespace

int main() {
    if (!Main()) {
        std::printf("p2p_copy: FAILED\n");
        return 1;
    }
    std::printf("p2p_copy: PASSED\n");
    return 0;
}
