// AllocatorConfig: the knobs of the caching allocator, from NPURT_ALLOC_CONF.
//
// The variable follows PYTORCH_NPU_ALLOC_CONF's syntax: comma-separated `key:value` pairs, e.g.
//   NPURT_ALLOC_CONF=expandable_segments:True,max_split_size_mb:256,garbage_collection_threshold:0.8
// Keys (docs/memory.md has the full story):
//   expandable_segments:True|False   segments are address reservations grown page by page (default True:
//                                    on the simulated device mapping a page is cheap, and fixed segments
//                                    fragment; False gives PyTorch's classic fixed segments)
//   max_split_size_mb:N              cached blocks larger than N MiB are never split (N >= 20; default off)
//   garbage_collection_threshold:F   0 < F < 1: above F x capacity reserved, release idle cached
//                                    segments before reserving new ones (default off)
//   segment_size_mb:N                segment size for 1-10 MiB requests (2..1024, default 20)
//   roundup_power2_divisions:N       round sizes above 512 B * N up to one of N steps between powers
//                                    of two (N a power of two up to 64; default off: 512 B multiples)
//   thread_cache:True|False          per-thread cache of small blocks, lock-free hot path (default True)
//   thread_cache_kb:N                bytes one thread may keep per device (64..65536, default 1024)
//   record_sites:True|False          capture the allocating call stack of every block (default False)
//   history:N                        keep the last N alloc/free events for the timeline (default 0)
//   debug_checks:True|False          walk every pool after each operation (expensive; default False,
//                                    True in builds configured with -DNPURT_ALLOC_EXPENSIVE_CHECKS=ON)
// A malformed value is an error naming the key; an unknown key is an error too (typos must not pass
// silently).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace npurt::core {

struct AllocatorConfig {
  bool expandable_segments = true;
  // NPURT_ALLOC_CONF named expandable_segments. Stream-ordered pools (aclrtMemPool) use expandable
  // segments only then: each expandable pool reserves window addresses of 1.5x its size per page kind,
  // and the window (8x the device) must also serve the default allocator, VMM and IPC imports.
  bool expandable_segments_set = false;
  uint64_t max_split_size = UINT64_MAX;  // bytes
  double gc_threshold = 0.0;             // 0 = off
  uint64_t large_segment_size = 20ull << 20;
  uint32_t roundup_power2_divisions = 0;
  bool thread_cache = true;
  uint64_t thread_cache_bytes = 1ull << 20;
  bool record_sites = false;
  uint32_t history = 0;
#ifdef NPURT_ALLOC_EXPENSIVE_CHECKS
  bool debug_checks = true;
#else
  bool debug_checks = false;
#endif
};

// Parses `text` (the variable's value) on top of the defaults.
StatusOr<AllocatorConfig> ParseAllocatorConfig(std::string_view text);

// The configuration from NPURT_ALLOC_CONF, read once. A malformed variable is logged as an error and the
// defaults are used (the runtime still comes up).
const AllocatorConfig& AllocatorConfigFromEnvironment();

// "expandable_segments:True,max_split_size_mb:..." (the effective values, for snapshots and logs).
std::string FormatAllocatorConfig(const AllocatorConfig& config);

}  // namespace npurt::core
