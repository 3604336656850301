// The process's loaded models by id (aclmdl* ids): loading from a file or memory, sizes and descriptions
// read without loading, lookup and unload. Ids come from one process-wide counter and are never reused
// (CANN's ModelManager does the same), so a stale id is always "not loaded", never another model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/status.h"
#include "models/runtime/loaded_model.h"

namespace npurt::models {

// What aclmdlGetDesc* reports of a model.
struct ModelInfo {
  uint32_t model_id = 0;  // 0 for a description read from a file or memory
  std::string name;
  std::vector<IoDesc> inputs;
  std::vector<IoDesc> outputs;
  // Node name -> the source nodes it came from (aclmdlGetOpAttr's _datadump_original_op_names).
  std::map<std::string, std::string, std::less<>> origin_names;
  GearTable gears;  // kNone for a static model
  std::vector<StaticAipp> aipp;
};

StatusOr<uint32_t> LoadFromFile(const std::string& path, const LoadMemory& memory);
StatusOr<uint32_t> LoadFromMemory(const void* data, size_t size, const LoadMemory& memory);

// aclmdlQuerySize(FromMem): the work (arena) and weight bytes a load needs.
Status QuerySizeFromFile(const std::string& path, size_t* work, size_t* weight);
Status QuerySizeFromMemory(const void* data, size_t size, size_t* work, size_t* weight);

StatusOr<ModelInfo> DescribeFile(const std::string& path);
StatusOr<ModelInfo> DescribeMemory(const void* data, size_t size);
StatusOr<ModelInfo> DescribeLoaded(uint32_t id);

// The loaded model `id`, or ACL_ERROR_GE_EXEC_MODEL_ID_INVALID. The reference keeps it alive through an
// execution that races an unload.
StatusOr<std::shared_ptr<LoadedModel>> FindModel(uint32_t id);
Status Unload(uint32_t id);

}  // namespace npurt::models
