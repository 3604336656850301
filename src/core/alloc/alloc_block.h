// Blocks and segments of the caching allocator.
//
// Invariants (checked by CachingAllocator::CheckInvariants when debug_checks is on):
//  - a segment's blocks tile it exactly: in address order, each block starts where its predecessor ends;
//  - no two address-adjacent blocks are both kFree (freed blocks merge with free neighbours);
//  - a block is in its pool's free index iff it is kFree, or kPending with a stream key (reusable at once
//    on the stream that freed it);
//  - a kThreadCached block is in exactly one thread cache bin and in no index;
//  - in an expandable segment every page under a non-free block is mapped, `users` counts the non-free
//    blocks on each page and `idle` holds exactly the mapped pages with no users;
//  - in a small segment the segment index's start table holds exactly the blocks' start addresses.
// Fields other than `state`, `requested`, `owner` change only under the allocator's lock; those three are
// also written by the lock-free thread-cache path (kLive <-> kThreadCached), hence atomics. `addr`, `size` and
// `stream` are written only under the lock, but the lock-free free path (CachingAllocator::PushCached) reads
// them before its claim, and a program freeing one pointer from two threads at once has the other free
// rewrite them meanwhile: LockFreeRead makes those reads defined (relaxed atomics: plain loads and stores on
// x86); the claim's compare-and-swap of `state` and its generation decides who owns the block.
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>
#include <set>
#include <vector>

#include "core/alloc/alloc_size.h"

namespace npurt::core {

// A field written under a lock and read without it: relaxed atomic loads and stores behind a plain field's
// syntax. Read-modify-writes (+=, -=) are a load and a store: only lock holders write.
template <typename T>
class LockFreeRead {
 public:
  LockFreeRead(T v = T{}) : v_(v) {}  // NOLINT: implicit, as the plain field it replaces
  LockFreeRead(const LockFreeRead& o) : v_(o.get()) {}
  LockFreeRead& operator=(const LockFreeRead& o) {
    set(o.get());
    return *this;
  }
  LockFreeRead& operator=(T v) {
    set(v);
    return *this;
  }
  operator T() const { return get(); }  // NOLINT
  T get() const { return v_.load(std::memory_order_relaxed); }
  void set(T v) { v_.store(v, std::memory_order_relaxed); }
  LockFreeRead& operator+=(T d) {
    set(get() + d);
    return *this;
  }
  LockFreeRead& operator-=(T d) {
    set(get() - d);
    return *this;
  }

 private:
  std::atomic<T> v_;
};

struct BlockPool;

enum class BlockState : uint8_t {
  kFree = 0,          // in the free index, reusable by anyone
  kLive = 1,          // handed to the user
  kThreadCached = 2,  // freed into a thread cache; owned by that thread until it returns it
  kPending = 3,       // freed, waiting until the streams that may use it pass the free point
};

// A block's state and its generation in one word. The generation counts the block's lives: every change
// that makes it kLive starts a new one. The lock-free free (CachingAllocator::PushCached) reads the word,
// checks the block's fields, then claims it with a compare-and-swap of the whole word (ClaimIfUnchanged).
// Without the generation a stale reader's claim would succeed on a Block record that was returned, merged,
// recycled and made live again for another allocation (an ABA on the state alone), and free that allocation.
// Writers: the lock-free claim and the other compare-and-swaps leave kLive; BecomeLive (the only way into
// kLive) and store() (any other state) are for blocks that are not live, whose single owner (the lock holder,
// or the thread whose cache holds the block) is the only writer, so a load-then-store cannot lose an update.
class BlockStateWord {
 public:
  static constexpr BlockState StateOf(uint64_t word) { return static_cast<BlockState>(word & 0xff); }

  BlockState load(std::memory_order order) const { return StateOf(word_.load(order)); }
  uint64_t word(std::memory_order order) const { return word_.load(order); }
  // A state other than kLive, in the same life.
  void store(BlockState s, std::memory_order order) {
    assert(s != BlockState::kLive && "a block becomes live through BecomeLive");
    word_.store(Next(word_.load(std::memory_order_relaxed), s), order);
  }
  // kLive for a block that is not live (the allocation paths): a new life.
  void BecomeLive(std::memory_order order) {
    const uint64_t w = word_.load(std::memory_order_relaxed);
    word_.store(((w | 0xff) + 1) | static_cast<uint64_t>(BlockState::kLive), order);  // generation + 1
  }
  // As std::atomic's, on the state alone (any generation), to a state other than kLive; on failure `expect`
  // holds the state seen.
  bool compare_exchange_strong(BlockState& expect, BlockState desired, std::memory_order order) {
    uint64_t w = word_.load(std::memory_order_relaxed);
    for (;;) {
      if (StateOf(w) != expect) {
        expect = StateOf(w);
        return false;
      }
      if (word_.compare_exchange_weak(w, Next(w, desired), order, std::memory_order_relaxed)) return true;
    }
  }
  // Moves to `desired` only if the word is still `seen`: same state and same life.
  bool ClaimIfUnchanged(uint64_t seen, BlockState desired, std::memory_order order) {
    return word_.compare_exchange_strong(seen, Next(seen, desired), order, std::memory_order_relaxed);
  }

 private:
  // The word with state `s` and w's generation.
  static constexpr uint64_t Next(uint64_t w, BlockState s) { return (w & ~uint64_t{0xff}) | static_cast<uint64_t>(s); }
  std::atomic<uint64_t> word_{static_cast<uint64_t>(BlockState::kFree)};
};

struct Segment;

struct Block {
  LockFreeRead<uintptr_t> addr = 0;
  LockFreeRead<size_t> size = 0;  // capacity (multiple of 512 B)
  Block* prev = nullptr;      // address neighbours inside the segment
  Block* next = nullptr;
  Segment* segment = nullptr;
  BlockStateWord state;
  std::atomic<size_t> requested{0};  // user bytes while live
  std::atomic<void*> owner{nullptr};  // context (or other owner tag) while live
  LockFreeRead<uintptr_t> stream = 0;  // stream key: allocation stream, or the freeing stream while pending
  uint64_t serial = 0;        // allocation number (leak reports list oldest first)
  uint32_t site = 0;          // call-site id (record_sites), 0 = none
  uint32_t pending_slot = UINT32_MAX;  // index in the allocator's pending list while kPending
  bool indexed = false;       // in the pool's free index
  Block* free_link = nullptr;  // the allocator's recycle list of Block structures
};

// A contiguous address range carved into blocks: a linear physical run, or (expandable) a window
// reservation whose 2 MiB pages are mapped on demand.
struct Segment {
  uintptr_t base = 0;
  size_t size = 0;              // addresses spanned (the reservation, for expandable segments)
  BlockPool* pool = nullptr;    // the pool (and through it the allocator) owning the segment
  bool expandable = false;
  bool small = false;           // block starts are published in the segment index (lock-free frees)
  uint64_t last_use = 0;        // allocator clock at the last allocation (garbage collection order)
  size_t mapped = 0;            // bytes backed by physical pages (== size unless expandable)
  std::vector<int64_t> pages;   // expandable: physical offset of each page, -1 when unmapped
  std::vector<uint32_t> users;  // expandable: non-free blocks touching each page
  std::set<size_t> idle;        // expandable: mapped pages no non-free block touches (free to move or unmap)
  Block* first = nullptr;       // lowest block
};

}  // namespace npurt::core
