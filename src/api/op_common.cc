#include "api/op_common.h"

#include "acl/error_codes/rt_error_codes.h"
#include "api/api_common.h"
#include "ops/compile_cache.h"
#include "ops/op_attr.h"
#include "ops/tensor_desc.h"

namespace npurt::api {
namespace {

// Far above any device memory: a descriptor asking for more is a mistake (or a product of dims that
// overflowed), and operators size their scratch memory and compute strides from these dims. The
// product of the non-zero dims is bounded too: a zero dim makes the tensor empty, but the strides of
// its other dims are still computed (fuzz_op_compile: overflow in the reduction's strides).
constexpr size_t kMaxTensorBytes = size_t{1} << 48;

Status CheckTensorSize(const char* op_type, const char* what, int i, const npurt::TensorSpec& spec) {
  int64_t span = 1;
  bool overflow = false;
  for (int64_t d : spec.dims) {
    if (d > 0) overflow = overflow || __builtin_mul_overflow(span, d, &span);
  }
  if (overflow || static_cast<uint64_t>(span) > kMaxTensorBytes || spec.numel() == INT64_MAX ||
      spec.bytes() > kMaxTensorBytes) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: {}[{}] describes {}, more than the {} bytes a tensor may have", op_type,
               what, i, npurt::Describe(spec), kMaxTensorBytes);
  }
  return Status::Ok();
}

}  // namespace

namespace {

// CANN's placeholder for an optional input a call does not use is a descriptor of ACL_DT_UNDEFINED (with a
// null data buffer). The operators take their optional inputs last (Conv2D's bias and offset_w, GEMM's C...),
// so trailing placeholders are dropped and the operator is compiled for the inputs actually given.
Status DropOmittedOptionalInputs(const char* op_type, UnwrappedCall* out) {
  auto& inputs = out->call.inputs;
  size_t given = inputs.size();
  while (given > 0 && inputs[given - 1].dtype == ACL_DT_UNDEFINED) --given;
  for (size_t i = 0; i < given; ++i) {
    if (inputs[i].dtype == ACL_DT_UNDEFINED) {
      return Err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                 "{}: input {} is an omitted optional input (ACL_DT_UNDEFINED) but input {} after it is given; "
                 "npurt's operators take omitted optional inputs only after the last input given",
                 op_type, i, given - 1);
    }
  }
  inputs.resize(given);
  out->consts.resize(given);
  return Status::Ok();
}

}  // namespace

Status Unwrap(const char* op_type, int num_inputs, const aclTensorDesc* const input_desc[], int num_outputs,
              const aclTensorDesc* const output_desc[], const aclopAttr* attr, UnwrappedCall* out) {
  if (op_type == nullptr || op_type[0] == '\0') return Err(ACL_ERROR_INVALID_PARAM, "opType is null or empty");
  if (num_inputs < 0 || num_outputs < 0) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: numInputs {} / numOutputs {} must not be negative", op_type, num_inputs,
               num_outputs);
  }
  if ((num_inputs > 0 && input_desc == nullptr) || (num_outputs > 0 && output_desc == nullptr)) {
    return Err(ACL_ERROR_INVALID_PARAM, "{}: {} is a null pointer", op_type,
               input_desc == nullptr && num_inputs > 0 ? "inputDesc" : "outputDesc");
  }
  out->call.type = op_type;
  out->call.inputs.resize(static_cast<size_t>(num_inputs));
  out->call.requested.resize(static_cast<size_t>(num_outputs));
  out->consts.assign(static_cast<size_t>(num_inputs), nullptr);
  for (int i = 0; i < num_inputs; ++i) {
    const ops::TensorDesc* d = ops::TensorDesc::From(input_desc[i]);
    if (d == nullptr) {
      return Err(ACL_ERROR_INVALID_PARAM, "{}: inputDesc[{}] ({}) is not a live tensor descriptor", op_type, i,
                 static_cast<const void*>(input_desc[i]));
    }
    NPURT_RETURN_IF_ERROR(CheckTensorSize(op_type, "inputDesc", i, d->spec));
    out->call.inputs[i] = d->spec;
    if (d->is_const) out->consts[i] = &d->const_data;
  }
  for (int i = 0; i < num_outputs; ++i) {
    const ops::TensorDesc* d = ops::TensorDesc::From(output_desc[i]);
    if (d == nullptr) {
      return Err(ACL_ERROR_INVALID_PARAM, "{}: outputDesc[{}] ({}) is not a live tensor descriptor", op_type, i,
                 static_cast<const void*>(output_desc[i]));
    }
    NPURT_RETURN_IF_ERROR(CheckTensorSize(op_type, "outputDesc", i, d->spec));
    out->call.requested[i] = d->spec;
  }
  NPURT_RETURN_IF_ERROR(DropOmittedOptionalInputs(op_type, out));
  if (attr == nullptr) {
    out->call.attrs = &ops::EmptyAttrs();
  } else {
    const ops::OpAttr* a = ops::OpAttr::From(attr);
    if (a == nullptr) {
      return Err(ACL_ERROR_INVALID_PARAM, "{}: attr {} is not a live operator attribute set", op_type,
                 static_cast<const void*>(attr));
    }
    out->call.attrs = &a->attrs;
  }
  return Status::Ok();
}

Status ExecuteOp(const char* op_type, int num_inputs, const aclTensorDesc* const input_desc[],
                 const aclDataBuffer* const inputs[], int num_outputs, const aclTensorDesc* const output_desc[],
                 aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream, bool update_outputs) {
  UnwrappedCall u;
  NPURT_RETURN_IF_ERROR(Unwrap(op_type, num_inputs, input_desc, num_outputs, output_desc, attr, &u));
  auto s = ResolveStream(stream);
  if (!s.ok()) return std::move(s).status();
  auto op = ops::CompileCache::Get().GetOrCompile(u.call);
  if (!op.ok()) return std::move(op).status();
  std::vector<ops::UserBuffer> ins, outs;
  NPURT_RETURN_IF_ERROR(ToUserBuffers("inputs", num_inputs, inputs, &ins));
  NPURT_RETURN_IF_ERROR(ToUserBuffers("outputs", num_outputs, outputs, &outs));
  ops::BoundBuffers bound;
  NPURT_RETURN_IF_ERROR(ops::BindBuffers(*op.value(), ins, outs, s.value(), &bound, &u.consts));
  if (update_outputs) {
    for (int i = 0; i < num_outputs; ++i) {
      ops::TensorDesc* d = ops::TensorDesc::From(output_desc[i]);
      if (d->spec.dynamic() || d->unknown_rank) {
        d->spec.dims = op.value()->outputs[i].dims;
        d->unknown_rank = false;
      }
    }
  }
  return ops::Launch(std::move(op.value()), std::move(bound), s.value());
}

Status ToUserBuffers(const char* what, int n, const aclDataBuffer* const buffers[], std::vector<ops::UserBuffer>* out) {
  if (n < 0) return Err(ACL_ERROR_INVALID_PARAM, "the number of {} ({}) is negative", what, n);
  if (n > 0 && buffers == nullptr) return Err(ACL_ERROR_INVALID_PARAM, "{} is a null pointer", what);
  out->resize(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    if (buffers[i] == nullptr) continue;
    (*out)[i].present = true;
    (*out)[i].data = aclGetDataBufferAddr(buffers[i]);
    (*out)[i].size = aclGetDataBufferSizeV2(buffers[i]);
  }
  return Status::Ok();
}

StatusOr<aclopHandle*> NewOpHandle(ops::CompiledOpRef op, int32_t blas_scalar_dtype) {
  auto* h = NewHandle<OpHandle>();
  if (h == nullptr) return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of handle slots");
  h->op = std::move(op);
  h->blas_scalar_dtype = blas_scalar_dtype;
  return reinterpret_cast<aclopHandle*>(h);
}

}  // namespace npurt::api
