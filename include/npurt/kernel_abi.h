/* The npurt kernel binary ABI: what a kernel binary built by npurt's Ascend C toolchain for the
 * simulated NPU (tools/ascendc, `ascendc_library` / `ascendc_fatbin_library`) contains, and what the
 * runtime hands to kernel code running on a simulated AI core.
 *
 * A kernel binary is a host ELF shared object. It exports one object, `npurt_kernel_table`
 * (NPURT_KERNEL_TABLE_SYMBOL), listing its kernels. For each kernel the toolchain generates an entry
 * function that unpacks the packed argument block and calls the kernel:
 *
 *   - the argument block is the natural C layout of the kernel's parameters, in order: a struct with
 *     one member per parameter (so `void* args[] = {x, y, z}` is the block of a kernel taking three
 *     pointers); `params` gives each parameter's offset, size and alignment and `args_size` the size
 *     of the whole block (0 for a kernel without parameters);
 *   - the runtime calls `entry(args, block)` once per block, on the simulated AI core that runs it,
 *     with `block` describing that block (index, count, the core's unified buffer, runtime services).
 *
 * This header is C (C99 and later, and C++): the runtime, the generated code and third-party tools
 * that inspect kernel binaries all include it. The layout is versioned: a binary whose `abi_version`
 * differs from NPURT_KERNEL_ABI_VERSION is rejected at load with a clear error.
 */
#ifndef NPURT_KERNEL_ABI_H_
#define NPURT_KERNEL_ABI_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NPURT_KERNEL_TABLE_SYMBOL "npurt_kernel_table"
#define NPURT_KERNEL_TABLE_MAGIC 0x4e4b5442u /* "NKTB" */
#define NPURT_KERNEL_ABI_VERSION 1u

/* What a parameter is: pointers are device (global memory) addresses. */
typedef enum npurt_kernel_param_kind {
    NPURT_KERNEL_PARAM_SCALAR = 0,
    NPURT_KERNEL_PARAM_POINTER = 1
} npurt_kernel_param_kind;

typedef struct npurt_kernel_param {
    uint32_t offset; /* byte offset in the argument block */
    uint32_t size;   /* sizeof the parameter's type */
    uint32_t align;  /* alignof the parameter's type */
    uint32_t kind;   /* npurt_kernel_param_kind */
    const char* type; /* the type as written in the kernel source, e.g. "GM_ADDR" */
    const char* name; /* the parameter's name ("" if unnamed) */
} npurt_kernel_param;

/* Services of the runtime available to kernel code (through npurt_kernel_block.services). */
typedef struct npurt_kernel_services {
    uint32_t struct_size; /* sizeof(npurt_kernel_services) of the runtime: newer fields are appended */
    uint32_t reserved;
    /* Fails the running kernel: the block stops here, the launch fails with `code` (an ACL error
     * code) and `message`. Does not return. */
    void (*fail)(int32_t code, const char* message);
    /* Prints `len` bytes of text from the running block; the runtime writes whole lines, each prefixed
     * with the block index. */
    void (*print)(const char* text, size_t len);
    /* Device-memory checking (NPURT_SIM_MEMCHECK=1), NULL when off: fails the kernel unless
     * [addr, addr + size) lies inside one live device allocation. `what` names the access. */
    void (*check_global)(const void* addr, uint64_t size, int32_t is_write, const char* what);
    /* Reports that a vector instruction of the running block produced Inf/NaN (float overflow). The
     * runtime raises the device's overflow status when the launch's stream checks overflow
     * (aclrtSetStreamOverflowSwitch). Check struct_size before calling: older runtimes lack it. */
    void (*report_overflow)(void);
    /* Barrier across the blocks of a co-operative launch (SyncAll): returns once `count` blocks of the
     * running launch have called it for this round (count = block_num for the whole launch). Fails the
     * kernel if the launch is not co-operative (NPURT_KERNEL_FLAG_COOPERATIVE) or another block failed.
     * Check struct_size before calling: older runtimes lack it. */
    void (*sync_all)(uint32_t count);
    /* Cross-core flags of a co-operative launch (CrossCoreSetFlag / CrossCoreWaitFlag) between the
     * participants of mixed kernels (NPURT_KERNEL_FLAG_AIV_*): `mode` 0 (every vector participant of the
     * launch), 1 (the vector participants of the block) or 2 (the cube participant and the vector ones of
     * the block), `flag` 0..15. A set counts for the running participant; once every setter of its scope
     * has set (mode 2 from the cube side: at once) the counters of the receivers go up by one.
     * `cross_wait` waits until the running participant's counter of (`mode`, `flag`) is non-zero and
     * takes one from it. Same failure rules as sync_all. Check struct_size before calling. */
    void (*cross_set)(uint32_t mode, uint32_t flag);
    void (*cross_wait)(uint32_t mode, uint32_t flag);
} npurt_kernel_services;

/* One block of a launch, as the running kernel sees it. Valid while the entry runs. */
typedef struct npurt_kernel_block {
    uint32_t block_idx;  /* 0 .. block_num - 1 (plus the launch's block offset) */
    uint32_t block_num;  /* numBlocks of the launch */
    uint32_t core_id;    /* the simulated AI core running the block */
    /* Which participant of the block runs (mixed kernels, NPURT_KERNEL_FLAG_AIV_*): bits 0-7 the vector
     * (AIV) sub-block index, bit 8 set for the cube (AIC) part, bit 9 set when the block has a cube part,
     * bits 16-23 the AIV sub-blocks per block (0 for a plain kernel, whose one participant is the block). */
    uint32_t sub_block;
    void* ub_base;       /* this core's unified buffer */
    uint64_t ub_size;    /* its capacity in bytes */
    const npurt_kernel_services* services;
} npurt_kernel_block;

typedef void (*npurt_kernel_entry)(const void* args, const npurt_kernel_block* block);

/* npurt_kernel_desc.flags: the kernel synchronises across blocks (SyncAll), so every
 * block of a launch must run at once (co-operative launch). */
#define NPURT_KERNEL_FLAG_COOPERATIVE 1u
/* Mixed cube/vector kernels (KERNEL_TYPE_MIX_AIC_1_2, __mix__(1, 2)): bits 8-11 hold the vector (AIV)
 * sub-blocks per block (0: a plain kernel); NPURT_KERNEL_FLAG_AIC_PART adds a cube (AIC) participant per
 * block, for kernels with code of their own for it (ASCEND_IS_AIC, g_coreType, cross-core flags). With no
 * vector sub-blocks it makes the block's one participant a cube one (a cube kernel). */
#define NPURT_KERNEL_FLAG_AIV_SHIFT 8u
#define NPURT_KERNEL_FLAG_AIV_MASK (0xfu << NPURT_KERNEL_FLAG_AIV_SHIFT)
#define NPURT_KERNEL_FLAG_AIC_PART (1u << 12)

typedef struct npurt_kernel_desc {
    const char* name;            /* the kernel's name (aclrtBinaryGetFunction) */
    npurt_kernel_entry entry;    /* generated entry: unpacks the argument block, calls the kernel */
    const void* function;        /* the kernel function itself */
    uint32_t args_size;          /* bytes of the argument block */
    uint32_t param_count;
    const npurt_kernel_param* params;
    uint32_t kernel_type;        /* aclrtKernelType (0 = AI core) */
    uint32_t flags;              /* NPURT_KERNEL_FLAG_* (0 in binaries of older generators) */
    const char* source;          /* the source file that defines the kernel */
} npurt_kernel_desc;

typedef struct npurt_kernel_table {
    uint32_t magic;        /* NPURT_KERNEL_TABLE_MAGIC */
    uint32_t abi_version;  /* NPURT_KERNEL_ABI_VERSION */
    uint32_t kernel_count;
    uint32_t reserved;
    const npurt_kernel_desc* const* kernels;
    const char* library;   /* the ascendc library or fatbin the binary was built as */
} npurt_kernel_table_t;  /* _t: the exported object itself is called npurt_kernel_table */

#ifdef __cplusplus
}
#endif

#endif /* NPURT_KERNEL_ABI_H_ */
