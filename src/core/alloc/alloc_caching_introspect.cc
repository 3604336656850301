// The caching allocator's introspection: address lookups, statistics, the out-of-memory report, the
// event history, JSON snapshots (aclrtMemSnapshot-style tooling) and the invariant checker. The
// allocation and free paths live in alloc_caching.cc.
#include <algorithm>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "base/human_bytes.h"
#include "core/alloc/alloc_caching.h"
#include "core/alloc/alloc_sites.h"
#include "core/alloc/alloc_thread_cache.h"
#include "dfx/log.h"

namespace npurt::core {

using alloc::PageKind;

namespace {

const char* StateName(BlockState s) {
  switch (s) {
    case BlockState::kFree: return "free";
    case BlockState::kLive: return "live";
    case BlockState::kThreadCached: return "thread_cached";
    case BlockState::kPending: return "pending";
  }
  return "?";
}

std::string Hex(uintptr_t v) { return fmt::format("{:#x}", v); }

}  // namespace

// ---- queries ---------------------------------------------------------------------------------------

bool CachingAllocator::Lookup(uintptr_t addr, Segment* segment, LiveAllocation* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  const Pool& pool = *segment->pool;
  auto it = pool.blocks.upper_bound(addr);
  if (it == pool.blocks.begin()) return false;
  --it;
  const Block* b = it->second;
  if (b->state.load(std::memory_order_acquire) != BlockState::kLive) return false;
  const size_t requested = b->requested.load(std::memory_order_relaxed);
  if (addr >= b->addr + requested) return false;
  out->base = b->addr;
  out->size = requested;
  out->capacity = b->size;
  out->owner = b->owner.load(std::memory_order_relaxed);
  out->stream = b->stream;
  out->site = b->site;
  out->kind = pool.kind;
  out->serial = b->serial;
  return true;
}

std::vector<int64_t> CachingAllocator::PhysicalPages(const Segment* segment, uintptr_t lo, uintptr_t hi) const {
  std::vector<int64_t> out;
  std::lock_guard<std::mutex> lock(mu_);
  for (uintptr_t va = lo; va < hi; va += alloc::kPage) {
    if (segment->expandable) {
      out.push_back(segment->pages[(va - segment->base) / alloc::kPage]);
    } else {
      out.push_back(static_cast<int64_t>(memory_->PhysicalOffsetOfLinear(va)));
    }
  }
  return out;
}

void CachingAllocator::AddReserved(Pool& pool, int64_t bytes) {
  pool.figures.reserved += static_cast<uint64_t>(bytes);
  pool.figures.reserved_peak = std::max(pool.figures.reserved_peak, pool.figures.reserved);
  pool.figures.segments = pool.segments.size();
  reserved_ += static_cast<uint64_t>(bytes);
  reserved_peak_ = std::max(reserved_peak_, reserved_);
}

void CachingAllocator::AddAllocated(Pool& pool, int64_t bytes) {
  pool.figures.allocated += static_cast<uint64_t>(bytes);
  pool.figures.allocated_peak = std::max(pool.figures.allocated_peak, pool.figures.allocated);
  allocated_ += static_cast<uint64_t>(bytes);
  allocated_peak_ = std::max(allocated_peak_, allocated_);
}

void CachingAllocator::ResetPeaks() {
  std::lock_guard<std::mutex> lock(mu_);
  allocated_peak_ = allocated_;
  reserved_peak_ = reserved_;
  for (auto& kind_pools : pools_) {
    for (Pool& pool : kind_pools) {
      pool.figures.allocated_peak = pool.figures.allocated;
      pool.figures.reserved_peak = pool.figures.reserved;
    }
  }
}

uint64_t CachingAllocator::reserved() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reserved_;
}

uint64_t CachingAllocator::live_blocks() const {
  uint64_t n;
  {
    std::lock_guard<std::mutex> lock(mu_);
    n = live_count_;
  }
  ForEachThreadCache(tls_slot_, this, [&](const ThreadCache& tc) { n += tc.published_allocs() - tc.published_frees(); });
  return n;
}

CachingStats CachingAllocator::Stats() const {
  CachingStats s;
  {
    std::lock_guard<std::mutex> lock(mu_);
    s = counters_;
    s.total.allocated = allocated_;
    s.total.allocated_peak = allocated_peak_;
    s.total.reserved = reserved_;
    s.total.reserved_peak = reserved_peak_;
    s.total.live_blocks = live_count_;
    for (int k = 0; k < alloc::kPageKinds; ++k) {
      for (int p = 0; p < 2; ++p) {
        const Pool& pool = pools_[k][p];
        s.pools[k][p] = pool.figures;
        s.pools[k][p].segments = pool.segments.size();
        s.total.segments += pool.segments.size();
        for (const Block* b : pool.free_index) {
          if (b->stream != 0) continue;  // pending, reusable by one stream only
          s.cached_free += b->size;
          s.largest_cached_free = std::max<uint64_t>(s.largest_cached_free, b->size);
        }
      }
    }
    s.pending_bytes = pending_bytes_;
    s.pending_count = pending_.size();
  }
  ForEachThreadCache(tls_slot_, this, [&](const ThreadCache& tc) {
    const int64_t d = tc.published_delta();
    s.total.allocated += static_cast<uint64_t>(d);
    s.pools[0][0].allocated += static_cast<uint64_t>(d);
    s.total.live_blocks += tc.published_allocs() - tc.published_frees();
    s.thread_cached_bytes += tc.published_bytes();
    s.alloc_count += tc.published_allocs();
    s.free_count += tc.published_frees();
    s.thread_cache_hits += tc.published_hits();
  });
  s.total.allocated_peak = std::max(s.total.allocated_peak, s.total.allocated);
  s.pools[0][0].allocated_peak = std::max(s.pools[0][0].allocated_peak, s.pools[0][0].allocated);
  return s;
}

Status CachingAllocator::OutOfMemory(const AllocRequest& r, size_t block_size, PageKind kind, const Status& why) {
  uint64_t cached_free = 0;
  uint64_t largest = 0;
  for (auto& kind_pools : pools_) {
    for (Pool& pool : kind_pools) {
      for (const Block* b : pool.free_index) {
        if (b->stream != 0) continue;
        cached_free += b->size;
        largest = std::max<uint64_t>(largest, b->size);
      }
    }
  }
  const uint64_t cap = memory_->capacity();
  const uint64_t device_free = cap - memory_->physical_used();
  largest = std::max(largest, kind == PageKind::kHuge1G ? memory_->largest_free_physical_aligned(alloc::kHuge1GPage)
                                                         : memory_->largest_free_physical());
  const uint64_t all_free = device_free + cached_free;
  const double frag = all_free == 0 ? 0.0 : 1.0 - static_cast<double>(largest) / static_cast<double>(all_free);
  return Err(ACL_ERROR_RT_MEMORY_ALLOCATION,
             "{}: out of memory: tried to allocate {} ({} block, {} pages, {} pool); device capacity {}; allocated {} "
             "in {} blocks; reserved {} ({} of it in free cached blocks){}; free on the device {}; largest free "
             "block {}; fragmentation {:.2f} (1 - largest free / all free); {} stream-ordered frees ({}) still wait "
             "for their streams; last failure: {}",
             options_.name, HumanBytes(r.size), HumanBytes(block_size), alloc::PageKindName(kind),
             alloc::IsSmall(block_size, kind) ? "small" : "large", HumanBytes(cap), HumanBytes(allocated_), live_count_,
             HumanBytes(reserved_), HumanBytes(cached_free),
             options_.limit != UINT64_MAX ? fmt::format(" of a limit of {}", HumanBytes(options_.limit)) : std::string(),
             HumanBytes(device_free), HumanBytes(largest), frag, pending_.size(), HumanBytes(pending_bytes_),
             why.ok() ? std::string("none") : why.message());
}

void CachingAllocator::Record(AllocEvent::Kind kind, uintptr_t addr, uint64_t size, uintptr_t stream) {
  if (options_.config.history == 0) return;
  AllocEvent e{NowNs(), kind, addr, size, stream, allocated_, reserved_};
  if (history_.size() < options_.config.history) {
    history_.push_back(e);
  } else {
    history_[history_next_] = e;
  }
  history_next_ = (history_next_ + 1) % options_.config.history;
}

std::vector<AllocEvent> CachingAllocator::History() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (history_.size() < options_.config.history) return history_;
  std::vector<AllocEvent> out(history_.begin() + static_cast<std::ptrdiff_t>(history_next_), history_.end());
  out.insert(out.end(), history_.begin(), history_.begin() + static_cast<std::ptrdiff_t>(history_next_));
  return out;
}

nlohmann::json CachingAllocator::Snapshot() const {
  nlohmann::json segments = nlohmann::json::array();
  nlohmann::json history = nlohmann::json::array();
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& kind_pools : pools_) {
      for (const Pool& pool : kind_pools) {
        for (const Segment* seg : pool.segments) {
          nlohmann::json blocks = nlohmann::json::array();
          for (const Block* b = seg->first; b != nullptr; b = b->next) {
            nlohmann::json jb = {{"address", Hex(b->addr)},
                                 {"size", b->size.get()},
                                 {"state", StateName(b->state.load(std::memory_order_acquire))}};
            if (b->state.load(std::memory_order_relaxed) == BlockState::kLive) {
              jb["requested"] = b->requested.load(std::memory_order_relaxed);
              jb["owner"] = Hex(reinterpret_cast<uintptr_t>(b->owner.load(std::memory_order_relaxed)));
              jb["serial"] = b->serial;
              if (b->site != 0) jb["site"] = AllocationSiteFrames(b->site);
            }
            if (b->stream != 0) jb["stream"] = Hex(b->stream);
            blocks.push_back(std::move(jb));
          }
          segments.push_back({{"address", Hex(seg->base)},
                              {"size", seg->size},
                              {"mapped", seg->mapped},
                              {"pool", pool.small ? "small" : "large"},
                              {"page_kind", alloc::PageKindName(pool.kind)},
                              {"expandable", seg->expandable},
                              {"blocks", std::move(blocks)}});
        }
      }
    }
    for (size_t i = 0; i < history_.size(); ++i) {
      const AllocEvent& e =
          history_[history_.size() < options_.config.history ? i : (history_next_ + i) % history_.size()];
      history.push_back({{"time_ns", e.time_ns},
                         {"event", AllocEventName(e.kind)},
                         {"address", Hex(e.addr)},
                         {"size", e.size},
                         {"stream", Hex(e.stream)},
                         {"allocated", e.allocated},
                         {"reserved", e.reserved}});
    }
  }
  const CachingStats s = Stats();
  nlohmann::json stats = {{"allocated", s.total.allocated},
                          {"allocated_peak", s.total.allocated_peak},
                          {"reserved", s.total.reserved},
                          {"reserved_peak", s.total.reserved_peak},
                          {"live_blocks", s.total.live_blocks},
                          {"segments", s.total.segments},
                          {"cached_free", s.cached_free},
                          {"pending_bytes", s.pending_bytes},
                          {"thread_cached_bytes", s.thread_cached_bytes},
                          {"alloc_count", s.alloc_count},
                          {"free_count", s.free_count},
                          {"thread_cache_hits", s.thread_cache_hits},
                          {"segment_allocs", s.segment_allocs},
                          {"segment_frees", s.segment_frees},
                          {"page_maps", s.page_maps},
                          {"page_unmaps", s.page_unmaps},
                          {"retries", s.retries},
                          {"ooms", s.ooms}};
  return {{"name", options_.name},
          {"config", FormatAllocatorConfig(options_.config)},
          {"limit", options_.limit == UINT64_MAX ? 0 : options_.limit},
          {"stats", std::move(stats)},
          {"segments", std::move(segments)},
          {"history", std::move(history)}};
}

// ---- invariants ------------------------------------------------------------------------------------

void CachingAllocator::CheckIfEnabled() const {
  if (!options_.config.debug_checks) return;
  std::lock_guard<std::mutex> lock(mu_);
  CheckLocked();
}

void CachingAllocator::CheckLocked() const {
  if (!options_.config.debug_checks) return;
  Status st = CheckInvariantsLocked();
  if (!st.ok()) {
    NPURT_LOG_ERROR("RUNTIME", "{}: allocator invariant violated: {}", options_.name, st.message());
    std::fprintf(stderr, "npurt: %s: allocator invariant violated: %s\n", options_.name.c_str(), st.message().c_str());
    std::abort();
  }
}

Status CachingAllocator::CheckInvariants() const {
  std::lock_guard<std::mutex> lock(mu_);
  return CheckInvariantsLocked();
}

Status CachingAllocator::CheckInvariantsLocked() const {
  uint64_t reserved = 0;
  uint64_t live_bytes = 0;
  for (const auto& kind_pools : pools_) {
    for (const Pool& pool : kind_pools) {
      uint64_t pool_reserved = 0;
      size_t blocks = 0;
      size_t indexed = 0;
      for (const Segment* seg : pool.segments) {
        if (index_->SegmentAt(seg->base) != seg) return Err(1, "segment {:#x} missing from the segment index", seg->base);
        uintptr_t expect = seg->base;
        const Block* prev = nullptr;
        size_t mapped = 0;
        for (size_t p = 0; p < seg->pages.size(); ++p) mapped += seg->pages[p] >= 0 ? alloc::kPage : 0;
        if (seg->expandable ? mapped != seg->mapped : seg->mapped != seg->size) {
          return Err(1, "segment {:#x}: mapped bytes {} disagree with its pages", seg->base, seg->mapped);
        }
        pool_reserved += seg->mapped;
        for (const Block* b = seg->first; b != nullptr; b = b->next) {
          ++blocks;
          const BlockState st = b->state.load(std::memory_order_acquire);
          if (b->segment != seg || b->prev != prev) return Err(1, "block {:#x}: broken links", b->addr);
          if (b->addr != expect) return Err(1, "block {:#x}: expected to start at {:#x}", b->addr, expect);
          if (b->size == 0 || b->size % alloc::kMinBlock != 0) return Err(1, "block {:#x}: size {}", b->addr, b->size);
          if (prev != nullptr && st == BlockState::kFree &&
              prev->state.load(std::memory_order_relaxed) == BlockState::kFree) {
            return Err(1, "blocks {:#x} and {:#x} are both free and not merged", prev->addr, b->addr);
          }
          auto it = pool.blocks.find(b->addr);
          if (it == pool.blocks.end() || it->second != b) return Err(1, "block {:#x} not in the address map", b->addr);
          const bool should_index = st == BlockState::kFree || (st == BlockState::kPending && b->stream != 0);
          if (b->indexed != should_index || (b->indexed && pool.free_index.count(const_cast<Block*>(b)) != 1)) {
            return Err(1, "block {:#x} ({}) index membership is wrong", b->addr, StateName(st));
          }
          indexed += b->indexed ? 1 : 0;
          if (st == BlockState::kPending && (b->pending_slot >= pending_.size() || pending_[b->pending_slot].block != b)) {
            return Err(1, "pending block {:#x} is not in the pending list", b->addr);
          }
          if (seg->small && index_->StartAt(b->addr) != b) {
            return Err(1, "block {:#x} missing from the start table", b->addr);
          }
          if (st == BlockState::kLive) live_bytes += b->size;
          if (seg->expandable && st != BlockState::kFree) {
            for (uintptr_t a = b->addr / alloc::kPage * alloc::kPage; a < b->addr + b->size; a += alloc::kPage) {
              if (seg->pages[(a - seg->base) / alloc::kPage] < 0) {
                return Err(1, "block {:#x} ({}) lies on an unmapped page", b->addr, StateName(st));
              }
            }
          }
          expect = b->addr + b->size;
          prev = b;
        }
        if (expect != seg->base + seg->size) return Err(1, "segment {:#x}: blocks do not cover it", seg->base);
        if (seg->expandable) {
          std::vector<uint32_t> users(seg->pages.size(), 0);
          for (const Block* b = seg->first; b != nullptr; b = b->next) {
            if (b->state.load(std::memory_order_relaxed) == BlockState::kFree) continue;
            for (size_t i = (b->addr - seg->base) / alloc::kPage; i <= (b->addr + b->size - 1 - seg->base) / alloc::kPage;
                 ++i) {
              ++users[i];
            }
          }
          for (size_t i = 0; i < users.size(); ++i) {
            const bool idle = users[i] == 0 && seg->pages[i] >= 0;
            if (users[i] != seg->users[i] || idle != (seg->idle.count(i) == 1)) {
              return Err(1, "segment {:#x} page {}: {} users counted, {} recorded, idle set {}", seg->base, i, users[i],
                         seg->users[i], seg->idle.count(i));
            }
          }
        }
      }
      if (blocks != pool.blocks.size()) return Err(1, "pool address map has {} blocks, segments {}", pool.blocks.size(), blocks);
      if (indexed != pool.free_index.size()) return Err(1, "free index has {} blocks, {} expected", pool.free_index.size(), indexed);
      if (pool_reserved != pool.figures.reserved) {
        return Err(1, "pool reserved {} but its segments hold {}", pool.figures.reserved, pool_reserved);
      }
      reserved += pool_reserved;
    }
  }
  if (reserved != reserved_) return Err(1, "reserved {} but the pools hold {}", reserved_, reserved);
  uint64_t pending_bytes = 0;
  for (size_t i = 0; i < pending_.size(); ++i) {
    const Block* b = pending_[i].block;
    if (b->pending_slot != i || b->state.load(std::memory_order_relaxed) != BlockState::kPending) {
      return Err(1, "pending entry {} is inconsistent", i);
    }
    pending_bytes += b->size;
  }
  if (pending_bytes != pending_bytes_) return Err(1, "pending bytes {} != {}", pending_bytes_, pending_bytes);
  if (tls_slot_ < 0 && live_bytes != allocated_) {
    return Err(1, "allocated {} but live blocks hold {}", allocated_, live_bytes);
  }
  return Status::Ok();
}

}  // namespace npurt::core
