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

Status CheckInputs(const OpCall& call, const OpSchema& schema) {
  const int n = static_cast<int>(call.inputs.size());
  if (n < schema.min_inputs || (schema.max_inputs >= 0 && n > schema.max_inputs)) {
    if (schema.max_inputs == schema.min_inputs) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} input(s) given, the operator takes {}", call.type, n,
                 schema.min_inputs);
    }
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} input(s) given, the operator takes {} to {}", call.type, n,
               schema.min_inputs, schema.max_inputs < 0 ? std::string("any") : std::to_string(schema.max_inputs));
  }
  for (size_t i = 0; i < call.inputs.size(); ++i) {
    const TensorSpec& s = call.inputs[i];
    if (DTypeSize(s.dtype) == 0) {
      return Err(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "{}: input {} has data type {} ({})", call.type, i,
                 DTypeName(s.dtype), s.dtype);
    }
    if (s.dynamic()) {
      return Err(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, "{}: input {} has a dynamic shape {}; inputs need static shapes",
                 call.type, i, DimsString(s.dims));
    }
  }
  return Status::Ok();
}

// Runs an fp32 kernel for an fp16 call: fp16 inputs are widened into scratch, fp16 outputs are
// computed into scratch and narrowed back. Outputs the inner kernel also reads as inputs (GEMM's C)
// are inputs in their own right, so aliasing is harmless.
class Fp16ViaFp32Kernel final : public Kernel {
 public:
  Fp16ViaFp32Kernel(std::unique_ptr<Kernel> inner, std::vector<TensorSpec> in, std::vector<TensorSpec> out)
      : inner_(std::move(inner)), in_(std::move(in)), out_(std::move(out)) {
    for (const auto& s : in_) total_ += s.dtype == ACL_FLOAT16 ? Align(s.numel() * 4) : 0;
    for (const auto& s : out_) total_ += s.dtype == ACL_FLOAT16 ? Align(s.numel() * 4) : 0;
  }

  Status Run(const KernelArgs& args) const override {
    auto* base = static_cast<uint8_t*>(Scratch(total_, 1));
    if (base == nullptr && total_ != 0) return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
    std::vector<const void*> ins(in_.size());
    std::vector<void*> outs(out_.size());
    size_t off = 0;
    for (size_t i = 0; i < in_.size(); ++i) {
      ins[i] = args.inputs[i];
      if (in_[i].dtype != ACL_FLOAT16) continue;
      auto* f = reinterpret_cast<float*>(base + off);
      const auto* h = static_cast<const uint16_t*>(args.inputs[i]);
      const int64_t n = in_[i].numel();
#pragma omp parallel for num_threads(args.threads) if (n > 65536)
      for (int64_t k = 0; k < n; ++k) f[k] = HalfToFloat(h[k]);
      ins[i] = f;
      off += Align(n * 4);
    }
    for (size_t i = 0; i < out_.size(); ++i) {
      outs[i] = args.outputs[i];
      if (out_[i].dtype != ACL_FLOAT16) continue;
      outs[i] = base + off;
      off += Align(out_[i].numel() * 4);
    }
    KernelArgs inner{ins.data(), outs.data(), args.threads};
    NPURT_RETURN_IF_ERROR(inner_->Run(inner));
    for (size_t i = 0; i < out_.size(); ++i) {
      if (out_[i].dtype != ACL_FLOAT16) continue;
      const auto* f = static_cast<const float*>(outs[i]);
      auto* h = static_cast<uint16_t*>(args.outputs[i]);
      const int64_t n = out_[i].numel();
#pragma omp parallel for num_threads(args.threads) if (n > 65536)
      for (int64_t k = 0; k < n; ++k) h[k] = FloatToHalf(f[k]);
    }
    return Status::Ok();
  }

 private:
  static size_t Align(int64_t n) { return (static_cast<size_t>(n) + 63) / 64 * 64; }
  std::unique_ptr<Kernel> inner_;
  std::vector<TensorSpec> in_, out_;
  size_t total_ = 0;
};

std::vector<TensorSpec> Widen(std::vector<TensorSpec> v) {
  for (auto& s : v) {
    if (s.dtype == ACL_FLOAT16) s.dtype = ACL_FLOAT;
  }
  return v;
}

std::vector<TensorSpec> Narrow(std::vector<TensorSpec> v, const std::vector<TensorSpec>& like) {
  for (size_t i = 0; i < v.size() && i < like.size(); ++i) {
    if (like[i].dtype == ACL_FLOAT16 && v[i].dtype == ACL_FLOAT) v[i].dtype = ACL_FLOAT16;
  }
  return v;
}

StatusOr<OpBuild> Build(const OpCall& call, bool compile) {
  const OpSchema* schema = FindOp(call.type);
  if (schema == nullptr) {
    return Err(ACL_ERROR_OP_NOT_FOUND, "operator type '{}' is not supported; npurt supports: {}", call.type,
               SupportedOpList());
  }
  NPURT_RETURN_IF_ERROR(CheckInputs(call, *schema));
  bool has_fp16 = false;
  for (const auto& s : call.inputs) has_fp16 |= s.dtype == ACL_FLOAT16;
  for (const auto& s : call.requested) has_fp16 |= s.dtype == ACL_FLOAT16;
  const bool widen = schema->fp16_via_fp32 && has_fp16;

  OpBuild b;
  b.type = call.type;
  b.inputs = widen ? Widen(call.inputs) : call.inputs;
  b.requested = widen ? Widen(call.requested) : call.requested;
  b.attrs = call.attrs;
  b.compile = compile;
  Status st = schema->build(b);
  if (!st.ok()) return st;
  if (widen) {
    b.outputs = Narrow(std::move(b.outputs), call.requested);
    if (b.kernel) b.kernel = std::make_unique<Fp16ViaFp32Kernel>(std::move(b.kernel), call.inputs, b.outputs);
  }
  return b;
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
  if (!b->kernel) return Err(ACL_ERROR_OP_LOAD_FAILED, "{}: no kernel was built", call.type);
  for (const auto& o : b->outputs) {
    if (o.dynamic()) return Err(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, "{}: output shape is not static", call.type);
  }
  auto op = std::make_shared<CompiledOp>();
  op->type = std::string(call.type);
  op->inputs = call.inputs;
  op->outputs = std::move(b->outputs);
  op->kernel = std::move(b->kernel);
  op->compile_ns = NowNs() - t0;
  NPURT_LOG_DEBUG("OP", "compiled {} in {} us", op->type, op->compile_ns / 1000);
  return CompiledOpRef(std::move(op));
}

}  // namespace npurt::ops
