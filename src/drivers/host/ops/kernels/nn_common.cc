#include "drivers/host/ops/kernels/nn_common.h"

#include <algorithm>

namespace npurt::drivers::host {

StatusOr<bool> ActivationLayout(const OpBuild& b, const TensorSpec& x) {
  const std::string def = x.format == ACL_FORMAT_NHWC ? "NHWC" : "NCHW";
  auto df = GetString(*b.attrs, "data_format", def);
  if (!df.ok()) return std::move(df).status();
  if (df.value() != "NCHW" && df.value() != "NHWC") {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: data_format '{}' is not supported; use NCHW or NHWC", b.type,
               df.value());
  }
  return df.value() == "NHWC";
}

Status CheckBlocked(const OpBuild& b, int input, const TensorSpec& s, int32_t dtype) {
  if (s.rank() != 5 || (s.dims[4] != 8 && s.dims[4] != 16) || s.dtype != dtype) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: input {} is {}; an NC1HWC0 input must be {} [N, C1, H, W, C0] with C0 8 or 16",
               b.type, input, Describe(s), DTypeName(dtype));
  }
  return Status::Ok();
}

StatusOr<int32_t> DstFormat(const OpBuild& b, int32_t def) {
  auto f = GetString(*b.attrs, "dst_format", FormatName(def));
  if (!f.ok()) return std::move(f).status();
  if (f.value() == "NCHW") return ACL_FORMAT_NCHW;
  if (f.value() == "NC1HWC0") return ACL_FORMAT_NC1HWC0;
  return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: dst_format '{}' is not supported; use NCHW or NC1HWC0", b.type, f.value());
}

StatusOr<int64_t> BlockC0(const OpBuild& b, int64_t def_c0) {
  auto c0 = GetInt(*b.attrs, "c0", def_c0);
  if (!c0.ok()) return c0.status();
  if (c0.value() != 8 && c0.value() != 16) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: c0 {} is not supported; use 8 or 16", b.type, c0.value());
  }
  return c0.value();
}

namespace {

StatusOr<std::pair<int64_t, int64_t>> HW(const OpBuild& b, bool nhwc, const char* name, int64_t def) {
  auto v = GetInts(*b.attrs, name, {});
  if (!v.ok()) return std::move(v).status();
  const auto& l = v.value();
  if (l.empty()) return std::make_pair(def, def);
  if (l.size() == 2) return std::make_pair(l[0], l[1]);
  if (l.size() == 4) return nhwc ? std::make_pair(l[1], l[2]) : std::make_pair(l[2], l[3]);
  return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute {} must have 2 or 4 values, not {}", b.type, name, l.size());
}

}  // namespace

StatusOr<Window> ReadWindow(const OpBuild& b, bool nhwc, const char* strides_attr, const char* dilations_attr,
                            const char* pads_attr, int64_t h, int64_t w, int64_t kh, int64_t kw) {
  Window win;
  auto s = HW(b, nhwc, strides_attr, 1);
  if (!s.ok()) return std::move(s).status();
  win.sh = s->first;
  win.sw = s->second;
  if (dilations_attr != nullptr) {
    auto d = HW(b, nhwc, dilations_attr, 1);
    if (!d.ok()) return std::move(d).status();
    win.dh = d->first;
    win.dw = d->second;
  }
  if (win.sh < 1 || win.sw < 1 || win.dh < 1 || win.dw < 1 || kh < 1 || kw < 1) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: strides, dilations and window sizes must be positive", b.type);
  }
  // Bounds that keep every size below in range (and oneDNN's own arithmetic: a pad of 2^31 crashed it).
  constexpr int64_t kMaxStep = int64_t{1} << 20;
  if (win.sh > kMaxStep || win.sw > kMaxStep || win.dh > kMaxStep || win.dw > kMaxStep || kh > kMaxStep ||
      kw > kMaxStep) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: strides, dilations and window sizes must be at most {}", b.type,
               kMaxStep);
  }
  const int64_t ekh = (kh - 1) * win.dh + 1, ekw = (kw - 1) * win.dw + 1;
  auto padding = GetString(*b.attrs, "padding", "");
  if (!padding.ok()) return std::move(padding).status();
  if (padding.value() == "SAME") {
    win.oh = (h + win.sh - 1) / win.sh;
    win.ow = (w + win.sw - 1) / win.sw;
    const int64_t ph = std::max<int64_t>(0, (win.oh - 1) * win.sh + ekh - h);
    const int64_t pw = std::max<int64_t>(0, (win.ow - 1) * win.sw + ekw - w);
    win.pt = ph / 2;
    win.pb = ph - win.pt;
    win.pl = pw / 2;
    win.pr = pw - win.pl;
    return win;
  }
  if (!padding.value().empty() && padding.value() != "VALID" && padding.value() != "CALCULATED") {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: padding '{}' is not supported; use SAME, VALID or pads", b.type,
               padding.value());
  }
  if (padding.value() != "VALID") {
    auto p = GetInts(*b.attrs, pads_attr, {0, 0, 0, 0});
    if (!p.ok()) return std::move(p).status();
    if (p->size() != 4) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute {} must have 4 values [top, bottom, left, right]",
                 b.type, pads_attr);
    }
    win.pt = (*p)[0];
    win.pb = (*p)[1];
    win.pl = (*p)[2];
    win.pr = (*p)[3];
    if (win.pt < 0 || win.pb < 0 || win.pl < 0 || win.pr < 0) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: pads must not be negative", b.type);
    }
    // A pad beyond the window's extent only adds outputs computed from padding alone: no model has one.
    if (win.pt > ekh || win.pb > ekh || win.pl > ekw || win.pr > ekw) {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: pads [{}, {}, {}, {}] exceed the window's extent {}x{}", b.type,
                 win.pt, win.pb, win.pl, win.pr, ekh, ekw);
    }
  }
  win.oh = (h + win.pt + win.pb - ekh) / win.sh + 1;
  win.ow = (w + win.pl + win.pr - ekw) / win.sw + 1;
  if (h + win.pt + win.pb < ekh || w + win.pl + win.pr < ekw || win.oh < 1 || win.ow < 1) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: window {}x{} does not fit the padded input {}x{}", b.type, ekh, ekw,
               h + win.pt + win.pb, w + win.pl + win.pr);
  }
  return win;
}

void RegisterNnOps(OpTable& t) {
  RegisterConvOps(t);
  RegisterPoolOps(t);
  RegisterNormOps(t);
  RegisterTransDataOps(t);
  RegisterAippOps(t);
}

}  // namespace npurt::drivers::host
