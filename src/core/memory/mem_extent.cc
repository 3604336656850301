#include "core/memory/mem_extent.h"

#include <algorithm>

namespace npurt::core {
namespace {
uint64_t AlignUp(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }
}  // namespace

ExtentAllocator::ExtentAllocator(uint64_t capacity, uint64_t granule)
    : capacity_(capacity / granule * granule), granule_(granule) {
  if (capacity_ > 0) Insert(0, capacity_);
}

void ExtentAllocator::Insert(uint64_t offset, uint64_t size) {
  by_offset_.emplace(offset, size);
  by_size_.emplace(size, offset);
}

void ExtentAllocator::Erase(std::map<uint64_t, uint64_t>::iterator it) {
  by_size_.erase({it->second, it->first});
  by_offset_.erase(it);
}

std::optional<uint64_t> ExtentAllocator::Allocate(uint64_t size, uint64_t align) {
  if (size == 0 || size % granule_ != 0) return std::nullopt;
  if (align < granule_) align = granule_;
  // Best fit: the smallest run that holds `size` after aligning its start.
  for (auto it = by_size_.lower_bound({size, 0}); it != by_size_.end(); ++it) {
    const uint64_t start = AlignUp(it->second, align);
    if (start + size <= it->second + it->first) {
      if (AllocateAt(start, size)) return start;
    }
  }
  return std::nullopt;
}

bool ExtentAllocator::AllocateAt(uint64_t offset, uint64_t size) {
  if (size == 0 || offset % granule_ != 0 || size % granule_ != 0) return false;
  auto it = by_offset_.upper_bound(offset);
  if (it == by_offset_.begin()) return false;
  --it;
  const uint64_t run_off = it->first;
  const uint64_t run_size = it->second;
  if (offset + size > run_off + run_size) return false;
  Erase(it);
  if (offset > run_off) Insert(run_off, offset - run_off);
  if (offset + size < run_off + run_size) Insert(offset + size, run_off + run_size - (offset + size));
  used_ += size;
  return true;
}

void ExtentAllocator::Free(uint64_t offset, uint64_t size) {
  used_ -= size;
  auto next = by_offset_.lower_bound(offset);
  if (next != by_offset_.end() && next->first == offset + size) {
    size += next->second;
    Erase(next);
  }
  auto prev = by_offset_.lower_bound(offset);
  if (prev != by_offset_.begin()) {
    --prev;
    if (prev->first + prev->second == offset) {
      offset = prev->first;
      size += prev->second;
      Erase(prev);
    }
  }
  Insert(offset, size);
}

uint64_t ExtentAllocator::largest_free_aligned(uint64_t align) const {
  uint64_t best = 0;
  for (auto it = by_size_.rbegin(); it != by_size_.rend() && it->first > best; ++it) {
    const uint64_t start = AlignUp(it->second, align);
    const uint64_t end = it->second + it->first;
    if (end > start) best = std::max(best, (end - start) / align * align);
  }
  return best;
}

bool ExtentAllocator::IsFree(uint64_t offset, uint64_t size) const {
  auto it = by_offset_.upper_bound(offset);
  if (it == by_offset_.begin()) return false;
  --it;
  return offset + size <= it->first + it->second;
}

}  // namespace npurt::core
