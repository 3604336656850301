// ReduceSum, ReduceMean, ReduceMax: npurt's own kernels. The reduced axes are moved (logically) to the
// inside, so each output element is one strided walk; accumulation in double (int64 for integers).
#include <algorithm>
#include <cmath>
#include <limits>

#include "drivers/host/ops/kernels/elem_io.h"
#include "drivers/host/ops/host_op.h"

namespace npurt::drivers::host {
namespace {

enum class ReduceKind { kSum, kMean, kMax };

struct ReducePlan {
  std::vector<int64_t> kept_size, kept_stride;  // output iteration space (input strides)
  std::vector<int64_t> red_size, red_stride;    // reduced space
  int64_t out_n = 1, red_n = 1;
};

template <typename Tag>
void RunReduce(ReduceKind kind, const ReducePlan& p, const void* xv, void* yv, int threads) {
  using IO = Io<Tag>;
  using S = typename IO::S;
  using C = typename IO::C;
  const S* x = static_cast<const S*>(xv);
  S* y = static_cast<S*>(yv);
  const size_t nk = p.kept_size.size(), nr = p.red_size.size();
#pragma omp parallel for num_threads(threads) if (p.out_n * p.red_n > kParallelGrain) schedule(static)
  for (int64_t o = 0; o < p.out_n; ++o) {
    int64_t rem = o, base = 0;
    for (size_t k = nk; k-- > 0;) {
      base += (rem % p.kept_size[k]) * p.kept_stride[k];
      rem /= p.kept_size[k];
    }
    using Acc = std::conditional_t<std::is_integral_v<C>, int64_t, double>;
    Acc acc = kind == ReduceKind::kMax ? std::numeric_limits<Acc>::lowest() : Acc{0};
    bool nan = false;
    for (int64_t r = 0; r < p.red_n; ++r) {
      int64_t rr = r, off = base;
      for (size_t k = nr; k-- > 0;) {
        off += (rr % p.red_size[k]) * p.red_stride[k];
        rr /= p.red_size[k];
      }
      const Acc v = static_cast<Acc>(IO::Ld(x[off]));
      if constexpr (!std::is_integral_v<Acc>) nan |= std::isnan(v);
      acc = kind == ReduceKind::kMax ? std::max(acc, v) : acc + v;
    }
    if (kind == ReduceKind::kMean && p.red_n > 0) acc = acc / static_cast<Acc>(p.red_n);
    if constexpr (!std::is_integral_v<Acc>) {
      if (nan) acc = std::numeric_limits<Acc>::quiet_NaN();
    }
    y[o] = IO::St(static_cast<C>(acc));
  }
}

class ReduceKernel final : public Kernel {
 public:
  ReduceKernel(ReduceKind kind, int32_t dtype, ReducePlan plan) : kind_(kind), dtype_(dtype), plan_(std::move(plan)) {}
  Status Run(const OpRunArgs& a) const override {
    DispatchNumeric(dtype_, [&]<typename Tag>() { RunReduce<Tag>(kind_, plan_, a.inputs[0], a.outputs[0], a.threads); });
    return Status::Ok();
  }

 private:
  ReduceKind kind_;
  int32_t dtype_;
  ReducePlan plan_;
};

template <ReduceKind KIND>
Status BuildReduce(OpBuild& b) {
  NPURT_RETURN_IF_ERROR(ExpectDTypes(b, 0, {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32, ACL_INT64}));
  const TensorSpec& x = b.inputs[0];
  auto axes = GetInts(*b.attrs, "axes", {});
  if (!axes.ok()) return std::move(axes).status();
  auto keep = GetBool(*b.attrs, "keep_dims", false);
  if (!keep.ok()) return keep.status();
  std::vector<bool> reduce(x.rank(), axes->empty());
  for (int64_t a : axes.value()) {
    auto n = NormAxis(b, a, x.rank());
    if (!n.ok()) return std::move(n).status();
    if (x.rank() > 0) reduce[n.value()] = true;
  }
  ReducePlan p;
  std::vector<int64_t> stride(x.rank(), 1), out_dims;
  for (size_t k = x.rank(); k-- > 1;) stride[k - 1] = stride[k] * x.dims[k];
  for (size_t k = 0; k < x.rank(); ++k) {
    if (reduce[k]) {
      p.red_size.push_back(x.dims[k]);
      p.red_stride.push_back(stride[k]);
      p.red_n *= x.dims[k];
      if (keep.value()) out_dims.push_back(1);
    } else {
      p.kept_size.push_back(x.dims[k]);
      p.kept_stride.push_back(stride[k]);
      p.out_n *= x.dims[k];
      out_dims.push_back(x.dims[k]);
    }
  }
  if (KIND == ReduceKind::kMax && p.red_n == 0) {
    return Err(ACL_ERROR_OP_INPUT_NOT_MATCH, "{}: cannot take the maximum over an empty axis", b.type);
  }
  b.outputs = {TensorSpec{x.dtype, RequestedFormat(b, 0, x.format), out_dims}};
  if (b.compile) b.kernel = std::make_unique<ReduceKernel>(KIND, x.dtype, std::move(p));
  return Status::Ok();
}

}  // namespace

void RegisterReduceOps(OpTable& t) {
  const char* dts = "float32, float16, bfloat16, int32, int64";
  const char* doc = "x -> y; attrs axes (list; empty = all), keep_dims (default false)";
  t.Add({"ReduceSum", 1, 1, &BuildReduce<ReduceKind::kSum>, false, dts, doc});
  t.Add({"ReduceMean", 1, 1, &BuildReduce<ReduceKind::kMean>, false, dts, doc});
  t.Add({"ReduceMax", 1, 1, &BuildReduce<ReduceKind::kMax>, false, dts, doc});
  t.Alias("ReduceSumD", "ReduceSum");
  t.Alias("ReduceMeanD", "ReduceMean");
  t.Alias("ReduceMaxD", "ReduceMax");
}

}  // namespace npurt::drivers::host
