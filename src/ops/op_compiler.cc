#include "ops/op_compiler.h"

#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "base/clock.h"
#include "dfx/log.h"

namespace npurt::ops {
namespace {

bool RequestedDynamic(const TensorSpec& s) {
  for (int64_t d : s.dims) {
    if (d < 0) return true;
  }
  return false;
}

Status CheckOutputs(const OpCall& call, const std::vector<TensorSpec>& outputs) {
  if (call.requested.size() != outputs.size()) {
    return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: {} output(s) given, the operator produces {}", call.type,
               call.requested.size(), outputs.size());
  }
  for (size_t i = 0; i < outputs.size(); ++i) {
    const TensorSpec& want = outputs[i];
    const TensorSpec& got = call.requested[i];
    if (got.dtype != want.dtype) {
      return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: output {} has data type {}, the operator produces {}",
                 call.type, i, DTypeName(got.dtype), DTypeName(want.dtype));
    }
    if (!RequestedDynamic(got) && got.dims != want.dims) {
      // A same-size shape of the same count is accepted only when equal; anything else is a mismatch.
      return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: output {} has shape {}, the operator produces {}", call.type,
                 i, DimsString(got.dims), DimsString(want.dims));
    }
  }
  return Status::Ok();
}

StatusOr<core::OperatorBuild> Build(const OpCall& call, bool compile) {
  core::OperatorCall c;
  c.type = call.type;
  c.inputs = &call.inputs;
  c.requested = &call.requested;
  c.attrs = call.attrs != nullptr ? call.attrs : &EmptyAttrs();
  c.compile = compile;
  c.reuse = compile ? call.reuse : nullptr;
  return core::BuildOperator(c);
}

}  // namespace

const AttrMap& EmptyAttrs() {
  static const AttrMap* empty = new AttrMap();
  return *empty;
}

StatusOr<std::vector<TensorSpec>> InferOp(const OpCall& call) {
  auto b = Build(call, /*compile=*/false);
  if (!b.ok()) return std::move(b).status();
  return std::move(b->outputs);
}

StatusOr<CompiledOpRef> CompileOp(const OpCall& call) {
  const uint64_t t0 = NowNs();
  auto b = Build(call, /*compile=*/true);
  if (!b.ok()) return std::move(b).status();
  NPURT_RETURN_IF_ERROR(CheckOutputs(call, b->outputs));
  if (b->program == nullptr) return Err(ACL_ERROR_OP_LOAD_FAILED, "{}: no kernel was built", call.type);
  for (const auto& o : b->outputs) {
    if (o.dynamic()) return Err(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, "{}: output shape is not static", call.type);
  }
  auto op = std::make_shared<CompiledOp>();
  op->type = std::string(call.type);
  op->inputs = call.inputs;
  op->outputs = std::move(b->outputs);
  op->program = std::move(b->program);
  op->compile_ns = NowNs() - t0;
  op->retiled = b->reused;
  NPURT_LOG_DEBUG("OP", "{} {} in {} us", op->retiled ? "re-tiled" : "compiled", op->type, op->compile_ns / 1000);
  return CompiledOpRef(std::move(op));
}

}  // namespace npurt::ops
