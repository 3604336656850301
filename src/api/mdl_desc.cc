// Entry points: model descriptions (aclmdlDesc), filled from a loaded model, a file or memory, and their
// getters. Getters returning sizes, names, formats or types answer 0 / NULL / UNDEFINED on bad input and
// record why (aclGetRecentErrMsg), as CANN's do.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "api/api_common.h"
#include "api/mdl_common.h"
#include "base/dtype.h"

using npurt::Err;
using npurt::api::mdl::Desc;
using npurt::models::IoDesc;

namespace npurt::api::mdl {

StatusOr<Desc*> ResolveDesc(const aclmdlDesc* desc, const char* what) {
  if (desc == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  Desc* d = Desc::From(desc);
  if (d == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is not a live model description", what);
  return d;
}

}  // namespace npurt::api::mdl

namespace {

// The description's I/O tensor `index`, or null with the reason recorded.
const IoDesc* Io(const char* fn, const aclmdlDesc* desc, size_t index, bool output) {
  auto d = npurt::api::mdl::ResolveDesc(desc, "modelDesc");
  if (!d.ok()) {
    npurt::api::Report(fn, d.status());
    return nullptr;
  }
  const auto& list = output ? d.value()->info.outputs : d.value()->info.inputs;
  if (index >= list.size()) {
    npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} index {} is out of range: the model has {} {}s",
                               output ? "output" : "input", index, list.size(), output ? "output" : "input"));
    return nullptr;
  }
  return &list[index];
}

// The name aclmdlIODims carries: the tensor's own if it fits, else acl_modelId_<id>_<input|output>_<i>
// (aclmdlGetTensorRealName maps it back).
std::string DimsName(const Desc& d, size_t index, bool output) {
  const auto& list = output ? d.info.outputs : d.info.inputs;
  const std::string& name = list[index].name;
  if (name.size() < ACL_MAX_TENSOR_NAME_LEN) return name;
  return fmt::format("acl_modelId_{}_{}_{}", d.info.model_id, output ? "output" : "input", index);
}

// `gear`: a gear model's output dims in that gear (-1: as the description has them).
// `image`: an input with static AIPP shows its image (aclmdlGetInputDims), else its buffer (...V2).
aclError FillDims(const char* fn, const aclmdlDesc* desc, size_t index, aclmdlIODims* dims, bool output,
                  int32_t gear = -1, bool image = false) {
  NPURT_API_NOT_NULL(dims);
  const IoDesc* found = Io(fn, desc, index, output);
  if (found == nullptr) return ACL_ERROR_INVALID_PARAM;
  IoDesc geared;
  const IoDesc* io = found;
  const auto& gears = Desc::From(desc)->info.gears;
  if (gear >= 0 && output && static_cast<size_t>(gear) < gears.output_dims.size()) {
    geared = *found;
    geared.spec.dims = gears.output_dims[static_cast<size_t>(gear)][index];
    io = &geared;
  }
  if (image && !output && !found->image_dims.empty()) {
    geared = *found;
    geared.spec.dims = found->image_dims;
    io = &geared;
  }
  if (io->spec.dims.size() > ACL_MAX_DIM_CNT) {
    return npurt::api::Report(fn, Err(ACL_ERROR_STORAGE_OVER_LIMIT, "tensor {} has {} dims, more than {}", io->name,
                                      io->spec.dims.size(), ACL_MAX_DIM_CNT));
  }
  const std::string name = DimsName(*Desc::From(desc), index, output);
  std::memset(dims->name, 0, sizeof dims->name);
  std::memcpy(dims->name, name.data(), std::min(name.size(), sizeof dims->name - 1));
  dims->dimCount = io->spec.dims.size();
  for (size_t i = 0; i < io->spec.dims.size(); ++i) dims->dims[i] = io->spec.dims[i];
  return ACL_SUCCESS;
}

aclError IndexByName(const char* fn, const aclmdlDesc* desc, const char* name, size_t* index, bool output) {
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(desc, "modelDesc"));
  NPURT_API_NOT_NULL(name);
  NPURT_API_NOT_NULL(index);
  const auto& list = output ? d->info.outputs : d->info.inputs;
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == name) {
      *index = i;
      return ACL_SUCCESS;
    }
  }
  // Programs probe with this ("is the model dynamic?"): not an error worth more than the message.
  return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "the model has no {} named '{}'",
                                    output ? "output" : "input", name));
}

}  // namespace

aclmdlDesc* aclmdlCreateDesc(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<aclmdlDesc*>(npurt::NewHandle<Desc>());
}

aclError aclmdlDestroyDesc(aclmdlDesc* modelDesc) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  if (d->Invalidate()) d->Release();
  return ACL_SUCCESS;
}

aclError aclmdlGetDesc(aclmdlDesc* modelDesc, uint32_t modelId) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_ASSIGN(info, npurt::models::DescribeLoaded(modelId));
  d->info = std::move(info);
  d->filled = true;
  return ACL_SUCCESS;
}

aclError aclmdlGetDescFromFile(aclmdlDesc* modelDesc, const char* modelPath) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(modelPath);
  NPURT_API_ASSIGN(info, npurt::models::DescribeFile(modelPath));
  d->info = std::move(info);
  d->filled = true;
  return ACL_SUCCESS;
}

aclError aclmdlGetDescFromMem(aclmdlDesc* modelDesc, const void* model, size_t modelSize) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  NPURT_API_NOT_NULL(model);
  if (modelSize == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "modelSize is 0"));
  NPURT_API_ASSIGN(info, npurt::models::DescribeMemory(model, modelSize));
  d->info = std::move(info);
  d->filled = true;
  return ACL_SUCCESS;
}

size_t aclmdlGetNumInputs(aclmdlDesc* modelDesc) {
  NPURT_HANDLE_SCOPE();
  auto d = npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc");
  if (!d.ok()) return (npurt::api::Report(__func__, d.status()), 0);
  return d.value()->info.inputs.size();
}

size_t aclmdlGetNumOutputs(aclmdlDesc* modelDesc) {
  NPURT_HANDLE_SCOPE();
  auto d = npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc");
  if (!d.ok()) return (npurt::api::Report(__func__, d.status()), 0);
  return d.value()->info.outputs.size();
}

size_t aclmdlGetInputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, false);
  return io == nullptr ? 0 : io->bytes;
}

size_t aclmdlGetOutputSizeByIndex(aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, true);
  return io == nullptr ? 0 : io->bytes;
}

aclError aclmdlGetInputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  NPURT_HANDLE_SCOPE();
  return FillDims(__func__, modelDesc, index, dims, false, -1, /*image=*/true);
}

aclError aclmdlGetInputDimsV2(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  NPURT_HANDLE_SCOPE();
  // The buffer's view: for an input with static AIPP, e.g. [N, H, W, 3] (RGB888_U8); otherwise the same
  // as aclmdlGetInputDims.
  return FillDims(__func__, modelDesc, index, dims, false);
}

aclError aclmdlGetInputDimsRange(const aclmdlDesc* modelDesc, size_t index, aclmdlIODimsRange* dimsRange) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_NOT_NULL(dimsRange);
  const IoDesc* io = Io(__func__, modelDesc, index, false);
  if (io == nullptr) return ACL_ERROR_INVALID_PARAM;
  // A static input's range is its dims; a gear model's dims that gears set span the gears' values; a
  // dynamic-shape model's are its ranges (max -1: unbounded).
  const auto& gears = Desc::From(modelDesc)->info.gears;
  dimsRange->rangeCount = std::min<size_t>(io->spec.dims.size(), ACL_MAX_DIM_CNT);
  for (size_t i = 0; i < dimsRange->rangeCount; ++i) {
    int64_t lo = io->spec.dims[i], hi = io->spec.dims[i];
    if (gears.shapes() && index < gears.templates.size() && i < gears.templates[index].range_min.size()) {
      lo = gears.templates[index].range_min[i];
      hi = gears.templates[index].range_max[i];
    } else if (lo == -1) {
      lo = INT64_MAX;
      hi = 0;
      for (const auto& gear : gears.input_dims) {
        lo = std::min(lo, gear[index][i]);
        hi = std::max(hi, gear[index][i]);
      }
    }
    dimsRange->range[i][0] = lo;
    dimsRange->range[i][1] = hi;
  }
  return ACL_SUCCESS;
}

aclError aclmdlGetOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  NPURT_HANDLE_SCOPE();
  return FillDims(__func__, modelDesc, index, dims, true);
}

aclError aclmdlGetCurOutputDims(const aclmdlDesc* modelDesc, size_t index, aclmdlIODims* dims) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc"));
  if (d->info.gears.shapes()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_API_NOT_SUPPORT, "the model has dynamic shapes: an execution's "
                                            "output shapes are in its output dataset (aclmdlGetDatasetTensorDesc)"));
  }
  // A gear model's: the dims of the gear last set on the model (CANN keeps it per model id); a static model,
  // a description read from a file, or no gear set yet: the compiled (largest gear's) dims.
  int32_t gear = -1;
  if (d->info.gears.dynamic() && d->info.model_id != 0) {
    auto m = npurt::models::FindModel(d->info.model_id);
    if (m.ok()) gear = m.value()->current_gear();
  }
  return FillDims(__func__, modelDesc, index, dims, true, gear);
}

const char* aclmdlGetOpAttr(aclmdlDesc* modelDesc, const char* opName, const char* attr) {
  NPURT_HANDLE_SCOPE();
  auto d = npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc");
  if (!d.ok()) return (npurt::api::Report(__func__, d.status()), nullptr);
  if (opName == nullptr || attr == nullptr) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", opName == nullptr ? "opName" : "attr"));
    return nullptr;
  }
  if (std::strcmp(attr, ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES) != 0) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "attribute '{}' is not readable: only {} is", attr,
                                     ACL_ATTR_NAME_DATA_DUMP_ORIGIN_OP_NAMES));
    return nullptr;
  }
  auto it = d.value()->info.origin_names.find(opName);
  if (it == d.value()->info.origin_names.end()) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the model has no operator named '{}'", opName));
    return nullptr;
  }
  return it->second.c_str();  // lives as long as the description
}

const char* aclmdlGetInputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, false);
  return io == nullptr ? nullptr : io->name.c_str();
}

const char* aclmdlGetOutputNameByIndex(const aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, true);
  return io == nullptr ? nullptr : io->name.c_str();
}

aclFormat aclmdlGetInputFormat(const aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, false);
  return io == nullptr ? ACL_FORMAT_UNDEFINED : static_cast<aclFormat>(io->spec.format);
}

aclFormat aclmdlGetOutputFormat(const aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, true);
  return io == nullptr ? ACL_FORMAT_UNDEFINED : static_cast<aclFormat>(io->spec.format);
}

aclDataType aclmdlGetInputDataType(const aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, false);
  return io == nullptr ? ACL_DT_UNDEFINED : static_cast<aclDataType>(io->spec.dtype);
}

aclDataType aclmdlGetOutputDataType(const aclmdlDesc* modelDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  const IoDesc* io = Io(__func__, modelDesc, index, true);
  return io == nullptr ? ACL_DT_UNDEFINED : static_cast<aclDataType>(io->spec.dtype);
}

aclError aclmdlGetInputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  NPURT_HANDLE_SCOPE();
  return IndexByName(__func__, modelDesc, name, index, false);
}

aclError aclmdlGetOutputIndexByName(const aclmdlDesc* modelDesc, const char* name, size_t* index) {
  NPURT_HANDLE_SCOPE();
  return IndexByName(__func__, modelDesc, name, index, true);
}

const char* aclmdlGetTensorRealName(const aclmdlDesc* modelDesc, const char* name) {
  NPURT_HANDLE_SCOPE();
  auto d = npurt::api::mdl::ResolveDesc(modelDesc, "modelDesc");
  if (!d.ok()) return (npurt::api::Report(__func__, d.status()), nullptr);
  if (name == nullptr) return (npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "name is a null pointer")), nullptr);
  for (bool output : {false, true}) {
    const auto& list = output ? d.value()->info.outputs : d.value()->info.inputs;
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i].name == name || DimsName(*d.value(), i, output) == name) return list[i].name.c_str();
    }
  }
  npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "the model has no tensor named '{}'", name));
  return nullptr;
}
