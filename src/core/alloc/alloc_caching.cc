#include "core/alloc/alloc_caching.h"

#include <algorithm>
#include <cstdlib>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "base/human_bytes.h"
#include "core/alloc/alloc_sites.h"
#include "core/alloc/alloc_thread_cache.h"
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
               options_.name, r.size, HumanBytes(cap));
  }
  const size_t block_size = alloc::BlockSizeFor(need, options_.config.roundup_power2_divisions);
  const PageKind kind = alloc::PageKindForPolicy(r.policy, block_size);
  if (tls_slot_ >= 0 && r.stream == 0 && !r.fresh_serial && kind == PageKind::kNormal &&
      block_size <= alloc::kThreadCacheLimit) {
    if (void* p = PopCached(block_size, r.size, r.owner)) return p;
  }
  return AllocateSlow(r, block_size, kind);
}

void* CachingAllocator::AllocateCached(size_t size, uint32_t policy, bool pad, void* owner) {
  if (tls_slot_ < 0 || size == 0 || size > alloc::kThreadCacheLimit) return nullptr;
  const size_t block_size = alloc::BlockSizeFor(alloc::NeedFor(size, pad), options_.config.roundup_power2_divisions);
  if (block_size > alloc::kThreadCacheLimit || alloc::PageKindForPolicy(policy, block_size) != PageKind::kNormal) {
    return nullptr;
  }
  return PopCached(block_size, size, owner);
}

void* CachingAllocator::PopCached(size_t block_size, size_t size, void* owner) {
  ThreadCache* tc = LocalCache();
  Block* b = tc->Pop(block_size);
  if (b == nullptr) return nullptr;
  b->requested.store(size, std::memory_order_relaxed);
  b->owner.store(owner, std::memory_order_relaxed);
  b->state.BecomeLive(std::memory_order_release);
  tc->CountAlloc(block_size, true);
  if (options_.config.debug_checks) [[unlikely]] CheckIfEnabled();
  return reinterpret_cast<void*>(b->addr.get());
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
        b->state.BecomeLive(std::memory_order_release);
        b->segment->last_use = ++clock_;
        AddAllocated(pool, static_cast<int64_t>(b->size));
        ++live_count_;
        ++counters_.alloc_count;
        Record(AllocEvent::kAlloc, b->addr, b->size, r.stream);
        CheckLocked();
        return reinterpret_cast<void*>(b->addr.get());
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
               HumanBytes(seg_size), HumanBytes(options_.limit), HumanBytes(reserved_));
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
                 HumanBytes(options_.limit), HumanBytes(reserved_));
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
  ReturnLocalCacheLocked();
  flush_epoch_.fetch_add(1, std::memory_order_relaxed);
  ReclaimPending();
  ReleaseIdle(0, false);
}

void CachingAllocator::ReturnLocalCacheLocked() {
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
}

uint64_t CachingAllocator::SettleAndCountIdle() {
  std::lock_guard<std::mutex> lock(mu_);
  ReturnLocalCacheLocked();
  if (!pending_.empty()) ReclaimPending();
  CheckLocked();
  return IdleBytesLocked();
}

uint64_t CachingAllocator::IdleBytesLocked() const {
  uint64_t idle = 0;
  for (const auto& kind_pools : pools_) {
    for (const Pool& pool : kind_pools) {
      for (const Segment* seg : pool.segments) {
        if (seg->expandable) {
          idle += static_cast<uint64_t>(seg->idle.size()) * alloc::kPage;
        } else if (seg->first->next == nullptr && seg->first->state.load(std::memory_order_relaxed) == BlockState::kFree) {
          idle += seg->size;
        }
      }
    }
  }
  return idle;
}

// ---- free ------------------------------------------------------------------------------------------

bool CachingAllocator::FreeCached(uintptr_t addr, Segment* seg) {
  return tls_slot_ >= 0 && seg->small && seg->pool->kind == PageKind::kNormal && PushCached(addr, seg);
}

// The two halves of the fast free, inlined into PushCached (two calls cost the fast path 5 ns); the public
// CheckFastFree and ClaimFastFree are the same code, out of line, for the tests.
[[gnu::always_inline]] inline CachingAllocator::FastFreeTicket CachingAllocator::CheckFastFreeInline(
    uintptr_t addr) const {
  Block* b = index_->StartAt(addr);
  if (b == nullptr) return {};
  // The word first (acquire): the fields read after it are at least as new as the life it names.
  const uint64_t seen = b->state.word(std::memory_order_acquire);
  if (BlockStateWord::StateOf(seen) != BlockState::kLive || b->addr != addr || b->size > alloc::kThreadCacheLimit ||
      b->stream != 0) {
    return {};
  }
  return {b, seen};
}

[[gnu::always_inline]] inline bool CachingAllocator::ClaimFastFreeInline(const FastFreeTicket& ticket) {
  Block* b = ticket.block;
  ThreadCache* tc = LocalCache();
  // The claim: of two threads freeing the same block, one wins; the other takes Free, which reports it. A
  // block that left the life the checks saw (freed, recycled, live again for another allocation) fails it.
  if (!b->state.ClaimIfUnchanged(ticket.seen, BlockState::kThreadCached, std::memory_order_acq_rel)) return false;
  b->owner.store(nullptr, std::memory_order_relaxed);
  if (tc->Push(b)) {
    tc->CountFree(b->size);
  } else {
    Block* one = b;
    ReturnFromThreadCache(&one, 1, -static_cast<int64_t>(b->size), 0, 1, 0);
  }
  if (options_.config.debug_checks) [[unlikely]] CheckIfEnabled();
  return true;
}

CachingAllocator::FastFreeTicket CachingAllocator::CheckFastFree(uintptr_t addr) const {
  return tls_slot_ >= 0 ? CheckFastFreeInline(addr) : FastFreeTicket{};  // (PushCached's callers check it)
}

bool CachingAllocator::ClaimFastFree(const FastFreeTicket& ticket) { return ClaimFastFreeInline(ticket); }

bool CachingAllocator::PushCached(uintptr_t addr, Segment* seg) {
  const FastFreeTicket ticket = CheckFastFreeInline(addr);
  return ticket.block != nullptr && ClaimFastFreeInline(ticket);
}

Status CachingAllocator::Free(uintptr_t addr, Segment* seg, const StreamFence* fences, size_t fence_count,
                              uintptr_t stream_key) {
  if (tls_slot_ >= 0 && fence_count == 0 && stream_key == 0 && seg->small && seg->pool->kind == PageKind::kNormal &&
      PushCached(addr, seg)) {
    return Status::Ok();
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

}  // namespace npurt::core
