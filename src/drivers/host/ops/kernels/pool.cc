// MaxPool, AvgPool and GlobalAveragePool: npurt's own kernels over NCHW or NHWC, every data type
// computed in float, parallel over (batch, channel) planes or output rows; and over fp32 NC1HWC0
// (nn_common.h), parallel over (batch, channel block) planes with the C0 lanes of a pixel side by side.
// A pool of zeros is zero, so the padding lanes stay zero without being told apart.
#include <algorithm>
#include <limits>

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

// fp32 NC1HWC0: x [N, C1, H, W, C0] -> y [N, C1, OH, OW, C0].
void RunPoolBlocked(const PoolShape& s, const float* x, float* y, int threads) {
  const Window& wn = s.win;
  const int64_t planes = s.n * s.c, c0 = s.c0;
  const bool parallel = planes * wn.oh * wn.ow * s.kh * s.kw * c0 > kParallelGrain;
#pragma omp parallel for num_threads(threads) if (parallel) schedule(static)
  for (int64_t p = 0; p < planes; ++p) {
    const float* xp = x + p * s.h * s.w * c0;
    float* yp = y + p * wn.oh * wn.ow * c0;
    for (int64_t oy = 0; oy < wn.oh; ++oy) {
      for (int64_t ox = 0; ox < wn.ow; ++ox) {
        float acc[16];
        for (int64_t l = 0; l < c0; ++l) acc[l] = s.max ? -std::numeric_limits<float>::infinity() : 0.0f;
        int64_t count = 0;
        for (int64_t ky = 0; ky < s.kh; ++ky) {
          const int64_t iy = oy * wn.sh - wn.pt + ky;
          if (iy < 0 || iy >= s.h) continue;
          for (int64_t kx = 0; kx < s.kw; ++kx) {
            const int64_t ix = ox * wn.sw - wn.pl + kx;
            if (ix < 0 || ix >= s.w) continue;
            const float* v = xp + (iy * s.w + ix) * c0;
            if (s.max) {
              for (int64_t l = 0; l < c0; ++l) acc[l] = std::max(acc[l], v[l]);
            } else {
              for (int64_t l = 0; l < c0; ++l) acc[l] += v[l];
            }
            ++count;
          }
        }
        float* o = yp + (oy * wn.ow + ox) * c0;
        if (s.max) {
          for (int64_t l = 0; l < c0; ++l) o[l] = acc[l];
        } else {
          const int64_t div = s.count_pad ? s.kh * s.kw : std::max<int64_t>(count, 1);
          const float inv = 1.0f / static_cast<float>(div);
          for (int64_t l = 0; l < c0; ++l) o[l] = acc[l] * inv;
        }
      }
    }
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

class PoolKernel final : public Kernel {
 public:
  explicit PoolKernel(const PoolShape& s) : s_(s) {}
  Status Run(const OpRunArgs& a) const override {
    if (s_.c0 != 0) {
      RunPoolBlocked(s_, static_cast<const float*>(a.inputs[0]), static_cast<float*>(a.outputs[0]), a.threads);
      return Status::Ok();
    }
    DispatchFloat(s_.dtype, [&]<typename Tag>() { RunPool<Tag>(s_, a.inputs[0], a.outputs[0], a.threads); });
    return Status::Ok();
  }

 private:
  PoolShape s_;
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
