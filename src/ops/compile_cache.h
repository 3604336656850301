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
  uint64_t compile_ns = 0;  // total time spent compiling misses
  size_t size = 0;
  size_t capacity = 0;
};

class CompileCache {
 public:
  static CompileCache& Get();

  // Finds or compiles `call`. `hit` (optional) tells which happened.
  StatusOr<CompiledOpRef> GetOrCompile(const OpCall& call, bool* hit = nullptr);

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
    CompiledOpRef op;
  };
  mutable std::mutex mu_;
  std::list<Entry> lru_;  // front = most recently used
  std::unordered_map<std::string, std::list<Entry>::iterator> index_;
  size_t capacity_;
  CacheMode mode_ = CacheMode::kEnable;
  bool log_each_ = false;
  CacheStats stats_;
};

}  // namespace npurt::ops
