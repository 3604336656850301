// The op compile cache: compiled operators keyed by op type + input specs + output descriptors +
// attributes, bounded by an LRU policy, so that steady-state execution never recompiles.
//
// Capacity: ASCEND_OP_CACHE_MAX_SIZE or NPURT_OP_CACHE_CAPACITY (default 1024 entries). Mode (ACL_OP_COMPILER_CACHE_MODE):
// "enable" (default) caches; "disable" compiles every call and keeps nothing; "force" drops the cached
// entry of the key and recompiles it. Statistics (hits, misses, evictions, compile time) are logged at
// finalize and readable through Stats(); NPURT_OP_CACHE_STATS=1 logs each miss and eviction at INFO; under
// msprof every hit, miss (with its compile time) and eviction is a record (op_compile_cache_*.csv).
// Thread-safe; compilation runs outside the lock, so two threads missing on one key may both compile
// (the first to finish wins; both results are correct).
//
// Re-tiling: a miss whose family (core::OperatorFamilyKey: type, data types, formats, ranks, attributes) has
// an entry passes that entry's program to the backend, which may share its code, re-tiled for the new
// shapes, instead of compiling (a matrix product at a new M). Such a miss counts as a miss and as a retile
// (Stats, the finalize log, msprof's "Retiled" column); NPURT_KERNEL_RETILE=0 turns it off. Re-tiled code
// is slower in the steady state, so a re-tiled entry found again (its kSpecializeAtHit-th hit) is compiled
// for its own shapes and replaces itself: a new shape is fast to meet, and a shape that recurs runs its
// own kernel.
#pragma once

#include <cstdint>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

#include "ops/op_compiler.h"

namespace npurt::ops {

enum class CacheMode { kEnable, kDisable, kForce };

struct CacheStats {
  uint64_t hits = 0;
  uint64_t misses = 0;
  uint64_t evictions = 0;
  uint64_t retiles = 0;     // misses served by re-tiling a kernel of the same family
  uint64_t specialized = 0; // re-tiled entries compiled for their own shapes since
  uint64_t compile_ns = 0;  // total time spent compiling misses
  size_t size = 0;
  size_t capacity = 0;
};

class CompileCache {
 public:
  static CompileCache& Get();

  // Finds or compiles `call`. `hit` (optional) tells which happened.
  StatusOr<CompiledOpRef> GetOrCompile(const OpCall& call, bool* hit = nullptr);
  // `call` compiled for its own shapes, never re-tiled: a cached re-tiled entry of its key is replaced by it
  // (what a dynamic-shape model asks for a shape it met again); a cached entry compiled for its shapes is
  // returned as it is. Not a lookup: the statistics count the compile only.
  StatusOr<CompiledOpRef> Specialize(const OpCall& call);

  static constexpr uint32_t kSpecializeAtHit = 2;

  void SetCapacity(size_t entries);
  void SetMode(CacheMode mode);
  CacheMode mode() const;
  CacheStats Stats() const;
  void Clear();  // drops entries and resets statistics

  // The key of a call (exposed for tests).
  static std::string Key(const OpCall& call);

 private:
  CompileCache();
  void EvictLocked();

  struct Entry {
    std::string key;
    std::string family;
    CompiledOpRef op;
    uint32_t hits = 0;          // of a re-tiled op, counted towards its specialisation
    bool specializing = false;  // a caller is compiling it for its shapes (or that failed: never again)
  };
  StatusOr<CompiledOpRef> Specialized(const OpCall& call, const std::string& key, const CompiledOpRef& retiled);
  void DropFamilyLocked(const Entry& e);
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // front = most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  std::unordered_map<std::string, CompiledOpRef> families_;  // family key -> its latest entry (cached)
  size_t capacity_;
  CacheMode mode_ = CacheMode::kEnable;
  bool log_each_ = false;
  CacheStats stats_;
};

}  // namespace npurt::ops
