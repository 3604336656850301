#include "core/alloc/device_allocator.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/env.h"
#include "core/alloc/alloc_sites.h"
#include "core/device.h"
#include "core/racecheck/racecheck.h"
#include "core/runtime.h"
#include "core/sanitizer_records.h"
#include "core/stream.h"
#include "dfx/log.h"
#include "dfx/profiler.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

constexpr size_t kLeakLinesShown = 16;

CachingAllocator::Options DefaultOptions(const AllocatorConfig& config) {
  CachingAllocator::Options o;
  o.config = config;
  o.name = "device memory";
  return o;
}

// NPURT_ALLOC_SNAPSHOT=<path>: a snapshot is written there when an allocation fails and at exit.
const char* SnapshotPath() {
  static const char* path = npurt::env::Raw(npurt::env::Var::kAllocSnapshot);
  return path != nullptr && path[0] != '\0' ? path : nullptr;
}

void SnapshotAtExit() {
  if (const char* p = SnapshotPath()) (void)WriteMemorySnapshot(p);
}

}  // namespace

namespace {

// Expandable segments map pages on demand: only on a device with virtual memory.
AllocatorConfig ConfigFor(const hal::Device* device) {
  AllocatorConfig config = AllocatorConfigFromEnvironment();
  if (!device->info().caps.virtual_memory) config.expandable_segments = false;
  return config;
}

}  // namespace

DeviceAllocator::DeviceAllocator(hal::Device* device, uint8_t* base, uint64_t size)
    : DeviceAllocator(device, reinterpret_cast<uintptr_t>(base), size, device->address_size(), ConfigFor(device)) {}

DeviceAllocator::DeviceAllocator(hal::Device* device, uintptr_t base, uint64_t memory_size, uint64_t address_size,
                                 const AllocatorConfig& config)
    : memory_(device, base, memory_size, address_size),
      index_(base, address_size),
      default_(std::make_unique<CachingAllocator>(&memory_, &index_, DefaultOptions(config))),
      vmm_(&memory_) {
  static const bool registered = [] {
    if (SnapshotPath() != nullptr) std::atexit(&SnapshotAtExit);
    return true;
  }();
  (void)registered;
}

DeviceAllocator::~DeviceAllocator() = default;

StatusOr<void*> DeviceAllocator::Allocate(size_t size, Context* owner) {
  AllocRequest r;
  r.size = size;
  r.owner = owner;
  return Allocate(r);
}

StatusOr<void*> DeviceAllocator::Allocate(const AllocRequest& request) { return AllocateFrom(default_.get(), request); }

StatusOr<void*> DeviceAllocator::AllocateFrom(CachingAllocator* allocator, const AllocRequest& request) {
  auto p = allocator->Allocate(request);
  if (!p.ok() && p.status().code() == ACL_ERROR_RT_MEMORY_ALLOCATION) {
    // Memory pressure: the device's other allocators return what they hold idle, then one more try.
    if (TrimOthers(allocator)) p = allocator->Allocate(request);
    if (!p.ok() && SnapshotPath() != nullptr) (void)WriteMemorySnapshot(SnapshotPath());
  }
  if (p.ok()) {
    NPURT_LOG_DEBUG("RUNTIME", "device malloc {} bytes at {}", request.size, p.value());
    if (dfx::ProfOn(dfx::prof_bits::kTaskMemory)) TraceMemory(static_cast<int64_t>(request.size));
  }
  return p;
}

namespace {
// Someone watches allocations: the fast paths step aside so that every event is logged and profiled.
// Someone observes each allocation and free (the memory track, debug logs, the race detector, which must
// forget a freed allocation's accesses): the fast paths step aside for the full ones.
bool Watched() {
  return dfx::ProfOn(dfx::prof_bits::kTaskMemory) || dfx::LogEnabled(dfx::LogLevel::kDebug) || racecheck::On();
}
}  // namespace

void* DeviceAllocator::AllocateCached(size_t size, uint32_t policy, bool pad, Context* owner) {
  if (Watched()) [[unlikely]] return nullptr;
  return default_->AllocateCached(size, policy, pad, owner);
}

bool DeviceAllocator::FreeCached(void* ptr) {
  if (Watched()) [[unlikely]] return false;
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  Segment* seg = index_.SegmentAt(addr);
  if (seg == nullptr || seg->pool == nullptr || seg->pool->owner != default_.get()) return false;
  return default_->FreeCached(addr, seg);
}

bool DeviceAllocator::TrimOthers(CachingAllocator* except) {
  const uint64_t used = memory_.physical_used();
  {
    std::lock_guard<std::mutex> lock(pools_mu_);
    for (CachingAllocator* other : pools_) {
      if (other != except) other->Trim(other->pressure_keep.load(std::memory_order_relaxed));
    }
  }
  if (except != default_.get()) default_->Trim(default_->pressure_keep.load(std::memory_order_relaxed));
  return memory_.physical_used() < used;
}

bool DeviceAllocator::ReleaseIdleMemory() { return TrimOthers(nullptr); }

uint64_t DeviceAllocator::UsedBytes() {
  // The idle cache is counted first: pages it holds cannot be reported twice if an allocation on another
  // thread takes one in between (the figure is then at most a page per racing allocation too high).
  const uint64_t idle = default_->SettleAndCountIdle();
  const uint64_t physical = memory_.physical_used();
  return physical > idle ? physical - idle : 0;
}

void DeviceAllocator::TraceMemory(int64_t delta) const {
  const Device* dev = Runtime::Get().DeviceOwning(reinterpret_cast<void*>(memory_.base()));
  dfx::ProfRecordMemory(dev != nullptr ? dev->id() : -1, Stats().live, delta);
}

CachingAllocator* DeviceAllocator::OwnerOf(const void* ptr) const {
  const Segment* seg = index_.SegmentAt(reinterpret_cast<uintptr_t>(ptr));
  return seg == nullptr || seg->pool == nullptr ? nullptr : seg->pool->owner;
}

Status DeviceAllocator::Free(void* ptr, std::vector<StreamFence> fences) {
  return Free(ptr, fences.data(), fences.size(), 0);
}

Status DeviceAllocator::Free(void* ptr, const StreamFence* fences, size_t fence_count, uintptr_t stream_key) {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  Segment* seg = index_.SegmentAt(addr);
  if (seg == nullptr || seg->pool == nullptr) {
    if (vmm_.IsReserved(addr)) {
      return Err(ACL_ERROR_RT_MEMORY_FREE,
                 "{} is virtual memory (aclrtReserveMemAddress / IPC import): release it with aclrtUnmapMem and "
                 "aclrtReleaseMemAddress, or aclrtIpcMemClose",
                 ptr);
    }
    return Err(ACL_ERROR_RT_MEMORY_FREE, "{} is not a live device allocation (already freed, or never allocated)", ptr);
  }
  // Observability (issue 5): the freed size is looked up only when someone is watching.
  const bool traced = dfx::ProfOn(dfx::prof_bits::kTaskMemory) || dfx::LogEnabled(dfx::LogLevel::kDebug);
  LiveAllocation freed{};
  if (traced) (void)seg->pool->owner->Lookup(addr, seg, &freed);
  CachingAllocator* owner = seg->pool->owner;
  Ref<HandleObject> keep(owner->options().keepalive);  // a pool stays while its block is being freed
  if (racecheck::On()) [[unlikely]] racecheck::OnFree(ptr);
  Status st = owner->Free(addr, seg, fences, fence_count, stream_key);
  if (traced && st.ok()) {
    NPURT_LOG_DEBUG("RUNTIME", "device free {} ({} bytes)", ptr, freed.size);
    if (dfx::ProfOn(dfx::prof_bits::kTaskMemory)) TraceMemory(-static_cast<int64_t>(freed.size));
  }
  if (st.ok() && owner->options().on_free != nullptr) owner->options().on_free(owner->options().on_free_ctx);
  return st;
}

bool DeviceAllocator::LookupBlock(const void* ptr, LiveAllocation* out) const {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  Segment* seg = index_.SegmentAt(addr);
  if (seg == nullptr || seg->pool == nullptr) return false;
  return seg->pool->owner->Lookup(addr, seg, out);
}

Status DeviceAllocator::PhysicalExtents(const void* ptr, size_t size, std::vector<std::pair<uint64_t, uint64_t>>* runs,
                                        uint64_t* inner) const {
  LiveAllocation live;
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  if (!LookupBlock(ptr, &live)) {
    return Err(ACL_ERROR_INVALID_PARAM, "{} is not in a live device allocation", ptr);
  }
  if (size == 0 || size > live.base + live.size - addr) {
    return Err(ACL_ERROR_INVALID_PARAM, "[{}, +{}) is not inside the allocation at {:#x} of {} bytes", ptr, size,
               live.base, live.size);
  }
  const Segment* seg = index_.SegmentAt(addr);
  const uintptr_t lo = addr / DeviceMemory::kPage * DeviceMemory::kPage;
  const uintptr_t hi = (addr + size + DeviceMemory::kPage - 1) / DeviceMemory::kPage * DeviceMemory::kPage;
  runs->clear();
  for (int64_t page : seg->pool->owner->PhysicalPages(seg, lo, hi)) {
    if (page < 0) return Err(ACL_ERROR_RT_INTERNAL_ERROR, "a page of the live allocation at {} is not mapped", ptr);
    const auto off = static_cast<uint64_t>(page);
    if (!runs->empty() && runs->back().first + runs->back().second == off) {
      runs->back().second += DeviceMemory::kPage;
    } else {
      runs->emplace_back(off, DeviceMemory::kPage);
    }
  }
  *inner = addr - lo;
  return Status::Ok();
}

bool DeviceAllocator::Lookup(const void* ptr, AllocationInfo* out) const {
  LiveAllocation live;
  if (LookupBlock(ptr, &live)) {
    out->base = live.base;
    out->size = live.size;
    out->owner = static_cast<Context*>(live.owner);
    out->read_only = false;
    out->vmm = false;
    return true;
  }
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  if (!memory_.InWindow(addr)) return false;
  MappedRange range;
  if (!vmm_.Lookup(addr, &range)) return false;
  out->base = range.base;
  out->size = range.size;
  out->owner = nullptr;
  out->read_only = range.read_only;
  out->vmm = true;
  return true;
}

size_t DeviceAllocator::FreeOwnedBy(Context* owner) {
  std::vector<LiveAllocation> freed = default_->FreeOwnedBy(owner);
  if (racecheck::On()) [[unlikely]] {
    for (const LiveAllocation& a : freed) racecheck::OnFree(reinterpret_cast<void*>(a.base));
  }
  // The context's memory management dies with it: what its allocations held goes back to the device.
  default_->Trim(0);
  if (freed.empty()) return 0;
  std::sort(freed.begin(), freed.end(), [](const auto& a, const auto& b) { return a.base < b.base; });
  const Device* dev = Runtime::Get().DeviceOwning(reinterpret_cast<void*>(memory_.base()));
  RecordLeaks(dev != nullptr ? dev->id() : -1, freed);
  uint64_t bytes = 0;
  for (const LiveAllocation& a : freed) bytes += a.size;
  std::string lines;
  for (size_t i = 0; i < freed.size() && i < kLeakLinesShown; ++i) {
    const LiveAllocation& a = freed[i];
    const std::string site = a.site != 0 ? AllocationSiteSummary(a.site) : std::string();
    lines += fmt::format("\n  {:#x}: {} bytes{}", a.base, a.size, site.empty() ? "" : " allocated at " + site);
  }
  if (freed.size() > kLeakLinesShown) lines += fmt::format("\n  ... and {} more", freed.size() - kLeakLinesShown);
  NPURT_LOG_WARNING("RUNTIME",
                    "leak report: context {} of device {} was destroyed with {} live allocation(s), {} bytes; the "
                    "runtime freed them{}{}",
                    static_cast<void*>(owner), dev != nullptr ? dev->id() : -1, freed.size(), bytes,
                    default_->options().config.record_sites ? "" : " (NPURT_ALLOC_CONF=record_sites:True names the call sites)",
                    lines);
  return freed.size();
}

AllocatorStats DeviceAllocator::Stats() const {
  const CachingStats c = default_->Stats();
  AllocatorStats s;
  s.total = memory_.capacity();
  s.reserved = memory_.physical_used();
  s.live = c.total.allocated;
  s.peak_live = c.total.allocated_peak;
  s.largest_free = std::max<uint64_t>(memory_.largest_free_physical(), c.largest_cached_free);
  s.allocations = c.total.live_blocks;
  return s;
}

void DeviceAllocator::RegisterPool(CachingAllocator* pool) {
  std::lock_guard<std::mutex> lock(pools_mu_);
  pools_.push_back(pool);
}

void DeviceAllocator::UnregisterPool(CachingAllocator* pool) {
  std::lock_guard<std::mutex> lock(pools_mu_);
  pools_.erase(std::remove(pools_.begin(), pools_.end(), pool), pools_.end());
}

std::vector<MemUsageRow> DeviceAllocator::UsageRows() const {
  const CachingStats c = default_->Stats();
  std::vector<MemUsageRow> rows;
  rows.push_back({"device_malloc", c.total.allocated, c.total.allocated_peak});
  rows.push_back({"device_reserved", c.total.reserved, c.total.reserved_peak});
  static const char* kNames[alloc::kPageKinds][2] = {{"pool_small_normal", "pool_large_normal"},
                                                      {"pool_small_huge", "pool_large_huge"},
                                                      {"pool_huge1g", "pool_huge1g"}};
  for (int k = 0; k < alloc::kPageKinds; ++k) {
    for (int p = 0; p < 2; ++p) {
      if (k == static_cast<int>(alloc::PageKind::kHuge1G) && p == 0) continue;  // one pool for 1 GiB pages
      rows.push_back({kNames[k][p], c.pools[k][p].allocated, c.pools[k][p].allocated_peak});
    }
  }
  MemUsageRow pools{"mem_pools_used", 0, 0};
  MemUsageRow pools_reserved{"mem_pools_reserved", 0, 0};
  {
    std::lock_guard<std::mutex> lock(pools_mu_);
    for (const CachingAllocator* p : pools_) {
      const CachingStats ps = p->Stats();
      pools.current += ps.total.allocated;
      pools.peak += ps.total.allocated_peak;
      pools_reserved.current += ps.total.reserved;
      pools_reserved.peak += ps.total.reserved_peak;
    }
  }
  rows.push_back(pools);
  rows.push_back(pools_reserved);
  rows.push_back({"vmm_mapped", vmm_.mapped_bytes(), vmm_.mapped_bytes()});
  rows.push_back({"device_physical", memory_.physical_used(), memory_.physical_peak()});
  // The cache of aclrtMalloc's allocator: reserved bytes no live block uses (free cached blocks, thread
  // caches, frees waiting for their streams). aclrtGetMemInfo counts its idle part as free.
  rows.push_back({"device_cached", c.total.reserved - std::min(c.total.reserved, c.total.allocated), 0});
  return rows;
}

nlohmann::json DeviceAllocator::Snapshot() const {
  nlohmann::json pools = nlohmann::json::array();
  {
    std::lock_guard<std::mutex> lock(pools_mu_);
    for (const CachingAllocator* p : pools_) pools.push_back(p->Snapshot());
  }
  nlohmann::json usage = nlohmann::json::object();
  for (const MemUsageRow& r : UsageRows()) usage[r.name] = {{"current", r.current}, {"peak", r.peak}};
  return {{"capacity", memory_.capacity()},
          {"physical_used", memory_.physical_used()},
          {"physical_peak", memory_.physical_peak()},
          {"vmm_reserved", vmm_.reserved_bytes()},
          {"vmm_mapped", vmm_.mapped_bytes()},
          {"usage", std::move(usage)},
          {"default_allocator", default_->Snapshot()},
          {"memory_pools", std::move(pools)}};
}

Status WriteMemorySnapshot(const std::string& path) {
  nlohmann::json devices = nlohmann::json::array();
  for (Device* d : Runtime::Get().OpenedDevices()) {
    nlohmann::json j = d->allocator().Snapshot();
    j["device"] = d->id();
    devices.push_back(std::move(j));
  }
  std::ofstream out(path);
  if (!out) return Err(ACL_ERROR_INVALID_PARAM, "cannot write the memory snapshot to '{}'", path);
  out << nlohmann::json{{"version", 1}, {"devices", std::move(devices)}}.dump(1) << '\n';
  return Status::Ok();
}

}  // namespace npurt::core
