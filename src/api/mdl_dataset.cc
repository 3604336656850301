// Entry points: datasets (aclmdlDataset), the ordered data buffers of a model's inputs or outputs, with
// optional tensor descriptors. A dataset owns its descriptor copies, never the data buffers or their memory.
#include "api/api_common.h"
#include "api/mdl_common.h"
#include "ops/tensor_desc.h"

using npurt::Err;
using npurt::api::mdl::Dataset;
using npurt::ops::TensorDesc;

namespace npurt::api::mdl {

Dataset::~Dataset() {
  for (aclTensorDesc* d : descs) {
    if (TensorDesc* t = TensorDesc::From(d)) {
      if (t->Invalidate()) t->Release();
    }
  }
}

StatusOr<Dataset*> ResolveDataset(const aclmdlDataset* dataset, const char* what) {
  if (dataset == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  Dataset* d = Dataset::From(dataset);
  if (d == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is not a live dataset", what);
  return d;
}

StatusOr<std::vector<models::UserBuffer>> Buffers(const Dataset* dataset, const char* what) {
  std::vector<models::UserBuffer> out;
  out.reserve(dataset->buffers.size());
  for (size_t i = 0; i < dataset->buffers.size(); ++i) {
    aclDataBuffer* b = dataset->buffers[i];
    if (!DataBufferLive(b)) {
      return Err(ACL_ERROR_INVALID_PARAM, "buffer {} of the {} dataset is not a live data buffer (destroyed?)", i,
                 what);
    }
    out.push_back({aclGetDataBufferAddr(b), aclGetDataBufferSizeV2(b)});
  }
  return out;
}

std::vector<std::vector<int64_t>> DescribedShapes(const Dataset* dataset) {
  std::vector<std::vector<int64_t>> dims(dataset->buffers.size());
  for (size_t i = 0; i < dataset->descs.size() && i < dims.size(); ++i) {
    if (const TensorDesc* t = TensorDesc::From(dataset->descs[i])) dims[i] = t->spec.dims;
  }
  return dims;
}

Status SetOutputDescs(Dataset* dataset, const std::vector<models::IoDesc>& outputs,
                      const std::vector<std::vector<int64_t>>& dims) {
  for (size_t i = 0; i < dataset->descs.size() && i < outputs.size() && i < dims.size(); ++i) {
    auto* t = npurt::NewHandle<TensorDesc>();
    if (t == nullptr) return Err(ACL_ERROR_BAD_ALLOC, "out of handle memory");
    t->spec = outputs[i].spec;
    t->spec.dims = dims[i];
    t->name = outputs[i].name;
    if (TensorDesc* old = TensorDesc::From(dataset->descs[i])) {
      if (old->Invalidate()) old->Release();
    }
    dataset->descs[i] = reinterpret_cast<aclTensorDesc*>(t);
  }
  return Status::Ok();
}

}  // namespace npurt::api::mdl

namespace {

TensorDesc* CopyDesc(const TensorDesc& src) {
  auto* t = npurt::NewHandle<TensorDesc>();
  if (t == nullptr) return nullptr;
  t->spec = src.spec;
  t->unknown_rank = src.unknown_rank;
  t->name = src.name;
  t->dynamic_input = src.dynamic_input;
  t->origin_format = src.origin_format;
  t->origin_dims = src.origin_dims;
  t->storage_format = src.storage_format;
  t->storage_dims = src.storage_dims;
  t->shape_range = src.shape_range;
  t->value_range = src.value_range;
  t->const_data = src.const_data;
  t->is_const = src.is_const;
  t->placement = src.placement;
  return t;
}

}  // namespace

aclmdlDataset* aclmdlCreateDataset(void) {
  NPURT_HANDLE_SCOPE();
  return reinterpret_cast<aclmdlDataset*>(npurt::NewHandle<Dataset>());
}

aclError aclmdlDestroyDataset(const aclmdlDataset* dataset) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDataset(dataset, "dataset"));
  if (d->Invalidate()) d->Release();
  return ACL_SUCCESS;
}

aclError aclmdlAddDatasetBuffer(aclmdlDataset* dataset, aclDataBuffer* dataBuffer) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDataset(dataset, "dataset"));
  NPURT_API_NOT_NULL(dataBuffer);
  d->buffers.push_back(dataBuffer);
  d->descs.push_back(nullptr);
  return ACL_SUCCESS;
}

size_t aclmdlGetDatasetNumBuffers(const aclmdlDataset* dataset) {
  NPURT_HANDLE_SCOPE();
  auto d = npurt::api::mdl::ResolveDataset(dataset, "dataset");
  if (!d.ok()) return (npurt::api::Report(__func__, d.status()), 0);
  return d.value()->buffers.size();
}

aclDataBuffer* aclmdlGetDatasetBuffer(const aclmdlDataset* dataset, size_t index) {
  NPURT_HANDLE_SCOPE();
  auto d = npurt::api::mdl::ResolveDataset(dataset, "dataset");
  if (!d.ok()) return (npurt::api::Report(__func__, d.status()), nullptr);
  if (index >= d.value()->buffers.size()) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index {} is out of range: the dataset has {} buffers",
                                     index, d.value()->buffers.size()));
    return nullptr;
  }
  return d.value()->buffers[index];
}

aclError aclmdlSetDatasetTensorDesc(aclmdlDataset* dataset, aclTensorDesc* tensorDesc, size_t index) {
  NPURT_HANDLE_SCOPE();
  NPURT_API_ASSIGN(d, npurt::api::mdl::ResolveDataset(dataset, "dataset"));
  if (index >= d->buffers.size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                            "index {} is out of range: the dataset has {} buffers", index,
                                            d->buffers.size()));
  }
  TensorDesc* copy = nullptr;
  if (tensorDesc != nullptr) {
    const TensorDesc* src = TensorDesc::From(tensorDesc);
    if (src == nullptr) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "tensorDesc is not a live tensor descriptor"));
    }
    copy = CopyDesc(*src);
    if (copy == nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_BAD_ALLOC, "out of handle memory"));
  }
  if (TensorDesc* old = TensorDesc::From(d->descs[index])) {
    if (old->Invalidate()) old->Release();
  }
  d->descs[index] = reinterpret_cast<aclTensorDesc*>(copy);
  return ACL_SUCCESS;
}

aclTensorDesc* aclmdlGetDatasetTensorDesc(const aclmdlDataset* dataset, size_t index) {
  NPURT_HANDLE_SCOPE();
  auto d = npurt::api::mdl::ResolveDataset(dataset, "dataset");
  if (!d.ok()) return (npurt::api::Report(__func__, d.status()), nullptr);
  if (index >= d.value()->descs.size()) {
    npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "index {} is out of range: the dataset has {} buffers",
                                     index, d.value()->descs.size()));
    return nullptr;
  }
  return d.value()->descs[index];
}
