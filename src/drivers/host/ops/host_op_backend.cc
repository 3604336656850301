// The sim's operator backend (hal/op_backend.h): the schemas of host_op_registry.cc, their oneDNN and
// hand-written kernels, and the executable that runs a compiled kernel on the executing engine.
#include "drivers/host/ops/host_op_backend.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "base/dtype.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

Status CheckInputs(const hal::OpRequest& call, const OpSchema& schema) {
  const int n = static_cast<int>(call.inputs->size());
  if (n < schema.min_inputs || (schema.max_inputs >= 0 && n > schema.max_inputs)) {
    if (schema.max_inputs == schema.min_inputs) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} input(s) given, the operator takes {}", call.type, n,
                 schema.min_inputs);
    }
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} input(s) given, the operator takes {} to {}", call.type, n,
               schema.min_inputs, schema.max_inputs < 0 ? std::string("any") : std::to_string(schema.max_inputs));
  }
  for (size_t i = 0; i < call.inputs->size(); ++i) {
    const TensorSpec& s = (*call.inputs)[i];
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

std::atomic<int> g_running{0};

class KernelExecutable final : public hal::Executable {
 public:
  KernelExecutable(std::unique_ptr<Kernel> kernel, std::string type, std::vector<TensorSpec> outputs)
      : kernel_(std::move(kernel)), type_(std::move(type)), outputs_(std::move(outputs)) {}

  int32_t Run(hal::Dispatch& d, std::string* message) const override {
    if (d.num_outputs != outputs_.size()) {
      *message = type_ + ": dispatched with " + std::to_string(d.num_outputs) + " outputs, compiled for " +
                 std::to_string(outputs_.size());
      return ACL_ERROR_RT_PARAM_INVALID;
    }
    const int running = g_running.fetch_add(1, std::memory_order_acq_rel) + 1;
    const int cores = d.max_parallelism != 0 ? static_cast<int>(d.max_parallelism) : omp_get_num_procs();
    const int threads = std::max(1, cores / running);
    omp_set_num_threads(threads);
    const KernelArgs args{d.inputs, d.outputs, threads};
    Status st = kernel_->Run(args);
    g_running.fetch_sub(1, std::memory_order_acq_rel);
    if (!st.ok()) {
      *message = type_ + " failed on the device: " + st.message();
      return st.code();
    }
    if (d.check_overflow && AnyOutputNonFinite(d)) d.overflowed = 1;
    return 0;
  }

 private:
  bool AnyOutputNonFinite(const hal::Dispatch& d) const {
    for (size_t i = 0; i < outputs_.size(); ++i) {
      const TensorSpec& spec = outputs_[i];
      if (HasNonFinite(d.outputs[i], static_cast<size_t>(spec.numel()), spec.dtype)) return true;
    }
    return false;
  }

  std::unique_ptr<Kernel> kernel_;
  std::string type_;
  std::vector<TensorSpec> outputs_;
};

class HostOpBackend final : public hal::OpBackend {
 public:
  const char* name() const override { return "host (oneDNN)"; }

  StatusOr<hal::OpBuilt> Build(const hal::OpRequest& call) const override {
    const OpSchema* schema = FindOp(call.type);
    if (schema == nullptr) {
      return Err(ACL_ERROR_OP_NOT_FOUND, "operator type '{}' is not supported; npurt supports: {}", call.type,
                 SupportedOpList());
    }
    NPURT_RETURN_IF_ERROR(CheckInputs(call, *schema));
    bool has_fp16 = false;
    for (const auto& s : *call.inputs) has_fp16 |= s.dtype == ACL_FLOAT16;
    for (const auto& s : *call.requested) has_fp16 |= s.dtype == ACL_FLOAT16;
    const bool widen = schema->fp16_via_fp32 && has_fp16;

    OpBuild b;
    b.type = call.type;
    b.inputs = widen ? Widen(*call.inputs) : *call.inputs;
    b.requested = widen ? Widen(*call.requested) : *call.requested;
    b.attrs = call.attrs;
    b.compile = call.compile;
    NPURT_RETURN_IF_ERROR(schema->build(b));
    if (widen) {
      b.outputs = Narrow(std::move(b.outputs), *call.requested);
      if (b.kernel) b.kernel = std::make_unique<Fp16ViaFp32Kernel>(std::move(b.kernel), *call.inputs, b.outputs);
    }
    hal::OpBuilt built;
    built.outputs = std::move(b.outputs);
    if (b.kernel) {
      built.executable = std::make_unique<KernelExecutable>(std::move(b.kernel), std::string(call.type), built.outputs);
    }
    return built;
  }

  std::vector<std::string> OpTypes() const override { return OpTypeNames(); }

  std::vector<hal::OpInfo> Ops() const override {
    std::vector<hal::OpInfo> ops;
    for (const OpSchema* s : AllOps()) ops.push_back({s->name, s->dtypes, s->summary});
    std::sort(ops.begin(), ops.end(), [](const hal::OpInfo& a, const hal::OpInfo& b) { return a.name < b.name; });
    return ops;
  }
};

}  // namespace

const hal::OpBackend* OpBackend() {
  static const HostOpBackend* backend = new HostOpBackend();
  return backend;
}

}  // namespace npurt::drivers::host
