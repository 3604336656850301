// Built-in device tasks: element-wise reduce (aclrtReduceAsync), random numbers (aclrtRandomNumAsync,
// core/kernel/random_num.cc), cache maintenance (aclrtCmoAsync family) and descriptor-driven copies
// (aclrtMemcpyAsyncWithDesc / WithOffset). Each runs on the device in stream order: reduce, random and
// descriptor copies as dispatches of the driver's built-ins (hal/builtins.h), which read their operands
// when they execute (so earlier tasks of the stream may produce them); cache operations as ordering-only
// tasks, because the simulated device has no cache to maintain.
#pragma once

#include <cstddef>
#include <cstdint>

#include "acl/acl_rt.h"
#include "base/status.h"
#include "hal/task.h"

namespace npurt::core {

class Stream;

// Submits a kDispatch task: `dispatch` (an executable of the stream's device, hal/executable.h, and its
// bindings) runs in stream order; cleanup(cleanup_arg) runs once after it, and the dispatch stays alive
// until then. `task_id` is the id the task has in profiles and dumps (0: the stream assigns one).
void SubmitDispatch(Stream* stream, hal::Dispatch* dispatch, hal::CleanupFn cleanup, void* cleanup_arg,
                    uint32_t task_id);

// Runs fn(arg) on the device's host-function engine in stream order (a kHostFunc task: the stream's earlier
// tasks have finished, its later ones wait for it), then deletes `arg`. For the runtime's own host work
// ordered in a stream (dump files, trace marks); the user's callbacks go through core/callbacks.h.
void SubmitHostWorkTask(Stream* stream, void (*fn)(void*), void* arg, void (*free_arg)(void*));
template <typename T>
void SubmitHostWork(Stream* stream, void (*fn)(void*), T* arg) {
  SubmitHostWorkTask(stream, fn, arg, [](void* p) { delete static_cast<T*>(p); });
}

// A task that does nothing but take its place in stream order (a prefetch, a barrier, a stream activation
// of plain streams).
void SubmitOrderingPoint(Stream* stream);
// Writes `value` to the 8-byte word at `addr` (device memory) when the task executes (aclrtValueWrite).
void SubmitValueWrite(Stream* stream, void* addr, uint64_t value);
// Holds the stream until the word at `addr` compares to `value` as `compare` says (an
// ACL_STREAM_WAIT_VALUE_* flag), failing the task after `timeout_ns` (0: no limit) (aclrtValueWait).
void SubmitValueWait(Stream* stream, void* addr, uint64_t value, uint32_t compare, uint64_t timeout_ns);
// A task that fails with `code` when it executes, as a faulting kernel would (npuRT's test hook).
void SubmitInjectedFailure(Stream* stream, int32_t code);

// dst[i] = op(dst[i], src[i]) over `bytes` bytes of elements of ACL data type `dtype`. kind is an
// aclrtReduceKind (SUM, MAX, MIN, EQUAL: dst[i] = dst[i] == src[i] ? 1 : 0).
Status SubmitReduce(Stream* stream, void* dst, const void* src, uint64_t bytes, int32_t kind, int32_t dtype);
bool ReduceDtypeSupported(int32_t dtype);

// aclrtRandomNumAsync (core/kernel/random_num.cc).
Status SubmitRandomNum(Stream* stream, const aclrtRandomNumTaskInfo& info);

// Cache maintenance of [ptr, ptr + size): validated, ordered in the stream, nothing to do on the sim.
Status SubmitCacheOp(Stream* stream, const void* ptr, size_t size, int32_t cmo_type);
// The descriptor of aclrtCmoSetDesc / aclrtSetMemcpyDesc (written into memory the caller provides).
inline constexpr size_t kCmoDescBytes = 64;
inline constexpr size_t kMemcpyDescBytes = 64;
Status WriteCmoDesc(void* desc, void* src, size_t size);
Status SubmitCacheOpWithDesc(Stream* stream, const void* desc, int32_t cmo_type);
Status WriteMemcpyDesc(void* desc, int32_t kind, void* src, void* dst, size_t count);
// Copies as the descriptor at `desc` says when the task executes.
Status SubmitMemcpyWithDesc(Stream* stream, const void* desc, int32_t kind);
// Copies `count` bytes from (*src + src_offset) to (*dst + dst_offset), the two pointers read from
// device memory when the task executes.
Status SubmitMemcpyWithOffset(Stream* stream, void** dst, size_t dest_max, size_t dst_offset, const void** src,
                              size_t count, size_t src_offset, int32_t kind);

}  // namespace npurt::core
