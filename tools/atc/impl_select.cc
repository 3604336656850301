#include "impl_select.h"

#include <algorithm>
#include <vector>

namespace npurt::atc {
namespace {

// The attr's values are all 1 (absent: the default, 1); one of another type is not (the backend refuses it).
bool AllOnes(const Node& n, const char* name) {
  auto v = GetInts(n.attrs, name, {1, 1});
  return v.ok() && std::all_of(v->begin(), v->end(), [](int64_t x) { return x == 1; });
}

bool Fp32Conv(const Graph& g, const Node& n) {
  return n.op_type == "Conv2D" && n.inputs.size() >= 2 && n.inputs[0] >= 0 && n.inputs[1] >= 0 &&
         g.tensors[static_cast<size_t>(n.inputs[0])].spec.dtype == kFloat &&
         g.tensors[static_cast<size_t>(n.inputs[1])].spec.dtype == kFloat;
}

// A 3x3 filter in the layout the ONNX mapper writes ([O, I, KH, KW]).
bool Filter3x3(const Graph& g, const Node& n) {
  const TensorSpec& f = g.tensors[static_cast<size_t>(n.inputs[1])].spec;
  return f.rank() == 4 && f.dims[2] == 3 && f.dims[3] == 3;
}

bool Bf16Conv(const Node& n) {
  auto compute = GetString(n.attrs, "compute_dtype", "");
  return n.op_type == "Conv2D" && compute.ok() && compute.value() == "bfloat16";
}

constexpr int32_t kBf16Type = 27;  // ACL_BF16
constexpr int32_t kNc1hwc0 = 3;    // ACL_FORMAT_NC1HWC0

}  // namespace

bool HighPerformanceImpl(const Options& opts, const std::string& op_type) {
  const std::string& mode = opts.op_select_implmode;
  if (mode.empty() || mode == "high_performance" || mode == "high_performance_for_all") return true;
  if (mode == "high_precision_for_all") return false;
  // high_precision: for the listed types when there is a list, else for all.
  const auto& list = opts.optypelist_for_implmode;
  return !list.empty() && std::find(list.begin(), list.end(), op_type) == list.end();
}

bool Bf16Compute(const Options& opts) {
  return opts.precision_mode == "allow_mix_precision_bf16" || opts.precision_mode == "allow_fp32_to_bf16" ||
         opts.precision_mode_v2 == "mixed_bfloat16";
}

int SelectConvAlgorithms(Graph& g, const Options& opts) {
  if (!HighPerformanceImpl(opts, "Conv2D")) return 0;
  int marked = 0;
  for (Node& n : g.nodes) {
    if (!Fp32Conv(g, n) || n.attrs.contains("algorithm") || !Filter3x3(g, n)) continue;
    auto groups = GetInt(n.attrs, "groups", 1);
    if (!AllOnes(n, "strides") || !AllOnes(n, "dilations") || !groups.ok() || groups.value() != 1) continue;
    n.attrs["algorithm"] = std::string("winograd");
    ++marked;
  }
  return marked;
}

int SelectComputeTypes(Graph& g, const Options& opts) {
  if (!Bf16Compute(opts)) return 0;
  int marked = 0;
  for (Node& n : g.nodes) {
    if (!Fp32Conv(g, n) || n.attrs.contains("compute_dtype")) continue;
    n.attrs["compute_dtype"] = std::string("bfloat16");
    ++marked;
  }
  return marked;
}

int ChainBf16Activations(Graph& g) {
  std::vector<std::vector<int32_t>> readers(g.tensors.size());
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    for (int32_t t : g.nodes[i].inputs) {
      if (t >= 0) readers[static_cast<size_t>(t)].push_back(static_cast<int32_t>(i));
    }
  }
  std::vector<bool> output(g.tensors.size(), false);
  for (int32_t t : g.outputs) output[static_cast<size_t>(t)] = true;
  int chained = 0;
  for (Node& p : g.nodes) {
    if (!Bf16Conv(p) || FusesResidualAdd(p) || p.outputs.size() != 1 || p.attrs.contains("dst_dtype")) continue;
    const auto t = static_cast<size_t>(p.outputs[0]);
    TensorSpec& spec = g.tensors[t].spec;
    if (output[t] || spec.format != kNc1hwc0 || spec.dtype != kFloat || readers[t].empty()) continue;
    bool only_bf16_x = true;
    for (int32_t r : readers[t]) {
      const Node& reader = g.nodes[static_cast<size_t>(r)];
      const auto uses = std::count(reader.inputs.begin(), reader.inputs.end(), p.outputs[0]);
      only_bf16_x = only_bf16_x && Bf16Conv(reader) && reader.inputs[0] == p.outputs[0] && uses == 1;
    }
    if (!only_bf16_x) continue;
    spec.dtype = kBf16Type;
    p.attrs["dst_dtype"] = std::string("bfloat16");
    ++chained;
  }
  return chained;
}

}  // namespace npurt::atc
