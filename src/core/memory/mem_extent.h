// ExtentAllocator: best-fit allocation of aligned runs in [0, capacity), in units of `granule`.
//
// The device's physical pages and its VMM address window are both handed out by one of these; they are
// allocated seldom (segment creation, VMM calls), so clarity wins over speed: a free map by offset and a
// free index by (length, offset). Ties go to the lowest offset, so a fresh device fills from the bottom
// and only the pages actually used are ever touched. Not thread-safe (the owner locks).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace npurt::core {

class ExtentAllocator {
 public:
  ExtentAllocator(uint64_t capacity, uint64_t granule);

  // A run of `size` bytes (multiple of the granule) whose offset is a multiple of `align`.
  std::optional<uint64_t> Allocate(uint64_t size, uint64_t align);
  // Takes exactly [offset, offset+size) if it is free.
  bool AllocateAt(uint64_t offset, uint64_t size);
  // Returns a run (merged with free neighbours). The run must have been allocated.
  void Free(uint64_t offset, uint64_t size);

  uint64_t capacity() const { return capacity_; }
  uint64_t granule() const { return granule_; }
  uint64_t used() const { return used_; }
  uint64_t free_bytes() const { return capacity_ - used_; }
  uint64_t largest_free() const { return by_size_.empty() ? 0 : by_size_.rbegin()->first; }
  // Largest free run whose offset can be aligned to `align` (for 1 GiB pages).
  uint64_t largest_free_aligned(uint64_t align) const;
  bool IsFree(uint64_t offset, uint64_t size) const;

 private:
  void Insert(uint64_t offset, uint64_t size);
  void Erase(std::map<uint64_t, uint64_t>::iterator it);

  uint64_t capacity_;
  uint64_t granule_;
  uint64_t used_ = 0;
  std::map<uint64_t, uint64_t> by_offset_;           // free runs: offset -> size
  std::set<std::pair<uint64_t, uint64_t>> by_size_;  // free runs: (size, offset)
};

}  // namespace npurt::core
