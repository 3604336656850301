// Entry points: loading and unloading offline models, and the sizes a load needs (read without loading).
#include "api/api_common.h"
#include "api/mdl_common.h"

using npurt::Err;
using npurt::models::LoadMemory;

namespace {

aclError Loaded(const char* fn, npurt::StatusOr<uint32_t> id, uint32_t* modelId) {
  if (!id.ok()) return npurt::api::Report(fn, id.status());
  *modelId = id.value();
  return ACL_SUCCESS;
}

}  // namespace

aclError aclmdlLoadFromFile(const char* modelPath, uint32_t* modelId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(modelPath);
  NPURT_API_NOT_NULL(modelId);
  return Loaded(__func__, npurt::models::LoadFromFile(modelPath, LoadMemory{}), modelId);
}

aclError aclmdlLoadFromMem(const void* model, size_t modelSize, uint32_t* modelId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(model);
  NPURT_API_NOT_NULL(modelId);
  if (modelSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "modelSize is 0"));
  return Loaded(__func__, npurt::models::LoadFromMemory(model, modelSize, LoadMemory{}), modelId);
}

aclError aclmdlLoadFromFileWithMem(const char* modelPath, uint32_t* modelId, void* workPtr, size_t workSize,
                                   void* weightPtr, size_t weightSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(modelPath);
  NPURT_API_NOT_NULL(modelId);
  return Loaded(__func__, npurt::models::LoadFromFile(modelPath, LoadMemory{workPtr, workSize, weightPtr, weightSize}),
                modelId);
}

aclError aclmdlLoadFromMemWithMem(const void* model, size_t modelSize, uint32_t* modelId, void* workPtr,
                                  size_t workSize, void* weightPtr, size_t weightSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(model);
  NPURT_API_NOT_NULL(modelId);
  if (modelSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "modelSize is 0"));
  return Loaded(__func__,
                npurt::models::LoadFromMemory(model, modelSize, LoadMemory{workPtr, workSize, weightPtr, weightSize}),
                modelId);
}

aclError aclmdlUnload(uint32_t modelId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_CHECK(npurt::models::Unload(modelId));
  return ACL_SUCCESS;
}

aclError aclmdlQuerySize(const char* fileName, size_t* workSize, size_t* weightSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(fileName);
  NPURT_API_NOT_NULL(workSize);
  NPURT_API_NOT_NULL(weightSize);
  NPURT_API_CHECK(npurt::models::QuerySizeFromFile(fileName, workSize, weightSize));
  return ACL_SUCCESS;
}

aclError aclmdlQuerySizeFromMem(const void* model, size_t modelSize, size_t* workSize, size_t* weightSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(model);
  NPURT_API_NOT_NULL(workSize);
  NPURT_API_NOT_NULL(weightSize);
  if (modelSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "modelSize is 0"));
  NPURT_API_CHECK(npurt::models::QuerySizeFromMemory(model, modelSize, workSize, weightSize));
  return ACL_SUCCESS;
}
