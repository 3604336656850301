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
#include <mutex>

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

// The code a family of shapes shares (re-tiling, OpBuild::reuse): one primitive created with M given at run
// time (oneDNN's GEMM kernels take it when they run), and a constant B packed once for it. Created on the
// first re-tile of a kernel and shared by every kernel re-tiled from it. Only M (the rows: a batch or a
// sequence length flattened into them) varies within a family: K, N and the batch counts are part of it.
struct MatmulFamily {
  dnnl::matmul::primitive_desc pd;
  dnnl::matmul prim;
  std::shared_ptr<memory> packed;  // a constant B in pd's weights layout, or null
  void* packed_b = nullptr;
};

bool SamePostOps(const PostOpChain& x, const PostOpChain& y) {
  if (x.ops.size() != y.ops.size() || x.add_index != y.add_index) return false;
  for (size_t i = 0; i < x.ops.size(); ++i) {
    const PostOp& p = x.ops[i];
    const PostOp& q = y.ops[i];
    if (p.add != q.add || p.alg != q.alg || p.alpha != q.alpha || p.beta != q.beta) return false;
  }
  return true;
}

// MatDesc with its rows given at run time (and the strides that depend on them).
memory::desc MatDescRuntimeRows(int64_t batch, int64_t cols, bool trans, int32_t dtype) {
  constexpr memory::dim kRt = DNNL_RUNTIME_DIM_VAL;
  memory::dims dims = {batch, kRt, cols};
  memory::dims strides = trans ? memory::dims{kRt, 1, kRt} : memory::dims{kRt, cols, 1};
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

  // A kernel for `c` sharing this kernel's family code, or null when `c` differs from this kernel's config in
  // more than its dims, or its family cannot be built (oneDNN takes no runtime dims for it).
  std::unique_ptr<MatmulKernel> Retile(const MatmulConfig& c) const {
    if (!Retileable(c_) || !SameButDims(c_, c)) return nullptr;
    std::shared_ptr<const MatmulFamily> family = Family();
    if (family == nullptr) return nullptr;
    auto k = std::unique_ptr<MatmulKernel>(new MatmulKernel(c));
    k->family_ = std::move(family);
    k->family_built_ = true;
    k->generic_ = true;
    return k;
  }

  Status Run(const OpRunArgs& a) const override {
    if (generic_) return RunGeneric(a);
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

  // Configs whose kernels may share family code: plain products (no GEMM accumulator, runtime scale, rounded
  // steps or fused residual add), equal in everything but M. (Products whose N or K change too, as
  // attention's, are compiled: oneDNN's fully runtime-dims GEMM is slower still, and building their own is
  // cheap.)
  static bool Retileable(const MatmulConfig& c) {
    return c.c_input < 0 && c.alpha_input < 0 && c.beta_input < 0 && c.round_dtype == 0 && c.addend_input < 0;
  }
  static bool SameButDims(const MatmulConfig& x, const MatmulConfig& y) {
    if (!Retileable(y)) return false;
    if (x.batch_a != y.batch_a || x.batch_b != y.batch_b || x.trans_a != y.trans_a || x.trans_b != y.trans_b ||
        x.trans_c != y.trans_c || x.a_dtype != y.a_dtype || x.b_dtype != y.b_dtype || x.c_dtype != y.c_dtype ||
        x.a_input != y.a_input || x.b_input != y.b_input || x.bias_input != y.bias_input ||
        x.bias_dtype != y.bias_dtype || x.b_constant != y.b_constant || !SamePostOps(x.post, y.post)) {
      return false;
    }
    return x.k == y.k && x.n == y.n;
  }

  // This kernel's family, built on first use (once; null when oneDNN takes no runtime dims for it).
  std::shared_ptr<const MatmulFamily> Family() const {
    std::call_once(family_once_, [&] {
      if (family_built_) return;
      auto f = std::make_shared<MatmulFamily>();
      Status st = du::Guard(ACL_ERROR_OP_TYPE_NOT_MATCH, "matmul family primitive", [&] {
        const int64_t bo = std::max(c_.batch_a, c_.batch_b);
        auto a_md = MatDescRuntimeRows(c_.batch_a, c_.k, c_.trans_a, c_.a_dtype);
        auto d_md = MatDescRuntimeRows(bo, c_.n, c_.trans_c, c_.c_dtype);
        const auto b_md = MatDesc(c_.batch_b, c_.k, c_.n, c_.trans_b, c_.b_dtype);
        // A constant B in the layout the primitive prefers (packed once below); a runtime B as it is stored.
        auto w_md = c_.b_constant != nullptr ? memory::desc(b_md.dims(), b_md.data_type(), memory::format_tag::any) : b_md;
        memory::desc bias_md;
        if (c_.bias_input >= 0) bias_md = memory::desc({1, 1, c_.n}, du::ToDnnl(c_.bias_dtype), {c_.n, c_.n, 1});
        dnnl::primitive_attr attr;
        // Library scratchpad: its size depends on the dims each run brings.
        attr.set_scratchpad_mode(dnnl::scratchpad_mode::library);
        dnnl::post_ops po;
        AppendPostOps(c_.post, d_md, po);
        if (po.len() != 0) attr.set_post_ops(po);
        auto d = c_.bias_input >= 0 ? dnnl::matmul::desc(a_md, w_md, bias_md, d_md) : dnnl::matmul::desc(a_md, w_md, d_md);
        f->pd = dnnl::matmul::primitive_desc(d, attr, du::Engine());
        f->prim = dnnl::matmul(f->pd);
        if (c_.b_constant != nullptr) {
          const auto user = MatDesc(c_.batch_b, c_.k, c_.n, c_.trans_b, c_.b_dtype);
          if (!(f->pd.weights_desc() == user)) {
            f->packed = du::PackConstant(c_.b_constant, user, f->pd.weights_desc());
            f->packed_b = f->packed->get_data_handle();
          }
        }
      });
      if (st.ok()) family_ = std::move(f);
    });
    return family_;
  }

  // A run of the family's primitive at this kernel's dims.
  Status RunGeneric(const OpRunArgs& a) const {
    const MatmulFamily& f = *family_;
    const int64_t bo = std::max(c_.batch_a, c_.batch_b);
    std::unordered_map<int, memory> args;
    void* weights = f.packed_b != nullptr ? f.packed_b : const_cast<void*>(a.inputs[c_.b_input]);
    const auto w_md = f.packed_b != nullptr ? f.pd.weights_desc() : MatDesc(c_.batch_b, c_.k, c_.n, c_.trans_b, c_.b_dtype);
    args.emplace(DNNL_ARG_SRC, memory(MatDesc(c_.batch_a, c_.m, c_.k, c_.trans_a, c_.a_dtype), du::Engine(),
                                      const_cast<void*>(a.inputs[c_.a_input])));
    args.emplace(DNNL_ARG_WEIGHTS, memory(w_md, du::Engine(), weights));
    args.emplace(DNNL_ARG_DST, memory(MatDesc(bo, c_.m, c_.n, c_.trans_c, c_.c_dtype), du::Engine(), a.outputs[0]));
    if (c_.bias_input >= 0) {
      args.emplace(DNNL_ARG_BIAS, memory(memory::desc({1, 1, c_.n}, du::ToDnnl(c_.bias_dtype), {c_.n, c_.n, 1}),
                                         du::Engine(), const_cast<void*>(a.inputs[c_.bias_input])));
    }
    return du::Execute(f.prim, memory::desc(), args, "matmul");
  }

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
  // The family: built by Family() on this kernel's first re-tile, or (generic_) the one this kernel was
  // re-tiled from, whose primitive it runs.
  mutable std::once_flag family_once_;
  mutable std::shared_ptr<const MatmulFamily> family_;
  bool family_built_ = false;
  bool generic_ = false;
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
  // A kernel of this family built before (at other M, N, K) shares its code, re-tiled for these dims.
  if (const auto* prior = dynamic_cast<const MatmulKernel*>(b.reuse); prior != nullptr) {
    if (auto retiled = prior->Retile(c); retiled != nullptr) {
      b.kernel = std::move(retiled);
      b.reused = true;
      return Status::Ok();
    }
  }
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

void WarmMatmulRetiling() {
  static std::once_flag once;
  std::call_once(once, [] {
    // A product of the size whose code covers the shapes models meet (a smaller one generates other kernels).
    constexpr int64_t kM = 48, kK = 128, kN = 128;
    std::vector<float> a(kM * kK, 0.5f), b(kK * kN, 0.25f), y(kM * kN, 0.0f);
    (void)du::Guard(ACL_ERROR_OP_TYPE_NOT_MATCH, "matmul warm-up", [&] {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::library);
      const auto w_md = MatDesc(1, kK, kN, false, ACL_FLOAT);
      dnnl::matmul::primitive_desc pd(
          dnnl::matmul::desc(MatDescRuntimeRows(1, kK, false, ACL_FLOAT), w_md, MatDescRuntimeRows(1, kN, false, ACL_FLOAT)),
          attr, du::Engine());
      std::unordered_map<int, memory> args;
      args.emplace(DNNL_ARG_SRC, memory(MatDesc(1, kM, kK, false, ACL_FLOAT), du::Engine(), a.data()));
      args.emplace(DNNL_ARG_WEIGHTS, memory(w_md, du::Engine(), b.data()));
      args.emplace(DNNL_ARG_DST, memory(MatDesc(1, kM, kN, false, ACL_FLOAT), du::Engine(), y.data()));
      dnnl::matmul(pd).execute(du::ThreadStream(), args);
      du::ThreadStream().wait();
    });
  });
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
