#include "models/model_manager.h"

#include <atomic>
#include <mutex>
#include <unordered_map>

#include "acl/acl_base_rt.h"
#include "acl/error_codes/ge_error_codes.h"
#include "models/om/om_reader.h"

namespace npurt::models {
namespace {

struct Registry {
  std::mutex mu;
  std::unordered_map<uint32_t, std::shared_ptr<LoadedModel>> models;
  std::atomic<uint32_t> next{1};
};

Registry& Models() {
  static auto* r = new Registry();  // never destroyed: unloads may run from atexit handlers
  return *r;
}

StatusOr<uint32_t> Register(const om::ModelFile& file, const LoadMemory& memory, const std::string& source) {
  const uint32_t id = Models().next.fetch_add(1, std::memory_order_relaxed);
  auto m = LoadedModel::Load(file, memory, source, id);
  if (!m.ok()) return m.status();
  std::lock_guard<std::mutex> lock(Models().mu);
  Models().models.emplace(id, std::shared_ptr<LoadedModel>(std::move(m.value())));
  return id;
}

// aclmdl* run models; a single-operator model (atc --singleop) is for aclopSetModelDir / aclopLoad.
StatusOr<om::ModelFile> AsModel(StatusOr<om::ModelFile> file) {
  if (file.ok() && file.value().def.single_op) {
    return Err(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID,
               "the file is a single-operator model of {} (atc --singleop), not a model: load it with "
               "aclopSetModelDir or aclopLoad", file.value().def.nodes.empty() ? "?" : file.value().def.nodes[0].op_type);
  }
  return file;
}

// aclmdlQuerySize: a dynamic-shape model's work memory depends on the shapes it meets (CANN reports 0), its
// weights are what a compiled graph uploads (its weight part is the source graph).
void Sizes(const om::ModelDef& def, size_t* work, size_t* weight) {
  const bool shapes = def.dynamic_kind == om::DynamicKind::kShape;
  *work = shapes ? 0 : def.arena_size;
  *weight = shapes ? def.shape_weight_size : def.weight_size;
}

ModelInfo InfoOf(const om::ModelDef& def, uint32_t id) {
  ModelInfo info;
  info.model_id = id;
  info.name = def.name;
  for (int32_t t : def.inputs) info.inputs.push_back({def.tensors[t].name, def.tensors[t].spec, def.tensors[t].bytes, {}});
  for (int32_t t : def.outputs) info.outputs.push_back({def.tensors[t].name, def.tensors[t].spec, def.tensors[t].bytes, {}});
  info.origin_names = OriginNames(def);
  info.gears = MakeGearTable(def);
  ApplyGearsToIo(info.gears, &info.inputs, &info.outputs);
  info.aipp = FindStaticAipp(def);
  ApplyAippToIo(info.aipp, &info.inputs);
  return info;
}

}  // namespace

StatusOr<uint32_t> LoadFromFile(const std::string& path, const LoadMemory& memory) {
  std::string bytes;
  NPURT_RETURN_IF_ERROR(om::ReadFileBytes(path, &bytes));
  auto file = AsModel(om::ReadModel(bytes.data(), bytes.size(), path));
  if (!file.ok()) return file.status();
  return Register(file.value(), memory, path);
}

StatusOr<uint32_t> LoadFromMemory(const void* data, size_t size, const LoadMemory& memory) {
  auto file = AsModel(om::ReadModel(data, size, "in memory"));
  if (!file.ok()) return file.status();
  return Register(file.value(), memory, "in memory");
}

Status QuerySizeFromFile(const std::string& path, size_t* work, size_t* weight) {
  auto file = AsModel(om::ReadModelDescFromFile(path));
  if (!file.ok()) return file.status();
  Sizes(file.value().def, work, weight);
  return Status::Ok();
}

Status QuerySizeFromMemory(const void* data, size_t size, size_t* work, size_t* weight) {
  auto file = AsModel(om::ReadModel(data, size, "in memory", false));
  if (!file.ok()) return file.status();
  Sizes(file.value().def, work, weight);
  return Status::Ok();
}

StatusOr<ModelInfo> DescribeFile(const std::string& path) {
  auto file = AsModel(om::ReadModelDescFromFile(path));
  if (!file.ok()) return file.status();
  return InfoOf(file.value().def, 0);
}

StatusOr<ModelInfo> DescribeMemory(const void* data, size_t size) {
  auto file = AsModel(om::ReadModel(data, size, "in memory", false));
  if (!file.ok()) return file.status();
  return InfoOf(file.value().def, 0);
}

StatusOr<ModelInfo> DescribeLoaded(uint32_t id) {
  auto m = FindModel(id);
  if (!m.ok()) return m.status();
  ModelInfo info;
  info.model_id = id;
  info.name = m.value()->name();
  info.inputs = m.value()->inputs();
  info.outputs = m.value()->outputs();
  info.origin_names = m.value()->origin_names();
  info.gears = m.value()->gears();
  info.aipp = m.value()->aipp();
  return info;
}

StatusOr<std::shared_ptr<LoadedModel>> FindModel(uint32_t id) {
  std::lock_guard<std::mutex> lock(Models().mu);
  auto it = Models().models.find(id);
  if (it == Models().models.end()) {
    return Err(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "model id {} is not loaded{}", id,
               id != 0 && id < Models().next.load(std::memory_order_relaxed) ? " (it was unloaded)" : "");
  }
  return it->second;
}

Status Unload(uint32_t id) {
  std::shared_ptr<LoadedModel> m;
  {
    std::lock_guard<std::mutex> lock(Models().mu);
    auto it = Models().models.find(id);
    if (it == Models().models.end()) {
      return Err(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID, "model id {} is not loaded{}", id,
                 id != 0 && id < Models().next.load(std::memory_order_relaxed) ? " (it was unloaded already)" : "");
    }
    m = std::move(it->second);
    Models().models.erase(it);
  }
  return Status::Ok();  // `m` goes when the last execution holding it returns
}

}  // namespace npurt::models
