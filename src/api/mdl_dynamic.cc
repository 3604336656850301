// Entry points: dynamic gears and AIPP, as far as models without them answer. atc builds static models
// without AIPP today (dynamic batch, image-size and dims gears arrive with the dynamic-shapes work, issue
// 16): the getters report "no gears" / "no AIPP" exactly as CANN does for such a model, and the setters
// refuse with the reason, so programs that probe (the samples, msame, ais_bench) take their static path.
#include "api/api_common.h"
#include "api/mdl_common.h"

using npurt::Err;

namespace {

npurt::Status NoGears(uint32_t modelId, const aclmdlDataset* dataset, const char* what, const char* option) {
  auto m = npurt::models::FindModel(modelId);
  if (!m.ok()) return m.status();
  auto d = npurt::api::mdl::ResolveDataset(dataset, "dataset");
  if (!d.ok()) return d.status();
  return Err(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID,
             "model {} has no {} gears (it was converted without {}), so it has no {} input to set", modelId, what,
             option, ACL_DYNAMIC_TENSOR_NAME);
}

}  // namespace

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t batchSize) {
  NPURT_HANDLE_SCOPE();
  (void)index;
  if (batchSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "batchSize is 0"));
  return npurt::api::Report(__func__, NoGears(modelId, dataset, "batch", "--dynamic_batch_size"));
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t height,
                                uint64_t width) {
  NPURT_HANDLE_SCOPE();
  (void)index;
  if (height == 0 || width == 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "height and width must not be 0"));
  }
  return npurt::api::Report(__func__, NoGears(modelId, dataset, "image-size", "--dynamic_image_size"));
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index, const aclmdlIODims* dims) {
  NPURT_HANDLE_SCOPE();
  (void)index;
  NPURT_API_NOT_NULL(dims);
  if (dims->dimCount == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dims->dimCount is 0"));
  return npurt::api::Report(__func__, NoGears(modelId, dataset, "dims", "--dynamic_dims"));
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(batch);
  (void)d;
  batch->batchCount = 0;
  return ACL_SUCCESS;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index, aclmdlHW* hw) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(hw);
  (void)d;
  (void)index;  // CANN ignores it (the samples pass -1)
  hw->hwCount = 0;
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc, size_t index, size_t* gearCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(gearCount);
  (void)d;
  if (index != static_cast<size_t>(-1)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index must be -1, not {}", index));
  }
  *gearCount = 0;
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims, size_t gearCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(dims);
  (void)d;
  if (index != static_cast<size_t>(-1)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index must be -1, not {}", index));
  }
  if (gearCount != 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "gearCount is {}, the model has 0 dims gears (aclmdlGetInputDynamicGearCount)",
                                            gearCount));
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetAippDataSize(uint64_t batchSize, size_t* size) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(size);
  if (batchSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "batchSize is 0"));
  // The dynamic-AIPP parameter block: a 64-byte header and 96 bytes per image.
  *size = 64 + 96 * static_cast<size_t>(batchSize);
  return ACL_SUCCESS;
}

aclError aclmdlGetAippType(uint32_t modelId, size_t index, aclmdlInputAippType* type, size_t* dynamicAttachedDataIndex) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(type);
  NPURT_API_NOT_NULL(dynamicAttachedDataIndex);
  NPURT_API_ASSIGN(m, npurt::models::FindModel(modelId));
  if (index >= m->inputs().size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "input index {} is out of range: model {} has {}",
                                            index, modelId, m->inputs().size()));
  }
  *type = ACL_DATA_WITHOUT_AIPP;
  *dynamicAttachedDataIndex = ACL_INVALID_NODE_INDEX;
  return ACL_SUCCESS;
}

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo* aippInfo) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(aippInfo);
  NPURT_API_ASSIGN(m, npurt::models::FindModel(modelId));
  if (index >= m->inputs().size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "input index {} is out of range: model {} has {}",
                                            index, modelId, m->inputs().size()));
  }
  // Programs probe with this: CANN logs it at INFO only.
  return npurt::api::Report(__func__, Err(ACL_ERROR_GE_AIPP_NOT_EXIST, "input {} of model {} has no AIPP", index, modelId));
}
