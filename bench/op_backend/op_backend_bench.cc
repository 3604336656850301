// The operator backend as a model compiles it (core::BuildOperator, then core::RunOperatorNow with both
// cores, no stream): what constant weights and fused post-ops save per run. The npurt variants of one
// workload run side by side, so the ratios come from one run:
//   conv_c256_runtime_w_us      Conv2D 3x3 256->256 14x14 N=1 NCHW, the filter a runtime input (reordered
//                               into oneDNN's blocked layout on every run, as aclop does)
//   conv_c256_const_w_us        the same with the filter constant (reordered once, at build)
//   conv_c256_relu_fused_us     constant filter, post_ops relu
//   conv_c256_relu_separate_us  constant filter, then a separate Relu operator
//   conv_c256_add_relu_fused_us    constant filter, post_ops add, relu (a ResNet block's tail)
//   conv_c256_add_relu_separate_us constant filter, then separate Add and Relu operators
//   conv_c256_nhwc_runtime_w_us / conv_c256_nhwc_const_w_us  the NHWC convolution, filter runtime / constant
//   fc_2048x1000_runtime_w_us / fc_2048x1000_const_w_us  MatMul 1x2048 by 2048x1000 with bias (ResNet's
//                               classifier), B a runtime input / constant (packed once for oneDNN's brgemm)
//   pair_<comparison>           the comparisons above as A/B pairs in one loop (counters a_p50_ns, b_p50_ns,
//                               ratio_p50 = median of the per-iteration ratios): the robust figure on a
//                               shared machine, where back-to-back benchmarks see different load
// It links the static runtime (constant inputs are not part of the ACL API) and Google Benchmark's main.
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/bench_util.h"
#include "core/operators.h"

namespace npurt_bench {
namespace {

using npurt::AttrMap;
using npurt::TensorSpec;

struct Tensor {
  TensorSpec spec;
  std::vector<float> data;
};

Tensor RandomTensor(std::vector<int64_t> dims, int32_t format, uint32_t seed) {
  Tensor t{TensorSpec{ACL_FLOAT, format, std::move(dims)}, {}};
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  t.data.resize(static_cast<size_t>(t.spec.numel()));
  for (float& v : t.data) v = u(rng);
  return t;
}

// One compiled operator with its buffers.
struct Op {
  std::shared_ptr<const npurt::core::OperatorProgram> program;
  std::vector<const void*> inputs;
  std::vector<float> output;
  void* out = nullptr;

  void Run() {
    npurt::Status st = npurt::core::RunOperatorNow(*program, inputs.data(), static_cast<uint32_t>(inputs.size()),
                                                   &out, 1, 2, "bench");
    if (!st.ok()) {
      std::fprintf(stderr, "run failed: %s\n", st.message().c_str());
      std::abort();
    }
  }
};

// Compiles `type` on `inputs`; `constant[i]` marks the inputs passed as constants.
Op Compile(const char* type, const std::vector<const Tensor*>& inputs, const AttrMap& attrs,
           const std::vector<bool>& constant = {}) {
  std::vector<TensorSpec> specs, requested;
  std::vector<const void*> constants;
  Op op;
  for (size_t i = 0; i < inputs.size(); ++i) {
    specs.push_back(inputs[i]->spec);
    op.inputs.push_back(inputs[i]->data.data());
    constants.push_back(i < constant.size() && constant[i] ? inputs[i]->data.data() : nullptr);
  }
  npurt::core::OperatorCall call;
  call.type = type;
  call.inputs = &specs;
  call.requested = &requested;
  call.attrs = &attrs;
  call.constants = &constants;
  auto built = npurt::core::BuildOperator(call);
  if (!built.ok()) {
    std::fprintf(stderr, "%s: %s\n", type, built.status().message().c_str());
    std::abort();
  }
  op.program = built->program;
  op.output.resize(static_cast<size_t>(built->outputs[0].numel()));
  op.out = op.output.data();
  return op;
}

// Times runs of `ops` one after another (each consuming the previous one's output where wired so).
void Time(benchmark::State& state, std::vector<Op*> ops) {
  for (Op* op : ops) op->Run();  // warm up (first touch of scratch)
  Sampler sampler(state);
  for (auto _ : state) {
    const uint64_t t0 = NowNs();
    for (Op* op : ops) op->Run();
    sampler.Add(NowNs() - t0);
  }
}

uint64_t TimeOnce(const std::vector<Op*>& ops) {
  const uint64_t t0 = NowNs();
  for (Op* op : ops) op->Run();
  return NowNs() - t0;
}

double Median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// A/B in one loop: each iteration runs `a` and `b` once (which goes first alternates) and keeps the ratio
// of the pair, so that load from elsewhere on the machine moves both alike. Counters: a_p50_ns, b_p50_ns
// and ratio_p50 (the median of the per-iteration ratios a / b).
void TimePair(benchmark::State& state, const std::vector<Op*>& a, const std::vector<Op*>& b) {
  TimeOnce(a);
  TimeOnce(b);
  std::vector<double> ta, tb, ratio;
  bool a_first = true;
  for (auto _ : state) {
    uint64_t da = 0, db = 0;
    if (a_first) {
      da = TimeOnce(a);
      db = TimeOnce(b);
    } else {
      db = TimeOnce(b);
      da = TimeOnce(a);
    }
    a_first = !a_first;
    ta.push_back(static_cast<double>(da));
    tb.push_back(static_cast<double>(db));
    ratio.push_back(static_cast<double>(da) / static_cast<double>(db));
    state.SetIterationTime(static_cast<double>(da + db) * 1e-9);
  }
  if (ratio.empty()) return;
  state.counters["a_p50_ns"] = Median(ta);
  state.counters["b_p50_ns"] = Median(tb);
  state.counters["ratio_p50"] = Median(ratio);
}

constexpr int64_t kC = 256, kHW = 14;

struct ConvSetup {
  Tensor x, f, bias, residual;
  AttrMap attrs;
  explicit ConvSetup(bool nhwc)
      : x(RandomTensor(nhwc ? std::vector<int64_t>{1, kHW, kHW, kC} : std::vector<int64_t>{1, kC, kHW, kHW},
                       nhwc ? ACL_FORMAT_NHWC : ACL_FORMAT_NCHW, 1)),
        f(RandomTensor({kC, kC, 3, 3}, ACL_FORMAT_NCHW, 2)),
        bias(RandomTensor({kC}, ACL_FORMAT_ND, 3)),
        residual(RandomTensor(x.spec.dims, x.spec.format, 4)) {
    attrs["pads"] = std::vector<int64_t>{1, 1, 1, 1};
    attrs["data_format"] = std::string(nhwc ? "NHWC" : "NCHW");
  }
  AttrMap With(std::vector<std::string> post) const {
    AttrMap a = attrs;
    a["post_ops"] = std::move(post);
    return a;
  }
};

const std::vector<bool> kConstFilter = {false, true, false, false};

void BM_conv_runtime_w(benchmark::State& state) {
  ConvSetup s(false);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs);
  Time(state, {&conv});
}

void BM_conv_const_w(benchmark::State& state) {
  ConvSetup s(false);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs, kConstFilter);
  Time(state, {&conv});
}

void BM_conv_nhwc_runtime_w(benchmark::State& state) {
  ConvSetup s(true);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs);
  Time(state, {&conv});
}

void BM_conv_nhwc_const_w(benchmark::State& state) {
  ConvSetup s(true);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs, kConstFilter);
  Time(state, {&conv});
}

void BM_conv_relu_fused(benchmark::State& state) {
  ConvSetup s(false);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.With({"relu"}), kConstFilter);
  Time(state, {&conv});
}

void BM_conv_relu_separate(benchmark::State& state) {
  ConvSetup s(false);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs, kConstFilter);
  Tensor y{s.x.spec, {}};
  Op relu = Compile("Relu", {&y}, {});
  relu.inputs[0] = conv.out;
  Time(state, {&conv, &relu});
}

void BM_conv_add_relu_fused(benchmark::State& state) {
  ConvSetup s(false);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias, &s.residual}, s.With({"add", "relu"}), kConstFilter);
  Time(state, {&conv});
}

void BM_conv_add_relu_separate(benchmark::State& state) {
  ConvSetup s(false);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs, kConstFilter);
  Tensor y{s.x.spec, {}};
  Op add = Compile("Add", {&y, &s.residual}, {});
  add.inputs[0] = conv.out;
  Op relu = Compile("Relu", {&y}, {});
  relu.inputs[0] = add.out;
  Time(state, {&conv, &add, &relu});
}

void RunFc(benchmark::State& state, bool constant) {
  Tensor a = RandomTensor({1, 2048}, ACL_FORMAT_ND, 5), b = RandomTensor({2048, 1000}, ACL_FORMAT_ND, 6);
  Tensor bias = RandomTensor({1000}, ACL_FORMAT_ND, 7);
  Op fc = Compile("MatMul", {&a, &b, &bias}, {}, {false, constant, false});
  Time(state, {&fc});
}

void BM_fc_runtime_w(benchmark::State& state) { RunFc(state, false); }
void BM_fc_const_w(benchmark::State& state) { RunFc(state, true); }

// The paired forms of the comparisons (ratio_p50 is the figure to read on a loaded machine).
void BM_pair_conv_const(benchmark::State& state) {
  ConvSetup s(state.range(0) != 0);
  Op runtime = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs);
  Op constant = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs, kConstFilter);
  TimePair(state, {&constant}, {&runtime});
}

void BM_pair_conv_relu(benchmark::State& state) {
  ConvSetup s(false);
  Op fused = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.With({"relu"}), kConstFilter);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs, kConstFilter);
  Tensor y{s.x.spec, {}};
  Op relu = Compile("Relu", {&y}, {});
  relu.inputs[0] = conv.out;
  TimePair(state, {&fused}, {&conv, &relu});
}

void BM_pair_conv_add_relu(benchmark::State& state) {
  ConvSetup s(false);
  Op fused = Compile("Conv2D", {&s.x, &s.f, &s.bias, &s.residual}, s.With({"add", "relu"}), kConstFilter);
  Op conv = Compile("Conv2D", {&s.x, &s.f, &s.bias}, s.attrs, kConstFilter);
  Tensor y{s.x.spec, {}};
  Op add = Compile("Add", {&y, &s.residual}, {});
  add.inputs[0] = conv.out;
  Op relu = Compile("Relu", {&y}, {});
  relu.inputs[0] = add.out;
  TimePair(state, {&fused}, {&conv, &add, &relu});
}

void BM_pair_fc_const(benchmark::State& state) {
  Tensor a = RandomTensor({1, 2048}, ACL_FORMAT_ND, 5), b = RandomTensor({2048, 1000}, ACL_FORMAT_ND, 6);
  Tensor bias = RandomTensor({1000}, ACL_FORMAT_ND, 7);
  Op runtime = Compile("MatMul", {&a, &b, &bias}, {});
  Op constant = Compile("MatMul", {&a, &b, &bias}, {}, {false, true, false});
  TimePair(state, {&constant}, {&runtime});
}

BENCHMARK(BM_conv_runtime_w)->Name("conv_c256_runtime_w_us")->UseManualTime();
BENCHMARK(BM_conv_const_w)->Name("conv_c256_const_w_us")->UseManualTime();
BENCHMARK(BM_conv_relu_fused)->Name("conv_c256_relu_fused_us")->UseManualTime();
BENCHMARK(BM_conv_relu_separate)->Name("conv_c256_relu_separate_us")->UseManualTime();
BENCHMARK(BM_conv_add_relu_fused)->Name("conv_c256_add_relu_fused_us")->UseManualTime();
BENCHMARK(BM_conv_add_relu_separate)->Name("conv_c256_add_relu_separate_us")->UseManualTime();
BENCHMARK(BM_conv_nhwc_runtime_w)->Name("conv_c256_nhwc_runtime_w_us")->UseManualTime();
BENCHMARK(BM_conv_nhwc_const_w)->Name("conv_c256_nhwc_const_w_us")->UseManualTime();
BENCHMARK(BM_fc_runtime_w)->Name("fc_2048x1000_runtime_w_us")->UseManualTime();
BENCHMARK(BM_fc_const_w)->Name("fc_2048x1000_const_w_us")->UseManualTime();
BENCHMARK(BM_pair_conv_const)->Name("pair_conv_c256_const_over_runtime_w")->Arg(0)->UseManualTime();
BENCHMARK(BM_pair_conv_const)->Name("pair_conv_c256_nhwc_const_over_runtime_w")->Arg(1)->UseManualTime();
BENCHMARK(BM_pair_conv_relu)->Name("pair_conv_c256_relu_fused_over_separate")->UseManualTime();
BENCHMARK(BM_pair_conv_add_relu)->Name("pair_conv_c256_add_relu_fused_over_separate")->UseManualTime();
BENCHMARK(BM_pair_fc_const)->Name("pair_fc_2048x1000_const_over_runtime_w")->UseManualTime();

}  // namespace
}  // namespace npurt_bench
