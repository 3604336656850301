// Conv2D on oneDNN. The primitive is created with format "any" so oneDNN picks its fastest blocked
// layouts for this shape and CPU; user tensors (NCHW or NHWC activations; NCHW/OIHW, NHWC/OHWI or HWCN
// filters) are reordered in and out around it with reorder primitives created at compile time.
// When the user layout already is the chosen one no reorder runs (oneDNN 2.6's jit convolutions pick
// blocked fp32 activations, aBcd8b on the AVX2 build machine, so NCHW and NHWC are both reordered).
// x and y may also be NC1HWC0 (nn_common.h: oneDNN's nChw8c/nChw16c, the layout those convolutions pick),
// which is what atc's layout pass gives the activations between convolutions: when the primitive chosen
// with "any" does not take the blocked layout as it is, one is created with it forced, and kept if oneDNN
// picks the same implementation for it; else the reorders run as for plain tensors.
// A constant filter (OpBuild::constants) is reordered once, at build; post_ops (kernels/post_ops.h) run
// inside the primitive, the addend of "add" read in dst's layout. Two attrs that atc sets from its options
// (tools/atc/impl_select.h) change how it computes: algorithm "winograd" (TryWinograd) and compute_dtype
// "bfloat16" (x and the filter rounded to bf16, fp32 sums and y).
#include "acl/error_codes/rt_error_codes.h"
#include "base/env.h"
#include "drivers/host/ops/dnnl_util.h"
#include "drivers/host/ops/kernels/nn_common.h"
#include "drivers/host/ops/kernels/post_ops.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

using dnnl::memory;
namespace du = dnnl_util;

bool WinogradAllowed() {
  const char* v = env::Raw(env::Var::kConvWinograd);
  return v == nullptr || std::string(v) != "0";
}

struct ConvShape {
  int64_t n, c, h, w, o, kh, kw, oh, ow, groups;
  int64_t sh, sw, dh, dw, pt, pb, pl, pr;
  bool nhwc;
  int64_t src_c0, dst_c0;  // x / y in NC1HWC0 with this block; 0: plain (nhwc says which)
  int32_t filter_format;
  bool bias;
  int32_t dtype;    // the filter's, and what the convolution computes in unless bf16
  int32_t x_dtype;  // dtype, or bf16 for an NC1HWC0 x of a bf16 convolution (attr compute_dtype)
  int32_t y_dtype;  // dtype, or bf16 with attr dst_dtype bfloat16 (NC1HWC0 y of a bf16 convolution)
  bool winograd;  // attr algorithm "winograd": Winograd where oneDNN has it for this shape (TryWinograd)
  bool bf16;      // attr compute_dtype "bfloat16" on fp32 tensors, on a CPU with bf16 arithmetic
};

memory::desc ActDesc(int64_t n, int64_t c, int64_t h, int64_t w, bool nhwc, int64_t c0, memory::data_type dt) {
  if (c0 != 0) return du::BlockedDesc(n, c, h, w, c0, dt);
  return memory::desc({n, c, h, w}, dt, nhwc ? memory::format_tag::nhwc : memory::format_tag::nchw);
}

// The user's filter as a plain strided desc over logical [O, I/g, KH, KW] (or grouped [g, O/g, I/g, KH, KW]).
memory::desc FilterDesc(const ConvShape& s, memory::data_type dt) {
  const int64_t ig = s.c / s.groups;
  int64_t so, si, sh, sw;  // strides of O, I, KH, KW in the stored layout
  switch (s.filter_format) {
    case ACL_FORMAT_NHWC: so = s.kh * s.kw * ig; si = 1; sh = s.kw * ig; sw = ig; break;       // O,H,W,I
    case ACL_FORMAT_HWCN: so = 1; si = s.o; sh = s.kw * ig * s.o; sw = ig * s.o; break;         // H,W,I,O
    default: so = ig * s.kh * s.kw; si = s.kh * s.kw; sh = s.kw; sw = 1; break;                 // O,I,H,W
  }
  if (s.groups == 1) return memory::desc({s.o, ig, s.kh, s.kw}, dt, {so, si, sh, sw});
  const int64_t og = s.o / s.groups;
  return memory::desc({s.groups, og, ig, s.kh, s.kw}, dt, {og * so, so, si, sh, sw});
}

class ConvKernel final : public Kernel {
 public:
  // `constant_filter`: the filter's data when it is constant for the kernel's lifetime (OpBuild::constants),
  // else null.
  ConvKernel(const ConvShape& s, PostOpChain post, TrailingInputs at, const void* constant_filter)
      : s_(s), post_(std::move(post)), at_(at), constant_filter_(constant_filter) {}

  void Init() {
    const auto dt = du::ToDnnl(s_.dtype);
    user_src_ = ActDesc(s_.n, s_.c, s_.h, s_.w, s_.nhwc, s_.src_c0, du::ToDnnl(s_.x_dtype));
    user_dst_ = ActDesc(s_.n, s_.o, s_.oh, s_.ow, s_.nhwc, s_.dst_c0, du::ToDnnl(s_.y_dtype));
    user_w_ = FilterDesc(s_, dt);
    CreatePrimitive(/*force_blocked=*/false);
    if (!BlockedMatch()) {
      // Verify, then force: a primitive over the blocked tensors as they are, kept if oneDNN runs a jit
      // implementation on it (forcing a layout can silently select a slow reference or gemm kernel). Not
      // necessarily the same one: on AVX-512 cores oneDNN picks brgemm convolutions over NHWC for "any", and
      // two reorders around every convolution (NC1HWC0 <-> NHWC) cost more than its direct jit kernel does
      // over NC1HWC0 (ResNet-50: 123 reorders, about 30 ms of a 47 ms inference).
      const std::string chosen = pd_.impl_info_str();
      TryForced(dnnl::algorithm::convolution_direct, [&](const std::string& impl) {
        return impl == chosen || impl.rfind("jit", 0) == 0 || impl.rfind("brg", 0) == 0;
      });
    }
    if (s_.winograd) TryWinograd();
    prim_ = dnnl::convolution_forward(pd_);
    CreateReorders();
  }

  // Whether pd_ reads and writes the blocked user tensors (if any) in place.
  bool BlockedMatch() const {
    return (s_.src_c0 == 0 || pd_.src_desc() == user_src_) && (s_.dst_c0 == 0 || pd_.dst_desc() == user_dst_);
  }

  // Winograd's minimal filtering (F(2x2,3x3) or F(4x4,3x3), chosen by oneDNN) in place of the direct algorithm:
  // half to a third of the multiplications of a 3x3 convolution, at fp32 rounding error a little above the
  // direct algorithm's (relative 1e-6 rather than 1e-7 on ResNet-50's layers). oneDNN 2.6 has it on AVX-512
  // for stride 1, no dilation, one group, and blocked (nChw16c) activations; elsewhere the direct primitive
  // stays. Its filter is transformed once when it is constant (a model's weights), else on every run.
  void TryWinograd() {
    if (s_.kh != 3 || s_.kw != 3 || s_.sh != 1 || s_.sw != 1 || s_.dh != 1 || s_.dw != 1 || s_.groups != 1 ||
        s_.dtype != ACL_FLOAT || s_.x_dtype != ACL_FLOAT || s_.y_dtype != ACL_FLOAT || s_.bf16 || !WinogradAllowed()) {
      return;
    }
    TryForced(dnnl::algorithm::convolution_winograd,
              [](const std::string& impl) { return impl.find("wino") != std::string::npos; });
  }

  // pd_ (with sum_add_ and addend_desc_) replaced by the primitive of `alg` over the blocked tensors as they
  // are, if oneDNN creates one whose implementation `keep` accepts; else left as it was.
  template <typename Keep>
  void TryForced(dnnl::algorithm alg, Keep&& keep) {
    const auto saved_pd = pd_;
    const bool saved_sum = sum_add_;
    const memory::desc saved_addend = addend_desc_;
    try {
      CreatePrimitive(/*force_blocked=*/true, alg);
      if (keep(std::string(pd_.impl_info_str()))) return;
    } catch (const dnnl::error&) {
    }
    pd_ = saved_pd;
    sum_add_ = saved_sum;
    addend_desc_ = saved_addend;
  }

  // pd_ (and addend_desc_, sum_add_) with src and dst "any", or, with force_blocked, the blocked user
  // layouts where x or y is NC1HWC0.
  void CreatePrimitive(bool force_blocked, dnnl::algorithm alg = dnnl::algorithm::convolution_direct) {
    const auto dt = du::ToDnnl(s_.dtype);
    // The type src and the filter are computed in: bf16 for compute_dtype bfloat16 (src reordered into it on
    // every run, the filter once when constant), dst and the addend stay fp32.
    const auto cdt = s_.bf16 ? memory::data_type::bf16 : dt;
    const auto ddt = s_.bf16 ? du::ToDnnl(s_.y_dtype) : dt;  // a bf16 convolution writes a bf16 y itself
    memory::dims wdims = user_w_.dims();
    sum_add_ = false;
    addend_desc_ = memory::desc();
    const memory::desc blocked_src = s_.bf16 && s_.src_c0 != 0 ? du::BlockedDesc(s_.n, s_.c, s_.h, s_.w, s_.src_c0, cdt)
                                                              : user_src_;
    auto any_src = force_blocked && s_.src_c0 != 0 ? blocked_src
                                                   : memory::desc({s_.n, s_.c, s_.h, s_.w}, cdt, memory::format_tag::any);
    auto any_dst = force_blocked && s_.dst_c0 != 0
                       ? user_dst_
                       : memory::desc({s_.n, s_.o, s_.oh, s_.ow}, ddt, memory::format_tag::any);
    auto any_w = memory::desc(wdims, cdt, memory::format_tag::any);
    auto bias = memory::desc({s_.o}, dt == memory::data_type::bf16 ? memory::data_type::f32 : dt, memory::format_tag::a);
    const memory::dims strides = {s_.sh, s_.sw}, dil = {s_.dh - 1, s_.dw - 1}, pl = {s_.pt, s_.pl},
                       pr = {s_.pb, s_.pr};
    auto d = s_.bias ? dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                       alg, any_src, any_w, bias,
                                                       any_dst, strides, dil, pl, pr)
                     : dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                                       alg, any_src, any_w, any_dst,
                                                       strides, dil, pl, pr);
    auto make_pd = [&](bool with_post_ops) {
      dnnl::primitive_attr attr;
      attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
      if (with_post_ops) {
        dnnl::post_ops po;
        AppendPostOps(post_, addend_desc_, po, sum_add_);
        attr.set_post_ops(po);
      }
      return dnnl::convolution_forward::primitive_desc(d, attr, du::Engine());
    };
    if (post_.has_add()) {
      // The addend is read in the layout the primitive writes its result in (oneDNN's jit convolutions add a
      // full tensor only in dst's own layout; given the user layout, oneDNN fell back from jit:avx2 to
      // gemm:jit on plain layouts): a primitive without post-ops tells which layout oneDNN picks for this
      // shape. When that is not the user's, dst is computed in a buffer of the kernel's anyway: the addend is
      // reordered straight into it and added by a sum post-op (no second buffer, and a sum is the cheapest
      // post-op there is); otherwise a binary add reads the user's addend as it is.
      addend_desc_ = make_pd(false).dst_desc();
      sum_add_ = addend_desc_ != user_dst_;
    }
    try {
      pd_ = make_pd(!post_.empty());
    } catch (const dnnl::error&) {
      if (!sum_add_) throw;
      sum_add_ = false;  // a sum where this implementation takes none: the binary add
      pd_ = make_pd(true);
    }
    if (sum_add_ && pd_.dst_desc() != addend_desc_) {
      sum_add_ = false;  // post-ops moved dst to another layout: the binary add reads the probe's layout
      pd_ = make_pd(true);
    }
    bias_desc_ = bias;
  }

  void CreateReorders() {
    dnnl::primitive_attr rattr;
    rattr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    auto reorder = [&](const memory::desc& from, const memory::desc& to) {
      return dnnl::reorder(dnnl::reorder::primitive_desc(du::Engine(), from, du::Engine(), to, rattr));
    };
    if (pd_.src_desc() != user_src_) src_re_ = reorder(user_src_, pd_.src_desc());
    if (pd_.weights_desc() != user_w_) {
      // Its scratchpad (Winograd's filter transform has one) shares the convolution's: the reorder finishes
      // before the convolution starts.
      dnnl::reorder::primitive_desc wpd(du::Engine(), user_w_, du::Engine(), pd_.weights_desc(), rattr);
      w_scratch_ = wpd.scratchpad_desc();
      w_re_ = dnnl::reorder(wpd);
    }
    if (pd_.dst_desc() != user_dst_) dst_re_ = reorder(pd_.dst_desc(), user_dst_);
    if (post_.has_add() && addend_desc_ != user_dst_) add_re_ = reorder(user_dst_, addend_desc_);  // into dst if sum_add_
    if (w_re_ && constant_filter_ != nullptr) {
      // A constant filter is reordered into the primitive's layout here, once, into memory the kernel owns,
      // and runs skip the reorder. Valid because the data is constant while the kernel lives (a model's
      // weight region is loaded once and outlives its executables). Such a kernel is specific to that data:
      // the aclop compile cache (src/ops/compile_cache.*) must not share it between calls with other
      // constants, and cannot: the op layer never passes constants, so its kernels all reorder per run.
      // The packed copy is shared with other kernels packing the same weights the same way (a gear model's
      // gears; du::PackConstant).
      packed_w_ = du::PackConstant(constant_filter_, user_w_, pd_.weights_desc());
      w_re_ = dnnl::reorder();
      w_scratch_ = memory::desc();
      packed_w_data_ = packed_w_->get_data_handle();
    }
    // Internal buffers for reordered tensors sit after the scratchpad in one per-thread block.
    off_src_ = Align(std::max(pd_.scratchpad_desc().get_size(), w_scratch_.get_size()));
    off_w_ = off_src_ + (src_re_ ? Align(pd_.src_desc().get_size()) : 0);
    off_dst_ = off_w_ + (w_re_ ? Align(pd_.weights_desc().get_size()) : 0);
    off_add_ = off_dst_ + (dst_re_ ? Align(pd_.dst_desc().get_size()) : 0);
    total_ = off_add_ + (add_re_ && !sum_add_ ? Align(addend_desc_.get_size()) : 0);
  }

  Status Run(const OpRunArgs& a) const override {
    return du::Guard(ACL_ERROR_RT_AICORE_EXCEPTION, "Conv2D", [&] {
      auto* block = static_cast<uint8_t*>(Scratch(total_, 2));
      // Nothing to place (no scratchpad, no reorder: blocked activations) leaves the block null.
      if (block == nullptr && total_ != 0) throw dnnl::error(dnnl_out_of_memory, "scratch allocation failed");
      auto& eng = du::Engine();
      auto& strm = du::ThreadStream();
      memory user_src(user_src_, eng, const_cast<void*>(a.inputs[0]));
      memory user_dst(user_dst_, eng, a.outputs[0]);
      memory src = src_re_ ? memory(pd_.src_desc(), eng, block + off_src_) : user_src;
      memory dst = dst_re_ ? memory(pd_.dst_desc(), eng, block + off_dst_) : user_dst;
      memory w;
      if (packed_w_data_ != nullptr) {
        w = memory(pd_.weights_desc(), eng, packed_w_data_);  // the filter input is not read
      } else {
        memory user_w(user_w_, eng, const_cast<void*>(a.inputs[1]));
        w = w_re_ ? memory(pd_.weights_desc(), eng, block + off_w_) : user_w;
        if (w_re_) {
          std::unordered_map<int, memory> wargs{{DNNL_ARG_FROM, user_w}, {DNNL_ARG_TO, w}};
          if (w_scratch_.get_size() != 0) wargs.emplace(DNNL_ARG_SCRATCHPAD, memory(w_scratch_, eng, block));
          w_re_.execute(strm, wargs);
        }
      }
      if (src_re_) src_re_.execute(strm, user_src, src);
      std::unordered_map<int, memory> args{{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, w}, {DNNL_ARG_DST, dst}};
      if (s_.bias) args.emplace(DNNL_ARG_BIAS, memory(bias_desc_, eng, const_cast<void*>(a.inputs[at_.bias])));
      if (post_.has_add()) {
        memory user_add(user_dst_, eng, const_cast<void*>(a.inputs[at_.addend]));
        if (sum_add_) {
          add_re_.execute(strm, user_add, dst);  // the sum post-op adds what dst holds
        } else {
          memory add = add_re_ ? memory(addend_desc_, eng, block + off_add_) : user_add;
          if (add_re_) add_re_.execute(strm, user_add, add);
          args.emplace(AddendArg(post_), add);
        }
      }
      if (pd_.scratchpad_desc().get_size() != 0) {
        args.emplace(DNNL_ARG_SCRATCHPAD, memory(pd_.scratchpad_desc(), eng, block));
      }
      prim_.execute(strm, args);
      if (dst_re_) dst_re_.execute(strm, dst, user_dst);
      strm.wait();
    });
  }

 private:
  static size_t Align(size_t n) { return (n + 4095) / 4096 * 4096; }
  ConvShape s_;
  PostOpChain post_;
  TrailingInputs at_;
  const void* constant_filter_ = nullptr;  // read in Init only
  bool sum_add_ = false;  // "add" is a sum post-op over the addend reordered into dst (else a binary add)
  memory::desc user_src_, user_dst_, user_w_, bias_desc_, addend_desc_;
  memory::desc w_scratch_;  // the scratchpad of w_re_ (empty when it has none)
  dnnl::convolution_forward::primitive_desc pd_;
  dnnl::convolution_forward prim_;
  dnnl::reorder src_re_, w_re_, dst_re_, add_re_;
  std::shared_ptr<memory> packed_w_;  // the constant filter in pd_'s layout (shared: du::PackConstant); null when the filter is a runtime input
  void* packed_w_data_ = nullptr;  // its data (runs read only this)
  size_t off_src_ = 0, off_w_ = 0, off_dst_ = 0, off_add_ = 0, total_ = 0;
};

// Conv2D: x [N,C,H,W] (NCHW) or [N,H,W,C] (NHWC), filter [O, C/groups, KH, KW] (its format says the
// order), optional bias [O], with post-op add the addend (y's shape, type and layout) last -> y. Attrs:
// strides, pads [top, bottom, left, right], dilations (4 values in data_format order, or 2 for H, W),
// groups, data_format, post_ops (kernels/post_ops.h). A constant filter is reordered at build.
// Blocked activations (fp32 only): x may be NC1HWC0 [N, C1, H, W, C0] (C from the filter and groups);
// attr dst_format (NCHW | NC1HWC0; default x's) and c0 (8 or 16; default x's C0, else the CPU's native
// one) choose y's, y NC1HWC0 [N, ceil(O/c0), OH, OW, c0]; the addend is in y's format.
// attr algorithm: direct (default) or winograd (ConvKernel::TryWinograd). attr compute_dtype: float32
// (default) or bfloat16, which computes fp32 x and filter in bf16 (fp32 accumulation, y fp32) where the CPU
// has bf16 arithmetic: atc sets it for the precision modes that allow bf16. Such a convolution may also read
// a bf16 NC1HWC0 x (with its fp32 filter), and write one with attr dst_dtype bfloat16 (default: the filter's type).
Status BuildConv2D(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_BF16}));
  const TensorSpec& x = b.inputs[0];
  const TensorSpec& f = b.inputs[1];
  const bool blocked_x = IsBlocked(x);
  auto compute = GetString(*b.attrs, "compute_dtype", "float32");
  if (!compute.ok()) return compute.status();
  if (compute.value() != "float32" && compute.value() != "bfloat16") {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: compute_dtype '{}' is not supported; use float32 or bfloat16", b.type,
               compute.value());
  }
  const bool bf16_compute = compute.value() == "bfloat16";
  // A bf16 convolution of an fp32 model may read the bf16 NC1HWC0 x another one wrote (atc chains them,
  // impl_select.h), with its fp32 filter.
  const bool bf16_x = bf16_compute && blocked_x && x.dtype == ACL_BF16 && f.dtype == ACL_FLOAT;
  if (!bf16_x) NPURT_RETURN_IF_ERROR(SameDType(b, 0, 1));
  if (blocked_x) NPURT_RETURN_IF_ERROR(CheckBlocked(b, 0, x, bf16_x ? ACL_BF16 : ACL_FLOAT));
  if ((!blocked_x && x.rank() != 4) || f.rank() != 4) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x {} and filter {} must be 4-D", b.type, DimsString(x.dims),
               DimsString(f.dims));
  }
  auto layout = ActivationLayout(b, x);
  if (!layout.ok()) return std::move(layout).status();
  const bool nhwc = layout.value();
  ConvShape s{};
  s.nhwc = nhwc;
  s.dtype = f.dtype;
  s.x_dtype = x.dtype;
  s.n = x.dims[0];
  s.c = nhwc ? x.dims[3] : x.dims[1];
  s.h = nhwc ? x.dims[1] : x.dims[2];
  s.w = nhwc ? x.dims[2] : x.dims[3];
  if (blocked_x && nhwc) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: an NC1HWC0 x takes data_format NCHW", b.type);
  auto dst_format = DstFormat(b, blocked_x ? ACL_FORMAT_NC1HWC0 : ACL_FORMAT_NCHW);
  if (!dst_format.ok()) return std::move(dst_format).status();
  const bool blocked_y = dst_format.value() == ACL_FORMAT_NC1HWC0;
  if (blocked_y && (nhwc || s.dtype != ACL_FLOAT)) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: an NC1HWC0 y takes a float32 NCHW or NC1HWC0 x", b.type);
  }
  if (blocked_x) s.src_c0 = x.dims[4];
  if (blocked_y) {
    auto c0 = BlockC0(b, blocked_x ? x.dims[4] : du::NativeC0());
    if (!c0.ok()) return c0.status();
    s.dst_c0 = c0.value();
  }
  auto groups = GetInt(*b.attrs, "groups", 1);
  if (!groups.ok()) return groups.status();
  auto algorithm = GetString(*b.attrs, "algorithm", "direct");
  if (!algorithm.ok()) return algorithm.status();
  if (algorithm.value() != "direct" && algorithm.value() != "winograd") {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: algorithm '{}' is not supported; use direct or winograd", b.type,
               algorithm.value());
  }
  s.winograd = algorithm.value() == "winograd";
  // bf16 arithmetic on fp32 tensors where the CPU has it (AVX512-BF16); elsewhere oneDNN would emulate it,
  // slower than fp32, so the convolution stays fp32 (bf16 tensors are then converted around it).
  s.bf16 = bf16_compute && s.dtype == ACL_FLOAT && du::Bf16Instructions();
  // y's type: the filter's by default; bfloat16 for a bf16 convolution of fp32 tensors writing NC1HWC0.
  auto dst_dtype = GetString(*b.attrs, "dst_dtype", "");
  if (!dst_dtype.ok()) return dst_dtype.status();
  if (!dst_dtype.value().empty() && dst_dtype.value() != DTypeName(s.dtype) && dst_dtype.value() != "bfloat16") {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: dst_dtype '{}' is not supported; use {} or bfloat16", b.type,
               dst_dtype.value(), DTypeName(s.dtype));
  }
  s.y_dtype = s.dtype;
  if (dst_dtype.value() == "bfloat16" && s.dtype != ACL_BF16) {
    if (!bf16_compute || !blocked_y || s.dtype != ACL_FLOAT) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: dst_dtype bfloat16 needs compute_dtype bfloat16, float32 tensors and "
                 "an NC1HWC0 y", b.type);
    }
    s.y_dtype = ACL_BF16;
  }
  s.groups = groups.value();
  s.filter_format = f.format;
  int64_t fi;
  switch (f.format) {
    case ACL_FORMAT_NHWC: s.o = f.dims[0]; s.kh = f.dims[1]; s.kw = f.dims[2]; fi = f.dims[3]; break;
    case ACL_FORMAT_HWCN: s.kh = f.dims[0]; s.kw = f.dims[1]; fi = f.dims[2]; s.o = f.dims[3]; break;
    case ACL_FORMAT_NCHW: case ACL_FORMAT_ND: s.filter_format = ACL_FORMAT_NCHW;
      s.o = f.dims[0]; fi = f.dims[1]; s.kh = f.dims[2]; s.kw = f.dims[3]; break;
    default:
      return Err(ACL_ERROR_FORMAT_NOT_MATCH, "{}: filter format {} is not supported; use NCHW, NHWC or HWCN", b.type,
                 FormatName(f.format));
  }
  if (blocked_x) {
    s.c = fi * s.groups;  // the logical channels: the filter's
    if (CeilDiv(s.c, s.src_c0) != x.dims[1]) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x {} does not hold the {} channels of filter {} and groups {}",
                 b.type, Describe(x), s.c, DimsString(f.dims), s.groups);
    }
  }
  if (s.groups < 1 || s.c % s.groups != 0 || s.o % s.groups != 0 || fi * s.groups != s.c) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} input channels, filter {} ({}) and groups {} do not match", b.type,
               s.c, DimsString(f.dims), FormatName(f.format), s.groups);
  }
  auto win = ReadWindow(b, nhwc, "strides", "dilations", "pads", s.h, s.w, s.kh, s.kw);
  if (!win.ok()) return std::move(win).status();
  const Window& wv = win.value();
  s.sh = wv.sh; s.sw = wv.sw; s.dh = wv.dh; s.dw = wv.dw;
  s.pt = wv.pt; s.pb = wv.pb; s.pl = wv.pl; s.pr = wv.pr;
  s.oh = wv.oh; s.ow = wv.ow;
  auto post = ReadPostOps(b);
  if (!post.ok()) return std::move(post).status();
  auto at = LocateTrailingInputs(b, 2, /*bias_allowed=*/true, post.value());
  if (!at.ok()) return std::move(at).status();
  if (at->bias >= 0) {
    const TensorSpec& bias = b.inputs[static_cast<size_t>(at->bias)];
    if (bias.numel() != s.o) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: bias {} must have {} elements", b.type, DimsString(bias.dims), s.o);
    }
    const int32_t want_bias = x.dtype == ACL_BF16 ? ACL_FLOAT : x.dtype;
    if (bias.dtype != want_bias) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: bias must be {} for {} inputs", b.type, DTypeName(want_bias),
                 DTypeName(x.dtype));
    }
    s.bias = true;
  }
  TensorSpec y{s.y_dtype, x.format, nhwc ? std::vector<int64_t>{s.n, s.oh, s.ow, s.o}
                                         : std::vector<int64_t>{s.n, s.o, s.oh, s.ow}};
  if (blocked_y) y = TensorSpec{s.y_dtype, ACL_FORMAT_NC1HWC0, BlockedDims(s.n, s.o, s.oh, s.ow, s.dst_c0)};
  if (blocked_x && !blocked_y) y.format = ACL_FORMAT_NCHW;
  if (at->addend >= 0) {
    NPURT_RETURN_IF_ERROR(CheckAddend(b, at->addend, y));
    if (IsBlocked(b.inputs[static_cast<size_t>(at->addend)]) != blocked_y) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: the addend of post-op add must be in y's format ({})", b.type,
                 FormatName(y.format));
    }
  }
  b.outputs = {y};
  if (!b.compile) return Status::Ok();
  auto k = std::make_unique<ConvKernel>(s, std::move(post.value()), at.value(), ConstantInput(b, 1));
  NPURT_RETURN_IF_ERROR(du::Guard(ACL_ERROR_OP_TYPE_NOT_MATCH, "Conv2D primitive", [&] { k->Init(); }));
  b.kernel = std::move(k);
  return Status::Ok();
}

}  // namespace

void RegisterConvOps(OpTable& t) {
  t.Add({"Conv2D", 2, 4, &BuildConv2D, true, "float32, float16, bfloat16 (bias float32 for bfloat16)",
         "x, filter, optional bias, addend (with post-op add) -> y; attrs strides, pads, dilations, groups, "
         "data_format (NCHW/NHWC), post_ops (list, applied in order: relu, clip [clip_min, clip_max], sigmoid, "
         "swish, gelu_erf, gelu_tanh, tanh, add); add takes one more input of y's shape, type and layout, the LAST "
         "input: without a bias give x, filter, addend, or an absent input (ACL_DT_UNDEFINED) as the bias; "
         "float32 x and y may be NC1HWC0 (attrs dst_format NCHW | NC1HWC0, default x's; c0 8 or 16); attr algorithm "
         "direct (default) | winograd (3x3, stride 1, one group, float32: Winograd where oneDNN has it); attr "
         "compute_dtype float32 (default) | bfloat16 (float32 tensors computed in bf16 with fp32 accumulation, on "
         "CPUs with AVX512-BF16)",
         /*absent_input=*/2});
}

}  // namespace npurt::drivers::host
