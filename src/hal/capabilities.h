// Capabilities: what a device is and what it can do, as its driver declares them. Core and api read these
// instead of restating the simulator's numbers, so that a driver for other hardware reports its own. Part
// of the driver interface (hal/hal.h).
//
// Defaults are the conservative answer: a driver that declares nothing has no host-visible memory, no
// virtual memory, no sharing and no peer access, and core refuses what needs them with a message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace npurt::hal {

// The granularity of physical pages, of the VMM window and of MapMemory (Device::kPhysicalPage). Core's
// allocator is built on it: a device with another page size is refused when it is opened.
inline constexpr size_t kPhysicalPageBytes = 2u << 20;

struct DeviceCapabilities {
  // --- Memory.
  // memory_base() .. + memory_size() is a host address range that host code may read and write directly.
  // Core reaches device memory through the device otherwise (CopyNow, Copy2dNow, FillNow); only managed
  // memory needs this, and it refuses on a device without it.
  bool host_visible_memory = false;
  size_t page_bytes = kPhysicalPageBytes;
  // MapMemory, UnmapMemory and ProtectMemory work (expandable segments, aclrtMapMem). Without it core's
  // allocator uses fixed segments only and the VMM API reports ACL_ERROR_RT_FEATURE_NOT_SUPPORT.
  bool virtual_memory = false;
  // ExportMemory / ImportMemory (aclrtIpcMem*, aclrtMemExportToShareableHandle).
  bool ipc_memory = false;
  // CreateSharedFlag / OpenSharedFlag (IPC events and notifies).
  bool shared_flags = false;
  // Every device of the driver can read and write every other's memory (aclrtDeviceCanAccessPeer).
  bool peer_access = false;

  // --- Execution.
  // Queues run independently: a task waiting on one (a flag not reached yet) holds back that queue only, never
  // the thread that submits to another. Core then replays a graph's captured streams on streams of their own,
  // concurrently; without it (every task run inline on the submitting thread) in capture order.
  bool concurrent_queues = false;

  // --- Compute (aclrtGetDeviceInfo's attributes; kernel launches are checked against them).
  uint64_t unified_buffer_bytes = 0;  // per AI core: the most a launch's dynamic UB may ask for
  uint64_t l2_cache_bytes = 0;
  uint32_t max_blocks_per_launch = 0;  // numBlocks of one kernel launch (aclrtLaunchKernel)
  uint32_t max_threads_per_core = 0;
  uint32_t max_threads_per_block = 0;
  uint32_t max_block_dim_x = 0;
  uint32_t warp_size = 0;
  uint32_t npu_arch = 0;  // ACL_DEV_ATTR_NPU_ARCH (2201: DAV_2201, the Ascend910B family)
};

// What the device is, and its capabilities.
struct DeviceInfo {
  std::string soc_name;
  uint32_t aicore_count = 0;
  uint64_t memory_bytes = 0;
  DeviceCapabilities caps;
};

}  // namespace npurt::hal
