// Stream-ordered memory pools: allocations and frees are queued on streams, so memory freed by one
// stream's work can be reused by later work without a host-side synchronization.
#ifndef NPURT_ACL_ACL_RT_MEMORY_SOMA_H
#define NPURT_ACL_ACL_RT_MEMORY_SOMA_H

#include <stddef.h>

#include "acl_base.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void* aclrtMemPool;  // a pool of device memory

// Pool attributes: reuse policies, the threshold above which idle memory is returned to the device,
// and current/peak byte counts of reserved and used memory.
typedef enum aclrtMemPoolAttr {
    ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
    ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
    ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
    ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,
    ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,
    ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8
} aclrtMemPoolAttr;

// Properties a pool is created with: kind of memory, where it lives and the most it may reserve.
typedef struct {
    aclrtMemAllocationType allocType;
    aclrtMemHandleType handleType;
    aclrtMemLocation location;
    size_t maxSize;
    unsigned char reserved[32];
} aclrtMemPoolProps;

/* ==== [mempool] Stream-ordered memory pools ==== */

// Creates a pool on the device named in poolProps->location.
ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool* memPool, const aclrtMemPoolProps* poolProps);

// Destroys a pool.
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);

// Writes a pool attribute from *value.
ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value);

// Reads a pool attribute into *value.
ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool, aclrtMemPoolAttr attr, void* value);

// Allocates size bytes from a pool, usable by work queued on stream after this call.
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void** ptr, size_t size, aclrtMemPool memPool,
                                                     aclrtStream stream);

// Returns memory to its pool once the work queued on stream before this call has finished.
ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void* ptr, aclrtStream stream);

// Returns idle pool memory to the device, keeping at least minBytesToKeep bytes in the pool.
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool, size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_RT_MEMORY_SOMA_H
