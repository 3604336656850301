// Entry points: aclnn meta objects (aclnn/acl_meta.h) and the executor plumbing shared by the aclnn
// operators.
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "api/aclnn_common.h"
#include "api/api_common.h"
#include "core/memory/memory_ops.h"
#include "core/stream.h"
#include "ops/compile_cache.h"

using npurt::Err;
using npurt::Status;
namespace nn = npurt::api::nn;

namespace npurt::api::nn {

double Scalar::AsDouble() const { return npurt::LoadAsDouble(value, dtype, 0); }

Status TensorArg(const aclTensor* t, const char* name, Arg* out) {
  const Tensor* x = Tensor::From(t);
  if (x == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} ({}) is not a live aclTensor", name, static_cast<const void*>(t));
  // Only contiguous row-major views run; size-1 dims may carry any stride.
  int64_t expect = 1;
  for (size_t k = x->view.size(); k-- > 0;) {
    if (x->view[k] != 1 && x->strides[k] != expect) {
      return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "{}: non-contiguous views (shape {}, strides {}) are not supported; "
                 "make the tensor contiguous first", name, npurt::DimsString(x->view), npurt::DimsString(x->strides));
    }
    expect *= x->view[k];
  }
  out->tensor = x;
  out->spec = npurt::TensorSpec{x->dtype, x->format, x->view};
  return Status::Ok();
}

Arg HostArg(int32_t dtype, std::vector<int64_t> dims, double value) {
  Arg a;
  a.spec = npurt::TensorSpec{dtype, ACL_FORMAT_ND, std::move(dims)};
  const int64_t n = a.spec.numel();
  a.host.resize(std::max<size_t>(1, a.spec.bytes()));
  for (int64_t i = 0; i < n; ++i) npurt::StoreFromDouble(a.host.data(), dtype, static_cast<size_t>(i), value);
  return a;
}

Status ScalarArg(const aclScalar* s, const char* name, int32_t dtype, Arg* out) {
  const Scalar* x = Scalar::From(s);
  if (x == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} ({}) is not a live aclScalar", name, static_cast<const void*>(s));
  *out = HostArg(dtype, {}, x->AsDouble());
  return Status::Ok();
}

StatusOr<std::vector<int64_t>> IntArray(const aclIntArray* a, const char* name) {
  const Array* x = Array::From(a, Array::kInt);
  if (x == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} ({}) is not a live aclIntArray", name, static_cast<const void*>(a));
  return x->ints;
}

namespace {

void* DataOf(const Tensor* t) {
  return static_cast<uint8_t*>(t->data) + t->offset * static_cast<int64_t>(npurt::DTypeSize(t->dtype));
}

Status PrepareImpl(std::string_view type, std::vector<Arg>& inputs, std::vector<Arg>& outputs, npurt::AttrMap& attrs,
                   uint64_t* workspace_size, aclOpExecutor** executor) {
  if (workspace_size == nullptr || executor == nullptr) {
    return Err(ACL_ERROR_INVALID_PARAM, "workspaceSize and executor must not be null");
  }
  ops::OpCall call;
  call.type = type;
  call.attrs = &attrs;
  for (const Arg& a : inputs) call.inputs.push_back(a.spec);
  for (const Arg& a : outputs) call.requested.push_back(a.spec);
  auto op = ops::CompileCache::Get().GetOrCompile(call);
  if (!op.ok()) return std::move(op).status();
  auto* ex = NewHandle<Executor>();
  if (ex == nullptr) return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots");
  ex->op = std::move(op.value());
  ex->bound.inputs.resize(inputs.size());
  ex->device_input.resize(inputs.size());
  ex->bound.owned.reserve(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].tensor != nullptr) {
      ex->bound.inputs[i] = DataOf(inputs[i].tensor);
      ex->device_input[i] = true;
    } else {
      ex->bound.owned.push_back(std::move(inputs[i].host));
      ex->bound.inputs[i] = ex->bound.owned.back().data();
    }
  }
  for (const Arg& a : outputs) ex->bound.outputs.push_back(DataOf(a.tensor));
  *workspace_size = 0;
  *executor = reinterpret_cast<aclOpExecutor*>(ex);
  return Status::Ok();
}

}  // namespace

aclnnStatus Prepare(const char* fn, std::string_view type, std::vector<Arg> inputs, std::vector<Arg> outputs,
                    npurt::AttrMap attrs, uint64_t* workspace_size, aclOpExecutor** executor) {
  return Report(fn, PrepareImpl(type, inputs, outputs, attrs, workspace_size, executor));
}

aclnnStatus Run(const char* fn, void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream) {
  (void)workspace;
  (void)workspace_size;  // npurt's operators need no workspace
  Executor* ex = Executor::From(executor);
  if (ex == nullptr) {
    return Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live aclOpExecutor (executors run once unless "
                          "aclSetAclOpExecutorRepeatable was called)", static_cast<const void*>(executor)));
  }
  auto s = ResolveStream(stream);
  if (!s.ok()) return Report(fn, s.status());
  const ops::CompiledOp& op = *ex->op;
  for (size_t i = 0; i < op.inputs.size(); ++i) {
    if (!ex->device_input[i] || op.inputs[i].bytes() == 0) continue;
    NPURT_API_CHECK(ops::CheckDeviceRange(ex->bound.inputs[i], op.inputs[i].bytes(), s.value(), "input tensor"));
  }
  for (size_t i = 0; i < op.outputs.size(); ++i) {
    if (op.outputs[i].bytes() == 0) continue;
    NPURT_API_CHECK(ops::CheckDeviceRange(ex->bound.outputs[i], op.outputs[i].bytes(), s.value(), "output tensor"));
  }
  Status st;
  if (ex->repeatable) {
    // The run gets its own copy of the host-owned values (the executor may be destroyed meanwhile).
    ops::BoundBuffers copy = ex->bound;
    size_t k = 0;
    for (size_t i = 0; i < copy.inputs.size(); ++i) {
      if (!ex->device_input[i]) copy.inputs[i] = copy.owned[k++].data();
    }
    st = ops::Launch(ex->op, std::move(copy), s.value(), fn);
  } else {
    st = ops::Launch(ex->op, std::move(ex->bound), s.value(), fn);
    if (ex->Invalidate()) ex->Release();
  }
  return Report(fn, st);
}

}  // namespace npurt::api::nn

// ------------------------------------------------------------------------------------------------

namespace {

template <typename T>
aclnnStatus Destroy(const char* fn, T* obj, const void* p, const char* what) {
  if (obj == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live {}", p, what));
  }
  if (obj->Invalidate()) obj->Release();
  return ACL_SUCCESS;
}

template <typename T>
T* Failed(const char* fn, Status st) {
  (void)npurt::api::Report(fn, st);
  return nullptr;
}

aclnnStatus CopyOut(const char* fn, const std::vector<int64_t>& v, int64_t** out, uint64_t* num) {
  if (out == nullptr || num == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "output pointers must not be null"));
  }
  *out = new int64_t[std::max<size_t>(v.size(), 1)];
  std::copy(v.begin(), v.end(), *out);
  *num = v.size();
  return ACL_SUCCESS;
}

}  // namespace

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
  NPURT_HANDLE_SCOPE();
  if ((viewDimsNum > 0 && viewDims == nullptr) || viewDimsNum > 32) {
    return Failed<aclTensor>(__func__, Err(ACL_ERROR_INVALID_PARAM, "viewDims is null or viewDimsNum {} is invalid",
                                           viewDimsNum));
  }
  if (npurt::DTypeSize(dataType) == 0) {
    return Failed<aclTensor>(__func__, Err(ACL_ERROR_INVALID_PARAM, "dataType {} is not supported", static_cast<int>(dataType)));
  }
  if (offset < 0) return Failed<aclTensor>(__func__, Err(ACL_ERROR_INVALID_PARAM, "offset {} is negative", offset));
  for (uint64_t i = 0; i < viewDimsNum; ++i) {
    if (viewDims[i] < 0) {
      return Failed<aclTensor>(__func__, Err(ACL_ERROR_INVALID_PARAM, "viewDims[{}] = {} is negative", i, viewDims[i]));
    }
  }
  auto* t = npurt::NewHandle<nn::Tensor>();
  if (t == nullptr) return Failed<aclTensor>(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  t->view.assign(viewDims, viewDims + viewDimsNum);
  if (stride != nullptr) {
    t->strides.assign(stride, stride + viewDimsNum);
  } else {  // contiguous by default
    t->strides.assign(viewDimsNum, 1);
    for (size_t k = viewDimsNum; k-- > 1;) t->strides[k - 1] = t->strides[k] * t->view[k];
  }
  if (storageDims != nullptr) {
    t->storage.assign(storageDims, storageDims + storageDimsNum);
  } else {
    t->storage = t->view;
  }
  t->offset = offset;
  t->dtype = dataType;
  t->format = format == ACL_FORMAT_UNDEFINED ? ACL_FORMAT_ND : format;
  t->data = tensorData;
  return reinterpret_cast<aclTensor*>(t);
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  NPURT_HANDLE_SCOPE();
  const size_t es = npurt::DTypeSize(dataType);
  if (value == nullptr || es == 0) {
    return Failed<aclScalar>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value is null or dataType {} is not supported",
                                           static_cast<int>(dataType)));
  }
  auto* s = npurt::NewHandle<nn::Scalar>();
  if (s == nullptr) return Failed<aclScalar>(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  s->dtype = dataType;
  std::memcpy(s->value, value, es);
  return reinterpret_cast<aclScalar*>(s);
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  NPURT_HANDLE_SCOPE();
  if (size > 0 && value == nullptr) return Failed<aclIntArray>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value is null"));
  auto* a = npurt::NewHandle<nn::Array>(nn::Array::kInt);
  if (a == nullptr) return Failed<aclIntArray>(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  a->ints.assign(value, value + size);
  return reinterpret_cast<aclIntArray*>(a);
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  NPURT_HANDLE_SCOPE();
  if (size > 0 && value == nullptr) return Failed<aclFloatArray>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value is null"));
  auto* a = npurt::NewHandle<nn::Array>(nn::Array::kFloat);
  if (a == nullptr) return Failed<aclFloatArray>(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  a->floats.assign(value, value + size);
  return reinterpret_cast<aclFloatArray*>(a);
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  NPURT_HANDLE_SCOPE();
  if (size > 0 && value == nullptr) return Failed<aclBoolArray>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value is null"));
  auto* a = npurt::NewHandle<nn::Array>(nn::Array::kBool);
  if (a == nullptr) return Failed<aclBoolArray>(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  a->bools.assign(value, value + size);
  return reinterpret_cast<aclBoolArray*>(a);
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  NPURT_HANDLE_SCOPE();
  if (size > 0 && value == nullptr) return Failed<aclTensorList>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value is null"));
  for (uint64_t i = 0; i < size; ++i) {
    if (nn::Tensor::From(value[i]) == nullptr) {
      return Failed<aclTensorList>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value[{}] is not a live aclTensor", i));
    }
  }
  auto* l = npurt::NewHandle<nn::List>(true);
  if (l == nullptr) return Failed<aclTensorList>(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  l->items.assign(value, value + size);
  return reinterpret_cast<aclTensorList*>(l);
}

aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  NPURT_HANDLE_SCOPE();
  if (size > 0 && value == nullptr) return Failed<aclScalarList>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value is null"));
  for (uint64_t i = 0; i < size; ++i) {
    if (nn::Scalar::From(value[i]) == nullptr) {
      return Failed<aclScalarList>(__func__, Err(ACL_ERROR_INVALID_PARAM, "value[{}] is not a live aclScalar", i));
    }
  }
  auto* l = npurt::NewHandle<nn::List>(false);
  if (l == nullptr) return Failed<aclScalarList>(__func__, Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots"));
  l->items.assign(value, value + size);
  return reinterpret_cast<aclScalarList*>(l);
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::Tensor::From(tensor), tensor, "aclTensor");
}
aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::Scalar::From(scalar), scalar, "aclScalar");
}
aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::Array::From(array, nn::Array::kInt), array, "aclIntArray");
}
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::Array::From(array, nn::Array::kFloat), array, "aclFloatArray");
}
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::Array::From(array, nn::Array::kBool), array, "aclBoolArray");
}
aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::List::From(array, true), array, "aclTensorList");
}
aclnnStatus aclDestroyScalarList(const aclScalarList* array) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::List::From(array, false), array, "aclScalarList");
}

#define NPURT_NN_TENSOR(var, p)                                                                        \
  const nn::Tensor* var = nn::Tensor::From(p);                                                         \
  if (var == nullptr) {                                                                                \
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live aclTensor",     \
                                            static_cast<const void*>(p)));                              \
  }

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_NN_TENSOR(t, tensor);
  return CopyOut(__func__, t->view, viewDims, viewDimsNum);
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims, uint64_t* storageDimsNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_NN_TENSOR(t, tensor);
  return CopyOut(__func__, t->storage, storageDims, storageDimsNum);
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue, uint64_t* stridesNum) {
  NPURT_HANDLE_SCOPE();
  NPURT_NN_TENSOR(t, tensor);
  return CopyOut(__func__, t->strides, stridesValue, stridesNum);
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  NPURT_HANDLE_SCOPE();
  NPURT_NN_TENSOR(t, tensor);
  NPURT_API_NOT_NULL(offset);
  *offset = t->offset;
  return ACL_SUCCESS;
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  NPURT_HANDLE_SCOPE();
  NPURT_NN_TENSOR(t, tensor);
  NPURT_API_NOT_NULL(format);
  *format = static_cast<aclFormat>(t->format);
  return ACL_SUCCESS;
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  NPURT_HANDLE_SCOPE();
  NPURT_NN_TENSOR(t, tensor);
  NPURT_API_NOT_NULL(dataType);
  *dataType = static_cast<aclDataType>(t->dtype);
  return ACL_SUCCESS;
}

namespace {
template <typename P>
aclnnStatus ArraySize(const char* fn, const nn::Array* a, P p, uint64_t* size, size_t n) {
  if (a == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live array", static_cast<const void*>(p)));
  if (size == nullptr) return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "size is a null pointer"));
  *size = n;
  return ACL_SUCCESS;
}
}  // namespace

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  NPURT_HANDLE_SCOPE();
  const nn::Array* a = nn::Array::From(array, nn::Array::kInt);
  return ArraySize(__func__, a, array, size, a ? a->ints.size() : 0);
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  NPURT_HANDLE_SCOPE();
  const nn::Array* a = nn::Array::From(array, nn::Array::kFloat);
  return ArraySize(__func__, a, array, size, a ? a->floats.size() : 0);
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  NPURT_HANDLE_SCOPE();
  const nn::Array* a = nn::Array::From(array, nn::Array::kBool);
  return ArraySize(__func__, a, array, size, a ? a->bools.size() : 0);
}

aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  NPURT_HANDLE_SCOPE();
  const nn::List* l = nn::List::From(tensorList, true);
  if (l == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live aclTensorList",
                                            static_cast<const void*>(tensorList)));
  }
  NPURT_API_NOT_NULL(size);
  *size = l->items.size();
  return ACL_SUCCESS;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  NPURT_HANDLE_SCOPE();
  nn::Executor* ex = nn::Executor::From(executor);
  if (ex == nullptr) {
    return npurt::api::Report(__func__, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live aclOpExecutor",
                                            static_cast<const void*>(executor)));
  }
  ex->repeatable = true;
  return ACL_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  NPURT_HANDLE_SCOPE();
  return Destroy(__func__, nn::Executor::From(executor), executor, "aclOpExecutor");
}

namespace {
aclnnStatus SetAddr(const char* fn, aclOpExecutor* executor, size_t index, aclTensor* tensor, void* addr, bool input) {
  nn::Executor* ex = nn::Executor::From(executor);
  if (ex == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live aclOpExecutor",
                                      static_cast<const void*>(executor)));
  }
  nn::Tensor* t = nn::Tensor::From(tensor);
  if (t == nullptr) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} is not a live aclTensor", static_cast<const void*>(tensor)));
  }
  const size_t n = input ? ex->bound.inputs.size() : ex->bound.outputs.size();
  if (index >= n || (input && !ex->device_input[index])) {
    return npurt::api::Report(fn, Err(ACL_ERROR_INVALID_PARAM, "{} index {} is not a tensor of this executor ({} {}s)",
                                      input ? "input" : "output", index, n, input ? "input" : "output"));
  }
  t->data = addr;
  void* p = static_cast<uint8_t*>(addr) + t->offset * static_cast<int64_t>(npurt::DTypeSize(t->dtype));
  if (input) {
    ex->bound.inputs[index] = p;
  } else {
    ex->bound.outputs[index] = p;
  }
  return ACL_SUCCESS;
}
}  // namespace

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  NPURT_HANDLE_SCOPE();
  return SetAddr(__func__, executor, index, tensor, addr, true);
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  NPURT_HANDLE_SCOPE();
  return SetAddr(__func__, executor, index, tensor, addr, false);
}

aclnnStatus aclnnInit(const char* configPath) {
  NPURT_HANDLE_SCOPE();
  (void)configPath;
  return ACL_SUCCESS;
}

aclnnStatus aclnnFinalize(void) {
  NPURT_HANDLE_SCOPE();
  return ACL_SUCCESS;
}
