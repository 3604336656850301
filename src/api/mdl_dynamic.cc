// Entry points: dynamic gears (atc --dynamic_batch_size / --dynamic_image_size / --dynamic_dims;
// models/runtime/gear_table.h) and AIPP, as far as npurt's models have it. A Set call checks the request
// against the model's gears, writes the values into the hidden selector input (ACL_DYNAMIC_TENSOR_NAME,
// the last) as CANN does, and records the request in the dataset: the execution with that dataset runs
// the gear, one without a request the largest. Static models answer "no gears" exactly as CANN does for
// them, so programs that probe (the samples, msame, ais_bench) take their static path.
#include <cstring>

#include <fmt/ranges.h>

#include "api/api_common.h"
#include "api/mdl_common.h"
#include "core/memory/memory_ops.h"

using npurt::Err;
using npurt::models::GearTable;

namespace {

// Checks `index` and its buffer, matches the request, writes its values into the selector, records it.
// `find` matches the request to a gear of `t`.
template <typename Find>
npurt::Status SetGear(uint32_t modelId, aclmdlDataset* dataset, size_t index, npurt::om::DynamicKind kind,
                      std::vector<int64_t> request, Find find) {
  auto m = npurt::models::FindModel(modelId);
  if (!m.ok()) return m.status();
  auto d = npurt::api::mdl::ResolveDataset(dataset, "dataset");
  if (!d.ok()) return d.status();
  const GearTable& t = m.value()->gears();
  if (index >= d.value()->buffers.size()) {
    return Err(ACL_ERROR_INVALID_PARAM, "index {} is out of range: the dataset has {} buffers", index,
               d.value()->buffers.size());
  }
  const aclDataBuffer* buffer = d.value()->buffers[index];
  void* addr = npurt::api::mdl::DataBufferLive(buffer) ? aclGetDataBufferAddr(buffer) : nullptr;
  if (addr == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "buffer {} of the dataset has no memory (the selector input {} needs a "
               "device buffer of aclmdlGetInputSizeByIndex bytes)", index, ACL_DYNAMIC_TENSOR_NAME);
  }
  auto gear = find(t);
  if (!gear.ok()) return gear.status();
  if (index != t.selector_index) {
    return Err(ACL_ERROR_INVALID_PARAM, "index {} is not the gear selector: model {}'s input {} is {} (find it with "
               "aclmdlGetInputIndexByName(desc, ACL_DYNAMIC_TENSOR_NAME, &index))", index, modelId,
               t.selector_index, ACL_DYNAMIC_TENSOR_NAME);
  }
  // The values, as CANN writes them: 8-byte elements where the buffer holds them, else 4-byte.
  const std::vector<int64_t>& values = t.values[gear.value()];
  const size_t size = aclGetDataBufferSizeV2(buffer);
  std::vector<uint8_t> bytes;
  if (size >= values.size() * 8) {
    bytes.resize(values.size() * 8);
    std::memcpy(bytes.data(), values.data(), bytes.size());
  } else if (size >= values.size() * 4) {
    std::vector<int32_t> narrow(values.begin(), values.end());
    bytes.resize(values.size() * 4);
    std::memcpy(bytes.data(), narrow.data(), bytes.size());
  } else {
    return Err(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID, "the selector buffer has {} bytes; the model's gears take "
               "{} values of at least 4 bytes ({} bytes)", size, values.size(), values.size() * 4);
  }
  NPURT_RETURN_IF_ERROR(npurt::core::WriteMemory(addr, bytes.data(), bytes.size(), ACL_DYNAMIC_TENSOR_NAME));
  d.value()->gear_request = kind;
  d.value()->gear_values = std::move(request);
  m.value()->set_current_gear(gear.value());
  return npurt::Status::Ok();
}

}  // namespace

namespace npurt::api::mdl {

StatusOr<int32_t> RequestedGear(const models::LoadedModel& model, const Dataset& input) {
  const GearTable& t = model.gears();
  if (!t.dynamic() || input.gear_request == om::DynamicKind::kNone) return -1;
  StatusOr<size_t> g = Err(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID, "no gear");
  const auto& v = input.gear_values;
  switch (input.gear_request) {
    case om::DynamicKind::kBatch: g = t.FindBatch(static_cast<uint64_t>(v[0])); break;
    case om::DynamicKind::kImageSize: g = t.FindImageSize(static_cast<uint64_t>(v[0]), static_cast<uint64_t>(v[1])); break;
    case om::DynamicKind::kDims: g = t.FindDims(v); break;
    case om::DynamicKind::kNone: break;
  }
  if (!g.ok()) {
    return Err(g.status().code(), "the input dataset's gear request does not fit model {}: {}", model.id(),
               g.status().message());
  }
  return static_cast<int32_t>(g.value());
}

}  // namespace npurt::api::mdl

aclError aclmdlSetDynamicBatchSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t batchSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataset);
  if (batchSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "batchSize is 0"));
  return npurt::api::Report(__func__, SetGear(modelId, dataset, index, npurt::om::DynamicKind::kBatch,
                                              {static_cast<int64_t>(batchSize)},
                                              [&](const GearTable& t) { return t.FindBatch(batchSize); }));
}

aclError aclmdlSetDynamicHWSize(uint32_t modelId, aclmdlDataset* dataset, size_t index, uint64_t height,
                                uint64_t width) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataset);
  if (height == 0 || width == 0) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "height and width must not be 0"));
  }
  return npurt::api::Report(__func__, SetGear(modelId, dataset, index, npurt::om::DynamicKind::kImageSize,
                                              {static_cast<int64_t>(height), static_cast<int64_t>(width)},
                                              [&](const GearTable& t) { return t.FindImageSize(height, width); }));
}

aclError aclmdlSetInputDynamicDims(uint32_t modelId, aclmdlDataset* dataset, size_t index, const aclmdlIODims* dims) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dataset);
  NPURT_API_NOT_NULL(dims);
  if (dims->dimCount == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dims->dimCount is 0"));
  if (dims->dimCount > ACL_MAX_DIM_CNT) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dims->dimCount is {}, more than {}",
                                            dims->dimCount, ACL_MAX_DIM_CNT));
  }
  std::vector<int64_t> all(dims->dims, dims->dims + dims->dimCount);
  return npurt::api::Report(__func__, SetGear(modelId, dataset, index, npurt::om::DynamicKind::kDims, all,
                                              [&](const GearTable& t) { return t.FindDims(all); }));
}

aclError aclmdlGetDynamicBatch(const aclmdlDesc* modelDesc, aclmdlBatch* batch) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(batch);
  const GearTable& t = d->info.gears;
  batch->batchCount = 0;
  if (t.kind != npurt::om::DynamicKind::kBatch) return ACL_SUCCESS;
  if (t.values.size() > ACL_MAX_BATCH_NUM) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_STORAGE_OVER_LIMIT, "the model has {} batch gears, more than "
                                            "aclmdlBatch holds ({})", t.values.size(), ACL_MAX_BATCH_NUM));
  }
  for (const auto& v : t.values) batch->batch[batch->batchCount++] = static_cast<uint64_t>(v[0]);
  return ACL_SUCCESS;
}

aclError aclmdlGetDynamicHW(const aclmdlDesc* modelDesc, size_t index, aclmdlHW* hw) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(hw);
  (void)index;  // CANN ignores it (the samples pass -1)
  const GearTable& t = d->info.gears;
  hw->hwCount = 0;
  if (t.kind != npurt::om::DynamicKind::kImageSize) return ACL_SUCCESS;
  if (t.values.size() > ACL_MAX_HW_NUM) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_STORAGE_OVER_LIMIT, "the model has {} image-size gears, more "
                                            "than aclmdlHW holds ({})", t.values.size(), ACL_MAX_HW_NUM));
  }
  for (const auto& v : t.values) {
    hw->hw[hw->hwCount][0] = static_cast<uint64_t>(v[0]);
    hw->hw[hw->hwCount][1] = static_cast<uint64_t>(v[1]);
    ++hw->hwCount;
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicGearCount(const aclmdlDesc* modelDesc, size_t index, size_t* gearCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(gearCount);
  if (index != static_cast<size_t>(-1)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index must be -1, not {}", index));
  }
  const GearTable& t = d->info.gears;
  *gearCount = t.kind == npurt::om::DynamicKind::kDims ? t.values.size() : 0;
  return ACL_SUCCESS;
}

aclError aclmdlGetInputDynamicDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims, size_t gearCount) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(dims);
  if (index != static_cast<size_t>(-1)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index must be -1, not {}", index));
  }
  const GearTable& t = d->info.gears;
  const size_t count = t.kind == npurt::om::DynamicKind::kDims ? t.values.size() : 0;
  if (gearCount != count) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "gearCount is {}, the model has {} dims gears "
                                            "(aclmdlGetInputDynamicGearCount)", gearCount, count));
  }
  // Each gear: every dim of every templated input, concatenated (what aclmdlSetInputDynamicDims takes).
  for (size_t g = 0; g < count; ++g) {
    std::vector<std::vector<int64_t>> per_input;
    npurt::om::ApplyGear(t.kind, t.templates, t.values[g], &per_input);
    aclmdlIODims& out = dims[g];
    std::memset(&out, 0, sizeof out);
    for (const auto& in : per_input) {
      for (int64_t v : in) {
        if (out.dimCount == ACL_MAX_DIM_CNT) {
          return npurt::api::Report(__func__, Err(ACL_ERROR_STORAGE_OVER_LIMIT, "a gear has more than {} dims",
                                                  ACL_MAX_DIM_CNT));
        }
        out.dims[out.dimCount++] = v;
      }
    }
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
