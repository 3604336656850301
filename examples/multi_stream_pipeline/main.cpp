/*
 * multi_stream_pipeline: a three-stage copy -> transform -> copy pipeline on three streams.
 *
 * K chunks of random bytes (fixed seed) go through
 *   stage 1, copy stream:      H2D   pinned host input chunk -> device input buffer
 *   stage 2, compute stream:   device-side transform into a staging buffer, with runtime ops only:
 *                              head padding  = aclrtMemsetAsync (byte 0xA5)
 *                              payload       = the chunk rotated left by r_k bytes (two D2D copies)
 *                              tail padding  = aclrtMemsetD32Async (word 0x5EEDF00D)
 *   stage 3, d2h stream:       D2H   staging buffer -> pinned host output
 * Device buffers are double-buffered (chunk k uses slot k % 2), so chunk k+1 is copied in while chunk k is
 * transformed and chunk k-1 is copied out. Per-chunk events order the streams:
 *   H2D(k)        waits  transform(k-2) done  (input slot free)
 *   transform(k)  waits  H2D(k) done, D2H(k-2) done (staging slot free)
 *   D2H(k)        waits  transform(k) done
 * The whole run is timed with two events, and every output byte is checked on the host.
 * Exit status 0 only if every byte matches.
 */
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
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
constexpr size_t kChunks = 16;                  // K
constexpr size_t kSlots = 2;                    // double buffering
constexpr size_t kChunkBytes = 1024 * 1024;     // payload per chunk
constexpr size_t kHeadBytes = 4096;             // padding before the payload in the staging buffer
constexpr size_t kTailBytes = 4096;             // padding after it (a whole number of 32-bit words)
constexpr size_t kStagedBytes = kHeadBytes + kChunkBytes + kTailBytes;
constexpr uint8_t kHeadByte = 0xA5;
constexpr uint32_t kTailWord = 0x5EEDF00Du;
constexpr uint32_t kSeed = 20240607u;

// Rotation applied to chunk k (0 < r < kChunkBytes, different for every chunk).
size_t RotationOf(size_t k) { return 1 + (k * 40961 + 12345) % (kChunkBytes - 1); }

struct Pipeline {
    aclrtStream copyStream = nullptr;
    aclrtStream computeStream = nullptr;
    aclrtStream d2hStream = nullptr;
    void* deviceIn[kSlots] = {};
    void* deviceStage[kSlots] = {};
    uint8_t* hostIn = nullptr;   // kChunks * kChunkBytes, pinned
    uint8_t* hostOut = nullptr;  // kChunks * kStagedBytes, pinned
    std::vector<aclrtEvent> h2dDone = std::vector<aclrtEvent>(kChunks, nullptr);
    std::vector<aclrtEvent> transformDone = std::vector<aclrtEvent>(kChunks, nullptr);
    std::vector<aclrtEvent> d2hDone = std::vector<aclrtEvent>(kChunks, nullptr);
    aclrtEvent start = nullptr;
    aclrtEvent stop = nullptr;
};

bool CreateResources(Pipeline& p) {
    CHECK_ACL(aclrtCreateStream(&p.copyStream));
    CHECK_ACL(aclrtCreateStream(&p.computeStream));
    CHECK_ACL(aclrtCreateStream(&p.d2hStream));
    for (size_t s = 0; s < kSlots; ++s) {
        CHECK_ACL(aclrtMalloc(&p.deviceIn[s], kChunkBytes, ACL_MEM_MALLOC_HUGE_FIRST));
        CHECK_ACL(aclrtMalloc(&p.deviceStage[s], kStagedBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    }
    void* host = nullptr;
    CHECK_ACL(aclrtMallocHost(&host, kChunks * kChunkBytes));
    p.hostIn = static_cast<uint8_t*>(host);
    CHECK_ACL(aclrtMallocHost(&host, kChunks * kStagedBytes));
    p.hostOut = static_cast<uint8_t*>(host);
    for (size_t k = 0; k < kChunks; ++k) {
        CHECK_ACL(aclrtCreateEvent(&p.h2dDone[k]));
        CHECK_ACL(aclrtCreateEvent(&p.transformDone[k]));
        CHECK_ACL(aclrtCreateEvent(&p.d2hDone[k]));
    }
    CHECK_ACL(aclrtCreateEvent(&p.start));
    CHECK_ACL(aclrtCreateEvent(&p.stop));
    return true;
}

// Queues all three stages of every chunk; nothing here waits on the host.
bool EnqueuePipeline(Pipeline& p) {
    CHECK_ACL(aclrtRecordEvent(p.start, p.copyStream));
    for (size_t k = 0; k < kChunks; ++k) {
        const size_t slot = k % kSlots;
        uint8_t* in = static_cast<uint8_t*>(p.deviceIn[slot]);
        uint8_t* stage = static_cast<uint8_t*>(p.deviceStage[slot]);

        // Stage 1: H2D, once the transform of the chunk that used this input slot has read it.
        if (k >= kSlots) {
            CHECK_ACL(aclrtStreamWaitEvent(p.copyStream, p.transformDone[k - kSlots]));
        }
        CHECK_ACL(aclrtMemcpyAsync(in, kChunkBytes, p.hostIn + k * kChunkBytes, kChunkBytes,
                                   ACL_MEMCPY_HOST_TO_DEVICE, p.copyStream));
        CHECK_ACL(aclrtRecordEvent(p.h2dDone[k], p.copyStream));

        // Stage 2: transform, once the input is on the device and the staging slot has been copied out.
        CHECK_ACL(aclrtStreamWaitEvent(p.computeStream, p.h2dDone[k]));
        if (k >= kSlots) {
            CHECK_ACL(aclrtStreamWaitEvent(p.computeStream, p.d2hDone[k - kSlots]));
        }
        const size_t r = RotationOf(k);
        uint8_t* payload = stage + kHeadBytes;
        CHECK_ACL(aclrtMemsetAsync(stage, kHeadBytes, kHeadByte, kHeadBytes, p.computeStream));
        CHECK_ACL(aclrtMemcpyAsync(payload, kChunkBytes, in + r, kChunkBytes - r, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                   p.computeStream));
        CHECK_ACL(aclrtMemcpyAsync(payload + (kChunkBytes - r), r, in, r, ACL_MEMCPY_DEVICE_TO_DEVICE,
                                   p.computeStream));
        CHECK_ACL(aclrtMemsetD32Async(payload + kChunkBytes, kTailBytes, kTailWord, kTailBytes / sizeof(uint32_t),
                                      p.computeStream));
        CHECK_ACL(aclrtRecordEvent(p.transformDone[k], p.computeStream));

        // Stage 3: D2H of the staged chunk.
        CHECK_ACL(aclrtStreamWaitEvent(p.d2hStream, p.transformDone[k]));
        CHECK_ACL(aclrtMemcpyAsync(p.hostOut + k * kStagedBytes, kStagedBytes, stage, kStagedBytes,
                                   ACL_MEMCPY_DEVICE_TO_HOST, p.d2hStream));
        CHECK_ACL(aclrtRecordEvent(p.d2hDone[k], p.d2hStream));
    }
    CHECK_ACL(aclrtRecordEvent(p.stop, p.d2hStream));
    return true;
}

// Checks every byte of every staged chunk; returns the number of wrong bytes.
size_t Verify(const Pipeline& p) {
    size_t wrong = 0;
    bool reported = false;
    auto report = [&](size_t k, const char* part, size_t offset, unsigned got, unsigned want) {
        if (!reported) {
            std::printf("[ERROR] chunk %zu %s byte %zu: got 0x%02x, expected 0x%02x\n", k, part, offset, got, want);
            reported = true;
        }
    };
    for (size_t k = 0; k < kChunks; ++k) {
        const uint8_t* out = p.hostOut + k * kStagedBytes;
        const uint8_t* in = p.hostIn + k * kChunkBytes;
        const size_t r = RotationOf(k);
        for (size_t i = 0; i < kHeadBytes; ++i) {
            if (out[i] != kHeadByte) {
                report(k, "head", i, out[i], kHeadByte);
                ++wrong;
            }
        }
        for (size_t i = 0; i < kChunkBytes; ++i) {
            const uint8_t want = in[(i + r) % kChunkBytes];
            if (out[kHeadBytes + i] != want) {
                report(k, "payload", i, out[kHeadBytes + i], want);
                ++wrong;
            }
        }
        uint8_t tail[sizeof(uint32_t)];
        std::memcpy(tail, &kTailWord, sizeof tail);  // the word as it lies in (little-endian) memory
        for (size_t i = 0; i < kTailBytes; ++i) {
            const uint8_t got = out[kHeadBytes + kChunkBytes + i];
            if (got != tail[i % sizeof tail]) {
                report(k, "tail", i, got, tail[i % sizeof tail]);
                ++wrong;
            }
        }
    }
    return wrong;
}

bool Run(Pipeline& p) {
    if (!CreateResources(p)) {
        return false;
    }
    std::mt19937 rng(kSeed);
    for (size_t i = 0; i < kChunks * kChunkBytes; ++i) {
        p.hostIn[i] = static_cast<uint8_t>(rng() >> 24);
    }
    std::memset(p.hostOut, 0, kChunks * kStagedBytes);

    if (!EnqueuePipeline(p)) {
        return false;
    }
    CHECK_ACL(aclrtSynchronizeEvent(p.stop));
    CHECK_ACL(aclrtSynchronizeStream(p.copyStream));
    CHECK_ACL(aclrtSynchronizeStream(p.computeStream));
    CHECK_ACL(aclrtSynchronizeStream(p.d2hStream));

    float ms = 0.0f;
    CHECK_ACL(aclrtEventElapsedTime(&ms, p.start, p.stop));
    const double mib = static_cast<double>(kChunks * (kChunkBytes + kStagedBytes)) / (1024.0 * 1024.0);
    std::printf("pipeline: %zu chunks x %zu KiB through 3 streams in %.3f ms (%.1f MiB copied H2D+D2H, %.0f MiB/s)\n",
                kChunks, kChunkBytes / 1024, ms, mib, ms > 0.0f ? mib * 1000.0 / ms : 0.0);

    const size_t wrong = Verify(p);
    if (wrong != 0) {
        std::printf("[ERROR] verification failed: %zu of %zu bytes wrong\n", wrong, kChunks * kStagedBytes);
        return false;
    }
    std::printf("verified all %zu output bytes (head 0x%02X, rotated payload, tail 0x%08" PRIX32 ")\n",
                kChunks * kStagedBytes, kHeadByte, kTailWord);
    return true;
}

// Releases whatever was created, in the documented order: events, streams, memory; reports failures.
bool Teardown(Pipeline& p) {
    bool ok = true;
    auto check = [&ok](aclError ret, const char* what) {
        if (ret != ACL_SUCCESS) {
            const char* msg = aclGetRecentErrMsg();
            std::fprintf(stderr, "[ERROR] %s failed, error code %d: %s\n", what, static_cast<int>(ret),
                         (msg != nullptr && msg[0] != '\0') ? msg : "(none)");
            ok = false;
        }
    };
    std::vector<aclrtEvent> events;
    events.insert(events.end(), p.h2dDone.begin(), p.h2dDone.end());
    events.insert(events.end(), p.transformDone.begin(), p.transformDone.end());
    events.insert(events.end(), p.d2hDone.begin(), p.d2hDone.end());
    events.push_back(p.start);
    events.push_back(p.stop);
    for (aclrtEvent e : events) {
        if (e != nullptr) {
            check(aclrtDestroyEvent(e), "aclrtDestroyEvent");
        }
    }
    for (aclrtStream s : {p.copyStream, p.computeStream, p.d2hStream}) {
        if (s != nullptr) {
            check(aclrtDestroyStream(s), "aclrtDestroyStream");
        }
    }
    for (size_t s = 0; s < kSlots; ++s) {
        if (p.deviceIn[s] != nullptr) {
            check(aclrtFree(p.deviceIn[s]), "aclrtFree");
        }
        if (p.deviceStage[s] != nullptr) {
            check(aclrtFree(p.deviceStage[s]), "aclrtFree");
        }
    }
    if (p.hostIn != nullptr) {
        check(aclrtFreeHost(p.hostIn), "aclrtFreeHost");
    }
    if (p.hostOut != nullptr) {
        check(aclrtFreeHost(p.hostOut), "aclrtFreeHost");
    }
    return ok;
}

bool Main() {
    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(kDeviceId));
    Pipeline pipeline;
    const bool ran = Run(pipeline);
    const bool released = Teardown(pipeline);
    CHECK_ACL(aclrtResetDevice(kDeviceId));
    CHECK_ACL(aclFinalize());
    return ran && released;
}

}  // namespace

int main() {
    if (!Main()) {
        std::printf("multi_stream_pipeline: FAILED\n");
        return 1;
    }
    std::printf("multi_stream_pipeline: PASSED\n");
    return 0;
}
