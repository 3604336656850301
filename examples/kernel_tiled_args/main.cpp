/*
 * kernel_tiled_args: load a kernel binary and launch it through the argument builder.
 *
 *   aclrtBinaryLoadFromFile(out/fatbin/tiled_add_kernels/tiled_add_kernels.o) -> aclrtBinaryGetFunction
 *   aclrtKernelArgsInit -> Append(x, y, z) -> AppendPlaceHolder(total, tiles) -> GetPlaceHolderBuffer
 *   -> Finalize -> aclrtLaunchKernelWithConfig
 *
 * The tiling values are placeholders: the host writes them into buffers the runtime hands out and the
 * runtime copies them to the device with the launch. The program then changes the tile count with
 * the same argument list (only the placeholder buffer changes) and launches again; both results are
 * checked element by element against the host (half sums rounded to nearest even).
 */
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "acl/acl.h"

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
// Round a float to half precision (nearest even) and back, as the vector unit's half add does.
float RoundToHalf(float v) { return aclFloat16ToFloat(aclFloatToFloat16(v)); }
} // namespace

int main()
{
    constexpr uint32_t kBlocks = 8;
    constexpr uint32_t kTotal = kBlocks * 4096;
    const size_t bytes = kTotal * sizeof(aclFloat16);

    std::vector<aclFloat16> x(kTotal), y(kTotal), z(kTotal);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> dist(-512, 512);
    for (uint32_t i = 0; i < kTotal; ++i) {
        // Multiples of 1/8 in [-64, 64]: every sum is exact in half precision.
        x[i] = aclFloatToFloat16(static_cast<float>(dist(rng)) / 8.0f);
        y[i] = aclFloatToFloat16(static_cast<float>(dist(rng)) / 8.0f);
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

    aclrtBinHandle bin = nullptr;
    CHECK_ACL(aclrtBinaryLoadFromFile(KERNEL_BINARY, nullptr, &bin));
    aclrtFuncHandle func = nullptr;
    CHECK_ACL(aclrtBinaryGetFunction(bin, "tiled_add", &func));

    aclrtArgsHandle args = nullptr;
    aclrtParamHandle param = nullptr;
    aclrtParamHandle totalParam = nullptr;
    aclrtParamHandle tilesParam = nullptr;
    CHECK_ACL(aclrtKernelArgsInit(func, &args));
    CHECK_ACL(aclrtKernelArgsAppend(args, &dx, sizeof(dx), &param));
    CHECK_ACL(aclrtKernelArgsAppend(args, &dy, sizeof(dy), &param));
    CHECK_ACL(aclrtKernelArgsAppend(args, &dz, sizeof(dz), &param));
    CHECK_ACL(aclrtKernelArgsAppendPlaceHolder(args, &totalParam));
    CHECK_ACL(aclrtKernelArgsAppendPlaceHolder(args, &tilesParam));
    uint32_t* total = nullptr;
    uint32_t* tiles = nullptr;
    CHECK_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, totalParam, sizeof(uint32_t), reinterpret_cast<void**>(&total)));
    CHECK_ACL(aclrtKernelArgsGetPlaceHolderBuffer(args, tilesParam, sizeof(uint32_t), reinterpret_cast<void**>(&tiles)));
    *total = kTotal;
    *tiles = 8;
    CHECK_ACL(aclrtKernelArgsFinalize(args));

    int failures = 0;
    for (uint32_t tileNum : {8u, 2u}) {
        *tiles = tileNum;  // placeholder data is read at launch
        CHECK_ACL(aclrtMemset(dz, bytes, 0, bytes));
        CHECK_ACL(aclrtLaunchKernelWithConfig(func, kBlocks, stream, nullptr, args, nullptr));
        CHECK_ACL(aclrtSynchronizeStream(stream));
        CHECK_ACL(aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST));
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < kTotal; ++i) {
            const float want = RoundToHalf(aclFloat16ToFloat(x[i]) + aclFloat16ToFloat(y[i]));
            if (aclFloat16ToFloat(z[i]) != want) ++wrong;
        }
        std::printf("tiled_add on %u blocks, %u tiles per block: %u of %u elements wrong\n", kBlocks, tileNum, wrong,
                    kTotal);
        failures += wrong != 0;
    }

    CHECK_ACL(aclrtBinaryUnLoad(bin));
    CHECK_ACL(aclrtFree(dx));
    CHECK_ACL(aclrtFree(dy));
    CHECK_ACL(aclrtFree(dz));
    CHECK_ACL(aclrtDestroyStream(stream));
    CHECK_ACL(aclrtResetDevice(0));
    CHECK_ACL(aclFinalize());
    return failures == 0 ? 0 : 1;
}
