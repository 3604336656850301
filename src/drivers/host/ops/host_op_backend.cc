// The sim's operator backend (hal/op_backend.h): the schemas of host_op_registry.cc, their oneDNN and
// hand-written kernels, and the executable that runs a compiled kernel on the executing engine.
#include "drivers/host/ops/host_op_backend.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "base/dtype.h"
#include "drivers/host/ops/dnnl_util.h"
#include "drivers/host/ops/host_op.h"
#include "drivers/host/ops/matmul_kernel.h"
#include "drivers/host/ops/shape_slot_executable.h"

namespace npurt::drivers::host {
namespace {

// No device holds a tensor of 2^48 bytes or more. Bounding every tensor a build sees below that keeps the
// kernels' own size and stride arithmetic (products of dims) far from int64 overflow, whatever dims a
// caller or a forged model brings (fuzz_model_load found a reduction's strides overflowing).
constexpr size_t kMaxTensorBytes = size_t{1} << 48;

Status CheckSize(std::string_view type, const char* what, size_t index, const TensorSpec& s) {
  if (s.bytes() < kMaxTensorBytes) return Status::Ok();
  return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} {} is {}: {} bytes or more, larger than any device memory", type,
             what, index, Describe(s), kMaxTensorBytes);
}

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
  if (call.constants != nullptr && call.constants->size() != call.inputs->size()) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} constant entries for {} inputs; give one per input (null: not "
               "constant)", call.type, call.constants->size(), call.inputs->size());
  }
  for (size_t i = 0; i < call.inputs->size(); ++i) {
    const TensorSpec& s = (*call.inputs)[i];
    if (s.dtype == ACL_DT_UNDEFINED && static_cast<int>(i) == schema.absent_input) {
      continue;  // an optional input left out (OpSchema::absent_input): the build sees it as not given
    }
    if (DTypeSize(s.dtype) == 0) {
      return Err(ACL_ERROR_UNSUPPORTED_DATA_TYPE, "{}: input {} has data type {} ({})", call.type, i,
                 DTypeName(s.dtype), s.dtype);
    }
    if (s.dynamic()) {
      return Err(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC, "{}: input {} has a dynamic shape {}; inputs need static shapes",
                 call.type, i, DimsString(s.dims));
    }
    NPURT_RETURN_IF_ERROR(CheckSize(call.type, "input", i, s));
  }
  return Status::Ok();
}

// Which data types a oneDNN operator (OpSchema::fp16_via_fp32) computes in fp32 on this CPU, with
// conversions around the kernel: fp16 always (oneDNN has no fp16 kernels on CPUs without AVX512-FP16);
// bf16 where the CPU lacks AVX512 (oneDNN 2.x has no bf16 matmul or convolution on AVX2); int8 and its
// int32 results and scalars where the CPU lacks VNNI (oneDNN's AVX2 int8 GEMM multiplies u8 by s8 into
// saturating 16-bit pairs, so full-range int8 data gives wrong sums). fp32 holds every int8 product and
// every partial sum of up to 1024 of them exactly, so int8 GEMMs with K <= 1024 stay exact.
struct WideTypes {
  bool fp16 = false;
  bool bf16 = false;
  bool int8 = false;  // int8, and int32 alongside it
  bool Widens(int32_t dtype) const {
    return (fp16 && dtype == ACL_FLOAT16) || (bf16 && dtype == ACL_BF16) ||
           (int8 && (dtype == ACL_INT8 || dtype == ACL_INT32));
  }
  bool any() const { return fp16 || bf16 || int8; }
};

WideTypes WideTypesFor(const OpSchema& schema, const hal::OpRequest& call) {
  WideTypes w;
  if (!schema.fp16_via_fp32) return w;
  bool has_fp16 = false, has_bf16 = false, has_int8 = false;
  for (const auto* list : {call.inputs, call.requested}) {
    for (const auto& s : *list) {
      has_fp16 |= s.dtype == ACL_FLOAT16;
      has_bf16 |= s.dtype == ACL_BF16;
      has_int8 |= s.dtype == ACL_INT8;
    }
  }
  w.fp16 = has_fp16;
  w.bf16 = has_bf16 && !dnnl_util::NativeBf16();
  // A bf16 convolution of an fp32 model (attr compute_dtype, conv.cc) converts its bf16 activations itself: its
  // filter and the rest stay fp32, and its output type is its attr's, not its input's.
  if (w.bf16 && call.type == "Conv2D" && call.attrs != nullptr) {
    auto compute = GetString(*call.attrs, "compute_dtype", "float32");
    if (compute.ok() && compute.value() == "bfloat16") w.bf16 = false;
  }
  w.int8 = has_int8 && !dnnl_util::NativeInt8();
  return w;
}

// dst[k] = convert(src[k]) for k in [0, n), on `threads` OpenMP threads when n is large enough to pay for
// them. The pointers are parameters, not captures: inside the OpenMP region a captured pointer is read
// through the closure on every element, which keeps the loop from vectorising.
template <typename S, typename D, typename Convert>
void ConvertAll(const S* src, D* dst, int64_t n, int threads, Convert convert) {
#pragma omp parallel for num_threads(threads) if (n > 65536)
  for (int64_t k = 0; k < n; ++k) dst[k] = convert(src[k]);
}

// The conversions dispatch on the type once per tensor, not per element.
void WidenToFloat(float* f, const void* src, int32_t dtype, int64_t n, int threads) {
  switch (dtype) {
    case ACL_FLOAT16:
      ConvertAll(static_cast<const uint16_t*>(src), f, n, threads, [](uint16_t h) { return HalfToFloat(h); });
      break;
    case ACL_BF16:
      ConvertAll(static_cast<const uint16_t*>(src), f, n, threads, [](uint16_t h) { return Bf16ToFloat(h); });
      break;
    case ACL_INT8:
      ConvertAll(static_cast<const int8_t*>(src), f, n, threads, [](int8_t q) { return static_cast<float>(q); });
      break;
    default:  // ACL_INT32
      ConvertAll(static_cast<const int32_t*>(src), f, n, threads, [](int32_t q) { return static_cast<float>(q); });
      break;
  }
}

void NarrowFromFloat(void* dst, const float* f, int32_t dtype, int64_t n, int threads) {
  switch (dtype) {
    case ACL_FLOAT16:
      ConvertAll(f, static_cast<uint16_t*>(dst), n, threads, [](float v) { return FloatToHalf(v); });
      break;
    case ACL_BF16:
      ConvertAll(f, static_cast<uint16_t*>(dst), n, threads, [](float v) { return FloatToBf16(v); });
      break;
    default:  // the integer types: rounded to nearest, saturated to the type's range
#pragma omp parallel for num_threads(threads) if (n > 65536)
      for (int64_t k = 0; k < n; ++k) {
        StoreFromDouble(dst, dtype, static_cast<size_t>(k), std::nearbyint(static_cast<double>(f[k])));
      }
      break;
  }
}

// Constant inputs of a widened type, widened once at build. The inner kernel may keep pointers into them
// (its constants must live as long as it does), so the ViaFp32Kernel around it owns them; an input without
// a constant has an empty entry.
using WideConstants = std::vector<std::vector<float>>;

// Runs an fp32 kernel for a call in the widened types: such inputs are widened into scratch (constant ones
// were widened at build), such outputs are computed into scratch and narrowed back. Outputs the inner
// kernel also reads as inputs (GEMM's C) are inputs in their own right, so aliasing is harmless.
class ViaFp32Kernel final : public Kernel {
 public:
  ViaFp32Kernel(std::unique_ptr<Kernel> inner, WideTypes wide, std::vector<TensorSpec> in, std::vector<TensorSpec> out,
                WideConstants constants)
      : inner_(std::move(inner)), wide_(wide), in_(std::move(in)), out_(std::move(out)),
        constants_(std::move(constants)) {
    constants_.resize(in_.size());
    for (size_t i = 0; i < in_.size(); ++i) {
      total_ += wide_.Widens(in_[i].dtype) && constants_[i].empty() ? Align(in_[i].numel() * 4) : 0;
    }
    for (const auto& s : out_) total_ += wide_.Widens(s.dtype) ? Align(s.numel() * 4) : 0;
  }

  const Kernel* compiled() const override { return inner_->compiled(); }

  Status Run(const OpRunArgs& args) const override {
    auto* base = static_cast<uint8_t*>(Scratch(total_, 1));
    if (base == nullptr && total_ != 0) return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of host memory");
    std::vector<const void*> ins(in_.size());
    std::vector<void*> outs(out_.size());
    size_t off = 0;
    for (size_t i = 0; i < in_.size(); ++i) {
      ins[i] = args.inputs[i];
      const int32_t dt = in_[i].dtype;
      if (!wide_.Widens(dt)) continue;
      if (!constants_[i].empty()) {
        ins[i] = constants_[i].data();
        continue;
      }
      auto* f = reinterpret_cast<float*>(base + off);
      const int64_t n = in_[i].numel();
      WidenToFloat(f, args.inputs[i], dt, n, args.threads);
      ins[i] = f;
      off += Align(n * 4);
    }
    for (size_t i = 0; i < out_.size(); ++i) {
      outs[i] = args.outputs[i];
      if (!wide_.Widens(out_[i].dtype)) continue;
      outs[i] = base + off;
      off += Align(out_[i].numel() * 4);
    }
    OpRunArgs inner{ins.data(), outs.data(), args.threads, args.shapes};
    NPURT_RETURN_IF_ERROR(inner_->Run(inner));
    for (size_t i = 0; i < out_.size(); ++i) {
      const int32_t dt = out_[i].dtype;
      if (!wide_.Widens(dt)) continue;
      NarrowFromFloat(args.outputs[i], static_cast<const float*>(outs[i]), dt, out_[i].numel(), args.threads);
    }
    return Status::Ok();
  }

 private:
  static size_t Align(int64_t n) { return (static_cast<size_t>(n) + 63) / 64 * 64; }
  std::unique_ptr<Kernel> inner_;
  WideTypes wide_;
  std::vector<TensorSpec> in_, out_;
  WideConstants constants_;
  size_t total_ = 0;
};

std::vector<TensorSpec> Widen(std::vector<TensorSpec> v, WideTypes wide) {
  for (auto& s : v) {
    if (wide.Widens(s.dtype)) s.dtype = ACL_FLOAT;
  }
  return v;
}

// The outputs the fp32 build inferred, in the call's types: an fp32 output the caller asked for in a
// widened type (or, without a request, an output of a widened input's type) becomes that type again.
std::vector<TensorSpec> Narrow(std::vector<TensorSpec> v, const std::vector<TensorSpec>& like,
                               const std::vector<TensorSpec>& inputs, WideTypes wide) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (v[i].dtype != ACL_FLOAT) continue;
    if (i < like.size() && like[i].dtype != ACL_DT_UNDEFINED) {
      if (wide.Widens(like[i].dtype)) v[i].dtype = like[i].dtype;
      continue;
    }
    if (!inputs.empty() && wide.Widens(inputs[0].dtype)) {
      v[i].dtype = inputs[0].dtype == ACL_INT8 ? ACL_INT32 : inputs[0].dtype;
    }
  }
  return v;
}

std::atomic<int> g_running{0};

class KernelExecutable final : public hal::Executable {
 public:
  KernelExecutable(std::unique_ptr<Kernel> kernel, std::string type, std::vector<TensorSpec> outputs)
      : kernel_(std::move(kernel)), type_(std::move(type)), outputs_(std::move(outputs)) {}

  const Kernel& kernel() const { return *kernel_; }

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
    const OpRunArgs args{d.inputs, d.outputs, threads, d.shapes};
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

// Builds run on the caller's thread (a model's loading thread, aclopCompile's caller, a dynamic-shape
// model's specialising thread), and what they compute there (packing constant weights with oneDNN reorders,
// widening them) leaves that thread an OpenMP team. libgomp counts the threads of every team, idle or not,
// against the CPUs, and once they outnumber them it spins only about 1,000 times at a barrier before it
// sleeps: the executor's team then slept and woke at every operator (two futex round trips each; ResNet-50
// took 36 ms instead of 33 on 2 cores). So a build gives its thread's team back; the next parallel region on
// that thread, if any, starts a new one.
void ReleaseThreadTeam() {
  if (omp_in_parallel() == 0) omp_pause_resource(omp_pause_soft, omp_get_initial_device());
}

class HostOpBackend final : public hal::OpBackend {
 public:
  const char* name() const override { return "host (oneDNN)"; }

  StatusOr<hal::OpBuilt> Build(const hal::OpRequest& call) const override {
    // Shapes known on the device only: an executable that tiles per run, around kernels built by BuildAt.
    auto built = call.shape_slots && call.compile ? BuildShapeSlotted(call, &BuildAt) : BuildAt(call);
    if (call.compile) ReleaseThreadTeam();
    return built;
  }

  // The kernel of `call` at its dims (a slotted executable's, for each shape it meets).
  static StatusOr<hal::OpBuilt> BuildAt(const hal::OpRequest& call) {
    const OpSchema* schema = FindOp(call.type);
    if (schema == nullptr) {
      return Err(ACL_ERROR_OP_NOT_FOUND, "operator type '{}' is not supported; npurt supports: {}", call.type,
                 SupportedOpList());
    }
    NPURT_RETURN_IF_ERROR(CheckInputs(call, *schema));
    const WideTypes wide = WideTypesFor(*schema, call);
    const bool widen = wide.any();

    OpBuild b;
    b.type = call.type;
    b.inputs = widen ? Widen(*call.inputs, wide) : *call.inputs;
    b.requested = widen ? Widen(*call.requested, wide) : *call.requested;
    b.attrs = call.attrs;
    b.compile = call.compile;
    b.shape_slots = call.shape_slots;
    if (widen) b.stored_inputs = call.inputs;
    // Only this backend's own executables are re-tiled (another's is not a KernelExecutable).
    if (const auto* prior = dynamic_cast<const KernelExecutable*>(call.reuse); prior != nullptr && call.compile) {
      b.reuse = prior->kernel().compiled();
    }
    // Constants reach the build in its types: a widened input's constant data is widened here, once.
    std::vector<const void*> constants;
    WideConstants wide_constants;
    if (call.constants != nullptr && call.compile) {
      constants = *call.constants;
      if (widen) {
        wide_constants.resize(constants.size());
        for (size_t i = 0; i < constants.size(); ++i) {
          const TensorSpec& s = (*call.inputs)[i];
          if (constants[i] == nullptr || !wide.Widens(s.dtype)) continue;
          wide_constants[i].resize(static_cast<size_t>(s.numel()));
          WidenToFloat(wide_constants[i].data(), constants[i], s.dtype, s.numel(), omp_get_max_threads());
          constants[i] = wide_constants[i].data();
        }
      }
      b.constants = &constants;
    }
    if (b.compile) {
      // The outputs' sizes are checked before a kernel is built for them (its tiling multiplies their dims).
      OpBuild probe;
      probe.type = b.type;
      probe.inputs = b.inputs;
      probe.requested = b.requested;
      probe.attrs = b.attrs;
      probe.compile = false;
      probe.stored_inputs = b.stored_inputs;
      NPURT_RETURN_IF_ERROR(schema->build(probe));
      for (size_t i = 0; i < probe.outputs.size(); ++i) {
        if (!probe.outputs[i].dynamic()) NPURT_RETURN_IF_ERROR(CheckSize(call.type, "output", i, probe.outputs[i]));
      }
    }
    NPURT_RETURN_IF_ERROR(schema->build(b));
    if (widen) {
      b.outputs = Narrow(std::move(b.outputs), *call.requested, *call.inputs, wide);
      if (b.kernel) {
        b.kernel = std::make_unique<ViaFp32Kernel>(std::move(b.kernel), wide, *call.inputs, b.outputs,
                                                   std::move(wide_constants));
      }
    }
    hal::OpBuilt built;
    built.outputs = std::move(b.outputs);
    built.reused = b.reused && b.kernel != nullptr;
    if (b.kernel) {
      built.executable = std::make_unique<KernelExecutable>(std::move(b.kernel), std::string(call.type), built.outputs);
    }
    return built;
  }

  void Warm() const override {
    WarmMatmulRetiling();
    ReleaseThreadTeam();
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
