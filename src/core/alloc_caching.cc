#include "core/alloc_caching.h"

#include <algorithm>
#include <cstdlib>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "core/alloc_sites.h"
#include "core/alloc_thread_cache.h"
#include "core/stream.h"
#include "dfx/log.h"

namespace npurt::core {

using alloc::PageKind;

namespace {

constexpr size_t kLargeBuffer = 20u << 20;  // an oversize block may exceed the request by less than this
constexpr size_t kBlocksPerChunk = 256;

bool BlockLess(const Block* a, const Block* b) {
  if (a->stream != b->stream) return a->stream < b->stream;
  if (a->size != b->size) return a->size < b->size;
  return a->addr < b->addr;
}

std::string Bytes(uint64_t n) {
  if (n < (1u << 10)) return fmt::format("{} B", n);
  if (n < (1u << 20)) return fmt::format("{} B ({:.1f} KiB)", n, double(n) / 1024.0);
  if (n < (1ull << 30)) return fmt::format("{} B ({:.2f} MiB)", n, double(n) / double(1 << 20));
  return fmt::format("{} B ({:.2f} GiB)", n, double(n) / double(1ull << 30));
}

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

const char* AllocEventName(AllocEvent::Kind kind) {
  switch (kind) {
    case AllocEvent::kAlloc: return "alloc";
    case AllocEvent::kFree: return "free";
    case AllocEvent::kFreePending: return "free_pending";
    case AllocEvent::kSegmentAlloc: return "segment_alloc";
    case AllocEvent::kSegmentFree: return "segment_free";
    case AllocEvent::kPageMap: return "page_map";
    case AllocEvent::kPageUnmap: return "page_unmap";
    case AllocEvent::kOom: return "oom";
  }
  return "?";
}

BlockPool::BlockPool() : free_index(&BlockLess) {}

CachingAllocator::CachingAllocator(DeviceMemory* memory, SegmentIndex* index, Options options)
    : memory_(memory),
      index_(index),
      options_(std::move(options)),
      tls_enabled_(options_.thread_cache && options_.config.thread_cache && !options_.config.record_sites &&
                   options_.config.history == 0) {
  for (int k = 0; k < alloc::kPageKinds; ++k) {
    for (int s = 0; s < 2; ++s) {
      pools_[k][s].kind = static_cast<PageKind>(k);
      pools_[k][s].small = s == 0 && static_cast<PageKind>(k) != PageKind::kHuge1G;
      pools_[k][s].owner = this;
    }
  }
  if (tls_enabled_) tls_slot_ = AcquireThreadCacheSlot();
  if (options_.config.history > 0) history_.reserve(options_.config.history);
}

CachingAllocator::~CachingAllocator() {
  if (tls_slot_ >= 0) ReleaseThreadCacheSlot(tls_slot_, this);
  std::lock_guard<std::mutex> lock(mu_);
  pending_.clear();
  for (auto& kind_pools : pools_) {
    for (Pool& pool : kind_pools) {
      for (Segment* seg : pool.segments) {
        for (Block* b = seg->first; b != nullptr; b = b->next) {
          if (seg->small) index_->SetStart(b->addr, nullptr);
        }
        index_->SetSegment(seg->base, seg->size, nullptr);
        if (seg->expandable) {
          for (size_t i = 0; i < seg->pages.size(); ++i) {
            if (seg->pages[i] < 0) continue;
            (void)memory_->Unmap(seg->base + i * alloc::kPage, alloc::kPage);
            memory_->FreePhysical(static_cast<uint64_t>(seg->pages[i]), alloc::kPage);
          }
          memory_->ReleaseWindow(seg->base, seg->size);
        } else {
          memory_->FreeLinear(seg->base, seg->size);
        }
        delete seg;
      }
      pool.segments.clear();
    }
  }
}

CachingAllocator::Pool& CachingAllocator::PoolFor(PageKind kind, size_t block_size) {
  return pools_[static_cast<int>(kind)][alloc::IsSmall(block_size, kind) ? 0 : 1];
}

ThreadCache* CachingAllocator::LocalCache() {
  ThreadCache*& tc = ThreadCacheSlot(tls_slot_);
  if (tc != nullptr && tc->owner() == this) [[likely]] {
    const uint32_t epoch = flush_epoch_.load(std::memory_order_relaxed);
    if (tc->FlushRequested(epoch)) [[unlikely]] tc->Flush(epoch);
    return tc;
  }
  return CreateThreadCache(this, tls_slot_, options_.config.thread_cache_bytes);
}

// ---- allocation ------------------------------------------------------------------------------------

StatusOr<void*> CachingAllocator::Allocate(const AllocRequest& r) {
  if (r.size == 0) return Err(ACL_ERROR_INVALID_PARAM, "allocation size is 0");
  const size_t need = alloc::NeedFor(r.size, r.pad);
  const uint64_t cap = std::min<uint64_t>(memory_->capacity(), options_.limit);
  if (need == 0 || need > cap) {
    return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "{}: requested {} bytes, more than the {} it can ever hold",
               options_.name, r.size, Bytes(cap));
  }
  const size_t block_size = alloc::BlockSizeFor(need, options_.config.roundup_power2_divisions);
  const PageKind kind = alloc::PageKindForPolicy(r.policy, block_size);
  if (tls_slot_ >= 0 && r.stream == 0 && !r.fresh_serial && kind == PageKind::kNormal &&
      block_size <= alloc::kThreadCacheLimit) {
    ThreadCache* tc = LocalCache();
    if (Block* b = tc->Pop(block_size)) {
      b->requested.store(r.size, std::memory_order_relaxed);
      b->owner.store(r.owner, std::memory_order_relaxed);
      b->state.store(BlockState::kLive, std::memory_order_release);
      tc->CountAlloc(block_size, true);
      if (options_.config.debug_checks) [[unlikely]] CheckIfEnabled();
      return reinterpret_cast<void*>(b->addr);
    }
  }
  return AllocateSlow(r, block_size, kind);
}

StatusOr<void*> CachingAllocator::AllocateSlow(const AllocRequest& r, size_t block_size, PageKind kind) {
  const uint32_t site = options_.config.record_sites ? CaptureAllocationSite() : 0;
  std::unique_lock<std::mutex> lock(mu_);
  Pool& pool = PoolFor(kind, block_size);
  if (!pending_.empty()) ReclaimPending();
  Status why;
  for (int attempt = 0; attempt < 2; ++attempt) {
    Block* b = FindFree(pool, block_size, r.stream);
    if (b == nullptr) {
      if (options_.config.gc_threshold > 0) {
        CollectGarbage(alloc::SegmentSizeFor(block_size, kind, options_.config.large_segment_size));
      }
      b = Grow(pool, block_size, &why);
    }
    if (b != nullptr) {
      Status st = Commit(pool, b, block_size);
      if (st.ok()) {
        b->stream = r.stream;
        b->requested.store(r.size, std::memory_order_relaxed);
        b->owner.store(r.owner, std::memory_order_relaxed);
        b->serial = ++serial_;
        b->site = site;
        b->state.store(BlockState::kLive, std::memory_order_release);
        b->segment->last_use = ++clock_;
        AddAllocated(pool, static_cast<int64_t>(b->size));
        ++live_count_;
        ++counters_.alloc_count;
        Record(AllocEvent::kAlloc, b->addr, b->size, r.stream);
        CheckLocked();
        return reinterpret_cast<void*>(b->addr);
      }
      why = std::move(st);
    }
    if (attempt == 0) {
      ++counters_.retries;
      ReleaseAndRetryPrep();
    }
  }
  ++counters_.ooms;
  Record(AllocEvent::kOom, 0, block_size, r.stream);
  Status oom = OutOfMemory(r, block_size, kind, why);
  lock.unlock();
  NPURT_LOG_WARNING("RUNTIME", "{}", oom.message());
  return oom;
}

Block* CachingAllocator::FindFree(Pool& pool, size_t size, uintptr_t stream) {
  auto find = [&](uintptr_t key) -> Block* {
    Block probe;
    probe.stream = key;
    probe.size = size;
    probe.addr = 0;
    auto it = pool.free_index.lower_bound(&probe);
    if (it == pool.free_index.end() || (*it)->stream != key) return nullptr;
    Block* b = *it;
    const uint64_t max_split = options_.config.max_split_size;
    if (!pool.small && max_split != UINT64_MAX && !b->segment->expandable) {
      // Oversize blocks (>= max_split_size) are kept for requests of their own size class.
      if (size < max_split && b->size >= max_split) return nullptr;
      if (size >= max_split && b->size >= size + kLargeBuffer) return nullptr;
    }
    return b;
  };
  if (stream != 0) {
    if (Block* b = find(stream)) return b;
  }
  return find(0);
}

Block* CachingAllocator::Grow(Pool& pool, size_t size, Status* why) {
  const uint64_t cap = std::min<uint64_t>(memory_->capacity(), options_.limit);
  if (options_.config.expandable_segments && pool.kind != PageKind::kHuge1G && !pool.expandable_failed &&
      pool.expandable == nullptr) {
    // Addresses are cheap: 1.5x the capacity leaves a large pool room to creep upwards as idle pages move
    // to where blocks grow; small blocks rarely fill a device, half the capacity serves them.
    const uint64_t span = alloc::RoundUp(pool.small ? cap / 2 : cap + cap / 2, alloc::kPage);
    auto va = memory_->ReserveWindow(span, alloc::kPage, 0);
    if (va.ok()) {
      Segment* seg = new Segment();
      seg->base = va.value();
      seg->size = span;
      seg->pool = &pool;
      seg->expandable = true;
      seg->small = pool.small;
      seg->pages.assign(span / alloc::kPage, -1);
      seg->users.assign(span / alloc::kPage, 0);
      Block* b = NewBlock();
      b->addr = seg->base;
      b->size = span;
      b->segment = seg;
      seg->first = b;
      pool.blocks.emplace(b->addr, b);
      pool.segments.push_back(seg);
      pool.expandable = seg;
      index_->SetSegment(seg->base, seg->size, seg);
      SetStart(seg, b->addr, b);
      Index(b);
      ++counters_.segment_allocs;
      Record(AllocEvent::kSegmentAlloc, seg->base, 0, 0);
      if (size <= span) return b;
    } else {
      pool.expandable_failed = true;
      NPURT_LOG_WARNING("RUNTIME", "{}: expandable segments unavailable ({}); using fixed segments", options_.name,
                        va.status().message());
    }
  }
  // Fixed segments: without expandable segments, or when the pool's reservation has no free range left.
  size_t seg_size = alloc::SegmentSizeFor(size, pool.kind, options_.config.large_segment_size);
  // When the preferred (shared) segment does not fit, a segment of just the block's pages may.
  const size_t exact = alloc::RoundUp(size, alloc::SegmentAlignment(pool.kind));
  if (reserved_ + seg_size > options_.limit) seg_size = exact;
  if (reserved_ + seg_size > options_.limit) {
    *why = Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "a new segment of {} would pass the limit of {} ({} reserved)",
               Bytes(seg_size), Bytes(options_.limit), Bytes(reserved_));
    return nullptr;
  }
  auto va = memory_->AllocateLinear(seg_size, alloc::SegmentAlignment(pool.kind));
  if (!va.ok() && seg_size > exact) {
    seg_size = exact;
    va = memory_->AllocateLinear(seg_size, alloc::SegmentAlignment(pool.kind));
  }
  if (!va.ok()) {
    *why = va.status();
    return nullptr;
  }
  Segment* seg = new Segment();
  seg->base = va.value();
  seg->size = seg_size;
  seg->mapped = seg_size;
  seg->pool = &pool;
  seg->small = pool.small;
  Block* b = NewBlock();
  b->addr = seg->base;
  b->size = seg_size;
  b->segment = seg;
  seg->first = b;
  pool.blocks.emplace(b->addr, b);
  pool.segments.push_back(seg);
  index_->SetSegment(seg->base, seg->size, seg);
  SetStart(seg, b->addr, b);
  Index(b);
  AddReserved(pool, static_cast<int64_t>(seg_size));
  ++counters_.segment_allocs;
  Record(AllocEvent::kSegmentAlloc, seg->base, seg_size, 0);
  return b;
}

Status CachingAllocator::EnsureMapped(Segment* seg, uintptr_t addr, size_t size) {
  const size_t first = (addr - seg->base) / alloc::kPage;
  const size_t last = (addr + size - 1 - seg->base) / alloc::kPage;
  for (size_t i = first; i <= last; ++i) {
    if (seg->pages[i] >= 0) continue;
    if (reserved_ + alloc::kPage > options_.limit) {
      return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "mapping another page would pass the limit of {} ({} reserved)",
                 Bytes(options_.limit), Bytes(reserved_));
    }
    // An idle page inside a free range of this segment moves here instead of a new one: the segment
    // grows in addresses, not in memory (see docs/memory.md, "Expandable segments").
    StatusOr<uint64_t> phys = TakeIdlePage(seg, seg->base + first * alloc::kPage, seg->base + (last + 1) * alloc::kPage);
    if (!phys.ok()) phys = memory_->AllocatePhysical(alloc::kPage, alloc::kPage);
    if (!phys.ok()) return phys.status();
    const uintptr_t va = seg->base + i * alloc::kPage;
    Status st = memory_->Map(va, alloc::kPage, hal::kLocalMemory, phys.value(), hal::MemoryAccess::kReadWrite);
    if (!st.ok()) {
      memory_->FreePhysical(phys.value(), alloc::kPage);
      return st;
    }
    seg->pages[i] = static_cast<int64_t>(phys.value());
    if (seg->users[i] == 0) seg->idle.insert(i);
    seg->mapped += alloc::kPage;
    AddReserved(*seg->pool, alloc::kPage);
    ++counters_.page_maps;
    Record(AllocEvent::kPageMap, va, alloc::kPage, 0);
  }
  return Status::Ok();
}

StatusOr<uint64_t> CachingAllocator::TakeIdlePage(Segment* target, uintptr_t keep_lo, uintptr_t keep_hi) {
  // Pages are interchangeable: any expandable segment of this allocator may give one.
  for (auto& kind_pools : pools_) {
    for (BlockPool& pool : kind_pools) {
      Segment* seg = pool.expandable;
      if (seg == nullptr) continue;
      for (size_t j : seg->idle) {
        const uintptr_t va = seg->base + j * alloc::kPage;
        if (seg == target && va >= keep_lo && va < keep_hi) continue;
        const auto phys = static_cast<uint64_t>(seg->pages[j]);
        NPURT_RETURN_IF_ERROR(UnmapPage(seg, j));
        return phys;
      }
    }
  }
  return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "no idle page");
}

Status CachingAllocator::UnmapPage(Segment* seg, size_t j) {
  const uintptr_t va = seg->base + j * alloc::kPage;
  NPURT_RETURN_IF_ERROR(memory_->Unmap(va, alloc::kPage));
  seg->pages[j] = -1;
  seg->idle.erase(j);
  seg->mapped -= alloc::kPage;
  AddReserved(*seg->pool, -static_cast<int64_t>(alloc::kPage));
  ++counters_.page_unmaps;
  Record(AllocEvent::kPageUnmap, va, alloc::kPage, 0);
  return Status::Ok();
}

void CachingAllocator::TouchPages(Segment* seg, const Block* b, int delta) {
  const size_t first = (b->addr - seg->base) / alloc::kPage;
  const size_t last = (b->addr + b->size - 1 - seg->base) / alloc::kPage;
  for (size_t i = first; i <= last; ++i) {
    seg->users[i] = static_cast<uint32_t>(static_cast<int64_t>(seg->users[i]) + delta);
    if (seg->users[i] == 0 && seg->pages[i] >= 0) {
      seg->idle.insert(i);
    } else {
      seg->idle.erase(i);
    }
  }
}

Status CachingAllocator::Commit(Pool& pool, Block* b, size_t size) {
  Segment* seg = b->segment;
  if (seg->expandable) NPURT_RETURN_IF_ERROR(EnsureMapped(seg, b->addr, size));
  Unindex(b);
  const bool was_pending = b->state.load(std::memory_order_relaxed) == BlockState::kPending;
  if (was_pending) RemovePending(b);
  const size_t remaining = b->size - size;
  bool split;
  if (was_pending) {
    split = false;  // keep the fences' block whole; it is reused as it was freed
  } else if (pool.small || seg->expandable || pool.kind == PageKind::kHuge1G) {
    split = remaining >= alloc::kMinBlock;
  } else {
    split = size < options_.config.max_split_size && remaining > alloc::kSmallLimit;
  }
  if (split) {
    Block* rest = NewBlock();
    rest->addr = b->addr + size;
    rest->size = remaining;
    rest->segment = seg;
    rest->prev = b;
    rest->next = b->next;
    if (b->next != nullptr) b->next->prev = rest;
    b->next = rest;
    b->size = size;
    pool.blocks.emplace(rest->addr, rest);
    SetStart(seg, rest->addr, rest);
    Index(rest);
  }
  if (seg->expandable && !was_pending) TouchPages(seg, b, +1);
  return Status::Ok();
}

void CachingAllocator::ReleaseAndRetryPrep() {
  // This thread's cache goes back now; other threads return theirs at their next call.
  if (tls_slot_ >= 0) {
    ThreadCache* tc = ThreadCacheSlot(tls_slot_);
    if (tc != nullptr && tc->owner() == this) {
      std::vector<Block*> blocks;
      int64_t delta = 0;
      uint64_t allocs = 0, frees = 0, hits = 0;
      tc->TakeAll(&blocks, &delta, &allocs, &frees, &hits);
      for (Block* b : blocks) MakeFree(b);
      AddAllocated(pools_[0][0], delta);
      live_count_ += allocs;
      live_count_ -= frees;
      counters_.alloc_count += allocs;
      counters_.free_count += frees;
      counters_.thread_cache_hits += hits;
    }
  }
  flush_epoch_.fetch_add(1, std::memory_order_relaxed);
  ReclaimPending();
  ReleaseIdle(0, false);
}

// ---- free ------------------------------------------------------------------------------------------

Status CachingAllocator::Free(uintptr_t addr, Segment* seg, const StreamFence* fences, size_t fence_count,
                              uintptr_t stream_key) {
  if (tls_slot_ >= 0 && fence_count == 0 && stream_key == 0 && seg->small && seg->pool->kind == PageKind::kNormal) {
    Block* b = index_->StartAt(addr);
    if (b != nullptr && b->state.load(std::memory_order_acquire) == BlockState::kLive && b->addr == addr &&
        b->size <= alloc::kThreadCacheLimit && b->stream == 0) {
      ThreadCache* tc = LocalCache();
      BlockState expect = BlockState::kLive;
      if (b->state.compare_exchange_strong(expect, BlockState::kThreadCached, std::memory_order_acq_rel)) {
        b->owner.store(nullptr, std::memory_order_relaxed);
        if (tc->Push(b)) {
          tc->CountFree(b->size);
        } else {
          Block* one = b;
          ReturnFromThreadCache(&one, 1, -static_cast<int64_t>(b->size), 0, 1, 0);
        }
        if (options_.config.debug_checks) [[unlikely]] CheckIfEnabled();
        return Status::Ok();
      }
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  Pool& pool = *seg->pool;
  auto it = pool.blocks.find(addr);
  if (it == pool.blocks.end()) return FreeError(addr, pool);
  Block* b = it->second;
  BlockState expect = BlockState::kLive;
  if (!b->state.compare_exchange_strong(expect, BlockState::kPending, std::memory_order_acq_rel)) {
    return FreeError(addr, pool);
  }
  AddAllocated(pool, -static_cast<int64_t>(b->size));
  --live_count_;
  ++counters_.free_count;
  b->owner.store(nullptr, std::memory_order_relaxed);
  if (fence_count > 0 && !FencesPassed(fences, fence_count)) {
    b->stream = stream_key;
    b->pending_slot = static_cast<uint32_t>(pending_.size());
    pending_.push_back({b, std::vector<StreamFence>(fences, fences + fence_count)});
    pending_bytes_ += b->size;
    if (stream_key != 0) Index(b);  // reusable at once in the freeing stream's order
    Record(AllocEvent::kFreePending, b->addr, b->size, stream_key);
  } else {
    Record(AllocEvent::kFree, b->addr, b->size, stream_key);
    MakeFree(b);
  }
  CheckLocked();
  return Status::Ok();
}

Status CachingAllocator::FreeError(uintptr_t addr, const Pool& pool) const {
  auto it = pool.blocks.upper_bound(addr);
  if (it != pool.blocks.begin()) {
    --it;
    const Block* b = it->second;
    const BlockState s = b->state.load(std::memory_order_acquire);
    if (b->addr == addr) {
      return Err(ACL_ERROR_RT_MEMORY_FREE, "{:#x} is not a live device allocation: it was already freed ({})", addr,
                 s == BlockState::kPending ? "its free is still waiting for streams" : "double free");
    }
    if (s == BlockState::kLive && addr < b->addr + b->size) {
      return Err(ACL_ERROR_RT_MEMORY_FREE, "{:#x} points inside the allocation at {:#x} ({} bytes), not at its start",
                 addr, b->addr, b->requested.load(std::memory_order_relaxed));
    }
  }
  return Err(ACL_ERROR_RT_MEMORY_FREE, "{:#x} is not a live device allocation (already freed, or never allocated)",
             addr);
}

void CachingAllocator::MakeFree(Block* b) {
  Segment* seg = b->segment;
  Pool& pool = *seg->pool;
  if (seg->expandable) TouchPages(seg, b, -1);
  b->state.store(BlockState::kFree, std::memory_order_release);
  b->stream = 0;
  b->owner.store(nullptr, std::memory_order_relaxed);
  b->requested.store(0, std::memory_order_relaxed);
  b->site = 0;
  if (Block* n = b->next; n != nullptr && n->state.load(std::memory_order_relaxed) == BlockState::kFree) {
    Unindex(n);
    b->size += n->size;
    b->next = n->next;
    if (n->next != nullptr) n->next->prev = b;
    pool.blocks.erase(n->addr);
    SetStart(seg, n->addr, nullptr);
    RecycleBlock(n);
  }
  if (Block* p = b->prev; p != nullptr && p->state.load(std::memory_order_relaxed) == BlockState::kFree) {
    Unindex(p);
    p->size += b->size;
    p->next = b->next;
    if (b->next != nullptr) b->next->prev = p;
    pool.blocks.erase(b->addr);
    SetStart(seg, b->addr, nullptr);
    RecycleBlock(b);
    b = p;
  }
  Index(b);
}

void CachingAllocator::ReturnFromThreadCache(Block** blocks, size_t count, int64_t allocated_delta, uint64_t allocs,
                                             uint64_t frees, uint64_t hits) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < count; ++i) MakeFree(blocks[i]);
  AddAllocated(pools_[0][0], allocated_delta);
  live_count_ += allocs;
  live_count_ -= frees;
  counters_.alloc_count += allocs;
  counters_.free_count += frees;
  counters_.thread_cache_hits += hits;
  CheckLocked();
}

void CachingAllocator::FoldThreadDelta(int64_t delta) {
  std::lock_guard<std::mutex> lock(mu_);
  AddAllocated(pools_[0][0], delta);
}

void CachingAllocator::Index(Block* b) {
  b->segment->pool->free_index.insert(b);
  b->indexed = true;
}

void CachingAllocator::Unindex(Block* b) {
  if (!b->indexed) return;
  b->segment->pool->free_index.erase(b);
  b->indexed = false;
}

void CachingAllocator::RemovePending(Block* b) {
  const uint32_t slot = b->pending_slot;
  if (slot == UINT32_MAX) return;
  pending_bytes_ -= b->size;
  if (slot + 1 != pending_.size()) {
    pending_[slot] = std::move(pending_.back());
    pending_[slot].block->pending_slot = slot;
  }
  pending_.pop_back();
  b->pending_slot = UINT32_MAX;
}

void CachingAllocator::ReclaimPending() {
  for (size_t i = 0; i < pending_.size();) {
    Pending& p = pending_[i];
    if (!FencesPassed(p.fences.data(), p.fences.size())) {
      ++i;
      continue;
    }
    Block* b = p.block;
    RemovePending(b);  // moves the last entry into slot i
    Unindex(b);
    MakeFree(b);
  }
}

void CachingAllocator::WaitForPendingFrees() {
  std::vector<StreamFence> fences;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const Pending& p : pending_) fences.insert(fences.end(), p.fences.begin(), p.fences.end());
  }
  for (const StreamFence& f : fences) (void)f.stream->queue()->WaitHost(f.seq, UINT64_MAX);
  std::lock_guard<std::mutex> lock(mu_);
  ReclaimPending();
  CheckLocked();
}

Block* CachingAllocator::NewBlock() {
  if (recycled_ == nullptr) {
    auto chunk = std::make_unique<Block[]>(kBlocksPerChunk);
    for (size_t i = 0; i < kBlocksPerChunk; ++i) {
      chunk[i].free_link = recycled_;
      recycled_ = &chunk[i];
    }
    block_storage_.push_back(std::move(chunk));
  }
  Block* b = recycled_;
  recycled_ = b->free_link;
  b->free_link = nullptr;
  return b;
}

void CachingAllocator::RecycleBlock(Block* b) {
  // A reader that still holds the pointer (segment index) sees a free block and takes the slow path.
  b->state.store(BlockState::kFree, std::memory_order_release);
  b->addr = 0;
  b->size = 0;
  b->prev = b->next = nullptr;
  b->segment = nullptr;
  b->stream = 0;
  b->requested.store(0, std::memory_order_relaxed);
  b->owner.store(nullptr, std::memory_order_relaxed);
  b->site = 0;
  b->pending_slot = UINT32_MAX;
  b->indexed = false;
  b->free_link = recycled_;
  recycled_ = b;
}

void CachingAllocator::SetStart(Segment* seg, uintptr_t addr, Block* b) {
  if (seg->small) index_->SetStart(addr, b);
}

// ---- release ---------------------------------------------------------------------------------------

void CachingAllocator::ReleaseSegment(Pool& pool, Segment* seg) {
  Block* b = seg->first;
  Unindex(b);
  pool.blocks.erase(b->addr);
  SetStart(seg, b->addr, nullptr);
  RecycleBlock(b);
  index_->SetSegment(seg->base, seg->size, nullptr);
  memory_->FreeLinear(seg->base, seg->size);
  AddReserved(pool, -static_cast<int64_t>(seg->size));
  ++counters_.segment_frees;
  Record(AllocEvent::kSegmentFree, seg->base, seg->size, 0);
  pool.segments.erase(std::find(pool.segments.begin(), pool.segments.end(), seg));
  // Lock-free readers may still hold the pointer: segments are retired, not deleted, while we live.
  seg->first = nullptr;
  seg->pool = &pool;
  seg->small = false;
  retired_segments_.emplace_back(seg);
}

uint64_t CachingAllocator::UnmapIdlePages(Segment* seg, uint64_t target_reserved) {
  uint64_t released = 0;
  while (!seg->idle.empty() && reserved_ > target_reserved) {
    const size_t j = *seg->idle.rbegin();  // from the top: keeps the low addresses dense
    const auto phys = static_cast<uint64_t>(seg->pages[j]);
    if (!UnmapPage(seg, j).ok()) break;
    memory_->FreePhysical(phys, alloc::kPage);
    released += alloc::kPage;
  }
  return released;
}

uint64_t CachingAllocator::ReleaseIdle(uint64_t target_reserved, bool oldest_first) {
  const uint64_t before = reserved_;
  std::vector<std::pair<uint64_t, Segment*>> idle;
  for (auto& kind_pools : pools_) {
    for (Pool& pool : kind_pools) {
      for (Segment* seg : pool.segments) {
        if (seg->expandable) continue;
        const Block* b = seg->first;
        if (b->next == nullptr && b->state.load(std::memory_order_relaxed) == BlockState::kFree) {
          idle.emplace_back(oldest_first ? seg->last_use : 0, seg);
        }
      }
    }
  }
  std::stable_sort(idle.begin(), idle.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (const auto& [age, seg] : idle) {
    if (reserved_ <= target_reserved) break;
    ReleaseSegment(*seg->pool, seg);
  }
  for (auto& kind_pools : pools_) {
    for (Pool& pool : kind_pools) {
      if (pool.expandable != nullptr && reserved_ > target_reserved) UnmapIdlePages(pool.expandable, target_reserved);
    }
  }
  return before - reserved_;
}

void CachingAllocator::CollectGarbage(size_t incoming) {
  const uint64_t cap = std::min<uint64_t>(memory_->capacity(), options_.limit);
  const auto threshold = static_cast<uint64_t>(options_.config.gc_threshold * static_cast<double>(cap));
  if (reserved_ + incoming <= threshold) return;
  ReleaseIdle(threshold > incoming ? threshold - incoming : 0, /*oldest_first=*/true);
}

void CachingAllocator::Trim(uint64_t keep) {
  std::lock_guard<std::mutex> lock(mu_);
  ReclaimPending();
  ReleaseIdle(keep, true);
  CheckLocked();
}

std::vector<LiveAllocation> CachingAllocator::FreeOwnedBy(void* owner) {
  std::vector<LiveAllocation> freed;
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<Block*> doomed;
  for (auto& kind_pools : pools_) {
    for (Pool& pool : kind_pools) {
      for (const auto& [addr, b] : pool.blocks) {
        if (b->state.load(std::memory_order_acquire) == BlockState::kLive &&
            b->owner.load(std::memory_order_relaxed) == owner) {
          doomed.push_back(b);
        }
      }
    }
  }
  for (Block* b : doomed) {
    BlockState expect = BlockState::kLive;
    if (!b->state.compare_exchange_strong(expect, BlockState::kPending, std::memory_order_acq_rel)) continue;
    Pool& pool = *b->segment->pool;
    freed.push_back({b->addr, b->requested.load(std::memory_order_relaxed), b->size, owner, b->stream, b->site,
                     pool.kind});
    AddAllocated(pool, -static_cast<int64_t>(b->size));
    --live_count_;
    ++counters_.free_count;
    Record(AllocEvent::kFree, b->addr, b->size, 0);
    MakeFree(b);
  }
  CheckLocked();
  return freed;
}

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
             options_.name, Bytes(r.size), Bytes(block_size), alloc::PageKindName(kind),
             alloc::IsSmall(block_size, kind) ? "small" : "large", Bytes(cap), Bytes(allocated_), live_count_,
             Bytes(reserved_), Bytes(cached_free),
             options_.limit != UINT64_MAX ? fmt::format(" of a limit of {}", Bytes(options_.limit)) : std::string(),
             Bytes(device_free), Bytes(largest), frag, pending_.size(), Bytes(pending_bytes_),
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
                                 {"size", b->size},
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
