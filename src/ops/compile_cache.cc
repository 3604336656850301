#include "ops/compile_cache.h"

#include <cstdlib>

#include "base/env.h"
#include "dfx/log.h"
#include "dfx/profiler.h"

namespace npurt::ops {
namespace {

void PutSpec(const TensorSpec& s, std::string* out) {
  out->append(std::to_string(s.dtype));
  out->push_back('/');
  out->append(std::to_string(s.format));
  out->push_back('[');
  for (int64_t d : s.dims) {
    out->append(std::to_string(d));
    out->push_back(',');
  }
  out->push_back(']');
}

}  // namespace

namespace {

// core::BuildOperatorCached's cache (a model's operators without constants): the same entries as aclop's.
StatusOr<core::OperatorBuild> BuildThroughCache(const core::OperatorCall& call) {
  OpCall op;
  op.type = call.type;
  op.inputs = *call.inputs;
  if (call.requested != nullptr) op.requested = *call.requested;
  op.attrs = call.attrs;
  auto compiled = CompileCache::Get().GetOrCompile(op);
  if (!compiled.ok()) return std::move(compiled).status();
  return core::OperatorBuild{compiled.value()->outputs, compiled.value()->program};
}

// Registered when the library loads (the op layer is in every program that has the model layer).
const bool g_registered = [] {
  core::SetOperatorCache(&BuildThroughCache);
  return true;
}();

}  // namespace

CompileCache& CompileCache::Get() {
  static CompileCache* c = new CompileCache();
  return *c;
}

CompileCache::CompileCache() : capacity_(1024) {
  // ASCEND_OP_CACHE_MAX_SIZE wins over npurt's own NPURT_OP_CACHE_CAPACITY; both count entries.
  for (auto var : {npurt::env::Var::kOpCacheCapacity, npurt::env::Var::kAscendOpCacheMaxSize}) {
    if (const char* v = npurt::env::Raw(var)) {
      const long n = std::strtol(v, nullptr, 10);
      if (n > 0) capacity_ = static_cast<size_t>(n);
    }
  }
  if (const char* v = npurt::env::Raw(npurt::env::Var::kOpCacheStats)) log_each_ = v[0] == '1';
}

std::string CompileCache::Key(const OpCall& call) {
  std::string key;
  key.reserve(96);
  key.append(call.type);
  key.push_back('|');
  for (const auto& s : call.inputs) PutSpec(s, &key);
  key.push_back('|');
  for (const auto& s : call.requested) PutSpec(s, &key);
  key.push_back('|');
  SerializeAttrs(*call.attrs, &key);
  return key;
}

StatusOr<CompiledOpRef> CompileCache::GetOrCompile(const OpCall& call, bool* hit) {
  std::string key = Key(call);
  CacheMode mode;
  {
    std::lock_guard<std::mutex> lock(mu_);
    mode = mode_;
    auto it = index_.find(key);
    if (it != index_.end()) {
      if (mode == CacheMode::kEnable) {
        lru_.splice(lru_.begin(), lru_, it->second);
        ++stats_.hits;
        if (hit) *hit = true;
        dfx::ProfRecordOpCache(call.type, 0, 0);
        return it->second->op;
      }
      lru_.erase(it->second);  // force: recompile this key
      index_.erase(it);
    }
    ++stats_.misses;
  }
  if (hit) *hit = false;
  auto compiled = CompileOp(call);
  if (!compiled.ok()) return compiled;
  dfx::ProfRecordOpCache(call.type, 1, compiled.value()->compile_ns);
  std::lock_guard<std::mutex> lock(mu_);
  stats_.compile_ns += compiled.value()->compile_ns;
  if (log_each_) {
    NPURT_LOG_INFO("OP", "op cache miss: {} compiled in {} us ({} hits, {} misses so far)", call.type,
                   compiled.value()->compile_ns / 1000, stats_.hits, stats_.misses);
  }
  if (mode == CacheMode::kDisable) return compiled;
  auto it = index_.find(key);
  if (it != index_.end()) {  // another thread compiled the same key meanwhile
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->op;
  }
  lru_.push_front(Entry{key, compiled.value()});
  index_.emplace(std::move(key), lru_.begin());
  EvictLocked();
  return compiled;
}

void CompileCache::EvictLocked() {
  while (lru_.size() > capacity_) {
    Entry& victim = lru_.back();
    if (log_each_) NPURT_LOG_INFO("OP", "op cache eviction: {}", victim.op->type);
    dfx::ProfRecordOpCache(victim.op->type, 2, 0);
    index_.erase(victim.key);
    lru_.pop_back();  // running launches keep their own reference to the compiled op
    ++stats_.evictions;
  }
}

void CompileCache::SetCapacity(size_t entries) {
  std::lock_guard<std::mutex> lock(mu_);
  capacity_ = entries == 0 ? 1 : entries;
  EvictLocked();
}

void CompileCache::SetMode(CacheMode mode) {
  std::lock_guard<std::mutex> lock(mu_);
  mode_ = mode;
}

CacheMode CompileCache::mode() const {
  std::lock_guard<std::mutex> lock(mu_);
  return mode_;
}

CacheStats CompileCache::Stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  CacheStats s = stats_;
  s.size = lru_.size();
  s.capacity = capacity_;
  return s;
}

void CompileCache::Clear() {
  std::lock_guard<std::mutex> lock(mu_);
  lru_.clear();
  index_.clear();
  const size_t cap = capacity_;
  stats_ = CacheStats{};
  stats_.capacity = cap;
}

}  // namespace npurt::ops
