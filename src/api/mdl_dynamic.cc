// Entry points: dynamic gears (atc --dynamic_batch_size / --dynamic_image_size / --dynamic_dims;
// models/runtime/gear_table.h) and AIPP: static AIPP compiled into a model (models/runtime/static_aipp.h)
// is reported; dynamic AIPP is not supported. A Set call checks the request
// against the model's gears, writes the values into the hidden selector input (ACL_DYNAMIC_TENSOR_NAME,
// the last) as CANN does, and records the request in the dataset: the execution with that dataset runs
// the gear, one without a request the largest. Static models answer "no gears" exactly as CANN does for
// them, so programs that probe (the samples, msame, ais_bench) take their static path.
#include <algorithm>
#include <cstring>
#include <variant>

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
    case om::DynamicKind::kNone:
    case om::DynamicKind::kShape: break;
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
  for (const npurt::models::StaticAipp& a : m->aipp()) {
    if (a.input == index) *type = ACL_DATA_WITH_STATIC_AIPP;
  }
  *dynamicAttachedDataIndex = ACL_INVALID_NODE_INDEX;
  return ACL_SUCCESS;
}

namespace {

int32_t AippIntAt(const npurt::AttrMap& a, const char* name, size_t i, int64_t def) {
  auto v = npurt::GetInts(a, name, {});
  return static_cast<int32_t>(v.ok() && i < v->size() ? (*v)[i] : def);
}

float AippFloatAt(const npurt::AttrMap& a, const char* name, size_t i, float def) {
  auto it = a.find(name);
  if (it == a.end()) return def;
  if (const auto* f = std::get_if<std::vector<float>>(&it->second)) return i < f->size() ? (*f)[i] : def;
  return def;
}

aclmdlIODims Dims(const std::string& name, const std::vector<int64_t>& d) {
  aclmdlIODims out{};
  std::memcpy(out.name, name.data(), std::min(name.size(), sizeof out.name - 1));
  for (int64_t v : d) {
    if (out.dimCount < ACL_MAX_DIM_CNT) out.dims[out.dimCount++] = v;
  }
  return out;
}

void FillAippInfo(const npurt::models::StaticAipp& s, const std::string& name, aclAippInfo* info) {
  const npurt::AttrMap& a = s.attrs;
  std::memset(info, 0, sizeof *info);
  const auto format = npurt::GetString(a, "input_format", "");
  const std::string f = format.ok() ? format.value() : "";
  info->inputFormat = f == "YUV420SP_U8" ? ACL_YUV420SP_U8 : f == "XRGB8888_U8" ? ACL_XRGB8888_U8
                      : f == "YUV400_U8" ? ACL_YUV400_U8 : ACL_RGB888_U8;
  const auto w = npurt::GetInt(a, "src_image_size_w", 0), h = npurt::GetInt(a, "src_image_size_h", 0);
  info->srcImageSizeW = static_cast<int32_t>(w.ok() ? w.value() : 0);
  info->srcImageSizeH = static_cast<int32_t>(h.ok() ? h.value() : 0);
  info->loadStartPosW = AippIntAt(a, "crop", 0, 0);
  info->loadStartPosH = AippIntAt(a, "crop", 1, 0);
  info->cropSizeW = AippIntAt(a, "crop", 2, info->srcImageSizeW);
  info->cropSizeH = AippIntAt(a, "crop", 3, info->srcImageSizeH);
  info->cropSwitch = info->loadStartPosW != 0 || info->loadStartPosH != 0 || info->cropSizeW != info->srcImageSizeW ||
                     info->cropSizeH != info->srcImageSizeH;
  info->topPaddingSize = AippIntAt(a, "padding", 0, 0);
  info->bottomPaddingSize = AippIntAt(a, "padding", 1, 0);
  info->leftPaddingSize = AippIntAt(a, "padding", 2, 0);
  info->rightPaddingSize = AippIntAt(a, "padding", 3, 0);
  info->paddingSwitch = info->topPaddingSize + info->bottomPaddingSize + info->leftPaddingSize + info->rightPaddingSize > 0;
  auto flag = [&](const char* n) { auto v = npurt::GetBool(a, n, false); return static_cast<int8_t>(v.ok() && v.value()); };
  info->cscSwitch = flag("csc_switch");
  info->rbuvSwapSwitch = flag("rbuv_swap_switch");
  info->axSwapSwitch = flag("ax_swap_switch");
  int32_t* matrix[9] = {&info->matrixR0C0, &info->matrixR0C1, &info->matrixR0C2, &info->matrixR1C0, &info->matrixR1C1,
                        &info->matrixR1C2, &info->matrixR2C0, &info->matrixR2C1, &info->matrixR2C2};
  for (size_t i = 0; i < 9; ++i) *matrix[i] = AippIntAt(a, "csc_matrix", i, 0);
  int32_t* out_bias[3] = {&info->outputBias0, &info->outputBias1, &info->outputBias2};
  int32_t* in_bias[3] = {&info->inputBias0, &info->inputBias1, &info->inputBias2};
  int32_t* mean[3] = {&info->meanChn0, &info->meanChn1, &info->meanChn2};
  float* min[3] = {&info->minChn0, &info->minChn1, &info->minChn2};
  float* var[3] = {&info->varReciChn0, &info->varReciChn1, &info->varReciChn2};
  for (size_t i = 0; i < 3; ++i) {
    *out_bias[i] = AippIntAt(a, "output_bias", i, 0);
    *in_bias[i] = AippIntAt(a, "input_bias", i, 0);
    *mean[i] = AippIntAt(a, "mean_chn", i, 0);
    *min[i] = AippFloatAt(a, "min_chn", i, 0.0f);
    *var[i] = AippFloatAt(a, "var_reci_chn", i, 1.0f);
  }
  info->varReciChn3 = 1.0f;
  info->srcFormat = static_cast<aclFormat>(s.model_input.format);
  info->srcDatatype = static_cast<aclDataType>(s.model_input.dtype);
  info->srcDimNum = s.model_input.dims.size();
  info->shapeCount = 1;
  info->outDims[0].srcDims = Dims(name, s.model_input.dims);
  info->outDims[0].srcSize = s.model_input.bytes();
  info->outDims[0].aippOutdims = Dims(name, s.model_input.dims);
  info->outDims[0].aippOutSize = s.model_input.bytes();
  info->aippExtend = nullptr;
}

}  // namespace

aclError aclmdlGetFirstAippInfo(uint32_t modelId, size_t index, aclAippInfo* aippInfo) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(aippInfo);
  NPURT_API_ASSIGN(m, npurt::models::FindModel(modelId));
  if (index >= m->inputs().size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "input index {} is out of range: model {} has {}",
                                            index, modelId, m->inputs().size()));
  }
  for (const npurt::models::StaticAipp& a : m->aipp()) {
    if (a.input != index) continue;
    FillAippInfo(a, m->inputs()[index].name, aippInfo);
    return ACL_SUCCESS;
  }
  // Programs probe with this: CANN logs it at INFO only.
  return npurt::api::Report(__func__, Err(ACL_ERROR_GE_AIPP_NOT_EXIST, "input {} of model {} has no AIPP", index, modelId));
}
