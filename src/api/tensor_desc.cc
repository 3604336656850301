// Entry points: tensor descriptors (acl_base_mdl.h). Descriptors are handles (ops::TensorDesc) so
// every call validates the pointer before use.
#include <cstdint>
#include <cstring>

#include "acl/acl.h"
#include "acl/error_codes/rt_error_codes.h"
#include "api/api_common.h"
#include "ops/tensor_desc.h"

using npurt::Err;
using npurt::ops::TensorDesc;

namespace {

TensorDesc* TensorDescOf(const aclTensorDesc* d) { return TensorDesc::From(d); }

aclError BadDesc(const char* fn, const void* d) {
  return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live tensor descriptor", d));
}

bool ValidDims(int numDims, const int64_t* dims) {
  if (numDims < 0 || (numDims > 0 && dims == nullptr)) return false;
  for (int i = 0; i < numDims; ++i) {
    if (dims[i] < -2 || (dims[i] == -2 && numDims != 1)) return false;
  }
  return true;
}

void SetDims(TensorDesc* t, int numDims, const int64_t* dims) {
  t->unknown_rank = numDims == 1 && dims[0] == -2;
  t->spec.dims.assign(dims, dims + numDims);
}

}  // namespace

aclTensorDesc* aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t* dims, aclFormat format) {
  NPURT_HANDLE_SCOPE();
  if (!ValidDims(numDims, dims)) {
    (void)npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "numDims {} with dims {} is not a valid shape",
                                           numDims, static_cast<const void*>(dims)));
    return nullptr;
  }
  auto* t = npurt::NewHandle<TensorDesc>();
  if (t == nullptr) {
    (void)npurt::api::Report(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
    return nullptr;
  }
  // Kept as the ints a C caller passed (RawEnum: loading an out-of-range value as the enum is undefined).
  t->spec.dtype = npurt::RawEnum(dataType);
  t->spec.format = npurt::RawEnum(format);
  SetDims(t, numDims, dims);
  return reinterpret_cast<aclTensorDesc*>(t);
}

void aclDestroyTensorDesc(const aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    if (desc != nullptr) (void)BadDesc(__func__, desc);
    return;
  }
  if (t->Invalidate()) t->Release();
}

aclError aclSetTensorShapeRange(aclTensorDesc* desc, size_t dimsCount, int64_t dimsRange[][ACL_TENSOR_SHAPE_RANGE_NUM]) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  if (dimsCount > 0 && dimsRange == nullptr) NPURT_API_NOT_NULL(dimsRange);
  t->shape_range.resize(dimsCount);
  for (size_t i = 0; i < dimsCount; ++i) t->shape_range[i] = {dimsRange[i][0], dimsRange[i][1]};
  return ACL_SUCCESS;
}

aclError aclSetTensorValueRange(aclTensorDesc* desc, size_t valueCount, int64_t valueRange[][ACL_TENSOR_VALUE_RANGE_NUM]) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  if (valueCount > 0 && valueRange == nullptr) NPURT_API_NOT_NULL(valueRange);
  t->value_range.resize(valueCount);
  for (size_t i = 0; i < valueCount; ++i) t->value_range[i] = {valueRange[i][0], valueRange[i][1]};
  return ACL_SUCCESS;
}

aclDataType aclGetTensorDescType(const aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return ACL_DT_UNDEFINED;
  }
  return static_cast<aclDataType>(t->spec.dtype);
}

aclFormat aclGetTensorDescFormat(const aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return ACL_FORMAT_UNDEFINED;
  }
  return static_cast<aclFormat>(t->spec.format);
}

size_t aclGetTensorDescElementCount(const aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return 0;
  }
  return t->unknown_rank ? 0 : static_cast<size_t>(t->spec.numel());
}

size_t aclGetTensorDescSize(const aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return 0;
  }
  if (t->unknown_rank) return 0;
  // Saturates like the element count: a size that wrapped would let a small buffer pass for a huge tensor.
  size_t bytes = 0;
  return __builtin_mul_overflow(static_cast<size_t>(t->spec.numel()),
                                aclDataTypeSize(static_cast<aclDataType>(t->spec.dtype)), &bytes)
             ? SIZE_MAX
             : bytes;
}

size_t aclGetTensorDescNumDims(const aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return 0;
  }
  return t->unknown_rank ? static_cast<size_t>(ACL_UNKNOWN_RANK) : t->spec.dims.size();
}

int64_t aclGetTensorDescDim(const aclTensorDesc* desc, size_t index) {
  NPURT_HANDLE_SCOPE();
  int64_t v = -1;
  return aclGetTensorDescDimV2(desc, index, &v) == ACL_SUCCESS ? v : -1;
}

aclError aclGetTensorDescDimV2(const aclTensorDesc* desc, size_t index, int64_t* dimSize) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  NPURT_API_NOT_NULL(dimSize);
  if (index >= t->spec.dims.size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dim index {} is out of range (rank {})", index,
                                            t->spec.dims.size()));
  }
  *dimSize = t->spec.dims[index];
  return ACL_SUCCESS;
}

aclError aclGetTensorDescDimRange(const aclTensorDesc* desc, size_t index, size_t dimRangeNum, int64_t* dimRange) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  NPURT_API_NOT_NULL(dimRange);
  if (dimRangeNum < ACL_TENSOR_SHAPE_RANGE_NUM) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dimRangeNum {} is smaller than {}", dimRangeNum,
                                            ACL_TENSOR_SHAPE_RANGE_NUM));
  }
  if (index >= t->spec.dims.size()) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "dim index {} is out of range (rank {})", index,
                                            t->spec.dims.size()));
  }
  if (index < t->shape_range.size()) {
    dimRange[0] = t->shape_range[index][0];
    dimRange[1] = t->shape_range[index][1];
  } else {
    dimRange[0] = dimRange[1] = t->spec.dims[index];
  }
  return ACL_SUCCESS;
}

void aclSetTensorDescName(aclTensorDesc* desc, const char* name) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return;
  }
  t->name = name != nullptr ? name : "";
}

const char* aclGetTensorDescName(aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return nullptr;
  }
  return t->name.c_str();
}

aclError aclTransTensorDescFormat(const aclTensorDesc* srcDesc, aclFormat dstFormat, aclTensorDesc** dstDesc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(srcDesc);
  if (t == nullptr) return BadDesc(__func__, srcDesc);
  NPURT_API_NOT_NULL(dstDesc);
  std::vector<int64_t> dims = t->spec.dims;
  const int32_t from = t->spec.format;
  const int to = npurt::RawEnum(dstFormat);
  if (from != to) {
    const bool four = dims.size() == 4;
    if (four && from == ACL_FORMAT_NCHW && to == ACL_FORMAT_NHWC) {
      dims = {dims[0], dims[2], dims[3], dims[1]};
    } else if (four && from == ACL_FORMAT_NHWC && to == ACL_FORMAT_NCHW) {
      dims = {dims[0], dims[3], dims[1], dims[2]};
    } else if (from != ACL_FORMAT_ND && to != ACL_FORMAT_ND) {
      return npurt::api::Report(__func__, Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                                              "converting a descriptor from format {} to {} is not supported (NCHW <-> "
                                              "NHWC and to/from ND are)", from, to));
    }
  }
  aclTensorDesc* out = aclCreateTensorDesc(static_cast<aclDataType>(t->spec.dtype), static_cast<int>(dims.size()),
                                           dims.data(), static_cast<aclFormat>(to));
  if (out == nullptr) return npurt::api::Report(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  TensorDescOf(out)->name = t->name;
  *dstDesc = out;
  return ACL_SUCCESS;
}

aclError aclSetTensorStorageFormat(aclTensorDesc* desc, aclFormat format) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  t->storage_format = npurt::RawEnum(format);
  return ACL_SUCCESS;
}

aclError aclSetTensorStorageShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  if (!ValidDims(numDims, dims)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "numDims {} is not a valid shape", numDims));
  }
  t->storage_dims.assign(dims, dims + numDims);
  return ACL_SUCCESS;
}

aclError aclSetTensorFormat(aclTensorDesc* desc, aclFormat format) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  t->spec.format = npurt::RawEnum(format);
  return ACL_SUCCESS;
}

aclError aclSetTensorShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  if (!ValidDims(numDims, dims)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "numDims {} is not a valid shape", numDims));
  }
  SetDims(t, numDims, dims);
  return ACL_SUCCESS;
}

aclError aclSetTensorOriginFormat(aclTensorDesc* desc, aclFormat format) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  t->origin_format = npurt::RawEnum(format);
  return ACL_SUCCESS;
}

aclError aclSetTensorOriginShape(aclTensorDesc* desc, int numDims, const int64_t* dims) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  if (!ValidDims(numDims, dims)) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "numDims {} is not a valid shape", numDims));
  }
  t->origin_dims.assign(dims, dims + numDims);
  return ACL_SUCCESS;
}

aclTensorDesc* aclGetTensorDescByIndex(aclTensorDesc* desc, size_t index) {
  NPURT_HANDLE_SCOPE();
  // Descriptors are individual handles, so only the first element of a "list" is addressable.
  if (TensorDescOf(desc) == nullptr) {
    (void)BadDesc(__func__, desc);
    return nullptr;
  }
  if (index != 0) {
    (void)npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM,
                                           "index {}: a descriptor created by aclCreateTensorDesc holds one tensor", index));
    return nullptr;
  }
  return desc;
}

void* aclGetTensorDescAddress(const aclTensorDesc* desc) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) {
    (void)BadDesc(__func__, desc);
    return nullptr;
  }
  return t->is_const ? t->const_data.data() : nullptr;
}

aclError aclSetTensorDynamicInput(aclTensorDesc* desc, const char* dynamicInputName) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  NPURT_API_NOT_NULL(dynamicInputName);
  t->dynamic_input = dynamicInputName;
  return ACL_SUCCESS;
}

aclError aclSetTensorConst(aclTensorDesc* desc, void* dataBuffer, size_t length) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  NPURT_API_NOT_NULL(dataBuffer);
  if (length == 0) return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "length is 0"));
  const auto* p = static_cast<const uint8_t*>(dataBuffer);
  t->const_data.assign(p, p + length);
  t->is_const = true;
  return ACL_SUCCESS;
}

aclError aclSetTensorPlaceMent(aclTensorDesc* desc, aclMemType memType) {
  NPURT_HANDLE_SCOPE();
  TensorDesc* t = TensorDescOf(desc);
  if (t == nullptr) return BadDesc(__func__, desc);
  const int type = npurt::RawEnum(memType);
  if (type != ACL_MEMTYPE_DEVICE && type != ACL_MEMTYPE_HOST && type != ACL_MEMTYPE_HOST_COMPILE_INDEPENDENT) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "memType {} is not an aclMemType", type));
  }
  t->placement = memType;
  return ACL_SUCCESS;
}
