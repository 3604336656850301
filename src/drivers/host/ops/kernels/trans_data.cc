// TransData: moves an activation between the plain NCHW format and the blocked NC1HWC0 (nn_common.h,
// docs/operators.md), as CANN's op of that name does. A oneDNN reorder created at build; to NC1HWC0 it
// writes the padding lanes past C as zeros, the format's rule that the ops reading it rely on.
#include "acl/error_codes/rt_error_codes.h"
#include "drivers/host/ops/dnnl_util.h"
#include "drivers/host/ops/kernels/nn_common.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

using dnnl::memory;
namespace du = dnnl_util;

class TransDataKernel final : public Kernel {
 public:
  TransDataKernel(const memory::desc& from, const memory::desc& to) : from_(from), to_(to) {
    dnnl::primitive_attr attr;
    reorder_ = dnnl::reorder(dnnl::reorder::primitive_desc(du::Engine(), from_, du::Engine(), to_, attr));
  }

  Status Run(const OpRunArgs& a) const override {
    return du::Guard(ACL_ERROR_RT_AICORE_EXCEPTION, "TransData", [&] {
      auto& strm = du::ThreadStream();
      memory src(from_, du::Engine(), const_cast<void*>(a.inputs[0]));
      memory dst(to_, du::Engine(), a.outputs[0]);
      reorder_.execute(strm, src, dst);
      strm.wait();
    });
  }

 private:
  memory::desc from_, to_;
  dnnl::reorder reorder_;
};

// TransData: x -> y, the same logical tensor in another format. x NCHW [N,C,H,W] (format NCHW or ND)
// with dst_format "NC1HWC0" -> y [N, ceil(C/c0), H, W, c0] (attr c0: 8 or 16, default the CPU's native
// one); x NC1HWC0 [N,C1,H,W,C0] with dst_format "NCHW" -> y [N, channels, H, W] (attr channels, default
// C1*C0; it must need all C1 blocks). The same format on both sides is a copy.
Status BuildTransData(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}));
  const TensorSpec& x = b.inputs[0];
  const bool from_blocked = IsBlocked(x);
  auto dst = DstFormat(b, from_blocked ? ACL_FORMAT_NCHW : ACL_FORMAT_NC1HWC0);
  if (!dst.ok()) return std::move(dst).status();
  const bool to_blocked = dst.value() == ACL_FORMAT_NC1HWC0;
  int64_t n, c, h, w, src_c0 = 0;
  if (from_blocked) {
    NPURT_RETURN_IF_ERROR(CheckBlocked(b, 0, x, x.dtype));
    n = x.dims[0];
    h = x.dims[2];
    w = x.dims[3];
    src_c0 = x.dims[4];
    auto ch = GetInt(*b.attrs, "channels", x.dims[1] * src_c0);
    if (!ch.ok()) return ch.status();
    c = ch.value();
    if (c <= (x.dims[1] - 1) * src_c0 || c > x.dims[1] * src_c0) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: channels {} do not fit {} ({} blocks of {})", b.type, c,
                 Describe(x), x.dims[1], src_c0);
    }
  } else {
    if (x.rank() != 4 || (x.format != ACL_FORMAT_NCHW && x.format != ACL_FORMAT_ND)) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x {} must be NCHW [N,C,H,W] or NC1HWC0", b.type, Describe(x));
    }
    n = x.dims[0];
    c = x.dims[1];
    h = x.dims[2];
    w = x.dims[3];
  }
  int64_t dst_c0 = 0;
  if (to_blocked) {
    auto c0 = BlockC0(b, src_c0 != 0 ? src_c0 : du::NativeC0());
    if (!c0.ok()) return c0.status();
    dst_c0 = c0.value();
    b.outputs = {TensorSpec{x.dtype, ACL_FORMAT_NC1HWC0, BlockedDims(n, c, h, w, dst_c0)}};
  } else {
    b.outputs = {TensorSpec{x.dtype, ACL_FORMAT_NCHW, {n, c, h, w}}};
  }
  if (!b.compile) return Status::Ok();
  const auto dt = du::ToDnnl(x.dtype);
  auto desc = [&](int64_t c0) {
    return c0 != 0 ? du::BlockedDesc(n, c, h, w, c0, dt) : memory::desc({n, c, h, w}, dt, memory::format_tag::nchw);
  };
  std::unique_ptr<Kernel> k;
  NPURT_RETURN_IF_ERROR(du::Guard(ACL_ERROR_OP_TYPE_NOT_MATCH, "TransData reorder", [&] {
    k = std::make_unique<TransDataKernel>(desc(src_c0), desc(dst_c0));
  }));
  b.kernel = std::move(k);
  return Status::Ok();
}

}  // namespace

void RegisterTransDataOps(OpTable& t) {
  t.Add({"TransData", 1, 1, &BuildTransData, false, "float32, float16, bfloat16",
         "x -> y in another format: NCHW [N,C,H,W] <-> NC1HWC0 [N,C1,H,W,C0] (C1 = ceil(C/C0), lanes past C "
         "zero); attrs dst_format (NCHW | NC1HWC0, default the other one), c0 (8 or 16, default the CPU's "
         "native block), channels (C, to NCHW; default C1*C0)"});
}

}  // namespace npurt::drivers::host
