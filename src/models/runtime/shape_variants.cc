// A dynamic-shape model's side of LoadedModel (loaded_model.h, "Dynamic shapes"): the shapes of an execution
// checked against the model's ranges, the cache of compiled shapes, the weights their compiles bring, and the
// shared arena that grows when a shape needs more.
#include <algorithm>
#include <chrono>
#include <cstdlib>

#include <fmt/ranges.h>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/ge_error_codes.h"
#include "core/context.h"
#include "core/memory/memory_ops.h"
#include "core/sync/event.h"
#include "base/env.h"
#include "dfx/log.h"
#include "dfx/profiler.h"
#include "models/runtime/loaded_model.h"
#include "models/runtime/model_resources.h"
#include "models/runtime/shape_compiler.h"

namespace npurt::models {
namespace {

constexpr size_t kDefaultShapeCache = 32;
constexpr size_t kMaxShapeCache = 4096;

size_t ShapeCacheCapacity() {
  const char* v = env::Raw(env::Var::kModelShapeCache);
  if (v == nullptr || *v == '\0') return kDefaultShapeCache;
  char* end = nullptr;
  const long long n = std::strtoll(v, &end, 10);
  if (*end != '\0' || n < 1 || static_cast<unsigned long long>(n) > kMaxShapeCache) {
    NPURT_LOG_WARNING("MODEL", "NPURT_MODEL_SHAPE_CACHE={} is not 1 to {}: {} compiled shapes are kept", v,
                      kMaxShapeCache, kDefaultShapeCache);
    return kDefaultShapeCache;
  }
  return static_cast<size_t>(n);
}

std::string ShapesText(const std::vector<std::vector<int64_t>>& dims) {
  std::string out;
  for (const auto& d : dims) out += fmt::format("{}[{}]", out.empty() ? "" : ", ", fmt::join(d, ","));
  return out;
}

// A compiled graph is the runtime's own work, but its offsets are checked like a file's before anything
// binds them: weights inside the region compiled so far, feature maps inside its arena, the model's I/O.
Status CheckCompiled(const om::ModelDef& def, size_t inputs, size_t outputs) {
  if (def.inputs.size() != inputs || def.outputs.size() != outputs) {
    return Err(ACL_ERROR_GE_PARAM_INVALID, "the compiled graph has {} inputs and {} outputs, the model {} and {}",
               def.inputs.size(), def.outputs.size(), inputs, outputs);
  }
  for (const om::TensorDef& t : def.tensors) {
    const uint64_t region = t.region == om::Region::kWeight ? def.weight_size
                            : t.region == om::Region::kArena ? def.arena_size
                                                             : UINT64_MAX;
    if (t.offset > region || t.bytes > region - t.offset) {
      return Err(ACL_ERROR_GE_PARAM_INVALID, "the compiled graph puts tensor {} outside its {}", t.name,
                 om::RegionName(t.region));
    }
  }
  return Status::Ok();
}

}  // namespace

Status LoadedModel::LoadShapeModel(const om::ModelFile& file, const LoadMemory& memory, ModelResources* res) {
  auto session = OpenShapeCompiler(file.weights, file.weights_size, file.def.shape_options);
  if (!session.ok()) {
    return Err(session.status().code(), "model {} has dynamic shapes: {}", source_, session.status().message());
  }
  compiler_ = std::move(session.value());
  auto ev = core::Event::Create(context_, 0, true);
  if (!ev.ok()) return ev.status();
  order_event_ = ev.value();
  user_memory_ = memory;
  shape_capacity_ = ShapeCacheCapacity();
  // Its row in msprof's op_compile_cache CSV: the model's compiled shapes count as one cache of its own.
  cache_row_ = fmt::format("model {} shapes", name_.empty() ? source_ : name_);
  ops_row_ = fmt::format("model {} operators", name_.empty() ? source_ : name_);
  stats_.capacity = shape_capacity_;
  res->refs.fetch_add(1, std::memory_order_relaxed);  // the model's own, until it goes
  shared_res_ = res;
  StartSpecializing();
  // The smallest shapes are compiled and recorded now, as a static model is at load: the weights go up and
  // the compiler warms here, not in the first execution (atc checked that these shapes convert).
  std::vector<std::vector<int64_t>> smallest;
  for (const om::InputTemplate& tpl : gears_.templates) smallest.push_back(tpl.range_min);
  {
    std::lock_guard<std::mutex> lock(exec_mu_);
    auto v = VariantFor(smallest);
    if (!v.ok()) return Err(v.status().code(), "model {}: {}", source_, v.status().message());
  }
  NPURT_LOG_INFO("MODEL", "model {} loaded from {}: dynamic shapes {}; its smallest shapes compiled at load, others "
                 "at first use, up to {} kept", id_, source_, gears_.templates.empty() ? std::string() : [&] {
                   std::string t;
                   for (const om::InputTemplate& tpl : gears_.templates) {
                     t += fmt::format("{}{}[{}]", t.empty() ? "" : " ", tpl.name, fmt::join(tpl.dims, ","));
                   }
                   return t;
                 }(), shape_capacity_);
  return Status::Ok();
}

StatusOr<std::vector<std::vector<int64_t>>> LoadedModel::ResolveShapes(
    const std::vector<std::vector<int64_t>>* shapes) const {
  std::vector<std::vector<int64_t>> dims;
  for (size_t i = 0; i < gears_.templates.size(); ++i) {
    const om::InputTemplate& t = gears_.templates[i];
    const bool given = shapes != nullptr && i < shapes->size() && !(*shapes)[i].empty();
    std::vector<int64_t> d = given ? (*shapes)[i] : t.dims;
    if (!given) {
      for (int64_t v : d) {
        if (v >= 0) continue;
        return Err(ACL_ERROR_GE_PARAM_INVALID, "input {} ({}) of model {} has dynamic dims [{}]: give this execution's "
                   "shape with aclmdlSetDatasetTensorDesc on the input dataset", i, t.name, id_, fmt::join(t.dims, ","));
      }
    }
    if (d.size() != t.dims.size()) {
      return Err(ACL_ERROR_GE_PARAM_INVALID, "input {} ({}) of model {} has rank {}, the shape given [{}] has {} dims", i,
                 t.name, id_, t.dims.size(), fmt::join(d, ","), d.size());
    }
    for (size_t k = 0; k < d.size(); ++k) {
      const int64_t lo = t.range_min[k], hi = t.range_max[k];
      if (d[k] < lo || (hi != -1 && d[k] > hi)) {
        return Err(ACL_ERROR_GE_PARAM_INVALID, "input {} ({}) of model {}: dim {} is {}, outside its range [{}, {}] "
                   "(the model takes [{}])", i, t.name, id_, k, d[k], lo, hi == -1 ? std::string("unbounded") :
                   std::to_string(hi), fmt::join(t.dims, ","));
      }
    }
    dims.push_back(std::move(d));
  }
  return dims;
}

StatusOr<LoadedModel::ShapeVariant*> LoadedModel::VariantFor(const std::vector<std::vector<int64_t>>& dims) {
  AdoptSpecialized();
  auto it = variants_.find(dims);
  ShapeVariant* v = nullptr;
  if (it != variants_.end()) {
    v = it->second.get();
    dfx::ProfRecordOpCache(cache_row_, 0, 0);
    // A shape met again earns kernels of its own for the operators that re-tiled another shape's (decided
    // once: `specializing` also marks a shape with nothing re-tiled).
    if (!v->specializing && ++v->hits >= kSpecializeAtHit) {
      const bool any = std::find(v->programs.retiled.begin(), v->programs.retiled.end(), true) !=
                       v->programs.retiled.end();
      if (any) {
        QueueSpecialization(v);
      } else {
        v->specializing = true;
      }
    }
    std::lock_guard<std::mutex> lock(stats_mu_);
    ++stats_.hits;
  } else {
    const auto t0 = std::chrono::steady_clock::now();
    auto compiled = compiler_->Compile(dims);
    if (!compiled.ok()) {
      return Err(compiled.status().code(), "model {} does not compile for input shapes {}: {}", id_, ShapesText(dims),
                 compiled.status().message());
    }
    NPURT_RETURN_IF_ERROR(CheckCompiled(compiled->def, inputs_.size(), outputs_.size()));
    NPURT_RETURN_IF_ERROR(UploadWeights(compiled->weights_offset, compiled->new_weights));
    if (variants_.size() >= shape_capacity_) {  // the least recently used goes
      auto lru = std::min_element(variants_.begin(), variants_.end(), [](const auto& a, const auto& b) {
        return a.second->last_use < b.second->last_use;
      });
      NPURT_LOG_INFO("MODEL", "model {}: compiled shapes {} evicted (cache of {})", id_, ShapesText(lru->first),
                     shape_capacity_);
      DropRecording(lru->second.get());
      variants_.erase(lru);
      dfx::ProfRecordOpCache(cache_row_, 2, 0);
      std::lock_guard<std::mutex> lock(stats_mu_);
      ++stats_.evictions;
    }
    auto fresh = std::make_unique<ShapeVariant>();
    fresh->dims = dims;
    fresh->def = std::move(compiled->def);
    v = fresh.get();
    variants_.emplace(dims, std::move(fresh));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    dfx::ProfRecordOpCache(cache_row_, 1, static_cast<uint64_t>(ms * 1e6));
    std::lock_guard<std::mutex> lock(stats_mu_);
    ++stats_.misses;
    stats_.compile_ms += ms;
    stats_.cached = variants_.size();
    NPURT_LOG_INFO("MODEL", "model {}: compiled for input shapes {} in {:.1f} ms ({} nodes, arena {} bytes, {} new "
                   "weight bytes); cache {} of {}, {} hits, {} misses, {} evictions", id_, ShapesText(dims), ms,
                   v->def.nodes.size(), v->def.arena_size, compiled->new_weights.size(), variants_.size(),
                   shape_capacity_, stats_.hits, stats_.misses, stats_.evictions);
  }
  if (v->def.arena_size > arena_capacity_) NPURT_RETURN_IF_ERROR(GrowArena(v->def.arena_size));
  if (v->run.ri == nullptr) {
    uint64_t built = 0, retiled = 0;
    {
      std::lock_guard<std::mutex> lock(stats_mu_);
      built = stats_.ops_built;
      retiled = stats_.ops_retiled;
    }
    const auto t0 = std::chrono::steady_clock::now();
    NPURT_RETURN_IF_ERROR(RecordVariant(v));
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::lock_guard<std::mutex> lock(stats_mu_);
    NPURT_LOG_INFO("MODEL", "model {}: shapes {} recorded in {:.1f} ms: {} operators built, {} of them re-tiled from "
                   "another shape's kernel", id_, ShapesText(v->dims), ms, stats_.ops_built - built,
                   stats_.ops_retiled - retiled);
  }
  v->last_use = ++use_clock_;
  return v;
}

Status LoadedModel::UploadWeights(uint64_t offset, std::span<const uint8_t> fresh) {
  // The compiler's region only grows, and it returns each byte once: bytes a failed upload left behind
  // (out of device memory) go up first, with these (copied together only then).
  std::vector<uint8_t> joined;
  std::span<const uint8_t> bytes = fresh;
  if (!pending_weights_.empty()) {
    offset = pending_offset_;
    joined = std::move(pending_weights_);
    pending_weights_.clear();
    joined.insert(joined.end(), fresh.begin(), fresh.end());
    bytes = joined;
  }
  if (bytes.empty()) return Status::Ok();
  auto keep = [&](Status st) {
    if (!st.ok()) {
      pending_offset_ = offset;
      pending_weights_.assign(bytes.begin(), bytes.end());
    }
    return st;
  };
  uint8_t* at = nullptr;
  // The program's weight memory (aclmdlLoadFrom*WithMem) takes the first compile's constants, which are the
  // model's weights: atc sized shape_weight_size for them.
  if (weights_.chunks.empty() && user_memory_.weight != nullptr && bytes.size() <= user_memory_.weight_size) {
    at = static_cast<uint8_t*>(user_memory_.weight);
  } else {
    auto p = AllocateFor(shared_res_, bytes.size());
    if (!p.ok()) return keep(p.status());
    at = static_cast<uint8_t*>(p.value());
  }
  NPURT_RETURN_IF_ERROR(keep(core::WriteMemory(at, bytes.data(), bytes.size(), "weights")));
  weights_.chunks.emplace_back(offset, at);
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_.weight_bytes += bytes.size();
  return Status::Ok();
}

// The arena extended to `need` (half as much again as before at least, so that growing shapes re-record
// rarely): the shapes recorded against the old one are recorded again when next used; the old arena goes
// when their last replays are done.
Status LoadedModel::GrowArena(uint64_t need) {
  uint8_t* arena = nullptr;
  ModelResources* holder = nullptr;
  uint64_t capacity = need;
  if (user_memory_.work != nullptr && need <= user_memory_.work_size && arena_capacity_ == 0) {
    arena = static_cast<uint8_t*>(user_memory_.work);
    capacity = user_memory_.work_size;
  } else {
    capacity = std::max(need, arena_capacity_ + arena_capacity_ / 2);
    holder = NewResources(context_);
    auto p = AllocateFor(holder, capacity);
    if (!p.ok()) {
      ReleaseResources(holder);
      return p.status();
    }
    arena = static_cast<uint8_t*>(p.value());
  }
  if (arena_capacity_ != 0) {
    NPURT_LOG_INFO("MODEL", "model {}: arena extended from {} to {} bytes; {} compiled shapes re-recorded when next "
                   "used", id_, arena_capacity_, capacity, variants_.size());
  }
  for (auto& [dims, v] : variants_) DropRecording(v.get());
  if (arena_res_ != nullptr) ReleaseResources(arena_res_);
  arena_res_ = holder;
  arena_ = arena;
  arena_capacity_ = capacity;
  std::lock_guard<std::mutex> lock(stats_mu_);
  stats_.arena_bytes = capacity;
  return Status::Ok();
}

Status LoadedModel::RecordVariant(ShapeVariant* v) {
  ModelResources* res = NewResources(context_);
  shared_res_->refs.fetch_add(1, std::memory_order_relaxed);
  res->holds.push_back(shared_res_);
  if (arena_res_ != nullptr) {
    arena_res_->refs.fetch_add(1, std::memory_order_relaxed);
    res->holds.push_back(arena_res_);
  }
  v->run = GearRun{};
  Status st = Record(v->def, "shapes " + ShapesText(v->dims), weights_, arena_, res, 0, &v->run, &v->programs);
  if (!st.ok()) {
    if (v->run.ri != nullptr) v->run.ri->Destroy();
    v->run = GearRun{};
    ReleaseResources(res);
    return st;
  }
  v->res = res;
  return Status::Ok();
}

void LoadedModel::DropRecording(ShapeVariant* v) {
  if (v->run.ri != nullptr) v->run.ri->Destroy();  // its resources go with its last replay
  v->run = GearRun{};
  if (v->res != nullptr) ReleaseResources(v->res);
  v->res = nullptr;
}

void LoadedModel::LogShapeCache() const {
  std::lock_guard<std::mutex> lock(stats_mu_);
  NPURT_LOG_INFO("MODEL", "model {} ({}): {} compiled shapes kept of {}; {} hits, {} misses ({:.1f} ms compiling), {} "
                 "evictions; {} operators built, {} re-tiled ({} of them compiled for their shapes since); arena {} "
                 "bytes, {} weight bytes uploaded", id_, source_, stats_.cached, stats_.capacity, stats_.hits,
                 stats_.misses, stats_.compile_ms, stats_.evictions, stats_.ops_built, stats_.ops_retiled,
                 stats_.ops_specialized, stats_.arena_bytes, stats_.weight_bytes);
}

}  // namespace npurt::models
