// Matrix products on oneDNN: MatMul (2-D, optional bias), BatchMatMul (batch dims broadcast) and GEMM
// (C = alpha * op(A) * op(B) + beta * C with runtime alpha/beta, as CBLAS uses it).
//
// The primitive is created at compile time with the exact shapes, transposes (as strides) and data
// types, so a run is one primitive execution. GEMM keeps two primitives: a plain one for beta == 0
// and one with a sum post-op for beta != 0 (C is pre-scaled by beta when beta != 1), because oneDNN
// 2.x fixes the sum scale at creation while beta is only known when the run starts. post_ops
// (kernels/post_ops.h) follow that sum inside the primitive; a constant B (OpBuild::constants) is
// reordered once, at build, into the layout oneDNN prefers for it.
//
// A GEMM whose C is 16-bit floating point (fp16, bf16) without post-ops rounds each step to C's type, as
// the NPU's GEMM does (a matrix unit writing A*B in C's type, then vector multiplies and an add):
// C = round(round(alpha * round(A*B)) + round(beta * C)). So aclblasGemmEx, aclopExecuteV2("GEMM") and
// aclnnMatmul + aclnnMuls + aclnnAdd agree bit for bit (hicann/ge's GEMM sample checks that).
#include <cstring>

#include "acl/error_codes/rt_error_codes.h"
#include "drivers/host/ops/dnnl_util.h"
#include "drivers/host/ops/kernels/elem_io.h"
#include "drivers/host/ops/matmul_kernel.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

using dnnl::memory;
namespace du = dnnl_util;

memory::desc MatDesc(int64_t batch, int64_t rows, int64_t cols, bool trans, int32_t dtype) {
  // Logical [batch, rows, cols]; stored row-major as [batch, rows, cols] or, transposed, [batch, cols, rows].
  memory::dims dims = {batch, rows, cols};
  memory::dims strides = trans ? memory::dims{rows * cols, 1, rows} : memory::dims{rows * cols, cols, 1};
  if (batch == 1) strides[0] = rows * cols;
  return memory::desc(dims, du::ToDnnl(dtype), strides);
}

class MatmulKernel final : public Kernel {
 public:
  static StatusOr<std::unique_ptr<MatmulKernel>> Create(const MatmulConfig& c) {
    auto k = std::unique_ptr<MatmulKernel>(new MatmulKernel(c));
    Status st = du::Guard(ACL_ERROR_OP_TYPE_NOT_MATCH, "matmul primitive", [&] { k->Init(); });
    if (!st.ok()) return st;
    return k;
  }

  Status Run(const OpRunArgs& a) const override {
    const int ai = c_.a_input, bi = c_.b_input;
    void* dst = a.outputs[0];
    float alpha = 1.0f, beta = 0.0f;
    if (c_.alpha_input >= 0) alpha = static_cast<float>(LoadAsDouble(a.inputs[c_.alpha_input], c_.scalar_dtype, 0));
    if (c_.beta_input >= 0) beta = static_cast<float>(LoadAsDouble(a.inputs[c_.beta_input], c_.scalar_dtype, 0));
    const bool sum = c_.c_input >= 0 && beta != 0.0f;
    if (sum) PrepareAccumulator(a.inputs[c_.c_input], dst, beta, a.threads);
    if (rounded_steps_) return RunRoundedSteps(a, dst, alpha, sum);
    std::unordered_map<int, memory> args;
    const auto& pd = sum ? pd_sum_ : pd_;
    // A packed B (a constant) replaces the input, whose pointer is then not read.
    void* weights = const_cast<void*>(a.inputs[bi]);
    if (void* packed = sum ? packed_b_sum_ : packed_b_; packed != nullptr) weights = packed;
    args.emplace(DNNL_ARG_SRC, memory(pd.src_desc(), du::Engine(), const_cast<void*>(a.inputs[ai])));
    args.emplace(DNNL_ARG_WEIGHTS, memory(pd.weights_desc(), du::Engine(), weights));
    args.emplace(DNNL_ARG_DST, memory(pd.dst_desc(), du::Engine(), dst));
    if (c_.bias_input >= 0) {
      args.emplace(DNNL_ARG_BIAS, memory(pd.bias_desc(), du::Engine(), const_cast<void*>(a.inputs[c_.bias_input])));
    }
    if (c_.addend_input >= 0) {
      args.emplace(AddendArg(c_.post, sum ? 1 : 0),
                   memory(pd.dst_desc(), du::Engine(), const_cast<void*>(a.inputs[c_.addend_input])));
    }
    float scale = alpha;
    if (runtime_scale_) {
      args.emplace(DNNL_ARG_ATTR_OUTPUT_SCALES,
                   memory(memory::desc({1}, memory::data_type::f32, {1}), du::Engine(), &scale));
    }
    return du::Execute(sum ? prim_sum_ : prim_, pd.scratchpad_desc(), args, "matmul");
  }

 private:
  explicit MatmulKernel(const MatmulConfig& c) : c_(c) {}

  void Init() {
    const int64_t ba = c_.batch_a, bb = c_.batch_b, bo = std::max(ba, bb);
    auto a_md = MatDesc(ba, c_.m, c_.k, c_.trans_a, c_.a_dtype);
    auto b_md = MatDesc(bb, c_.k, c_.n, c_.trans_b, c_.b_dtype);
    auto d_md = MatDesc(bo, c_.m, c_.n, c_.trans_c, c_.c_dtype);
    // A constant B lets oneDNN choose its layout ("any"; blocked for its brgemm kernels): it is reordered
    // into it once below. A runtime B keeps the caller's strides (no reorder per run; oneDNN may copy
    // blocks of it into its scratchpad instead).
    auto w_md = c_.b_constant != nullptr ? memory::desc(b_md.dims(), b_md.data_type(), memory::format_tag::any) : b_md;
    memory::desc bias_md;
    if (c_.bias_input >= 0) bias_md = memory::desc({1, 1, c_.n}, du::ToDnnl(c_.bias_dtype), {c_.n, c_.n, 1});
    runtime_scale_ = c_.alpha_input >= 0;
    auto make = [&](bool with_sum) {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      if (runtime_scale_) attr.set_output_scales(0, {DNNL_RUNTIME_F32_VAL});
      dnnl::post_ops po;
      if (with_sum) po.append_sum(1.0f);
      AppendPostOps(c_.post, d_md, po);  // the addend is stored like the output
      if (po.len() != 0) attr.set_post_ops(po);
      auto d = c_.bias_input >= 0 ? dnnl::matmul::desc(a_md, w_md, bias_md, d_md) : dnnl::matmul::desc(a_md, w_md, d_md);
      return dnnl::matmul::primitive_desc(d, attr, du::Engine());
    };
    rounded_steps_ = c_.alpha_input >= 0 && c_.round_dtype != 0 && c_.post.empty() && c_.addend_input < 0;
    // Rounded steps: the primitive computes the product alone, in C's type; alpha and beta*C follow in
    // RunRoundedSteps, so neither a runtime scale nor the sum primitive.
    if (rounded_steps_) runtime_scale_ = false;
    pd_ = make(false);
    prim_ = dnnl::matmul(pd_);
    if (c_.c_input >= 0 && !rounded_steps_) {
      pd_sum_ = make(true);
      prim_sum_ = dnnl::matmul(pd_sum_);
    }
    if (c_.b_constant != nullptr) {
      // Valid because B is constant while the kernel lives (a model's weight region is loaded once and
      // outlives its executables). Such a kernel is specific to that data: the aclop compile cache
      // (src/ops/compile_cache.*) must not share it between calls with other constants, and cannot: the op
      // layer never passes constants, so its kernels read B per run.
      packed_b_ = Pack(b_md, pd_.weights_desc(), &packed_);
      if (c_.c_input >= 0 && !rounded_steps_) {
        packed_b_sum_ = pd_sum_.weights_desc() == pd_.weights_desc() ? packed_b_
                                                                        : Pack(b_md, pd_sum_.weights_desc(), &packed_sum_);
      }
    }
  }

  // B in the layout `want` (kept in `keep`, shared with other kernels packing the same B the same way:
  // du::PackConstant), or null when B's own layout is `want` (the input is read as it is).
  void* Pack(const memory::desc& user, const memory::desc& want, std::shared_ptr<memory>* keep) {
    if (want == user) return nullptr;
    *keep = du::PackConstant(c_.b_constant, user, want);
    return (*keep)->get_data_handle();
  }

  // dst (holding round(beta * C) when `sum`) = round(round(alpha * round(A*B)) + dst): the product goes to the
  // thread's scratch memory (host_op.h Scratch: grown, never shrunk, so no allocation in the steady state).
  Status RunRoundedSteps(const OpRunArgs& a, void* dst, float alpha, bool sum) const {
    const int64_t n = c_.m * c_.n * std::max(c_.batch_a, c_.batch_b);
    // Slot 3: 0 is oneDNN's scratchpad, 1 the backend's widened tensors, 2 the convolutions'.
    void* scratch = Scratch(static_cast<size_t>(n) * DTypeSize(c_.c_dtype), 3);
    if (scratch == nullptr) return Err(ACL_ERROR_RT_MEMORY_ALLOCATION, "GEMM: no scratch memory for {} elements", n);
    std::unordered_map<int, memory> args;
    args.emplace(DNNL_ARG_SRC, memory(pd_.src_desc(), du::Engine(), const_cast<void*>(a.inputs[c_.a_input])));
    void* weights = packed_b_ != nullptr ? packed_b_ : const_cast<void*>(a.inputs[c_.b_input]);
    args.emplace(DNNL_ARG_WEIGHTS, memory(pd_.weights_desc(), du::Engine(), weights));
    args.emplace(DNNL_ARG_DST, memory(pd_.dst_desc(), du::Engine(), scratch));
    NPURT_RETURN_IF_ERROR(du::Execute(prim_, pd_.scratchpad_desc(), args, "matmul"));
    const bool bf16 = c_.round_dtype == ACL_BF16;
    DispatchNumeric(c_.c_dtype, [&]<typename Tag>() {
      using IO = Io<Tag>;
      using S = typename IO::S;
      using C = typename IO::C;
      const S* t = static_cast<const S*>(scratch);
      S* d = static_cast<S*>(dst);
#pragma omp parallel for num_threads(a.threads) if (n > kParallelGrain)
      for (int64_t i = 0; i < n; ++i) {
        // In float, as the elementwise Mul and Add compute, each result rounded to the stored type (a no-op
        // for values already of it): the same roundings as the separate operators.
        const auto round = [bf16](float x) { return bf16 ? Bf16ToFloat(FloatToBf16(x)) : HalfToFloat(FloatToHalf(x)); };
        const float scaled = round(round(static_cast<float>(IO::Ld(t[i]))) * alpha);
        const float out = sum ? round(scaled + round(static_cast<float>(IO::Ld(d[i])))) : scaled;
        d[i] = IO::St(static_cast<C>(out));
      }
    });
    return Status::Ok();
  }

  // dst = beta * C (in place when C and dst are one buffer) so that the sum post-op adds alpha*A*B.
  void PrepareAccumulator(const void* c, void* dst, float beta, int threads) const {
    const int64_t n = c_.m * c_.n * std::max(c_.batch_a, c_.batch_b);
    const size_t es = DTypeSize(c_.c_dtype);
    if (beta == 1.0f) {
      if (c != dst) std::memcpy(dst, c, static_cast<size_t>(n) * es);
      return;
    }
    DispatchNumeric(c_.c_dtype, [&]<typename Tag>() {
      using IO = Io<Tag>;
      using S = typename IO::S;
      const S* src = static_cast<const S*>(c);
      S* d = static_cast<S*>(dst);
#pragma omp parallel for num_threads(threads) if (n > kParallelGrain)
      for (int64_t i = 0; i < n; ++i) {
        d[i] = IO::St(static_cast<typename IO::C>(static_cast<double>(IO::Ld(src[i])) * beta));
      }
    });
  }

  MatmulConfig c_;
  bool runtime_scale_ = false;
  bool rounded_steps_ = false;  // 16-bit float GEMM: RunRoundedSteps
  dnnl::matmul::primitive_desc pd_, pd_sum_;
  dnnl::matmul prim_, prim_sum_;
  std::shared_ptr<memory> packed_, packed_sum_;            // a constant B in the primitives' layouts
  void* packed_b_ = nullptr, *packed_b_sum_ = nullptr;     // their data, or null: read B from the input
};

int32_t AccumDType(int32_t in) { return in == ACL_INT8 ? ACL_INT32 : in; }

// MatMul: x1 [M,K] (or [K,M] with transpose_x1), x2 [K,N] (or [N,K]), optional bias [N] -> y [M,N].
// BatchMatMul: x1 [..., M, K], x2 [..., K, N] with broadcast batch dims; attrs adj_x1 / adj_x2.
// Both: post_ops (kernels/post_ops.h), with add's addend the last input; a constant x2 is packed at build.
Status BuildMatmul(OpBuild& b) {
  const bool batched = b.type == "BatchMatMul" || b.type == "BatchMatMulV2";
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_BF16, ACL_INT8}));
  NPURT_RETURN_IF_ERROR(SameDType(b, 0, 1));
  auto ta = GetBool(*b.attrs, batched ? "adj_x1" : "transpose_x1", false);
  if (!ta.ok()) return ta.status();
  auto tb = GetBool(*b.attrs, batched ? "adj_x2" : "transpose_x2", false);
  if (!tb.ok()) return tb.status();
  const auto& x1 = b.inputs[0].dims;
  const auto& x2 = b.inputs[1].dims;
  if (x1.size() < 2 || x2.size() < 2 || (!batched && (x1.size() != 2 || x2.size() != 2))) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: inputs {} and {} must be {}", b.type, DimsString(x1),
               DimsString(x2), batched ? "at least 2-D" : "2-D (use BatchMatMul for batches)");
  }
  const int64_t m = ta.value() ? x1[x1.size() - 1] : x1[x1.size() - 2];
  const int64_t k1 = ta.value() ? x1[x1.size() - 2] : x1[x1.size() - 1];
  const int64_t k2 = tb.value() ? x2[x2.size() - 1] : x2[x2.size() - 2];
  const int64_t n = tb.value() ? x2[x2.size() - 2] : x2[x2.size() - 1];
  if (k1 != k2) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: inner dimensions differ: {} x {} (transposes {}, {})", b.type,
               DimsString(x1), DimsString(x2), ta.value(), tb.value());
  }
  std::vector<int64_t> bat1(x1.begin(), x1.end() - 2), bat2(x2.begin(), x2.end() - 2);
  auto bat = BroadcastShapes(b, bat1, bat2);
  if (!bat.ok()) return std::move(bat).status();
  int64_t n1 = 1, n2 = 1, no = 1;
  for (int64_t d : bat1) n1 *= d;
  for (int64_t d : bat2) n2 *= d;
  for (int64_t d : bat.value()) no *= d;
  // Batches flatten to one dim when each input has all of them or none (the general partial
  // broadcast is rare; it is refused with a clear message).
  if ((n1 != no && n1 != 1) || (n2 != no && n2 != 1) || (n1 != no && bat1.size() > 0 && n1 != 1)) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: partial batch broadcasting of {} and {} is not supported", b.type,
               DimsString(x1), DimsString(x2));
  }
  if (n1 != no && n2 != no) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: batch dims of {} and {} do not match", b.type, DimsString(x1),
               DimsString(x2));
  }
  const int32_t out_dt = RequestedDType(b, 0, AccumDType(b.inputs[0].dtype));
  if (out_dt != AccumDType(b.inputs[0].dtype) && out_dt != ACL_FLOAT) {
    return Err(ACL_ERROR_OP_OUTPUT_NOT_MATCH, "{}: output data type {} is not supported for {} inputs", b.type,
               DTypeName(out_dt), DTypeName(b.inputs[0].dtype));
  }
  std::vector<int64_t> out = bat.value();
  out.push_back(m);
  out.push_back(n);
  MatmulConfig c;
  c.m = m;
  c.n = n;
  c.k = k1;
  c.batch_a = n1;
  c.batch_b = n2;
  c.trans_a = ta.value();
  c.trans_b = tb.value();
  c.a_dtype = c.b_dtype = b.inputs[0].dtype;
  c.c_dtype = out_dt;
  auto post = ReadPostOps(b);
  if (!post.ok()) return std::move(post).status();
  auto at = LocateTrailingInputs(b, 2, /*bias_allowed=*/!batched, post.value());
  if (!at.ok()) return std::move(at).status();
  if (at->bias >= 0) {
    const TensorSpec& bias = b.inputs[static_cast<size_t>(at->bias)];
    if (bias.numel() != n) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: bias {} must have {} elements", b.type, DimsString(bias.dims), n);
    }
    c.bias_input = at->bias;
    c.bias_dtype = bias.dtype;
  }
  b.outputs = {TensorSpec{out_dt, RequestedFormat(b, 0, ACL_FORMAT_ND), out}};
  if (at->addend >= 0) NPURT_RETURN_IF_ERROR(CheckAddend(b, at->addend, b.outputs[0]));
  c.post = std::move(post.value());
  c.addend_input = at->addend;
  c.b_constant = ConstantInput(b, 1);
  if (!b.compile) return Status::Ok();
  auto k = MatmulKernel::Create(c);
  if (!k.ok()) return std::move(k).status();
  b.kernel = std::move(k.value());
  return Status::Ok();
}

// GEMM: a, b, c, alpha, beta -> c. a is [M,K] ([K,M] with transpose_a), b [K,N] ([N,K] with transpose_b),
// c [M,N]; alpha and beta are one-element tensors. post_ops apply to alpha*a*b + beta*c; add's addend (c's
// shape, type and layout) is a sixth input. A constant b is packed at build.
Status BuildGemm(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_BF16, ACL_INT8}));
  NPURT_RETURN_IF_ERROR(SameDType(b, 0, 1));
  auto ta = GetBool(*b.attrs, "transpose_a", false);
  if (!ta.ok()) return ta.status();
  auto tb = GetBool(*b.attrs, "transpose_b", false);
  if (!tb.ok()) return tb.status();
  auto tc = GetBool(*b.attrs, "transpose_c", false);
  if (!tc.ok()) return tc.status();
  const auto& a = b.inputs[0].dims;
  const auto& bm = b.inputs[1].dims;
  const auto& cm = b.inputs[2].dims;
  if (a.size() != 2 || bm.size() != 2 || cm.size() != 2) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: a {}, b {} and c {} must be 2-D", b.type, DimsString(a),
               DimsString(bm), DimsString(cm));
  }
  const int64_t m = ta.value() ? a[1] : a[0], k = ta.value() ? a[0] : a[1];
  const int64_t kb = tb.value() ? bm[1] : bm[0], n = tb.value() ? bm[0] : bm[1];
  const int64_t cm_rows = tc.value() ? cm[1] : cm[0], cm_cols = tc.value() ? cm[0] : cm[1];
  if (k != kb || cm_rows != m || cm_cols != n) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: shapes a {}, b {}, c {} do not form a GEMM (transposes {}, {}, {})",
               b.type, DimsString(a), DimsString(bm), DimsString(cm), ta.value(), tb.value(), tc.value());
  }
  if (b.inputs[3].numel() != 1 || b.inputs[4].numel() != 1) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: alpha and beta must hold one element each", b.type);
  }
  if (b.inputs[3].dtype != b.inputs[4].dtype) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: alpha and beta must have one data type", b.type);
  }
  const int32_t c_dt = b.inputs[2].dtype;
  if (c_dt != AccumDType(b.inputs[0].dtype) && c_dt != ACL_FLOAT) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: c data type {} is not supported for {} inputs", b.type,
               DTypeName(c_dt), DTypeName(b.inputs[0].dtype));
  }
  MatmulConfig c;
  c.m = m;
  c.n = n;
  c.k = k;
  c.trans_a = ta.value();
  c.trans_b = tb.value();
  c.trans_c = tc.value();
  c.a_dtype = c.b_dtype = b.inputs[0].dtype;
  c.c_dtype = c_dt;
  c.c_input = 2;
  c.alpha_input = 3;
  c.beta_input = 4;
  c.scalar_dtype = b.inputs[3].dtype;
  const int32_t stored_c = b.stored_inputs != nullptr ? (*b.stored_inputs)[2].dtype : c_dt;
  if (stored_c == ACL_FLOAT16 || stored_c == ACL_BF16) c.round_dtype = stored_c;
  b.outputs = {b.inputs[2]};
  b.outputs[0].format = RequestedFormat(b, 0, b.inputs[2].format);
  auto post = ReadPostOps(b);
  if (!post.ok()) return std::move(post).status();
  auto at = LocateTrailingInputs(b, 5, /*bias_allowed=*/false, post.value());
  if (!at.ok()) return std::move(at).status();
  if (at->addend >= 0) NPURT_RETURN_IF_ERROR(CheckAddend(b, at->addend, b.outputs[0]));
  c.post = std::move(post.value());
  c.addend_input = at->addend;
  c.b_constant = ConstantInput(b, 1);
  if (!b.compile) return Status::Ok();
  auto kern = MatmulKernel::Create(c);
  if (!kern.ok()) return std::move(kern).status();
  b.kernel = std::move(kern.value());
  return Status::Ok();
}

}  // namespace

StatusOr<std::unique_ptr<Kernel>> MakeMatmulKernel(const MatmulConfig& config) {
  auto k = MatmulKernel::Create(config);
  if (!k.ok()) return std::move(k).status();
  return std::unique_ptr<Kernel>(std::move(k.value()));
}

void RegisterMatmulOps(OpTable& t) {
  const char* dts = "float32, float16, bfloat16, int8 (-> int32)";
  t.Add({"MatMul", 2, 4, &BuildMatmul, true, dts,
         "x1 [M,K], x2 [K,N], optional bias [N], addend [M,N] (with post-op add) -> y [M,N]; attrs transpose_x1, "
         "transpose_x2 (bool), post_ops (list, applied in order: relu, clip [clip_min, clip_max], sigmoid, swish, "
         "gelu_erf, gelu_tanh, tanh, add); add takes one more input of y's shape and type, the LAST input: without a "
         "bias give x1, x2, addend, or an absent input (ACL_DT_UNDEFINED) as the bias",
         /*absent_input=*/2});
  t.Add({"BatchMatMul", 2, 3, &BuildMatmul, true, dts,
         "x1 [...,M,K], x2 [...,K,N] (batch dims broadcast when one side has none), addend (with post-op add) -> y; "
         "attrs adj_x1, adj_x2, post_ops (as MatMul's)"});
  t.Add({"GEMM", 5, 6, &BuildGemm, true, dts,
         "a, b, c, alpha, beta, addend (with post-op add) -> c = post_ops(alpha*op(a)*op(b) + beta*c); attrs "
         "transpose_a, transpose_b, transpose_c, post_ops (as MatMul's; add's addend has c's shape and type)"});
  t.Alias("MatMulV2", "MatMul");
  t.Alias("BatchMatMulV2", "BatchMatMul");
}

}  // namespace npurt::drivers::host
