/* The kernel binary of the HAL CTS kernel tests (kernel_test.cc), written by hand against the kernel ABI
 * (include/npurt/kernel_abi.h) instead of built by the Ascend C toolchain, so that the suite tests the
 * driver's loader and AI cores alone. Two kernels and one exported global:
 *   axpy(GM_ADDR x, GM_ADDR y, float alpha, uint32_t n): y[i] += alpha * x[i], the blocks splitting [0, n);
 *   fail_on(uint32_t block): the block of that index fails the launch with code 507015 and a message;
 *   cts_kernel_global: a 16-byte global variable. */
#include <stddef.h>
#include <stdint.h>

#include "npurt/kernel_abi.h"

#define CTS_EXPORT __attribute__((visibility("default")))

CTS_EXPORT uint32_t cts_kernel_global[4] = {1, 2, 3, 4};

typedef struct {
    float* x;
    float* y;
    float alpha;
    uint32_t n;
} axpy_args;

static void axpy(float* x, float* y, float alpha, uint32_t n, const npurt_kernel_block* block) {
    const uint32_t per = (n + block->block_num - 1) / block->block_num;
    const uint32_t begin = block->block_idx * per;
    const uint32_t end = begin + per < n ? begin + per : n;
    for (uint32_t i = begin; i < end; ++i) y[i] += alpha * x[i];
}

static void axpy_entry(const void* args, const npurt_kernel_block* block) {
    const axpy_args* a = (const axpy_args*)args;
    axpy(a->x, a->y, a->alpha, a->n, block);
}

static void fail_on_entry(const void* args, const npurt_kernel_block* block) {
    const uint32_t* which = (const uint32_t*)args;
    if (block->block_idx == *which) block->services->fail(507015, "the CTS kernel failed on purpose");
}

static const npurt_kernel_param axpy_params[] = {
    {offsetof(axpy_args, x), sizeof(float*), _Alignof(float*), NPURT_KERNEL_PARAM_POINTER, "GM_ADDR", "x"},
    {offsetof(axpy_args, y), sizeof(float*), _Alignof(float*), NPURT_KERNEL_PARAM_POINTER, "GM_ADDR", "y"},
    {offsetof(axpy_args, alpha), sizeof(float), _Alignof(float), NPURT_KERNEL_PARAM_SCALAR, "float", "alpha"},
    {offsetof(axpy_args, n), sizeof(uint32_t), _Alignof(uint32_t), NPURT_KERNEL_PARAM_SCALAR, "uint32_t", "n"},
};
static const npurt_kernel_param fail_on_params[] = {
    {0, sizeof(uint32_t), _Alignof(uint32_t), NPURT_KERNEL_PARAM_SCALAR, "uint32_t", "block"},
};

static const npurt_kernel_desc axpy_desc = {
    "axpy", axpy_entry, (const void*)axpy, sizeof(axpy_args), 4, axpy_params, 0, 0, "cts_kernels.c"};
static const npurt_kernel_desc fail_on_desc = {
    "fail_on", fail_on_entry, NULL, sizeof(uint32_t), 1, fail_on_params, 0, 0, "cts_kernels.c"};
static const npurt_kernel_desc* const kernels[] = {&axpy_desc, &fail_on_desc};

CTS_EXPORT const npurt_kernel_table_t npurt_kernel_table = {
    NPURT_KERNEL_TABLE_MAGIC, NPURT_KERNEL_ABI_VERSION, 2, 0, kernels, "hal_cts_kernels"};
