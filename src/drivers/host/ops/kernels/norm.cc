// Softmax, LogSoftmax, LayerNorm and BatchNorm (inference): npurt's own kernels. Each reduces along
// one axis or a trailing block with double accumulators, parallel over independent rows.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "drivers/host/ops/kernels/elem_io.h"
#include "drivers/host/ops/kernels/nn_common.h"

namespace npurt::drivers::host {
namespace {

// ---------------------------------------------------------------------------------------- softmax
struct SoftmaxShape {
  int64_t outer, axis, inner;
  bool log;
  int32_t dtype;
};

template <typename Tag>
void RunSoftmax(const SoftmaxShape& s, const void* xv, void* yv, int threads) {
  using IO = Io<Tag>;
  using S = typename IO::S;
  const S* x = static_cast<const S*>(xv);
  S* y = static_cast<S*>(yv);
  const int64_t rows = s.outer * s.inner;
#pragma omp parallel for num_threads(threads) if (rows * s.axis > kParallelGrain) schedule(static)
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t o = r / s.inner, i = r % s.inner;
    const S* xr = x + o * s.axis * s.inner + i;
    S* yr = y + o * s.axis * s.inner + i;
    float mx = -std::numeric_limits<float>::infinity();
    for (int64_t k = 0; k < s.axis; ++k) mx = std::max(mx, static_cast<float>(IO::Ld(xr[k * s.inner])));
    double sum = 0.0;
    for (int64_t k = 0; k < s.axis; ++k) sum += std::exp(static_cast<double>(IO::Ld(xr[k * s.inner])) - mx);
    const double lsum = std::log(sum);
    for (int64_t k = 0; k < s.axis; ++k) {
      const double v = static_cast<double>(IO::Ld(xr[k * s.inner])) - mx;
      yr[k * s.inner] = IO::St(static_cast<float>(s.log ? v - lsum : std::exp(v) / sum));
    }
  }
}

class SoftmaxKernel final : public Kernel {
 public:
  explicit SoftmaxKernel(const SoftmaxShape& s) : s_(s) {}
  Status Run(const OpRunArgs& a) const override {
    DispatchFloat(s_.dtype, [&]<typename Tag>() { RunSoftmax<Tag>(s_, a.inputs[0], a.outputs[0], a.threads); });
    return Status::Ok();
  }

 private:
  SoftmaxShape s_;
};

// Softmax / LogSoftmax: x -> y along one axis: attr axes (list with one value, SoftmaxV2 style) or
// axis (int); default the last axis.
Status BuildSoftmax(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}));
  const TensorSpec& x = b.inputs[0];
  int64_t axis = -1;
  if (Has(*b.attrs, "axes")) {
    auto v = GetInts(*b.attrs, "axes", {});
    if (!v.ok()) return std::move(v).status();
    if (v->size() != 1) return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: attribute axes must hold one axis", b.type);
    axis = (*v)[0];
  } else {
    auto v = GetInt(*b.attrs, "axis", -1);
    if (!v.ok()) return std::move(v).status();
    axis = v.value();
  }
  auto ax = NormAxis(b, axis, x.rank());
  if (!ax.ok()) return std::move(ax).status();
  SoftmaxShape s{1, 1, 1, b.type == "LogSoftmax" || b.type == "LogSoftmaxV2", x.dtype};
  for (size_t k = 0; k < x.rank(); ++k) {
    if (static_cast<int64_t>(k) < ax.value()) s.outer *= x.dims[k];
    else if (static_cast<int64_t>(k) == ax.value()) s.axis = x.dims[k];
    else s.inner *= x.dims[k];
  }
  b.outputs = {x};
  if (b.compile) b.kernel = std::make_unique<SoftmaxKernel>(s);
  return Status::Ok();
}

// -------------------------------------------------------------------------------------- layernorm
struct LayerNormShape {
  int64_t rows, cols;  // rows normalized independently, each of `cols` elements
  int64_t params;      // elements of gamma/beta (they repeat over the normalized block)
  float eps;
  int32_t dtype;
  int outputs;
  bool rstd;  // third output: 1/sqrt(var + eps) instead of the variance (aclnnLayerNorm)
};

template <typename Tag>
void RunLayerNorm(const LayerNormShape& s, const OpRunArgs& a) {
  using IO = Io<Tag>;
  using S = typename IO::S;
  const S* x = static_cast<const S*>(a.inputs[0]);
  const S* g = static_cast<const S*>(a.inputs[1]);
  const S* be = static_cast<const S*>(a.inputs[2]);
  S* y = static_cast<S*>(a.outputs[0]);
  S* mean_out = s.outputs > 1 ? static_cast<S*>(a.outputs[1]) : nullptr;
  S* var_out = s.outputs > 2 ? static_cast<S*>(a.outputs[2]) : nullptr;
#pragma omp parallel for num_threads(a.threads) if (s.rows * s.cols > kParallelGrain) schedule(static)
  for (int64_t r = 0; r < s.rows; ++r) {
    const S* xr = x + r * s.cols;
    double sum = 0.0, sq = 0.0;
    for (int64_t c = 0; c < s.cols; ++c) sum += static_cast<double>(IO::Ld(xr[c]));
    const double mean = sum / static_cast<double>(s.cols);
    for (int64_t c = 0; c < s.cols; ++c) {
      const double d = static_cast<double>(IO::Ld(xr[c])) - mean;
      sq += d * d;
    }
    const double var = sq / static_cast<double>(s.cols);
    const double inv = 1.0 / std::sqrt(var + s.eps);
    for (int64_t c = 0; c < s.cols; ++c) {
      const int64_t p = c % s.params;
      const double v = (static_cast<double>(IO::Ld(xr[c])) - mean) * inv * static_cast<double>(IO::Ld(g[p])) +
                       static_cast<double>(IO::Ld(be[p]));
      y[r * s.cols + c] = IO::St(static_cast<float>(v));
    }
    if (mean_out) mean_out[r] = IO::St(static_cast<float>(mean));
    if (var_out) var_out[r] = IO::St(static_cast<float>(s.rstd ? inv : var));
  }
}

class LayerNormKernel final : public Kernel {
 public:
  explicit LayerNormKernel(const LayerNormShape& s) : s_(s) {}
  Status Run(const OpRunArgs& a) const override {
    DispatchFloat(s_.dtype, [&]<typename Tag>() { RunLayerNorm<Tag>(s_, a); });
    return Status::Ok();
  }

 private:
  LayerNormShape s_;
};

// LayerNorm: x, gamma, beta -> y [, mean, variance]. Attrs begin_norm_axis (default -1: the last axis),
// begin_params_axis (default = begin_norm_axis), epsilon (default 1e-5). gamma/beta have the shape of
// x's dims from begin_params_axis on; mean/variance have x's shape with the normalized dims set to 1.
Status BuildLayerNorm(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}));
  NPURT_RETURN_IF_ERROR(SameDType(b, 0, 1));
  NPURT_RETURN_IF_ERROR(SameDType(b, 0, 2));
  const TensorSpec& x = b.inputs[0];
  if (x.rank() == 0) return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x must have at least one dim", b.type);
  auto bna = GetInt(*b.attrs, "begin_norm_axis", -1);
  if (!bna.ok()) return bna.status();
  auto na = NormAxis(b, bna.value(), x.rank());
  if (!na.ok()) return std::move(na).status();
  auto bpa = GetInt(*b.attrs, "begin_params_axis", na.value());
  if (!bpa.ok()) return bpa.status();
  auto pa = NormAxis(b, bpa.value(), x.rank());
  if (!pa.ok()) return std::move(pa).status();
  if (pa.value() < na.value()) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: begin_params_axis {} is before begin_norm_axis {}", b.type,
               pa.value(), na.value());
  }
  auto eps = GetFloat(*b.attrs, "epsilon", 1e-5f);
  if (!eps.ok()) return eps.status();
  LayerNormShape s{};
  s.rows = s.cols = s.params = 1;
  std::vector<int64_t> stat_dims = x.dims, param_dims;
  for (size_t k = 0; k < x.rank(); ++k) {
    if (static_cast<int64_t>(k) < na.value()) {
      s.rows *= x.dims[k];
    } else {
      s.cols *= x.dims[k];
      stat_dims[k] = 1;
    }
    if (static_cast<int64_t>(k) >= pa.value()) {
      s.params *= x.dims[k];
      param_dims.push_back(x.dims[k]);
    }
  }
  for (int i = 1; i <= 2; ++i) {
    if (b.inputs[i].numel() != s.params) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: {} {} must have {} elements (x dims from axis {})", b.type,
                 i == 1 ? "gamma" : "beta", DimsString(b.inputs[i].dims), s.params, pa.value());
    }
  }
  s.eps = eps.value();
  s.dtype = x.dtype;
  auto rstd = GetBool(*b.attrs, "output_rstd", false);
  if (!rstd.ok()) return rstd.status();
  s.rstd = rstd.value();
  const size_t nout = std::clamp<size_t>(b.requested.size(), 1, 3);
  s.outputs = static_cast<int>(nout);
  b.outputs = {x};
  for (size_t i = 1; i < nout; ++i) b.outputs.push_back(TensorSpec{x.dtype, x.format, stat_dims});
  if (b.compile) b.kernel = std::make_unique<LayerNormKernel>(s);
  return Status::Ok();
}

// -------------------------------------------------------------------------------------- batchnorm
struct BatchNormShape {
  int64_t n, c, spatial;
  bool nhwc;
  float eps;
  int32_t dtype, param_dtype;
  int outputs;
};

template <typename Tag>
void RunBatchNorm(const BatchNormShape& s, const OpRunArgs& a) {
  using IO = Io<Tag>;
  using S = typename IO::S;
  const S* x = static_cast<const S*>(a.inputs[0]);
  S* y = static_cast<S*>(a.outputs[0]);
  std::vector<float> scale(s.c), shift(s.c);
  for (int64_t c = 0; c < s.c; ++c) {
    const double g = LoadAsDouble(a.inputs[1], s.param_dtype, c), o = LoadAsDouble(a.inputs[2], s.param_dtype, c);
    const double m = LoadAsDouble(a.inputs[3], s.param_dtype, c), v = LoadAsDouble(a.inputs[4], s.param_dtype, c);
    const double inv = g / std::sqrt(v + s.eps);
    scale[c] = static_cast<float>(inv);
    shift[c] = static_cast<float>(o - m * inv);
  }
  const int64_t total = s.n * s.c * s.spatial;
#pragma omp parallel for num_threads(a.threads) if (total > kParallelGrain) schedule(static)
  for (int64_t i = 0; i < total; ++i) {
    const int64_t c = s.nhwc ? i % s.c : (i / s.spatial) % s.c;
    y[i] = IO::St(static_cast<typename IO::C>(static_cast<float>(IO::Ld(x[i])) * scale[c] + shift[c]));
  }
  // Extra outputs (batch_mean, batch_variance, reserve_space_1/2) echo the running statistics.
  const size_t pbytes = static_cast<size_t>(s.c) * DTypeSize(s.param_dtype);
  for (int i = 1; i < s.outputs; ++i) std::memcpy(a.outputs[i], a.inputs[(i - 1) % 2 + 3], pbytes);
}

class BatchNormKernel final : public Kernel {
 public:
  explicit BatchNormKernel(const BatchNormShape& s) : s_(s) {}
  Status Run(const OpRunArgs& a) const override {
    DispatchFloat(s_.dtype, [&]<typename Tag>() { RunBatchNorm<Tag>(s_, a); });
    return Status::Ok();
  }

 private:
  BatchNormShape s_;
};

// BatchNorm (inference): x, scale, offset, mean, variance -> y [, batch_mean, batch_variance,
// reserve_space_1, reserve_space_2]. Attrs epsilon (default 1e-4), data_format, is_training (must be
// false).
Status BuildBatchNorm(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}));
  const TensorSpec& x = b.inputs[0];
  if (x.rank() < 2) return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: x must be at least 2-D", b.type);
  auto training = GetBool(*b.attrs, "is_training", false);
  if (!training.ok()) return training.status();
  if (training.value()) {
    return Err(ACL_ERROR_OP_ATTR_NOT_MATCH, "{}: is_training=true is not supported (inference only)", b.type);
  }
  auto layout = ActivationLayout(b, x);
  if (!layout.ok()) return std::move(layout).status();
  auto eps = GetFloat(*b.attrs, "epsilon", 1e-4f);
  if (!eps.ok()) return eps.status();
  BatchNormShape s{};
  s.nhwc = layout.value() && x.rank() == 4;
  s.n = x.dims[0];
  s.c = s.nhwc ? x.dims[3] : x.dims[1];
  s.spatial = x.numel() / std::max<int64_t>(1, s.n * s.c);
  s.eps = eps.value();
  s.dtype = x.dtype;
  s.param_dtype = b.inputs[1].dtype;
  for (int i = 1; i <= 4; ++i) {
    if (b.inputs[i].numel() != s.c || b.inputs[i].dtype != s.param_dtype ||
        (s.param_dtype != ACL_FLOAT && s.param_dtype != x.dtype)) {
      return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: scale, offset, mean and variance must be {} values of float32 "
                 "(or x's type); input {} is {}", b.type, s.c, i, Describe(b.inputs[i]));
    }
  }
  const size_t nout = std::clamp<size_t>(b.requested.size(), 1, 5);
  s.outputs = static_cast<int>(nout);
  b.outputs = {x};
  for (size_t i = 1; i < nout; ++i) b.outputs.push_back(b.inputs[1]);
  if (b.compile) b.kernel = std::make_unique<BatchNormKernel>(s);
  return Status::Ok();
}

}  // namespace

void RegisterNormOps(OpTable& t) {
  const char* f = "float32, float16, bfloat16";
  t.Add({"Softmax", 1, 1, &BuildSoftmax, false, f, "x -> y; attr axes ([axis]) or axis (default -1)"});
  t.Add({"LogSoftmax", 1, 1, &BuildSoftmax, false, f, "x -> y; attr axes ([axis]) or axis (default -1)"});
  t.Alias("SoftmaxV2", "Softmax");
  t.Alias("LogSoftmaxV2", "LogSoftmax");
  t.Add({"LayerNorm", 3, 3, &BuildLayerNorm, false, f,
         "x, gamma, beta -> y [, mean, variance]; attrs begin_norm_axis, begin_params_axis, epsilon, output_rstd"});
  t.Add({"BatchNorm", 5, 5, &BuildBatchNorm, false, f,
         "x, scale, offset, mean, variance -> y [, 4 statistics]; attrs epsilon, data_format (inference)"});
}

}  // namespace npurt::drivers::host
