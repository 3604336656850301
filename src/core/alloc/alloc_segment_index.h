// SegmentIndex: from a device address to its segment, and (small segments) to the block starting there,
// without a lock.
//
// One entry per 2 MiB chunk of the device's address range says which segment covers the chunk; chunks
// of small-pool segments also get a table with one slot per 512 B, holding the block that starts there.
// That table is what lets a thread free a small block into its thread cache without taking any lock:
// the pointer leads to the block, whose state is then claimed with one compare-and-swap.
//
// Writers hold the lock of the allocator owning the segment. Readers see either the old or the new
// value of a slot; they validate what they find (block address and state), so a stale slot can only
// send them to the slow path. Start tables, once created, live as long as the index (a reader may hold
// one), and Block structures are recycled, never freed, while their allocator lives.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <memory>

#include "core/alloc/alloc_block.h"
#include "core/alloc/alloc_size.h"

namespace npurt::core {

class SegmentIndex {
 public:
  static constexpr uint64_t kChunk = alloc::kPage;
  static constexpr size_t kSlotsPerChunk = kChunk / alloc::kMinBlock;

  SegmentIndex(uintptr_t base, uint64_t size) : base_(base), chunks_count_((size + kChunk - 1) / kChunk) {
    // calloc: untouched zero pages for devices with huge address ranges.
    chunks_ = static_cast<Chunk*>(std::calloc(chunks_count_, sizeof(Chunk)));
  }
  ~SegmentIndex() {
    for (uint64_t i = 0; i < chunks_count_; ++i) std::free(chunks_[i].starts.load(std::memory_order_relaxed));
    std::free(chunks_);
  }
  SegmentIndex(const SegmentIndex&) = delete;
  SegmentIndex& operator=(const SegmentIndex&) = delete;

  Segment* SegmentAt(uintptr_t addr) const {
    const Chunk* c = ChunkOf(addr);
    return c == nullptr ? nullptr : c->segment.load(std::memory_order_acquire);
  }

  void SetSegment(uintptr_t addr, uint64_t size, Segment* seg) {
    for (uintptr_t a = addr; a < addr + size; a += kChunk) ChunkOf(a)->segment.store(seg, std::memory_order_release);
  }

  // The block starting exactly at `addr` in a small segment (nullptr if none is known).
  Block* StartAt(uintptr_t addr) const {
    const Chunk* c = ChunkOf(addr);
    if (c == nullptr) return nullptr;
    std::atomic<Block*>* slots = c->starts.load(std::memory_order_acquire);
    if (slots == nullptr) return nullptr;
    return slots[(addr - base_) % kChunk / alloc::kMinBlock].load(std::memory_order_acquire);
  }

  void SetStart(uintptr_t addr, Block* block) {
    Chunk* c = ChunkOf(addr);
    std::atomic<Block*>* slots = c->starts.load(std::memory_order_acquire);
    if (slots == nullptr) {
      if (block == nullptr) return;
      slots = static_cast<std::atomic<Block*>*>(std::calloc(kSlotsPerChunk, sizeof(std::atomic<Block*>)));
      c->starts.store(slots, std::memory_order_release);
    }
    slots[(addr - base_) % kChunk / alloc::kMinBlock].store(block, std::memory_order_release);
  }

 private:
  struct Chunk {
    std::atomic<Segment*> segment;
    std::atomic<std::atomic<Block*>*> starts;
  };
  Chunk* ChunkOf(uintptr_t addr) const {
    if (addr < base_) return nullptr;
    const uint64_t i = (addr - base_) / kChunk;
    return i < chunks_count_ ? &chunks_[i] : nullptr;
  }

  const uintptr_t base_;
  const uint64_t chunks_count_;
  Chunk* chunks_ = nullptr;
};

}  // namespace npurt::core
