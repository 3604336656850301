// MaxPool, AvgPool and GlobalAveragePool: npurt's own kernels over NCHW or NHWC, every data type
// computed in float, parallel over (batch, channel) planes or output rows; and over fp32 NC1HWC0
// (nn_common.h), parallel over (batch, channel block) planes with the C0 lanes of a pixel side by side.
// A pool of zeros is zero, so the padding lanes stay zero without being told apart.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>

#include "drivers/host/ops/dnnl_util.h"
#include "drivers/host/ops/kernels/elem_io.h"
#include "drivers/host/ops/kernels/nn_common.h"

namespace npurt::drivers::host {
namespace {

struct PoolShape {
  int64_t n, c, h, w, kh, kw;
  Window win;
  bool nhwc, max, count_pad;
  int32_t dtype;
  int64_t c0 = 0;  // NC1HWC0 with this block (c is then C1); 0: NCHW or NHWC
};

// One (batch, channel block) plane of fp32 NC1HWC0. C0 is a template argument and the lane loops are marked
// simd so they compile to vector instructions (scalar, ResNet-50's MaxPool took 1 ms against ORT's 0.06 ms).
template <int64_t C0, bool kMax>
void PoolPlaneBlocked(const PoolShape& s, const float* xp, float* yp) {
  const Window& wn = s.win;
  for (int64_t oy = 0; oy < wn.oh; ++oy) {
    const int64_t y0 = std::max<int64_t>(oy * wn.sh - wn.pt, 0), y1 = std::min(oy * wn.sh - wn.pt + s.kh, s.h);
    for (int64_t ox = 0; ox < wn.ow; ++ox) {
      const int64_t x0 = std::max<int64_t>(ox * wn.sw - wn.pl, 0), x1 = std::min(ox * wn.sw - wn.pl + s.kw, s.w);
      float acc[C0];
      for (int64_t l = 0; l < C0; ++l) acc[l] = kMax ? -std::numeric_limits<float>::infinity() : 0.0f;
      for (int64_t iy = y0; iy < y1; ++iy) {
        for (int64_t ix = x0; ix < x1; ++ix) {
          const float* v = xp + (iy * s.w + ix) * C0;
          if constexpr (kMax) {
#pragma omp simd
            for (int64_t l = 0; l < C0; ++l) acc[l] = std::max(acc[l], v[l]);
          } else {
#pragma omp simd
            for (int64_t l = 0; l < C0; ++l) acc[l] += v[l];
          }
        }
      }
      float* o = yp + (oy * wn.ow + ox) * C0;
      if constexpr (kMax) {
        for (int64_t l = 0; l < C0; ++l) o[l] = acc[l];
      } else {
        const int64_t count = std::max<int64_t>((y1 - y0) * (x1 - x0), 1);
        const float inv = 1.0f / static_cast<float>(s.count_pad ? s.kh * s.kw : count);
        for (int64_t l = 0; l < C0; ++l) o[l] = acc[l] * inv;
      }
    }
  }
}

template <int64_t C0, bool kMax>
void RunPoolBlockedAs(const PoolShape& s, const float* x, float* y, int threads) {
  const Window& wn = s.win;
  const int64_t planes = s.n * s.c;
  const bool parallel = planes * wn.oh * wn.ow * s.kh * s.kw * C0 > kParallelGrain;
#pragma omp parallel for num_threads(threads) if (parallel) schedule(static)
  for (int64_t p = 0; p < planes; ++p) {
    PoolPlaneBlocked<C0, kMax>(s, x + p * s.h * s.w * C0, y + p * wn.oh * wn.ow * C0);
  }
}

// fp32 NC1HWC0: x [N, C1, H, W, C0] -> y [N, C1, OH, OW, C0]; C0 is 8 or 16 (BuildPool checks).
void RunPoolBlocked(const PoolShape& s, const float* x, float* y, int threads) {
  if (s.c0 == 16) {
    s.max ? RunPoolBlockedAs<16, true>(s, x, y, threads) : RunPoolBlockedAs<16, false>(s, x, y, threads);
  } else {
    s.max ? RunPoolBlockedAs<8, true>(s, x, y, threads) : RunPoolBlockedAs<8, false>(s, x, y, threads);
  }
}

template <typename Tag>
void RunPool(const PoolShape& s, const void* xv, void* yv, int threads) {
  using IO = Io<Tag>;
  using S = typename IO::S;
  const S* x = static_cast<const S*>(xv);
  S* y = static_cast<S*>(yv);
  const Window& wn = s.win;
  const int64_t planes = s.n * s.c;
  const bool parallel = planes * wn.oh * wn.ow * s.kh * s.kw > kParallelGrain;
#pragma omp parallel for num_threads(threads) if (parallel) schedule(static)
  for (int64_t p = 0; p < planes; ++p) {
    const int64_t ni = p / s.c, ci = p % s.c;
    for (int64_t oy = 0; oy < wn.oh; ++oy) {
      for (int64_t ox = 0; ox < wn.ow; ++ox) {
        float acc = s.max ? -std::numeric_limits<float>::infinity() : 0.0f;
        int64_t count = 0;
        for (int64_t ky = 0; ky < s.kh; ++ky) {
          const int64_t iy = oy * wn.sh - wn.pt + ky;
          if (iy < 0 || iy >= s.h) continue;
          for (int64_t kx = 0; kx < s.kw; ++kx) {
            const int64_t ix = ox * wn.sw - wn.pl + kx;
            if (ix < 0 || ix >= s.w) continue;
            const int64_t idx = s.nhwc ? ((ni * s.h + iy) * s.w + ix) * s.c + ci : ((ni * s.c + ci) * s.h + iy) * s.w + ix;
            const float v = static_cast<float>(IO::Ld(x[idx]));
            acc = s.max ? std::max(acc, v) : acc + v;
            ++count;
          }
        }
        if (!s.max) {
          const int64_t div = s.count_pad ? s.kh * s.kw : std::max<int64_t>(count, 1);
          acc /= static_cast<float>(div);
        }
        const int64_t o = s.nhwc ? ((ni * wn.oh + oy) * wn.ow + ox) * s.c + ci : ((ni * s.c + ci) * wn.oh + oy) * wn.ow + ox;
        y[o] = IO::St(static_cast<typename IO::C>(acc));
      }
    }
  }
}

// fp32 NC1HWC0 through oneDNN's pooling (jit kernels over nChw8c/nChw16c). The padding lanes are pooled as
// channels of their own: zeros in, zeros out. Null when oneDNN has no primitive for the window (RunPoolBlocked
// then runs).
struct BlockedPool {
  dnnl::pooling_v2_forward prim;
  dnnl::memory::desc src, dst, scratchpad;
};

std::unique_ptr<BlockedPool> BlockedPoolPrimitive(const PoolShape& s) {
  namespace du = dnnl_util;
  const Window& wn = s.win;
  const int64_t channels = s.c * s.c0;
  const auto f32 = dnnl::memory::data_type::f32;
  const auto alg = s.max ? dnnl::algorithm::pooling_max
                         : s.count_pad ? dnnl::algorithm::pooling_avg_include_padding
                                       : dnnl::algorithm::pooling_avg_exclude_padding;
  try {
    dnnl::pooling_v2_forward::desc d(dnnl::prop_kind::forward_inference, alg,
                                     du::BlockedDesc(s.n, channels, s.h, s.w, s.c0, f32),
                                     du::BlockedDesc(s.n, channels, wn.oh, wn.ow, s.c0, f32), {wn.sh, wn.sw},
                                     {s.kh, s.kw}, {0, 0}, {wn.pt, wn.pl}, {wn.pb, wn.pr});
    dnnl::primitive_attr attr;
    attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
    dnnl::pooling_v2_forward::primitive_desc pd(d, attr, du::Engine());
    // A reference kernel is slower than the loops below.
    if (std::string(pd.impl_info_str()).rfind("jit", 0) != 0) return nullptr;
    return std::make_unique<BlockedPool>(
        BlockedPool{dnnl::pooling_v2_forward(pd), pd.src_desc(), pd.dst_desc(), pd.scratchpad_desc()});
  } catch (const dnnl::error&) {
    return nullptr;
  }
}

class PoolKernel final : public Kernel {
 public:
  explicit PoolKernel(const PoolShape& s) : s_(s) {
    if (s_.c0 != 0) onednn_ = BlockedPoolPrimitive(s_);
  }
  Status Run(const OpRunArgs& a) const override {
    if (onednn_ != nullptr) {
      std::unordered_map<int, dnnl::memory> args{
          {DNNL_ARG_SRC, dnnl::memory(onednn_->src, dnnl_util::Engine(), const_cast<void*>(a.inputs[0]))},
          {DNNL_ARG_DST, dnnl::memory(onednn_->dst, dnnl_util::Engine(), a.outputs[0])}};
      return dnnl_util::Execute(onednn_->prim, onednn_->scratchpad, args, "pooling");
    }
    if (s_.c0 != 0) {
      RunPoolBlocked(s_, static_cast<const float*>(a.inputs[0]), static_cast<float*>(a.outputs[0]), a.threads);
      return Status::Ok();
    }
    DispatchFloat(s_.dtype, [&]<typename Tag>() { RunPool<Tag>(s_, a.inputs[0], a.outputs[0], a.threads); });
    return Status::Ok();
  }

 private:
  PoolShape s_;
  std::unique_ptr<BlockedPool> onednn_;  // fp32 NC1HWC0 on oneDNN (BlockedPoolPrimitive), else null
};

// MaxPool / AvgPool: x (4-D) -> y. Attrs ksize (4 values in data_format order or 2), strides,
// padding ("SAME" | "VALID") or pads [top, bottom, left, right], data_format, and for AvgPool
// exclusive (bool, default true: padding is not counted). An fp32 NC1HWC0 x gives an NC1HWC0 y.
Status BuildPool(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}));
  const TensorSpec& x = b.inputs[0];
  const bool blocked = IsBlocked(x);
  if (blocked) NPURT_RETURN_IF_ERROR(CheckBlocked(b, 0, x, ACL_FLOAT));
  if (!blocked && x.rank() != 4) return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x {} must be 4-D", b.type, DimsString(x.dims));
  auto layout = ActivationLayout(b, x);
  if (!layout.ok()) return std::move(layout).status();
  PoolShape s{};
  s.nhwc = layout.value();
  s.dtype = x.dtype;
  s.max = b.type == "MaxPool";
  s.n = x.dims[0];
  s.c = s.nhwc ? x.dims[3] : x.dims[1];
  s.h = s.nhwc ? x.dims[1] : x.dims[2];
  s.w = s.nhwc ? x.dims[2] : x.dims[3];
  if (blocked) {
    if (s.nhwc) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: an NC1HWC0 x takes data_format NCHW", b.type);
    s.c0 = x.dims[4];
  }
  if (b.type == "GlobalAveragePool") {
    s.kh = s.h;
    s.kw = s.w;
    s.win.oh = s.win.ow = 1;
  } else {
    auto k = GetInts(*b.attrs, "ksize", {});
    if (!k.ok()) return std::move(k).status();
    if (k->size() == 2) {
      s.kh = (*k)[0];
      s.kw = (*k)[1];
    } else if (k->size() == 4) {
      s.kh = s.nhwc ? (*k)[1] : (*k)[2];
      s.kw = s.nhwc ? (*k)[2] : (*k)[3];
    } else {
      return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute ksize must have 2 or 4 values", b.type);
    }
    auto win = ReadWindow(b, s.nhwc, "strides", nullptr, "pads", s.h, s.w, s.kh, s.kw);
    if (!win.ok()) return std::move(win).status();
    s.win = win.value();
    auto excl = GetBool(*b.attrs, "exclusive", true);
    if (!excl.ok()) return excl.status();
    s.count_pad = !excl.value();
  }
  std::vector<int64_t> ydims = s.nhwc ? std::vector<int64_t>{s.n, s.win.oh, s.win.ow, s.c}
                                      : std::vector<int64_t>{s.n, s.c, s.win.oh, s.win.ow};
  if (blocked) ydims.push_back(s.c0);  // [N, C1, OH, OW, C0]
  TensorSpec y{x.dtype, x.format, std::move(ydims)};
  b.outputs = {y};
  if (b.compile) b.kernel = std::make_unique<PoolKernel>(s);
  return Status::Ok();
}

}  // namespace

void RegisterPoolOps(OpTable& t) {
  const char* f = "float32, float16, bfloat16";
  t.Add({"MaxPool", 1, 1, &BuildPool, false, f, "x -> y; attrs ksize, strides, padding or pads, data_format"});
  t.Add({"AvgPool", 1, 1, &BuildPool, false, f,
         "x -> y; attrs ksize, strides, padding or pads, data_format, exclusive (default true)"});
  t.Add({"GlobalAveragePool", 1, 1, &BuildPool, false, f, "x [N,C,H,W] -> y [N,C,1,1] (or NHWC)"});
}

}  // namespace npurt::drivers::host
