#include "core/device_allocator.h"

#include <algorithm>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/rt_error_codes.h"
#include "core/stream.h"
#include "hal/hal.h"

namespace npurt::core {
namespace {

constexpr size_t kPrefaultChunk = 2u << 20;

size_t RoundUp(size_t v, size_t a) { return (v + a - 1) / a * a; }

bool FencesPassed(const std::vector<StreamFence>& fences) {
  for (const StreamFence& f : fences) {
    if (!f.stream->Passed(f.seq)) return false;
  }
  return true;
}

}  // namespace

DeviceAllocator::DeviceAllocator(hal::Device* device, uint8_t* base, uint64_t size)
    : device_(device), base_(reinterpret_cast<uintptr_t>(base)), size_(size), prefaulted_end_(base_) {
  blocks_.emplace(base_, Block{size, 0, State::kFree, nullptr});
  free_index_.emplace(size, base_);
}

StatusOr<void*> DeviceAllocator::Allocate(size_t size, Context* owner) {
  if (size == 0) return Err(ACL_ERROR_INVALID_PARAM, "allocation size is 0");
  if (size > size_) {
    return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "requested {} bytes, more than the device's {} bytes", size, size_);
  }
  const size_t rounded = RoundUp(size, kGranule);
  std::lock_guard<std::mutex> lock(mu_);
  if (!pending_.empty()) ReclaimPending(true);
  void* p = TakeCached(rounded);
  if (p == nullptr) p = CarveBestFit(rounded);
  if (p == nullptr) {
    // Out of memory: give every cached block back, merge, and try once more.
    FlushCaches();
    p = CarveBestFit(rounded);
  }
  if (p == nullptr) {
    const uint64_t largest = LargestFree();
    const double frag = (size_ - reserved_) == 0 ? 0.0 : 1.0 - double(largest) / double(size_ - reserved_);
    return Err(ACL_ERROR_RT_MEMORY_ALLOCATION,
               "device out of memory: requested {} bytes; allocated {} bytes in {} blocks, reserved {}, free {}, "
               "largest free block {} (fragmentation {:.2f}), pending stream-ordered frees {}",
               size, live_, live_count_, reserved_, size_ - reserved_, largest, frag, pending_.size());
  }
  Block& b = blocks_.at(reinterpret_cast<uintptr_t>(p));
  b.state = State::kLive;
  b.requested = size;
  b.owner = owner;
  live_ += b.size;
  ++live_count_;
  peak_live_ = std::max(peak_live_, live_);
  return p;
}

void* DeviceAllocator::TakeCached(size_t rounded) {
  if (rounded > kMaxCachedSize) return nullptr;
  auto it = cache_.find(rounded);
  if (it == cache_.end() || it->second.empty()) return nullptr;
  uintptr_t addr = it->second.back();
  it->second.pop_back();
  return reinterpret_cast<void*>(addr);
}

void* DeviceAllocator::CarveBestFit(size_t rounded) {
  auto it = free_index_.lower_bound({rounded, 0});
  if (it == free_index_.end()) return nullptr;
  const uintptr_t addr = it->second;
  const size_t have = it->first;
  free_index_.erase(it);
  Block& b = blocks_.at(addr);
  if (have > rounded) {
    blocks_.emplace(addr + rounded, Block{have - rounded, 0, State::kFree, nullptr});
    free_index_.emplace(have - rounded, addr + rounded);
    b.size = rounded;
  }
  b.state = State::kLive;
  reserved_ += b.size;
  PrefaultUpTo(addr + b.size);
  return reinterpret_cast<void*>(addr);
}

void DeviceAllocator::PrefaultUpTo(uintptr_t end) {
  if (end <= prefaulted_end_) return;
  const uintptr_t new_end = std::min<uintptr_t>(RoundUp(end - base_, kPrefaultChunk) + base_, base_ + size_);
  device_->Prefault(reinterpret_cast<void*>(prefaulted_end_), new_end - prefaulted_end_);
  prefaulted_end_ = new_end;
}

Status DeviceAllocator::Free(void* ptr, std::vector<StreamFence> fences) {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = blocks_.find(addr);
  if (it == blocks_.end() || it->second.state != State::kLive) {
    auto containing = blocks_.upper_bound(addr);
    if (containing != blocks_.begin()) {
      --containing;
      if (containing->second.state == State::kLive && addr < containing->first + containing->second.size) {
        return Err(ACL_ERROR_RT_MEMORY_FREE, "{} points inside the allocation at {:#x} ({} bytes), not at its start",
                   ptr, containing->first, containing->second.requested);
      }
    }
    return Err(ACL_ERROR_RT_MEMORY_FREE, "{} is not a live device allocation (already freed, or never allocated)",
               ptr);
  }
  Block& b = it->second;
  live_ -= b.size;
  --live_count_;
  b.owner = nullptr;
  if (!fences.empty() && !FencesPassed(fences)) {
    b.state = State::kPending;
    pending_.push_back({addr, std::move(fences)});
    return Status::Ok();
  }
  if (b.size <= kMaxCachedSize) {
    b.state = State::kCached;
    cache_[b.size].push_back(addr);
  } else {
    ReleaseToFreeTree(addr);
  }
  return Status::Ok();
}

void DeviceAllocator::ReleaseToFreeTree(uintptr_t addr) {
  auto it = blocks_.find(addr);
  reserved_ -= it->second.size;
  it->second.state = State::kFree;
  // Merge with the next block.
  auto next = std::next(it);
  if (next != blocks_.end() && next->second.state == State::kFree) {
    free_index_.erase({next->second.size, next->first});
    it->second.size += next->second.size;
    blocks_.erase(next);
  }
  // Merge with the previous block.
  if (it != blocks_.begin()) {
    auto prev = std::prev(it);
    if (prev->second.state == State::kFree) {
      free_index_.erase({prev->second.size, prev->first});
      prev->second.size += it->second.size;
      blocks_.erase(it);
      it = prev;
    }
  }
  free_index_.emplace(it->second.size, it->first);
}

void DeviceAllocator::ReclaimPending(bool /*all_passed_only*/) {
  for (size_t i = 0; i < pending_.size();) {
    if (FencesPassed(pending_[i].fences)) {
      const uintptr_t addr = pending_[i].addr;
      pending_[i] = std::move(pending_.back());
      pending_.pop_back();
      Block& b = blocks_.at(addr);
      if (b.size <= kMaxCachedSize) {
        b.state = State::kCached;
        cache_[b.size].push_back(addr);
      } else {
        ReleaseToFreeTree(addr);
      }
    } else {
      ++i;
    }
  }
}

void DeviceAllocator::FlushCaches() {
  for (auto& [size, addrs] : cache_) {
    for (uintptr_t a : addrs) ReleaseToFreeTree(a);
    addrs.clear();
  }
}

bool DeviceAllocator::Lookup(const void* ptr, AllocationInfo* out) const {
  const auto addr = reinterpret_cast<uintptr_t>(ptr);
  if (addr < base_ || addr >= base_ + size_) return false;
  std::lock_guard<std::mutex> lock(mu_);
  auto it = blocks_.upper_bound(addr);
  if (it == blocks_.begin()) return false;
  --it;
  if (it->second.state != State::kLive || addr >= it->first + it->second.requested) return false;
  out->base = it->first;
  out->size = it->second.requested;
  out->owner = it->second.owner;
  return true;
}

size_t DeviceAllocator::FreeOwnedBy(Context* owner) {
  std::vector<uintptr_t> owned;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [addr, b] : blocks_) {
      if (b.state == State::kLive && b.owner == owner) owned.push_back(addr);
    }
  }
  for (uintptr_t a : owned) (void)Free(reinterpret_cast<void*>(a), {});
  return owned.size();
}

uint64_t DeviceAllocator::LargestFree() const {
  return free_index_.empty() ? 0 : free_index_.rbegin()->first;
}

AllocatorStats DeviceAllocator::Stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  AllocatorStats s;
  s.total = size_;
  s.reserved = reserved_;
  s.live = live_;
  s.peak_live = peak_live_;
  s.largest_free = LargestFree();
  s.allocations = live_count_;
  return s;
}

}  // namespace npurt::core
