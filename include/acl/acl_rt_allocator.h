// User-supplied allocators. A program describes its own allocator (an object plus alloc/free callbacks)
// and registers it for a stream; components that need workspace for work on that stream then
// allocate through it instead of through the runtime.
#ifndef NPURT_ACL_ACL_RT_ALLOCATOR_H
#define NPURT_ACL_ACL_RT_ALLOCATOR_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

// Returns a block of at least size bytes from the allocator, or NULL.
typedef void* (*aclrtAllocatorAllocFunc)(aclrtAllocator allocator, size_t size);
// Gives a block back to the allocator.
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator, aclrtAllocatorBlock block);
// Like the alloc callback, with a preferred address.
typedef void* (*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator, size_t size, aclrtAllocatorAddr addr);
// Device address of a block returned by the alloc callbacks.
typedef void* (*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/* ==== [allocator] User allocators ==== */

// Creates an empty allocator description; NULL on failure.
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);

// Destroys an allocator description.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);

// Stores the allocator object passed to every callback.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc, aclrtAllocator allocator);

// Stores the alloc callback.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                              aclrtAllocatorAllocFunc func);

// Stores the free callback.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                             aclrtAllocatorFreeFunc func);

// Stores the alloc-with-hint callback.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                    aclrtAllocatorAllocAdviseFunc func);

// Stores the block-to-address callback.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
                                                                         aclrtAllocatorGetAddrFromBlockFunc func);

// Registers the described allocator for a stream.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream, aclrtAllocatorDesc allocatorDesc);

// Allocator registered for a stream, with its callbacks.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc* allocatorDesc,
                                                       aclrtAllocator* allocator,
                                                       aclrtAllocatorAllocFunc* allocFunc,
                                                       aclrtAllocatorFreeFunc* freeFunc,
                                                       aclrtAllocatorAllocAdviseFunc* allocAdviseFunc,
                                                       aclrtAllocatorGetAddrFromBlockFunc* getAddrFromBlockFunc);

// Removes the allocator registered for a stream.
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif  // NPURT_ACL_ACL_RT_ALLOCATOR_H
