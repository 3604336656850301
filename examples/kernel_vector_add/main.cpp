/*
 * kernel_vector_add: z = x + alpha * y on the NPU, launched with <<<>>> from a kernel library.
 *
 * Copies two random vectors to the device, launches the VectorAdd kernel on 16 blocks through the host
 * function of the kernel library (vector_add_kernel.cpp), copies the result back and checks every element
 * against the same computation on the host. Exit status 0 only if all of them match.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "acl/acl.h"
#include "vector_add_kernel.h"

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

int main()
{
    constexpr uint32_t kCount = 1 << 20;
    constexpr uint32_t kBlocks = 16;
    constexpr float kAlpha = 0.5f;
    const size_t bytes = kCount * sizeof(float);

    std::vector<float> x(kCount), y(kCount), z(kCount, 0.0f);
    std::mt19937 rng(2024);
    std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
    for (uint32_t i = 0; i < kCount; ++i) {
        x[i] = dist(rng);
        y[i] = dist(rng);
    }

    CHECK_ACL(aclInit(nullptr));
    CHECK_ACL(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK_ACL(aclrtCreateStream(&stream));
    void* dx = nullptr;
    void* dy = nullptr;
    void* dz = nullptr;
    CHECK_ACL(aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK_ACL(aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE));

    CHECK_ACL(LaunchVectorAdd(kBlocks, stream, static_cast<float*>(dx), static_cast<float*>(dy),
                              static_cast<float*>(dz), kAlpha, kCount));
    CHECK_ACL(aclrtSynchronizeStream(stream));
    CHECK_ACL(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));

    uint32_t wrong = 0;
    for (uint32_t i = 0; i < kCount; ++i) {
        const float want = x[i] + kAlpha * y[i];
        if (z[i] != want) {
            if (wrong < 5) std::printf("  z[%u] = %f, expected %f\n", i, z[i], want);
            ++wrong;
        }
    }
    std::printf("VectorAdd<<<%u, nullptr, stream>>> over %u floats: %u mismatches\n", kBlocks, kCount, wrong);

    CHECK_ACL(aclrtFree(dx));
    CHECK_ACL(aclrtFree(dy));
    CHECK_ACL(aclrtFree(dz));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return wrong == 0 ? 0 : 1;
}
