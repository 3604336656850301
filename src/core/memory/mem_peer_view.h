// Views of other processes' device memory, for transports that work on their peers' buffers in place
// (HCCL between processes of one machine, hccl/ipc_transport.h).
//
// A rank describes each buffer it shares as the physical runs behind it (DescribeForPeers: (offset,
// bytes) pairs of whole pages in its device's memory, and the buffer's offset in the first page). A peer
// opens that device's memory once (PeerMemoryViews::Open, with the device's share token) and maps the
// runs contiguously into its own device's address window (View), so its engines and, on the simulator,
// its host code see the buffer as one range. Views are cached by their runs: a buffer that comes back
// (the caching allocator hands programs the same blocks, step after step) costs a lookup, and a buffer
// whose pages changed has other runs and gets a view of its own, so a stale view is never used. The
// cache keeps the window addresses its owner allows (the device's window holds four times its memory)
// and evicts the least recently used views, never one in use by the caller's current operation.
//
// Unlike aclrtIpcMem* keys (mem_ipc.h), nothing is written to files: the runs travel in the transport's
// own shared memory, and the exporter's permission is the transport's (the ranks of one communicator).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "base/status.h"
#include "hal/device.h"

namespace npurt::core {

class Device;
class PhysicalMemory;

using PageRun = std::pair<uint64_t, uint64_t>;  // (offset in the device's physical memory, bytes)

// What a peer process needs to open a device's memory (the driver's share token, opaque).
struct PeerToken {
  uint8_t bytes[64];
};

struct PeerExtents {
  uint64_t inner = 0;  // the buffer's offset in its first page
  std::vector<PageRun> runs;
};

// What a peer process needs to open `device`'s memory (PeerMemoryViews::Open), and its size in bytes.
StatusOr<PeerToken> PeerShareToken(Device* device);
uint64_t PeerMemoryBytes(Device* device);

// The physical runs behind [ptr, ptr + size) of one live allocation of `device` (aclrtMalloc, memory
// pools). ACL_ERROR_INVALID_PARAM with a message for anything else.
Status DescribeForPeers(Device* device, const void* ptr, size_t size, PeerExtents* out);

class PeerMemoryViews {
 public:
  // Opens the memory behind `token` (`peer_bytes` bytes) for views on `local`, caching views of up to
  // `cache_bytes` (evicting older ones past that; a view larger than that is still made). Fails with a
  // message when the peer process is gone or does not let us in.
  static StatusOr<std::unique_ptr<PeerMemoryViews>> Open(Device* local, const PeerToken& token, uint64_t peer_bytes,
                                                         uint64_t cache_bytes);
  ~PeerMemoryViews();
  PeerMemoryViews(const PeerMemoryViews&) = delete;
  PeerMemoryViews& operator=(const PeerMemoryViews&) = delete;

  // An address on the local device at which the peer's buffer (`runs`, then `inner`) appears contiguously.
  // `use` is the caller's operation counter (increasing): views used with the current value are not
  // evicted while it lasts. Runs must lie inside the peer's memory.
  StatusOr<uint8_t*> View(const std::vector<PageRun>& runs, uint64_t inner, uint64_t use);

  // For tests and statistics: views made, and views currently cached.
  uint64_t views_made() const { return made_; }
  size_t cached() const { return views_.size(); }

 private:
  struct CachedView {
    uintptr_t va = 0;
    uint64_t span = 0;
    std::vector<uintptr_t> mappings;
    uint64_t last_use = 0;
  };
  PeerMemoryViews(Device* local, PhysicalMemory* memory, uint64_t peer_bytes, uint64_t limit_bytes);
  void Drop(CachedView& view);
  void EvictFor(uint64_t span, uint64_t use);

  Device* const local_;
  PhysicalMemory* const memory_;  // the peer's whole memory, imported once; each mapping holds a reference
  const uint64_t peer_bytes_;
  const uint64_t limit_bytes_;
  std::mutex mu_;
  std::map<std::vector<PageRun>, CachedView> views_;
  uint64_t cached_bytes_ = 0;
  uint64_t made_ = 0;
};

}  // namespace npurt::core
