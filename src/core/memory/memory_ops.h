// Copies and fills: argument validation (every device range must lie inside one live allocation,
// directions must match the pointers), then either direct execution (synchronous API) or a task on a
// stream (asynchronous API). Nothing moves before everything is validated.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/status.h"

namespace npurt::core {

class Device;
class Stream;

// Memory side of a copy.
struct MemSpan {
  void* ptr = nullptr;
  Device* device = nullptr;  // nullptr = host memory
  bool pinned = false;       // host memory from aclrtMallocHost
  uintptr_t alloc_base = 0;  // device memory: the allocation that holds the range
  size_t alloc_size = 0;
};

// Validates that [ptr, ptr+size) is usable as `what` ("dst", "src"): device ranges must be inside one
// live allocation; a range the program mapped read-only is refused unless `what` is "src".
StatusOr<MemSpan> ResolveSpan(const void* ptr, size_t size, const char* what);
// The same, with the access stated: `writes` refuses read-only device ranges.
StatusOr<MemSpan> ResolveSpanFor(const void* ptr, size_t size, const char* what, bool writes);

// Runtime-internal reads and writes of memory that may be a device's (operator and exception dumps, copy and
// cache descriptors, condition values): a device range goes through its device's synchronous access
// (hal::Device::CopyNow), so core never dereferences a device address and works on drivers whose memory
// the host cannot address; host memory is copied directly. A device range must lie in one live allocation
// (`what` names the operand in the error). Not ordered against work in flight: callers run where the bytes
// are stable (at their stream's position, or as a call whose contract leaves ordering to the program).
Status ReadMemory(const void* src, size_t size, void* host_dst, const char* what);
Status WriteMemory(void* dst, const void* host_src, size_t size, const char* what);

// aclrtMemcpy / aclrtMemcpyAsync (kind = aclrtMemcpyKind). `stream` nullptr = synchronous.
Status Memcpy(void* dst, size_t dest_max, const void* src, size_t count, int32_t kind, Stream* stream);
Status Memcpy2d(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, int32_t kind,
                Stream* stream);
// aclrtMemset(Async): byte fill. aclrtMemsetD32(Async): `count` 32-bit words.
Status Memset(void* dst, size_t max_count, int32_t value, size_t count, Stream* stream);
Status MemsetD32(void* dst, size_t mem_size, uint32_t value, size_t count, Stream* stream);

// The cleanup (hal::Task::cleanup) of a copy task whose source was staged in a std::malloc'ed buffer.
void FreeStaging(void* p);

}  // namespace npurt::core
