/*
 * callbacks: host callbacks in stream order.
 *
 * Stream A is served by a report thread of our own: aclrtSubscribeReport binds the thread to the stream and
 * the thread loops on aclrtProcessReport(timeout). On stream A, kRounds rounds of
 *     H2D(src_i -> dev_i), D2H(dev_i -> dst_i), aclrtLaunchCallback(check_i, BLOCK or NO_BLOCK alternately)
 * are queued. Each callback checks that it runs in stream order, on the subscribed thread, and that dst_i
 * already holds src_i (the copies before it in the stream are complete).
 * Then a BLOCK callback writes a pattern into a pinned host buffer and the stream copies that buffer
 * H2D -> D2H right after it: the copy must see the pattern, because a blocking callback holds back the
 * stream's later tasks until it returns.
 *
 * Stream B (host functions and report callbacks are not mixed on one stream) runs the same check with
 * aclrtLaunchHostFunc, whose functions run on a runtime-owned thread and always block the stream.
 *
 * Exit status 0 only if every check passed.
 */
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <thread>
#include <vector>

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

constexpr int32_t kDeviceId = 0;
constexpr int kRounds = 8;
constexpr int kHostFuncRounds = 4;
constexpr size_t kBytes = 256 * 1024;
constexpr int32_t kReportTimeoutMs = 100;
constexpr uint8_t kBlockPattern = 0x3C;
constexpr uint8_t kHostFuncPattern = 0xC3;

// What the callbacks observed; written by the callback threads, read by main after the streams drained.
struct Observations {
    pthread_t reportThread{};
    std::atomic<int> nextCallback{0};
    std::atomic<int> callbacksRun{0};
    std::atomic<int> outOfOrder{0};
    std::atomic<int> wrongThread{0};
    std::atomic<int> dataNotReady{0};
    std::atomic<int> nextHostFunc{0};
    std::atomic<int> hostFuncsRun{0};
    std::atomic<int> hostFuncOutOfOrder{0};
    std::atomic<int> hostFuncDataNotReady{0};
    std::atomic<int> hostFuncOnReportThread{0};
};

struct CopyCheck {
    Observations* obs = nullptr;
    int index = 0;
    const uint8_t* expected = nullptr;  // src_i
    const uint8_t* actual = nullptr;    // dst_i, filled by the D2H copy queued before the callback
};

struct PatternWrite {
    uint8_t* buffer = nullptr;
    uint8_t value = 0;
};

// --- functions called by the runtime ---------------------------------------------------------------------
void CheckCopied(void* userData) {
    auto* c = static_cast<CopyCheck*>(userData);
    Observations& obs = *c->obs;
    if (obs.nextCallback.fetch_add(1) != c->index) {
        obs.outOfOrder++;
    }
    if (!pthread_equal(pthread_self(), obs.reportThread)) {
        obs.wrongThread++;
    }
    if (std::memcmp(c->expected, c->actual, kBytes) != 0) {
        obs.dataNotReady++;
    }
    obs.callbacksRun++;
}

void WritePattern(void* userData) {
    auto* w = static_cast<PatternWrite*>(userData);
    // Give a non-blocking runtime every chance to run the next copy early: a blocking callback must hold it.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::memset(w->buffer, w->value, kBytes);
}

void HostFuncCheckCopied(void* args) {
    auto* c = static_cast<CopyCheck*>(args);
    Observations& obs = *c->obs;
    if (obs.nextHostFunc.fetch_add(1) != c->index) {
        obs.hostFuncOutOfOrder++;
    }
    if (pthread_equal(pthread_self(), obs.reportThread)) {
        obs.hostFuncOnReportThread++;
    }
    if (std::memcmp(c->expected, c->actual, kBytes) != 0) {
        obs.hostFuncDataNotReady++;
    }
    obs.hostFuncsRun++;
}

// --- the report thread -------------------------------------------------------------------------------------
struct ReportThread {
    pthread_t tid{};
    aclrtContext context = nullptr;
    std::atomic<bool> stop{false};
    bool started = false;
};

void* ReportLoop(void* arg) {
    auto* rt = static_cast<ReportThread*>(arg);
    if (aclrtSetCurrentContext(rt->context) != ACL_SUCCESS) {
        std::fprintf(stderr, "[ERROR] report thread: aclrtSetCurrentContext failed\n");
        return nullptr;
    }
    while (!rt->stop.load()) {
        // ACL_SUCCESS after running a callback, a timeout code when none came within the timeout, another
        // error while the thread is not (yet, or no longer) subscribed: all mean "check the flag, go on".
        const aclError ret = aclrtProcessReport(kReportTimeoutMs);
        if (ret != ACL_SUCCESS && ret != ACL_ERROR_RT_REPORT_TIMEOUT && ret != ACL_ERROR_WAIT_CALLBACK_TIMEOUT) {
            std::this_thread::sleep_for(std::chrono::milliseconds(1));  // not subscribed: don't spin
        }
    }
    return nullptr;
}

// --- the program -------------------------------------------------------------------------------------------
// Everything the runtime may still touch lives here until Teardown, so a failed run never leaves a queued
// callback pointing at a destroyed object.
struct Resources {
    aclrtStream streamA = nullptr;  // report callbacks
    aclrtStream streamB = nullptr;  // host functions
    std::vector<uint8_t*> hostBuffers;
    std::vector<void*> deviceBuffers;
    ReportThread report;
    bool subscribed = false;
    Observations obs;
    CopyCheck checks[kRounds];
    CopyCheck hostFuncChecks[kHostFuncRounds];
    PatternWrite blockWrite;
    PatternWrite hostFuncWrite;
};

bool MallocHost(Resources& r, uint8_t** out) {
    void* p = nullptr;
    CHECK_ACL(aclrtMallocHost(&p, kBytes));
    r.hostBuffers.push_back(static_cast<uint8_t*>(p));
    *out = static_cast<uint8_t*>(p);
    return true;
}

bool MallocDevice(Resources& r, void** out) {
    CHECK_ACL(aclrtMalloc(out, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    r.deviceBuffers.push_back(*out);
    return true;
}

// src -> device -> dst on `stream`.
bool RoundTrip(uint8_t* dst, void* dev, const uint8_t* src, aclrtStream stream) {
    CHECK_ACL(aclrtMemcpyAsync(dev, kBytes, src, kBytes, ACL_MEMCPY_HOST_TO_DEVICE, stream));
    CHECK_ACL(aclrtMemcpyAsync(dst, kBytes, dev, kBytes, ACL_MEMCPY_DEVICE_TO_HOST, stream));
    return true;
}

bool Run(Resources& r) {
    Observations& obs = r.obs;
    CHECK_ACL(aclrtCreateStream(&r.streamA));
    CHECK_ACL(aclrtCreateStream(&r.streamB));
    CHECK_ACL(aclrtGetCurrentContext(&r.report.context));

    // The report thread, bound to stream A.
    if (pthread_create(&r.report.tid, nullptr, ReportLoop, &r.report) != 0) {
        std::fprintf(stderr, "[ERROR] pthread_create failed\n");
        return false;
    }
    r.report.started = true;
    obs.reportThread = r.report.tid;
    CHECK_ACL(aclrtSubscribeReport(static_cast<uint64_t>(r.report.tid), r.streamA));
    r.subscribed = true;

    std::mt19937 rng(7u);
    auto fillRandom = [&rng](uint8_t* p) {
        for (size_t i = 0; i < kBytes; ++i) {
            p[i] = static_cast<uint8_t>(rng() >> 24);
        }
    };

    // Stream A: copies interleaved with BLOCK / NO_BLOCK callbacks.
    for (int i = 0; i < kRounds; ++i) {
        uint8_t* src = nullptr;
        uint8_t* dst = nullptr;
        void* dev = nullptr;
        if (!MallocHost(r, &src) || !MallocHost(r, &dst) || !MallocDevice(r, &dev)) {
            return false;
        }
        fillRandom(src);
        std::memset(dst, 0, kBytes);
        r.checks[i] = CopyCheck{&obs, i, src, dst};
        if (!RoundTrip(dst, dev, src, r.streamA)) {
            return false;
        }
        const aclrtCallbackBlockType mode = (i % 2 == 0) ? ACL_CALLBACK_BLOCK : ACL_CALLBACK_NO_BLOCK;
        CHECK_ACL(aclrtLaunchCallback(CheckCopied, &r.checks[i], mode, r.streamA));
    }

    // Stream A: a blocking callback writes the pattern that the next copy must see.
    uint8_t* patched = nullptr;
    uint8_t* patchedOut = nullptr;
    void* patchedDev = nullptr;
    if (!MallocHost(r, &patched) || !MallocHost(r, &patchedOut) || !MallocDevice(r, &patchedDev)) {
        return false;
    }
    std::memset(patched, 0, kBytes);
    std::memset(patchedOut, 0, kBytes);
    r.blockWrite = PatternWrite{patched, kBlockPattern};
    CHECK_ACL(aclrtLaunchCallback(WritePattern, &r.blockWrite, ACL_CALLBACK_BLOCK, r.streamA));
    if (!RoundTrip(patchedOut, patchedDev, patched, r.streamA)) {
        return false;
    }

    // Stream B: the same with host functions.
    for (int i = 0; i < kHostFuncRounds; ++i) {
        uint8_t* src = nullptr;
        uint8_t* dst = nullptr;
        void* dev = nullptr;
        if (!MallocHost(r, &src) || !MallocHost(r, &dst) || !MallocDevice(r, &dev)) {
            return false;
        }
        fillRandom(src);
        std::memset(dst, 0, kBytes);
        r.hostFuncChecks[i] = CopyCheck{&obs, i, src, dst};
        if (!RoundTrip(dst, dev, src, r.streamB)) {
            return false;
        }
        CHECK_ACL(aclrtLaunchHostFunc(r.streamB, HostFuncCheckCopied, &r.hostFuncChecks[i]));
    }
    uint8_t* hostFuncPatched = nullptr;
    uint8_t* hostFuncPatchedOut = nullptr;
    void* hostFuncPatchedDev = nullptr;
    if (!MallocHost(r, &hostFuncPatched) || !MallocHost(r, &hostFuncPatchedOut) ||
        !MallocDevice(r, &hostFuncPatchedDev)) {
        return false;
    }
    std::memset(hostFuncPatched, 0, kBytes);
    std::memset(hostFuncPatchedOut, 0, kBytes);
    r.hostFuncWrite = PatternWrite{hostFuncPatched, kHostFuncPattern};
    CHECK_ACL(aclrtLaunchHostFunc(r.streamB, WritePattern, &r.hostFuncWrite));
    if (!RoundTrip(hostFuncPatchedOut, hostFuncPatchedDev, hostFuncPatched, r.streamB)) {
        return false;
    }

    CHECK_ACL(aclrtSynchronizeStream(r.streamA));
    CHECK_ACL(aclrtSynchronizeStream(r.streamB));
    // A NO_BLOCK callback may still be on its way to the report thread when the stream has drained.
    for (int waited = 0; obs.callbacksRun.load() < kRounds && waited < 5000; waited += 10) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }

    CHECK_ACL(aclrtUnSubscribeReport(static_cast<uint64_t>(r.report.tid), r.streamA));
    r.subscribed = false;

    bool ok = true;
    auto expect = [&ok](bool good, const char* what) {
        std::printf("  [%s] %s\n", good ? "ok" : "FAIL", what);
        ok = ok && good;
    };
    std::printf("aclrtLaunchCallback on a subscribed stream (%d callbacks, BLOCK and NO_BLOCK alternating):\n",
                kRounds);
    expect(obs.callbacksRun.load() == kRounds, "every callback ran exactly once");
    expect(obs.outOfOrder.load() == 0, "callbacks ran in stream order");
    expect(obs.wrongThread.load() == 0, "callbacks ran on the subscribed report thread");
    expect(obs.dataNotReady.load() == 0, "the copies queued before each callback had completed");
    bool blockSeen = true;
    for (size_t i = 0; i < kBytes; ++i) {
        blockSeen = blockSeen && patchedOut[i] == kBlockPattern;
    }
    expect(blockSeen, "a BLOCK callback held back the next copy until it returned");

    std::printf("aclrtLaunchHostFunc (%d host functions):\n", kHostFuncRounds);
    expect(obs.hostFuncsRun.load() == kHostFuncRounds, "every host function ran exactly once");
    expect(obs.hostFuncOutOfOrder.load() == 0, "host functions ran in stream order");
    expect(obs.hostFuncDataNotReady.load() == 0, "the copies queued before each host function had completed");
    bool hostFuncSeen = true;
    for (size_t i = 0; i < kBytes; ++i) {
        hostFuncSeen = hostFuncSeen && hostFuncPatchedOut[i] == kHostFuncPattern;
    }
    expect(hostFuncSeen, "a host function held back the next copy until it returned");
    std::printf("  (host functions ran on %s)\n",
                obs.hostFuncOnReportThread.load() == 0 ? "a runtime thread" : "the report thread");
    return ok;
}

// Drains the streams while the report thread still serves them, stops the thread, then releases streams and
// memory in the documented order.
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
    for (aclrtStream s : {r.streamA, r.streamB}) {
        if (s != nullptr) {
            check(aclrtSynchronizeStream(s), "aclrtSynchronizeStream");
        }
    }
    if (r.subscribed) {
        check(aclrtUnSubscribeReport(static_cast<uint64_t>(r.report.tid), r.streamA), "aclrtUnSubscribeReport");
    }
    if (r.report.started) {
        r.report.stop.store(true);
        pthread_join(r.report.tid, nullptr);
    }
    for (aclrtStream s : {r.streamA, r.streamB}) {
        if (s != nullptr) {
            check(aclrtDestroyStream(s), "aclrtDestroyStream");
        }
    }
    for (void* p : r.deviceBuffers) {
        check(aclrtFree(p), "aclrtFree");
    }
    for (uint8_t* p : r.hostBuffers) {
        check(aclrtFreeHost(p), "aclrtFreeHost");
    }
    return ok;
}

bool Main() {
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(kDeviceId));
    Resources resources;
    const bool ran = Run(resources);
    const bool released = Teardown(resources);
    CHECK_ACL(aclrtResetDevice(kDeviceId));
    CHECK_ACL(aclFinalize());
    return ran && released;
}

}  // namespace

int main() {
    if (!Main()) {
        std::printf("callbacks: FAILED\n");
        return 1;
    }
    std::printf("callbacks: PASSED\n");
    return 0;
}
