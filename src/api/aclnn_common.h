// The aclnn objects behind aclTensor*, aclScalar*, aclIntArray* (and friends) and aclOpExecutor*, and
// the two-phase plumbing the aclnn operator entry points share. Private to npurt.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/aclnn_common.h is private to the npurt runtime"
#endif

#include <string_view>
#include <vector>

#include "aclnn/acl_meta.h"
#include "api/handle_tags.h"
#include "base/handle.h"
#include "ops/op_compiler.h"
#include "ops/op_launch.h"

namespace npurt::api::nn {

struct Tensor final : public HandleObject {
  Tensor() : HandleObject(handle_tags::kNnTensor) {}
  static Tensor* From(const void* p) { return LookupHandle<Tensor>(p, handle_tags::kNnTensor); }
  std::vector<int64_t> view, strides, storage;
  int64_t offset = 0;
  int32_t dtype = ACL_DT_UNDEFINED;
  int32_t format = ACL_FORMAT_ND;
  void* data = nullptr;
};

struct Scalar final : public HandleObject {
  Scalar() : HandleObject(handle_tags::kNnScalar) {}
  static Scalar* From(const void* p) { return LookupHandle<Scalar>(p, handle_tags::kNnScalar); }
  int32_t dtype = ACL_DT_UNDEFINED;
  uint8_t value[16] = {};
  double AsDouble() const;
};

// aclIntArray, aclFloatArray and aclBoolArray share one object kind (values kept as given).
struct Array final : public HandleObject {
  enum Kind { kInt, kFloat, kBool };
  explicit Array(Kind k) : HandleObject(handle_tags::kNnArray), kind(k) {}
  static Array* From(const void* p, Kind k) {
    Array* a = LookupHandle<Array>(p, handle_tags::kNnArray);
    return a != nullptr && a->kind == k ? a : nullptr;
  }
  Kind kind;
  std::vector<int64_t> ints;
  std::vector<float> floats;
  std::vector<bool> bools;
};

struct List final : public HandleObject {
  explicit List(bool tensors) : HandleObject(handle_tags::kNnTensorList), of_tensors(tensors) {}
  static List* From(const void* p, bool tensors) {
    List* l = LookupHandle<List>(p, handle_tags::kNnTensorList);
    return l != nullptr && l->of_tensors == tensors ? l : nullptr;
  }
  bool of_tensors;
  std::vector<const void*> items;
};

struct Executor final : public HandleObject {
  Executor() : HandleObject(handle_tags::kNnExecutor) {}
  static Executor* From(const void* p) { return LookupHandle<Executor>(p, handle_tags::kNnExecutor); }
  ops::CompiledOpRef op;
  ops::BoundBuffers bound;
  std::vector<bool> device_input;  // which inputs are user tensors (checked against the stream's device)
  bool repeatable = false;
};

// One operator argument: a user tensor, or a host value the executor owns (scalars, default weights).
struct Arg {
  const Tensor* tensor = nullptr;
  npurt::TensorSpec spec;
  std::vector<uint8_t> host;
};

// Resolves a tensor argument (null allowed only when `optional`).
Status TensorArg(const aclTensor* t, const char* name, Arg* out);
// A host-owned value of `dtype` with `dims` filled with `value` (scalars, missing weights).
Arg HostArg(int32_t dtype, std::vector<int64_t> dims, double value);
Status ScalarArg(const aclScalar* s, const char* name, int32_t dtype, Arg* out);
StatusOr<std::vector<int64_t>> IntArray(const aclIntArray* a, const char* name);

// Phase one: compiles `type` for the arguments (outputs must be user tensors), binds them, and hands
// out an executor. workspaceSize is always 0.
aclnnStatus Prepare(const char* fn, std::string_view type, std::vector<Arg> inputs, std::vector<Arg> outputs,
                    npurt::AttrMap attrs, uint64_t* workspace_size, aclOpExecutor** executor);
// Phase two: launches the executor on the stream (and releases it unless repeatable).
aclnnStatus Run(const char* fn, void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream);

}  // namespace npurt::api::nn
