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
  if (call.specialize) {
    auto own = CompileCache::Get().Specialize(op);
    if (!own.ok()) return std::move(own).status();
    return core::OperatorBuild{own.value()->outputs, own.value()->program, false};
  }
  bool hit = false;
  auto compiled = CompileCache::Get().GetOrCompile(op, &hit);
  if (!compiled.ok()) return std::move(compiled).status();
  return core::OperatorBuild{compiled.value()->outputs, compiled.value()->program, !hit && compiled.value()->retiled};
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

namespace {

std::string FamilyOf(const OpCall& call) {
  core::OperatorCall c;
  c.type = call.type;
  c.inputs = &call.inputs;
  c.requested = &call.requested;
  c.attrs = call.attrs != nullptr ? call.attrs : &EmptyAttrs();
  return core::OperatorFamilyKey(c);
}

}  // namespace

StatusOr<CompiledOpRef> CompileCache::GetOrCompile(const OpCall& call, bool* hit) {
  std::string key = Key(call);
  std::string family;     // computed on a miss only
  CompiledOpRef prior;    // the family's latest entry: its program lives while the compile may share it
  CompiledOpRef retiled;  // a hit on a re-tiled entry that is now compiled for its own shapes
  CacheMode mode;
  {
    std::lock_guard<std::mutex> lock(mu_);
    mode = mode_;
    auto it = index_.find(key);
    if (it != index_.end() && mode == CacheMode::kEnable) {
      lru_.splice(lru_.begin(), lru_, it->second);
      ++stats_.hits;
      if (hit) *hit = true;
      dfx::ProfRecordOpCache(call.type, 0, 0);
      Entry& e = *it->second;
      // A re-tiled entry whose shapes recur earns a kernel of its own: re-tiled code is slower in the steady
      // state (oneDNN's runtime-dims GEMM against its shape-specialised kernels).
      if (!e.op->retiled || e.specializing || ++e.hits < kSpecializeAtHit) return e.op;
      e.specializing = true;  // one caller compiles it; the others keep the re-tiled entry meanwhile
      retiled = e.op;
    } else if (it != index_.end()) {
      DropFamilyLocked(*it->second);
      lru_.erase(it->second);  // force: recompile this key
      index_.erase(it);
    }
    if (retiled == nullptr) {
      ++stats_.misses;
      family = FamilyOf(call);
      if (mode == CacheMode::kEnable) {
        auto fam = families_.find(family);
        if (fam != families_.end()) prior = fam->second;
      }
    }
  }
  if (retiled != nullptr) return Specialized(call, key, retiled);
  if (hit) *hit = false;
  OpCall with_reuse = call;
  with_reuse.reuse = prior != nullptr ? prior->program.get() : nullptr;
  auto compiled = CompileOp(with_reuse);
  if (!compiled.ok()) return compiled;
  const bool was_retiled = compiled.value()->retiled;
  dfx::ProfRecordOpCache(call.type, was_retiled ? 3 : 1, compiled.value()->compile_ns);
  std::lock_guard<std::mutex> lock(mu_);
  stats_.compile_ns += compiled.value()->compile_ns;
  if (was_retiled) ++stats_.retiles;
  if (log_each_) {
    NPURT_LOG_INFO("OP", "op cache miss: {} {} in {} us ({} hits, {} misses, {} re-tiled so far)", call.type,
                   was_retiled ? "re-tiled" : "compiled", compiled.value()->compile_ns / 1000, stats_.hits,
                   stats_.misses, stats_.retiles);
  }
  if (mode == CacheMode::kDisable) return compiled;
  auto it = index_.find(key);
  if (it != index_.end()) {  // another thread compiled the same key meanwhile
    lru_.splice(lru_.begin(), lru_, it->second);
    return it->second->op;
  }
  families_[family] = compiled.value();
  lru_.push_front(Entry{key, std::move(family), compiled.value()});
  index_.emplace(std::move(key), lru_.begin());
  EvictLocked();
  return compiled;
}

StatusOr<CompiledOpRef> CompileCache::Specialized(const OpCall& call, const std::string& key,
                                                   const CompiledOpRef& retiled) {
  OpCall own = call;
  own.reuse = nullptr;
  auto compiled = CompileOp(own);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = index_.find(key);
  const bool current = it != index_.end() && it->second->op == retiled;
  if (!compiled.ok()) {
    // The re-tiled kernel stays (it computes the same) and is not tried again (`specializing` stays set); the
    // failure is logged, not returned.
    NPURT_LOG_WARNING("OP", "{}: compiling the re-tiled kernel for its own shapes failed ({}); the re-tiled one "
                      "stays", call.type, compiled.status().message());
    return retiled;
  }
  stats_.compile_ns += compiled.value()->compile_ns;
  ++stats_.specialized;
  dfx::ProfRecordOpCache(call.type, 4, compiled.value()->compile_ns);
  if (log_each_) {
    NPURT_LOG_INFO("OP", "op cache: {} (re-tiled) compiled for its own shapes at hit {}, in {} us", call.type,
                   kSpecializeAtHit, compiled.value()->compile_ns / 1000);
  }
  if (!current) return compiled;  // evicted or replaced meanwhile: not cached again here
  Entry& e = *it->second;
  if (auto fam = families_.find(e.family); fam != families_.end() && fam->second == e.op) fam->second = compiled.value();
  e.op = compiled.value();
  e.specializing = false;
  return compiled;
}

StatusOr<CompiledOpRef> CompileCache::Specialize(const OpCall& call) {
  const std::string key = Key(call);
  CompiledOpRef retiled;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = index_.find(key);
    if (it != index_.end() && !it->second->op->retiled) return it->second->op;  // compiled for its shapes
    if (it != index_.end() && !it->second->specializing) {
      it->second->specializing = true;
      retiled = it->second->op;
    }
  }
  if (retiled != nullptr) return Specialized(call, key, retiled);
  OpCall own = call;
  own.reuse = nullptr;
  return CompileOp(own);  // not cached (or being specialised by another caller): compiled for the caller alone
}

void CompileCache::DropFamilyLocked(const Entry& e) {
  if (auto fam = families_.find(e.family); fam != families_.end() && fam->second == e.op) families_.erase(fam);
}

void CompileCache::EvictLocked() {
  while (lru_.size() > capacity_) {
    Entry& victim = lru_.back();
    if (log_each_) NPURT_LOG_INFO("OP", "op cache eviction: {}", victim.op->type);
    dfx::ProfRecordOpCache(victim.op->type, 2, 0);
    index_.erase(victim.key);
    DropFamilyLocked(victim);  // its program goes with the launches still holding it
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
  families_.clear();
  const size_t cap = capacity_;
  stats_ = CacheStats{};
  stats_.capacity = cap;
}

}  // namespace npurt::ops
