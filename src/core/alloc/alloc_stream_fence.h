// Stream fences: when a block freed "now" may be reused.
//
// A fence says "stream S may still use the block until it completed task `seq`". A free carries the
// fences of every stream that might still touch the block (aclrtFree: every stream with queued work;
// aclrtMemPoolFreeAsync: the freeing stream at its current tail). The allocator reuses the block on other
// streams only once every fence passed — it never waits for them, let alone synchronises the device.
#pragma once

#include <cstdint>
#include <vector>

#include "base/handle.h"

namespace npurt::core {

class Device;
class Stream;

struct StreamFence {
  Ref<Stream> stream;
  uint64_t seq;
};

bool FencePassed(const StreamFence& fence);
bool FencesPassed(const StreamFence* fences, size_t count);

// Appends a fence for every stream of `device` that still has queued work. Lock-free on the hot path:
// the calling thread keeps a snapshot of the device's stream list (refreshed when the device's stream
// generation changes), so that two threads freeing memory never contend.
void CollectBusyFences(Device* device, std::vector<StreamFence>* out);
// The same into a buffer of the calling thread, valid until its next call: the hot path of aclrtFree
// (one thread-local access, no allocation once the buffer has grown).
const StreamFence* BusyFences(Device* device, size_t* count);
// True if some stream of `device` has queued work (BusyFences would return any): aclrtFree's fast path.
bool AnyStreamBusy(Device* device);

}  // namespace npurt::core
