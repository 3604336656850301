// Helpers shared by the operator entry points (op.cc, op_compiler.cc, cblas.cc): unwrapping descriptor
// arrays and attributes into an ops::OpCall, and the execute path (cache lookup, buffer binding,
// launch). Private to npurt.
#pragma once
#ifndef NPURT_INTERNAL_BUILD
#error "src/api/op_common.h is private to the npurt runtime"
#endif

#include <vector>

#include "acl/acl.h"
#include "api/handle_tags.h"
#include "base/handle.h"
#include "ops/op_compiler.h"
#include "ops/op_launch.h"

namespace npurt::api {

// The object behind aclopHandle*: a compiled operator bound to fixed descriptors.
class OpHandle final : public HandleObject {
 public:
  OpHandle() : HandleObject(handle_tags::kOpHandle) {}
  static OpHandle* From(const void* p) { return LookupHandle<OpHandle>(p, handle_tags::kOpHandle); }
  ops::CompiledOpRef op;
  // CBLAS handles: how alpha/beta are passed (host or device values of this type); 0 = plain op.
  int32_t blas_scalar_dtype = 0;
};

struct UnwrappedCall {
  ops::OpCall call;
  std::vector<const std::vector<uint8_t>*> consts;  // per input, constant data or null
};

// Validates type, counts, descriptor handles and attributes.
Status Unwrap(const char* op_type, int num_inputs, const aclTensorDesc* const input_desc[], int num_outputs,
              const aclTensorDesc* const output_desc[], const aclopAttr* attr, UnwrappedCall* out);

// aclopExecute(V2) / aclopCompileAndExecute(V2): compile (cached), bind, launch. With
// `update_outputs`, output descriptors that had dynamic dims receive the inferred shapes.
Status ExecuteOp(const char* op_type, int num_inputs, const aclTensorDesc* const input_desc[],
                 const aclDataBuffer* const inputs[], int num_outputs, const aclTensorDesc* const output_desc[],
                 aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream, bool update_outputs);

// Unwraps an array of data buffers (null entries stay absent); a null array with n > 0 is an error.
Status ToUserBuffers(const char* what, int n, const aclDataBuffer* const buffers[], std::vector<ops::UserBuffer>* out);

// Creates an aclopHandle for a compiled op.
StatusOr<aclopHandle*> NewOpHandle(ops::CompiledOpRef op, int32_t blas_scalar_dtype = 0);

}  // namespace npurt::api
