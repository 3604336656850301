/* A minimal npurt kernel binary, the seed of fuzz_kernel_binary (make_kernel_seeds.sh builds it
 * without the C library: no constructors, no dependencies, a few kilobytes). Two kernels with
 * parameters, so every part of the kernel table is present. Variants for near-valid seeds:
 *   -DSEED_MAGIC=<n>  -DSEED_ABI=<n>  -DSEED_COUNT=<n>  -DSEED_NO_TABLE */
#include "npurt/kernel_abi.h"

#ifndef SEED_MAGIC
#define SEED_MAGIC NPURT_KERNEL_TABLE_MAGIC
#endif
#ifndef SEED_ABI
#define SEED_ABI NPURT_KERNEL_ABI_VERSION
#endif
#ifndef SEED_COUNT
#define SEED_COUNT 2u
#endif

typedef struct { float* x; float* y; unsigned n; } add_args;

static void add_kernel(float* x, float* y, unsigned n) {
  for (unsigned i = 0; i < n; ++i) y[i] += x[i];
}
static void add_entry(const void* args, const npurt_kernel_block* block) {
  const add_args* a = (const add_args*)args;
  (void)block;
  add_kernel(a->x, a->y, a->n);
}
static void empty_kernel(void) {}
static void empty_entry(const void* args, const npurt_kernel_block* block) {
  (void)args;
  (void)block;
  empty_kernel();
}

static const npurt_kernel_param add_params[] = {
    {0, 8, 8, NPURT_KERNEL_PARAM_POINTER, "GM_ADDR", "x"},
    {8, 8, 8, NPURT_KERNEL_PARAM_POINTER, "GM_ADDR", "y"},
    {16, 4, 4, NPURT_KERNEL_PARAM_SCALAR, "uint32_t", "n"},
};
static const npurt_kernel_desc add_desc = {"seed_add", add_entry, (const void*)add_kernel, sizeof(add_args), 3,
                                           add_params, 0, 0, "kernel_seed.c"};
static const npurt_kernel_desc empty_desc = {"seed_empty", empty_entry, (const void*)empty_kernel, 0, 0, 0, 0, 0,
                                             "kernel_seed.c"};
static const npurt_kernel_desc* const kernels[] = {&add_desc, &empty_desc};

#ifndef SEED_NO_TABLE
__attribute__((visibility("default"))) const npurt_kernel_table_t npurt_kernel_table = {
    SEED_MAGIC, SEED_ABI, SEED_COUNT, 0u, kernels, "fuzz_seed"};
#else
__attribute__((visibility("default"))) const npurt_kernel_desc* const not_a_table = &add_desc;
#endif
